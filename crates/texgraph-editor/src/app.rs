//! The editor application. Drawing collects [`Command`]s; after the frame they are applied
//! to the graph (recording undo steps), the canvas is re-derived from it, and the worker
//! is asked for the renders the edit made stale. The document (graph, file, undo) is kept
//! apart from runtime state (worker, textures, dialogs).

mod commands;
mod comment_edits;
mod controls;
mod documents;
mod edits;
mod file_flow;
mod renders;
mod selection;
mod subgraph_edits;
mod trail;
mod wire_menu;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use eframe::egui::{self, Id, Key, Pos2, TextureHandle, Ui};
use egui_snarl::Snarl;
use egui_snarl::ui::{BackgroundPattern, PinPlacement, SnarlStyle, SnarlWidget};
use texgraph_core::Graph;

pub use self::commands::copy_json;
use crate::command::{Command, DroppedWire};
use crate::document::{arrange, needs_arranging, to_snarl};
use crate::files::{Files, Then};
use crate::history::History;
use crate::jobs::preview::Worker;
use crate::panels::canvas::{self, Canvas, PaletteState, ViewRequest};
use crate::panels::comments;
use crate::panels::export_dialog::ExportDialog;
use crate::panels::inspector;
use crate::panels::library::DraggedGraph;
use crate::panels::preview::{Preview, PreviewAction};
use crate::recovery::{Autosave, Recovered};
use crate::settings::Settings;

/// Id of the node canvas widget.
pub const CANVAS_ID: &str = "canvas";
/// Id of the node palette's window.
pub const PALETTE_ID: &str = "palette_window";
/// The hint an empty canvas shows.
pub const EMPTY_HINT: &str = "Right-click, Space or Tab to add a node";
/// Seconds a status message stays.
pub const STATUS_SECONDS: f64 = 8.0;
/// The least height the inspector keeps above the preview, however large the preview is
/// made: a heading and a few rows of params.
pub const INSPECTOR_MIN_HEIGHT: f32 = 200.0;
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
    /// The comment shown in the inspector.
    pub selected_comment: Option<usize>,
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
    /// The preview's 3D tab: the material on a lit shape.
    pub ball: crate::panels::ball_view::BallView,
    /// The 3D tab is showing (its maps are rendered instead of the 2D preview).
    pub show_3d: bool,
    /// Settings kept between runs (the UI scale).
    pub settings: Settings,
    /// The recovery copy of unsaved edits (off until [`Autosave::for_desktop`] is set).
    pub autosave: Autosave,
    /// Unsaved work left by editors that did not close cleanly, offered for restoring.
    pub recoveries: Vec<Recovered>,
    /// Looks for work other editors leave behind while this one runs (off until
    /// [`crate::recovery::Watch::for_desktop`] is set).
    pub recovery_watch: crate::recovery::Watch,
    history: History,
    commands: Vec<Command>,
    /// The library panel: graph files to add as subgraph nodes.
    library: crate::panels::library::Library,
    /// Whether the graph moves with time (a `time` node, its subgraphs' included).
    animated: bool,
    /// The graphs parked on the way into the subgraph shown, and those left unsaved.
    navigation: crate::navigation::Navigation,
    /// The node canvas.
    canvas: CanvasState,
    /// The previews' and thumbnails' renders.
    renders: RenderState,
    /// Problems found in the graph.
    problems: Problems,
    /// Questions and actions waiting.
    pending: Pending,
    /// The files the graph reads.
    watch: FileWatch,
    /// The window's own state.
    window: Window,
}

