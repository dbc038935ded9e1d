//! The editor driven headlessly, as a person would: through its widgets and keys.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::{self, Event, Id, Key, Modifiers, PointerButton, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::app::{CANVAS_ID, Command, EditorApp};

fn marble_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs/marble.json")
}

fn harness(graph_path: &Path) -> Harness<'static, EditorApp> {
    let path = graph_path.to_owned();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_max_steps(40)
        .build_eframe(move |cc| EditorApp::open(&cc.egui_ctx, &path).expect("opens"));
    h.run_steps(3);
    h
}

/// Screen rectangle of a widget drawn on the (panned and zoomed) canvas.
fn on_canvas(h: &Harness<'_, EditorApp>, label: &str) -> egui::Rect {
    let layer = egui::LayerId::new(egui::Order::Background, Id::new(CANVAS_ID));
    h.ctx
        .layer_transform_to_global(layer)
        .expect("canvas drawn")
        * h.get_by_label(label).rect()
}

/// Steps the UI until the worker's first preview is showing.
fn wait_for_preview(h: &mut Harness<'_, EditorApp>) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !h.state().has_preview() {
        assert!(Instant::now() < deadline, "no preview");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
}

fn click_at(h: &mut Harness<'_, EditorApp>, pos: egui::Pos2, button: PointerButton) {
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

#[test]
fn select_a_node_and_change_a_param_in_the_inspector() {
    let mut h = harness(&marble_path());
    let title = on_canvas(&h, "turb: Turbulence");
    click_at(&mut h, title.center(), PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some("turb"));
    // The octaves field of the inspector: type a new value.
    let field = h.get_by_role_and_label(Role::SpinButton, "octaves");
    field.click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(Event::Text("3".into()));
    h.key_press(Key::Enter);
    h.run_steps(3);
    let node = h.state().graph.node("turb").unwrap().clone();
    assert_eq!(
        node.params.get("octaves"),
        Some(&ParamValue::Number(3.0)),
        "{:?}",
        node.params
    );
}

#[test]
fn add_a_node_from_the_palette_by_typing_its_name() {
    let mut h = harness(&marble_path());
    let before = h.state().graph.nodes.len();
    h.hover_at(egui::pos2(500.0, 700.0));
    h.key_press(Key::Space);
    h.run_steps(3);
    h.event(Event::Text("ridged".into()));
    h.run_steps(2);
    h.get_by_label("Ridged Multifractal — Fractal").click();
    h.run_steps(3);
    let graph = &h.state().graph;
    assert_eq!(graph.nodes.len(), before + 1);
    assert_eq!(
        graph.node("ridged1").map(|n| n.kind.as_str()),
        Some("ridged")
    );
}

#[test]
fn undo_and_redo_restore_exact_graphs() {
    let mut h = harness(&marble_path());
    let original = h.state().graph.clone();
    h.state_mut().push(Command::SetParam {
        node: "veins".into(),
        param: "frequency".into(),
        value: ParamValue::Number(5.0),
    });
    h.state_mut().push(Command::SetParam {
        node: "veins".into(),
        param: "frequency".into(),
        value: ParamValue::Number(6.0),
    });
    h.state_mut().push(Command::Remove(vec!["sharpen".into()]));
    h.run_steps(2);
    let edited = h.state().graph.clone();
    assert!(edited.node("sharpen").is_none());
    assert!(
        edited.node("stone").unwrap().inputs.is_empty(),
        "connections to a removed node go too"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z); // the two frequency edits are one step
    h.run_steps(2);
    assert_eq!(h.state().graph, original);
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run_steps(2);
    assert_eq!(h.state().graph, edited);
}

#[test]
fn refused_connections_leave_the_graph_unchanged() {
    let mut h = harness(&marble_path());
    let original = h.state().graph.clone();
    h.state_mut().push(Command::Connect {
        from: "stone".into(),
        to: "turb".into(),
        port: "frequency".into(),
    });
    h.run_steps(2);
    assert_eq!(h.state().graph, original);
    assert!(h.state().status.contains("cycle"), "{}", h.state().status);
}

#[test]
fn save_then_open_round_trips_and_a_bad_file_keeps_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&marble_path());
    let saved = dir.path().join("copy.json");
    h.state_mut().path_field = saved.display().to_string();
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(Graph::load(&saved).unwrap(), h.state().graph);
    assert!(!h.state().modified);

    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{ \"format\": \"texgraph\", \"version\": 9, \"nodes\": [] }",
    )
    .unwrap();
    let before = h.state().graph.clone();
    h.state_mut().path_field = bad.display().to_string();
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert_eq!(h.state().graph, before);
    assert!(
        h.state().status.starts_with("error:") && h.state().status.contains("version"),
        "{}",
        h.state().status
    );

    h.state_mut().path_field = saved.display().to_string();
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert_eq!(h.state().graph, Graph::load(&saved).unwrap());
}

#[test]
fn the_preview_arrives_from_the_worker() {
    let mut h = harness(&marble_path());
    wait_for_preview(&mut h);
}

#[test]
fn enter_in_the_palette_adds_the_first_match() {
    let mut h = harness(&marble_path());
    h.hover_at(egui::pos2(500.0, 700.0));
    h.key_press(Key::Space);
    h.run_steps(3);
    h.event(Event::Text("wave".into()));
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(
        h.state().graph.node("wave1").map(|n| n.kind.as_str()),
        Some("wave")
    );
}

#[test]
fn every_registry_text_has_glyphs_in_the_default_fonts() {
    let h = harness(&marble_path());
    let font = egui::FontId::proportional(14.0);
    for desc in texgraph_core::registry::NODES {
        let texts = std::iter::once(desc.doc)
            .chain(std::iter::once(desc.label))
            .chain(desc.params.iter().map(|p| p.doc))
            .chain(desc.inputs.iter().map(|p| p.doc));
        for text in texts {
            let missing: String = text
                .chars()
                .filter(|c| !h.ctx.fonts_mut(|f| f.has_glyphs(&font, &c.to_string())))
                .collect();
            assert!(
                missing.is_empty(),
                "{}: no glyph for {missing:?} in {text:?}",
                desc.id
            );
        }
    }
}

#[test]
fn copy_and_paste_go_through_the_clipboard_as_graph_json() {
    let mut h = harness(&marble_path());
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(2);
    h.event(Event::Copy);
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .expect("copied to the clipboard");
    let as_file = Graph::from_json(&copied).expect("the clipboard holds a graph file");
    assert_eq!(as_file.nodes.len(), 1);
    assert!(
        as_file.nodes[0].inputs.is_empty(),
        "connections leaving the copy are dropped"
    );
    h.event(Event::Paste(copied));
    h.run_steps(2);
    let pasted = h
        .state()
        .graph
        .node("wave1")
        .expect("pasted under a fresh id")
        .clone();
    assert_eq!(pasted.params, h.state().graph.node("veins").unwrap().params);
    assert_eq!(h.state().selected.as_deref(), Some("wave1"));
    // Pasting text that is not a graph does nothing.
    let before = h.state().graph.clone();
    h.event(Event::Paste("hello".into()));
    h.run_steps(2);
    assert_eq!(h.state().graph, before);
}

#[test]
fn an_idle_editor_stops_repainting() {
    let mut h = harness(&marble_path());
    wait_for_preview(&mut h);
    std::thread::sleep(Duration::from_millis(300)); // let the thumbnails finish
    h.run_steps(2);
    assert!(
        h.try_run().is_ok(),
        "the UI keeps asking for frames while nothing changes"
    );
}
