//! The node canvas: how egui-snarl draws the graph. Every action here becomes a
//! [`Command`]; nothing is changed while drawing.

use std::collections::HashMap;

use eframe::egui::emath::TSTransform;
use eframe::egui::{self, Color32, Pos2, Sense, Stroke, TextureHandle, Ui};
use egui_snarl::ui::{AnyPins, BackgroundPattern, PinInfo, SnarlPin, SnarlStyle, SnarlViewer};
use egui_snarl::{InPin, NodeId, OutPin, OutPinId, Snarl};
use texgraph_core::registry::{self, NODES, OpenValue, ParamKind, PortType, Unconnected};

use texgraph_core::{Graph, ParamValue, check_connection};

use crate::command::{Command, DroppedWire};
use crate::document::{DrawnSizes, THUMBNAIL, input_name, node_rect, reference};
use crate::panels::comments;
use crate::panels::library_thumbnails;
use crate::shown::decimal;
use crate::subgraphs::ports;

/// Below this scale node text is not drawn. The canvas is a scaled layer, so its glyphs
/// are rasterized at full size and minified when drawn; egui's font atlas has no mipmaps,
/// so a one-texel stroke keeps as little as 1 − 1/(2·scale) of its ink, and in the dark
/// theme's gray text the thin ones vanish: "0.500" read "0 500" and "input" "inp.it" at
/// 0.61, 0.65 and 0.72 (where a stroke keeps 18–31%). From 0.85 up (41%, near the 50% of
/// text drawn between pixels at full size) nothing was lost. Nodes keep their size and
/// thumbnails, and the title shows on hover.
pub const LEGIBLE_SCALE: f32 = 0.85;
/// The smallest scale the canvas zooms to.
pub const MIN_SCALE: f32 = 0.05;
/// The largest scale the canvas zooms to.
const MAX_SCALE: f32 = 2.0;
/// The largest scale "frame all" picks (a small graph is not blown up).
const FRAMING_MAX_SCALE: f32 = 1.25;
/// Zoom per point of wheel scrolling: a wheel line (40 points in egui) zooms by about 8%.
pub const WHEEL_ZOOM_PER_POINT: f32 = 0.002;

/// Changes to the canvas view asked for this frame, applied when egui-snarl hands its
/// transform to the viewer.
#[derive(Debug, Default, Clone)]
pub struct ViewRequest {
    /// Fit the nodes into this screen rectangle, no smaller than this scale.
    pub frame: Option<(egui::Rect, f32)>,
    /// Fit only these nodes (Frame selected), not every node and comment.
    pub frame_only: Option<Vec<String>>,
    /// Zoom about this screen point by this factor (the mouse wheel).
    pub zoom: Option<(Pos2, f32)>,
    /// Go back to this view (a graph shown again as it was left).
    pub restore: Option<TSTransform>,
    /// The canvas's scale after this frame's changes.
    pub scale: f32,
    /// Canvas (node position) to screen, after this frame's changes.
    pub to_screen: TSTransform,
}

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
    /// The node in the inspector.
    pub selected: Option<&'a str>,
    /// The comment in the inspector.
    pub selected_comment: Option<usize>,
    /// The nodes Delete and Copy act on (outlined as selected).
    pub selection: &'a [String],
    /// The node pinned to the preview.
    pub pinned: Option<&'a str>,
    /// Warnings by node id (amber outline).
    pub warnings: &'a HashMap<String, String>,
    /// View changes to make this frame.
    pub view: &'a mut ViewRequest,
    /// The node being renamed, with the id typed so far.
    pub renaming: &'a mut Option<(String, String)>,
    /// Nodes computed over the whole image before what reads them (a stage ends there).
    pub stages: &'a std::collections::HashSet<String>,
    /// The sizes nodes are drawn at, kept up to date as they are drawn.
    pub sizes: &'a mut DrawnSizes,
}

