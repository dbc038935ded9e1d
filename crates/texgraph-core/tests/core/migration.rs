//! Graph format version 1 files read unchanged by a version 2 build: every example in
//! graphs/ that is version 1 and the committed version 1 fixtures (files as the first
//! release wrote them). Each renders as its golden: a fixture as its own in
//! tests/golden/v1/, an example as the golden `examples.rs` checks.

use crate::common;
use crate::examples::{GOLDEN_SIZE, GOLDEN_TOLERANCE, golden_path};

use std::path::{Path, PathBuf};

use texgraph_core::graph::VERSION;
use texgraph_core::{Graph, RenderOptions, compile, output_names, render};

/// Side of the fixtures' goldens: small, as the pixels of a whole look do not depend on
/// size.
const FIXTURE_GOLDEN_SIZE: u32 = 128;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1")
}

fn version_1_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [common::graphs_dir(), fixtures_dir()] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
                if raw["version"] == 1 {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    files
}

/// Where the golden of `output` of the version 1 file `path` is, at what size, and
/// whether this test blesses it (an example's golden is `examples.rs`'s to bless).
fn golden_of(path: &Path, output: &str) -> (PathBuf, u32, bool) {
    let stem = path.file_stem().unwrap().to_string_lossy();
    if path.starts_with(fixtures_dir()) {
        let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/golden/v1/{stem}_{output}.exr"));
        (golden, FIXTURE_GOLDEN_SIZE, true)
    } else {
        (golden_path(&stem, output), GOLDEN_SIZE, false)
    }
}

#[test]
fn version_1_files_load_render_and_save_as_version_1() {
    let files = version_1_files();
    // Nine examples and the fixtures: examples whose outputs have a usage are version 4.
    assert!(files.len() >= 13, "{files:?}");
    let fixtures = files.iter().filter(|f| f.starts_with(fixtures_dir()));
    assert!(fixtures.count() >= 4, "{files:?}");
    let mut changed = Vec::new();
    for path in files {
        let mut graph = Graph::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(graph.version, VERSION, "{}", path.display());
        graph.resolve_paths(&texgraph_core::paths::folder_of(&path));
        let text = graph.to_json();
        assert!(text.contains("\"version\": 1,"), "{}", path.display());
        let again = Graph::from_json(&text).unwrap();
        assert_eq!(again, graph, "{}", path.display());
        let names = output_names(&graph);
        assert!(!names.is_empty(), "{} has no output", path.display());
        for name in names {
            let (golden, size, own) = golden_of(&path, &name);
            let program = compile(&graph, Some(&name))
                .unwrap_or_else(|e| panic!("{} {name}: {e}", path.display()));
            let a = render(&program, size, size, RenderOptions::default(), &|_| {}).unwrap();
            let what = format!("{} {name}", path.display());
            changed.extend(if own {
                common::against_golden(&what, &a, &golden, GOLDEN_TOLERANCE)
            } else {
                common::differs_from_golden(&what, &a, &golden, GOLDEN_TOLERANCE)
            });
            // What it saves renders the same.
            let b = render(
                &compile(&again, Some(&name)).unwrap(),
                size,
                size,
                RenderOptions::default(),
                &|_| {},
            )
            .unwrap();
            assert_eq!(a.data, b.data, "{what}: saved and read back");
        }
    }
    assert!(changed.is_empty(), "changed looks:\n{}", changed.join("\n"));
}
