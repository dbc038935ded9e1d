//! Checks a [`Graph`] as a file holds it: its subgraphs are read and pasted in
//! ([`crate::subgraph::inline`]), then checked node by node ([`crate::checks`]). Every
//! problem found is reported, each naming the node and the field.
//!
//! Problems are errors, except one, a warning: an input left open that reads a constant
//! ([`crate::descriptor::Unconnected::Reads`]: the node renders with it).

use std::collections::HashMap;

use crate::checks::{check_reference, diagnose_flat};
use crate::graph::{Graph, Node, ParamValue, split_reference};
use crate::registry;
use crate::subgraph;
use texgraph_base::error::GraphError;

pub use crate::checks::{
    Diagnostics, MISSING_INPUT, OPEN_INPUT, check_param_value, open_input, plain_name, upstream,
};

/// Every error of `graph`; empty when the graph can be compiled. The errors of
/// [`diagnose`].
pub fn validate(graph: &Graph) -> Vec<GraphError> {
    diagnose(graph).errors
}

/// Every problem of `graph`, split into errors and warnings (see [`Diagnostics`]). Its
/// subgraphs are read and pasted in first ([`subgraph::inline`]); problems inside one are
/// named after the node that includes it, and the half-built nodes of an included file
/// warn only in that file.
pub fn diagnose(graph: &Graph) -> Diagnostics {
    match subgraph::inline(graph) {
        Err(errors) => Diagnostics {
            errors,
            warnings: Vec::new(),
        },
        Ok(std::borrow::Cow::Borrowed(flat)) => diagnose_flat(flat),
        Ok(std::borrow::Cow::Owned(flat)) => {
            let found = diagnose_flat(&flat);
            let own = |p: &GraphError| {
                p.location
                    .node
                    .as_deref()
                    .is_none_or(|id| graph.node(id).is_some())
            };
            let errors = texgraph_base::Error::Invalid(found.errors);
            Diagnostics {
                errors: subgraph::attribute(graph, errors).problems().to_vec(),
                warnings: found.warnings.into_iter().filter(own).collect(),
            }
        }
    }
}

/// Whether connecting `from` (`"node"` or `"node.port"`) to input `port` of node `to` would
/// be accepted: the input exists, the source output exists, and no cycle would form.
/// Scalars and colors convert into each other, so any output fits any input. The editor
/// asks this before every connection.
pub fn check_connection(graph: &Graph, from: &str, to: &str, port: &str) -> Result<(), String> {
    let target = graph.node(to).ok_or_else(|| format!("no node '{to}'"))?;
    if target.kind == crate::graph::SUBGRAPH_KIND {
        let file = match target.params.get("file") {
            Some(ParamValue::Text(file)) if !file.is_empty() => file,
            _ => return Err(format!("node '{to}' has no graph file chosen")),
        };
        let interface = subgraph::interface(std::path::Path::new(file))?;
        if !interface.connectable_inputs().any(|(name, _)| name == port) {
            return Err(format!("{file} has no input '{port}'"));
        }
    } else {
        let desc = registry::lookup(&target.kind)
            .ok_or_else(|| format!("node '{to}' has unknown type '{}'", target.kind))?;
        if !desc.connectable_inputs().any(|(name, _)| name == port) {
            return Err(format!("'{}' has no input '{port}'", desc.id));
        }
    }
    let ids: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    check_reference(from, &ids)?;
    let source = split_reference(from).0;
    if upstream(graph, source).contains(to) {
        return Err(format!(
            "connecting '{source}' to '{to}' would make a cycle"
        ));
    }
    Ok(())
}
