//! Subgraphs: a graph file used as a node of another graph.
//!
//! A node of type [`SUBGRAPH_KIND`] (`"graph"`) names a graph file in its `file` param. That file's
//! `graph_input` nodes become the node's input ports, its `output` nodes its output ports
//! (by their `name`s, the first being what a bare reference means) and its `exposed`
//! params the node's own params, with the kinds, ranges and docs of the node params they
//! stand for.
//!
//! Before anything is validated or compiled, [`inline`] pastes every included graph into
//! the including one: its nodes are copied with ids prefixed by the including node's id
//! and a `/` (`veins/noise`), the exposed params set on the including node are written
//! into the nodes they target, connections to its input ports are wired straight to the
//! nodes that read the `graph_input`s, and references to its outputs go straight to what
//! feeds the `output`s. What is left is an ordinary graph: a subgraph costs nothing at
//! run time and renders bit for bit like the same nodes pasted by hand. The settings of
//! an included file (tileable, time, loop) are the including graph's.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::checks::{check_param_value, diagnose_flat, plain_name};
use crate::graph::{GRAPH_INPUT_KIND, Graph, Node, ParamValue, SUBGRAPH_KIND, split_reference};
use crate::registry::{self, ParamKind, PortType};
use texgraph_base::error::{Error, GraphError, Location};

/// How deeply graph files may include each other.
pub const MAX_NESTING: usize = 16;
/// Most nodes a graph may have once every subgraph is pasted in (a file included twice in
/// each of 20 levels would otherwise paste a million copies).
pub const MAX_INLINED_NODES: usize = 100_000;

/// What a graph file offers to the graphs that use it as a node.
#[derive(Debug, Clone, PartialEq)]
pub struct Interface {
    /// The file's display name (its `name`, else its file stem).
    pub name: String,
    /// What it makes (its `doc`; empty when it says nothing).
    pub doc: String,
    /// Its input ports: the `graph_input` nodes, in file order.
    pub inputs: Vec<InputPort>,
    /// Its output ports: the names of its `output` nodes, in file order.
    pub outputs: Vec<String>,
    /// Its params: the `exposed` list, in file order.
    pub params: Vec<ExposedParam>,
}

/// An input port of a subgraph.
#[derive(Debug, Clone, PartialEq)]
pub struct InputPort {
    /// The `graph_input` node's `name`.
    pub name: String,
    /// What it carries.
    pub ty: PortType,
}

/// A param a graph exposes, resolved against the node it targets.
#[derive(Debug, Clone)]
pub struct ExposedParam {
    /// The param's name on the including node.
    pub name: String,
    /// Kind, default and range: the target param's.
    pub kind: ParamKind,
    /// The value the file gives the target (the kind's default when `None`).
    pub value: Option<ParamValue>,
    /// What it does.
    pub doc: String,
    /// The node (an id of the inlined graph) and param it sets.
    target: (String, String),
}

impl PartialEq for ExposedParam {
    fn eq(&self, other: &Self) -> bool {
        // ParamKind holds floats and static lists; its printed form compares them.
        self.name == other.name
            && format!("{:?}", self.kind) == format!("{:?}", other.kind)
            && self.value == other.value
            && self.doc == other.doc
            && self.target == other.target
    }
}

impl ExposedParam {
    /// The value the including node gets when it sets none.
    pub fn default_value(&self) -> ParamValue {
        self.value
            .clone()
            .unwrap_or_else(|| self.kind.default_value())
    }
}

impl Interface {
    /// The exposed param called `name`.
    pub fn param(&self, name: &str) -> Option<&ExposedParam> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Every port a connection may target: the inputs, then one per float param.
    pub fn connectable_inputs(&self) -> impl Iterator<Item = (&str, PortType)> {
        self.inputs.iter().map(|p| (p.name.as_str(), p.ty)).chain(
            self.params
                .iter()
                .filter(|p| matches!(p.kind, ParamKind::Float { .. }))
                .map(|p| (p.name.as_str(), PortType::Scalar)),
        )
    }
}

