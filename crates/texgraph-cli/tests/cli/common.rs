//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// An example graph in graphs/.
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../graphs")
        .join(name)
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `texgraph` in `dir` with `args` (two minutes at most).
pub fn run_in(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    assert_cmd::Command::cargo_bin("texgraph")
        .unwrap()
        .current_dir(dir)
        .timeout(std::time::Duration::from_secs(120))
        .args(args)
        .assert()
}

/// Whether this runs under continuous integration (`CI` set, as CI services do, and not
/// to `false` or `0`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Why a test cannot do what it tests on this machine.
#[derive(Debug)]
pub enum Unavailable {
    /// The machine truly lacks it (a kernel without the feature): skipped, even in CI.
    Lacking(String),
    /// It should work here but did not (no permission, a failed mount): a test failure
    /// under CI, where machines are fresh VMs run as root; skipped elsewhere.
    Failed(String),
}

/// Prints a `SKIPPED: …` line on stderr itself, not through `eprintln!`, which the test
/// harness captures and shows only for failing tests: a skip must be seen.
pub fn skipped(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {line}");
}

/// Says loudly that `what` is not tested, and why; under CI, fails unless the machine
/// truly lacks what it needs, so that a test which could not run never passes unseen.
pub fn not_tested(what: &str, why: Unavailable) {
    match why {
        Unavailable::Lacking(reason) => {
            skipped(&format!(
                "{what} is not tested: this machine lacks it: {reason}"
            ));
        }
        Unavailable::Failed(reason) if in_ci() => {
            panic!("{what} could not be tested under CI: {reason}");
        }
        Unavailable::Failed(reason) => {
            skipped(&format!(
                "{what} is not tested here (CI fails on this): {reason}"
            ));
        }
    }
}
