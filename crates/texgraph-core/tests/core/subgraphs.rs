//! Subgraphs: graph files used as nodes render like the same nodes pasted by hand, their
//! exposed params reach the nodes they stand for, and every broken inclusion is an error
//! naming the including node and the file.

use std::path::{Path, PathBuf};

use crate::common::{self, graph, graphs_dir, render_graph};
use texgraph_core::{Graph, ParamValue, RenderOptions, compile, compile_node, diagnose, render};

/// A fresh folder under the system's temp folder.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("texgraph-subgraphs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The graph at `path`, its relative files joined to its folder, as the CLI loads it.
fn load(path: &Path) -> Graph {
    let mut graph = Graph::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    graph.resolve_paths(&texgraph_core::paths::folder_of(path));
    graph
}

fn pixels(graph: &Graph) -> Vec<f32> {
    render_graph(graph, None, 64, RenderOptions::default()).data
}

/// marble.json with its turbulence, wave and levels replaced by library/marble_veins.json.
fn marble_through_subgraph(params: &str) -> Graph {
    let mut marble = common::example("marble");
    marble
        .nodes
        .retain(|n| !["turb", "veins", "sharpen"].contains(&n.id.as_str()));
    let node: texgraph_core::Node = serde_json::from_str(&format!(
        r#"{{ "id": "veins", "type": "graph", "params": {{ "file": "library/marble_veins.json" {params} }} }}"#
    ))
    .unwrap();
    marble.nodes.push(node);
    marble
        .node_mut("stone")
        .unwrap()
        .inputs
        .insert("input".into(), "veins.mask".into());
    marble.resolve_paths(&graphs_dir());
    marble
}

#[test]
fn an_inlined_subgraph_renders_bit_identically_to_the_nodes_pasted_inline() {
    let pasted = common::example("marble");
    let included = marble_through_subgraph("");
    assert_eq!(pixels(&included), pixels(&pasted));
}

#[test]
fn exposed_params_reach_the_nodes_they_target() {
    let mut pasted = common::example("marble");
    let veins = pasted.node_mut("veins").unwrap();
    veins
        .params
        .insert("frequency".into(), ParamValue::Number(5.0));
    veins
        .params
        .insert("angle".into(), ParamValue::Number(-10.0));
    pasted
        .node_mut("turb")
        .unwrap()
        .params
        .insert("seed".into(), ParamValue::Number(99.0));
    let included = marble_through_subgraph(r#", "vein_scale": 5, "angle": -10, "seed": 99"#);
    let overridden = pixels(&included);
    assert_eq!(overridden, pixels(&pasted));
    assert_ne!(overridden, pixels(&common::example("marble")));
}

#[test]
fn input_ports_carry_what_is_connected_and_otherwise_the_default() {
    let dir = scratch("ports");
    std::fs::write(
        dir.join("tint.json"),
        r##"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "in", "type": "graph_input", "params": { "name": "height", "default": 0.25 } },
            { "id": "ramp", "type": "gradient", "inputs": { "input": "in" } },
            { "id": "gain", "type": "math", "params": { "op": "multiply", "b": 2 }, "inputs": { "a": "in" } },
            { "id": "o1", "type": "output", "params": { "name": "color" }, "inputs": { "color": "ramp" } },
            { "id": "o2", "type": "output", "params": { "name": "doubled" }, "inputs": { "color": "gain" } }
        ] }"##,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
            { "id": "t", "type": "graph", "params": { "file": "tint.json" }, "inputs": { "height": "noise" } },
            { "id": "u", "type": "graph", "params": { "file": "tint.json" } },
            { "id": "out", "type": "output", "inputs": { "color": "t" } },
            { "id": "twice", "type": "output", "params": { "name": "twice" }, "inputs": { "color": "t.doubled" } },
            { "id": "flat", "type": "output", "params": { "name": "flat" }, "inputs": { "color": "u.doubled" } }
        ] }"#,
    )
    .unwrap();
    let included = load(&dir.join("main.json"));
    let pasted = graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
            { "id": "ramp", "type": "gradient", "inputs": { "input": "noise" } },
            { "id": "gain", "type": "math", "params": { "op": "multiply", "b": 2 }, "inputs": { "a": "noise" } },
            { "id": "out", "type": "output", "inputs": { "color": "ramp" } },
            { "id": "twice", "type": "output", "params": { "name": "twice" }, "inputs": { "color": "gain" } }
        ] }"#,
    );
    let opts = RenderOptions::default();
    for name in ["color", "twice"] {
        let a = render_graph(&included, Some(name), 32, opts.clone());
        let b = render_graph(&pasted, Some(name), 32, opts.clone());
        assert_eq!(a.data, b.data, "output {name}");
    }
    // Unconnected, the input gives its default: 0.25 · 2 everywhere.
    let flat = render_graph(&included, Some("flat"), 8, opts);
    assert!(flat.data.iter().all(|&v| v == 0.5), "{:?}", &flat.data[..4]);
    // A subgraph node's thumbnail is what feeds the file's output.
    let thumb = compile_node(&included, "t", Some("doubled")).unwrap();
    let image = render(&thumb, 32, 32, RenderOptions::default(), &|_| {}).unwrap();
    assert_eq!(
        image.data,
        render_graph(&pasted, Some("twice"), 32, RenderOptions::default()).data
    );
}

