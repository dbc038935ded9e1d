//! Graph files: loaded (with every problem named by file, node and field) and validated.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use texgraph_core::{GraphError, check};
pub use texgraph_pipeline::graphs::{describe, load};

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
