//! The node canvas: how egui-snarl draws the graph. Every action here becomes a
//! [`Command`]; nothing is changed while drawing.

use std::collections::HashMap;

use eframe::egui::{self, Color32, Pos2, Sense, Stroke, TextureHandle, Ui};
use egui_snarl::ui::{PinInfo, SnarlPin, SnarlViewer};
use egui_snarl::{InPin, NodeId, OutPin, Snarl};
use texgraph_core::registry::{self, NODES, ParamKind, PortType};
use texgraph_core::{Graph, ParamValue, check_connection};

use crate::app::Command;
use crate::document::{decimal, input_name, input_ports, reference};

/// Side of a node's thumbnail on the canvas, in points.
pub const THUMBNAIL: f32 = 72.0;

/// What the canvas needs to draw one frame.
pub struct Canvas<'a> {
    /// The document.
    pub graph: &'a Graph,
    /// Edits made this frame.
    pub commands: &'a mut Vec<Command>,
    /// Compile errors by node id.
    pub errors: &'a HashMap<String, String>,
    /// Thumbnails by node id.
    pub thumbnails: &'a HashMap<String, TextureHandle>,
    /// The palette's search text.
    pub filter: &'a mut String,
    /// The node in the inspector.
    pub selected: Option<&'a str>,
    /// Nodes picked with Shift+click.
    pub picked: &'a [String],
    /// The node pinned to the preview.
    pub pinned: Option<&'a str>,
}

fn pin_color(ty: PortType) -> Color32 {
    match ty {
        PortType::Scalar => Color32::from_gray(170),
        PortType::Color => Color32::from_rgb(230, 150, 60),
        PortType::Any => Color32::from_rgb(90, 180, 170),
    }
}

impl Canvas<'_> {
    fn descriptor(&self, id: &str) -> Option<&'static registry::NodeDescriptor> {
        registry::lookup(&self.graph.node(id)?.kind)
    }
}