/// What the node canvas shows and keeps between frames.
struct CanvasState {
    /// egui-snarl's nodes and wires, derived from the graph after each edit.
    snarl: Snarl<String>,
    /// How egui-snarl draws them.
    style: SnarlStyle,
    /// View changes for the canvas this frame (frame all, wheel zoom).
    view: ViewRequest,
    /// Frame nodes on the next frame, no smaller than this scale: those listed, or all.
    framing: Option<(f32, Option<Vec<String>>)>,
    /// The node being renamed and the id typed so far.
    renaming: Option<(String, String)>,
    /// Where the canvas was drawn last (screen).
    canvas_rect: egui::Rect,
    /// The node palette's search and choice.
    palette: PaletteState,
    /// The open palette: where the node goes on the canvas (`None`: beside the others)
    /// and where the palette shows on screen.
    palette_at: Option<(Option<Pos2>, Pos2)>,
    /// The wire dropped on empty canvas that opened the palette, which the node chosen
    /// takes.
    palette_wire: Option<DroppedWire>,
    /// Nodes just created, to be given fresh canvas ids on the next frame: egui-snarl
    /// draws a node it has not seen above the others, and the nodes taken out of the
    /// canvas's selection as these were created got fresh ids in the same frame.
    raise: Vec<String>,
    /// The open menu of a wire (right-clicked).
    wire_menu: Option<wire_menu::WireMenu>,
    /// Nodes just added, each with the frames it has waited to be drawn: placed by an
    /// estimate of their size, they move clear of any node they turn out to cover.
    settle: Vec<(String, u8)>,
    /// Take every node out of the canvas's own selection after this frame's commands
    /// (a click on one node or on empty canvas, or new nodes becoming the selection).
    deselect_canvas: bool,
    /// The sizes the canvas drew the nodes at.
    sizes: crate::document::DrawnSizes,
}

/// The renders: asked for, on their way and shown, with what they found.
struct RenderState {
    /// The thread that renders them.
    worker: Worker,
    /// Increases with every edit or change on disk; renders carry it back.
    generation: u64,
    /// The generation the preview shows.
    shown_generation: u64,
    /// Each node's thumbnail.
    thumbnails: HashMap<String, TextureHandle>,
    /// What each thumbnail was rendered from, to tell which an edit made stale.
    signatures: HashMap<String, String>,
    /// What the compiler said when compiling each node's thumbnail.
    thumbnail_errors: HashMap<String, String>,
    /// What the compiler said when compiling the preview.
    preview_errors: HashMap<String, String>,
    /// The nodes the preview's or a thumbnail's program computes over the whole image
    /// first (badged), and those of each render.
    stage_nodes: std::collections::HashSet<String>,
    stages_by_slot: HashMap<crate::jobs::preview::Slot, Vec<String>>,
    /// When each preview still on its way was asked for, by generation.
    requested: std::collections::VecDeque<(u64, web_time::Instant)>,
    /// Stops the full preview render last asked for, when a newer one replaces it.
    preview_cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The generation of the draft shown last.
    draft_generation: u64,
    /// Seconds per pixel the last draft took (compiling included), which sizes the next.
    draft_cost: Option<f64>,
    /// The graph time each thumbnail shows.
    thumbnail_times: HashMap<String, f32>,
    /// The graph inputs a fed preview reads from the graph above, and what feeds each.
    fed_inputs: HashMap<String, String>,
}

impl RenderState {
    /// When the render of `generation` was asked for, if it still waited; it and every
    /// older one wait no more.
    fn answered(&mut self, generation: u64) -> Option<web_time::Instant> {
        let asked = self
            .requested
            .iter()
            .find(|(g, _)| *g == generation)
            .map(|(_, at)| *at);
        self.requested.retain(|(g, _)| *g > generation);
        asked
    }
}

/// Validation's findings by node id.
struct Problems {
    /// Problems by node id: validation's, plus what the compiler said when compiling a
    /// node for its thumbnail or the graph for the preview.
    errors: HashMap<String, String>,
    /// Validation's warnings by node id (unfinished nodes no output uses).
    warnings: HashMap<String, String>,
}

/// Questions and actions waiting on the user or on a file operation.
struct Pending {
    /// Save As is needed (a save without a file), with the action to do after it.
    ask_save_as: Option<Option<Then>>,
    /// A file param waiting for its chooser: (node, param).
    choose_file: Option<(String, String)>,
    /// The 3D view asked for an environment file.
    choose_environment: bool,
    /// The action to carry out after the save in progress succeeds.
    after_save: Option<Then>,
    /// An action cleared to go ahead (its question answered).
    then: Option<Then>,
    /// Closing was confirmed; the next close request goes through.
    closing: bool,
}

