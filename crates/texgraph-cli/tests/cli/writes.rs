//! Writes are all or nothing: `--all-outputs` writes every file or none, and a render
//! interrupted by a signal leaves the old files and no temporary behind.

use crate::common::{entries, example};

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// Two outputs; the second one's input comes from `second`.
fn two_outputs(second: &str) -> String {
    format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [
            {{ "id": "noise", "type": "fbm", "params": {{ "frequency": 4 }} }},
            {{ "id": "a", "type": "output", "params": {{ "name": "color" }}, "inputs": {{ "color": "noise" }} }},
            {second},
            {{ "id": "b", "type": "output", "params": {{ "name": "second" }}, "inputs": {{ "color": "late" }} }}
        ] }}"#
    )
}

/// Runs `render GRAPH --all-outputs -o out.png` in `dir`; asserts it failed with exit 2
/// and an `error:` holding `words`.
fn assert_render_fails(dir: &Path, words: &str) {
    let run = Command::cargo_bin("texgraph")
        .unwrap()
        .current_dir(dir)
        .timeout(Duration::from_secs(60))
        .args([
            "render",
            "g.json",
            "--all-outputs",
            "--size",
            "64",
            "-o",
            "out.png",
        ])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(words), "stderr lacks '{words}':\n{stderr}");
}

#[test]
fn all_outputs_writes_every_file_or_none() {
    // The second output cannot be made: its image is missing, or a folder sits where its
    // file goes. The first output's file keeps its old bytes, or stays absent.
    let missing_image = r#"{ "id": "late", "type": "image", "params": { "path": "gone.png" } }"#;
    let fine = r#"{ "id": "late", "type": "perlin", "params": { "frequency": 3 } }"#;
    let cases: [(&str, bool, bool, &str); 4] = [
        (missing_image, false, false, "gone.png"),
        (missing_image, true, false, "gone.png"),
        (fine, false, true, "a folder is in the way"),
        (fine, true, true, "a folder is in the way"),
    ];
    for (second, old_first, folder_second, words) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("g.json"), two_outputs(second)).unwrap();
        if old_first {
            std::fs::write(dir.path().join("out_color.png"), "old").unwrap();
        }
        if folder_second {
            std::fs::create_dir(dir.path().join("out_second.png")).unwrap();
        }
        let before = entries(dir.path());
        assert_render_fails(dir.path(), words);
        assert_eq!(entries(dir.path()), before, "{second}");
        if old_first {
            let first = std::fs::read(dir.path().join("out_color.png")).unwrap();
            assert_eq!(first, b"old");
        }
    }
}

#[test]
fn all_outputs_writes_the_whole_set_when_it_can() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out_basecolor.png"), "old").unwrap();
    Command::cargo_bin("texgraph")
        .unwrap()
        .current_dir(dir.path())
        .args(["render", example("marble_normal.json").to_str().unwrap()])
        .args(["--all-outputs", "--size", "64", "-o", "out.png"])
        .assert()
        .success();
    assert_eq!(entries(dir.path()), ["out_basecolor.png", "out_normal.png"]);
    for name in ["out_basecolor.png", "out_normal.png"] {
        let image = image::open(dir.path().join(name)).expect("a whole PNG");
        assert_eq!((image.width(), image.height()), (64, 64));
    }
}

/// Starts a render big enough to be interrupted in each phase, in `dir`.
fn slow_render(dir: &Path, all_outputs: bool) -> Child {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("texgraph"));
    cmd.current_dir(dir)
        .args(["render", example("marble_normal.json").to_str().unwrap()])
        .args(["--size", "4096", "--depth", "16", "-o", "out.png"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if all_outputs {
        cmd.arg("--all-outputs");
    }
    cmd.spawn().expect("texgraph starts")
}

/// Waits until `dir` holds `count` temporaries (an encoding under way), or for `wait`
/// when `count` is 0 (the render under way).
fn wait_for_temporaries(dir: &Path, count: usize, wait: Duration) {
    let start = Instant::now();
    if count == 0 {
        std::thread::sleep(wait);
        return;
    }
    while start.elapsed() < Duration::from_secs(120) {
        let temps = entries(dir).iter().filter(|n| n.ends_with(".tmp")).count();
        if temps >= count {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no temporary appeared in {}", dir.display());
}

#[cfg(unix)]
#[test]
fn signals_leave_the_old_files_and_no_temporary() {
    use std::os::unix::process::ExitStatusExt;
    const SIGHUP: i32 = 1;
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;
    // (signal, --all-outputs, temporaries to wait for: 0 = while rendering)
    let cases = [
        (SIGTERM, false, 1),
        (SIGINT, false, 1),
        (SIGTERM, false, 0),
        (SIGHUP, false, 0),
        // While encoding the second file of a set, the first one already staged.
        (SIGINT, true, 2),
    ];
    for (signal, all_outputs, temporaries) in cases {
        let dir = tempfile::tempdir().unwrap();
        let old = if all_outputs {
            "out_basecolor.png"
        } else {
            "out.png"
        };
        std::fs::write(dir.path().join(old), "old").unwrap();
        let mut child = slow_render(dir.path(), all_outputs);
        wait_for_temporaries(dir.path(), temporaries, Duration::from_millis(100));
        // SAFETY: kill(2) with the pid of a child this test started and still owns.
        let sent = unsafe { libc::kill(child.id() as i32, signal) };
        assert_eq!(sent, 0);
        let status = child.wait().unwrap();
        assert_eq!(
            status.signal(),
            Some(signal),
            "signal {signal}: ended with {status:?}"
        );
        assert_eq!(entries(dir.path()), [old], "signal {signal}");
        assert_eq!(std::fs::read(dir.path().join(old)).unwrap(), b"old");
    }
}

/// `-o` into folders that do not exist makes them, as a preset's folder is made; when
/// nothing can be written, the folders made for it go again.
#[test]
fn a_render_into_missing_folders_makes_them_and_a_failed_one_leaves_none() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = crate::common::example("marble.json");
    let marble = marble.to_str().unwrap();
    crate::common::run_in(
        d,
        &["render", marble, "--size", "8", "-o", "new/deeper/m.png"],
    )
    .success();
    assert!(d.join("new/deeper/m.png").is_file());
    // A graph with an error: nothing rendered, no folder left.
    std::fs::write(
        d.join("broken.json"),
        r#"{ "format": "texgraph", "version": 1, "nodes": [ { "id": "out", "type": "output", "inputs": { "color": "nowhere" } } ] }"#,
    )
    .unwrap();
    crate::common::run_in(d, &["render", "broken.json", "-o", "other/place/x.png"]).code(2);
    assert!(!d.join("other").exists());
}
