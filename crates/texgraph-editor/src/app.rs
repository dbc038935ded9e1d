//! The editor application. Drawing collects [`Command`]s; after the frame they are applied
//! to the graph (recording undo steps), the canvas is re-derived from it, and the worker
//! is asked for the renders the edit made stale. The document (graph, file, undo) is kept
//! apart from runtime state (worker, textures, dialogs).

mod commands;
mod controls;
mod file_flow;
mod renders;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use eframe::egui::{self, Id, Key, Pos2, TextureHandle, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::{BackgroundPattern, PinPlacement, SnarlStyle, SnarlWidget};
use texgraph_core::Graph;

pub use self::commands::{Command, copy_json};
use crate::canvas::{self, Canvas};
use crate::document::to_snarl;
use crate::export::ExportDialog;
use crate::files::{Files, Then};
use crate::history::History;
use crate::inspector;
use crate::preview::{Preview, PreviewAction};
use crate::worker::Worker;

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
        self.apply_commands(ui.input(|i| i.pointer.any_released()));
        if ui.input(|i| i.pointer.any_released()) {
            self.history.seal(); // a drag (of nodes or a slider) ended: its edits are one step
        }
    }
}
