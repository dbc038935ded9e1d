//! Checks a [`Graph`] whose subgraphs are pasted in already against the node registry
//! (what `validate` runs after inlining). Every problem found is reported, each
//! naming the node and the field.
//!
//! Problems are errors, except one, a warning: an input left open that reads a constant
//! ([`Unconnected::Reads`]: the node renders with it, so a half-wired graph still
//! renders).

use std::collections::{HashMap, HashSet};

use crate::descriptor::{OpenValue, Unconnected};
use crate::graph::{
    Comment, FIRST_VERSION, FORMAT, Graph, MAX_LOOP_SECONDS, Node, ParamValue, VERSION,
    split_reference,
};
use crate::registry::{self, MAX_CURVE_POINTS, NodeDescriptor, ParamKind};
use texgraph_base::error::{GraphError, Location};
use texgraph_engine::usage::Usage;
use texgraph_kernels::gradient::parse_hex_color;

/// What diagnosing a graph finds (`validate::diagnose`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// Problems that stop the graph from compiling.
    pub errors: Vec<GraphError>,
    /// Problems that do not: inputs left open that read a constant.
    pub warnings: Vec<GraphError>,
}

/// The message of an input that must be connected (an output's) left open.
pub const MISSING_INPUT: &str = "required input is not connected";

/// The warning about an input left open that reads `value` (see [`Unconnected::Reads`]).
pub fn open_input(value: OpenValue) -> String {
    format!("{OPEN_INPUT}: reads {}", value.describe())
}

/// How the warning about an open input that reads a constant begins.
pub const OPEN_INPUT: &str = "not connected";

/// Whether `name` is letters, digits, '_' and '-' only, and not empty: what output,
/// input port and exposed param names must be (they become file names and ports).
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Every problem of a graph whose subgraphs are pasted in already, split into errors and
/// warnings.
pub fn diagnose_flat(graph: &Graph) -> Diagnostics {
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    if graph.format != FORMAT {
        problems.push(GraphError::new(
            Location::graph_field("format"),
            format!("expected \"{FORMAT}\", found \"{}\"", graph.format),
        ));
    }
    if !(FIRST_VERSION..=VERSION).contains(&graph.version) {
        problems.push(GraphError::new(
            Location::graph_field("version"),
            format!(
                "unsupported version {}; this build reads versions {FIRST_VERSION} to {VERSION}",
                graph.version
            ),
        ));
    }
    if let Some(seconds) = graph.settings.loop_seconds
        && !(seconds > 0.0 && seconds <= MAX_LOOP_SECONDS)
    {
        problems.push(GraphError::new(
            Location::graph_field("settings.loop"),
            format!("{seconds} seconds; a loop lasts more than 0 and at most {MAX_LOOP_SECONDS}"),
        ));
    }
    if !graph.settings.time.is_finite() {
        problems.push(GraphError::new(
            Location::graph_field("settings.time"),
            "must be finite",
        ));
    }

    check_comments(graph, &mut problems);

    let mut ids: HashMap<&str, &Node> = HashMap::new();
    for node in &graph.nodes {
        if node.id.is_empty() || node.id.contains('.') {
            problems.push(GraphError::new(
                Location::field(&node.id, "id"),
                "ids must be non-empty and contain no '.' (it separates node and port)",
            ));
        }
        if ids.insert(node.id.as_str(), node).is_some() {
            problems.push(GraphError::new(
                Location::field(&node.id, "id"),
                "duplicate node id",
            ));
        }
    }

    for node in &graph.nodes {
        if let Some(label) = &node.label {
            let chars = label.chars().count();
            if chars > Node::MAX_LABEL_CHARS {
                problems.push(GraphError::new(
                    Location::field(&node.id, "label"),
                    format!(
                        "{chars} characters; a label holds at most {}",
                        Node::MAX_LABEL_CHARS
                    ),
                ));
            }
        }
        match registry::lookup(&node.kind) {
            None => problems.push(GraphError::new(
                Location::field(&node.id, "type"),
                format!("unknown node type '{}' (see `texgraph nodes`)", node.kind),
            )),
            Some(desc) => {
                check_params(node, desc, &mut problems);
                check_inputs(node, desc, &ids, &mut problems);
                let open = desc
                    .inputs
                    .iter()
                    .filter(|p| !node.inputs.contains_key(p.name));
                for port in open {
                    let at = Location::field(&node.id, port.name);
                    match port.unconnected {
                        Unconnected::NodeDecides => {}
                        Unconnected::Reads(value) => {
                            warnings.push(GraphError::new(at, open_input(value)));
                        }
                        Unconnected::MustConnect => {
                            problems.push(GraphError::new(at, MISSING_INPUT));
                        }
                    }
                }
            }
        }
    }

    check_cycles(graph, &ids, &mut problems);
    check_outputs(graph, &mut problems);
    check_input_names(graph, &mut problems);
    Diagnostics {
        errors: problems,
        warnings,
    }
}

