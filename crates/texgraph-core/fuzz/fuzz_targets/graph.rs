//! Any bytes as a graph file: load, validate, compile and render must never panic,
//! validate and render must agree, and every sample must be finite and the same on one
//! and two threads (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Image paths resolve against the examples, so `graphs/images/*.png` load.
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../graphs");
    if let Err(broken) = invariants::check_text(text, &folder) {
        panic!("{broken}");
    }
});
