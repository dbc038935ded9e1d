//! Random graphs over the whole registry keep every promise of `invariants`: no panic,
//! validate and render agree, finite samples, the same bits on one and two threads.
#![allow(missing_docs)]

mod common;
mod invariants;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};
use texgraph_core::registry::{NODES, ParamKind};

/// One node of a random graph: which type, and numbers that pick its params and inputs.
type Recipe = (u16, Vec<u32>, Vec<u32>);

/// A param value picked by `pick`: an end of the range, the default, or a point inside.
fn param_value(kind: &ParamKind, pick: u32) -> Option<Value> {
    let fraction = f64::from(pick >> 3) / f64::from(u32::MAX >> 3);
    Some(match *kind {
        ParamKind::Float { default, min, max } => match pick % 6 {
            0 => json!(min),
            1 => json!(max),
            2 => json!(default),
            _ => json!(f64::from(min) + (f64::from(max) - f64::from(min)) * fraction),
        },
        ParamKind::Int { default, min, max } => match pick % 6 {
            0 => json!(min),
            1 => json!(max.min(64)),
            2 => json!(default),
            // Mostly small: octaves and seeds.
            _ => json!(min + (fraction * (max.min(1000) - min) as f64) as i64),
        },
        ParamKind::Choice { options, .. } => json!(options[pick as usize % options.len()]),
        ParamKind::Bool { .. } => json!(pick % 2 == 1),
        ParamKind::Color { .. } => json!(["#000000", "#ffffff80", "#3a7bd5"][pick as usize % 3]),
        ParamKind::Stops { .. } => match pick % 3 {
            0 => return None,
            1 => json!([{ "pos": fraction, "color": "#ff8800" }]),
            _ => {
                json!([{ "pos": 1.0, "color": "#000000" }, { "pos": fraction, "color": "#ffffff" }])
            }
        },
        ParamKind::File { .. } => {
            json!(["images/marble.png", "images/wood.png"][pick as usize % 2])
        }
        ParamKind::Text { .. } => json!(format!("o{}", pick % 3)),
    })
}

/// The graph a list of recipes describes: node `i` may take inputs from nodes before it,
/// and one or two outputs read the last node and one picked by the first recipe.
fn graph_of(recipes: &[Recipe]) -> Value {
    let mut nodes = Vec::new();
    for (i, (kind, params, inputs)) in recipes.iter().enumerate() {
        let desc = NODES[*kind as usize % NODES.len()];
        let mut node_params = serde_json::Map::new();
        for (j, param) in desc.params.iter().enumerate() {
            let pick = params[j % params.len()].wrapping_mul(j as u32 + 1);
            if pick % 5 != 4
                && let Some(value) = param_value(&param.kind, pick)
            {
                node_params.insert(param.name.to_owned(), value);
            }
        }
        let mut node_inputs = serde_json::Map::new();
        for (j, (port, _)) in desc.connectable_inputs().enumerate() {
            let pick = inputs[j % inputs.len()].wrapping_add(j as u32 * 7919);
            let required = desc.input(port).is_some_and(|p| p.required);
            if i > 0 && (required || pick % 3 == 0) {
                node_inputs.insert(port.to_owned(), json!(format!("n{}", pick as usize % i)));
            }
        }
        nodes.push(json!({ "id": format!("n{i}"), "type": desc.id, "params": node_params, "inputs": node_inputs }));
    }
    let last = recipes.len() - 1;
    nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": format!("n{last}") } }));
    let other = recipes[0].2[0] as usize % recipes.len();
    if other != last {
        nodes.push(json!({ "id": "out2", "type": "output", "params": { "name": "second" }, "inputs": { "color": format!("n{other}") } }));
    }
    let tileable = recipes[0].1[0].is_multiple_of(2);
    json!({ "format": "texgraph", "version": 1, "settings": { "tileable": tileable, "time": 0.25 }, "nodes": nodes })
}

fn recipes() -> impl Strategy<Value = Vec<Recipe>> {
    let recipe = (
        any::<u16>(),
        prop::collection::vec(any::<u32>(), 1..8),
        prop::collection::vec(any::<u32>(), 1..6),
    );
    prop::collection::vec(recipe, 1..9)
}

#[test]
fn random_graphs_keep_every_promise() {
    let mut runner = TestRunner::new(Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = std::cell::Cell::new(0);
    let result = runner.run(&recipes(), |recipes| {
        let text = graph_of(&recipes).to_string();
        let mut graph = texgraph_core::Graph::from_json(&text).expect("well-formed JSON graph");
        graph.resolve_paths(&common::graphs_dir());
        if texgraph_core::check(&graph).errors.is_empty() {
            valid.set(valid.get() + 1);
        }
        invariants::check_graph(&graph)
            .map_err(|broken| TestCaseError::fail(format!("{broken}\n{text}")))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!("{} of 1500 random graphs were valid", valid.get());
    // Enough of them valid that rendering is what gets tested, not only refusing.
    assert!(
        valid.get() > 500,
        "only {} of 1500 graphs were valid",
        valid.get()
    );
}
