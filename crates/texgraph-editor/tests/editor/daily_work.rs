//! Daily work in the editor, driven headlessly as a person would: unfinished branches,
//! navigating, exporting from several graphs, editing values, undo by gesture.

use eframe::egui::{self, Event, Key, Modifiers, PointerButton, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::registry::NODES;
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::app::{EMPTY_HINT, EditorApp, STATUS_SECONDS};
use texgraph_editor::command::Command;
use texgraph_editor::document::new_graph;

use crate::common::*;

/// A perlin feeding a levels node into the output, and a second levels node left unwired.
const CHAIN: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "n", "type": "perlin", "pos": [0, 0] },
    { "id": "a", "type": "levels", "inputs": { "input": "n" }, "pos": [300, 0] },
    { "id": "b", "type": "levels", "pos": [300, 320] },
    { "id": "out", "type": "output", "inputs": { "color": "a" }, "pos": [600, 0] } ] }"#;

fn param(h: &Harness<'_, EditorApp>, node: &str, name: &str) -> Option<ParamValue> {
    h.state().graph.node(node)?.params.get(name).cloned()
}

#[test]
fn the_export_dialog_follows_the_open_graph_and_asks_before_replacing_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for (folder, file) in [("one", "marble.json"), ("two", "wood.json")] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        std::fs::copy(graph_path(file), dir.path().join(folder).join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("one/marble.json"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    let first = h.state().export.path.clone();
    assert!(
        first.starts_with(&dir.path().join("one").display().to_string()),
        "{first}"
    );
    h.state_mut().export.message = "error: node 'veins' …".into();
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert!(!h.state().export.open, "Escape closes the export window");

    let wood = dir.path().join("two/wood.json");
    h.state_mut().push(Command::Open(wood.clone()));
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    let graph = Graph::load(&wood).unwrap();
    let expected = dir
        .path()
        .join("two")
        .join(texgraph_core::export::default_image_name(
            &graph,
            Some(&wood),
        ))
        .with_extension("png");
    assert_eq!(h.state().export.path, expected.display().to_string());
    assert!(
        h.state().export.message.is_empty(),
        "the old graph's message is gone"
    );

    // An existing file is not replaced without asking.
    std::fs::write(&expected, b"keep me").unwrap();
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(2);
    assert!(h.state().export.job.is_none() && h.state().export.replacing.is_some());
    h.get_all_by_label("Cancel").last().unwrap().click();
    h.run_steps(2);
    assert!(h.state().export.replacing.is_none());
    assert_eq!(std::fs::read(&expected).unwrap(), b"keep me");
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(2);
    h.get_by_label("Replace").click();
    h.run_steps(1);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    assert!(
        h.state().export.message.starts_with("wrote"),
        "{}",
        h.state().export.message
    );
    assert!(std::fs::read(&expected).unwrap().starts_with(b"\x89PNG"));

    // The window's Cancel button closes it.
    h.get_all_by_label("Cancel").last().unwrap().click();
    h.run_steps(2);
    assert!(!h.state().export.open);
}

#[test]
fn a_half_built_node_is_a_warning_and_the_preview_and_export_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&graph_path("marble.json"));
    wait_for_preview(&mut h);
    h.state_mut().push(Command::AddNode {
        kind: "blend",
        pos: Some(egui::pos2(0.0, 600.0)),
    });
    h.run_steps(2);
    wait_until(&mut h, "a fresh preview", |app| {
        app.has_preview() && app.preview.error.is_none()
    });
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    let warning = h
        .state()
        .warnings()
        .get("blend1")
        .expect("the blend is flagged");
    assert!(warning.contains("not connected"), "{warning}");
    // The export goes on too.
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    h.state_mut().export.path = dir.path().join("m.png").display().to_string();
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(1);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    assert!(
        h.state().export.message.starts_with("wrote"),
        "{}",
        h.state().export.message
    );
}

#[test]
fn the_wheel_zooms_the_canvas_about_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let before = h.ctx.layer_transform_to_global(layer).unwrap();
    let pointer = egui::pos2(300.0, 500.0);
    h.hover_at(pointer);
    h.run_steps(1);
    wheel(&mut h, 3);
    let after = h.ctx.layer_transform_to_global(layer).unwrap();
    let ratio = after.scaling / before.scaling;
    // Three notches of 40 points: exp(120 × 0.002) = 1.27.
    assert!((ratio - 1.27).abs() < 0.02, "zoomed {ratio}×");
    let under = |t: egui::emath::TSTransform| t.inverse() * pointer;
    assert!(
        (under(after) - under(before)).length() < 1.0,
        "the point under the pointer stays put"
    );
}

/// Whether every node of the harness's graph is drawn inside the canvas.
fn all_in_view(h: &Harness<'_, EditorApp>) -> bool {
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let canvas = h.state().canvas_rect();
    h.state()
        .node_rects()
        .iter()
        .all(|(_, rect)| canvas.contains_rect(to_screen * *rect))
}

#[test]
fn a_file_opens_with_every_node_in_view_and_the_ui_scale_is_remembered() {
    for (graph, size) in [
        ("fire.json", egui::vec2(1400.0, 860.0)),
        ("fire.json", egui::vec2(900.0, 600.0)),
        ("brick_wall.json", egui::vec2(1400.0, 860.0)),
    ] {
        let mut h = harness_sized(&graph_path(graph), size);
        h.run_steps(3);
        assert!(
            all_in_view(&h),
            "{graph} {size:?}: {:?}",
            h.state().node_rects()
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("settings.json");
    let build = |store: std::path::PathBuf| {
        let mut h = Harness::builder()
            .with_size(egui::vec2(1000.0, 700.0))
            .build_eframe(move |cc| {
                let mut app = EditorApp::new(&cc.egui_ctx, new_graph(), None);
                app.settings = texgraph_editor::settings::Settings::stored_at(store.clone());
                app
            });
        h.run_steps(2);
        h
    };
    let mut h = build(store.clone());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Equals);
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Equals);
    h.run_steps(2);
    assert_eq!(h.ctx.zoom_factor(), 1.2);
    drop(h);
    let h = build(store);
    assert_eq!(
        h.ctx.zoom_factor(),
        1.2,
        "the next run starts at the same scale"
    );
}

