//! Variations of a graph: by seed (what a batch's `seeds`, and a seed sweep anywhere,
//! mean) and by param (what `--set` and the Python module's `Graph.set` do).

use crate::graph::ParamValue;
use crate::graph::{CurvePoint, GradientStop, Graph};
use crate::registry::{self, ParamKind};
use crate::subgraph;
use texgraph_base::error::{GraphError, Location};

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

/// Sets param `param` of node `node_id` from `value` written as text, read as the param's
/// type: a number, `true`/`false`, a JSON list of stops or points, a choice's or color's
/// text, or a file path (made absolute from the working directory). What `--set
/// node.param=value` and the Python module's `Graph.set` do. The error names the node and
/// field, and its message says what is wrong in words.
pub fn set_param(
    graph: &mut Graph,
    node_id: &str,
    param: &str,
    value: &str,
) -> Result<(), GraphError> {
    let node = graph.node_mut(node_id).ok_or_else(|| {
        GraphError::new(
            Location::node(node_id),
            format!("the graph has no node '{node_id}'"),
        )
    })?;
    let at = Location::field(node_id, param);
    let kind = if node.kind == crate::graph::SUBGRAPH_KIND {
        subgraph_param(node, param).map_err(|message| GraphError::new(at.clone(), message))?
    } else {
        let desc = registry::lookup(&node.kind).ok_or_else(|| {
            GraphError::new(
                Location::node(node_id),
                format!("node '{node_id}' has unknown type '{}'", node.kind),
            )
        })?;
        desc.param(param).map(|p| p.kind).ok_or_else(|| {
            let names: Vec<_> = desc.params.iter().map(|p| p.name).collect();
            GraphError::new(
                at.clone(),
                format!(
                    "node '{node_id}' ({}) has no param '{param}' (params: {})",
                    desc.id,
                    names.join(", ")
                ),
            )
        })?
    };
    // Every message names the node and field: a front end may show it alone.
    let fail = |message: String| {
        GraphError::new(
            at.clone(),
            format!("node '{node_id}', field '{param}': {message}"),
        )
    };
    let parsed = match kind {
        ParamKind::Float { .. } | ParamKind::Number { .. } | ParamKind::Int { .. } => {
            let number: f64 = value
                .trim()
                .parse()
                .map_err(|_| fail(format!("'{value}' is not a number")))?;
            ParamValue::Number(number)
        }
        ParamKind::Stops { .. } => ParamValue::Stops(
            serde_json::from_str::<Vec<GradientStop>>(value)
                .map_err(|e| fail(format!("expected a JSON list of stops ({e})")))?,
        ),
        ParamKind::Points { .. } => {
            ParamValue::Points(serde_json::from_str::<Vec<CurvePoint>>(value).map_err(|e| {
                fail(format!(
                    "expected a JSON list of points like [{{\"x\": 0, \"y\": 0}}, …] ({e})"
                ))
            })?)
        }
        ParamKind::Choice { .. }
        | ParamKind::Color { .. }
        | ParamKind::Text { .. }
        | ParamKind::Formula { .. } => ParamValue::Text(value.to_owned()),
        // A path given by hand is relative to the working directory.
        ParamKind::File { .. } => {
            let path = std::path::absolute(value).unwrap_or_else(|_| value.into());
            ParamValue::Text(path.to_string_lossy().into_owned())
        }
        ParamKind::Bool { .. } => match value.trim() {
            "true" => ParamValue::Bool(true),
            "false" => ParamValue::Bool(false),
            _ => return Err(fail(format!("'{value}' is not true or false"))),
        },
    };
    if let Err(message) = crate::checks::check_param_value(&kind, &parsed) {
        return Err(fail(message));
    }
    node.params.insert(param.to_owned(), parsed);
    Ok(())
}

/// The kind of param `param` of subgraph node `node`: its `file`, or a param its graph
/// exposes (with the range the graph gives it).
fn subgraph_param(node: &crate::graph::Node, param: &str) -> Result<ParamKind, String> {
    if param == "file" {
        return Ok(ParamKind::File { default: "" });
    }
    let file = match node.params.get("file") {
        Some(ParamValue::Text(file)) if !file.is_empty() => file,
        _ => return Err(format!("node '{}' has no graph file chosen", node.id)),
    };
    let interface = crate::subgraph::interface(std::path::Path::new(file))?;
    match interface.param(param) {
        Some(exposed) => Ok(exposed.kind),
        None => {
            let names: Vec<&str> = interface.params.iter().map(|p| p.name.as_str()).collect();
            Err(format!(
                "node '{}' ({file}) exposes no param '{param}' (params: {})",
                node.id,
                names.join(", ")
            ))
        }
    }
}
