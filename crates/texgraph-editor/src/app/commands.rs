//! Edits as commands: collected while drawing, applied to the graph after the frame
//! (recording undo steps), so that nothing changes under the widgets drawing it.

use std::collections::HashMap;
use std::path::PathBuf;

use eframe::egui::Pos2;
use texgraph_core::{Graph, Node, ParamValue};

use super::EditorApp;
use crate::document::{
    file_position, free_position, fresh_id, lifted_wires, store_positions, to_snarl,
};

/// One edit or action, collected while drawing and applied after.
#[derive(Debug, Clone)]
pub enum Command {
    /// Set a param of a node.
    SetParam {
        /// Node id.
        node: String,
        /// Param name.
        param: String,
        /// New value.
        value: ParamValue,
    },
    /// Connect output `from` (`"node"` or `"node.port"`) to input `port` of node `to`.
    Connect {
        /// Source reference.
        from: String,
        /// Target node id.
        to: String,
        /// Target input.
        port: String,
    },
    /// Remove the connection into input `port` of node `to`.
    Disconnect {
        /// Target node id.
        to: String,
        /// Target input.
        port: String,
    },
    /// Add a node of type `kind` at a canvas position (or beside the others).
    AddNode {
        /// Node type id.
        kind: &'static str,
        /// Canvas position.
        pos: Option<Pos2>,
    },
    /// Delete nodes and every connection to them.
    Remove(Vec<String>),
    /// Copy nodes (with their params and inputs) under new ids.
    Duplicate(Vec<String>),
    /// Add the nodes of a graph (pasted JSON) under fresh ids, keeping their connections
    /// among themselves.
    Paste(String),
    /// Show a node in the inspector (and pick no others).
    Select(Option<String>),
    /// Add a node to the picked nodes, or take it out (Shift+click).
    Pick(String),
    /// Show a node's output in the preview (`None`: the graph's output).
    Pin(Option<String>),
    /// Set the graph's name.
    SetName(String),
    /// Set the graph's tileable setting.
    SetTileable(bool),
    /// Set the graph's time.
    SetTime(f32),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Start an empty graph.
    New,
    /// Load a graph file.
    Open(PathBuf),
    /// Save to a path (or the current file).
    Save(Option<PathBuf>),
    /// Show a message in the status bar.
    Status(String),
}

impl EditorApp {
    /// Applies the queued commands; `drag_ended` when a pointer button was released this
    /// frame.
    pub fn apply_commands(&mut self, drag_ended: bool) {
        if drag_ended {
            // Wires lifted on the canvas itself (and not dropped on another pin) are gone.
            for (to, port) in lifted_wires(&self.graph, &self.snarl) {
                self.commands.insert(0, Command::Disconnect { to, port });
            }
        }
        if moved(&self.graph, &self.snarl) {
            // A drag moves nodes every frame: one undo step until the button is released.
            self.history.record(&self.graph, Some("move nodes".into()));
            store_positions(&mut self.graph, &self.snarl);
            self.modified = true;
        }
        let mut edited = false;
        for command in std::mem::take(&mut self.commands) {
            edited |= self.apply(command);
        }
        let graph = &self.graph;
        self.picked.retain(|id| graph.node(id).is_some());
        if edited {
            self.modified = true;
            self.snarl = to_snarl(&self.graph);
            self.changed();
        }
    }