#[test]
fn a_small_window_keeps_the_preview_and_a_steady_side_panel() {
    let mut h = harness_sized(&graph_path("marble.json"), egui::vec2(900.0, 600.0));
    wait_for_preview(&mut h);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 600.0));
    let heading_left = |h: &Harness<'_, EditorApp>| h.get_by_label("Preview").rect().left();
    let plain = heading_left(&h);
    for node in ["stone", "turb"] {
        // The ramp editor is the widest inspector; the panel keeps its width anyway.
        h.state_mut().push(Command::Select(Some(node.into())));
        h.run_steps(3);
        assert_eq!(heading_left(&h), plain, "{node}");
        let preview = h.get_by_label("Preview").rect();
        assert!(window.contains_rect(preview), "{node}: {preview:?}");
    }
    // The menu bar is one row.
    let file = h.get_by_label("File").rect();
    let tileable = h.get_by_label("tileable").rect();
    assert!((file.center().y - tileable.center().y).abs() < 4.0);
    assert!(tileable.right() <= 900.0);
}

#[test]
fn a_graph_without_positions_is_laid_out_and_arrange_is_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(
        dir.path(),
        "flat.json",
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "w", "type": "wave", "inputs": { "noise": "n" } },
            { "id": "r", "type": "ramp", "inputs": { "input": "w" } },
            { "id": "out", "type": "output", "inputs": { "color": "r" } } ] }"#,
    );
    let pos = |h: &Harness<'_, EditorApp>, id: &str| h.state().graph.node(id).unwrap().pos;
    // Layered by depth: every node left of what it feeds.
    for (source, reader) in [("n", "w"), ("w", "r"), ("r", "out")] {
        assert!(
            pos(&h, source)[0] < pos(&h, reader)[0],
            "{source} left of {reader}"
        );
    }
    // Arrange on any graph, one undo step.
    h.state_mut().push(Command::Select(Some("w".into())));
    h.run_steps(1);
    let title = on_canvas(&h, "w: Wave").center();
    drag(
        &mut h,
        title,
        title + egui::vec2(0.0, 200.0),
        Modifiers::NONE,
        6,
    );
    let moved = h.state().graph.clone();
    h.get_by_label("Edit").click();
    h.run_steps(1);
    h.get_by_label("Arrange").click();
    h.run_steps(2);
    // In a row again, each node right of what it reads with room between them.
    let rects: std::collections::HashMap<String, egui::Rect> =
        h.state().node_rects().into_iter().collect();
    for (source, reader) in [("n", "w"), ("w", "r"), ("r", "out")] {
        assert!(rects[source].right() < rects[reader].left(), "{rects:?}");
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph, moved);
}

#[test]
fn a_new_graph_has_an_output_a_hint_and_tiles() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::New);
    h.run_steps(3);
    let graph = &h.state().graph;
    assert!(graph.settings.tileable);
    assert_eq!(
        graph
            .nodes
            .iter()
            .map(|n| n.kind.as_str())
            .collect::<Vec<_>>(),
        ["output"]
    );
    assert!(h.query_by_label(EMPTY_HINT).is_some());
    // Nothing is wrong with a new graph: its output waits for an input (amber, not red).
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    assert!(h.state().warnings().contains_key("output"));
    h.state_mut().push(Command::AddNode {
        kind: "perlin",
        pos: None,
    });
    h.run_steps(3);
    assert!(
        h.query_by_label(EMPTY_HINT).is_none(),
        "the hint goes once there is work"
    );
}

/// The typed-entry field of the inspector's slider for `param`.
fn slider_field(h: &Harness<'_, EditorApp>, param: &str) -> egui::Rect {
    h.get_by_role_and_label(Role::TextInput, param).rect()
}

#[test]
fn typed_values_stay_as_typed_and_escape_reverts() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(3);
    let before = param(&h, "veins", "frequency");
    let field = slider_field(&h, "frequency").center();
    click_at(&mut h, field, PointerButton::Primary);
    retype(&mut h, "0.6");
    h.run_steps(2);
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, "frequency")
            .value()
            .as_deref(),
        Some("0.6"),
        "no reformatting while typing"
    );
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert_eq!(param(&h, "veins", "frequency"), before, "Escape reverts");
    let field = slider_field(&h, "frequency").center();
    click_at(&mut h, field, PointerButton::Primary);
    retype(&mut h, "0.6");
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(
        param(&h, "veins", "frequency"),
        Some(ParamValue::Number(0.6))
    );
}

#[test]
fn shift_drags_the_slider_finely_and_ctrl_in_round_steps() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    h.state_mut().push(Command::Select(Some("a".into())));
    h.run_steps(3);
    // out_low spans 0 to 1 on a linear bar and starts at 0.
    let bar = h.get_by_role_and_label(Role::Slider, "out_low").rect();
    let value = |h: &Harness<'_, EditorApp>| match param(h, "a", "out_low") {
        Some(ParamValue::Number(v)) => v,
        None => 0.0,
        other => panic!("{other:?}"),
    };
    let travel = bar.width() * 0.25;
    let from = egui::pos2(bar.left() + 20.0, bar.center().y);
    // A plain drag of a quarter of the bar moves the value by a quarter (relative: the drag
    // starts wherever it is grabbed), with Shift by a fortieth.
    drag(
        &mut h,
        from,
        from + egui::vec2(travel, 0.0),
        Modifiers::NONE,
        5,
    );
    let plain = value(&h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(value(&h), 0.0, "the drag was one undo step");
    drag(
        &mut h,
        from,
        from + egui::vec2(travel, 0.0),
        Modifiers::SHIFT,
        5,
    );
    let fine = value(&h);
    assert!((plain - 0.25).abs() < 0.01, "plain drag moved {plain}");
    assert!((fine - 0.025).abs() < 0.002, "Shift drag moved {fine}");
    drag(
        &mut h,
        from,
        from + egui::vec2(travel * 0.9, 0.0),
        Modifiers::COMMAND,
        5,
    );
    let coarse = value(&h);
    assert!(coarse > fine, "{coarse}");
    assert!(
        ((coarse * 20.0).round() - coarse * 20.0).abs() < 1e-9,
        "{coarse}: not a step of 0.05"
    );
}

