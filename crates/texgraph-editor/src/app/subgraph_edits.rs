//! Subgraphs: exposing params, adding graph files as nodes, opening them and coming back.

use eframe::egui::Pos2;
use texgraph_core::{Node, ParamValue};

use super::EditorApp;
use super::commands::{Applied, subgraph_id_base};
use crate::command::DroppedWire;
use crate::document::{clear_spot, file_position, fresh_id, likely_size};

impl EditorApp {
    /// Exposes a param to graphs using this file as a node, or stops exposing it.
    pub(super) fn toggle_exposed(&mut self, node: String, param: String) -> Applied {
        let graph = &mut self.graph;
        let target = format!("{node}.{param}");
        if let Some(at) = graph.exposed.iter().position(|e| e.target == target) {
            let gone = graph.exposed.remove(at);
            self.status = format!("'{}' is no longer exposed", gone.name);
        } else {
            let taken = |name: &str| graph.exposed.iter().any(|e| e.name == name);
            let plain = |text: &str| {
                text.chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect::<String>()
            };
            // A slider the user named and ranged (a formula's p1) is exposed as such.
            let slider = graph.node(&node).and_then(|n| {
                let desc = texgraph_core::registry::lookup(&n.kind)?;
                let ranged = desc.sets_slider(&format!("{param}_min"));
                let mut slider = ranged.then(|| desc.slider(&param, &n.params)).flatten()?;
                // The exposed range must hold the value the file gives.
                if let Some(texgraph_core::ParamValue::Number(v)) = n.params.get(&param) {
                    slider.min = slider.min.min(*v as f32);
                    slider.max = slider.max.max(*v as f32);
                }
                Some(slider)
            });
            let mut name = match &slider {
                Some(s) if s.label != param => plain(&s.label),
                _ => plain(&param),
            };
            if taken(&name) || name == "file" {
                name = plain(&format!("{node}_{param}"));
            }
            let base = name.clone();
            let mut n = 2;
            while taken(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            self.status =
                format!("exposed {target} as '{name}': graphs using this file as a node show it");
            graph.exposed.push(texgraph_core::graph::Exposed {
                name,
                target,
                doc: String::new(),
                min: slider.as_ref().map(|s| f64::from(s.min)),
                max: slider.as_ref().map(|s| f64::from(s.max)),
            });
        }
        Applied::Edit(None)
    }

    /// Adds a node that runs the graph file `file`.
    pub(super) fn add_subgraph(&mut self, file: String, pos: Option<Pos2>) -> Applied {
        self.insert_subgraph(file, pos);
        Applied::Edit(None)
    }

    /// Adds a node that runs built-in library graph `file` where a wire was let go, and
    /// connects it to the wire: into the graph's first input, out of its first output.
    /// One undo step with the node.
    pub(super) fn add_wired_subgraph(
        &mut self,
        file: String,
        pos: Pos2,
        wire: DroppedWire,
    ) -> Applied {
        let pos = self.wired_position(texgraph_core::graph::SUBGRAPH_KIND, pos, &wire);
        let first_input = texgraph_core::subgraph::interface(std::path::Path::new(&file))
            .ok()
            .and_then(|interface| interface.inputs.first().map(|p| p.name.clone()));
        let id = self.insert_subgraph(file, Some(pos));
        self.take_wire(id, first_input, wire);
        Applied::Edit(None)
    }

    /// Adds a node that runs `file` at `pos` (or in the middle of the view), selected;
    /// returns its id.
    fn insert_subgraph(&mut self, file: String, pos: Option<Pos2>) -> String {
        let kind = texgraph_core::graph::SUBGRAPH_KIND;
        let wanted = pos.unwrap_or_else(|| self.unplaced_position(kind));
        let view = self.shown_view();
        let graph = &mut self.graph;
        let id = fresh_id(graph, &subgraph_id_base(&file));
        let mut node = Node::new(id.clone(), kind);
        node.params
            .insert("file".to_owned(), ParamValue::Text(file));
        let sizes = &self.canvas.sizes;
        let size = likely_size(graph, kind, sizes);
        node.pos = file_position(clear_spot(graph, size, wanted, sizes, view));
        graph.nodes.push(node);
        self.select_created(vec![id.clone()]);
        self.canvas.settle.push((id.clone(), 0));
        id
    }

    /// Opens the graph a subgraph node runs.
    pub(super) fn open_subgraph_node(&mut self, id: String) -> Applied {
        match self.graph.node(&id).and_then(|n| n.params.get("file")) {
            Some(ParamValue::Text(file)) if file.starts_with(texgraph_core::library::PREFIX) => {
                self.status = format!(
                    "'{id}' runs {}, built into texgraph: set its params in the inspector \
                     (its nodes are listed in docs/nodes.md, Library)",
                    texgraph_core::text::printable(file)
                );
            }
            Some(ParamValue::Text(file)) if !file.is_empty() => {
                let path = texgraph_core::paths::beside(&self.folder(), file);
                self.open_subgraph(id, path);
            }
            _ => self.status = format!("'{id}' has no graph file to open"),
        }
        Applied::Replaced
    }

    /// Goes back up the trail of opened subgraphs.
    pub(super) fn back(&mut self, level: usize) -> Applied {
        self.back_to(level);
        Applied::Replaced
    }
}
