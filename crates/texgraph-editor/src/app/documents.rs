//! The document as a whole: undo and redo, new, open, restore and save.

use std::path::PathBuf;

use texgraph_core::Graph;

use super::EditorApp;
use super::commands::Applied;
use crate::document::{arrange, needs_arranging, new_graph, replace_snarl, sync_snarl};
use crate::recovery::Recovered;

impl EditorApp {
    /// Shows a new graph.
    pub(super) fn new_document(&mut self) -> Applied {
        self.replace(new_graph(), None);
        self.status = "new graph".into();
        Applied::Replaced
    }

    /// Opens a graph file; the current graph stays when it cannot be read.
    pub(super) fn open_document(&mut self, path: PathBuf) -> Applied {
        match Graph::load(&path) {
            Ok(loaded) => {
                self.status = format!("opened {}", path.display());
                self.files.remember(&path);
                self.replace(loaded, Some(path));
                Applied::Replaced
            }
            Err(e) => {
                // The current graph stays as it is.
                self.status = format!("error: {}: {e}", path.display());
                Applied::Nothing
            }
        }
    }

    /// Brings back the unsaved work of an editor that did not close cleanly.
    pub(super) fn restore(&mut self, found: Box<Recovered>) -> Applied {
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
            .write_now(&self.graph, path.as_deref(), self.renders.generation);
        // Only now that this editor's own copy holds it.
        recovered.forget();
        self.status = format!("restored the unsaved changes to {name}");
        Applied::Replaced
    }

    /// Saves the graph to `path`, else to its file, else asks where.
    pub(super) fn save(&mut self, path: Option<PathBuf>) -> Applied {
        let Some(path) = path.or_else(|| self.path.clone()) else {
            // Never saved: ask where, then carry on with what was waiting.
            self.pending.ask_save_as = Some(self.pending.after_save.take());
            return Applied::Nothing;
        };
        match self.graph.save(&path) {
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
                        .write_now(&self.graph, path.as_deref(), self.renders.generation);
                } else {
                    self.autosave.clear(self.renders.generation);
                }
                if let Some(then) = self.pending.after_save.take() {
                    self.pending.then = Some(then);
                }
            }
            Err(e) => {
                self.status = format!("error: {e}");
                self.pending.after_save = None;
            }
        }
        Applied::Nothing
    }

    /// Brings back the graph before the last undo step (`undo`) or after the next.
    pub(super) fn undo_or_redo(&mut self, undo: bool) -> Applied {
        let graph = &mut self.graph;
        let restored = if undo {
            self.history.undo(graph)
        } else {
            self.history.redo(graph)
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
        sync_snarl(&mut self.canvas.snarl, graph);
        self.changed();
        Applied::Replaced
    }

    /// Shows another document: a new graph or one loaded from `path`. Nothing of the old
    /// one stays behind (selection, pinned preview, export file name, messages).
    pub(super) fn replace(&mut self, mut graph: Graph, path: Option<PathBuf>) {
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
        replace_snarl(&mut self.canvas.snarl, &self.graph);
        self.canvas.sizes.clear();
        self.renders.draft_cost = None; // another graph: its drafts are sized afresh
        self.changed();
        self.frame_all();
        // Each document has its own undo steps: undo never brings back another file's
        // graph under this one's name.
        self.history = crate::history::History::default();
        self.modified = false;
        // The old document was saved or let go (its question answered).
        self.autosave.clear(self.renders.generation);
    }

    /// Gives the graph file shown its 3D view as it was left (shape, environment, look),
    /// and keeps it in the settings as it changes.
    pub(super) fn follow_3d_view(&mut self) {
        let Some(path) = self.path.clone() else {
            return;
        };
        if self.window.view_of.as_ref() != Some(&path) {
            self.window.view_of = Some(path.clone());
            // A graph never shown in 3D starts from the defaults, not the last graph's.
            let kept = self.settings.view_of(&path).cloned();
            let kept = kept.unwrap_or_else(crate::panels::ball_view::BallView::defaults_kept);
            if let Some(environment) = self.ball.restore(&kept) {
                self.ball.load_environment(environment);
            }
            return;
        }
        // While a kept environment file is read, the view still shows the old one.
        if !self.ball.is_loading_environment() {
            self.settings.keep_view(&path, self.ball.kept());
        }
    }
}
