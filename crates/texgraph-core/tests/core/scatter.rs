//! `scatter` against every instance placed by hand: for each pixel, all instances of the
//! grid (not only the neighbourhood the node searches) are transformed as documented and
//! the pattern evaluated analytically.

use crate::common::{graph, render_graph};
use texgraph_core::RenderOptions;
use texgraph_core::kernels::shapes::cell_randoms;
use texgraph_core::nodes::scatter::SECOND_DRAW;

const SIZE: u32 = 80;

struct Setup {
    count: f64,
    scale: f64,
    scale_random: f64,
    jitter: f64,
    rotation: f64,
    rotation_random: f64,
    value_random: f64,
    mask_probability: f64,
    seed: u32,
    tileable: bool,
}

/// The pattern in an instance's unit square.
enum Pattern {
    /// The whole square.
    Square,
    /// A hard-edged disc of radius 0.4 around its centre.
    Disc,
    /// That disc moved left to (0.2, 0.5) by a `transform` (so partly outside the square,
    /// where it must not come back on the other side: nothing tiles in an instance).
    ShiftedDisc,
}

impl Setup {
    fn render(&self, pattern: &Pattern, output: &str) -> Vec<f32> {
        let pattern_node = match pattern {
            Pattern::Square => r#"{ "id": "p", "type": "constant", "params": { "value": 1 } }"#,
            Pattern::Disc => {
                r#"{ "id": "p", "type": "shape", "params": { "kind": "circle", "size": 0.4, "smoothness": 0 } }"#
            }
            Pattern::ShiftedDisc => {
                r#"{ "id": "d", "type": "shape", "params": { "kind": "circle", "size": 0.4, "smoothness": 0 } },
                   { "id": "p", "type": "transform", "params": { "offset_x": 0.3, "scale_y": 1.0 }, "inputs": { "source": "d" } }"#
            }
        };
        let json = format!(
            r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {} }}, "nodes": [ {pattern_node},
               {{ "id": "s", "type": "scatter", "params": {{ "count": {}, "scale": {}, "scale_random": {},
                  "offset_random": {}, "rotation": {}, "rotation_random": {}, "value_random": {},
                  "mask_probability": {}, "seed": {} }}, "inputs": {{ "pattern": "p" }} }},
               {{ "id": "out", "type": "output", "inputs": {{ "color": "{output}" }} }} ] }}"#,
            self.tileable,
            self.count,
            self.scale,
            self.scale_random,
            self.jitter,
            self.rotation,
            self.rotation_random,
            self.value_random,
            self.mask_probability,
            self.seed
        );
        render_graph(&graph(&json), None, SIZE, RenderOptions::default()).data
    }

    /// (out, value of the instance on top, whether the pixel is within 1e-3 of an edge).
    fn expect(&self, pattern: &Pattern, u: f64, v: f64) -> (f64, f64, bool) {
        let (px, py) = (u * self.count, v * self.count);
        let period = if self.tileable {
            [self.count as u32; 2]
        } else {
            [0; 2]
        };
        let (mut best, mut top, mut near_edge) = (0.0f64, 0.0f64, false);
        let n = self.count as i32;
        for j in -4..n + 4 {
            for i in -4..n + 4 {
                let at = (i as f32 + 0.5, j as f32 + 0.5);
                let [jx, jy, shrink, turn] = cell_randoms(at.0, at.1, [0, 0], self.seed, period);
                let [drop, shade, value, _] =
                    cell_randoms(at.0, at.1, [0, 0], self.seed ^ SECOND_DRAW, period);
                if f64::from(drop) < self.mask_probability {
                    continue;
                }
                let cx = f64::from(i) + 0.5 + self.jitter * (f64::from(jx) - 0.5);
                let cy = f64::from(j) + 0.5 + self.jitter * (f64::from(jy) - 0.5);
                let size = self.scale * (1.0 - self.scale_random * f64::from(shrink));
                let angle = (self.rotation
                    + self.rotation_random * 360.0 * (f64::from(turn) - 0.5))
                    .to_radians();
                let (ox, oy) = (px - cx, py - cy);
                let lx = (angle.cos() * ox + angle.sin() * oy) / size + 0.5;
                let ly = (angle.cos() * oy - angle.sin() * ox) / size + 0.5;
                let (inside, edge) = match pattern {
                    Pattern::Square => {
                        let inside = (0.0..=1.0).contains(&lx) && (0.0..=1.0).contains(&ly);
                        let edge = [lx, 1.0 - lx, ly, 1.0 - ly]
                            .iter()
                            .any(|d| d.abs() < 1e-3 / size);
                        (inside, edge)
                    }
                    Pattern::Disc | Pattern::ShiftedDisc => {
                        let cx = if matches!(pattern, Pattern::Disc) {
                            0.5
                        } else {
                            0.2
                        };
                        let r = ((lx - cx).powi(2) + (ly - 0.5).powi(2)).sqrt();
                        let in_square = (0.0..=1.0).contains(&lx) && (0.0..=1.0).contains(&ly);
                        let edge = (r - 0.4).abs() < 1e-3 / size || lx.abs() < 1e-3 / size;
                        (r <= 0.4 && in_square, edge)
                    }
                };
                near_edge |= edge;
                if inside {
                    let drawn = 1.0 - self.value_random * f64::from(shade);
                    if drawn >= best {
                        best = drawn;
                        top = f64::from(value);
                    }
                }
            }
        }
        (best, top, near_edge)
    }

    fn check(&self, pattern: Pattern) {
        let (out, value) = (self.render(&pattern, "s"), self.render(&pattern, "s.value"));
        let mut covered = 0;
        for row in 0..SIZE {
            for col in 0..SIZE {
                let k = (row * SIZE + col) as usize;
                let u = (f64::from(col) + 0.5) / f64::from(SIZE);
                let v = (f64::from(row) + 0.5) / f64::from(SIZE);
                let (want, want_top, near_edge) = self.expect(&pattern, u, v);
                if near_edge {
                    continue;
                }
                assert!(
                    (f64::from(out[k]) - want).abs() < 1e-4,
                    "out at ({u}, {v}): got {}, every instance gives {want}",
                    out[k]
                );
                // Both visit cells in the same order and let the later of equals win.
                assert_eq!(f64::from(value[k]), want_top, "value at ({u}, {v})");
                covered += usize::from(want > 0.0);
            }
        }
        assert!(covered > 200, "instances cover {covered} pixels");
    }
}

