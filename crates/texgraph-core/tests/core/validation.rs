//! Every class of bad graph is refused with the node and field named.

use crate::common;

use texgraph_core::export::{Depth, ExportSettings, export_graph};
use texgraph_core::registry::{OpenValue, Unconnected};
use texgraph_core::validate::MISSING_INPUT;
use texgraph_core::{
    Error, Graph, Location, RenderOptions, compile, compile_node, diagnose, registry, render,
    validate,
};

/// A valid graph with `nodes` spliced in before the output, which reads node `n`.
fn with_nodes(nodes: &str) -> String {
    format!(
        r##"{{ "format": "texgraph", "version": 1, "nodes": [ {nodes},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"##
    )
}

/// The problems of a graph, whether found while parsing or while validating.
fn problems(json: &str) -> Vec<(Location, String)> {
    let found = match Graph::from_json(json) {
        Ok(graph) => validate(&graph),
        Err(Error::Invalid(p)) => p,
        Err(other) => panic!("unexpected error {other}"),
    };
    found.into_iter().map(|p| (p.location, p.message)).collect()
}

fn assert_problem(json: &str, node: Option<&str>, field: Option<&str>, words: &str) {
    let found = problems(json);
    assert!(
        found.iter().any(|(loc, msg)| loc.node.as_deref() == node
            && loc.field.as_deref() == field
            && msg.contains(words)),
        "expected a problem at {node:?}/{field:?} containing '{words}', found {found:?}"
    );
}

#[test]
fn a_valid_graph_has_no_problems() {
    assert_eq!(
        problems(&with_nodes(r##"{ "id": "n", "type": "perlin" }"##)),
        vec![]
    );
}

#[test]
fn unknown_type() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlinn" }"##),
        Some("n"),
        Some("type"),
        "unknown node type 'perlinn'",
    );
}

#[test]
fn unknown_param() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "params": { "freq": 2 } }"##),
        Some("n"),
        Some("freq"),
        "unknown param",
    );
}

#[test]
fn wrong_param_types() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "params": { "frequency": "high" } }"##),
        Some("n"),
        Some("frequency"),
        "expected a number",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "params": { "seed": 1.5 } }"##),
        Some("n"),
        Some("seed"),
        "expected an integer",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "params": { "frequency": true } }"##),
        Some("n"),
        Some("frequency"),
        "expected a number",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "value", "params": { "interpolation": "cubic" } }"##),
        Some("n"),
        Some("interpolation"),
        "not one of",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "color", "params": { "color": "red" } }"##),
        Some("n"),
        Some("color"),
        "not a color",
    );
    assert_problem(
        &with_nodes(
            r##"{ "id": "x", "type": "perlin" }, { "id": "n", "type": "gradient", "params": { "stops": [] }, "inputs": { "input": "x" } }"##,
        ),
        Some("n"),
        Some("stops"),
        "at least one stop",
    );
}

#[test]
fn out_of_range_values() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "params": { "frequency": 5000 } }"##),
        Some("n"),
        Some("frequency"),
        "out of range",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "fbm", "params": { "octaves": 17 } }"##),
        Some("n"),
        Some("octaves"),
        "out of range",
    );
    assert_problem(
        &with_nodes(
            r##"{ "id": "x", "type": "perlin" }, { "id": "n", "type": "gradient", "params": { "stops": [ { "pos": 1.5, "color": "#ffffff" } ] }, "inputs": { "input": "x" } }"##,
        ),
        Some("n"),
        Some("stops"),
        "out of range",
    );
}

#[test]
fn dangling_references_and_unknown_ports() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "warp", "inputs": { "source": "ghost" } }"##),
        Some("n"),
        Some("source"),
        "no node 'ghost'",
    );
    assert_problem(
        &with_nodes(
            r##"{ "id": "c", "type": "coords" }, { "id": "n", "type": "warp", "inputs": { "source": "c.w" } }"##,
        ),
        Some("n"),
        Some("source"),
        "no output 'w'",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "inputs": { "amplitude": "n" } }"##),
        Some("n"),
        Some("amplitude"),
        "no input 'amplitude'",
    );
    assert_problem(
        r##"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "out", "type": "output", "inputs": { "color": "n" } },
            { "id": "w", "type": "warp", "inputs": { "source": "out" } } ] }"##,
        Some("w"),
        Some("source"),
        "has no outputs",
    );
}

