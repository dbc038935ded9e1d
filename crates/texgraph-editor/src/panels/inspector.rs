//! The inspector: every param of the selected node, with a widget fitting its registry
//! descriptor. Changes become [`Command::SetParam`].

use eframe::egui::{self, Color32, Ui};
use texgraph_core::graph::{CurvePoint, GradientStop};
use texgraph_core::kernels::gradient::{Ramp, parse_hex_color};
use texgraph_core::registry::{self, ParamKind};
use texgraph_core::{Graph, ParamValue};

use crate::command::Command;
use crate::curve_editor::curve_editor;
use crate::shown::{decimal, to_bytes, to_hex};
use crate::slider::{self, Edit, Scale};

/// A choice menu's greatest height, in points: room for about twenty options.
const CHOICE_LIST_HEIGHT: f32 = 400.0;

/// One row of the inspector: a node type's param, or a subgraph's exposed param.
struct Field {
    name: String,
    /// What the row is labelled, when not its name (a slider named by the user).
    label: Option<String>,
    /// Whether it sets another param's slider (shown apart, folded).
    sets_slider: bool,
    doc: String,
    kind: ParamKind,
    /// The value shown when the node sets none, if not the kind's default (an exposed
    /// param's value in its file).
    fallback: Option<ParamValue>,
}

/// The rows of subgraph node `id`: its file, then the params the file exposes (none while
/// the file does not load: the file can still be changed, a path typed letter by letter
/// included); `None` when it is no subgraph.
fn subgraph_fields(graph: &Graph, id: &str) -> Option<Vec<Field>> {
    if graph.node(id)?.kind != texgraph_core::graph::SUBGRAPH_KIND {
        return None;
    }
    let mut fields = vec![Field {
        name: "file".to_owned(),
        label: None,
        sets_slider: false,
        doc: "The graph file used as this node, relative to this graph's folder.".to_owned(),
        kind: ParamKind::File { default: "" },
        fallback: None,
    }];
    let Some(interface) = crate::subgraphs::interface(graph, id) else {
        return Some(fields);
    };
    fields.extend(interface.params.iter().map(|p| Field {
        name: p.name.clone(),
        label: None,
        sets_slider: false,
        doc: p.doc.clone(),
        kind: p.kind,
        fallback: Some(p.default_value()),
    }));
    Some(fields)
}

/// The node's label: a name for people, shown as its title on the canvas.
fn label_field(ui: &mut Ui, node: &texgraph_core::Node, commands: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.label("label");
        let mut text = node.label.clone().unwrap_or_default();
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut text)
                    .id(egui::Id::new(("label", &node.id)))
                    .hint_text(texgraph_core::text::printable(&node.id))
                    .char_limit(texgraph_core::Node::MAX_LABEL_CHARS)
                    .desired_width(180.0),
            )
            .on_hover_text("a name shown as the node's title; connections keep using its id");
        if field.changed() {
            commands.push(Command::SetLabel {
                node: node.id.clone(),
                label: Some(text),
            });
        }
    });
}

