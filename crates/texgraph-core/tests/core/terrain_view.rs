//! The material ball's terrain shape: its hits against a brute-force march of the same
//! ground written here, flat ground analytically, and the same bits on any thread count.

use texgraph_core::Image;
use texgraph_core::ball::{
    BallSettings, Ground, Heightfield, MaterialMaps, Shape, Vec3, render_ball, v3,
};

/// A bumpy map of `w`×`d` samples from a few sines and a hash, values in about [0, 1].
fn bumpy_heights(w: usize, d: usize) -> Vec<f32> {
    (0..w * d)
        .map(|k| {
            let (i, j) = ((k % w) as f32, (k / w) as f32);
            let hash = ((k as u32).wrapping_mul(2_654_435_761) >> 8) as f32 / (1u32 << 24) as f32;
            0.5 + 0.3 * (i * 0.45).sin() * (j * 0.3).cos() + 0.1 * (hash - 0.5)
        })
        .collect()
}

/// The ground of the module's definition, written plainly: samples on a grid spanning
/// [-1, 1]², bilinear between, a height h at y = (h − 0.5)·2·relief, walls down to 0.12
/// below the lowest sample.
struct Reference {
    w: usize,
    d: usize,
    heights: Vec<f64>,
    relief: f64,
}

impl Reference {
    fn surface(&self, x: f64, z: f64) -> f64 {
        let gx = (x + 1.0) / 2.0 * (self.w - 1) as f64;
        let gz = (z + 1.0) / 2.0 * (self.d - 1) as f64;
        let i = (gx.floor() as usize).min(self.w - 2);
        let j = (gz.floor() as usize).min(self.d - 2);
        let (fx, fz) = (gx - i as f64, gz - j as f64);
        let h = |i: usize, j: usize| self.heights[j * self.w + i];
        let top = h(i, j) * (1.0 - fx) + h(i + 1, j) * fx;
        let bottom = h(i, j + 1) * (1.0 - fx) + h(i + 1, j + 1) * fx;
        let height = top * (1.0 - fz) + bottom * fz;
        (height - 0.5) * 2.0 * self.relief
    }

    fn base(&self) -> f64 {
        let low = self.heights.iter().copied().fold(f64::INFINITY, f64::min);
        (low - 0.5) * 2.0 * self.relief - 0.12
    }

    fn inside(&self, p: [f64; 3]) -> bool {
        p[0].abs() <= 1.0
            && p[2].abs() <= 1.0
            && p[1] >= self.base()
            && p[1] <= self.surface(p[0], p[2])
    }

