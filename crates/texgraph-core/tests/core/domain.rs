//! No valid graph produces NaN or infinity: every node, with every param at the ends of
//! its range (alone and all together), fed ordinary, huge, zero and negative inputs,
//! renders finite samples everywhere (see "Math domain" in docs/nodes.md).

use crate::common;
use crate::invariants;

use serde_json::{Value, json};
use texgraph_core::registry::{NODES, NodeDescriptor, ParamKind};

/// The feeds an input can get: a noise, and constants at the edges of what a constant
/// can hold.
const FEEDS: [&str; 6] = ["noise", "huge", "tiny", "zero", "negative", "one"];

fn feed_nodes() -> Vec<Value> {
    let constant = |id: &str, value: f64| json!({ "id": id, "type": "constant", "params": { "value": value } });
    vec![
        json!({ "id": "noise", "type": "fbm", "params": { "frequency": 3, "octaves": 3 } }),
        constant("huge", 1e6),
        constant("tiny", 1e-6),
        constant("zero", 0.0),
        constant("negative", -1e6),
        constant("one", 1.0),
    ]
}

/// The extreme values of a param: its ends, zero and (for choices) every option.
fn extremes(kind: &ParamKind) -> Vec<Value> {
    match *kind {
        ParamKind::Float { min, max, .. } => {
            let mut values = vec![json!(min), json!(max)];
            if min < 0.0 && max > 0.0 {
                values.push(json!(0.0));
            }
            if min < 1e-6 && max > 1e-6 {
                values.push(json!(1e-6));
            }
            values
        }
        ParamKind::Int { min, max, .. } => vec![json!(min), json!(max)],
        ParamKind::Choice { options, .. } => options.iter().map(|o| json!(o)).collect(),
        ParamKind::Bool { .. } => vec![json!(false), json!(true)],
        ParamKind::Stops { .. } => vec![
            json!([{ "pos": 0.5, "color": "#ff0000" }]),
            json!([{ "pos": 0.0, "color": "#000000" }, { "pos": 0.0, "color": "#ffffff" }]),
            json!([{ "pos": 1.0, "color": "#000000" }, { "pos": 1.0, "color": "#ffffff" }, { "pos": 0.0, "color": "#00000000" }]),
        ],
        ParamKind::Points { .. } => vec![
            json!([{ "x": 0.0, "y": 1.0 }, { "x": 1.0, "y": 0.0 }]),
            json!([{ "x": 0.5, "y": 0.0 }, { "x": 0.5, "y": 1.0 }, { "x": 0.5, "y": 0.3 }]),
            json!([{ "x": 1.0, "y": 1.0 }, { "x": 0.0, "y": 0.0 }, { "x": 0.1, "y": 1.0 }, { "x": 0.11, "y": 0.0 }]),
        ],
        ParamKind::Color { .. } => vec![json!("#00000000"), json!("#ffffffff")],
        ParamKind::Text { .. } | ParamKind::File { .. } => Vec::new(),
    }
}

/// A graph: the feeds, then `desc` with `params` and every input (explicit ports and
/// float sockets where `sockets`) fed from `feed`, into an output.
fn graph_of(desc: &NodeDescriptor, params: Value, feed: &str, sockets: bool) -> Value {
    let mut inputs = serde_json::Map::new();
    for (name, _) in desc.connectable_inputs() {
        let explicit = desc.input(name).is_some();
        if explicit || sockets {
            inputs.insert(name.to_owned(), json!(feed));
        }
    }
    let mut params = params;
    if desc.id == "image" {
        params["path"] = json!("images/marble.png");
    }
    let mut nodes = feed_nodes();
    nodes.push(json!({ "id": "node", "type": desc.id, "params": params, "inputs": inputs }));
    if desc.id != "output" {
        nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": "node" } }));
    }
    json!({ "format": "texgraph", "version": 1, "settings": { "tileable": feed != "huge" }, "nodes": nodes })
}

/// Renders `graph` (which must validate) and checks every promise of `invariants`;
/// what broke goes to `failures`.
fn check_finite(what: &str, graph: &Value, failures: &mut Vec<String>) {
    let mut graph = texgraph_core::Graph::from_json(&graph.to_string()).unwrap();
    graph.resolve_paths(&common::graphs_dir());
    if !texgraph_core::check(&graph).errors.is_empty() {
        // Not valid (a noise into a param that must be uniform): nothing is promised.
        return;
    }
    if let Err(broken) = invariants::check_graph(&graph) {
        failures.push(format!("{what}: {broken}"));
    }
}

fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} graphs broke:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_param_at_its_extremes_renders_finite_samples() {
    let mut graphs = 0;
    let mut failures = Vec::new();
    for desc in NODES {
        for param in desc.params {
            for value in extremes(&param.kind) {
                for feed in FEEDS {
                    let params = json!({ param.name: value });
                    let graph = graph_of(desc, params, feed, false);
                    let what = format!("{}.{} = {value} fed {feed}", desc.id, param.name);
                    check_finite(&what, &graph, &mut failures);
                    graphs += 1;
                }
            }
        }
    }
    assert_none(&failures);
    assert!(graphs > 500, "only {graphs} graphs");
}