/// What [`extract`] makes: the new subgraph file's graph, and the including graph with the
/// extracted nodes replaced by one `graph` node.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    /// The graph to write to the subgraph file.
    pub subgraph: Graph,
    /// The graph it came from, now using the file through node `node`.
    pub including: Graph,
}

/// Moves the nodes `ids` of `graph` into a subgraph of their own, used through a new
/// `graph` node `node` whose `file` is `file` (as written in the including graph). Every
/// connection into the moved nodes from outside becomes a `graph_input` (named
/// `<node>_<port>`) connected to what fed it; every output of a moved node read outside
/// becomes an `output` (named after the node, and its port when not the first). Inlined
/// again, the result is the same nodes with the same connections, so it renders the same.
/// `output` nodes cannot be moved: they are the including graph's results.
pub fn extract(graph: &Graph, ids: &[String], node: &str, file: &str) -> Result<Extracted, String> {
    let moved: HashSet<&str> = ids.iter().map(String::as_str).collect();
    if moved.is_empty() {
        return Err("no nodes to make a subgraph of".to_owned());
    }
    if graph.node(node).is_some() && !moved.contains(node) {
        return Err(format!("there is already a node '{node}'"));
    }
    for id in &moved {
        match graph.node(id) {
            None => return Err(format!("no node '{id}'")),
            Some(n) if n.kind == "output" => {
                return Err(format!("'{id}' is an output: outputs stay in the graph"));
            }
            Some(_) => {}
        }
    }
    let plain = |text: &str| -> String {
        let cleaned: String = text
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if cleaned.is_empty() {
            "port".to_owned()
        } else {
            cleaned
        }
    };
    let mut subgraph = Graph {
        name: Some(node.to_owned()),
        nodes: Vec::new(),
        comments: Vec::new(),
        exposed: Vec::new(),
        ..graph.clone()
    };
    let mut including = Graph {
        nodes: Vec::new(),
        ..graph.clone()
    };
    let mut outer = Node::new(node, SUBGRAPH_KIND);
    outer
        .params
        .insert("file".to_owned(), ParamValue::Text(file.to_owned()));
    let mut ids_taken: HashSet<String> = graph.nodes.iter().map(|n| n.id.clone()).collect();
    let (mut inputs_taken, mut outputs_taken) = (HashSet::new(), HashSet::new());
    // Connections into the moved nodes from outside: one input port per source.
    let mut inputs: HashMap<String, String> = HashMap::new();
    let (mut sum_x, mut sum_y) = (0.0, 0.0);
    for inner in graph.nodes.iter().filter(|n| moved.contains(n.id.as_str())) {
        let mut copy = inner.clone();
        sum_x += inner.pos[0];
        sum_y += inner.pos[1];
        for (port, reference) in &mut copy.inputs {
            if moved.contains(split_reference(reference).0) {
                continue;
            }
            let input_id = inputs.entry(reference.clone()).or_insert_with(|| {
                let name = unique(&mut inputs_taken, plain(&format!("{}_{port}", inner.id)));
                let id = unique(&mut ids_taken, name.clone());
                let mut input = Node::new(&id, GRAPH_INPUT_KIND);
                input
                    .params
                    .insert("name".to_owned(), ParamValue::Text(name.clone()));
                input.pos = [inner.pos[0] - 260.0, inner.pos[1]];
                subgraph.nodes.push(input);
                outer.inputs.insert(name, reference.clone());
                id
            });
            *reference = input_id.clone();
        }
        subgraph.nodes.push(copy);
    }
    let count = moved.len() as f32;
    outer.pos = [(sum_x / count).round(), (sum_y / count).round()];
    // Outputs of the moved nodes read outside: one output port per output read.
    let mut outputs: HashMap<String, String> = HashMap::new();
    for n in &graph.nodes {
        if moved.contains(n.id.as_str()) {
            continue;
        }
        let mut copy = n.clone();
        for reference in copy.inputs.values_mut() {
            let (source, port) = split_reference(reference);
            if !moved.contains(source) {
                continue;
            }
            let name = outputs.entry(reference.clone()).or_insert_with(|| {
                let name = unique(
                    &mut outputs_taken,
                    plain(&match port {
                        Some(port) => format!("{source}_{port}"),
                        None => source.to_owned(),
                    }),
                );
                let id = unique(&mut ids_taken, format!("{name}_out"));
                let mut output = Node::new(&id, "output");
                output
                    .params
                    .insert("name".to_owned(), ParamValue::Text(name.clone()));
                output.inputs.insert("color".to_owned(), reference.clone());
                let at = graph.node(source).map_or([0.0, 0.0], |s| s.pos);
                output.pos = [at[0] + 260.0, at[1]];
                subgraph.nodes.push(output);
                name
            });
            *reference = format!("{node}.{name}");
        }
        including.nodes.push(copy);
    }
    if outputs.is_empty() {
        return Err(
            "nothing outside reads the chosen nodes: the subgraph would have no output".to_owned(),
        );
    }
    including.nodes.push(outer);
    Ok(Extracted {
        subgraph,
        including,
    })
}