/// The constant an open input reads, as short as a socket has room for.
fn open_value_text(value: OpenValue) -> String {
    match value {
        OpenValue::FLAT_NORMAL => "flat".to_owned(),
        OpenValue::Gray(v) => format!("{v}"),
        OpenValue::Rgba([r, g, b, a]) => format!("{r}, {g}, {b}, {a}"),
    }
}

/// Width of a value edited on a socket: room for `-12.345` at the default font.
pub const SOCKET_VALUE_WIDTH: f32 = 56.0;

/// The badge of a node whose value is computed over the whole image first.
pub const STAGE_BADGE: &str = "raster";
/// What the badge means.
const STAGE_HINT: &str = "computed over the whole image before the nodes that read it \
                          (a raster stage: see `texgraph plan`)";

/// The outline of a selected node (its glow when it has a problem's outline).
const SELECTED: Color32 = Color32::from_rgb(90, 160, 255);

/// The pins and wires of a node whose type or graph file is unknown.
const BROKEN: Color32 = Color32::from_rgb(230, 90, 80);

/// The outline of a node with a warning (unfinished, not used by any output).
pub const AMBER: Color32 = Color32::from_rgb(230, 170, 40);

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

    /// The value of node `id`'s first param when that is a choice.
    fn face_choice(&self, id: &str) -> Option<String> {
        let param = self.descriptor(id)?.params.first()?;
        let ParamKind::Choice { default, .. } = param.kind else {
            return None;
        };
        Some(match self.graph.node(id)?.params.get(param.name) {
            Some(ParamValue::Text(value)) => texgraph_core::text::printable(value).into_owned(),
            _ => default.to_owned(),
        })
    }

    /// Makes the text of `ui` and its value fields invisible when the canvas is zoomed out
    /// below [`LEGIBLE_SCALE`] (laid out all the same, so nodes keep their size); true
    /// then.
    fn hide_text_when_small(&self, ui: &mut Ui) -> bool {
        if self.view.scale >= LEGIBLE_SCALE {
            return false;
        }
        let visuals = ui.visuals_mut();
        visuals.override_text_color = Some(Color32::TRANSPARENT);
        visuals.weak_text_color = Some(Color32::TRANSPARENT);
        let widgets = &mut visuals.widgets;
        for state in [
            &mut widgets.noninteractive,
            &mut widgets.inactive,
            &mut widgets.hovered,
            &mut widgets.active,
            &mut widgets.open,
        ] {
            state.fg_stroke.color = Color32::TRANSPARENT;
            // The value fields' boxes too: empty boxes would read as grey bars.
            state.bg_fill = Color32::TRANSPARENT;
            state.weak_bg_fill = Color32::TRANSPARENT;
            state.bg_stroke.color = Color32::TRANSPARENT;
        }
        true
    }
}