#[test]
fn subgraphs_nest_and_forward_exposed_params() {
    let dir = scratch("nest");
    std::fs::copy(
        graphs_dir().join("library/marble_veins.json"),
        dir.join("veins.json"),
    )
    .unwrap();
    std::fs::write(
        dir.join("layer.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "inner", "type": "graph", "params": { "file": "veins.json", "angle": 60 } },
            { "id": "out", "type": "output", "inputs": { "color": "inner" } }
        ], "exposed": [ { "name": "scale", "target": "inner.vein_scale" } ] }"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.json"),
        r#"{ "format": "texgraph", "version": 2, "settings": { "tileable": true }, "nodes": [
            { "id": "l", "type": "graph", "params": { "file": "layer.json", "scale": 6 } },
            { "id": "out", "type": "output", "inputs": { "color": "l" } }
        ] }"#,
    )
    .unwrap();
    let nested = load(&dir.join("main.json"));
    let interface = texgraph_core::subgraph::interface(&dir.join("layer.json")).unwrap();
    let scale = interface.param("scale").unwrap();
    assert_eq!(
        scale.default_value(),
        ParamValue::Number(3.0),
        "the wave's frequency in veins.json"
    );
    assert_eq!(scale.doc, "How many veins cross the texture.");

    let mut pasted = common::example("marble");
    pasted
        .nodes
        .retain(|n| n.kind != "gradient" && n.kind != "output");
    let veins = pasted.node_mut("veins").unwrap();
    veins
        .params
        .insert("frequency".into(), ParamValue::Number(6.0));
    veins
        .params
        .insert("angle".into(), ParamValue::Number(60.0));
    pasted.nodes.push(
        serde_json::from_str(
            r#"{ "id": "out", "type": "output", "inputs": { "color": "sharpen" } }"#,
        )
        .unwrap(),
    );
    assert_eq!(pixels(&nested), pixels(&pasted));
}

/// The one error `graph` gives, as text; asserts it is about node `node`, field `field`.
fn only_error(graph: &Graph, node: &str, field: &str) -> String {
    let errors = diagnose(graph).errors;
    assert_eq!(errors.len(), 1, "{errors:?}");
    let error = &errors[0];
    assert_eq!(error.location.node.as_deref(), Some(node), "{error}");
    assert_eq!(error.location.field.as_deref(), Some(field), "{error}");
    let compiled = compile(graph, None).expect_err("compiling must fail too");
    assert_eq!(compiled.problems(), &errors[..]);
    error.to_string()
}

fn including(dir: &Path, node: &str) -> Graph {
    std::fs::write(
        dir.join("main.json"),
        format!(
            r#"{{ "format": "texgraph", "version": 2, "nodes": [
                {{ "id": "n", "type": "perlin" }},
                {node},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "sub" }} }}
            ] }}"#
        ),
    )
    .unwrap();
    load(&dir.join("main.json"))
}

#[test]
fn a_missing_file_names_the_node_and_the_file() {
    let dir = scratch("missing");
    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "nowhere.json" } }"#,
    );
    let message = only_error(&g, "sub", "file");
    assert!(
        message.contains("nowhere.json") && message.contains("cannot read"),
        "{message}"
    );
    let g = including(&dir, r#"{ "id": "sub", "type": "graph" }"#);
    assert!(only_error(&g, "sub", "file").contains("no graph file chosen"));
}

#[test]
fn a_cycle_across_files_names_the_chain() {
    let dir = scratch("cycle");
    for (name, other) in [("a.json", "b.json"), ("b.json", "a.json")] {
        std::fs::write(
            dir.join(name),
            format!(
                r#"{{ "format": "texgraph", "version": 2, "nodes": [
                    {{ "id": "inc", "type": "graph", "params": {{ "file": "{other}" }} }},
                    {{ "id": "out", "type": "output", "inputs": {{ "color": "inc" }} }}
                ] }}"#
            ),
        )
        .unwrap();
    }
    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "a.json" } }"#,
    );
    let message = only_error(&g, "sub", "file");
    assert!(
        message.contains("includes itself: a.json → b.json → a.json"),
        "{message}"
    );
}

