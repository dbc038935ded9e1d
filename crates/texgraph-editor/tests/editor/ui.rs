//! The editor driven headlessly, as a person would: through its widgets and keys.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::{self, Event, Key, Modifiers, PointerButton, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::app::EditorApp;
use texgraph_editor::command::Command;
use texgraph_editor::document::new_graph;

use crate::common::*;

#[test]
fn select_a_node_and_change_a_param_in_the_inspector() {
    let mut h = harness(&graph_path("marble.json"));
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
    let mut h = harness(&graph_path("marble.json"));
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
    let mut h = harness(&graph_path("marble.json"));
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
    let mut h = harness(&graph_path("marble.json"));
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
fn save_as_then_open_round_trips_and_a_bad_file_keeps_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&graph_path("marble.json"));
    let saved = dir.path().join("copy.json");
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
    choose_file(&mut h, &saved);
    assert_eq!(Graph::load(&saved).unwrap(), h.state().graph);
    assert!(!h.state().modified);
    assert_eq!(h.state().path.as_deref(), Some(saved.as_path()));
    assert_eq!(h.state().files.recent.first(), Some(&saved));

    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{ \"format\": \"texgraph\", \"version\": 9, \"nodes\": [] }",
    )
    .unwrap();
    let before = h.state().graph.clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    choose_file(&mut h, &bad);
    assert_eq!(h.state().graph, before);
    assert!(
        h.state().status.starts_with("error:") && h.state().status.contains("version"),
        "{}",
        h.state().status
    );

    h.state_mut().push(Command::New);
    h.run_steps(2);
    assert_eq!(h.state().graph, new_graph());
    h.get_by_label("File").click();
    h.run_steps(1);
    menu_item(&h, "Open…").click();
    choose_file(&mut h, &saved);
    assert_eq!(h.state().graph, Graph::load(&saved).unwrap());
}

/// The question's Save button (the toolbar has one too; the question is drawn last).
fn save_in_the_question(h: &Harness<'_, EditorApp>) {
    h.get_all_by_label("Save")
        .last()
        .expect("a Save button")
        .click();
}

#[test]
fn unsaved_changes_are_asked_about_before_they_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &path).unwrap();
    let mut h = harness(&path);
    h.state_mut().push(Command::SetParam {
        node: "veins".into(),
        param: "frequency".into(),
        value: ParamValue::Number(7.0),
    });
    h.run_steps(2);
    assert!(h.state().modified);
    let edited = h.state().graph.clone();

    // New asks first; Cancel keeps everything.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().graph, edited);
    assert!(h.state().modified);

    // Save writes the file, then the new graph starts.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    save_in_the_question(&h);
    h.run_steps(3);
    assert_eq!(Graph::load(&path).unwrap(), edited);
    assert!(h.state().graph == new_graph() && h.state().path.is_none());

    // An untitled graph: "Save" asks for a name first, then opens the dropped file.
    h.state_mut().push(Command::AddNode {
        kind: "perlin",
        pos: None,
    });
    h.run_steps(2);
    let dropped = dir.path().join("dropped.json");
    std::fs::copy(graph_path("marble.json"), &dropped).unwrap();
    h.state_mut()
        .request(texgraph_editor::files::Then::Open(dropped.clone()));
    h.run_steps(2);
    save_in_the_question(&h);
    let untitled = dir.path().join("untitled.json");
    choose_file(&mut h, &untitled);
    assert_eq!(Graph::load(&untitled).unwrap().nodes.len(), 2);
    h.run_steps(2);
    assert_eq!(h.state().path.as_deref(), Some(dropped.as_path()));
    assert_eq!(h.state().graph, Graph::load(&dropped).unwrap());

    // "Don't save" drops the edit.
    h.state_mut().push(Command::Remove(vec!["veins".into()]));
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label("Don't save").click();
    h.run_steps(3);
    assert_eq!(h.state().graph, new_graph());
    assert_eq!(
        Graph::load(&dropped).unwrap().nodes.len(),
        edited.nodes.len()
    );
}

#[test]
fn dragging_from_an_output_pin_to_an_input_pin_connects_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.json");
    std::fs::write(
        &path,
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "noise", "type": "perlin", "pos": [0, 0] },
            { "id": "out", "type": "output", "pos": [520, 60] } ] }"#,
    )
    .unwrap();
    let mut h = harness(&path);
    h.run_steps(2);
    let from = pin_beside(&h, on_canvas(&h, "out"), false);
    let to = pin_beside(&h, on_canvas(&h, "color"), true);
    h.hover_at(from);
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    // egui-snarl repaints while a wire is dragged: step a fixed number of frames.
    for step in 1..=10 {
        h.hover_at(from + (to - from) * (step as f32 / 10.0));
        h.run_steps(1);
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(3);
    let out = h.state().graph.node("out").unwrap().clone();
    assert_eq!(out.inputs.get("color").map(String::as_str), Some("noise"));
    // The same drag onto a port that already has this wire changes nothing further, and
    // undo takes the connection away again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(h.state().graph.node("out").unwrap().inputs.is_empty());
}

