//! The inspector's field for a formula: multi-line monospace text, the mistake underlined
//! in red and described under it, and the language's functions and variables in a help
//! section below.

use std::ops::Range;

use eframe::egui;
use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, Stroke, Ui};
use texgraph_core::formula;

/// Draws the field holding `text`, labelled by the widget `label`; the edited text when
/// the user changed it.
pub fn show(ui: &mut Ui, id: egui::Id, label: egui::Id, text: &str) -> Option<String> {
    let mut edited = text.to_owned();
    let mistake = checked(ui, id, text);
    let underline = mistake.as_ref().map(|e| e.span.clone());
    let mut layouter = |ui: &Ui, buffer: &dyn egui::TextBuffer, wrap_width: f32| {
        let mut job = highlighted(ui, buffer.as_str(), underline.clone());
        job.wrap.max_width = wrap_width;
        ui.fonts_mut(|f| f.layout_job(job))
    };
    let changed = ui
        .vertical(|ui| {
            let field = egui::TextEdit::multiline(&mut edited)
                .id(id)
                .code_editor()
                .desired_rows(4)
                .desired_width(280.0)
                .layouter(&mut layouter);
            let changed = ui.add(field).labelled_by(label).changed();
            if let Some(mistake) = &mistake {
                // The first line of the description: the place and what is wrong (the
                // underline shows where).
                let described = mistake.describe(text);
                let first = described.lines().next().unwrap_or_default();
                ui.colored_label(ui.visuals().error_fg_color, first);
            }
            // The list is long: it scrolls on its own, the field stays in view.
            egui::CollapsingHeader::new("Functions and variables")
                .id_salt(id.with("help"))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt(id.with("help_scroll"))
                        .max_height(160.0)
                        .show(ui, help);
                });
            changed
        })
        .inner;
    changed.then_some(edited)
}

/// The mistake of `text`, checked again only when the text changed: the field is drawn
/// every frame, and a long formula is lowered several times over to be checked.
fn checked(ui: &Ui, id: egui::Id, text: &str) -> Option<formula::FormulaError> {
    let key = id.with("checked");
    let kept: Option<(String, Option<formula::FormulaError>)> = ui.data(|d| d.get_temp(key));
    if let Some((seen, mistake)) = kept
        && seen == text
    {
        return mistake;
    }
    let mistake = formula::check(text).err();
    ui.data_mut(|d| d.insert_temp(key, (text.to_owned(), mistake.clone())));
    mistake
}

/// `text` in the monospace font, the bytes of `underline` (if any) underlined in red. A
/// mistake of no width (something missing) marks the character at it, or the last one at
/// the end: the layout must hold exactly the field's text.
fn highlighted(ui: &Ui, text: &str, underline: Option<Range<usize>>) -> LayoutJob {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let plain = TextFormat::simple(font, ui.visuals().text_color());
    let marked = TextFormat {
        underline: Stroke::new(2.0, Color32::from_rgb(230, 60, 50)),
        background: Color32::from_rgba_unmultiplied(230, 60, 50, 40),
        ..plain.clone()
    };
    let mut job = LayoutJob::default();
    let span = underline.and_then(|s| visible(text, s));
    let Some(span) = span else {
        job.append(text, 0.0, plain);
        return job;
    };
    job.append(&text[..span.start], 0.0, plain.clone());
    job.append(&text[span.clone()], 0.0, marked);
    job.append(&text[span.end..], 0.0, plain);
    job
}

/// `span` widened to at least one character of `text`, if the text has any.
fn visible(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    if start < end {
        return Some(start..end);
    }
    match text[start..].chars().next() {
        Some(c) => Some(start..start + c.len_utf8()),
        None => text[..start]
            .char_indices()
            .next_back()
            .map(|(i, c)| i..i + c.len_utf8()),
    }
}

fn help(ui: &mut Ui) {
    ui.label("Variables");
    for v in formula::VARIABLES {
        ui.horizontal_wrapped(|ui| {
            ui.monospace(v.name);
            ui.weak(v.doc);
        });
    }
    ui.add_space(4.0);
    ui.label("Functions (component by component on vectors)");
    for f in formula::FUNCTIONS {
        ui.horizontal_wrapped(|ui| {
            ui.monospace(format!("{}{}", f.name, f.signature));
            ui.weak(f.doc);
        });
    }
    ui.add_space(4.0);
    ui.weak("Operators: + - * / % < <= > >= == != && || ! and c ? a : b; let name = value; before the result. Vectors: vec2/vec3/vec4, .xyzw or .rgba. See docs/formula.md.");
}
