//! The shared "graph to file" path and cancellation of renders.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use texgraph_core::export::{
    Depth, ExportSettings, Format, default_image_name, encode_to_vec, export_graph, output_paths,
};
use texgraph_core::{Error, RenderOptions, compile, render};

const PRECIOUS: &[u8] = b"an image the user already has";

fn settings(size: u32, depth: Depth, options: RenderOptions) -> ExportSettings {
    ExportSettings {
        width: size,
        height: size,
        depth,
        output: None,
        options,
    }
}

fn raised() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(true))
}

#[test]
fn a_cancelled_render_returns_cancelled_and_writes_nothing() {
    let marble = common::example("marble");
    let program = compile(&marble, None).unwrap();
    let options = RenderOptions {
        cancel: Some(raised()),
        ..RenderOptions::default()
    };
    let calls = AtomicU32::new(0);
    let result = render(&program, 64, 64, options.clone(), &|_| {
        calls.fetch_add(1, Ordering::Relaxed);
    });
    assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    assert_eq!(calls.load(Ordering::Relaxed), 0, "no band should run");

    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("out.png");
    std::fs::write(&existing, PRECIOUS).unwrap();
    let fresh = dir.path().join("new.png");
    for path in [&existing, &fresh] {
        let result = export_graph(
            &marble,
            &settings(64, Depth::Eight, options.clone()),
            path,
            &|_| {},
        );
        assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    }
    assert_eq!(std::fs::read(&existing).unwrap(), PRECIOUS);
    assert_eq!(common::dir_entries(dir.path()), ["out.png"]);
}

#[test]
fn a_flag_raised_after_the_first_band_stops_the_render() {
    let marble = common::example("marble");
    let program = compile(&marble, None).unwrap();
    // 8 bands of 16 rows, on one thread: band 0 runs first, then every later band sees
    // the flag.
    let cancel = Arc::new(AtomicBool::new(false));
    let options = RenderOptions {
        threads: Some(1),
        tile: [16, 16],
        cancel: Some(cancel.clone()),
    };
    let reports = std::sync::Mutex::new(Vec::new());
    let progress = |rows: u32| {
        reports.lock().unwrap().push(rows);
        cancel.store(true, Ordering::Relaxed);
    };
    let result = render(&program, 64, 128, options.clone(), &progress);
    assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    assert_eq!(*reports.lock().unwrap(), [16], "only the first band ran");

    // The same through export_graph: no file appears.
    cancel.store(false, Ordering::Relaxed);
    reports.lock().unwrap().clear();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marble.png");
    let mut wide = settings(64, Depth::Eight, options);
    wide.height = 128;
    let result = export_graph(&marble, &wide, &path, &progress);
    assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
    assert_eq!(*reports.lock().unwrap(), [16]);
    assert!(common::dir_entries(dir.path()).is_empty());
}

#[test]
fn an_unraised_flag_changes_nothing() {
    let marble = common::example("marble");
    let plain = common::render_graph(&marble, None, 96, RenderOptions::default());
    let with_flag = common::render_graph(
        &marble,
        None,
        96,
        RenderOptions {
            threads: Some(2),
            tile: [16, 16],
            cancel: Some(Arc::new(AtomicBool::new(false))),
        },
    );
    assert_eq!(plain, with_flag);
}

#[test]
fn export_writes_the_bytes_of_render_and_encode() {
    let marble = common::example("marble");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marble.png");
    let last = AtomicU32::new(0);
    let exported = export_graph(
        &marble,
        &settings(64, Depth::Eight, RenderOptions::default()),
        &path,
        &|rows| {
            last.fetch_max(rows, Ordering::Relaxed);
        },
    )
    .unwrap();
    assert_eq!(
        last.load(Ordering::Relaxed),
        64,
        "progress reaches every row"
    );
    assert_eq!(exported.path, path);
    assert_eq!((exported.width, exported.height), (64, 64));
    assert_eq!(exported.channels, 4);
    assert_eq!(exported.depth, Depth::Eight);
    assert!(exported.seconds >= 0.0);

    let program = compile(&marble, None).unwrap();
    let image = render(&program, 64, 64, RenderOptions::default(), &|_| {}).unwrap();
    let expected = encode_to_vec(
        &image,
        Format::Png,
        Depth::Eight,
        texgraph_core::usage::Encoding::AsRendered,
    )
    .unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), expected);
    assert_eq!(common::dir_entries(dir.path()), ["marble.png"]);
}

#[test]
fn export_renders_the_named_output() {
    let terrain = common::example("terrain");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.exr");
    let mut height = settings(32, Depth::Float, RenderOptions::default());
    height.output = Some("height".to_owned());
    let exported = export_graph(&terrain, &height, &path, &|_| {}).unwrap();
    assert_eq!(exported.channels, 1);
    let expected = common::render_graph(&terrain, Some("height"), 32, RenderOptions::default());
    assert_eq!(texgraph_core::export::read_exr(&path).unwrap(), expected);

    height.output = Some("ghost".to_owned());
    let result = export_graph(&terrain, &height, &dir.path().join("g.exr"), &|_| {});
    assert!(matches!(result, Err(Error::Invalid(_))), "{result:?}");
    assert_eq!(common::dir_entries(dir.path()), ["h.exr"]);
}

