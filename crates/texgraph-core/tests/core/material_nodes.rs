//! The material nodes against independent computations: ambient occlusion of flat
//! heights and pits (against the documented horizon search worked out in f64 on the
//! analytic height), tiling and resolution independence; curvature of ridges, valleys and
//! planes; normal blends against reoriented, whiteout and linear blending computed by
//! hand; height blends picking the higher layer.

use crate::common;

use texgraph_core::{Graph, Image, RenderOptions};

/// A graph of `nodes` (JSON objects) whose output is `out_of`.
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

/// The texture coordinate of the centre of texel `i` of `size`.
fn centre(i: u32, size: u32) -> f64 {
    (f64::from(i) + 0.5) / f64::from(size)
}

/// The occlusion the node documents, in f64 on the height function `h`.
fn occlusion_reference(
    h: impl Fn(f64, f64) -> f64,
    (u, v): (f64, f64),
    radius: f64,
    (directions, steps): (u32, u32),
    strength: f64,
) -> f64 {
    let h0 = h(u, v);
    let mut sum = 0.0;
    for d in 0..directions {
        let angle = std::f64::consts::TAU * (f64::from(d) + 0.5) / f64::from(directions);
        let mut t = 0.0f64;
        for s in 1..=steps {
            let distance = radius * f64::from(s) / f64::from(steps);
            let p = h(u + distance * angle.cos(), v + distance * angle.sin());
            t = t.max(0.1 * (p - h0) / distance);
        }
        sum += t / (1.0 + t * t).sqrt();
    }
    (1.0 - strength * sum / f64::from(directions)).clamp(0.0, 1.0)
}

#[test]
fn occlusion_of_a_flat_height_is_exactly_one() {
    for quality in ["low", "medium", "high"] {
        for tileable in [false, true] {
            for value in [0.0, 0.37, 1.0] {
                let g = graph(
                    tileable,
                    &format!(
                        r#"{{ "id": "h", "type": "constant", "params": {{ "value": {value} }} }},
                           {{ "id": "ao", "type": "ambient_occlusion", "params": {{ "quality": "{quality}", "strength": 4 }}, "inputs": {{ "height": "h" }} }}"#
                    ),
                    "ao",
                );
                let image = render_at(&g, 37);
                assert!(
                    image.data.iter().all(|&v| v == 1.0),
                    "{quality}, tileable {tileable}, height {value}"
                );
            }
        }
    }
}

/// A conical pit at the centre, `PIT` wide, in a plateau of height 1.
const PIT: f64 = 0.15;

fn pit_height(u: f64, v: f64) -> f64 {
    ((u - 0.5).hypot(v - 0.5) / PIT).min(1.0)
}

fn pit_occlusion(quality: &str) -> Graph {
    graph(
        false,
        &format!(
            r#"{{ "id": "cone", "type": "wave", "params": {{ "kind": "rings", "profile": "saw", "frequency": 1 }} }},
               {{ "id": "steep", "type": "math", "params": {{ "op": "multiply", "b": {} }}, "inputs": {{ "a": "cone" }} }},
               {{ "id": "pit", "type": "math", "params": {{ "op": "min", "b": 1 }}, "inputs": {{ "a": "steep" }} }},
               {{ "id": "ao", "type": "ambient_occlusion", "params": {{ "radius": 0.1, "quality": "{quality}" }}, "inputs": {{ "height": "pit" }} }}"#,
            1.0 / PIT
        ),
        "ao",
    )
}

#[test]
fn a_pit_is_darker_than_its_rim_and_matches_the_horizon_search() {
    let size = 128;
    for (quality, search) in [("low", (4, 4)), ("medium", (8, 6)), ("high", (16, 8))] {
        let image = render_at(&pit_occlusion(quality), size);
        let ao = |col: u32, row: u32| f64::from(common::at(&image, col, row, 0));
        // The bottom, the rim (where the plateau starts) and far out on the plateau.
        let bottom = ao(64, 64);
        let rim = ao(64 + (PIT * 128.0) as u32 + 1, 64);
        let far = ao(5, 5);
        assert!(bottom < rim - 0.3, "{quality}: bottom {bottom}, rim {rim}");
        assert_eq!(far, 1.0, "{quality}");
        // Inside the pit every texel sees the walls: against the documented search on
        // the exact cone (the render reads it bilinearly from texels).
        for (col, row) in [
            (64, 64),
            (60, 70),
            (70, 64),
            (64, 55),
            (52, 64),
            (80, 80),
            (40, 90),
        ] {
            let want = occlusion_reference(
                pit_height,
                (centre(col, size), centre(row, size)),
                0.1,
                search,
                1.0,
            );
            let got = ao(col, row);
            assert!(
                (got - want).abs() < 0.005,
                "{quality} ({col}, {row}): {got}, expected {want}"
            );
        }
    }
}

