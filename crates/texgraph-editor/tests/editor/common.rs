//! What the editor's UI tests share: a harness on a graph file, and ways to find and
//! drive what is drawn on the canvas as a person would.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::{self, Event, Key, Modifiers, PointerButton};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_editor::app::EditorApp;

/// An example graph of the repository's graphs/ folder.
pub fn graph_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../graphs")
        .join(name)
}

pub fn harness(graph_path: &Path) -> Harness<'static, EditorApp> {
    harness_sized(graph_path, egui::vec2(1400.0, 900.0))
}

/// A harness with a window of `size` points.
pub fn harness_sized(graph_path: &Path, size: egui::Vec2) -> Harness<'static, EditorApp> {
    let path = graph_path.to_owned();
    let mut h = Harness::builder()
        .with_size(size)
        .with_max_steps(40)
        .build_eframe(move |cc| EditorApp::open(&cc.egui_ctx, &path).expect("opens"));
    h.run_steps(3);
    h
}

/// Screen rectangle of a widget drawn on the (panned and zoomed) canvas.
pub fn on_canvas(h: &Harness<'_, EditorApp>, label: &str) -> egui::Rect {
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    h.ctx
        .layer_transform_to_global(layer)
        .expect("canvas drawn")
        * h.get_by_label(label).rect()
}

/// Steps the UI until the worker's first full preview is showing (not its draft).
pub fn wait_for_preview(h: &mut Harness<'_, EditorApp>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !h.state().has_preview() || h.state().preview.drafted {
        assert!(Instant::now() < deadline, "no preview");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
}

pub fn click_at(h: &mut Harness<'_, EditorApp>, pos: egui::Pos2, button: PointerButton) {
    h.hover_at(pos);
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(2);
}

/// Types `path` into the in-app file chooser (focused when it opens) and confirms.
pub fn choose_file(h: &mut Harness<'_, EditorApp>, path: &Path) {
    h.run_steps(2);
    assert!(h.state().files.choosing(), "the file chooser is open");
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(Event::Text(path.display().to_string()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
}

/// Screen centre of the pin circle painted level with `label` on the canvas, on the side
/// `left` of it (inputs sit left of their label, outputs right).
pub fn pin_beside(h: &Harness<'_, EditorApp>, label: egui::Rect, left: bool) -> egui::Pos2 {
    let mut best: Option<egui::Pos2> = None;
    for clipped in &h.output().shapes {
        let egui::Shape::Circle(circle) = &clipped.shape else {
            continue;
        };
        let c = circle.center;
        let level = (c.y - label.center().y).abs() < label.height();
        let side = if left {
            c.x < label.left()
        } else {
            c.x > label.right()
        };
        let near = |p: egui::Pos2| (p.x - label.center().x).abs();
        if level && side && best.is_none_or(|b| near(c) < near(b)) {
            best = Some(c);
        }
    }
    best.expect("a pin is painted beside the label")
}

/// Presses the primary button at `from` with `modifiers` held, moves to `to` in `steps`
/// frames and releases there.
pub fn drag(
    h: &mut Harness<'_, EditorApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    modifiers: Modifiers,
    steps: usize,
) {
    h.event(Event::ModifiersChanged(modifiers));
    h.hover_at(from);
    h.run_steps(1);
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers,
    });
    for step in 1..=steps {
        h.hover_at(from + (to - from) * (step as f32 / steps as f32));
        h.run_steps(1);
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers,
    });
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(3);
}

/// Selects everything in the focused text field and types `text` (without confirming).
pub fn retype(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(Event::Text(text.into()));
    h.run_steps(1);
}

/// Steps the UI until `done` holds (the worker or an export finishing), for at most a minute.
pub fn wait_until(h: &mut Harness<'_, EditorApp>, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "{what} never happened");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
}

/// A menu entry (its accessible label also holds its shortcut).
pub fn menu_item<'h>(h: &'h Harness<'_, EditorApp>, label: &str) -> egui_kittest::Node<'h> {
    let label = label.to_owned();
    h.get_by(move |n| {
        n.role() == egui::accesskit::Role::Button
            && n.label().is_some_and(|l| l.starts_with(&label))
    })
}

/// Copies the selection (Ctrl+C) and returns what went to the clipboard.
pub fn copy(h: &mut Harness<'_, EditorApp>) -> String {
    h.event(Event::Copy);
    h.step();
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .expect("copied to the clipboard")
}

/// Shift+drags a rectangle on the canvas from above-left of `first`'s title to below-right
/// of `last`'s.
pub fn rect_select(h: &mut Harness<'_, EditorApp>, first: &str, last: &str) {
    let from = on_canvas(h, first).left_top() - egui::vec2(20.0, 20.0);
    let to = on_canvas(h, last).right_bottom() + egui::vec2(20.0, 40.0);
    drag(h, from, to, Modifiers::SHIFT, 8);
}

/// Writes `json` as a graph file in `dir` and opens the editor on it.
pub fn open_json(dir: &Path, name: &str, json: &str) -> Harness<'static, EditorApp> {
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    harness(&path)
}

/// Shift+clicks the titles `labels` on the canvas (picking those nodes).
pub fn shift_click_titles(h: &mut Harness<'_, EditorApp>, labels: &[&str]) {
    h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    h.run_steps(1);
    for label in labels {
        let title = on_canvas(h, label);
        h.hover_at(title.center());
        for pressed in [true, false] {
            h.event(Event::PointerButton {
                pos: title.center(),
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::SHIFT,
            });
        }
        h.run_steps(2);
    }
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(1);
}

/// The combo box showing `value`.
pub fn combo<'h>(h: &'h Harness<'_, EditorApp>, value: &str) -> egui_kittest::Node<'h> {
    let value = value.to_owned();
    h.get_by(move |n| {
        n.role() == egui::accesskit::Role::ComboBox && n.value().is_some_and(|v| *v == value)
    })
}

/// A small tileable stone material: fBm height as base color, its normal map, and a
/// levels-adjusted roughness, each an output with its usage.
pub const STONE: &str = r##"{
  "format": "texgraph", "version": 4, "name": "stone",
  "settings": { "tileable": true },
  "nodes": [
    { "id": "h", "type": "fbm", "params": { "frequency": 4, "octaves": 4, "seed": 3 }, "pos": [0, 0] },
    { "id": "n", "type": "normal", "params": { "strength": 2 }, "inputs": { "height": "h" }, "pos": [320, 0] },
    { "id": "r", "type": "levels", "params": { "in_low": 0.2 }, "inputs": { "input": "h" }, "pos": [320, 320] },
    { "id": "base", "type": "output", "params": { "name": "base", "usage": "basecolor" }, "inputs": { "color": "h" }, "pos": [640, 0] },
    { "id": "nrm", "type": "output", "params": { "name": "nrm", "usage": "normal" }, "inputs": { "color": "n" }, "pos": [640, 320] },
    { "id": "rough", "type": "output", "params": { "name": "rough", "usage": "roughness" }, "inputs": { "color": "r" }, "pos": [640, 640] }
  ]
}"##;

/// Turns the mouse wheel `notches` lines where the pointer is (up, zooming the canvas
/// in, when positive), then lets egui's smoothing of the wheel finish.
pub fn wheel(h: &mut Harness<'_, EditorApp>, notches: i32) {
    for _ in 0..notches.unsigned_abs() {
        h.event(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, notches.signum() as f32),
            phase: egui::TouchPhase::Move,
            modifiers: Modifiers::NONE,
        });
        h.run_steps(1);
    }
    h.run_steps(20);
}