impl SnarlViewer<String> for Canvas<'_> {
    fn title(&mut self, id: &String) -> String {
        match self.descriptor(id) {
            Some(desc) => format!("{id}: {}", desc.label),
            None => id.clone(),
        }
    }

    fn inputs(&mut self, id: &String) -> usize {
        self.descriptor(id).map_or(0, |d| input_ports(d).len())
    }

    fn outputs(&mut self, id: &String) -> usize {
        self.descriptor(id).map_or(0, |d| d.outputs.len())
    }

    fn show_input(
        &mut self,
        pin: &InPin,
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) -> impl SnarlPin + 'static {
        let id = snarl[pin.id.node].clone();
        let Some(desc) = self.descriptor(&id) else {
            return PinInfo::circle();
        };
        let (name, ty) = input_ports(desc)[pin.id.input];
        ui.label(name);
        // An unconnected float param is edited right on its socket.
        if pin.remotes.is_empty()
            && let Some(ParamKind::Float { default, min, max }) = desc.param(name).map(|p| p.kind)
        {
            let node = self.graph.node(&id).expect("drawn nodes exist");
            let mut value = match node.params.get(name) {
                Some(ParamValue::Number(v)) => *v as f32,
                _ => default,
            };
            let speed = ((max - min) / 500.0).clamp(0.001, 10.0);
            if ui
                .add(
                    egui::DragValue::new(&mut value)
                        .speed(speed)
                        .range(min..=max),
                )
                .changed()
            {
                self.commands.push(Command::SetParam {
                    node: id.clone(),
                    param: name.to_owned(),
                    value: ParamValue::Number(decimal(value)),
                });
            }
        }
        PinInfo::circle().with_fill(pin_color(ty))
    }

    fn show_output(
        &mut self,
        pin: &OutPin,
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) -> impl SnarlPin + 'static {
        let id = &snarl[pin.id.node];
        if let Some(port) = self
            .descriptor(id)
            .and_then(|d| d.outputs.get(pin.id.output))
        {
            ui.label(port.name);
        }
        PinInfo::circle().with_fill(Color32::from_gray(220))
    }

    fn node_frame(
        &mut self,
        default: egui::Frame,
        node: NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<String>,
    ) -> egui::Frame {
        let id = snarl[node].as_str();
        if self.errors.contains_key(id) {
            default.stroke(Stroke::new(2.5, Color32::from_rgb(220, 50, 50)))
        } else if self.selected == Some(id) || self.picked.iter().any(|p| p == id) {
            default.stroke(Stroke::new(2.0, Color32::from_rgb(90, 160, 255)))
        } else {
            default
        }
    }

    fn show_header(
        &mut self,
        node: NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) {
        let id = snarl[node].clone();
        let title = self.title(&id);
        // Not selectable, so that a drag on the title moves the node; a click selects it.
        let response = ui.add(
            egui::Label::new(title)
                .selectable(false)
                .sense(Sense::click()),
        );
        if response.clicked() {
            self.commands.push(if ui.input(|i| i.modifiers.shift) {
                Command::Pick(id.clone())
            } else {
                Command::Select(Some(id.clone()))
            });
        }
        if let Some(message) = self.errors.get(&id) {
            response.on_hover_text(message.as_str());
        }
    }

    fn has_body(&mut self, _id: &String) -> bool {
        true
    }

    fn show_body(
        &mut self,
        node: NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) {
        let id = &snarl[node];
        match self.thumbnails.get(id) {
            Some(texture) => {
                ui.add(
                    egui::Image::new(texture).fit_to_exact_size(egui::vec2(THUMBNAIL, THUMBNAIL)),
                );
            }
            None => {
                ui.allocate_space(egui::vec2(THUMBNAIL, THUMBNAIL));
            }
        }
    }

    fn connect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<String>) {
        let source = reference(self.graph, &snarl[from.id.node], from.id.output);
        let target = snarl[to.id.node].clone();
        let Some(port) = input_name(self.graph, &target, to.id.input) else {
            return;
        };
        match check_connection(self.graph, &source, &target, port) {
            Ok(()) => self.commands.push(Command::Connect {
                from: source,
                to: target,
                port: port.to_owned(),
            }),
            Err(message) => self
                .commands
                .push(Command::Status(format!("cannot connect: {message}"))),
        }
    }

    fn disconnect(&mut self, _from: &OutPin, to: &InPin, snarl: &mut Snarl<String>) {
        self.drop_inputs(to, snarl);
    }

    fn drop_inputs(&mut self, pin: &InPin, snarl: &mut Snarl<String>) {
        let target = snarl[pin.id.node].clone();
        if let Some(port) = input_name(self.graph, &target, pin.id.input) {
            self.commands.push(Command::Disconnect {
                to: target,
                port: port.to_owned(),
            });
        }
    }

    fn drop_outputs(&mut self, pin: &OutPin, snarl: &mut Snarl<String>) {
        for remote in &pin.remotes {
            let target = snarl[remote.node].clone();
            if let Some(port) = input_name(self.graph, &target, remote.input) {
                self.commands.push(Command::Disconnect {
                    to: target,
                    port: port.to_owned(),
                });
            }
        }
    }

    fn has_graph_menu(&mut self, _pos: Pos2, _snarl: &mut Snarl<String>) -> bool {
        true
    }

    fn show_graph_menu(&mut self, pos: Pos2, ui: &mut Ui, _snarl: &mut Snarl<String>) {
        if let Some(kind) = palette(ui, self.filter) {
            self.commands.push(Command::AddNode {
                kind,
                pos: Some(pos),
            });
            ui.close();
        }
    }

    fn has_node_menu(&mut self, _id: &String) -> bool {
        true
    }

    fn show_node_menu(
        &mut self,
        node: NodeId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) {
        let id = snarl[node].clone();
        if self.pinned == Some(id.as_str()) {
            if ui.button("Unpin from preview").clicked() {
                self.commands.push(Command::Pin(None));
                ui.close();
            }
        } else if ui.button("Show in preview").clicked() {
            self.commands.push(Command::Pin(Some(id.clone())));
            ui.close();
        }
        if ui.button("Duplicate").clicked() {
            self.commands.push(Command::Duplicate(vec![id.clone()]));
            ui.close();
        }
        if ui.button("Delete").clicked() {
            self.commands.push(Command::Remove(vec![id]));
            ui.close();
        }
    }
}

/// The searchable list of node types; the chosen type, if any. The search box takes the
/// keyboard as soon as the palette opens, and Enter picks the first match.
pub fn palette(ui: &mut Ui, filter: &mut String) -> Option<&'static str> {
    let search = ui.add(
        egui::TextEdit::singleline(filter)
            .hint_text("search nodes")
            .id(egui::Id::new("palette_search")),
    );
    // Read before taking the focus back: `lost_focus` asks egui's current focus state.
    let submitted = search.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    if !search.has_focus() {
        search.request_focus();
    }
    let needle = filter.to_lowercase();
    let matches: Vec<_> = NODES
        .iter()
        .filter(|d| {
            needle.is_empty()
                || d.id.contains(&needle)
                || d.label.to_lowercase().contains(&needle)
                || d.category.label().to_lowercase().contains(&needle)
        })
        .collect();
    let mut chosen = None;
    if submitted {
        chosen = matches.first().map(|d| d.id);
    }
    ui.separator();
    for desc in &matches {
        if ui
            .button(format!("{} — {}", desc.label, desc.category.label()))
            .on_hover_text(desc.doc)
            .clicked()
        {
            chosen = Some(desc.id);
        }
    }
    if chosen.is_some() {
        filter.clear();
    }
    chosen
}
