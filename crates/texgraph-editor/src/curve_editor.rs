//! The `curve` node's points editor: a plot of the curve (drawn by the core's own curve,
//! so it is what renders) with a handle per point, then each point's x and y.
//!
//! Drag a handle to move its point; click the plot to add a point there; right-click a
//! handle (or press its ×) to remove the point, keeping at least two.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, Ui};
use texgraph_core::graph::CurvePoint;
use texgraph_core::kernels::curve::Curve;
use texgraph_core::registry::MAX_CURVE_POINTS;

use crate::shown::decimal;

/// Side of the square plot, in points.
const PLOT: f32 = 200.0;
/// Segments the drawn curve is cut into.
const SEGMENTS: usize = 100;

/// Shows the editor; the edited points when something changed, and whether by a drag
/// (one undo step per drag).
pub(crate) fn curve_editor(
    ui: &mut Ui,
    salt: (&str, &str),
    points: &[CurvePoint],
) -> Option<(Vec<CurvePoint>, bool)> {
    let mut edited = points.to_vec();
    let (mut changed, mut dragged) = (false, false);
    ui.vertical(|ui| {
        match plot(ui, salt, &mut edited) {
            Some(Edit::Dragged) => dragged = true,
            Some(Edit::Set) => changed = true,
            None => {}
        }
        let mut remove = None;
        for (i, point) in edited.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.push_id((salt, "point", i), |ui| {
                    for (name, value) in [("x", &mut point.x), ("y", &mut point.y)] {
                        ui.label(name);
                        let mut v = *value as f32;
                        let field =
                            ui.add(egui::DragValue::new(&mut v).speed(0.005).range(0.0..=1.0));
                        if field.changed() {
                            *value = decimal(v);
                            if field.dragged() {
                                dragged = true;
                            } else {
                                changed = true;
                            }
                        }
                    }
                    if ui.small_button("×").on_hover_text("delete point").clicked() {
                        remove = Some(i);
                    }
                });
            });
        }
        if let Some(i) = remove.filter(|_| edited.len() > 2) {
            edited.remove(i);
            changed = true;
        }
        if edited.len() < MAX_CURVE_POINTS && ui.button("+ point").clicked() {
            let y = curve_y(&edited, 0.5);
            insert(&mut edited, CurvePoint { x: 0.5, y });
            changed = true;
        }
    });
    (changed || dragged).then_some((edited, dragged && !changed))
}

/// How the plot changed the points.
enum Edit {
    /// A handle is being dragged.
    Dragged,
    /// A point was added or removed.
    Set,
}

/// The plot: grid, curve and handles.
fn plot(ui: &mut Ui, salt: (&str, &str), points: &mut Vec<CurvePoint>) -> Option<Edit> {
    let (area, response) = ui.allocate_exact_size(egui::vec2(PLOT, PLOT), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Other, true, "curve"));
    let to_screen = |x: f64, y: f64| {
        Pos2::new(
            area.left() + area.width() * x as f32,
            area.bottom() - area.height() * y as f32,
        )
    };
    let painter = ui.painter_at(area.expand(6.0));
    painter.rect_filled(area, 2.0, Color32::from_gray(24));
    for k in 1..4 {
        let t = f64::from(k) / 4.0;
        let grid = Stroke::new(1.0, Color32::from_gray(48));
        painter.line_segment([to_screen(t, 0.0), to_screen(t, 1.0)], grid);
        painter.line_segment([to_screen(0.0, t), to_screen(1.0, t)], grid);
    }
    let curve = Curve::new(&as_pairs(points));
    let line: Vec<Pos2> = (0..=SEGMENTS)
        .map(|i| {
            let x = i as f32 / SEGMENTS as f32;
            to_screen(f64::from(x), f64::from(curve.at(x)))
        })
        .collect();
    painter.add(egui::Shape::line(
        line,
        Stroke::new(2.0, Color32::from_rgb(230, 180, 90)),
    ));

    let mut edit = None;
    let mut remove = None;
    let mut on_handle = false;
    for (i, point) in points.iter_mut().enumerate() {
        let at = to_screen(point.x, point.y);
        let rect = Rect::from_center_size(at, egui::vec2(12.0, 12.0));
        let handle = ui.interact(
            rect,
            ui.id().with((salt, "curve handle", i)),
            egui::Sense::click_and_drag(),
        );
        on_handle |= handle.hovered() || handle.dragged();
        if handle.dragged() {
            let delta = handle.drag_delta();
            let x = (point.x as f32 + delta.x / area.width()).clamp(0.0, 1.0);
            let y = (point.y as f32 - delta.y / area.height()).clamp(0.0, 1.0);
            (point.x, point.y) = (decimal(x), decimal(y));
            edit = Some(Edit::Dragged);
        }
        if handle.secondary_clicked() {
            remove = Some(i);
        }
        let stroke = if handle.hovered() || handle.dragged() {
            Stroke::new(2.0, Color32::WHITE)
        } else {
            Stroke::new(1.0, Color32::from_gray(160))
        };
        painter.circle(at, 5.0, Color32::from_rgb(230, 180, 90), stroke);
    }
    if let Some(i) = remove.filter(|_| points.len() > 2) {
        points.remove(i);
        edit = Some(Edit::Set);
    }
    if response.clicked()
        && !on_handle
        && points.len() < MAX_CURVE_POINTS
        && let Some(pointer) = response.interact_pointer_pos()
    {
        // Three decimals: a click is not more precise than that.
        let round = |v: f32| decimal((v.clamp(0.0, 1.0) * 1000.0).round() / 1000.0);
        let x = round((pointer.x - area.left()) / area.width());
        let y = round((area.bottom() - pointer.y) / area.height());
        insert(points, CurvePoint { x, y });
        edit = Some(Edit::Set);
    }
    edit
}

/// Inserts `point` after the points at or left of it, so the list stays in x order as
/// points are added.
fn insert(points: &mut Vec<CurvePoint>, point: CurvePoint) {
    let at = points.iter().take_while(|p| p.x <= point.x).count();
    points.insert(at, point);
}

/// The curve's y at `x`, as a decimal.
fn curve_y(points: &[CurvePoint], x: f32) -> f64 {
    decimal(Curve::new(&as_pairs(points)).at(x))
}

fn as_pairs(points: &[CurvePoint]) -> Vec<(f32, f32)> {
    points.iter().map(|p| (p.x as f32, p.y as f32)).collect()
}
