//! Loading graph files, with every problem named by file, node and field.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::anyhow;
use texgraph_core::{Error, Graph, validate};

/// Describes a core error about `path`, one problem per line.
pub fn describe(path: &Path, error: &Error) -> anyhow::Error {
    let file = path.display();
    match error.problems() {
        [] => anyhow!("{file}: {error}"),
        problems => anyhow!(
            "{}",
            problems
                .iter()
                .map(|p| format!("{file}: {p}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// Reads and parses a graph file (catalogue checks come with compiling).
pub fn load(path: &Path) -> anyhow::Result<Graph> {
    Graph::load(path).map_err(|e| match e {
        Error::Io { source, .. } => anyhow!("{}: cannot read: {source}", path.display()),
        other => describe(path, &other),
    })
}

/// `texgraph validate`: prints each problem of each file; exit code 1 if any.
pub fn validate_files(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut failed = false;
    for path in paths {
        let problems = match load(path) {
            Err(e) => vec![format!("{e:#}")],
            Ok(graph) => validate(&graph)
                .iter()
                .map(|p| format!("{}: {p}", path.display()))
                .collect(),
        };
        if problems.is_empty() {
            crate::say!("ok: {}", path.display());
        } else {
            failed = true;
            for line in problems.iter().flat_map(|p| p.lines()) {
                eprintln!("error: {line}");
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
