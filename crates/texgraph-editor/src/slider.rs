//! The inspector's slider for float params: a bar as wide as the inspector to drag (Shift
//! for fine steps, Ctrl for coarse round values), a click to jump, and a field to type an
//! exact value in — kept as typed while focused, Enter or leaving it to apply, Escape to
//! revert.

use eframe::egui::{self, Id, Key, Sense, Ui, WidgetInfo};

/// Width of the typed-entry field.
const FIELD_WIDTH: f32 = 64.0;
/// How much slower a drag with Shift held moves the value.
pub const FINE: f32 = 0.1;
/// The smallest positive value a logarithmic slider shows apart from zero.
const SMALLEST_POSITIVE: f32 = 0.1;

/// How a float param's range maps onto the bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Smallest value.
    pub min: f32,
    /// Largest value.
    pub max: f32,
    /// Logarithmic: each doubling takes the same length (for frequencies, 0 to 1024).
    pub log: bool,
}

/// What the person did with the slider this frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Dragging the bar: the value so far (a drag is one undo step).
    Dragged(f32),
    /// A click on the bar or a typed value.
    Set(f32),
    /// Typed text that is not a number: the value stays, and this says why.
    Refused(String),
    /// A typed number outside the range: the value becomes the nearest end, and this says
    /// so.
    Limited(f32, String),
}

impl Scale {
    /// A scale over `min..=max`, logarithmic when the range is non-negative and spans more
    /// than two orders of magnitude.
    pub fn new(min: f32, max: f32) -> Self {
        Self {
            min,
            max,
            log: min >= 0.0 && max > 100.0 * min.max(1.0),
        }
    }

    fn low(&self) -> f32 {
        self.min.max(SMALLEST_POSITIVE)
    }

    /// Where `value` sits along the bar, 0 to 1.
    pub fn position(&self, value: f32) -> f32 {
        let t = if self.log {
            let low = self.low();
            (value.max(low) / low).ln() / (self.max / low).ln()
        } else {
            (value - self.min) / (self.max - self.min)
        };
        if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// The value at `t` along the bar (0 to 1), to four significant digits (a pixel is not
    /// finer than that).
    pub fn value(&self, t: f32) -> f32 {
        let t = t.clamp(0.0, 1.0);
        let value = if self.log {
            if t == 0.0 {
                return self.min;
            }
            let low = self.low();
            low * (self.max / low).powf(t)
        } else {
            self.min + t * (self.max - self.min)
        };
        round_significant(value, 4).clamp(self.min, self.max)
    }

    /// `value` on the coarse steps Ctrl drags snap to: one significant digit on a
    /// logarithmic scale (3, 4, … 10, 20 …), else a round twentieth of the range.
    pub fn coarse(&self, value: f32) -> f32 {
        let snapped = if self.log {
            round_significant(value, 1)
        } else {
            let step = nice_step((self.max - self.min) / 20.0);
            self.min + ((value - self.min) / step).round() * step
        };
        round_significant(snapped, 6).clamp(self.min, self.max)
    }
}

/// `value` rounded to `digits` significant digits.
fn round_significant(value: f32, digits: usize) -> f32 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    format!("{value:.*e}", digits.saturating_sub(1))
        .parse()
        .unwrap_or(value)
}

/// The 1, 2 or 5 times a power of ten closest below `step`.
fn nice_step(step: f32) -> f32 {
    let power = 10f32.powf(step.log10().floor());
    let mantissa = step / power;
    power
        * if mantissa < 2.0 {
            1.0
        } else if mantissa < 5.0 {
            2.0
        } else {
            5.0
        }
}

/// Draws the slider for `value` (labelled `label` for screen readers and tests); what was
/// done with it, if anything.
pub fn show(ui: &mut Ui, id: Id, label: &str, value: f32, scale: Scale) -> Option<Edit> {
    let mut edit = None;
    ui.horizontal(|ui| {
        let width = (ui.available_width() - FIELD_WIDTH - ui.spacing().item_spacing.x).max(80.0);
        let height = ui.spacing().interact_size.y;
        let (rect, bar) =
            ui.allocate_exact_size(egui::vec2(width, height), Sense::click_and_drag());
        let bar = bar.on_hover_text("drag; Shift: fine steps, Ctrl: round values; click to jump");
        bar.widget_info(|| WidgetInfo::slider(true, f64::from(value), label));
        edit = drag_or_click(ui, id, &bar, rect, value, scale);
        paint(ui, rect, &bar, scale.position(value));
        if let Some(typed) = field(ui, id.with("typed"), label, value, scale) {
            edit = Some(typed);
        }
    });
    edit
}

