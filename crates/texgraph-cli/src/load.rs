//! Loading graph files, with every problem named by file, node and field.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::anyhow;
use texgraph_core::{Error, Graph, GraphError, check};

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

/// Reads and parses a graph file (catalogue checks come with compiling); its relative
/// file params are made to start from the file's folder.
pub fn load(path: &Path) -> anyhow::Result<Graph> {
    let mut graph = Graph::load(path).map_err(|e| match e {
        Error::Io { source, .. } => anyhow!("{}: cannot read: {source}", path.display()),
        other => describe(path, &other),
    })?;
    graph.resolve_paths(&texgraph_core::paths::folder_of(path));
    Ok(graph)
}

/// Prints each warning about `path` on stderr, as `warning: <file>: <problem>`.
pub fn print_warnings(path: &Path, warnings: &[GraphError]) {
    for warning in warnings {
        crate::complain!("warning: {}: {warning}", path.display());
    }
}

/// `texgraph validate`: prints each problem of each file, including what compiling each
/// output would refuse (image files, the cost model), so that whatever it accepts
/// renders; exit code 1 if any file has errors (warnings alone do not fail it).
pub fn validate_files(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut failed = false;
    for path in paths {
        let (errors, warnings) = match load(path) {
            Err(e) => (vec![format!("{e:#}")], Vec::new()),
            Ok(graph) => {
                let found = check(&graph);
                let errors = found
                    .errors
                    .iter()
                    .map(|p| format!("{}: {p}", path.display()))
                    .collect();
                (errors, found.warnings)
            }
        };
        for line in errors.iter().flat_map(|p| p.lines()) {
            crate::complain!("error: {line}");
        }
        print_warnings(path, &warnings);
        if !errors.is_empty() {
            failed = true;
        } else if warnings.is_empty() {
            crate::say!("ok: {}", path.display());
        } else {
            let count = warnings.len();
            let plural = if count == 1 { "" } else { "s" };
            crate::say!("ok: {} ({count} warning{plural})", path.display());
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