#[test]
fn output_paths_suffix_each_output_name() {
    let terrain = common::example("terrain");
    let expected = |names: [&str; 2]| -> Vec<(String, PathBuf)> {
        vec![
            ("height".to_owned(), PathBuf::from(names[0])),
            ("color".to_owned(), PathBuf::from(names[1])),
        ]
    };
    assert_eq!(
        output_paths(&terrain, Path::new("renders/t.png")),
        expected(["renders/t_height.png", "renders/t_color.png"])
    );
    assert_eq!(
        output_paths(&terrain, Path::new("t.v2.exr")),
        expected(["t.v2_height.exr", "t.v2_color.exr"])
    );
    assert_eq!(
        output_paths(&terrain, Path::new("out")),
        expected(["out_height", "out_color"])
    );
    let marble = common::example("marble");
    assert_eq!(
        output_paths(&marble, Path::new("m.png")),
        [("basecolor".to_owned(), PathBuf::from("m_basecolor.png"))]
    );
}

#[test]
fn default_image_names_come_from_the_graph_or_its_file() {
    let mut graph = common::example("marble");
    let file = Path::new("graphs/some file.json");
    assert_eq!(
        default_image_name(&graph, Some(file)),
        Path::new("marble.png")
    );
    graph.name = Some("My marble/v2.final".to_owned());
    assert_eq!(
        default_image_name(&graph, None),
        Path::new("My_marble_v2_final.png")
    );
    graph.name = Some("  ".to_owned());
    assert_eq!(
        default_image_name(&graph, Some(file)),
        Path::new("some_file.png")
    );
    graph.name = None;
    assert_eq!(
        default_image_name(&graph, Some(Path::new("wood-2.json"))),
        Path::new("wood-2.png")
    );
    assert_eq!(default_image_name(&graph, None), Path::new("texture.png"));
}

#[test]
fn a_depth_the_format_cannot_hold_is_refused_before_rendering() {
    let marble = common::example("marble");
    let dir = tempfile::tempdir().unwrap();
    let calls = AtomicU32::new(0);
    let progress = |_| {
        calls.fetch_add(1, Ordering::Relaxed);
    };
    for (file, depth) in [
        ("a.png", Depth::Float),
        ("b.exr", Depth::Eight),
        ("c.exr", Depth::Sixteen),
    ] {
        let path = dir.path().join(file);
        let result = export_graph(
            &marble,
            &settings(64, depth, RenderOptions::default()),
            &path,
            &progress,
        );
        let Err(error @ Error::Export { .. }) = result else {
            panic!("{file} at {depth:?}: {result:?}");
        };
        let bits = format!("cannot hold {}-bit samples", depth.bits());
        assert!(error.to_string().contains(&bits), "{error}");
    }
    let result = export_graph(
        &marble,
        &settings(64, Depth::Eight, RenderOptions::default()),
        &dir.path().join("d.jpeg"),
        &progress,
    );
    assert!(matches!(result, Err(Error::Export { .. })), "{result:?}");
    assert_eq!(calls.load(Ordering::Relaxed), 0, "nothing was rendered");
    assert!(common::dir_entries(dir.path()).is_empty());
}

#[cfg(target_os = "linux")]
#[test]
fn an_image_larger_than_memory_is_refused_before_rendering() {
    let marble = common::example("marble");
    let dir = tempfile::tempdir().unwrap();
    let huge = settings(1_000_000, Depth::Eight, RenderOptions::default());
    let result = export_graph(&marble, &huge, &dir.path().join("huge.png"), &|_| {
        panic!("rendering started")
    });
    let Err(Error::Render(message)) = result else {
        panic!("{result:?}");
    };
    assert!(
        message.starts_with("a 1000000x1000000 image on ")
            && message.contains(" needs about ")
            && message.ends_with("GiB of memory is available to this process"),
        "{message}"
    );
    assert!(common::dir_entries(dir.path()).is_empty());
}

#[test]
fn a_raw_heightmap_holds_each_height_in_sixteen_bits_little_endian() {
    let terrain = common::example("terrain");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("height.r16");
    let mut height = settings(48, Depth::Sixteen, RenderOptions::default());
    height.height = 32;
    height.output = Some("height".to_owned());
    let exported = export_graph(&terrain, &height, &path, &|_| {}).unwrap();
    assert_eq!(
        (exported.width, exported.height, exported.channels),
        (48, 32, 1)
    );
    let program = compile(&terrain, Some("height")).unwrap();
    let image = render(&program, 48, 32, RenderOptions::default(), &|_| {}).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), 48 * 32 * 2, "no header, two bytes a pixel");
    let words: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let expected: Vec<u16> = image
        .data
        .iter()
        .map(|v| (f64::from(v.clamp(0.0, 1.0)) * 65535.0).round() as u16)
        .collect();
    assert_eq!(words, expected);
    assert!(
        words.iter().any(|&w| w > 1000),
        "the heights are not all dark"
    );
    // Read back and written again, the same bytes.
    let again = texgraph_core::Image {
        width: 48,
        height: 32,
        channels: 1,
        data: words.iter().map(|&w| f32::from(w) / 65535.0).collect(),
    };
    let rewritten = encode_to_vec(
        &again,
        Format::Raw,
        Depth::Sixteen,
        texgraph_core::usage::Encoding::AsRendered,
    )
    .unwrap();
    assert_eq!(rewritten, bytes);
    assert_eq!(Format::parse("raw"), Some(Format::Raw));
    assert!(!Format::Raw.supports(Depth::Eight));
}
