//! The mask nodes (`distance`) against independent code: a brute-force search over the
//! rendered mask, seams in tileable graphs, resolution independence, and the plan.

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
    let down = common::downsample(&big, 4);
    let mean = small
        .data
        .iter()
        .zip(&down.data)
        .map(|(a, b)| f64::from((a - b).abs()))
        .sum::<f64>()
        / small.data.len() as f64;
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
    assert_eq!(stage.reach, Reach::Whole);
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