#[test]
fn an_unknown_exposed_target_names_the_file_and_the_entry() {
    let dir = scratch("target");
    std::fs::write(
        dir.join("sub.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "p", "type": "perlin" },
            { "id": "out", "type": "output", "inputs": { "color": "p" } }
        ], "exposed": [ { "name": "scale", "target": "p.frequncy" } ] }"#,
    )
    .unwrap();
    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "sub.json" } }"#,
    );
    let message = only_error(&g, "sub", "file");
    assert!(
        message.contains("sub.json")
            && message.contains("exposed[0].target")
            && message.contains("no param 'frequncy'"),
        "{message}"
    );
}

#[test]
fn ports_and_params_the_file_lacks_are_named() {
    let dir = scratch("ports-lacking");
    std::fs::copy(
        graphs_dir().join("library/marble_veins.json"),
        dir.join("veins.json"),
    )
    .unwrap();
    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json" }, "inputs": { "noise": "n" } }"#,
    );
    let message = only_error(&g, "sub", "noise");
    assert!(
        message.contains("has no input 'noise'") && message.contains("vein_scale"),
        "{message}"
    );

    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json", "octaves": 3 } }"#,
    );
    let message = only_error(&g, "sub", "octaves");
    assert!(message.contains("exposes no param 'octaves'"), "{message}");

    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json", "vein_scale": 1e9 } }"#,
    );
    assert!(only_error(&g, "sub", "vein_scale").contains("out of range"));

    let mut g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json" } }"#,
    );
    g.node_mut("out")
        .unwrap()
        .inputs
        .insert("color".into(), "sub.height".into());
    let message = only_error(&g, "out", "color");
    assert!(
        message.contains("no output 'height' (outputs: mask)"),
        "{message}"
    );
}

#[test]
fn problems_inside_an_included_file_name_the_including_node() {
    let dir = scratch("inside");
    std::fs::write(
        dir.join("sub.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "p", "type": "perlin", "params": { "octaves": 3 } },
            { "id": "out", "type": "output", "inputs": { "color": "p" } }
        ] }"#,
    )
    .unwrap();
    let g = including(
        &dir,
        r#"{ "id": "sub", "type": "graph", "params": { "file": "sub.json" } }"#,
    );
    let message = only_error(&g, "sub", "file");
    assert!(
        message.contains("sub.json") && message.contains("node 'p', field 'octaves'"),
        "{message}"
    );
}

#[test]
fn graph_files_are_written_with_the_lowest_version_that_holds_them() {
    let marble = common::example("marble");
    assert_eq!(
        marble.version,
        texgraph_core::graph::VERSION,
        "read as the current version"
    );
    assert!(marble.to_json().contains("\"version\": 1"));
    let slab = common::example("marble_slab");
    assert!(slab.to_json().contains("\"version\": 2"));
    let mut looping = common::example("fire");
    looping.settings.loop_seconds = Some(2.0);
    assert!(looping.to_json().contains("\"version\": 2"));
    // A label needs version 3.
    let mut labelled = common::example("marble");
    labelled.nodes[0].label = Some("grain".into());
    assert!(labelled.to_json().contains("\"version\": 3"));
    // An output's usage needs version 4; `color`, the default, does not.
    let mut material = common::example("marble_normal");
    let output = material.node_mut("normal_out").unwrap();
    output
        .params
        .insert("usage".into(), ParamValue::Text("color".into()));
    assert!(material.to_json().contains("\"version\": 1"));
    let output = material.node_mut("normal_out").unwrap();
    output
        .params
        .insert("usage".into(), ParamValue::Text("normal".into()));
    assert!(material.to_json().contains("\"version\": 4"));
    let future = r#"{ "format": "texgraph", "version": 6, "nodes": [] }"#;
    let message = Graph::from_json(future).unwrap_err().to_string();
    assert!(
        message.contains("unsupported version 6; this build reads versions 1 to 5"),
        "{message}"
    );
}

