//! The interfaces of the graph files the shown graph uses as nodes: their ports and
//! exposed params, which the canvas draws and the inspector edits. Read when the graph
//! changes ([`refresh`]), not while drawing; a file that does not load has none (the
//! node's error says why).
//!
//! Kept per UI thread: the editor draws on one thread, and each test's editor has its own.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use texgraph_core::graph::{SUBGRAPH_KIND, split_reference};
use texgraph_core::registry::{NodeDescriptor, PortType};
use texgraph_core::subgraph::{self, Interface};
use texgraph_core::usage::Usage;
use texgraph_core::{Graph, Node, ParamValue};

thread_local! {
    /// File param as written → its interface.
    static KNOWN: RefCell<HashMap<String, Arc<Interface>>> = RefCell::new(HashMap::new());
}

/// Reads the interface of every subgraph file `graph` uses; relative files start from
/// `folder`, the graph file's folder. True when any differs from before (the canvas's
/// pins and wires must be laid out again).
pub fn refresh(graph: &Graph, folder: &Path) -> bool {
    let mut known = HashMap::new();
    for node in graph.nodes.iter().filter(|n| n.kind == SUBGRAPH_KIND) {
        let Some(ParamValue::Text(file)) = node.params.get("file") else {
            continue;
        };
        if known.contains_key(file) {
            continue;
        }
        if let Ok(interface) = subgraph::interface(&texgraph_core::paths::beside(folder, file)) {
            known.insert(file.clone(), Arc::new(interface));
        }
    }
    KNOWN.with(|k| {
        let mut k = k.borrow_mut();
        let changed = *k != known;
        *k = known;
        changed
    })
}

/// The interface of subgraph node `node` of `graph`, if its file loaded.
pub fn interface(graph: &Graph, node: &str) -> Option<Arc<Interface>> {
    let node = graph.node(node)?;
    if node.kind != SUBGRAPH_KIND {
        return None;
    }
    let Some(ParamValue::Text(file)) = node.params.get("file") else {
        return None;
    };
    KNOWN.with(|k| k.borrow().get(file).cloned())
}

/// The ports of a node as the canvas numbers its pins: inputs (explicit ones, then one per
/// float param), then outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct NodePorts {
    /// Shown after the id in the title.
    pub label: String,
    /// Input pins: name and type.
    pub inputs: Vec<(String, PortType)>,
    /// Output pins: names.
    pub outputs: Vec<String>,
    /// Whether the ports are only those the graph's connections name: the node's type is
    /// unknown or its file did not load. Its pins and wires are drawn red, not dropped.
    pub unloaded: bool,
}

/// The pin of a node whose ports are unknown that stands for bare references to it (its
/// first output, whatever it is called).
pub const BARE_OUTPUT: &str = "out";

impl NodePorts {
    fn of_descriptor(desc: &NodeDescriptor) -> Self {
        Self {
            label: desc.label.to_owned(),
            inputs: desc
                .connectable_inputs()
                .map(|(n, t)| (n.to_owned(), t))
                .collect(),
            outputs: desc.outputs.iter().map(|o| o.name.to_owned()).collect(),
            unloaded: false,
        }
    }

    /// The ports of a node whose type or file is unknown, from the connections that name
    /// them: its connected inputs, and the outputs other nodes read (the first one is the
    /// one a bare reference to the node means).
    fn of_connections(graph: &Graph, id: &str, node: &Node) -> Self {
        // A bare reference means the first output, drawn as "out"; named ones as named.
        let mut outputs: Vec<String> = Vec::new();
        for reference in graph.nodes.iter().flat_map(|n| n.inputs.values()) {
            let (source, port) = split_reference(reference);
            if source != id {
                continue;
            }
            let port = port.unwrap_or(BARE_OUTPUT);
            if !outputs.iter().any(|o| o == port) {
                if port == BARE_OUTPUT {
                    outputs.insert(0, port.to_owned());
                } else {
                    outputs.push(port.to_owned());
                }
            }
        }
        if outputs.is_empty() {
            // Nothing reads it yet: one pin to wire from, as a loaded node has.
            outputs.push(BARE_OUTPUT.to_owned());
        }
        Self {
            label: format!("{} (not loaded)", node.kind),
            inputs: node
                .inputs
                .keys()
                .map(|name| (name.clone(), PortType::Any))
                .collect(),
            outputs,
            unloaded: true,
        }
    }

    fn of_interface(interface: &Interface) -> Self {
        Self {
            label: format!("{} (graph)", interface.name),
            inputs: interface
                .connectable_inputs()
                .map(|(n, t)| (n.to_owned(), t))
                .collect(),
            outputs: interface.outputs.clone(),
            unloaded: false,
        }
    }
}