    /// Applies one command; true when it changed the graph.
    fn apply(&mut self, command: Command) -> bool {
        let graph = &mut self.graph;
        match command {
            Command::SetParam { node, param, value } => {
                if graph.node(&node).is_none() {
                    return false;
                }
                self.history.record(graph, Some(format!("{node}.{param}")));
                graph
                    .node_mut(&node)
                    .expect("checked")
                    .params
                    .insert(param, value);
            }
            Command::Connect { from, to, port } => {
                if let Err(message) = texgraph_core::check_connection(graph, &from, &to, &port) {
                    self.status = format!("cannot connect: {message}");
                    return false;
                }
                self.history.record(graph, None);
                graph
                    .node_mut(&to)
                    .expect("checked")
                    .inputs
                    .insert(port, from);
            }
            Command::Disconnect { to, port } => {
                if !graph
                    .node(&to)
                    .is_some_and(|n| n.inputs.contains_key(&port))
                {
                    return false;
                }
                self.history.record(graph, None);
                graph.node_mut(&to).expect("checked").inputs.remove(&port);
            }
            Command::AddNode { kind, pos } => {
                self.history.record(graph, None);
                let id = fresh_id(graph, kind);
                let pos = pos.unwrap_or_else(|| free_position(graph));
                let mut node = Node::new(id.clone(), kind);
                node.pos = [pos.x, pos.y];
                graph.nodes.push(node);
                self.selected = Some(id);
            }
            Command::Remove(ids) => {
                if ids.iter().all(|id| graph.node(id).is_none()) {
                    return false;
                }
                self.history.record(graph, None);
                graph.nodes.retain(|n| !ids.contains(&n.id));
                for node in &mut graph.nodes {
                    node.inputs.retain(|_, r| {
                        !ids.iter()
                            .any(|id| texgraph_core::graph::split_reference(r).0 == id)
                    });
                }
                if self.selected.as_ref().is_some_and(|s| ids.contains(s)) {
                    self.selected = None;
                }
            }
            Command::Duplicate(ids) => {
                let copies: Vec<Node> = ids
                    .iter()
                    .filter_map(|id| graph.node(id).cloned())
                    .collect();
                if copies.is_empty() {
                    return false;
                }
                self.history.record(graph, None);
                for mut copy in copies {
                    copy.id = fresh_id(graph, &copy.kind);
                    copy.pos = [copy.pos[0] + 40.0, copy.pos[1] + 40.0];
                    self.selected = Some(copy.id.clone());
                    graph.nodes.push(copy);
                }
            }
            Command::Paste(text) => {
                let pasted = match Graph::from_json(&text) {
                    Ok(pasted) if !pasted.nodes.is_empty() => pasted,
                    _ => return false, // not a texgraph graph: nothing to paste
                };
                self.history.record(graph, None);
                let renamed = paste(graph, pasted);
                self.selected = renamed.last().cloned();
            }
            Command::Select(id) => {
                self.selected = id;
                self.picked.clear();
                self.history.seal();
                return false;
            }
            Command::Pick(id) => {
                if self.picked.is_empty()
                    && let Some(current) = self.selected.clone().filter(|s| *s != id)
                {
                    self.picked.push(current);
                }
                if let Some(at) = self.picked.iter().position(|p| *p == id) {
                    self.picked.remove(at);
                } else {
                    self.picked.push(id.clone());
                    self.selected = Some(id);
                }
                return false;
            }
            Command::Pin(id) => {
                self.preview.pinned = id;
                self.generation += 1;
                self.request_preview();
                return false;
            }
            Command::SetName(name) => {
                self.history.record(graph, Some("settings.name".into()));
                graph.name = Some(name).filter(|n| !n.is_empty());
            }
            Command::SetTileable(tileable) => {
                self.history.record(graph, None);
                graph.settings.tileable = tileable;
            }
            Command::SetTime(time) => {
                self.history.record(graph, Some("settings.time".into()));
                graph.settings.time = time;
            }
            Command::Undo | Command::Redo => {
                let restored = match command {
                    Command::Undo => self.history.undo(graph),
                    _ => self.history.redo(graph),
                };
                let Some(restored) = restored else {
                    return false;
                };
                *graph = restored;
                if self
                    .selected
                    .as_ref()
                    .is_some_and(|s| graph.node(s).is_none())
                {
                    self.selected = None;
                }
            }
            Command::New => {
                self.history.record(graph, None);
                *graph = Graph::new();
                self.path = None;
                self.selected = None;
                self.preview.pinned = None;
                self.preview.playing = None;
                self.snarl = to_snarl(graph);
                self.changed();
                self.modified = false;
                self.status = "new graph".into();
                return false;
            }
            Command::Open(path) => match Graph::load(&path) {
                Ok(loaded) => {
                    self.history.record(graph, None);
                    *graph = loaded;
                    self.status = format!("opened {}", path.display());
                    self.files.remember(&path);
                    self.path = Some(path);
                    self.selected = None;
                    self.preview.pinned = None;
                    self.preview.playing = None;
                    self.snarl = to_snarl(graph);
                    self.changed();
                    self.frame_all();
                    self.modified = false;
                    return false;
                }
                Err(e) => {
                    // The current graph stays as it is.
                    self.status = format!("error: {}: {e}", path.display());
                    return false;
                }
            },
            Command::Save(path) => {
                let Some(path) = path.or_else(|| self.path.clone()) else {
                    // Never saved: ask where, then carry on with what was waiting.
                    self.ask_save_as = Some(self.after_save.take());
                    return false;
                };
                match graph.save(&path) {
                    Ok(()) => {
                        self.status = format!("saved {}", path.display());
                        self.files.remember(&path);
                        self.path = Some(path);
                        self.modified = false;
                        if let Some(then) = self.after_save.take() {
                            self.then = Some(then);
                        }
                    }
                    Err(e) => {
                        self.status = format!("error: {e}");
                        self.after_save = None;
                    }
                }
                return false;
            }
            Command::Status(message) => {
                self.status = message;
                return false;
            }
        }
        true
    }
}

