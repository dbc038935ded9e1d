//! Raster nodes in the editor: the `image` node's file chooser and reloading when the
//! file changes, stage badges, and building a normal map for marble by mouse and keyboard.

use std::path::Path;
use std::time::{Duration, Instant};

use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::ParamValue;
use texgraph_editor::app::EditorApp;
use texgraph_editor::command::Command;
use texgraph_editor::panels::canvas::STAGE_BADGE;

use crate::common::*;

fn write_png(path: &Path, rgb: [u8; 3]) {
    image::RgbImage::from_pixel(4, 4, image::Rgb(rgb))
        .save(path)
        .unwrap();
}

/// The preview's top-left pixel, once a preview newer than `after` shows.
fn preview_pixel(h: &Harness<'_, EditorApp>) -> Option<[f32; 4]> {
    let image = h.state().preview.image.as_ref()?;
    let c = image.channels;
    let mut px = [1.0; 4];
    px[..c].copy_from_slice(&image.data[..c]);
    Some(px)
}

fn wait_for_pixel(h: &mut Harness<'_, EditorApp>, want: [f32; 4]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while preview_pixel(h) != Some(want) {
        assert!(
            Instant::now() < deadline,
            "preview never showed {want:?} (shows {:?})",
            preview_pixel(h)
        );
        std::thread::sleep(Duration::from_millis(50));
        h.run_steps(1);
    }
}

const PHOTO: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "photo", "type": "image", "params": { "path": "red.png" }, "pos": [0, 0] },
    { "id": "out", "type": "output", "inputs": { "color": "photo" }, "pos": [300, 0] } ] }"#;

#[test]
fn an_image_file_is_chosen_read_beside_the_graph_and_read_again_when_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    write_png(&dir.path().join("red.png"), [255, 0, 0]);
    std::fs::create_dir(dir.path().join("pictures")).unwrap();
    write_png(&dir.path().join("pictures/blue.png"), [0, 0, 255]);
    let graph = dir.path().join("photo.json");
    std::fs::write(&graph, PHOTO).unwrap();
    // Started elsewhere: the relative path is read from the graph's folder.
    let mut h = harness(&graph);
    wait_for_pixel(&mut h, [1.0, 0.0, 0.0, 1.0]);

    // Browse… in the inspector opens the chooser; the file is stored relative to the graph.
    h.state_mut().push(Command::Select(Some("photo".into())));
    h.run_steps(2);
    h.get_by_label("Browse…").click();
    choose_file(&mut h, &dir.path().join("pictures/blue.png"));
    assert_eq!(
        h.state().graph.node("photo").unwrap().params["path"],
        ParamValue::Text("pictures/blue.png".into())
    );
    wait_for_pixel(&mut h, [0.0, 0.0, 1.0, 1.0]);

    // Painted over on disk: the preview follows without an edit.
    std::thread::sleep(Duration::from_millis(1100));
    write_png(&dir.path().join("pictures/blue.png"), [0, 255, 0]);
    wait_for_pixel(&mut h, [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn a_missing_image_outlines_the_node_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("photo.json");
    std::fs::write(&graph, PHOTO).unwrap();
    let mut h = harness(&graph);
    wait_until(&mut h, "the missing file is reported", |app| {
        app.errors()
            .get("photo")
            .is_some_and(|m| m.contains("red.png"))
    });
}

/// The screen rectangle of the output pin label ("out") of the node titled `title`: the
/// nearest one below the title.
fn output_label(h: &Harness<'_, EditorApp>, title: &str) -> egui::Rect {
    let title = on_canvas(h, title);
    let layer = egui::LayerId::new(egui::Order::Background, h.state().canvas_id());
    let to_screen = h
        .ctx
        .layer_transform_to_global(layer)
        .expect("canvas drawn");
    h.query_all_by_label("out")
        .map(|n| to_screen * n.rect())
        .filter(|r| r.center().y > title.center().y)
        .min_by(|a, b| {
            let d = |r: &egui::Rect| (r.center() - title.center()).length();
            d(a).total_cmp(&d(b))
        })
        .expect("the node's output pin label")
}

#[test]
fn a_normal_map_for_marble_by_mouse_and_keyboard() {
    // Wide enough for the graph to open at a scale its text is drawn at.
    let mut h = harness_sized(&graph_path("marble.json"), egui::vec2(1800.0, 1000.0));
    wait_for_preview(&mut h);
    // Space over the canvas opens the palette; typing filters it; Enter adds the node.
    let empty = on_canvas(&h, "sharpen: Levels").center() + egui::vec2(0.0, 260.0);
    h.hover_at(empty);
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(h.state().palette_open());
    h.event(egui::Event::Text("normal".into()));
    h.run_steps(2);
    h.key_press(Key::Enter);
    h.run_steps(3);
    let normal = h
        .state()
        .graph
        .nodes
        .iter()
        .find(|n| n.kind == "normal")
        .expect("a normal node was added")
        .id
        .clone();
    // Wire sharpen's output into the normal's height, then show it in the preview.
    let from = pin_beside(&h, output_label(&h, "sharpen: Levels"), false);
    let to = pin_beside(&h, on_canvas(&h, "height"), true);
    drag(&mut h, from, to, egui::Modifiers::NONE, 8);
    assert_eq!(
        h.state().graph.node(&normal).unwrap().inputs["height"],
        "sharpen"
    );
    h.state_mut().push(Command::Select(Some(normal.clone())));
    h.run_steps(2);
    h.get_by_label("Show in preview").click();
    h.run_steps(2);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let shown = h.state().preview.image.clone();
        if let Some(image) = shown.filter(|i| i.channels == 4) {
            let n = (image.data.len() / 4) as f32;
            let mean = |ch: usize| image.data.iter().skip(ch).step_by(4).sum::<f32>() / n;
            // A normal map: blue (z) high, red and green about half.
            if mean(2) > 0.8 && (mean(0) - 0.5).abs() < 0.05 && (mean(1) - 0.5).abs() < 0.05 {
                break;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the preview never showed a normal map"
        );
        std::thread::sleep(Duration::from_millis(50));
        h.run_steps(1);
    }
    // The height it reads is computed over the whole image first: badged on the canvas.
    wait_until(&mut h, "the stage badge", |app| {
        app.stage_nodes().contains("sharpen")
    });
    h.run_steps(2);
    assert!(h.query_all_by_label(STAGE_BADGE).next().is_some());
}

#[test]
fn a_graph_over_the_cost_budget_outlines_the_node_where_a_buffer_goes() {
    let mut nodes = vec![r#"{ "id": "w0", "type": "perlin", "pos": [0, 0] }"#.to_owned()];
    for i in 1..=20 {
        nodes.push(format!(
            r#"{{ "id": "w{i}", "type": "warp", "inputs": {{ "source": "w{p}", "dx": "w{p}" }}, "pos": [{x}, 0] }}"#,
            p = i - 1,
            x = i * 260
        ));
    }
    nodes.push(
        r#"{ "id": "out", "type": "output", "inputs": { "color": "w20" }, "pos": [5460, 0] }"#
            .to_owned(),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chain.json");
    std::fs::write(
        &path,
        format!(
            r#"{{ "format": "texgraph", "version": 1, "nodes": [ {} ] }}"#,
            nodes.join(",")
        ),
    )
    .unwrap();
    let mut h = harness(&path);
    wait_until(&mut h, "the cost error on a node", |app| {
        app.errors()
            .iter()
            .any(|(node, message)| node.starts_with('w') && message.contains("put a `buffer` node"))
    });
}
