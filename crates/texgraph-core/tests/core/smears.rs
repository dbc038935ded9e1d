//! The blurs, warps and tiling of the tile-material toolkit against independent code:
//! a directional blur against bilinear reads averaged here, a non-uniform blur at its
//! levels against the uniform blur, a directional warp against its formula, and
//! make-it-tile's seams and untouched centre.

use texgraph_core::{Image, RenderOptions, compile_node, render};

use super::common;

/// Renders node `node` of a graph of `nodes` (JSON array items) at `w`×`h`.
fn render_nodes(tileable: bool, nodes: &str, node: &str, w: u32, h: u32) -> Image {
    let graph = common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [ {nodes},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "{node}" }} }} ] }}"#
    ));
    let program = compile_node(&graph, node, None).unwrap_or_else(|e| panic!("compile: {e}"));
    render(&program, w, h, RenderOptions::default(), &|_| {}).expect("render")
}

/// Bilinear read of channel 0 of `image` at (u, v): texel centres at (i + 0.5)/size,
/// wrapping or clamping.
fn bilinear(image: &Image, u: f64, v: f64, wrap: bool) -> f64 {
    let (w, h) = (image.width as i64, image.height as i64);
    let (x, y) = (u * w as f64 - 0.5, v * h as f64 - 0.5);
    let (x0, y0) = (x.floor(), y.floor());
    let (tx, ty) = (x - x0, y - y0);
    let texel = |i: i64, j: i64| {
        let (i, j) = if wrap {
            (i.rem_euclid(w), j.rem_euclid(h))
        } else {
            (i.clamp(0, w - 1), j.clamp(0, h - 1))
        };
        f64::from(image.data[(j * w + i) as usize * image.channels])
    };
    let (x0, y0) = (x0 as i64, y0 as i64);
    let top = texel(x0, y0) * (1.0 - tx) + texel(x0 + 1, y0) * tx;
    let bottom = texel(x0, y0 + 1) * (1.0 - tx) + texel(x0 + 1, y0 + 1) * tx;
    top * (1.0 - ty) + bottom * ty
}

const NOISE: &str = r#"{ "id": "n", "type": "fbm", "params": { "frequency": 4, "octaves": 4 } }"#;

