//! What the palette offers besides the node types: the built-in library's graphs, each
//! described as a node (its ports and params read from the file, as an including graph
//! sees them). The editor's palette, `texgraph nodes`, docs/nodes.md and the Python
//! module's `nodes()` list the same entries.

use std::path::Path;

use crate::library;
use crate::subgraph::{Interface, interface};

/// A built-in library graph, as a palette entry.
pub struct LibraryEntry {
    /// The id an including graph writes in its `file` param: `library:NAME`.
    pub file: String,
    /// The library name (the file's stem).
    pub name: &'static str,
    /// The display name (the graph's `name`).
    pub label: String,
    /// The palette group ("Grunge", "Pattern"…).
    pub category: String,
    /// What it makes.
    pub doc: String,
    /// Its ports and params as a node.
    pub interface: Interface,
}

/// Every built-in library graph, by category then name.
pub fn library_entries() -> Vec<LibraryEntry> {
    let mut entries: Vec<LibraryEntry> = library::names()
        .filter_map(|name| {
            let graph = library::graph(name)?;
            let file = format!("{}{name}", library::PREFIX);
            let interface = interface(Path::new(&file)).ok()?;
            Some(LibraryEntry {
                label: graph.name.clone().unwrap_or_else(|| name.to_owned()),
                category: graph.category.clone(),
                doc: graph.doc.clone(),
                file,
                name,
                interface,
            })
        })
        .collect();
    entries.sort_by(|a, b| (&a.category, a.name).cmp(&(&b.category, b.name)));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_graph_is_an_entry_with_ports_and_params() {
        let entries = library_entries();
        assert_eq!(entries.len(), library::names().count());
        let veins = entries.iter().find(|e| e.name == "marble_veins").unwrap();
        assert_eq!(veins.file, "library:marble_veins");
        assert_eq!(veins.category, "Pattern");
        assert!(
            veins
                .interface
                .params
                .iter()
                .any(|p| p.name == "vein_scale")
        );
    }
}
