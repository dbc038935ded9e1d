//! Every param a graph's nodes take, with its kind, range, value and doc: what
//! `texgraph params`, the Python module's `Graph.params()` and front ends built on the CLI
//! (the Blender add-on) show, and what `--set node.param=value` and `Graph.set` accept.

use std::path::Path;

use crate::descriptor::ParamKind;
use crate::graph::{Graph, ParamValue, SUBGRAPH_KIND};
use crate::registry;
use crate::subgraph;

/// What a subgraph node's `file` param is.
const SUBGRAPH_FILE_DOC: &str =
    "The graph file this node includes (relative to this graph's folder, or `library:NAME`).";

/// One param of one node of a graph.
#[derive(Debug, Clone)]
pub struct GraphParam {
    /// The node's id (what `--set` names).
    pub node: String,
    /// The node's type (`perlin`, `graph`…).
    pub node_type: String,
    /// The node's label for people, when it has one.
    pub node_label: Option<String>,
    /// The param's name.
    pub name: String,
    /// Its kind, default and range.
    pub kind: ParamKind,
    /// The value the graph gives it (the default when the graph gives none).
    pub value: ParamValue,
    /// The value the node takes when the graph gives none.
    pub default: ParamValue,
    /// What it does.
    pub doc: String,
}

/// Every param of every node of `graph`, in node order, each node's in its type's order.
/// A subgraph node (`graph`) lists its `file` and the params its graph file exposes (none
/// when that file cannot be read: validation reports why). Nodes of unknown types are
/// left out (validation reports them too).
pub fn graph_params(graph: &Graph) -> Vec<GraphParam> {
    let mut list = Vec::new();
    for node in &graph.nodes {
        let entry = |name: &str, kind: ParamKind, default: ParamValue, doc: &str| GraphParam {
            node: node.id.clone(),
            node_type: node.kind.clone(),
            node_label: node.label.clone(),
            name: name.to_owned(),
            kind,
            value: node
                .params
                .get(name)
                .cloned()
                .unwrap_or_else(|| default.clone()),
            default,
            doc: doc.to_owned(),
        };
        if node.kind == SUBGRAPH_KIND {
            let file = ParamKind::File { default: "" };
            list.push(entry("file", file, file.default_value(), SUBGRAPH_FILE_DOC));
            if let Some(ParamValue::Text(file)) = node.params.get("file")
                && let Ok(interface) = subgraph::interface(Path::new(file))
            {
                for exposed in &interface.params {
                    let default = exposed.default_value();
                    list.push(entry(&exposed.name, exposed.kind, default, &exposed.doc));
                }
            }
        } else if let Some(desc) = registry::lookup(&node.kind) {
            for param in desc.params {
                list.push(entry(
                    param.name,
                    param.kind,
                    param.kind.default_value(),
                    param.doc,
                ));
            }
        }
    }
    list
}

/// The bounds of a number param, `(min, max)`, as floats; `None` for other kinds.
pub fn range(kind: &ParamKind) -> Option<(f64, f64)> {
    match *kind {
        ParamKind::Float { min, max, .. } | ParamKind::Number { min, max, .. } => {
            Some((f64::from(min), f64::from(max)))
        }
        ParamKind::Int { min, max, .. } => Some((min as f64, max as f64)),
        _ => None,
    }
}

/// The words a choice param accepts; `None` for other kinds.
pub fn options(kind: &ParamKind) -> Option<&'static [&'static str]> {
    match *kind {
        ParamKind::Choice { options, .. } => Some(options),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_lists_each_node_s_params_with_its_values() {
        let graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 4, "nodes": [
                { "id": "n", "type": "perlin", "label": "grain", "params": { "frequency": 12 } },
                { "id": "out", "type": "output", "params": { "usage": "height" }, "inputs": { "color": "n" } } ] }"#,
        )
        .expect("a graph");
        let params = graph_params(&graph);
        let perlin = registry::lookup("perlin").expect("perlin").params.len();
        let output = registry::lookup("output").expect("output").params.len();
        assert_eq!(params.len(), perlin + output);
        let frequency = params
            .iter()
            .find(|p| p.node == "n" && p.name == "frequency")
            .expect("the frequency");
        assert_eq!(frequency.value, ParamValue::Number(12.0));
        assert_ne!(frequency.default, frequency.value);
        assert_eq!(frequency.node_label.as_deref(), Some("grain"));
        assert_eq!(frequency.kind.type_name(), "float");
        let usage = params
            .iter()
            .find(|p| p.node == "out" && p.name == "usage")
            .expect("the usage");
        assert_eq!(usage.value, ParamValue::Text("height".into()));
        assert!(options(&usage.kind).is_some_and(|o| o.contains(&"basecolor")));
        assert!(range(&usage.kind).is_none());
    }
}
