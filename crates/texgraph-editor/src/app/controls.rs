//! Keyboard shortcuts, the toolbar and the status bar.

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers, Pos2, Ui};

use super::{EditorApp, copy_json};
use crate::command::Command;
use crate::files::Then;

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const SAVE_AS: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
const NEW: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
const EXPORT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
const DUPLICATE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::D);
const QUIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);
const SELECT_ALL: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::A);
const FRAME_SELECTED: KeyboardShortcut = KeyboardShortcut::new(Modifiers::SHIFT, Key::F);
/// Up one level, from a subgraph to the graph it was opened from.
const BACK: KeyboardShortcut = KeyboardShortcut::new(Modifiers::ALT, Key::ArrowLeft);

/// Things a shortcut can ask for besides a [`Command`].
#[derive(Default)]
struct Asked {
    then: Option<Then>,
    save_as: bool,
    export: bool,
    frame_all: bool,
    frame_selected: bool,
    copy: bool,
    palette: bool,
    paste: Option<String>,
    back: bool,
}

impl EditorApp {
    /// Opens the export dialog for the graph shown, with the timeline's frames.
    pub(super) fn open_export(&mut self) {
        self.export
            .open_for(&self.graph, self.path.as_deref(), self.animated);
        self.export.follow_timeline(&self.preview.timeline);
    }

