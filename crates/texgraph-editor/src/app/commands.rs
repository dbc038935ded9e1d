//! Edits as commands: collected while drawing, applied to the graph after the frame
//! (recording undo steps), so that nothing changes under the widgets drawing it.

use std::collections::HashMap;

use eframe::egui::Pos2;
use texgraph_core::{Graph, Node, ParamValue};

use super::EditorApp;
use crate::command::Command;
use crate::document::{
    arrange, file_position, fresh_id, is_plain_id, lifted_wires, store_positions, sync_snarl,
};

/// What applying one command did.
pub(super) enum Applied {
    /// Nothing in the graph changed.
    Nothing,
    /// The graph was edited; edits with the same key (`Some`) in a row are one undo step.
    Edit(Option<String>),
    /// The graph was replaced (undo, redo, new, open): history is already taken care of.
    Replaced,
}

/// The edits of one frame: one gesture, so one undo step.
struct Batch {
    /// The graph before the first edit.
    before: Graph,
    /// `None`: no edit yet; `Some(key)`: the merge key of every edit so far (`None` once
    /// they differ).
    key: Option<Option<String>>,
}

impl Batch {
    fn new(graph: &Graph) -> Self {
        Self {
            before: graph.clone(),
            key: None,
        }
    }

    fn edit(&mut self, key: Option<String>) {
        self.key = Some(match self.key.take() {
            None => key,
            Some(previous) if previous == key => key,
            Some(_) => None,
        });
    }
}

impl EditorApp {
    /// Applies the queued commands; `drag_ended` when a pointer button was released this
    /// frame. The edits of one frame are one undo step (a wire moved with Ctrl+drag is a
    /// disconnect and a connect in the same frame); a drag merges its frames' steps.
    pub fn apply_commands(&mut self, drag_ended: bool) {
        self.raise_created();
        self.settle_created();
        if drag_ended {
            // Wires lifted on the canvas itself (and not dropped on another pin) are gone.
            for (to, port) in lifted_wires(&self.graph, &self.canvas.snarl) {
                self.commands.insert(0, Command::Disconnect { to, port });
            }
        }
        let moved = moved(&self.graph, &self.canvas.snarl);
        if self.commands.is_empty() && !moved {
            return;
        }
        let status_before = self.status.clone();
        let mut batch = Batch::new(&self.graph);
        if moved {
            // A drag moves nodes every frame: one undo step until the button is released.
            store_positions(&mut self.graph, &self.canvas.snarl);
            batch.edit(Some("move nodes".into()));
        }
        let mut edited = false;
        for command in std::mem::take(&mut self.commands) {
            let replaces = matches!(
                command,
                Command::Undo
                    | Command::Redo
                    | Command::New
                    | Command::Open(_)
                    | Command::Restore(_)
                    | Command::OpenSubgraph(_)
                    | Command::Back(_)
                    // Saved as the edits before it in this frame leave the graph.
                    | Command::Save(_)
            );
            if replaces && self.record(&mut batch) {
                edited = true;
                batch = Batch::new(&self.graph);
            }
            match self.apply(command) {
                Applied::Nothing => {}
                Applied::Edit(key) => batch.edit(key),
                Applied::Replaced => batch = Batch::new(&self.graph),
            }
        }
        if self.record(&mut batch) {
            edited = true;
        }
        self.modified = self.history.modified();
        let graph = &self.graph;
        self.picked.retain(|id| graph.node(id).is_some());
        if std::mem::take(&mut self.canvas.deselect_canvas) {
            let selected = egui_snarl::ui::get_selected_nodes(self.canvas_id(), &self.window.ctx);
            crate::document::renew(&mut self.canvas.snarl, &selected);
            sync_snarl(&mut self.canvas.snarl, &self.graph);
        }
        if edited {
            // A later edit that worked makes an old complaint stale.
            if self.status == status_before && is_complaint(&self.status) {
                self.status.clear();
            }
            sync_snarl(&mut self.canvas.snarl, &self.graph);
            self.changed();
        }
    }

    /// Records the batch's edits as one undo step (the batch is spent); true when there
    /// were any.
    fn record(&mut self, batch: &mut Batch) -> bool {
        match batch.key.take() {
            Some(key) => {
                self.history.record(&batch.before, key);
                true
            }
            None => false,
        }
    }

