//! `cellular` against a brute-force search written here: every cell within ±5 (±3 in
//! 3D) of the sample, in f64, with the feature points placed as the node's documentation
//! says (the cell's centre moved by jitter·(h − ½), h from the cell hash).

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;
use texgraph_core::kernels::cellular::{
    CHUNK, Cellular, Feature, Metric, Samples, Search, cell_hash, cell_value, cellular_chunk,
    feature_unit,
};

/// What a brute-force search finds at one sample.
#[derive(Debug)]
struct Found {
    f1: f64,
    f2: f64,
    /// Euclidean distance to the nearest cell border.
    edge: f64,
    /// The nearest cell's value.
    value: f32,
}

struct Setup {
    seed: u32,
    jitter: f64,
    metric: Metric,
    volume: bool,
    period: Option<i64>,
}

impl Setup {
    /// Feature point of cell `c` (unwrapped; the hash sees the wrapped index).
    fn point(&self, c: [i64; 3]) -> ([f64; 3], u32) {
        let wrap = |i: i64| match self.period {
            Some(p) => i.rem_euclid(p),
            None => i,
        };
        let key = [wrap(c[0]) as i32, wrap(c[1]) as i32, c[2] as i32];
        let h = cell_hash(key, self.seed);
        let unit = feature_unit(h, self.volume);
        let mut p = [0.0; 3];
        for axis in 0..3 {
            if axis < 2 || self.volume {
                p[axis] = c[axis] as f64 + 0.5 + self.jitter * (f64::from(unit[axis]) - 0.5);
            }
        }
        (p, h)
    }

    fn distance(&self, a: [f64; 3], b: [f64; 3]) -> f64 {
        let d = [0, 1, 2].map(|i| (a[i] - b[i]).abs());
        match self.metric {
            Metric::Euclidean => (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt(),
            Metric::Manhattan => d[0] + d[1] + d[2],
            Metric::Chebyshev => d[0].max(d[1]).max(d[2]),
        }
    }

    fn search(&self, at: [f64; 3]) -> Found {
        let reach = if self.volume { 3 } else { 5 };
        let depth = if self.volume { reach } else { 0 };
        let home = at.map(|c| c.floor() as i64);
        let mut points = Vec::new();
        for dz in -depth..=depth {
            for dy in -reach..=reach {
                for dx in -reach..=reach {
                    let z = if self.volume { home[2] + dz } else { 0 };
                    let (p, h) = self.point([home[0] + dx, home[1] + dy, z]);
                    points.push((self.distance(at, p), p, h));
                }
            }
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (f1, a, h) = points[0];
        let edge = points[1..]
            .iter()
            .map(|&(_, b, _)| {
                let n = [0, 1, 2].map(|i| b[i] - a[i]);
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                let mid = [0, 1, 2].map(|i| 0.5 * (a[i] + b[i]) - at[i]);
                (mid[0] * n[0] + mid[1] * n[1] + mid[2] * n[2]) / len
            })
            .fold(f64::INFINITY, f64::min);
        Found {
            f1,
            f2: points[1].0,
            edge,
            value: cell_value(h),
        }
    }
}

const SIZE: u32 = 48;

/// Renders a cellular node with `params` at SIZE², tileable or not.
fn render(params: &str, tileable: bool) -> Vec<f32> {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
             {{ "id": "c", "type": "cellular", "params": {{ {params} }} }},
             {{ "id": "out", "type": "output", "inputs": {{ "color": "c" }} }} ] }}"#
    );
    render_graph(&graph(&json), None, SIZE, RenderOptions::default()).data
}