/// The canvas comments: a color the editor can draw, a finite position and a size it can
/// lay out, a text of reasonable length.
fn check_comments(graph: &Graph, problems: &mut Vec<GraphError>) {
    for (i, comment) in graph.comments.iter().enumerate() {
        let at = |field: &str| Location::graph_field(&format!("comments[{i}].{field}"));
        if let Err(message) = check_color(&comment.color) {
            problems.push(GraphError::new(at("color"), message));
        }
        if !comment.pos.iter().all(|v| v.is_finite()) {
            problems.push(GraphError::new(at("pos"), "must be finite"));
        }
        if !comment
            .size
            .iter()
            .all(|v| *v > 0.0 && *v <= Comment::MAX_SIZE)
        {
            problems.push(GraphError::new(
                at("size"),
                format!(
                    "width and height must be above 0 and at most {}",
                    Comment::MAX_SIZE
                ),
            ));
        }
        let chars = comment.text.chars().count();
        if chars > Comment::MAX_TEXT_CHARS {
            problems.push(GraphError::new(
                at("text"),
                format!(
                    "{chars} characters; a comment holds at most {}",
                    Comment::MAX_TEXT_CHARS
                ),
            ));
        }
    }
}

fn check_params(node: &Node, desc: &NodeDescriptor, problems: &mut Vec<GraphError>) {
    for (name, value) in &node.params {
        let at = Location::field(&node.id, name);
        let Some(param) = desc.param(name) else {
            let known: Vec<_> = desc.params.iter().map(|p| p.name).collect();
            problems.push(GraphError::new(
                at,
                format!(
                    "unknown param of '{}' (params: {})",
                    desc.id,
                    known.join(", ")
                ),
            ));
            continue;
        };
        if let Err(message) = check_param_value(&param.kind, value) {
            problems.push(GraphError::new(at, message));
        }
    }
}

/// Whether `value` is acceptable for a param of kind `kind`; the error says why not.
pub fn check_param_value(kind: &ParamKind, value: &ParamValue) -> Result<(), String> {
    match (kind, value) {
        (
            ParamKind::Float { min, max, .. } | ParamKind::Number { min, max, .. },
            ParamValue::Number(v),
        ) => {
            let v32 = *v as f32;
            if !v32.is_finite() {
                Err(format!("{v} is not a finite 32-bit float"))
            } else if v32 < *min || v32 > *max {
                Err(format!("{v} is out of range [{min}, {max}]"))
            } else {
                Ok(())
            }
        }
        (ParamKind::Int { min, max, .. }, ParamValue::Number(v)) => {
            if v.fract() != 0.0 {
                Err(format!("expected an integer, found {v}"))
            } else if *v < *min as f64 || *v > *max as f64 {
                Err(format!("{v} is out of range [{min}, {max}]"))
            } else {
                Ok(())
            }
        }
        (ParamKind::Choice { options, .. }, ParamValue::Text(s)) => {
            if options.contains(&s.as_str()) {
                Ok(())
            } else {
                Err(format!("'{s}' is not one of: {}", options.join(", ")))
            }
        }
        (ParamKind::Color { .. }, ParamValue::Text(s)) => check_color(s),
        (ParamKind::Text { .. } | ParamKind::File { .. }, ParamValue::Text(_)) => Ok(()),
        (ParamKind::Formula { .. }, ParamValue::Text(text)) => {
            crate::formula::check(text).map_err(|e| e.describe(text))
        }
        (ParamKind::Bool { .. }, ParamValue::Bool(_)) => Ok(()),
        (ParamKind::Stops { .. }, ParamValue::Stops(stops)) => {
            if stops.is_empty() {
                return Err("a ramp needs at least one stop".to_owned());
            }
            for (i, stop) in stops.iter().enumerate() {
                if !(0.0..=1.0).contains(&stop.pos) {
                    return Err(format!("stop {i}: pos {} is out of range [0, 1]", stop.pos));
                }
                check_color(&stop.color).map_err(|e| format!("stop {i}: {e}"))?;
            }
            Ok(())
        }
        (ParamKind::Stops { .. }, ParamValue::Other(serde_json::Value::Array(_))) => {
            Err("expected stops like [{\"pos\": 0, \"color\": \"#000000\"}, …]".to_owned())
        }
        (ParamKind::Points { .. }, ParamValue::Points(points)) => {
            if points.len() < 2 {
                return Err("a curve needs at least two points".to_owned());
            }
            if points.len() > MAX_CURVE_POINTS {
                return Err(format!(
                    "a curve has at most {MAX_CURVE_POINTS} points, not {}",
                    points.len()
                ));
            }
            for (i, p) in points.iter().enumerate() {
                for (axis, v) in [("x", p.x), ("y", p.y)] {
                    if !(0.0..=1.0).contains(&v) {
                        return Err(format!("point {i}: {axis} {v} is out of range [0, 1]"));
                    }
                }
            }
            Ok(())
        }
        // `[]` reads as an empty list of stops.
        (ParamKind::Points { .. }, ParamValue::Stops(stops)) if stops.is_empty() => {
            Err("a curve needs at least two points".to_owned())
        }
        (ParamKind::Points { .. }, ParamValue::Other(serde_json::Value::Array(_))) => {
            Err("expected points like [{\"x\": 0, \"y\": 0}, {\"x\": 1, \"y\": 1}]".to_owned())
        }
        (kind, value) => Err(format!(
            "expected {}, found {}",
            expected(kind),
            describe(value)
        )),
    }
}

