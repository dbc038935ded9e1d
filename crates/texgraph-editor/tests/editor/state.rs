//! The editor keeps its state straight: what is selected after paste, duplicate and add;
//! renders after a subgraph breaks and is fixed; the export dialog across graphs; the
//! saved state across undo; the timeline's time; framing and arranging.

use std::path::Path;

use eframe::egui::{self, Event, Key, Modifiers, PointerButton, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::ParamValue;
use texgraph_editor::app::EditorApp;
use texgraph_editor::command::{Command, DroppedWire};

use crate::common::*;

/// Two chains into two outputs, and a node left over.
const TWO: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "n", "type": "perlin", "pos": [0, 0] },
    { "id": "a", "type": "levels", "inputs": { "input": "n" }, "pos": [260, 0] },
    { "id": "b", "type": "levels", "pos": [260, 320] },
    { "id": "out", "type": "output", "inputs": { "color": "a" }, "pos": [520, 0] } ] }"#;

fn ids(h: &Harness<'_, EditorApp>) -> Vec<String> {
    let mut ids: Vec<String> = h.state().graph.nodes.iter().map(|n| n.id.clone()).collect();
    ids.sort();
    ids
}

fn selection(h: &Harness<'_, EditorApp>) -> Vec<String> {
    let mut ids = h.state().selection(&h.ctx);
    ids.sort();
    ids
}

#[test]
fn pasted_nodes_are_the_selection_and_delete_takes_them_not_the_originals() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    // Selected on the canvas (Shift+drag), copied and pasted elsewhere.
    rect_select(&mut h, "n: Perlin Noise", "a: Levels");
    assert_eq!(selection(&h), ["a", "n"]);
    let copied = copy(&mut h);
    h.hover_at(egui::pos2(300.0, 750.0));
    h.run_steps(1);
    h.event(Event::Paste(copied));
    h.run_steps(3);
    assert_eq!(selection(&h), ["levels1", "perlin1"]);
    assert_eq!(h.state().selected.as_deref(), Some("levels1"));
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(ids(&h), ["a", "b", "n", "out"], "the originals stay");

    // Picked with Shift+click titles, then duplicated: the copies are the selection.
    shift_click_titles(&mut h, &["n: Perlin Noise", "b: Levels"]);
    assert_eq!(selection(&h), ["b", "n"]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run_steps(3);
    assert_eq!(selection(&h), ["levels1", "perlin1"]);
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(ids(&h), ["a", "b", "n", "out"]);

    // Picked, then a node added from the palette: it alone is the selection.
    shift_click_titles(&mut h, &["n: Perlin Noise", "b: Levels"]);
    h.hover_at(egui::pos2(400.0, 700.0));
    h.run_steps(1);
    h.key_press(Key::Space);
    h.run_steps(2);
    h.event(Event::Text("checker".into()));
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(selection(&h), ["checker1"]);
    assert_eq!(h.state().selected.as_deref(), Some("checker1"));
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(ids(&h), ["a", "b", "n", "out"]);
}

#[test]
fn a_click_on_empty_canvas_selects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    rect_select(&mut h, "n: Perlin Noise", "a: Levels");
    let title = on_canvas(&h, "b: Levels");
    // Well below every node.
    let empty = title.center() + egui::vec2(0.0, 250.0);
    click_at(&mut h, title.center(), PointerButton::Primary);
    assert_eq!(
        selection(&h),
        ["b"],
        "a click on one title selects it alone"
    );
    click_at(&mut h, empty, PointerButton::Primary);
    assert!(selection(&h).is_empty(), "{:?}", selection(&h));
    assert_eq!(h.state().selected, None);
    h.key_press(Key::Delete);
    h.run_steps(2);
    assert_eq!(ids(&h), ["a", "b", "n", "out"]);
}

/// A subgraph file with one output, called `port`.
fn write_subgraph(dir: &Path, port: &str) {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 2, "nodes": [
            {{ "id": "grain", "type": "perlin", "params": {{ "frequency": 9 }}, "pos": [0, 0] }},
            {{ "id": "o", "type": "output", "params": {{ "name": "{port}" }}, "inputs": {{ "color": "grain" }}, "pos": [260, 0] }} ] }}"#
    );
    std::fs::write(dir.join("sub.json"), json).unwrap();
}

/// A floor whose color does not read the subgraph and whose height reads its
/// `levels2_out` port.
const FLOOR: &str = r#"{ "format": "texgraph", "version": 2, "nodes": [
    { "id": "base", "type": "perlin", "pos": [0, 0] },
    { "id": "tint", "type": "levels", "inputs": { "input": "base" }, "pos": [260, 0] },
    { "id": "color", "type": "output", "inputs": { "color": "tint" }, "pos": [520, 0] },
    { "id": "sub", "type": "graph", "params": { "file": "sub.json" }, "pos": [0, 320] },
    { "id": "lv", "type": "levels", "inputs": { "input": "sub.levels2_out" }, "pos": [260, 320] },
    { "id": "height", "type": "output", "params": { "name": "height" }, "inputs": { "color": "lv" }, "pos": [520, 320] } ] }"#;

