//! Nodes against their formulas (channels, values, white noise), computed here
//! independently from the rendered inputs.

use crate::common::{self, graph, render_graph};
use texgraph_core::{Image, RenderOptions};

const SIZE: u32 = 32;

/// A colorful, partly transparent source: marble's colors with a noise in alpha.
fn source_nodes() -> &'static str {
    r##"{ "id": "n", "type": "fbm", "params": { "frequency": 3, "octaves": 4 } },
       { "id": "ramp", "type": "gradient", "params": { "stops": [
           { "pos": 0.0, "color": "#1f4e8c" }, { "pos": 0.5, "color": "#e0a040" }, { "pos": 1.0, "color": "#f0f0f0" } ] },
         "inputs": { "input": "n" } },
       { "id": "alpha", "type": "perlin", "params": { "frequency": 5, "seed": 9 } },
       { "id": "colors", "type": "split", "inputs": { "color": "ramp" } },
       { "id": "mixed", "type": "merge", "inputs": { "r": "colors.r", "g": "colors.g", "b": "colors.b", "a": "alpha" } }"##
}

/// Renders `extra` nodes after the source, with the output reading `out`.
fn render(extra: &str, out: &str) -> Image {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [ {}, {extra}
             {{ "id": "out", "type": "output", "inputs": {{ "color": "{out}" }} }} ] }}"#,
        source_nodes()
    );
    render_graph(&graph(&json), None, SIZE, RenderOptions::default())
}