#[test]
fn shift_click_selects_several_nodes_and_delete_removes_them() {
    let mut h = harness(&graph_path("marble.json"));
    shift_click_titles(&mut h, &["turb: Turbulence", "veins: Wave"]);
    let mut selected = h.state().selection(&h.ctx);
    selected.sort();
    assert_eq!(selected, ["turb", "veins"]);
    h.key_press(Key::Delete);
    h.run_steps(2);
    let graph = &h.state().graph;
    assert!(graph.node("turb").is_none() && graph.node("veins").is_none());
    assert!(graph.node("sharpen").is_some());
}

#[test]
fn moving_a_node_marks_the_graph_modified_and_undo_moves_it_back() {
    let mut h = harness(&graph_path("marble.json"));
    let before = h.state().graph.node("veins").unwrap().pos;
    let title = on_canvas(&h, "veins: Wave");
    let start = title.center();
    h.hover_at(start);
    h.event(Event::PointerButton {
        pos: start,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    for step in 1..=6 {
        h.hover_at(start + egui::vec2(20.0, 10.0) * step as f32);
        h.run_steps(1);
    }
    let end = start + egui::vec2(120.0, 60.0);
    h.event(Event::PointerButton {
        pos: end,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
    let after = h.state().graph.node("veins").unwrap().pos;
    assert!(
        after[0] > before[0] + 10.0 && after[1] > before[1] + 5.0,
        "{before:?} → {after:?}"
    );
    assert!(h.state().modified);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().graph.node("veins").unwrap().pos,
        before,
        "one drag, one undo step"
    );
}

#[test]
fn a_node_pinned_to_the_preview_is_what_the_preview_shows() {
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
    h.state_mut().push(Command::Pin(Some("veins".into())));
    h.run_steps(1);
    let deadline = Instant::now() + Duration::from_secs(30);
    // The wave node is gray (one channel); the marble output is color.
    while h
        .state()
        .preview
        .image
        .as_ref()
        .is_none_or(|i| i.channels != 1)
    {
        assert!(Instant::now() < deadline, "the pinned node never showed");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    assert!(h.get_by_label("showing node veins").rect().width() > 0.0);
}

#[test]
fn the_preview_arrives_from_the_worker() {
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
}

#[test]
fn enter_in_the_palette_adds_the_first_match() {
    let mut h = harness(&graph_path("marble.json"));
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
    let h = harness(&graph_path("marble.json"));
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
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(2);
    let copied = copy(&mut h);
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
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
    std::thread::sleep(Duration::from_millis(300)); // let the thumbnails finish
    h.run_steps(2);
    assert!(
        h.try_run().is_ok(),
        "the UI keeps asking for frames while nothing changes"
    );
}

#[test]
fn the_export_dialog_writes_the_chosen_format_and_size_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &path).unwrap();
    let mut h = harness(&path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    assert_eq!(
        h.state().export.path,
        dir.path().join("marble.png").display().to_string(),
        "suggested beside the graph, named after it"
    );
    h.get_by_value("PNG 8-bit").click();
    h.run_steps(2);
    h.get_by_label("EXR 32-bit float").click();
    h.run_steps(2);
    h.get_by_value("1024×1024").click();
    h.run_steps(2);
    h.get_by_label("256×256").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(1);
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().export.message.is_empty() {
        assert!(Instant::now() < deadline, "the export never finished");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    let message = &h.state().export.message;
    assert!(message.starts_with("wrote"), "{message}");
    let exr = dir.path().join("marble.exr");
    let image = texgraph_core::export::read_exr(&exr).unwrap();
    assert_eq!((image.width, image.height), (256, 256));
}

#[test]
fn every_symbol_in_the_editor_code_has_a_glyph_in_the_default_fonts() {
    let h = harness(&graph_path("marble.json"));
    let font = egui::FontId::proportional(14.0);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.clone()];
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Strings shown in the UI; comments may use any character.
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for c in line.chars().filter(|c| !c.is_ascii()) {
                checked += 1;
                assert!(
                    h.ctx.fonts_mut(|f| f.has_glyphs(&font, &c.to_string())),
                    "{}: no glyph for {c:?} in {line:?}",
                    path.display()
                );
            }
        }
    }
    assert!(checked > 10, "the scan found the UI's symbols");
}

#[test]
fn the_ramp_editor_takes_typed_hex_colors_and_adds_stops_in_order() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("stone".into())));
    // The inspector's grid settles its column widths over the first frames.
    h.run_steps(4);
    let stops = |h: &Harness<'_, EditorApp>| match h
        .state()
        .graph
        .node("stone")
        .unwrap()
        .params
        .get("stops")
    {
        Some(ParamValue::Stops(stops)) => stops.clone(),
        other => panic!("{other:?}"),
    };
    let before = stops(&h);
    retype(&mut h, &before[0].color, "#123456");
    assert_eq!(stops(&h)[0].color, "#123456");
    assert_eq!(stops(&h)[1..], before[1..]);

    h.get_by_label("+ stop").click();
    h.run_steps(2);
    let after = stops(&h);
    assert_eq!(after.len(), before.len() + 1);
    assert!(
        after.windows(2).all(|w| w[0].pos <= w[1].pos),
        "a new stop goes in ramp order: {after:?}"
    );
    assert!(after.iter().any(|s| s.pos == 0.5));
}