/// The files the graph reads, watched for changes on disk.
struct FileWatch {
    /// The files the graph reads, with their modification times, and when they were
    /// last looked at.
    file_stamps: Vec<(String, Option<std::time::SystemTime>)>,
    files_checked: web_time::Instant,
}

/// The window: its scale, title and status line, and the context it draws in.
struct Window {
    /// The settings' UI scale has been applied to the window.
    scaled: bool,
    /// The status message shown and when it was first shown (egui time).
    status_shown: (String, f64),
    /// `TEXGRAPH_TRACE` is set: frame times and preview latencies go to stderr.
    trace: bool,
    /// The window title last sent (sending it every frame would keep the window redrawing).
    shown_title: String,
    /// The context the editor draws in (to read the canvas's selection between frames).
    ctx: egui::Context,
    /// The graph file whose 3D view the 3D tab shows (restored from the settings).
    view_of: Option<PathBuf>,
}

impl EditorApp {
    /// An editor showing `graph` (from `path`, if it came from a file); `ctx` is woken when
    /// renders finish. File dialogs are in-app until [`EditorApp::files`] says otherwise.
    pub fn new(ctx: &egui::Context, mut graph: Graph, path: Option<PathBuf>) -> Self {
        let wake = ctx.clone();
        if needs_arranging(&graph) {
            arrange(&mut graph, &Default::default());
        }
        ctx.options_mut(|o| {
            // Wheel zoom with Ctrl as gentle as without (egui's default jumps).
            o.input_options.scroll_zoom_speed = canvas::WHEEL_ZOOM_PER_POINT;
            // A field being typed in applies its value as soon as anything else is pressed
            // (a drag elsewhere included), so that the two are separate steps in order.
            o.input_options.surrender_focus_on = egui::SurrenderFocusOn::Presses;
        });
        let mut app = Self {
            canvas: CanvasState {
                snarl: to_snarl(&graph),
                style: SnarlStyle {
                    pin_placement: Some(PinPlacement::Edge),
                    bg_pattern: Some(BackgroundPattern::grid(egui::vec2(40.0, 40.0), 0.0)),
                    min_scale: Some(canvas::MIN_SCALE),
                    ..SnarlStyle::new()
                },
                view: ViewRequest::default(),
                framing: Some((canvas::MIN_SCALE, None)),
                renaming: None,
                canvas_rect: egui::Rect::NOTHING,
                palette: PaletteState::default(),
                palette_at: None,
                palette_wire: None,
                wire_menu: None,
                settle: Vec::new(),
                raise: Vec::new(),
                deselect_canvas: false,
                sizes: Default::default(),
            },
            graph,
            path,
            modified: false,
            selected: None,
            selected_comment: None,
            picked: Vec::new(),
            status: String::new(),
            files: Files::default(),
            export: ExportDialog::default(),
            preview: Preview::default(),
            ball: crate::panels::ball_view::BallView::new(
                {
                    let wake = ctx.clone();
                    move |after| wake.request_repaint_after(after)
                },
                std::env::var_os("TEXGRAPH_TRACE").is_some(),
            ),
            show_3d: false,
            settings: Settings::default(),
            autosave: Autosave::off(),
            recoveries: Vec::new(),
            recovery_watch: crate::recovery::Watch::off(),
            window: Window {
                scaled: false,
                status_shown: (String::new(), 0.0),
                shown_title: String::new(),
                trace: std::env::var_os("TEXGRAPH_TRACE").is_some(),

                ctx: ctx.clone(),
                view_of: None,
            },
            history: History::default(),
            renders: RenderState {
                worker: Worker::new(move || wake.request_repaint()),
                generation: 0,
                shown_generation: 0,
                thumbnails: HashMap::new(),
                signatures: HashMap::new(),
                thumbnail_errors: HashMap::new(),
                preview_errors: HashMap::new(),
                stage_nodes: Default::default(),
                stages_by_slot: HashMap::new(),
                requested: std::collections::VecDeque::new(),
                preview_cancel: None,
                draft_generation: 0,
                draft_cost: None,
                thumbnail_times: HashMap::new(),
                fed_inputs: HashMap::new(),
            },
            problems: Problems {
                errors: HashMap::new(),
                warnings: HashMap::new(),
            },
            commands: Vec::new(),
            pending: Pending {
                ask_save_as: None,
                choose_file: None,
                choose_environment: false,
                after_save: None,
                then: None,
                closing: false,
            },
            watch: FileWatch {
                file_stamps: Vec::new(),
                files_checked: web_time::Instant::now(),
            },
            library: Default::default(),
            animated: false,
            navigation: Default::default(),
        };
        app.changed();
        app
    }

