//! File params (an `image` node's `path`, a subgraph's `file`) are written relative to the graph file's folder.
//! Before compiling a graph loaded from a file, its relative paths are made to point into
//! that folder; the document the editor saves keeps them as written.

use std::path::{Path, PathBuf};

pub use crate::graph::folder_of;
use crate::graph::{Graph, ParamValue};
use crate::registry::{self, ParamKind};

impl Graph {
    /// Joins every relative file param to `folder` (the graph file's folder), so the
    /// graph can be compiled from any working directory.
    pub fn resolve_paths(&mut self, folder: &Path) {
        if folder == Path::new(".") {
            return; // already relative to the working directory
        }
        for node in &mut self.nodes {
            let files: Vec<String> = match registry::lookup(&node.kind) {
                Some(desc) => desc
                    .params
                    .iter()
                    .filter(|p| matches!(p.kind, ParamKind::File { .. }))
                    .map(|p| p.name.to_owned())
                    .collect(),
                // A subgraph's file, then the exposed params its file says are paths.
                None if node.kind == crate::graph::SUBGRAPH_KIND => {
                    resolve(node.params.get_mut("file"), folder);
                    let Some(ParamValue::Text(file)) = node.params.get("file") else {
                        continue;
                    };
                    crate::subgraph::file_params(Path::new(file))
                }
                None => continue,
            };
            for name in files {
                resolve(node.params.get_mut(&name), folder);
            }
        }
    }
}

/// Joins a relative path param to `folder`.
fn resolve(param: Option<&mut ParamValue>, folder: &Path) {
    if let Some(ParamValue::Text(path)) = param
        && !path.is_empty()
        && !path.starts_with(crate::library::PREFIX)
        && Path::new(path.as_str()).is_relative()
    {
        *path = beside(folder, path).to_string_lossy().into_owned();
    }
}

/// Where a relative file param `path` of a graph in `folder` lies: joined to the folder,
/// except beside a graph named without a folder (`.`), where the path is already right as
/// written (and reads better without a `./`), and for a built-in library graph
/// (`library:NAME`), which lies in no folder.
pub fn beside(folder: &Path, path: &str) -> PathBuf {
    if folder == Path::new(".") || path.starts_with(crate::library::PREFIX) {
        PathBuf::from(path)
    } else {
        folder.join(path)
    }
}

/// Every file `graph` (its paths resolved, as [`Graph::resolve_paths`] leaves them) reads
/// when rendered, each once in the order first met: its subgraphs' files and theirs in
/// turn, then the images its `image` nodes read (as the exposed params of subgraph nodes
/// set them). A file that cannot be read is listed all the same: what depends on it must
/// be rebuilt when it appears.
pub fn files_read(graph: &Graph) -> Vec<PathBuf> {
    let mut found = Vec::new();
    subgraph_files(graph, 0, &mut found);
    // Images as rendered: inlining writes exposed params into the nodes they target.
    let flat = crate::subgraph::inline(graph).unwrap_or(std::borrow::Cow::Borrowed(graph));
    for node in &flat.nodes {
        let Some(desc) = registry::lookup(&node.kind) else {
            continue;
        };
        for param in desc.params {
            if matches!(param.kind, ParamKind::File { .. })
                && let Some(ParamValue::Text(path)) = node.params.get(param.name)
                && !path.is_empty()
            {
                let path = PathBuf::from(path);
                if !found.contains(&path) {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// The files of `graph`'s subgraph nodes, and of theirs, into `found`.
fn subgraph_files(graph: &Graph, depth: usize, found: &mut Vec<PathBuf>) {
    for node in graph
        .nodes
        .iter()
        .filter(|n| n.kind == crate::graph::SUBGRAPH_KIND)
    {
        let Some(ParamValue::Text(file)) = node.params.get("file") else {
            continue;
        };
        // A built-in library graph is part of the program, not a file read (and includes
        // no files of its own).
        if file.starts_with(crate::library::PREFIX) {
            continue;
        }
        let path = PathBuf::from(file);
        if found.contains(&path) {
            continue;
        }
        found.push(path.clone());
        if depth < crate::subgraph::MAX_NESTING
            && let Ok(mut included) = Graph::load(&path)
        {
            included.resolve_paths(&folder_of(&path));
            subgraph_files(&included, depth + 1, found);
        }
    }
}

/// The built-in library graphs `graph` uses, by name, each once: directly, through its
/// subgraphs' files, and through library graphs using others. They are part of the
/// program, so [`files_read`] does not list them; what keys a render's result on its
/// inputs adds their text.
pub fn library_used(graph: &Graph) -> Vec<String> {
    fn walk(graph: &Graph, depth: usize, found: &mut Vec<String>) {
        for node in graph
            .nodes
            .iter()
            .filter(|n| n.kind == crate::graph::SUBGRAPH_KIND)
        {
            let Some(ParamValue::Text(file)) = node.params.get("file") else {
                continue;
            };
            let included = match file.strip_prefix(crate::library::PREFIX) {
                Some(name) => {
                    if found.iter().any(|n| n == name) {
                        continue;
                    }
                    found.push(name.to_owned());
                    crate::library::graph(name)
                }
                None => Graph::load(Path::new(file)).ok().map(|mut g| {
                    g.resolve_paths(&folder_of(Path::new(file)));
                    g
                }),
            };
            if let Some(included) = included
                && depth < crate::subgraph::MAX_NESTING
            {
                walk(&included, depth + 1, found);
            }
        }
    }
    let mut found = Vec::new();
    walk(graph, 0, &mut found);
    found
}
