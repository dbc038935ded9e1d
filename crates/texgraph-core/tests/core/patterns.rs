//! `shape` and `bricks` against geometry written here: point-in-polygon tests, distances
//! to a circle, and the brick layout worked out per pixel.

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;
use texgraph_core::kernels::shapes::hash01;

const SIZE: u32 = 96;

fn render(node: &str, tileable: bool, output: &str) -> Vec<f32> {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
             {node},
             {{ "id": "out", "type": "output", "inputs": {{ "color": "{output}" }} }} ] }}"#
    );
    render_graph(&graph(&json), None, SIZE, RenderOptions::default()).data
}

/// Pixel centres (u, v) with their index.
fn pixels() -> impl Iterator<Item = (usize, f64, f64)> {
    (0..SIZE * SIZE).map(|i| {
        let (col, row) = (i % SIZE, i / SIZE);
        let c = |k: u32| (f64::from(k) + 0.5) / f64::from(SIZE);
        (i as usize, c(col), c(row))
    })
}

/// Whether (x, y) is inside the polygon (even-odd rule, by a horizontal ray).
fn inside(polygon: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut crossings = false;
    for (k, &(ax, ay)) in polygon.iter().enumerate() {
        let (bx, by) = polygon[(k + 1) % polygon.len()];
        if (ay > y) != (by > y) && x < ax + (y - ay) / (by - ay) * (bx - ax) {
            crossings = !crossings;
        }
    }
    crossings
}