impl SnarlViewer<String> for Canvas<'_> {
    fn title(&mut self, id: &String) -> String {
        // A node's label is its title; the id, which connections use, shows beside it.
        if let Some(label) = self.graph.node(id).and_then(|n| n.label.as_deref()) {
            return texgraph_core::text::printable(label).into_owned();
        }
        let shown = texgraph_core::text::printable(id);
        match ports(self.graph, id) {
            Some(ports) => format!("{shown}: {}", texgraph_core::text::printable(&ports.label)),
            None => shown.into_owned(),
        }
    }

    fn inputs(&mut self, id: &String) -> usize {
        ports(self.graph, id).map_or(0, |p| p.inputs.len())
    }

    fn outputs(&mut self, id: &String) -> usize {
        ports(self.graph, id).map_or(0, |p| p.outputs.len())
    }

    fn show_input(
        &mut self,
        pin: &InPin,
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) -> impl SnarlPin + 'static {
        self.hide_text_when_small(ui);
        let id = snarl[pin.id.node].clone();
        let Some((name, ty)) =
            ports(self.graph, &id).and_then(|p| p.inputs.get(pin.id.input).cloned())
        else {
            return PinInfo::circle();
        };
        let name = name.as_str();
        ui.label(crate::subgraphs::pin_label(self.graph, &id, name));
        // What an open socket shows goes in a scope of its own, which takes the same
        // number of widget ids open or connected: the pin's id, which the canvas takes
        // next, must not change while a wire lifted off it is dragged.
        if pin.remotes.is_empty() {
            ui.scope(|ui| self.open_socket(ui, &id, name));
        } else {
            ui.scope(|_| {});
        }
        // A node whose type or file is unknown keeps its wires, red, as its outline is.
        let broken = ports(self.graph, &id).is_some_and(|p| p.unloaded);
        PinInfo::circle().with_fill(if broken { BROKEN } else { pin_color(ty) })
    }

    fn show_output(
        &mut self,
        pin: &OutPin,
        ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) -> impl SnarlPin + 'static {
        self.hide_text_when_small(ui);
        let id = &snarl[pin.id.node];
        if let Some(port) =
            ports(self.graph, id).and_then(|p| p.outputs.get(pin.id.output).cloned())
        {
            ui.label(texgraph_core::text::printable(&port));
        }
        let broken = ports(self.graph, id).is_some_and(|p| p.unloaded);
        PinInfo::circle().with_fill(if broken {
            BROKEN
        } else {
            Color32::from_gray(220)
        })
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
        let selected = self.selection.iter().any(|p| p == id);
        let frame = if self.errors.contains_key(id) {
            default.stroke(Stroke::new(2.5, Color32::from_rgb(220, 50, 50)))
        } else if self.warnings.contains_key(id) {
            default.stroke(Stroke::new(2.5, AMBER))
        } else if selected {
            return default.stroke(Stroke::new(2.0, SELECTED));
        } else {
            return default;
        };
        // A selected node with a problem keeps the problem's outline, and glows.
        if selected {
            frame.shadow(egui::Shadow {
                offset: [0, 0],
                blur: 10,
                spread: 3,
                color: SELECTED,
            })
        } else {
            frame
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
        let small = self.hide_text_when_small(ui);
        let id = snarl[node].clone();
        let title = self.title(&id);
        // A label is the title, with the id after it, dimmed: one piece of text, so a click
        // anywhere on it selects (and a double-click opens a subgraph).
        let mut text = egui::text::LayoutJob::default();
        let style = ui.style();
        egui::RichText::new(title).append_to(
            &mut text,
            style,
            egui::FontSelection::Default,
            egui::Align::Center,
        );
        if self.graph.node(&id).is_some_and(|n| n.label.is_some()) {
            let shown = format!("  {}", texgraph_core::text::printable(&id));
            egui::RichText::new(shown).weak().append_to(
                &mut text,
                style,
                egui::FontSelection::Default,
                egui::Align::Center,
            );
        }
        // Not selectable, so that a drag on the title moves the node; a click selects it.
        let label = ui.add(
            egui::Label::new(text)
                .selectable(false)
                .sense(Sense::click()),
        );
        // A node whose first param is a choice (a blend's mode, a math operation, a
        // wave's kind) shows it on its face, as Substance does.
        if let Some(choice) = self.face_choice(&id) {
            ui.add(egui::Label::new(egui::RichText::new(choice).weak()).selectable(false));
        }
        if self.stages.contains(&id) && !small {
            // Body-sized text on a solid chip: readable at the canvas's usual scales.
            let badge = egui::RichText::new(STAGE_BADGE).color(Color32::from_rgb(10, 20, 30));
            egui::Frame::new()
                .fill(Color32::from_rgb(120, 190, 230))
                .corner_radius(3.0)
                .inner_margin(egui::Margin::symmetric(4, 0))
                .show(ui, |ui| ui.add(egui::Label::new(badge).selectable(false)))
                .response
                .on_hover_text(STAGE_HINT);
        }
        // The rest of the header selects too (clicks only: a drag still moves the node).
        // Sensed, not allocated: taking the room would hold the node at the width it had
        // (egui-snarl keeps a node's size by its snarl id), so it could grow but never
        // shrink back, as when a node takes over the id of a wider one.
        let rest_rect = egui::Rect::from_min_max(
            egui::pos2(label.rect.right(), label.rect.top()),
            egui::pos2(ui.max_rect().right(), label.rect.bottom()),
        );
        let rest = ui.interact(
            rest_rect,
            ui.id().with(("header_rest", &id)),
            Sense::click(),
        );
        let response = label.union(rest);
        let subgraph = self
            .graph
            .node(&id)
            .is_some_and(|n| n.kind == texgraph_core::graph::SUBGRAPH_KIND);
        if subgraph && response.double_clicked() {
            self.commands.push(Command::OpenSubgraph(id.clone()));
        } else if response.double_clicked() {
            // As in Substance: a double-click shows the node in the 2D view, and it stays.
            self.commands.push(Command::Pin(Some(id.clone())));
        } else if response.clicked() {
            self.commands.push(if ui.input(|i| i.modifiers.shift) {
                Command::Pick(id.clone())
            } else {
                Command::Select(Some(id.clone()))
            });
        }
        // The title takes the clicks, so it opens the node's menu itself.
        response.context_menu(|ui| self.node_menu(&id, ui));
        if let Some(message) = self.errors.get(&id).or_else(|| self.warnings.get(&id)) {
            response.on_hover_text(texgraph_core::text::printable(message));
        } else if small {
            response.on_hover_text(self.title(&id));
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
        let size = egui::vec2(THUMBNAIL, THUMBNAIL);
        // Clicks only: a drag on the thumbnail still moves the node.
        let response = match self.thumbnails.get(id) {
            Some(texture) => ui.add(
                egui::Image::new(texture)
                    .fit_to_exact_size(size)
                    .sense(Sense::click()),
            ),
            None => ui.allocate_response(size, Sense::click()),
        };
        if response.double_clicked() {
            self.commands.push(Command::Pin(Some(id.clone())));
        }
    }

    fn connect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<String>) {
        let source = reference(self.graph, &snarl[from.id.node], from.id.output);
        let target = snarl[to.id.node].clone();
        let Some(port) = input_name(self.graph, &target, to.id.input) else {
            return;
        };
        // A subgraph's ports are its file's, read relative to this graph's folder: the
        // command checks the connection against that.
        let subgraph = self
            .graph
            .node(&target)
            .is_some_and(|n| n.kind == texgraph_core::graph::SUBGRAPH_KIND);
        let checked = if subgraph {
            Ok(())
        } else {
            check_connection(self.graph, &source, &target, &port)
        };
        match checked {
            Ok(()) => self.commands.push(Command::Connect {
                from: source,
                to: target,
                port,
            }),
            Err(message) => self
                .commands
                .push(Command::Status(format!("cannot connect: {message}"))),
        }
    }

    fn disconnect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<String>) {
        // A right-click on a wire: its menu (disconnect, or insert a node there).
        let node = snarl[to.id.node].clone();
        if let Some(port) = input_name(self.graph, &node, to.id.input) {
            self.commands.push(Command::OpenWireMenu {
                from: reference(self.graph, &snarl[from.id.node], from.id.output),
                node,
                port,
            });
        }
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
                self.commands.push(Command::Disconnect { to: target, port });
            }
        }
    }

    fn has_graph_menu(&mut self, _pos: Pos2, _snarl: &mut Snarl<String>) -> bool {
        true
    }

    fn show_graph_menu(&mut self, pos: Pos2, ui: &mut Ui, _snarl: &mut Snarl<String>) {
        // Right-click opens the same palette as Space and Tab, and the node goes where
        // the click was (`pos` is where the menu's contents start, a margin away).
        let cursor = ui.cursor().min;
        let pointer = ui.input(|i| i.pointer.interact_pos()).unwrap_or(cursor);
        self.commands.push(Command::OpenPalette {
            at: Some(pos + (pointer - cursor) / self.view.scale.max(0.01)),
            screen: pointer,
        });
        ui.close();
    }

    fn has_dropped_wire_menu(&mut self, src: AnyPins, snarl: &mut Snarl<String>) -> bool {
        // A wire lifted off an input (Ctrl+drag) and let go is only taken off, as in
        // Substance: no palette (it would take the keyboard, and Ctrl+Z with it).
        !matches!(src, AnyPins::Out(pins) if self.lifted(pins, snarl))
    }

    fn show_dropped_wire_menu(
        &mut self,
        pos: Pos2,
        ui: &mut Ui,
        src: AnyPins,
        snarl: &mut Snarl<String>,
    ) {
        // The palette opens where the wire was let go, filtered to the nodes that can
        // take it, and the node chosen goes there, connected.
        let wire = match src {
            AnyPins::Out(pins) => pins
                .first()
                .map(|pin| DroppedWire::From(reference(self.graph, &snarl[pin.node], pin.output))),
            AnyPins::In(pins) => pins.first().and_then(|pin| {
                let node = snarl[pin.node].clone();
                let port = input_name(self.graph, &node, pin.input)?;
                Some(DroppedWire::Into { node, port })
            }),
        };
        if let Some(wire) = wire {
            let cursor = ui.cursor().min;
            let pointer = ui.input(|i| i.pointer.interact_pos()).unwrap_or(cursor);
            self.commands.push(Command::OpenWirePalette {
                at: pos + (pointer - cursor) / self.view.scale.max(0.01),
                screen: pointer,
                wire,
            });
        }
        ui.close();
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
        self.node_menu(&id, ui);
    }

    fn draw_background(
        &mut self,
        background: Option<&BackgroundPattern>,
        viewport: &egui::Rect,
        snarl_style: &SnarlStyle,
        style: &egui::Style,
        painter: &egui::Painter,
        _snarl: &Snarl<String>,
    ) {
        if let Some(background) = background {
            background.draw(viewport, snarl_style, style, painter);
        }
        comments::paint(painter, style, self.graph, self.selected_comment);
    }

    fn final_node_rect(
        &mut self,
        node: NodeId,
        rect: egui::Rect,
        _ui: &mut Ui,
        snarl: &mut Snarl<String>,
    ) {
        // In canvas units (the canvas's layer carries the zoom).
        let id = &snarl[node];
        if self.sizes.get(id) != Some(&rect.size()) {
            self.sizes.insert(id.clone(), rect.size());
        }
    }

    fn current_transform(&mut self, to_global: &mut TSTransform, snarl: &mut Snarl<String>) {
        if let Some(view) = self.view.restore.take() {
            *to_global = view;
        }
        if let Some((viewport, min_scale)) = self.view.frame.take() {
            let bounds = match self.view.frame_only.take() {
                Some(ids) => nodes_bounds(self.graph, snarl, self.sizes, &ids),
                None => node_bounds(self.graph, snarl, self.sizes),
            };
            *to_global = framing(viewport, bounds, min_scale);
        }
        if let Some((pointer, factor)) = self.view.zoom.take() {
            let scaling = (to_global.scaling * factor).clamp(MIN_SCALE, MAX_SCALE);
            let at = to_global.inverse() * pointer;
            // Keep the point under the pointer where it is.
            *to_global = TSTransform::new(pointer.to_vec2() - at.to_vec2() * scaling, scaling);
        }
        self.view.scale = to_global.scaling;
        self.view.to_screen = *to_global;
    }
}