    /// An editor with the file at `path` loaded.
    pub fn open(ctx: &egui::Context, path: &Path) -> Result<Self, String> {
        let graph = Graph::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Self::new(ctx, graph, Some(path.to_owned())))
    }

    /// Whether node `id` shows a thumbnail.
    pub fn has_thumbnail(&self, id: &str) -> bool {
        self.renders.thumbnails.contains_key(id)
    }

    /// The graph time node `id`'s thumbnail was rendered at, if it shows one.
    pub fn thumbnail_time(&self, id: &str) -> Option<f32> {
        self.renders
            .thumbnail_times
            .get(id)
            .copied()
            .filter(|_| self.renders.thumbnails.contains_key(id))
    }

    /// How many times renders were asked for (one more with each edit or change on disk).
    pub fn renders_asked(&self) -> u64 {
        self.renders.generation
    }

    /// Whether the preview shows the latest render asked for (none is on its way).
    pub fn preview_is_current(&self) -> bool {
        self.renders.shown_generation == self.renders.generation && self.has_preview()
    }

    /// Whether a preview image is showing.
    pub fn has_preview(&self) -> bool {
        self.preview.texture.is_some()
    }

    /// Queues a command as if the user had done it (for shortcuts and tests).
    pub fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// The id of the canvas widget.
    pub fn canvas_id(&self) -> Id {
        Id::new(CANVAS_ID)
    }

    /// Where the canvas was drawn last (screen).
    pub fn canvas_rect(&self) -> egui::Rect {
        self.canvas.canvas_rect
    }

    /// Where each node is drawn on the canvas (canvas units), as of the last frame.
    pub fn node_rects(&self) -> Vec<(String, egui::Rect)> {
        self.canvas
            .snarl
            .nodes_pos_ids()
            .filter_map(|(_, pos, id)| {
                let node = self.graph.node(id)?;
                Some((
                    id.clone(),
                    crate::document::node_rect(node, pos, &self.canvas.sizes),
                ))
            })
            .collect()
    }

    /// Whether the node palette is open.
    pub fn palette_open(&self) -> bool {
        self.canvas.palette_at.is_some()
    }

    /// What is typed in the node palette's search.
    pub fn palette_filter(&self) -> &str {
        &self.canvas.palette.filter
    }

    /// The canvas's current scale (1: nodes at their natural size).
    pub fn canvas_scale(&self) -> f32 {
        self.canvas.view.scale
    }

    /// The nodes Delete, Duplicate and Copy act on: those picked (Shift+click on a title)
    /// or selected on the canvas (Shift+drag a rectangle, Shift+click a node's body), else
    /// the one in the inspector.
    pub fn selection(&self, ctx: &egui::Context) -> Vec<String> {
        let mut ids = self.picked.clone();
        for node in egui_snarl::ui::get_selected_nodes(self.canvas_id(), ctx) {
            if let Some(id) = self.canvas.snarl.get_node(node)
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
        &self.problems.errors
    }

    /// Any nodes' warnings, by node id.
    pub fn warnings(&self) -> &HashMap<String, String> {
        &self.problems.warnings
    }

    /// The nodes badged as ending a raster stage.
    pub fn stage_nodes(&self) -> &std::collections::HashSet<String> {
        &self.renders.stage_nodes
    }

    fn title(&self) -> String {
        format!(
            "{}{} — texgraph",
            if self.modified { "*" } else { "" },
            self.file_name()
        )
    }

    /// The side panel: the inspector above, scrolling on its own, and the preview below in
    /// a part of its own the person can resize, so neither pushes the other out.
    fn side_panel(&mut self, ui: &mut Ui) {
        let height = ui.available_height();
        let default = (height * 0.5).max(240.0);
        // The image takes what the part's size (last frame's, as the person left it) leaves
        // beside the heading, controls, statistics and histogram; so it never makes the part
        // grow over the inspector.
        let part = egui::containers::panel::PanelState::load(ui.ctx(), Id::new("preview_panel"))
            .map_or(default, |state| state.size().y);
        // The timeline's two rows, when the graph moves.
        let timeline = if self.animated { 56.0 } else { 0.0 };
        self.preview.max_side = part - 170.0 - timeline;
        // The 3D tab's controls and maps take about as much room as the 2D statistics.
        self.ball.max_side = part - 230.0;
        egui::Panel::bottom("preview_panel")
            .resizable(true)
            .default_size(default)
            .size_range(160.0..=(height - INSPECTOR_MIN_HEIGHT).max(160.0))
            .show(ui, |ui| {
                // Both ways: content wider than the panel scrolls instead of widening it.
                egui::ScrollArea::both()
                    .id_salt("preview_scroll")
                    .auto_shrink(false)
                    .show(ui, |ui| self.preview_part(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::both()
                .id_salt("inspector_scroll")
                .auto_shrink(false)
                .show(ui, |ui| match self.selected.clone() {
                    None if self.selected_comment.is_some() => {
                        let index = self.selected_comment.unwrap_or_default();
                        comments::inspector(ui, &self.graph, index, &mut self.commands);
                    }
                    Some(id) => {
                        inspector::show(ui, &self.graph, &id, &mut self.commands);
                        if self.preview.pinned.as_deref() != Some(&id)
                            && ui.button("Show in preview").clicked()
                        {
                            self.commands.push(Command::Pin(Some(id)));
                        }
                    }
                    None => {
                        ui.weak("Click a node's title to edit its params.");
                        ui.separator();
                        let folder = self.folder();
                        if let Some(file) = self.library.show(ui, &folder, self.path.as_deref()) {
                            self.commands.push(Command::AddSubgraph { file, pos: None });
                        }
                    }
                });
        });
    }

    fn preview_part(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.heading("Preview");
            let mut show_3d = self.show_3d;
            ui.selectable_value(&mut show_3d, false, "2D")
                .on_hover_text("the output (or the node shown) as a flat image");
            ui.selectable_value(&mut show_3d, true, "3D")
                .on_hover_text("the material on a lit shape");
            if show_3d != self.show_3d {
                self.show_3d = show_3d;
                self.renders.generation += 1;
                self.request_preview();
            }
        });
        if self.show_3d {
            let has_material =
                !texgraph_core::export::material::material_outputs(&self.graph).is_empty();
            // A drag that fed the shape smaller maps ended: the maps at their size.
            let resting = !ui.input(|i| i.pointer.any_down());
            if resting
                && self.ball.has_draft_maps()
                && self.renders.shown_generation == self.renders.generation
            {
                self.renders.generation += 1;
                self.request_preview();
            }
            for action in self.ball.show(ui, has_material) {
                match action {
                    crate::panels::ball_view::BallAction::RenderMaps => {
                        self.renders.generation += 1;
                        self.request_preview();
                    }
                    crate::panels::ball_view::BallAction::ChooseEnvironment => {
                        self.pending.choose_environment = true;
                    }
                    crate::panels::ball_view::BallAction::CopyCommand => match &self.path {
                        Some(path) => {
                            ui.ctx().copy_text(self.ball.command(path));
                            self.status = "copied the command that renders this view".into();
                        }
                        None => {
                            self.status =
                                "save the graph to a file first: the command reads it".into();
                        }
                    },
                }
            }
            return;
        }
        let time = self.animated.then_some(self.graph.settings.time);
        for action in self.preview.show(ui, time) {
            match action {
                PreviewAction::Render => {
                    self.renders.generation += 1;
                    self.request_preview();
                }
                PreviewAction::SetTime(time) => self.commands.push(Command::SetTime(time)),
            }
        }
    }

    /// The canvas, with the wheel turned into zoom and the hint of an empty graph.
    fn canvas(&mut self, ui: &mut Ui) {
        self.breadcrumb(ui);
        let rect = ui.available_rect_before_wrap();
        if let Some((min_scale, only)) = self.canvas.framing.take() {
            self.canvas.view.frame = Some((rect, min_scale));
            self.canvas.view.frame_only = only.clone();
            // Nodes not drawn yet (a graph just shown) have no measured size: frame
            // again once they have.
            if self.canvas.sizes.is_empty() {
                self.canvas.framing = Some((min_scale, only));
            }
        }
        // The wheel zooms the canvas about the pointer (about 8% a wheel step), as in other
        // node editors; Ctrl+wheel and pinch arrive as egui's own zoom.
        if ui.rect_contains_pointer(rect)
            && let Some(pointer) = ui.ctx().pointer_hover_pos()
        {
            let scroll = ui.input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta));
            let amount = scroll.x + scroll.y;
            if amount != 0.0 {
                self.canvas.view.zoom =
                    Some((pointer, (amount * canvas::WHEEL_ZOOM_PER_POINT).exp()));
            }
        }
        // The inspector shows a node of the selection: the last one selected on the
        // canvas when a rectangle selected others.
        let canvas_selected: Vec<String> =
            egui_snarl::ui::get_selected_nodes(self.canvas_id(), ui.ctx())
                .into_iter()
                .filter_map(|n| self.canvas.snarl.get_node(n).cloned())
                .collect();
        if let Some(last) = canvas_selected.last()
            && self.selected_comment.is_none()
            && self
                .selected
                .as_ref()
                .is_none_or(|s| !canvas_selected.contains(s) && !self.picked.contains(s))
        {
            self.selected = Some(last.clone());
        }
        let selection = self.selection(ui.ctx());
        let mut canvas = Canvas {
            graph: &self.graph,
            commands: &mut self.commands,
            errors: &self.problems.errors,
            warnings: &self.problems.warnings,
            thumbnails: &self.renders.thumbnails,
            selected: self.selected.as_deref(),
            selected_comment: self.selected_comment,
            selection: &selection,
            pinned: self.preview.pinned.as_deref(),
            view: &mut self.canvas.view,
            renaming: &mut self.canvas.renaming,
            stages: &self.renders.stage_nodes,
            sizes: &mut self.canvas.sizes,
        };
        // Text on nodes is not selectable: a drag that starts on a pin's name is a drag
        // on the canvas (a rectangle with Shift), never a text selection.
        ui.style_mut().interaction.selectable_labels = false;
        let response = SnarlWidget::new()
            .id(Id::new(CANVAS_ID))
            .style(self.canvas.style)
            .show(&mut self.canvas.snarl, &mut canvas, ui);
        // A click on empty canvas (not on a node: nodes take their own clicks) selects
        // nothing, as in other node editors; Shift+click is left to adding to a selection.
        if response.clicked() && !ui.input(|i| i.modifiers.shift || i.modifiers.command) {
            self.commands.push(Command::Select(None));
            self.commands.push(Command::SelectComment(None));
        }
        // Comment title bars and handles go on the canvas's own layer, after the nodes, so
        // they take the pointer where they show.
        let layer = egui::LayerId::new(ui.layer_id().order, Id::new(CANVAS_ID));
        comments::interact(ui, layer, &self.graph, &mut self.commands);
        self.drop_from_library(ui, rect);
        self.canvas.canvas_rect = rect;
        if self.graph.nodes.iter().all(|n| n.kind == "output") {
            egui::Area::new(Id::new("empty_hint"))
                .order(egui::Order::Middle)
                .interactable(false)
                .pivot(egui::Align2::CENTER_CENTER)
                .fixed_pos(rect.center() + egui::vec2(0.0, rect.height() * 0.25))
                .show(ui.ctx(), |ui| {
                    ui.label(egui::RichText::new(EMPTY_HINT).size(16.0).weak());
                });
        }
    }
}

