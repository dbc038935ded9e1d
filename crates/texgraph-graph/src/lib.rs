//! texgraph's graph layer: the document a file holds ([`graph`]), the node types
//! ([`descriptor`], one family file each under [`nodes`], one table in [`registry`]),
//! validation ([`checks`] of a flat graph, [`validate`] of one with subgraphs),
//! subgraphs pasted in ([`subgraph`]), and the compiler that turns a graph into the
//! engine's program ([`compile`]). Also: images for `image` nodes ([`images`]), file
//! params made relative ([`paths`]), seed variations ([`variation`]), the words people
//! search for nodes by ([`search_words`]) and the node reference generated from the
//! registry ([`docs`]).
//!
//! Within the layer, imports run: `graph` ← `descriptor` and the compiler's state ←
//! `nodes` ← `registry` ← `checks` ← `subgraph` ← `validate` ← the compiler's entry
//! points. The compiler's state finds node types through the registry it is handed, so
//! it names no node family.

pub mod catalog;
pub mod checks;
pub mod compile;
pub mod descriptor;
pub mod docs;
pub mod formula;
pub mod graph;
pub mod images;
pub mod library;
pub mod nodes;
pub mod params;
pub mod paths;
pub mod registry;
pub mod search_words;
pub mod subgraph;
pub mod validate;
pub mod variation;
