//! Moving between a graph and the subgraphs it uses. Opening a subgraph node's file from a
//! graph parks that graph on a trail (with its unsaved edits, undo steps, selection and
//! view) and shows the file; going back brings the parked graph back as it was. A graph
//! left with unsaved edits is kept too, so opening it again shows them. While a subgraph
//! is shown from a graph that uses it, it is previewed as that node feeds it ([`fed`]).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use eframe::egui::emath::TSTransform;
use texgraph_core::graph::GRAPH_INPUT_KIND;
use texgraph_core::graph::split_reference;
use texgraph_core::{Graph, ParamValue};

use crate::history::History;

/// A graph that is not shown, as it was left.
#[derive(Debug)]
pub struct Parked {
    /// The document.
    pub graph: Graph,
    /// Its file.
    pub path: Option<PathBuf>,
    /// Its undo steps and saved state.
    pub history: History,
    /// Whether it has unsaved edits.
    pub modified: bool,
    /// The node its inspector showed.
    pub selected: Option<String>,
    /// Its canvas view (`None`: not shown yet, framed when it is).
    pub view: Option<TSTransform>,
}

/// One graph on the way down to the one shown: the graph, and the subgraph node of it that
/// was opened.
#[derive(Debug)]
pub struct Step {
    /// The graph.
    pub parked: Parked,
    /// The node whose file was opened from it.
    pub via: String,
}

/// The trail from the graph first opened down to the one shown, and the graphs left with
/// unsaved edits.
#[derive(Debug, Default)]
pub struct Navigation {
    /// The graphs the shown one was reached through, outermost first.
    pub trail: Vec<Step>,
    /// Graphs left with unsaved edits (the trail's own are on the trail).
    pub kept: Vec<Parked>,
    /// Preview the shown subgraph as its including node feeds it (else with its own
    /// defaults, as `texgraph render` renders the file).
    pub feed: bool,
}

impl Navigation {
    /// Takes the kept edits of the graph file at `path`, if it was left unsaved.
    pub fn take_kept(&mut self, path: &Path) -> Option<Parked> {
        let at = self
            .kept
            .iter()
            .position(|p| p.path.as_deref().is_some_and(|kept| same_file(kept, path)))?;
        Some(self.kept.remove(at))
    }

    /// Keeps a graph left with unsaved edits (replacing an older copy of the same file).
    pub fn keep(&mut self, parked: Parked) {
        if !parked.modified {
            return;
        }
        if let Some(path) = parked.path.clone() {
            self.take_kept(&path);
        }
        self.kept.push(parked);
    }

    /// The graphs not shown that have unsaved edits: on the trail and kept.
    pub fn unsaved(&self) -> impl Iterator<Item = &Parked> {
        self.trail
            .iter()
            .map(|s| &s.parked)
            .chain(&self.kept)
            .filter(|p| p.modified)
    }

    /// Forgets every graph not shown (another document was opened: their questions were
    /// answered).
    pub fn clear(&mut self) {
        self.trail.clear();
        self.kept.clear();
    }
}

/// Whether two paths name the same file (compared as written when either cannot be
/// resolved).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The prefix of the including graph's nodes pasted into a fed preview.
const PARENT: &str = "parent~/";