#[test]
fn occlusion_wraps_when_tileable() {
    // A tileable height and the same height moved by half the image: the occlusion moves
    // with it, so reads across the edges see the other side. The moved one is computed
    // through a transform, away from the grid (bilinear reads at each sample's position),
    // so this also holds the two ways of reading together.
    let nodes = r#"{ "id": "h", "type": "fbm", "params": { "frequency": 4, "octaves": 4 } },
        { "id": "ao", "type": "ambient_occlusion", "params": { "radius": 0.08, "strength": 2 }, "inputs": { "height": "h" } },
        { "id": "moved", "type": "transform", "params": { "offset_x": 0.5, "offset_y": 0.25 }, "inputs": { "source": "ao" } }"#;
    let size = 64;
    let ao = render_at(&graph(true, nodes, "ao"), size);
    let moved = render_at(&graph(true, nodes, "moved"), size);
    let mut worst = 0.0f32;
    for row in 0..size {
        for col in 0..size {
            let a = common::at(&moved, col, row, 0);
            let b = common::at(&ao, (col + size / 2) % size, (row + size / 4) % size, 0);
            worst = worst.max((a - b).abs());
        }
    }
    assert!(worst < 1e-5, "worst {worst}");
    assert!(ao.data.iter().any(|&v| v < 0.9));
}

#[test]
fn occlusion_is_resolution_independent() {
    // Measured: worst 6.2e-3, mean 6.3e-4 (texel-scale detail the small render cannot
    // hold, read by taps a few texels apart).
    let g = graph(
        true,
        r#"{ "id": "h", "type": "fbm", "params": { "frequency": 3, "octaves": 4 } },
           { "id": "ao", "type": "ambient_occlusion", "params": { "radius": 0.05, "strength": 2 }, "inputs": { "height": "h" } }"#,
        "ao",
    );
    let small = render_at(&g, 256);
    let large = common::downsample(&render_at(&g, 1024), 4);
    let diffs: Vec<f32> = small
        .data
        .iter()
        .zip(&large.data)
        .map(|(a, b)| (a - b).abs())
        .collect();
    let worst = diffs.iter().fold(0.0f32, |m, d| m.max(*d));
    let mean = diffs.iter().sum::<f32>() / diffs.len() as f32;
    assert!(worst < 0.01 && mean < 0.001, "worst {worst}, mean {mean}");
    let spread = small.data.iter().fold(1.0f32, |m, v| m.min(*v));
    assert!(
        spread < 0.9,
        "the height is occluded somewhere: least {spread}"
    );
}

#[test]
fn material_nodes_give_the_same_bits_for_any_threads_and_tiles() {
    for tileable in [false, true] {
        let g = graph(
            tileable,
            r#"{ "id": "h", "type": "fbm", "params": { "frequency": 5, "octaves": 3 } },
               { "id": "d", "type": "fbm", "params": { "frequency": 13, "octaves": 2, "seed": 4 } },
               { "id": "ao", "type": "ambient_occlusion", "params": { "radius": 0.2, "quality": "high" }, "inputs": { "height": "h" } },
               { "id": "moved", "type": "transform", "params": { "rotate": 30 }, "inputs": { "source": "ao" } },
               { "id": "cv", "type": "curvature", "inputs": { "height": "h" } },
               { "id": "nb", "type": "normal", "inputs": { "height": "h" } },
               { "id": "nd", "type": "normal", "params": { "strength": 4 }, "inputs": { "height": "d" } },
               { "id": "cn", "type": "curvature", "params": { "source": "normal" }, "inputs": { "height": "nb" } },
               { "id": "blended", "type": "normal_blend", "inputs": { "base": "nb", "detail": "nd" } },
               { "id": "hb", "type": "height_blend", "inputs": { "height_a": "h", "height_b": "d", "color_a": "blended", "mask": "cv" } },
               { "id": "m", "type": "merge", "inputs": { "r": "ao", "g": "moved", "b": "cn", "a": "hb.height" } },
               { "id": "all", "type": "blend", "params": { "mode": "multiply" }, "inputs": { "a": "m", "b": "hb.color" } }"#,
            "all",
        );
        let options = |threads, tile| RenderOptions {
            threads: Some(threads),
            tile,
            cancel: None,
        };
        let one = common::render_graph(&g, None, 101, options(1, [64, 64]));
        for (threads, tile) in [(4, [128, 32]), (2, [17, 17]), (3, [5, 11])] {
            let other = common::render_graph(&g, None, 101, options(threads, tile));
            assert!(
                common::same_bits(&one, &other),
                "tileable {tileable}: differs with {threads} threads and tile {tile:?}"
            );
        }
    }
}