/// Whether a node on the canvas is somewhere other than the graph says.
fn moved(graph: &Graph, snarl: &egui_snarl::Snarl<String>) -> bool {
    snarl.nodes_pos_ids().any(|(_, pos, id)| {
        graph
            .node(id)
            .is_some_and(|n| file_position(Pos2::from(n.pos)) != file_position(pos))
    })
}

/// The selected nodes as a graph file's JSON, with only the connections among them.
pub fn copy_json(graph: &Graph, ids: &[String]) -> String {
    let mut copied = Graph::new();
    copied.nodes = graph
        .nodes
        .iter()
        .filter(|n| ids.contains(&n.id))
        .cloned()
        .collect();
    for node in &mut copied.nodes {
        node.inputs.retain(|_, r| {
            ids.iter()
                .any(|id| texgraph_core::graph::split_reference(r).0 == id)
        });
    }
    copied.to_json()
}

/// Adds `pasted`'s nodes to `graph` under fresh ids (references among them follow) and
/// moved aside; returns the new ids.
fn paste(graph: &mut Graph, pasted: Graph) -> Vec<String> {
    let mut renames = HashMap::new();
    for node in &pasted.nodes {
        let id = fresh_id(graph, &node.kind);
        // Reserve the id before choosing the next one.
        graph.nodes.push(Node::new(id.clone(), node.kind.clone()));
        renames.insert(node.id.clone(), id);
    }
    graph.nodes.truncate(graph.nodes.len() - pasted.nodes.len());
    let mut added = Vec::new();
    for mut node in pasted.nodes {
        node.id = renames[&node.id].clone();
        node.pos = [node.pos[0] + 60.0, node.pos[1] + 60.0];
        node.inputs = node
            .inputs
            .into_iter()
            .filter_map(|(port, reference)| {
                let (source, out) = texgraph_core::graph::split_reference(&reference);
                let source = renames.get(source)?;
                Some((
                    port,
                    out.map_or_else(|| source.clone(), |o| format!("{source}.{o}")),
                ))
            })
            .collect();
        added.push(node.id.clone());
        graph.nodes.push(node);
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_nodes_keep_their_connections_under_new_ids() {
        let graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "c", "type": "coords" },
                { "id": "m", "type": "math", "inputs": { "a": "c.v", "b": "elsewhere" } },
                { "id": "elsewhere", "type": "constant" } ] }"#,
        )
        .unwrap();
        let json = copy_json(&graph, &["c".into(), "m".into()]);
        let mut target = graph.clone();
        let added = paste(&mut target, Graph::from_json(&json).unwrap());
        assert_eq!(added, ["coords1", "math1"]);
        let math = target.node("math1").unwrap();
        assert_eq!(math.inputs.get("a").map(String::as_str), Some("coords1.v"));
        assert!(
            !math.inputs.contains_key("b"),
            "a connection from outside the copy is dropped"
        );
        assert_eq!(target.nodes.len(), 5);
    }
}
