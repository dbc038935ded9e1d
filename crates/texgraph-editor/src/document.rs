//! The link between the core's `Graph` (the document) and the canvas's `Snarl` (view
//! state: which node sits where, which pins are wired). Pins are numbered the way the
//! registry lists ports: inputs are the node type's explicit inputs, then one per float
//! param; outputs are its output ports.

use std::collections::HashMap;

use eframe::egui::{Pos2, pos2};
use egui_snarl::{InPinId, NodeId, OutPinId, Snarl};
use texgraph_core::Graph;
use texgraph_core::graph::split_reference;
use texgraph_core::registry::{self, NodeDescriptor, PortType};

/// The input ports of a node type, in pin order.
pub fn input_ports(desc: &NodeDescriptor) -> Vec<(&'static str, PortType)> {
    desc.connectable_inputs().collect()
}

/// The canvas view of `graph`: one snarl node per graph node (its value is the node id),
/// at the node's position, with a wire per connected input.
pub fn to_snarl(graph: &Graph) -> Snarl<String> {
    let mut snarl = Snarl::new();
    let ids: HashMap<&str, NodeId> = graph
        .nodes
        .iter()
        .map(|n| {
            (
                n.id.as_str(),
                snarl.insert_node(pos2(n.pos[0], n.pos[1]), n.id.clone()),
            )
        })
        .collect();
    for (node, input, _, from) in drawn_connections(graph, &ids) {
        snarl.connect(
            from,
            InPinId {
                node: ids[node],
                input,
            },
        );
    }
    snarl
}

/// Connections of the graph whose wire is gone from the canvas: egui-snarl's own Ctrl+drag
/// from an input pin lifts wires without asking the viewer. Only connections the canvas
/// draws count (a reference to a missing node has no wire to lose).
pub fn lifted_wires(graph: &Graph, snarl: &Snarl<String>) -> Vec<(String, String)> {
    let drawn: std::collections::HashSet<(&str, usize)> = snarl
        .wires()
        .filter_map(|(_, to)| Some((snarl.get_node(to.node)?.as_str(), to.input)))
        .collect();
    let ids: HashMap<&str, NodeId> = snarl
        .node_ids()
        .map(|(id, name)| (name.as_str(), id))
        .collect();
    drawn_connections(graph, &ids)
        .filter(|(node, input, _, _)| !drawn.contains(&(*node, *input)))
        .map(|(node, _, port, _)| (node.to_owned(), port.to_owned()))
        .collect()
}

/// The connections the canvas draws, as (target node id, input index, input name, source
/// pin): inputs of known node types whose reference names a node on the canvas.
fn drawn_connections<'g>(
    graph: &'g Graph,
    ids: &'g HashMap<&str, NodeId>,
) -> impl Iterator<Item = (&'g str, usize, &'static str, OutPinId)> {
    graph
        .nodes
        .iter()
        .filter(|node| ids.contains_key(node.id.as_str()))
        .filter_map(|node| Some((node, registry::lookup(&node.kind)?)))
        .flat_map(move |(node, desc)| {
            input_ports(desc)
                .into_iter()
                .enumerate()
                .filter_map(move |(input, (port, _))| {
                    let from = out_pin(graph, ids, node.inputs.get(port)?)?;
                    Some((node.id.as_str(), input, port, from))
                })
        })
}

/// The snarl output pin a graph reference (`"node"` or `"node.port"`) means.
fn out_pin(graph: &Graph, ids: &HashMap<&str, NodeId>, reference: &str) -> Option<OutPinId> {
    let (source, port) = split_reference(reference);
    let desc = registry::lookup(&graph.node(source)?.kind)?;
    let output = match port {
        None => 0,
        Some(p) => desc.outputs.iter().position(|o| o.name == p)?,
    };
    Some(OutPinId {
        node: *ids.get(source)?,
        output,
    })
}