#[test]
fn a_broken_subgraph_costs_only_what_reads_it_and_renders_come_back_when_it_is_fixed() {
    let dir = tempfile::tempdir().unwrap();
    // The subgraph's output was renamed after the floor was wired to it.
    write_subgraph(dir.path(), "ao");
    let mut h = open_json(dir.path(), "floor.json", FLOOR);
    wait_until(&mut h, "the unaffected thumbnails", |app| {
        ["base", "tint", "color", "sub"]
            .iter()
            .all(|id| app.has_thumbnail(id))
    });
    wait_for_preview(&mut h);
    let error = h
        .state()
        .errors()
        .get("lv")
        .expect("the reader shows the error");
    assert!(error.contains("levels2_out"), "{error}");
    assert!(!h.state().has_thumbnail("lv") && !h.state().has_thumbnail("height"));

    // Fixed in the subgraph's file: what read the missing port renders again, untouched
    // in this graph.
    std::thread::sleep(std::time::Duration::from_millis(20));
    write_subgraph(dir.path(), "levels2_out");
    wait_until(&mut h, "the thumbnails downstream of the fix", |app| {
        app.has_thumbnail("lv") && app.has_thumbnail("height") && app.errors().is_empty()
    });
}

#[test]
fn the_export_dialog_takes_each_graphs_own_mode_and_its_format_follows_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    for file in ["fire_loop.json", "marble.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("fire_loop.json"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    assert!(h.state().export.animate, "a moving graph exports frames");
    assert!(
        h.state().export.path.ends_with(".gif"),
        "{}",
        h.state().export.path
    );
    h.key_press(Key::Escape);
    h.run_steps(1);

    h.state_mut()
        .push(Command::Open(dir.path().join("marble.json")));
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    let export = &h.state().export;
    assert!(!export.animate, "marble does not move: a still");
    assert!(export.path.ends_with("marble.png"), "{}", export.path);
    assert!(matches!(
        export.request(&h.state().graph),
        Ok(texgraph_core::ExportRequest::Still(_))
    ));

    // The name typed decides the format, and the dialog shows what it writes.
    h.ctx
        .memory_mut(|m| m.request_focus(egui::Id::new("export_path")));
    h.run_steps(1);
    let tiff = dir.path().join("marble.tif").display().to_string();
    retype(&mut h, &tiff);
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert_eq!(
        h.state().export.kind,
        texgraph_editor::panels::export_dialog::ImageKind::TIFF8
    );
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(1);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    let written = std::fs::read(&tiff).unwrap_or_default();
    assert!(
        written.starts_with(b"II*\0") || written.starts_with(b"MM\0*"),
        "{}",
        h.state().export.message
    );
}

#[test]
fn undo_back_to_the_saved_state_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    let set = |h: &mut Harness<'_, EditorApp>, f: f64| {
        h.state_mut().push(Command::SetParam {
            node: "n".into(),
            param: "frequency".into(),
            value: ParamValue::Number(f),
        });
        h.run_steps(2);
    };
    set(&mut h, 5.0);
    assert!(h.state().modified);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(!h.state().modified, "undone back to the file");
    // Opening another graph goes ahead without asking.
    h.state_mut().request(texgraph_editor::files::Then::New);
    h.run_steps(2);
    assert!(
        h.state().files.prompt.is_none(),
        "asked to save an unchanged graph"
    );
    assert_eq!(h.state().path, None);

    // Saved after an edit: undo past the save is unsaved, redo back to it is saved.
    let path = dir.path().join("two.json");
    h.state_mut().push(Command::Open(path));
    h.run_steps(2);
    set(&mut h, 6.0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert!(!h.state().modified);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(h.state().modified);
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    h.run_steps(2);
    assert!(!h.state().modified);
    // Undo never reaches into the graph open before.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(h.state().graph.node("n").is_some());
}

#[test]
fn the_menu_bar_shows_the_timelines_time_and_moving_thumbnails_follow_it() {
    let mut h = harness(&graph_path("fire.json"));
    wait_for_preview(&mut h);
    h.get_by_role_and_label(Role::Button, "Play").click();
    h.run_steps(1);
    wait_until(&mut h, "a few frames", |app| {
        app.preview.playing.is_some_and(|t| t > 0.2)
    });
    h.get_by_role_and_label(Role::Button, "Pause").click();
    h.run_steps(1);
    let time = h.state().preview.playing.unwrap();
    h.get_by_label(&format!("time {time:.2} (timeline)"));
    // What moves with time shows the frame; what does not is left as it was.
    wait_until(&mut h, "the moving thumbnails", |app| {
        ["rise", "rising", "out"]
            .iter()
            .all(|id| app.thumbnail_time(id) == Some(time))
    });
    assert_eq!(h.state().thumbnail_time("falloff"), Some(0.0));
}

