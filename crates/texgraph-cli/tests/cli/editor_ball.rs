//! The editor's 3D view shows the image `texgraph render --ball` writes for the same
//! settings: its maps come from the preview worker's material job, its frame from the
//! view's renderer thread, and its pixels are what the texture holds.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use texgraph_core::Graph;
use texgraph_core::ball::Shape;
use texgraph_editor::ball_renderer::{BallRenderer, FrameJob};
use texgraph_editor::ball_view::BallView;
use texgraph_editor::preview::to_color_image;
use texgraph_editor::worker::{Job, Product, Slot, evaluate};

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
    let done = evaluate(Job {
        slot: Slot::Material,
        generation: 1,
        graph: Arc::new(graph.clone()),
        node: None,
        width: view.maps_side(false),
        height: view.maps_side(false),
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
}
