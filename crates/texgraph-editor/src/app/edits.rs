//! Edits of nodes and wires, and of the graph's settings.

use eframe::egui::{Pos2, Rect, Vec2, pos2, vec2};
use texgraph_core::{Graph, Node};

use super::EditorApp;
use super::commands::{Applied, id_base, paste, rename};
use crate::command::DroppedWire;
use crate::document::{arrange, clear_spot, file_position, free_position, fresh_id, likely_size};

/// About how far below a node's top its first pin is drawn (the title bar and half a row).
const FIRST_PIN_Y: f32 = 34.0;
/// Room kept between a node placed in view and the canvas's edge, in screen points.
const VIEW_MARGIN: f32 = 12.0;

impl EditorApp {
    /// Wires `from` into `to`'s `port`, when the core allows the connection.
    pub(super) fn connect(&mut self, from: String, to: String, port: String) -> Applied {
        // Checked against the graph as the core reads it: a subgraph's file is relative to
        // this graph's folder.
        let checked = self.resolved_graph();
        if let Err(message) = texgraph_core::check_connection(&checked, &from, &to, &port) {
            self.status = format!("cannot connect: {message}");
            return Applied::Nothing;
        }
        self.graph
            .node_mut(&to)
            .expect("checked")
            .inputs
            .insert(port, from);
        Applied::Edit(None)
    }

    /// Takes the wire out of `to`'s `port`.
    pub(super) fn disconnect(&mut self, to: String, port: String) -> Applied {
        let graph = &mut self.graph;
        match graph.node_mut(&to).map(|n| n.inputs.remove(&port)) {
            Some(Some(_)) => {}
            _ => return Applied::Nothing,
        }
        Applied::Edit(None)
    }

    /// Adds a node of `kind` at `pos` (beside the others when `None`) and selects it.
    pub(super) fn add_node(&mut self, kind: &'static str, pos: Option<Pos2>) -> Applied {
        self.insert_node(kind, pos);
        Applied::Edit(None)
    }

    /// Adds a node of `kind` at `pos` and wires it to a wire dropped there: an output's
    /// wire into its first input, an input's wire from its first output. One undo step
    /// with the node.
    pub(super) fn add_wired_node(
        &mut self,
        kind: &'static str,
        pos: Pos2,
        wire: DroppedWire,
    ) -> Applied {
        let pos = self.wired_position(kind, pos, &wire);
        let id = self.insert_node(kind, Some(pos));
        let first_input = texgraph_core::registry::lookup(kind)
            .and_then(|d| d.inputs.first())
            .map(|p| p.name.to_owned());
        self.take_wire(id, first_input, wire);
        Applied::Edit(None)
    }

    /// Where a node of `kind` taking `wire` goes for the wire to have been let go at
    /// `pos`. The pin that takes the wire goes there, as in Substance: the node's first
    /// input (its left side) for a wire out of an output, its first output (its right
    /// side) for a wire into an input, its middle for a wire it goes into.
    pub(super) fn wired_position(&self, kind: &str, pos: Pos2, wire: &DroppedWire) -> Pos2 {
        let size = likely_size(&self.graph, kind, &self.canvas.sizes);
        let pin = match wire {
            DroppedWire::From(_) => vec2(0.0, FIRST_PIN_Y),
            DroppedWire::Into { .. } => vec2(size.x, FIRST_PIN_Y),
            DroppedWire::Between { .. } => size / 2.0,
        };
        self.kept_in_view(pos - pin, size)
    }

    /// Connects node `id`, just added, to `wire`: into `first_input` (its first input
    /// port, if it has one) for a wire out of an output, out of its first output for a
    /// wire into an input, both for a wire it goes into.
    pub(super) fn take_wire(&mut self, id: String, first_input: Option<String>, wire: DroppedWire) {
        match wire {
            DroppedWire::From(source) => {
                if let Some(port) = first_input {
                    self.connect(source, id, port);
                }
            }
            DroppedWire::Into { node, port } => {
                self.connect(id, node, port);
            }
            DroppedWire::Between { from, node, port } => {
                if let Some(input) = first_input {
                    self.connect(from, id.clone(), input);
                }
                self.connect(id, node, port);
            }
        }
    }