fn bits(image: &Image) -> Vec<u32> {
    image.data.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn split_then_merge_is_the_identity() {
    let original = render("", "mixed");
    // Alpha varies and colors are not gray: the test sees every channel.
    let alphas: Vec<f32> = original.data.iter().skip(3).step_by(4).copied().collect();
    assert!(alphas.iter().any(|&a| a < 0.3) && alphas.iter().any(|&a| a > 0.7));
    let again = render(
        r#"{ "id": "s", "type": "split", "inputs": { "color": "mixed" } },
           { "id": "m", "type": "merge", "inputs": { "r": "s.r", "g": "s.g", "b": "s.b", "a": "s.a" } },"#,
        "m",
    );
    assert_eq!(bits(&again), bits(&original));
    // Each output is its channel.
    for (i, channel) in ["r", "g", "b", "a"].iter().enumerate() {
        let one = render(
            &format!(
                r#"{{ "id": "s", "type": "split", "inputs": {{ "color": "mixed" }} }},
                        {{ "id": "m", "type": "merge", "inputs": {{ "r": "s.{channel}" }} }},"#
            ),
            "m",
        );
        for (px, want) in original.data.chunks(4).zip(one.data.chunks(4)) {
            assert_eq!(want[0].to_bits(), px[i].to_bits(), "{channel}");
            assert_eq!(
                (want[1], want[2], want[3]),
                (0.0, 0.0, 1.0),
                "merge's defaults"
            );
        }
    }
}

#[test]
fn grayscale_modes_follow_their_formulas() {
    let color = render("", "mixed");
    for mode in ["luminance", "average", "lightness", "value"] {
        let gray = render(
            &format!(
                r#"{{ "id": "g", "type": "grayscale", "params": {{ "mode": "{mode}" }}, "inputs": {{ "color": "mixed" }} }},"#
            ),
            "g",
        );
        assert_eq!(gray.channels, 1);
        for (px, &got) in color.data.chunks(4).zip(&gray.data) {
            let [r, g, b] = [px[0], px[1], px[2]].map(f64::from);
            let want = match mode {
                "luminance" => 0.2126 * r + 0.7152 * g + 0.0722 * b,
                "average" => (r + g + b) / 3.0,
                "lightness" => (r.max(g).max(b) + r.min(g).min(b)) / 2.0,
                _ => r.max(g).max(b),
            };
            assert!(
                (f64::from(got) - want).abs() < 1e-6,
                "{mode}: {got} vs {want}"
            );
        }
    }
}

/// u at every pixel (0 left, 1 right).
fn u() -> Vec<f64> {
    let image = render(r#"{ "id": "uv", "type": "coords" },"#, "uv.u");
    image.data.iter().map(|&v| f64::from(v)).collect()
}

#[test]
fn threshold_is_a_step_or_a_smoothstep_at_the_level() {
    let us = u();
    for (level, smoothness) in [(0.5, 0.0), (0.3, 0.0), (0.5, 0.2), (0.7, 1.0)] {
        let out = render(
            &format!(
                r#"{{ "id": "uv", "type": "coords" }},
                        {{ "id": "t", "type": "threshold", "params": {{ "level": {level}, "smoothness": {smoothness} }}, "inputs": {{ "input": "uv.u" }} }},"#
            ),
            "t",
        );
        for (&x, &got) in us.iter().zip(&out.data) {
            let want = if smoothness == 0.0 {
                if x >= level { 1.0 } else { 0.0 }
            } else {
                let t = ((x - level) / smoothness + 0.5).clamp(0.0, 1.0);
                t * t * (3.0 - 2.0 * t)
            };
            assert!(
                (f64::from(got) - want).abs() < 1e-5,
                "{level} {smoothness} at {x}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn remap_maps_ranges_linearly_and_clamps_when_asked() {
    let us = u();
    for (in_min, in_max, out_min, out_max, clamp) in [
        (0.0, 1.0, 0.0, 1.0, false),
        (0.25, 0.75, 0.0, 1.0, false),
        (0.25, 0.75, 0.0, 1.0, true),
        (0.0, 1.0, 1.0, -1.0, false),
        (1.0, 0.0, 10.0, 20.0, true),
        (0.5, 0.5, 3.0, 4.0, false),
    ] {
        let out = render(
            &format!(
                r#"{{ "id": "uv", "type": "coords" }},
                        {{ "id": "r", "type": "remap", "params": {{ "in_min": {in_min}, "in_max": {in_max}, "out_min": {out_min}, "out_max": {out_max}, "clamp": {clamp} }}, "inputs": {{ "input": "uv.u" }} }},"#
            ),
            "r",
        );
        for (&x, &got) in us.iter().zip(&out.data) {
            let span: f64 = in_max - in_min;
            let mut t = if span == 0.0 {
                0.0
            } else {
                (x - in_min) / span
            };
            if clamp {
                t = t.clamp(0.0, 1.0);
            }
            let want = out_min + t * (out_max - out_min);
            assert!(
                (f64::from(got) - want).abs() < 1e-5,
                "{in_min}..{in_max} -> {out_min}..{out_max} at {x}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn remap_of_a_color_maps_rgb_and_keeps_alpha() {
    let color = render("", "mixed");
    let out = render(
        r#"{ "id": "r", "type": "remap", "params": { "out_min": 1, "out_max": 0 }, "inputs": { "input": "mixed" } },"#,
        "r",
    );
    for (px, got) in color.data.chunks(4).zip(out.data.chunks(4)) {
        for c in 0..3 {
            assert!((got[c] - (1.0 - px[c])).abs() < 1e-6);
        }
        assert_eq!(got[3].to_bits(), px[3].to_bits());
    }
}

/// The lattice hash of value noise, written out from its specification (multiply–xor of
/// the point and seed, then the lowbias32 finalizer, top 24 bits).
fn lattice(x: i32, y: i32, seed: u32) -> f64 {
    let mut h = seed.wrapping_mul(0x9E37_79B9)
        ^ (x as u32).wrapping_mul(0x85EB_CA6B)
        ^ (y as u32).wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846C_A68B);
    h ^= h >> 16;
    f64::from(h >> 8) / 16_777_215.0
}

fn white(frequency: u32, seed: u32, size: u32, extra: &str, out: &str) -> Image {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": true }}, "nodes": [
            {{ "id": "w", "type": "white_noise", "params": {{ "frequency": {frequency}, "seed": {seed} }} }}, {extra}
            {{ "id": "out", "type": "output", "inputs": {{ "color": "{out}" }} }} ] }}"#
    );
    render_graph(&graph(&json), None, size, RenderOptions::default())
}

#[test]
fn white_noise_is_the_cell_hash_constant_in_each_cell() {
    for (frequency, seed) in [(8, 0), (16, 7), (64, 123_456)] {
        let image = white(frequency, seed, 64, "", "w");
        let cell = 64 / frequency;
        for row in 0..64 {
            for col in 0..64 {
                let want = lattice((col / cell) as i32, (row / cell) as i32, seed);
                let got = f64::from(common::at(&image, col, row, 0));
                assert!(
                    (got - want).abs() < 1e-6,
                    "f{frequency} s{seed} ({col}, {row}): {got} vs {want}"
                );
            }
        }
    }
}

#[test]
fn white_noise_is_uniform_and_tiles() {
    let image = white(256, 3, 256, "", "w");
    let n = image.data.len() as f64;
    let mean = image.data.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
    let variance = image
        .data
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / n;
    assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    assert!((variance - 1.0 / 12.0).abs() < 0.003, "variance {variance}");
    // Moved by one whole period it is the same texture: the hash wraps at the period.
    let moved = white(
        16,
        3,
        64,
        r#"{ "id": "t", "type": "transform", "params": { "offset_x": 1, "offset_y": -1 }, "inputs": { "source": "w" } },"#,
        "t",
    );
    assert_eq!(bits(&moved), bits(&white(16, 3, 64, "", "w")));
}

#[test]
fn checker_alternates_squares_and_tiles() {
    for (frequency, tileable, squares) in [
        (8.0, false, 8.0),
        (8.0, true, 8.0),
        (5.0, true, 6.0),
        (3.2, false, 3.2),
    ] {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
                {{ "id": "c", "type": "checker", "params": {{ "frequency": {frequency} }} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "c" }} }} ] }}"#
        );
        let image = render_graph(&graph(&json), None, 96, RenderOptions::default());
        for row in 0..96 {
            for col in 0..96 {
                // Pixel centers, never on a square's edge for these sizes.
                let (u, v) = ((f64::from(col) + 0.5) / 96.0, (f64::from(row) + 0.5) / 96.0);
                let parity = ((u * squares).floor() + (v * squares).floor()) as i64 % 2;
                let want = if parity == 0 { 1.0 } else { 0.0 };
                assert_eq!(
                    common::at(&image, col, row, 0),
                    want,
                    "f{frequency} tileable {tileable} at ({col}, {row})"
                );
            }
        }
    }
}