#[test]
fn a_wire_moved_with_ctrl_drag_is_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    // Every node's thumbnail in place first (b's open input reads 0: it renders too), so
    // no pin moves while the wire is dragged.
    wait_until(&mut h, "the thumbnails", |app| {
        ["n", "a", "b"].iter().all(|id| app.has_thumbnail(id))
    });
    h.run_steps(2);
    let inputs = h
        .get_all_by_label("input")
        .map(|n| n.rect())
        .collect::<Vec<_>>();
    assert_eq!(inputs.len(), 2);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    // a's input is the upper one, b's the lower.
    let (upper, lower) = if inputs[0].top() < inputs[1].top() {
        (inputs[0], inputs[1])
    } else {
        (inputs[1], inputs[0])
    };
    let from = pin_beside(&h, to_screen * upper, true);
    let to = pin_beside(&h, to_screen * lower, true);
    drag(&mut h, from, to, Modifiers::COMMAND, 10);
    eprintln!(
        "DBG {:?} {:?} {}",
        h.state().graph.node("a"),
        h.state().graph.node("b"),
        h.state().palette_open()
    );
    let inputs_of =
        |h: &Harness<'_, EditorApp>, id: &str| h.state().graph.node(id).unwrap().inputs.clone();
    assert!(inputs_of(&h, "a").is_empty());
    assert_eq!(
        inputs_of(&h, "b").get("input").map(String::as_str),
        Some("n")
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(
        inputs_of(&h, "a").get("input").map(String::as_str),
        Some("n")
    );
    assert!(inputs_of(&h, "b").is_empty(), "one undo puts the wire back");
}

#[test]
fn a_hex_edit_and_a_following_handle_drag_are_two_undo_steps() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("stone".into())));
    h.run_steps(4);
    let stops = |h: &Harness<'_, EditorApp>| match param(h, "stone", "stops") {
        Some(ParamValue::Stops(stops)) => stops,
        other => panic!("{other:?}"),
    };
    let original = stops(&h);
    let hex = original[1].color.clone();
    h.get_by(move |n| n.role() == Role::TextInput && n.value().as_deref() == Some(hex.as_str()))
        .click();
    h.run_steps(1);
    retype(&mut h, "#123456");
    // Straight from typing to dragging a handle: the field loses focus as the drag starts.
    let ramp = h.get_by_label("ramp").rect();
    let handle = egui::pos2(
        ramp.left() + ramp.width() * original[1].pos as f32,
        ramp.bottom() + 5.0,
    );
    drag(
        &mut h,
        handle,
        handle + egui::vec2(30.0, 0.0),
        Modifiers::NONE,
        6,
    );
    let dragged = stops(&h);
    assert_eq!(dragged[1].color, "#123456");
    assert!(dragged[1].pos > original[1].pos);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    let once = stops(&h);
    assert_eq!(
        once[1].color, "#123456",
        "the first undo takes back the drag only"
    );
    assert_eq!(once[1].pos, original[1].pos);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(stops(&h), original);
}

#[test]
fn paste_lands_at_the_pointer_and_old_complaints_clear() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    h.state_mut().push(Command::Select(Some("a".into())));
    h.run_steps(2);
    let copied = copy(&mut h);
    let pointer = egui::pos2(200.0, 700.0);
    h.hover_at(pointer);
    h.run_steps(1);
    h.event(Event::Paste(copied));
    h.run_steps(2);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let at = h.ctx.layer_transform_from_global(layer).unwrap() * pointer;
    let pasted = h.state().graph.node("levels1").expect("pasted").pos;
    assert!(
        (pasted[0] - at.x).abs() <= 1.0 && (pasted[1] - at.y).abs() <= 1.0,
        "{pasted:?} vs {at:?}"
    );

    // A refused connection complains; the next edit that works clears it.
    h.state_mut().push(Command::Connect {
        from: "out".into(),
        to: "n".into(),
        port: "frequency".into(),
    });
    h.run_steps(2);
    assert!(
        h.state().status.starts_with("cannot"),
        "{}",
        h.state().status
    );
    h.state_mut().push(Command::SetParam {
        node: "n".into(),
        param: "frequency".into(),
        value: ParamValue::Number(5.0),
    });
    h.run_steps(2);
    assert!(h.state().status.is_empty(), "{}", h.state().status);
    // Any message expires.
    h.state_mut()
        .push(Command::Status("saved somewhere".into()));
    h.run_steps(2);
    assert_eq!(h.state().status, "saved somewhere");
    let now = h.ctx.input(|i| i.time);
    h.input_mut().time = Some(now + STATUS_SECONDS + 1.0);
    h.run_steps(2);
    assert!(h.state().status.is_empty(), "{}", h.state().status);
}

#[test]
fn the_palette_follows_the_arrow_keys_and_opens_on_right_click() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    // Zoomed out, so the spot is clear of the nodes whatever the one picked.
    h.hover_at(h.state().canvas_rect().center());
    wheel(&mut h, -4);
    let empty = egui::pos2(150.0, 650.0);
    click_at(&mut h, empty, PointerButton::Secondary);
    h.run_steps(2);
    assert!(h.state().palette_open(), "right-click opens the palette");
    // Typing narrows the list and starts the highlight at its first entry again.
    h.key_press(Key::ArrowDown);
    h.event(Event::Text("e".into()));
    h.run_steps(1);
    // The palette's order for "e": names starting with it first, then the rest.
    let items = texgraph_editor::panels::canvas::palette_items("e");
    let expected: Vec<&str> = items.iter().map(|item| item.id).collect();
    let nodes = items.iter().filter(|item| item.node.is_some()).count();
    let containing = NODES.iter().filter(|d| {
        d.id.contains('e')
            || d.label.to_lowercase().contains('e')
            || d.category.label().to_lowercase().contains('e')
    });
    assert_eq!(nodes, containing.count());
    assert!(nodes >= 3 && nodes < NODES.len(), "{expected:?}");
    h.key_press(Key::ArrowDown);
    h.key_press(Key::ArrowDown);
    h.key_press(Key::ArrowUp);
    h.key_press(Key::ArrowDown);
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
    let added = h.state().graph.nodes.last().unwrap().clone();
    match expected[2].strip_prefix("library:") {
        // A library graph is added as a graph node running it.
        Some(_) => assert_eq!(
            (added.kind.as_str(), added.params.get("file")),
            (
                "graph",
                Some(&texgraph_core::ParamValue::Text(expected[2].to_owned()))
            )
        ),
        None => assert_eq!(added.kind, expected[2]),
    }
    // Where the right-click was.
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let at = h.ctx.layer_transform_from_global(layer).unwrap() * empty;
    assert!((added.pos[0] - at.x).abs() <= 2.0 && (added.pos[1] - at.y).abs() <= 2.0);
}