impl Canvas<'_> {
    /// What an open input socket shows: the param's value to edit, or the constant the
    /// input reads.
    fn open_socket(&mut self, ui: &mut Ui, id: &str, name: &str) {
        // A subgraph's exposed param defaults to its value in the file.
        let (kind, fallback) = match self.descriptor(id) {
            Some(desc) => (desc.param(name).map(|p| p.kind), None),
            None => crate::subgraphs::interface(self.graph, id)
                .and_then(|i| {
                    i.param(name)
                        .map(|p| (Some(p.kind), Some(p.default_value())))
                })
                .unwrap_or((None, None)),
        };
        // An unconnected float param is edited right on its socket.
        if let Some(ParamKind::Float { default, min, max }) = kind {
            let default = match fallback {
                Some(ParamValue::Number(v)) => v as f32,
                _ => default,
            };
            let node = self.graph.node(id).expect("drawn nodes exist");
            let mut value = match node.params.get(name) {
                Some(ParamValue::Number(v)) => *v as f32,
                _ => default,
            };
            let speed = ((max - min) / 500.0).clamp(0.001, 10.0);
            // A fixed width, so the node does not grow and shrink as the value's text does.
            let size = egui::vec2(SOCKET_VALUE_WIDTH, ui.spacing().interact_size.y);
            if ui
                .add_sized(
                    size,
                    egui::DragValue::new(&mut value)
                        .speed(speed)
                        .range(min..=max),
                )
                .changed()
            {
                self.commands.push(Command::DragParam {
                    node: id.to_owned(),
                    param: name.to_owned(),
                    value: ParamValue::Number(decimal(value)),
                });
            }
        }
        // An open input shows the constant it reads, dimmed, as Substance shows its
        // defaults; hovering says so in words.
        if let Some(Unconnected::Reads(value)) = self
            .descriptor(id)
            .and_then(|d| d.input(name))
            .map(|p| p.unconnected)
        {
            ui.weak(open_value_text(value))
                .on_hover_text(format!("not connected: reads {}", value.describe()));
        }
    }

    /// Whether a wire out of `pins` was lifted off an input: the graph still has a
    /// connection from them that the canvas no longer draws.
    fn lifted(&self, pins: &[OutPinId], snarl: &Snarl<String>) -> bool {
        pins.iter().any(|pin| {
            let source = reference(self.graph, &snarl[pin.node], pin.output);
            let drawn = |node: &str, port: &str| {
                snarl.wires().any(|(from, to)| {
                    from == *pin
                        && snarl[to.node] == node
                        && input_name(self.graph, node, to.input).as_deref() == Some(port)
                })
            };
            self.graph.nodes.iter().any(|n| {
                n.inputs
                    .iter()
                    .any(|(port, r)| *r == source && !drawn(&n.id, port))
            })
        })
    }

    /// The node's menu (right-click on its title or body).
    fn node_menu(&mut self, id: &str, ui: &mut Ui) {
        if self.pinned == Some(id) {
            if ui.button("Unpin from preview").clicked() {
                self.commands.push(Command::Pin(None));
                ui.close();
            }
        } else if ui.button("Show in preview").clicked() {
            self.commands.push(Command::Pin(Some(id.to_owned())));
            ui.close();
        }
        let subgraph = self
            .graph
            .node(id)
            .is_some_and(|n| n.kind == texgraph_core::graph::SUBGRAPH_KIND);
        if subgraph
            && ui
                .button("Open graph file")
                .on_hover_text("or double-click the title")
                .clicked()
        {
            self.commands.push(Command::OpenSubgraph(id.to_owned()));
            ui.close();
        }
        if ui.button("Rename…").clicked() {
            *self.renaming = Some((id.to_owned(), id.to_owned()));
            ui.close();
        }
        if ui.button("Duplicate").clicked() {
            self.commands.push(Command::Duplicate(vec![id.to_owned()]));
            ui.close();
        }
        if ui.button("Delete").clicked() {
            self.commands.push(Command::Remove(vec![id.to_owned()]));
            ui.close();
        }
    }
}