/// Draws the inspector for node `id`.
pub fn show(ui: &mut Ui, graph: &Graph, id: &str, commands: &mut Vec<Command>) {
    let Some(node) = graph.node(id) else { return };
    let fields = match registry::lookup(&node.kind) {
        Some(desc) => {
            ui.heading(format!("{id}: {}", desc.label));
            ui.label(egui::RichText::new(desc.doc).small());
            desc.params
                .iter()
                .map(|p| {
                    // A slider the user named and ranged shows with them.
                    let slider = desc.slider(p.name, &node.params);
                    let kind = match (p.kind, &slider) {
                        (ParamKind::Float { default, .. }, Some(s)) => ParamKind::Float {
                            default,
                            min: s.min,
                            max: s.max,
                        },
                        (kind, _) => kind,
                    };
                    Field {
                        name: p.name.to_owned(),
                        label: slider.map(|s| s.label).filter(|l| l != p.name),
                        sets_slider: desc.sets_slider(p.name),
                        doc: p.doc.to_owned(),
                        kind,
                        fallback: None,
                    }
                })
                .collect()
        }
        None => match subgraph_fields(graph, id) {
            Some(fields) => {
                match crate::subgraphs::interface(graph, id) {
                    Some(interface) => {
                        let name = texgraph_core::text::printable(&interface.name);
                        ui.heading(format!("{id}: {name} (graph)"));
                        let doc = if interface.doc.is_empty() {
                            "A graph file used as a node: its exposed params, inputs and outputs."
                                .to_owned()
                        } else {
                            texgraph_core::text::printable(&interface.doc).into_owned()
                        };
                        ui.label(egui::RichText::new(doc).small());
                    }
                    None => {
                        ui.heading(format!("{id} (graph)"));
                        ui.label(
                            egui::RichText::new(
                                "Its graph file does not load (the outline's message says why): \
                                 choose another, or fix the file.",
                            )
                            .small(),
                        );
                    }
                }
                fields
            }
            None => {
                ui.label(format!(
                    "unknown node type '{}'",
                    texgraph_core::text::printable(&node.kind)
                ));
                return;
            }
        },
    };
    label_field(ui, node, commands);
    ui.separator();
    // Commands go through a cell: a param is either set (one undo step) or dragged.
    let commands = std::cell::RefCell::new(commands);
    let set = |param: &str, value: ParamValue| {
        commands.borrow_mut().push(Command::SetParam {
            node: id.to_owned(),
            param: param.to_owned(),
            value,
        });
    };
    let complain = |why: String| commands.borrow_mut().push(Command::Status(why));
    let drag = |param: &str, value: ParamValue| {
        commands.borrow_mut().push(Command::DragParam {
            node: id.to_owned(),
            param: param.to_owned(),
            value,
        });
    };
    let rows = |ui: &mut Ui, fields: &[Field], grid: &str| {
        egui::Grid::new(grid)
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for param in fields {
                    let name = param.name.as_str();
                    let target = format!("{id}.{name}");
                    let exposed = graph.exposed.iter().find(|e| e.target == target);
                    let shown = match &param.label {
                        Some(label) => {
                            format!("{} ({name})", texgraph_core::text::printable(label))
                        }
                        None => name.to_owned(),
                    };
                    let text = match exposed {
                        Some(e) if e.name != name => format!("{shown} (exposed as {})", e.name),
                        Some(_) => format!("{shown} (exposed)"),
                        None => shown,
                    };
                    let response = ui
                        .add(egui::Label::new(text).sense(egui::Sense::click()))
                        .on_hover_text(&param.doc);
                    let label = response.id;
                    // Graphs used as nodes offer the params they expose (right-click to choose).
                    response.context_menu(|ui| {
                        let action = if exposed.is_some() {
                            "Stop exposing"
                        } else {
                            "Expose as a param of this graph"
                        };
                        if ui
                            .button(action)
                            .on_hover_text(
                                "graphs that use this one as a node show its exposed params",
                            )
                            .clicked()
                        {
                            commands.borrow_mut().push(Command::ToggleExposed {
                                node: id.to_owned(),
                                param: name.to_owned(),
                            });
                            ui.close();
                        }
                    });
                    if let Some(source) = node.inputs.get(name) {
                        ui.label(format!("driven by {source}"));
                        ui.end_row();
                        continue;
                    }
                    let current = node.params.get(name).or(param.fallback.as_ref());
                    match param.kind {
                        ParamKind::Float { default, min, max } => {
                            let v = match current {
                                Some(ParamValue::Number(v)) => *v as f32,
                                _ => default,
                            };
                            if max - min <= 4096.0 {
                                let id = ui.id().with(("slider", id, name));
                                match slider::show(ui, id, name, v, Scale::new(min, max)) {
                                    Some(Edit::Dragged(v)) => {
                                        drag(name, ParamValue::Number(decimal(v)));
                                    }
                                    Some(Edit::Set(v)) => set(name, ParamValue::Number(decimal(v))),
                                    Some(Edit::Refused(why)) => complain(why),
                                    Some(Edit::Limited(v, why)) => {
                                        set(name, ParamValue::Number(decimal(v)));
                                        complain(why);
                                    }
                                    None => {}
                                }
                            } else {
                                let mut v = v;
                                let speed = ((max - min) / 2e5).max(0.01);
                                if ui
                                    .add(egui::DragValue::new(&mut v).speed(speed).range(min..=max))
                                    .labelled_by(label)
                                    .changed()
                                {
                                    drag(name, ParamValue::Number(decimal(v)));
                                }
                            }
                        }
                        ParamKind::Number { default, min, max } => {
                            let mut v = match current {
                                Some(ParamValue::Number(v)) => *v as f32,
                                _ => default,
                            };
                            let field = ui
                                .push_id(("number_param", name), |ui| {
                                    ui.add(
                                        egui::DragValue::new(&mut v).speed(0.01).range(min..=max),
                                    )
                                })
                                .inner
                                .labelled_by(label);
                            if field.changed() && field.dragged() {
                                drag(name, ParamValue::Number(decimal(v)));
                            } else if field.changed() {
                                set(name, ParamValue::Number(decimal(v)));
                            }
                        }
                        ParamKind::Int { default, min, max } => {
                            let mut v = match current {
                                Some(ParamValue::Number(v)) => *v as i64,
                                _ => default,
                            };
                            ui.horizontal(|ui| {
                                let field = ui
                                    .add(egui::DragValue::new(&mut v).range(min..=max))
                                    .labelled_by(label);
                                if field.changed() && field.dragged() {
                                    drag(name, ParamValue::Number(v as f64));
                                } else if field.changed() {
                                    set(name, ParamValue::Number(v as f64));
                                }
                                if name == "seed"
                                    && ui
                                        .button("random")
                                        .on_hover_text("pick a different seed")
                                        .clicked()
                                {
                                    set(name, ParamValue::Number(random_seed(v, max) as f64));
                                }
                            });
                        }
                        ParamKind::Choice { default, options } => {
                            let now = match current {
                                Some(ParamValue::Text(t)) => t.as_str(),
                                _ => default,
                            };
                            let mut picked = None;
                            egui::ComboBox::from_id_salt(("choice", id, name))
                                // Every option of the longest lists (the usages, the
                                // blend modes) without scrolling.
                                .height(CHOICE_LIST_HEIGHT)
                                .selected_text(now)
                                .show_ui(ui, |ui| {
                                    for option in options {
                                        if ui.selectable_label(*option == now, *option).clicked() {
                                            picked = Some(*option);
                                        }
                                    }
                                });
                            if let Some(option) = picked {
                                set(name, ParamValue::Text(option.to_owned()));
                            }
                        }
                        ParamKind::Color { default } => {
                            let hex = match current {
                                Some(ParamValue::Text(t)) => t.as_str(),
                                _ => default,
                            };
                            let mut rgba = to_bytes(hex);
                            ui.horizontal(|ui| {
                                ui.push_id(name, |ui| {
                                    // The picker changes the color while the pointer drags in it.
                                    if ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed()
                                    {
                                        drag(name, ParamValue::Text(to_hex(rgba)));
                                    }
                                    match hex_field(ui, name, hex) {
                                        Some(Ok(typed)) => set(name, ParamValue::Text(typed)),
                                        Some(Err(why)) => complain(why),
                                        None => {}
                                    }
                                });
                            });
                        }
                        ParamKind::Text { default } => {
                            let mut text = match current {
                                Some(ParamValue::Text(t)) => t.clone(),
                                _ => default.to_owned(),
                            };
                            // A fixed id: the field keeps the focus while what it sets
                            // changes the rows around it (a slider's label).
                            let field = egui::TextEdit::singleline(&mut text).id(egui::Id::new((
                                "text_param",
                                id,
                                name,
                            )));
                            if ui.add(field).labelled_by(label).changed() {
                                set(name, ParamValue::Text(text));
                            }
                        }
                        ParamKind::Formula { default } => {
                            let text = match current {
                                Some(ParamValue::Text(t)) => t.as_str(),
                                _ => default,
                            };
                            let field = egui::Id::new(("formula_param", id, name));
                            if let Some(edited) = super::formula_field::show(ui, field, label, text)
                            {
                                set(name, ParamValue::Text(edited));
                            }
                        }
                        ParamKind::File { default } => {
                            let mut text = match current {
                                Some(ParamValue::Text(t)) => t.clone(),
                                _ => default.to_owned(),
                            };
                            ui.horizontal(|ui| {
                                // A fixed id: typing on goes to the same field when what is
                                // shown above it changes (a subgraph file that stops loading).
                                let field = egui::TextEdit::singleline(&mut text)
                                    .id(egui::Id::new(("file_param", id, name)))
                                    .desired_width(160.0);
                                if ui.add(field).labelled_by(label).changed() {
                                    set(name, ParamValue::Text(text));
                                }
                                if ui
                                    .button("Browse…")
                                    .on_hover_text("choose a file")
                                    .clicked()
                                {
                                    commands.borrow_mut().push(Command::ChooseFile {
                                        node: id.to_owned(),
                                        param: name.to_owned(),
                                    });
                                }
                            });
                        }
                        ParamKind::Bool { default } => {
                            let mut on = match current {
                                Some(ParamValue::Bool(b)) => *b,
                                _ => default,
                            };
                            if ui.checkbox(&mut on, "").labelled_by(label).changed() {
                                set(name, ParamValue::Bool(on));
                            }
                        }
                        ParamKind::Stops { default } => {
                            let stops = match current {
                                Some(ParamValue::Stops(stops)) => stops.clone(),
                                _ => default
                                    .iter()
                                    .map(|(p, c)| GradientStop {
                                        pos: f64::from(*p),
                                        color: (*c).to_owned(),
                                    })
                                    .collect(),
                            };
                            let mut refused = None;
                            match ramp_editor(ui, (id, name), &stops, &mut refused) {
                                Some((edited, false)) => set(name, ParamValue::Stops(edited)),
                                Some((edited, true)) => drag(name, ParamValue::Stops(edited)),
                                None => {}
                            }
                            if let Some(why) = refused {
                                complain(why);
                            }
                        }
                        ParamKind::Points { default } => {
                            let points = match current {
                                Some(ParamValue::Points(points)) => points.clone(),
                                _ => default
                                    .iter()
                                    .map(|&(x, y)| CurvePoint {
                                        x: f64::from(x),
                                        y: f64::from(y),
                                    })
                                    .collect(),
                            };
                            match curve_editor(ui, (id, name), &points) {
                                Some((edited, false)) => set(name, ParamValue::Points(edited)),
                                Some((edited, true)) => drag(name, ParamValue::Points(edited)),
                                None => {}
                            }
                        }
                    }
                    ui.end_row();
                }
            });
    };
    let (settings, fields): (Vec<Field>, Vec<Field>) =
        fields.into_iter().partition(|f| f.sets_slider);
    rows(ui, &fields, "inspector_params");
    if !settings.is_empty() {
        egui::CollapsingHeader::new("Slider names and ranges")
            .id_salt(("slider_settings", id))
            .show(ui, |ui| rows(ui, &settings, "inspector_slider_settings"));
    }
}