#[test]
fn an_open_input_is_no_error() {
    assert_eq!(
        problems(&with_nodes(r##"{ "id": "n", "type": "warp" }"##)),
        vec![]
    );
}

#[test]
fn duplicate_ids() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin" }, { "id": "n", "type": "value" }"##),
        Some("n"),
        Some("id"),
        "duplicate node id",
    );
}

#[test]
fn cycles() {
    assert_problem(
        &with_nodes(
            r##"{ "id": "n", "type": "warp", "inputs": { "source": "m" } }, { "id": "m", "type": "levels", "inputs": { "input": "n" } }"##,
        ),
        Some("m"),
        Some("input"),
        "cycle",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "math", "inputs": { "a": "n" } }"##),
        Some("n"),
        Some("a"),
        "cycle",
    );
}

#[test]
fn outputs_missing_or_named_twice() {
    assert_problem(
        r##"{ "format": "texgraph", "version": 1, "nodes": [ { "id": "n", "type": "perlin" } ] }"##,
        None,
        Some("nodes"),
        "no output node",
    );
    assert_problem(
        r##"{ "format": "texgraph", "version": 1, "nodes": [ { "id": "n", "type": "perlin" },
            { "id": "a", "type": "output", "params": { "name": "height" }, "inputs": { "color": "n" } },
            { "id": "b", "type": "output", "params": { "name": "height" }, "inputs": { "color": "n" } } ] }"##,
        Some("b"),
        Some("name"),
        "already used by node 'a'",
    );
    assert_problem(
        r##"{ "format": "texgraph", "version": 1, "nodes": [ { "id": "n", "type": "perlin" },
            { "id": "a", "type": "output", "params": { "name": "my height/1" }, "inputs": { "color": "n" } } ] }"##,
        Some("a"),
        Some("name"),
        "letters, digits",
    );
}

#[test]
fn header_problems() {
    assert_problem(
        r##"{ "format": "texgraph", "version": 6, "nodes": [] }"##,
        None,
        Some("version"),
        "unsupported version 6",
    );
    assert_problem(
        r##"{ "format": "substance", "version": 1, "nodes": [] }"##,
        None,
        Some("format"),
        "expected \"texgraph\"",
    );
    assert_problem(
        r##"{ "version": 1, "nodes": [] }"##,
        None,
        Some("format"),
        "missing",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "colour": 1 }"##),
        Some("n"),
        None,
        "unknown field `colour`",
    );
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "perlin", "inputs": { "z": 3 } }"##),
        Some("n"),
        None,
        "invalid type",
    );
}

#[test]
fn not_json_is_an_error_not_a_panic() {
    assert!(matches!(Graph::from_json("{ nodes: "), Err(Error::Json(_))));
    assert!(Graph::from_json("[]").is_err());
}

#[test]
fn every_problem_is_reported() {
    let found = problems(&with_nodes(
        r##"{ "id": "n", "type": "perlin", "params": { "frequency": -1, "z": "x", "what": 1 } }"##,
    ));
    assert_eq!(found.len(), 3, "{found:?}");
}

/// A complete chain into the output, plus `extra` nodes spliced in after it.
fn output_chain_with(extra: &str) -> String {
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(", {extra}")
    };
    format!(
        r##"{{ "format": "texgraph", "version": 1, "nodes": [
            {{ "id": "noise", "type": "perlin", "params": {{ "frequency": 6 }} }},
            {{ "id": "tint", "type": "gradient", "inputs": {{ "input": "noise" }} }},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "tint" }} }}{extra} ] }}"##
    )
}

