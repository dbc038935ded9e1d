//! The terrain shape: the height map drawn as a block of ground, so a heightfield is judged
//! in 3D as a terrain tool shows it.
//!
//! The map's samples are the vertices of a grid spanning the square [-1, 1]² of the
//! ground plane (y up), as game engines import a heightmap: sample (i, j) of a W×D map
//! stands at x = −1 + 2i/(W − 1), z = −1 + 2j/(D − 1), the map's top row at the far edge
//! (z = −1) so that the map reads upright from the default camera. Between samples the
//! ground is the bilinear patch of its four corners; a height h stands at
//! y = (h − 0.5)·2·relief, so `relief` is the height of a unit of the map as a fraction
//! of the block's width. Walls go down from the ground's edge to a base a little below
//! its lowest point.
//!
//! Rays are intersected exactly: a hierarchy of maxima over blocks of cells lets a ray
//! skip whatever it passes above, and in each cell it reaches the patch's equation along
//! the ray (a quadratic) gives the first crossing. The shading normal is the bilinear mix
//! of the samples' central-difference normals, so the lighting is smooth across cells.
//! Texture coordinates put sample (i, j) at the centre of texel (i, j), so the colour
//! maps line up with the ground sample for sample.

use crate::shapes::{Hit, frame};
use crate::vector::{Vec3, v3};

/// Cells a block of the next level holds along each axis.
const BLOCK: usize = 4;
/// Thickness of the block of ground below its lowest point, in world units.
const BASE: f32 = 0.12;
/// Least relief taken, so a ray's height in map units stays finite.
const LEAST_RELIEF: f32 = 1e-3;

/// A height map made ready to intersect (see the module's documentation).
#[derive(Debug, Clone)]
pub struct Heightfield {
    /// Samples across (at least 2).
    width: usize,
    /// Samples down (at least 2).
    depth: usize,
    /// The samples, row by row, the top (far) row first.
    heights: Vec<f32>,
    /// The lowest and highest sample.
    low: f32,
    high: f32,
    /// The highest corner of each block of cells, finest first: level k's blocks hold
    /// BLOCKᵏ×BLOCKᵏ cells.
    levels: Vec<Level>,
}

/// One level of [`Heightfield::levels`].
#[derive(Debug, Clone)]
struct Level {
    /// Blocks across.
    cols: usize,
    /// Cells a block spans along each axis.
    span: usize,
    /// The highest sample of each block, row by row.
    max: Vec<f32>,
}

/// A ray in the grid's coordinates: `gx` and `gz` in cells, `h` in map units, each a
/// linear function of the distance `t` along the world ray.
struct GridRay {
    origin: [f64; 3],
    dir: [f64; 3],
}

impl GridRay {
    fn at(&self, t: f64, axis: usize) -> f64 {
        self.origin[axis] + self.dir[axis] * t
    }
}

impl Default for Heightfield {
    /// Flat ground at height 0.5.
    fn default() -> Self {
        Self::new(1, 1, vec![0.5])
    }
}

impl Heightfield {
    /// The ground of a `width`×`depth` map of `heights` (row by row, the top row first). A
    /// map of one sample along an axis is stretched to two. Non-finite samples count as 0.
    pub fn new(width: usize, depth: usize, heights: Vec<f32>) -> Self {
        assert_eq!(
            heights.len(),
            width * depth,
            "the map's size and samples disagree"
        );
        let (w, d) = (width.max(2), depth.max(2));
        let heights: Vec<f32> = (0..w * d)
            .map(|k| {
                let (i, j) = ((k % w).min(width - 1), (k / w).min(depth - 1));
                let h = heights[j * width + i];
                if h.is_finite() { h } else { 0.0 }
            })
            .collect();
        let low = heights.iter().copied().fold(f32::INFINITY, f32::min);
        let high = heights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut field = Self {
            width: w,
            depth: d,
            heights,
            low,
            high,
            levels: Vec::new(),
        };
        field.levels = field.build_levels();
        field
    }