#[test]
fn the_title_opens_the_node_menu_and_rename_follows_every_reference() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    let original = h.state().graph.clone();
    // A click anywhere on the header selects the node, not only on its title text.
    let title = on_canvas(&h, "n: Perlin Noise");
    let header_end = egui::pos2(title.right() + 25.0, title.center().y);
    click_at(&mut h, header_end, PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some("n"));
    let title = title.center();
    click_at(&mut h, title, PointerButton::Secondary);
    h.run_steps(1);
    h.get_by_label("Rename…").click();
    h.run_steps(2);
    retype(&mut h, "base_noise");
    h.key_press(Key::Enter);
    h.run_steps(3);
    let graph = &h.state().graph;
    assert!(graph.node("n").is_none());
    assert_eq!(graph.node("a").unwrap().inputs["input"], "base_noise");
    // A taken id is refused with the reason.
    h.state_mut().push(Command::Rename {
        from: "base_noise".into(),
        to: "a".into(),
    });
    h.run_steps(2);
    assert!(h.state().status.contains("taken"), "{}", h.state().status);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph, original, "a rename is one undo step");
}

#[test]
fn save_as_adds_the_extension_and_the_chooser_lists_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&graph_path("marble.json"));
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
    choose_file(&mut h, &dir.path().join("my_stone"));
    let saved = dir.path().join("my_stone.json");
    assert_eq!(Graph::load(&saved).unwrap(), h.state().graph);
    assert_eq!(h.state().path.as_deref(), Some(saved.as_path()));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(3);
    assert!(h.query_by_label("my_stone.json").is_some());
}

#[test]
fn a_color_picker_closes_on_a_click_outside_without_changing_the_color() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("stone".into())));
    h.run_steps(4);
    let before = h.state().graph.clone();
    let swatches: Vec<egui::Rect> = h
        .get_all_by_role(Role::ColorWell)
        .map(|n| n.rect())
        .collect();
    assert!(!swatches.is_empty());
    click_at(&mut h, swatches[0].center(), PointerButton::Primary);
    h.run_steps(2);
    assert!(egui::Popup::is_any_open(&h.ctx), "the picker is open");
    click_at(&mut h, egui::pos2(100.0, 820.0), PointerButton::Primary);
    h.run_steps(2);
    assert!(
        !egui::Popup::is_any_open(&h.ctx),
        "a click outside closes it"
    );
    assert_eq!(h.state().graph, before);
}

#[test]
fn a_comment_frames_nodes_moves_them_along_and_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    // Frame node a: select it, Edit → Add comment.
    h.state_mut().push(Command::Select(Some("a".into())));
    h.run_steps(1);
    h.get_by_label("Edit").click();
    h.run_steps(1);
    h.get_by_label("Add comment").click();
    h.run_steps(3);
    let graph = h.state().graph.clone();
    assert_eq!(graph.comments.len(), 1);
    let comment = &graph.comments[0];
    let inside =
        |id: &str| texgraph_editor::comment_layout::holds(comment, graph.node(id).unwrap().pos);
    assert!(inside("a") && !inside("n") && !inside("out") && !inside("b"));
    assert_eq!(h.state().selected_comment, Some(0));

    // Drag its title bar: the comment and the node inside move, the others stay.
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let title = to_screen * h.get_by_label("comment 0").rect();
    let shift = egui::vec2(80.0, 40.0);
    drag(
        &mut h,
        title.center(),
        title.center() + shift,
        Modifiers::NONE,
        8,
    );
    let moved = h.state().graph.clone();
    let by = shift / to_screen.scaling;
    let delta =
        |before: [f32; 2], after: [f32; 2]| egui::vec2(after[0] - before[0], after[1] - before[1]);
    let comment_moved = delta(graph.comments[0].pos, moved.comments[0].pos);
    assert!(
        (comment_moved - by).length() <= 1.0,
        "{comment_moved:?} vs {by:?}"
    );
    assert_eq!(
        delta(graph.node("a").unwrap().pos, moved.node("a").unwrap().pos),
        comment_moved
    );
    for id in ["n", "b", "out"] {
        assert_eq!(
            graph.node(id).unwrap().pos,
            moved.node(id).unwrap().pos,
            "{id}"
        );
    }
    // One undo step for the whole drag.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph, graph);
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    h.run_steps(2);

    // Text typed in the inspector; saved in the file and loaded back.
    h.get_by_role(Role::MultilineTextInput).click();
    h.run_steps(1);
    retype(&mut h, "Base\nsoft noise");
    h.run_steps(2);
    assert_eq!(h.state().graph.comments[0].text, "Base\nsoft noise");
    let saved = dir.path().join("framed.json");
    h.state_mut().push(Command::Save(Some(saved.clone())));
    h.run_steps(2);
    let loaded = Graph::load(&saved).unwrap();
    assert_eq!(loaded.comments, h.state().graph.comments);
    // Delete with the comment selected removes it, not the nodes.
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let title = to_screen * h.get_by_label("comment 0").rect();
    click_at(&mut h, title.center(), PointerButton::Primary);
    assert_eq!(h.state().selected_comment, Some(0));
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert!(h.state().graph.comments.is_empty());
    assert_eq!(h.state().graph.nodes.len(), 4);
}