/// A blend with only its mask connected: half built.
const HALF_BUILT_BLEND: &str =
    r##"{ "id": "mix", "type": "blend", "inputs": { "mask": "noise" } }"##;

fn locations(problems: &[texgraph_core::GraphError]) -> Vec<(Option<&str>, Option<&str>, &str)> {
    problems
        .iter()
        .map(|p| {
            (
                p.location.node.as_deref(),
                p.location.field.as_deref(),
                p.message.as_str(),
            )
        })
        .collect()
}

#[test]
fn open_inputs_read_the_constants_the_registry_documents() {
    let open = |id: &str, port: &str| {
        registry::lookup(id)
            .unwrap()
            .input(port)
            .unwrap()
            .unconnected
    };
    assert_eq!(open("blend", "a"), Unconnected::Reads(OpenValue::Gray(0.0)));
    assert_eq!(open("blend", "b"), Unconnected::Reads(OpenValue::Gray(0.0)));
    assert_eq!(
        open("normal_blend", "detail"),
        Unconnected::Reads(OpenValue::Rgba([0.5, 0.5, 1.0, 1.0]))
    );
    assert_eq!(open("blend", "mask"), Unconnected::NodeDecides);
    assert_eq!(open("output", "color"), Unconnected::MustConnect);
    // Only an output's input must be connected: every other node renders half-wired.
    let must: Vec<_> = registry::NODES
        .iter()
        .flat_map(|d| {
            d.inputs
                .iter()
                .filter(|p| p.required())
                .map(|p| (d.id, p.name))
        })
        .collect();
    assert_eq!(must, [("output", "color")]);
}

#[test]
fn an_unused_half_built_node_warns_of_its_open_inputs() {
    let graph = common::graph(&output_chain_with(HALF_BUILT_BLEND));
    assert_eq!(validate(&graph), vec![]);
    let found = diagnose(&graph);
    assert_eq!(found.errors, vec![]);
    assert_eq!(
        locations(&found.warnings),
        [
            (Some("mix"), Some("a"), "not connected: reads 0"),
            (Some("mix"), Some("b"), "not connected: reads 0"),
        ]
    );
    assert_eq!(
        found.warnings[0].to_string(),
        "node 'mix', field 'a': not connected: reads 0"
    );
}