#[test]
fn a_node_the_compiler_rejects_is_outlined_with_its_message() {
    // Validation accepts this chain; the compiler refuses inputs nested deeper than
    // MAX_DEPTH and names the node where it stopped.
    let depth = texgraph_core::compile::MAX_DEPTH + 2;
    let mut nodes = vec![r#"{ "id": "n0", "type": "perlin" }"#.to_owned()];
    for i in 1..=depth {
        nodes.push(format!(
            r#"{{ "id": "n{i}", "type": "levels", "inputs": {{ "input": "n{}" }}, "pos": [{}, 0] }}"#,
            i - 1,
            i * 220
        ));
    }
    nodes.push(format!(
        r#"{{ "id": "out", "type": "output", "inputs": {{ "color": "n{depth}" }} }}"#
    ));
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [{}] }}"#,
        nodes.join(",")
    );
    let graph = Graph::from_json(&json).unwrap();
    assert!(texgraph_core::validate(&graph).is_empty());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.json");
    graph.save(&path).unwrap();
    let mut h = harness(&path);
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().errors().is_empty() {
        assert!(Instant::now() < deadline, "no error came back");
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    let errors = h.state().errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (node, message) = errors.iter().next().unwrap();
    assert!(
        node.starts_with('n') && message.contains("nest"),
        "{node}: {message}"
    );
    assert!(
        h.state()
            .preview
            .error
            .as_ref()
            .is_some_and(|e| e.contains("nest"))
    );
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let mut h = harness(&graph_path("marble.json"));
    let close = |h: &mut Harness<'_, EditorApp>| {
        h.input_mut()
            .viewports
            .entry(egui::ViewportId::ROOT)
            .or_default()
            .events
            .push(egui::ViewportEvent::Close);
        h.run_steps(1);
    };
    let sent = |h: &Harness<'_, EditorApp>, wanted: &egui::ViewportCommand| {
        h.output()
            .viewport_output
            .values()
            .any(|v| v.commands.contains(wanted))
    };
    // Nothing to lose: the window may close (no cancel).
    close(&mut h);
    assert!(!sent(&h, &egui::ViewportCommand::CancelClose));
    assert!(h.state().files.prompt.is_none());

    h.state_mut().push(Command::SetName("changed".into()));
    h.run_steps(2);
    close(&mut h);
    assert!(sent(&h, &egui::ViewportCommand::CancelClose));
    assert_eq!(
        h.state().files.prompt,
        Some(texgraph_editor::files::Then::Quit)
    );
    h.run_steps(1);
    h.get_by_label("Don't save").click();
    h.run_steps(1);
    assert!(sent(&h, &egui::ViewportCommand::Close));
}

/// A file dropped on the window.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_a_graph_file_on_the_window_opens_it() {
    let mut h = harness(&graph_path("marble.json"));
    let wood = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs/wood.json");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(wood.clone())));
    h.run_steps(3);
    assert_eq!(h.state().graph, Graph::load(&wood).unwrap());
    assert_eq!(h.state().path.as_deref(), Some(wood.as_path()));
}