/// `base`, or `base_2`, `base_3`, … : the first not in `taken`, which it joins.
fn unique(taken: &mut HashSet<String>, base: String) -> String {
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

/// The interface of the graph file at `path` (relative to the working directory, or
/// absolute); the error says what is wrong with the file.
pub fn interface(path: &Path) -> Result<Interface, String> {
    let included = Included::load(path, &mut Vec::new())?;
    Ok(included.interface)
}

/// Whether `graph` moves with time: a `time` node in it or in a subgraph it uses.
pub fn uses_time(graph: &Graph) -> bool {
    let timed = |g: &Graph| g.nodes.iter().any(|n| n.kind == "time");
    inline(graph).map_or_else(|_| timed(graph), |flat| timed(&flat))
}

/// The exposed params of the graph file at `path` that are file paths (an `image` node's
/// `path`, exposed): an including graph writes them relative to its own folder. Reads only
/// what it must, and nothing when the file is broken (inlining reports that).
pub(crate) fn file_params(path: &Path) -> Vec<String> {
    fn walk(path: &Path, depth: usize) -> Vec<String> {
        // Unresolved: resolving a graph's paths asks for its subgraphs' file params, which
        // would come back here without end through a file including itself.
        let graph = match crate::library::lookup(&path.to_string_lossy()) {
            Some(Ok(text)) => Graph::from_json(text),
            Some(Err(_)) => return Vec::new(),
            None => Graph::load(path),
        };
        let Ok(graph) = graph else {
            return Vec::new();
        };
        let folder = crate::graph::folder_of(path);
        let mut found = Vec::new();
        for exposed in &graph.exposed {
            let Some((id, param)) = exposed.target.split_once('.') else {
                continue;
            };
            let Some(node) = graph.node(id) else { continue };
            let is_file = match registry::lookup(&node.kind) {
                Some(desc) => desc
                    .param(param)
                    .is_some_and(|p| matches!(p.kind, ParamKind::File { .. })),
                None if node.kind == SUBGRAPH_KIND && depth < MAX_NESTING => {
                    match node.params.get("file") {
                        Some(ParamValue::Text(file)) => walk(&folder.join(file), depth + 1)
                            .iter()
                            .any(|p| p == param),
                        _ => false,
                    }
                }
                None => false,
            };
            if is_file {
                found.push(exposed.name.clone());
            }
        }
        found
    }
    walk(path, 0)
}

/// A graph with every subgraph pasted in (borrowed when it has none), or every problem
/// found, each naming the including node.
pub fn inline(graph: &Graph) -> Result<Cow<'_, Graph>, Vec<GraphError>> {
    if !graph.nodes.iter().any(|n| n.kind == SUBGRAPH_KIND) && graph.exposed.is_empty() {
        return Ok(Cow::Borrowed(graph));
    }
    expand(graph, &mut Vec::new()).map(|e| Cow::Owned(e.graph))
}