/// Follows a drag on the bar (relative, so a drag never jumps; Shift fine, Ctrl coarse)
/// or a click (jumps to the pointer).
fn drag_or_click(
    ui: &Ui,
    id: Id,
    bar: &egui::Response,
    rect: egui::Rect,
    value: f32,
    scale: Scale,
) -> Option<Edit> {
    let modifiers = ui.input(|i| i.modifiers);
    let coarse = |v: f32| {
        if modifiers.command {
            scale.coarse(v)
        } else {
            v
        }
    };
    let along = id.with("along");
    if bar.drag_started() {
        // Where along the bar the drag is, unsnapped: Ctrl's steps must not eat small moves.
        ui.data_mut(|d| d.insert_temp(along, scale.position(value)));
    }
    if bar.dragged() {
        let speed = if modifiers.shift { FINE } else { 1.0 };
        let t = ui
            .data(|d| d.get_temp::<f32>(along))
            .unwrap_or(scale.position(value))
            + bar.drag_delta().x / rect.width() * speed;
        ui.data_mut(|d| d.insert_temp(along, t.clamp(0.0, 1.0)));
        let dragged = coarse(scale.value(t));
        return (dragged != value).then_some(Edit::Dragged(dragged));
    }
    if bar.clicked()
        && let Some(pointer) = bar.interact_pointer_pos()
    {
        let clicked = coarse(scale.value((pointer.x - rect.left()) / rect.width()));
        return (clicked != value).then_some(Edit::Set(clicked));
    }
    None
}

fn paint(ui: &Ui, rect: egui::Rect, bar: &egui::Response, t: f32) {
    let visuals = ui.style().interact(bar);
    let rail = egui::Rect::from_center_size(rect.center(), egui::vec2(rect.width(), 6.0));
    let painter = ui.painter();
    painter.rect_filled(rail, 3.0, ui.visuals().extreme_bg_color);
    let filled = egui::Rect::from_min_max(
        rail.min,
        egui::pos2(rail.left() + rail.width() * t, rail.bottom()),
    );
    painter.rect_filled(filled, 3.0, ui.visuals().selection.bg_fill);
    let knob = egui::pos2(rect.left() + rect.width() * t, rect.center().y);
    painter.circle(knob, 7.0, visuals.bg_fill, visuals.fg_stroke);
}

/// The typed-entry field: shows the value, keeps what is typed untouched while focused,
/// applies it on Enter or when focus leaves, reverts on Escape. Text that is not a number
/// is refused, and a number outside the range is taken to its nearest end, saying so.
fn field(ui: &mut Ui, id: Id, label: &str, value: f32, scale: Scale) -> Option<Edit> {
    let draft = id.with("draft");
    let mut text = ui
        .data(|d| d.get_temp::<String>(draft))
        .unwrap_or_else(|| value.to_string());
    let response = ui.add(
        egui::TextEdit::singleline(&mut text)
            .id(id)
            .desired_width(FIELD_WIDTH)
            .horizontal_align(egui::Align::RIGHT),
    );
    let mut info = WidgetInfo::text_edit(true, value.to_string(), &text, "");
    info.label = Some(label.to_owned());
    response.widget_info(|| info.clone());
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(draft, text));
        return None;
    }
    ui.data_mut(|d| d.remove::<String>(draft));
    if !response.lost_focus() || ui.input(|i| i.key_pressed(Key::Escape)) {
        return None;
    }
    let Some(typed) = text.trim().parse().ok().filter(|v: &f32| v.is_finite()) else {
        return Some(Edit::Refused(refusal(
            &text,
            "a number",
            label,
            &value.to_string(),
        )));
    };
    let kept = typed.clamp(scale.min, scale.max);
    if kept != typed {
        let why = format!(
            "{label} is {} to {}: {typed} was set to {kept}",
            scale.min, scale.max
        );
        return Some(if kept == value {
            Edit::Refused(why)
        } else {
            Edit::Limited(kept, why)
        });
    }
    (typed != value).then_some(Edit::Set(typed))
}

/// What the status bar says when `text` typed into `label` is not `wanted`: the text as
/// typed (control characters shown as escapes), and the value kept.
pub fn refusal(text: &str, wanted: &str, label: &str, kept: &str) -> String {
    let shown = texgraph_core::text::printable(text.trim());
    format!("'{shown}' is not {wanted}: {label} stays {kept}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_values_invert_each_other() {
        let linear = Scale::new(-1.0, 3.0);
        assert!(!linear.log);
        assert_eq!(linear.position(1.0), 0.5);
        assert_eq!(linear.value(0.25), 0.0);
        let log = Scale::new(0.0, 1024.0);
        assert!(log.log);
        // 0.1 … 1024 in equal ratios: the middle is sqrt(0.1 * 1024) = 10.12.
        assert_eq!(log.value(0.5), 10.12);
        assert!((log.position(10.12) - 0.5).abs() < 1e-4);
        assert_eq!(log.value(0.0), 0.0);
        assert_eq!(log.value(1.0), 1024.0);
    }

    #[test]
    fn coarse_steps_are_round_values() {
        let log = Scale::new(0.0, 1024.0);
        assert_eq!(log.coarse(3.4), 3.0);
        assert_eq!(log.coarse(27.0), 30.0);
        assert_eq!(log.coarse(151.0), 200.0);
        let unit = Scale::new(0.0, 1.0);
        assert_eq!(unit.coarse(0.63), 0.65);
        assert_eq!(unit.coarse(0.012), 0.0);
        let wide = Scale::new(-10.0, 10.0);
        assert_eq!(wide.coarse(3.3), 3.0);
    }
}