/// Renders output `name` of `json` at 32², as bits.
fn rendered_bits(json: &str, name: &str) -> Vec<u32> {
    let program = compile(&common::graph(json), Some(name)).unwrap_or_else(|e| panic!("{e}"));
    let image = render(&program, 32, 32, RenderOptions::default(), &|_| {}).expect("render");
    image.data.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn a_half_built_node_an_output_depends_on_renders_with_its_open_inputs_constants() {
    // Feeding the output directly, and through another node into a second output.
    let json = output_chain_with(&format!(
        r##"{HALF_BUILT_BLEND},
            {{ "id": "lv", "type": "levels", "inputs": {{ "input": "mix" }} }},
            {{ "id": "h", "type": "output", "params": {{ "name": "height" }}, "inputs": {{ "color": "lv" }} }},
            {{ "id": "m", "type": "output", "params": {{ "name": "mix" }}, "inputs": {{ "color": "mix" }} }}"##
    ));
    let found = diagnose(&common::graph(&json));
    assert_eq!(found.errors, vec![]);
    assert_eq!(
        locations(&found.warnings),
        [
            (Some("mix"), Some("a"), "not connected: reads 0"),
            (Some("mix"), Some("b"), "not connected: reads 0"),
        ]
    );
    // The same bits as the graph with a constant 0 wired into both.
    let wired = json.replace(
        r#""inputs": { "mask": "noise" }"#,
        r#""inputs": { "mask": "noise", "a": "zero", "b": "zero" } },
           { "id": "zero", "type": "constant", "params": { "value": 0 }"#,
    );
    assert_eq!(validate(&common::graph(&wired)), vec![]);
    assert!(diagnose(&common::graph(&wired)).warnings.is_empty());
    for output in ["height", "mix"] {
        assert_eq!(
            rendered_bits(&json, output),
            rendered_bits(&wired, output),
            "{output}"
        );
    }
}

#[test]
fn an_open_normal_map_reads_a_flat_normal_and_an_open_plane_reads_its_constant() {
    let graph = |detail: &str, blurred: &str| {
        format!(
            r##"{{ "format": "texgraph", "version": 1, "nodes": [
            {{ "id": "noise", "type": "perlin", "params": {{ "frequency": 6 }} }},
            {{ "id": "n", "type": "normal", "inputs": {{ "height": "noise" }} }},
            {{ "id": "half", "type": "constant", "params": {{ "value": 0.5 }} }},
            {{ "id": "one", "type": "constant", "params": {{ "value": 1 }} }},
            {{ "id": "flat", "type": "merge", "inputs": {{ "r": "half", "g": "half", "b": "one" }} }},
            {{ "id": "zero", "type": "constant", "params": {{ "value": 0 }} }},
            {{ "id": "nb", "type": "normal_blend", "inputs": {{ "base": "n"{detail} }} }},
            {{ "id": "soft", "type": "blur", "inputs": {{ {blurred} }} }},
            {{ "id": "out", "type": "output", "params": {{ "usage": "normal" }}, "inputs": {{ "color": "nb" }} }},
            {{ "id": "b", "type": "output", "params": {{ "name": "soft" }}, "inputs": {{ "color": "soft" }} }} ] }}"##
        )
    };
    let open = graph("", "");
    let found = diagnose(&common::graph(&open));
    assert_eq!(found.errors, vec![]);
    assert_eq!(
        locations(&found.warnings),
        [
            (
                Some("nb"),
                Some("detail"),
                "not connected: reads a flat normal (0.5, 0.5, 1)"
            ),
            (Some("soft"), Some("input"), "not connected: reads 0"),
        ]
    );
    // The same bits as (0.5, 0.5, 1, 1) and 0 wired in.
    let wired = graph(r#", "detail": "flat""#, r#""input": "zero""#);
    assert_eq!(diagnose(&common::graph(&wired)).warnings, vec![]);
    assert_eq!(
        rendered_bits(&open, "color"),
        rendered_bits(&wired, "color")
    );
    let soft = rendered_bits(&open, "soft");
    assert_eq!(soft, rendered_bits(&wired, "soft"));
    assert!(
        soft.iter()
            .all(|&v| f32::from_bits(v) == 0.0 || v == 1f32.to_bits())
    );
}

#[test]
fn an_output_without_input_is_an_error() {
    let json = output_chain_with(
        r##"{ "id": "spare", "type": "output", "params": { "name": "spare" } }"##,
    );
    let found = diagnose(&common::graph(&json));
    assert_eq!(found.warnings, vec![]);
    assert_eq!(
        locations(&found.errors),
        [(Some("spare"), Some("color"), MISSING_INPUT)]
    );
}

#[test]
fn malformed_unused_nodes_are_still_errors() {
    let cases = [
        (
            r##"{ "id": "x", "type": "perlin", "params": { "freq": 2 } }"##,
            "freq",
            "unknown param",
        ),
        (
            r##"{ "id": "x", "type": "perlinn" }"##,
            "type",
            "unknown node type 'perlinn'",
        ),
        (
            r##"{ "id": "x", "type": "perlin", "params": { "frequency": 5000 } }"##,
            "frequency",
            "out of range",
        ),
        (
            r##"{ "id": "x", "type": "blend", "inputs": { "a": "ghost", "b": "noise" } }"##,
            "a",
            "refers to no node 'ghost'",
        ),
    ];
    for (node, field, words) in cases {
        let graph = common::graph(&output_chain_with(node));
        let found = diagnose(&graph);
        assert!(
            found
                .errors
                .iter()
                .any(|p| p.location == Location::field("x", field) && p.message.contains(words)),
            "{node}: expected an error at x/{field} with '{words}', found {found:?}"
        );
        assert_eq!(found.warnings, vec![], "{node}");
        assert_eq!(validate(&graph), found.errors, "{node}");
        assert!(compile(&graph, None).is_err(), "{node}");
    }
}

