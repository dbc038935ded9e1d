//! Simplex noise, as Ken Perlin designed it (2001) and Stefan Gustavson described it
//! ("Simplex noise demystified", 2005): the plane (space) is cut into triangles
//! (tetrahedra) by skewing a square lattice; each sample sums, over the corners of its
//! simplex, a radial falloff (r₀² − d²)⁴ times the dot product of the corner's gradient
//! with the offset d to it. r₀² is 0.5 in 2D and 0.6 in 3D and 4D, as Gustavson's.
//!
//! Corner gradients come from a hash of the corner and the seed through branch-free
//! selects: 8 directions 45° apart in 2D, Perlin's 12 cube edges in 3D, the 32 edges of
//! the tesseract in 4D. Each dimension's sum is scaled so that its largest magnitude,
//! found by the tests, is just below 1.
//!
//! Tiling: a square lattice cannot be cut into simplices that repeat on a square, so a
//! tileable sample (u, v) is mapped onto a flat torus in 4D, (R cos 2πu, R sin 2πu,
//! R cos 2πv, R sin 2πv) with 2πR the period, and 4D simplex noise is read there. Each
//! circle is a closed loop, so the result repeats exactly, and the torus is flat, so the
//! noise keeps its scale: one unit of the plane is one unit along the torus. `z` moves the
//! torus along the 4D diagonal.

use crate::fastmath::{cos_2pi, sin_2pi};
use crate::noise::{COORD_LIMIT, split, split_vectorized};

/// Sum scale in 2D, 3D and 4D: Gustavson's constants. The largest sums found by
/// sampling millions of points are 1/70.15, 1/32.71 and 1/27.28, so results stay just
/// inside [−1, 1] and [`simplex`] clamps what a rarer peak could add.
const SCALE_2D: f32 = 70.0;
const SCALE_3D: f32 = 32.0;
const SCALE_4D: f32 = 27.0;

/// The hash of a lattice corner from its axes' terms (index times an odd key, summed) and
/// the seed's: xorshift, multiply, xorshift, read from the top bits. The first shift
/// breaks the sum's linearity, which a multiply alone would carry into the gradients as
/// diagonal streaks.
#[inline(always)]
fn corner_hash(terms: u32, seed: u32) -> u32 {
    let mut h = terms ^ seed;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^ (h >> 12)
}

const KEYS: [u32; 4] = [0x8DA6_B343, 0xD816_3841, 0xCB1A_B31F, 0xA0B4_28DB];

/// The seed's hash term.
#[inline(always)]
pub fn seed_term(seed: u32) -> u32 {
    seed.wrapping_mul(0x9E37_79B9).rotate_left(13) ^ 0x5BD1_E995
}

/// Lattice index of a floor (a whole number within ±2³⁰) as a hash term.
#[inline(always)]
fn term(floor: f32, axis: usize) -> u32 {
    // SAFETY: a whole number within ±2³⁰ converts exactly.
    let i = unsafe { floor.to_int_unchecked::<i32>() };
    (i as u32).wrapping_mul(KEYS[axis])
}

/// A signed factor of ±1 from bit `bit` of `h`.
#[inline(always)]
fn sign(h: u32, bit: u32) -> f32 {
    if h & (1 << bit) != 0 { -1.0 } else { 1.0 }
}

/// 2D gradient of hash `h`: one of 8 directions 45° apart, all of length √2 (the
/// diagonals (±1, ±1) and the axes (±√2, 0), (0, ±√2)).
#[inline(always)]
fn gradient2(h: u32) -> [f32; 2] {
    let h = h >> 29;
    let axis = h & 4 != 0;
    let (sx, sy) = (sign(h, 0), sign(h, 1));
    let gx = if axis {
        if h & 1 != 0 {
            0.0
        } else {
            std::f32::consts::SQRT_2 * sy
        }
    } else {
        sx
    };
    let gy = if axis {
        if h & 1 != 0 {
            std::f32::consts::SQRT_2 * sy
        } else {
            0.0
        }
    } else {
        sy
    };
    [gx, gy]
}