#[test]
fn quantize_rounds_down_to_even_levels() {
    let us = u();
    for steps in [2, 3, 4, 7] {
        let out = render(
            &format!(
                r#"{{ "id": "uv", "type": "coords" }},
                        {{ "id": "q", "type": "quantize", "params": {{ "steps": {steps} }}, "inputs": {{ "input": "uv.u" }} }},"#
            ),
            "q",
        );
        let k = f64::from(steps);
        for (&x, &got) in us.iter().zip(&out.data) {
            let want = (x * k).floor().min(k - 1.0) / (k - 1.0);
            assert!(
                (f64::from(got) - want).abs() < 1e-6,
                "{steps} steps at {x}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn dithered_quantize_keeps_the_mean_without_bands() {
    for (value, steps) in [(0.3, 2), (0.5, 2), (0.62, 5)] {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 1, "nodes": [
                {{ "id": "c", "type": "constant", "params": {{ "value": {value} }} }},
                {{ "id": "q", "type": "quantize", "params": {{ "steps": {steps}, "dither": true }}, "inputs": {{ "input": "c" }} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "q" }} }} ] }}"#
        );
        let image = render_graph(&graph(&json), None, 256, RenderOptions::default());
        let k = f64::from(steps) - 1.0;
        // Only the two levels around the value appear, in proportion to where it lies.
        let (low, high) = ((value * k).floor() / k, (value * k).ceil() / k);
        for &v in &image.data {
            let v = f64::from(v);
            assert!(
                (v - low).abs() < 1e-6 || (v - high).abs() < 1e-6,
                "{value}: level {v}"
            );
        }
        let mean = image.data.iter().map(|&v| f64::from(v)).sum::<f64>() / image.data.len() as f64;
        assert!(
            (mean - value).abs() < 0.01,
            "{value} with {steps} steps: mean {mean}"
        );
    }
}

