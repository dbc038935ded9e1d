//! File actions that need an answer first: the unsaved-changes question, the file
//! choosers, dropped files, the window's close button, and the export dialog's start.

use std::path::PathBuf;

use eframe::egui::{self, Ui};

use super::EditorApp;
use crate::command::Command;
use crate::files::{Answer, Purpose, Then};
use crate::jobs::export::ExportJob;

impl EditorApp {
    /// Goes ahead with `then` unless it would drop unsaved changes, in which case the
    /// person is asked first.
    pub fn request(&mut self, then: Then) {
        if self.unsaved_anywhere() {
            self.files.prompt = Some(then);
        } else {
            self.pending.then = Some(then);
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
            Then::Restore(found) => self.commands.push(Command::Restore(found)),
            Then::Quit => {
                self.pending.closing = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Dialogs, dropped files, the close button, and what their answers set going.
    pub(super) fn file_flow(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if ui.input(|i| i.viewport().close_requested())
            && self.unsaved_anywhere()
            && !self.pending.closing
        {
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
        let file = self.unsaved_names();
        if let Some((answer, then)) = self.files.show_prompt(ui, &file) {
            match answer {
                // The graphs parked on the trail first, then the one shown.
                Answer::Save if !self.save_parked() => {}
                Answer::Save if !self.modified => self.pending.then = Some(then),
                Answer::Save => {
                    self.pending.after_save = Some(then);
                    self.commands.push(Command::Save(None));
                }
                Answer::Discard => self.pending.then = Some(then),
                Answer::Cancel => {}
            }
        }
        if let Some((node, param)) = self.pending.choose_file.take() {
            let start = self.folder();
            self.files
                .choose(&ctx, Purpose::Param { node, param }, Some(&start));
        }
        if std::mem::take(&mut self.pending.choose_environment) {
            let start = self.folder();
            self.files.choose(&ctx, Purpose::Environment, Some(&start));
        }
        if let Some(then) = self.pending.ask_save_as.take() {
            // An untitled graph is offered the name its exports would have.
            let start = self.path.clone().or_else(|| {
                let stem = texgraph_core::export::file_stem_for(&self.graph, None);
                Some(PathBuf::from(format!("{stem}.json")))
            });
            self.files
                .choose(&ctx, Purpose::SaveAs(then), start.as_deref());
        }
        if let Some((purpose, path)) = self.files.show(ui) {
            match purpose {
                Purpose::Open => self.commands.push(Command::Open(path)),
                Purpose::SaveAs(then) => {
                    self.pending.after_save = then;
                    // A name typed without an extension gets the graph files' one.
                    let path = if path.extension().is_none() {
                        path.with_extension("json")
                    } else {
                        path
                    };
                    self.commands.push(Command::Save(Some(path)));
                }
                Purpose::Export => {
                    self.export.path = path.display().to_string();
                    self.export.follow_path();
                }
                Purpose::Environment => self.ball.load_environment(path),
                Purpose::Param { node, param } => {
                    let value = self.relative_to_graph(&path);
                    self.commands.push(Command::SetParam {
                        node,
                        param,
                        value: texgraph_core::ParamValue::Text(value),
                    });
                }
            }
        }
        if let Some(then) = self.pending.then.take() {
            self.carry_out(&ctx, then);
        }
        if self.export.show(ui, &self.graph, &mut self.files) {
            let wake = ctx.clone();
            let graph = self.resolved_graph();
            match self.export.request(&graph) {
                Ok(request) => {
                    self.export.message.clear();
                    self.export.warnings.clear();
                    self.export.listed = request.files(&graph);
                    self.export.job = Some(ExportJob::start(graph, request, move || {
                        wake.request_repaint()
                    }));
                }
                Err(message) => self.export.message = format!("error: {message}"),
            }
        }
    }

    /// The folder the graph's relative file params start from: the graph file's, or the
    /// working directory for an unsaved graph.
    pub(crate) fn folder(&self) -> PathBuf {
        match &self.path {
            Some(path) => texgraph_core::paths::folder_of(path),
            None => PathBuf::from("."),
        }
    }

    /// `path` as a file param stores it: relative to the graph's folder when inside it.
    fn relative_to_graph(&self, path: &std::path::Path) -> String {
        let folder = std::path::absolute(self.folder()).unwrap_or_else(|_| self.folder());
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        path.strip_prefix(&folder)
            .unwrap_or(&path)
            .display()
            .to_string()
    }

    pub(super) fn file_name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("untitled".into(), |f| f.to_string_lossy().into_owned())
    }
}
