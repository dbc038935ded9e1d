//! `simplex` against what simplex noise must be: zero at every lattice point with the
//! corner's gradient as its slope there, within [−1, 1], continuous across simplex
//! borders, and seamless when tiled.

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;
use texgraph_core::kernels::simplex::{seed_term, simplex_torus, simplex2, simplex3, simplex4};

/// A reproducible stream of numbers in [0, 1).
fn stream(mut state: u64) -> impl FnMut() -> f32 {
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[test]
fn zero_at_lattice_points_with_one_of_eight_gradients() {
    // The unskewed lattice point (i, j) is (i − (i + j)·G2, j − (i + j)·G2). The nearest
    // other corners are √(2/3) away, beyond the falloff radius √0.5, so only this
    // corner counts: n = 0 and ∇n = 70·0.5⁴·g.
    const G2: f64 = 0.211_324_865_405_187_1;
    let seed = seed_term(4);
    let mut seen = std::collections::BTreeSet::new();
    for i in -20..20 {
        for j in -20..20 {
            let (x, y) = (
                f64::from(i) - f64::from(i + j) * G2,
                f64::from(j) - f64::from(i + j) * G2,
            );
            let at = |dx: f64, dy: f64| f64::from(simplex2((x + dx) as f32, (y + dy) as f32, seed));
            let n = at(0.0, 0.0);
            // f32 positions near 20 are off by up to 2e-6, and the slope is about 6.
            assert!(n.abs() < 5e-5, "n = {n} at lattice point ({i}, {j})");
            let e = 1e-3;
            let gx = (at(e, 0.0) - at(-e, 0.0)) / (2.0 * e) / (70.0 * 0.0625);
            let gy = (at(0.0, e) - at(0.0, -e)) / (2.0 * e) / (70.0 * 0.0625);
            let length = (gx * gx + gy * gy).sqrt();
            assert!(
                (length - 2f64.sqrt()).abs() < 0.02,
                "|g| = {length} at ({i}, {j})"
            );
            let angle = gy.atan2(gx).to_degrees();
            let octant = (angle / 45.0).round();
            assert!(
                (angle - 45.0 * octant).abs() < 1.0,
                "g at {angle}° at ({i}, {j})"
            );
            seen.insert((octant as i32).rem_euclid(8)); // 180° and −180° are one direction
        }
    }
    assert_eq!(seen.len(), 8, "every direction occurs: {seen:?}");
}

#[test]
fn zero_at_lattice_points_in_3d_and_4d() {
    let seed = seed_term(1);
    for i in -6..6 {
        for j in -6..6 {
            for k in -3..3 {
                let s = f64::from(i + j + k) / 6.0;
                let p = [i, j, k].map(|c| (f64::from(c) - s) as f32);
                assert!(simplex3(p[0], p[1], p[2], seed).abs() < 5e-5);
                let l = (i * j) % 5;
                let s = f64::from(i + j + k + l) * 0.138_196_601_125_010_5;
                let q = [i, j, k, l].map(|c| (f64::from(c) - s) as f32);
                assert!(simplex4(q, seed).abs() < 5e-5, "4D at {q:?}");
            }
        }
    }
}

#[test]
fn values_stay_in_range_and_use_it() {
    let seed = seed_term(9);
    let mut next = stream(3);
    let mut range = [(f32::MAX, f32::MIN); 3];
    for _ in 0..200_000 {
        let p = [next(), next(), next(), next()].map(|c| c * 40.0 - 20.0);
        let values = [
            simplex2(p[0], p[1], seed),
            simplex3(p[0], p[1], p[2], seed),
            simplex4(p, seed),
        ];
        for (r, v) in range.iter_mut().zip(values) {
            assert!((-1.0..=1.0).contains(&v), "{v} at {p:?}");
            *r = (r.0.min(v), r.1.max(v));
        }
    }
    for (dims, (low, high)) in [2, 3, 4].iter().zip(range) {
        assert!(
            low < -0.75 && high > 0.75,
            "{dims}D spans only [{low}, {high}]"
        );
    }
}

#[test]
fn continuous_across_simplex_borders() {
    // Along long lines crossing hundreds of simplex borders, neighbouring samples 1e-3
    // apart never differ by more than the steepest slope allows.
    let seed = seed_term(2);
    let step = 1e-3f32;
    for (dx, dy) in [(1.0f32, 0.0f32), (0.6, 0.8), (-0.28, 0.96)] {
        let mut largest = [0.0f32; 3];
        let mut previous: Option<[f32; 3]> = None;
        for n in 0..60_000 {
            let t = n as f32 * step;
            let (x, y) = (0.37 + t * dx, -5.1 + t * dy);
            let now = [
                simplex2(x, y, seed),
                simplex3(x, y, 0.43, seed),
                simplex_torus(x, y, 0.2, 16.0, seed),
            ];
            if let Some(before) = previous {
                for d in 0..3 {
                    largest[d] = largest[d].max((now[d] - before[d]).abs());
                }
            }
            previous = Some(now);
        }
        for (d, jump) in largest.iter().enumerate() {
            assert!(
                *jump < 0.02,
                "largest step {jump} in variant {d} along ({dx}, {dy})"
            );
        }
    }
}

#[test]
fn tileable_simplex_repeats_exactly_at_its_period() {
    let seed = seed_term(6);
    let mut next = stream(8);
    for period in [1.0f32, 3.0, 8.0, 37.0] {
        for _ in 0..2000 {
            let (x, y, z) = (next() * period, next() * period, next() * 3.0);
            let a = simplex_torus(x, y, z, period, seed);
            let b = simplex_torus(x + period, y - period, z, period, seed);
            assert!(
                (a - b).abs() < 2e-4,
                "period {period} at ({x}, {y}): {a} vs {b}"
            );
        }
    }
}

#[test]
fn tileable_renders_wrap_like_their_interior() {
    for dims in ["2d", "3d"] {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": true }}, "nodes": [
                 {{ "id": "s", "type": "simplex", "params": {{ "frequency": 5.4, "dimensions": "{dims}", "z": 0.6 }} }},
                 {{ "id": "out", "type": "output", "inputs": {{ "color": "s" }} }} ] }}"#
        );
        let size = 128;
        let image = render_graph(&graph(&json), None, size, RenderOptions::default());
        let px = |x: u32, y: u32| image.data[(y * size + x) as usize];
        let (mut interior, mut wrap) = (0.0f32, 0.0f32);
        for y in 0..size {
            for x in 0..size {
                let jump = (px((x + 1) % size, y) - px(x, y))
                    .abs()
                    .max((px(x, (y + 1) % size) - px(x, y)).abs());
                if x + 1 == size || y + 1 == size {
                    wrap = wrap.max(jump);
                } else {
                    interior = interior.max(jump);
                }
            }
        }
        assert!(interior > 0.01, "{dims}: the noise varies");
        assert!(
            wrap <= interior,
            "{dims}: seam {wrap} against interior {interior}"
        );
    }
}