/// [`inline`], and where output `port` of node `node` (the first output when `None`) ends
/// up in the inlined graph: the same node for ordinary nodes, what feeds the included
/// `output` for a subgraph node.
pub fn inline_reference<'g>(
    graph: &'g Graph,
    node: &str,
    port: Option<&str>,
) -> Result<(Cow<'g, Graph>, String, Option<String>), Vec<GraphError>> {
    let is_subgraph = graph.node(node).is_some_and(|n| n.kind == SUBGRAPH_KIND);
    if !is_subgraph {
        let flat = inline(graph)?;
        return Ok((flat, node.to_owned(), port.map(str::to_owned)));
    }
    let expanded = expand(graph, &mut Vec::new())?;
    let ports = &expanded.ports[node];
    let reference = match port {
        None => ports.first().map(|(_, r)| r),
        Some(p) => ports.iter().find(|(name, _)| name == p).map(|(_, r)| r),
    }
    .ok_or_else(|| {
        vec![GraphError::new(
            Location::field(node, port.unwrap_or("out")),
            format!("has no output '{}'", port.unwrap_or("out")),
        )]
    })?
    .clone();
    let (id, port) = split_reference(&reference);
    let (id, port) = (id.to_owned(), port.map(str::to_owned));
    Ok((Cow::Owned(expanded.graph), id, port))
}

/// Names problems of an inlined graph after the nodes of `graph`: a problem of a pasted
/// node (`veins/noise`) becomes one of the subgraph node (`veins`), field `file`, that
/// says where inside it is.
pub fn attribute(graph: &Graph, error: Error) -> Error {
    match error {
        Error::Invalid(problems) => Error::Invalid(
            problems
                .into_iter()
                .map(|p| attribute_problem(graph, p))
                .collect(),
        ),
        other => other,
    }
}

fn attribute_problem(graph: &Graph, problem: GraphError) -> GraphError {
    let Some(id) = problem.location.node.as_deref() else {
        return problem;
    };
    if graph.node(id).is_some() {
        return problem;
    }
    let owner = graph
        .nodes
        .iter()
        .filter(|n| n.kind == SUBGRAPH_KIND)
        .find(|n| {
            id.strip_prefix(n.id.as_str())
                .is_some_and(|r| r.starts_with('/'))
        });
    match owner {
        Some(owner) => GraphError::new(
            Location::field(&owner.id, "file"),
            format!("{}: {}", problem.location, problem.message),
        ),
        None => problem,
    }
}

/// A graph with its subgraphs pasted in, and what it offers as a subgraph itself.
struct Expanded {
    graph: Graph,
    /// The exposed params, with targets in `graph`.
    params: Vec<ExposedParam>,
    /// For each subgraph node of the original graph: its output ports and the references
    /// in `graph` they stand for.
    ports: HashMap<String, Vec<(String, String)>>,
}

/// An included file, loaded, expanded and checked.
struct Included {
    path: PathBuf,
    expanded: Expanded,
    interface: Interface,
    /// The `output` nodes' names and what feeds each, in `expanded.graph`'s ids.
    outputs: Vec<(String, String)>,
}