#[test]
fn frame_all_shows_every_node_even_in_a_small_window() {
    let mut h = harness_sized(&graph_path("bricks.json"), egui::vec2(900.0, 600.0));
    h.run_steps(3);
    h.key_press(Key::F);
    h.run_steps(3);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let canvas = h.state().canvas_rect();
    for (id, rect) in h.state().node_rects() {
        let shown = to_screen * rect;
        assert!(
            canvas.contains_rect(shown),
            "{id} at {shown:?} outside {canvas:?}"
        );
    }
}

#[test]
fn arrange_leaves_no_node_under_another_and_comments_keep_their_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let mut graph = texgraph_core::Graph::load(&graph_path("bricks.json")).unwrap();
    // A comment around the first two nodes.
    let held: Vec<String> = graph.nodes.iter().take(2).map(|n| n.id.clone()).collect();
    let corner = graph.nodes.iter().take(2).fold([f32::MAX; 2], |c, n| {
        [c[0].min(n.pos[0]), c[1].min(n.pos[1])]
    });
    let mut comment =
        texgraph_core::Comment::new([corner[0] - 10.0, corner[1] - 40.0], [10.0, 10.0]);
    let far = graph.nodes.iter().take(2).fold([f32::MIN; 2], |c, n| {
        [c[0].max(n.pos[0]), c[1].max(n.pos[1])]
    });
    comment.size = [far[0] - corner[0] + 30.0, far[1] - corner[1] + 60.0];
    graph.comments.push(comment);
    let path = dir.path().join("bricks.json");
    graph.save(&path).unwrap();
    let mut h = harness(&path);
    h.run_steps(3);
    h.state_mut().push(Command::Arrange);
    h.run_steps(4);
    let rects = h.state().node_rects();
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            assert!(
                !ra.shrink(1.0).intersects(rb.shrink(1.0)),
                "{a} {ra:?} overlaps {b} {rb:?}"
            );
        }
    }
    let framed = texgraph_editor::comment_layout::rect(&h.state().graph.comments[0]);
    for (id, rect) in rects.iter().filter(|(id, _)| held.contains(id)) {
        assert!(
            framed.contains_rect(*rect),
            "{id} {rect:?} left its comment {framed:?}"
        );
    }
}

#[test]
fn the_export_window_keeps_its_size_and_shows_cancel_while_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&graph_path("fbm.json"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    let window = |h: &Harness<'_, EditorApp>| {
        h.ctx
            .memory(|m| m.area_rect(egui::Id::new("export_dialog")))
            .expect("the export window")
    };
    let before = window(&h);
    {
        let export = &mut h.state_mut().export;
        export.preset = None;
        (export.width, export.height) = (8192, 8192);
        export.path = dir.path().join("big.png").display().to_string();
    }
    h.run_steps(1);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(3);
    assert!(
        h.state().export.job.is_some(),
        "{}",
        h.state().export.message
    );
    let during = window(&h);
    assert!(
        during.width() <= before.width() + 1.0,
        "{before:?} grew to {during:?}"
    );
    let cancel = h.get_by_role_and_label(Role::Button, "Cancel");
    assert!(
        during.contains_rect(cancel.rect()),
        "Cancel at {:?}",
        cancel.rect()
    );
    cancel.click();
    wait_until(&mut h, "the cancelled export", |app| {
        app.export.job.is_none()
    });
    assert!(
        h.state().export.message.contains("cancelled"),
        "{}",
        h.state().export.message
    );
    assert!(!dir.path().join("big.png").exists());
}

#[test]
fn space_and_tab_open_the_palette_at_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    for (key, pointer) in [
        (Key::Tab, egui::pos2(700.0, 400.0)),
        (Key::Space, egui::pos2(300.0, 650.0)),
        (Key::Space, egui::pos2(1000.0, 300.0)),
    ] {
        h.hover_at(pointer);
        h.run_steps(1);
        h.key_press(key);
        h.run_steps(3);
        assert!(h.state().palette_open(), "{key:?} opens the palette");
        let window = h
            .ctx
            .memory(|m| m.area_rect(egui::Id::new(texgraph_editor::app::PALETTE_ID)))
            .expect("the palette is open");
        // A corner at the pointer (it opens up or left where it would not fit).
        let corners = [
            window.left_top(),
            window.right_top(),
            window.left_bottom(),
            window.right_bottom(),
        ];
        assert!(
            corners.iter().any(|c| (*c - pointer).length() < 30.0),
            "{key:?}: palette at {window:?}, pointer at {pointer:?}"
        );
        h.key_press(Key::Escape);
        h.run_steps(2);
        assert!(!h.state().palette_open(), "Escape closes the palette");
    }
}

