//! Every class of bad graph is refused with the node and field named.
#![allow(missing_docs)]

use texgraph_core::{Error, Graph, Location, validate};

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
fn missing_required_input() {
    assert_problem(
        &with_nodes(r##"{ "id": "n", "type": "warp" }"##),
        Some("n"),
        Some("source"),
        "required input",
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
        r##"{ "format": "texgraph", "version": 2, "nodes": [] }"##,
        None,
        Some("version"),
        "unsupported version 2",
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