/// 3D gradient of hash `h`: one of Perlin's 12 cube-edge directions (two components ±1,
/// one 0), chosen by the top bits.
#[inline(always)]
fn gradient3(h: u32) -> [f32; 3] {
    // 12 edges from the top 4 bits: codes 12–15 repeat 0–3 (as Perlin's do).
    let code = h >> 28;
    let code = if code >= 12 { code - 12 } else { code };
    let zero_axis = code >> 2; // 0: x is 0, 1: y is 0, 2: z is 0
    let (s0, s1) = (sign(code, 0), sign(code, 1));
    let gx = if zero_axis == 0 { 0.0 } else { s0 };
    let gy = if zero_axis == 0 {
        s0
    } else if zero_axis == 1 {
        0.0
    } else {
        s1
    };
    let gz = if zero_axis == 2 { 0.0 } else { s1 };
    [gx, gy, gz]
}

/// 4D gradient of hash `h` dotted with (x, y, z, w): one of the 32 tesseract edge
/// directions (three components ±1, one 0).
#[inline(always)]
fn grad4(h: u32, p: [f32; 4]) -> f32 {
    let code = h >> 27;
    let zero_axis = code >> 3;
    let mut sum = 0.0;
    for (axis, v) in (0u32..).zip(p) {
        // The three other axes take sign bits 0, 1 and 2 in order.
        let bit = axis - u32::from(axis > zero_axis);
        let g = if axis == zero_axis {
            0.0
        } else if (code >> bit) & 1 != 0 {
            -1.0
        } else {
            1.0
        };
        sum += g * v;
    }
    sum
}

/// (r₀² − d²)⁴ · g, or 0 outside the falloff radius.
#[inline(always)]
fn falloff(r2: f32, d2: f32, g: f32) -> f32 {
    let t = (r2 - d2).max(0.0);
    let t2 = t * t;
    t2 * t2 * g
}

/// A coordinate brought within the lattice's range (NaN to a bound).
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min map NaN to a bound; clamp would keep it
pub fn bounded(c: f32) -> f32 {
    c.max(-COORD_LIMIT).min(COORD_LIMIT)
}

const G2: f32 = 0.211_324_87; // (3 − √3)/6

/// Where a 2D sample falls on the skewed lattice: its cell's floors (i, j) and its offset
/// (x0, y0) from the cell's first corner. It lies in the cell's lower triangle when
/// x0 > y0. `split` is the lattice split ([`split`], or the same bits through
/// [`split_vectorized`](crate::noise::split_vectorized)).
#[inline(always)]
pub fn triangle2_with(x: f32, y: f32, split: impl Fn(f32) -> (f32, f32)) -> [f32; 4] {
    const F2: f32 = 0.366_025_42; // (√3 − 1)/2
    let (x, y) = (bounded(x), bounded(y));
    let s = (x + y) * F2;
    let (i, _) = split(x + s);
    let (j, _) = split(y + s);
    let t = (i + j) * G2;
    [i, j, x - (i - t), y - (j - t)]
}

/// The x0 [`triangle2_with`] gives a sample at x in cell (i, j): the same operations, for a
/// caller that knows the cell already.
#[inline(always)]
pub fn offset_x(x: f32, i: f32, j: f32) -> f32 {
    bounded(x) - cell_x(i, j)
}

/// The y0 [`triangle2_with`] gives a sample at y in cell (i, j) (see [`offset_x`]).
#[inline(always)]
pub fn offset_y(y: f32, i: f32, j: f32) -> f32 {
    let t = (i + j) * G2;
    bounded(y) - (j - t)
}

/// The x of cell (i, j)'s first corner, unskewed: a sample's x0 is its [`bounded`] x less
/// this.
#[inline(always)]
pub fn cell_x(i: f32, j: f32) -> f32 {
    let t = (i + j) * G2;
    i - t
}

/// The gradients of the three corners of the lower (or upper) triangle of cell (i, j).
#[inline(always)]
pub fn corners2(i: f32, j: f32, lower: bool, seed: u32) -> [[f32; 2]; 3] {
    let (ti, tj) = (term(i, 0), term(j, 1));
    let (ki, kj) = (KEYS[0], KEYS[1]);
    let h0 = corner_hash(ti.wrapping_add(tj), seed);
    let step1 = if lower { ki } else { kj };
    let h1 = corner_hash(ti.wrapping_add(tj).wrapping_add(step1), seed);
    let h2 = corner_hash(ti.wrapping_add(tj).wrapping_add(ki).wrapping_add(kj), seed);
    [gradient2(h0), gradient2(h1), gradient2(h2)]
}

