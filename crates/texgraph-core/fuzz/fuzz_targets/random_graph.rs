//! Bytes as recipes of a graph over the whole registry (16 bytes a node: its type, params
//! and inputs), so that every input is a well-formed graph and coverage guides the search
//! through node combinations and param values rather than JSON syntax. The same promises
//! as the `graph` target are checked.
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let recipes = invariants::recipes_from_bytes(data);
    if recipes.is_empty() {
        return;
    }
    let text = invariants::graph_of(&recipes).to_string();
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../graphs");
    if let Err(broken) = invariants::check_text(&text, &folder) {
        panic!("{broken}\n{text}");
    }
});
