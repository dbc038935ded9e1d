//! The everyday nodes (`invert`, `clamp`, `uniform`, the gradients, `mirror`, `symmetry`,
//! `polar`, `swirl`, `safe_transform`, `pixelate`, `auto_levels`, `highpass`,
//! `anisotropic_noise`, the selections, `channel_shuffle`, `normal_invert`, `switch`):
//! each against its documented formula computed here, each tiling in tileable graphs and
//! giving the same bits on any thread count and tile size.

use crate::common::{graph, render_graph, same_bits};
use texgraph_core::eval::stream::{Region, render_region};
use texgraph_core::{Image, RenderOptions};

const SIZE: u32 = 64;

/// A graph of `nodes` whose output reads `out`.
fn json(nodes: &str, out: &str, tileable: bool) -> String {
    format!(
        r#"{{ "format": "texgraph", "version": 4, "settings": {{ "tileable": {tileable} }}, "nodes": [ {nodes},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "{out}" }} }} ] }}"#
    )
}

fn render(nodes: &str, out: &str, tileable: bool) -> Image {
    render_graph(
        &graph(&json(nodes, out, tileable)),
        None,
        SIZE,
        RenderOptions::default(),
    )
}

/// The pixel centre (u, v) of sample `k`.
fn uv(k: usize) -> (f64, f64) {
    let (col, row) = ((k as u32) % SIZE, (k as u32) / SIZE);
    (
        (f64::from(col) + 0.5) / f64::from(SIZE),
        (f64::from(row) + 0.5) / f64::from(SIZE),
    )
}

/// Every sample of `got` against `want(u, v, channel)`.
fn assert_formula(
    what: &str,
    got: &Image,
    tolerance: f64,
    mut want: impl FnMut(f64, f64, usize) -> f64,
) {
    let c = got.channels;
    for (k, pixel) in got.data.chunks(c).enumerate() {
        let (u, v) = uv(k);
        for (ch, &value) in pixel.iter().enumerate() {
            let w = want(u, v, ch);
            assert!(
                (f64::from(value) - w).abs() <= tolerance,
                "{what} at ({u:.4}, {v:.4}) channel {ch}: got {value}, want {w}"
            );
        }
    }
}

/// Perlin noise of frequency 3, as a source the nodes below transform.
const NOISE: &str = r#"{ "id": "n", "type": "perlin", "params": { "frequency": 3 } }"#;

fn noise() -> Image {
    render(NOISE, "n", true)
}

/// The value of node `node` of `nodes` at (u, v), exactly: a `transform` of scale 0
/// reads it there for every pixel of a small render of the tileable graph.
fn value_at(nodes: &str, node: &str, u: f64, v: f64) -> f64 {
    let probe = format!(
        r#"{nodes}, {{ "id": "probe", "type": "transform", "params": {{ "scale_x": 0, "scale_y": 0, "offset_x": {u}, "offset_y": {v} }}, "inputs": {{ "source": "{node}" }} }}"#
    );
    let image = render_graph(
        &graph(&json(&probe, "probe", true)),
        None,
        2,
        RenderOptions::default(),
    );
    f64::from(image.data[0])
}

fn at(image: &Image, u: f64, v: f64) -> f64 {
    // The pixel holding (u, v), wrapped.
    let wrap = |c: f64| (c.rem_euclid(1.0) * f64::from(SIZE)).floor() as u32 % SIZE;
    f64::from(image.data[(wrap(v) * SIZE + wrap(u)) as usize])
}