#[test]
fn every_instance_is_where_its_randoms_put_it() {
    let base = Setup {
        count: 5.0,
        scale: 1.1,
        scale_random: 0.4,
        jitter: 1.0,
        rotation: 20.0,
        rotation_random: 1.0,
        value_random: 0.5,
        mask_probability: 0.3,
        seed: 4,
        tileable: false,
    };
    base.check(Pattern::Square);
    base.check(Pattern::Disc);
    // Large instances reach three cells; no jitter puts them on the cell centres.
    Setup {
        count: 7.0,
        scale: 2.6,
        scale_random: 0.0,
        jitter: 0.0,
        rotation_random: 0.3,
        value_random: 0.0,
        mask_probability: 0.6,
        ..base
    }
    .check(Pattern::Square);
}

#[test]
fn tileable_scatters_wrap_their_cells() {
    Setup {
        count: 4.0,
        scale: 1.4,
        scale_random: 0.2,
        jitter: 1.0,
        rotation: 0.0,
        rotation_random: 1.0,
        value_random: 0.0,
        mask_probability: 0.2,
        seed: 9,
        tileable: true,
    }
    .check(Pattern::Square);
    Setup {
        count: 3.0,
        scale: 1.0,
        scale_random: 0.0,
        jitter: 0.5,
        rotation: 10.0,
        rotation_random: 0.2,
        value_random: 0.3,
        mask_probability: 0.0,
        seed: 2,
        tileable: true,
    }
    .check(Pattern::ShiftedDisc);
}