    /// The part of the canvas shown, in canvas units, less a margin at its edges; `None`
    /// before the canvas was first drawn.
    pub(super) fn shown_view(&self) -> Option<Rect> {
        let shown = self.canvas.canvas_rect;
        shown
            .is_positive()
            .then(|| self.canvas.view.to_screen.inverse() * shown.shrink(VIEW_MARGIN))
    }

    /// `pos` moved as little as it takes for a node of `size` there to be inside the
    /// canvas as it is shown (where it fits; as it was before the canvas was drawn).
    fn kept_in_view(&self, pos: Pos2, size: Vec2) -> Pos2 {
        let Some(view) = self.shown_view() else {
            return pos;
        };
        let within = |at: f32, low: f32, high: f32| {
            if high < low { low } else { at.clamp(low, high) }
        };
        pos2(
            within(pos.x, view.left(), view.right() - size.x),
            within(pos.y, view.top(), view.bottom() - size.y),
        )
    }

    /// Where a node of `kind` added with no place of its own goes: centred in the canvas
    /// as it is shown (a node added from a menu or the library lands in view, as in
    /// Substance), or beside the others before the canvas was first drawn.
    pub(super) fn unplaced_position(&self, kind: &str) -> Pos2 {
        match self.shown_view() {
            Some(view) => view.center() - likely_size(&self.graph, kind, &self.canvas.sizes) / 2.0,
            None => free_position(&self.graph, &self.canvas.sizes),
        }
    }

    /// Adds a node of `kind` at `pos` (in view when `None`), clear of the others; selects
    /// it and returns its id.
    fn insert_node(&mut self, kind: &'static str, pos: Option<Pos2>) -> String {
        let wanted = pos.unwrap_or_else(|| self.unplaced_position(kind));
        let view = self.shown_view();
        let graph = &mut self.graph;
        let id = fresh_id(graph, kind);
        let sizes = &self.canvas.sizes;
        let size = likely_size(graph, kind, sizes);
        let pos = clear_spot(graph, size, wanted, sizes, view);
        let mut node = Node::new(id.clone(), kind);
        node.pos = file_position(pos);
        crate::document::fit_new_output(graph, &mut node);
        graph.nodes.push(node);
        self.select_created(vec![id.clone()]);
        self.canvas.settle.push((id.clone(), 0));
        id
    }

    /// Moves each node just added that, drawn, covers another to the nearest spot clear of
    /// them (it was placed by an estimate of its size). It is looked at for a few frames
    /// after it is first drawn too: a node can grow once its thumbnail or its ports arrive.
    /// Not an edit of its own: the move belongs to the step that added the node, which
    /// undo takes away whole.
    pub(super) fn settle_created(&mut self) {
        /// Frames to watch a node (one off screen is never drawn).
        const MOST_FRAMES: u8 = 8;
        if self.canvas.settle.is_empty() {
            return;
        }
        let view = self.shown_view();
        let mut moved = false;
        for (id, frames) in std::mem::take(&mut self.canvas.settle) {
            let Some(index) = self.graph.nodes.iter().position(|n| n.id == id) else {
                continue;
            };
            let Some(size) = self.canvas.sizes.get(&id).copied() else {
                if frames < MOST_FRAMES {
                    self.canvas.settle.push((id, frames + 1));
                }
                continue;
            };
            // Placed among the others, itself aside.
            let node = self.graph.nodes.remove(index);
            let at = pos2(node.pos[0], node.pos[1]);
            let spot = clear_spot(&self.graph, size, at, &self.canvas.sizes, view);
            self.graph.nodes.insert(index, node);
            if spot != at {
                self.graph.nodes[index].pos = file_position(spot);
                moved = true;
            }
            // Where no clear spot was in view (zoomed in on a crowded part), the view
            // follows the node: what was just made is never out of sight.
            self.reveal(Rect::from_min_size(spot, size));
            if frames < MOST_FRAMES {
                self.canvas.settle.push((id, frames + 1));
            }
        }
        if moved {
            crate::document::sync_snarl(&mut self.canvas.snarl, &self.graph);
        }
    }

    /// Pans the canvas, at its scale, as little as it takes to show `rect` (canvas units)
    /// whole, or its top-left part when it is larger than the view.
    fn reveal(&mut self, rect: Rect) {
        // The content moves by as much as keeping the rect in view would move the rect.
        let by = self.kept_in_view(rect.min, rect.size()) - rect.min;
        if by != Vec2::ZERO {
            let mut to_screen = self.canvas.view.to_screen;
            to_screen.translation += by * to_screen.scaling;
            self.canvas.view.to_screen = to_screen;
            self.canvas.view.restore = Some(to_screen);
        }
    }

