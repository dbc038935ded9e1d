//! `tile_sampler` against every instance drawn by hand: for each pixel, every instance of
//! the grid (and, when tileable, its copies one period away on each side) is placed,
//! sized, turned, masked and coloured as documented, from its random numbers and from the
//! maps evaluated analytically at its centre, and the results are combined.

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;
use texgraph_core::kernels::shapes::cell_randoms;
use texgraph_core::nodes::tile_sampler::{SECOND_DRAW, THIRD_DRAW};

const SIZE: u32 = 72;

#[derive(Clone)]
struct Setup {
    columns: f64,
    rows: f64,
    scale: f64,
    size_x: f64,
    scale_random: f64,
    interstice_x: f64,
    position_random: f64,
    offset: f64,
    rotation: f64,
    rotation_random: f64,
    luminance_random: f64,
    mask_random: f64,
    displacement: f64,
    displacement_angle: f64,
    blend: &'static str,
    pattern: &'static str,
    maps: bool,
    seed: u32,
    tileable: bool,
}

/// The triangle wave 1 − |2·fract(t) − 1| (`gradient_linear`'s `mirrored`).
fn triangle(t: f64) -> f64 {
    1.0 - (2.0 * (t - t.floor()) - 1.0).abs()
}

/// The maps, as the graph wires them: scale by u, rotation by v, displacement and the
/// pattern distribution by a smooth wave across, the mask a 2 × 2 checker.
fn scale_map(u: f64, _v: f64) -> f64 {
    triangle(u)
}
fn rotation_map(_u: f64, v: f64) -> f64 {
    triangle(-v)
}
fn wave_map(u: f64, _v: f64) -> f64 {
    0.5 - 0.5 * (std::f64::consts::TAU * u).cos()
}
fn checker(u: f64, v: f64) -> f64 {
    let even = ((u * 2.0).floor() + (v * 2.0).floor()).rem_euclid(2.0) == 0.0;
    if even { 1.0 } else { 0.0 }
}

/// What one instance gives at a pixel.
struct Hit {
    value: f64,
    random: f64,
    index: f64,
    uv: (f64, f64),
    color: [f64; 3],
    /// Within a small distance of the instance's edge, or of a map's step at its centre,
    /// where the node's f32 and this f64 may disagree.
    delicate: bool,
}