#[test]
fn occlusion_reaches_as_far_as_its_radius() {
    let g = graph(
        false,
        r#"{ "id": "h", "type": "fbm" },
           { "id": "ao", "type": "ambient_occlusion", "params": { "radius": 0.125 }, "inputs": { "height": "h" } }"#,
        "ao",
    );
    let program = texgraph_core::compile(&g, None).unwrap();
    let last = program.stages.last().unwrap();
    assert_eq!(
        last.reaches,
        [texgraph_core::program::Reach::Near(
            texgraph_core::program::Apron {
                texels: 1,
                texture: 0.125
            }
        )]
    );
    assert_eq!(program.stages.len(), 2);
}

/// The curvature of `height` (JSON nodes defining `h`) with `params`.
fn curvature_of(tileable: bool, height: &str, params: &str) -> Graph {
    graph(
        tileable,
        &format!(
            r#"{height},
               {{ "id": "cv", "type": "curvature", "params": {{ {params} }}, "inputs": {{ "height": "h" }} }}"#
        ),
        "cv",
    )
}

/// The curvature the node documents from a height, in f64 on the height function `h`.
fn curvature_reference(h: impl Fn(f64, f64) -> f64, (u, v): (f64, f64), radius: f64) -> f64 {
    let diagonal = radius * std::f64::consts::FRAC_1_SQRT_2;
    let ring = [
        (radius, 0.0),
        (-radius, 0.0),
        (0.0, radius),
        (0.0, -radius),
        (diagonal, diagonal),
        (-diagonal, -diagonal),
        (diagonal, -diagonal),
        (-diagonal, diagonal),
    ];
    let mean = ring.iter().map(|(du, dv)| h(u + du, v + dv)).sum::<f64>() / 8.0;
    let c = -8.0 * 0.1 * (mean - h(u, v)) / radius;
    (0.5 + 0.5 * c).clamp(0.0, 1.0)
}

#[test]
fn curvature_is_above_half_on_ridges_and_below_in_valleys() {
    // Sine bands along u, two periods: ridges at u = 1/4 and 3/4, valleys at 0 and 1/2.
    let g = curvature_of(
        true,
        r#"{ "id": "h", "type": "wave", "params": { "frequency": 2 } }"#,
        r#""radius": 0.02"#,
    );
    let size = 128;
    let image = render_at(&g, size);
    // The bands as the node reads them: bilinear between texels, wrapping.
    let texel = |i: f64| 0.5 - 0.5 * (std::f64::consts::TAU * 2.0 * (i + 0.5) / 128.0).cos();
    let wave = |u: f64, _: f64| {
        let f = u * 128.0 - 0.5;
        let t = f - f.floor();
        texel(f.floor()) * (1.0 - t) + texel(f.floor() + 1.0) * t
    };
    for col in [0, 10, 20, 31, 32, 40, 64, 96, 100, 127] {
        for row in [0, 50] {
            let want = curvature_reference(wave, (centre(col, size), centre(row, size)), 0.02);
            let got = f64::from(common::at(&image, col, row, 0));
            assert!(
                (got - want).abs() < 2e-4,
                "({col}, {row}): {got}, expected {want}"
            );
        }
    }
    let ridge = f64::from(common::at(&image, 32, 7, 0));
    let valley = f64::from(common::at(&image, 64, 7, 0));
    assert!(
        ridge > 0.6 && valley < 0.4,
        "ridge {ridge}, valley {valley}"
    );
}

