//! Turns a validated [`Graph`] into a [`Program`]: stages, each a flat list of tile
//! operations (or a whole-plane filter), and the planes between them.
//!
//! Every node is compiled *in a frame*: the pair of operands holding the sample
//! coordinates. Nodes that re-sample an input elsewhere (warp, transform, fractals with a
//! `source`) compile that input again in a new frame. Work is shared twice over: a node
//! compiled twice in the same frame is compiled once, and equal operations on equal
//! operands get one slot. Operations whose operands are all uniform are folded into
//! constants, so unconnected params never cost a buffer.
//!
//! The compiler's state is `compiler.rs`; what a node's compile function sees is
//! `node_ctx.rs`; node types come from the registry, handed to the compiler here, so
//! the compiler itself names no node family.
//!
//! Nodes that read their input's neighbourhood ask for it as a *plane* (`planes.rs`): the
//! compiler then compiles that input in a stage of its own, evaluated over the whole
//! image before the stage that reads it. Each stage's cost is counted as it is compiled
//! (`cost.rs`); a graph whose re-sampling would cost more than [`COST_BUDGET`] per pixel
//! is refused, naming the node that fans out.

mod compiler;
mod cost;
pub mod node_ctx;
pub mod planes;
mod slots;

pub use cost::COST_BUDGET;
pub use node_ctx::{Frame, MAX_DEPTH, NodeCtx, OPEN_RANGE, Val};
pub use planes::PlaneInput;

use crate::checks::{Diagnostics, diagnose_flat, upstream};
use crate::graph::{Graph, Node};
use crate::registry;
use crate::validate::{diagnose, validate};
use compiler::Compiler;
use texgraph_base::error::{Error, Location, Result};
use texgraph_engine::program::{Program, ProgramOutput};

/// Compiles the output called `output` (the first output node when `None`). Warnings do
/// not stop it: the nodes they are about feed no output, and compiling walks back from
/// the output only, so they are never reached.
///
/// Subgraphs are pasted in first ([`crate::subgraph::inline`]); problems inside one are
/// named after the node that includes it.
pub fn compile(graph: &Graph, output: Option<&str>) -> Result<Program> {
    let flat = crate::subgraph::inline(graph).map_err(Error::Invalid)?;
    compile_flat(&flat, output).map_err(|e| crate::subgraph::attribute(graph, e))
}

/// [`compile`] of a graph whose subgraphs are pasted in already.
fn compile_flat(graph: &Graph, output: Option<&str>) -> Result<Program> {
    let names: Vec<String> = match output {
        Some(name) => vec![name.to_owned()],
        None => output_names(graph).into_iter().take(1).collect(),
    };
    compile_flat_outputs(graph, &names)
}

/// Compiles the outputs called `names` into one program: whatever several of them read —
/// a plane, or a value computed per pixel — is computed once, and the last stage writes
/// every output's channels, one output after another (see [`texgraph_engine::eval::split_outputs`]).
/// Each output's pixels are the same bits as when it is compiled alone.
pub fn compile_outputs(graph: &Graph, names: &[String]) -> Result<Program> {
    let flat = crate::subgraph::inline(graph).map_err(Error::Invalid)?;
    compile_flat_outputs(&flat, names).map_err(|e| crate::subgraph::attribute(graph, e))
}

fn compile_flat_outputs(graph: &Graph, names: &[String]) -> Result<Program> {
    let problems = validate(graph);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let outputs: Vec<&Node> = graph.nodes.iter().filter(|n| n.kind == "output").collect();
    let mut targets = Vec::with_capacity(names.len());
    for name in names {
        let target = outputs
            .iter()
            .find(|n| n.output_name() == *name)
            .ok_or_else(|| {
                let known: Vec<_> = outputs.iter().map(|n| n.output_name()).collect();
                Error::at(
                    Location::graph_field("output"),
                    format!("no output named '{name}' (outputs: {})", known.join(", ")),
                )
            })?;
        targets.push((*target, 0, target.output_name()));
    }
    build(graph, &targets)
}

/// Compiles one node's output (`port`, or its first output; an `output` node's input) as
/// if it were the graph's output: what the editor shows in a node's thumbnail or a pinned
/// preview. Only the errors of this node and what feeds it stop it; the rest of the graph
/// may be unfinished.
///
/// A subgraph node compiles what feeds the output `port` of its file.
pub fn compile_node(graph: &Graph, node: &str, port: Option<&str>) -> Result<Program> {
    if graph.node(node).is_none() {
        return Err(Error::at(Location::node(node), "no such node"));
    }
    // Only what feeds the node is pasted in and checked: a broken subgraph elsewhere in
    // the graph costs the nodes downstream of it, not this one.
    let feeding = feeding(graph, node);
    let (flat, inner, inner_port) =
        crate::subgraph::inline_reference(&feeding, node, port).map_err(Error::Invalid)?;
    compile_flat_node(&flat, &inner, inner_port.as_deref())
        .map_err(|e| crate::subgraph::attribute(graph, e))
}

/// The part of `graph` that `node` depends on (the node included), with the exposed
/// params that target it; comments go, they never render.
fn feeding(graph: &Graph, node: &str) -> Graph {
    let upstream = upstream(graph, node);
    let inside = |id: &str| upstream.contains(id);
    Graph {
        nodes: graph
            .nodes
            .iter()
            .filter(|n| inside(&n.id))
            .cloned()
            .collect(),
        exposed: graph
            .exposed
            .iter()
            .filter(|e| e.target.split_once('.').is_some_and(|(id, _)| inside(id)))
            .cloned()
            .collect(),
        comments: Vec::new(),
        doc: String::new(),
        category: String::new(),
        format: graph.format.clone(),
        version: graph.version,
        name: graph.name.clone(),
        settings: graph.settings.clone(),
    }
}

