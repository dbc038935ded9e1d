//! Streamed and regional renders: bands and regions of a render are the same bits as the
//! matching part of the whole render, whatever the cut, for planes held as windows of
//! rows and planes computed whole alike.

use texgraph_core::eval::stream::{Bands, Region, render_region};
use texgraph_core::export::streamed::{
    export_in_bands, export_streamed, graph_hash, parse_region_note,
};
use texgraph_core::export::{Depth, ExportSettings, export_all};
use texgraph_core::{Graph, Image, RenderOptions, compile, render};

use crate::common;

/// Per-pixel stages that read their inputs near the pixel, chained: a half-size buffer's
/// normal map, a slope blur of it, occlusion, curvature of a normal map, emboss, edge
/// detection and sharpening.
fn near_chain(tileable: bool) -> Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
           {{ "id": "h", "type": "fbm", "params": {{ "frequency": 3.3, "octaves": 4 }} }},
           {{ "id": "hb", "type": "buffer", "params": {{ "scale": "half" }}, "inputs": {{ "input": "h" }} }},
           {{ "id": "nm", "type": "normal", "inputs": {{ "height": "hb" }} }},
           {{ "id": "sb", "type": "slope_blur", "params": {{ "distance": 0.05 }}, "inputs": {{ "input": "nm", "slope": "h" }} }},
           {{ "id": "ao", "type": "ambient_occlusion", "params": {{ "radius": 0.06 }}, "inputs": {{ "height": "h" }} }},
           {{ "id": "cv", "type": "curvature", "params": {{ "source": "normal", "radius": 0.02 }}, "inputs": {{ "height": "sb" }} }},
           {{ "id": "em", "type": "emboss", "inputs": {{ "height": "h" }} }},
           {{ "id": "ed", "type": "edge_detect", "params": {{ "width": 0.01, "threshold": 0.02 }}, "inputs": {{ "input": "em" }} }},
           {{ "id": "sh", "type": "sharpen", "params": {{ "radius": 0.01 }}, "inputs": {{ "input": "h" }} }},
           {{ "id": "m1", "type": "blend", "params": {{ "mode": "overlay" }}, "inputs": {{ "a": "sb", "b": "ao" }} }},
           {{ "id": "m2", "type": "blend", "params": {{ "mode": "multiply" }}, "inputs": {{ "a": "m1", "b": "cv", "mask": "ed" }} }},
           {{ "id": "all", "type": "blend", "params": {{ "mode": "screen" }}, "inputs": {{ "a": "m2", "b": "sh" }} }},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "all" }} }} ] }}"#
    ))
}

fn options(threads: usize, tile: [usize; 2]) -> RenderOptions {
    RenderOptions {
        threads: Some(threads),
        tile,
        cancel: None,
    }
}

/// The rectangle `region` of `image`.
fn crop(image: &Image, region: Region) -> Image {
    let c = image.channels;
    let mut data = Vec::new();
    for row in region.y..region.y + region.height {
        let start = (row as usize * image.width as usize + region.x as usize) * c;
        data.extend_from_slice(&image.data[start..start + region.width as usize * c]);
    }
    Image {
        width: region.width,
        height: region.height,
        channels: c,
        data,
    }
}

/// Cuts `0..len` at `cuts` (sorted, inside).
fn spans(len: u32, cuts: &[u32]) -> Vec<(u32, u32)> {
    let mut edges = vec![0];
    edges.extend_from_slice(cuts);
    edges.push(len);
    edges.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
}

