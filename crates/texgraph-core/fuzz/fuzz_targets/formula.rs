//! Any bytes as a formula: reading, checking and describing a mistake must never panic;
//! a formula that checks must compile (or be refused by the cost budget) and render
//! finite samples, the same on one and two threads (see `tests/invariants`). libFuzzer's
//! timeout and RSS limit catch a formula that would hang or take unbounded memory.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;
use texgraph_core::formula;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match formula::check(text) {
        Err(mistake) => {
            let described = mistake.describe(text);
            assert!(described.contains('^'), "{described}");
        }
        Ok(()) => {
            let expression = serde_json::to_string(text).unwrap();
            let graph = format!(
                r#"{{ "format": "texgraph", "version": 2, "settings": {{ "tileable": true }}, "nodes": [
                     {{ "id": "n", "type": "perlin" }},
                     {{ "id": "f", "type": "formula", "params": {{ "expression": {expression}, "p1": 3 }},
                        "inputs": {{ "a": "n", "b": "n" }} }},
                     {{ "id": "out", "type": "output", "inputs": {{ "color": "f" }} }} ] }}"#
            );
            if let Err(broken) = invariants::check_text(&graph, std::path::Path::new(".")) {
                panic!("{broken}\n{text}");
            }
        }
    }
});