/// 2D simplex noise from a sample's offset (x0, y0) to its cell's first corner, its
/// triangle, and the triangle's corner gradients ([`corners2`]).
#[inline(always)]
pub fn blend2(x0: f32, y0: f32, lower: bool, g: [[f32; 2]; 3]) -> f32 {
    Triangle2::new(y0, lower, g).at(x0)
}

/// What 2D simplex noise in one triangle needs of a sample beside its x0: the parts of
/// [`blend2`] that depend only on y0, the triangle and its gradients, worked out once for
/// the samples of a row that share them. [`Triangle2::at`] then does the rest, the same
/// operations in the same order, so the bits are [`blend2`]'s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle2 {
    /// The second corner's step along x: 1 in the lower triangle, 0 in the upper.
    pub i1: f32,
    /// Each corner's y offset squared.
    pub y_squared: [f32; 3],
    /// Each corner's gradient x.
    pub gx: [f32; 3],
    /// Each corner's gradient y times its y offset.
    pub gy_y: [f32; 3],
}

impl Triangle2 {
    /// The terms of a sample at y offset `y0` from its cell's first corner, in the lower
    /// or upper triangle, whose corner gradients are `g`.
    #[inline(always)]
    pub fn new(y0: f32, lower: bool, g: [[f32; 2]; 3]) -> Self {
        let (i1, j1) = if lower { (1.0, 0.0) } else { (0.0, 1.0) };
        let y1 = y0 - j1 + G2;
        let y2 = y0 - 1.0 + 2.0 * G2;
        Self {
            i1,
            y_squared: [y0 * y0, y1 * y1, y2 * y2],
            gx: [g[0][0], g[1][0], g[2][0]],
            gy_y: [g[0][1] * y0, g[1][1] * y1, g[2][1] * y2],
        }
    }

    /// The noise at x offset `x0` from the cell's first corner.
    #[inline(always)]
    pub fn at(&self, x0: f32) -> f32 {
        let x1 = x0 - self.i1 + G2;
        let x2 = x0 - 1.0 + 2.0 * G2;
        let corner = |k: usize, x: f32| {
            falloff(
                0.5,
                x * x + self.y_squared[k],
                self.gx[k] * x + self.gy_y[k],
            )
        };
        let n = corner(0, x0) + corner(1, x1) + corner(2, x2);
        SCALE_2D * n
    }
}

/// 2D simplex noise at (x, y), in [−1, 1].
#[inline(always)]
pub fn simplex2(x: f32, y: f32, seed: u32) -> f32 {
    simplex2_with(x, y, seed, split)
}

/// [`simplex2`] with `split` as the lattice split (see [`triangle2_with`]).
#[inline(always)]
pub fn simplex2_with(x: f32, y: f32, seed: u32, split: impl Fn(f32) -> (f32, f32)) -> f32 {
    let [i, j, x0, y0] = triangle2_with(x, y, split);
    // The upper or lower triangle of the skewed cell.
    let lower = x0 > y0;
    blend2(x0, y0, lower, corners2(i, j, lower, seed))
}

/// 3D simplex noise at (x, y, z), in [−1, 1].
#[inline(always)]
pub fn simplex3(x: f32, y: f32, z: f32, seed: u32) -> f32 {
    let Tetrahedron {
        offset,
        cell,
        order,
    } = tetrahedron3_with(x, y, z, split);
    blend3(offset, order, gradients3(cell, order, seed))
}

/// Where a 3D sample falls on the skewed lattice: in which tetrahedron of which cell, and
/// where in it. Samples in one tetrahedron share its corners' gradients.
#[derive(Debug, Clone, Copy)]
pub struct Tetrahedron {
    /// The offset from the cell's first corner.
    pub offset: [f32; 3],
    /// The cell's floors (whole numbers).
    pub cell: [f32; 3],
    /// Which of the cell's six tetrahedra: bits 0–2 the axes the second corner steps
    /// along (one), bits 3–5 those of the third (two).
    pub order: u32,
}