impl Setup {
    fn json(&self, output: &str) -> String {
        let maps = if self.maps {
            r#""scale_map": "sm", "rotation_map": "rm", "color_map": "cm", "mask_map": "mm",
               "displacement_map": "wm", "pattern_distribution_map": "wm","#
        } else {
            ""
        };
        format!(
            r#"{{ "format": "texgraph", "version": 4, "settings": {{ "tileable": {} }}, "nodes": [
              {{ "id": "sm", "type": "gradient_linear", "params": {{ "kind": "mirrored" }} }},
              {{ "id": "rm", "type": "gradient_linear", "params": {{ "kind": "mirrored", "angle": 90 }} }},
              {{ "id": "wm", "type": "gradient_linear", "params": {{ "kind": "smooth" }} }},
              {{ "id": "mm", "type": "checker", "params": {{ "frequency": 2 }} }},
              {{ "id": "cm", "type": "merge", "inputs": {{ "r": "sm", "g": "rm" }} }},
              {{ "id": "p1", "type": "constant", "params": {{ "value": 1 }} }},
              {{ "id": "p2", "type": "constant", "params": {{ "value": 0.5 }} }},
              {{ "id": "t", "type": "tile_sampler", "params": {{
                  "x_amount": {}, "y_amount": {}, "scale": {}, "size_x": {}, "scale_random": {},
                  "interstice_x": {}, "position_random": {}, "offset": {}, "rotation": {},
                  "rotation_random": {}, "luminance_random": {}, "mask_random": {},
                  "displacement_intensity": {}, "displacement_angle": {}, "blend": "{}",
                  "pattern": "{}", "pattern_inputs": 2, "seed": {} }},
                "inputs": {{ {maps} "pattern_1": "p1", "pattern_2": "p2" }} }},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "{output}" }} }} ] }}"#,
            self.tileable,
            self.columns,
            self.rows,
            self.scale,
            self.size_x,
            self.scale_random,
            self.interstice_x,
            self.position_random,
            self.offset,
            self.rotation,
            self.rotation_random,
            self.luminance_random,
            self.mask_random,
            self.displacement,
            self.displacement_angle,
            self.blend,
            self.pattern,
            self.seed,
        )
    }

    fn render(&self, output: &str) -> texgraph_core::Image {
        render_graph(
            &graph(&self.json(output)),
            None,
            SIZE,
            RenderOptions::default(),
        )
    }

    /// Instance (i, j) of the grid drawn `shift` periods away, seen from (u, v).
    fn hit(&self, i: i64, j: i64, shift: (f64, f64), u: f64, v: f64) -> Hit {
        let (cols, rows) = (self.columns, self.rows);
        let at = (i as f32 + 0.5, j as f32 + 0.5);
        let [move_x, move_y, shrink, turn] = cell_randoms(at.0, at.1, [0, 0], self.seed, [0, 0]);
        let [drop, shade, random, pick] =
            cell_randoms(at.0, at.1, [0, 0], self.seed ^ SECOND_DRAW, [0, 0]);
        let [r, g, b, _] = cell_randoms(at.0, at.1, [0, 0], self.seed ^ THIRD_DRAW, [0, 0]);
        let f = f64::from;
        let row_shift = if j % 2 == 1 { self.offset } else { 0.0 };
        let mut cx = i as f64 + 0.5 + row_shift + (f(move_x) - 0.5) * self.position_random;
        let mut cy = j as f64 + 0.5 + (f(move_y) - 0.5) * self.position_random;
        let mut delicate = false;
        let mut map_edge = false;
        if self.maps {
            let moved = wave_map(cx / cols, cy / rows) * self.displacement;
            let angle = self.displacement_angle.to_radians();
            cx += moved * angle.cos();
            cy -= moved * angle.sin();
        }
        let (mu, mv) = (cx / cols, cy / rows);
        let mut factor = 1.0 - f(shrink) * self.scale_random;
        let mut angle = self.rotation + self.rotation_random * 360.0 * (f(turn) - 0.5);
        let mut weight = if f(drop) >= self.mask_random {
            1.0
        } else {
            0.0
        };
        let mut color = [f(r), f(g), f(b)];
        let mut chooser = f(pick);
        if self.maps {
            factor *= scale_map(mu, mv);
            angle += rotation_map(mu, mv) * 360.0;
            weight *= checker(mu, mv);
            color = [scale_map(mu, mv), rotation_map(mu, mv), 0.0];
            chooser = wave_map(mu, mv);
            // A checker's edge at the centre: f32 and f64 may fall on different sides.
            let near = |c: f64| ((c * 2.0).round() - c * 2.0).abs() < 1e-4;
            map_edge = near(mu) || near(mv);
        }
        let w = ((factor * self.scale * self.size_x - self.interstice_x).max(0.0)) / cols;
        let h = (factor * self.scale).max(0.0) / rows;
        // The sample's offset in texture units, turned back (counterclockwise on screen).
        let (dx, dy) = (
            (u * cols + shift.0 * cols - cx) / cols,
            (v * rows + shift.1 * rows - cy) / rows,
        );
        let (cos, sin) = (angle.to_radians().cos(), angle.to_radians().sin());
        let lx = (cos * dx - sin * dy) / w + 0.5;
        let ly = (sin * dx + cos * dy) / h + 0.5;
        // Within 1e-4 texture units of an edge (a pixel here is 1/72 across).
        for (c, size) in [(lx, w), (1.0 - lx, w), (ly, h), (1.0 - ly, h)] {
            delicate |= (c * size).abs() < 1e-4;
        }
        let inside = (0.0..=1.0).contains(&lx) && (0.0..=1.0).contains(&ly) && w > 0.0 && h > 0.0;
        // A map's edge matters only where the instance may cover the pixel.
        delicate |= map_edge && (inside || delicate);
        let shape = match self.pattern {
            "disc" => {
                let r2 = (2.0 * lx - 1.0).powi(2) + (2.0 * ly - 1.0).powi(2);
                delicate |= (r2 - 1.0).abs() * w.min(h) < 4e-4;
                if r2 <= 1.0 { 1.0 } else { 0.0 }
            }
            "pyramid" => 1.0 - (2.0 * lx - 1.0).abs().max((2.0 * ly - 1.0).abs()),
            "input" => {
                let slot = chooser * 2.0;
                delicate |= (slot - 1.0).abs() < 1e-4;
                if slot < 1.0 { 1.0 } else { 0.5 }
            }
            _ => 1.0,
        };
        let brightness = 1.0 - f(shade) * self.luminance_random;
        let value = if inside {
            shape * weight * brightness
        } else {
            0.0
        };
        Hit {
            value,
            random: f(random),
            index: (j as f64 * cols + i as f64) / (cols * rows),
            uv: (lx, ly),
            color,
            delicate,
        }
    }

    fn check(&self) {
        let out = self.render("t");
        let random = self.render("t.instance_random");
        let index = self.render("t.instance_index");
        let uv = self.render("t.instance_uv");
        let color = self.render("t.color");
        let periods: &[f64] = if self.tileable {
            &[-1.0, 0.0, 1.0]
        } else {
            &[0.0]
        };
        let (mut covered, mut compared) = (0, 0);
        for row in 0..SIZE {
            for col in 0..SIZE {
                let k = (row * SIZE + col) as usize;
                let u = (f64::from(col) + 0.5) / f64::from(SIZE);
                let v = (f64::from(row) + 0.5) / f64::from(SIZE);
                let mut hits = Vec::new();
                for j in 0..self.rows as i64 {
                    for i in 0..self.columns as i64 {
                        for &sy in periods {
                            for &sx in periods {
                                hits.push(self.hit(i, j, (sx, sy), u, v));
                            }
                        }
                    }
                }
                if hits.iter().any(|h| h.delicate) {
                    continue;
                }
                compared += 1;
                let visible: Vec<&Hit> = hits.iter().filter(|h| h.value >= 1e-6).collect();
                let want = match self.blend {
                    "add" => visible.iter().map(|h| h.value).sum::<f64>(),
                    "painter" => visible
                        .iter()
                        .max_by(|a, b| a.index.total_cmp(&b.index))
                        .map_or(0.0, |h| h.value),
                    _ => visible.iter().map(|h| h.value).fold(0.0, f64::max),
                };
                let got = f64::from(out.data[k]);
                assert!(
                    (got - want).abs() < 1e-4,
                    "{} at ({u:.3}, {v:.3}): got {got}, every instance gives {want}",
                    self.blend
                );
                covered += usize::from(want > 0.0);
                // The instance on top, where it is unambiguous.
                let top = match self.blend {
                    "painter" => visible.iter().max_by(|a, b| a.index.total_cmp(&b.index)),
                    _ => visible.iter().max_by(|a, b| a.value.total_cmp(&b.value)),
                };
                let Some(top) = top else {
                    assert_eq!(random.data[k], 0.0, "no instance: random 0");
                    continue;
                };
                let runner_up = visible
                    .iter()
                    .filter(|h| !std::ptr::eq(**h, *top))
                    .map(|h| h.value)
                    .fold(0.0, f64::max);
                if self.blend != "painter" && top.value - runner_up < 1e-4 {
                    continue;
                }
                let near = |got: f32, want: f64, what: &str| {
                    assert!(
                        (f64::from(got) - want).abs() < 1e-3,
                        "{what} at ({u:.3}, {v:.3}): got {got}, want {want}"
                    );
                };
                near(random.data[k], top.random, "instance_random");
                near(index.data[k], top.index, "instance_index");
                near(uv.data[4 * k], top.uv.0, "instance_uv.r");
                near(uv.data[4 * k + 1], top.uv.1, "instance_uv.g");
                for c in 0..3 {
                    near(color.data[4 * k + c], top.color[c], "color");
                }
            }
        }
        assert!(
            compared > (SIZE * SIZE / 2) as usize,
            "compared only {compared} pixels"
        );
        assert!(covered > 300, "instances cover only {covered} pixels");
    }
}