/// A different seed in 1..=max, mixed from the current one.
fn random_seed(current: i64, max: i64) -> i64 {
    let mut state = current as u64 ^ 0xA076_1D64_78BD_642F;
    let mixed = texgraph_core::kernels::noise::splitmix64(&mut state);
    1 + (mixed % max as u64) as i64
}

/// The ramp editor: the ramp as a bar with a handle per stop (drag a handle to move the
/// stop, click the bar to add one there), then each stop's position, color (picker and
/// hex field) and delete button. Returns the edited stops when something changed, and
/// whether by a drag (a handle or a position being dragged: one undo step per drag).
fn ramp_editor(
    ui: &mut Ui,
    salt: (&str, &str),
    stops: &[GradientStop],
    refused: &mut Option<String>,
) -> Option<(Vec<GradientStop>, bool)> {
    let mut edited = stops.to_vec();
    let mut changed = false;
    let mut dragged = false;
    ui.vertical(|ui| {
        match ramp_bar(ui, salt, &mut edited) {
            Some(Change::Dragged) => dragged = true,
            Some(Change::Set) => changed = true,
            None => {}
        }
        let mut remove = None;
        for (i, stop) in edited.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.push_id((salt, i), |ui| {
                    let mut pos = stop.pos as f32;
                    let field =
                        ui.add(egui::DragValue::new(&mut pos).speed(0.005).range(0.0..=1.0));
                    if field.changed() {
                        stop.pos = decimal(pos);
                        if field.dragged() {
                            dragged = true;
                        } else {
                            changed = true;
                        }
                    }
                    let mut rgba = to_bytes(&stop.color);
                    if ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed() {
                        stop.color = to_hex(rgba);
                        changed = true;
                    }
                    match hex_field(ui, "the stop's color", &stop.color) {
                        Some(Ok(hex)) => {
                            stop.color = hex;
                            changed = true;
                        }
                        Some(Err(why)) => *refused = Some(why),
                        None => {}
                    }
                    if ui.small_button("×").on_hover_text("delete stop").clicked() {
                        remove = Some(i);
                    }
                });
            });
        }
        if let Some(i) = remove.filter(|_| edited.len() > 1) {
            edited.remove(i);
            changed = true;
        }
        if ui.button("+ stop").clicked() {
            let color = sample_hex(&edited, 0.5);
            add_stop(&mut edited, GradientStop { pos: 0.5, color });
            changed = true;
        }
    });
    (changed || dragged).then_some((edited, dragged && !changed))
}

