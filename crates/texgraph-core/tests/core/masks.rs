//! The mask nodes against independent code: distances against a brute-force search over
//! the rendered mask, flood fills against a breadth-first labelling, shapes across the
//! edges of tileable graphs, resolution independence, and the plan.

use texgraph_core::program::{Reach, StageWork};
use texgraph_core::{Image, RenderOptions, compile, compile_node, render};

use super::common;

/// A graph whose node `m` is a mask of blobs (thresholded noise) and `out` its distance
/// with `params`.
fn distance_graph(tileable: bool, params: &str) -> texgraph_core::Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
           {{ "id": "n", "type": "fbm", "params": {{ "frequency": 3, "octaves": 3 }} }},
           {{ "id": "m", "type": "threshold", "params": {{ "level": 0.62 }}, "inputs": {{ "input": "n" }} }},
           {{ "id": "d", "type": "distance", "params": {params}, "inputs": {{ "mask": "m" }} }},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "d" }} }} ] }}"#
    ))
}

fn render_node(graph: &texgraph_core::Graph, node: &str, w: u32, h: u32) -> Image {
    let program = compile_node(graph, node, None).unwrap_or_else(|e| panic!("compile: {e}"));
    render(&program, w, h, RenderOptions::default(), &|_| {}).expect("render")
}

/// The distance, in texture units, from texel (x, y) of `inside` to the nearest texel of
/// the other side: every texel tried.
fn brute(inside: &[bool], w: usize, h: usize, wrap: bool, x: usize, y: usize) -> Option<f64> {
    let mut best: Option<f64> = None;
    for j in 0..h {
        for i in 0..w {
            if inside[j * w + i] == inside[y * w + x] {
                continue;
            }
            let (mut dx, mut dy) = (i.abs_diff(x), j.abs_diff(y));
            if wrap {
                dx = dx.min(w - dx);
                dy = dy.min(h - dy);
            }
            let (fx, fy) = (dx as f64 / w as f64, dy as f64 / h as f64);
            let d = (fx * fx + fy * fy).sqrt();
            best = Some(best.map_or(d, |b| b.min(d)));
        }
    }
    best
}

