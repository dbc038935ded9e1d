//! The editor application. Drawing collects [`Command`]s; after the frame they are applied
//! to the graph (recording undo steps), the canvas is re-derived from it, and the worker
//! is asked for the renders the edit made stale. The document (graph, file, undo) is kept
//! apart from runtime state (worker, textures, dialogs).

mod commands;
mod controls;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui::{self, Id, Key, Pos2, TextureHandle, TextureOptions, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::{BackgroundPattern, PinPlacement, SnarlStyle, SnarlWidget};
use texgraph_core::{Graph, validate};

pub use self::commands::{Command, copy_json};
use crate::canvas::{self, Canvas};
use crate::document::to_snarl;
use crate::export::{ExportDialog, ExportJob};
use crate::files::{Answer, Files, Purpose, Then};
use crate::history::History;
use crate::inspector;
use crate::preview::{Preview, PreviewAction, to_color_image};
use crate::worker::{Job, Slot, Worker};

/// Id of the node canvas widget (framing all nodes starts a fresh view under a derived id).
pub const CANVAS_ID: &str = "canvas";
/// Side of the thumbnails rendered for nodes, in pixels.
pub const THUMBNAIL_PIXELS: u32 = 64;

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
    /// Nodes picked with Shift+click (the canvas's Shift+drag selection adds to these).
    pub picked: Vec<String>,
    /// The status bar's message.
    pub status: String,
    /// File dialogs, recent files and the unsaved-changes question.
    pub files: Files,
    /// The export dialog.
    pub export: ExportDialog,
    /// The preview panel.
    pub preview: Preview,
    snarl: Snarl<String>,
    style: SnarlStyle,
    /// Bumped by "frame all": the canvas starts a fresh view fitted to the nodes.
    view: u64,
    /// The fresh view is being set up this frame.
    framing: bool,
    history: History,
    worker: Worker,
    generation: u64,
    shown_generation: u64,
    thumbnails: HashMap<String, TextureHandle>,
    signatures: HashMap<String, String>,
    /// Problems by node id: validation's, plus what the compiler said when compiling a
    /// node for its thumbnail or the graph for the preview.
    errors: HashMap<String, String>,
    thumbnail_errors: HashMap<String, String>,
    preview_errors: HashMap<String, String>,
    filter: String,
    /// The open palette: where the node goes on the canvas (`None`: beside the others)
    /// and where the palette shows on screen.
    palette_at: Option<(Option<Pos2>, Pos2)>,
    commands: Vec<Command>,
    /// Save As is needed (a save without a file), with the action to do after it.
    ask_save_as: Option<Option<Then>>,
    /// The action to carry out after the save in progress succeeds.
    after_save: Option<Then>,
    /// An action cleared to go ahead (its question answered).
    then: Option<Then>,
    /// Closing was confirmed; the next close request goes through.
    closing: bool,
    /// When each preview still on its way was asked for, by generation.
    requested: std::collections::VecDeque<(u64, std::time::Instant)>,
    /// `TEXGRAPH_TRACE` is set: frame times and preview latencies go to stderr.
    trace: bool,
    /// The window title last sent (sending it every frame would keep the window redrawing).
    shown_title: String,
}