#[test]
fn making_a_subgraph_of_some_nodes_keeps_the_pixels() {
    for (example, ids) in [
        ("marble", &["turb", "veins", "sharpen"][..]),
        // Fed from outside (the noise and the rise) and read twice.
        ("fire", &["rising", "lick", "warped"][..]),
    ] {
        let dir = scratch(&format!("extract-{example}"));
        let original = common::example(example);
        let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        let made = texgraph_core::subgraph::extract(&original, &ids, "part", "part.json").unwrap();
        made.subgraph.save(&dir.join("part.json")).unwrap();
        made.including.save(&dir.join("main.json")).unwrap();
        let including = load(&dir.join("main.json"));
        assert_eq!(
            including.nodes.iter().filter(|n| n.kind == "graph").count(),
            1
        );
        assert_eq!(pixels(&including), pixels(&original), "{example}");
        // The file renders on its own too.
        assert!(compile(&load(&dir.join("part.json")), None).is_ok());
    }
    let marble = common::example("marble");
    let refused = texgraph_core::subgraph::extract(&marble, &["out".to_owned()], "p", "p.json");
    assert!(refused.unwrap_err().contains("outputs stay in the graph"));
}

#[test]
fn seed_offsets_move_node_and_subgraph_seeds() {
    use texgraph_core::ParamValue;
    let base = common::example("marble_slab");
    let mut moved = base.clone();
    texgraph_core::variation::offset_seeds(&mut moved, 3);
    let seed = |g: &texgraph_core::Graph, id: &str| match g.node(id).unwrap().params.get("seed") {
        Some(ParamValue::Number(n)) => *n,
        other => panic!("{id}: seed {other:?}"),
    };
    // 'fine' sets seed 21; 'broad' leaves its subgraph's default, 7.
    assert_eq!(seed(&moved, "fine"), 24.0);
    assert_eq!(seed(&moved, "broad"), 10.0);
    assert!(!moved.node("veins").unwrap().params.contains_key("seed"));
    // Offsets wrap within the range (the library file gives its seed 0 to 1000), and 0
    // changes nothing.
    let mut wrapped = moved.clone();
    texgraph_core::variation::offset_seeds(&mut wrapped, u32::MAX);
    assert_eq!(
        seed(&wrapped, "fine"),
        (24 + i64::from(u32::MAX)).rem_euclid(1001) as f64
    );
    let mut same = base.clone();
    texgraph_core::variation::offset_seeds(&mut same, 0);
    assert_eq!(seed(&same, "fine"), 21.0);
    let (a, b) = (
        common::render_graph(&base, None, 32, Default::default()),
        common::render_graph(&moved, None, 32, Default::default()),
    );
    assert!(
        common::mean_difference(&a, &b) > 0.01,
        "the seeds changed the slab"
    );
}

#[test]
fn an_exposed_range_narrows_the_slider_and_is_checked() {
    let dir = scratch("ranges");
    let inner = |min: &str, max: &str| {
        format!(
            r#"{{ "format": "texgraph", "version": 5, "doc": "Noise.", "category": "Generator", "nodes": [
               {{ "id": "n", "type": "perlin", "params": {{ "frequency": 4 }} }},
               {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ],
               "exposed": [ {{ "name": "scale", "target": "n.frequency", "min": {min}, "max": {max} }} ] }}"#
        )
    };
    let outer = |scale: f64| {
        graph(&format!(
            r#"{{ "format": "texgraph", "version": 5, "nodes": [
               {{ "id": "g", "type": "graph", "params": {{ "file": "{}", "scale": {scale} }} }},
               {{ "id": "out", "type": "output", "inputs": {{ "color": "g" }} }} ] }}"#,
            dir.join("inner.json").display()
        ))
    };
    std::fs::write(dir.join("inner.json"), inner("1", "16")).unwrap();
    let face = texgraph_core::subgraph::interface(&dir.join("inner.json")).unwrap();
    assert_eq!(face.doc, "Noise.");
    match face.params[0].kind {
        texgraph_core::registry::ParamKind::Float { min, max, .. } => {
            assert_eq!((min, max), (1.0, 16.0))
        }
        ref other => panic!("{other:?}"),
    }
    assert!(compile(&outer(8.0), None).is_ok());
    let err = compile(&outer(20.0), None).unwrap_err().to_string();
    assert!(err.contains("'g'") && err.contains("scale"), "{err}");
    // A range outside the target's, or one leaving out the file's own value, is refused.
    for (min, max, says) in [
        ("-5", "16", "outside the target's range"),
        ("5", "16", "the file's value 4"),
    ] {
        std::fs::write(dir.join("inner.json"), inner(min, max)).unwrap();
        let err = compile(&outer(8.0), None).unwrap_err().to_string();
        assert!(err.contains(says) && err.contains("exposed[0]"), "{err}");
    }
    // Saved with a range, a graph is version 5.
    let mut g = Graph::from_json(&inner("1", "16")).unwrap();
    g.version = 5;
    assert!(g.to_json().contains("\"version\": 5"));
}