#[test]
fn a_node_becomes_a_subgraph_whose_exposed_param_the_including_graph_sets() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "main.json", CHAIN);
    wait_for_preview(&mut h);
    let before = h.state().preview.image.clone().expect("rendered");
    h.state_mut().push(Command::MakeSubgraph(vec!["a".into()]));
    h.run_steps(2);
    let file = dir.path().join("subgraph1.json");
    assert!(file.is_file(), "{}", h.state().status);
    let graph = &h.state().graph;
    assert_eq!(graph.node("subgraph1").unwrap().kind, "graph");
    assert_eq!(graph.node("out").unwrap().inputs["color"], "subgraph1.a");
    assert_eq!(graph.node("subgraph1").unwrap().inputs["a_input"], "n");
    assert!(graph.node("a").is_none());
    wait_until(&mut h, "the preview of the same pixels", |app| {
        app.preview
            .image
            .as_ref()
            .is_some_and(|i| i.data == before.data)
    });

    // In the subgraph's file: expose the levels' gamma, then rename the node it is on.
    let mut sub = harness(&file);
    sub.state_mut().push(Command::ToggleExposed {
        node: "a".into(),
        param: "gamma".into(),
    });
    sub.run_steps(1);
    sub.state_mut().push(Command::Rename {
        from: "a".into(),
        to: "lv".into(),
    });
    sub.state_mut().push(Command::Save(None));
    sub.run_steps(2);
    let saved = Graph::load(&file).unwrap();
    assert_eq!(saved.exposed.len(), 1);
    assert_eq!(
        (
            saved.exposed[0].name.as_str(),
            saved.exposed[0].target.as_str()
        ),
        ("gamma", "lv.gamma")
    );

    // The including graph sets it: the subgraph node takes the param.
    h.state_mut().push(Command::SetParam {
        node: "subgraph1".into(),
        param: "gamma".into(),
        value: ParamValue::Number(3.0),
    });
    h.run_steps(2);
    assert_eq!(
        param(&h, "subgraph1", "gamma"),
        Some(ParamValue::Number(3.0))
    );
    assert_eq!(h.state().preview.error, None);
    wait_until(&mut h, "a darker-veined preview", |app| {
        app.preview
            .image
            .as_ref()
            .is_some_and(|i| i.data != before.data)
    });
}

#[test]
fn a_graph_dragged_from_the_library_becomes_a_node_where_it_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("veins.json"), CHAIN).unwrap();
    let mut h = open_json(dir.path(), "main.json", CHAIN);
    h.run_steps(2);
    let entry = h.get_by_label("veins.json").rect().center();
    let canvas = h.state().canvas_rect();
    // Let go over empty canvas, with room for the node below and right of the pointer
    // (zoomed out for some).
    h.hover_at(canvas.center());
    wheel(&mut h, -6);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let nodes: Vec<egui::Rect> = h
        .state()
        .node_rects()
        .iter()
        .map(|(_, r)| (to_screen * *r).expand(40.0))
        .collect();
    let drop = (1..10)
        .flat_map(|i| (1..10).map(move |j| (i, j)))
        .map(|(i, j)| canvas.lerp_inside(egui::vec2(i as f32 / 10.0, j as f32 / 10.0)))
        .find(|p| {
            let room =
                egui::Rect::from_min_size(*p - egui::vec2(20.0, 20.0), egui::vec2(320.0, 220.0));
            canvas.contains_rect(room) && nodes.iter().all(|n| !n.intersects(room))
        })
        .expect("empty canvas to drop on");
    drag(&mut h, entry, drop, Modifiers::NONE, 12);

    let added = h
        .state()
        .graph
        .node("veins1")
        .expect("a node for the dropped file");
    assert_eq!(added.kind, "graph");
    assert_eq!(
        added.params.get("file"),
        Some(&ParamValue::Text("veins.json".into()))
    );
    assert_eq!(h.state().selected.as_deref(), Some("veins1"));
    // The node sits where it was let go: its title level with the pointer, just right of
    // it (past the node's collapse button).
    let title = h
        .get_all_by_label("veins1: veins (graph)")
        .map(|n| to_screen * n.rect())
        .find(|r| canvas.contains_rect(*r))
        .expect("the node's title on the canvas");
    let offset = title.left_top() - drop;
    assert!(
        (0.0..80.0).contains(&offset.x) && (-10.0..30.0).contains(&offset.y),
        "title at {title:?}, dropped at {drop:?}"
    );
    let rects = h.state().node_rects();
    let (_, added_rect) = rects.iter().find(|(id, _)| id == "veins1").unwrap();
    let landed = rects
        .iter()
        .filter(|(id, _)| id != "veins1")
        .all(|(_, r)| !r.intersects(*added_rect));
    assert!(landed, "veins1 covers another node: {rects:?}");
    // One undo step takes it away.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(h.state().graph.node("veins1").is_none());
}

#[test]
fn the_canvas_selection_does_not_pass_to_other_nodes_when_the_selected_go() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "main.json", CHAIN);
    h.run_steps(2);
    rect_select(&mut h, "n: Perlin Noise", "a: Levels");
    let mut picked = h.state().selection(&h.ctx);
    picked.sort();
    assert_eq!(picked, ["a", "n"]);
    h.key_press(Key::Delete);
    h.run_steps(2);
    let left: Vec<&str> = h
        .state()
        .graph
        .nodes
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(left, ["b", "out"]);
    assert!(
        h.state().selection(&h.ctx).is_empty(),
        "the deleted nodes' selection went to {:?}",
        h.state().selection(&h.ctx)
    );
    // A second Delete has nothing to act on.
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(h.state().graph.nodes.len(), 2);

    // Make subgraph: the new node is what the inspector shows, and nothing else is picked.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    rect_select(&mut h, "n: Perlin Noise", "a: Levels");
    let chosen = h.state().selection(&h.ctx);
    h.state_mut().push(Command::MakeSubgraph(chosen));
    h.run_steps(2);
    assert!(
        h.state().graph.node("subgraph1").is_some(),
        "{}",
        h.state().status
    );
    assert_eq!(h.state().selection(&h.ctx), ["subgraph1"]);
}

