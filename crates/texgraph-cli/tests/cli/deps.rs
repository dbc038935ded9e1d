//! `texgraph deps`: every file a graph reads, for make and other build tools.

use crate::common::run_in;

/// A graph including a subgraph (in another folder) that includes a third and reads an
/// image the including graph replaces through an exposed param.
fn write_graphs(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(
        dir.join("top.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
          { "id": "part", "type": "graph", "params": { "file": "lib/part.json", "picture": "photos/rock.png" } },
          { "id": "out", "type": "output", "inputs": { "color": "part" } } ] }"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("lib/part.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
          { "id": "grain", "type": "graph", "params": { "file": "grain.json" } },
          { "id": "img", "type": "image", "params": { "path": "default.png" } },
          { "id": "mix", "type": "blend", "inputs": { "a": "img", "b": "grain" } },
          { "id": "out", "type": "output", "inputs": { "color": "mix" } } ],
          "exposed": [ { "name": "picture", "target": "img.path" } ] }"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("lib/grain.json"),
        r#"{ "format": "texgraph", "version": 1, "nodes": [
          { "id": "n", "type": "perlin" },
          { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    )
    .unwrap();
}

#[test]
fn deps_lists_the_graph_its_subgraphs_and_the_images_they_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_graphs(d);
    let out = run_in(d, &["deps", "top.json"]).success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "top.json\nlib/part.json\nlib/grain.json\nphotos/rock.png\n"
    );
    let out = run_in(d, &["deps", "top.json", "--make", "out/top.png"]).success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "out/top.png: top.json lib/part.json lib/grain.json photos/rock.png\n"
    );
    // From another folder, the paths lead to the same files.
    std::fs::create_dir_all(d.join("elsewhere")).unwrap();
    let out = run_in(&d.join("elsewhere"), &["deps", "../top.json"]).success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "../top.json\n../lib/part.json\n../lib/grain.json\n../photos/rock.png\n"
    );
    let out = run_in(d, &["deps", "missing.json"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.starts_with("error: missing.json"), "{stderr}");
}
