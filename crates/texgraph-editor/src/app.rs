//! The editor application. Drawing collects [`Command`]s; after the frame they are applied
//! to the graph (recording undo steps), the canvas is re-derived from it, and the worker
//! is asked for the renders the edit made stale.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui::{
    self, Id, Key, KeyboardShortcut, Modifiers, Pos2, TextureHandle, TextureOptions, Ui,
};
use egui_snarl::Snarl;
use egui_snarl::ui::{BackgroundPattern, PinPlacement, SnarlStyle, SnarlWidget};
use texgraph_core::{Graph, Node, ParamValue, validate};

use crate::canvas::{self, Canvas};
use crate::document::{free_position, fresh_id, store_positions, to_snarl};
use crate::history::History;
use crate::inspector;
use crate::preview::{Preview, to_color_image};
use crate::worker::{Job, Slot, Worker};

/// Id of the node canvas widget.
pub const CANVAS_ID: &str = "canvas";
/// Side of the thumbnails rendered for nodes, in pixels.
pub const THUMBNAIL_PIXELS: u32 = 64;

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
    /// Show a node in the inspector.
    Select(Option<String>),
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

/// The editor.
pub struct EditorApp {
    /// The document.
    pub graph: Graph,
    /// Where it was loaded from or last saved to.
    pub path: Option<PathBuf>,
    /// Whether it changed since then.
    pub modified: bool,
    /// The node shown in the inspector.
    pub selected: Option<String>,
    /// The status bar's message.
    pub status: String,
    /// The path typed in the toolbar's file field.
    pub path_field: String,
    snarl: Snarl<String>,
    style: SnarlStyle,
    history: History,
    worker: Worker,
    generation: u64,
    preview: Preview,
    shown_generation: u64,
    thumbnails: HashMap<String, TextureHandle>,
    signatures: HashMap<String, String>,
    errors: HashMap<String, String>,
    filter: String,
    palette_at: Option<Pos2>,
    commands: Vec<Command>,
    /// The window title last sent (sending it every frame would keep the window redrawing).
    shown_title: String,
}

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
const NEW: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
const DUPLICATE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::D);

impl EditorApp {
    /// An editor showing `graph` (from `path`, if it came from a file); `ctx` is woken when
    /// renders finish.
    pub fn new(ctx: &egui::Context, graph: Graph, path: Option<PathBuf>) -> Self {
        let wake = ctx.clone();
        let mut app = Self {
            snarl: to_snarl(&graph),
            graph,
            path_field: path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            path,
            modified: false,
            selected: None,
            status: String::new(),
            style: SnarlStyle {
                pin_placement: Some(PinPlacement::Edge),
                bg_pattern: Some(BackgroundPattern::grid(egui::vec2(40.0, 40.0), 0.0)),
                ..SnarlStyle::new()
            },
            history: History::default(),
            worker: Worker::new(move || wake.request_repaint()),
            generation: 0,
            preview: Preview::default(),
            shown_generation: 0,
            thumbnails: HashMap::new(),
            signatures: HashMap::new(),
            errors: HashMap::new(),
            filter: String::new(),
            palette_at: None,
            commands: Vec::new(),
            shown_title: String::new(),
        };
        app.changed();
        app
    }

