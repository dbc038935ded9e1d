//! The material ball: physics checks (a white furnace, occlusion, emission, metals), normal
//! maps, and the same bits whatever the thread count.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use texgraph_core::Image;
use texgraph_core::RenderOptions;
use texgraph_core::ball::{
    Background, BallSettings, Environment, EnvironmentImage, Ground, Heightfield, Lighting,
    MaterialMaps, Shape, Vec3, flip_green, material_maps, render_ball, render_ball_lit,
    render_radiance, solid, v3,
};

use crate::common;

fn gray(v: f32) -> Image {
    solid([v; 4], 1)
}

fn color(c: [f32; 3]) -> Image {
    solid([c[0], c[1], c[2], 1.0], 4)
}

/// A small sphere in a uniform environment of `env`, key light off, no tone mapping.
fn furnace_settings(env: f32) -> BallSettings {
    BallSettings {
        size: 64,
        environment: Environment::Uniform([env; 3]),
        light_intensity: 0.0,
        tone_map: false,
        background: Background::Transparent,
        ..BallSettings::default()
    }
}

/// The straight (un-premultiplied) RGB of the pixels the shape covers fully.
fn covered(image: &Image) -> Vec<[f32; 3]> {
    image
        .data
        .chunks(4)
        .filter(|p| p[3] == 1.0)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

fn luminance(p: [f32; 3]) -> f32 {
    0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
}

/// The summed luminance of an RGBA image's left and right halves.
fn halves(image: &Image) -> (f32, f32) {
    let size = image.width as usize;
    let (mut left, mut right) = (0.0, 0.0);
    for (i, p) in image.data.chunks(4).enumerate() {
        let l = luminance([p[0], p[1], p[2]]);
        if i % size < size / 2 {
            left += l
        } else {
            right += l
        }
    }
    (left, right)
}

#[test]
fn a_white_dielectric_in_a_white_furnace_is_uniformly_white() {
    let maps = MaterialMaps {
        base_color: color([1.0; 3]),
        roughness: gray(1.0),
        metallic: gray(0.0),
        ..MaterialMaps::neutral()
    };
    for shape in [Shape::Sphere, Shape::Cube, Shape::Cylinder, Shape::Plane] {
        let image = render_radiance(
            &maps,
            &BallSettings {
                shape,
                ..furnace_settings(1.0)
            },
        );
        let pixels = covered(&image);
        assert!(pixels.len() > 500, "{shape:?}: {} pixels", pixels.len());
        // The diffuse takes what the split-sum specular leaves (1 − f0·A − B) and the
        // prefiltered light of a uniform environment is exactly 1, so only the spherical
        // harmonics (the texels' solid angles sum to 4π but for rounding; the other bands'
        // sums cancel to ~1e-6) and f32 rounding are left: 1·(1 − Fss) + Fss = 1 for any Fss.
        for p in &pixels {
            for c in p {
                assert!((c - 1.0).abs() < 2e-3, "{shape:?}: {p:?}");
            }
        }
    }
}

#[test]
fn the_side_facing_the_key_light_is_brighter() {
    let settings = BallSettings {
        light_intensity: 3.0,
        ..furnace_settings(0.1)
    };
    let image = render_radiance(&MaterialMaps::neutral(), &settings);
    let (left, right) = halves(&image);
    // The default key light is at the upper left, 45° from the camera: it still lights a
    // sliver of the right half, and the dim environment lights both halves alike, so the
    // left half gets about 1.8 times the right's light.
    assert!(left > 1.5 * right, "left {left}, right {right}");
    let top: f32 = image.data[..image.data.len() / 2]
        .chunks(4)
        .map(|p| p[0])
        .sum();
    let bottom: f32 = image.data[image.data.len() / 2..]
        .chunks(4)
        .map(|p| p[0])
        .sum();
    assert!(top > bottom, "top {top}, bottom {bottom}");
}

#[test]
fn a_smooth_surface_shows_a_sharp_highlight_a_rough_one_does_not() {
    let peak = |roughness: f32| {
        let maps = MaterialMaps {
            roughness: gray(roughness),
            ..MaterialMaps::neutral()
        };
        let settings = BallSettings {
            size: 96,
            light_intensity: 3.0,
            ..furnace_settings(0.1)
        };
        let image = render_radiance(&maps, &settings);
        image.data.chunks(4).map(|p| p[0]).fold(0.0f32, f32::max)
    };
    let (smooth, rough) = (peak(0.0), peak(1.0));
    assert!(smooth > 5.0 * rough, "smooth {smooth}, rough {rough}");
}

#[test]
fn metals_tint_their_reflections_and_have_no_diffuse() {
    let red_metal = MaterialMaps {
        base_color: color([1.0, 0.0, 0.0]),
        metallic: gray(1.0),
        roughness: gray(0.4),
        ..MaterialMaps::neutral()
    };
    let image = render_radiance(&red_metal, &furnace_settings(1.0));
    for p in covered(&image) {
        assert!(p[0] > 4.0 * p[1].max(p[2]) && p[0] > 0.5, "{p:?}");
    }

    // Black environment, key light from behind the camera: a metal's rim (where the
    // half vector is far from the normal) is dark, a dielectric's diffuse is not.
    let rim = |metallic: f32| {
        let maps = MaterialMaps {
            base_color: color([0.8; 3]),
            metallic: gray(metallic),
            roughness: gray(0.3),
            ..MaterialMaps::neutral()
        };
        let settings = BallSettings {
            light_azimuth: 0.0,
            light_elevation: 0.0,
            light_intensity: 3.0,
            ..furnace_settings(0.0)
        };
        let image = render_radiance(&maps, &settings);
        let size = image.width as f32;
        let mut sum = 0.0;
        for (i, p) in image.data.chunks(4).enumerate() {
            let x = (i % image.width as usize) as f32 + 0.5 - size / 2.0;
            let y = (i / image.width as usize) as f32 + 0.5 - size / 2.0;
            let r = (x * x + y * y).sqrt() / (size / 2.0);
            if (0.55..0.75).contains(&r) && p[3] == 1.0 {
                sum += p[0];
            }
        }
        sum
    };
    // GGX's long tail still reflects a little of the light at 40° off the half vector
    // (about 2% of the dielectric's diffuse here); a metal with a diffuse term would
    // match the dielectric.
    let (metal, dielectric) = (rim(1.0), rim(0.0));
    assert!(
        metal < 0.05 * dielectric,
        "metal {metal}, dielectric {dielectric}"
    );
}

/// A bumpy normal map of dyadic values (so 1 − g is exact both ways).
fn bumpy() -> Image {
    let n = 8;
    let mut data = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let dx = ((x * 5 + y * 3) % 8) as f32 / 16.0 - 0.25;
            let dy = ((x * 3 + y * 7) % 8) as f32 / 16.0 - 0.25;
            data.extend([0.5 + dx, 0.5 + dy, 0.875, 1.0]);
        }
    }
    Image {
        width: n,
        height: n,
        channels: 4,
        data,
    }
}