fn check_color(text: &str) -> Result<(), String> {
    parse_hex_color(text)
        .map(|_| ())
        .ok_or_else(|| format!("'{text}' is not a color; write #rrggbb or #rrggbbaa"))
}

fn expected(kind: &ParamKind) -> &'static str {
    match kind {
        ParamKind::Float { .. } | ParamKind::Number { .. } => "a number",
        ParamKind::Int { .. } => "an integer",
        ParamKind::Choice { .. } => "a string naming a choice",
        ParamKind::Color { .. } => "a color string \"#rrggbb\"",
        ParamKind::Text { .. } => "a string",
        ParamKind::Formula { .. } => "a formula as a string",
        ParamKind::File { .. } => "a file path string",
        ParamKind::Bool { .. } => "true or false",
        ParamKind::Stops { .. } => "a list of stops",
        ParamKind::Points { .. } => "a list of points",
    }
}

fn describe(value: &ParamValue) -> String {
    match value {
        ParamValue::Number(n) => format!("the number {n}"),
        ParamValue::Text(s) => format!("the string \"{s}\""),
        ParamValue::Stops(_) => "a list of stops".to_owned(),
        ParamValue::Points(_) => "a list of points".to_owned(),
        ParamValue::Bool(b) => format!("{b}"),
        ParamValue::Other(v) => format!("{v}"),
    }
}

fn check_inputs(
    node: &Node,
    desc: &NodeDescriptor,
    ids: &HashMap<&str, &Node>,
    problems: &mut Vec<GraphError>,
) {
    for (port, reference) in &node.inputs {
        let at = Location::field(&node.id, port);
        if !desc.connectable_inputs().any(|(name, _)| name == port) {
            let known: Vec<_> = desc.connectable_inputs().map(|(n, _)| n).collect();
            let list = if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            };
            problems.push(GraphError::new(
                at,
                format!("'{}' has no input '{port}' (inputs: {list})", desc.id),
            ));
            continue;
        }
        if let Err(message) = check_reference(reference, ids) {
            problems.push(GraphError::new(at, message));
        }
    }
}

/// Whether `reference` (`"node"` or `"node.port"`) names an existing output.
pub fn check_reference(reference: &str, ids: &HashMap<&str, &Node>) -> Result<(), String> {
    let (source_id, port) = split_reference(reference);
    let Some(source) = ids.get(source_id) else {
        return Err(format!("'{reference}' refers to no node '{source_id}'"));
    };
    let Some(source_desc) = registry::lookup(&source.kind) else {
        return Ok(()); // its unknown type is reported on its own node
    };
    if source_desc.outputs.is_empty() {
        return Err(format!(
            "node '{source_id}' ({}) has no outputs",
            source_desc.id
        ));
    }
    if let Some(port) = port
        && source_desc.output(port).is_none()
    {
        let outs: Vec<_> = source_desc.outputs.iter().map(|o| o.name).collect();
        return Err(format!(
            "node '{source_id}' ({}) has no output '{port}' (outputs: {})",
            source_desc.id,
            outs.join(", ")
        ));
    }
    Ok(())
}

fn check_cycles(graph: &Graph, ids: &HashMap<&str, &Node>, problems: &mut Vec<GraphError>) {
    // Iterative depth-first search; 1 = on the current path, 2 = finished.
    let mut state: HashMap<&str, u8> = HashMap::new();
    let mut reported: HashSet<&str> = HashSet::new();
    for start in &graph.nodes {
        if state.contains_key(start.id.as_str()) {
            continue;
        }
        let mut stack: Vec<(&Node, Vec<&str>)> = vec![(start, direct_sources(start, ids))];
        state.insert(&start.id, 1);
        while let Some((node, pending)) = stack.last_mut() {
            let node: &Node = node;
            match pending.pop() {
                Some(next) => match state.get(next) {
                    Some(1) => {
                        if reported.insert(next) {
                            let (port, _) = node
                                .inputs
                                .iter()
                                .find(|(_, r)| split_reference(r).0 == next)
                                .expect("the edge came from this node's inputs");
                            problems.push(GraphError::new(
                                Location::field(&node.id, port),
                                format!("connecting to '{next}' makes a cycle"),
                            ));
                        }
                    }
                    Some(_) => {}
                    None => {
                        let next_node = ids[next];
                        state.insert(next, 1);
                        stack.push((next_node, direct_sources(next_node, ids)));
                    }
                },
                None => {
                    state.insert(&node.id, 2);
                    stack.pop();
                }
            }
        }
    }
}

