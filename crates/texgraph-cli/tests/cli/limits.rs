//! Inputs that cannot be done refuse at once with a clear error and write nothing:
//! absurd numbers, files that are not graph files, a render with nothing to render.

use crate::common::{entries, example};

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;

fn texgraph(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("texgraph").expect("binary built");
    cmd.current_dir(dir).timeout(Duration::from_secs(20));
    cmd
}

/// Runs `args` in an empty folder: exit `code`, stderr starting `error:` and holding
/// `words`, nothing written.
fn assert_refused(args: &[&str], code: i32, words: &str) {
    let dir = tempfile::tempdir().unwrap();
    let run = texgraph(dir.path()).args(args).assert().code(code);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(
        stderr.contains(words),
        "{args:?}: stderr lacks '{words}':\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{args:?} wrote {left:?}");
}

#[test]
fn absurd_numbers_are_range_errors_at_once() {
    let fbm = example("fbm.json");
    let fbm = fbm.to_str().unwrap();
    for (args, words) in [
        (
            vec!["render", fbm, "-o", "x.png", "--threads", "100000"],
            "1 to 1024 threads",
        ),
        (
            vec!["render", fbm, "-o", "x.png", "--threads", "0"],
            "1 to 1024 threads",
        ),
        (
            vec!["render", fbm, "-o", "x.png", "--size", "70000"],
            "1 to 65536 pixels",
        ),
        (
            vec!["render", fbm, "-o", "x.png", "--size", "4096x0"],
            "1 to 65536 pixels",
        ),
        (
            vec![
                "render",
                fbm,
                "-o",
                "x.png",
                "--size",
                "99999999999999999999",
            ],
            "is not a positive whole number",
        ),
        (
            vec!["bench", fbm, "--reps", "100000000000"],
            "1 to 100000 repetitions",
        ),
        (vec!["bench", fbm, "--threads", "5000"], "1 to 1024 threads"),
        (vec!["plan", fbm, "--threads", "0"], "1 to 1024 threads"),
    ] {
        assert_refused(&args, 2, words);
    }
}

#[test]
fn a_render_with_no_output_node_fails() {
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("g.json");
    std::fs::write(
        &graph,
        r#"{ "format": "texgraph", "version": 1, "nodes": [ { "id": "p", "type": "perlin" } ] }"#,
    )
    .unwrap();
    let graph = graph.to_str().unwrap();
    for all in [true, false] {
        let mut args = vec!["render", graph, "-o", "x.png"];
        if all {
            args.push("--all-outputs");
        }
        assert_refused(&args, 2, "no output node");
    }
}

#[test]
fn devices_pipes_and_huge_files_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let fifo = dir.path().join("pipe.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut cases = vec![
        ("/dev/zero".to_owned(), "not a regular file"),
        (dir.path().display().to_string(), "not a regular file"),
        (
            huge.display().to_string(),
            "graph files are read up to 64 MiB",
        ),
    ];
    if made.is_ok_and(|s| s.success()) {
        cases.push((fifo.display().to_string(), "not a regular file"));
    }
    for (path, words) in cases {
        for command in ["render", "validate"] {
            let code = if command == "render" { 2 } else { 1 };
            let run = texgraph(dir.path())
                .args([command, path.as_str()])
                .assert()
                .code(code);
            let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
            assert!(
                stderr.starts_with(&format!("error: {path}: cannot read: "))
                    && stderr.contains(words),
                "{command} {path}: {stderr}"
            );
        }
    }
}

#[test]
fn control_characters_from_files_and_arguments_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // A node id with an escape sequence, a bad type naming a bell, in a file whose name
    // holds a carriage return.
    let name = "evil\rname.json";
    std::fs::write(
        dir.path().join(name),
        "{ \"format\": \"texgraph\", \"version\": 1, \"nodes\": [ \
           { \"id\": \"x\\u001b[2Jy\", \"type\": \"ring\\u0007\" }, \
           { \"id\": \"out\", \"type\": \"output\", \"inputs\": { \"color\": \"x\\u001b[2Jy\" } } ] }",
    )
    .unwrap();
    for (command, code) in [("validate", 1), ("render", 2)] {
        let run = texgraph(dir.path())
            .args([command, name])
            .assert()
            .code(code);
        let stderr = run.get_output().stderr.clone();
        assert!(
            !stderr.iter().any(|b| matches!(b, 0x1b | 0x07 | b'\r')),
            "{command} echoed control characters: {:?}",
            String::from_utf8_lossy(&stderr)
        );
        let text = String::from_utf8_lossy(&stderr);
        assert!(
            text.contains("node 'x\\u{1b}[2Jy'")
                && text.contains("ring\\u{7}")
                && text.contains("evil\\u{d}name.json"),
            "{command}: {text}"
        );
    }
}