#[test]
fn flat_normal_maps_change_nothing_and_a_flipped_map_flipped_back_renders_the_same() {
    let settings = BallSettings {
        size: 64,
        ..BallSettings::default()
    };
    let plain = render_ball(&MaterialMaps::neutral(), &settings);
    let flat = MaterialMaps {
        normal: Image {
            width: 4,
            height: 4,
            channels: 4,
            data: [0.5, 0.5, 1.0, 1.0].repeat(16),
        },
        ..MaterialMaps::neutral()
    };
    assert_eq!(render_ball(&flat, &settings).data, plain.data);

    let bump = MaterialMaps {
        normal: bumpy(),
        ..MaterialMaps::neutral()
    };
    let bumped = render_ball(&bump, &settings);
    let changed = bumped
        .data
        .iter()
        .zip(&plain.data)
        .filter(|(a, b)| (*a - *b).abs() > 1e-3)
        .count();
    assert!(changed > 1000, "{changed} samples changed");

    let directx = flip_green(&bump.normal);
    assert_ne!(directx.data, bump.normal.data);
    let undone = MaterialMaps {
        normal: flip_green(&directx),
        ..MaterialMaps::neutral()
    };
    assert_eq!(render_ball(&undone, &settings).data, bumped.data);
}

#[test]
fn occlusion_scales_the_environments_light() {
    let settings = furnace_settings(1.0);
    let full = render_radiance(&MaterialMaps::neutral(), &settings);
    let half = render_radiance(
        &MaterialMaps {
            occlusion: gray(0.5),
            ..MaterialMaps::neutral()
        },
        &settings,
    );
    let (a, b) = (covered(&full), covered(&half));
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        for c in 0..3 {
            assert!((b[c] - 0.5 * a[c]).abs() < 1e-5, "{a:?} {b:?}");
        }
    }
}