#[test]
fn distance_equals_a_brute_force_search_over_the_mask() {
    let (w, h) = (72u32, 40u32);
    for tileable in [false, true] {
        for (mode, range) in [("outside", 0.2f32), ("inside", 0.05), ("signed", 0.1)] {
            let graph = distance_graph(
                tileable,
                &format!(r#"{{ "distance": {range}, "mode": "{mode}" }}"#),
            );
            let mask = render_node(&graph, "m", w, h);
            let out = render_node(&graph, "d", w, h);
            let inside: Vec<bool> = mask
                .data
                .chunks(mask.channels)
                .map(|t| t[0] > 0.5)
                .collect();
            assert!(inside.iter().any(|&i| i) && !inside.iter().all(|&i| i));
            let (w, h) = (w as usize, h as usize);
            for y in 0..h {
                for x in 0..w {
                    let i = inside[y * w + x];
                    let d = brute(&inside, w, h, tileable, x, y).expect("both sides present");
                    let expected = match (mode, i) {
                        ("outside", true) | ("inside", false) => 0.0,
                        ("signed", true) => 0.5 - 0.5 * d / f64::from(range),
                        ("signed", false) => 0.5 + 0.5 * d / f64::from(range),
                        _ => d / f64::from(range),
                    }
                    .clamp(0.0, 1.0);
                    let got = f64::from(out.data[(y * w + x) * out.channels]);
                    assert!(
                        (got - expected).abs() < 1e-5,
                        "tileable {tileable} {mode} at ({x}, {y}): {got} against {expected}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_blank_mask_is_far_from_everything() {
    let graph = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
           { "id": "c", "type": "constant", "params": { "value": 0.2 } },
           { "id": "d", "type": "distance", "inputs": { "mask": "c" } },
           { "id": "s", "type": "distance", "params": { "mode": "signed" }, "inputs": { "mask": "c" } },
           { "id": "out", "type": "output", "inputs": { "color": "d" } } ] }"#,
    );
    let far = render_node(&graph, "d", 16, 16);
    assert!(far.data.iter().all(|&v| v == 1.0));
    let signed = render_node(&graph, "s", 16, 16);
    assert!(signed.data.iter().all(|&v| v == 1.0));
}

#[test]
fn distance_does_not_depend_on_the_resolution() {
    let graph = distance_graph(true, r#"{ "distance": 0.15, "mode": "signed" }"#);
    let small = common::render_graph(&graph, None, 128, RenderOptions::default());
    let big = common::render_graph(&graph, None, 512, RenderOptions::default());
    let mean = common::mean_difference(&small, &common::downsample(&big, 4));
    // The masks differ by a texel of aliasing along their edges, the distances as much.
    assert!(mean < 0.01, "mean difference {mean}");
}

#[test]
fn the_distance_stage_reads_its_mask_whole() {
    let program = compile(&distance_graph(false, "{}"), None).unwrap();
    let stage = program
        .stages
        .iter()
        .find(|s| matches!(s.work, StageWork::Distance { .. }))
        .expect("a distance stage");
    assert_eq!(stage.reaches, [Reach::Whole]);
    let plan = texgraph_core::plan::plan(&program, 256, 256, 2);
    let described = plan
        .stages
        .iter()
        .find(|s| s.work.contains("distance"))
        .expect("the plan lists the distance stage");
    assert!(described.work.contains("whole plane"), "{}", described.work);
    assert!(
        matches!(
            described.reads[..],
            [(_, texgraph_core::plan::PlaneReach::Whole)]
        ),
        "{:?}",
        described.reads
    );
    assert!(plan.to_string().contains("whole"), "{plan}");
}

/// A graph of blobs `m` (thresholded noise), their flood fill `ff` and its companions.
fn fill_graph(tileable: bool, mask: &str) -> texgraph_core::Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
           {{ "id": "n", "type": "fbm", "params": {{ "frequency": 5, "octaves": 3, "seed": 3 }} }},
           {{ "id": "b", "type": "bricks" }},
           {{ "id": "m", "type": "threshold", "params": {{ "level": 0.55 }}, "inputs": {{ "input": "{mask}" }} }},
           {{ "id": "ff", "type": "flood_fill", "inputs": {{ "mask": "m" }} }},
           {{ "id": "random", "type": "fill_to_random", "params": {{ "seed": 7 }}, "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "index", "type": "fill_to_index", "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "gradient", "type": "fill_to_gradient", "params": {{ "variation": 0 }}, "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "size", "type": "fill_to_bbox_size", "params": {{ "measure": "width" }}, "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "random" }} }} ] }}"#
    ))
}

/// Each texel's component in a plain breadth-first labelling (8-connected, wrapping when
/// `wrap`), or `None` outside.
fn breadth_first(inside: &[bool], w: usize, h: usize, wrap: bool) -> Vec<Option<usize>> {
    let mut label = vec![None; w * h];
    let mut next = 0;
    for start in 0..w * h {
        if label[start].is_some() || !inside[start] {
            continue;
        }
        label[start] = Some(next);
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            let (x, y) = ((at % w) as i64, (at / w) as i64);
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let (mut nx, mut ny) = (x + dx, y + dy);
                    if wrap {
                        (nx, ny) = (nx.rem_euclid(w as i64), ny.rem_euclid(h as i64));
                    } else if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let n = ny as usize * w + nx as usize;
                    if inside[n] && label[n].is_none() {
                        label[n] = Some(next);
                        queue.push_back(n);
                    }
                }
            }
        }
        next += 1;
    }
    label
}

#[test]
fn flood_fill_finds_the_breadth_first_shapes() {
    let (w, h) = (96usize, 64usize);
    for tileable in [false, true] {
        let graph = fill_graph(tileable, "n");
        let mask = render_node(&graph, "m", w as u32, h as u32);
        let inside: Vec<bool> = mask
            .data
            .chunks(mask.channels)
            .map(|t| t[0] > 0.5)
            .collect();
        let bfs = breadth_first(&inside, w, h, tileable);
        let shapes = bfs.iter().flatten().max().map_or(0, |m| m + 1);
        assert!(shapes >= 5, "the mask has {shapes} shapes");
        let index = render_node(&graph, "index", w as u32, h as u32);
        let random = render_node(&graph, "random", w as u32, h as u32);
        // Same partition, numbered in the scan order of each shape's first texel.
        let mut random_of = vec![None; shapes];
        for (t, shape) in bfs.iter().enumerate() {
            let (i, r) = (index.data[t], random.data[t]);
            match *shape {
                None => assert_eq!((i, r), (0.0, 0.0), "background at texel {t}"),
                Some(s) => {
                    assert_eq!(i, ((s + 1) as f64 / shapes as f64) as f32, "texel {t}");
                    // Constant within a shape.
                    assert_eq!(*random_of[s].get_or_insert(r), r, "texel {t}");
                }
            }
        }
        // Different between shapes.
        let mut randoms: Vec<u32> = random_of.iter().map(|r| r.unwrap().to_bits()).collect();
        randoms.sort_unstable();
        randoms.dedup();
        assert_eq!(randoms.len(), shapes, "tileable {tileable}");
    }
}

