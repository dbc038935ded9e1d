//! Seed-0 `perlin` equals Ken Perlin's reference ImprovedNoise.

use crate::common;

use texgraph_core::RenderOptions;
use texgraph_core::kernels::noise::{Permutation, perlin3};

/// (x, y, z, ImprovedNoise.noise(x, y, z)) from the reference Java code run in double
/// precision on these coordinates rounded to f32.
#[allow(clippy::approx_constant)] // 3.14 is the reference's own test point
const REFERENCE: &[(f32, f32, f32, f64)] = &[
    (3.14, 42.0, 7.0, 0.13692005499327092),
    (0.5, 0.5, 0.5, -0.25),
    (1.25, 2.75, 0.0, 0.15452098846435547),
    (-0.3, -1.7, 0.0, 0.0595619421511501),
    (-12.625, 4.375, -3.5, 0.56128747202456),
    (2.0, 3.0, 0.0, 0.0),
    (1.0, 0.999, 0.0, -0.0009999871154122365),
    (0.999, 1.0, 0.25, -0.0007929506233499287),
    (255.5, 256.5, 0.0, -0.25),
    (-256.75, 100.1, 10.9, -0.16578016202804624),
    (7.77, -8.88, 0.3, -0.34452654398015237),
];

#[test]
fn kernel_matches_reference_values() {
    let perm = Permutation::for_seed(0);
    for &(x, y, z, expected) in REFERENCE {
        let got = perlin3(&perm, x, y, z, None);
        assert!(
            (f64::from(got) - expected).abs() < 2e-6,
            "noise({x}, {y}, {z}) = {got}, reference {expected}"
        );
    }
}

/// The reference algorithm in f64, for comparing whole rendered images.
fn reference_noise(x: f64, y: f64, z: f64) -> f64 {
    let p = &Permutation::for_seed(0).0;
    let fade = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let lerp = |t: f64, a: f64, b: f64| a + t * (b - a);
    let grad = |hash: u8, x: f64, y: f64, z: f64| {
        let h = hash & 15;
        let u = if h < 8 { x } else { y };
        let v = if h < 4 {
            y
        } else if h == 12 || h == 14 {
            x
        } else {
            z
        };
        (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
    };
    let (xi, yi, zi) = (
        x.floor() as i64 & 255,
        y.floor() as i64 & 255,
        z.floor() as i64 & 255,
    );
    let (x, y, z) = (x - x.floor(), y - y.floor(), z - z.floor());
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let pi = |i: i64| i64::from(p[i as usize]);
    let a = pi(xi) + yi;
    let (aa, ab) = (pi(a) + zi, pi(a + 1) + zi);
    let b = pi(xi + 1) + yi;
    let (ba, bb) = (pi(b) + zi, pi(b + 1) + zi);
    let g = |i: i64| p[i as usize];
    lerp(
        w,
        lerp(
            v,
            lerp(u, grad(g(aa), x, y, z), grad(g(ba), x - 1.0, y, z)),
            lerp(
                u,
                grad(g(ab), x, y - 1.0, z),
                grad(g(bb), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad(g(aa + 1), x, y, z - 1.0),
                grad(g(ba + 1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad(g(ab + 1), x, y - 1.0, z - 1.0),
                grad(g(bb + 1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is the input the reference value is quoted for
fn f64_port_is_the_reference() {
    // The value quoted with Perlin's reference implementation.
    assert_eq!(reference_noise(3.14, 42.0, 7.0), 0.13691995878400012);
}

#[test]
fn perlin_node_renders_the_reference_noise() {
    let g = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin", "params": { "frequency": 5.3, "z": -1.7 } },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
    );
    let size = 61;
    let image = common::render_graph(&g, None, size, RenderOptions::default());
    let mut worst = 0.0f64;
    for row in 0..size {
        for col in 0..size {
            let u = (col as f32 + 0.5) / size as f32;
            let v = (row as f32 + 0.5) / size as f32;
            let expected = 0.5
                + 0.5 * reference_noise(f64::from(u * 5.3), f64::from(v * 5.3), f64::from(-1.7f32));
            let got = f64::from(common::at(&image, col, row, 0));
            worst = worst.max((got - expected).abs());
        }
    }
    assert!(
        worst < 1e-5,
        "largest difference from the reference: {worst}"
    );
}

#[test]
fn other_seeds_shuffle_the_table_deterministically() {
    let a = Permutation::for_seed(1);
    assert_eq!(a, Permutation::for_seed(1));
    assert_ne!(a, Permutation::for_seed(0));
    assert_ne!(a, Permutation::for_seed(2));
    let mut sorted = a.0[..256].to_vec();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        (0..=255).collect::<Vec<u8>>(),
        "still a permutation"
    );
    assert_eq!(a.0[..256], a.0[256..], "stored twice");
}