#[test]
fn all_params_at_one_end_together_render_finite_samples() {
    let mut failures = Vec::new();
    for desc in NODES {
        for end in [0, 1] {
            let mut params = serde_json::Map::new();
            for param in desc.params {
                let values = extremes(&param.kind);
                if let Some(v) = values.get(end.min(values.len().saturating_sub(1))) {
                    params.insert(param.name.to_owned(), v.clone());
                }
            }
            for feed in FEEDS {
                for sockets in [false, true] {
                    let graph = graph_of(desc, Value::Object(params.clone()), feed, sockets);
                    let what = format!(
                        "{} with every param at end {end}, fed {feed}, sockets {sockets}",
                        desc.id
                    );
                    check_finite(&what, &graph, &mut failures);
                }
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn long_chains_of_any_node_stay_finite() {
    // Nodes that amplify (sums, products, gains, divisions) would overflow to infinity
    // when chained; their results saturate at ±1e6 instead.
    let mut failures = Vec::new();
    for desc in NODES {
        let Some((port, _)) = desc.connectable_inputs().next() else {
            continue;
        };
        if desc.id == "output" {
            continue;
        }
        // Both ends of every range, with each option of the choices (math's ops, blend's
        // modes) in turn.
        let options = desc
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Choice { options, .. } => options.len(),
                _ => 1,
            })
            .max()
            .unwrap_or(1);
        for (end, option) in (0..2).flat_map(|e| (0..options).map(move |o| (e, o))) {
            let mut params = serde_json::Map::new();
            for param in desc.params {
                let values = extremes(&param.kind);
                let pick = match param.kind {
                    ParamKind::Choice { .. } => option % values.len(),
                    _ => end.min(values.len().saturating_sub(1)),
                };
                if let Some(v) = values.get(pick) {
                    params.insert(param.name.to_owned(), v.clone());
                }
            }
            if desc.id == "image" {
                params.insert("path".into(), json!("images/marble.png"));
            }
            for feed in ["huge", "negative", "tiny", "noise"] {
                let mut nodes = feed_nodes();
                for i in 0..60 {
                    let from = if i == 0 {
                        feed.to_owned()
                    } else {
                        format!("n{}", i - 1)
                    };
                    let mut inputs = serde_json::Map::new();
                    for (name, _) in desc.connectable_inputs() {
                        if desc.input(name).is_some() || name == port {
                            inputs.insert(name.to_owned(), json!(from));
                        }
                    }
                    nodes.push(json!({ "id": format!("n{i}"), "type": desc.id, "params": params, "inputs": inputs }));
                }
                nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": "n59" } }));
                let graph = json!({ "format": "texgraph", "version": 1, "nodes": nodes });
                let what = format!("60 × {} at end {end}, option {option}, fed {feed}", desc.id);
                check_finite(&what, &graph, &mut failures);
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn every_example_at_extreme_times_renders_finite_samples() {
    // `time` is any finite number (`--time`, the timeline): it drives phases, offsets and
    // blend masks, and none of them may overflow.
    let mut failures = Vec::new();
    for (name, graph) in common::examples() {
        for time in [-3.4e38f32, -1e30, -1e6, 1e-30, 1e6, 1e30, 3.4e38] {
            let mut graph = graph.clone();
            graph.settings.time = time;
            if let Err(broken) = invariants::check_graph(&graph) {
                failures.push(format!("{name} at time {time}: {broken}"));
            }
        }
    }
    assert_none(&failures);
}

#[test]
fn float_images_with_nan_and_infinities_read_as_finite_values() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3.4e38,
        -3.4e38,
        0.5,
    ];
    let image = texgraph_core::Image {
        width: 6,
        height: 1,
        channels: 4,
        data: bad.iter().flat_map(|&v| [v, v, v, v]).collect(),
    };
    let path = dir.path().join("bad.exr");
    texgraph_core::export::write_image(&image, &path, texgraph_core::export::Depth::Float).unwrap();
    let mut failures = Vec::new();
    for filter in [
        "buffer",
        "blur",
        "sharpen",
        "normal",
        "emboss",
        "edge_detect",
        "slope_blur",
        "ambient_occlusion",
        "curvature",
    ] {
        let port = if ["normal", "emboss", "ambient_occlusion", "curvature"].contains(&filter) {
            "height"
        } else {
            "input"
        };
        let inputs = if filter == "slope_blur" {
            json!({ port: "photo", "slope": "photo" })
        } else {
            json!({ port: "photo" })
        };
        let graph = json!({ "format": "texgraph", "version": 1, "nodes": [
            { "id": "photo", "type": "image", "params": { "path": path.to_str().unwrap(), "filter": "nearest" } },
            { "id": "f", "type": filter, "inputs": inputs },
            { "id": "out", "type": "output", "inputs": { "color": "f" } },
            { "id": "raw", "type": "output", "params": { "name": "raw" }, "inputs": { "color": "photo" } } ] });
        let parsed = texgraph_core::Graph::from_json(&graph.to_string()).unwrap();
        let found = texgraph_core::check(&parsed);
        assert!(found.errors.is_empty(), "{filter}: {:?}", found.errors);
        check_finite(
            &format!("{filter} of an image of NaN and infinities"),
            &graph,
            &mut failures,
        );
    }
    assert_none(&failures);
    // The values themselves: NaN reads as 0, infinities as the saturation bounds.
    let graph = texgraph_core::Graph::from_json(&json!({ "format": "texgraph", "version": 1, "nodes": [
        { "id": "photo", "type": "image", "params": { "path": path.to_str().unwrap(), "filter": "nearest" } },
        { "id": "out", "type": "output", "inputs": { "color": "photo" } } ] }).to_string()).unwrap();
    let program = texgraph_core::compile(&graph, None).unwrap();
    let read = texgraph_core::render(&program, 6, 1, Default::default(), &|_| {}).unwrap();
    let reds: Vec<f32> = read.data.iter().step_by(4).copied().collect();
    assert_eq!(reds, [0.0, 1e12, -1e12, 1e12, -1e12, 0.5]);
}
