//! The inspector: every param of the selected node, with a widget fitting its registry
//! descriptor. Changes become [`Command::SetParam`].

use eframe::egui::{self, Color32, Ui};
use texgraph_core::graph::GradientStop;
use texgraph_core::kernels::gradient::{Ramp, parse_hex_color};
use texgraph_core::registry::{self, ParamKind};
use texgraph_core::{Graph, ParamValue};

use crate::app::Command;

/// Draws the inspector for node `id`.
pub fn show(ui: &mut Ui, graph: &Graph, id: &str, commands: &mut Vec<Command>) {
    let Some(node) = graph.node(id) else { return };
    let Some(desc) = registry::lookup(&node.kind) else {
        ui.label(format!("unknown node type '{}'", node.kind));
        return;
    };
    ui.heading(format!("{id}: {}", desc.label));
    ui.label(egui::RichText::new(desc.doc).small());
    ui.separator();
    let mut set = |param: &str, value: ParamValue| {
        commands.push(Command::SetParam {
            node: id.to_owned(),
            param: param.to_owned(),
            value,
        });
    };
    egui::Grid::new("inspector_params")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for param in desc.params {
                let label = ui.label(param.name).on_hover_text(param.doc).id;
                if let Some(source) = node.inputs.get(param.name) {
                    ui.label(format!("driven by {source}"));
                    ui.end_row();
                    continue;
                }
                let current = node.params.get(param.name);
                match param.kind {
                    ParamKind::Float { default, min, max } => {
                        let mut v = match current {
                            Some(ParamValue::Number(v)) => *v as f32,
                            _ => default,
                        };
                        let changed = if max - min <= 4096.0 {
                            ui.add(
                                egui::Slider::new(&mut v, min..=max)
                                    .clamping(egui::SliderClamping::Always),
                            )
                            .labelled_by(label)
                            .changed()
                        } else {
                            let speed = ((max - min) / 2e5).max(0.01);
                            ui.add(egui::DragValue::new(&mut v).speed(speed).range(min..=max))
                                .labelled_by(label)
                                .changed()
                        };
                        if changed {
                            set(param.name, ParamValue::Number(f64::from(v)));
                        }
                    }
                    ParamKind::Int { default, min, max } => {
                        let mut v = match current {
                            Some(ParamValue::Number(v)) => *v as i64,
                            _ => default,
                        };
                        ui.horizontal(|ui| {
                            let mut changed = ui
                                .add(egui::DragValue::new(&mut v).range(min..=max))
                                .labelled_by(label)
                                .changed();
                            if param.name == "seed"
                                && ui.button("🎲").on_hover_text("random seed").clicked()
                            {
                                v = random_seed(v, max);
                                changed = true;
                            }
                            if changed {
                                set(param.name, ParamValue::Number(v as f64));
                            }
                        });
                    }
                    ParamKind::Choice { default, options } => {
                        let now = match current {
                            Some(ParamValue::Text(t)) => t.as_str(),
                            _ => default,
                        };
                        let mut picked = None;
                        egui::ComboBox::from_id_salt(("choice", id, param.name))
                            .selected_text(now)
                            .show_ui(ui, |ui| {
                                for option in options {
                                    if ui.selectable_label(*option == now, *option).clicked() {
                                        picked = Some(*option);
                                    }
                                }
                            });
                        if let Some(option) = picked {
                            set(param.name, ParamValue::Text(option.to_owned()));
                        }
                    }
                    ParamKind::Color { default } => {
                        let hex = match current {
                            Some(ParamValue::Text(t)) => t.as_str(),
                            _ => default,
                        };
                        let mut rgba = to_bytes(hex);
                        if ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed() {
                            set(param.name, ParamValue::Text(to_hex(rgba)));
                        }
                    }
                    ParamKind::Text { default } => {
                        let mut text = match current {
                            Some(ParamValue::Text(t)) => t.clone(),
                            _ => default.to_owned(),
                        };
                        if ui
                            .text_edit_singleline(&mut text)
                            .labelled_by(label)
                            .changed()
                        {
                            set(param.name, ParamValue::Text(text));
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
                        if let Some(edited) = ramp_editor(ui, (id, param.name), &stops) {
                            set(param.name, ParamValue::Stops(edited));
                        }
                    }
                }
                ui.end_row();
            }
        });
}

/// A different seed in 1..=max, mixed from the current one.
fn random_seed(current: i64, max: i64) -> i64 {
    let mut state = current as u64 ^ 0xA076_1D64_78BD_642F;
    let mixed = texgraph_core::kernels::noise::splitmix64(&mut state);
    1 + (mixed % max as u64) as i64
}

fn to_bytes(hex: &str) -> [u8; 4] {
    parse_hex_color(hex)
        .unwrap_or([0.0, 0.0, 0.0, 1.0])
        .map(|c| (c * 255.0).round() as u8)
}

fn to_hex([r, g, b, a]: [u8; 4]) -> String {
    if a == 255 {
        format!("#{r:02x}{g:02x}{b:02x}")
    } else {
        format!("#{r:02x}{g:02x}{b:02x}{a:02x}")
    }
}

/// The ramp editor: the ramp drawn as a bar, then each stop's position and color, with
/// add and delete. Returns the edited stops when something changed.
fn ramp_editor(
    ui: &mut Ui,
    salt: (&str, &str),
    stops: &[GradientStop],
) -> Option<Vec<GradientStop>> {
    let mut edited = stops.to_vec();
    let mut changed = false;
    ui.vertical(|ui| {
        draw_ramp(ui, stops);
        let mut remove = None;
        for (i, stop) in edited.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.push_id((salt, i), |ui| {
                    let mut pos = stop.pos as f32;
                    if ui
                        .add(egui::DragValue::new(&mut pos).speed(0.005).range(0.0..=1.0))
                        .changed()
                    {
                        stop.pos = f64::from(pos);
                        changed = true;
                    }
                    let mut rgba = to_bytes(&stop.color);
                    if ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed() {
                        stop.color = to_hex(rgba);
                        changed = true;
                    }
                    if ui.small_button("✕").on_hover_text("delete stop").clicked() {
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
            let mid = GradientStop {
                pos: 0.5,
                color: "#808080".to_owned(),
            };
            edited.push(mid);
            changed = true;
        }
    });
    changed.then_some(edited)
}

/// Paints the ramp as the renderer computes it.
fn draw_ramp(ui: &mut Ui, stops: &[GradientStop]) {
    let mut sorted: Vec<(f32, [f32; 4])> = stops
        .iter()
        .filter_map(|s| Some((s.pos as f32, parse_hex_color(&s.color)?)))
        .collect();
    if sorted.is_empty() {
        return;
    }
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let ramp = Ramp {
        stops: sorted,
        constant: false,
    };
    let (rect, _) = ui.allocate_exact_size(egui::vec2(180.0, 14.0), egui::Sense::hover());
    let steps = 90;
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