    /// Level 0 holds each cell's highest corner; each next level the maximum of BLOCK×BLOCK
    /// blocks of the one below, until one block covers the grid.
    fn build_levels(&self) -> Vec<Level> {
        let (cells_x, cells_z) = (self.width - 1, self.depth - 1);
        let at = |i: usize, j: usize| self.heights[j * self.width + i];
        let cells = (0..cells_x * cells_z)
            .map(|k| {
                let (i, j) = (k % cells_x, k / cells_x);
                at(i, j)
                    .max(at(i + 1, j))
                    .max(at(i, j + 1))
                    .max(at(i + 1, j + 1))
            })
            .collect();
        let mut levels = vec![Level {
            cols: cells_x,
            span: 1,
            max: cells,
        }];
        loop {
            let below = levels.last().expect("level 0 is there");
            let rows_below = below.max.len() / below.cols;
            if below.cols == 1 && rows_below == 1 {
                break;
            }
            let (cols, rows) = (below.cols.div_ceil(BLOCK), rows_below.div_ceil(BLOCK));
            let max = (0..cols * rows)
                .map(|k| {
                    let (bx, bz) = (k % cols, k / cols);
                    let mut m = f32::NEG_INFINITY;
                    for j in bz * BLOCK..((bz + 1) * BLOCK).min(rows_below) {
                        for i in bx * BLOCK..((bx + 1) * BLOCK).min(below.cols) {
                            m = m.max(below.max[j * below.cols + i]);
                        }
                    }
                    m
                })
                .collect();
            let span = below.span * BLOCK;
            levels.push(Level { cols, span, max });
        }
        levels
    }

    /// The samples row by row, with the map's width and height (a map one sample wide or
    /// high stretched to two).
    pub(crate) fn samples(&self) -> (&[f32], usize, usize) {
        (&self.heights, self.width, self.depth)
    }

    /// The sample at (`i`, `j`), clamped to the map.
    fn sample(&self, i: isize, j: isize) -> f32 {
        let i = i.clamp(0, self.width as isize - 1) as usize;
        let j = j.clamp(0, self.depth as isize - 1) as usize;
        self.heights[j * self.width + i]
    }

    /// The ground's height in map units at grid point (`gx`, `gz`), bilinear.
    fn height_at(&self, gx: f64, gz: f64) -> f64 {
        let (i, j) = (self.cell(gx, self.width), self.cell(gz, self.depth));
        let (fx, fz) = (gx - i as f64, gz - j as f64);
        let (i, j) = (i as isize, j as isize);
        let top = lerp(self.sample(i, j), self.sample(i + 1, j), fx);
        let bottom = lerp(self.sample(i, j + 1), self.sample(i + 1, j + 1), fx);
        top + (bottom - top) * fz
    }

    /// The cell holding grid coordinate `g` along an axis of `samples` samples.
    fn cell(&self, g: f64, samples: usize) -> usize {
        (g.max(0.0) as usize).min(samples - 2)
    }

    /// The map-unit height of the base of the block for `relief`.
    fn base(&self, relief: f32) -> f64 {
        self.low as f64 - (BASE / (2.0 * relief)) as f64
    }

    /// The nearest hit of the ray `origin + t·dir` (`dir` unit, t > 0) with the ground
    /// block, the map standing `relief` (a fraction of the width) high per unit.
    pub fn intersect(&self, origin: Vec3, dir: Vec3, relief: f32) -> Option<Hit> {
        let relief = relief.max(LEAST_RELIEF);
        let (sx, sz) = ((self.width - 1) as f64 / 2.0, (self.depth - 1) as f64 / 2.0);
        let sy = 1.0 / (2.0 * relief as f64);
        let ray = GridRay {
            origin: [
                (origin.x as f64 + 1.0) * sx,
                origin.y as f64 * sy + 0.5,
                (origin.z as f64 + 1.0) * sz,
            ],
            dir: [dir.x as f64 * sx, dir.y as f64 * sy, dir.z as f64 * sz],
        };
        let high = [
            (self.width - 1) as f64,
            self.high as f64,
            (self.depth - 1) as f64,
        ];
        let low = [0.0, self.base(relief), 0.0];
        let (near, far, axis) = slab_entry(&ray, low, high)?;
        let start = near.max(0.0);
        let at_start = [ray.at(start, 0), ray.at(start, 1), ray.at(start, 2)];
        let ground = self.height_at(at_start[0], at_start[2]);
        if at_start[1] <= ground {
            // The ray starts inside the block (a camera inside sees nothing), touches a
            // summit as it enters through the top, or enters through a wall or the base.
            if near < 0.0 {
                return None;
            }
            if axis == 1 && ray.dir[1] < 0.0 {
                return Some(self.ground_hit(near, at_start[0], at_start[2], origin, dir, relief));
            }
            let outward = if ray.dir[axis] > 0.0 { -1.0 } else { 1.0 };
            return Some(self.wall_hit(near, at_start, axis, outward, origin, dir));
        }
        let (t, [gx, gz]) = self.march(&ray, self.levels.len() - 1, [0, 0], start, far)?;
        Some(self.ground_hit(t, gx, gz, origin, dir, relief))
    }