#[test]
fn emission_shows_without_light() {
    let settings = furnace_settings(0.0);
    let dark = render_radiance(&MaterialMaps::neutral(), &settings);
    assert!(covered(&dark).iter().all(|p| *p == [0.0; 3]));
    let glowing = render_radiance(
        &MaterialMaps {
            emissive: color([1.0, 0.0, 0.0]),
            ..MaterialMaps::neutral()
        },
        &settings,
    );
    let pixels = covered(&glowing);
    assert!(!pixels.is_empty());
    assert!(
        pixels.iter().all(|p| *p == [1.0, 0.0, 0.0]),
        "{:?}",
        pixels[0]
    );
}

#[test]
fn any_thread_count_gives_the_same_bits() {
    let maps = MaterialMaps {
        normal: bumpy(),
        roughness: gray(0.3),
        ..MaterialMaps::neutral()
    };
    let dir = tempfile::tempdir().unwrap();
    // A file environment: a gradient sky with a bright patch, read back from a Radiance file.
    let file = Environment::load(&write_environment(
        dir.path(),
        "sky.hdr",
        256,
        128,
        |u, v| {
            let sun = if (u - 0.3).abs() < 0.02 && (v - 0.3).abs() < 0.04 {
                40.0
            } else {
                0.0
            };
            [
                0.2 + u + sun,
                0.3 + 0.5 * (1.0 - v) + sun,
                0.9 - 0.6 * v + sun,
            ]
        },
    ))
    .unwrap();
    for (shape, environment) in [
        (Shape::Sphere, Environment::Sky),
        (Shape::Cube, Environment::Sky),
        (Shape::Sphere, file),
    ] {
        let settings = BallSettings {
            size: 48,
            shape,
            depth: 0.05,
            environment,
            ..BallSettings::default()
        };
        let render = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| render_ball(&maps, &settings))
        };
        let one = render(1);
        assert_eq!(one.data, render(2).data, "{shape:?}");
        assert_eq!(one.data, render(3).data, "{shape:?}");
        // Light precomputed once and reused gives the same bits.
        let lighting = Lighting::new(settings.environment.clone());
        assert_eq!(render_ball_lit(&maps, &settings, &lighting).data, one.data);
    }
}

#[test]
fn a_graphs_maps_are_rendered_together_and_the_missing_ones_are_neutral() {
    let graph = common::graph(
        r##"{
  "format": "texgraph", "version": 4, "name": "bumps",
  "settings": { "tileable": true },
  "nodes": [
    { "id": "h", "type": "fbm", "params": { "frequency": 4, "octaves": 3, "seed": 1 } },
    { "id": "n", "type": "normal", "params": { "strength": 2 }, "inputs": { "height": "h" } },
    { "id": "base", "type": "output", "params": { "name": "base", "usage": "basecolor" }, "inputs": { "color": "h" } },
    { "id": "nrm", "type": "output", "params": { "name": "nrm", "usage": "normal" }, "inputs": { "color": "n" } },
    { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "h" } }
  ]
}"##,
    );
    let maps = material_maps(&graph, 32, RenderOptions::default()).unwrap();
    for (image, channels) in [(&maps.base_color, 4), (&maps.normal, 4), (&maps.height, 1)] {
        assert_eq!(
            (image.width, image.height, image.channels),
            (32, 32, channels)
        );
    }
    // One channel into base color is gray.
    assert!(
        maps.base_color
            .data
            .chunks(4)
            .all(|p| p[0] == p[1] && p[1] == p[2] && p[3] == 1.0)
    );
    let height = common::render_graph(&graph, Some("height"), 32, RenderOptions::default());
    assert_eq!(maps.height.data, height.data);
    for (image, value) in [
        (&maps.roughness, 1.0),
        (&maps.metallic, 0.0),
        (&maps.occlusion, 1.0),
    ] {
        assert_eq!((image.width, image.data.as_slice()), (1, &[value][..]));
    }
    let settings = BallSettings {
        size: 32,
        depth: 0.03,
        ..BallSettings::default()
    };
    let flat = render_ball(&MaterialMaps::neutral(), &settings);
    assert_ne!(render_ball(&maps, &settings).data, flat.data);
}

