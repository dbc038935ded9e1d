//! Comments on the canvas (Material Maker's comment nodes, Substance's frames): a colored
//! box with a note, drawn behind the nodes. Dragging its title bar moves it with the nodes
//! inside it; the corner handle resizes it; a click on the title shows it in the inspector.

use eframe::egui::{self, Color32, Id, Rect, Sense, Stroke, Ui, Vec2};
use texgraph_core::{Comment, Graph};

use crate::command::Command;
use crate::comment_layout::{TITLE_HEIGHT, holds, rect};
use crate::shown::{to_bytes, to_hex};

/// Side of the resize handle in the bottom-right corner.
const HANDLE: f32 = 14.0;
/// The smallest comment a resize leaves.
const MIN_SIZE: Vec2 = egui::vec2(80.0, 50.0);

/// The comment's fill color.
fn fill(comment: &Comment) -> Color32 {
    let [r, g, b, a] = to_bytes(&comment.color);
    // Translucent, so the grid shows through and nodes on top stay readable.
    Color32::from_rgba_unmultiplied(r, g, b, (f32::from(a) * 0.45) as u8)
}

/// Paints every comment (canvas coordinates) behind the nodes.
pub fn paint(painter: &egui::Painter, style: &egui::Style, graph: &Graph, selected: Option<usize>) {
    for (index, comment) in graph.comments.iter().enumerate() {
        let body = rect(comment);
        let color = fill(comment);
        painter.rect_filled(body, 6.0, color);
        let title = Rect::from_min_size(body.min, egui::vec2(body.width(), TITLE_HEIGHT));
        painter.rect_filled(
            title,
            egui::CornerRadius {
                nw: 6,
                ne: 6,
                sw: 0,
                se: 0,
            },
            color.gamma_multiply(1.6),
        );
        let stroke = if selected == Some(index) {
            Stroke::new(2.0, Color32::from_rgb(90, 160, 255))
        } else {
            Stroke::new(1.0, color.gamma_multiply(2.0))
        };
        painter.rect_stroke(body, 6.0, stroke, egui::StrokeKind::Inside);
        let text_color = style.visuals.strong_text_color();
        let (heading, note) = comment
            .text
            .split_once('\n')
            .unwrap_or((comment.text.as_str(), ""));
        let font = egui::TextStyle::Body.resolve(style);
        let heading = painter.layout(
            heading.to_owned(),
            font.clone(),
            text_color,
            (body.width() - 16.0).max(10.0),
        );
        painter.galley(title.min + egui::vec2(8.0, 5.0), heading, text_color);
        if !note.is_empty() {
            let note = painter.layout(
                note.to_owned(),
                font,
                style.visuals.text_color(),
                (body.width() - 16.0).max(10.0),
            );
            painter.galley(title.left_bottom() + egui::vec2(8.0, 6.0), note, text_color);
        }
        let corner = body.max;
        for step in [4.0, 8.0, 12.0] {
            painter.line_segment(
                [
                    corner - egui::vec2(step, 2.0),
                    corner - egui::vec2(2.0, step),
                ],
                Stroke::new(1.0, text_color.gamma_multiply(0.6)),
            );
        }
    }
}

/// The title bars and resize handles, on the canvas layer `layer` (canvas coordinates):
/// drags and clicks become commands.
pub fn interact(ui: &mut Ui, layer: egui::LayerId, graph: &Graph, commands: &mut Vec<Command>) {
    let Some(from_screen) = ui.ctx().layer_transform_from_global(layer) else {
        return; // the canvas is not drawn
    };
    let screen_clip = ui.clip_rect();
    let mut ui = ui.new_child(
        egui::UiBuilder::new()
            .layer_id(layer)
            .max_rect(Rect::EVERYTHING),
    );
    // The layer is in canvas units: clip to the part of the canvas on screen.
    ui.set_clip_rect(from_screen * screen_clip);
    for (index, comment) in graph.comments.iter().enumerate() {
        let body = rect(comment);
        let title = Rect::from_min_size(body.min, egui::vec2(body.width(), TITLE_HEIGHT));
        let bar = ui
            .interact(
                title,
                Id::new(("comment_title", index)),
                Sense::click_and_drag(),
            )
            .on_hover_cursor(egui::CursorIcon::Grab);
        bar.widget_info(|| {
            egui::WidgetInfo::labeled(egui::WidgetType::Other, true, format!("comment {index}"))
        });
        if bar.clicked() || bar.drag_started() {
            commands.push(Command::SelectComment(Some(index)));
        }
        let handle = Rect::from_min_max(body.max - Vec2::splat(HANDLE), body.max);
        let resize = ui
            .interact(handle, Id::new(("comment_resize", index)), Sense::drag())
            .on_hover_cursor(egui::CursorIcon::ResizeNwSe);
        // Whole canvas units, measured from where the drag started (small moves add up).
        let start = Id::new(("comment_start", index));
        if bar.drag_started() || resize.drag_started() {
            ui.data_mut(|d| d.insert_temp(start, body));
        }
        // The nodes inside when the drag starts go along (not those it sweeps over).
        let riders = Id::new(("comment_riders", index));
        if bar.drag_started() {
            let inside: Vec<String> = graph
                .nodes
                .iter()
                .filter(|n| holds(comment, n.pos))
                .map(|n| n.id.clone())
                .collect();
            ui.data_mut(|d| d.insert_temp(riders, inside));
        }
        let started = ui.data(|d| d.get_temp::<Rect>(start)).unwrap_or(body);
        if let Some(moved) = bar.total_drag_delta() {
            let target = (started.min + moved).round();
            if target != body.min {
                commands.push(Command::MoveComment {
                    index,
                    delta: target - body.min,
                    nodes: ui.data(|d| d.get_temp(riders)).unwrap_or_default(),
                });
            }
        }
        if let Some(moved) = resize.total_drag_delta() {
            let size = (started.size() + moved).max(MIN_SIZE).round();
            if size != body.size() {
                commands.push(Command::ResizeComment {
                    index,
                    size: [size.x, size.y],
                });
            }
        }
    }
}

/// The inspector of comment `index`: its text, color and a delete button.
pub fn inspector(ui: &mut Ui, graph: &Graph, index: usize, commands: &mut Vec<Command>) {
    let Some(comment) = graph.comments.get(index) else {
        return;
    };
    ui.heading("Comment");
    ui.label(
        egui::RichText::new("The first line is the title. Nodes inside the box move with it.")
            .small(),
    );
    ui.separator();
    let mut edited = comment.clone();
    let text = ui.add(
        egui::TextEdit::multiline(&mut edited.text)
            .id(Id::new(("comment_text", index)))
            .desired_rows(4)
            .desired_width(f32::INFINITY),
    );
    let mut rgba = to_bytes(&edited.color);
    let color = ui
        .horizontal(|ui| {
            ui.label("color");
            ui.color_edit_button_srgba_unmultiplied(&mut rgba)
        })
        .inner;
    if color.changed() {
        edited.color = to_hex(rgba);
    }
    if text.changed() || color.changed() {
        commands.push(Command::SetComment {
            index,
            comment: edited,
        });
    }
    if ui.button("Delete comment").clicked() {
        commands.push(Command::RemoveComment(index));
    }
}