/// [`compile_node`] of a graph whose subgraphs are pasted in already.
fn compile_flat_node(graph: &Graph, node: &str, port: Option<&str>) -> Result<Program> {
    let Some(target) = graph.node(node) else {
        return Err(Error::at(Location::node(node), "no such node"));
    };
    let upstream = upstream(graph, node);
    let Diagnostics { errors, .. } = diagnose_flat(graph);
    let problems: Vec<_> = errors
        .into_iter()
        .filter(|p| match &p.location.node {
            Some(id) => upstream.contains(id.as_str()),
            // Header and settings problems count; "no output node" and the canvas
            // comments do not.
            None => p
                .location
                .field
                .as_deref()
                .is_none_or(|f| f != "nodes" && !f.starts_with("comments")),
        })
        .collect();
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let desc = registry::lookup(&target.kind).expect("validated");
    let slot = match port {
        None => 0,
        Some(p) => desc
            .outputs
            .iter()
            .position(|o| o.name == p)
            .ok_or_else(|| {
                Error::at(
                    Location::field(node, p),
                    format!("'{}' has no output '{p}'", desc.id),
                )
            })?,
    };
    build(graph, &[(target, slot, port.unwrap_or("out").to_owned())])
}

/// Compiles output `slot` of each target node, named, in the image frame, into one
/// program whose last stage writes them all.
fn build(graph: &Graph, targets: &[(&Node, usize, String)]) -> Result<Program> {
    let mut compiler = Compiler::new(graph, registry::lookup);
    // Each map may cost what one output may: a material of five maps is five renders' work.
    compiler.budget = COST_BUDGET * targets.len().max(1) as f64;
    let mut channels = Vec::new();
    let mut outputs = Vec::with_capacity(targets.len());
    for (target, slot, name) in targets {
        // Each output starts where a program of its own would: `looped` leaves the
        // compiler in its second pass, at the earlier time.
        compiler.time = graph.settings.time;
        compiler.pass = 0;
        let index = compiler.index[target.id.as_str()];
        let values = compiler
            .looped(index, *slot)
            .map_err(|e| Error::Invalid(vec![e]))?;
        outputs.push(ProgramOutput {
            name: name.clone(),
            node: target.id.clone(),
            usage: if target.kind == "output" {
                target.usage()
            } else {
                texgraph_engine::usage::Usage::Color
            },
            channels: values.len(),
        });
        channels.extend(values);
    }
    // The last stage computes every target: it is named after them all.
    let ids: Vec<&str> = targets.iter().map(|(t, _, _)| t.id.as_str()).collect();
    compiler.finish_stage(&ids.join(", "), None, channels);
    Ok(Program {
        stages: compiler.stages,
        planes: compiler.planes,
        permutations: compiler.perms,
        ramps: compiler.ramps,
        curves: compiler.curves,
        tables: compiler.tables,
        outputs,
    })
}

/// Every problem of `graph` that `compile` would stop at, for every output: the
/// [`diagnose`] errors and warnings, then, when there are no errors, what compiling each
/// output finds (image files that do not load, a cost over budget). What this accepts,
/// every output compiles and renders.
pub fn check(graph: &Graph) -> Diagnostics {
    let mut found = diagnose(graph);
    if found.errors.is_empty() {
        for name in output_names(graph) {
            if let Err(e) = compile(graph, Some(&name)) {
                for problem in e.problems() {
                    if !found.errors.contains(problem) {
                        found.errors.push(problem.clone());
                    }
                }
            }
        }
    }
    found
}

/// The names of a graph's outputs, in file order.
pub fn output_names(graph: &Graph) -> Vec<String> {
    graph
        .nodes
        .iter()
        .filter(|n| n.kind == "output")
        .map(Node::output_name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph beside a subgraph file whose output was renamed (`levels2_out` → `ao`)
    /// after the graph was wired to it.
    fn with_broken_port() -> (std::path::PathBuf, Graph) {
        let dir = std::env::temp_dir().join(format!("texgraph-feeding-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("sub.json"),
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "n", "type": "perlin" },
                { "id": "o", "type": "output", "params": { "name": "ao" }, "inputs": { "color": "n" } } ] }"#,
        )
        .unwrap();
        let mut graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "a", "type": "perlin" },
                { "id": "color", "type": "output", "inputs": { "color": "a" } },
                { "id": "s", "type": "graph", "params": { "file": "sub.json" } },
                { "id": "lv", "type": "levels", "inputs": { "input": "s.levels2_out" } },
                { "id": "height", "type": "output", "params": { "name": "height" }, "inputs": { "color": "lv" } } ] }"#,
        )
        .unwrap();
        graph.resolve_paths(&dir);
        (dir, graph)
    }

    #[test]
    fn a_broken_subgraph_port_stops_only_what_reads_it() {
        let (dir, graph) = with_broken_port();
        for fine in ["a", "color", "s"] {
            assert!(compile_node(&graph, fine, None).is_ok(), "{fine}");
        }
        for broken in ["lv", "height"] {
            let message = compile_node(&graph, broken, None).unwrap_err().to_string();
            assert!(
                message.contains("lv") && message.contains("has no output 'levels2_out'"),
                "{broken}: {message}"
            );
        }
        // The whole graph still does not render: `texgraph render` stays strict.
        assert!(compile(&graph, None).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
