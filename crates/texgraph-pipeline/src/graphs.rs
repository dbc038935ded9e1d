//! Graph files read for a render, with every problem named by file, node and field.

use std::path::Path;

use anyhow::anyhow;
use texgraph_core::{Error, Graph};

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
    let mut graph = load_as_written(path)?;
    graph.resolve_paths(&texgraph_core::paths::folder_of(path));
    Ok(graph)
}

/// Reads and parses a graph file, its file params as the file writes them (relative to
/// its folder): the graph whatever folder it is read from.
pub fn load_as_written(path: &Path) -> anyhow::Result<Graph> {
    Graph::load(path).map_err(|e| match e {
        Error::Io { source, .. } => anyhow!("{}: cannot read: {source}", path.display()),
        other => describe(path, &other),
    })
}
