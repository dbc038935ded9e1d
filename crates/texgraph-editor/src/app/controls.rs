//! Keyboard shortcuts, the toolbar and the status bar.

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers, Pos2, Ui};

use super::{Command, EditorApp, copy_json};
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

/// Things a shortcut can ask for besides a [`Command`].
#[derive(Default)]
struct Asked {
    then: Option<Then>,
    save_as: bool,
    export: bool,
    frame_all: bool,
    copy: bool,
    palette: bool,
}

impl EditorApp {
    pub(super) fn shortcuts(&mut self, ui: &mut Ui) {
        let typing = ui.ctx().egui_wants_keyboard_input();
        let selection = self.selection(ui.ctx());
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
            asked.export = i.consume_shortcut(&EXPORT);
            if typing {
                return;
            }
            for event in &i.events {
                if let egui::Event::Paste(text) = event {
                    commands.push(Command::Paste(text.clone()));
                }
            }
            asked.frame_all = i.key_pressed(Key::F) && i.modifiers.is_none();
            asked.palette = i.key_pressed(Key::Space) || i.key_pressed(Key::Tab);
            if selection.is_empty() {
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
            self.ask_save_as = Some(None);
        }
        if asked.export {
            self.export.open_for(&self.graph, self.path.as_deref());
        }
        if asked.frame_all {
            self.frame_all();
        }
        if asked.copy {
            ui.ctx().copy_text(copy_json(&self.graph, &selection));
            self.status = format!("copied {} node(s) as graph JSON", selection.len());
        }
        if asked.palette {
            // The palette opens where the pointer is.
            let layer = egui::LayerId::new(egui::Order::Background, self.canvas_id());
            let pointer = ui.ctx().pointer_hover_pos();
            let at = pointer
                .zip(ui.ctx().layer_transform_from_global(layer))
                .map(|(p, from_screen)| from_screen * p);
            self.palette_at = Some((at, pointer.unwrap_or(Pos2::new(40.0, 40.0))));
        }
    }

    /// Fits the view to every node (a fresh canvas view starts fitted).
    pub fn frame_all(&mut self) {
        self.view += 1;
        self.framing = true;
    }

    pub(super) fn toolbar(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New").on_hover_text("Ctrl+N").clicked() {
                self.request(Then::New);
            }
            if ui.button("Open…").on_hover_text("Ctrl+O").clicked() {
                self.request(Then::PickOpen);
            }
            let recent = self.files.recent.clone();
            ui.add_enabled_ui(!recent.is_empty(), |ui| {
                ui.menu_button("Recent", |ui| {
                    for path in recent {
                        if ui.button(path.display().to_string()).clicked() {
                            self.request(Then::Open(path));
                            ui.close();
                        }
                    }
                });
            });
            if ui.button("Save").on_hover_text("Ctrl+S").clicked() {
                self.commands.push(Command::Save(None));
            }
            if ui
                .button("Save As…")
                .on_hover_text("Ctrl+Shift+S")
                .clicked()
            {
                self.ask_save_as = Some(None);
            }
            if ui.button("Export…").on_hover_text("Ctrl+E").clicked() {
                self.export.open_for(&self.graph, self.path.as_deref());
            }
            ui.separator();
            if ui.button("Undo").on_hover_text("Ctrl+Z").clicked() {
                self.commands.push(Command::Undo);
            }
            if ui
                .button("Redo")
                .on_hover_text("Ctrl+Shift+Z, Ctrl+Y")
                .clicked()
            {
                self.commands.push(Command::Redo);
            }
            ui.separator();
            let add = ui.button("Add node…").on_hover_text("Space or Tab");
            if add.clicked() {
                self.palette_at = Some((None, add.rect.left_bottom()));
            }
            if ui.button("Frame all").on_hover_text("F").clicked() {
                self.frame_all();
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
        });
    }

    pub(super) fn status_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label(format!("{} nodes", self.graph.nodes.len()));
            let selected = self.selection(ui.ctx()).len();
            if selected > 1 {
                ui.label(format!("{selected} selected"));
            }
            if !self.errors.is_empty() {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 90, 80),
                    format!("{} node(s) with errors", self.errors.len()),
                );
            }
            ui.separator();
            let error = self.status.starts_with("error") || self.status.starts_with("cannot");
            let color = if error {
                egui::Color32::from_rgb(230, 90, 80)
            } else {
                ui.visuals().text_color()
            };
            ui.colored_label(color, &self.status);
        });
    }
}