#[test]
fn a_brick_cut_by_the_border_is_one_shape_when_tileable() {
    let (w, h) = (128usize, 128usize);
    let graph = fill_graph(true, "b");
    let mask = render_node(&graph, "m", w as u32, h as u32);
    let random = render_node(&graph, "random", w as u32, h as u32);
    let size = render_node(&graph, "size", w as u32, h as u32);
    let gradient = render_node(&graph, "gradient", w as u32, h as u32);
    let mut cut = 0;
    for y in 0..h {
        let (left, right) = (y * w, y * w + w - 1);
        if mask.data[left] > 0.5 && mask.data[right] > 0.5 {
            cut += 1;
            assert_eq!(random.data[left], random.data[right], "row {y}");
            assert_eq!(size.data[left], size.data[right], "row {y}");
            // The gradient runs on across the border: one texel's step, as inside.
            let step = gradient.data[left] - gradient.data[right];
            let inner = gradient.data[left + 1] - gradient.data[left];
            assert!(
                (step - inner).abs() < 1e-4,
                "row {y}: {step} against {inner}"
            );
        }
    }
    assert!(
        cut > 10,
        "bricks cross the left and right edges in {cut} rows"
    );
    // Every brick is whole: the same width as the others.
    let widths: std::collections::BTreeSet<u32> = size
        .data
        .iter()
        .filter(|&&s| s > 0.0)
        .map(|s| s.to_bits())
        .collect();
    assert_eq!(widths.len(), 1, "{widths:?}");
}

#[test]
fn a_fill_companion_fills_a_mask_connected_to_it() {
    let mut graph = fill_graph(false, "n");
    let direct = render_node(&graph, "random", 64, 48);
    graph
        .nodes
        .iter_mut()
        .find(|n| n.id == "random")
        .unwrap()
        .inputs
        .insert("flood_fill".into(), "m".into());
    let through_mask = render_node(&graph, "random", 64, 48);
    assert!(common::same_bits(&direct, &through_mask));
    assert!(direct.data.iter().any(|&r| r > 0.0));
}

#[test]
fn the_flood_fill_stage_reads_its_mask_whole() {
    let program = compile(&fill_graph(true, "n"), None).unwrap();
    let stages: Vec<_> = program
        .stages
        .iter()
        .filter(|s| matches!(s.work, StageWork::FloodFill { .. }))
        .collect();
    assert_eq!(stages.len(), 1, "one labelling however many companions");
    assert_eq!(stages[0].reaches, [Reach::Whole]);
    let plan = texgraph_core::plan::plan(&program, 256, 256, 2).to_string();
    assert!(
        plan.contains("flood fill") && plan.contains("whole"),
        "{plan}"
    );
}

