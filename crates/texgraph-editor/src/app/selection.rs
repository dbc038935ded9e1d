//! What is selected, pinned and open: changes of view, which are no undo steps.

use eframe::egui::Pos2;

use super::EditorApp;
use super::commands::Applied;
use crate::command::DroppedWire;

impl EditorApp {
    /// Shows a comment in the inspector (or none).
    pub(super) fn select_comment(&mut self, index: Option<usize>) -> Applied {
        self.selected_comment = index;
        if index.is_some() {
            self.selected = None;
            self.picked.clear();
        }
        Applied::Nothing
    }

    /// Shows a node in the inspector (or none), and nothing else stays selected.
    pub(super) fn select(&mut self, id: Option<String>) -> Applied {
        if id.is_some() {
            self.selected_comment = None;
        }
        self.selected = id;
        self.picked.clear();
        // One node clicked, or empty canvas: nothing else stays selected.
        self.canvas.deselect_canvas = true;
        self.history.seal();
        Applied::Nothing
    }

    /// Adds a node to the picked ones, or takes it out.
    pub(super) fn pick(&mut self, id: String) -> Applied {
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
        Applied::Nothing
    }

    /// Picks every node: what Delete, Duplicate and Copy then act on.
    pub(super) fn select_all(&mut self) -> Applied {
        self.picked = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        Applied::Nothing
    }

    /// Shows a node in the preview whatever is selected (or lets the preview follow again).
    pub(super) fn pin(&mut self, id: Option<String>) -> Applied {
        self.preview.pinned = id;
        self.renders.generation += 1;
        self.request_preview();
        Applied::Nothing
    }

    /// Opens the node palette.
    pub(super) fn open_palette(&mut self, at: Option<Pos2>, screen: Pos2) -> Applied {
        self.canvas.palette_at = Some((at, screen));
        self.canvas.palette_wire = None;
        // Each opening searches afresh, as Substance's and Blender's do.
        self.canvas.palette.filter.clear();
        Applied::Nothing
    }

    /// Opens the node palette for a wire dropped on empty canvas.
    pub(super) fn open_wire_palette(
        &mut self,
        at: Pos2,
        screen: Pos2,
        wire: DroppedWire,
    ) -> Applied {
        self.canvas.palette_at = Some((Some(at), screen));
        self.canvas.palette_wire = Some(wire);
        self.canvas.palette.filter.clear();
        Applied::Nothing
    }

    /// Shows a message in the status bar.
    pub(super) fn show_status(&mut self, message: String) -> Applied {
        self.status = message;
        Applied::Nothing
    }

    /// Opens the chooser for a file param.
    pub(super) fn choose_file(&mut self, node: String, param: String) -> Applied {
        self.pending.choose_file = Some((node, param));
        Applied::Nothing
    }
}