/// Where the wire n → a.input of CHAIN is drawn: halfway between its pins, on the curve
/// (it is symmetric).
fn chain_wire_middle(h: &Harness<'_, EditorApp>) -> egui::Pos2 {
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    // n's output is the leftmost.
    let out = h
        .get_all_by_label("out")
        .map(|n| n.rect())
        .min_by(|p, q| p.left().total_cmp(&q.left()))
        .unwrap();
    let input = h
        .get_all_by_label("input")
        .map(|n| n.rect())
        .min_by(|p, q| p.top().total_cmp(&q.top()))
        .unwrap();
    let from = pin_beside(h, to_screen * out, false);
    let to = pin_beside(h, to_screen * input, true);
    from + (to - from) / 2.0
}

#[test]
fn a_right_click_on_a_wire_opens_its_menu_to_disconnect_or_insert_a_node() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    wait_until(&mut h, "the thumbnails", |app| {
        ["n", "a", "b"].iter().all(|id| app.has_thumbnail(id))
    });
    h.run_steps(2);
    let middle = chain_wire_middle(&h);
    click_at(&mut h, middle, PointerButton::Secondary);
    // A menu, nothing disconnected yet.
    let inputs_of =
        |h: &Harness<'_, EditorApp>, id: &str| h.state().graph.node(id).unwrap().inputs.clone();
    assert_eq!(
        inputs_of(&h, "a").get("input").map(String::as_str),
        Some("n")
    );
    h.get_by_label("n into a.input");
    h.get_by_label("Insert node…").click();
    h.run_steps(3);
    assert!(h.state().palette_open());
    // The palette offers nodes with an input and an output: the one picked goes in.
    h.event(egui::Event::Text("blur".into()));
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    let blur = h
        .state()
        .selected
        .clone()
        .expect("the new node is selected");
    assert_eq!(h.state().graph.node(&blur).unwrap().kind, "blur");
    assert_eq!(
        inputs_of(&h, &blur).get("input").map(String::as_str),
        Some("n")
    );
    assert_eq!(
        inputs_of(&h, "a").get("input").map(String::as_str),
        Some(blur.as_str())
    );
    // One undo step takes it all back.
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert!(h.state().graph.node(&blur).is_none());
    assert_eq!(
        inputs_of(&h, "a").get("input").map(String::as_str),
        Some("n")
    );

    // Disconnect, from the same menu (the view may have followed the node inserted).
    h.run_steps(2);
    let middle = chain_wire_middle(&h);
    click_at(&mut h, middle, PointerButton::Secondary);
    h.get_by_label("Disconnect").click();
    h.run_steps(2);
    assert!(inputs_of(&h, "a").is_empty());
}

#[test]
fn select_all_and_frame_selected_are_in_the_menus_with_their_shortcuts() {
    let mut h = harness_sized(&graph_path("brick_wall.json"), egui::vec2(1400.0, 860.0));
    h.run_steps(3);
    // Ctrl+A picks every node: Delete then removes them all, one undo step.
    h.hover_at(h.state().canvas_rect().center());
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    let all: Vec<String> = h.state().graph.nodes.iter().map(|n| n.id.clone()).collect();
    let mut picked = h.state().selection(&h.ctx);
    picked.sort();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(picked, sorted);
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert!(h.state().graph.nodes.is_empty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().graph.nodes.len(), all.len());

    // Shift+F frames the selected node: it fills the view, larger than when all show.
    let whole = h.state().canvas_scale();
    let first = all[0].clone();
    h.state_mut().push(Command::Select(Some(first.clone())));
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::SHIFT, Key::F);
    h.run_steps(3);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let (_, rect) = h
        .state()
        .node_rects()
        .into_iter()
        .find(|(id, _)| *id == first)
        .unwrap();
    let shown = to_screen * rect;
    let canvas = h.state().canvas_rect();
    assert!(
        h.state().canvas_scale() > whole * 2.0,
        "{} vs {whole}",
        h.state().canvas_scale()
    );
    assert!(canvas.contains_rect(shown), "{shown:?} in {canvas:?}");
    assert!((shown.center() - canvas.center()).length() < 2.0, "centred");
    // The menus name both, with their shortcuts; Edit → Select all picks every node.
    h.state_mut().push(Command::Select(None));
    h.get_by_label("Edit").click();
    h.run_steps(2);
    assert!(menu_item(&h, "Select all").rect().width() > 0.0);
    menu_item(&h, "Select all").click();
    h.run_steps(3);
    assert_eq!(h.state().selection(&h.ctx).len(), all.len());
    h.get_by_label("View").click();
    h.run_steps(2);
    menu_item(&h, "Frame selected").click();
    h.run_steps(3);
}

#[test]
fn a_node_whose_first_param_is_a_choice_shows_it_on_its_face() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(
        dir.path(),
        "face.json",
        r#"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "n", "type": "perlin", "pos": [0, 0] },
             { "id": "mix", "type": "blend", "params": { "mode": "multiply" }, "inputs": { "a": "n", "b": "n" }, "pos": [300, 0] },
             { "id": "op", "type": "math", "inputs": { "a": "mix" }, "pos": [600, 0] },
             { "id": "out", "type": "output", "inputs": { "color": "op" }, "pos": [900, 0] } ] }"#,
    );
    h.run_steps(3);
    let title = on_canvas(&h, "mix: Blend");
    let mode = on_canvas(&h, "multiply");
    assert!((mode.center().y - title.center().y).abs() < 2.0 && mode.left() > title.right());
    // The default shows when the param is absent.
    let default = match texgraph_core::registry::lookup("math").unwrap().params[0].kind {
        texgraph_core::registry::ParamKind::Choice { default, .. } => default,
        _ => unreachable!("math's first param is its operation"),
    };
    on_canvas(&h, default);
    // A change shows at once.
    h.state_mut().push(Command::SetParam {
        node: "mix".into(),
        param: "mode".into(),
        value: ParamValue::Text("screen".into()),
    });
    h.run_steps(2);
    on_canvas(&h, "screen");
}