    /// Walks the blocks of `level` inside the block `parent` of the level above (cells
    /// from `parent`·BLOCK·span) that the ray crosses between `t0` and `t1`, skipping those
    /// it passes above, and returns the first crossing of the ground: its t and grid
    /// point.
    fn march(
        &self,
        ray: &GridRay,
        level: usize,
        parent: [usize; 2],
        t0: f64,
        t1: f64,
    ) -> Option<(f64, [f64; 2])> {
        let lv = &self.levels[level];
        let rows = lv.max.len() / lv.cols;
        let reach = if level + 1 == self.levels.len() {
            lv.cols.max(rows)
        } else {
            BLOCK
        };
        let first = [parent[0] * reach, parent[1] * reach];
        let last = [
            (first[0] + reach).min(lv.cols) - 1,
            (first[1] + reach).min(rows) - 1,
        ];
        let span = lv.span as f64;
        let block_of = |g: f64, a: usize| {
            ((g / span).floor() as isize).clamp(first[a] as isize, last[a] as isize) as usize
        };
        let mut block = [block_of(ray.at(t0, 0), 0), block_of(ray.at(t0, 2), 1)];
        let mut t = t0;
        while t < t1 {
            // Where the ray leaves this block along x and z.
            let exit = |b: usize, axis: usize| {
                let d = ray.dir[axis];
                if d > 0.0 {
                    ((b + 1) as f64 * span - ray.origin[axis]) / d
                } else if d < 0.0 {
                    (b as f64 * span - ray.origin[axis]) / d
                } else {
                    f64::INFINITY
                }
            };
            let (tx, tz) = (exit(block[0], 0), exit(block[1], 2));
            let leave = tx.min(tz).min(t1).max(t);
            let lowest = ray.at(t, 1).min(ray.at(leave, 1));
            if lowest <= lv.max[block[1] * lv.cols + block[0]] as f64 {
                let found = if level == 0 {
                    self.cross_cell(ray, block, t, leave)
                } else {
                    self.march(ray, level - 1, block, t, leave)
                };
                if found.is_some() {
                    return found;
                }
            }
            if leave >= t1 {
                break;
            }
            // Step into the next block along the axis left first.
            let axis = if tx <= tz { 0 } else { 1 };
            let d = ray.dir[if axis == 0 { 0 } else { 2 }];
            if d > 0.0 {
                if block[axis] == last[axis] {
                    break;
                }
                block[axis] += 1;
            } else {
                if block[axis] == first[axis] {
                    break;
                }
                block[axis] -= 1;
            }
            t = leave;
        }
        None
    }

    /// The first crossing of the ground in cell `cell` between `t0` and `t1`: the ray's
    /// height above the cell's bilinear patch is a quadratic in t.
    fn cross_cell(
        &self,
        ray: &GridRay,
        cell: [usize; 2],
        t0: f64,
        t1: f64,
    ) -> Option<(f64, [f64; 2])> {
        let (i, j) = (cell[0] as isize, cell[1] as isize);
        let h00 = self.sample(i, j) as f64;
        let h10 = self.sample(i + 1, j) as f64;
        let h01 = self.sample(i, j + 1) as f64;
        let h11 = self.sample(i + 1, j + 1) as f64;
        let (e1, e2, e3) = (h10 - h00, h01 - h00, h00 - h10 - h01 + h11);
        // Local coordinates along the ray from t0: fx = ax + bx·s, fz = az + bz·s.
        let (ax, bx) = (ray.at(t0, 0) - cell[0] as f64, ray.dir[0]);
        let (az, bz) = (ray.at(t0, 2) - cell[1] as f64, ray.dir[2]);
        let (ay, by) = (ray.at(t0, 1), ray.dir[1]);
        // f(s) = patch − ray = c + b·s + a·s², negative while the ray is above.
        let c = h00 + e1 * ax + e2 * az + e3 * ax * az - ay;
        let b = e1 * bx + e2 * bz + e3 * (ax * bz + az * bx) - by;
        let a = e3 * bx * bz;
        let len = t1 - t0;
        let point = |s: f64| {
            let t = t0 + s;
            Some((t, [ray.at(t, 0), ray.at(t, 2)]))
        };
        if c >= 0.0 {
            return point(0.0);
        }
        let root = first_root(a, b, c, len);
        if let Some(s) = root {
            return point(s);
        }
        // A crossing lost to rounding at the cell's far side still counts there, so no ray
        // slips between cells.
        if c + b * len + a * len * len >= 0.0 {
            return point(len);
        }
        None
    }

