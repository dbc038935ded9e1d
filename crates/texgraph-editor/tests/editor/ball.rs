//! The preview's 3D tab: the material's maps rendered together by the worker, shown on a
//! lit shape exactly as the core renders it; dragging orbits, Shift+drag turns the light
//! and environment, and edits reach the shape.

use eframe::egui::{self, Modifiers, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use texgraph_core::ParamValue;
use texgraph_core::ball::{material_maps, render_ball};
use texgraph_editor::app::EditorApp;
use texgraph_editor::command::Command;

use crate::common::*;

/// Steps the UI until the 3D tab shows the full frame of the newest maps.
fn wait_for_ball(h: &mut egui_kittest::Harness<'_, texgraph_editor::app::EditorApp>) {
    wait_until(h, "the full frame of the newest maps", |app| {
        app.ball.is_current() && app.ball.maps_generation() == Some(app.renders_asked())
    });
}

/// What the core renders for the editor's graph and the 3D tab's settings now.
fn core_frame(app: &texgraph_editor::app::EditorApp) -> Vec<f32> {
    let maps = material_maps(&app.graph, app.ball.map_size, Default::default()).unwrap();
    render_ball(&maps, &app.ball.full_settings()).data
}

#[test]
fn the_3d_tab_shows_the_material_and_turns_with_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    // Small, so the test is quick; the sizes are the view's own settings.
    h.state_mut().ball.map_size = 64;
    h.state_mut().ball.settings.size = 96;
    h.get_by_label("3D").click();
    h.run_steps(2);
    assert!(h.state().show_3d);
    wait_for_ball(&mut h);
    assert_eq!(
        h.state().ball.map_names(),
        ["Base color", "Normal", "Roughness"]
    );
    assert!(
        h.state().ball.image().unwrap().data == core_frame(h.state()),
        "the core's frame"
    );

    // Dragging orbits the camera; the frame follows once the pointer rests.
    let view = h.state().ball.view_rect();
    assert!(view.width() > 60.0, "{view:?}");
    let centre = view.center();
    drag(&mut h, centre, centre + vec2(40.0, 0.0), Modifiers::NONE, 4);
    let settings = h.state().ball.settings.clone();
    assert_eq!(
        settings.orbit,
        [340.0, 0.0],
        "half a degree a point, to the left"
    );
    assert_eq!(settings.environment_turn, 0.0);
    wait_for_ball(&mut h);
    assert!(
        h.state().ball.image().unwrap().data == core_frame(h.state()),
        "the core's frame"
    );

    // Shift+drag turns the environment and the key light instead.
    drag(
        &mut h,
        centre,
        centre + vec2(20.0, -20.0),
        Modifiers::SHIFT,
        4,
    );
    let turned = h.state().ball.settings.clone();
    assert_eq!(turned.orbit, settings.orbit);
    assert_eq!(turned.environment_turn, 10.0);
    assert_eq!(turned.light_elevation, settings.light_elevation + 10.0);
    wait_for_ball(&mut h);
    let before = h.state().ball.image().unwrap().data.clone();
    assert!(before == core_frame(h.state()), "the core's frame");

    // The wheel over the view zooms in (three notches of 40 points: exp(120 / 300) = 1.49),
    // and the canvas behind stays as it was.
    let layer = eframe::egui::LayerId::new(eframe::egui::Order::Background, h.state().canvas_id());
    let canvas = h.ctx.layer_transform_to_global(layer).unwrap();
    h.hover_at(centre);
    h.run_steps(1);
    wheel(&mut h, 3);
    let zoom = h.state().ball.settings.zoom;
    assert!((zoom - 1.49).abs() < 0.02, "zoomed {zoom}×");
    assert_eq!(h.ctx.layer_transform_to_global(layer).unwrap(), canvas);
    wait_for_ball(&mut h);

    // An edit reaches the shape: the maps are rendered again and a new frame shows them.
    h.state_mut().push(Command::SetParam {
        node: "r".into(),
        param: "in_low".into(),
        value: ParamValue::Number(0.6),
    });
    h.run_steps(2);
    wait_for_ball(&mut h);
    let after = h.state().ball.image().unwrap().data.clone();
    assert!(after != before, "the edit shows");
    assert!(after == core_frame(h.state()), "the core's frame");
}

#[test]
fn a_graph_without_material_outputs_says_how_to_get_one() {
    let mut h = harness(&graph_path("marble.json"));
    h.get_by_label("3D").click();
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("no material outputs").is_some(),
        "the 3D tab explains what it needs"
    );
}