    /// The first t at which the ray is inside the ground: small steps, then bisection.
    fn march(&self, o: Vec3, d: Vec3) -> Option<f64> {
        let at = |t: f64| {
            [
                o.x as f64 + d.x as f64 * t,
                o.y as f64 + d.y as f64 * t,
                o.z as f64 + d.z as f64 * t,
            ]
        };
        const STEP: f64 = 1e-4;
        let mut t = 0.0;
        while t < 12.0 {
            let next = t + STEP;
            if self.inside(at(next)) {
                let (mut lo, mut hi) = (t, next);
                for _ in 0..40 {
                    let mid = 0.5 * (lo + hi);
                    if self.inside(at(mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(hi);
            }
            t = next;
        }
        None
    }
}

#[test]
fn the_terrains_hits_match_a_brute_force_march_of_its_ground() {
    let (w, d) = (24, 17);
    let heights = bumpy_heights(w, d);
    let field = Heightfield::new(w, d, heights.clone());
    let relief = 0.3;
    let reference = Reference {
        w,
        d,
        heights: heights.iter().map(|&h| h as f64).collect(),
        relief: relief as f64,
    };
    let ground = Ground {
        field: &field,
        relief,
    };
    let origins = [
        v3(2.2, 1.8, 2.6),
        v3(-3.0, 0.9, 0.4),
        v3(0.3, 3.5, -2.2),
        v3(1.0, 0.05, 3.0),
        v3(0.0, -2.0, 0.5),
    ];
    let (mut hits, mut misses, mut disagreements) = (0, 0, 0);
    for origin in origins {
        for i in 0..13 {
            for j in 0..13 {
                let target = v3(
                    i as f32 / 6.0 - 1.0,
                    0.1 * (j as f32 - 6.0),
                    j as f32 / 6.0 - 1.0,
                );
                let dir = (target - origin).normalize();
                let got = Shape::Terrain.intersect(origin, dir, 1.0, ground);
                let want = reference.march(origin, dir);
                match (got, want) {
                    (Some(hit), Some(t)) => {
                        hits += 1;
                        assert!(
                            (hit.t as f64 - t).abs() < 1e-3,
                            "from {origin:?} along {dir:?}: {} against {t}",
                            hit.t
                        );
                        let p = hit.position;
                        if hit.normal.y > 0.2 {
                            // On the ground: the point is on the surface, and its UV puts
                            // sample (i, j) at texel (i, j)'s centre.
                            let y = reference.surface(p.x as f64, p.z as f64);
                            assert!((p.y as f64 - y).abs() < 1e-3, "{hit:?} {y}");
                            let u = ((p.x + 1.0) / 2.0 * (w - 1) as f32 + 0.5) / w as f32;
                            let v = ((p.z + 1.0) / 2.0 * (d - 1) as f32 + 0.5) / d as f32;
                            assert!((hit.uv[0] - u).abs() < 1e-3 && (hit.uv[1] - v).abs() < 1e-3);
                        }
                        assert!(hit.normal.dot(-dir) > -0.2, "{hit:?} faces away");
                    }
                    (None, None) => misses += 1,
                    // A ray grazing an edge within the march's step can go either way.
                    _ => disagreements += 1,
                }
            }
        }
    }
    assert!(hits > 300 && misses > 50, "{hits} hits, {misses} misses");
    assert!(disagreements <= 3, "{disagreements} rays disagree");
}

#[test]
fn flat_ground_is_the_plane_its_height_gives_with_an_upright_normal() {
    let field = Heightfield::new(8, 8, vec![0.75; 64]);
    for relief in [0.1f32, 0.5, 1.5] {
        let ground = Ground {
            field: &field,
            relief,
        };
        let level = (0.75 - 0.5) * 2.0 * relief;
        for k in 0..50 {
            let target = v3(k as f32 / 25.0 - 1.0, level, 0.9 - k as f32 / 30.0);
            let origin = v3(0.4, 3.0, 2.0);
            let dir = (target - origin).normalize();
            let hit = Shape::Terrain.intersect(origin, dir, 1.0, ground).unwrap();
            assert!((hit.position - target).length() < 1e-4, "{hit:?}");
            assert!((hit.normal - v3(0.0, 1.0, 0.0)).length() < 1e-6);
        }
        // Straight down past the edge, nothing; from beside, the wall facing the ray.
        let outside = Shape::Terrain.intersect(v3(1.2, 3.0, 0.0), v3(0.0, -1.0, 0.0), 1.0, ground);
        assert!(outside.is_none());
        let wall = Shape::Terrain
            .intersect(v3(3.0, level - 0.05, 0.2), v3(-1.0, 0.0, 0.0), 1.0, ground)
            .unwrap();
        assert!((wall.position.x - 1.0).abs() < 1e-5 && wall.normal == v3(1.0, 0.0, 0.0));
    }
}

fn image(w: usize, d: usize, data: Vec<f32>, channels: usize) -> Image {
    Image {
        width: w as u32,
        height: d as u32,
        channels,
        data,
    }
}

#[test]
fn the_terrain_renders_the_same_bits_on_any_thread_count_and_its_height_shows() {
    let (w, d) = (40, 40);
    let heights = bumpy_heights(w, d);
    let colors: Vec<f32> = heights
        .iter()
        .flat_map(|&h| [h, 0.4, 1.0 - h, 1.0])
        .collect();
    let maps = MaterialMaps {
        height: image(w, d, heights, 1),
        base_color: image(w, d, colors, 4),
        ..MaterialMaps::neutral()
    };
    let settings = BallSettings {
        size: 48,
        shape: Shape::Terrain,
        ..BallSettings::default()
    };
    let render = |threads: usize, settings: &BallSettings| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| render_ball(&maps, settings))
    };
    let one = render(1, &settings);
    assert_eq!(one.data, render(2, &settings).data);
    assert_eq!(one.data, render(3, &settings).data);
    // A higher relief draws a different picture; the flat neutral map none of this one's.
    let higher = render(
        2,
        &BallSettings {
            relief: 0.6,
            ..settings.clone()
        },
    );
    assert_ne!(one.data, higher.data);
    let flat = render_ball(&MaterialMaps::neutral(), &settings);
    assert_ne!(one.data, flat.data);
}
