//! Random graphs over the whole registry keep every promise of `invariants`: no panic,
//! validate and render agree, finite samples, the same bits on one and two threads.

use crate::common;
use crate::invariants::{self, Recipe, graph_of};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

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