#[test]
fn a_graph_with_warnings_only_renders_as_without_the_half_built_node() {
    let with = common::graph(&output_chain_with(HALF_BUILT_BLEND));
    let without = common::graph(&output_chain_with(""));
    let draw = |graph: &Graph| {
        let program = compile(graph, None).unwrap_or_else(|e| panic!("compile: {e}"));
        render(&program, 32, 32, RenderOptions::default(), &|_| {}).expect("render")
    };
    let (a, b) = (draw(&with), draw(&without));
    assert_eq!((a.width, a.height, a.channels), (32, 32, 4));
    assert_eq!(
        (a.width, a.height, a.channels),
        (b.width, b.height, b.channels)
    );
    let bits = |image: &texgraph_core::Image| -> Vec<u32> {
        image.data.iter().map(|v| v.to_bits()).collect()
    };
    assert_eq!(bits(&a), bits(&b));
    assert!(a.data.iter().any(|v| *v != a.data[0]), "the image varies");
}

#[test]
fn compile_node_previews_a_half_built_node_with_its_open_inputs_constants() {
    let json = output_chain_with(&format!(
        r##"{HALF_BUILT_BLEND}, {{ "id": "lv", "type": "levels", "inputs": {{ "input": "mix" }} }}"##
    ));
    let graph = common::graph(&json);
    assert_eq!(validate(&graph), vec![]);
    for id in ["mix", "lv", "noise", "tint", "out"] {
        compile_node(&graph, id, None).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn export_writes_a_graph_with_warnings_only() {
    let with = common::graph(&output_chain_with(HALF_BUILT_BLEND));
    let without = common::graph(&output_chain_with(""));
    let dir = tempfile::tempdir().unwrap();
    let settings = ExportSettings {
        width: 32,
        height: 32,
        depth: Depth::Eight,
        output: None,
        options: RenderOptions::default(),
    };
    let (a, b) = (dir.path().join("with.png"), dir.path().join("without.png"));
    let done = export_graph(&with, &settings, &a, &|_| {}).expect("exported with warnings");
    assert_eq!((done.width, done.height, done.channels), (32, 32, 4));
    export_graph(&without, &settings, &b, &|_| {}).expect("exported");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn bad_curve_points_name_the_node_and_field() {
    let curve = |points: &str| {
        with_nodes(&format!(
            r#"{{ "id": "p", "type": "perlin" }},
               {{ "id": "n", "type": "curve", "params": {{ "points": {points} }}, "inputs": {{ "input": "p" }} }}"#
        ))
    };
    let at = (Some("n"), Some("points"));
    assert_problem(
        &curve(r#"[{ "x": 0.5, "y": 0.5 }]"#),
        at.0,
        at.1,
        "at least two points",
    );
    assert_problem(&curve("[]"), at.0, at.1, "at least two points");
    assert_problem(
        &curve(r#"[{ "x": 0, "y": 0 }, { "x": 1.5, "y": 1 }]"#),
        at.0,
        at.1,
        "point 1: x 1.5 is out of range",
    );
    assert_problem(
        &curve(r#"[{ "x": 0, "y": 0 }, { "x": 1, "z": 1 }]"#),
        at.0,
        at.1,
        "expected points like",
    );
    let many: Vec<String> = (0..65)
        .map(|i| format!(r#"{{ "x": {}, "y": 0.5 }}"#, f64::from(i) / 64.0))
        .collect();
    assert_problem(
        &curve(&format!("[{}]", many.join(","))),
        at.0,
        at.1,
        "at most 64 points",
    );
    assert_problem(
        &curve(r#""linear""#),
        at.0,
        at.1,
        "expected a list of points",
    );
}
