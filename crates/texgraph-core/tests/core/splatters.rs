//! The splatters. `splatter_circular`: instances where the documented ring geometry puts
//! them, and the built-in shapes (drawn by bounding box a block at a time) equal to a
//! pattern input (compiled instance by instance), wrapping around the edges alike.
//! `shape_splatter`: one instance centred on each shape's box, sized by it, clipped to
//! its shape.

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;

const SIZE: u32 = 128;

fn render(params: &str, pattern_input: bool, output: &str, tileable: bool) -> texgraph_core::Image {
    let (pattern, inputs) = if pattern_input {
        (
            r#""pattern": "input""#,
            r#", "inputs": { "pattern_1": "white" }"#,
        )
    } else {
        (r#""pattern": "square""#, "")
    };
    let json = format!(
        r#"{{ "format": "texgraph", "version": 5, "settings": {{ "tileable": {tileable} }}, "nodes": [
          {{ "id": "white", "type": "constant", "params": {{ "value": 1 }} }},
          {{ "id": "s", "type": "splatter_circular", "params": {{ {params}, {pattern} }}{inputs} }},
          {{ "id": "out", "type": "output", "inputs": {{ "color": "s{output}" }} }} ] }}"#
    );
    render_graph(&graph(&json), None, SIZE, RenderOptions::default())
}

/// The value at texture coordinates (u, v) (the pixel holding them).
fn at(image: &texgraph_core::Image, u: f64, v: f64) -> f32 {
    let x = (u * f64::from(SIZE)) as usize;
    let y = (v * f64::from(SIZE)) as usize;
    image.data[(y * SIZE as usize + x) * image.channels]
}

#[test]
fn instances_sit_on_their_rings_as_documented() {
    // Two rings of four, 0.2 and 0.4 from the centre, the first at the top, the outer
    // ring half a step on; small squares.
    let params = r#""count": 4, "rings": 2, "radius": 0.4, "angle": 90, "ring_offset": 0.5,
        "scale": 0.05, "follow": false"#;
    let out = render(params, false, "", false);
    let index = render(params, false, ".instance_index", false);
    let mut expected = Vec::new();
    for ring in 0..2 {
        for step in 0..4 {
            let degrees = 90.0 + (f64::from(step) + 0.5 * f64::from(ring)) * 90.0;
            let distance = 0.2 * f64::from(ring + 1);
            let (u, v) = (
                0.5 + distance * degrees.to_radians().cos(),
                0.5 - distance * degrees.to_radians().sin(),
            );
            expected.push((u, v, f64::from(ring * 4 + step) / 8.0));
        }
    }
    for &(u, v, i) in &expected {
        assert_eq!(at(&out, u, v), 1.0, "an instance at ({u:.3}, {v:.3})");
        let got = f64::from(at(&index, u, v));
        assert!(
            (got - i).abs() < 1e-6,
            "index at ({u:.3}, {v:.3}): {got}, want {i}"
        );
    }
    // Nothing else: a square of 0.05 covers about 6 × 6 pixels at 128².
    let covered = out.data.iter().filter(|&&v| v > 0.0).count();
    let per = (0.05 * f64::from(SIZE)).powi(2);
    assert!(
        (covered as f64) < 8.0 * per * 1.5 && (covered as f64) > 8.0 * per * 0.5,
        "{covered} pixels covered, eight squares cover about {}",
        8.0 * per
    );
    assert_eq!(at(&out, 0.5, 0.5), 0.0, "the centre is empty");
}

#[test]
fn a_spiral_moves_each_instance_out_by_its_place_on_the_ring() {
    let params = r#""count": 4, "rings": 1, "radius": 0.2, "angle": 0, "spiral": 1,
        "scale": 0.04, "follow": false"#;
    let out = render(params, false, "", false);
    for step in 0..4 {
        let degrees = f64::from(step) * 90.0;
        let distance = 0.2 * (1.0 + f64::from(step) / 4.0);
        let (u, v) = (
            0.5 + distance * degrees.to_radians().cos(),
            0.5 - distance * degrees.to_radians().sin(),
        );
        assert_eq!(at(&out, u, v), 1.0, "instance {step} at ({u:.3}, {v:.3})");
    }
}

