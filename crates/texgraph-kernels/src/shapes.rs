//! Pattern formulas: the `shape` node's signed distances and the `bricks` layout.

use crate::fastmath::{atan2, cos_2pi, floor, sin_2pi};
use crate::noise::lattice_hash;
use crate::scalar::smoothstep;

/// What `shape` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// A disc.
    Circle,
    /// A regular polygon with `sides` corners.
    Polygon,
    /// A star with `sides` points, its inner corners at `inner` of the radius.
    Star,
    /// A disc with a hole of `inner` of the radius.
    Ring,
}

/// One shape of radius `size`, turned clockwise by `turn` (in turns), a corner pointing up
/// unturned, with what its distances need worked out once (the sector and the edge's
/// inner end), so a tiled sample measuring four copies does not redo it.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    kind: ShapeKind,
    size: f32,
    inner: f32,
    turn: f32,
    /// Corners (or points) of a polygon or star, and the turn between two.
    corners: f32,
    sector: f32,
    /// The inner end of the edge from the tip (size, 0), at half a sector: on a polygon
    /// the edge's middle, on a star its inner corner.
    inner_end: (f32, f32),
}

impl Shape {
    /// The shape of `kind`; `sides` counts a polygon's corners or a star's points.
    #[inline(always)]
    pub fn new(kind: ShapeKind, sides: u32, size: f32, inner: f32, turn: f32) -> Self {
        let corners = sides.max(2) as f32;
        let sector = 1.0 / corners;
        let half = 0.5 * sector;
        let depth = if kind == ShapeKind::Polygon {
            cos_2pi(half)
        } else {
            inner
        };
        let inner_end = (size * depth * cos_2pi(half), size * depth * sin_2pi(half));
        Self {
            kind,
            size,
            inner,
            turn,
            corners,
            sector,
            inner_end,
        }
    }

    /// Signed distance (negative inside) from (x, y), relative to the shape's centre —
    /// exact for every kind.
    #[inline(always)]
    pub fn distance(&self, x: f32, y: f32) -> f32 {
        let radius = (x * x + y * y).sqrt();
        let (size, inner) = (self.size, self.inner);
        match self.kind {
            ShapeKind::Circle => radius - size,
            ShapeKind::Ring => {
                // Half-way between the outer and the inner edge, half the band wide.
                let middle = 0.5 * size * (1.0 + inner);
                let half = 0.5 * size * (1.0 - inner);
                (radius - middle).abs() - half
            }
            ShapeKind::Polygon | ShapeKind::Star => {
                let (n, sector) = (self.corners, self.sector);
                // The angle to the nearest tip, folded into [0, half a sector]. Unturned,
                // a tip points up (−¼ turn, as y grows downwards); turns go clockwise.
                let angle = atan2(y, x) * (1.0 / std::f32::consts::TAU) - self.turn + 0.25;
                let within = angle - sector * (angle * n).floor();
                let folded = within.min(sector - within);
                let (px, py) = (radius * cos_2pi(folded), radius * sin_2pi(folded));
                let (ix, iy) = self.inner_end;
                segment_side_distance(px, py, size, 0.0, ix, iy)
            }
        }
    }
}