#[test]
fn a_search_that_finds_nothing_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    h.hover_at(egui::pos2(700.0, 400.0));
    h.run_steps(1);
    h.key_press(Key::Tab);
    h.run_steps(3);
    h.event(Event::Text("zzqx".into()));
    h.run_steps(2);
    h.get_by_label("no node matches 'zzqx'");
    retype(&mut h, "levels");
    h.run_steps(2);
    assert!(h.query_by_label_contains("no node matches").is_none());
}

#[test]
fn a_label_is_the_title_and_a_bad_rename_keeps_the_dialog_open_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    let title = on_canvas(&h, "n: Perlin Noise");
    click_at(&mut h, title.center(), PointerButton::Primary);
    // The inspector's label field.
    h.ctx
        .memory_mut(|m| m.request_focus(egui::Id::new(("label", "n"))));
    h.run_steps(1);
    retype(&mut h, "stone grain");
    h.key_press(Key::Enter);
    h.run_steps(2);
    let node = h.state().graph.node("n").unwrap();
    assert_eq!(node.label.as_deref(), Some("stone grain"));
    on_canvas(&h, "stone grain  n");
    assert_eq!(
        h.state().graph.node("a").unwrap().inputs["input"],
        "n",
        "connections keep the id"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(dir.path().join("two.json")).unwrap();
    assert!(saved.contains(r#""label": "stone grain""#), "{saved}");

    // Rename from the node's menu: a taken or invalid id is refused in the dialog.
    let title = on_canvas(&h, "stone grain  n");
    click_at(&mut h, title.center(), PointerButton::Secondary);
    h.get_by_label("Rename…").click();
    h.run_steps(2);
    for (typed, reason) in [("b", "already taken"), ("a b", "not a valid id")] {
        retype(&mut h, typed);
        h.key_press(Key::Enter);
        h.run_steps(2);
        h.get_by_label_contains(reason);
        assert!(
            h.query_by_label("Rename n").is_some(),
            "the dialog stays open"
        );
        assert!(h.state().graph.node("n").is_some());
    }
    retype(&mut h, "grain");
    h.key_press(Key::Enter);
    h.run_steps(2);
    assert!(h.query_by_label("Rename n").is_none());
    assert!(h.state().graph.node("grain").is_some());
    assert_eq!(h.state().graph.node("a").unwrap().inputs["input"], "grain");
}

/// The preview's pixels once it shows the latest render asked for.
fn next_preview(h: &mut Harness<'_, EditorApp>) -> Vec<f32> {
    h.run_steps(1);
    wait_until(h, "the preview of the latest edit", |app| {
        app.preview_is_current()
    });
    h.state().preview.image.as_ref().unwrap().data.clone()
}

#[test]
fn a_subgraph_opens_on_a_trail_back_to_its_graph_with_every_unsaved_edit_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("library")).unwrap();
    for file in ["marble_slab.json", "library/marble_veins.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let slab = dir.path().join("marble_slab.json");
    let veins = dir.path().join("library/marble_veins.json");
    let mut h = harness(&slab);
    wait_for_preview(&mut h);
    // What the slab's `fine` node makes, shown in the preview.
    h.state_mut().push(Command::Pin(Some("fine".into())));
    let inside = next_preview(&mut h);
    h.state_mut().push(Command::Pin(None));
    h.run_steps(1);
    // An unsaved edit in the slab.
    h.state_mut().push(Command::SetParam {
        node: "veins".into(),
        param: "opacity".into(),
        value: ParamValue::Number(0.5),
    });
    h.run_steps(2);
    assert!(h.state().modified);

    // Open `fine`'s file from its menu: no question, the slab parked above it.
    let title = on_canvas(&h, "fine: Marble veins (graph)");
    click_at(&mut h, title.center(), PointerButton::Secondary);
    h.get_by_label("Open graph file").click();
    h.run_steps(3);
    assert!(h.state().files.prompt.is_none(), "no question");
    assert!(
        h.state()
            .path
            .as_deref()
            .is_some_and(|p| p.ends_with("marble_veins.json")),
        "{:?}",
        h.state().path
    );
    h.get_by_role_and_label(Role::Button, "*marble_slab.json");
    // Previewed as `fine` feeds it: the pixels the slab's node makes.
    let fed = next_preview(&mut h);
    assert_eq!(fed, inside, "the subgraph previews as its node feeds it");
    // Its own defaults, on request.
    h.get_by_label_contains("inputs as 'fine' feeds them")
        .click();
    let own = next_preview(&mut h);
    assert_ne!(own, inside);

    // An edit here, then Alt+Left: the slab is back with its own edit, `fine` selected.
    h.state_mut().push(Command::SetParam {
        node: "turb".into(),
        param: "octaves".into(),
        value: ParamValue::Number(3.0),
    });
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowLeft);
    h.run_steps(3);
    assert_eq!(h.state().path.as_deref(), Some(slab.as_path()));
    assert!(h.state().modified);
    assert_eq!(h.state().selected.as_deref(), Some("fine"));
    assert_eq!(
        h.state().graph.node("veins").unwrap().params["opacity"],
        ParamValue::Number(0.5)
    );
    // Undo still undoes the slab's own edit.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert!(!h.state().modified);
    h.key_press_modifiers(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    h.run_steps(2);

    // The veins' edit waits for it: opened again, it is there, still unsaved.
    h.state_mut().push(Command::OpenSubgraph("broad".into()));
    h.run_steps(2);
    assert!(h.state().modified);
    assert_eq!(
        h.state().graph.node("turb").unwrap().params["octaves"],
        ParamValue::Number(3.0)
    );
    h.get_by_role_and_label(Role::Button, "*marble_slab.json")
        .click();
    h.run_steps(2);

    // Starting a new graph asks about both; Save writes both files.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label_contains("marble_slab.json, marble_veins.json");
    h.get_by_role_and_label(Role::Button, "Save").click();
    h.run_steps(3);
    assert_eq!(h.state().path, None, "the new graph");
    let saved = |path: &Path| texgraph_core::Graph::load(path).unwrap();
    assert_eq!(
        saved(&slab).node("veins").unwrap().params["opacity"],
        ParamValue::Number(0.5)
    );
    assert_eq!(
        saved(&veins).node("turb").unwrap().params["octaves"],
        ParamValue::Number(3.0)
    );
}

#[test]
fn a_node_keeps_its_width_as_a_values_text_grows() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    h.run_steps(3);
    let width = |h: &Harness<'_, EditorApp>| {
        h.state()
            .node_rects()
            .into_iter()
            .find(|(id, _)| id == "n")
            .unwrap()
            .1
            .width()
    };
    let before = width(&h);
    h.state_mut().push(Command::SetParam {
        node: "n".into(),
        param: "frequency".into(),
        value: ParamValue::Number(123.456),
    });
    h.run_steps(4);
    assert_eq!(width(&h), before);
}