#[test]
fn a_duplicate_is_drawn_over_its_original_and_a_new_node_covers_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "chain.json", CHAIN);
    wait_until(&mut h, "the thumbnails", |app| {
        ["n", "a", "b"].iter().all(|id| app.has_thumbnail(id))
    });
    // Selected on the canvas (a rectangle), as a person does before Ctrl+D.
    rect_select(&mut h, "a: Levels", "a: Levels");
    assert_eq!(h.state().selection(&h.ctx), ["a"]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run_steps(4);
    let copy = h.state().selected.clone().expect("the copy is selected");
    assert_ne!(copy, "a");
    let rects: std::collections::HashMap<String, egui::Rect> =
        h.state().node_rects().into_iter().collect();
    let (original, duplicate) = (rects["a"], rects[&copy]);
    assert!(original.intersects(duplicate), "{original:?} {duplicate:?}");
    // Where the copy's title lies over the original's body, a click takes the copy.
    h.state_mut().push(Command::Select(Some("b".into())));
    h.run_steps(2);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let spot = on_canvas(&h, &format!("{copy}: Levels")).center();
    assert!((to_screen * original).contains(spot));
    click_at(&mut h, spot, PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some(copy.as_str()));

    // A node added over others slides clear of them all.
    let over_a = original.center();
    h.state_mut().push(Command::AddNode {
        kind: "perlin",
        pos: Some(over_a),
    });
    h.run_steps(4);
    let added = h.state().selected.clone().unwrap();
    let rects: std::collections::HashMap<String, egui::Rect> =
        h.state().node_rects().into_iter().collect();
    for (id, rect) in &rects {
        if *id != added {
            assert!(!rect.intersects(rects[&added]), "{added} covers {id}");
        }
    }
}

#[test]
fn text_that_is_not_a_number_or_a_color_is_refused_with_a_message() {
    let mut h = harness(&graph_path("marble.json"));
    h.state_mut().push(Command::Select(Some("veins".into())));
    h.run_steps(3);
    let before = param(&h, "veins", "frequency");
    let field = slider_field(&h, "frequency").center();
    click_at(&mut h, field, PointerButton::Primary);
    retype(&mut h, "abc");
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(param(&h, "veins", "frequency"), before);
    assert_eq!(h.state().status, "'abc' is not a number: frequency stays 3");
    h.get_by_label_contains("'abc' is not a number");

    // A number past the range: the nearest end, saying so.
    let field = slider_field(&h, "frequency").center();
    click_at(&mut h, field, PointerButton::Primary);
    retype(&mut h, "1e9");
    h.key_press(Key::Enter);
    h.run_steps(2);
    let wave = texgraph_core::registry::lookup("wave").unwrap();
    let Some(texgraph_core::registry::ParamKind::Float { min, max, .. }) = wave
        .params
        .iter()
        .find(|p| p.name == "frequency")
        .map(|p| p.kind)
    else {
        panic!("wave's frequency is a float");
    };
    assert_eq!(
        param(&h, "veins", "frequency"),
        Some(ParamValue::Number(f64::from(max)))
    );
    assert_eq!(
        h.state().status,
        format!("frequency is {min} to {max}: 1000000000 was set to {max}")
    );

    // A stop's hex field: garbage keeps the color and says what a color looks like.
    h.state_mut().push(Command::Select(Some("stone".into())));
    h.run_steps(4);
    let stops = |h: &Harness<'_, EditorApp>| param(h, "stone", "stops");
    let original = stops(&h);
    let Some(ParamValue::Stops(list)) = original.clone() else {
        panic!("{original:?}");
    };
    let hex = list[1].color.clone();
    let shown = hex.clone();
    h.get_by(move |n| n.role() == Role::TextInput && n.value().as_deref() == Some(shown.as_str()))
        .click();
    h.run_steps(1);
    retype(&mut h, "#12zz\u{1b}[31m");
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(stops(&h), original);
    assert_eq!(
        h.state().status,
        format!(
            "'#12zz\\u{{1b}}[31m' is not a color (#rrggbb or #rrggbbaa): the stop's color stays {hex}"
        )
    );
}

#[test]
fn the_export_size_is_kept_per_graph_and_per_kind_of_export() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["marble.json", "wood.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("marble.json"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    let size = |h: &Harness<'_, EditorApp>| h.state().export.preset;
    // A still at 2048; then an animation, which starts at the default and is set to 256.
    h.state_mut().export.preset = Some(2048);
    h.run_steps(2);
    h.state_mut().export.animate = true;
    h.run_steps(2);
    assert_eq!(
        size(&h),
        Some(1024),
        "an animation starts from the defaults"
    );
    h.state_mut().export.preset = Some(256);
    h.run_steps(2);
    // Back to a still: 2048, not the animation's 256.
    h.state_mut().export.animate = false;
    h.run_steps(2);
    assert_eq!(size(&h), Some(2048));
    // Another graph starts from the defaults; back on marble, its sizes come back.
    for (file, expected) in [("wood.json", 1024), ("marble.json", 2048)] {
        h.key_press(Key::Escape);
        h.state_mut().push(Command::Open(dir.path().join(file)));
        h.run_steps(2);
        h.key_press_modifiers(Modifiers::COMMAND, Key::E);
        h.run_steps(2);
        assert_eq!(size(&h), Some(expected), "{file}");
    }
}

#[test]
fn picking_a_usage_names_an_output_the_editor_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(
        dir.path(),
        "maps.json",
        r#"{ "format": "texgraph", "version": 1, "nodes": [
             { "id": "n", "type": "perlin", "pos": [0, 0] },
             { "id": "out", "type": "output", "inputs": { "color": "n" }, "pos": [300, 0] },
             { "id": "mine", "type": "output", "params": { "name": "stone_mask" }, "inputs": { "color": "n" }, "pos": [300, 300] } ] }"#,
    );
    for (node, usage) in [("out", "roughness"), ("mine", "mask")] {
        h.state_mut().push(Command::SetParam {
            node: node.into(),
            param: "usage".into(),
            value: ParamValue::Text(usage.into()),
        });
        h.run_steps(2);
    }
    let name =
        |h: &Harness<'_, EditorApp>, id: &str| h.state().graph.node(id).unwrap().output_name();
    assert_eq!(name(&h, "out"), "roughness");
    assert_eq!(name(&h, "mine"), "stone_mask", "a typed name stays");
    // One undo step takes the usage and the name back together.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(name(&h, "out"), "color");
}

