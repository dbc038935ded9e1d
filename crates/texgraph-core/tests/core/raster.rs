//! Raster stages and the nodes that need them, against analytic results: normal maps of
//! planes and cones, blur moments, exact image reads, edges of a step; and the stage
//! split, resolution independence and the cost model.

use crate::common;

use std::path::Path;

use texgraph_core::program::StageWork;
use texgraph_core::{Graph, Image, RenderOptions, compile, render};

/// A graph of `nodes` (JSON objects) whose output is node `out_of`.
fn graph(tileable: bool, nodes: &str, out_of: &str) -> Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }},
            "nodes": [ {nodes},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "{out_of}" }} }} ] }}"#
    ))
}

fn render_at(graph: &Graph, size: u32) -> Image {
    common::render_graph(graph, None, size, RenderOptions::default())
}

/// The unit normal of slope (gx, gy) at strength s, as the node documents it.
fn expected_normal(gx: f64, gy: f64, s: f64) -> [f64; 3] {
    let k = s / 10.0;
    let (nx, ny) = (-k * gx, k * gy);
    let len = (nx * nx + ny * ny + 1.0).sqrt();
    [nx / len, ny / len, 1.0 / len]
}

fn assert_color(image: &Image, col: u32, row: u32, rgb: [f64; 3], tolerance: f64) {
    for (ch, want) in rgb.iter().enumerate() {
        let got = f64::from(common::at(image, col, row, ch));
        assert!(
            (got - want).abs() <= tolerance,
            "pixel ({col}, {row}) channel {ch}: {got}, expected {want}"
        );
    }
}

#[test]
fn a_plane_tilted_along_u_has_one_constant_normal() {
    for (port, gx, gy) in [("u", 1.0, 0.0), ("v", 0.0, 1.0)] {
        let g = graph(
            false,
            &format!(
                r#"{{ "id": "c", "type": "coords" }},
                   {{ "id": "n", "type": "normal", "params": {{ "strength": 3 }}, "inputs": {{ "height": "c.{port}" }} }}"#
            ),
            "n",
        );
        let image = render_at(&g, 64);
        let n = expected_normal(gx, gy, 3.0);
        let rgb = n.map(|c| 0.5 + 0.5 * c);
        // Away from the clamped edges, where the one-sided difference is the same slope.
        for row in 0..64 {
            for col in 0..64 {
                assert_color(&image, col, row, rgb, 2e-6);
                assert_eq!(common::at(&image, col, row, 3), 1.0);
            }
        }
    }
}

#[test]
fn a_cone_has_radial_normals() {
    // Saw rings of frequency 1 about the centre: h = distance from (0.5, 0.5).
    let g = graph(
        false,
        r#"{ "id": "cone", "type": "wave", "params": { "kind": "rings", "profile": "saw", "frequency": 1 } },
           { "id": "n", "type": "normal", "params": { "strength": 5 }, "inputs": { "height": "cone" } }"#,
        "n",
    );
    let size = 128;
    let image = render_at(&g, size);
    for (col, row) in [(10, 64), (100, 20), (64, 120), (30, 33), (90, 90), (64, 5)] {
        let (u, v) = (
            (f64::from(col) + 0.5) / f64::from(size),
            (f64::from(row) + 0.5) / f64::from(size),
        );
        let r = ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt();
        let n = expected_normal((u - 0.5) / r, (v - 0.5) / r, 5.0);
        assert_color(&image, col, row, n.map(|c| 0.5 + 0.5 * c), 2e-3);
    }
}

#[test]
fn directx_flips_green_exactly() {
    let nodes = |format: &str| {
        format!(
            r#"{{ "id": "h", "type": "fbm", "params": {{ "frequency": 5 }} }},
               {{ "id": "n", "type": "normal", "params": {{ "format": "{format}" }}, "inputs": {{ "height": "h" }} }}"#
        )
    };
    let gl = render_at(&graph(true, &nodes("opengl"), "n"), 64);
    let dx = render_at(&graph(true, &nodes("directx"), "n"), 64);
    for (a, b) in gl.data.chunks_exact(4).zip(dx.data.chunks_exact(4)) {
        assert_eq!(a[0].to_bits(), b[0].to_bits());
        assert_eq!(b[1].to_bits(), (1.0 - a[1]).to_bits());
        assert_eq!(a[2].to_bits(), b[2].to_bits());
    }
    assert!(gl.data.chunks_exact(4).any(|px| (px[1] - 0.5).abs() > 0.05));
}