#[test]
fn the_raster_badge_is_as_large_as_the_title_and_the_inspector_keeps_its_rows() {
    // Wide enough for the graph to open at a scale its text is drawn at.
    let mut h = harness_sized(&graph_path("marble_normal.json"), egui::vec2(1800.0, 900.0));
    wait_until(&mut h, "a stage badge", |app| !app.stage_nodes().is_empty());
    h.run_steps(3);
    wait_until(&mut h, "sharpen's badge", |app| {
        app.stage_nodes().contains("sharpen")
    });
    h.run_steps(2);
    let title = h.get_by_label("sharpen: Levels").rect();
    let badge = h
        .get_all_by_label(texgraph_editor::panels::canvas::STAGE_BADGE)
        .map(|n| n.rect())
        .find(|r| (r.center().y - title.center().y).abs() < title.height())
        .expect("a badge beside sharpen's title");
    let title_height = title.height();
    assert!(
        badge.height() >= title_height - 1.0,
        "badge {} tall beside a {title_height} title",
        badge.height()
    );

    // The line between inspector and preview dragged to the top: the inspector keeps room.
    let panel = |h: &Harness<'_, EditorApp>| {
        egui::containers::panel::PanelState::load(&h.ctx, egui::Id::new("preview_panel"))
            .unwrap()
            .outer_rect
    };
    let top = panel(&h).top();
    let x = panel(&h).center().x;
    drag(
        &mut h,
        egui::pos2(x, top),
        egui::pos2(x, 5.0),
        Modifiers::NONE,
        8,
    );
    h.run_steps(2);
    let side_top = h.state().canvas_rect().top();
    assert!(
        // Less the panels' margins and separators.
        panel(&h).top() - side_top >= texgraph_editor::app::INSPECTOR_MIN_HEIGHT - 10.0,
        "the preview reaches {} under a side panel from {side_top}",
        panel(&h).top()
    );
}

#[test]
fn restored_work_brings_back_the_trail_into_a_subgraph() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let slab_path = graph_path("marble_slab.json");
    let veins_path = graph_path("library/marble_veins.json");
    let mut slab = texgraph_core::Graph::load(&slab_path).unwrap();
    slab.node_mut("veins")
        .unwrap()
        .params
        .insert("opacity".into(), ParamValue::Number(0.25));
    // An editor killed while it showed the veins, opened from the slab's `fine`.
    {
        let mut autosave = texgraph_editor::recovery::Autosave::in_folder(&state);
        autosave.others = vec![texgraph_editor::recovery::OtherGraph {
            file: Some(slab_path.clone()),
            graph: slab,
            via: Some("fine".into()),
            modified: true,
        }];
        // The veins themselves were not edited.
        autosave.shown_modified = false;
        let veins = texgraph_core::Graph::load(&veins_path).unwrap();
        autosave.write_now(&veins, Some(&veins_path), 1);
    }
    let mut h = harness(&graph_path("fbm.json"));
    h.state_mut().recoveries = texgraph_editor::recovery::left_behind(&state);
    h.run_steps(3);
    h.get_by_label_contains("marble_slab.json (shown from");
    h.get_by_label("Restore").click();
    h.run_steps(3);
    assert_eq!(h.state().path.as_deref(), Some(veins_path.as_path()));
    assert!(!h.state().modified, "only the slab had unsaved edits");
    h.get_by_label_contains("inputs as 'fine' feeds them");
    h.get_by_role_and_label(Role::Button, "*marble_slab.json")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().path.as_deref(), Some(slab_path.as_path()));
    assert!(h.state().modified);
    assert_eq!(
        h.state().graph.node("veins").unwrap().params["opacity"],
        ParamValue::Number(0.25)
    );
}