impl EditorApp {
    /// A graph file dragged from the library panel and let go over the canvas becomes a
    /// subgraph node there.
    fn drop_from_library(&mut self, ui: &Ui, rect: egui::Rect) {
        let ctx = ui.ctx();
        if !egui::DragAndDrop::has_payload_of_type::<DraggedGraph>(ctx) {
            return;
        }
        let Some(pointer) = ctx.pointer_interact_pos().filter(|p| rect.contains(*p)) else {
            return;
        };
        ctx.set_cursor_icon(egui::CursorIcon::Copy);
        if ui.input(|i| i.pointer.any_released())
            && let Some(dragged) = egui::DragAndDrop::take_payload::<DraggedGraph>(ctx)
        {
            self.commands.push(Command::AddSubgraph {
                file: dragged.0.clone(),
                pos: Some(self.canvas.view.to_screen.inverse() * pointer),
            });
        }
    }

    /// Writes the recovery copy when edits are due, or at once when a signal is ending the
    /// process; offers the work other editors left behind (before this one started, or
    /// while it runs).
    fn keep_recovery_copy(&mut self, ctx: &egui::Context) {
        let path = self.path.clone();
        let unsaved = self.unsaved_anywhere();
        self.autosave.shown_modified = self.modified;
        if crate::recovery::ending() {
            if unsaved {
                self.autosave
                    .write_now(&self.graph, path.as_deref(), self.renders.generation);
            }
            crate::recovery::ready_to_end();
            return;
        }
        let now = web_time::Instant::now();
        let next = self.autosave.tick(
            &self.graph,
            path.as_deref(),
            self.renders.generation,
            unsaved,
            now,
        );
        if let Some(wait) = next {
            ctx.request_repaint_after(wait);
        }
        if let Some(failure) = self.autosave.failure.take() {
            self.status = format!("error: {failure}");
        }
        // Not only at start-up: an editor killed while this one runs leaves work too.
        let own = self.autosave.store().map(Path::to_path_buf);
        if let Some(wait) = self
            .recovery_watch
            .look(now, &mut self.recoveries, own.as_deref())
        {
            ctx.request_repaint_after(wait);
        }
        self.recovery_question(ctx);
    }