#[test]
fn tone_nodes_follow_their_formulas() {
    let n = noise();
    let x = |u: f64, v: f64| at(&n, u, v);
    let invert = render(
        &format!(r#"{NOISE}, {{ "id": "i", "type": "invert", "inputs": {{ "input": "n" }} }}"#),
        "i",
        true,
    );
    assert_formula("invert", &invert, 1e-6, |u, v, _| 1.0 - x(u, v));
    let clamp = render(
        &format!(
            r#"{NOISE}, {{ "id": "c", "type": "clamp", "params": {{ "min": 0.4, "max": 0.55 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "c",
        true,
    );
    assert_formula("clamp", &clamp, 1e-6, |u, v, _| x(u, v).clamp(0.4, 0.55));
    let bc = render(
        &format!(
            r#"{NOISE}, {{ "id": "b", "type": "brightness_contrast", "params": {{ "brightness": 0.1, "contrast": 1.5 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "b",
        true,
    );
    assert_formula("brightness_contrast", &bc, 1e-5, |u, v, _| {
        ((x(u, v) - 0.5) * 2.5 + 0.6).clamp(0.0, 1.0)
    });
    // A color keeps its alpha and inverts r, g, b.
    let color = render(
        r##"{ "id": "c", "type": "uniform", "params": { "color": "#336699cc" } },
            { "id": "i", "type": "invert", "inputs": { "input": "c" } }"##,
        "i",
        true,
    );
    let want = [1.0 - 0.2, 1.0 - 0.4, 1.0 - 0.6, 0.8];
    assert_formula("inverted color", &color, 1e-6, |_, _, ch| want[ch]);
    let gray = render(
        r#"{ "id": "g", "type": "uniform", "params": { "type": "scalar", "value": 0.3 } }"#,
        "g",
        true,
    );
    assert_formula("uniform gray", &gray, 0.0, |_, _, _| f64::from(0.3f32));
}

#[test]
fn auto_levels_stretches_the_whole_image_to_the_full_range() {
    let squeezed = format!(
        r#"{NOISE}, {{ "id": "l", "type": "levels", "params": {{ "out_low": 0.3, "out_high": 0.6 }}, "inputs": {{ "input": "n" }} }},
           {{ "id": "a", "type": "auto_levels", "inputs": {{ "input": "l" }} }}"#
    );
    let before = render(&squeezed, "l", true);
    let after = render(&squeezed, "a", true);
    let (lo, hi) = before
        .data
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(hi - lo > 0.05 && hi <= 0.6 && lo >= 0.3);
    for (b, a) in before.data.iter().zip(&after.data) {
        let want = (f64::from(*b) - f64::from(lo)) / (f64::from(hi) - f64::from(lo));
        assert!(
            (f64::from(*a) - want).abs() < 1e-5,
            "{b} → {a}, want {want}"
        );
    }
    // A region of the render is the same pixels as the whole: the range is the whole's.
    let g = graph(&json(&squeezed, "a", true));
    let program = texgraph_core::compile(&g, None).unwrap();
    let options = RenderOptions::default();
    let whole = texgraph_core::render(&program, SIZE, SIZE, options.clone(), &|_| {}).unwrap();
    let region = Region {
        x: 40,
        y: 8,
        width: 16,
        height: 8,
    };
    let part = render_region(&program, SIZE, SIZE, region, options, &|_| {}).unwrap();
    for row in 0..8 {
        for col in 0..16 {
            let whole_at = (row + 8) * SIZE as usize + col + 40;
            assert_eq!(part.data[row * 16 + col], whole.data[whole_at]);
        }
    }
    // One value everywhere passes as it is.
    let flat = render(
        r#"{ "id": "c", "type": "constant", "params": { "value": 0.7 } }, { "id": "a", "type": "auto_levels", "inputs": { "input": "c" } }"#,
        "a",
        true,
    );
    assert!(flat.data.iter().all(|&v| v == 0.7));
}

#[test]
fn gradients_follow_their_formulas() {
    let linear = render(r#"{ "id": "g", "type": "gradient_linear" }"#, "g", false);
    assert_formula("gradient_linear", &linear, 1e-6, |u, _, _| u);
    let mirrored = render(
        r#"{ "id": "g", "type": "gradient_linear", "params": { "kind": "mirrored", "angle": 90, "repeat": 2 } }"#,
        "g",
        true,
    );
    // Towards the top: t = −2v.
    assert_formula("mirrored", &mirrored, 1e-5, |_, v, _| {
        let t = -2.0 * v;
        1.0 - (2.0 * (t - t.floor()) - 1.0).abs()
    });
    let radial = render(
        r#"{ "id": "g", "type": "gradient_radial", "params": { "center_x": 0.1, "radius": 0.3, "falloff": "spherical" } }"#,
        "g",
        true,
    );
    assert_formula("gradient_radial", &radial, 1e-5, |u, v, _| {
        // Distance to the nearest copy of the centre.
        let dx = (u - 0.1) - (u - 0.1).round();
        let dy = (v - 0.5) - (v - 0.5).round();
        let t = (1.0 - (dx * dx + dy * dy).sqrt() / 0.3).clamp(0.0, 1.0);
        (1.0 - (1.0 - t).powi(2)).sqrt()
    });
}

#[test]
fn mirror_symmetry_and_swirl_read_where_they_say() {
    let n = noise();
    let x = |u: f64, v: f64| at(&n, u, v);
    // Left onto right about u = 0.25 (and 0.75): the kept half is [−0.25, 0.25].
    let mirror = render(
        &format!(
            r#"{NOISE}, {{ "id": "m", "type": "mirror", "params": {{ "position": 0.25 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "m",
        true,
    );
    for k in 0..(SIZE * SIZE) as usize {
        let (u, v) = uv(k);
        let d = (u - 0.25 + 0.5).rem_euclid(1.0) - 0.5;
        let want = x(0.25 - d.abs(), v);
        // Pixel-exact only away from the folds, where the read position is a pixel centre.
        if (d.abs() - 0.5).abs() > 0.02 && d.abs() > 0.02 {
            let got = f64::from(mirror.data[k]);
            let neighbour = x(0.25 - d.abs() - 1.0 / f64::from(SIZE), v);
            assert!(
                (got - want).abs() < 0.02 + (want - neighbour).abs(),
                "mirror at ({u}, {v}): {got} vs {want}"
            );
        }
    }
    // A six-fold mirrored kaleidoscope: the same value at the six turns of a point and at
    // its mirror image.
    let sym =
        format!(r#"{NOISE}, {{ "id": "s", "type": "symmetry", "inputs": {{ "input": "n" }} }}"#);
    let (r, a) = (0.3f64, 0.4f64);
    let mut values = Vec::new();
    for k in 0..6 {
        for sign in [1.0, -1.0] {
            let angle = sign * a + f64::from(k) * std::f64::consts::TAU / 6.0;
            values.push(value_at(
                &sym,
                "s",
                0.5 + r * angle.cos(),
                0.5 - r * angle.sin(),
            ));
        }
    }
    for v in &values {
        assert!((v - values[0]).abs() < 1e-4, "{values:?}");
    }
    // And it is the input at the angle folded into the first half-wedge.
    let folded = value_at(NOISE, "n", 0.5 + r * a.cos(), 0.5 - r * a.sin());
    assert!(
        (values[0] - folded).abs() < 1e-4,
        "{} vs {folded}",
        values[0]
    );
    // Outside its radius the swirl is the input.
    let swirl = render(
        &format!(
            r#"{NOISE}, {{ "id": "s", "type": "swirl", "params": {{ "amount": 2, "radius": 0.3 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "s",
        true,
    );
    for k in 0..(SIZE * SIZE) as usize {
        let (u, v) = uv(k);
        if ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt() > 0.31 {
            assert!((f64::from(swirl.data[k]) - f64::from(n.data[k])).abs() < 1e-4);
        }
    }
}

#[test]
fn safe_transform_and_pixelate_move_whole_tiles() {
    // A quarter turn of a horizontal ramp is a vertical one; repeat 2 doubles it.
    let ramp = r#"{ "id": "r", "type": "gradient_linear", "params": { "kind": "mirrored" } }"#;
    let turned = render(
        &format!(
            r#"{ramp}, {{ "id": "t", "type": "safe_transform", "params": {{ "rotation": 80, "repeat": 2 }}, "inputs": {{ "input": "r" }} }}"#
        ),
        "t",
        true,
    );
    assert_formula("safe_transform", &turned, 1e-5, |_, v, _| {
        // Sampled at x' = −2·(v − ½) + ½.
        let t = -2.0 * (v - 0.5) + 0.5;
        1.0 - (2.0 * (t - t.floor()) - 1.0).abs()
    });
    let pixels = render(
        &format!(
            r#"{NOISE}, {{ "id": "p", "type": "pixelate", "params": {{ "columns": 8, "rows": 4 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "p",
        true,
    );
    // The blocks' centres, read from the noise itself.
    let mut centres = std::collections::HashMap::new();
    assert_formula("pixelate", &pixels, 1e-6, |u, v, _| {
        let (i, j) = ((u * 8.0).floor() as i32, (v * 4.0).floor() as i32);
        *centres.entry((i, j)).or_insert_with(|| {
            value_at(
                NOISE,
                "n",
                (f64::from(i) + 0.5) / 8.0,
                (f64::from(j) + 0.5) / 4.0,
            )
        })
    });
}

#[test]
fn highpass_is_the_input_less_its_blur() {
    let nodes = format!(
        r#"{NOISE}, {{ "id": "h", "type": "highpass", "params": {{ "radius": 0.03 }}, "inputs": {{ "input": "n" }} }},
           {{ "id": "b", "type": "blur", "params": {{ "radius": 0.03 }}, "inputs": {{ "input": "n" }} }}"#
    );
    let (x, b, h) = (
        render(&nodes, "n", true),
        render(&nodes, "b", true),
        render(&nodes, "h", true),
    );
    for k in 0..x.data.len() {
        let want = (f64::from(x.data[k]) - f64::from(b.data[k]) + 0.5).clamp(0.0, 1.0);
        assert!((f64::from(h.data[k]) - want).abs() < 1e-5);
    }
}

#[test]
fn selections_follow_their_formulas() {
    let n = noise();
    let select = render(
        &format!(
            r#"{NOISE}, {{ "id": "s", "type": "histogram_select", "params": {{ "position": 0.5, "range": 0.1, "contrast": 0.5 }}, "inputs": {{ "input": "n" }} }}"#
        ),
        "s",
        true,
    );
    assert_formula("histogram_select", &select, 1e-5, |u, v, _| {
        ((0.1 - (at(&n, u, v) - 0.5).abs()) / 0.05).clamp(0.0, 1.0)
    });
    let mask = render(
        r##"{ "id": "c", "type": "uniform", "params": { "color": "#ff3300" } },
            { "id": "m", "type": "color_to_mask", "params": { "color": "#ff0000", "range": 0.1, "softness": 0.2 }, "inputs": { "input": "c" } }"##,
        "m",
        true,
    );
    assert_formula("color_to_mask", &mask, 1e-5, |_, _, _| {
        ((0.3 - 0.2) / 0.2f64).clamp(0.0, 1.0)
    });
    let shuffle = render(
        &format!(
            r##"{NOISE}, {{ "id": "c", "type": "uniform", "params": {{ "color": "#336699" }} }},
                {{ "id": "s", "type": "channel_shuffle", "params": {{ "red": "a.b", "green": "b.r", "blue": "1", "alpha": "0" }},
                  "inputs": {{ "a": "c", "b": "n" }} }}"##
        ),
        "s",
        true,
    );
    assert_formula("channel_shuffle", &shuffle, 1e-6, |u, v, ch| {
        [0.6, at(&n, u, v), 1.0, 0.0][ch]
    });
    let flipped = render(
        r##"{ "id": "c", "type": "uniform", "params": { "color": "#4080ffff" } },
            { "id": "f", "type": "normal_invert", "params": { "invert_red": true }, "inputs": { "normal": "c" } }"##,
        "f",
        true,
    );
    let rgba = [64.0 / 255.0, 128.0 / 255.0, 1.0, 1.0];
    assert_formula("normal_invert", &flipped, 1e-6, |_, _, ch| {
        if ch < 2 { 1.0 - rgba[ch] } else { rgba[ch] }
    });
    let switch = render(
        &format!(
            r#"{NOISE}, {{ "id": "s", "type": "switch", "params": {{ "pick": "b" }}, "inputs": {{ "a": "n", "b": "n2" }} }},
                  {{ "id": "n2", "type": "constant", "params": {{ "value": 0.25 }} }}"#
        ),
        "s",
        true,
    );
    assert_formula("switch", &switch, 0.0, |_, _, _| 0.25);
}

#[test]
fn anisotropic_noise_is_streaks_of_whole_lattices() {
    let image = render(
        r#"{ "id": "a", "type": "anisotropic_noise", "params": { "x_amount": 2, "y_amount": 16, "smoothness": 0 } }"#,
        "a",
        true,
    );
    // Smoothness 0: each row of lattice cells is one hard band; along it the values
    // vary smoothly, so neighbours across a row differ far more than along it.
    let (mut along, mut across) = (0.0f64, 0.0f64);
    for row in 0..SIZE - 1 {
        for col in 0..SIZE - 1 {
            let p = |c: u32, r: u32| f64::from(image.data[(r * SIZE + c) as usize]);
            along = along.max((p(col + 1, row) - p(col, row)).abs());
            across += (p(col, row + 1) - p(col, row)).abs();
        }
    }
    assert!(along < 0.1, "along the streaks: {along}");
    assert!(across > 10.0, "across the streaks: {across}");
}

/// Tileable graphs of every new node, as (name, nodes, output): each must tile.
fn tiling_cases() -> Vec<(&'static str, String, &'static str)> {
    let on_noise = |node: &str, params: &str| {
        format!(
            r#"{NOISE}, {{ "id": "x", "type": "{node}", "params": {{ {params} }}, "inputs": {{ "input": "n" }} }}"#
        )
    };
    vec![
        ("invert", on_noise("invert", ""), "x"),
        ("clamp", on_noise("clamp", r#""min": 0.3"#), "x"),
        ("brightness_contrast", on_noise("brightness_contrast", r#""contrast": 2"#), "x"),
        ("auto_levels", on_noise("auto_levels", ""), "x"),
        ("highpass", on_noise("highpass", ""), "x"),
        ("mirror", on_noise("mirror", r#""kind": "corner", "position": 0.3"#), "x"),
        ("symmetry", on_noise("symmetry", r#""count": 4"#), "x"),
        ("swirl", on_noise("swirl", r#""amount": 1.5"#), "x"),
        ("safe_transform", on_noise("safe_transform", r#""rotation": 45, "offset_x": 0.3, "flip": "both""#), "x"),
        ("pixelate", on_noise("pixelate", ""), "x"),
        ("histogram_select", on_noise("histogram_select", ""), "x"),
        ("gradient_linear", r#"{ "id": "x", "type": "gradient_linear", "params": { "kind": "smooth", "angle": 33, "repeat": 3 } }"#.into(), "x"),
        ("gradient_radial", r#"{ "id": "x", "type": "gradient_radial", "params": { "center_x": 0.05, "radius": 0.45 } }"#.into(), "x"),
        ("anisotropic_noise", r#"{ "id": "x", "type": "anisotropic_noise" }"#.into(), "x"),
        ("polar (to_cartesian, across)", on_noise("polar", r#""direction": "to_cartesian""#), "x"),
        ("tile_sampler", r#"{ "id": "x", "type": "tile_sampler", "params": { "position_random": 1, "rotation_random": 1, "scale": 1.5, "pattern": "paraboloid", "offset": 0.5, "y_amount": 6 } }"#.into(), "x"),
    ]
}

#[test]
fn every_new_node_tiles_and_gives_the_same_bits_everywhere() {
    for (name, nodes, out) in tiling_cases() {
        let g = graph(&json(&nodes, out, true));
        let image = render_graph(&g, None, 128, RenderOptions::default());
        let (w, h) = (image.width as usize, image.height as usize);
        let px = |x: usize, y: usize| image.data[(y % h) * w + x % w];
        // The jump across the wrap is no larger than the largest jump inside.
        let (mut inside, mut wrap) = (0.0f32, 0.0f32);
        for y in 0..h {
            for x in 0..w {
                let d = (px(x + 1, y) - px(x, y)).abs();
                if x + 1 < w {
                    inside = inside.max(d)
                } else {
                    wrap = wrap.max(d)
                }
            }
        }
        if name.starts_with("polar") {
            // Unwrapped polar coordinates tile across (the angle goes round), not down.
            assert!(wrap <= inside, "{name}: seam {wrap}, inside {inside}");
        } else {
            let (mut inside_v, mut wrap_v) = (0.0f32, 0.0f32);
            for y in 0..h {
                for x in 0..w {
                    let d = (px(x, y + 1) - px(x, y)).abs();
                    if y + 1 < h {
                        inside_v = inside_v.max(d)
                    } else {
                        wrap_v = wrap_v.max(d)
                    }
                }
            }
            assert!(
                wrap <= inside && wrap_v <= inside_v,
                "{name}: seams {wrap}/{wrap_v}, inside {inside}/{inside_v}"
            );
        }
        for options in [
            RenderOptions {
                threads: Some(1),
                tile: [64, 64],
                cancel: None,
            },
            RenderOptions {
                threads: Some(3),
                tile: [17, 5],
                cancel: None,
            },
        ] {
            let other = render_graph(&g, None, 128, options);
            assert!(
                same_bits(&image, &other),
                "{name}: other bits with other threads or tiles"
            );
        }
    }
}