#[test]
fn restoring_work_found_while_editing_asks_about_the_unsaved_graph_first() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    {
        let mut autosave = texgraph_editor::recovery::Autosave::in_folder(&state);
        let wood = texgraph_core::Graph::load(&graph_path("wood.json")).unwrap();
        autosave.write_now(&wood, None, 1);
    }
    let mut h = open_json(dir.path(), "two.json", TWO);
    h.state_mut().push(Command::SetParam {
        node: "n".into(),
        param: "frequency".into(),
        value: ParamValue::Number(9.0),
    });
    h.run_steps(2);
    let edited = h.state().graph.clone();
    h.state_mut().recoveries = texgraph_editor::recovery::left_behind(&state);
    h.run_steps(3);
    h.get_by_label("Restore").click();
    h.run_steps(3);
    h.get_by_label_contains("before restoring the unsaved changes");
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().graph, edited, "the edit is still there");
    let left: Vec<_> = std::fs::read_dir(&state)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(
        left.len(),
        1,
        "the recovered work is kept for the next start"
    );
}

#[test]
fn nodes_keep_their_size_when_their_graph_is_shown_again() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("library")).unwrap();
    for file in ["marble_slab.json", "library/marble_veins.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("marble_slab.json"));
    h.run_steps(5);
    let widths = |h: &Harness<'_, EditorApp>| {
        let mut widths: Vec<(String, f32)> = h
            .state()
            .node_rects()
            .into_iter()
            .map(|(id, r)| (id, r.width()))
            .collect();
        widths.sort_by(|a, b| a.0.cmp(&b.0));
        widths
    };
    let before = widths(&h);
    // Into a subgraph and back: the canvas's nodes get other ids, some once another's.
    h.state_mut().push(Command::OpenSubgraph("fine".into()));
    h.run_steps(5);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowLeft);
    h.run_steps(8);
    for ((id, was), (_, now)) in before.iter().zip(widths(&h)) {
        // The selected node's outline is drawn 2 points wider.
        assert!((was - now).abs() <= 3.0, "{id}: {was} wide, now {now}");
    }
}

#[test]
fn a_click_beside_a_title_selects_its_node() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    let title = on_canvas(&h, "n: Perlin Noise");
    let node = h
        .state()
        .node_rects()
        .into_iter()
        .find(|(id, _)| id == "n")
        .unwrap()
        .1;
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let right = h.ctx.layer_transform_to_global(layer).unwrap() * node;
    // Between the title's end and the node's right edge.
    let beside = egui::pos2((title.right() + right.right()) / 2.0, title.center().y);
    assert!(beside.x > title.right() + 5.0, "{title:?} {right:?}");
    click_at(&mut h, beside, PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some("n"));
}

#[test]
fn a_rectangle_selection_moves_the_inspector_to_what_it_selected() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    let title = on_canvas(&h, "out: Output");
    click_at(&mut h, title.center(), PointerButton::Primary);
    assert_eq!(h.state().selected.as_deref(), Some("out"));
    rect_select(&mut h, "n: Perlin Noise", "a: Levels");
    h.run_steps(2);
    assert_eq!(
        selection(&h),
        ["a", "n"],
        "the output is not selected any more"
    );
    let shown = h.state().selected.clone().unwrap();
    assert!(
        ["a", "n"].contains(&shown.as_str()),
        "the inspector shows {shown}"
    );
}

#[test]
fn a_shift_drag_from_a_pin_name_selects_no_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    let title = on_canvas(&h, "b: Levels");
    // The name of b's first float pin, on its face under its title.
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let from = h
        .get_all_by_label("in_low")
        .map(|n| to_screen * n.rect())
        .find(|r| (r.top() - title.bottom()).abs() < 80.0 && (r.left() - title.left()).abs() < 80.0)
        .expect("b's in_low")
        .center();
    drag(
        &mut h,
        from,
        title.right_bottom() + egui::vec2(200.0, 200.0),
        Modifiers::SHIFT,
        8,
    );
    let selected_text = h
        .ctx
        .with_plugin(|s: &mut egui::text_selection::LabelSelectionState| s.has_selection());
    assert_eq!(
        selected_text,
        Some(false),
        "no text on the canvas is selected"
    );
}