/// A chain of `count` nodes of `kind` (each reading the one before through `port`) on a
/// perlin, into an output; `extra` adds nodes.
fn chain(kind: &str, port: &str, count: usize, extra: &str) -> String {
    let mut nodes = vec![r#"{ "id": "n0", "type": "perlin" }"#.to_owned()];
    for i in 1..=count {
        nodes.push(format!(
            r#"{{ "id": "n{i}", "type": "{kind}", "inputs": {{ "{port}": "n{}" }} }}"#,
            i - 1
        ));
    }
    nodes.push(format!(
        r#"{{ "id": "out", "type": "output", "inputs": {{ "color": "n{count}" }} }}"#
    ));
    if !extra.is_empty() {
        nodes.push(extra.to_owned());
    }
    format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [ {} ] }}"#,
        nodes.join(",")
    )
}

#[test]
fn validate_and_render_agree_on_every_limit() {
    let missing = r#"{ "id": "photo", "type": "image", "params": { "path": "gone.png" } },
        { "id": "out2", "type": "output", "params": { "name": "photo" }, "inputs": { "color": "photo" } }"#;
    // (graph, words of the refusal; empty: it must render). Renders are of every output:
    // validate checks them all.
    let cases = [
        (
            chain("levels", "input", 450, ""),
            "nest more than 400 levels deep",
        ),
        (
            chain("blur", "input", 450, ""),
            "nest more than 400 levels deep",
        ),
        (
            chain("transform", "source", 420, ""),
            "nest more than 400 levels deep",
        ),
        (chain("levels", "input", 10, missing), "gone.png"),
        (chain("levels", "input", 390, ""), ""),
        (chain("blur", "input", 60, ""), ""),
    ];
    for (json, words) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("g.json"), json).unwrap();
        std::fs::write(dir.path().join("out.png"), "old").unwrap();
        let validated = texgraph(dir.path())
            .args(["validate", "g.json"])
            .output()
            .unwrap();
        let rendered = texgraph(dir.path())
            .args([
                "render",
                "g.json",
                "-o",
                "out.png",
                "--size",
                "32",
                "--all-outputs",
            ])
            .output()
            .unwrap();
        let (said, refused) = (
            String::from_utf8_lossy(&validated.stderr).into_owned(),
            String::from_utf8_lossy(&rendered.stderr).into_owned(),
        );
        if words.is_empty() {
            assert_eq!(validated.status.code(), Some(0), "{said}");
            assert_eq!(rendered.status.code(), Some(0), "{refused}");
            assert_eq!(entries(dir.path()), ["g.json", "out.png", "out_color.png"]);
            continue;
        }
        assert_eq!(validated.status.code(), Some(1), "{words}: {said}");
        assert_eq!(rendered.status.code(), Some(2), "{words}: {refused}");
        assert!(said.contains(words), "validate lacks '{words}': {said}");
        assert_eq!(said, refused, "validate and render word it differently");
        assert_eq!(std::fs::read(dir.path().join("out.png")).unwrap(), b"old");
        assert_eq!(entries(dir.path()), ["g.json", "out.png"]);
    }
}

#[test]
fn batch_and_stitch_manifests_are_read_only_as_regular_files_of_at_most_16_mib() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((16 << 20) + 1)
        .unwrap();
    let huge = huge.display().to_string();
    for (args, words) in [
        (vec!["batch", "/dev/zero"], "/dev/zero: not a regular file"),
        (
            vec!["batch", huge.as_str()],
            "batch manifests are read up to 16 MiB",
        ),
        (
            vec!["stitch", huge.as_str(), "-o", "whole.png"],
            "stitch manifests are read up to 16 MiB",
        ),
    ] {
        let run = texgraph(dir.path()).args(&args).assert().code(2);
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
        assert!(
            stderr.starts_with("error: ") && stderr.contains(words),
            "{args:?}: {stderr}"
        );
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["huge.json"], "{args:?} left files behind");
    }
}