#[test]
fn a_wire_lifted_off_an_input_and_dropped_in_empty_space_is_disconnected() {
    let mut h = harness(&graph_path("marble.json"));
    h.run_steps(2);
    let input = pin_beside(&h, on_canvas(&h, "color"), true);
    // egui-snarl: Ctrl+drag from an input pin picks up its wire.
    h.event(Event::ModifiersChanged(Modifiers::COMMAND));
    h.hover_at(input);
    h.run_steps(1);
    h.event(Event::PointerButton {
        pos: input,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::COMMAND,
    });
    let away = input + egui::vec2(-60.0, 160.0);
    for step in 1..=8 {
        h.hover_at(input + (away - input) * (step as f32 / 8.0));
        h.run_steps(1);
    }
    assert!(
        h.state()
            .graph
            .node("out")
            .unwrap()
            .inputs
            .contains_key("color"),
        "nothing changes while the wire is still held"
    );
    h.event(Event::PointerButton {
        pos: away,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::COMMAND,
    });
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(3);
    assert!(h.state().graph.node("out").unwrap().inputs.is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state()
            .graph
            .node("out")
            .unwrap()
            .inputs
            .get("color")
            .map(String::as_str),
        Some("stone")
    );
}

/// Types `text` into the palette (its search box has the keyboard) and picks the first
/// match with Enter.
fn pick_in_palette(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.run_steps(2);
    assert_eq!(
        h.get_all_by_label("Add node").count(),
        2,
        "the palette's window is open beside the menu's button"
    );
    h.event(Event::Text(text.into()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
}

#[test]
fn a_wire_dropped_on_empty_canvas_opens_the_palette_and_the_node_picked_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wire.json");
    std::fs::write(
        &path,
        r#"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "n", "type": "perlin", "pos": [0, 0] },
             { "id": "o", "type": "output", "pos": [600, 0] } ] }"#,
    )
    .unwrap();
    let mut h = harness(&path);
    h.run_steps(2);
    // Out of the noise's output, let go below it on empty canvas.
    let output = pin_beside(&h, on_canvas(&h, "out"), false);
    let away = output + egui::vec2(120.0, 260.0);
    drag(&mut h, output, away, Modifiers::NONE, 8);
    pick_in_palette(&mut h, "levels");
    let graph = h.state().graph.clone();
    let levels = graph
        .nodes
        .iter()
        .find(|n| n.kind == "levels")
        .expect("added");
    assert_eq!(
        levels.inputs.get("input").map(String::as_str),
        Some("n"),
        "the new node takes the wire"
    );
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_canvas = h.ctx.layer_transform_to_global(layer).unwrap().inverse();
    let dropped = to_canvas * away;
    assert!(
        egui::Pos2::from(levels.pos).distance(dropped) < 40.0,
        "placed where the wire was let go: {:?} for {dropped:?}",
        levels.pos
    );
    // One gesture, one undo step: the node and its wire go together.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph.nodes.len(), 2);

    // A library graph, found by the name Substance users search for, takes the wire
    // into its first input, one undo step with it.
    drag(&mut h, output, away, Modifiers::NONE, 8);
    pick_in_palette(&mut h, "edge damage");
    let graph = h.state().graph.clone();
    let damage = graph
        .nodes
        .iter()
        .find(|n| n.kind == "graph")
        .expect("added");
    assert_eq!(
        damage.params.get("file"),
        Some(&ParamValue::Text("library:erode_edges".into()))
    );
    assert_eq!(damage.inputs.get("input").map(String::as_str), Some("n"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph.nodes.len(), 2);

    // Into the output's input, backwards: the palette offers only nodes with an output,
    // and the one picked feeds the input.
    let input = pin_beside(&h, on_canvas(&h, "color"), true);
    let backwards = input + egui::vec2(-200.0, 240.0);
    drag(&mut h, input, backwards, Modifiers::NONE, 8);
    pick_in_palette(&mut h, "output");
    assert!(
        h.state()
            .graph
            .nodes
            .iter()
            .all(|n| n.id == "o" || n.kind != "output"),
        "an output has no output to feed the wire: not offered"
    );
    h.key_press(Key::Escape);
    h.run_steps(2);
    drag(&mut h, input, backwards, Modifiers::NONE, 8);
    pick_in_palette(&mut h, "checker");
    let graph = &h.state().graph;
    let checker = graph
        .nodes
        .iter()
        .find(|n| n.kind == "checker")
        .expect("added");
    assert_eq!(
        graph.node("o").unwrap().inputs.get("color"),
        Some(&checker.id),
        "the new node feeds the input the wire came out of"
    );
    // A library graph with no inputs feeds it the same way.
    drag(&mut h, input, backwards, Modifiers::NONE, 8);
    pick_in_palette(&mut h, "grunge map 001");
    let graph = &h.state().graph;
    let grunge = graph
        .nodes
        .iter()
        .find(|n| n.params.get("file") == Some(&ParamValue::Text("library:grunge_concrete".into())))
        .expect("added");
    assert_eq!(
        graph.node("o").unwrap().inputs.get("color"),
        Some(&grunge.id)
    );
}