#[test]
fn a_subgraph_whose_file_does_not_load_keeps_its_file_field() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("library")).unwrap();
    for file in ["marble_slab.json", "library/marble_veins.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("marble_slab.json"));
    h.state_mut().push(Command::Select(Some("fine".into())));
    h.run_steps(2);
    // Typed over, a letter at a time: the path names no file on the way.
    h.get_by_role_and_label(Role::TextInput, "file").click();
    h.run_steps(1);
    retype(&mut h, "l");
    h.run_steps(2);
    assert!(h.state().errors().contains_key("fine"));
    let field = h.get_by_role_and_label(Role::TextInput, "file");
    assert_eq!(field.value().as_deref(), Some("l"));
    retype(&mut h, "library/marble_veins.json");
    h.key_press(Key::Enter);
    h.run_steps(3);
    wait_until(&mut h, "the node renders again", |app| {
        !app.errors().contains_key("fine") && app.has_thumbnail("fine")
    });
}

#[test]
fn an_edit_in_the_same_frame_as_going_back_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("library")).unwrap();
    for file in ["marble_slab.json", "library/marble_veins.json"] {
        std::fs::copy(graph_path(file), dir.path().join(file)).unwrap();
    }
    let mut h = harness(&dir.path().join("marble_slab.json"));
    h.state_mut().push(Command::OpenSubgraph("fine".into()));
    h.run_steps(2);
    // An edit and Alt+Left handled in one slow frame.
    h.state_mut().push(Command::SetParam {
        node: "turb".into(),
        param: "octaves".into(),
        value: ParamValue::Number(3.0),
    });
    h.state_mut().push(Command::Back(0));
    h.run_steps(2);
    assert!(h.state().unsaved_anywhere(), "the veins' edit is unsaved");
    h.state_mut().push(Command::OpenSubgraph("fine".into()));
    h.run_steps(2);
    assert_eq!(
        h.state().graph.node("turb").unwrap().params["octaves"],
        ParamValue::Number(3.0)
    );
    // And the other way: an edit, then into a subgraph in the same frame.
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowLeft);
    h.run_steps(2);
    h.state_mut().push(Command::SetParam {
        node: "veins".into(),
        param: "opacity".into(),
        value: ParamValue::Number(0.5),
    });
    h.state_mut().push(Command::OpenSubgraph("broad".into()));
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "*marble_slab.json");
}

#[test]
fn a_fed_subgraph_is_not_rendered_again_and_again_for_a_file_its_parent_reads() {
    let dir = tempfile::tempdir().unwrap();
    image::GrayImage::from_pixel(4, 4, image::Luma([128u8]))
        .save(dir.path().join("grain.png"))
        .unwrap();
    std::fs::write(
        dir.path().join("sub.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "h", "type": "graph_input", "params": { "name": "height" }, "pos": [0, 0] },
            { "id": "o", "type": "output", "inputs": { "color": "h" }, "pos": [300, 0] } ] }"#,
    )
    .unwrap();
    let mut h = open_json(
        dir.path(),
        "top.json",
        r#"{ "format": "texgraph", "version": 2, "nodes": [
            { "id": "img", "type": "image", "params": { "path": "grain.png" }, "pos": [0, 0] },
            { "id": "sub", "type": "graph", "params": { "file": "sub.json" }, "inputs": { "height": "img" }, "pos": [300, 0] },
            { "id": "out", "type": "output", "inputs": { "color": "sub" }, "pos": [600, 0] } ] }"#,
    );
    h.state_mut().push(Command::OpenSubgraph("sub".into()));
    h.run_steps(2);
    wait_for_preview(&mut h);
    let asked = h.state().renders_asked();
    // Past two of the once-a-second looks at the files.
    let until = std::time::Instant::now() + std::time::Duration::from_millis(2300);
    while std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run_steps(1);
    }
    assert_eq!(h.state().renders_asked(), asked, "nothing on disk changed");
}

#[test]
fn an_export_that_clamps_says_so_in_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let ramp = r#"{ "format": "texgraph", "version": 1, "nodes": [
        { "id": "uv", "type": "coords" },
        { "id": "ramp", "type": "remap", "params": { "out_min": -0.5, "out_max": 1.5 }, "inputs": { "input": "uv.u" } },
        { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "ramp" } } ] }"#;
    let mut h = open_json(dir.path(), "ramp.json", ramp);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run_steps(2);
    assert!(h.state().export.path.ends_with("ramp.png"));
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(1);
    wait_until(&mut h, "the export", |app| !app.export.message.is_empty());
    h.run_steps(1);
    let warnings = &h.state().export.warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("were outside [0, 1] and were clamped into 8 bits"),
        "{warnings:?}"
    );
    h.get_by_label_contains("warning: ");

    // A float file keeps the values: no warning, and the last one is gone.
    h.ctx
        .memory_mut(|m| m.request_focus(egui::Id::new("export_path")));
    h.run_steps(1);
    retype(&mut h, &dir.path().join("ramp.exr").display().to_string());
    h.key_press(Key::Enter);
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Export").click();
    h.run_steps(1);
    wait_until(&mut h, "the second export", |app| {
        app.export.message.contains("ramp.exr")
    });
    assert!(h.state().export.warnings.is_empty());
    assert!(h.query_by_label_contains("warning: ").is_none());
}