/// How the ramp bar changed the stops.
enum Change {
    /// A handle is being dragged.
    Dragged,
    /// A stop was added by a click.
    Set,
}

/// The ramp bar with its stop handles; how the stops changed, if they did.
fn ramp_bar(ui: &mut Ui, salt: (&str, &str), stops: &mut Vec<GradientStop>) -> Option<Change> {
    const WIDTH: f32 = 220.0;
    let (bar, response) = ui.allocate_exact_size(egui::vec2(WIDTH, 18.0), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Other, true, "ramp"));
    draw_ramp(ui, bar, stops);
    let (handles, _) = ui.allocate_exact_size(egui::vec2(WIDTH, 10.0), egui::Sense::hover());
    let mut change = None;
    for (i, stop) in stops.iter_mut().enumerate() {
        let x = bar.left() + bar.width() * stop.pos.clamp(0.0, 1.0) as f32;
        let rect =
            egui::Rect::from_center_size(egui::pos2(x, handles.center().y), egui::vec2(10.0, 10.0));
        let handle = ui.interact(rect, ui.id().with((salt, "handle", i)), egui::Sense::drag());
        if handle.dragged() {
            let moved = stop.pos as f32 + handle.drag_delta().x / bar.width();
            stop.pos = decimal(moved.clamp(0.0, 1.0));
            change = Some(Change::Dragged);
        }
        let [r, g, b, _] = to_bytes(&stop.color);
        let fill = Color32::from_rgb(r, g, b);
        let stroke = if handle.hovered() || handle.dragged() {
            egui::Stroke::new(2.0, Color32::WHITE)
        } else {
            egui::Stroke::new(1.0, Color32::from_gray(140))
        };
        let tip = egui::pos2(x, handles.top());
        ui.painter().add(egui::Shape::convex_polygon(
            vec![
                tip,
                egui::pos2(x + 5.0, handles.bottom()),
                egui::pos2(x - 5.0, handles.bottom()),
            ],
            fill,
            stroke,
        ));
    }
    if response.clicked()
        && let Some(pointer) = response.interact_pointer_pos()
    {
        let pos = ((pointer.x - bar.left()) / bar.width()).clamp(0.0, 1.0);
        // Three decimals: a click is not more precise than that.
        let pos = decimal((pos * 1000.0).round() / 1000.0);
        let color = sample_hex(stops, pos as f32);
        add_stop(stops, GradientStop { pos, color });
        change = Some(Change::Set);
    }
    change
}