#[test]
fn an_environment_file_is_picked_read_in_the_background_and_lights_the_shape() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    h.state_mut().ball.map_size = 64;
    h.state_mut().ball.settings.size = 64;
    h.get_by_label("3D").click();
    h.run_steps(2);
    wait_for_ball(&mut h);
    let studio = h.state().ball.image().unwrap().data.clone();

    // A warm sky over a dark ground, 2:1.
    let mut sky = image::Rgb32FImage::new(64, 32);
    for (_, y, p) in sky.enumerate_pixels_mut() {
        *p = if y < 16 {
            image::Rgb([1.5, 0.9, 0.4])
        } else {
            image::Rgb([0.05, 0.05, 0.05])
        };
    }
    let file = dir.path().join("warm.hdr");
    image::DynamicImage::ImageRgb32F(sky).save(&file).unwrap();

    // The environment menu's last entry opens the chooser.
    combo(&h, "Studio").click();
    h.run_steps(2);
    h.get_by_label("Open .hdr or .exr…").click();
    choose_file(&mut h, &file);
    wait_until(&mut h, "the file read", |app| {
        !app.ball.is_loading_environment()
    });
    let environment = h.state().ball.settings.environment.clone();
    let texgraph_core::ball::Environment::Image(image) = &environment else {
        panic!("the file is the environment now: {environment:?}");
    };
    assert_eq!(image.path(), file);
    h.run_steps(2);
    wait_for_ball(&mut h);
    let warm = h.state().ball.image().unwrap().data.clone();
    assert!(warm != studio, "the file lights the shape");
    assert!(warm == core_frame(h.state()), "the core's frame");
    // The menu offers the file from now on, by its name.
    combo(&h, "warm.hdr");

    // A file that is not an image says so, naming it, and the view keeps its light.
    let junk = dir.path().join("junk.hdr");
    std::fs::write(&junk, "not an image").unwrap();
    h.state_mut().ball.load_environment(junk.clone());
    wait_until(&mut h, "the junk read", |app| {
        !app.ball.is_loading_environment()
    });
    h.run_steps(2);
    assert_eq!(h.state().ball.settings.environment, environment);
    let name = junk.display().to_string();
    assert!(
        h.query_by_label_contains(&name).is_some(),
        "the error names {name}"
    );
}

#[test]
fn copy_command_puts_the_views_render_command_on_the_clipboard() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_json(dir.path(), "stone.json", STONE);
    h.get_by_label("3D").click();
    h.run_steps(2);
    h.state_mut().ball.settings.orbit = [30.0, 10.0];
    h.get_by_label("Copy command").click();
    h.run_steps(1);
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            eframe::egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect();
    let path = dir.path().join("stone.json");
    assert_eq!(copied, [h.state().ball.command(&path)]);
    assert!(copied[0].contains("--orbit 30,10"), "{}", copied[0]);
    assert!(
        h.state().status.starts_with("copied"),
        "{}",
        h.state().status
    );
}

#[test]
fn a_graphs_3d_view_is_kept_for_the_next_time_it_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("settings.json");
    let graph = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &graph).unwrap();
    let open = |store: std::path::PathBuf, graph: std::path::PathBuf| {
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .build_eframe(move |cc| {
                let mut app = EditorApp::open(&cc.egui_ctx, &graph).expect("opens");
                app.settings = texgraph_editor::settings::Settings::stored_at(store.clone());
                app
            });
        h.run_steps(3);
        h
    };
    let mut h = open(store.clone(), graph.clone());
    {
        let ball = &mut h.state_mut().ball;
        ball.settings.shape = texgraph_core::ball::Shape::parse("cube").unwrap();
        ball.settings.environment = texgraph_core::ball::Environment::Sky;
        ball.settings.tiling = 3.0;
        ball.settings.exposure = -0.5;
    }
    h.run_steps(2);
    drop(h);
    let h = open(store.clone(), graph.clone());
    let s = &h.state().ball.settings;
    assert_eq!(s.shape.id(), "cube");
    assert!(matches!(
        s.environment,
        texgraph_core::ball::Environment::Sky
    ));
    assert_eq!((s.tiling, s.exposure), (3.0, -0.5));
    drop(h);
    // Another graph opened in the same run keeps its own (the defaults, here).
    let other = dir.path().join("wood.json");
    std::fs::copy(graph_path("wood.json"), &other).unwrap();
    let mut h = open(store, graph);
    h.state_mut().push(Command::Open(other));
    h.run_steps(3);
    let defaults = texgraph_core::ball::BallSettings::default();
    let s = &h.state().ball.settings;
    assert_eq!((s.shape, s.tiling), (defaults.shape, defaults.tiling));
}