#[test]
fn a_node_made_from_a_dropped_wire_takes_it_where_it_was_dropped_and_stays_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    h.hover_at(h.state().canvas_rect().center());
    h.run_steps(1);
    wheel(&mut h, -4);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let canvas = h.state().canvas_rect();
    let view = to_screen.inverse() * canvas;
    let rect_of = |h: &Harness<'_, EditorApp>, id: &str| {
        h.state()
            .node_rects()
            .into_iter()
            .find(|(n, _)| n == id)
            .unwrap_or_else(|| panic!("{id}"))
            .1
    };

    // A wire out of n dropped on empty canvas left of b, below n: the new node's input,
    // on its left side, is where the wire was let go.
    let drop = egui::pos2(-200.0, 300.0);
    assert!(view.contains(drop + egui::vec2(240.0, 200.0)), "{view:?}");
    h.state_mut().push(Command::AddWiredNode {
        kind: "levels",
        pos: drop,
        wire: DroppedWire::From("n".into()),
    });
    h.run_steps(3);
    let levels = rect_of(&h, "levels1");
    assert!((levels.left() - drop.x).abs() < 1.0, "{levels:?}");
    assert!(
        levels.top() < drop.y && drop.y < levels.top() + 60.0,
        "{levels:?}"
    );
    assert_eq!(
        h.state().graph.node("levels1").unwrap().inputs.get("input"),
        Some(&"n".to_owned())
    );

    // A wire out of an input let go at the canvas's bottom-right corner: the node that
    // feeds it is drawn whole, inside the canvas.
    let corner = view.right_bottom() - egui::vec2(4.0, 4.0);
    h.state_mut().push(Command::AddWiredNode {
        kind: "perlin",
        pos: corner,
        wire: DroppedWire::Into {
            node: "b".into(),
            port: "input".into(),
        },
    });
    h.run_steps(3);
    let perlin = rect_of(&h, "perlin1");
    assert!(
        canvas.contains_rect(to_screen * perlin),
        "{perlin:?} in {view:?}"
    );
    assert_eq!(
        h.state().graph.node("b").unwrap().inputs.get("input"),
        Some(&"perlin1".to_owned())
    );
}

#[test]
fn a_wire_menu_names_an_outputs_input_as_the_canvas_does() {
    let mut h = harness(&graph_path("brick_wall.json"));
    h.run_steps(2);
    h.state_mut().push(Command::OpenWireMenu {
        from: "rough_grime".into(),
        node: "roughness".into(),
        port: "color".into(),
    });
    h.run_steps(2);
    h.get_by_label("rough_grime into roughness.roughness");
}

#[test]
fn the_palette_opens_with_an_empty_search_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    h.hover_at(egui::pos2(700.0, 400.0));
    h.run_steps(1);
    for key in [Key::Tab, Key::Space] {
        h.key_press(key);
        h.run_steps(3);
        assert_eq!(h.state().palette_filter(), "", "{key:?}");
        h.event(Event::Text("multiply".into()));
        h.run_steps(2);
        let first = texgraph_editor::panels::canvas::palette_matches("multiply")[0].id;
        assert_eq!(first, "blend", "a blend mode finds the blend node");
        h.key_press(Key::Escape);
        h.run_steps(2);
    }
}

#[test]
fn a_node_made_where_no_clear_spot_is_in_view_is_shown_by_panning() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "two.json", TWO);
    // Zoomed in far on b: no node-sized spot in view is clear of it.
    let b = on_canvas(&h, "b: Levels").center();
    h.hover_at(b);
    h.run_steps(1);
    wheel(&mut h, 12);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let canvas = h.state().canvas_rect();
    let view = h.ctx.layer_transform_to_global(layer).unwrap().inverse() * canvas;
    h.state_mut().push(Command::AddWiredNode {
        kind: "levels",
        pos: view.center_bottom() - egui::vec2(0.0, 4.0),
        wire: DroppedWire::From("n".into()),
    });
    h.run_steps(5);
    let to_screen = h.ctx.layer_transform_to_global(layer).unwrap();
    let rects = h.state().node_rects();
    let (_, added) = rects.iter().find(|(id, _)| id == "levels1").unwrap();
    assert!(
        canvas.contains_rect(to_screen * *added),
        "levels1 at {:?} is not shown in {canvas:?}",
        to_screen * *added
    );
    for (id, rect) in &rects {
        assert!(
            id == "levels1" || !rect.intersects(*added),
            "levels1 covers {id}"
        );
    }
}
