//! Registry-wide checks: every node is documented, its defaults are valid, it
//! round-trips through JSON and it compiles.

use crate::common;

use std::collections::BTreeMap;

use texgraph_core::graph::GradientStop;
use texgraph_core::registry::{NODES, ParamKind};
use texgraph_core::validate::check_param_value;
use texgraph_core::{Graph, Node, ParamValue, RenderOptions, compile, validate};

fn default_value(kind: &ParamKind) -> ParamValue {
    match *kind {
        ParamKind::Float { default, .. } | ParamKind::Number { default, .. } => {
            ParamValue::Number(f64::from(default))
        }
        ParamKind::Int { default, .. } => ParamValue::Number(default as f64),
        ParamKind::Choice { default, .. }
        | ParamKind::Color { default }
        | ParamKind::Text { default }
        | ParamKind::Formula { default } => ParamValue::Text(default.to_owned()),
        // A file param needs a file: one of the example images.
        ParamKind::File { .. } => ParamValue::Text(
            common::graphs_dir()
                .join("images/marble.png")
                .display()
                .to_string(),
        ),
        ParamKind::Bool { default } => ParamValue::Bool(default),
        ParamKind::Stops { default } => ParamValue::Stops(
            default
                .iter()
                .map(|(pos, color)| GradientStop {
                    pos: f64::from(*pos),
                    color: (*color).to_owned(),
                })
                .collect(),
        ),
        ParamKind::Points { default } => ParamValue::Points(
            default
                .iter()
                .map(|&(x, y)| texgraph_core::graph::CurvePoint {
                    x: f64::from(x),
                    y: f64::from(y),
                })
                .collect(),
        ),
    }
}

#[test]
fn ids_are_unique_and_everything_is_documented() {
    let mut ids: Vec<_> = NODES.iter().map(|d| d.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), NODES.len(), "duplicate node ids");
    for d in NODES {
        assert!(
            !d.label.is_empty() && d.doc.len() > 20,
            "{} needs a label and a doc line",
            d.id
        );
        for p in d.params {
            assert!(!p.doc.is_empty(), "{}.{} has no doc", d.id, p.name);
        }
        // A run of spaces is a line break in the source without its `\`.
        let docs = std::iter::once(d.doc)
            .chain(d.params.iter().map(|p| p.doc))
            .chain(d.inputs.iter().map(|p| p.doc))
            .chain(d.outputs.iter().map(|p| p.doc));
        for doc in docs {
            assert!(
                !doc.contains("   "),
                "{}: a doc holds a run of spaces: {doc}",
                d.id
            );
        }
        for p in d.inputs {
            assert!(!p.doc.is_empty(), "{} input {} has no doc", d.id, p.name);
        }
        for p in d.outputs {
            assert!(!p.doc.is_empty(), "{} output {} has no doc", d.id, p.name);
        }
        let mut names: Vec<_> = d.connectable_inputs().map(|(n, _)| n).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(
            n,
            names.len(),
            "{}: an input port and a float param share a name",
            d.id
        );
    }
}

#[test]
fn defaults_are_inside_their_ranges() {
    for d in NODES {
        for p in d.params {
            if let ParamKind::Float { default, min, max } = p.kind {
                assert!(min <= default && default <= max, "{}.{}", d.id, p.name);
            }
            if let ParamKind::Int { default, min, max } = p.kind {
                assert!(min <= default && default <= max, "{}.{}", d.id, p.name);
            }
            check_param_value(&p.kind, &default_value(&p.kind))
                .unwrap_or_else(|e| panic!("{}.{} default rejected: {e}", d.id, p.name));
        }
    }
}