    /// Writes the recovery copy at once when anything is unsaved (the web page, before it
    /// loads again).
    pub fn keep_unsaved_now(&mut self) {
        if self.unsaved_anywhere() {
            let path = self.path.clone();
            self.autosave
                .write_now(&self.graph, path.as_deref(), self.renders.generation);
        }
    }

    /// The work left behind the editor is offering to restore, by name, while it asks.
    pub fn offering_recovery(&self) -> Option<String> {
        self.recoveries.first().map(|found| found.names())
    }

    /// "Restore unsaved work?" for the first recovery left behind.
    fn recovery_question(&mut self, ctx: &egui::Context) {
        let Some(found) = self.recoveries.first().cloned() else {
            return;
        };
        let mut answer = None;
        egui::Modal::new(Id::new("recovery_question")).show(ctx, |ui| {
            ui.set_width(440.0);
            ui.heading("Restore unsaved work?");
            let how = if cfg!(target_arch = "wasm32") {
                "A texgraph page was closed or reloaded with unsaved work."
            } else {
                "texgraph did not close normally."
            };
            ui.label(format!(
                "{how} Unsaved changes to {} were kept at {}.",
                texgraph_core::text::printable(&found.names()),
                crate::recovery::when(found.saved_at)
            ));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Restore").clicked() {
                    answer = Some(true);
                }
                if ui.button("Discard").clicked() {
                    answer = Some(false);
                }
            });
        });
        let Some(restore) = answer else {
            return;
        };
        self.recoveries.remove(0);
        if restore {
            // Asked first when this editor has unsaved work of its own: restoring replaces
            // it. The recovery file goes once the work is shown (kept if the answer is
            // Cancel: the next start offers it again).
            self.request(crate::files::Then::Restore(Box::new(found)));
        } else {
            self.status = format!("discarded the unsaved changes to {}", found.name());
            found.forget();
        }
    }
}