#[test]
fn curvature_of_planes_is_exactly_half() {
    for size in [64, 100] {
        for height in [
            r#"{ "id": "h", "type": "constant", "params": { "value": 0.7 } }"#,
            r#"{ "id": "c", "type": "coords" }, { "id": "h", "type": "math", "inputs": { "a": "c.u", "b": "c.v" } }"#,
            r#"{ "id": "c", "type": "coords" }, { "id": "h", "type": "math", "params": { "op": "multiply", "b": 0.37 }, "inputs": { "a": "c.v" } }"#,
            r#"{ "id": "c", "type": "coords" }, { "id": "s", "type": "math", "params": { "op": "multiply", "b": -3.1 }, "inputs": { "a": "c.u" } },
               { "id": "h", "type": "math", "params": { "b": 0.2 }, "inputs": { "a": "s" } }"#,
        ] {
            for radius in [0.001, 0.01, 0.1] {
                let g = curvature_of(
                    false,
                    height,
                    &format!(r#""radius": {radius}, "strength": 16"#),
                );
                let image = render_at(&g, size);
                // Away from the clamped edges, where the reads leave the plane.
                let margin = (radius * f64::from(size)).ceil() as u32 + 1;
                for row in margin..size - margin {
                    for col in margin..size - margin {
                        let got = common::at(&image, col, row, 0);
                        assert_eq!(got, 0.5, "{height}, radius {radius}, ({col}, {row})");
                    }
                }
            }
        }
    }
}

#[test]
fn curvature_of_a_normal_map_matches_that_of_its_height() {
    // Gentle bumps and dents (slopes small against 10, where the normal's x and y are
    // the slope's to first order), and their normal map at strength 1.
    let height = r#"{ "id": "across", "type": "wave", "params": { "frequency": 2 } },
        { "id": "down", "type": "wave", "params": { "frequency": 2, "angle": 90 } },
        { "id": "w", "type": "math", "params": { "op": "multiply" }, "inputs": { "a": "across", "b": "down" } },
        { "id": "h", "type": "math", "params": { "op": "multiply", "b": 0.2 }, "inputs": { "a": "w" } },
        { "id": "n", "type": "normal", "inputs": { "height": "h" } }"#;
    let from_height = render_at(
        &graph(
            true,
            &format!(
                r#"{height}, {{ "id": "cv", "type": "curvature", "params": {{ "radius": 0.03, "strength": 4 }}, "inputs": {{ "height": "h" }} }}"#
            ),
            "cv",
        ),
        128,
    );
    let from_normal = render_at(
        &graph(
            true,
            &format!(
                r#"{height}, {{ "id": "cv", "type": "curvature", "params": {{ "source": "normal", "radius": 0.03, "strength": 4 }}, "inputs": {{ "height": "n" }} }}"#
            ),
            "cv",
        ),
        128,
    );
    let mut worst = 0.0f32;
    for (a, b) in from_height.data.iter().zip(&from_normal.data) {
        worst = worst.max((a - b).abs());
    }
    // Measured 0.012: the ring's mean and the diameter's differences agree to second
    // order in the radius only.
    assert!(worst < 0.02, "worst {worst}");
    let spread = from_height
        .data
        .iter()
        .fold(0.0f32, |m, v| m.max((v - 0.5).abs()));
    assert!(spread > 0.2, "the bump is curved: {spread}");
    // Bumps where both waves peak, troughs where one peaks and the other is 0.
    assert!(common::at(&from_normal, 32, 32, 0) > 0.6);
    assert!(common::at(&from_normal, 32, 0, 0) < 0.4);
    // A flat normal map is exactly flat.
    let flat = render_at(
        &graph(
            false,
            r#"{ "id": "h", "type": "merge", "inputs": { "r": "half", "g": "half", "b": "one" } },
               { "id": "half", "type": "constant", "params": { "value": 0.5 } },
               { "id": "one", "type": "constant", "params": { "value": 1 } },
               { "id": "cv", "type": "curvature", "params": { "source": "normal", "strength": 16 }, "inputs": { "height": "h" } }"#,
            "cv",
        ),
        16,
    );
    assert!(flat.data.iter().all(|&v| v == 0.5));
}

/// The base and detail normal maps the blend tests use: the normal map of a smooth
/// height, and a strong one of finer noise.
const NORMALS: &str = r#"{ "id": "hb", "type": "fbm", "params": { "frequency": 3, "octaves": 3 } },
    { "id": "base", "type": "normal", "params": { "strength": 3 }, "inputs": { "height": "hb" } },
    { "id": "hd", "type": "fbm", "params": { "frequency": 11, "octaves": 2, "seed": 9 } },
    { "id": "detail", "type": "normal", "params": { "strength": 6 }, "inputs": { "height": "hd" } },
    { "id": "half", "type": "constant", "params": { "value": 0.5 } },
    { "id": "one", "type": "constant", "params": { "value": 1 } },
    { "id": "flat", "type": "merge", "inputs": { "r": "half", "g": "half", "b": "one" } }"#;

fn normal_blend(detail: &str, params: &str) -> Graph {
    graph(
        true,
        &format!(
            r#"{NORMALS},
               {{ "id": "nb", "type": "normal_blend", "params": {{ {params} }}, "inputs": {{ "base": "base", "detail": "{detail}" }} }}"#
        ),
        "nb",
    )
}

fn decode(image: &Image, i: usize) -> [f64; 3] {
    let px = &image.data[i * 4..i * 4 + 3];
    [0, 1, 2].map(|c| 2.0 * f64::from(px[c]) - 1.0)
}

fn normalize(v: [f64; 3]) -> [f64; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / len)
}