/// The graph reference of an output pin: `"node"` for a first output, else `"node.port"`.
pub fn reference(graph: &Graph, node: &str, output: usize) -> String {
    let port = graph
        .node(node)
        .and_then(|n| registry::lookup(&n.kind))
        .and_then(|d| d.outputs.get(output));
    match port {
        Some(p) if output > 0 => format!("{node}.{}", p.name),
        _ => node.to_owned(),
    }
}

/// The name of input pin `input` of graph node `node`.
pub fn input_name(graph: &Graph, node: &str, input: usize) -> Option<&'static str> {
    let desc = registry::lookup(&graph.node(node)?.kind)?;
    input_ports(desc).get(input).map(|(name, _)| *name)
}

/// Copies canvas positions back into the graph, in whole canvas units (finer adds
/// nothing on screen and only clutters the file).
pub fn store_positions(graph: &mut Graph, snarl: &Snarl<String>) {
    for (_, pos, id) in snarl.nodes_pos_ids() {
        if let Some(node) = graph.node_mut(id) {
            node.pos = file_position(pos);
        }
    }
}

/// A canvas position as stored in the file.
pub fn file_position(pos: Pos2) -> [f32; 2] {
    [pos.x.round(), pos.y.round()]
}

/// The snarl node showing graph node `id`.
pub fn find(snarl: &Snarl<String>, id: &str) -> Option<NodeId> {
    snarl
        .node_ids()
        .find(|(_, v)| v.as_str() == id)
        .map(|(n, _)| n)
}

/// A fresh node id for a node of type `kind`: the type and the first free number.
pub fn fresh_id(graph: &Graph, kind: &str) -> String {
    (1..)
        .map(|i| format!("{kind}{i}"))
        .find(|id| graph.node(id).is_none())
        .expect("unbounded")
}

/// Where a new node goes when none is given: right of everything.
pub fn free_position(graph: &Graph) -> Pos2 {
    let x = graph.nodes.iter().map(|n| n.pos[0]).fold(0.0f32, f32::max);
    pos2(x + 220.0, 0.0)
}

/// The shortest decimal that reads back as `v` (what was typed, `0.6` rather than the
/// f32's exact `0.6000000238418579`), for storing an edited value in the file.
pub fn decimal(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(f64::from(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marble() -> Graph {
        Graph::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs/marble.json"),
        )
        .unwrap()
    }

    #[test]
    fn snarl_mirrors_the_graph_and_positions_round_trip() {
        let graph = marble();
        let snarl = to_snarl(&graph);
        assert_eq!(snarl.nodes().count(), graph.nodes.len());
        let wires = graph.nodes.iter().map(|n| n.inputs.len()).sum::<usize>();
        assert_eq!(snarl.wires().count(), wires);
        // turb feeds veins' "noise" input (pin 0) from its output 0.
        let (turb, veins) = (
            find(&snarl, "turb").unwrap(),
            find(&snarl, "veins").unwrap(),
        );
        assert!(snarl.wires().any(|(o, i)| o
            == OutPinId {
                node: turb,
                output: 0
            }
            && i == InPinId {
                node: veins,
                input: 0
            }));
        let mut moved = graph.clone();
        for node in &mut moved.nodes {
            node.pos = [0.0, 0.0];
        }
        store_positions(&mut moved, &snarl);
        assert_eq!(moved, graph);
    }

    #[test]
    fn references_and_ids() {
        let g = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "c", "type": "coords" }, { "id": "perlin1", "type": "perlin" },
                { "id": "out", "type": "output", "inputs": { "color": "c.v" } } ] }"#,
        )
        .unwrap();
        assert_eq!(reference(&g, "c", 1), "c.v");
        assert_eq!(reference(&g, "perlin1", 0), "perlin1");
        assert_eq!(fresh_id(&g, "perlin"), "perlin2");
        assert_eq!(input_name(&g, "perlin1", 0), Some("frequency"));
        let snarl = to_snarl(&g);
        let (c, out) = (find(&snarl, "c").unwrap(), find(&snarl, "out").unwrap());
        assert!(
            snarl
                .wires()
                .any(|(o, i)| o == OutPinId { node: c, output: 1 }
                    && i == InPinId {
                        node: out,
                        input: 0
                    })
        );
    }
}