/// Which corner of the palette goes at `pointer`: its top-left, as a menu opens, unless
/// that would run off the window; then it opens up or to the left, so it stays at the
/// pointer rather than being pushed back on screen somewhere else.
fn palette_pivot(ctx: &egui::Context, pointer: Pos2) -> egui::Align2 {
    // Its size when last shown, else about what it takes.
    let size = ctx
        .memory(|m| m.area_rect(Id::new(PALETTE_ID)))
        .map_or(egui::vec2(340.0, 420.0), |r| r.size());
    let screen = ctx.content_rect();
    let x = if pointer.x + size.x > screen.right() {
        egui::Align::Max
    } else {
        egui::Align::Min
    };
    let y = if pointer.y + size.y > screen.bottom() {
        egui::Align::Max
    } else {
        egui::Align::Min
    };
    egui::Align2([x, y])
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        if self.window.trace
            && let Some(cpu) = frame.info().cpu_usage
        {
            let (dt, time) = ui.input(|i| (i.unstable_dt, i.time));
            eprintln!(
                "frame cpu_ms {:.2} dt_ms {:.2} at_ms {:.1}",
                cpu * 1e3,
                dt * 1e3,
                time * 1e3
            );
        }
        self.receive(ui.ctx());
        self.watch_files(ui.ctx());
        self.shortcuts(ui);
        let title = self.title();
        if title != self.window.shown_title {
            ui.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window.shown_title = title;
        }

        self.apply_ui_scale(ui.ctx());
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        let width = ui.available_width();
        egui::Panel::right("side")
            .resizable(true)
            .default_size(340.0)
            .size_range(240.0..=(width * 0.6).max(240.0))
            .show(ui, |ui| self.side_panel(ui));
        egui::CentralPanel::default().show(ui, |ui| self.canvas(ui));
        if let Some((at, screen)) = self.canvas.palette_at {
            let mut open = true;
            egui::Window::new("Add node")
                .id(Id::new(PALETTE_ID))
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                // Not movable: egui 0.36 puts a movable window back where it was last
                // shown, whatever position it is given, and the palette must open at
                // the pointer every time.
                .movable(false)
                .pivot(palette_pivot(ui.ctx(), screen))
                .current_pos(screen)
                .show(ui.ctx(), |ui| {
                    let wire = self.canvas.palette_wire.clone();
                    let fits =
                        |inputs, outputs| wire.as_ref().is_none_or(|w| w.takes(inputs, outputs));
                    if let Some(kind) = canvas::palette(ui, &mut self.canvas.palette, &fits) {
                        let library = kind.starts_with(texgraph_core::library::PREFIX);
                        self.commands.push(match (wire, at) {
                            (Some(wire), Some(pos)) if library => Command::AddWiredSubgraph {
                                file: kind.to_owned(),
                                pos,
                                wire,
                            },
                            _ if library => Command::AddSubgraph {
                                file: kind.to_owned(),
                                pos: at,
                            },
                            (Some(wire), Some(pos)) => Command::AddWiredNode { kind, pos, wire },
                            _ => Command::AddNode { kind, pos: at },
                        });
                        self.canvas.palette_at = None;
                        self.canvas.palette_wire = None;
                    }
                });
            if !open || ui.input(|i| i.key_pressed(Key::Escape)) {
                self.canvas.palette_at = None;
                self.canvas.palette_wire = None;
            }
        }
        self.wire_menu(ui.ctx());
        self.rename_window(ui.ctx());
        self.file_flow(ui);
        self.apply_commands(ui.input(|i| i.pointer.any_released()));
        self.follow_selection();
        if ui.input(|i| i.pointer.any_released()) {
            self.history.seal(); // a drag (of nodes or a slider) ended: its edits are one step
        }
        self.keep_recovery_copy(ui.ctx());
        self.follow_3d_view();
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // Closed the normal way (saved, or the user chose not to): nothing to recover.
        self.autosave.clear(self.renders.generation);
    }
}