/// A `size`² image file, black but for one white texel at (x, y).
fn impulse_file(dir: &Path, size: u32, x: u32, y: u32) -> String {
    let mut pixels = image::GrayImage::new(size, size);
    pixels.put_pixel(x, y, image::Luma([255]));
    let path = dir.join("impulse.png");
    pixels.save(&path).unwrap();
    path.display().to_string()
}

fn blurred_file(path: &str, radius: f64, tileable: bool) -> Graph {
    let nodes = format!(
        r#"{{ "id": "img", "type": "image", "params": {{ "path": {path:?}, "filter": "nearest" }} }},
           {{ "id": "b", "type": "blur", "params": {{ "radius": {radius} }}, "inputs": {{ "input": "img" }} }}"#
    );
    graph(tileable, &nodes, "b")
}

#[test]
fn the_blur_of_an_impulse_is_symmetric_with_the_asked_variance() {
    let dir = tempfile::tempdir().unwrap();
    let size = 96;
    let path = impulse_file(dir.path(), size, 40, 53);
    for sigma_px in [0.7, 2.0, 5.5, 13.0] {
        let radius = sigma_px / f64::from(size);
        let image = render_at(&blurred_file(&path, radius, true), size);
        let value = |dx: i64, dy: i64| {
            let (x, y) = (
                (40 + dx).rem_euclid(96) as u32,
                (53 + dy).rem_euclid(96) as u32,
            );
            f64::from(common::at(&image, x, y, 0))
        };
        let (mut sum, mut var_x, mut var_y) = (0.0, 0.0, 0.0);
        for dy in -48..48 {
            for dx in -48..48 {
                let v = value(dx, dy);
                sum += v;
                var_x += v * (dx * dx) as f64;
                var_y += v * (dy * dy) as f64;
                // Mirror images of the impulse response match.
                assert!(
                    (v - value(-dx, dy)).abs() < 1e-6,
                    "asymmetric at ({dx}, {dy})"
                );
                assert!(
                    (v - value(dx, -dy)).abs() < 1e-6,
                    "asymmetric at ({dx}, {dy})"
                );
                assert!(
                    (v - value(dy, dx)).abs() < 1e-6,
                    "not isotropic at ({dx}, {dy})"
                );
            }
        }
        assert!((sum - 1.0).abs() < 1e-4, "sigma {sigma_px}: sum {sum}");
        // Three boxes of a third of the variance each: the response's variance is sigma².
        let want = sigma_px * sigma_px;
        assert!(
            (var_x - want).abs() < 0.01 * want,
            "sigma {sigma_px}: variance {var_x}"
        );
        assert!(
            (var_y - want).abs() < 0.01 * want,
            "sigma {sigma_px}: variance {var_y}"
        );
    }
}

#[test]
fn blur_keeps_a_constant_and_the_mean() {
    let constant = graph(
        false,
        r#"{ "id": "k", "type": "constant", "params": { "value": 0.37 } },
           { "id": "m", "type": "math", "params": { "op": "add", "b": 0 }, "inputs": { "a": "k" } },
           { "id": "b", "type": "blur", "params": { "radius": 0.07 }, "inputs": { "input": "m" } }"#,
        "b",
    );
    let flat = render_at(&constant, 80);
    assert!(flat.data.iter().all(|v| (v - 0.37).abs() < 1e-6));
    for radius in [0.003, 0.02, 0.2] {
        let nodes = format!(
            r#"{{ "id": "p", "type": "ridged", "params": {{ "frequency": 6 }} }},
               {{ "id": "b", "type": "blur", "params": {{ "radius": {radius} }}, "inputs": {{ "input": "p" }} }}"#
        );
        let sharp = render_at(&graph(true, &nodes, "p"), 128);
        let soft = render_at(&graph(true, &nodes, "b"), 128);
        let mean =
            |i: &Image| i.data.iter().map(|v| f64::from(*v)).sum::<f64>() / i.data.len() as f64;
        assert!(
            (mean(&sharp) - mean(&soft)).abs() < 1e-5,
            "radius {radius}: mean {} became {}",
            mean(&sharp),
            mean(&soft)
        );
        let spread = |i: &Image| {
            i.data.iter().fold(0.0f32, |m, v| m.max(*v))
                - i.data.iter().fold(1.0f32, |m, v| m.min(*v))
        };
        assert!(
            spread(&soft) < spread(&sharp),
            "radius {radius} did not smooth"
        );
    }
}