const BASE: Setup = Setup {
    columns: 4.0,
    rows: 3.0,
    scale: 1.1,
    size_x: 1.3,
    scale_random: 0.4,
    interstice_x: 0.1,
    position_random: 0.8,
    offset: 0.5,
    rotation: 15.0,
    rotation_random: 0.5,
    luminance_random: 0.6,
    mask_random: 0.15,
    displacement: 0.4,
    displacement_angle: 30.0,
    blend: "max",
    pattern: "square",
    maps: false,
    seed: 7,
    tileable: false,
};

#[test]
fn every_instance_is_where_its_randoms_put_it() {
    BASE.check();
    Setup {
        pattern: "disc",
        blend: "add",
        ..BASE
    }
    .check();
    Setup {
        pattern: "pyramid",
        blend: "painter",
        rows: 4.0,
        ..BASE
    }
    .check();
}

#[test]
fn tileable_instances_cross_the_edges_and_wrap() {
    Setup {
        tileable: true,
        rows: 4.0,
        ..BASE
    }
    .check();
    Setup {
        tileable: true,
        rows: 2.0,
        columns: 3.0,
        pattern: "disc",
        blend: "painter",
        scale: 1.6,
        ..BASE
    }
    .check();
}

#[test]
fn every_map_is_read_at_its_instances_centre() {
    for tileable in [false, true] {
        for pattern in ["square", "input"] {
            Setup {
                maps: true,
                tileable,
                pattern,
                rows: 4.0,
                ..BASE
            }
            .check();
        }
    }
}

