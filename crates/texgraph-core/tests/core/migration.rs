//! Graph format version 1 files read unchanged by a version 2 build: every example in
//! graphs/ that is version 1 and the committed version 1 fixtures (files as the first
//! release wrote them). Their pixels are checked against the goldens by `examples.rs`.

use crate::common;

use std::path::PathBuf;

use texgraph_core::graph::VERSION;
use texgraph_core::{Graph, RenderOptions, compile, output_names, render};

fn version_1_files() -> Vec<PathBuf> {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1");
    let mut files = Vec::new();
    for dir in [common::graphs_dir(), fixtures] {
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

#[test]
fn version_1_files_load_render_and_save_as_version_1() {
    let files = version_1_files();
    assert!(files.len() >= 18, "{files:?}");
    for path in files {
        let mut graph = Graph::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(graph.version, VERSION, "{}", path.display());
        graph.resolve_paths(&texgraph_core::paths::folder_of(&path));
        let text = graph.to_json();
        assert!(text.contains("\"version\": 1,"), "{}", path.display());
        let again = Graph::from_json(&text).unwrap();
        assert_eq!(again, graph, "{}", path.display());
        for name in output_names(&graph) {
            let program = compile(&graph, Some(&name))
                .unwrap_or_else(|e| panic!("{} {name}: {e}", path.display()));
            let a = render(&program, 16, 16, RenderOptions::default(), &|_| {}).unwrap();
            let b = render(
                &compile(&again, Some(&name)).unwrap(),
                16,
                16,
                RenderOptions::default(),
                &|_| {},
            )
            .unwrap();
            assert_eq!(a.data, b.data, "{} {name}", path.display());
        }
    }
}
