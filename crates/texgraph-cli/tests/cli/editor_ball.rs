//! The editor's 3D view shows the image `texgraph render --ball` writes for the same
//! settings: its maps come from the preview worker's material job, its frame from the
//! view's renderer thread, and its pixels are what the texture holds.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use texgraph_core::Graph;
use texgraph_core::ball::Shape;
use texgraph_editor::jobs::ball::{BallRenderer, FrameJob};
use texgraph_editor::jobs::preview::{Job, Product, Slot, evaluate};
use texgraph_editor::panels::ball_view::BallView;
use texgraph_editor::panels::preview::to_color_image;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../graphs")
        .join(name)
}

/// The editor's full frame of `graph` with its 3D view's settings changed by `adjust`.
fn editor_frame(graph: &Graph, map_size: u32, adjust: impl Fn(&mut BallView)) -> Vec<u8> {
    let mut view = BallView::new(|_| {}, false);
    view.map_size = map_size;
    adjust(&mut view);
    let done = evaluate(&Job {
        slot: Slot::Material,
        generation: 1,
        graph: Arc::new(graph.clone()),
        node: None,
        width: view.maps_side(false),
        height: view.maps_side(false),
        cancel: None,
    });
    let Ok(Product::Maps(maps)) = done.result else {
        panic!("the worker renders the maps");
    };
    let renderer = BallRenderer::new(|_| {});
    renderer.submit(FrameJob {
        id: 7,
        maps: Arc::new(*maps),
        settings: view.full_settings(),
        draft: false,
        edit_at: None,
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let frame = loop {
        if let Some(frame) = renderer.newest() {
            break frame;
        }
        assert!(Instant::now() < deadline, "no frame");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(frame.id, 7);
    to_color_image(&frame.image.unwrap()).as_raw().to_vec()
}

fn cli_frame(graph: &str, args: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("texgraph")
        .expect("binary built")
        .current_dir(dir.path())
        .arg("render")
        .arg(example(graph))
        .args(args)
        .args(["-o", "ball.png"])
        .assert()
        .success();
    image::open(dir.path().join("ball.png"))
        .unwrap()
        .to_rgba8()
        .into_raw()
}

#[test]
fn the_3d_view_shows_what_the_cli_writes() {
    let mut graph = Graph::load(&example("brick_wall.json")).unwrap();
    graph.resolve_paths(&example(""));
    let editor = editor_frame(&graph, 128, |view| view.settings.size = 96);
    let cli = cli_frame(
        "brick_wall.json",
        &["--ball", "sphere", "--size", "96", "--map-size", "128"],
    );
    assert_eq!(editor.len(), 96 * 96 * 4);
    assert!(editor == cli, "the editor's sphere differs from the CLI's");

    let editor = editor_frame(&graph, 64, |view| {
        view.settings.size = 64;
        view.settings.shape = Shape::Cylinder;
        view.settings.tiling = 2.0;
        view.settings.light_azimuth = 30.0;
        view.settings.environment = texgraph_core::ball::Environment::Sky;
    });
    let cli = cli_frame(
        "brick_wall.json",
        &[
            "--ball",
            "cylinder",
            "--size",
            "64",
            "--map-size",
            "64",
            "--tiling",
            "2",
            "--light-angle",
            "30",
            "--env",
            "sky",
        ],
    );
    assert!(
        editor == cli,
        "the editor's cylinder differs from the CLI's"
    );

    let mut graph = Graph::load(&example("eroded_mountains.json")).unwrap();
    graph.resolve_paths(&example(""));
    let editor = editor_frame(&graph, 96, |view| {
        view.settings.size = 64;
        view.settings.shape = Shape::Terrain;
        view.settings.relief = 0.4;
    });
    let cli = cli_frame(
        "eroded_mountains.json",
        &[
            "--ball",
            "terrain",
            "--size",
            "64",
            "--map-size",
            "96",
            "--relief",
            "0.4",
        ],
    );
    assert!(editor == cli, "the editor's terrain differs from the CLI's");
}

#[test]
fn the_3d_views_command_renders_what_it_shows() {
    // A view moved away from every default: the command the editor copies, run, writes
    // the view's pixels.
    let path = example("cobblestone_floor.json");
    let mut graph = Graph::load(&path).unwrap();
    graph.resolve_paths(&example(""));
    let adjust = |view: &mut BallView| {
        let s = &mut view.settings;
        s.size = 72;
        s.shape = Shape::Cube;
        s.background = texgraph_core::ball::Background::Gray;
        s.tiling = 1.5;
        s.light_azimuth = 20.0;
        s.light_elevation = 15.5;
        s.light_intensity = 3.25;
        s.environment_turn = 123.4;
        s.orbit = [341.5, -12.25];
        s.zoom = 1.3;
        s.exposure = -0.5;
        s.depth = 0.03;
        s.relief = 0.35;
    };
    let editor = editor_frame(&graph, 64, adjust);
    let mut view = BallView::new(|_| {}, false);
    view.map_size = 64;
    adjust(&mut view);
    let command = view.command(&path);
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[..2], ["texgraph", "render"], "{command}");
    for flag in [
        "--orbit",
        "--zoom",
        "--env-turn",
        "--light-elevation",
        "--light-intensity",
        "--exposure",
        "--parallax",
        "--relief",
        "--background",
        "--tiling",
        "--light-angle",
    ] {
        assert!(words.contains(&flag), "{command} sets {flag}");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<&str> = words[2..].to_vec();
    let out = args.iter().position(|w| *w == "ball.png").unwrap();
    let file = dir.path().join("ball.png");
    let file_text = file.display().to_string();
    args[out] = &file_text;
    Command::cargo_bin("texgraph")
        .unwrap()
        .args(["render"])
        .args(&args)
        .assert()
        .success();
    let cli = image::open(&file).unwrap().to_rgba8().into_raw();
    assert!(
        editor == cli,
        "the command's image differs from the view: {command}"
    );
}

#[test]
fn view_flags_out_of_range_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value, message) in [
        ("--zoom", "9", "--zoom must be between 0.5 and 3"),
        ("--parallax", "0.9", "--parallax must be between 0 and 0.5"),
        ("--relief", "0", "--relief must be between 0.01 and 2"),
        (
            "--light-intensity",
            "NaN",
            "--light-intensity must be between 0 and 100",
        ),
        ("--orbit", "30", "is not YAW,PITCH"),
        ("--exposure", "inf", "--exposure must be a finite number"),
    ] {
        Command::cargo_bin("texgraph")
            .unwrap()
            .current_dir(dir.path())
            .args(["render"])
            .arg(example("brick_wall.json"))
            .args([
                "--ball",
                "sphere",
                "--size",
                "32",
                "--map-size",
                "32",
                flag,
                value,
            ])
            .assert()
            .failure()
            .stderr(predicates::str::contains(message));
        assert!(
            std::fs::read_dir(dir.path()).unwrap().next().is_none(),
            "{flag} {value}: nothing written"
        );
    }
}