    pub(super) fn shortcuts(&mut self, ui: &mut Ui) {
        let typing = ui.ctx().egui_wants_keyboard_input();
        let selection = self.selection(ui.ctx());
        let comment = self.selected_comment;
        let mut commands = Vec::new();
        let mut asked = Asked::default();
        ui.input_mut(|i| {
            // More specific shortcuts first: Ctrl+Shift+Z before Ctrl+Z.
            if i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y) {
                commands.push(Command::Redo);
            }
            if !typing && i.consume_shortcut(&UNDO) {
                commands.push(Command::Undo);
            }
            asked.save_as = i.consume_shortcut(&SAVE_AS);
            if i.consume_shortcut(&SAVE) {
                commands.push(Command::Save(None));
            }
            if i.consume_shortcut(&OPEN) {
                asked.then = Some(Then::PickOpen);
            }
            if i.consume_shortcut(&NEW) {
                asked.then = Some(Then::New);
            }
            if i.consume_shortcut(&QUIT) {
                asked.then = Some(Then::Quit);
            }
            asked.export = i.consume_shortcut(&EXPORT);
            if typing {
                return;
            }
            // Not while typing: Alt+Left moves by words in a text field on some systems.
            asked.back = i.consume_shortcut(&BACK);
            for event in &i.events {
                if let egui::Event::Paste(text) = event {
                    asked.paste = Some(text.clone());
                }
            }
            asked.frame_all = i.key_pressed(Key::F) && i.modifiers.is_none();
            asked.frame_selected = i.consume_shortcut(&FRAME_SELECTED);
            if i.consume_shortcut(&SELECT_ALL) {
                commands.push(Command::SelectAll);
            }
            asked.palette = i.key_pressed(Key::Space) || i.key_pressed(Key::Tab);
            if selection.is_empty() {
                if let Some(index) = comment.filter(|_| i.key_pressed(Key::Delete)) {
                    commands.push(Command::RemoveComment(index));
                }
                return;
            }
            asked.copy = i.events.iter().any(|e| matches!(e, egui::Event::Copy));
            if i.consume_shortcut(&DUPLICATE) {
                commands.push(Command::Duplicate(selection.clone()));
            }
            if i.key_pressed(Key::Delete) {
                commands.push(Command::Remove(selection.clone()));
            }
        });
        self.commands.extend(commands);
        if let Some(then) = asked.then {
            self.request(then);
        }
        if asked.save_as {
            self.pending.ask_save_as = Some(None);
        }
        if asked.export {
            self.open_export();
        }
        if asked.frame_all {
            self.frame_all();
        }
        if asked.frame_selected && !selection.is_empty() {
            self.frame_nodes(selection.clone());
        }
        if asked.back
            && let Some(level) = self.navigation.trail.len().checked_sub(1)
        {
            self.commands.push(Command::Back(level));
        }
        if asked.copy {
            ui.ctx().copy_text(copy_json(&self.graph, &selection));
            self.status = format!("copied {} node(s) as graph JSON", selection.len());
        }
        if asked.palette {
            // The palette opens where the pointer is.
            let pointer = ui.ctx().pointer_hover_pos();
            let at = self.on_canvas(ui.ctx(), pointer);
            self.open_palette(at, pointer.unwrap_or(Pos2::new(40.0, 40.0)));
        }
        if let Some(text) = asked.paste {
            // Pasted nodes land at the pointer (beside the originals when it is elsewhere).
            let at = self.on_canvas(ui.ctx(), ui.ctx().pointer_hover_pos());
            self.commands.push(Command::Paste { text, at });
        }
    }

    /// Adds a comment framing the selected nodes, or in the middle of the view.
    fn add_comment(&mut self, ctx: &egui::Context) {
        let selection = self.selection(ctx);
        let nodes = self
            .graph
            .nodes
            .iter()
            .filter(|n| selection.contains(&n.id))
            .map(|n| crate::document::node_rect(n, Pos2::from(n.pos), &self.canvas.sizes));
        let centre = self
            .on_canvas(ctx, Some(self.canvas.canvas_rect.center()))
            .unwrap_or(Pos2::ZERO);
        let comment = crate::comment_layout::framing(nodes, centre);
        self.commands.push(Command::AddComment(comment));
    }

    /// The canvas position under a screen position (`None` when the canvas is not drawn).
    fn on_canvas(&self, ctx: &egui::Context, screen: Option<Pos2>) -> Option<Pos2> {
        let layer = egui::LayerId::new(egui::Order::Background, self.canvas_id());
        screen
            .zip(ctx.layer_transform_from_global(layer))
            .map(|(p, from_screen)| from_screen * p)
    }

    /// Fits the view to every node and comment, however small that makes them (the
    /// person asked to see all).
    pub fn frame_all(&mut self) {
        self.canvas.framing = Some((crate::panels::canvas::MIN_SCALE, None));
    }

    /// Fits the view to the nodes `ids` (View → Frame selected).
    pub fn frame_nodes(&mut self, ids: Vec<String>) {
        self.canvas.framing = Some((crate::panels::canvas::MIN_SCALE, Some(ids)));
    }

    /// Applies the remembered UI scale on the first frame, then remembers changes
    /// (Ctrl+= / Ctrl+- / Ctrl+0 are egui's own).
    pub(super) fn apply_ui_scale(&mut self, ctx: &egui::Context) {
        if !self.window.scaled {
            self.window.scaled = true;
            ctx.set_zoom_factor(self.settings.ui_scale);
        } else if ctx.zoom_factor() != self.settings.ui_scale {
            self.settings.set_ui_scale(ctx.zoom_factor());
            ctx.set_zoom_factor(self.settings.ui_scale);
        }
    }

    /// The rename window, while a node is being renamed.
    pub(super) fn rename_window(&mut self, ctx: &egui::Context) {
        let Some((from, typed)) = &mut self.canvas.renaming else {
            return;
        };
        let mut open = true;
        let mut cancelled = false;
        let mut done = false;
        egui::Window::new(format!("Rename {from}"))
            .id(egui::Id::new("rename_window"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(typed)
                        .id(egui::Id::new("rename_field"))
                        .desired_width(200.0),
                );
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                if !field.has_focus() && !field.lost_focus() {
                    field.request_focus();
                }
                // Why the id typed would not do, as it is typed: the window stays open
                // until it will (or the rename is cancelled).
                let problem = super::commands::check_rename(&self.graph, from, typed.trim())
                    .err()
                    .filter(|_| typed.trim() != from.as_str());
                if let Some(problem) = &problem {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 90, 80),
                        texgraph_core::text::printable(problem),
                    );
                }
                ui.horizontal(|ui| {
                    let rename = ui.add_enabled(problem.is_none(), egui::Button::new("Rename"));
                    done = (rename.clicked() || entered) && problem.is_none();
                    cancelled = ui.button("Cancel").clicked();
                });
                if entered && problem.is_some() {
                    field.request_focus();
                }
            });
        let unchanged = typed.trim() == from.as_str();
        if done && !unchanged {
            self.commands.push(Command::Rename {
                from: from.clone(),
                to: typed.trim().to_owned(),
            });
        }
        if done || cancelled || !open || ctx.input(|i| i.key_pressed(Key::Escape)) {
            self.canvas.renaming = None;
        }
    }

    /// The menu bar and the graph's settings: short enough for a 900-point window.
    pub(super) fn toolbar(&mut self, ui: &mut Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.separator();
            if ui
                .button("Add node")
                .on_hover_text("Space or Tab")
                .clicked()
            {
                self.open_palette(None, ui.min_rect().left_bottom());
            }
            if ui.button("Export…").on_hover_text("Ctrl+E").clicked() {
                self.open_export();
            }
            ui.separator();
            let mut name = self.graph.name.clone().unwrap_or_default();
            if ui
                .add(
                    egui::TextEdit::singleline(&mut name)
                        .hint_text("name")
                        .desired_width(90.0),
                )
                .on_hover_text("the graph's name")
                .changed()
            {
                self.commands.push(Command::SetName(name));
            }
            let mut tileable = self.graph.settings.tileable;
            if ui.checkbox(&mut tileable, "tileable").changed() {
                self.commands.push(Command::SetTileable(tileable));
            }
            if let Some(playing) = self.preview.playing {
                // The timeline shows its own time; the graph's comes back with Stop.
                ui.label(format!("time {playing:.2} (timeline)"))
                    .on_hover_text("the preview's timeline; Stop returns to the graph's time");
            } else {
                let mut time = self.graph.settings.time;
                if ui
                    .add(egui::DragValue::new(&mut time).speed(0.02).prefix("time "))
                    .changed()
                {
                    self.commands.push(Command::SetTime(time));
                }
            }
        });
    }

    fn file_menu(&mut self, ui: &mut Ui) {
        let item = |ui: &mut Ui, label: &str, keys: &str| {
            ui.add(egui::Button::new(label).shortcut_text(keys))
                .clicked()
        };
        if item(ui, "New", "Ctrl+N") {
            self.request(Then::New);
        }
        if item(ui, "Open…", "Ctrl+O") {
            self.request(Then::PickOpen);
        }
        let recent = self.files.recent.clone();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Recent", |ui| {
                for path in recent {
                    if ui.button(path.display().to_string()).clicked() {
                        self.request(Then::Open(path));
                    }
                }
            });
        });
        if item(ui, "Save", "Ctrl+S") {
            self.commands.push(Command::Save(None));
        }
        if item(ui, "Save As…", "Ctrl+Shift+S") {
            self.pending.ask_save_as = Some(None);
        }
        if item(ui, "Export…", "Ctrl+E") {
            self.open_export();
        }
        #[cfg(target_arch = "wasm32")]
        self.web_file_items(ui);
        #[cfg(not(target_arch = "wasm32"))]
        {
            ui.separator();
            // Through the unsaved-changes question, as the window's close button.
            if item(ui, "Quit", "Ctrl+Q") {
                self.request(Then::Quit);
            }
        }
    }

    /// The web page's own: the graph as a link, and the examples it carries.
    #[cfg(target_arch = "wasm32")]
    fn web_file_items(&mut self, ui: &mut Ui) {
        ui.separator();
        if ui
            .button("Copy link")
            .on_hover_text("the graph in the page's address, to share")
            .clicked()
        {
            self.status = crate::web::copy_link(ui.ctx(), &self.graph);
            ui.close();
        }
        ui.menu_button("Examples", |ui| {
            for (name, path) in crate::web::examples() {
                if ui.button(name).clicked() {
                    self.request(Then::Open(path));
                }
            }
        });
    }

    fn edit_menu(&mut self, ui: &mut Ui) {
        let item = |ui: &mut Ui, label: &str, keys: &str| {
            ui.add(egui::Button::new(label).shortcut_text(keys))
                .clicked()
        };
        if item(ui, "Undo", "Ctrl+Z") {
            self.commands.push(Command::Undo);
        }
        if item(ui, "Redo", "Ctrl+Shift+Z") {
            self.commands.push(Command::Redo);
        }
        ui.separator();
        // What the shortcuts do to the selected nodes, for those who look in the menu.
        let selection = self.selection(ui.ctx());
        let some = !selection.is_empty();
        let picked = |ui: &mut Ui, label: &str, keys: &str| {
            ui.add_enabled(some, egui::Button::new(label).shortcut_text(keys))
                .clicked()
        };
        if picked(ui, "Copy", "Ctrl+C") {
            ui.ctx().copy_text(copy_json(&self.graph, &selection));
            self.status = format!("copied {} node(s) as graph JSON", selection.len());
        }
        ui.add_enabled(false, egui::Button::new("Paste").shortcut_text("Ctrl+V"))
            .on_disabled_hover_text("press Ctrl+V over the canvas: nodes land at the pointer");
        if picked(ui, "Duplicate", "Ctrl+D") {
            self.commands.push(Command::Duplicate(selection.clone()));
        }
        if picked(ui, "Delete", "Del") {
            self.commands.push(Command::Remove(selection.clone()));
        }
        if item(ui, "Select all", "Ctrl+A") {
            self.commands.push(Command::SelectAll);
        }
        ui.separator();
        if item(ui, "Add node…", "Space") {
            self.open_palette(None, ui.min_rect().right_top());
        }
        if ui
            .button("Add comment")
            .on_hover_text("a note or frame around the selected nodes")
            .clicked()
        {
            self.add_comment(ui.ctx());
        }
        if ui
            .add_enabled(some, egui::Button::new("Make subgraph"))
            .on_hover_text(
                "move the selected nodes into a graph file beside this one, used through one node",
            )
            .clicked()
        {
            self.commands.push(Command::MakeSubgraph(selection));
        }
        if ui
            .button("Arrange")
            .on_hover_text("lay the nodes out in columns from the outputs")
            .clicked()
        {
            self.commands.push(Command::Arrange);
        }
    }

    fn view_menu(&mut self, ui: &mut Ui) {
        if ui
            .add(egui::Button::new("Frame all").shortcut_text("F"))
            .clicked()
        {
            self.frame_all();
        }
        let selection = self.selection(ui.ctx());
        if ui
            .add_enabled(
                !selection.is_empty(),
                egui::Button::new("Frame selected").shortcut_text("Shift+F"),
            )
            .clicked()
        {
            self.frame_nodes(selection);
        }
        ui.separator();
        ui.label(format!("UI scale {:.0}%", ui.ctx().zoom_factor() * 100.0));
        egui::gui_zoom::zoom_menu_buttons(ui);
    }

    pub(super) fn status_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label(format!("{} nodes", self.graph.nodes.len()));
            let selected = self.selection(ui.ctx()).len();
            if selected > 1 {
                ui.label(format!("{selected} selected"));
            }
            if !self.problems.errors.is_empty() {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 90, 80),
                    format!("{} node(s) with errors", self.problems.errors.len()),
                );
            }
            if !self.problems.warnings.is_empty() {
                ui.colored_label(
                    crate::panels::canvas::AMBER,
                    format!("{} unfinished node(s)", self.problems.warnings.len()),
                )
                .on_hover_text(
                    "nodes with inputs left open, each reading the value shown on its socket, \
                     and outputs with nothing connected yet",
                );
            }
            ui.separator();
            // A message stays a few seconds, then goes.
            let now = ui.input(|i| i.time);
            if self.status != self.window.status_shown.0 {
                self.window.status_shown = (self.status.clone(), now);
            }
            let left = super::STATUS_SECONDS - (now - self.window.status_shown.1);
            if !self.status.is_empty() {
                if left <= 0.0 {
                    self.status.clear();
                } else {
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_secs_f64(left));
                }
            }
            let error = super::commands::is_complaint(&self.status);
            let color = if error {
                egui::Color32::from_rgb(230, 90, 80)
            } else {
                ui.visuals().text_color()
            };
            let status = texgraph_core::text::printable(&self.status);
            ui.add(egui::Label::new(egui::RichText::new(status).color(color)).truncate());
        });
    }
}