/// The tetrahedron holding the sample at (x, y, z); `split` is the lattice split
/// ([`split`], or the same bits through [`split_vectorized`], which vectorizes on the
/// SSE2 baseline but costs more where SSE4.1's rounding is at hand).
#[inline(always)]
pub fn tetrahedron3_with(x: f32, y: f32, z: f32, split: impl Fn(f32) -> (f32, f32)) -> Tetrahedron {
    let (x, y, z) = (bounded(x), bounded(y), bounded(z));
    let s = (x + y + z) * F3;
    let (i, j, k) = (split(x + s).0, split(y + s).0, split(z + s).0);
    let [oi, oj, ok] = cell_origin3([i, j, k]);
    let offset = [x - oi, y - oj, z - ok];
    // The simplex's corners step along the axes in order of the offset's components.
    let [a, b, c] = offset;
    let (ab, bc, ac) = (a >= b, b >= c, a >= c);
    let first = [ab && ac, !ab && bc, !ac && !bc];
    let second = [ab || ac, !ab || bc, !ac || !bc];
    let bits = |steps: [bool; 3]| {
        u32::from(steps[0]) | u32::from(steps[1]) << 1 | u32::from(steps[2]) << 2
    };
    Tetrahedron {
        offset,
        cell: [i, j, k],
        order: bits(first) | bits(second) << 3,
    }
}

/// The first corner of the cell with floors `cell`, unskewed: a sample's offset
/// ([`Tetrahedron::offset`]) is its [`bounded`] position less this.
#[inline(always)]
pub fn cell_origin3(cell: [f32; 3]) -> [f32; 3] {
    let [i, j, k] = cell;
    let t = (i + j + k) * G3;
    [i - t, j - t, k - t]
}

/// The axes corner `index` (0–3) of tetrahedron `order` steps along.
#[inline(always)]
fn steps3(order: u32, index: u32) -> [bool; 3] {
    let bits = match index {
        0 => 0,
        1 => order & 7,
        2 => order >> 3,
        _ => 7,
    };
    [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0]
}

/// The gradients of the four corners of tetrahedron `order` in `cell`.
#[inline(always)]
pub fn gradients3(cell: [f32; 3], order: u32, seed: u32) -> [[f32; 3]; 4] {
    let terms = [term(cell[0], 0), term(cell[1], 1), term(cell[2], 2)];
    let base = terms[0].wrapping_add(terms[1]).wrapping_add(terms[2]);
    let corner = |index: u32| {
        let steps = steps3(order, index);
        let mut key = base;
        for axis in 0..3 {
            key = key.wrapping_add(if steps[axis] { KEYS[axis] } else { 0 });
        }
        gradient3(corner_hash(key, seed))
    };
    [corner(0), corner(1), corner(2), corner(3)]
}

/// The noise at `offset` in tetrahedron `order` whose corners have the gradients `g`.
#[inline(always)]
pub fn blend3(offset: [f32; 3], order: u32, g: [[f32; 3]; 4]) -> f32 {
    TetrahedronRow::new(offset[1], offset[2], order, g).at(offset[0])
}

/// What 3D simplex noise in one tetrahedron needs of a sample beside its x offset: the
/// parts of [`blend3`] that depend only on the y and z offsets, the tetrahedron and its
/// gradients, worked out once for the samples of a row that share them.
/// [`TetrahedronRow::at`] does the rest, the same operations in the same order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TetrahedronRow {
    /// Each corner's step along x: 1 or 0.
    pub step_x: [f32; 4],
    /// Each corner's y offset squared.
    pub y_squared: [f32; 4],
    /// Each corner's z offset squared.
    pub z_squared: [f32; 4],
    /// Each corner's gradient x.
    pub gx: [f32; 4],
    /// Each corner's gradient y times its y offset.
    pub gy_y: [f32; 4],
    /// Each corner's gradient z times its z offset.
    pub gz_z: [f32; 4],
}

