//! The `terrace` node against its formula computed here in f64, texel by texel.

use crate::common;
use texgraph_core::RenderOptions;

/// `terrace` of a ramp from −0.1 to 1.1 across the image, with `params` (JSON members).
fn terraced(params: &str, size: u32) -> Vec<f32> {
    let graph = common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 5, "nodes": [
            {{ "id": "ramp", "type": "formula", "params": {{ "expression": "u * 1.2 - 0.1" }} }},
            {{ "id": "t", "type": "terrace", "params": {{ {params} }}, "inputs": {{ "height": "ramp" }} }},
            {{ "id": "out", "type": "output", "params": {{ "name": "out" }}, "inputs": {{ "color": "t" }} }} ] }}"#
    ));
    common::render_graph(&graph, Some("out"), size, RenderOptions::default()).data
}

fn reference(h: f64, steps: f64, sharpness: f64, offset: f64, amount: f64) -> f64 {
    let x = h * steps - offset;
    let floor = x.floor();
    let t = ((x - floor - sharpness) / (1.0 - sharpness).max(1e-4)).clamp(0.0, 1.0);
    let eased = t * t * (3.0 - 2.0 * t);
    let terraced = (floor + eased + offset) / steps;
    h + (terraced - h) * amount
}

#[test]
fn terraces_follow_their_formula() {
    let size = 256;
    for (params, [steps, sharpness, offset, amount]) in [
        ("", [8.0, 0.7, 0.0, 1.0]),
        (
            r#""steps": 3, "sharpness": 0, "offset": 0.25"#,
            [3.0, 0.0, 0.25, 1.0],
        ),
        (
            r#""steps": 20, "sharpness": 1, "amount": 0.5"#,
            [20.0, 1.0, 0.0, 0.5],
        ),
    ] {
        let image = terraced(params, size);
        // The first row: every row is the same ramp.
        for (col, &got) in image.iter().take(size as usize).enumerate() {
            let u = (col as f64 + 0.5) / size as f64;
            let want = reference(u * 1.2 - 0.1, steps, sharpness, offset, amount);
            let got = got as f64;
            assert!(
                (got - want).abs() < 2e-5,
                "{params}: column {col}: {got} against {want}"
            );
        }
    }
    // Sheer risers: every texel on a tread, a whole number of steps up.
    for v in terraced(r#""steps": 5, "sharpness": 1"#, 64) {
        let level = v * 5.0;
        assert!((level - level.round()).abs() < 1e-4, "{v}");
    }
}