/// Distance from (x, y) to the polygon's outline.
fn outline_distance(polygon: &[(f64, f64)], x: f64, y: f64) -> f64 {
    (0..polygon.len())
        .map(|k| {
            let (ax, ay) = polygon[k];
            let (bx, by) = polygon[(k + 1) % polygon.len()];
            let (ex, ey) = (bx - ax, by - ay);
            let t = (((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
            ((x - ax - t * ex).powi(2) + (y - ay - t * ey).powi(2)).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The outline of a star (or, with inner = cos(π/n), a polygon) centred at (cx, cy) with a
/// point straight up, turned clockwise by `degrees` (y grows downwards).
fn star(cx: f64, cy: f64, n: u32, radius: f64, inner: f64, degrees: f64) -> Vec<(f64, f64)> {
    (0..2 * n)
        .map(|k| {
            let angle = -std::f64::consts::FRAC_PI_2
                + degrees.to_radians()
                + f64::from(k) * std::f64::consts::PI / f64::from(n);
            let r = if k % 2 == 0 { radius } else { radius * inner };
            (cx + r * angle.cos(), cy + r * angle.sin())
        })
        .collect()
}

/// Every pixel of a hard-edged shape against point-in-polygon, the copies of the 3×3
/// tiles around when tileable; pixels within 1e-3 of an edge are skipped.
fn check_polygon_shape(params: &str, outlines: &[Vec<(f64, f64)>], tileable: bool) {
    let image = render(
        &format!(r#"{{ "id": "s", "type": "shape", "params": {{ {params}, "smoothness": 0 }} }}"#),
        tileable,
        "s",
    );
    let mut inside_count = 0;
    for (i, u, v) in pixels() {
        let shifts: Vec<(f64, f64)> = if tileable {
            (-1..=1)
                .flat_map(|a| (-1..=1).map(move |b| (f64::from(a), f64::from(b))))
                .collect()
        } else {
            vec![(0.0, 0.0)]
        };
        let mut near = false;
        let mut want = false;
        for outline in outlines {
            for &(sx, sy) in &shifts {
                let moved: Vec<_> = outline.iter().map(|&(x, y)| (x + sx, y + sy)).collect();
                near |= outline_distance(&moved, u, v) < 1e-3;
                want |= inside(&moved, u, v);
            }
        }
        if near {
            continue;
        }
        assert_eq!(
            image[i],
            if want { 1.0 } else { 0.0 },
            "{params} at ({u}, {v})"
        );
        inside_count += usize::from(want);
    }
    assert!(inside_count > 100, "{params}: the shape covers pixels");
}

#[test]
fn polygons_and_stars_match_point_in_polygon() {
    let hexagon_inner = (std::f64::consts::PI / 6.0).cos();
    let pentagon_inner = (std::f64::consts::PI / 5.0).cos();
    check_polygon_shape(
        r#""kind": "polygon", "sides": 6, "size": 0.4"#,
        &[star(0.5, 0.5, 6, 0.4, hexagon_inner, 0.0)],
        false,
    );
    check_polygon_shape(
        r#""kind": "polygon", "sides": 5, "size": 0.3, "rotate": 17"#,
        &[star(0.5, 0.5, 5, 0.3, pentagon_inner, 17.0)],
        false,
    );
    check_polygon_shape(
        r#""kind": "star", "sides": 5, "size": 0.45, "inner": 0.4, "rotate": -30"#,
        &[star(0.5, 0.5, 5, 0.45, 0.4, -30.0)],
        false,
    );
    check_polygon_shape(
        r#""kind": "star", "sides": 7, "size": 0.2, "inner": 0.6"#,
        &[star(0.5, 0.5, 7, 0.2, 0.6, 0.0)],
        false,
    );
}

#[test]
fn tileable_shapes_continue_across_the_edges() {
    // Radius 0.5, turned: points cross every edge and come back on the other side.
    check_polygon_shape(
        r#""kind": "star", "sides": 5, "size": 0.5, "inner": 0.5, "rotate": 20"#,
        &[star(0.5, 0.5, 5, 0.5, 0.5, 20.0)],
        true,
    );
    check_polygon_shape(
        r#""kind": "polygon", "sides": 3, "size": 0.5, "rotate": 45"#,
        &[star(0.5, 0.5, 3, 0.5, 0.5, 45.0)],
        true,
    );
}

#[test]
fn circles_rings_and_soft_edges_follow_the_distance() {
    let circle = render(
        r#"{ "id": "s", "type": "shape", "params": { "kind": "circle", "size": 0.3, "smoothness": 0.2 } }"#,
        false,
        "s",
    );
    let ring = render(
        r#"{ "id": "s", "type": "shape", "params": { "kind": "ring", "size": 0.4, "inner": 0.5, "smoothness": 0 } }"#,
        false,
        "s",
    );
    for (i, u, v) in pixels() {
        let r = ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt();
        // A smoothstep 0.2·0.3 wide, centred on the edge.
        let soft = 0.2 * 0.3;
        let t = ((r - 0.3 + soft / 2.0) / soft).clamp(0.0, 1.0);
        let want = 1.0 - t * t * (3.0 - 2.0 * t);
        assert!(
            (f64::from(circle[i]) - want).abs() < 2e-3,
            "circle at r = {r}"
        );
        if (r - 0.4).abs() > 1e-3 && (r - 0.2).abs() > 1e-3 {
            let inside = (0.2..=0.4).contains(&r);
            assert_eq!(ring[i], if inside { 1.0 } else { 0.0 }, "ring at r = {r}");
        }
    }
}

#[test]
fn bricks_follow_their_layout() {
    let node = r#"{ "id": "b", "type": "bricks", "params": { "columns": 5, "rows": 7, "offset": 0.5,
        "random_offset": 0.3, "mortar": 0.1, "bevel": 0, "round": 0, "seed": 3 } }"#;
    let [mask, value, bu, bv] = ["b.mask", "b.value", "b.u", "b.v"].map(|o| render(node, false, o));
    let (columns, rows) = (5.0, 7.0);
    let aspect = rows / columns;
    for (i, u, v) in pixels() {
        let row = (v * rows).floor();
        let fy = v * rows - row;
        let alternate = if row as i32 % 2 == 1 { 0.5 } else { 0.0 };
        let shift = alternate + 0.3 * f64::from(hash01(row as i32, -1, 3 ^ 0x2545_F491));
        let x = u * columns + shift;
        let column = x.floor();
        let fx = x - column;
        assert!(
            (f64::from(bu[i]) - fx).abs() < 1e-4,
            "u in the brick at ({u}, {v})"
        );
        assert!(
            (f64::from(bv[i]) - fy).abs() < 1e-4,
            "v in the brick at ({u}, {v})"
        );
        let wrapped = (column as i32).rem_euclid(5);
        assert_eq!(
            value[i],
            hash01(wrapped, row as i32, 3),
            "value at ({u}, {v})"
        );
        // The mortar is 0.1 brick heights wide: 0.05 on each side of a joint.
        let from_joint = (fy.min(1.0 - fy)).min(fx.min(1.0 - fx) * aspect);
        if (from_joint - 0.05).abs() > 1e-3 {
            let want = if from_joint > 0.05 { 1.0 } else { 0.0 };
            assert_eq!(
                mask[i], want,
                "mask at ({u}, {v}), {from_joint} from a joint"
            );
        }
    }
}

#[test]
fn bricks_tile_and_values_repeat_at_the_edges() {
    let node = r#"{ "id": "b", "type": "bricks", "params": { "columns": 3, "rows": 6, "random_offset": 0.7, "seed": 8 } }"#;
    let value = render(node, true, "b.value");
    let mask = render(node, true, "b.mask");
    // The brick across the right edge is the one at the left edge of the same row.
    for row in 0..SIZE {
        let first = (row * SIZE) as usize;
        let last = first + SIZE as usize - 1;
        if mask[first] > 0.0 && mask[last] > 0.0 {
            assert_eq!(value[first], value[last], "row {row}");
        }
    }
}