#[test]
fn a_directional_blur_averages_reads_along_its_segment() {
    let (w, h) = (64u32, 48u32);
    for tileable in [false, true] {
        for (angle, distance, samples) in [(0.0, 0.1, 8), (30.0, 0.2, 16), (-120.0, 0.05, 5)] {
            let nodes = format!(
                r#"{NOISE}, {{ "id": "d", "type": "directional_blur", "params": {{ "angle": {angle}, "distance": {distance}, "samples": {samples} }}, "inputs": {{ "input": "n" }} }}"#
            );
            let input = render_nodes(tileable, &nodes, "n", w, h);
            let out = render_nodes(tileable, &nodes, "d", w, h);
            let a = f64::to_radians(angle);
            for y in 0..h {
                for x in 0..w {
                    let (u, v) = ((x as f64 + 0.5) / w as f64, (y as f64 + 0.5) / h as f64);
                    let sum: f64 = (0..samples)
                        .map(|i| {
                            let t = i as f64 / (samples - 1) as f64 - 0.5;
                            let (du, dv) = (t * distance * a.cos(), -t * distance * a.sin());
                            bilinear(&input, u + du, v + dv, tileable)
                        })
                        .sum();
                    let expected = sum / samples as f64;
                    let got = f64::from(common::at(&out, x, y, 0));
                    assert!(
                        (got - expected).abs() < 2e-4,
                        "angle {angle} at ({x}, {y}): {got} against {expected}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_non_uniform_blur_at_its_levels_is_the_uniform_blur() {
    let radius = 0.06f32;
    for (share, level) in [(0.0f32, 0.0f32), (1.0 / 3.0, radius / 3.0), (1.0, radius)] {
        let nodes = format!(
            r#"{NOISE}, {{ "id": "k", "type": "constant", "params": {{ "value": {share} }} }},
               {{ "id": "nb", "type": "non_uniform_blur", "params": {{ "radius": {radius} }}, "inputs": {{ "input": "n", "radius_map": "k" }} }},
               {{ "id": "b", "type": "blur", "params": {{ "radius": {level} }}, "inputs": {{ "input": "n" }} }}"#
        );
        let non_uniform = render_nodes(true, &nodes, "nb", 64, 64);
        let uniform = render_nodes(true, &nodes, "b", 64, 64);
        let worst = non_uniform
            .data
            .iter()
            .zip(&uniform.data)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-6, "share {share}: differs by {worst}");
    }
    // Between levels, between their blurs.
    let nodes = format!(
        r#"{NOISE}, {{ "id": "k", "type": "constant", "params": {{ "value": 0.5 }} }},
           {{ "id": "nb", "type": "non_uniform_blur", "params": {{ "radius": {radius} }}, "inputs": {{ "input": "n", "radius_map": "k" }} }},
           {{ "id": "b1", "type": "blur", "params": {{ "radius": {} }}, "inputs": {{ "input": "n" }} }},
           {{ "id": "b2", "type": "blur", "params": {{ "radius": {} }}, "inputs": {{ "input": "n" }} }}"#,
        radius / 3.0,
        2.0 * radius / 3.0
    );
    let mid = render_nodes(true, &nodes, "nb", 64, 64);
    let (b1, b2) = (
        render_nodes(true, &nodes, "b1", 64, 64),
        render_nodes(true, &nodes, "b2", 64, 64),
    );
    for i in 0..mid.data.len() {
        let expected = 0.5 * (b1.data[i] + b2.data[i]);
        assert!((mid.data[i] - expected).abs() < 1e-5, "texel {i}");
    }
}

#[test]
fn a_directional_warp_reads_along_its_direction() {
    // The input is the u coordinate, so the result is the position read.
    let nodes = r#"{ "id": "uv", "type": "coords" }, { "id": "n", "type": "fbm", "params": { "frequency": 3 } },
        { "id": "dw", "type": "directional_warp", "params": { "angle": 0, "intensity": 0.2 }, "inputs": { "input": "uv.u", "intensity_map": "n" } },
        { "id": "up", "type": "directional_warp", "params": { "angle": 90, "intensity": 0.2 }, "inputs": { "input": "uv.v", "intensity_map": "n" } }"#;
    let (w, h) = (40u32, 30u32);
    let map = render_nodes(false, nodes, "n", w, h);
    let across = render_nodes(false, nodes, "dw", w, h);
    let up = render_nodes(false, nodes, "up", w, h);
    for y in 0..h {
        for x in 0..w {
            let m = f64::from(common::at(&map, x, y, 0));
            let (u, v) = ((x as f64 + 0.5) / w as f64, (y as f64 + 0.5) / h as f64);
            let got = f64::from(common::at(&across, x, y, 0));
            assert!((got - (u + 0.2 * m)).abs() < 1e-5, "({x}, {y}) {got}");
            // 90° reads towards the top: v decreases.
            let got = f64::from(common::at(&up, x, y, 0));
            assert!((got - (v - 0.2 * m)).abs() < 1e-5, "({x}, {y}) {got}");
        }
    }
}

#[test]
fn make_it_tile_is_seamless_and_keeps_its_centre() {
    let (w, h) = (96u32, 64u32);
    for mode in ["offset-blend", "mirror-blend"] {
        let nodes = format!(
            r#"{{ "id": "n", "type": "fbm", "params": {{ "frequency": 3.3, "octaves": 5 }} }},
               {{ "id": "t", "type": "make_it_tile", "params": {{ "mode": "{mode}", "blend_width": 0.2 }}, "inputs": {{ "input": "n" }} }}"#
        );
        let input = render_nodes(false, &nodes, "n", w, h);
        let out = render_nodes(false, &nodes, "t", w, h);
        // Across each edge the step is no larger than the largest step inside; the input
        // itself jumps there.
        let step = |image: &Image, (x0, y0): (u32, u32), (x1, y1): (u32, u32)| {
            (common::at(image, x0, y0, 0) - common::at(image, x1, y1, 0)).abs()
        };
        let (mut inner, mut seam, mut raw_seam) = (0.0f32, 0.0f32, 0.0f32);
        for y in 0..h {
            for x in 0..w - 1 {
                inner = inner.max(step(&out, (x, y), (x + 1, y)));
            }
            seam = seam.max(step(&out, (w - 1, y), (0, y)));
            raw_seam = raw_seam.max(step(&input, (w - 1, y), (0, y)));
        }
        for x in 0..w {
            for y in 0..h - 1 {
                inner = inner.max(step(&out, (x, y), (x, y + 1)));
            }
            seam = seam.max(step(&out, (x, h - 1), (x, 0)));
            raw_seam = raw_seam.max(step(&input, (x, h - 1), (x, 0)));
        }
        assert!(
            raw_seam > 2.0 * inner,
            "{mode}: the input must have a seam to remove"
        );
        assert!(seam <= inner, "{mode}: seam {seam} against {inner} inside");
        // From blend_width in, the input untouched.
        for y in 0..h {
            for x in 0..w {
                let (u, v) = ((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32);
                if [u, v].iter().all(|c| (0.21..=0.79).contains(c)) {
                    assert_eq!(
                        common::at(&out, x, y, 0),
                        common::at(&input, x, y, 0),
                        "{mode} ({x}, {y})"
                    );
                }
            }
        }
    }
}

#[test]
fn distances_bevels_and_blurs_do_not_depend_on_the_resolution() {
    let nodes = r#"{ "id": "n", "type": "fbm", "params": { "frequency": 3, "octaves": 3 } },
        { "id": "m", "type": "threshold", "params": { "level": 0.5 }, "inputs": { "input": "n" } },
        { "id": "bevel", "type": "bevel", "params": { "distance": 0.06, "profile": "smooth", "corner": "rounded" }, "inputs": { "mask": "m" } },
        { "id": "motion", "type": "directional_blur", "params": { "angle": 35, "distance": 0.1, "samples": 24 }, "inputs": { "input": "n" } },
        { "id": "uneven", "type": "non_uniform_blur", "params": { "radius": 0.03 }, "inputs": { "input": "n", "radius_map": "n" } },
        { "id": "moved", "type": "directional_warp", "params": { "angle": 60, "intensity": 0.1 }, "inputs": { "input": "motion", "intensity_map": "n" } }"#;
    for node in ["bevel", "motion", "uneven", "moved"] {
        let small = render_nodes(true, nodes, node, 128, 128);
        let big = render_nodes(true, nodes, node, 512, 512);
        let mean = common::mean_difference(&small, &common::downsample(&big, 4));
        // Masks differ by a texel of aliasing along their edges, what follows as much.
        assert!(mean < 0.01, "{node}: mean difference {mean}");
    }
}