    /// Makes the nodes just created (added, pasted, duplicated) the selection: the
    /// inspector shows the last, Delete and Copy act on all of them, and what was selected
    /// before is selected no more.
    pub(super) fn select_created(&mut self, ids: Vec<String>) {
        self.selected_comment = None;
        self.selected = ids.last().cloned();
        self.picked = if ids.len() > 1 { ids } else { Vec::new() };
        self.canvas.deselect_canvas = true;
        self.canvas.raise = self.picked.clone();
        self.canvas.raise.extend(self.selected.clone());
    }

    /// Draws the nodes created last frame above every other: a duplicate covers its
    /// original, not the other way round.
    fn raise_created(&mut self) {
        if self.canvas.deselect_canvas || self.canvas.raise.is_empty() {
            return;
        }
        let raise = std::mem::take(&mut self.canvas.raise);
        let ids: Vec<_> = self
            .canvas
            .snarl
            .node_ids()
            .filter(|(_, name)| raise.contains(name))
            .map(|(id, _)| id)
            .collect();
        crate::document::renew(&mut self.canvas.snarl, &ids);
        sync_snarl(&mut self.canvas.snarl, &self.graph);
    }

    /// Moves `ids` into a new graph file beside this graph's file (`<node>.json`) and
    /// puts one subgraph node in their place, its connections kept.
    fn make_subgraph(&mut self, ids: &[String]) -> Applied {
        let Some(path) = self.path.clone() else {
            self.status =
                "save the graph first: the subgraph's file is written beside it".to_owned();
            return Applied::Nothing;
        };
        let folder = texgraph_core::paths::folder_of(&path);
        let mut id = fresh_id(&self.graph, "subgraph");
        while folder.join(format!("{id}.json")).exists() {
            let mut bigger = self.graph.clone();
            bigger.nodes.push(Node::new(id.clone(), "subgraph"));
            id = fresh_id(&bigger, "subgraph");
        }
        let file = format!("{id}.json");
        let mut made = match texgraph_core::subgraph::extract(&self.graph, ids, &id, &file) {
            Ok(made) => made,
            Err(message) => {
                self.status = format!("cannot make a subgraph: {message}");
                return Applied::Nothing;
            }
        };
        // Laid out with the sizes its nodes are drawn at here, so that the inputs and
        // outputs it gains sit clear of them when it is opened.
        arrange(&mut made.subgraph, &self.canvas.sizes);
        if let Err(e) = made.subgraph.save(&folder.join(&file)) {
            self.status = format!("cannot make a subgraph: {e}");
            return Applied::Nothing;
        }
        self.graph = made.including;
        self.select_created(vec![id.clone()]);
        sync_snarl(&mut self.canvas.snarl, &self.graph);
        self.status = format!("wrote {file}; node '{id}' uses it (double-click it to open)");
        Applied::Edit(None)
    }