/// The canvas rectangle the nodes `ids` cover, if any of them is drawn.
fn nodes_bounds(
    graph: &Graph,
    snarl: &Snarl<String>,
    sizes: &DrawnSizes,
    ids: &[String],
) -> Option<egui::Rect> {
    snarl
        .nodes_pos_ids()
        .filter(|(_, _, id)| ids.contains(id))
        .filter_map(|(_, pos, id)| Some(node_rect(graph.node(id)?, pos, sizes)))
        .reduce(|a, b| a.union(b))
}

/// The canvas rectangle the nodes and comments cover, if there are any.
fn node_bounds(graph: &Graph, snarl: &Snarl<String>, sizes: &DrawnSizes) -> Option<egui::Rect> {
    snarl
        .nodes_pos_ids()
        .filter_map(|(_, pos, id)| Some(node_rect(graph.node(id)?, pos, sizes)))
        .chain(graph.comments.iter().map(crate::comment_layout::rect))
        .reduce(|a, b| a.union(b))
}

/// The view that shows `bounds` centred in `viewport`, as large as fits but no smaller
/// than `min_scale` (the nodes' text readable when a file opens; [`MIN_SCALE`] when the
/// person asks to see everything).
pub fn framing(viewport: egui::Rect, bounds: Option<egui::Rect>, min_scale: f32) -> TSTransform {
    let Some(bounds) = bounds.map(|b| b.expand(30.0)) else {
        return TSTransform::new(viewport.center().to_vec2(), 1.0);
    };
    let scale = (viewport.size() / bounds.size())
        .min_elem()
        .clamp(min_scale, FRAMING_MAX_SCALE);
    TSTransform::new(
        viewport.center().to_vec2() - bounds.center().to_vec2() * scale,
        scale,
    )
}