/// Inserts `stop` after the stops at or below its position, so the list stays in ramp
/// order as stops are added.
fn add_stop(stops: &mut Vec<GradientStop>, stop: GradientStop) {
    let at = stops.iter().take_while(|s| s.pos <= stop.pos).count();
    stops.insert(at, stop);
}

/// A hex color field (for `label`): the new color once a valid one is entered, or why
/// the text entered is refused.
fn hex_field(ui: &mut Ui, label: &str, current: &str) -> Option<Result<String, String>> {
    let id = ui.id().with("hex");
    let mut text = ui
        .data(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| current.to_owned());
    let response = ui.add(
        egui::TextEdit::singleline(&mut text)
            .id(ui.id().with("hex_edit"))
            .desired_width(64.0)
            .font(egui::TextStyle::Monospace),
    );
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, text));
        return None;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    let typed = text.trim();
    if !response.lost_focus() || typed == current || ui.input(|i| i.key_pressed(egui::Key::Escape))
    {
        return None;
    }
    Some(match parse_hex_color(typed) {
        Some(_) => Ok(typed.to_ascii_lowercase()),
        None => Err(crate::slider::refusal(
            typed,
            "a color (#rrggbb or #rrggbbaa)",
            label,
            current,
        )),
    })
}

/// The ramp's color at `t`, as hex (for a new stop that does not change the look).
fn sample_hex(stops: &[GradientStop], t: f32) -> String {
    ramp_of(stops).map_or_else(
        || "#808080".to_owned(),
        |ramp| {
            let [r, g, b, a] = ramp
                .sample(t)
                .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
            to_hex([r, g, b, a])
        },
    )
}

fn ramp_of(stops: &[GradientStop]) -> Option<Ramp> {
    let mut sorted: Vec<(f32, [f32; 4])> = stops
        .iter()
        .filter_map(|s| Some((s.pos as f32, parse_hex_color(&s.color)?)))
        .collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    Some(Ramp {
        stops: sorted,
        constant: false,
    })
}

/// Paints the ramp into `rect` as the renderer computes it.
fn draw_ramp(ui: &Ui, rect: egui::Rect, stops: &[GradientStop]) {
    let Some(ramp) = ramp_of(stops) else {
        return;
    };
    let steps = 110;
    for i in 0..steps {
        let t = (i as f32 + 0.5) / steps as f32;
        let [r, g, b, _] = ramp
            .sample(t)
            .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
        let x0 = rect.left() + rect.width() * i as f32 / steps as f32;
        let x1 = rect.left() + rect.width() * (i + 1) as f32 / steps as f32;
        let cell = egui::Rect::from_x_y_ranges(x0..=x1, rect.y_range());
        ui.painter()
            .rect_filled(cell, 0.0, Color32::from_rgb(r, g, b));
    }
}