#[test]
fn an_image_read_nearest_at_its_own_size_is_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (37, 23);
    let eight = image::RgbaImage::from_fn(w, h, |x, y| {
        image::Rgba([
            (x * 7 % 256) as u8,
            (y * 11 % 256) as u8,
            ((x * y) % 256) as u8,
            200 + (x % 50) as u8,
        ])
    });
    let sixteen = image::ImageBuffer::<image::Rgba<u16>, Vec<u16>>::from_fn(w, h, |x, y| {
        image::Rgba([
            (x * 1771) as u16,
            (y * 2801) as u16,
            (x * y * 97) as u16,
            65535,
        ])
    });
    let p8 = dir.path().join("eight.png");
    let p16 = dir.path().join("sixteen.png");
    eight.save(&p8).unwrap();
    sixteen.save(&p16).unwrap();
    for (path, scale, expect) in [
        (
            &p8,
            255.0,
            eight
                .pixels()
                .flat_map(|p| p.0.map(u16::from))
                .collect::<Vec<_>>(),
        ),
        (
            &p16,
            65535.0,
            sixteen.pixels().flat_map(|p| p.0).collect::<Vec<_>>(),
        ),
    ] {
        for tileable in [false, true] {
            let nodes = format!(
                r#"{{ "id": "img", "type": "image", "params": {{ "path": {:?}, "filter": "nearest" }} }}"#,
                path.display().to_string()
            );
            let program = compile(&graph(tileable, &nodes, "img"), None).unwrap();
            let image = render(&program, w, h, RenderOptions::default(), &|_| {}).unwrap();
            for (got, want) in image.data.iter().zip(&expect) {
                assert_eq!(*got, f32::from(*want) / scale);
            }
        }
    }
}

#[test]
fn the_edges_of_a_step_are_a_line_at_the_step() {
    let g = graph(
        false,
        r#"{ "id": "c", "type": "coords" },
           { "id": "step", "type": "math", "params": { "op": "step", "b": 0.5 }, "inputs": { "a": "c.u" } },
           { "id": "e", "type": "edge_detect", "params": { "width": 0.03125, "threshold": 0.2 }, "inputs": { "input": "step" } }"#,
        "e",
    );
    let image = render_at(&g, 64);
    for row in 0..64 {
        for col in 0..64 {
            let v = common::at(&image, col, row, 0);
            // Taps two texels either side: the columns whose taps straddle the step (at
            // u = 0.5, between columns 31 and 32) see it.
            let want = if (30..=33).contains(&col) { 1.0 } else { 0.0 };
            assert_eq!(v, want, "column {col}, row {row}");
        }
    }
}

#[test]
fn small_and_large_renders_look_alike() {
    // A smooth height, blurred and normal-mapped: a 256² render and a 1024² render
    // box-averaged 4× differ only by the texel-scale detail the smaller one cannot hold.
    // Measured: blur 1.3e-4 at worst, normal 5.9e-3 (central differences one texel apart
    // are exact to O(texel²), so four times larger texels err more). The bounds: a quarter
    // of an 8-bit level for the blur, under three levels for the normals.
    let g = |out: &str| {
        graph(
            true,
            r#"{ "id": "h", "type": "fbm", "params": { "frequency": 3, "octaves": 4 } },
               { "id": "b", "type": "blur", "params": { "radius": 0.01 }, "inputs": { "input": "h" } },
               { "id": "n", "type": "normal", "params": { "strength": 2 }, "inputs": { "height": "h" } }"#,
            out,
        )
    };
    for (out, worst_allowed, mean_allowed) in [("b", 0.001, 0.0002), ("n", 0.01, 0.002)] {
        let small = render_at(&g(out), 256);
        let large = common::downsample(&render_at(&g(out), 1024), 4);
        let diffs: Vec<f32> = small
            .data
            .iter()
            .zip(&large.data)
            .map(|(a, b)| (a - b).abs())
            .collect();
        let worst = diffs.iter().fold(0.0f32, |m, d| m.max(*d));
        let mean = diffs.iter().sum::<f32>() / diffs.len() as f32;
        assert!(
            worst < worst_allowed && mean < mean_allowed,
            "{out}: worst {worst}, mean {mean}"
        );
    }
}

#[test]
fn stages_split_where_neighbours_are_read_and_planes_are_freed() {
    let g = graph(
        true,
        r#"{ "id": "h", "type": "fbm" },
           { "id": "b", "type": "blur", "params": { "radius": 0.02 }, "inputs": { "input": "h" } },
           { "id": "n", "type": "normal", "inputs": { "height": "b" } },
           { "id": "mix", "type": "blend", "params": { "mode": "multiply" }, "inputs": { "a": "n", "b": "h" } }"#,
        "mix",
    );
    let program = compile(&g, None).unwrap();
    let kinds: Vec<_> = program
        .stages
        .iter()
        .map(|s| (s.node.as_str(), matches!(s.work, StageWork::Blur { .. })))
        .collect();
    // h into a plane, its blur, the blur read back as a height plane, then the output.
    assert_eq!(
        kinds,
        [("h", false), ("b", true), ("b", false), ("out", false)]
    );
    let last = program.last_readers();
    assert_eq!(last, [Some(1), Some(2), Some(3)]);
    // Without neighbourhood nodes a graph stays one fused stage.
    let plain = compile(&common::example("marble"), None).unwrap();
    assert_eq!(plain.stages.len(), 1);
}

