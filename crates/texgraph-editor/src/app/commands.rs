//! Edits as commands: collected while drawing, applied to the graph after the frame
//! (recording undo steps), so that nothing changes under the widgets drawing it.

use std::collections::HashMap;
use std::path::PathBuf;

use eframe::egui::Pos2;
use texgraph_core::{Graph, Node, ParamValue};

use super::EditorApp;
use crate::command::Command;
use crate::document::{
    arrange, file_position, free_position, fresh_id, is_plain_id, lifted_wires, needs_arranging,
    new_graph, replace_snarl, store_positions, sync_snarl,
};

/// What applying one command did.
enum Applied {
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
        if drag_ended {
            // Wires lifted on the canvas itself (and not dropped on another pin) are gone.
            for (to, port) in lifted_wires(&self.graph, &self.snarl) {
                self.commands.insert(0, Command::Disconnect { to, port });
            }
        }
        let moved = moved(&self.graph, &self.snarl);
        if self.commands.is_empty() && !moved {
            return;
        }
        let status_before = self.status.clone();
        let mut batch = Batch::new(&self.graph);
        if moved {
            // A drag moves nodes every frame: one undo step until the button is released.
            store_positions(&mut self.graph, &self.snarl);
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
        if std::mem::take(&mut self.deselect_canvas) {
            let selected = egui_snarl::ui::get_selected_nodes(self.canvas_id(), &self.ctx);
            crate::document::renew(&mut self.snarl, &selected);
            sync_snarl(&mut self.snarl, &self.graph);
        }
        if edited {
            // A later edit that worked makes an old complaint stale.
            if self.status == status_before && is_complaint(&self.status) {
                self.status.clear();
            }
            sync_snarl(&mut self.snarl, &self.graph);
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
    fn select_created(&mut self, ids: Vec<String>) {
        self.selected_comment = None;
        self.selected = ids.last().cloned();
        self.picked = if ids.len() > 1 { ids } else { Vec::new() };
        self.deselect_canvas = true;
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
        arrange(&mut made.subgraph, &self.sizes);
        if let Err(e) = made.subgraph.save(&folder.join(&file)) {
            self.status = format!("cannot make a subgraph: {e}");
            return Applied::Nothing;
        }
        self.graph = made.including;
        self.select_created(vec![id.clone()]);
        sync_snarl(&mut self.snarl, &self.graph);
        self.status = format!("wrote {file}; node '{id}' uses it (double-click it to open)");
        Applied::Edit(None)
    }

    /// Applies one command.
    fn apply(&mut self, command: Command) -> Applied {
        // Checked against the graph as the core reads it: a subgraph's file is relative to
        // this graph's folder.
        let resolved = matches!(command, Command::Connect { .. }).then(|| self.resolved_graph());
        if let Command::MakeSubgraph(ids) = &command {
            return self.make_subgraph(ids);
        }
        let graph = &mut self.graph;
        match command {
            Command::SetParam { node, param, value } => {
                return set_param(graph, &node, param, value, false);
            }
            Command::DragParam { node, param, value } => {
                return set_param(graph, &node, param, value, true);
            }
            Command::Connect { from, to, port } => {
                let checked = resolved.as_ref().expect("resolved for connections");
                if let Err(message) = texgraph_core::check_connection(checked, &from, &to, &port) {
                    self.status = format!("cannot connect: {message}");
                    return Applied::Nothing;
                }
                graph
                    .node_mut(&to)
                    .expect("checked")
                    .inputs
                    .insert(port, from);
            }
            Command::Disconnect { to, port } => {
                match graph.node_mut(&to).map(|n| n.inputs.remove(&port)) {
                    Some(Some(_)) => {}
                    _ => return Applied::Nothing,
                }
            }
            Command::AddNode { kind, pos } => {
                let id = fresh_id(graph, kind);
                let pos = pos.unwrap_or_else(|| free_position(graph));
                let mut node = Node::new(id.clone(), kind);
                node.pos = file_position(pos);
                crate::document::fit_new_output(graph, &mut node);
                graph.nodes.push(node);
                self.select_created(vec![id]);
            }
            Command::Remove(ids) => {
                if ids.iter().all(|id| graph.node(id).is_none()) {
                    return Applied::Nothing;
                }
                graph.nodes.retain(|n| !ids.contains(&n.id));
                // A removed node's params are exposed no more.
                graph.exposed.retain(|e| {
                    e.target
                        .split_once('.')
                        .is_none_or(|(node, _)| !ids.iter().any(|id| id == node))
                });
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
                    return Applied::Nothing;
                }
                let mut created = Vec::new();
                for mut copy in copies {
                    copy.id = fresh_id(graph, &id_base(&copy));
                    copy.pos = [copy.pos[0] + 40.0, copy.pos[1] + 40.0];
                    crate::document::fit_new_output(graph, &mut copy);
                    created.push(copy.id.clone());
                    graph.nodes.push(copy);
                }
                self.select_created(created);
            }
            Command::Paste { text, at } => {
                let pasted = match Graph::from_json(&text) {
                    Ok(pasted) if !pasted.nodes.is_empty() => pasted,
                    _ => return Applied::Nothing, // not a texgraph graph: nothing to paste
                };
                let created = paste(graph, pasted, at);
                self.select_created(created);
            }
            Command::SetLabel { node, label } => {
                let label = label.filter(|l| !l.trim().is_empty());
                match graph.node_mut(&node) {
                    Some(target) if target.label != label => target.label = label,
                    _ => return Applied::Nothing,
                }
                // Typing a label is one undo step.
                return Applied::Edit(Some(format!("{node}.label")));
            }
            Command::Rename { from, to } => {
                if let Err(reason) = rename(graph, &from, &to) {
                    self.status = format!("cannot rename '{from}': {reason}");
                    return Applied::Nothing;
                }
                for id in [&mut self.selected, &mut self.preview.pinned]
                    .into_iter()
                    .flatten()
                    .chain(self.picked.iter_mut())
                {
                    if *id == from {
                        id.clone_from(&to);
                    }
                }
                self.status = format!("renamed '{from}' to '{to}'");
            }
            Command::Arrange => {
                arrange(graph, &self.sizes);
                self.frame_all();
            }
            Command::OpenPalette { at, screen } => {
                self.palette_at = Some((at, screen));
                return Applied::Nothing;
            }
            Command::AddComment(comment) => {
                graph.comments.push(comment);
                self.selected_comment = Some(graph.comments.len() - 1);
                self.selected = None;
            }
            Command::SelectComment(index) => {
                self.selected_comment = index;
                if index.is_some() {
                    self.selected = None;
                    self.picked.clear();
                }
                return Applied::Nothing;
            }
            Command::MoveComment {
                index,
                delta,
                nodes,
            } => {
                if index >= graph.comments.len() {
                    return Applied::Nothing;
                }
                for node in &mut graph.nodes {
                    if nodes.contains(&node.id) {
                        node.pos = [node.pos[0] + delta.x, node.pos[1] + delta.y];
                    }
                }
                let moved = &mut graph.comments[index].pos;
                *moved = [moved[0] + delta.x, moved[1] + delta.y];
                return Applied::Edit(Some(format!("comment {index}")));
            }
            Command::ResizeComment { index, size } => {
                let Some(comment) = graph.comments.get_mut(index) else {
                    return Applied::Nothing;
                };
                comment.size = size;
                return Applied::Edit(Some(format!("comment {index}")));
            }
            Command::SetComment { index, comment } => {
                match graph.comments.get_mut(index) {
                    Some(old) if *old != comment => *old = comment,
                    _ => return Applied::Nothing,
                }
                return Applied::Edit(Some(format!("comment {index} text")));
            }
            Command::RemoveComment(index) => {
                if index >= graph.comments.len() {
                    return Applied::Nothing;
                }
                graph.comments.remove(index);
                self.selected_comment = None;
            }
            Command::Select(id) => {
                if id.is_some() {
                    self.selected_comment = None;
                }
                self.selected = id;
                self.picked.clear();
                // One node clicked, or empty canvas: nothing else stays selected.
                self.deselect_canvas = true;
                self.history.seal();
                return Applied::Nothing;
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
                return Applied::Nothing;
            }
            Command::Pin(id) => {
                self.preview.pinned = id;
                self.generation += 1;
                self.request_preview();
                return Applied::Nothing;
            }
            Command::SetName(name) => {
                graph.name = Some(name).filter(|n| !n.is_empty());
                return Applied::Edit(Some("settings.name".into()));
            }
            Command::SetTileable(tileable) => {
                graph.settings.tileable = tileable;
            }
            Command::SetTime(time) => {
                graph.settings.time = time;
                return Applied::Edit(Some("settings.time".into()));
            }
            Command::Undo | Command::Redo => {
                let restored = match command {
                    Command::Undo => self.history.undo(graph),
                    _ => self.history.redo(graph),
                };
                let Some(restored) = restored else {
                    return Applied::Nothing;
                };
                *graph = restored;
                if self
                    .selected
                    .as_ref()
                    .is_some_and(|s| graph.node(s).is_none())
                {
                    self.selected = None;
                }
                if self
                    .selected_comment
                    .is_some_and(|i| i >= graph.comments.len())
                {
                    self.selected_comment = None;
                }
                sync_snarl(&mut self.snarl, graph);
                self.changed();
                return Applied::Replaced;
            }
            Command::New => {
                self.replace(new_graph(), None);
                self.status = "new graph".into();
                return Applied::Replaced;
            }
            Command::Open(path) => match Graph::load(&path) {
                Ok(loaded) => {
                    self.status = format!("opened {}", path.display());
                    self.files.remember(&path);
                    self.replace(loaded, Some(path));
                    return Applied::Replaced;
                }
                Err(e) => {
                    // The current graph stays as it is.
                    self.status = format!("error: {}: {e}", path.display());
                    return Applied::Nothing;
                }
            },
            Command::Restore(found) => {
                let name = found.names();
                let others = found.others.clone();
                let recovered = found.clone();
                self.replace(found.graph, found.file);
                // Still unsaved (unless only the graphs above it were), and kept as this
                // editor's own recovery copy from now on.
                if found.modified {
                    self.history.mark_unsaved();
                }
                self.modified = found.modified;
                // The graphs it held besides: the trail down to it, and those left unsaved.
                self.restore_others(others);
                let path = self.path.clone();
                // Written as it stands now (the flag is otherwise set once a frame).
                self.autosave.shown_modified = self.modified;
                self.autosave
                    .write_now(&self.graph, path.as_deref(), self.generation);
                // Only now that this editor's own copy holds it.
                recovered.forget();
                self.status = format!("restored the unsaved changes to {name}");
                return Applied::Replaced;
            }
            Command::Save(path) => {
                let Some(path) = path.or_else(|| self.path.clone()) else {
                    // Never saved: ask where, then carry on with what was waiting.
                    self.ask_save_as = Some(self.after_save.take());
                    return Applied::Nothing;
                };
                match graph.save(&path) {
                    Ok(()) => {
                        self.status = format!("saved {}", path.display());
                        self.files.remember(&path);
                        self.path = Some(path);
                        self.history.mark_saved();
                        self.modified = false;
                        if self.navigation.unsaved().next().is_some() {
                            // Graphs parked on the trail still have unsaved edits.
                            let path = self.path.clone();
                            self.autosave.shown_modified = false;
                            self.autosave
                                .write_now(&self.graph, path.as_deref(), self.generation);
                        } else {
                            self.autosave.clear(self.generation);
                        }
                        if let Some(then) = self.after_save.take() {
                            self.then = Some(then);
                        }
                    }
                    Err(e) => {
                        self.status = format!("error: {e}");
                        self.after_save = None;
                    }
                }
                return Applied::Nothing;
            }
            Command::Status(message) => {
                self.status = message;
                return Applied::Nothing;
            }
            Command::MakeSubgraph(_) => unreachable!("handled before"),
            Command::ToggleExposed { node, param } => {
                let target = format!("{node}.{param}");
                if let Some(at) = graph.exposed.iter().position(|e| e.target == target) {
                    let gone = graph.exposed.remove(at);
                    self.status = format!("'{}' is no longer exposed", gone.name);
                } else {
                    let taken = |name: &str| graph.exposed.iter().any(|e| e.name == name);
                    let plain = |text: &str| {
                        text.chars()
                            .map(|c| {
                                if c.is_ascii_alphanumeric() || c == '-' {
                                    c
                                } else {
                                    '_'
                                }
                            })
                            .collect::<String>()
                    };
                    let mut name = plain(&param);
                    if taken(&name) || name == "file" {
                        name = plain(&format!("{node}_{param}"));
                    }
                    let base = name.clone();
                    let mut n = 2;
                    while taken(&name) {
                        name = format!("{base}_{n}");
                        n += 1;
                    }
                    self.status = format!(
                        "exposed {target} as '{name}': graphs using this file as a node show it"
                    );
                    graph.exposed.push(texgraph_core::graph::Exposed {
                        name,
                        target,
                        doc: String::new(),
                    });
                }
            }
            Command::AddSubgraph { file, pos } => {
                let id = fresh_id(graph, &subgraph_id_base(&file));
                let mut node = Node::new(id.clone(), texgraph_core::graph::SUBGRAPH_KIND);
                node.params
                    .insert("file".to_owned(), ParamValue::Text(file));
                node.pos = file_position(pos.unwrap_or_else(|| free_position(graph)));
                graph.nodes.push(node);
                self.select_created(vec![id]);
            }
            Command::OpenSubgraph(id) => {
                match self.graph.node(&id).and_then(|n| n.params.get("file")) {
                    Some(ParamValue::Text(file)) if !file.is_empty() => {
                        let path = texgraph_core::paths::beside(&self.folder(), file);
                        self.open_subgraph(id, path);
                    }
                    _ => self.status = format!("'{id}' has no graph file to open"),
                }
                return Applied::Replaced;
            }
            Command::Back(level) => {
                self.back_to(level);
                return Applied::Replaced;
            }
            Command::ChooseFile { node, param } => {
                self.choose_file = Some((node, param));
                return Applied::Nothing;
            }
        }
        Applied::Edit(None)
    }

    /// Shows another document: a new graph or one loaded from `path`. Nothing of the old
    /// one stays behind (selection, pinned preview, export file name, messages).
    fn replace(&mut self, mut graph: Graph, path: Option<PathBuf>) {
        if needs_arranging(&graph) {
            arrange(&mut graph, &Default::default());
        }
        self.graph = graph;
        self.path = path;
        self.selected = None;
        self.selected_comment = None;
        self.picked.clear();
        self.preview.pinned = None;
        self.preview.playing = None;
        self.preview.timeline.running = false;
        // A looping graph's timeline plays one loop.
        if let Some(seconds) = self.graph.settings.loop_seconds {
            let line = &mut self.preview.timeline;
            line.first = 0;
            line.end = ((seconds * line.fps).round() as u32).clamp(1, 100_000);
        }
        self.export.forget_graph();
        // Another document: the graphs parked on the way here had their question answered.
        self.navigation.clear();
        replace_snarl(&mut self.snarl, &self.graph);
        self.sizes.clear();
        self.changed();
        self.frame_readable();
        // Each document has its own undo steps: undo never brings back another file's
        // graph under this one's name.
        self.history = crate::history::History::default();
        self.modified = false;
        // The old document was saved or let go (its question answered).
        self.autosave.clear(self.generation);
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
    target.params.insert(param, value);
    Applied::Edit(key)
}

/// What a new node's id starts with: its type, or for a subgraph node its file's name
/// (`stones1` for `stones.json`), as when it is added from the library.
fn id_base(node: &Node) -> String {
    match node.params.get("file") {
        Some(ParamValue::Text(file)) if node.kind == texgraph_core::graph::SUBGRAPH_KIND => {
            subgraph_id_base(file)
        }
        _ => node.kind.clone(),
    }
}

/// The id a subgraph node using graph file `file` starts with: the file's name, where it
/// makes a plain id.
fn subgraph_id_base(file: &str) -> String {
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| crate::document::is_plain_id(s))
        .unwrap_or_else(|| "subgraph".to_owned())
}

/// Adds `pasted`'s nodes to `graph` under fresh ids (references among them follow), their
/// top-left corner at `at` (beside the originals when `None`); returns the new ids.
fn paste(graph: &mut Graph, pasted: Graph, at: Option<Pos2>) -> Vec<String> {
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
fn rename(graph: &mut Graph, from: &str, to: &str) -> Result<(), String> {
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
