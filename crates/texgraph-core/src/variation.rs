//! Variations of a graph by seed: what a batch's `seeds` (and a seed sweep anywhere) mean.

use crate::graph::Graph;
use crate::registry::{self, ParamKind};
use crate::{ParamValue, subgraph};

/// Moves every `seed` param of the graph's nodes on by `offset`, wrapping within the
/// param's range: nodes with a seed of their own, and subgraph nodes whose graph exposes
/// one. Offset 0 is the graph as saved; each other offset varies all its noises at once.
pub fn offset_seeds(graph: &mut Graph, offset: u32) {
    for node in &mut graph.nodes {
        let kind = if node.kind == "graph" {
            let Some(ParamValue::Text(file)) = node.params.get("file") else {
                continue;
            };
            let Ok(interface) = subgraph::interface(std::path::Path::new(file)) else {
                continue;
            };
            match interface.param("seed") {
                Some(p) => (p.kind, p.default_value()),
                None => continue,
            }
        } else {
            let Some(desc) = registry::lookup(&node.kind) else {
                continue;
            };
            match desc.param("seed") {
                Some(p) => (p.kind, p.kind.default_value()),
                None => continue,
            }
        };
        let (ParamKind::Int { min, max, .. }, default) = kind else {
            continue;
        };
        let current = match node.params.get("seed").unwrap_or(&default) {
            ParamValue::Number(n) => *n as i64,
            _ => continue,
        };
        let span = (max - min + 1).max(1);
        let moved = min + (current - min + i64::from(offset)).rem_euclid(span);
        node.params
            .insert("seed".to_owned(), ParamValue::Number(moved as f64));
    }
}
