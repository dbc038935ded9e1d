//! The erosion nodes: what they do to simple shapes, what they conserve, thermal erosion
//! against a plain f64 reference, and how far a preview's result is from an export's.

use crate::common;
use texgraph_core::RenderOptions;
use texgraph_core::eval::erosion::{LevelMaps, Simulation, hydraulic, thermal};
use texgraph_core::eval::planes::RELIEF;
use texgraph_core::terrain::{Hydraulic, Thermal};

fn hydraulic_defaults() -> Hydraulic {
    Hydraulic {
        duration: 1.0,
        rain: 1.0,
        evaporation: 0.1,
        capacity: 1.0,
        downcutting: 0.0,
        erosion: 0.3,
        deposition: 0.3,
        min_slope: 0.02,
        seed: 0,
    }
}

fn maps(height: Vec<f32>) -> LevelMaps {
    LevelMaps {
        height,
        rain: None,
        hardness: None,
    }
}

/// Rolling hills that repeat with the grid: a few sines.
fn hills(n: usize) -> Vec<f32> {
    let tau = std::f32::consts::TAU;
    (0..n * n)
        .map(|i| {
            let (u, v) = ((i % n) as f32 / n as f32, (i / n) as f32 / n as f32);
            0.5 + 0.2 * (tau * u).sin() * (tau * 2.0 * v).cos()
                + 0.1 * (tau * (3.0 * u + v)).sin()
                + 0.05 * (tau * 5.0 * v).sin()
        })
        .collect()
}

/// A graph of one erosion node on `height`'s heights, its outputs each an output.
fn eroded(height_node: &str, erosion: &str, tileable: bool) -> texgraph_core::Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 4, "settings": {{ "tileable": {tileable} }}, "nodes": [
            {height_node},
            {erosion},
            {{ "id": "height", "type": "output", "params": {{ "name": "height" }}, "inputs": {{ "color": "e.height" }} }},
            {{ "id": "before", "type": "output", "params": {{ "name": "before" }}, "inputs": {{ "color": "h" }} }} ] }}"#
    ))
}

fn render(graph: &texgraph_core::Graph, output: &str, size: u32) -> Vec<f32> {
    common::render_graph(graph, Some(output), size, RenderOptions::default()).data
}

#[test]
fn a_valley_floor_gets_deeper() {
    // A V-shaped valley down the middle, tilted so that its water runs out at the top.
    // Its floor falls more steeply than its sides do toward it (diagonals included):
    // water that only carries in proportion to its amount and slope then takes away
    // more than the sides bring.
    let valley = r#"{ "id": "h", "type": "formula", "params": { "expression": "abs(u - 0.5) * 0.3 + v * 1.2" } }"#;
    let erosion = r#"{ "id": "e", "type": "hydraulic_erosion", "inputs": { "height": "h" } }"#;
    let graph = eroded(valley, erosion, false);
    let n = 128;
    let (before, after) = (render(&graph, "before", n), render(&graph, "height", n));
    let mean = |image: &[f32], columns: std::ops::Range<usize>| {
        let rows = n as usize / 4..3 * n as usize / 4;
        let cells: Vec<f32> = rows
            .flat_map(|y| columns.clone().map(move |x| (y, x)))
            .map(|(y, x)| image[y * n as usize + x])
            .collect();
        cells.iter().sum::<f32>() / cells.len() as f32
    };
    let floor = n as usize / 2 - 2..n as usize / 2 + 2;
    let (was, is) = (mean(&before, floor.clone()), mean(&after, floor));
    assert!(
        is < was - 0.001,
        "the valley floor should be cut down: {was} before, {is} after"
    );
}

#[test]
fn a_peak_loses_height_to_its_foot() {
    let peak = r#"{ "id": "h", "type": "formula", "params": { "expression": "0.1 + 0.7 * exp(-(pow(u - 0.5, 2) + pow(v - 0.5, 2)) / 0.02)" } }"#;
    let erosion = r#"{ "id": "e", "type": "hydraulic_erosion", "params": { "duration": 2 }, "inputs": { "height": "h" } }"#;
    let graph = eroded(peak, erosion, true);
    let n = 128usize;
    let (before, after) = (
        render(&graph, "before", n as u32),
        render(&graph, "height", n as u32),
    );
    // Mean height by distance from the centre, in rings a twentieth of the width wide.
    let rings = |image: &[f32]| {
        let mut sums = [(0.0f64, 0usize); 10];
        for (i, &v) in image.iter().enumerate() {
            let (u, w) = ((i % n) as f32 + 0.5, (i / n) as f32 + 0.5);
            let r = ((u / n as f32 - 0.5).hypot(w / n as f32 - 0.5) * 20.0) as usize;
            if r < 10 {
                sums[r].0 += f64::from(v);
                sums[r].1 += 1;
            }
        }
        sums.map(|(s, c)| s / c as f64)
    };
    let (was, is) = (rings(&before), rings(&after));
    let slopes = was[1] - is[1] + was[2] - is[2];
    assert!(slopes > 0.005, "the slopes should wear: {was:?} → {is:?}");
    let foot = (5..10).map(|r| is[r] - was[r]).sum::<f64>();
    assert!(foot > 0.001, "the foot should gain: {was:?} → {is:?}");
}