/// The blend the node documents, in f64, of decoded normals `b` and `d`.
fn blend_reference(b: [f64; 3], d: [f64; 3], strength: f64, mode: &str) -> [f64; 3] {
    let d = normalize([
        d[0] * strength,
        d[1] * strength,
        (1.0 - strength) + strength * d[2],
    ]);
    let r = match mode {
        "reoriented" => {
            // Barré-Brisebois and Hill: t = base·(2, 2, 2) + (−1, −1, 0), u =
            // detail·(−2, −2, 2) + (1, 1, −1) on the encoded colors.
            let (be, de) = (b.map(|c| 0.5 + 0.5 * c), d.map(|c| 0.5 + 0.5 * c));
            let t = [2.0 * be[0] - 1.0, 2.0 * be[1] - 1.0, 2.0 * be[2]];
            let u = [1.0 - 2.0 * de[0], 1.0 - 2.0 * de[1], 2.0 * de[2] - 1.0];
            let dot = t[0] * u[0] + t[1] * u[1] + t[2] * u[2];
            [0, 1, 2].map(|i| t[i] * dot / t[2] - u[i])
        }
        "whiteout" => [b[0] + d[0], b[1] + d[1], b[2] * d[2]],
        _ => [b[0] + d[0], b[1] + d[1], b[2] + d[2] - 1.0],
    };
    normalize(r)
}