impl Included {
    /// Loads the graph file at `path`; `stack` holds the files including it, outermost
    /// first, to refuse cycles.
    fn load(path: &Path, stack: &mut Vec<PathBuf>) -> Result<Self, String> {
        let shown = path.display();
        let (graph, canonical) = read_included(path)?;
        if let Some(start) = stack.iter().position(|p| *p == canonical) {
            let chain: Vec<String> = stack[start..]
                .iter()
                .chain([&canonical])
                .map(|p| file_name(p))
                .collect();
            return Err(format!("{shown} includes itself: {}", chain.join(" → ")));
        }
        if stack.len() >= MAX_NESTING {
            return Err(format!(
                "{shown}: graph files nest more than {MAX_NESTING} levels deep"
            ));
        }
        stack.push(canonical);
        let expanded = expand(&graph, stack);
        stack.pop();
        let expanded = expanded.map_err(|problems| in_file(path, &problems))?;
        let errors = diagnose_flat(&expanded.graph).errors;
        if !errors.is_empty() {
            return Err(in_file(path, &errors));
        }
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        for node in &expanded.graph.nodes {
            match node.kind.as_str() {
                // Nested inputs nobody connected are constants by now: these are the file's own.
                GRAPH_INPUT_KIND => {
                    let color = matches!(node.params.get("type"), Some(ParamValue::Text(t)) if t == "color");
                    inputs.push(InputPort {
                        name: text_param(node, "name"),
                        ty: if color {
                            PortType::Color
                        } else {
                            PortType::Scalar
                        },
                    });
                }
                "output" => outputs.push((node.output_name(), node.inputs["color"].clone())),
                _ => {}
            }
        }
        let name = graph.name.clone().unwrap_or_else(|| {
            path.file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        });
        let interface = Interface {
            name,
            doc: graph.doc.clone(),
            inputs,
            outputs: outputs.iter().map(|(n, _)| n.clone()).collect(),
            params: expanded.params.clone(),
        };
        Ok(Self {
            path: path.to_owned(),
            expanded,
            interface,
            outputs,
        })
    }
}

/// The graph a subgraph node's `file` names, with its file params resolved, and what
/// identifies it in a chain of inclusions: a built-in library graph (`library:NAME`) by
/// its name, a file by its canonical path.
fn read_included(path: &Path) -> Result<(Graph, PathBuf), String> {
    let shown = path.display();
    if let Some(found) = crate::library::lookup(&path.to_string_lossy()) {
        let graph = Graph::from_json(found?).map_err(|e| format!("{shown}: {e}"))?;
        return Ok((graph, path.to_owned()));
    }
    // The web page's files are in memory, named by paths that are canonical already.
    let canonical = if cfg!(target_arch = "wasm32") {
        path.to_owned()
    } else {
        std::fs::canonicalize(path).map_err(|e| format!("cannot read {shown}: {e}"))?
    };
    let mut graph = Graph::load(path).map_err(|e| match e {
        Error::Io { source, .. } => format!("cannot read {shown}: {source}"),
        other => format!("{shown}: {other}"),
    })?;
    graph.resolve_paths(&crate::graph::folder_of(path));
    Ok((graph, canonical))
}

/// The file name of `path`, for cycle chains.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Problems of an included file, as one message naming it.
fn in_file(path: &Path, problems: &[GraphError]) -> String {
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    format!("{}: {}", path.display(), listed.join("; "))
}

fn text_param(node: &Node, name: &str) -> String {
    match node.params.get(name) {
        Some(ParamValue::Text(t)) => t.clone(),
        _ => registry::lookup(&node.kind)
            .and_then(|d| d.param(name))
            .map_or_else(String::new, |p| match p.kind.default_value() {
                ParamValue::Text(t) => t,
                _ => String::new(),
            }),
    }
}