/// HSL to RGB by the CSS Color 4 formula (hue in degrees), a different route from the
/// kernel's: f(n) = l − a·max(−1, min(k − 3, 9 − k, 1)), k = (n + h/30) mod 12.
fn css_hsl_to_rgb(h: f64, s: f64, l: f64) -> [f64; 3] {
    let a = s * l.min(1.0 - l);
    [0.0, 8.0, 4.0].map(|n: f64| {
        let k = (n + h / 30.0).rem_euclid(12.0);
        l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    })
}

/// RGB to HSL (hue in degrees) from the definitions: hue from the largest channel's
/// sector, lightness the mid-range, saturation the chroma over 1 − |2l − 1|.
fn rgb_to_hsl([r, g, b]: [f64; 3]) -> [f64; 3] {
    let (high, low) = (r.max(g).max(b), r.min(g).min(b));
    let chroma = high - low;
    let l = (high + low) / 2.0;
    if chroma == 0.0 {
        return [0.0, 0.0, l];
    }
    let h = if high == r {
        60.0 * ((g - b) / chroma).rem_euclid(6.0)
    } else if high == g {
        60.0 * ((b - r) / chroma + 2.0)
    } else {
        60.0 * ((r - g) / chroma + 4.0)
    };
    [h, chroma / (1.0 - (2.0 * l - 1.0).abs()), l]
}

#[test]
fn hsl_turns_hue_scales_saturation_and_moves_lightness() {
    let color = render("", "mixed");
    for (hue, saturation, lightness) in [
        (0.0, 0.0, 0.0),
        (120.0, 0.0, 0.0),
        (-75.0, 0.5, 0.0),
        (30.0, -0.6, 0.3),
        (180.0, 1.0, -0.4),
        (0.0, -1.0, 0.0),
    ] {
        let out = render(
            &format!(
                r#"{{ "id": "h", "type": "hsl", "params": {{ "hue": {hue}, "saturation": {saturation}, "lightness": {lightness} }}, "inputs": {{ "color": "mixed" }} }},"#
            ),
            "h",
        );
        for (px, got) in color.data.chunks(4).zip(out.data.chunks(4)) {
            let [h, s, l] = rgb_to_hsl([px[0], px[1], px[2]].map(|c| f64::from(c).clamp(0.0, 1.0)));
            let s = (s * (1.0 + saturation)).clamp(0.0, 1.0);
            let l = if lightness < 0.0 {
                l * (1.0 + lightness)
            } else {
                l + (1.0 - l) * lightness
            };
            let want = css_hsl_to_rgb(h + hue, s, l);
            for c in 0..3 {
                assert!(
                    (f64::from(got[c]) - want[c]).abs() < 2e-5,
                    "hsl({hue}, {saturation}, {lightness}) of {px:?}: {got:?} vs {want:?}"
                );
            }
            assert_eq!(got[3].to_bits(), px[3].to_bits(), "alpha kept");
        }
    }
    // Pure red turned by 120° is pure green, by 240° pure blue.
    for (hue, want) in [(120.0, [0.0, 1.0, 0.0]), (-120.0, [0.0, 0.0, 1.0])] {
        let json = format!(
            r##"{{ "format": "texgraph", "version": 1, "nodes": [
                {{ "id": "red", "type": "color", "params": {{ "color": "#ff0000" }} }},
                {{ "id": "h", "type": "hsl", "params": {{ "hue": {hue} }}, "inputs": {{ "color": "red" }} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "h" }} }} ] }}"##
        );
        let image = render_graph(&graph(&json), None, 4, RenderOptions::default());
        for (c, want) in want.iter().enumerate() {
            assert!(
                (common::at(&image, 1, 1, c) - want).abs() < 1e-6,
                "{hue}: {:?}",
                &image.data[..4]
            );
        }
    }
}