#[test]
fn downcutting_cuts_rills_where_plain_erosion_smooths() {
    // A long even slope with faint bumps, water running out at the top. Roughness across
    // the slope (the spread of heights along a row) is what gullies make: streams that
    // carry more than their share cut below their banks; without that, erosion fills the
    // hollows as it wears the bumps.
    let slope = r#"{ "id": "h", "type": "formula", "params": { "expression": "v * 0.8 + 0.03 * perlin(vec2(u, v), 16, 1)" } }"#;
    let n = 128usize;
    let roughness = |image: &[f32]| {
        let rows = n / 4..3 * n / 4;
        let spread = |row: &[f32]| {
            let mean = row.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
            let variance = row
                .iter()
                .map(|&v| (f64::from(v) - mean).powi(2))
                .sum::<f64>();
            (variance / n as f64).sqrt()
        };
        rows.clone()
            .map(|y| spread(&image[y * n..][..n]))
            .sum::<f64>()
            / rows.len() as f64
    };
    let across = |downcutting: f32| {
        let erosion = format!(
            r#"{{ "id": "e", "type": "hydraulic_erosion", "params": {{ "downcutting": {downcutting} }}, "inputs": {{ "height": "h" }} }}"#
        );
        let graph = eroded(slope, &erosion, false);
        let (before, after) = (
            render(&graph, "before", n as u32),
            render(&graph, "height", n as u32),
        );
        (roughness(&before), roughness(&after))
    };
    let (was, plain) = across(0.0);
    let (_, cut) = across(10.0);
    assert!(plain < was, "plain erosion should smooth: {was} → {plain}");
    assert!(
        cut > 2.0 * was,
        "downcutting should cut rills: {was} → {cut}"
    );
}

#[test]
fn hydraulic_erosion_only_moves_material() {
    let n = 64;
    let mut simulation = hydraulic::Hydraulic::new(hydraulic_defaults(), true);
    let heights = hills(n);
    let start: f64 = heights.iter().copied().map(f64::from).sum();
    simulation.start(n, n, &maps(heights)).expect("memory");
    for _ in 0..3000 {
        simulation.step();
    }
    let (ground, suspended) = simulation.totals();
    let (worn, laid) = simulation.material();
    let drift = (ground + suspended - start).abs() / start;
    println!(
        "hydraulic, {n}², 3000 steps: worn {worn:.4}, laid down {laid:.4}, in transit {suspended:.6}, \
         drift {drift:.2e} of the total"
    );
    assert!(worn > 1.0, "material should be worn ({worn})");
    assert!(
        drift < 1e-5,
        "ground + sediment should be conserved: drift {drift:e}"
    );
    let balance = (worn - laid - suspended).abs() / worn;
    assert!(
        balance < 1e-4,
        "worn = laid down + in transit: {worn} vs {laid} + {suspended}"
    );
}

/// Thermal erosion written plainly in f64: the same rule as the evaluator's.
fn thermal_reference(
    height: &[f64],
    n: usize,
    talus_angle: f64,
    strength: f64,
    steps: usize,
) -> Vec<f64> {
    let runs = {
        let d = 1.0 / n as f64;
        let diagonal = (2.0 * d * d).sqrt();
        [
            (-1i64, 0i64, d),
            (1, 0, d),
            (0, -1, d),
            (0, 1, d),
            (-1, -1, diagonal),
            (1, -1, diagonal),
            (-1, 1, diagonal),
            (1, 1, diagonal),
        ]
    };
    let talus = talus_angle.to_radians().tan() / f64::from(RELIEF);
    let at = |h: &[f64], x: i64, y: i64| {
        h[(y.rem_euclid(n as i64) as usize) * n + x.rem_euclid(n as i64) as usize]
    };
    let mut h = height.to_vec();
    for _ in 0..steps {
        let share: Vec<f64> = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as i64, (i / n) as i64);
                let excess: Vec<f64> = runs
                    .iter()
                    .map(|&(dx, dy, run)| (h[i] - at(&h, x + dx, y + dy) - talus * run).max(0.0))
                    .collect();
                let sum: f64 = excess.iter().sum();
                let most = excess.iter().copied().fold(0.0, f64::max);
                if sum > 0.0 {
                    strength * 0.5 * most / sum
                } else {
                    0.0
                }
            })
            .collect();
        h = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as i64, (i / n) as i64);
                let mut next = h[i];
                for &(dx, dy, run) in &runs {
                    let (nx, ny) = (x + dx, y + dy);
                    let other = at(&h, nx, ny);
                    next -= share[i] * (h[i] - other - talus * run).max(0.0);
                    next += at(&share, nx, ny) * (other - h[i] - talus * run).max(0.0);
                }
                next
            })
            .collect();
    }
    h
}