impl TetrahedronRow {
    /// The terms of samples at y and z offsets `y0`, `z0` from their cell's first corner,
    /// in tetrahedron `order`, whose corners have the gradients `g`.
    #[inline(always)]
    pub fn new(y0: f32, z0: f32, order: u32, g: [[f32; 3]; 4]) -> Self {
        let mut row = TetrahedronRow {
            step_x: [0.0; 4],
            y_squared: [0.0; 4],
            z_squared: [0.0; 4],
            gx: [0.0; 4],
            gy_y: [0.0; 4],
            gz_z: [0.0; 4],
        };
        for (index, [gx, gy, gz]) in g.into_iter().enumerate() {
            let steps = steps3(order, index as u32);
            let back = index as f32 * G3;
            let step = |axis: usize| if steps[axis] { 1.0 } else { 0.0 };
            let (y, z) = (y0 - step(1) + back, z0 - step(2) + back);
            row.step_x[index] = step(0);
            row.y_squared[index] = y * y;
            row.z_squared[index] = z * z;
            row.gx[index] = gx;
            row.gy_y[index] = gy * y;
            row.gz_z[index] = gz * z;
        }
        row
    }

    /// The noise at x offset `x0` from the cell's first corner.
    #[inline(always)]
    pub fn at(&self, x0: f32) -> f32 {
        let corner = |index: usize| {
            // The first corner never steps along x, the last always does: constants,
            // which spare a load (the same values, so the same bits).
            let step = match index {
                0 => 0.0,
                3 => 1.0,
                _ => self.step_x[index],
            };
            let x = x0 - step + index as f32 * G3;
            let d2 = x * x + self.y_squared[index] + self.z_squared[index];
            falloff(
                0.6,
                d2,
                self.gx[index] * x + self.gy_y[index] + self.gz_z[index],
            )
        };
        // Written out, not looped, so that the loop over samples is the innermost and
        // vectorizes.
        let n = corner(0) + corner(1) + corner(2) + corner(3);
        SCALE_3D * n
    }
}

/// The 3D lattice's skew and unskew factors.
const F3: f32 = 1.0 / 3.0;
const G3: f32 = 1.0 / 6.0;

/// 4D simplex noise at `p`, in [−1, 1].
#[inline(always)]
pub fn simplex4(p: [f32; 4], seed: u32) -> f32 {
    const F4: f32 = 0.309_017; // (√5 − 1)/4
    const G4: f32 = 0.138_196_6; // (5 − √5)/20
    let [x, y, z, w] = p.map(bounded);
    let s = (x + y + z + w) * F4;
    // The vectorizing split: the baseline's loop would otherwise call floor per sample
    // (a tenth faster there; within a few percent either way on the wider levels).
    let (i, j, k, l) = (
        split_vectorized(x + s).0,
        split_vectorized(y + s).0,
        split_vectorized(z + s).0,
        split_vectorized(w + s).0,
    );
    let t = (i + j + k + l) * G4;
    let (x0, y0, z0, w0) = (x - (i - t), y - (j - t), z - (k - t), w - (l - t));
    // Rank of each component among the four (ties to the earlier axis), written out
    // pair by pair as Gustavson does, so that it stays branch-free.
    let (xy, xz, xw) = (u32::from(x0 > y0), u32::from(x0 > z0), u32::from(x0 > w0));
    let (yz, yw, zw) = (u32::from(y0 > z0), u32::from(y0 > w0), u32::from(z0 > w0));
    let rank = [
        xy + xz + xw,
        (1 - xy) + yz + yw,
        (1 - xz) + (1 - yz) + zw,
        (1 - xw) + (1 - yw) + (1 - zw),
    ];
    let base = term(i, 0)
        .wrapping_add(term(j, 1))
        .wrapping_add(term(k, 2))
        .wrapping_add(term(l, 3));
    let p0 = [x0, y0, z0, w0];
    // Written out, not looped, so that the loop over samples is the innermost.
    let n = corner4(p0, rank, base, 0, seed)
        + corner4(p0, rank, base, 1, seed)
        + corner4(p0, rank, base, 2, seed)
        + corner4(p0, rank, base, 3, seed)
        + corner4(p0, rank, base, 4, seed);
    SCALE_4D * n
}