/// The palette's search text and highlighted entry.
#[derive(Debug, Default, Clone)]
pub struct PaletteState {
    /// What was typed.
    pub filter: String,
    /// The highlighted match (Enter adds it; the arrow keys move it).
    pub highlight: usize,
    /// The filter the highlight belongs to (typing starts again at the first match).
    highlighted_for: String,
}

/// Side of a library graph's thumbnail in the palette, in points.
const PALETTE_THUMBNAIL: f32 = 28.0;

/// An entry of the palette: a node type, or a built-in library graph (added as a `graph`
/// node running `library:NAME`).
#[derive(Clone)]
pub struct PaletteItem {
    /// The node type, or `library:NAME`.
    pub id: &'static str,
    /// The name shown.
    pub label: String,
    /// Its group: the node's category, or the library graph's (shown after "Library").
    pub category: String,
    /// What it does.
    pub doc: String,
    /// The node type's descriptor (`None` for a library graph).
    pub node: Option<&'static registry::NodeDescriptor>,
    /// Whether it has input ports, and outputs: which dropped wires it can take.
    pub ports: (bool, bool),
}

/// Every palette entry: the node types in registry order, then the library's graphs.
fn palette_items_all() -> &'static [PaletteItem] {
    static ITEMS: std::sync::OnceLock<Vec<PaletteItem>> = std::sync::OnceLock::new();
    ITEMS.get_or_init(|| {
        let nodes = NODES.iter().map(|d| PaletteItem {
            id: d.id,
            label: d.label.to_owned(),
            category: d.category.label().to_owned(),
            doc: d.doc.to_owned(),
            node: Some(*d),
            ports: (!d.inputs.is_empty(), !d.outputs.is_empty()),
        });
        let library = texgraph_core::catalog::library_entries()
            .into_iter()
            .map(|e| PaletteItem {
                // Leaked once: the ids live as long as the program, as the registry's do.
                id: Box::leak(e.file.into_boxed_str()),
                label: e.label,
                category: format!("Library › {}", e.category),
                doc: e.doc,
                node: None,
                ports: (
                    !e.interface.inputs.is_empty(),
                    !e.interface.outputs.is_empty(),
                ),
            });
        nodes.chain(library).collect()
    })
}