    /// Applies one command: each is a method of its area (`edits.rs`, `comment_edits.rs`,
    /// `selection.rs`, `documents.rs`, `subgraph_edits.rs`).
    fn apply(&mut self, command: Command) -> Applied {
        match command {
            Command::SetParam { node, param, value } => {
                set_param(&mut self.graph, &node, param, value, false)
            }
            Command::DragParam { node, param, value } => {
                set_param(&mut self.graph, &node, param, value, true)
            }
            Command::Connect { from, to, port } => self.connect(from, to, port),
            Command::Disconnect { to, port } => self.disconnect(to, port),
            Command::AddNode { kind, pos } => self.add_node(kind, pos),
            Command::Remove(ids) => self.remove(ids),
            Command::Duplicate(ids) => self.duplicate(ids),
            Command::Paste { text, at } => self.paste(text, at),
            Command::SetLabel { node, label } => self.set_label(node, label),
            Command::Rename { from, to } => self.rename(from, to),
            Command::Arrange => self.arrange(),
            Command::SetName(name) => self.set_name(name),
            Command::SetTileable(tileable) => self.set_tileable(tileable),
            Command::SetTime(time) => self.set_time(time),
            Command::AddComment(comment) => self.place_comment(comment),
            Command::MoveComment {
                index,
                delta,
                nodes,
            } => self.move_comment(index, delta, nodes),
            Command::ResizeComment { index, size } => self.resize_comment(index, size),
            Command::SetComment { index, comment } => self.set_comment(index, comment),
            Command::RemoveComment(index) => self.remove_comment(index),
            Command::SelectComment(index) => self.select_comment(index),
            Command::Select(id) => self.select(id),
            Command::Pick(id) => self.pick(id),
            Command::SelectAll => self.select_all(),
            Command::Pin(id) => self.pin(id),
            Command::OpenPalette { at, screen } => self.open_palette(at, screen),
            Command::OpenWirePalette { at, screen, wire } => {
                self.open_wire_palette(at, screen, wire)
            }
            Command::OpenWireMenu { from, node, port } => self.open_wire_menu(from, node, port),
            Command::AddWiredNode { kind, pos, wire } => self.add_wired_node(kind, pos, wire),
            Command::Status(message) => self.show_status(message),
            Command::ChooseFile { node, param } => self.choose_file(node, param),
            Command::Undo => self.undo_or_redo(true),
            Command::Redo => self.undo_or_redo(false),
            Command::New => self.new_document(),
            Command::Open(path) => self.open_document(path),
            Command::Restore(found) => self.restore(found),
            Command::Save(path) => self.save(path),
            Command::MakeSubgraph(ids) => self.make_subgraph(&ids),
            Command::ToggleExposed { node, param } => self.toggle_exposed(node, param),
            Command::AddSubgraph { file, pos } => self.add_subgraph(file, pos),
            Command::AddWiredSubgraph { file, pos, wire } => {
                self.add_wired_subgraph(file, pos, wire)
            }
            Command::OpenSubgraph(id) => self.open_subgraph_node(id),
            Command::Back(level) => self.back(level),
        }
    }
}

/// Whether a status message reports something that did not work.
pub(super) fn is_complaint(status: &str) -> bool {
    status.starts_with("error") || status.starts_with("cannot")
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

/// Sets a param; a drag's edits carry the param as merge key.
fn set_param(
    graph: &mut Graph,
    node: &str,
    param: String,
    value: ParamValue,
    dragging: bool,
) -> Applied {
    let Some(target) = graph.node_mut(node) else {
        return Applied::Nothing;
    };
    if target.params.get(&param) == Some(&value) {
        return Applied::Nothing;
    }
    let key = dragging.then(|| format!("{node}.{param}"));
    let renamed = (target.kind == "output" && param == "usage")
        .then(|| crate::document::name_after_usage(graph, node, &value))
        .flatten();
    let target = graph.node_mut(node).expect("found above");
    target.params.insert(param, value);
    if let Some(name) = renamed {
        target.params.insert("name".into(), ParamValue::Text(name));
    }
    Applied::Edit(key)
}

/// What a new node's id starts with: its type, or for a subgraph node its file's name
/// (`stones1` for `stones.json`), as when it is added from the library.
pub(super) fn id_base(node: &Node) -> String {
    match node.params.get("file") {
        Some(ParamValue::Text(file)) if node.kind == texgraph_core::graph::SUBGRAPH_KIND => {
            subgraph_id_base(file)
        }
        _ => node.kind.clone(),
    }
}

/// The id a subgraph node using graph file `file` starts with: the file's name, where it
/// makes a plain id.
pub(super) fn subgraph_id_base(file: &str) -> String {
    let file = file
        .strip_prefix(texgraph_core::library::PREFIX)
        .unwrap_or(file);
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| crate::document::is_plain_id(s))
        .unwrap_or_else(|| "subgraph".to_owned())
}

/// Adds `pasted`'s nodes to `graph` under fresh ids (references among them follow), their
/// top-left corner at `at` (beside the originals when `None`); returns the new ids.
pub(super) fn paste(graph: &mut Graph, pasted: Graph, at: Option<Pos2>) -> Vec<String> {
    let corner = pasted
        .nodes
        .iter()
        .map(|n| Pos2::from(n.pos))
        .reduce(|a, b| a.min(b))
        .unwrap_or(Pos2::ZERO);
    let shift = match at {
        Some(at) => at - corner,
        None => eframe::egui::vec2(60.0, 60.0),
    };
    let mut renames = HashMap::new();
    for node in &pasted.nodes {
        let id = fresh_id(graph, &id_base(node));
        // Reserve the id before choosing the next one.
        graph.nodes.push(Node::new(id.clone(), node.kind.clone()));
        renames.insert(node.id.clone(), id);
    }
    graph.nodes.truncate(graph.nodes.len() - pasted.nodes.len());
    let mut added = Vec::new();
    for mut node in pasted.nodes {
        node.id = renames[&node.id].clone();
        node.pos = file_position(Pos2::from(node.pos) + shift);
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
        crate::document::fit_new_output(graph, &mut node);
        added.push(node.id.clone());
        graph.nodes.push(node);
    }
    added
}