/// Corner `index` (0–4) of a 4D simplex: it steps along the `index` axes of highest rank.
#[inline(always)]
fn corner4(p0: [f32; 4], rank: [u32; 4], base: u32, index: u32, seed: u32) -> f32 {
    const G4: f32 = 0.138_196_6;
    let back = index as f32 * G4;
    let stepped = |axis: usize| rank[axis] + index >= 4;
    let key = base
        .wrapping_add(if stepped(0) { KEYS[0] } else { 0 })
        .wrapping_add(if stepped(1) { KEYS[1] } else { 0 })
        .wrapping_add(if stepped(2) { KEYS[2] } else { 0 })
        .wrapping_add(if stepped(3) { KEYS[3] } else { 0 });
    let q = |axis: usize| p0[axis] - if stepped(axis) { 1.0 } else { 0.0 } + back;
    let q = [q(0), q(1), q(2), q(3)];
    let d2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    falloff(0.6, d2, grad4(corner_hash(key, seed), q))
}

/// Tileable simplex noise at (x, y) in [0, period)², moved by `z` along the 4D diagonal:
/// 4D noise on the flat torus of circumference `period` along each axis.
#[inline(always)]
pub fn simplex_torus(x: f32, y: f32, z: f32, period: f32, seed: u32) -> f32 {
    let radius = period * (1.0 / std::f32::consts::TAU);
    let (tu, tv) = (x / period, y / period);
    let shift = z * 0.5;
    simplex4(
        [
            radius * cos_2pi(tu) + shift,
            radius * sin_2pi(tu) + shift,
            radius * cos_2pi(tv) + shift,
            radius * sin_2pi(tv) + shift,
        ],
        seed,
    )
}

/// Simplex noise at (x, y[, z]) in [−1, 1]: 2D, or 3D when `volume`; on the torus of
/// circumference `period` when tiling.
#[inline(always)]
pub fn simplex(x: f32, y: f32, z: f32, period: Option<f32>, volume: bool, seed: u32) -> f32 {
    let n = match period {
        Some(p) => simplex_torus(x, y, if volume { z } else { 0.0 }, p, seed),
        None if volume => simplex3(x, y, z, seed),
        None => simplex2(x, y, seed),
    };
    n.clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::splitmix64;

    /// 3D simplex noise in one tetrahedron summed as Gustavson writes it: each corner's
    /// offset, squared distance and gradient dot product from the whole offset.
    fn blend3_written_out(offset: [f32; 3], order: u32, g: [[f32; 3]; 4]) -> f32 {
        let mut terms = [0.0; 4];
        for index in 0..4u32 {
            let steps = steps3(order, index);
            let back = index as f32 * G3;
            let p: [f32; 3] =
                std::array::from_fn(|a| offset[a] - if steps[a] { 1.0 } else { 0.0 } + back);
            let [gx, gy, gz] = g[index as usize];
            let d2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
            terms[index as usize] = falloff(0.6, d2, gx * p[0] + gy * p[1] + gz * p[2]);
        }
        // Summed from the first term, not from 0 (0 + −0 is +0).
        SCALE_3D * (terms[0] + terms[1] + terms[2] + terms[3])
    }

    /// The row form (y and z terms once, then x) gives the written-out sum's bits, in all
    /// six tetrahedra, for every gradient, at offsets that include both zeros and the
    /// cell's edges.
    #[test]
    fn a_tetrahedron_row_sums_as_the_written_out_blend() {
        let mut state = 3;
        let mut at = vec![0.0, -0.0, 1.0, 0.5, 1.0 / 6.0, 1.0 - f32::EPSILON / 2.0];
        at.extend((0..8).map(|_| (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32));
        let mut checked = 0;
        for h in (0..16u32).map(|code| code << 28) {
            for &x in &at {
                for &y in &at {
                    for &z in &at {
                        let t = tetrahedron3_with(x, y, z, split);
                        let g = [0, 1, 2, 3].map(|k| gradient3(h.rotate_left(k * 7)));
                        let expected = blend3_written_out(t.offset, t.order, g);
                        let got = blend3(t.offset, t.order, g);
                        assert_eq!(got.to_bits(), expected.to_bits(), "{h:x} at {x} {y} {z}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 16 * at.len().pow(3));
    }
}