#[test]
fn each_shapes_tangent_runs_along_u_and_its_bitangent_up_the_image() {
    let origins = [
        v3(0.0, 0.0, 5.0),
        v3(3.0, 2.5, 3.0),
        v3(-3.5, -2.0, 2.5),
        v3(0.5, 4.5, 1.0),
    ];
    // A sloping, rippled terrain: its ground has a texture direction; its walls, which
    // repeat the edge's texels downwards, have none.
    let heights = (0..32 * 32)
        .map(|k| 0.3 + 0.01 * (k % 32) as f32 + 0.01 * ((k / 32) as f32 * 0.3).sin())
        .collect();
    let field = Heightfield::new(32, 32, heights);
    let ground = Ground {
        field: &field,
        relief: 0.4,
    };
    for shape in Shape::ALL {
        let mut checked = 0;
        for origin in origins {
            for i in 0..15 {
                for j in 0..15 {
                    let target = v3(i as f32 / 7.0 - 1.0, j as f32 / 7.0 - 1.0, 0.0);
                    let dir = (target - origin).normalize();
                    let Some(hit) = shape.intersect(origin, dir, 2.0, ground) else {
                        continue;
                    };
                    if shape == Shape::Terrain && hit.normal.y < 0.5 {
                        continue;
                    }
                    let (n, t, b) = (hit.normal, hit.tangent, hit.bitangent);
                    assert!((t.length() - 1.0).abs() < 1e-4 && n.dot(t).abs() < 1e-4);
                    assert!((b - n.cross(t)).length() < 1e-5);
                    assert!(n.dot(-dir) > 0.0, "{shape:?}: the hit faces the ray");
                    let step = |d: Vec3| {
                        let p = hit.position + d * 2e-3;
                        let h = shape.intersect(origin, (p - origin).normalize(), 2.0, ground)?;
                        let du = h.uv[0] - hit.uv[0];
                        let dv = h.uv[1] - hit.uv[1];
                        // Skip seams and edges, where UV jumps.
                        (du.abs() < 0.1 && dv.abs() < 0.1 && h.normal.dot(n) > 0.99)
                            .then_some((du, dv))
                    };
                    if let (Some((du, dv)), Some((bu, bv))) = (step(t), step(b)) {
                        assert!(
                            du > 0.0 && dv.abs() < 0.2 * du,
                            "{shape:?} {hit:?}: {du} {dv}"
                        );
                        assert!(
                            bv < 0.0 && bu.abs() < 0.2 * -bv,
                            "{shape:?} {hit:?}: {bu} {bv}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{shape:?}: {checked} points");
    }
}

/// A normal map of one tilt: `x`, `y` in [-1, 1] tangent space.
fn tilted(x: f32, y: f32) -> Image {
    let z = (1.0 - x * x - y * y).sqrt();
    color([0.5 + 0.5 * x, 0.5 + 0.5 * y, 0.5 + 0.5 * z])
}

#[test]
fn normal_maps_tilt_towards_u_and_up_the_image_opengl_style() {
    for shape in [Shape::Plane, Shape::Sphere] {
        let lit = |normal: Image, azimuth: f32, elevation: f32| {
            let maps = MaterialMaps {
                normal,
                ..MaterialMaps::neutral()
            };
            let settings = BallSettings {
                shape,
                light_azimuth: azimuth,
                light_elevation: elevation,
                light_intensity: 3.0,
                ..furnace_settings(0.0)
            };
            let image = render_radiance(&maps, &settings);
            // The centre pixel.
            let c = (image.width / 2 * image.width + image.width / 2) as usize * 4;
            image.data[c]
        };
        // Tilted right (+u): lit from the right more than from the left.
        let right = tilted(0.5, 0.0);
        assert!(
            lit(right.clone(), 60.0, 0.0) > 1.5 * lit(right, -60.0, 0.0),
            "{shape:?}"
        );
        // Tilted up the image (green up): lit from above more than from below.
        let up = tilted(0.0, 0.5);
        assert!(
            lit(up.clone(), 0.0, 60.0) > 1.5 * lit(up, 0.0, -60.0),
            "{shape:?}"
        );
    }
}

#[test]
fn parallax_leaves_a_surface_at_full_height_alone_and_moves_a_varied_one() {
    let base = Image {
        width: 4,
        height: 4,
        channels: 4,
        data: (0..16)
            .flat_map(|i| [(i % 4) as f32 / 4.0, (i / 4) as f32 / 4.0, 0.5, 1.0])
            .collect(),
    };
    let settings = |depth: f32| BallSettings {
        size: 64,
        depth,
        ..BallSettings::default()
    };
    let top = MaterialMaps {
        base_color: base.clone(),
        height: gray(1.0),
        ..MaterialMaps::neutral()
    };
    let plain = render_ball(&top, &settings(0.0));
    assert_eq!(render_ball(&top, &settings(0.05)).data, plain.data);
    let varied = MaterialMaps {
        height: Image {
            width: 4,
            height: 4,
            channels: 1,
            data: (0..16).map(|i| ((i * 7) % 16) as f32 / 15.0).collect(),
        },
        ..top
    };
    assert_eq!(render_ball(&varied, &settings(0.0)).data, plain.data);
    assert_ne!(render_ball(&varied, &settings(0.05)).data, plain.data);
}

#[test]
fn orbiting_with_the_light_and_environment_turned_alike_shows_the_same_sphere() {
    // A uniform material on a sphere: turning the camera, the environment and the key light
    // together about the up axis changes nothing but rounding.
    let maps = MaterialMaps {
        base_color: color([0.7, 0.3, 0.2]),
        roughness: gray(0.35),
        ..MaterialMaps::neutral()
    };
    let still = BallSettings {
        size: 48,
        environment: Environment::Sky,
        ..BallSettings::default()
    };
    let turned = BallSettings {
        orbit: [40.0, 0.0],
        environment_turn: 40.0,
        ..still.clone()
    };
    let (a, b) = (
        render_radiance(&maps, &still),
        render_radiance(&maps, &turned),
    );
    let worst = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 2e-3, "largest difference {worst}");
    // Orbiting alone shows the sphere from its dark side: the key light stays in the
    // world (here in a dim environment).
    let dim = BallSettings {
        environment: Environment::Uniform([0.05; 3]),
        background: Background::Transparent,
        ..still
    };
    let a = render_radiance(&maps, &dim);
    let orbited = render_radiance(
        &maps,
        &BallSettings {
            orbit: [180.0, 0.0],
            ..dim.clone()
        },
    );
    let mean = |image: &Image| {
        let lit: Vec<f32> = covered(image).into_iter().map(luminance).collect();
        lit.iter().sum::<f32>() / lit.len() as f32
    };
    assert!(
        mean(&orbited) < 0.6 * mean(&a),
        "{} {}",
        mean(&orbited),
        mean(&a)
    );
}

#[test]
fn zoom_moves_the_camera_closer_by_its_factor() {
    // The sphere's silhouette is a disc of tangent radius 1/√(D² − 1) for a camera at
    // distance D = 3.8 / zoom, in a view 2·0.3 wide: its share of the frame is known.
    for zoom in [0.8f32, 1.0] {
        let settings = BallSettings {
            size: 256,
            samples: 1,
            zoom,
            background: Background::Transparent,
            ..BallSettings::default()
        };
        let image = render_ball(&MaterialMaps::neutral(), &settings);
        let covered = image.data.chunks(4).filter(|p| p[3] > 0.5).count() as f64;
        let share = covered / (256.0 * 256.0);
        let d = 3.8 / f64::from(zoom);
        let radius = 1.0 / (d * d - 1.0).sqrt() / 0.3;
        let expected = std::f64::consts::PI * radius * radius / 4.0;
        assert!(
            (share - expected).abs() < 0.005,
            "zoom {zoom}: {share} vs {expected}"
        );
    }
}

/// The rounded cube's signed distance: the box of half-side 0.75 − 0.12 grown by 0.12.
fn rounded_cube_sdf(p: [f64; 3]) -> f64 {
    const INNER: f64 = 0.75 - 0.12;
    let q = p.map(|v| v.abs() - INNER);
    let outside = q.map(|v| v.max(0.0));
    let length =
        (outside[0] * outside[0] + outside[1] * outside[1] + outside[2] * outside[2]).sqrt();
    length + q[0].max(q[1]).max(q[2]).min(0.0) - 0.12
}

/// Rays from several camera positions (the cube's own camera among them) through a grid
/// that reaches past the cube's silhouette.
fn cube_rays() -> Vec<(Vec3, Vec3)> {
    let (az, el) = (35f32.to_radians(), 25f32.to_radians());
    let camera = v3(el.cos() * az.sin(), el.sin(), el.cos() * az.cos()) * (3.8 * 1.2);
    let origins = [
        camera,
        v3(0.0, 0.0, 5.0),
        v3(3.0, 2.5, 3.0),
        v3(-3.5, -2.0, 2.5),
        v3(0.5, 4.5, 1.0),
        v3(2.0, -3.0, -3.0),
    ];
    let mut rays = Vec::new();
    for origin in origins {
        let forward = (-origin).normalize();
        let right = forward.cross(v3(0.0, 1.0, 0.0)).normalize();
        let up = right.cross(forward);
        for i in 0..=60 {
            for j in 0..=60 {
                let (x, y) = (i as f32 / 30.0 - 1.0, j as f32 / 30.0 - 1.0);
                let target = right * (1.4 * x) + up * (1.4 * y);
                rays.push((origin, (target - origin).normalize()));
            }
        }
    }
    rays
}

/// The distance along the ray to the rounded cube's surface by sphere tracing in f64, and
/// the closest the ray came to the surface.
fn sphere_trace(origin: Vec3, dir: Vec3) -> (Option<f64>, f64) {
    let o = origin.to_array().map(f64::from);
    let d = dir.to_array().map(f64::from);
    let (mut t, mut closest) = (0.0f64, f64::INFINITY);
    for _ in 0..100_000 {
        let p = [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
        let s = rounded_cube_sdf(p);
        closest = closest.min(s);
        if s < 1e-7 {
            return (Some(t), closest);
        }
        t += s;
        if t > 20.0 {
            break;
        }
    }
    (None, closest)
}

/// The rounded cube's hit (the ground a terrain would stand on plays no part).
fn cube_hit(origin: Vec3, dir: Vec3) -> Option<texgraph_core::ball::Hit> {
    let field = Heightfield::default();
    let ground = Ground {
        field: &field,
        relief: 0.25,
    };
    Shape::Cube.intersect(origin, dir, 1.0, ground)
}

#[test]
fn the_rounded_cubes_hits_match_sphere_tracing_its_distance_function() {
    let (mut hits, mut misses) = (0, 0);
    for (origin, dir) in cube_rays() {
        let analytic = cube_hit(origin, dir);
        match (analytic, sphere_trace(origin, dir)) {
            (Some(hit), (Some(t), _)) => {
                assert!(
                    (f64::from(hit.t) - t).abs() < 1e-3,
                    "{origin:?} {dir:?}: {} vs {t}",
                    hit.t
                );
                hits += 1;
            }
            (None, (None, _)) => misses += 1,
            // Only a ray grazing the surface may fall either way.
            (hit, (traced, closest)) => assert!(
                closest.abs() < 1e-4,
                "{origin:?} {dir:?}: analytic {hit:?}, traced {traced:?}, closest {closest}"
            ),
        }
    }
    assert!(hits > 5000 && misses > 2000, "{hits} hits, {misses} misses");
}

#[test]
fn the_rounded_cubes_normals_are_its_distance_functions_gradient_and_its_frames_orthonormal() {
    let h = 1e-5;
    let (mut rounded, mut flat) = (0, 0);
    for (origin, dir) in cube_rays() {
        let Some(hit) = cube_hit(origin, dir) else {
            continue;
        };
        let (n, t, b) = (hit.normal, hit.tangent, hit.bitangent);
        assert!((n.length() - 1.0).abs() < 1e-5, "{hit:?}");
        let p = hit.position.to_array().map(f64::from);
        let gradient: [f64; 3] = std::array::from_fn(|i| {
            let (mut a, mut b) = (p, p);
            a[i] += h;
            b[i] -= h;
            (rounded_cube_sdf(a) - rounded_cube_sdf(b)) / (2.0 * h)
        });
        for i in 0..3 {
            assert!(
                (f64::from(n.to_array()[i]) - gradient[i]).abs() < 1e-2,
                "{hit:?}: gradient {gradient:?}"
            );
        }
        assert!(
            (t.length() - 1.0).abs() < 1e-5 && n.dot(t).abs() < 1e-5,
            "{hit:?}"
        );
        assert!((b - n.cross(t)).length() < 1e-6, "{hit:?}");
        assert!(hit.uv.iter().all(|c| (0.0..=1.0).contains(c)), "{hit:?}");
        if n.to_array().iter().filter(|c| **c == 0.0).count() == 2 {
            flat += 1;
        } else {
            rounded += 1;
        }
    }
    assert!(
        rounded > 300 && flat > 3000,
        "{rounded} rounded, {flat} flat"
    );
    // The middle of the front face: the map's centre, upright.
    let hit = cube_hit(v3(0.0, 0.0, 5.0), v3(0.0, 0.0, -1.0)).unwrap();
    assert_eq!((hit.t, hit.normal), (4.25, v3(0.0, 0.0, 1.0)));
    assert_eq!((hit.tangent, hit.uv), (v3(1.0, 0.0, 0.0), [0.5, 0.5]));
}

/// Writes a `width` × `height` equirectangular image of the linear RGB `f(u, v)` (at texel
/// centres) into `dir` as `name`, Radiance HDR or OpenEXR by its extension.
fn write_environment(
    dir: &Path,
    name: &str,
    width: u32,
    height: u32,
    f: impl Fn(f32, f32) -> [f32; 3],
) -> PathBuf {
    let mut image = image::Rgb32FImage::new(width, height);
    for (x, y, p) in image.enumerate_pixels_mut() {
        let (u, v) = (
            (x as f32 + 0.5) / width as f32,
            (y as f32 + 0.5) / height as f32,
        );
        *p = image::Rgb(f(u, v));
    }
    let path = dir.join(name);
    image::DynamicImage::ImageRgb32F(image).save(&path).unwrap();
    path
}

#[test]
fn a_white_file_environment_is_a_white_furnace() {
    let dir = tempfile::tempdir().unwrap();
    let maps = MaterialMaps {
        base_color: color([1.0; 3]),
        roughness: gray(1.0),
        metallic: gray(0.0),
        ..MaterialMaps::neutral()
    };
    // Large enough that the light is averaged down from the file's pixels, and small
    // enough to be sampled.
    for (name, width) in [("white.hdr", 256), ("white.exr", 256), ("small.hdr", 32)] {
        let path = write_environment(dir.path(), name, width, width / 2, |_, _| [1.0; 3]);
        let environment = Environment::load(&path).unwrap();
        let Environment::Image(image) = &environment else {
            panic!("{name}: {environment:?}")
        };
        assert_eq!(
            (image.path(), image.width(), image.height()),
            (path.as_path(), width, width / 2)
        );
        for shape in [Shape::Sphere, Shape::Cube] {
            let image = render_radiance(
                &maps,
                &BallSettings {
                    shape,
                    environment: environment.clone(),
                    ..furnace_settings(1.0)
                },
            );
            let pixels = covered(&image);
            assert!(pixels.len() > 500, "{name} {shape:?}");
            for p in &pixels {
                for c in p {
                    assert!((c - 1.0).abs() < 2e-3, "{name} {shape:?}: {p:?}");
                }
            }
        }
    }
}

#[test]
fn a_file_environment_lights_the_side_facing_its_bright_part() {
    let dir = tempfile::tempdir().unwrap();
    let maps = MaterialMaps {
        base_color: color([0.8; 3]),
        roughness: gray(0.6),
        ..MaterialMaps::neutral()
    };
    // A quarter across is −x, the camera's left; three quarters across +x, its right.
    for (centre, left_brighter) in [(0.25, true), (0.75, false)] {
        let path = write_environment(dir.path(), "patch.hdr", 256, 128, |u, v| {
            if (u - centre).abs() < 0.04 && (v - 0.5).abs() < 0.08 {
                [50.0; 3]
            } else {
                [0.05; 3]
            }
        });
        let environment = Environment::load(&path).unwrap();
        let side = if left_brighter { -1.0 } else { 1.0 };
        assert!(environment.radiance(v3(side, 0.0, 0.0)).x > 40.0);
        assert!(environment.radiance(v3(-side, 0.0, 0.0)).x < 0.1);
        let image = render_radiance(
            &maps,
            &BallSettings {
                environment,
                ..furnace_settings(0.0)
            },
        );
        let (left, right) = halves(&image);
        let (bright, dim) = if left_brighter {
            (left, right)
        } else {
            (right, left)
        };
        assert!(bright > 3.0 * dim, "centre {centre}: {left} {right}");
    }
}

#[test]
fn a_one_pixel_sun_lights_the_same_wherever_it_sits_in_the_light_maps_texel() {
    // 2048 × 1024: each texel of the 128 × 64 light map covers 16 × 16 pixels, more than a
    // grid of samples would find.
    let (width, height) = (2048u32, 1024u32);
    let (x0, y) = (16 * 40, 16 * 20 + 5);
    let theta = (y as f32 + 0.5) / height as f32 * std::f32::consts::PI;
    let phi = ((x0 as f32 + 8.0) / width as f32 - 0.5) * std::f32::consts::TAU;
    let towards = v3(
        theta.sin() * phi.sin(),
        theta.cos(),
        -theta.sin() * phi.cos(),
    );
    let sun = 1.0e5;
    let mut seen = Vec::new();
    for dx in 0..16 {
        let mut rgb = vec![0.0; (width * height * 3) as usize];
        let i = ((y * width + x0 + dx) * 3) as usize;
        rgb[i..i + 3].copy_from_slice(&[sun; 3]);
        let image = EnvironmentImage::new(PathBuf::from("sun"), width, height, rgb).unwrap();
        let lighting = Lighting::new(Environment::Image(Arc::new(image)));
        seen.push(lighting.diffuse(towards));
    }
    assert!(seen.iter().all(|d| *d == seen[0]), "{seen:?}");
    // A small source of radiance L and solid angle Ω facing the surface gives it L·Ω; the
    // 9 spherical-harmonic coefficients make that 1.0625 times as much straight under it.
    let texel = (std::f32::consts::TAU / width as f32)
        * (std::f32::consts::PI / height as f32)
        * theta.sin();
    let expected = 1.0625 * sun * texel / std::f32::consts::PI;
    assert!(
        (seen[0].x / expected - 1.0).abs() < 0.03,
        "{} vs {expected}",
        seen[0].x
    );
}

#[test]
fn environment_files_that_cannot_be_used_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let message = |path: &Path| {
        let e = Environment::load(path).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: ", path.display())),
            "{e} does not name {}",
            path.display()
        );
        e
    };
    let missing = dir.path().join("missing.hdr");
    assert!(message(&missing).contains("cannot read it"));
    let text = dir.path().join("notes.hdr");
    std::fs::write(&text, "not an image at all\n").unwrap();
    assert!(message(&text).contains("Radiance HDR"));
    let wide = write_environment(dir.path(), "wide.hdr", 60, 20, |_, _| [1.0; 3]);
    assert!(message(&wide).contains("twice as wide as it is high"));
    let png = dir.path().join("photo.png");
    image::RgbImage::new(64, 32).save(&png).unwrap();
    assert!(message(&png).contains("PNG"));
    assert!(message(dir.path()).contains("not a file"));
    // Values no light has are made 0 (and the brightest clamped) rather than refused.
    let odd = write_environment(dir.path(), "odd.exr", 8, 4, |u, v| {
        [f32::NAN, -5.0, if u < 0.5 && v < 0.5 { 1e30 } else { 2.0 }]
    });
    let Environment::Image(image) = Environment::load(&odd).unwrap() else {
        unreachable!()
    };
    for p in image.rgb().chunks(3) {
        assert_eq!(p[..2], [0.0, 0.0]);
        assert!(p[2] == 2.0 || p[2] == 1e6, "{p:?}");
    }
    // Equal by file, size and pixels; a different file is another environment.
    let again = Environment::load(&odd).unwrap();
    assert_eq!(again, Environment::Image(image.clone()));
    let white = write_environment(dir.path(), "other.exr", 8, 4, |_, _| [1.0; 3]);
    assert_ne!(again, Environment::load(&white).unwrap());
}