/// `child` (a subgraph file's graph, its paths resolved) as node `via` of `parent` (paths
/// resolved) feeds it: the parent's nodes that feed `via` pasted in (ids prefixed
/// `parent~/`), each `graph_input` the node connects read from what it connects, each
/// exposed param set to the node's value (or wired to its connection), and the parent's
/// settings. This is what the subgraph computes inside the parent. Also returns, for each
/// fed `graph_input`, the reference that stands for it. `None` when `via` is no node of
/// `parent`.
pub fn fed(child: &Graph, parent: &Graph, via: &str) -> Option<(Graph, HashMap<String, String>)> {
    let node = parent.node(via)?;
    let prefixed = |reference: &str| {
        let (id, port) = split_reference(reference);
        match port {
            Some(port) => format!("{PARENT}{id}.{port}"),
            None => format!("{PARENT}{id}"),
        }
    };
    let mut graph = child.clone();
    graph.settings = parent.settings.clone();
    // What the including node reads, pasted in.
    let mut feeding: HashSet<&str> = HashSet::new();
    for reference in node.inputs.values() {
        feeding.extend(texgraph_core::validate::upstream(
            parent,
            split_reference(reference).0,
        ));
    }
    for source in parent
        .nodes
        .iter()
        .filter(|n| feeding.contains(n.id.as_str()))
    {
        let mut pasted = source.clone();
        pasted.id = prefixed(&source.id);
        for reference in pasted.inputs.values_mut() {
            *reference = prefixed(reference);
        }
        graph.nodes.push(pasted);
    }
    // The graph inputs it connects read from the connection.
    let mut inputs = HashMap::new();
    for input in child.nodes.iter().filter(|n| n.kind == GRAPH_INPUT_KIND) {
        let name = match input.params.get("name") {
            Some(ParamValue::Text(name)) => name.clone(),
            _ => "input".to_owned(),
        };
        if let Some(reference) = node.inputs.get(&name) {
            inputs.insert(input.id.clone(), prefixed(reference));
        }
    }
    for reader in &mut graph.nodes {
        for reference in reader.inputs.values_mut() {
            if let Some(source) = inputs.get(split_reference(reference).0) {
                *reference = source.clone();
            }
        }
    }
    // The exposed params it sets or connects.
    for exposed in &child.exposed {
        let Some((target, param)) = exposed.target.split_once('.') else {
            continue;
        };
        let Some(target) = graph.node_mut(target) else {
            continue;
        };
        if let Some(value) = node.params.get(&exposed.name) {
            target.params.insert(param.to_owned(), value.clone());
        }
        if let Some(reference) = node.inputs.get(&exposed.name) {
            target.inputs.insert(param.to_owned(), prefixed(reference));
        }
    }
    Some((graph, inputs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use texgraph_core::{RenderOptions, compile_node, render};

    fn pixels(graph: &Graph, node: &str) -> Vec<f32> {
        let program = compile_node(graph, node, None).unwrap();
        render(&program, 16, 16, RenderOptions::default(), &|_| {})
            .unwrap()
            .data
    }

    #[test]
    fn a_fed_subgraph_computes_what_it_computes_inside_its_parent() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
        let mut parent = Graph::from_json(
            r#"{ "format": "texgraph", "version": 2, "settings": { "tileable": true }, "nodes": [
                { "id": "grain", "type": "perlin", "params": { "frequency": 11 } },
                { "id": "lift", "type": "levels", "inputs": { "input": "grain" } },
                { "id": "sub", "type": "graph", "params": { "file": "library/marble_veins.json", "vein_scale": 7 },
                  "inputs": { "distortion": "lift" } },
                { "id": "out", "type": "output", "inputs": { "color": "sub" } } ] }"#,
        )
        .unwrap();
        parent.resolve_paths(&folder);
        let file = folder.join("library/marble_veins.json");
        let mut child = Graph::load(&file).unwrap();
        child.resolve_paths(&folder.join("library"));
        let (shown, _) = fed(&child, &parent, "sub").unwrap();
        // The child's output node, fed, renders what the parent's subgraph node renders.
        let output = child.nodes.iter().find(|n| n.kind == "output").unwrap();
        assert_eq!(pixels(&shown, &output.id), pixels(&parent, "sub"));
        // On its own it renders something else (its defaults).
        assert_ne!(pixels(&child, &output.id), pixels(&parent, "sub"));
        assert!(shown.settings.tileable);
        assert!(fed(&child, &parent, "nothing").is_none());
    }

    #[test]
    fn a_fed_graph_input_reads_what_the_node_connects() {
        let dir = tempfile::tempdir().unwrap();
        let child_json = r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "h", "type": "graph_input", "params": { "name": "height" } },
            { "id": "lv", "type": "levels", "params": { "gamma": 2 }, "inputs": { "input": "h" } },
            { "id": "o", "type": "output", "inputs": { "color": "lv" } } ] }"#;
        std::fs::write(dir.path().join("sub.json"), child_json).unwrap();
        let mut parent = Graph::from_json(
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "n", "type": "simplex", "params": { "frequency": 5 } },
                { "id": "sub", "type": "graph", "params": { "file": "sub.json" }, "inputs": { "height": "n" } },
                { "id": "out", "type": "output", "inputs": { "color": "sub" } } ] }"#,
        )
        .unwrap();
        parent.resolve_paths(dir.path());
        let child = Graph::from_json(child_json).unwrap();
        let (shown, inputs) = fed(&child, &parent, "sub").unwrap();
        assert_eq!(inputs["h"], "parent~/n");
        assert_eq!(pixels(&shown, "lv"), pixels(&parent, "sub"));
        assert_eq!(pixels(&shown, "parent~/n"), pixels(&parent, "n"));
    }
}
