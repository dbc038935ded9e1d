//! What an integer file cannot hold: every export path counts the samples it clamps, the
//! same count as the float render holds outside [0, 1], and float files clamp none.

use std::path::Path;

use texgraph_core::animation::Frames;
use texgraph_core::export::presets::{built_in, find};
use texgraph_core::export::streamed::export_in_bands;
use texgraph_core::export::{Clipping, Depth, ExportSettings, Exported};
use texgraph_core::{
    AnimationExport, ExportRequest, Graph, Image, MaterialExport, RenderOptions, StillExport,
    compile, render,
};

use crate::common;

/// A height ramp from -0.5 to 1.5 across the image: a quarter of it below 0 and a quarter
/// above 1, as a height scaled past its range is.
fn overshooting_height() -> Graph {
    common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "uv", "type": "coords" },
            { "id": "ramp", "type": "remap", "params": { "out_min": -0.5, "out_max": 1.5 }, "inputs": { "input": "uv.u" } },
            { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "ramp" } }
        ] }"#,
    )
}

/// The samples of `graph`'s render at `size` outside [0, 1], counted one by one.
fn outside(graph: &Graph, size: (u32, u32)) -> (u64, Image) {
    let program = compile(graph, None).unwrap();
    let image = render(&program, size.0, size.1, RenderOptions::default(), &|_| {}).unwrap();
    let mut count = 0;
    for &v in &image.data {
        if !(0.0..=1.0).contains(&v) {
            count += 1;
        }
    }
    (count, image)
}

fn still(graph: &Graph, path: &Path, size: (u32, u32), depth: Depth) -> Vec<Exported> {
    ExportRequest::Still(StillExport::to_file(
        graph,
        path,
        None,
        false,
        size,
        Some(depth),
    ))
    .run(graph, &RenderOptions::default(), &|_| {})
    .unwrap()
}

#[test]
fn a_still_counts_what_it_clamps_and_a_float_file_clamps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let graph = overshooting_height();
    let size = (40, 6);
    let (want, image) = outside(&graph, size);
    // u = (x + 0.5) / 40 maps to 2u - 0.5: below 0 for x < 10, above 1 for x >= 30.
    assert_eq!(want, 20 * 6, "the ramp overshoots on a quarter at each end");

    for (name, depth) in [("h.png", Depth::Sixteen), ("h8.png", Depth::Eight)] {
        let done = still(&graph, &dir.path().join(name), size, depth);
        assert_eq!(
            done[0].clipping,
            Clipping {
                clipped: want,
                samples: image.data.len() as u64
            },
            "{name}"
        );
        let warning = done[0].clip_warning().expect("a clamped file is warned of");
        assert!(
            warning.contains(name)
                && warning.contains("120 of 240 samples (50.0%)")
                && warning.contains(&format!("into {} bits", depth.bits())),
            "{warning}"
        );
    }
    // What was clamped is in the file clamped: the left columns 0, the right ones 65535.
    let png = image::open(dir.path().join("h.png")).unwrap().into_luma16();
    assert_eq!(png.get_pixel(0, 0).0[0], 0);
    assert_eq!(png.get_pixel(39, 5).0[0], 65535);

    let done = still(&graph, &dir.path().join("h.exr"), size, Depth::Float);
    assert_eq!(
        done[0].clipping.clipped, 0,
        "EXR holds the values as rendered"
    );
    assert_eq!(done[0].clip_warning(), None);

    let inside = common::example("marble");
    let done = still(&inside, &dir.path().join("m.png"), (32, 32), Depth::Sixteen);
    assert_eq!(done[0].clipping.clipped, 0, "marble stays within [0, 1]");
    assert_eq!(done[0].clip_warning(), None);
}

#[test]
fn bands_add_up_to_the_whole_count() {
    let dir = tempfile::tempdir().unwrap();
    let graph = overshooting_height();
    let size = (53, 37);
    let (want, _) = outside(&graph, size);
    for band in [1, 5, 37] {
        let settings = ExportSettings {
            width: size.0,
            height: size.1,
            depth: Depth::Sixteen,
            output: None,
            options: RenderOptions::default(),
        };
        let path = dir.path().join(format!("band{band}.png"));
        let done = export_in_bands(&graph, &[(settings, path)], None, Some(band), &|_| {}).unwrap();
        assert_eq!(done[0].clipping.clipped, want, "bands of {band} rows");
        assert_eq!(done[0].clipping.samples, u64::from(size.0 * size.1));
    }
}

#[test]
fn animations_and_material_sets_count_what_they_clamp() {
    let dir = tempfile::tempdir().unwrap();
    let graph = overshooting_height();
    let size = (24, 8);
    let (per_frame, _) = outside(&graph, size);

    let gif = dir.path().join("h.gif");
    let frames = Frames::new(0, 3, 24.0).unwrap();
    let count = frames.count() as u64;
    assert!(count > 1);
    let done = ExportRequest::Animation(AnimationExport {
        frames,
        out: gif,
        sheet: None,
        output: None,
        size,
        depth: None,
    })
    .run(&graph, &RenderOptions::default(), &|_| {})
    .unwrap();
    assert_eq!(
        done[0].clipping,
        Clipping {
            clipped: count * per_frame,
            samples: count * u64::from(size.0 * size.1)
        },
        "every frame of a GIF counts"
    );

    let presets = built_in();
    let maps = dir.path().join("maps");
    let done = ExportRequest::Material(MaterialExport {
        preset: find(&presets, "unreal").unwrap().clone(),
        format: None,
        graph_name: "h".into(),
        folder: maps,
        size,
        also: Vec::new(),
    })
    .run(&graph, &RenderOptions::default(), &|_| {})
    .unwrap();
    let height = done
        .iter()
        .find(|d| d.path.ends_with("T_h_H.png"))
        .unwrap_or_else(|| panic!("a height file in {done:?}"));
    assert_eq!(
        height.clipping.clipped,
        per_frame,
        "{}",
        height.path.display()
    );
}

#[test]
fn no_example_clamps_in_an_integer_file() {
    for (name, graph) in common::examples() {
        for output in texgraph_core::output_names(&graph) {
            let image = common::render_graph(&graph, Some(&output), 96, RenderOptions::default());
            let clipping = Clipping::of(&image, Depth::Sixteen);
            assert_eq!(clipping.clipped, 0, "{name}/{output}: {clipping:?}");
        }
    }
}