impl EditorApp {
    /// An editor showing `graph` (from `path`, if it came from a file); `ctx` is woken when
    /// renders finish. File dialogs are in-app until [`EditorApp::files`] says otherwise.
    pub fn new(ctx: &egui::Context, graph: Graph, path: Option<PathBuf>) -> Self {
        let wake = ctx.clone();
        let mut app = Self {
            snarl: to_snarl(&graph),
            graph,
            path,
            modified: false,
            selected: None,
            picked: Vec::new(),
            status: String::new(),
            files: Files::default(),
            export: ExportDialog::default(),
            preview: Preview::default(),
            style: SnarlStyle {
                pin_placement: Some(PinPlacement::Edge),
                bg_pattern: Some(BackgroundPattern::grid(egui::vec2(40.0, 40.0), 0.0)),
                ..SnarlStyle::new()
            },
            view: 0,
            framing: true,
            history: History::default(),
            worker: Worker::new(move || wake.request_repaint()),
            generation: 0,
            shown_generation: 0,
            thumbnails: HashMap::new(),
            signatures: HashMap::new(),
            errors: HashMap::new(),
            thumbnail_errors: HashMap::new(),
            preview_errors: HashMap::new(),
            filter: String::new(),
            palette_at: None,
            commands: Vec::new(),
            ask_save_as: None,
            after_save: None,
            then: None,
            closing: false,
            shown_title: String::new(),
            requested: std::collections::VecDeque::new(),
            trace: std::env::var_os("TEXGRAPH_TRACE").is_some(),
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

    /// The id of the canvas widget as currently shown.
    pub fn canvas_id(&self) -> Id {
        match self.view {
            0 => Id::new(CANVAS_ID),
            n => Id::new(CANVAS_ID).with(n),
        }
    }

    /// The nodes Delete, Duplicate and Copy act on: those picked (Shift+click on a title)
    /// or selected on the canvas (Shift+drag a rectangle, Shift+click a node's body), else
    /// the one in the inspector.
    pub fn selection(&self, ctx: &egui::Context) -> Vec<String> {
        let mut ids = self.picked.clone();
        for node in egui_snarl::ui::get_selected_nodes(self.canvas_id(), ctx) {
            if let Some(id) = self.snarl.get_node(node)
                && !ids.contains(id)
            {
                ids.push(id.clone());
            }
        }
        if ids.is_empty() {
            self.selected.iter().cloned().collect()
        } else {
            ids
        }
    }

    /// Any nodes' error messages, by node id.
    pub fn errors(&self) -> &HashMap<String, String> {
        &self.errors
    }

    /// After an edit: new errors, and renders for the preview and every node whose result
    /// may have changed.
    fn changed(&mut self) {
        self.generation += 1;
        let ids: Vec<String> = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        self.thumbnail_errors.retain(|id, _| ids.contains(id));
        self.preview_errors.retain(|id, _| ids.contains(id));
        self.collect_errors();
        let graph = Arc::new(self.graph.clone());
        self.request_preview();
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

    fn collect_errors(&mut self) {
        self.errors = self.preview_errors.clone();
        self.errors.extend(self.thumbnail_errors.clone());
        for problem in validate(&self.graph) {
            if let Some(node) = problem.location.node.clone() {
                self.errors.insert(node, problem.to_string());
            }
        }
    }

    /// Asks for the preview: the pinned node or the output, at the playback time if playing.
    fn request_preview(&mut self) {
        let mut graph = self.graph.clone();
        if let Some(time) = self.preview.playing {
            graph.settings.time = time;
        }
        if self
            .preview
            .pinned
            .as_ref()
            .is_some_and(|id| graph.node(id).is_none())
        {
            self.preview.pinned = None;
        }
        let size = self.preview.size;
        self.requested
            .push_back((self.generation, std::time::Instant::now()));
        if self.requested.len() > 64 {
            self.requested.pop_front();
        }
        self.worker.submit(Job {
            slot: Slot::Preview,
            generation: self.generation,
            graph: Arc::new(graph),
            node: self.preview.pinned.clone().map(|id| (id, None)),
            width: size,
            height: size,
        });
    }

    /// Takes the worker's finished renders.
    fn receive(&mut self, ctx: &egui::Context) {
        let mut errors_changed = false;
        for done in self.worker.finished() {
            match (done.slot, done.result) {
                (Slot::Preview, Ok(image)) if done.generation >= self.shown_generation => {
                    self.shown_generation = done.generation;
                    errors_changed |= !self.preview_errors.is_empty();
                    self.preview_errors.clear();
                    let asked = self.requested.iter().find(|(g, _)| *g == done.generation);
                    self.preview.latency = asked.map(|(_, at)| at.elapsed());
                    self.requested.retain(|(g, _)| *g > done.generation);
                    if self.trace
                        && let Some(latency) = self.preview.latency
                    {
                        eprintln!(
                            "preview {}x{} render_ms {:.2} latency_ms {:.2}",
                            image.width,
                            image.height,
                            done.elapsed.as_secs_f64() * 1e3,
                            latency.as_secs_f64() * 1e3
                        );
                    }
                    self.preview
                        .show_image(ctx, image, done.elapsed.as_secs_f64() * 1e3);
                }
                (Slot::Preview, Err(message)) if done.generation >= self.shown_generation => {
                    self.shown_generation = done.generation;
                    self.preview.show_error(message);
                    self.preview_errors = done.at_fault.into_iter().collect();
                    errors_changed = true;
                }
                (Slot::Thumbnail(id), Ok(image)) => {
                    errors_changed |= self.thumbnail_errors.remove(&id).is_some();
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
                // Only the node the compiler blames gets the red outline.
                (Slot::Thumbnail(id), Err(_)) if self.graph.node(&id).is_some() => {
                    if let Some((_, message)) = done.at_fault.into_iter().find(|(n, _)| *n == id) {
                        self.thumbnail_errors.insert(id, message);
                        errors_changed = true;
                    }
                }
                _ => {}
            }
        }
        if errors_changed {
            self.collect_errors();
        }
    }

    /// Goes ahead with `then` unless it would drop unsaved changes, in which case the
    /// person is asked first.
    pub fn request(&mut self, then: Then) {
        if self.modified {
            self.files.prompt = Some(then);
        } else {
            self.then = Some(then);
        }
    }

    /// Carries out an action that has been cleared.
    fn carry_out(&mut self, ctx: &egui::Context, then: Then) {
        match then {
            Then::New => self.commands.push(Command::New),
            Then::Open(path) => self.commands.push(Command::Open(path)),
            Then::PickOpen => {
                let start = self.path.clone();
                self.files.choose(ctx, Purpose::Open, start.as_deref());
            }
            Then::Quit => {
                self.closing = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Dialogs, dropped files, the close button, and what their answers set going.
    fn file_flow(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if ui.input(|i| i.viewport().close_requested()) && self.modified && !self.closing {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.files.prompt = Some(Then::Quit);
        }
        let dropped: Vec<PathBuf> = ui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.request(Then::Open(path));
        }
        let file = self.file_name();
        if let Some((answer, then)) = self.files.show_prompt(ui, &file) {
            match answer {
                Answer::Save => {
                    self.after_save = Some(then);
                    self.commands.push(Command::Save(None));
                }
                Answer::Discard => self.then = Some(then),
                Answer::Cancel => {}
            }
        }
        if let Some(then) = self.ask_save_as.take() {
            let start = self.path.clone();
            self.files
                .choose(&ctx, Purpose::SaveAs(then), start.as_deref());
        }
        if let Some((purpose, path)) = self.files.show(ui) {
            match purpose {
                Purpose::Open => self.commands.push(Command::Open(path)),
                Purpose::SaveAs(then) => {
                    self.after_save = then;
                    self.commands.push(Command::Save(Some(path)));
                }
                Purpose::Export => self.export.path = path.display().to_string(),
            }
        }
        if let Some(then) = self.then.take() {
            self.carry_out(&ctx, then);
        }
        if self.export.show(ui, &self.graph, &mut self.files) {
            let wake = ctx.clone();
            let request = self.export.request();
            self.export.message.clear();
            self.export.job = Some(ExportJob::start(self.graph.clone(), request, move || {
                wake.request_repaint()
            }));
        }
    }

    fn file_name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("untitled".into(), |f| f.to_string_lossy().into_owned())
    }

    fn title(&self) -> String {
        format!(
            "{}{} — texgraph",
            if self.modified { "*" } else { "" },
            self.file_name()
        )
    }

    fn side_panel(&mut self, ui: &mut Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            if let Some(id) = self.selected.clone() {
                inspector::show(ui, &self.graph, &id, &mut self.commands);
                if self.preview.pinned.as_deref() != Some(&id)
                    && ui.button("Show in preview").clicked()
                {
                    self.commands.push(Command::Pin(Some(id)));
                }
                ui.separator();
            }
            ui.heading("Preview");
            let time = self
                .graph
                .nodes
                .iter()
                .any(|n| n.kind == "time")
                .then_some(self.graph.settings.time);
            for action in self.preview.show(ui, time) {
                match action {
                    PreviewAction::Render => {
                        self.generation += 1;
                        self.request_preview();
                    }
                    PreviewAction::SetTime(time) => self.commands.push(Command::SetTime(time)),
                }
            }
        });
    }
}

/// Corners of the node positions, or `None` for an empty graph.
fn framing_bounds(graph: &Graph) -> Option<egui::Rect> {
    let mut bounds = egui::Rect::NOTHING;
    for node in &graph.nodes {
        bounds.extend_with(egui::pos2(node.pos[0], node.pos[1]));
    }
    bounds.is_finite().then_some(bounds)
}

/// The rectangle in which egui-snarl's first view of nodes whose top-left corners span
/// `corners` shows the whole nodes centred in `full`. Its first view puts the corners,
/// widened by 100 points, in the middle at the largest scale that fits; here the scale and
/// centre come from the node rectangles (a typical node size added) instead.
fn fitting_rect(full: egui::Rect, corners: Option<egui::Rect>) -> egui::Rect {
    const NODE: egui::Vec2 = egui::vec2(200.0, 170.0);
    let Some(corners) = corners else {
        return full;
    };
    let snarl_bounds = corners.expand(100.0);
    let nodes = egui::Rect::from_min_max(corners.min, corners.max + NODE).expand(40.0);
    let scale = (full.size() / nodes.size()).min_elem().clamp(0.2, 2.0);
    let center = full.center() - (nodes.center() - snarl_bounds.center()) * scale;
    egui::Rect::from_center_size(center, snarl_bounds.size() * scale)
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
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        if self.trace
            && let Some(cpu) = frame.info().cpu_usage
        {
            let dt = ui.input(|i| i.unstable_dt);
            eprintln!("frame cpu_ms {:.2} dt_ms {:.2}", cpu * 1e3, dt * 1e3);
        }
        self.receive(ui.ctx());
        self.shortcuts(ui);
        let title = self.title();
        if title != self.shown_title {
            ui.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::right("side")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| self.side_panel(ui));
        let canvas_id = self.canvas_id();
        let framing = std::mem::take(&mut self.framing).then(|| framing_bounds(&self.graph));
        egui::CentralPanel::default().show(ui, |ui| {
            let mut canvas = Canvas {
                graph: &self.graph,
                commands: &mut self.commands,
                errors: &self.errors,
                thumbnails: &self.thumbnails,
                filter: &mut self.filter,
                selected: self.selected.as_deref(),
                picked: &self.picked,
                pinned: self.preview.pinned.as_deref(),
            };
            let widget = SnarlWidget::new().id(canvas_id).style(self.style);
            match framing {
                // A fresh view fits the rectangle it is first shown in: pick the one that
                // makes it fit the nodes (egui-snarl frames node corners, not node sizes).
                Some(bounds) => {
                    let rect = fitting_rect(ui.available_rect_before_wrap(), bounds);
                    ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                        widget.show(&mut self.snarl, &mut canvas, ui);
                    });
                }
                None => {
                    widget.show(&mut self.snarl, &mut canvas, ui);
                }
            }
        });
        if let Some((at, screen)) = self.palette_at {
            let mut open = true;
            egui::Window::new("Add node")
                .open(&mut open)
                .collapsible(false)
                .current_pos(screen)
                .show(ui.ctx(), |ui| {
                    if let Some(kind) = canvas::palette(ui, &mut self.filter) {
                        self.commands.push(Command::AddNode { kind, pos: at });
                        self.palette_at = None;
                    }
                });
            if !open || ui.input(|i| i.key_pressed(Key::Escape)) {
                self.palette_at = None;
            }
        }
        self.file_flow(ui);
        self.apply_commands();
        if ui.input(|i| i.pointer.any_released()) {
            self.history.seal(); // a drag (of nodes or a slider) ended: its edits are one step
        }
    }
}
