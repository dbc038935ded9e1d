//! Any bytes as a batch manifest (its graphs found in graphs/): reading and checking it,
//! listing its jobs and making its first and last never panic or abort, and a manifest
//! that claims billions of jobs is refused before any is made (run under `ulimit -v`).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use texgraph_pipeline::manifest::Manifest;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Graph names resolve against the examples, so `marble.json` loads.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../graphs/fuzzed.json");
    let Ok(manifest) = Manifest::from_text(text, &path) else {
        return;
    };
    let len = manifest.len();
    assert!(len as u64 <= texgraph_pipeline::manifest::MAX_JOBS);
    // What `--list` prints of a shard, and the jobs at both ends as a run makes them.
    for index in (0..len).step_by(len / 64 + 1) {
        let files = manifest.files(index);
        assert!(!files.paths().is_empty());
        let _ = manifest.describe(index);
    }
    for index in [0, len.saturating_sub(1)] {
        if index < len {
            let job = manifest
                .job(index)
                .expect("a checked manifest makes every job");
            let presets = texgraph_core::export::presets::built_in();
            let _ = texgraph_pipeline::batch::request_of(&job.files, &job, &presets);
        }
    }
});