#[test]
fn a_flat_detail_returns_the_base_bit_for_bit() {
    let size = 48;
    let base = render_at(&graph(true, NORMALS, "base"), size);
    for mode in ["reoriented", "whiteout", "linear"] {
        for strength in [1.0, 0.35] {
            let params = format!(r#""mode": "{mode}", "strength": {strength}"#);
            let image = render_at(&normal_blend("flat", &params), size);
            for (a, b) in image.data.chunks_exact(4).zip(base.data.chunks_exact(4)) {
                assert_eq!(&a[..3], &b[..3], "{mode}, strength {strength}");
                assert_eq!(a[3], 1.0);
            }
        }
        // Strength 0 leaves out any detail.
        let params = format!(r#""mode": "{mode}", "strength": 0"#);
        let image = render_at(&normal_blend("detail", &params), size);
        assert_eq!(image.data, base.data, "{mode}, strength 0");
    }
}

#[test]
fn normal_blends_match_the_formulas_and_stay_unit_length() {
    let size = 48;
    let base = render_at(&graph(true, NORMALS, "base"), size);
    let detail = render_at(&graph(true, NORMALS, "detail"), size);
    for mode in ["reoriented", "whiteout", "linear"] {
        for strength in [1.0, 0.6] {
            let params = format!(r#""mode": "{mode}", "strength": {strength}"#);
            let image = render_at(&normal_blend("detail", &params), size);
            let mut worst = 0.0f64;
            for i in 0..(size * size) as usize {
                let n = decode(&image, i);
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                assert!((len - 1.0).abs() < 1e-5, "{mode}: length {len}");
                let want = blend_reference(decode(&base, i), decode(&detail, i), strength, mode);
                for c in 0..3 {
                    worst = worst.max((n[c] - want[c]).abs());
                }
            }
            assert!(worst < 1e-5, "{mode}, strength {strength}: worst {worst}");
        }
    }
    // Whiteout at one pixel, written out: normalize(b.xy + d.xy, b.z·d.z).
    let image = render_at(&normal_blend("detail", r#""mode": "whiteout""#), size);
    let i = 17 * size as usize + 29;
    let (b, d) = (decode(&base, i), decode(&detail, i));
    let (x, y, z) = (b[0] + d[0], b[1] + d[1], b[2] * d[2]);
    let len = (x * x + y * y + z * z).sqrt();
    let got = decode(&image, i);
    assert!((got[0] - x / len).abs() < 1e-6);
    assert!((got[1] - y / len).abs() < 1e-6);
    assert!((got[2] - z / len).abs() < 1e-6);
    // The detail does turn the base.
    assert!((got[0] - b[0]).abs() + (got[1] - b[1]).abs() > 0.01);
}

/// Layer a: height 0.3, red; layer b: the ramp u, blue; with `params` and `extra` inputs;
/// output `out` of the blend.
fn height_blend(params: &str, extra: &str, out: &str) -> Graph {
    graph(
        false,
        &format!(
            r##"{{ "id": "c", "type": "coords" }},
               {{ "id": "ha", "type": "constant", "params": {{ "value": 0.3 }} }},
               {{ "id": "red", "type": "color", "params": {{ "color": "#ff0000" }} }},
               {{ "id": "blue", "type": "color", "params": {{ "color": "#0000ff" }} }},
               {{ "id": "zero", "type": "constant", "params": {{ "value": 0 }} }},
               {{ "id": "halfway", "type": "constant", "params": {{ "value": 0.5 }} }},
               {{ "id": "hb", "type": "height_blend", "params": {{ {params} }},
                  "inputs": {{ "height_a": "ha", "height_b": "c.u", "color_a": "red", "color_b": "blue" {extra} }} }}"##
        ),
        &format!("hb.{out}"),
    )
}

/// Row 3 of both outputs of the blend, 100 wide: (RGBA, height) per column.
fn layers(params: &str, extra: &str) -> Vec<([f32; 4], f32)> {
    let size = 100;
    let color = render_at(&height_blend(params, extra, "color"), size);
    let height = render_at(&height_blend(params, extra, "height"), size);
    (0..size)
        .map(|col| {
            let px = [0, 1, 2, 3].map(|c| common::at(&color, col, 3, c));
            (px, common::at(&height, col, 3, 0))
        })
        .collect()
}

#[test]
fn the_higher_layer_shows() {
    const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
    const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
    let u = |col: usize| (col as f32 + 0.5) / 100.0;
    for (params, offset) in [(r#""contrast": 0.9"#, 0.0f32), (r#""offset": 0.2"#, 0.2)] {
        // The transition is 0.025 high at contrast 0.9, around u + offset = 0.3.
        for (col, layer) in layers(params, "").into_iter().enumerate() {
            if u(col) + offset < 0.3 - 0.02 {
                assert_eq!(layer, (RED, 0.3), "{params}: column {col}");
            } else if u(col) + offset > 0.3 + 0.02 {
                assert_eq!(layer, (BLUE, u(col) + offset), "{params}: column {col}");
            }
        }
    }
    // Halfway up the transition (b at a's height), half of each.
    let (color, height) = layers(r#""offset": 0.005"#, "")[29];
    assert!((height - 0.3).abs() < 1e-6, "{height}");
    for (got, want) in color.iter().zip([0.5, 0.0, 0.5, 1.0]) {
        assert!((got - want).abs() < 1e-4, "{color:?}");
    }
    // Mask 0: layer a everywhere, exactly, though b is raised above it; a mask of a half
    // sinks b 1.5 lower, beneath a here.
    for (mask, offset) in [("zero", 1.0), ("halfway", 0.2)] {
        let extra = format!(r#", "mask": "{mask}""#);
        let params = format!(r#""offset": {offset}"#);
        for (col, layer) in layers(&params, &extra).into_iter().enumerate() {
            assert_eq!(layer, (RED, 0.3), "mask {mask}, column {col}");
        }
    }
}

#[test]
fn unconnected_colors_show_the_weight_of_b() {
    let g = graph(
        false,
        r#"{ "id": "c", "type": "coords" },
           { "id": "hb", "type": "height_blend", "params": { "contrast": 0 }, "inputs": { "height_a": "c.v", "height_b": "c.u" } }"#,
        "hb.color",
    );
    let size = 64;
    let image = render_at(&g, size);
    for row in 0..size {
        for col in 0..size {
            let d = (centre(col, size) - centre(row, size)) / 0.25 + 0.5;
            let t = d.clamp(0.0, 1.0);
            let w = t * t * (3.0 - 2.0 * t);
            let got = common::at(&image, col, row, 0);
            assert!(
                (f64::from(got) - w).abs() < 1e-5,
                "({col}, {row}): {got}, expected {w}"
            );
            assert_eq!(common::at(&image, col, row, 3), 1.0);
        }
    }
}
