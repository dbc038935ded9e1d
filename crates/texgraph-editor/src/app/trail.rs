//! Into a subgraph and back: parking the shown graph on the trail, showing another, the
//! breadcrumb above the canvas, and saving the parked graphs' edits.

use std::path::PathBuf;

use eframe::egui::Ui;
use texgraph_core::Graph;

use super::EditorApp;
use crate::command::Command;
use crate::document::replace_snarl;
use crate::navigation::{Parked, Step};
use crate::recovery::OtherGraph;

impl EditorApp {
    /// The shown graph, taken out of the editor as it is (its undo steps included).
    fn park(&mut self) -> Parked {
        Parked {
            graph: self.graph.clone(),
            path: self.path.clone(),
            // From the history: `modified` is brought up to date only once a frame,
            // and an edit may come in the same frame as the step away.
            modified: self.history.modified(),
            history: std::mem::take(&mut self.history),
            selected: self.selected.clone(),
            view: Some(self.canvas.view.to_screen),
        }
    }

    /// Shows a parked graph again, as it was left.
    fn unpark(&mut self, parked: Parked) {
        self.graph = parked.graph;
        self.path = parked.path;
        self.history = parked.history;
        self.modified = parked.modified;
        self.selected = parked.selected.filter(|id| self.graph.node(id).is_some());
        self.selected_comment = None;
        self.picked.clear();
        self.preview.pinned = None;
        self.export.forget_graph();
        replace_snarl(&mut self.canvas.snarl, &self.graph);
        // Sizes are by id, and another graph may use the same ids.
        self.canvas.sizes.clear();
        self.renders.draft_cost = None;
        self.changed();
        match parked.view {
            Some(view) => self.canvas.view.restore = Some(view),
            None => self.frame_all(),
        }
    }

    /// Shows the graph file `path` of subgraph node `via`, parking the shown graph on the
    /// trail (no question: its unsaved edits stay with it). Edits left unsaved in the file
    /// earlier come back with it.
    pub(super) fn open_subgraph(&mut self, via: String, path: PathBuf) {
        // A graph shown or parked above is open already: a second copy of it could
        // overwrite the first's edits.
        let open = self
            .navigation
            .trail
            .iter()
            .filter_map(|s| s.parked.path.as_deref())
            .chain(self.path.as_deref())
            .any(|p| crate::navigation::same_file(p, &path));
        if open {
            self.status = format!(
                "{} is open already, above this graph: go back to it (Alt+Left)",
                path.display()
            );
            return;
        }
        let kept = self.navigation.take_kept(&path);
        let child = match kept {
            Some(kept) => kept,
            None => match Graph::load(&path) {
                Ok(graph) => Parked {
                    graph,
                    path: Some(path.clone()),
                    history: Default::default(),
                    modified: false,
                    selected: None,
                    view: None,
                },
                Err(e) => {
                    self.status = format!("error: {}: {e}", path.display());
                    return;
                }
            },
        };
        let parked = self.park();
        self.navigation.trail.push(Step { parked, via });
        self.navigation.feed = true;
        self.files.remember(&path);
        self.unpark(child);
        self.status = format!(
            "opened {} (Alt+Left or the path above the canvas goes back)",
            path.display()
        );
    }

    /// Goes back up the trail to the graph at depth `level`; the graphs left on the way
    /// keep their unsaved edits.
    pub(super) fn back_to(&mut self, level: usize) {
        if level >= self.navigation.trail.len() {
            return;
        }
        let shown = self.park();
        // A subgraph left unsaved: what uses it renders its file as saved, so say so.
        let unsaved = shown
            .modified
            .then(|| shown.path.as_ref().and_then(|p| p.file_name()))
            .flatten()
            .map(|name| name.to_string_lossy().into_owned());
        self.navigation.keep(shown);
        while self.navigation.trail.len() > level + 1 {
            let step = self.navigation.trail.pop().expect("deeper than level");
            self.navigation.keep(step.parked);
        }
        let step = self.navigation.trail.pop().expect("level is on the trail");
        let via = step.via.clone();
        self.unpark(step.parked);
        if self.graph.node(&via).is_some() {
            self.selected = Some(via);
        }
        if let Some(name) = unsaved {
            self.status = format!(
                "{} has unsaved changes, kept for when you open it again; graphs using it \
                 render it as saved until it is saved",
                texgraph_core::text::printable(&name)
            );
        }
    }

    /// Tells the autosave which graphs besides the one shown have unsaved edits, so that
    /// the recovery copy holds them too.
    pub(super) fn keep_others_in_recovery(&mut self) {
        let other = |parked: &Parked, via: Option<&String>| OtherGraph {
            file: parked.path.clone(),
            graph: parked.graph.clone(),
            via: via.cloned(),
            modified: parked.modified,
        };
        let navigation = &self.navigation;
        self.autosave.others = navigation
            .trail
            .iter()
            .map(|step| other(&step.parked, Some(&step.via)))
            .chain(navigation.kept.iter().map(|parked| other(parked, None)))
            .collect();
    }