#[test]
fn the_menus_offer_copy_duplicate_delete_and_quit() {
    let mut h = harness(&graph_path("marble.json"));
    h.run_steps(2);
    let menu = |h: &mut Harness<'_, EditorApp>, menu: &str, entry: &str| {
        h.get_by_label(menu).click();
        h.run_steps(2);
        menu_item(h, entry).click();
        h.run_steps(3);
    };
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(2);
    menu(&mut h, "Edit", "Duplicate");
    let copy = h.state().selected.clone().expect("the copy is selected");
    assert_ne!(copy, "veins");
    assert_eq!(h.state().graph.node(&copy).unwrap().kind, "wave");
    menu(&mut h, "Edit", "Delete");
    assert!(h.state().graph.node(&copy).is_none());
    assert_eq!(h.state().graph.nodes.len(), 5);
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(2);
    menu(&mut h, "Edit", "Copy");
    assert_eq!(h.state().status, "copied 1 node(s) as graph JSON");
    // Quit asks about the unsaved edits (the deletion), as the close button does.
    assert!(h.state().modified);
    menu(&mut h, "File", "Quit");
    assert!(matches!(
        h.state().files.prompt,
        Some(texgraph_editor::files::Then::Quit)
    ));
}

#[test]
fn a_new_graph_shows_a_hint_not_an_error() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::New);
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.state().preview.hint.is_none() {
        assert!(
            Instant::now() < deadline,
            "no hint: {:?}",
            h.state().preview.error
        );
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(h.state().preview.error, None);
    h.get_by_label_contains("wire it into the output");
    // Wired, it renders; unwired again, that is a mistake worth naming.
    h.state_mut().push(Command::AddNode {
        kind: "perlin",
        pos: None,
    });
    h.run_steps(2);
    let noise = h.state().selected.clone().unwrap();
    h.state_mut().push(Command::Connect {
        from: noise.clone(),
        to: "output".into(),
        port: "color".into(),
    });
    wait_for_preview(&mut h);
    assert_eq!(h.state().preview.hint, None);
    h.state_mut().push(Command::Disconnect {
        to: "output".into(),
        port: "color".into(),
    });
    // Nothing selected, the preview shows the output (else it follows the noise).
    h.state_mut().push(Command::Select(None));
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.state().preview.error.is_none() {
        assert!(Instant::now() < deadline, "no error for an unwired output");
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(h.state().preview.hint, None);
}

#[test]
fn the_curve_editor_adds_drags_and_removes_points() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("curve.json");
    std::fs::write(
        &path,
        r#"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "n", "type": "perlin" },
             { "id": "c", "type": "curve", "inputs": { "input": "n" }, "pos": [250, 0] },
             { "id": "out", "type": "output", "inputs": { "color": "c" }, "pos": [500, 0] } ] }"#,
    )
    .unwrap();
    let mut h = harness_sized(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().push(Command::Select(Some("c".into())));
    h.run_steps(4);
    let points = |h: &Harness<'_, EditorApp>| match h
        .state()
        .graph
        .node("c")
        .unwrap()
        .params
        .get("points")
    {
        Some(ParamValue::Points(points)) => points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>(),
        None => vec![(0.0, 0.0), (1.0, 1.0)],
        other => panic!("{other:?}"),
    };
    let plot = h.get_by_label("curve").rect();

    // A click on the plot adds a point there, in x order.
    click_at(
        &mut h,
        plot.left_top() + plot.size() * egui::vec2(0.25, 0.2),
        PointerButton::Primary,
    );
    let added = points(&h);
    assert_eq!(added.len(), 3, "{added:?}");
    assert_eq!(added[0], (0.0, 0.0));
    assert!(
        (added[1].0 - 0.25).abs() < 0.01 && (added[1].1 - 0.8).abs() < 0.01,
        "{added:?}"
    );

    // Dragging that point's handle moves it: right and down on screen is +x, −y.
    let from = plot.left_top() + plot.size() * egui::vec2(0.25, 0.2);
    let to = from + egui::vec2(plot.width() * 0.3, plot.height() * 0.4);
    drag(&mut h, from, to, Modifiers::NONE, 6);
    let moved = points(&h);
    assert!(
        (moved[1].0 - 0.55).abs() < 0.02 && (moved[1].1 - 0.4).abs() < 0.02,
        "{moved:?}"
    );
    // One drag is one undo step.
    h.state_mut().push(Command::Undo);
    h.run_steps(2);
    assert_eq!(points(&h), added);

    // A right click on a handle removes its point; the last two stay.
    click_at(&mut h, from, PointerButton::Secondary);
    assert_eq!(points(&h), vec![(0.0, 0.0), (1.0, 1.0)]);
    click_at(&mut h, plot.left_bottom(), PointerButton::Secondary);
    assert_eq!(points(&h).len(), 2);

    // The preview renders the curve: the graph still validates.
    assert!(texgraph_core::validate(&h.state().graph).is_empty());
}