/// The ports of node `id` of `graph`: its type's, or its subgraph file's; for an unknown
/// type or a subgraph whose file did not load, those its connections name
/// ([`NodePorts::unloaded`]), so its wires stay on the canvas.
pub fn ports(graph: &Graph, id: &str) -> Option<NodePorts> {
    let node = graph.node(id)?;
    match texgraph_core::registry::lookup(&node.kind) {
        Some(desc) => {
            let mut ports = NodePorts::of_descriptor(desc);
            // An output says which map of the material it is, and its pin what it takes.
            let usage = node.usage();
            if node.kind == "output" && usage != Usage::Color {
                ports.label = format!("{} · {}", desc.label, usage.label());
                let ty = match usage.channels() {
                    Some(1) => PortType::Scalar,
                    _ => PortType::Color,
                };
                for input in &mut ports.inputs {
                    input.1 = ty;
                }
            }
            Some(ports)
        }
        None => Some(interface(graph, id).map_or_else(
            || NodePorts::of_connections(graph, id, node),
            |i| NodePorts::of_interface(&i),
        )),
    }
}

/// What an input pin of node `id` is called on the canvas: its port's name, or for an
/// output of a material, its usage (`roughness`).
pub fn pin_label<'p>(graph: &Graph, id: &str, port: &'p str) -> std::borrow::Cow<'p, str> {
    match graph.node(id) {
        Some(node) if node.kind == "output" && node.usage() != Usage::Color => {
            node.usage().id().into()
        }
        _ => port.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slab() -> (Graph, std::path::PathBuf) {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
        let graph = Graph::load(&folder.join("marble_slab.json")).unwrap();
        (graph, folder)
    }

    #[test]
    fn a_subgraph_node_has_its_files_ports_and_wires() {
        let (graph, folder) = slab();
        assert!(refresh(&graph, &folder), "first look");
        assert!(!refresh(&graph, &folder), "nothing changed");
        let ports = ports(&graph, "fine").unwrap();
        assert_eq!(ports.label, "Marble veins (graph)");
        let inputs: Vec<&str> = ports.inputs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(inputs, ["vein_scale", "angle", "distortion", "sharpness"]);
        assert_eq!(ports.outputs, ["mask"]);
        // Both subgraphs feed the blend: two of the canvas's four wires.
        let snarl = crate::document::to_snarl(&graph);
        assert_eq!(snarl.wires().count(), 4);
        assert_eq!(crate::document::reference(&graph, "fine", 0), "fine");
        assert_eq!(
            crate::document::input_name(&graph, "fine", 3).as_deref(),
            Some("sharpness")
        );
        // The exposed seed defaults to the turbulence's seed in the file.
        let interface = interface(&graph, "broad").unwrap();
        assert_eq!(
            interface.param("seed").unwrap().default_value(),
            ParamValue::Number(7.0)
        );
    }

    #[test]
    fn a_subgraph_whose_file_is_gone_keeps_the_ports_its_wires_name() {
        let (mut graph, folder) = slab();
        graph
            .node_mut("fine")
            .unwrap()
            .params
            .insert("file".into(), ParamValue::Text("library/gone.json".into()));
        refresh(&graph, &folder);
        let gone = ports(&graph, "fine").unwrap();
        assert!(gone.unloaded);
        // veins reads "fine.mask": that output stays, the only one (no bare reference
        // names a first output), and a wire drawn from it again still names it.
        assert_eq!(gone.outputs, ["mask"]);
        assert_eq!(crate::document::reference(&graph, "fine", 0), "fine.mask");
        assert!(gone.inputs.is_empty());
        assert!(!ports(&graph, "broad").unwrap().unloaded);
        // Its wire is still drawn: every connection of the graph has one.
        let snarl = crate::document::to_snarl(&graph);
        let wires = graph.nodes.iter().map(|n| n.inputs.len()).sum::<usize>();
        assert_eq!(snarl.wires().count(), wires);
        // A bare reference is the first pin, "out", and stays bare.
        graph
            .nodes
            .iter_mut()
            .find(|n| n.inputs.values().any(|r| r == "fine.mask"))
            .unwrap()
            .inputs
            .insert("mask".into(), "fine".into());
        refresh(&graph, &folder);
        assert_eq!(ports(&graph, "fine").unwrap().outputs, ["out", "mask"]);
        assert_eq!(crate::document::reference(&graph, "fine", 0), "fine");
        assert_eq!(crate::document::reference(&graph, "fine", 1), "fine.mask");
    }
}