    /// Puts back the graphs a recovery file held besides the one shown: the trail down to
    /// it, and those left with unsaved edits.
    pub(super) fn restore_others(&mut self, others: Vec<OtherGraph>) {
        for other in others {
            let mut history = crate::history::History::default();
            if other.modified {
                history.mark_unsaved();
            }
            let parked = Parked {
                graph: other.graph,
                path: other.file,
                history,
                modified: other.modified,
                selected: None,
                view: None,
            };
            match other.via {
                Some(via) => {
                    self.navigation.trail.push(Step { parked, via });
                    // As when it was opened from the graph above.
                    self.navigation.feed = true;
                }
                None => self.navigation.keep(parked),
            }
        }
        // Rendered as the graph above feeds it.
        self.changed();
    }

    /// Whether any graph, shown or parked, has unsaved edits.
    pub fn unsaved_anywhere(&self) -> bool {
        self.modified || self.navigation.unsaved().next().is_some()
    }

    /// The names of the graphs with unsaved edits, for the question before they go.
    pub(super) fn unsaved_names(&self) -> String {
        let name = |path: Option<&std::path::Path>| {
            path.and_then(|p| p.file_name())
                .map_or("untitled".into(), |f| f.to_string_lossy().into_owned())
        };
        let mut names: Vec<String> = Vec::new();
        if self.modified {
            names.push(name(self.path.as_deref()));
        }
        names.extend(self.navigation.unsaved().map(|p| name(p.path.as_deref())));
        names.join(", ")
    }

    /// Saves the parked graphs' unsaved edits to their files; false, with the reason in
    /// the status bar, when one cannot be (untitled, or the write failed).
    pub(super) fn save_parked(&mut self) -> bool {
        let mut saved = true;
        let trail = self.navigation.trail.iter_mut().map(|s| &mut s.parked);
        for parked in trail.chain(self.navigation.kept.iter_mut()) {
            if !parked.modified {
                continue;
            }
            let Some(path) = parked.path.clone() else {
                self.status =
                    "cannot save an untitled graph from here: go back to it (Alt+Left) and save it"
                        .to_owned();
                saved = false;
                continue;
            };
            match parked.graph.save(&path) {
                Ok(()) => {
                    parked.history.mark_saved();
                    parked.modified = false;
                }
                Err(e) => {
                    self.status = format!("error: {e}");
                    saved = false;
                }
            }
        }
        self.navigation.kept.retain(|p| p.modified);
        self.keep_others_in_recovery();
        saved
    }

    /// The path from the graph first opened to the one shown, above the canvas: each
    /// earlier graph a button that goes back to it, and whether the shown subgraph is
    /// previewed as its node feeds it.
    pub(super) fn breadcrumb(&mut self, ui: &mut Ui) {
        if self.navigation.trail.is_empty() {
            return;
        }
        let name = |path: Option<&std::path::Path>, modified: bool| {
            let file = path
                .and_then(|p| p.file_name())
                .map_or("untitled".into(), |f| f.to_string_lossy().into_owned());
            let file = texgraph_core::text::printable(&file).into_owned();
            if modified { format!("*{file}") } else { file }
        };
        ui.horizontal_wrapped(|ui| {
            for (level, step) in self.navigation.trail.iter().enumerate() {
                let label = name(step.parked.path.as_deref(), step.parked.modified);
                if ui
                    .button(label)
                    .on_hover_text("back to this graph (Alt+Left: one level up)")
                    .clicked()
                {
                    self.commands.push(Command::Back(level));
                }
                // The node opened, by its label where it has one.
                let node = step.parked.graph.node(&step.via);
                let via = node.and_then(|n| n.label.as_deref()).unwrap_or(&step.via);
                ui.label(format!("› {}", texgraph_core::text::printable(via)));
            }
            ui.strong(name(self.path.as_deref(), self.modified));
            ui.separator();
            let via = self.navigation.trail.last().map(|s| s.via.clone());
            if let Some(via) = via {
                let fed = format!(
                    "inputs as '{}' feeds them",
                    texgraph_core::text::printable(&via)
                );
                if ui
                    .checkbox(&mut self.navigation.feed, fed)
                    .on_hover_text(
                        "preview this graph with the inputs and params its node in the graph \
                         above gives it (off: its own defaults, as `texgraph render` and the \
                         export render this file)",
                    )
                    .changed()
                {
                    self.changed();
                }
            }
        });
    }
}