/// Checks that regions on a grid cut at `xs` and `ys`, and bands of `band` rows, are the
/// same bits as the whole render.
fn check_cuts(graph: &Graph, name: &str, (w, h): (u32, u32), xs: &[u32], ys: &[u32], band: u32) {
    let program = compile(graph, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    let whole = render(&program, w, h, options(2, [32, 8]), &|_| {}).expect("render");
    for (y, height) in spans(h, ys) {
        for (x, width) in spans(w, xs) {
            let region = Region {
                x,
                y,
                width,
                height,
            };
            let part = render_region(&program, w, h, region, options(3, [16, 5]), &|_| {})
                .expect("region");
            assert!(
                common::same_bits(&part, &crop(&whole, region)),
                "{name}: region {region:?} of {w}x{h} differs from the whole render"
            );
        }
    }
    let mut bands = Bands::new(
        &program,
        w,
        h,
        Region::whole(w, h),
        options(2, [128, 32]),
        &|_| {},
    )
    .unwrap();
    let mut row = 0;
    while row < h {
        let end = (row + band).min(h);
        let part = bands.render(row..end).expect("band");
        let region = Region {
            x: 0,
            y: row,
            width: w,
            height: end - row,
        };
        assert!(
            common::same_bits(&part, &crop(&whole, region)),
            "{name}: band {row}..{end} of {w}x{h} differs from the whole render"
        );
        row = end;
    }
}

#[test]
fn the_near_chain_streams_its_planes() {
    let program = compile(&near_chain(true), None).unwrap();
    let streamed = program.streamed_planes();
    assert!(
        streamed.iter().filter(|s| **s).count() >= 5,
        "{streamed:?}: the test graph must hold most planes as windows"
    );
    // So are blurs, a blur of a blur and what they read.
    let program = compile(&blur_chain(false), None).unwrap();
    let streamed = program.streamed_planes();
    let blurs = program
        .stages
        .iter()
        .filter(|s| matches!(s.work, texgraph_core::program::StageWork::Blur { .. }))
        .filter_map(|s| s.target)
        .collect::<Vec<_>>();
    assert_eq!(blurs.len(), 3, "the test graph blurs three planes");
    assert!(
        streamed.iter().all(|s| *s),
        "{streamed:?}: every plane of the blur chain is a window"
    );
}

/// Blurs chained with near stages: a blur of noise, a normal map of it, a wide blur of
/// the normal map and a narrow one of the first blur, blended.
fn blur_chain(tileable: bool) -> Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
           {{ "id": "h", "type": "fbm", "params": {{ "frequency": 6.1, "octaves": 3 }} }},
           {{ "id": "b1", "type": "blur", "params": {{ "radius": 0.02 }}, "inputs": {{ "input": "h" }} }},
           {{ "id": "nm", "type": "normal", "inputs": {{ "height": "b1" }} }},
           {{ "id": "b2", "type": "blur", "params": {{ "radius": 0.09 }}, "inputs": {{ "input": "nm" }} }},
           {{ "id": "b3", "type": "blur", "params": {{ "radius": 0.005 }}, "inputs": {{ "input": "b1" }} }},
           {{ "id": "ed", "type": "edge_detect", "params": {{ "width": 0.01, "threshold": 0.02 }}, "inputs": {{ "input": "b3" }} }},
           {{ "id": "m", "type": "blend", "params": {{ "mode": "overlay" }}, "inputs": {{ "a": "b2", "b": "h", "mask": "ed" }} }},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "m" }} }} ] }}"#
    ))
}

#[test]
fn regions_and_bands_of_blurs_equal_the_whole_render() {
    for tileable in [false, true] {
        let graph = blur_chain(tileable);
        let name = format!("blur chain, tileable {tileable}");
        // Tall enough for several blocks of the blurs' restarts, cut off their rows.
        check_cuts(&graph, &name, (61, 437), &[29], &[1, 130, 131, 400], 7);
        check_cuts(&graph, &name, (40, 650), &[], &[64, 333], 45);
    }
}

#[test]
fn regions_and_bands_of_near_stages_equal_the_whole_render() {
    for tileable in [false, true] {
        let graph = near_chain(tileable);
        let name = format!("near chain, tileable {tileable}");
        check_cuts(&graph, &name, (101, 77), &[13, 60], &[1, 40, 41], 7);
        check_cuts(&graph, &name, (64, 150), &[63], &[75], 33);
    }
}

#[test]
fn regions_of_whole_plane_stages_equal_the_whole_render() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.png");
    image::RgbaImage::from_fn(9, 7, |x, y| {
        image::Rgba([(x * 28) as u8, (y * 36) as u8, 90, 255])
    })
    .save(&path)
    .unwrap();
    for tileable in [false, true] {
        let graph = common::everything_raster(&path.display().to_string(), tileable);
        check_cuts(&graph, "everything raster", (90, 70), &[31], &[20, 69], 16);
    }
}

#[test]
fn regions_of_every_example_equal_the_whole_render() {
    for (name, graph) in common::examples() {
        check_cuts(&graph, &name, (72, 56), &[29], &[17], 24);
    }
}

/// Export settings of `output` at `size` and `depth`.
fn settings(size: (u32, u32), depth: Depth, output: Option<&str>) -> ExportSettings {
    ExportSettings {
        width: size.0,
        height: size.1,
        depth,
        output: output.map(str::to_owned),
        options: options(2, [128, 32]),
    }
}

