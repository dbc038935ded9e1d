//! Subgraphs from the command line: a graph using graph files as nodes renders, and each
//! broken inclusion is refused with the file, the node and the field named, exit code 2
//! and the output file left as it was.

use crate::common::{example, run_in};

const VEINS: &str = "veins.json";

/// A graph that includes `veins.json` (a copy of the library's marble veins) through
/// the node written as `node` (id `sub`), and writes what `sub` gives.
fn including(node: &str, reference: &str) -> String {
    format!(
        r#"{{ "format": "texgraph", "version": 2, "nodes": [
            {{ "id": "n", "type": "perlin" }},
            {node},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "{reference}" }} }}
        ] }}"#
    )
}

#[test]
fn subgraph_errors_name_the_file_the_node_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(example("library/marble_veins.json"), d.join(VEINS)).unwrap();
    std::fs::write(
        d.join("a.json"),
        including(
            r#"{ "id": "sub", "type": "graph", "params": { "file": "b.json" } }"#,
            "sub",
        ),
    )
    .unwrap();
    std::fs::write(
        d.join("b.json"),
        including(
            r#"{ "id": "sub", "type": "graph", "params": { "file": "a.json" } }"#,
            "sub",
        ),
    )
    .unwrap();
    std::fs::write(
        d.join("bad_target.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "p", "type": "perlin" },
            { "id": "out", "type": "output", "inputs": { "color": "p" } }
        ], "exposed": [ { "name": "scale", "target": "q.frequency" } ] }"#,
    )
    .unwrap();
    let cases: [(&str, &str, &str); 6] = [
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "gone.json" } }"#,
            "sub",
            "node 'sub', field 'file': cannot read gone.json",
        ),
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "a.json" } }"#,
            "sub",
            "node 'sub', field 'file': a.json: node 'sub', field 'file': b.json: node 'sub', field 'file': a.json includes itself: a.json → b.json → a.json",
        ),
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "bad_target.json" } }"#,
            "sub",
            "node 'sub', field 'file': bad_target.json: field 'exposed[0].target': 'q.frequency' refers to no node 'q'",
        ),
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json" }, "inputs": { "noise": "n" } }"#,
            "sub",
            "node 'sub', field 'noise': veins.json has no input 'noise' (inputs: vein_scale, angle, distortion, sharpness)",
        ),
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json", "scale": 2 } }"#,
            "sub",
            "node 'sub', field 'scale': veins.json exposes no param 'scale' (params: vein_scale, angle, distortion, sharpness, seed)",
        ),
        (
            r#"{ "id": "sub", "type": "graph", "params": { "file": "veins.json" } }"#,
            "sub.height",
            "node 'out', field 'color': subgraph 'sub' has no output 'height' (outputs: mask)",
        ),
    ];
    for (node, reference, expected) in cases {
        std::fs::write(d.join("main.json"), including(node, reference)).unwrap();
        std::fs::write(d.join("out.png"), b"keep").unwrap();
        let out = run_in(d, &["render", "main.json", "--size", "16", "-o", "out.png"])
            .failure()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.starts_with("error: main.json: ") && stderr.contains(expected),
            "{node}\n{stderr}"
        );
        assert_eq!(std::fs::read(d.join("out.png")).unwrap(), b"keep");
        let out = run_in(d, &["validate", "main.json"]).failure().code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn a_graph_of_subgraphs_renders_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let slab = example("marble_slab.json");
    run_in(
        dir.path(),
        &[
            "render",
            slab.to_str().unwrap(),
            "--size",
            "32",
            "-o",
            "slab.png",
        ],
    )
    .success();
    let image = image::open(dir.path().join("slab.png")).unwrap();
    assert_eq!((image.width(), image.height()), (32, 32));
    let veins = example("library/marble_veins.json");
    run_in(
        dir.path(),
        &["validate", veins.to_str().unwrap(), slab.to_str().unwrap()],
    )
    .success();
}