/// Renders perlin noise through a curve with `points`; returns (input, output) pairs.
fn through_curve(points: &str) -> Vec<(f32, f32)> {
    let json = |out: &str| {
        format!(
            r#"{{ "format": "texgraph", "version": 1, "nodes": [
                 {{ "id": "n", "type": "fbm", "params": {{ "frequency": 3, "octaves": 3 }} }},
                 {{ "id": "c", "type": "curve", "params": {{ "points": {points} }}, "inputs": {{ "input": "n" }} }},
                 {{ "id": "out", "type": "output", "inputs": {{ "color": "{out}" }} }} ] }}"#
        )
    };
    let size = 64;
    let input = render_graph(&graph(&json("n")), None, size, RenderOptions::default());
    let output = render_graph(&graph(&json("c")), None, size, RenderOptions::default());
    input.data.into_iter().zip(output.data).collect()
}

#[test]
fn curves_pass_through_their_points_and_never_overshoot() {
    // The identity, and points on a line: the spline is that line.
    for points in [
        r#"[{ "x": 0, "y": 0 }, { "x": 1, "y": 1 }]"#,
        r#"[{ "x": 1, "y": 1 }, { "x": 0.5, "y": 0.5 }, { "x": 0, "y": 0 }]"#,
    ] {
        for (a, b) in through_curve(points) {
            assert!((a - b).abs() < 1e-5, "{points}: {a} gave {b}");
        }
    }
    // Flat beyond the ends, and between two points within their values (no overshoot),
    // rising where they rise: an S-curve from 0.2 to 0.8.
    let s = r#"[{ "x": 0.2, "y": 0.1 }, { "x": 0.45, "y": 0.3 }, { "x": 0.55, "y": 0.7 }, { "x": 0.8, "y": 0.9 }]"#;
    let pairs = through_curve(s);
    let knots = [(0.2f32, 0.1f32), (0.45, 0.3), (0.55, 0.7), (0.8, 0.9)];
    assert!(pairs.iter().any(|&(a, _)| a < 0.4) && pairs.iter().any(|&(a, _)| a > 0.6));
    for &(a, b) in &pairs {
        if a <= 0.2 {
            assert!(
                (b - 0.1).abs() < 1e-6,
                "left of the first point: {a} gave {b}"
            );
        } else if a >= 0.8 {
            assert!(
                (b - 0.9).abs() < 1e-6,
                "right of the last point: {a} gave {b}"
            );
        } else {
            let k = knots
                .windows(2)
                .position(|w| a >= w[0].0 && a <= w[1].0)
                .unwrap();
            let (low, high) = (knots[k].1, knots[k + 1].1);
            assert!(
                (low - 1e-6..=high + 1e-6).contains(&b),
                "{a} gave {b}, outside [{low}, {high}]"
            );
        }
    }
    let mut sorted = pairs.clone();
    sorted.sort_by(|p, q| p.0.total_cmp(&q.0));
    assert!(
        sorted.windows(2).all(|w| w[1].1 >= w[0].1 - 1e-6),
        "monotone data, monotone curve"
    );
    // Exactly through each point.
    let curve = texgraph_core::kernels::curve::Curve::new(&knots);
    for (x, y) in knots {
        assert!(
            (curve.at(x) - y).abs() < 1e-6,
            "({x}, {y}) gives {}",
            curve.at(x)
        );
    }
    // Equal x make a step: below 0.5 the lower side, above it the upper.
    let step = texgraph_core::kernels::curve::Curve::new(&[
        (0.0, 0.0),
        (0.5, 0.2),
        (0.5, 0.9),
        (1.0, 1.0),
    ]);
    assert!(step.at(0.499) <= 0.2 + 1e-3 && step.at(0.501) >= 0.9 - 1e-3);
}