    /// An editor with the file at `path` loaded.
    pub fn open(ctx: &egui::Context, path: &Path) -> Result<Self, String> {
        let graph = Graph::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Self::new(ctx, graph, Some(path.to_owned())))
    }

    /// Whether a preview image is showing.
    pub fn has_preview(&self) -> bool {
        self.preview.texture.is_some()
    }

    /// Queues a command as if the user had done it (for shortcuts and tests).
    pub fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Applies the queued commands.
    pub fn apply_commands(&mut self) {
        store_positions(&mut self.graph, &self.snarl);
        let mut edited = false;
        for command in std::mem::take(&mut self.commands) {
            edited |= self.apply(command);
        }
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
                self.history.seal();
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
            }
            Command::Open(path) => match Graph::load(&path) {
                Ok(loaded) => {
                    self.history.record(graph, None);
                    *graph = loaded;
                    self.status = format!("opened {}", path.display());
                    self.path_field = path.display().to_string();
                    self.path = Some(path);
                    self.selected = None;
                    self.snarl = to_snarl(graph);
                    self.changed();
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
                    self.status = "type a file name to save to".into();
                    return false;
                };
                match graph.save(&path) {
                    Ok(()) => {
                        self.status = format!("saved {}", path.display());
                        self.path_field = path.display().to_string();
                        self.path = Some(path);
                        self.modified = false;
                    }
                    Err(e) => self.status = format!("error: {e}"),
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

    /// After an edit: new errors, and renders for the preview and every node whose result
    /// may have changed.
    fn changed(&mut self) {
        self.generation += 1;
        self.errors.clear();
        for problem in validate(&self.graph) {
            if let Some(node) = problem.location.node.clone() {
                self.errors
                    .entry(node)
                    .or_insert_with(|| problem.to_string());
            }
        }
        let graph = Arc::new(self.graph.clone());
        self.request_preview(&graph);
        let ids: Vec<String> = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        self.thumbnails.retain(|id, _| ids.contains(id));
        self.signatures.retain(|id, _| ids.contains(id));
        for id in ids {
            let signature = signature(&self.graph, &id);
            if self.signatures.get(&id) == Some(&signature) {
                continue; // nothing that feeds this node changed
            }
            self.signatures.insert(id.clone(), signature);
            self.worker.submit(Job {
                slot: Slot::Thumbnail(id.clone()),
                generation: self.generation,
                graph: graph.clone(),
                node: Some((id, None)),
                width: THUMBNAIL_PIXELS,
                height: THUMBNAIL_PIXELS,
            });
        }
    }

    fn request_preview(&mut self, graph: &Arc<Graph>) {
        let size = self.preview.size;
        self.worker.submit(Job {
            slot: Slot::Preview,
            generation: self.generation,
            graph: graph.clone(),
            node: None,
            width: size,
            height: size,
        });
    }

    /// Takes the worker's finished renders.
    fn receive(&mut self, ctx: &egui::Context) {
        for done in self.worker.finished() {
            match (done.slot, done.result) {
                (Slot::Preview, Ok(image)) if done.generation >= self.shown_generation => {
                    self.shown_generation = done.generation;
                    self.preview
                        .show_image(ctx, &image, done.elapsed.as_secs_f64() * 1e3);
                }
                (Slot::Preview, Err(message)) => self.status = format!("preview: {message}"),
                (Slot::Thumbnail(id), Ok(image)) => {
                    let pixels = to_color_image(&image);
                    match self.thumbnails.get_mut(&id) {
                        Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
                        None => {
                            let texture = ctx.load_texture(
                                format!("thumb-{id}"),
                                pixels,
                                TextureOptions::LINEAR,
                            );
                            self.thumbnails.insert(id, texture);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn shortcuts(&mut self, ui: &mut Ui) {
        let typing = ui.ctx().egui_wants_keyboard_input();
        let mut commands = Vec::new();
        let mut copied = None;
        ui.input_mut(|i| {
            if i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y) {
                commands.push(Command::Redo);
            }
            if !typing && i.consume_shortcut(&UNDO) {
                commands.push(Command::Undo);
            }
            if i.consume_shortcut(&SAVE) {
                commands.push(Command::Save(None));
            }
            if i.consume_shortcut(&OPEN) && !self.path_field.is_empty() {
                commands.push(Command::Open(PathBuf::from(&self.path_field)));
            }
            if i.consume_shortcut(&NEW) {
                commands.push(Command::New);
            }
            if !typing {
                for event in &i.events {
                    if let egui::Event::Paste(text) = event {
                        commands.push(Command::Paste(text.clone()));
                    }
                }
            }
            if let Some(id) = self.selected.clone().filter(|_| !typing) {
                if i.events.iter().any(|e| matches!(e, egui::Event::Copy)) {
                    copied = Some(copy_json(&self.graph, std::slice::from_ref(&id)));
                }
                if i.consume_shortcut(&DUPLICATE) {
                    commands.push(Command::Duplicate(vec![id.clone()]));
                }
                if i.key_pressed(Key::Delete) {
                    commands.push(Command::Remove(vec![id]));
                }
            }
        });
        self.commands.extend(commands);
        if let Some(json) = copied {
            ui.ctx().copy_text(json);
            self.status = "copied the node as graph JSON".into();
        }
        // Space or Tab opens the palette where the pointer is.
        if !typing && ui.input(|i| i.key_pressed(Key::Space) || i.key_pressed(Key::Tab)) {
            let layer = egui::LayerId::new(egui::Order::Background, Id::new(CANVAS_ID));
            let at = ui
                .ctx()
                .pointer_hover_pos()
                .zip(ui.ctx().layer_transform_from_global(layer));
            self.palette_at = Some(at.map_or(Pos2::ZERO, |(p, from_screen)| from_screen * p));
        }
    }

    fn toolbar(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New").clicked() {
                self.commands.push(Command::New);
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.path_field)
                    .hint_text("graph file (.json)")
                    .desired_width(220.0),
            );
            if ui.button("Open").clicked() {
                self.commands
                    .push(Command::Open(PathBuf::from(&self.path_field)));
            }
            if ui.button("Save").clicked() {
                let path =
                    Some(PathBuf::from(&self.path_field)).filter(|p| !p.as_os_str().is_empty());
                self.commands.push(Command::Save(path));
            }
            ui.separator();
            if ui.button("Undo").clicked() {
                self.commands.push(Command::Undo);
            }
            if ui.button("Redo").clicked() {
                self.commands.push(Command::Redo);
            }
            ui.separator();
            let mut name = self.graph.name.clone().unwrap_or_default();
            ui.label("name");
            if ui
                .add(egui::TextEdit::singleline(&mut name).desired_width(100.0))
                .changed()
            {
                self.commands.push(Command::SetName(name));
            }
            let mut tileable = self.graph.settings.tileable;
            if ui.checkbox(&mut tileable, "tileable").changed() {
                self.commands.push(Command::SetTileable(tileable));
            }
            let mut time = self.graph.settings.time;
            ui.label("time");
            if ui
                .add(egui::DragValue::new(&mut time).speed(0.02))
                .changed()
            {
                self.commands.push(Command::SetTime(time));
            }
            if ui.button("Add node…").clicked() {
                self.palette_at = Some(Pos2::ZERO);
            }
        });
    }

    fn title(&self) -> String {
        let file = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("untitled".into(), |f| f.to_string_lossy().into_owned());
        format!(
            "{}{} — texgraph",
            if self.modified { "● " } else { "" },
            file
        )
    }
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

/// What a node's result depends on (its upstream nodes' types, params and inputs, and the
/// settings), so that a thumbnail is rendered again only when this changes.
fn signature(graph: &Graph, id: &str) -> String {
    let upstream = validate::upstream(graph, id);
    let mut nodes: Vec<_> = graph
        .nodes
        .iter()
        .filter(|n| upstream.contains(n.id.as_str()))
        .map(|n| {
            (
                &n.id,
                &n.kind,
                serde_json::to_string(&n.params).unwrap_or_default(),
                &n.inputs,
            )
        })
        .collect();
    nodes.sort_by(|a, b| a.0.cmp(b.0));
    format!(
        "{:?}{:?}",
        nodes,
        (graph.settings.tileable, graph.settings.time.to_bits())
    )
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.receive(ui.ctx());
        self.shortcuts(ui);
        let title = self.title();
        if title != self.shown_title {
            ui.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("{} nodes", self.graph.nodes.len()));
                ui.separator();
                let error = self.status.starts_with("error") || self.status.starts_with("cannot");
                let color = if error {
                    egui::Color32::from_rgb(230, 90, 80)
                } else {
                    ui.visuals().text_color()
                };
                ui.colored_label(color, &self.status);
            });
        });
        egui::Panel::right("side")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if let Some(id) = self.selected.clone() {
                        inspector::show(ui, &self.graph, &id, &mut self.commands);
                        ui.separator();
                    }
                    ui.heading("Preview");
                    if self.preview.show(ui) {
                        let graph = Arc::new(self.graph.clone());
                        self.generation += 1;
                        self.request_preview(&graph);
                    }
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let mut canvas = Canvas {
                graph: &self.graph,
                commands: &mut self.commands,
                errors: &self.errors,
                thumbnails: &self.thumbnails,
                filter: &mut self.filter,
                selected: self.selected.as_deref(),
            };
            SnarlWidget::new()
                .id(Id::new(CANVAS_ID))
                .style(self.style)
                .show(&mut self.snarl, &mut canvas, ui);
        });
        if let Some(at) = self.palette_at {
            let mut open = true;
            egui::Window::new("Add node")
                .open(&mut open)
                .collapsible(false)
                .show(ui.ctx(), |ui| {
                    if let Some(kind) = canvas::palette(ui, &mut self.filter) {
                        self.commands.push(Command::AddNode {
                            kind,
                            pos: Some(at),
                        });
                        self.palette_at = None;
                    }
                });
            if !open || ui.input(|i| i.key_pressed(Key::Escape)) {
                self.palette_at = None;
            }
        }
        self.apply_commands();
    }
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