fn warp_chain(depth: usize, buffer_every: Option<usize>) -> Graph {
    let mut nodes =
        vec![r#"{ "id": "w0", "type": "perlin", "params": { "frequency": 3 } }"#.to_owned()];
    let mut previous = "w0".to_owned();
    for i in 1..=depth {
        nodes.push(format!(
            r#"{{ "id": "w{i}", "type": "warp", "params": {{ "strength": 0.05 }}, "inputs": {{ "source": "{previous}", "dx": "{previous}" }} }}"#
        ));
        previous = format!("w{i}");
        if buffer_every.is_some_and(|k| i % k == 0) {
            nodes.push(format!(
                r#"{{ "id": "b{i}", "type": "buffer", "inputs": {{ "input": "{previous}" }} }}"#
            ));
            previous = format!("b{i}");
        }
    }
    graph(true, &nodes.join(",\n"), &previous)
}

#[test]
fn a_fanning_warp_chain_is_refused_naming_where_a_buffer_goes() {
    let error = compile(&warp_chain(20, None), None).unwrap_err();
    let problem = &error.problems()[0];
    let node = problem.location.node.as_deref().unwrap();
    assert!(node.starts_with('w'), "{problem}");
    assert!(
        problem.message.contains("put a `buffer` node between"),
        "{problem}"
    );
    assert!(problem.message.contains("re-sampled by 'w"), "{problem}");
}

#[test]
fn a_buffered_warp_chain_renders() {
    let program = compile(&warp_chain(20, Some(2)), None).unwrap();
    assert_eq!(program.stages.len(), 11);
    let image = render(&program, 96, 96, RenderOptions::default(), &|_| {}).unwrap();
    assert!(
        image
            .data
            .iter()
            .all(|v| v.is_finite() && (-0.01..=1.01).contains(v))
    );
}

#[test]
fn raster_nodes_give_the_same_bits_for_any_threads_and_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let path = impulse_file(dir.path(), 50, 10, 20);
    for tileable in [false, true] {
        let g = common::everything_raster(&path, tileable);
        let one = common::render_graph(
            &g,
            None,
            101,
            RenderOptions {
                threads: Some(1),
                tile: [64, 64],
                cancel: None,
            },
        );
        for (threads, tile) in [(4, [64, 64]), (2, [17, 17]), (3, [5, 9]), (2, [300, 2])] {
            let other = common::render_graph(
                &g,
                None,
                101,
                RenderOptions {
                    threads: Some(threads),
                    tile,
                    cancel: None,
                },
            );
            assert!(
                common::same_bits(&one, &other),
                "tileable {tileable}: differs with {threads} threads and tile {tile:?}"
            );
        }
    }
}

#[test]
fn an_image_node_reads_a_radiance_hdr_file_as_linear_floats() {
    // Values above 1 stay above 1, as in an EXR: HDR files hold light, not 8-bit colors.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("light.hdr");
    let mut pixels = image::Rgb32FImage::new(4, 2);
    for (x, y, p) in pixels.enumerate_pixels_mut() {
        *p = image::Rgb([0.5 * (x + 1) as f32, 0.25 * (y + 1) as f32, 4.0]);
    }
    image::DynamicImage::ImageRgb32F(pixels)
        .save(&path)
        .unwrap();
    let g = common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [
            {{ "id": "img", "type": "image", "params": {{ "path": {:?}, "filter": "nearest" }} }},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "img" }} }} ] }}"#,
        path.display().to_string()
    ));
    let program = compile(&g, None).unwrap();
    let image = render(&program, 4, 2, RenderOptions::default(), &|_| {}).unwrap();
    for y in 0..2u32 {
        for x in 0..4u32 {
            // RGBE keeps 8 bits of mantissa per channel: these values are exact in it.
            assert_eq!(
                common::at(&image, x, y, 0),
                0.5 * (x + 1) as f32,
                "({x}, {y})"
            );
            assert_eq!(
                common::at(&image, x, y, 1),
                0.25 * (y + 1) as f32,
                "({x}, {y})"
            );
            assert_eq!(common::at(&image, x, y, 2), 4.0);
            assert_eq!(common::at(&image, x, y, 3), 1.0);
        }
    }
}