#[test]
fn curves_match_a_hermite_spline_written_out() {
    // Three points with secants 2 and 0.4. Fritsch–Carlson: the ends take their secants,
    // the middle their mean, 1.2. On the second segment α = 1.2/0.4 = 3 and β = 1, so
    // α² + β² = 10 > 9 and both tangents shrink by 3/√10.
    let curve = texgraph_core::kernels::curve::Curve::new(&[(0.0, 0.0), (0.25, 0.5), (1.0, 0.8)]);
    let hermite = |x0: f64, x1: f64, y0: f64, y1: f64, m0: f64, m1: f64, x: f64| {
        let h = x1 - x0;
        let t = (x - x0) / h;
        (2.0 * t.powi(3) - 3.0 * t * t + 1.0) * y0
            + (t.powi(3) - 2.0 * t * t + t) * h * m0
            + (-2.0 * t.powi(3) + 3.0 * t * t) * y1
            + (t.powi(3) - t * t) * h * m1
    };
    for i in 0..=100 {
        let x = f64::from(i) / 100.0;
        let shrink = 3.0 / 10f64.sqrt();
        let (m1, m2) = (1.2 * shrink, 0.4 * shrink);
        let want = if x <= 0.25 {
            hermite(0.0, 0.25, 0.0, 0.5, 2.0, m1, x)
        } else {
            hermite(0.25, 1.0, 0.5, 0.8, m1, m2, x)
        };
        let got = f64::from(curve.at(x as f32));
        assert!((got - want).abs() < 2e-6, "at {x}: {got} against {want}");
    }
}

/// The histogram nodes on noise values, against their documented formulas.
#[test]
fn histogram_nodes_follow_their_formulas() {
    let x = render("", "n");
    let check = |node: &str, params: &str, formula: &dyn Fn(f64) -> f64| {
        let out = render(
            &format!(
                r#"{{ "id": "h", "type": "{node}", "params": {params}, "inputs": {{ "input": "n" }} }},"#
            ),
            "h",
        );
        for (i, (&a, &b)) in x.data.iter().zip(&out.data).enumerate() {
            let expected = formula(f64::from(a));
            assert!(
                (f64::from(b) - expected).abs() < 1e-5,
                "{node} {params} texel {i}: {b} for x = {a}, expected {expected}"
            );
        }
    };
    for (position, contrast) in [(0.5, 0.5), (0.2, 0.9), (0.8, 0.0), (0.35, 1.0)] {
        let (m, r) = (1.0 - position, (1.0 - contrast) / 2.0);
        check(
            "histogram_scan",
            &format!(r#"{{ "position": {position}, "contrast": {contrast} }}"#),
            &|x| {
                if r == 0.0 {
                    // A step at m.
                    if x > m { 1.0 } else { 0.0 }
                } else {
                    ((x - (m - r)) / (2.0 * r)).clamp(0.0, 1.0)
                }
            },
        );
    }
    for (range, position) in [(0.5, 0.5), (0.2, 0.9), (1.0, 0.3), (0.0, 0.7)] {
        check(
            "histogram_range",
            &format!(r#"{{ "range": {range}, "position": {position} }}"#),
            &|x| position * (1.0 - range) + range * x,
        );
    }
    for position in [0.0, 0.25, 0.5, 0.9] {
        check(
            "histogram_shift",
            &format!(r#"{{ "position": {position} }}"#),
            &|x| {
                let s = x + position;
                if s > 1.0 { s - 1.0 } else { s }
            },
        );
    }
}