/// Pastes every subgraph of `graph` in, checks its `exposed` list and resolves it.
fn expand(graph: &Graph, stack: &mut Vec<PathBuf>) -> Result<Expanded, Vec<GraphError>> {
    let mut problems = Vec::new();
    let mut flat = Graph {
        nodes: Vec::with_capacity(graph.nodes.len()),
        exposed: Vec::new(),
        comments: Vec::new(),
        ..graph.clone()
    };
    let mut ids: HashSet<String> = graph.nodes.iter().map(|n| n.id.clone()).collect();
    let mut ports: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let mut interfaces: HashMap<String, Vec<ExposedParam>> = HashMap::new();
    for node in &graph.nodes {
        if node.kind != SUBGRAPH_KIND {
            flat.nodes.push(node.clone());
            continue;
        }
        match paste(node, stack, &mut ids, &mut flat.nodes) {
            Ok((outputs, params)) => {
                ports.insert(node.id.clone(), outputs);
                interfaces.insert(node.id.clone(), params);
            }
            Err(problem) => problems.push(problem),
        }
        if flat.nodes.len() > MAX_INLINED_NODES {
            problems.push(GraphError::new(
                Location::field(&node.id, "file"),
                format!("the graph would have more than {MAX_INLINED_NODES} nodes once its subgraphs are pasted in"),
            ));
            return Err(problems);
        }
    }
    // References to a subgraph's outputs go to what feeds them.
    for node in &mut flat.nodes {
        for (port, reference) in &mut node.inputs {
            let (source, out) = split_reference(reference);
            let Some(outputs) = ports.get(source) else {
                continue;
            };
            let found = match out {
                None => outputs.first(),
                Some(out) => outputs.iter().find(|(name, _)| name == out),
            };
            match found {
                Some((_, target)) => *reference = target.clone(),
                None => {
                    let names: Vec<&str> = outputs.iter().map(|(n, _)| n.as_str()).collect();
                    problems.push(GraphError::new(
                        Location::field(&node.id, port),
                        format!(
                            "subgraph '{source}' has no output '{}' (outputs: {})",
                            out.unwrap_or("out"),
                            if names.is_empty() {
                                "none".to_owned()
                            } else {
                                names.join(", ")
                            }
                        ),
                    ));
                }
            }
        }
    }
    let params = resolve_exposed(graph, &interfaces, &mut problems);
    if problems.is_empty() {
        Ok(Expanded {
            graph: flat,
            params,
            ports,
        })
    } else {
        Err(problems)
    }
}