/// Every pixel of the node against the brute-force search; returns how many pixels were
/// compared (cell values are skipped where two points are nearly equally near).
fn check(setup: &Setup, freq: f32, z: f32, output: &str) -> usize {
    let metric = match setup.metric {
        Metric::Euclidean => "euclidean",
        Metric::Manhattan => "manhattan",
        Metric::Chebyshev => "chebyshev",
    };
    let params = format!(
        r#""frequency": {freq}, "seed": {}, "jitter": {}, "metric": "{metric}", "output": "{output}",
            "dimensions": "{}", "z": {z}"#,
        setup.seed,
        setup.jitter,
        if setup.volume { "3d" } else { "2d" }
    );
    let image = render(&params, setup.period.is_some());
    let f = setup.period.map_or(freq, |p| p as f32);
    let mut compared = 0;
    for row in 0..SIZE {
        for col in 0..SIZE {
            let got = image[(row * SIZE + col) as usize];
            // The same f32 positions the renderer computes.
            let u = (col as f32 + 0.5) / SIZE as f32;
            let v = (row as f32 + 0.5) / SIZE as f32;
            let at = [f64::from(u * f), f64::from(v * f), f64::from(z)];
            let found = setup.search(at);
            let (want, tolerance) = match output {
                "f1" => (found.f1, 1e-4),
                "f2" => (found.f2, 1e-4),
                "f2_minus_f1" => (found.f2 - found.f1, 2e-4),
                "edge" => (found.edge, 2e-4),
                _ => {
                    if found.f2 - found.f1 < 1e-4 {
                        continue;
                    }
                    (f64::from(found.value), 0.0)
                }
            };
            assert!(
                (f64::from(got) - want).abs() <= tolerance,
                "{output} {metric} jitter {} at pixel ({col}, {row}) = {at:?}: got {got}, brute force {want} ({found:?})",
                setup.jitter
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn every_output_and_metric_matches_a_brute_force_search() {
    let outputs = ["f1", "f2", "f2_minus_f1", "cell_value"];
    for metric in [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev] {
        for jitter in [1.0, 0.75, 0.3] {
            let setup = Setup {
                seed: 7,
                jitter,
                metric,
                volume: false,
                period: None,
            };
            for output in outputs {
                assert!(check(&setup, 5.3, 0.0, output) > (SIZE * SIZE) as usize * 9 / 10);
            }
        }
    }
}

#[test]
fn chunks_inside_one_cell_match_a_brute_force_search() {
    // A cell spans 20 to 60 pixels here, so most 16-pixel chunks lie in one cell and share
    // its block of feature points; the others take the per-sample search.
    for metric in [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev] {
        for (jitter, period) in [(1.0, None), (0.3, None), (1.0, Some(2)), (0.75, Some(1))] {
            let setup = Setup {
                seed: 13,
                jitter,
                metric,
                volume: false,
                period,
            };
            for (freq, output) in [(0.8, "f1"), (1.6, "f2"), (2.3, "f2_minus_f1")] {
                // A tileable graph rounds the frequency to its period.
                let freq = period.map_or(freq, |p| p as f32);
                check(&setup, freq, 0.0, output);
            }
        }
    }
}

#[test]
fn a_chunk_inside_one_cell_gives_the_bits_of_samples_searched_alone() {
    for (metric, feature) in [
        (Metric::Euclidean, Feature::F1),
        (Metric::Euclidean, Feature::F2),
        (Metric::Manhattan, Feature::F2MinusF1),
        (Metric::Chebyshev, Feature::F1),
    ] {
        let kind = Cellular {
            seed: 4,
            metric,
            feature,
            volume: false,
            tile: false,
        };
        for jitter in [1.0, 0.4] {
            // Sixteen samples spread over cell (-3, 5).
            let at: Vec<[f32; 2]> = (0..CHUNK)
                .map(|l| [-3.0 + (l as f32 * 0.37).fract(), 5.0 + l as f32 / 16.0])
                .collect();
            let together = kernel(kind, jitter, &at);
            for (l, p) in at.iter().enumerate() {
                let alone = kernel(kind, jitter, &[*p]);
                assert_eq!(
                    together[l].to_bits(),
                    alone[0].to_bits(),
                    "{kind:?} lane {l}"
                );
            }
        }
    }
}

#[test]
fn a_chunk_across_a_row_of_cells_gives_the_bits_of_samples_searched_alone() {
    // Sixteen samples in one row of cells, across one to four cell columns (up to three
    // share one block of cells), tiled at a period of 3 (so the block wraps) or not; in
    // 2D, and in 3D in one layer of cells (z = 1.37: shared blocks) or across layers (z
    // varying: none).
    for (metric, feature) in [
        (Metric::Euclidean, Feature::F1),
        (Metric::Euclidean, Feature::F2),
        (Metric::Manhattan, Feature::F1),
        (Metric::Chebyshev, Feature::F2MinusF1),
    ] {
        for (tile, volume, layered) in [
            (false, false, false),
            (true, false, false),
            (false, true, false),
            (true, true, false),
            (false, true, true),
        ] {
            let kind = Cellular {
                seed: 9,
                metric,
                feature,
                volume,
                tile,
            };
            for (jitter, width) in [(1.0, 0.9), (0.4, 1.9), (1.0, 2.6), (0.7, 3.5)] {
                let at: Vec<[f32; 2]> = (0..CHUNK)
                    .map(|l| {
                        [
                            -1.2 + width * l as f32 / 16.0,
                            5.0 + (l as f32 * 0.31).fract(),
                        ]
                    })
                    .collect();
                let run = |at: &[[f32; 2]]| {
                    let mut samples = Samples::default();
                    for (l, p) in at.iter().enumerate() {
                        (samples.pos[0][l], samples.pos[1][l]) = (p[0], p[1]);
                        // Across layers: z from the sample's own x (so a sample alone has
                        // the z it had in the chunk).
                        samples.pos[2][l] = if layered { 1.37 + p[0] * 0.9 } else { 1.37 };
                        samples.jitter[l] = jitter;
                        samples.period[l] = if tile { 3.0 } else { 1.0 };
                    }
                    let mut out = vec![0.0; at.len()];
                    cellular_chunk(kind, &samples, at.len(), &mut out, &mut Search::default());
                    out
                };
                let together = run(&at);
                for (l, p) in at.iter().enumerate() {
                    let alone = run(&[*p]);
                    assert_eq!(
                        together[l].to_bits(),
                        alone[0].to_bits(),
                        "{kind:?} jitter {jitter} width {width} layered {layered} lane {l}"
                    );
                }
            }
        }
    }
}

#[test]
fn edge_is_the_distance_to_the_nearest_border() {
    for jitter in [1.0, 0.6, 0.0] {
        let setup = Setup {
            seed: 3,
            jitter,
            metric: Metric::Euclidean,
            volume: false,
            period: None,
        };
        check(&setup, 4.7, 0.0, "edge");
    }
}

#[test]
fn samples_on_cell_borders_and_at_high_frequency() {
    // At 96 cells over 48 pixels every sample lies exactly on a cell corner (2·col + 1).
    let setup = Setup {
        seed: 11,
        jitter: 1.0,
        metric: Metric::Euclidean,
        volume: false,
        period: None,
    };
    for output in ["f1", "f2", "edge", "cell_value"] {
        check(&setup, 96.0, 0.0, output);
    }
}

#[test]
fn volumes_match_a_brute_force_search() {
    for metric in [Metric::Euclidean, Metric::Manhattan] {
        let setup = Setup {
            seed: 5,
            jitter: 1.0,
            metric,
            volume: true,
            period: None,
        };
        for output in ["f1", "f2", "cell_value"] {
            check(&setup, 3.6, 1.37, output);
        }
    }
    let setup = Setup {
        seed: 5,
        jitter: 0.9,
        metric: Metric::Euclidean,
        volume: true,
        period: None,
    };
    check(&setup, 3.6, -2.61, "edge");
}

#[test]
fn tileable_cells_wrap_at_the_period() {
    // Period 3 (3.4 rounded): the ±5 search sees each point several times over, as the
    // repeated texture does.
    for (freq, period) in [(3.4, 3), (1.2, 1), (6.0, 6)] {
        let setup = Setup {
            seed: 2,
            jitter: 1.0,
            metric: Metric::Euclidean,
            volume: false,
            period: Some(period),
        };
        for output in ["f1", "f2", "edge", "cell_value"] {
            check(&setup, freq, 0.0, output);
        }
    }
}

/// Runs the kernel on up to one chunk of samples.
fn kernel(kind: Cellular, jitter: f32, at: &[[f32; 2]]) -> Vec<f32> {
    let mut samples = Samples::default();
    for (l, p) in at.iter().enumerate() {
        samples.pos[0][l] = p[0];
        samples.pos[1][l] = p[1];
        samples.jitter[l] = jitter;
        samples.period[l] = 1.0;
    }
    let mut out = vec![0.0; at.len()];
    cellular_chunk(kind, &samples, at.len(), &mut out, &mut Search::default());
    out
}

#[test]
fn f1_is_zero_at_feature_points_and_edge_zero_between_neighbours() {
    let setup = Setup {
        seed: 9,
        jitter: 1.0,
        metric: Metric::Euclidean,
        volume: false,
        period: None,
    };
    let kind = |feature| Cellular {
        seed: 9,
        metric: Metric::Euclidean,
        feature,
        volume: false,
        tile: false,
    };
    let mut points = Vec::new();
    let mut midpoints = Vec::new();
    for i in 0..CHUNK as i64 {
        let (a, _) = setup.point([i - 4, 2 * i - 9, 0]);
        points.push([a[0] as f32, a[1] as f32]);
        // The midpoint between a point and its nearest other point lies on their border.
        let (b, _) = (-2..=2)
            .flat_map(|dy| (-2..=2).map(move |dx| (dx, dy)))
            .filter(|&d| d != (0, 0))
            .map(|(dx, dy)| setup.point([i - 4 + dx, 2 * i - 9 + dy, 0]))
            .min_by(|p, q| setup.distance(a, p.0).total_cmp(&setup.distance(a, q.0)))
            .expect("neighbours");
        midpoints.push([((a[0] + b[0]) / 2.0) as f32, ((a[1] + b[1]) / 2.0) as f32]);
    }
    for f1 in kernel(kind(Feature::F1), 1.0, &points) {
        assert!(f1 < 1e-5, "F1 at a feature point is {f1}");
    }
    let f1 = kernel(kind(Feature::F1), 1.0, &midpoints);
    let f2 = kernel(kind(Feature::F2), 1.0, &midpoints);
    let edge = kernel(kind(Feature::Edge), 1.0, &midpoints);
    for l in 0..CHUNK {
        assert!(f2[l] >= f1[l]);
        assert!(
            (f2[l] - f1[l]).abs() < 1e-4,
            "midpoint {l}: f1 {} f2 {}",
            f1[l],
            f2[l]
        );
        assert!(edge[l] < 1e-4, "edge on a border is {}", edge[l]);
    }
}

#[test]
fn f2_is_never_below_f1() {
    let f1 = render(r#""frequency": 7.7, "jitter": 0.8, "output": "f1""#, false);
    let f2 = render(r#""frequency": 7.7, "jitter": 0.8, "output": "f2""#, false);
    assert!(f1.iter().zip(&f2).all(|(a, b)| b >= a));
    assert!(f1.iter().zip(&f2).any(|(a, b)| b - a > 0.3));
}