#[test]
fn a_node_added_without_a_place_lands_in_view_clear_of_the_others() {
    let mut h = harness(&graph_path("brick_wall.json"));
    h.run_steps(4);
    // Zoomed in on the left of the graph: the space beside the others is off screen.
    let pointer = h.state().canvas_rect().left_center() + egui::vec2(40.0, 0.0);
    h.hover_at(pointer);
    h.run_steps(1);
    wheel(&mut h, 6);
    assert!(!all_in_view(&h), "zoomed in far enough to hide some nodes");
    h.state_mut().push(Command::AddNode {
        kind: "levels",
        pos: None,
    });
    h.state_mut().push(Command::AddSubgraph {
        file: "library/marble_veins.json".to_owned(),
        pos: None,
    });
    h.run_steps(4);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let canvas = h.state().canvas_rect();
    let rects = h.state().node_rects();
    for added in ["levels1", "marble_veins1"] {
        let (_, rect) = rects
            .iter()
            .find(|(id, _)| id == added)
            .unwrap_or_else(|| panic!("{added} in {rects:?}"));
        assert!(
            canvas.contains_rect(to_screen * *rect),
            "{added} at {:?} is outside the canvas {canvas:?}",
            to_screen * *rect
        );
        for (other, other_rect) in &rects {
            assert!(
                other == added || !other_rect.intersects(*rect),
                "{added} covers {other}"
            );
        }
    }
}

#[test]
fn the_side_panel_keeps_its_width_whatever_it_shows() {
    let mut h = harness(&graph_path("brick_wall.json"));
    h.run_steps(4);
    let width = |h: &Harness<'_, EditorApp>| {
        egui::containers::panel::PanelState::load(&h.ctx, egui::Id::new("side"))
            .expect("the side panel was drawn")
            .size()
            .x
    };
    let before = width(&h);
    let brick_wall: Vec<String> = h.state().graph.nodes.iter().map(|n| n.id.clone()).collect();
    // Every kind of node's inspector.
    for (i, desc) in NODES.iter().enumerate() {
        h.state_mut().push(Command::AddNode {
            kind: desc.id,
            pos: Some(egui::pos2(4000.0 + 300.0 * i as f32, 0.0)),
        });
    }
    h.run_steps(2);
    let ids: Vec<String> = h.state().graph.nodes.iter().map(|n| n.id.clone()).collect();
    for id in &ids {
        h.state_mut().push(Command::Select(Some(id.clone())));
        h.run_steps(3);
        assert!(
            (width(&h) - before).abs() < 0.5,
            "showing {id} widened the panel from {before} to {}",
            width(&h)
        );
    }
    // The material alone again, so its maps render.
    let added = ids
        .into_iter()
        .filter(|id| !brick_wall.contains(id))
        .collect();
    h.state_mut().push(Command::Remove(added));
    h.state_mut().ball.map_size = 64;
    h.state_mut().ball.settings.size = 96;
    h.get_by_label("3D").click();
    h.run_steps(2);
    assert!(h.state().show_3d);
    // Its row of maps (five of them here) is drawn once they are rendered.
    wait_until(&mut h, "the 3D tab's maps", |app| {
        app.ball.is_current() && app.ball.maps_generation() == Some(app.renders_asked())
    });
    h.run_steps(3);
    assert!(
        (width(&h) - before).abs() < 0.5,
        "the 3D tab widened the panel from {before} to {}",
        width(&h)
    );
}

#[test]
fn a_new_node_of_any_kind_covers_none_once_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let lone = r#"{ "format": "texgraph", "version": 1, "nodes": [
        { "id": "out", "type": "output", "pos": [600, 0] } ] }"#;
    let mut h = open_json(dir.path(), "lone.json", lone);
    h.run_steps(2);
    let out = h
        .state()
        .node_rects()
        .into_iter()
        .find(|(id, _)| id == "out")
        .unwrap()
        .1;
    // Wanted left of the output, as far as a 210-point node needs to clear it: a node
    // drawn wider than its place was estimated would reach over it.
    let wanted = out.left_top() - egui::vec2(226.0, 0.0);
    for desc in NODES {
        h.state_mut().push(Command::AddNode {
            kind: desc.id,
            pos: Some(wanted),
        });
        h.run_steps(3);
        let added = h.state().selected.clone().unwrap();
        let rects: std::collections::HashMap<String, egui::Rect> =
            h.state().node_rects().into_iter().collect();
        for (id, rect) in &rects {
            assert!(
                *id == added || !rect.intersects(rects[&added]),
                "{added} ({}) covers {id}: {:?} over {rect:?}",
                desc.id,
                rects[&added]
            );
        }
        h.state_mut().push(Command::Remove(vec![added]));
        h.run_steps(1);
    }
}

#[test]
fn a_formula_slider_is_exposed_with_its_name_and_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(
        dir.path(),
        "f.json",
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "f", "type": "formula", "params": { "expression": "fract(u * p1 + p2)", "p1": 6,
              "p1_name": "stripe count", "p1_min": 1, "p1_max": 20, "p2": 1.5 } },
            { "id": "out", "type": "output", "inputs": { "color": "f" } } ] }"#,
    );
    for param in ["p1", "p2"] {
        h.state_mut().push(Command::ToggleExposed {
            node: "f".into(),
            param: param.into(),
        });
        h.run_steps(1);
    }
    let exposed = &h.state().graph.exposed;
    let found: Vec<_> = exposed
        .iter()
        .map(|e| (e.name.as_str(), e.target.as_str(), e.min, e.max))
        .collect();
    // p1 keeps the slider's name and range; p2 its default range, widened to hold its
    // value, so the file stays valid.
    assert_eq!(
        found,
        [
            ("stripe_count", "f.p1", Some(1.0), Some(20.0)),
            ("p2", "f.p2", Some(0.0), Some(1.5)),
        ]
    );
    assert!(texgraph_core::validate(&h.state().graph).is_empty());
}