    /// The shading normal at grid point (`gx`, `gz`): the bilinear mix of the four
    /// samples' central-difference gradients, in world units for `relief`.
    fn normal(&self, gx: f64, gz: f64, relief: f32) -> Vec3 {
        let (i, j) = (self.cell(gx, self.width), self.cell(gz, self.depth));
        let (fx, fz) = (gx - i as f64, gz - j as f64);
        // Central differences, one-sided at the map's edges.
        let (last_i, last_j) = (self.width as isize - 1, self.depth as isize - 1);
        let gradient = |i: isize, j: isize| {
            let span_x = ((i + 1).min(last_i) - (i - 1).max(0)) as f64;
            let span_z = ((j + 1).min(last_j) - (j - 1).max(0)) as f64;
            [
                (self.sample(i + 1, j) - self.sample(i - 1, j)) as f64 / span_x,
                (self.sample(i, j + 1) - self.sample(i, j - 1)) as f64 / span_z,
            ]
        };
        let (i, j) = (i as isize, j as isize);
        let [g00, g10, g01, g11] = [
            gradient(i, j),
            gradient(i + 1, j),
            gradient(i, j + 1),
            gradient(i + 1, j + 1),
        ];
        let mix = |k: usize| {
            let top = g00[k] + (g10[k] - g00[k]) * fx;
            let bottom = g01[k] + (g11[k] - g01[k]) * fx;
            top + (bottom - top) * fz
        };
        // Height per map unit over width per cell, in world units.
        let rise = 2.0 * relief as f64;
        let dydx = mix(0) * rise * (self.width - 1) as f64 / 2.0;
        let dydz = mix(1) * rise * (self.depth - 1) as f64 / 2.0;
        v3(-dydx as f32, 1.0, -dydz as f32).normalize()
    }

    /// Texture coordinates of grid point (`gx`, `gz`): sample (i, j) at texel (i, j)'s
    /// centre.
    fn uv(&self, gx: f64, gz: f64) -> [f32; 2] {
        [
            ((gx + 0.5) / self.width as f64) as f32,
            ((gz + 0.5) / self.depth as f64) as f32,
        ]
    }

    fn ground_hit(&self, t: f64, gx: f64, gz: f64, origin: Vec3, dir: Vec3, relief: f32) -> Hit {
        let normal = self.normal(gx, gz, relief);
        // Along +u (+x), made perpendicular to the normal.
        let tangent = (v3(1.0, 0.0, 0.0) - normal * normal.x).normalize();
        let t = t as f32;
        frame(t, origin + dir * t, normal, tangent, self.uv(gx, gz))
    }

    /// A hit on a wall (`axis` 0 or 2) or the base (`axis` 1) at grid point `g`, the face
    /// pointing `outward` along its axis.
    fn wall_hit(
        &self,
        t: f64,
        g: [f64; 3],
        axis: usize,
        outward: f32,
        origin: Vec3,
        dir: Vec3,
    ) -> Hit {
        let mut n = [0.0f32; 3];
        n[axis] = outward;
        let normal = Vec3::from_array(n);
        let tangent = if axis == 0 {
            v3(0.0, 0.0, -outward)
        } else {
            v3(1.0, 0.0, 0.0)
        };
        let (gx, gz) = (
            g[0].clamp(0.0, (self.width - 1) as f64),
            g[2].clamp(0.0, (self.depth - 1) as f64),
        );
        let t = t as f32;
        frame(t, origin + dir * t, normal, tangent, self.uv(gx, gz))
    }
}

fn lerp(a: f32, b: f32, t: f64) -> f64 {
    a as f64 + (b as f64 - a as f64) * t
}

/// Where the ray enters and leaves the box from `low` to `high`, and the axis it enters
/// through; `None` if it misses or the box is behind it.
fn slab_entry(ray: &GridRay, low: [f64; 3], high: [f64; 3]) -> Option<(f64, f64, usize)> {
    let mut near = f64::NEG_INFINITY;
    let mut far = f64::INFINITY;
    let mut axis = 1;
    for a in 0..3 {
        let (o, d) = (ray.origin[a], ray.dir[a]);
        if d == 0.0 {
            if o < low[a] || o > high[a] {
                return None;
            }
            continue;
        }
        let (p, q) = ((low[a] - o) / d, (high[a] - o) / d);
        let (p, q) = if p < q { (p, q) } else { (q, p) };
        if p > near {
            near = p;
            axis = a;
        }
        far = far.min(q);
    }
    (near <= far && far > 0.0).then_some((near, far, axis))
}

/// The smallest root of c + b·s + a·s² in [0, `len`], given c < 0.
fn first_root(a: f64, b: f64, c: f64, len: f64) -> Option<f64> {
    let within = |s: f64| (0.0..=len).contains(&s).then_some(s);
    if a.abs() <= 1e-12 * (b.abs() + c.abs()) {
        return if b > 0.0 { within(-c / b) } else { None };
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    // The numerically stable pair of roots.
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let (r1, r2) = (q / a, if q != 0.0 { c / q } else { f64::INFINITY });
    let (small, large) = if r1 < r2 { (r1, r2) } else { (r2, r1) };
    within(small).or_else(|| within(large))
}