#[test]
fn bevel_profiles_follow_the_distance_inside() {
    let graph = common::graph(
        r#"{ "format": "texgraph", "version": 1, "settings": { "tileable": true }, "nodes": [
           { "id": "n", "type": "fbm", "params": { "frequency": 3, "octaves": 3 } },
           { "id": "m", "type": "threshold", "params": { "level": 0.45 }, "inputs": { "input": "n" } },
           { "id": "d", "type": "distance", "params": { "distance": 1, "mode": "inside" }, "inputs": { "mask": "m" } },
           { "id": "linear", "type": "bevel", "params": { "distance": 0.06 }, "inputs": { "mask": "m" } },
           { "id": "round", "type": "bevel", "params": { "distance": 0.06, "profile": "round" }, "inputs": { "mask": "m" } },
           { "id": "smooth", "type": "bevel", "params": { "distance": 0.06, "profile": "smooth" }, "inputs": { "mask": "m" } },
           { "id": "rounded", "type": "bevel", "params": { "distance": 0.06, "corner": "rounded" }, "inputs": { "mask": "m" } },
           { "id": "out", "type": "output", "inputs": { "color": "linear" } } ] }"#,
    );
    let (w, h) = (96, 80);
    // The distance to the edge, half a texel (of the larger side) less than to the
    // nearest outside texel's centre, over the bevel's width.
    let d = render_node(&graph, "d", w, h);
    let linear = render_node(&graph, "linear", w, h);
    let half = 0.5 / f64::from(w.max(h));
    for (i, (&d, &l)) in d.data.iter().zip(&linear.data).enumerate() {
        let d = f64::from(d);
        let expected = if d > 0.0 {
            ((d - half) / 0.06).clamp(0.0, 1.0)
        } else {
            0.0
        };
        assert!(
            (f64::from(l) - expected).abs() < 1e-5,
            "texel {i}: {l} against {expected}"
        );
        assert!(l > 0.0 || d == 0.0, "texel {i}: inside texels rise");
    }
    let t = linear.clone();
    let round = render_node(&graph, "round", w, h);
    let smooth = render_node(&graph, "smooth", w, h);
    let rounded = render_node(&graph, "rounded", w, h);
    let mut lowered = 0;
    for i in 0..t.data.len() {
        let x = f64::from(t.data[i]);
        let expect_round = (1.0 - (1.0 - x) * (1.0 - x)).sqrt();
        let expect_smooth = x * x * (3.0 - 2.0 * x);
        assert!(
            (f64::from(round.data[i]) - expect_round).abs() < 1e-5,
            "texel {i}"
        );
        assert!(
            (f64::from(smooth.data[i]) - expect_smooth).abs() < 1e-5,
            "texel {i}"
        );
        // Rounding only ever lowers the slope, and never the outside.
        assert!(rounded.data[i] <= linear.data[i], "texel {i}");
        assert_eq!(rounded.data[i] == 0.0, linear.data[i] == 0.0, "texel {i}");
        lowered += usize::from(rounded.data[i] < linear.data[i]);
    }
    assert!(lowered > 0, "rounded corners differ somewhere");
}

#[test]
fn a_rounded_bevel_rounds_a_thin_shapes_crest_and_keeps_its_ridge() {
    // A stripe 0.06 wide beveled over 0.1: too thin to reach the top, its crest a crease
    // the rounding softens.
    let graph = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
           { "id": "uv", "type": "coords" },
           { "id": "band", "type": "math", "params": { "op": "step", "b": 0.47 }, "inputs": { "a": "uv.u" } },
           { "id": "cut", "type": "math", "params": { "op": "step", "a": 0.53 }, "inputs": { "b": "uv.u" } },
           { "id": "m", "type": "math", "params": { "op": "multiply" }, "inputs": { "a": "band", "b": "cut" } },
           { "id": "sharp", "type": "bevel", "params": { "distance": 0.1 }, "inputs": { "mask": "m" } },
           { "id": "rounded", "type": "bevel", "params": { "distance": 0.1, "corner": "rounded" }, "inputs": { "mask": "m" } },
           { "id": "out", "type": "output", "inputs": { "color": "rounded" } } ] }"#,
    );
    let sharp = render_node(&graph, "sharp", 200, 100);
    let rounded = render_node(&graph, "rounded", 200, 100);
    let peak = |image: &Image| image.data.iter().copied().fold(0.0f32, f32::max);
    assert!(peak(&sharp) > 0.25, "sharp peak {}", peak(&sharp));
    assert!(
        peak(&rounded) > 0.4 * peak(&sharp) && peak(&rounded) < peak(&sharp),
        "rounded peak {} against {}",
        peak(&rounded),
        peak(&sharp)
    );
    // Still one ridge: rising to the middle of the stripe and falling after.
    let row = &rounded.data[50 * 200..51 * 200];
    let top = (0..200).max_by(|&a, &b| row[a].total_cmp(&row[b])).unwrap();
    assert!((93..=106).contains(&top), "ridge at column {top}");
    assert!(row[..top].windows(2).all(|p| p[0] <= p[1]));
    assert!(row[top..].windows(2).all(|p| p[0] >= p[1]));
}