/// A graph holding one node of type `id` with every param written out, its required
/// inputs fed by a constant, and an output.
fn graph_with(id: &str) -> Graph {
    let desc = texgraph_core::registry::lookup(id).unwrap();
    let mut graph = Graph::new();
    let mut feed = Node::new("feed", "constant");
    feed.params.insert("value".into(), ParamValue::Number(0.25));
    graph.nodes.push(feed);
    let mut node = Node::new("n", id);
    node.pos = [120.5, -40.0];
    node.params = desc
        .params
        .iter()
        .map(|p| (p.name.to_owned(), default_value(&p.kind)))
        .collect::<BTreeMap<_, _>>();
    for port in desc.inputs.iter().filter(|p| p.required()) {
        node.inputs.insert(port.name.to_owned(), "feed".to_owned());
    }
    graph.nodes.push(node);
    if id != "output" {
        let port = desc
            .outputs
            .first()
            .map(|o| format!("n.{}", o.name))
            .unwrap();
        let mut out = Node::new("out", "output");
        out.inputs.insert("color".into(), port);
        graph.nodes.push(out);
    }
    graph
}

#[test]
fn every_node_round_trips_through_json() {
    for d in NODES {
        let graph = graph_with(d.id);
        let text = graph.to_json();
        let back = Graph::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", d.id));
        assert_eq!(back, graph, "{} changed through JSON", d.id);
        assert_eq!(back.to_json(), text);
    }
}

#[test]
fn every_node_compiles_and_renders_with_defaults() {
    for d in NODES {
        let graph = graph_with(d.id);
        assert_eq!(validate(&graph), vec![], "{}", d.id);
        let image = common::render_graph(&graph, None, 8, RenderOptions::default());
        assert!(
            image.data.iter().all(|v| v.is_finite()),
            "{} renders non-finite values",
            d.id
        );
    }
}

#[test]
fn float_params_are_sockets() {
    // Driving perlin's frequency with a constant equals setting the param.
    let driven = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "f", "type": "coords" },
            { "id": "k", "type": "constant", "params": { "value": 7.5 } },
            { "id": "n", "type": "perlin", "inputs": { "frequency": "k" } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let fixed = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin", "params": { "frequency": 7.5 } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let a = common::render_graph(&driven, None, 32, RenderOptions::default());
    let b = common::render_graph(&fixed, None, 32, RenderOptions::default());
    assert_eq!(a, b);
    // Per-pixel: frequency = 4 + 8u differs from both ends.
    let varying = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "f", "type": "coords" },
            { "id": "k", "type": "math", "params": { "op": "multiply", "b": 8 }, "inputs": { "a": "f.u" } },
            { "id": "n", "type": "perlin", "inputs": { "frequency": "k" } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let image = common::render_graph(&varying, None, 32, RenderOptions::default());
    let (u, v) = (20.5f32 / 32.0, 9.5f32 / 32.0);
    let f = u * 8.0;
    let perm = texgraph_core::kernels::noise::Permutation::for_seed(0);
    let expected =
        0.5 + 0.5 * texgraph_core::kernels::noise::perlin3(&perm, u * f, v * f, 0.0, None);
    assert_eq!(common::at(&image, 20, 9, 0), expected);
}

#[test]
fn node_reference_is_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/nodes.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == texgraph_core::docs::nodes_markdown(),
        "docs/nodes.md is stale: run `cargo run -p texgraph-cli -- nodes --markdown > docs/nodes.md`"
    );
    // Every node of every category is listed, in the reference and the terminal listing.
    let text = texgraph_core::docs::nodes_text();
    for desc in texgraph_core::registry::NODES {
        assert!(
            committed.contains(&format!("### `{}`", desc.id)),
            "docs/nodes.md lacks {}",
            desc.id
        );
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{} ", desc.id))),
            "`texgraph nodes` lacks {}",
            desc.id
        );
    }
}

#[test]
fn one_octave_fbm_is_its_basis() {
    let fbm = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "fbm", "params": { "octaves": 1, "frequency": 3 } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let perlin = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin", "params": { "frequency": 3 } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let a = common::render_graph(&fbm, None, 32, RenderOptions::default());
    let b = common::render_graph(&perlin, None, 32, RenderOptions::default());
    assert_eq!(a, b);
}

#[test]
fn compile_rejects_unknown_output_names() {
    let g = graph_with("perlin");
    let err = compile(&g, Some("height")).unwrap_err().to_string();
    assert!(
        err.contains("no output named 'height'") && err.contains("color"),
        "{err}"
    );
}