/// The largest amount by which any slope between neighbours exceeds the talus angle, in
/// height units.
fn steepest_excess(h: &[f64], n: usize, talus_angle: f64) -> f64 {
    let talus = talus_angle.to_radians().tan() / f64::from(RELIEF) / n as f64;
    let at = |x: usize, y: usize| h[(y % n) * n + x % n];
    let mut most = 0.0f64;
    for y in 0..n {
        for x in 0..n {
            for (dx, dy, run) in [
                (1, 0, 1.0),
                (0, 1, 1.0),
                (1, 1, 2f64.sqrt()),
                (n - 1, 1, 2f64.sqrt()),
            ] {
                let d = (at(x, y) - at(x + dx, y + dy)).abs();
                most = most.max(d - talus * run);
            }
        }
    }
    most
}

#[test]
fn thermal_erosion_follows_the_reference_and_leaves_no_slope_above_the_talus() {
    let n = 32;
    let settings = Thermal {
        duration: 1.0,
        talus_angle: 30.0,
        strength: 0.5,
    };
    // Rough ground: hills and a hash's worth of spikes.
    let heights: Vec<f32> = hills(n)
        .iter()
        .enumerate()
        .map(|(i, h)| h + 0.3 * texgraph_core::kernels::shapes::hash01(i as i32, 7, 1))
        .collect();
    let reference_start: Vec<f64> = heights.iter().copied().map(f64::from).collect();
    let mut simulation = thermal::Thermal::new(settings, true);
    simulation.start(n, n, &maps(heights)).expect("memory");
    let mut steps = 0;
    for target in [20, 2000] {
        while steps < target {
            simulation.step();
            steps += 1;
        }
        let ours: Vec<f64> = simulation.heights().into_iter().map(f64::from).collect();
        let reference = thermal_reference(&reference_start, n, 30.0, 0.5, steps);
        let worst = ours
            .iter()
            .zip(&reference)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            worst < 1e-4,
            "after {steps} steps the f32 simulation is {worst} from the reference"
        );
    }
    let before = steepest_excess(&reference_start, n, 30.0);
    let ours: Vec<f64> = simulation.heights().into_iter().map(f64::from).collect();
    let after = steepest_excess(&ours, n, 30.0);
    println!(
        "thermal, {n}²: steepest excess over the talus {before:.4} before, {after:.2e} after 2000 steps"
    );
    assert!(
        before > 0.05,
        "the test ground should start steep ({before})"
    );
    assert!(
        after < 1e-3,
        "no slope should stay steeper than the talus: {after}"
    );
    let (sum_before, sum_after) = (
        reference_start.iter().sum::<f64>(),
        ours.iter().sum::<f64>(),
    );
    assert!(
        (sum_before - sum_after).abs() / sum_before < 1e-5,
        "material is only moved"
    );
}

/// `image` (`n` × `n`) box-filtered down by `k`.
fn shrink(image: &[f32], n: usize, k: usize) -> Vec<f32> {
    let m = n / k;
    (0..m * m)
        .map(|i| {
            let (x, y) = (i % m, i / m);
            let mut sum = 0.0f64;
            for j in 0..k * k {
                sum += f64::from(image[(y * k + j / k) * n + x * k + j % k]);
            }
            (sum / (k * k) as f64) as f32
        })
        .collect()
}

fn correlation(a: &[f32], b: &[f32]) -> f64 {
    let mean = |v: &[f32]| v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(a), mean(b));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (f64::from(x) - ma, f64::from(y) - mb);
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    ab / (aa * bb).sqrt()
}