/// Renames node `from` to `to` and every reference to it; the reason when it cannot be.
pub(super) fn rename(graph: &mut Graph, from: &str, to: &str) -> Result<(), String> {
    check_rename(graph, from, to)?;
    for node in &mut graph.nodes {
        if node.id == from {
            node.id = to.to_owned();
        }
        for reference in node.inputs.values_mut() {
            let (source, port) = texgraph_core::graph::split_reference(reference);
            if source == from {
                *reference = port.map_or_else(|| to.to_owned(), |p| format!("{to}.{p}"));
            }
        }
    }
    // The params this graph exposes follow their node.
    for exposed in &mut graph.exposed {
        if let Some((node, param)) = exposed.target.split_once('.')
            && node == from
        {
            exposed.target = format!("{to}.{param}");
        }
    }
    Ok(())
}

/// Why node `from` cannot be renamed `to`, if it cannot.
pub(super) fn check_rename(graph: &Graph, from: &str, to: &str) -> Result<(), String> {
    if from == to {
        return Err("that is its id already".into());
    }
    if graph.node(from).is_none() {
        return Err("no such node".into());
    }
    if !is_plain_id(to) {
        return Err(format!(
            "'{}' is not a valid id: use letters, digits, '_' and '-', starting with a letter or '_'",
            to.escape_debug()
        ));
    }
    if graph.node(to).is_some() {
        return Err(format!("'{to}' is already taken"));
    }
    Ok(())
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
        let added = paste(
            &mut target,
            Graph::from_json(&json).unwrap(),
            Some(Pos2::new(500.0, 300.0)),
        );
        assert_eq!(added, ["coords1", "math1"]);
        let math = target.node("math1").unwrap();
        assert_eq!(math.inputs.get("a").map(String::as_str), Some("coords1.v"));
        assert!(
            !math.inputs.contains_key("b"),
            "a connection from outside the copy is dropped"
        );
        assert_eq!(target.nodes.len(), 5);
        // The copy's top-left node lands where it was pasted, the rest keep their offsets.
        let (c, m) = (graph.node("c").unwrap().pos, graph.node("m").unwrap().pos);
        let corner = [c[0].min(m[0]), c[1].min(m[1])];
        assert_eq!(
            math.pos,
            [500.0 + m[0] - corner[0], 300.0 + m[1] - corner[1]]
        );
    }

    #[test]
    fn a_pasted_subgraph_node_is_named_after_its_file() {
        let graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "stones", "type": "graph", "params": { "file": "library/stones.json" } } ] }"#,
        )
        .unwrap();
        let mut target = graph.clone();
        let json = copy_json(&graph, &["stones".into()]);
        let added = paste(&mut target, Graph::from_json(&json).unwrap(), None);
        assert_eq!(added, ["stones1"]);
    }

    #[test]
    fn renaming_a_node_renames_every_reference_and_refuses_bad_ids() {
        let mut graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "c", "type": "coords" },
                { "id": "m", "type": "math", "inputs": { "a": "c.v", "b": "c" } },
                { "id": "out", "type": "output", "inputs": { "color": "m" } } ] }"#,
        )
        .unwrap();
        rename(&mut graph, "c", "uv").unwrap();
        let math = graph.node("m").unwrap();
        assert_eq!(math.inputs["a"], "uv.v");
        assert_eq!(math.inputs["b"], "uv");
        assert!(graph.node("c").is_none() && graph.node("uv").is_some());
        let before = graph.clone();
        for (to, why) in [
            ("m", "taken"),
            ("", "not a valid id"),
            ("a.b", "not a valid id"),
            ("x y", "not a valid id"),
            ("9lives", "not a valid id"),
            ("bell\u{7}", "not a valid id"),
        ] {
            let reason = rename(&mut graph, "uv", to).unwrap_err();
            assert!(reason.contains(why), "{to:?}: {reason}");
            assert!(!reason.contains('\u{7}'), "control characters are escaped");
        }
        assert_eq!(graph, before);
    }
}