/// Pastes the file of subgraph node `node` into `nodes`; returns its output ports (name →
/// reference among `nodes`) and its exposed params.
#[allow(clippy::type_complexity)]
fn paste(
    node: &Node,
    stack: &mut Vec<PathBuf>,
    ids: &mut HashSet<String>,
    nodes: &mut Vec<Node>,
) -> Result<(Vec<(String, String)>, Vec<ExposedParam>), GraphError> {
    let at = |field: &str| Location::field(&node.id, field);
    let path = match node.params.get("file") {
        Some(ParamValue::Text(p)) if !p.is_empty() => PathBuf::from(p),
        Some(ParamValue::Text(_)) | None => {
            return Err(GraphError::new(at("file"), "no graph file chosen"));
        }
        Some(_) => return Err(GraphError::new(at("file"), "expected a file path string")),
    };
    let included = Included::load(&path, stack).map_err(|m| GraphError::new(at("file"), m))?;
    let file = included.path.display().to_string();
    let interface = &included.interface;

    // The including node's own params and connections, checked against the interface.
    for (name, value) in &node.params {
        if name == "file" {
            continue;
        }
        let Some(param) = interface.param(name) else {
            let known: Vec<&str> = interface.params.iter().map(|p| p.name.as_str()).collect();
            return Err(GraphError::new(
                at(name),
                format!(
                    "{file} exposes no param '{name}' (params: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        };
        check_param_value(&param.kind, value).map_err(|m| GraphError::new(at(name), m))?;
    }
    for port in node.inputs.keys() {
        if !interface.connectable_inputs().any(|(name, _)| name == port) {
            let known: Vec<&str> = interface.connectable_inputs().map(|(n, _)| n).collect();
            return Err(GraphError::new(
                at(port),
                format!(
                    "{file} has no input '{port}' (inputs: {})",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
        }
    }

    let prefix = |id: &str| format!("{}/{id}", node.id);
    // Pasted ids → what replaces a reference to them: the connection made to a connected
    // input port.
    let mut rewired: HashMap<String, String> = HashMap::new();
    for inner in &included.expanded.graph.nodes {
        if inner.kind == GRAPH_INPUT_KIND
            && let Some(outer) = node.inputs.get(&text_param(inner, "name"))
        {
            rewired.insert(inner.id.clone(), outer.clone());
        }
    }
    let map = |reference: &str| -> String {
        let (id, port) = split_reference(reference);
        match rewired.get(id) {
            Some(outer) => outer.clone(),
            None => match port {
                Some(port) => format!("{}.{port}", prefix(id)),
                None => prefix(id),
            },
        }
    };
    let first = nodes.len();
    for inner in &included.expanded.graph.nodes {
        if inner.kind == "output" || rewired.contains_key(&inner.id) {
            continue;
        }
        let mut pasted = inner.clone();
        pasted.id = prefix(&inner.id);
        if !ids.insert(pasted.id.clone()) {
            return Err(GraphError::new(
                at("id"),
                format!(
                    "{file}'s node '{}' would become '{}', which is already a node's id",
                    inner.id, pasted.id
                ),
            ));
        }
        for reference in pasted.inputs.values_mut() {
            *reference = map(reference);
        }
        // An input port nobody connects is a constant of its default: its name must not
        // become an input port of the graphs that include this one.
        if inner.kind == GRAPH_INPUT_KIND {
            pasted = unconnected_input(pasted);
        }
        nodes.push(pasted);
    }
    // The exposed params the node sets, into the nodes they target.
    for param in &interface.params {
        let (target, name) = &param.target;
        let id = prefix(target);
        // A connected input's default is not pasted: nothing reads it.
        let Some(pasted) = nodes[first..].iter_mut().find(|n| n.id == id) else {
            continue;
        };
        if let Some(value) = node.params.get(&param.name) {
            pasted.params.insert(name.clone(), value.clone());
        }
        if let Some(reference) = node.inputs.get(&param.name) {
            pasted.inputs.insert(name.clone(), reference.clone());
        }
    }
    let outputs = included
        .outputs
        .iter()
        .map(|(name, reference)| (name.clone(), map(reference)))
        .collect();
    let params = interface
        .params
        .iter()
        .map(|p| ExposedParam {
            value: node
                .params
                .get(&p.name)
                .cloned()
                .or_else(|| p.value.clone()),
            target: (prefix(&p.target.0), p.target.1.clone()),
            ..p.clone()
        })
        .collect();
    Ok((outputs, params))
}

/// A pasted `graph_input` nobody connects, as the `constant` or `color` node of its
/// default (the same value, so the same pixels).
fn unconnected_input(input: Node) -> Node {
    let color = matches!(input.params.get("type"), Some(ParamValue::Text(t)) if t == "color");
    let mut node = Node {
        kind: if color { "color" } else { "constant" }.to_owned(),
        params: Default::default(),
        inputs: Default::default(),
        ..input.clone()
    };
    if color {
        if let Some(value) = input.params.get("default_color") {
            node.params.insert("color".to_owned(), value.clone());
        } else {
            node.params
                .insert("color".to_owned(), ParamValue::Text("#808080".to_owned()));
        }
    } else {
        let value = input
            .params
            .get("default")
            .cloned()
            .unwrap_or(ParamValue::Number(0.5));
        node.params.insert("value".to_owned(), value);
        if let Some(reference) = input.inputs.get("default") {
            node.inputs.insert("value".to_owned(), reference.clone());
        }
    }
    node
}

/// Checks `graph`'s `exposed` list and resolves each entry to the node param it sets.
fn resolve_exposed(
    graph: &Graph,
    subgraphs: &HashMap<String, Vec<ExposedParam>>,
    problems: &mut Vec<GraphError>,
) -> Vec<ExposedParam> {
    let mut resolved = Vec::new();
    let mut names = HashSet::new();
    for (i, exposed) in graph.exposed.iter().enumerate() {
        let at = |field: &str| Location::graph_field(&format!("exposed[{i}].{field}"));
        if !plain_name(&exposed.name) || exposed.name == "file" {
            problems.push(GraphError::new(
                at("name"),
                format!(
                    "'{}' must be letters, digits, '_' or '-', and not 'file'",
                    exposed.name
                ),
            ));
            continue;
        }
        if !names.insert(exposed.name.as_str()) {
            problems.push(GraphError::new(
                at("name"),
                format!("'{}' is exposed twice", exposed.name),
            ));
            continue;
        }
        let Some((id, param)) = exposed.target.split_once('.') else {
            problems.push(GraphError::new(
                at("target"),
                format!("'{}' must be \"node_id.param\"", exposed.target),
            ));
            continue;
        };
        let Some(node) = graph.node(id) else {
            problems.push(GraphError::new(
                at("target"),
                format!("'{}' refers to no node '{id}'", exposed.target),
            ));
            continue;
        };
        let found = if node.kind == "output" {
            None
        } else if node.kind == SUBGRAPH_KIND {
            match subgraphs.get(id) {
                // Its own problem is reported on that node.
                None => continue,
                Some(params) => params
                    .iter()
                    .find(|p| p.name == param)
                    .map(|p| ExposedParam {
                        name: exposed.name.clone(),
                        doc: if exposed.doc.is_empty() {
                            p.doc.clone()
                        } else {
                            exposed.doc.clone()
                        },
                        ..p.clone()
                    }),
            }
        } else {
            registry::lookup(&node.kind)
                .and_then(|desc| desc.param(param))
                .map(|p| ExposedParam {
                    name: exposed.name.clone(),
                    kind: p.kind,
                    value: node.params.get(param).cloned(),
                    doc: if exposed.doc.is_empty() {
                        p.doc.to_owned()
                    } else {
                        exposed.doc.clone()
                    },
                    target: (id.to_owned(), param.to_owned()),
                })
        };
        match found {
            Some(p) => match narrowed(p, exposed) {
                Ok(p) => resolved.push(p),
                Err((field, message)) => problems.push(GraphError::new(at(field), message)),
            },
            None => problems.push(GraphError::new(
                at("target"),
                format!("node '{id}' ({}) has no param '{param}'", node.kind),
            )),
        }
    }
    resolved
}

/// `param` with the range its `exposed` entry gives (`min`, `max`), which must lie within
/// the target's own and hold the value the file gives; or the field at fault and why.
fn narrowed(
    mut param: ExposedParam,
    exposed: &crate::graph::Exposed,
) -> Result<ExposedParam, (&'static str, String)> {
    if exposed.min.is_none() && exposed.max.is_none() {
        return Ok(param);
    }
    let (low, high) = match param.kind {
        ParamKind::Float { min, max, .. } | ParamKind::Number { min, max, .. } => {
            (f64::from(min), f64::from(max))
        }
        ParamKind::Int { min, max, .. } => (min as f64, max as f64),
        _ => {
            let field = if exposed.min.is_some() { "min" } else { "max" };
            return Err((
                field,
                format!("'{}' is not a number: it has no range", exposed.name),
            ));
        }
    };
    let min = exposed.min.unwrap_or(low);
    let max = exposed.max.unwrap_or(high);
    for (field, value) in [("min", min), ("max", max)] {
        if !value.is_finite() || value < low || value > high {
            return Err((
                field,
                format!("{value} is outside the target's range {low} … {high}"),
            ));
        }
    }
    if min > max {
        return Err(("max", format!("{max} is below min {min}")));
    }
    let value = match &param.value {
        Some(ParamValue::Number(v)) => *v,
        _ => match param.kind {
            ParamKind::Float { default, .. } | ParamKind::Number { default, .. } => {
                f64::from(default)
            }
            ParamKind::Int { default, .. } => default as f64,
            _ => unreachable!("numbers only"),
        },
    };
    if value < min || value > max {
        return Err((
            "min",
            format!("the file's value {value} is outside {min} … {max}"),
        ));
    }
    param.kind = match param.kind {
        ParamKind::Float { default, .. } => ParamKind::Float {
            default,
            min: min as f32,
            max: max as f32,
        },
        ParamKind::Number { default, .. } => ParamKind::Number {
            default,
            min: min as f32,
            max: max as f32,
        },
        ParamKind::Int { default, .. } => ParamKind::Int {
            default,
            min: min.ceil() as i64,
            max: max.floor() as i64,
        },
        other => other,
    };
    Ok(param)
}