/// A ridged range eroded with `downcutting`, compared at 512² and 2048² box-filtered to
/// 512²: the height's mean difference as a share of its range, and the height's and
/// flow's correlations. Printed for the README.
fn preview_against_export(downcutting: f32) -> (f64, f64, f64) {
    let graph = common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 4, "settings": {{ "tileable": true }}, "nodes": [
            {{ "id": "m", "type": "ridged", "params": {{ "frequency": 3, "octaves": 7, "gain": 0.5, "seed": 5 }} }},
            {{ "id": "e", "type": "hydraulic_erosion", "params": {{ "downcutting": {downcutting} }}, "inputs": {{ "height": "m" }} }},
            {{ "id": "height", "type": "output", "params": {{ "name": "height" }}, "inputs": {{ "color": "e.height" }} }},
            {{ "id": "flow", "type": "output", "params": {{ "name": "flow" }}, "inputs": {{ "color": "e.flow" }} }} ] }}"#
    ));
    let (small, large) = (512usize, 2048usize);
    let k = large / small;
    let preview = |output| render(&graph, output, small as u32);
    let export = |output| shrink(&render(&graph, output, large as u32), large, k);
    let (h_small, h_large) = (preview("height"), export("height"));
    let (low, high) = h_small
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let mean_difference = h_small
        .iter()
        .zip(&h_large)
        .map(|(a, b)| f64::from((a - b).abs()))
        .sum::<f64>()
        / h_small.len() as f64
        / f64::from(high - low);
    let height_correlation = correlation(&h_small, &h_large);
    let flow_correlation = correlation(&preview("flow"), &export("flow"));
    println!(
        "hydraulic erosion, downcutting {downcutting}, {small}² against {large}² box-filtered to {small}²: \
         height mean difference {:.2}% of the range, height correlation {height_correlation:.4}, \
         flow correlation {flow_correlation:.3}",
        mean_difference * 100.0
    );
    (mean_difference, height_correlation, flow_correlation)
}

#[test]
fn a_preview_shows_what_an_export_shows() {
    let (mean_difference, _, flow_correlation) = preview_against_export(0.0);
    assert!(
        mean_difference < 0.02,
        "height differs by {mean_difference} of its range"
    );
    assert!(
        flow_correlation > 0.8,
        "flow correlation {flow_correlation}"
    );
}

#[test]
fn downcut_valleys_stand_where_the_preview_shows_them() {
    // Finer grids cut finer gullies, which a box filter averages into their valleys: the
    // heights still agree, the flow's thin streams only roughly (printed, not held).
    let (mean_difference, height_correlation, _) = preview_against_export(10.0);
    assert!(
        mean_difference < 0.02 && height_correlation > 0.99,
        "height differs by {mean_difference} of its range, correlation {height_correlation}"
    );
}

#[test]
fn flat_ground_stays_finite() {
    use texgraph_core::eval::erosion::{Maps, erode};
    use texgraph_core::terrain::Erosion;
    for (w, h) in [(8, 8), (1, 1), (3, 200)] {
        for wrap in [false, true] {
            let flat = vec![0.0f32; w * h];
            let maps = Maps {
                height: &flat,
                rain: None,
                hardness: None,
            };
            let out = erode(
                Erosion::Hydraulic(hydraulic_defaults()),
                maps,
                w,
                h,
                wrap,
                None,
                &|_| {},
            )
            .expect("eroded");
            let bad: Vec<usize> = (0..4)
                .filter(|&c| out.iter().skip(c).step_by(4).any(|v| !v.is_finite()))
                .collect();
            assert!(
                bad.is_empty(),
                "{w}x{h}, wrap {wrap}: channels {bad:?} are not finite"
            );
        }
    }
}

#[test]
fn erosion_reports_progress_each_step_and_stops_within_one() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
    let graph = common::graph(
        r#"{ "format": "texgraph", "version": 4, "nodes": [
            { "id": "m", "type": "ridged", "params": { "frequency": 3 } },
            { "id": "e", "type": "hydraulic_erosion", "params": { "duration": 4 }, "inputs": { "height": "m" } },
            { "id": "out", "type": "output", "inputs": { "color": "e.flow" } } ] }"#,
    );
    let program = texgraph_core::compile(&graph, None).unwrap();
    // Uncancelled, the rows reported climb in many small steps to the whole image.
    let calls = AtomicU32::new(0);
    let last = AtomicU32::new(0);
    texgraph_core::render(&program, 128, 128, RenderOptions::default(), &|rows| {
        calls.fetch_add(1, Ordering::Relaxed);
        last.fetch_max(rows, Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(last.load(Ordering::Relaxed), 128);
    assert!(calls.load(Ordering::Relaxed) > 1000, "a report per step");
    // Cancelled at a report of the erosion stage (past the third of the rows the noise's
    // plane stands for): it stops at the next step.
    let flag = Arc::new(AtomicBool::new(false));
    let after = AtomicU32::new(0);
    let options = RenderOptions {
        cancel: Some(flag.clone()),
        ..RenderOptions::default()
    };
    let result = texgraph_core::render(&program, 128, 128, options, &|rows| {
        if rows > 128 / 3 + 1 && flag.swap(true, Ordering::Relaxed) {
            after.fetch_add(1, Ordering::Relaxed);
        }
    });
    assert!(
        matches!(result, Err(texgraph_core::Error::Cancelled)),
        "{result:?}"
    );
    assert!(
        after.load(Ordering::Relaxed) <= 2,
        "steps went on after the cancel: {}",
        after.load(Ordering::Relaxed)
    );
}