#[test]
fn the_palette_offers_exact_names_first() {
    use texgraph_editor::panels::canvas::palette_matches;
    let ids = |filter: &str| {
        palette_matches(filter)
            .iter()
            .map(|d| d.id)
            .collect::<Vec<_>>()
    };
    let color = ids("color");
    assert_eq!(color[0], "color", "{color:?}");
    assert_eq!(
        color[1], "gradient",
        "the Color Ramp starts with the word: {color:?}"
    );
    assert!(
        color.contains(&"hsl"),
        "the Color category follows: {color:?}"
    );
    assert_eq!(ids("blur")[0], "blur");
    assert_eq!(ids("cell")[0], "cellular");
    assert_eq!(ids("").len(), texgraph_core::registry::NODES.len());
}

#[test]
fn the_palette_finds_nodes_by_the_words_substance_and_material_maker_users_type() {
    use texgraph_editor::panels::canvas::palette_matches;
    let ids = |filter: &str| {
        palette_matches(filter)
            .iter()
            .map(|d| d.id)
            .collect::<Vec<_>>()
    };
    let tile = ids("tile");
    assert_eq!(tile[0], "tile_sampler", "{tile:?}");
    assert!(
        tile.contains(&"make_it_tile") && tile.contains(&"bricks"),
        "tile nodes and a tile generator: {tile:?}"
    );
    assert_eq!(ids("invert")[0], "invert");
    assert_eq!(ids("Uniform")[..3], ["uniform", "color", "constant"]);
    assert_eq!(ids("uniform color")[0], "uniform");
    assert_eq!(ids("kaleidoscope"), ["symmetry"]);
    assert_eq!(ids("cartesian to polar"), ["polar"]);
    let grunge = ids("grunge");
    assert!(grunge.starts_with(&["fbm", "turbulence"]), "{grunge:?}");
    assert_eq!(ids("gradient map")[0], "gradient");
    let splatter = ids("splatter");
    assert_eq!(
        splatter[0], "splatter_circular",
        "its name first: {splatter:?}"
    );
    for id in ["tile_sampler", "shape_splatter", "scatter"] {
        assert!(
            splatter[..4].contains(&id),
            "{id} among the first: {splatter:?}"
        );
    }
    assert_eq!(ids("voronoi"), ["cellular"]);
    assert_eq!(ids("scratch")[0], "anisotropic_noise");
    // Names still come first: a word that is also a node's name finds that node first.
    assert_eq!(ids("blur")[0], "blur");
    assert_eq!(ids("scale")[0], "transform");
}

#[test]
fn the_palette_finds_every_name_of_the_alias_table_and_the_library() {
    use texgraph_core::search_words::{OTHER_TOOLS, SEARCH_WORDS};
    use texgraph_editor::panels::canvas::palette_items;
    let ids = |filter: &str| {
        palette_items(filter)
            .iter()
            .map(|item| item.id)
            .collect::<Vec<_>>()
    };
    for (substance, maker, id) in OTHER_TOOLS {
        for name in [substance, maker] {
            if !name.is_empty() {
                assert!(
                    ids(name).contains(id),
                    "“{name}” finds {id}: {:?}",
                    ids(name)
                );
            }
        }
    }
    for (word, found) in SEARCH_WORDS {
        let listed = ids(word);
        for id in *found {
            assert!(listed.contains(id), "“{word}” finds {id}: {listed:?}");
        }
    }
    // What Substance users type first finds the library's graphs.
    assert_eq!(ids("grunge")[0], "library:grunge_concrete");
    assert_eq!(ids("hexagon")[0], "library:hexagon_tiles");
    assert_eq!(ids("Tile Sampler")[0], "tile_sampler");
    assert_eq!(ids("edge wear")[0], "library:mask_edge_wear");
    let library = palette_items("")
        .iter()
        .filter(|i| i.node.is_none())
        .count();
    assert!(library >= 40 && palette_items("").len() >= 150);
}