/// The palette entries (node types and library graphs) whose id, label, search words
/// ([`SEARCH_WORDS`](texgraph_core::search_words::SEARCH_WORDS) and the names other tools use: what Substance and Material Maker
/// users type, such as "invert", "splatter" or "grunge") or category contains `filter`
/// (any case): those whose id or label is the filter first, then those starting with it,
/// then those a search word finds (in the table's order), then those containing it, then
/// by category, each group with the node types first in registry order (so `color`
/// offers the Color node before the Color Ramp).
pub fn palette_items(filter: &str) -> Vec<&'static PaletteItem> {
    let needle = filter.trim().to_lowercase();
    // Where a search word finds each entry: its rank among the words' finds.
    let by_word: Vec<&str> = if needle.is_empty() {
        Vec::new()
    } else {
        texgraph_core::search_words::all_words()
            .filter(|(word, _)| word.starts_with(&needle) || needle.starts_with(word.as_str()))
            .map(|(_, id)| id)
            .collect()
    };
    let rank = |item: &PaletteItem| {
        let label = item.label.to_lowercase();
        let id = item.id.trim_start_matches(texgraph_core::library::PREFIX);
        if needle.is_empty() || id == needle || label == needle {
            Some(0)
        } else if id.starts_with(&needle) || label.starts_with(&needle) {
            Some(1)
        } else if let Some(at) = by_word.iter().position(|w| *w == item.id) {
            Some(2 + at)
        } else if id.contains(&needle) || label.contains(&needle) {
            Some(2 + by_word.len())
        } else if item.category.to_lowercase().contains(&needle) {
            Some(3 + by_word.len())
        } else {
            None
        }
    };
    let mut found: Vec<_> = palette_items_all()
        .iter()
        .filter_map(|item| rank(item).map(|r| (r, item)))
        .collect();
    // A stable sort keeps the node types first, in registry order, within a rank.
    found.sort_by_key(|(r, _)| *r);
    found.into_iter().map(|(_, item)| item).collect()
}