/// The ids of the nodes `node`'s inputs refer to (existing ones only).
fn direct_sources<'g>(node: &'g Node, ids: &HashMap<&str, &'g Node>) -> Vec<&'g str> {
    node.inputs
        .values()
        .map(|r| split_reference(r).0)
        .filter(|id| ids.contains_key(id))
        .collect()
}

/// The `graph_input` nodes' names: ports of the graphs that include this one.
fn check_input_names(graph: &Graph, problems: &mut Vec<GraphError>) {
    let mut names: HashMap<String, &str> = HashMap::new();
    for node in graph
        .nodes
        .iter()
        .filter(|n| n.kind == crate::graph::GRAPH_INPUT_KIND)
    {
        let name = match node.params.get("name") {
            Some(ParamValue::Text(name)) => name.clone(),
            _ => "input".to_owned(),
        };
        if !plain_name(&name) {
            problems.push(GraphError::new(
                Location::field(&node.id, "name"),
                format!(
                    "input name '{name}' must be letters, digits, '_' or '-' (it becomes a port)"
                ),
            ));
        }
        if let Some(first) = names.insert(name.clone(), &node.id) {
            problems.push(GraphError::new(
                Location::field(&node.id, "name"),
                format!("input name '{name}' is already used by node '{first}'"),
            ));
        }
    }
}

fn check_outputs(graph: &Graph, problems: &mut Vec<GraphError>) {
    let mut names: HashMap<String, &str> = HashMap::new();
    for node in graph.nodes.iter().filter(|n| n.kind == "output") {
        let name = node.output_name();
        if !plain_name(&name) {
            problems.push(GraphError::new(
                Location::field(&node.id, "name"),
                format!("output name '{name}' must be letters, digits, '_' or '-' (it becomes part of file names)"),
            ));
        }
        if let Some(first) = names.insert(name.clone(), &node.id) {
            problems.push(GraphError::new(
                Location::field(&node.id, "name"),
                format!("output name '{name}' is already used by node '{first}'"),
            ));
        }
    }
    // A material has one map of each usage; `color` outputs are plain images.
    let mut usages: HashMap<Usage, &str> = HashMap::new();
    for node in graph.nodes.iter().filter(|n| n.kind == "output") {
        let usage = node.usage();
        if usage == Usage::Color {
            continue;
        }
        if let Some(first) = usages.insert(usage, &node.id) {
            problems.push(GraphError::new(
                Location::field(&node.id, "usage"),
                format!(
                    "usage '{}' is already taken by output '{first}': a material has one map of each usage",
                    usage.id()
                ),
            ));
        }
    }
    if names.is_empty() {
        problems.push(GraphError::new(
            Location::graph_field("nodes"),
            "the graph has no output node",
        ));
    }
}

/// Ids of `node` and of every node it depends on, through any input.
pub fn upstream<'g>(graph: &'g Graph, node: &str) -> HashSet<&'g str> {
    depended_on(graph, graph.nodes.iter().filter(|n| n.id == node))
}

/// Ids of the `starts` and of every node they depend on, through any input.
fn depended_on<'g>(graph: &'g Graph, starts: impl Iterator<Item = &'g Node>) -> HashSet<&'g str> {
    let ids: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut seen = HashSet::new();
    let mut stack: Vec<&str> = starts.map(|n| n.id.as_str()).collect();
    while let Some(id) = stack.pop() {
        if seen.insert(id)
            && let Some(n) = ids.get(id)
        {
            stack.extend(direct_sources(n, &ids));
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_long_a_label_is_an_error_naming_node_and_field() {
        let text = r#"{ "format": "texgraph", "version": 3, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#;
        let mut graph = Graph::from_json(text).unwrap();
        graph.nodes[0].label = Some("x".repeat(Node::MAX_LABEL_CHARS));
        assert_eq!(diagnose_flat(&graph), Diagnostics::default());
        graph.nodes[0].label = Some("x".repeat(Node::MAX_LABEL_CHARS + 1));
        let problems = diagnose_flat(&graph).errors;
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].location.to_string(), "node 'n', field 'label'");
    }
}