/// Clicks the text field showing `old`, replaces its text with `new` and presses Enter.
fn retype(h: &mut Harness<'_, EditorApp>, old: &str, new: &str) {
    h.get_by(|n| n.role() == Role::TextInput && n.value().as_deref() == Some(old))
        .click();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(Event::Text(new.into()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(2);
}

#[test]
fn a_color_node_takes_a_typed_hex_color() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("color.json");
    std::fs::write(
        &path,
        r##"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "c", "type": "color", "params": { "color": "#808080" } },
             { "id": "out", "type": "output", "inputs": { "color": "c" }, "pos": [250, 0] } ] }"##,
    )
    .unwrap();
    let mut h = harness(&path);
    h.state_mut().push(Command::Select(Some("c".into())));
    h.run_steps(4);
    retype(&mut h, "#808080", "#3b342b");
    assert_eq!(
        h.state().graph.node("c").unwrap().params.get("color"),
        Some(&ParamValue::Text("#3b342b".into()))
    );
}

#[test]
fn disconnecting_an_input_keeps_everything_downstream_rendering_with_its_constant() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(
        dir.path(),
        "open.json",
        r#"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "n", "type": "perlin", "pos": [0, 0] },
             { "id": "c", "type": "cellular", "pos": [0, 300] },
             { "id": "mix", "type": "blend", "inputs": { "a": "n", "b": "c" }, "pos": [250, 0] },
             { "id": "lv", "type": "levels", "inputs": { "input": "mix" }, "pos": [500, 0] },
             { "id": "out", "type": "output", "inputs": { "color": "lv" }, "pos": [750, 0] } ] }"#,
    );
    wait_for_preview(&mut h);
    let zeros = |h: &Harness<'_, EditorApp>| h.query_all_by_label("0").count();
    let before = zeros(&h);
    let asked = h.state().renders_asked();
    h.state_mut().push(Command::Disconnect {
        to: "mix".into(),
        port: "b".into(),
    });
    wait_until(&mut h, "the preview of the half-wired graph", |app| {
        app.renders_asked() > asked
            && app.preview_is_current()
            && app.has_thumbnail("lv")
            && app.has_thumbnail("mix")
    });
    assert!(
        !h.state()
            .graph
            .node("mix")
            .unwrap()
            .inputs
            .contains_key("b")
    );
    assert_eq!(h.state().preview.error, None);
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    assert_eq!(
        h.state().warnings().get("mix").map(String::as_str),
        Some("node 'mix', field 'b': not connected: reads 0")
    );
    // The open socket shows what it reads.
    h.run_steps(2);
    assert_eq!(zeros(&h), before + 1, "the open socket shows 0");
}

/// Waits until the preview shows an image of `channels` channels rendered for the latest
/// request.
fn wait_for_channels(h: &mut Harness<'_, EditorApp>, channels: usize, what: &str) {
    wait_until(h, what, |app| {
        app.preview_is_current()
            && app
                .preview
                .image
                .as_ref()
                .is_some_and(|i| i.channels == channels)
    });
}

#[test]
fn the_preview_follows_the_selection_unless_a_double_click_pins_a_node() {
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
    // Nothing selected: the output, in color.
    assert_eq!(h.state().preview.image.as_ref().unwrap().channels, 4);
    // Selected: the wave node, gray.
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(1);
    wait_for_channels(&mut h, 1, "the selected node in the preview");
    h.get_by_label("showing selected node veins");
    // Nothing selected again: the output.
    h.state_mut().push(Command::Select(None));
    h.run_steps(1);
    wait_for_channels(&mut h, 4, "the output again");

    // A double-click on a title pins that node: selecting another leaves it shown.
    // The harness steps a quarter second a frame: room for the two clicks.
    h.ctx
        .options_mut(|o| o.input_options.max_double_click_delay = 2.0);
    let title = on_canvas(&h, "veins: Wave");
    for _ in 0..2 {
        click_at(&mut h, title.center(), PointerButton::Primary);
    }
    assert_eq!(h.state().preview.pinned.as_deref(), Some("veins"));
    wait_for_channels(&mut h, 1, "the pinned node");
    h.state_mut().push(Command::Select(Some("stone".into())));
    h.run_steps(3);
    assert_eq!(h.state().preview.pinned.as_deref(), Some("veins"));
    assert!(h.state().preview_is_current());
    assert_eq!(h.state().preview.image.as_ref().unwrap().channels, 1);
    h.get_by_label("showing node veins");
    // Unpinned, it follows the selection again.
    h.get_by_label("Unpin").click();
    h.run_steps(1);
    assert_eq!(h.state().preview.pinned, None);
    wait_for_channels(&mut h, 4, "the selected color node");
    h.get_by_label("showing selected node stone");
}

