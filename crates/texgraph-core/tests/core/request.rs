//! The export request every front end runs: what it lists is what it writes, and a still
//! is the same bytes as the whole-image path.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use texgraph_core::animation::Frames;
use texgraph_core::ball::{BallSettings, Shape};
use texgraph_core::export::presets::{built_in, find};
use texgraph_core::export::{Depth, ExportSettings, export_all};
use texgraph_core::{
    AnimationExport, BallExport, ExportRequest, MaterialExport, RenderOptions, StillExport,
};

use crate::common::example;

/// Every file under `dir`, however deep.
fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                found.insert(path);
            }
        }
    }
    found
}

/// Runs `request` into its empty folder `dir` and checks that the files it listed
/// beforehand are exactly the files that appeared; returns how many.
fn lists_what_it_writes(request: &ExportRequest, dir: &Path) -> usize {
    let graph = example("brick_wall");
    let listed: BTreeSet<PathBuf> = request.files(&graph).into_iter().collect();
    let most = std::sync::atomic::AtomicU64::new(0);
    request
        .run(&graph, &RenderOptions::default(), &|rows| {
            most.fetch_max(rows, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
    assert_eq!(files_under(dir), listed, "{request:?}");
    assert_eq!(
        most.into_inner(),
        request.rows(),
        "progress ends at the rows the request counts"
    );
    listed.len()
}

#[test]
fn every_kind_of_request_writes_exactly_the_files_it_lists() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("brick_wall");
    let outputs = texgraph_core::output_names(&graph).len();
    assert!(outputs > 3, "brick_wall has its material's maps");

    let stills = dir.path().join("stills");
    std::fs::create_dir(&stills).unwrap();
    let all = StillExport::to_file(
        &graph,
        &stills.join("brick.png"),
        None,
        true,
        (32, 32),
        None,
    );
    let count = lists_what_it_writes(&ExportRequest::Still(all), &stills);
    assert_eq!(count, outputs);

    let material = dir.path().join("maps");
    let presets = built_in();
    let request = ExportRequest::Material(MaterialExport {
        preset: find(&presets, "gltf").unwrap().clone(),
        format: None,
        graph_name: "brick".into(),
        folder: material.clone(),
        size: (32, 32),
        also: Vec::new(),
    });
    let count = lists_what_it_writes(&request, &material);
    assert!(
        request
            .files(&graph)
            .iter()
            .any(|p| p.ends_with("brick.gltf")),
        "the scene is listed"
    );
    assert!(count > 3, "{count} files");

    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    let request = ExportRequest::Animation(AnimationExport {
        frames: Frames::new(3, 7, 24.0).unwrap(),
        out: frames.join("brick_##.png"),
        sheet: None,
        output: None,
        size: (16, 16),
        depth: None,
    });
    assert_eq!(lists_what_it_writes(&request, &frames), 4);
    assert!(frames.join("brick_03.png").exists());

    let ball = dir.path().join("ball");
    std::fs::create_dir(&ball).unwrap();
    let request = ExportRequest::Ball(BallExport {
        out: ball.join("brick_ball.png"),
        settings: BallSettings {
            shape: Shape::Cube,
            size: 24,
            ..BallSettings::default()
        },
        map_size: 32,
    });
    let files = ball.join("brick_ball.png");
    let graph_rows = request.rows();
    assert_eq!(graph_rows, 0, "the ball reports no rows");
    request
        .run(&graph, &RenderOptions::default(), &|_| {})
        .unwrap();
    assert_eq!(files_under(&ball), BTreeSet::from([files.clone()]));
    let png = image::open(&files).unwrap();
    assert_eq!((png.width(), png.height()), (24, 24));
}

#[test]
fn a_still_request_writes_the_bytes_of_the_whole_image_path() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("brick_wall");
    let streamed = dir.path().join("streamed");
    let whole = dir.path().join("whole");
    std::fs::create_dir(&streamed).unwrap();
    std::fs::create_dir(&whole).unwrap();
    let request = StillExport::to_file(&graph, &streamed.join("b.exr"), None, true, (48, 40), None);
    let files = request.files.clone();
    ExportRequest::Still(request)
        .run(&graph, &RenderOptions::default(), &|_| {})
        .unwrap();
    // The same outputs through the whole-image renderer, at the depths the usages ask
    // for in EXR (32-bit float for all).
    let targets: Vec<(ExportSettings, PathBuf)> = files
        .iter()
        .map(|(output, path)| {
            let settings = ExportSettings {
                width: 48,
                height: 40,
                depth: Depth::Float,
                output: output.clone(),
                options: RenderOptions::default(),
            };
            (settings, whole.join(path.file_name().unwrap()))
        })
        .collect();
    export_all(&graph, &targets, &|_| {}).unwrap();
    for (_, path) in &files {
        let name = path.file_name().unwrap();
        assert_eq!(
            std::fs::read(path).unwrap(),
            std::fs::read(whole.join(name)).unwrap(),
            "{}",
            name.to_string_lossy()
        );
    }
}

#[test]
fn a_request_that_cannot_be_written_names_its_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("brick_wall");
    let bad = StillExport::to_file(
        &graph,
        &dir.path().join("b.png"),
        None,
        false,
        (8, 8),
        Some(Depth::Float),
    );
    let error = ExportRequest::Still(bad)
        .run(&graph, &RenderOptions::default(), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("b.png") && error.contains("PNG cannot hold 32-bit"),
        "{error}"
    );
    let ball = ExportRequest::Ball(BallExport {
        out: dir.path().join("ball.jpg"),
        settings: BallSettings::default(),
        map_size: 8,
    });
    let error = ball
        .run(&graph, &RenderOptions::default(), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("ball.jpg") && error.contains("PNG"),
        "{error}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Several presets from one request: one render (its rows counted once), every set
/// written into its folder with the bytes of that preset exported alone, and when one
/// set cannot be written, none is.
#[test]
fn several_presets_are_written_from_one_render_as_each_alone() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("brick_wall");
    let presets = built_in();
    let preset = |name: &str| find(&presets, name).unwrap().clone();
    let material = |folder: PathBuf,
                    also: Vec<(texgraph_core::export::presets::Preset, PathBuf)>,
                    first: &str| {
        ExportRequest::Material(MaterialExport {
            preset: preset(first),
            format: None,
            graph_name: "brick".into(),
            folder,
            size: (40, 24),
            also,
        })
    };
    let together = material(
        dir.path().join("all/unreal"),
        vec![
            (preset("gltf"), dir.path().join("all/gltf")),
            (preset("unity-hdrp"), dir.path().join("all/unity-hdrp")),
        ],
        "unreal",
    );
    let rows = std::sync::Mutex::new(Vec::new());
    let written = together
        .run(&graph, &RenderOptions::default(), &|done| {
            rows.lock().unwrap().push(done)
        })
        .unwrap();
    let rows = rows.into_inner().unwrap();
    assert!(
        rows.windows(2).all(|w| w[0] <= w[1]),
        "rendered more than once: {rows:?}"
    );
    assert_eq!(rows.last(), Some(&24));
    assert!(written.windows(2).all(|w| w[0].seconds == w[1].seconds));
    for name in ["unreal", "gltf", "unity-hdrp"] {
        let alone = dir.path().join("alone").join(name);
        material(alone.clone(), Vec::new(), name)
            .run(&graph, &RenderOptions::default(), &|_| {})
            .unwrap();
        let set = dir.path().join("all").join(name);
        let names = files_under(&alone);
        assert!(!names.is_empty());
        let relative = |root: &Path, files: BTreeSet<PathBuf>| -> Vec<PathBuf> {
            files
                .into_iter()
                .map(|f| f.strip_prefix(root).unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            relative(&alone, names.clone()),
            relative(&set, files_under(&set)),
            "{name}"
        );
        for file in names {
            let inside = set.join(file.strip_prefix(&alone).unwrap());
            assert!(
                std::fs::read(&file).unwrap() == std::fs::read(&inside).unwrap(),
                "{}",
                inside.display()
            );
        }
    }
    // A set that cannot be written (a file where its folder goes): nothing is.
    std::fs::write(dir.path().join("blocked"), "").unwrap();
    let failing = material(
        dir.path().join("fresh/unreal"),
        vec![(preset("gltf"), dir.path().join("blocked"))],
        "unreal",
    );
    assert!(
        failing
            .run(&graph, &RenderOptions::default(), &|_| {})
            .is_err()
    );
    assert!(!dir.path().join("fresh").exists());
}

/// Runs `request` a step at a time to the end; the steps taken.
fn run_in_steps(request: &ExportRequest, graph: &texgraph_core::Graph, band: u32) -> usize {
    let most = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = most.clone();
    let mut steps = request
        .steps(
            graph,
            &RenderOptions::default(),
            band,
            Box::new(move |rows| {
                seen.fetch_max(rows, std::sync::atomic::Ordering::Relaxed);
            }),
        )
        .unwrap();
    let mut taken = 1;
    while steps.step().unwrap().is_none() {
        taken += 1;
        assert!(taken < 10_000, "the steps end");
    }
    assert_eq!(
        most.load(std::sync::atomic::Ordering::Relaxed),
        request.rows()
    );
    taken
}

#[test]
fn a_still_done_a_band_a_step_writes_the_bytes_of_the_whole_run() {
    // Two outputs, one of them a normal map read from a plane (a streamed stage), in
    // bands of 7 rows (no tile's height), as PNG and float EXR.
    let dir = tempfile::tempdir().unwrap();
    let graph = example("marble_normal");
    let request = |folder: &str| {
        ExportRequest::Still(StillExport {
            files: vec![
                (
                    Some("basecolor".into()),
                    dir.path().join(folder).join("color.png"),
                ),
                (
                    Some("normal".into()),
                    dir.path().join(folder).join("normal.exr"),
                ),
            ],
            size: (120, 75),
            depth: None,
            region: None,
        })
    };
    let whole = request("whole");
    whole
        .run(&graph, &RenderOptions::default(), &|_| {})
        .unwrap();
    let stepped = request("stepped");
    assert_eq!(run_in_steps(&stepped, &graph, 7), 75_usize.div_ceil(7));
    for name in ["color.png", "normal.exr"] {
        let read = |folder: &str| std::fs::read(dir.path().join(folder).join(name)).unwrap();
        assert!(read("whole") == read("stepped"), "{name} differs");
    }
    // Any other request runs whole in its one step.
    let presets = built_in();
    let material = ExportRequest::Material(MaterialExport {
        preset: find(&presets, "gltf").unwrap().clone(),
        format: None,
        graph_name: "marble_normal".into(),
        folder: dir.path().join("set"),
        size: (32, 32),
        also: Vec::new(),
    });
    assert_eq!(run_in_steps(&material, &example("brick_wall"), 7), 1);
    assert!(!files_under(&dir.path().join("set")).is_empty());
}