/// The node types among [`palette_items`].
pub fn palette_matches(filter: &str) -> Vec<&'static registry::NodeDescriptor> {
    palette_items(filter)
        .into_iter()
        .filter_map(|item| item.node)
        .collect()
}

/// The searchable list of node types and library graphs; the chosen one's id (a node
/// type or `library:NAME`), if any. The search box takes the keyboard as soon as the
/// palette opens; the arrow keys move the highlight and Enter picks the highlighted
/// match. `fits` says, from whether an entry has input ports and outputs, whether it can
/// take a dropped wire.
pub fn palette(
    ui: &mut Ui,
    state: &mut PaletteState,
    fits: &dyn Fn(bool, bool) -> bool,
) -> Option<&'static str> {
    let search = ui.add(
        egui::TextEdit::singleline(&mut state.filter)
            .hint_text("search nodes")
            .id(egui::Id::new("palette_search")),
    );
    // Read before taking the focus back: `lost_focus` asks egui's current focus state.
    let submitted = search.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    if !search.has_focus() {
        search.request_focus();
    }
    let mut matches = palette_items(&state.filter);
    matches.retain(|item| fits(item.ports.0, item.ports.1));
    if state.highlighted_for != state.filter {
        state.highlighted_for.clone_from(&state.filter);
        state.highlight = 0;
    }
    let (down, up) = ui.input(|i| {
        (
            i.num_presses(egui::Key::ArrowDown),
            i.num_presses(egui::Key::ArrowUp),
        )
    });
    let last = matches.len().saturating_sub(1);
    state.highlight = (state.highlight + down).saturating_sub(up).min(last);
    let mut chosen = None;
    if submitted {
        chosen = matches.get(state.highlight).map(|d| d.id);
    }
    ui.separator();
    if matches.is_empty() {
        ui.weak(texgraph_core::text::printable(&format!(
            "no node matches '{}'",
            state.filter.trim()
        )));
    }
    egui::ScrollArea::vertical()
        .max_height(320.0)
        .show(ui, |ui| {
            for (i, item) in matches.iter().enumerate() {
                let highlighted = i == state.highlight;
                let text = format!("{} — {}", item.label, item.category);
                let label = texgraph_core::text::printable(&text).into_owned();
                let entry = if item.node.is_none() {
                    // A library graph shows what it makes.
                    let thumbnail = library_thumbnails::thumbnail(ui.ctx(), item.id);
                    ui.horizontal(|ui| {
                        library_thumbnails::show(ui, thumbnail, PALETTE_THUMBNAIL);
                        ui.selectable_label(highlighted, label)
                    })
                    .inner
                } else {
                    ui.selectable_label(highlighted, label)
                }
                .on_hover_text(texgraph_core::text::printable(&item.doc));
                if highlighted && (down > 0 || up > 0) {
                    entry.scroll_to_me(None);
                }
                if entry.clicked() {
                    chosen = Some(item.id);
                }
            }
        });
    if chosen.is_some() {
        state.filter.clear();
    }
    chosen
}