#[test]
fn the_channel_buttons_show_one_channel_of_the_rendered_image_as_gray() {
    use texgraph_editor::panels::preview::Channel;
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
    let asked = h.state().renders_asked();
    for (label, channel) in [
        ("R", Channel::Red),
        ("G", Channel::Green),
        ("B", Channel::Blue),
        ("A", Channel::Alpha),
        ("RGBA", Channel::All),
    ] {
        h.get_by_label(label).click();
        h.run_steps(2);
        assert_eq!(h.state().preview.channel, channel, "{label}");
    }
    // Shown from the values already rendered: nothing was rendered again.
    assert_eq!(h.state().renders_asked(), asked);
}

#[test]
fn an_edit_shows_a_draft_first_then_the_full_preview() {
    let mut h = harness(&graph_path("cobblestone_floor.json"));
    wait_for_preview(&mut h);
    h.state_mut().preview.size = 1024;
    let asked = h.state().renders_asked();
    h.state_mut().push(Command::SetParam {
        node: "grain".into(),
        param: "frequency".into(),
        value: ParamValue::Number(41.0),
    });
    // Every image shown from the edit on, in order: its width and whether a draft.
    let mut seen: Vec<(u32, bool)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(h.state().renders_asked() > asked && h.state().preview_is_current()) {
        assert!(Instant::now() < deadline, "the full preview never came");
        h.run_steps(1);
        let preview = &h.state().preview;
        if let Some(image) = &preview.image
            && h.state().renders_asked() > asked
        {
            let now = (image.width, preview.drafted);
            if seen.last() != Some(&now) && (image.width != 256 || preview.drafted) {
                seen.push(now);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let last = h.state().preview.image.as_ref().unwrap().width;
    if seen.last() != Some(&(last, false)) {
        seen.push((last, false));
    }
    // The draft's side is an eighth of 1024 or less, as the last draft's cost says.
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen[0].1 && (32..=128).contains(&seen[0].0), "{seen:?}");
    assert_eq!(seen[1], (1024, false));
    assert!(h.state().preview.draft_latency.is_some());
}

/// A formula node with a named, ranged slider.
const FORMULA: &str = r#"{ "format": "texgraph", "version": 2, "nodes": [
    { "id": "f", "type": "formula", "params": { "expression": "fract(u * p1)", "p1": 6,
      "p1_name": "stripes", "p1_min": 1, "p1_max": 20 }, "pos": [0, 0] },
    { "id": "out", "type": "output", "inputs": { "color": "f" }, "pos": [400, 0] } ] }"#;

#[test]
fn a_formula_is_typed_its_mistake_shown_and_the_last_good_image_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "f.json", FORMULA);
    let title = on_canvas(&h, "f: Formula");
    click_at(&mut h, title.center(), PointerButton::Primary);
    // Selecting the node may start its own render (a draft, then the full size): the good
    // image is the full-size one, taken once nothing more is on its way.
    for _ in 0..20 {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    wait_until(&mut h, "the full-size preview", |app| {
        !app.preview.drafted
            && app
                .preview
                .image
                .as_ref()
                .is_some_and(|i| i.width == app.preview.size)
    });
    // The slider shows the name and range the node gives it.
    let slider = h.get_by_label_contains("stripes (p1)").rect();
    assert!(slider.width() > 0.0);
    let good = h.state().preview.image.clone().expect("a preview");
    // A mistake: the field keeps it, describes it, and the preview keeps the last image.
    h.get_by_role_and_label(Role::MultilineTextInput, "expression")
        .click();
    h.run_steps(2);
    crate::common::retype(&mut h, "fract(u * p1) + sn(v)");
    h.run_steps(3);
    let node = h.state().graph.node("f").unwrap().clone();
    assert_eq!(
        node.params.get("expression"),
        Some(&ParamValue::Text("fract(u * p1) + sn(v)".into()))
    );
    // Under the field: the place and the mistake (the preview and the problem list say
    // it too, after the node and field).
    h.get_by_label("column 17: unknown function \"sn\" (did you mean \"sin\"?)");
    for _ in 0..20 {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
    let kept = h
        .state()
        .preview
        .image
        .clone()
        .expect("the last good image");
    assert_eq!(kept.data, good.data);
    // Fixed, it renders again.
    crate::common::retype(&mut h, "fract(u * p1) + sin(v)");
    wait_until(&mut h, "the fixed formula's preview", |app| {
        app.preview
            .image
            .as_ref()
            .is_some_and(|i| i.data != good.data)
    });
}