#[test]
fn the_distribution_map_picks_the_pattern_input() {
    // A constant map picks one input for every instance: 0.2 of two picks the first
    // (white), 0.7 the second (0.5), 1 the last.
    for (value, want) in [(0.2, 1.0), (0.7, 0.5), (1.0, 0.5)] {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 4, "nodes": [
              {{ "id": "d", "type": "constant", "params": {{ "value": {value} }} }},
              {{ "id": "p1", "type": "constant", "params": {{ "value": 1 }} }},
              {{ "id": "p2", "type": "constant", "params": {{ "value": 0.5 }} }},
              {{ "id": "t", "type": "tile_sampler", "params": {{ "pattern": "input", "pattern_inputs": 2, "scale": 1 }},
                "inputs": {{ "pattern_1": "p1", "pattern_2": "p2", "pattern_distribution_map": "d" }} }},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "t" }} }} ] }}"#
        );
        let image = render_graph(&graph(&json), None, 32, RenderOptions::default());
        assert!(
            image.data.iter().all(|&v| v == want as f32),
            "map {value}: {want}"
        );
    }
}

#[test]
fn instance_outputs_are_constant_within_an_instance() {
    let setup = Setup {
        tileable: true,
        rows: 4.0,
        ..BASE
    };
    let index = setup.render("t.instance_index");
    let random = setup.render("t.instance_random");
    let mut seen = std::collections::HashMap::new();
    for (i, r) in index.data.iter().zip(&random.data) {
        if *r == 0.0 {
            continue;
        }
        let first = *seen.entry(i.to_bits()).or_insert(*r);
        assert_eq!(first, *r, "instance {i} has one random value");
    }
    assert!(seen.len() >= 8, "{} instances seen", seen.len());
}

#[test]
fn a_pixels_cost_does_not_grow_with_the_instance_count() {
    let ops = |amount: u32| {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 4, "settings": {{ "tileable": true }}, "nodes": [
              {{ "id": "t", "type": "tile_sampler", "params": {{ "x_amount": {amount}, "y_amount": {amount}, "pattern": "disc" }} }},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "t" }} }} ] }}"#
        );
        let program = texgraph_core::compile(&graph(&json), None).unwrap();
        program.operation_count()
    };
    assert_eq!(ops(16), ops(256));
}

/// A built-in square and an unconnected pattern input (a white square) draw the same
/// instances by two routes: the shape's instances found a block of samples at a time by
/// their bounding boxes, the input's compiled cell by cell around each sample. With the
/// sampler's coordinates scattered by a strong warp, blocks span many cells and samples
/// are taken one by one.
#[test]
fn a_built_in_shape_and_a_pattern_input_place_the_same_instances() {
    let render = |pattern: &str, blend: &str, warped: bool, output: &str| {
        let (source, port) = if warped {
            ("w", String::new())
        } else {
            ("t", format!(".{output}"))
        };
        let json = format!(
            r#"{{ "format": "texgraph", "version": 5, "settings": {{ "tileable": true }}, "nodes": [
              {{ "id": "s", "type": "perlin", "params": {{ "frequency": 3 }} }},
              {{ "id": "r", "type": "perlin", "params": {{ "frequency": 2, "seed": 4 }} }},
              {{ "id": "t", "type": "tile_sampler", "params": {{
                  "x_amount": 7, "y_amount": 5, "pattern": "{pattern}", "scale": 1.4,
                  "position_random": 0.9, "offset": 0.5, "rotation_random": 0.3,
                  "luminance_random": 0.5, "mask_random": 0.1, "blend": "{blend}" }},
                "inputs": {{ "scale_map": "s", "rotation_map": "r" }} }},
              {{ "id": "n", "type": "value", "params": {{ "frequency": 64 }} }},
              {{ "id": "w", "type": "warp", "params": {{ "strength": 3 }}, "inputs": {{ "source": "t.{output}", "dx": "n" }} }},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "{source}{port}" }} }} ] }}"#
        );
        render_graph(&graph(&json), None, 96, RenderOptions::default())
    };
    for warped in [false, true] {
        for blend in ["max", "add", "painter"] {
            for output in [
                "out",
                "instance_random",
                "instance_index",
                "instance_uv",
                "color",
            ] {
                let shape = render("square", blend, warped, output);
                let input = render("input", blend, warped, output);
                let differ = crate::common::samples_apart(&shape, &input, 1e-5);
                assert_eq!(
                    differ, 0,
                    "{output} ({blend}, warped: {warped}): {differ} samples differ"
                );
                if output == "out" {
                    let drawn = shape.data.iter().filter(|&&v| v > 0.0).count();
                    assert!(drawn > shape.data.len() / 4, "{drawn} samples drawn");
                }
            }
        }
    }
}
