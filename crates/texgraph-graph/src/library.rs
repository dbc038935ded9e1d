//! The built-in library: graph files made to be used as nodes (grunges, patterns, smart
//! masks, filters, generators), shipped inside the program from `graphs/library/`.
//!
//! A `graph` node names one by `library:NAME` in its `file` param instead of a path, so a
//! graph using it renders the same on any machine, from any folder, in every front end.
//! The files are the repository's `graphs/library/*.json`, embedded when the crate is
//! built; each has a `name`, a `doc`, a `category` and an `exposed` list.

use crate::graph::Graph;

/// The prefix of a `file` param that names a built-in library graph.
pub const PREFIX: &str = "library:";

/// Every built-in library graph, as (name, file text), by name.
static BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The names of the built-in library graphs, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    BUILT_IN.iter().map(|(name, _)| *name)
}

/// The text of built-in library graph `name`.
pub fn text(name: &str) -> Option<&'static str> {
    BUILT_IN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The built-in graph a `file` param names (`library:NAME`), if it names one: `None` for
/// a path, `Some(Err)` for a library name that does not exist (the names there are).
pub fn lookup(file: &str) -> Option<Result<&'static str, String>> {
    let name = file.strip_prefix(PREFIX)?;
    Some(text(name).ok_or_else(|| {
        let mut near: Vec<(usize, &str)> = names()
            .map(|n| (strsim::levenshtein(n, name), n))
            .filter(|(d, _)| *d <= 3)
            .collect();
        near.sort();
        let near: Vec<&str> = near.into_iter().take(3).map(|(_, n)| n).collect();
        if near.is_empty() {
            format!("the library has no graph '{name}'")
        } else {
            format!(
                "the library has no graph '{name}' (did you mean {}?)",
                near.join(", ")
            )
        }
    }))
}

/// Built-in library graph `name`, parsed.
pub fn graph(name: &str) -> Option<Graph> {
    text(name).map(|t| Graph::from_json(t).expect("the library's graphs are tested to load"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_and_unknown_ones_are_refused_with_neighbours() {
        assert!(names().any(|n| n == "marble_veins"));
        assert!(matches!(lookup("library:marble_veins"), Some(Ok(_))));
        assert_eq!(lookup("library/marble_veins.json"), None);
        let err = lookup("library:marble_vein").unwrap().unwrap_err();
        assert!(err.contains("did you mean marble_veins"), "{err}");
    }

    #[test]
    fn every_built_in_graph_loads_and_says_what_it_is() {
        for name in names() {
            let graph = graph(name).unwrap();
            assert!(graph.name.is_some(), "{name} has a name");
            assert!(!graph.doc.is_empty(), "{name} has a doc");
            assert!(!graph.category.is_empty(), "{name} has a category");
        }
    }
}