/// Distance from (px, py) to the segment from (ax, ay) to (bx, by), negative on the
/// origin's side of its line.
#[inline(always)]
fn segment_side_distance(px: f32, py: f32, ax: f32, ay: f32, bx: f32, by: f32) -> f32 {
    let (ex, ey) = (bx - ax, by - ay);
    let (wx, wy) = (px - ax, py - ay);
    let length2 = ex * ex + ey * ey;
    let t = if length2 > 0.0 {
        ((wx * ex + wy * ey) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (dx, dy) = (wx - ex * t, wy - ey * t);
    let distance = (dx * dx + dy * dy).sqrt();
    // The origin is on the inner side: compare the sides of p and of the origin.
    let side_p = ex * wy - ey * wx;
    let side_o = ex * (-ay) - ey * (-ax);
    if side_p * side_o >= 0.0 {
        -distance
    } else {
        distance
    }
}

/// The shape's mask from its signed distance: 1 inside, 0 outside, with a smoothstep over
/// `soft` across the edge (a hard edge when 0).
#[inline(always)]
pub fn shape_mask(distance: f32, soft: f32) -> f32 {
    if soft > 0.0 {
        1.0 - smoothstep((distance + 0.5 * soft) / soft)
    } else if distance <= 0.0 {
        1.0
    } else {
        0.0
    }
}

/// How `bricks` lays out its rows, at one sample.
#[derive(Debug, Clone, Copy)]
pub struct Bricks {
    /// Bricks across the image (a whole number, at least 1).
    pub columns: f32,
    /// Rows down the image (a whole number, at least 1).
    pub rows: f32,
    /// Shift of every other row, in bricks.
    pub offset: f32,
    /// Random extra shift of each row, up to this many bricks.
    pub random_offset: f32,
    /// Mortar width, in brick heights.
    pub mortar: f32,
    /// Width of the ramp from mortar to brick top, in brick heights.
    pub bevel: f32,
    /// Corner radius, in brick heights.
    pub round: f32,
    /// Hash seed.
    pub seed: u32,
}

/// A random number in [0, 1) for (a, b) and `seed`: the top 24 bits of the lattice hash.
#[inline(always)]
pub fn hash01(a: i32, b: i32, seed: u32) -> f32 {
    // Through i32 (24 bits fit): a signed conversion is one instruction everywhere.
    (lattice_hash(a, b, seed) >> 8) as i32 as f32 * (1.0 / 16_777_216.0)
}

/// Four random numbers in [0, 1) for the cell `offset` cells from the one holding (x, y)
/// (in cells), the cell index wrapped every `period` cells along each axis where that is
/// not 0.
#[inline(always)]
pub fn cell_randoms(x: f32, y: f32, offset: [i32; 2], seed: u32, period: [u32; 2]) -> [f32; 4] {
    [0, 1, 2, 3].map(|k| cell_random(x, y, offset, seed, period, k))
}

/// Random number `k` (0 to 3) of [`cell_randoms`]: one at a time, so a loop over samples
/// writing one of them has no branch and vectorizes.
#[inline(always)]
pub fn cell_random(x: f32, y: f32, offset: [i32; 2], seed: u32, period: [u32; 2], k: u32) -> f32 {
    let index = |c: f32, d: i32, period: u32| {
        let f = floor(c) + d as f32;
        if period > 0 {
            wrap(f, period as f32)
        } else {
            // max/min keep any input convertible (NaN lands on a bound).
            #[allow(clippy::manual_clamp)]
            let f = f.max(-1_073_741_824.0).min(1_073_741_824.0);
            // SAFETY: a whole number within ±2³⁰.
            unsafe { f.to_int_unchecked::<i32>() }
        }
    };
    let (a, b) = (
        index(x, offset[0], period[0]),
        index(y, offset[1], period[1]),
    );
    hash01(a, b, seed ^ k.wrapping_mul(0x68E3_1DA4))
}

/// Whole number `f` wrapped into 0..count.
#[inline(always)]
fn wrap(f: f32, count: f32) -> i32 {
    let r = f - count * floor(f / count);
    // SAFETY: r is a whole number in [0, count) with count ≤ 4096 (NaN lands on 0).
    #[allow(clippy::manual_clamp)]
    unsafe {
        r.max(0.0).min(count - 1.0).to_int_unchecked::<i32>()
    }
}

/// The bricks at (u, v): [mask, value, u in the brick, v in the brick]. Rows and bricks
/// are counted modulo their numbers, so the pattern repeats on the unit square.
#[inline(always)]
pub fn bricks(u: f32, v: f32, b: Bricks) -> [f32; 4] {
    let py = v * b.rows;
    let row_floor = py.floor();
    let fy = py - row_floor;
    let row = wrap(row_floor, b.rows);
    let every_other = (row & 1) as f32;
    let shift = b.offset * every_other + b.random_offset * hash01(row, -1, b.seed ^ 0x2545_F491);
    let px = u * b.columns + shift;
    let column_floor = px.floor();
    let fx = px - column_floor;
    let column = wrap(column_floor, b.columns);
    // In brick heights: a brick is `aspect` wide and 1 high.
    let aspect = b.rows / b.columns;
    let qx = (fx - 0.5).abs() * aspect;
    let qy = (fy - 0.5).abs();
    // Rounded rectangle: half extents less half the mortar, corners of radius `round`.
    let round = b
        .round
        .min(0.5 * aspect - 0.5 * b.mortar)
        .min(0.5 - 0.5 * b.mortar)
        .max(0.0);
    let hx = 0.5 * aspect - 0.5 * b.mortar - round;
    let hy = 0.5 - 0.5 * b.mortar - round;
    let (dx, dy) = (qx - hx, qy - hy);
    let outside = (dx.max(0.0) * dx.max(0.0) + dy.max(0.0) * dy.max(0.0)).sqrt();
    let distance = outside + dx.max(dy).min(0.0) - round;
    let mask = if b.bevel > 0.0 {
        (-distance / b.bevel).clamp(0.0, 1.0)
    } else if distance < 0.0 {
        1.0
    } else {
        0.0
    };
    [mask, hash01(column, row, b.seed), fx, fy]
}

/// The built-in shapes a tile sampler's instances draw over their own square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InstanceShape {
    /// The whole square.
    Square,
    /// The inscribed disc.
    Disc,
    /// 1 − r² (r = 1 on the inscribed circle).
    Paraboloid,
    /// A smoothstep of 1 − r.
    Bell,
    /// e^(−4r²) inside the disc.
    Gaussian,
    /// 1 − the larger of |x| and |y| (x, y from −1 to 1 across the square).
    Pyramid,
    /// 1 − r.
    Cone,
    /// √(1 − r²).
    Hemisphere,
    /// A square with a bevel a quarter of its half-width wide.
    Brick,
    /// (1 − r)³.
    Thorn,
    /// u: 0 on the left edge, 1 on the right.
    Gradation,
}

impl InstanceShape {
    /// The shape at (u, v) in the instance's square (0 → 1 across and down it); the
    /// caller keeps (u, v) inside it.
    #[inline(always)]
    pub fn at(self, u: f32, v: f32) -> f32 {
        let (x, y) = (2.0 * u - 1.0, 2.0 * v - 1.0);
        let r2 = y * y + x * x;
        let radial = || (1.0 - r2.max(0.0).sqrt()).clamp(0.0, 1.0);
        let chebyshev = || 1.0 - x.abs().max(y.abs());
        let disc = if 1.0 >= r2 { 1.0 } else { 0.0 };
        match self {
            InstanceShape::Square => 1.0,
            InstanceShape::Gradation => u,
            InstanceShape::Disc => disc,
            InstanceShape::Paraboloid => (1.0 - r2).clamp(0.0, 1.0),
            InstanceShape::Hemisphere => (1.0 - r2).clamp(0.0, 1.0).sqrt(),
            InstanceShape::Cone => radial(),
            InstanceShape::Bell => smoothstep(radial()),
            // e^(−4) = 0.0183 at the disc's edge.
            InstanceShape::Gaussian => {
                crate::scalar::saturate(crate::fastmath::pow(0.018_315_64, r2)) * disc
            }
            InstanceShape::Thorn => crate::scalar::saturate(crate::fastmath::pow(radial(), 3.0)),
            InstanceShape::Pyramid => chebyshev(),
            InstanceShape::Brick => (chebyshev() * 4.0).clamp(0.0, 1.0),
        }
    }
}