#[test]
fn streamed_files_are_the_bytes_of_in_memory_files() {
    let dir = tempfile::tempdir().unwrap();
    let formats = [
        ("png", Depth::Eight),
        ("png", Depth::Sixteen),
        ("tif", Depth::Eight),
        ("tif", Depth::Sixteen),
        ("tif", Depth::Float),
        ("exr", Depth::Float),
    ];
    // Every raster stage (a distance and a flood fill whole, a blur, a normal map and a
    // slope blur among them), the near chain, chained blurs and eroded terrain's slope
    // blurs (streamed planes), and several outputs of every usage together (brick wall).
    let image = dir.path().join("i.png");
    image::RgbaImage::from_fn(9, 7, |x, y| {
        image::Rgba([(x * 28) as u8, (y * 36) as u8, 90, 255])
    })
    .save(&image)
    .unwrap();
    let graphs = [
        (
            "raster",
            common::everything_raster(&image.display().to_string(), true),
        ),
        ("near", near_chain(true)),
        ("blurs", blur_chain(false)),
        ("terrain", common::example("eroded_terrain")),
        ("bricks", common::example("brick_wall")),
    ];
    for (name, graph) in &graphs {
        let outputs = texgraph_core::output_names(graph);
        for (ext, depth) in formats {
            let size = (97, 75);
            let jobs = |tag: &str| -> Vec<(ExportSettings, std::path::PathBuf)> {
                outputs
                    .iter()
                    .map(|o| {
                        let path = dir.path().join(format!("{name}_{o}_{tag}.{ext}"));
                        (settings(size, depth, Some(o)), path)
                    })
                    .collect()
            };
            let whole = jobs("whole");
            export_all(graph, &whole, &|_| {}).unwrap();
            for band in [Some(16), Some(75), None] {
                let streamed = jobs(&format!("band{band:?}"));
                export_in_bands(graph, &streamed, None, band, &|_| {}).unwrap();
                for ((_, a), (_, b)) in whole.iter().zip(&streamed) {
                    assert!(
                        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
                        "{name} {ext} {depth:?} in bands of {band:?}: {} and {} differ",
                        a.display(),
                        b.display()
                    );
                }
            }
        }
    }
}

#[test]
fn a_region_file_holds_the_region_and_says_where_it_belongs() {
    let dir = tempfile::tempdir().unwrap();
    let graph = near_chain(false);
    let program = compile(&graph, None).unwrap();
    let whole = render(&program, 90, 70, options(2, [32, 8]), &|_| {}).unwrap();
    let region = Region {
        x: 31,
        y: 17,
        width: 40,
        height: 53,
    };
    let path = dir.path().join("part.exr");
    let job = [(settings((90, 70), Depth::Float, None), path.clone())];
    export_in_bands(&graph, &job, Some(region), Some(10), &|_| {}).unwrap();
    let part = texgraph_core::export::read_exr(&path).unwrap();
    assert!(common::same_bits(&part, &crop(&whole, region)));
    let bytes = std::fs::read(&path).unwrap();
    let note = format!(
        "region 31,17,40,53 of 90x70; graph {:016x}; output {}",
        graph_hash(&graph),
        program.output().name
    );
    assert!(
        bytes.windows(note.len()).any(|w| w == note.as_bytes()),
        "the EXR carries its region's note"
    );
    assert_eq!(
        parse_region_note(&note),
        Some((
            region,
            (90, 70),
            graph_hash(&graph),
            program.output().name.clone()
        ))
    );
    // Outside the image, or empty: refused, nothing written.
    for bad in [
        Region {
            x: 60,
            y: 0,
            width: 31,
            height: 5,
        },
        Region {
            x: 0,
            y: 0,
            width: 0,
            height: 5,
        },
    ] {
        let path = dir.path().join("bad.png");
        let job = [(settings((90, 70), Depth::Eight, None), path.clone())];
        let error = export_streamed(&graph, &job, Some(bad), &|_| {}).unwrap_err();
        assert!(
            error.to_string().contains("not inside the 90x70 image"),
            "{error}"
        );
        assert!(!path.exists());
    }
}

#[test]
fn quantizing_rounds_as_round_does() {
    use texgraph_core::export::quantize;
    // Every 37th float of [0, 1], the halves and their neighbours, and what clamps.
    let mut values: Vec<f32> = (0..=1.0f32.to_bits())
        .step_by(37)
        .map(f32::from_bits)
        .collect();
    for scale in [255.0f32, 65535.0] {
        for k in 0..scale as u32 {
            let half = (k as f32 + 0.5) / scale;
            values.extend([
                half,
                f32::from_bits(half.to_bits() - 1),
                f32::from_bits(half.to_bits() + 1),
            ]);
        }
    }
    values.extend([
        -0.0,
        -1.0,
        2.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0,
    ]);
    for scale in [255.0f32, 65535.0] {
        for &v in &values {
            // The integers written.
            let expected = (v.clamp(0.0, 1.0) * scale).round() as u16;
            let got = quantize(v, scale) as u16;
            assert_eq!(got, expected, "{v:e} × {scale}");
        }
    }
}