#[test]
fn a_built_in_shape_and_a_pattern_input_draw_the_same_instances() {
    // Off centre, so that rings cross the edges; turned, shrunk, darkened, some left out.
    let params = r#""count": 9, "rings": 3, "radius": 0.45, "center_x": 0.15, "center_y": 0.8,
        "spiral": 0.6, "ring_offset": 0.5, "scale": 0.12, "size_y": 1.6, "scale_random": 0.4,
        "position_random": 0.05, "rotation_random": 0.5, "luminance_random": 0.5,
        "mask_random": 0.1, "seed": 3"#;
    for tileable in [true, false] {
        for blend in ["max", "add", "painter"] {
            let params = format!(r#"{params}, "blend": "{blend}""#);
            for output in [
                "",
                ".instance_random",
                ".instance_index",
                ".instance_uv",
                ".color",
            ] {
                let shape = render(&params, false, output, tileable);
                let input = render(&params, true, output, tileable);
                let differ = crate::common::samples_apart(&shape, &input, 1e-5);
                assert_eq!(
                    differ, 0,
                    "{output} ({blend}, tileable: {tileable}): {differ} samples differ"
                );
            }
            let out = render(&params, false, "", tileable);
            let drawn = out.data.iter().filter(|&&v| v > 0.0).count();
            assert!(drawn > out.data.len() / 10, "{drawn} samples drawn");
            // Tileable, the instances that cross the right edge come back on the left.
            let left_edge = (0..SIZE as usize)
                .filter(|&y| out.data[y * SIZE as usize] > 0.0)
                .count();
            if tileable {
                assert!(left_edge > 0, "instances wrap onto the left edge");
            }
        }
    }
}

#[test]
fn too_many_instances_for_a_pattern_input_is_an_error_on_count() {
    let json = r#"{ "format": "texgraph", "version": 5, "nodes": [
      { "id": "s", "type": "splatter_circular", "params": { "count": 40, "rings": 2, "pattern": "input" } },
      { "id": "out", "type": "output", "inputs": { "color": "s" } } ] }"#;
    let error = texgraph_core::compile(&graph(json), None)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("'s'") && error.contains("count") && error.contains("80"),
        "{error}"
    );
}

/// Bricks of a stack bond (4 × 4 squares of 32 pixels at 128², mortar between) through a
/// shape splatter of `pattern`, `output` of it.
fn splattered_bricks(pattern: &str, params: &str, output: &str) -> texgraph_core::Image {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 5, "settings": {{ "tileable": true }}, "nodes": [
          {{ "id": "b", "type": "bricks", "params": {{ "columns": 4, "rows": 4, "offset": 0, "mortar": 0.1, "bevel": 0 }} }},
          {{ "id": "f", "type": "flood_fill", "inputs": {{ "mask": "b.mask" }} }},
          {{ "id": "white", "type": "constant", "params": {{ "value": 1 }} }},
          {{ "id": "s", "type": "shape_splatter", "params": {{ "pattern": "{pattern}", {params} }},
            "inputs": {{ "flood_fill": "f", "pattern_1": "white" }} }},
          {{ "id": "r", "type": "fill_to_random", "params": {{ "seed": 5 }}, "inputs": {{ "flood_fill": "f" }} }},
          {{ "id": "out", "type": "output", "inputs": {{ "color": "{output}" }} }} ] }}"#
    );
    render_graph(&graph(&json), None, SIZE, RenderOptions::default())
}

#[test]
fn a_shape_splatter_centres_one_instance_on_each_shape() {
    // Half the box: a square of about 14 pixels centred in each brick of 32 (29 without
    // the mortar).
    let out = splattered_bricks("square", r#""scale": 0.5, "seed": 5"#, "s");
    let random = splattered_bricks("square", r#""scale": 0.5, "seed": 5"#, "s.instance_random");
    let fill_random = splattered_bricks("square", r#""scale": 0.5, "seed": 5"#, "r");
    for row in 0..4 {
        for column in 0..4 {
            let (u, v) = (
                (f64::from(column) + 0.5) / 4.0,
                (f64::from(row) + 0.5) / 4.0,
            );
            assert_eq!(
                at(&out, u, v),
                1.0,
                "brick ({column}, {row}) has its instance"
            );
            // Near the brick's corner (0.35 of a brick from its centre each way, inside
            // the brick) is outside the half-size square centred in it.
            let corner = (u - 0.35 / 4.0, v - 0.35 / 4.0);
            assert_eq!(
                at(&out, corner.0, corner.1),
                0.0,
                "brick ({column}, {row}) corner"
            );
            assert_eq!(
                at(&random, u, v),
                at(&fill_random, u, v),
                "each instance's random is its shape's"
            );
        }
    }
    let covered = out.data.iter().filter(|&&v| v > 0.0).count() as f64;
    // 16 squares of half of 29 pixels (28.8 across less the mortar) a side.
    let want = 16.0 * (0.5 * 0.9 * 32.0f64).powi(2);
    assert!(
        (covered - want).abs() < want * 0.15,
        "{covered} pixels covered, want about {want}"
    );
    // The pattern input draws the same squares.
    let input = splattered_bricks("input", r#""scale": 0.5, "seed": 5"#, "s");
    assert_eq!(input.data, out.data);
}

#[test]
fn a_shape_splatter_keeps_each_instance_within_its_shape() {
    // Twice the box: each instance covers its whole brick, and no mortar.
    let out = splattered_bricks("square", r#""scale": 2"#, "s");
    let mask = splattered_bricks("square", r#""scale": 2"#, "f");
    // The flood fill's color is black on the background only.
    for (k, (&o, shape)) in out.data.iter().zip(mask.data.chunks_exact(4)).enumerate() {
        let inside = shape[0] > 0.0 || shape[1] > 0.0;
        assert_eq!(
            o > 0.0,
            inside,
            "sample {k}: drawn only and everywhere inside a shape"
        );
    }
}