    /// Removes nodes, their wires and their exposed params.
    pub(super) fn remove(&mut self, ids: Vec<String>) -> Applied {
        let graph = &mut self.graph;
        if ids.iter().all(|id| graph.node(id).is_none()) {
            return Applied::Nothing;
        }
        graph.nodes.retain(|n| !ids.contains(&n.id));
        // A removed node's params are exposed no more.
        graph.exposed.retain(|e| {
            e.target
                .split_once('.')
                .is_none_or(|(node, _)| !ids.iter().any(|id| id == node))
        });
        for node in &mut graph.nodes {
            node.inputs.retain(|_, r| {
                !ids.iter()
                    .any(|id| texgraph_core::graph::split_reference(r).0 == id)
            });
        }
        if self.selected.as_ref().is_some_and(|s| ids.contains(s)) {
            self.selected = None;
        }
        Applied::Edit(None)
    }

    /// Copies nodes beside themselves and selects the copies.
    pub(super) fn duplicate(&mut self, ids: Vec<String>) -> Applied {
        let graph = &mut self.graph;
        let copies: Vec<Node> = ids
            .iter()
            .filter_map(|id| graph.node(id).cloned())
            .collect();
        if copies.is_empty() {
            return Applied::Nothing;
        }
        let mut created = Vec::new();
        for mut copy in copies {
            copy.id = fresh_id(graph, &id_base(&copy));
            copy.pos = [copy.pos[0] + 40.0, copy.pos[1] + 40.0];
            crate::document::fit_new_output(graph, &mut copy);
            created.push(copy.id.clone());
            graph.nodes.push(copy);
        }
        self.select_created(created);
        Applied::Edit(None)
    }

    /// Pastes the nodes of a copied graph at `at`.
    pub(super) fn paste(&mut self, text: String, at: Option<Pos2>) -> Applied {
        let graph = &mut self.graph;
        let pasted = match Graph::from_json(&text) {
            Ok(pasted) if !pasted.nodes.is_empty() => pasted,
            _ => return Applied::Nothing, // not a texgraph graph: nothing to paste
        };
        let created = paste(graph, pasted, at);
        self.select_created(created);
        Applied::Edit(None)
    }

    /// Sets a node's label; typing one is one undo step.
    pub(super) fn set_label(&mut self, node: String, label: Option<String>) -> Applied {
        let graph = &mut self.graph;
        let label = label.filter(|l| !l.trim().is_empty());
        match graph.node_mut(&node) {
            Some(target) if target.label != label => target.label = label,
            _ => return Applied::Nothing,
        }
        // Typing a label is one undo step.
        Applied::Edit(Some(format!("{node}.label")))
    }

    /// Renames a node and every reference to it.
    pub(super) fn rename(&mut self, from: String, to: String) -> Applied {
        let graph = &mut self.graph;
        if let Err(reason) = rename(graph, &from, &to) {
            self.status = format!("cannot rename '{from}': {reason}");
            return Applied::Nothing;
        }
        for id in [&mut self.selected, &mut self.preview.pinned]
            .into_iter()
            .flatten()
            .chain(self.picked.iter_mut())
        {
            if *id == from {
                id.clone_from(&to);
            }
        }
        self.status = format!("renamed '{from}' to '{to}'");
        Applied::Edit(None)
    }

    /// Lays the nodes out anew and frames them.
    pub(super) fn arrange(&mut self) -> Applied {
        let graph = &mut self.graph;
        arrange(graph, &self.canvas.sizes);
        self.frame_all();
        Applied::Edit(None)
    }

    /// Names the graph.
    pub(super) fn set_name(&mut self, name: String) -> Applied {
        let graph = &mut self.graph;
        graph.name = Some(name).filter(|n| !n.is_empty());
        Applied::Edit(Some("settings.name".into()))
    }

    /// Makes the graph tile or not.
    pub(super) fn set_tileable(&mut self, tileable: bool) -> Applied {
        let graph = &mut self.graph;
        graph.settings.tileable = tileable;
        Applied::Edit(None)
    }

    /// Sets the graph's time.
    pub(super) fn set_time(&mut self, time: f32) -> Applied {
        let graph = &mut self.graph;
        graph.settings.time = time;
        Applied::Edit(Some("settings.time".into()))
    }
}
