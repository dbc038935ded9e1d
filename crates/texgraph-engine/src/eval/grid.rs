//! Lattice noises sampled on the image's own grid, where u depends only on the column and
//! v only on the row. A tile row crosses few lattice cells, so whatever depends only on the
//! cell and the row (the corner codes or values, and each corner's y part of the gradient
//! dot product) is worked out once per run of columns inside one cell, and each pixel is a
//! handful of multiplies, adds and blends on per-column arrays: no table reads and no
//! gathers in the inner loop, which every instruction set vectorizes alike.
//!
//! Each sample goes through the same IEEE operations in the same order as the per-sample
//! kernels ([`perlin_plane`](texgraph_kernels::noise::perlin_plane),
//! [`perlin_volume`](texgraph_kernels::noise::perlin_volume),
//! [`value2`](texgraph_kernels::noise::value2)); they are only hoisted out of the loop, so
//! the bits are identical.

use texgraph_kernels::dispatch::{Level, level, multiversion};
use texgraph_kernels::noise::{
    CornerTable, GRADIENTS, cell_index, fade, lattice_value, lerp, next_index, split,
    split_vectorized,
};

use texgraph_kernels::scalar::{self, Unary};
use texgraph_kernels::simplex;

use super::lanes::{Arg, Finish, Lane, Uniform};

/// Most columns of a tile the grid kernels take (their per-column arrays have fixed size).
pub(super) const MAX_COLS: usize = 256;

/// Fewest columns per lattice cell, on average, for the grid kernels to be used. Without
/// AVX-512 they beat the per-sample kernels at any frequency, even a cell per column
/// (measured: fBm at 512² with its top octave at 4 cells per pixel, AVX2 9.2 → 5.8 ms,
/// baseline 14.9 → 6.0 ms); AVX-512's hand-written kernel, which reads sixteen neighbouring
/// cells' codes at once, wins below 16 columns a cell.
pub(super) fn min_run() -> usize {
    match level() {
        Level::Avx512 => 16,
        Level::Avx2 | Level::Baseline => 1,
    }
}

/// The lattice x of each column of a tile: the fraction in the cell, the fraction − 1,
/// the interpolation weight, and the runs of columns that share a cell.
pub(super) struct Columns {
    frac: [f32; MAX_COLS],
    frac1: [f32; MAX_COLS],
    weight: [f32; MAX_COLS],
    /// Each run's first column, then one past the last run's end.
    starts: [usize; MAX_COLS + 1],
    /// Each run's lattice floor.
    floors: [f32; MAX_COLS],
    runs: usize,
}

impl Columns {
    /// The columns of a tile whose first row has x coordinates `u`, scaled by `freq` and
    /// offset by `offset`; `weight` turns a fraction into its interpolation weight.
    /// `None` when the tile is too wide or its runs too short for the grid kernels.
    #[inline(always)]
    pub(super) fn new(
        u: &[f32],
        freq: f32,
        offset: f32,
        weight: impl Fn(f32) -> f32,
        min_run: usize,
    ) -> Option<Box<Self>> {
        let cols = u.len();
        if cols == 0 || cols > MAX_COLS {
            return None;
        }
        // Cells the row crosses, judged from its ends before any work: the columns are
        // worked out only where runs will be long enough.
        let crossed = ((u[cols - 1] - u[0]) * freq).abs();
        // False for NaN too.
        let long_enough = crossed * min_run as f32 <= cols as f32;
        if min_run > 1 && !long_enough {
            return None;
        }
        let mut columns = Box::new(Columns {
            frac: [0.0; MAX_COLS],
            frac1: [0.0; MAX_COLS],
            weight: [0.0; MAX_COLS],
            starts: [0; MAX_COLS + 1],
            floors: [0.0; MAX_COLS],
            runs: 0,
        });
        let mut previous = f32::NAN;
        for (c, &x) in u.iter().enumerate() {
            let (floor, frac) = split(x * freq + offset);
            columns.frac[c] = frac;
            columns.frac1[c] = frac - 1.0;
            columns.weight[c] = weight(frac);
            if floor != previous {
                columns.starts[columns.runs] = c;
                columns.floors[columns.runs] = floor;
                columns.runs += 1;
                previous = floor;
            }
        }
        columns.starts[columns.runs] = cols;
        (columns.runs * min_run <= cols).then_some(columns)
    }

    /// Columns per row.
    fn cols(&self) -> usize {
        self.starts[self.runs]
    }

    /// Each run's columns and lattice floor.
    #[inline(always)]
    fn runs(&self) -> impl Iterator<Item = (std::ops::Range<usize>, f32)> + '_ {
        (0..self.runs).map(|r| (self.starts[r]..self.starts[r + 1], self.floors[r]))
    }
}

/// Component `axis` of the gradients of the four corners packed in `codes`.
#[inline(always)]
fn corner_gradients(codes: u32, axis: usize) -> [f32; 4] {
    let g = |shift: u32| GRADIENTS[axis][((codes >> shift) & 15) as usize];
    [g(0), g(4), g(8), g(12)]
}

multiversion! {
    /// Perlin noise from corner tables on the image grid, written as scale·n + add (|n|
    /// with `abs`): `v` holds each row's y, `p` is [frequency, offset y, dz, scale].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn perlin_grid(out: &mut [f32], columns: &Columns, v: &[f32], below: &CornerTable, above: &CornerTable, p: [f32; 4], abs: bool, add: Arg<'_>) {
        let [f, oy, dz, scale] = p;
        let finish = Finish { scale, abs };
        let n = out.len();
        match add {
            Arg::C(c) => perlin_rows(out, columns, v, [below, above], [f, oy, dz], finish, Uniform(c)),
            Arg::S(s) => perlin_rows(out, columns, v, [below, above], [f, oy, dz], finish, &s[..n]),
        }
    }
}

#[inline(always)]
fn perlin_rows(
    out: &mut [f32],
    columns: &Columns,
    v: &[f32],
    [below, above]: [&CornerTable; 2],
    [f, oy, dz]: [f32; 3],
    finish: Finish,
    add: impl Lane,
) {
    let cols = columns.cols();
    let (z0, z1, w) = (dz, dz - 1.0, fade(dz));
    // Each run's table column, the same for every row.
    let mut cell_x = [0u32; MAX_COLS];
    for (cell, &floor) in cell_x.iter_mut().zip(&columns.floors[..columns.runs]) {
        *cell = below.cell(floor);
    }
    let last = below.codes.len().min(above.codes.len()) - 1;
    for (row, out) in out.chunks_exact_mut(cols).enumerate() {
        let base = row * cols;
        let (fy, y0) = split(v[row] * f + oy);
        let (y1, weight_y) = (y0 - 1.0, fade(y0));
        let row_start = below.cell(fy) * below.stride();
        for (r, (run, _)) in columns.runs().enumerate() {
            // The same entry as `CornerTable::index`; the min never binds.
            let k = ((cell_x[r] + row_start) as usize).min(last);
            // The y part of each corner's dot product: corners 0 and 1 lie on the cell's
            // lower edge (y0), 2 and 3 on its upper edge (y1).
            let y_part = |gy: [f32; 4]| [gy[0] * y0, gy[1] * y0, gy[2] * y1, gy[3] * y1];
            let codes = below.codes[k];
            let gx = corner_gradients(codes, 0);
            let a = y_part(corner_gradients(codes, 1));
            let frac = &columns.frac[run.clone()];
            let frac1 = &columns.frac1[run.clone()];
            let weight_x = &columns.weight[run.clone()];
            let start = run.start;
            let out = &mut out[run];
            if dz == 0.0 {
                for j in 0..out.len() {
                    let (x0, x1, u) = (frac[j], frac1[j], weight_x[j]);
                    let n = lerp(
                        weight_y,
                        lerp(u, gx[0] * x0 + a[0], gx[1] * x1 + a[1]),
                        lerp(u, gx[2] * x0 + a[2], gx[3] * x1 + a[3]),
                    );
                    out[j] = finish.apply(n, add.get(base + start + j));
                }
            } else {
                let gz = corner_gradients(codes, 2);
                let gz = [gz[0] * z0, gz[1] * z0, gz[2] * z0, gz[3] * z0];
                let upper_codes = above.codes[k];
                let hx = corner_gradients(upper_codes, 0);
                let b = y_part(corner_gradients(upper_codes, 1));
                let hz = corner_gradients(upper_codes, 2);
                let hz = [hz[0] * z1, hz[1] * z1, hz[2] * z1, hz[3] * z1];
                for j in 0..out.len() {
                    let (x0, x1, u) = (frac[j], frac1[j], weight_x[j]);
                    let lower = lerp(
                        weight_y,
                        lerp(u, gx[0] * x0 + a[0] + gz[0], gx[1] * x1 + a[1] + gz[1]),
                        lerp(u, gx[2] * x0 + a[2] + gz[2], gx[3] * x1 + a[3] + gz[3]),
                    );
                    let upper = lerp(
                        weight_y,
                        lerp(u, hx[0] * x0 + b[0] + hz[0], hx[1] * x1 + b[1] + hz[1]),
                        lerp(u, hx[2] * x0 + b[2] + hz[2], hx[3] * x1 + b[3] + hz[3]),
                    );
                    out[j] = finish.apply(lerp(w, lower, upper), add.get(base + start + j));
                }
            }
        }
    }
}

multiversion! {
    /// Value noise on the image grid with the columns' weights already interpolated:
    /// `v` holds each row's y, `p` is [frequency, offset y]; `interp` must be the
    /// weight the columns were built with.
    pub(super) fn value_grid(out: &mut [f32], columns: &Columns, v: &[f32], p: [f32; 2], period: Option<f32>, seed: u32, interp: fn(f32) -> f32) {
        let [f, oy] = p;
        let cols = columns.cols();
        for (row, out) in out.chunks_exact_mut(cols).enumerate() {
            let (fy, y) = split(v[row] * f + oy);
            let y0 = cell_index(fy, period);
            let y1 = next_index(y0, period);
            let ty = interp(y);
            for (run, fx) in columns.runs() {
                let x0 = cell_index(fx, period);
                let x1 = next_index(x0, period);
                let (a, b) = (lattice_value(x0, y0, seed), lattice_value(x1, y0, seed));
                let (c, d) = (lattice_value(x0, y1, seed), lattice_value(x1, y1, seed));
                let weight_x = &columns.weight[run.clone()];
                for (o, &tx) in out[run].iter_mut().zip(weight_x) {
                    *o = lerp(ty, lerp(tx, a, b), lerp(tx, c, d));
                }
            }
        }
    }
}

/// Samples per block of the simplex grid kernel.
const BLOCK: usize = 16;

/// Whether [`simplex_grid`] beats the per-sample kernel on a tile whose row holds the
/// columns at `u`, at frequency `freq`: it needs most blocks inside one triangle, so
/// enough columns per lattice unit, and how many depends on how fast the per-sample
/// kernel hashes. Measured at 2048² (ns per sample, grid against per-sample): AVX-512
/// breaks even at 128 columns a unit (3.0 against 3.1) and wins at 256 (2.8 against
/// 3.1); AVX2 wins at 64 (4.3 against 4.7) and loses at 32 (5.1 against 4.8); the
/// baseline wins at any frequency (10.5 against 12.6 at 8 columns).
pub(super) fn simplex_grid_pays(u: &[f32], freq: f32) -> bool {
    let fewest = match level() {
        Level::Avx512 => 128.0,
        Level::Avx2 => 48.0,
        Level::Baseline => return true,
    };
    match u {
        [a, b, ..] => (b - a).abs() * freq.abs() * fewest <= 1.0,
        _ => false,
    }
}

/// Whole blocks a tile row holds at most.
const MAX_BLOCKS: usize = MAX_COLS / BLOCK;

/// The triangles of `P` samples of a tile row whose triangles [`simplex_grid`] works out
/// together (each whole block's first, and the last block's last), one array a value so
/// that working them out for all the row's blocks at once vectorizes.
#[derive(Clone)]
struct BlockTriangles<const P: usize> {
    i: [f32; P],
    j: [f32; P],
    lower: [bool; P],
}

impl<const P: usize> BlockTriangles<P> {
    /// The triangles of the samples at x `xs` ([bounded](simplex::bounded)) in the row at
    /// y.
    #[inline(always)]
    fn new(xs: &[f32; P], y: f32) -> Self {
        let mut t = BlockTriangles {
            i: [0.0; P],
            j: [0.0; P],
            lower: [false; P],
        };
        for (b, &x) in xs.iter().enumerate() {
            let [i, j, x0, y0] = simplex::triangle2_with(x, y, split_vectorized);
            (t.i[b], t.j[b], t.lower[b]) = (i, j, x0 > y0);
        }
        t
    }

    /// Whether points `a` and `b` lie in the same triangle.
    #[inline(always)]
    fn same(&self, a: usize, b: usize) -> bool {
        self.i[a] == self.i[b] && self.j[a] == self.j[b] && self.lower[a] == self.lower[b]
    }

    /// Whether every one of the first `B` points lies in the triangle it lies in in
    /// `other`.
    #[inline(always)]
    fn same_blocks<const B: usize>(&self, other: &Self) -> bool {
        let mut differ = false;
        for b in 0..B {
            differ |= self.i[b] != other.i[b]
                || self.j[b] != other.j[b]
                || self.lower[b] != other.lower[b];
        }
        !differ
    }
}

/// The corner gradients ([`simplex::corners2`]) of the triangles of the first `B` points
/// of a [`BlockTriangles`], one array a value. A triangle spans many rows, so most rows
/// find their blocks' triangles, and these, as the row above left them.
struct BlockGradients<const B: usize> {
    /// Component `axis` of corner `k`'s gradient: `g[k][axis]`.
    g: [[[f32; B]; 2]; 3],
}

impl<const B: usize> BlockGradients<B> {
    #[inline(always)]
    fn new<const P: usize>(triangles: &BlockTriangles<P>, seed: u32) -> Self {
        let mut gradients = BlockGradients {
            g: [[[0.0; B]; 2]; 3],
        };
        for b in 0..B {
            let (i, j, lower) = (triangles.i[b], triangles.j[b], triangles.lower[b]);
            for (k, g) in simplex::corners2(i, j, lower, seed).into_iter().enumerate() {
                gradients.g[k][0][b] = g[0];
                gradients.g[k][1][b] = g[1];
            }
        }
        gradients
    }

    /// Block `b`'s corner gradients.
    #[inline(always)]
    fn of(&self, b: usize) -> [[f32; 2]; 3] {
        [0, 1, 2].map(|k| [self.g[k][0][b], self.g[k][1][b]])
    }
}

/// Each block's [`simplex::Triangle2`] and its cell's x ([`simplex::cell_x`]) for the
/// triangles of the blocks' first samples in [`BlockTriangles`], one array a value (see
/// there).
struct BlockTerms<const B: usize> {
    cell_x: [f32; B],
    i1: [f32; B],
    y_squared: [[f32; B]; 3],
    gx: [[f32; B]; 3],
    gy_y: [[f32; B]; 3],
}

impl<const B: usize> BlockTerms<B> {
    /// The terms of the first `B` of `triangles`, whose corner gradients are `gradients`,
    /// in the row at y.
    #[inline(always)]
    fn new<const P: usize>(
        triangles: &BlockTriangles<P>,
        gradients: &BlockGradients<B>,
        y: f32,
    ) -> Self {
        let mut terms = BlockTerms {
            cell_x: [0.0; B],
            i1: [0.0; B],
            y_squared: [[0.0; B]; 3],
            gx: [[0.0; B]; 3],
            gy_y: [[0.0; B]; 3],
        };
        for b in 0..B {
            let (i, j, lower) = (triangles.i[b], triangles.j[b], triangles.lower[b]);
            let y0 = simplex::offset_y(y, i, j);
            let t = simplex::Triangle2::new(y0, lower, gradients.of(b));
            terms.cell_x[b] = simplex::cell_x(i, j);
            terms.i1[b] = t.i1;
            for k in 0..3 {
                terms.y_squared[k][b] = t.y_squared[k];
                terms.gx[k][b] = t.gx[k];
                terms.gy_y[k][b] = t.gy_y[k];
            }
        }
        terms
    }

    /// Block `b`'s triangle.
    #[inline(always)]
    fn triangle(&self, b: usize) -> simplex::Triangle2 {
        simplex::Triangle2 {
            i1: self.i1[b],
            y_squared: [0, 1, 2].map(|k| self.y_squared[k][b]),
            gx: [0, 1, 2].map(|k| self.gx[k][b]),
            gy_y: [0, 1, 2].map(|k| self.gy_y[k][b]),
        }
    }
}

/// The terms of triangle `lower` of cell (i, j) in the row at y: the same operations as
/// [`simplex::triangle2_with`]'s y0 and [`simplex::blend2`]'s.
#[inline(always)]
fn block_triangle(i: f32, j: f32, lower: bool, y: f32, seed: u32) -> simplex::Triangle2 {
    let y0 = simplex::offset_y(y, i, j);
    simplex::Triangle2::new(y0, lower, simplex::corners2(i, j, lower, seed))
}

/// Picks `b` where `take_b`, else `a`, value by value (a select per value, which
/// vectorizes, rather than a branch).
#[inline(always)]
fn pick(take_b: bool, a: &simplex::Triangle2, b: &simplex::Triangle2) -> simplex::Triangle2 {
    let one = |x: f32, y: f32| if take_b { y } else { x };
    simplex::Triangle2 {
        i1: one(a.i1, b.i1),
        y_squared: [0, 1, 2].map(|k| one(a.y_squared[k], b.y_squared[k])),
        gx: [0, 1, 2].map(|k| one(a.gx[k], b.gx[k])),
        gy_y: [0, 1, 2].map(|k| one(a.gy_y[k], b.gy_y[k])),
    }
}

multiversion! {
    /// 2D simplex noise on the image grid: `u` holds the x of each column, `v` each
    /// row's y, `p` is [frequency, offset x, offset y].
    ///
    /// A block of neighbouring samples in one row mostly falls in one triangle of the
    /// skewed lattice, and otherwise mostly in two: its first sample's and the next
    /// block's first sample's. The triangles' corner gradients and the parts of the sum
    /// that depend only on the row are worked out once a block, for all the row's blocks
    /// together, and each sample takes its triangle's. Blocks that reach into a third
    /// triangle hash per sample.
    pub(super) fn simplex_grid(out: &mut [f32], u: &[f32], v: &[f32], p: [f32; 3], seed: u32, unit: bool) {
        // Sized for the tile (128 columns by default): the per-row work covers every
        // block the arrays hold.
        match (u.len() <= 8 * BLOCK, unit) {
            (true, true) => simplex_rows::<9, 8, true>(out, u, v, p, seed),
            (true, false) => simplex_rows::<9, 8, false>(out, u, v, p, seed),
            (false, true) => simplex_rows::<{ MAX_BLOCKS + 1 }, MAX_BLOCKS, true>(out, u, v, p, seed),
            (false, false) => simplex_rows::<{ MAX_BLOCKS + 1 }, MAX_BLOCKS, false>(out, u, v, p, seed),
        }
    }
}

/// A tile row's columns as the simplex grid kernels take them, in blocks of `block`
/// samples.
pub(super) struct RowPoints<const P: usize> {
    /// Each column's x ([bounded](simplex::bounded)), up to the last whole block's.
    pub xs: [f32; MAX_COLS],
    /// The x of each whole block's first sample, then of the last block's last: the
    /// points whose simplices are worked out once a row.
    pub points: [f32; P],
    /// The columns in whole blocks.
    pub whole: usize,
}

impl<const P: usize> RowPoints<P> {
    /// The columns at `u` (at most `most_blocks` whole blocks of them) at frequency `f`
    /// and offset `ox`.
    #[inline(always)]
    pub(super) fn new(u: &[f32], f: f32, ox: f32, block: usize, most_blocks: usize) -> Self {
        let blocks = (u.len() / block).min(most_blocks);
        let whole = blocks * block;
        let mut xs = [0.0; MAX_COLS];
        for (x, &u) in xs.iter_mut().zip(&u[..whole]) {
            *x = simplex::bounded(u * f + ox);
        }
        let mut points = [0.0; P];
        for b in 0..blocks {
            points[b] = xs[b * block];
        }
        if whole > 0 {
            points[blocks] = xs[whole - 1];
        }
        RowPoints { xs, points, whole }
    }
}

/// A simplex sum as the noise gives it: clamped to [−1, 1], and mapped to [0, 1] as
/// [`Unary::ToUnit`] maps it when `UNIT`.
#[inline(always)]
pub(super) fn finish<const UNIT: bool>(n: f32) -> f32 {
    let n = n.clamp(-1.0, 1.0);
    if UNIT {
        scalar::unary(Unary::ToUnit, n)
    } else {
        n
    }
}

/// [`simplex_grid`] for tile rows of at most `B` blocks, with `P` = `B` + 1 points, mapped
/// to [0, 1] when `UNIT`.
#[inline(always)]
fn simplex_rows<const P: usize, const B: usize, const UNIT: bool>(
    out: &mut [f32],
    u: &[f32],
    v: &[f32],
    p: [f32; 3],
    seed: u32,
) {
    const { assert!(P == B + 1 && B <= MAX_BLOCKS) };
    let [f, ox, oy] = p;
    let cols = u.len();
    let RowPoints { xs, points, whole } = RowPoints::<P>::new(u, f, ox, BLOCK, B);
    // The triangles whose gradients `gradients` holds.
    let mut known: Option<BlockTriangles<P>> = None;
    let mut gradients = BlockGradients::<B> {
        g: [[[0.0; B]; 2]; 3],
    };
    for (row, out) in out.chunks_exact_mut(cols).enumerate() {
        let y = v[row] * f + oy;
        let triangles = BlockTriangles::new(&points, y);
        if !known
            .as_ref()
            .is_some_and(|k| k.same_blocks::<B>(&triangles))
        {
            gradients = BlockGradients::new(&triangles, seed);
            known = Some(triangles.clone());
        }
        let terms = BlockTerms::new(&triangles, &gradients, y);
        let (out, rest) = out.split_at_mut(whole);
        for (b, (out, xs)) in out
            .chunks_exact_mut(BLOCK)
            .zip(xs.chunks_exact(BLOCK))
            .enumerate()
        {
            let out: &mut [f32; BLOCK] = out.try_into().expect("a whole block");
            let xs: &[f32; BLOCK] = xs.try_into().expect("a whole block");
            let first = terms.triangle(b);
            // Along a row x only grows (or only shrinks), and a triangle is convex:
            // when a block's first sample and the next point lie in one triangle, so
            // does every sample between.
            if triangles.same(b, b + 1) {
                let cell_x = terms.cell_x[b];
                for l in 0..BLOCK {
                    out[l] = finish::<UNIT>(first.at(xs[l] - cell_x));
                }
                continue;
            }
            // Otherwise its samples lie in its first sample's triangle, then the next
            // point's, and perhaps others between.
            let next = if b + 1 < B {
                terms.triangle(b + 1)
            } else {
                let (i, j, lower) = (
                    triangles.i[b + 1],
                    triangles.j[b + 1],
                    triangles.lower[b + 1],
                );
                block_triangle(i, j, lower, y, seed)
            };
            let (ai, aj, al) = (triangles.i[b], triangles.j[b], triangles.lower[b]);
            let (bi, bj, bl) = (
                triangles.i[b + 1],
                triangles.j[b + 1],
                triangles.lower[b + 1],
            );
            let mut all = true;
            for l in 0..BLOCK {
                let [i, j, x0, y0] = simplex::triangle2_with(xs[l], y, split_vectorized);
                let lower = x0 > y0;
                let in_next = i == bi && j == bj && lower == bl;
                all &= in_next || (i == ai && j == aj && lower == al);
                out[l] = finish::<UNIT>(pick(in_next, &first, &next).at(x0));
            }
            if !all {
                for (o, &x) in out.iter_mut().zip(xs) {
                    *o = finish::<UNIT>(simplex::simplex2_with(x, y, seed, split_vectorized));
                }
            }
        }
        for (o, &u) in rest.iter_mut().zip(&u[whole..]) {
            let n = simplex::simplex2_with(u * f + ox, y, seed, split_vectorized);
            *o = finish::<UNIT>(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use texgraph_kernels::noise::{Permutation, constant, cosine, linear, perlin3, value2};

    /// A tile of `COLS` × `ROWS` samples at column `col0` and row `row0` of an image
    /// `side` pixels wide: each row's u, and each sample's v.
    const COLS: usize = 64;
    const ROWS: usize = 8;

    /// The y of each row of a tile `cols` wide whose samples' y are `v`, as the grid
    /// kernels take them.
    fn each_row(v: &[f32], cols: usize) -> Vec<f32> {
        v.iter().step_by(cols).copied().collect()
    }

    fn tile(col0: usize, row0: usize, side: f32) -> (Vec<f32>, Vec<f32>) {
        let u = (0..COLS)
            .map(|c| ((col0 + c) as f32 + 0.5) / side)
            .collect();
        let v = (0..COLS * ROWS)
            .map(|i| ((row0 + i / COLS) as f32 + 0.5) / side)
            .collect();
        (u, v)
    }

    #[test]
    fn grid_perlin_has_the_bits_of_the_hashed_formula() {
        let add: Vec<f32> = (0..COLS * ROWS).map(|i| (i as f32 * 0.37).sin()).collect();
        let mut checked = 0;
        for seed in [0, 11] {
            let perm = Permutation::for_seed(seed);
            for period in [None, Some(3), Some(16)] {
                let (below, above) = (
                    CornerTable::new(&perm, 3, period),
                    CornerTable::new(&perm, 4, period),
                );
                let freqs = match period {
                    Some(p) => vec![p as f32],
                    // Up to several cells a column.
                    None => vec![3.7, 9.0, 17.25, 300.0],
                };
                for f in freqs {
                    for (col0, row0, side) in [(0, 0, 256.0), (192, 37, 256.0), (64, 500, 512.0)] {
                        let (u, v) = tile(col0, row0, side);
                        let (ox, oy) = (0.3, -1.7);
                        let columns = Columns::new(&u, f, ox, fade, 1).expect("a tile's columns");
                        for dz in [0.0, 0.375] {
                            for (abs, add) in [(false, Arg::C(0.25)), (true, Arg::S(&add))] {
                                let mut out = vec![0.0; COLS * ROWS];
                                let p = [f, oy, dz, 0.5];
                                perlin_grid(
                                    &mut out,
                                    &columns,
                                    &each_row(&v, COLS),
                                    &below,
                                    &above,
                                    p,
                                    abs,
                                    add,
                                );
                                let finish = Finish { scale: 0.5, abs };
                                for (i, &o) in out.iter().enumerate() {
                                    let (x, y) = (u[i % COLS] * f + ox, v[i] * f + oy);
                                    let period = period.map(|p| p as f32);
                                    let n = perlin3(&perm, x, y, 3.0 + dz, period);
                                    let expected = finish.apply(n, add.at(i));
                                    assert_eq!(
                                        o.to_bits(),
                                        expected.to_bits(),
                                        "{f} {period:?} {dz} sample {i}"
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 6 * 3 * 2 * 2 * COLS * ROWS, "every case ran");
    }

    #[test]
    fn grid_value_noise_has_the_bits_of_the_per_sample_formula() {
        let interps: [fn(f32) -> f32; 4] = [linear, cosine, fade, constant];
        for interp in interps {
            for (f, period) in [
                (5.5, None),
                (9.0, Some(9.0)),
                (2.0, Some(2.0)),
                (700.0, None),
            ] {
                let (u, v) = tile(100, 60, 300.0);
                let (ox, oy) = (4.25, 0.5);
                let columns = Columns::new(&u, f, ox, interp, 1).expect("a tile's columns");
                let mut out = vec![0.0; COLS * ROWS];
                value_grid(
                    &mut out,
                    &columns,
                    &each_row(&v, COLS),
                    [f, oy],
                    period,
                    7,
                    interp,
                );
                for (i, &o) in out.iter().enumerate() {
                    let expected = value2(u[i % COLS] * f + ox, v[i] * f + oy, 7, period, interp);
                    assert_eq!(o.to_bits(), expected.to_bits(), "{f} sample {i}");
                }
            }
        }
    }

    #[test]
    fn grid_simplex_has_the_bits_of_the_per_sample_formula() {
        let seed = simplex::seed_term(5);
        // Low frequencies keep whole blocks in one triangle; high ones cross edges inside
        // blocks; 40 and 200 columns leave a partial block (200: the rows of 16 blocks).
        for (f, cols) in [(3.0, 64), (8.5, 40), (40.0, 64), (300.0, 64), (6.0, 200)] {
            let u: Vec<f32> = (0..cols).map(|c| ((17 + c) as f32 + 0.5) / 512.0).collect();
            let v: Vec<f32> = (0..cols * ROWS)
                .map(|i| ((250 + i / cols) as f32 + 0.5) / 512.0)
                .collect();
            let (ox, oy) = (-2.5, 0.75);
            for unit in [false, true] {
                let mut out = vec![0.0; cols * ROWS];
                simplex_grid(&mut out, &u, &each_row(&v, cols), [f, ox, oy], seed, unit);
                for (i, &o) in out.iter().enumerate() {
                    let (x, y) = (u[i % cols] * f + ox, v[i] * f + oy);
                    let n = simplex::simplex(x, y, 0.0, None, false, seed);
                    let expected = if unit { 0.5 + 0.5 * n } else { n };
                    assert_eq!(o.to_bits(), expected.to_bits(), "{f} {unit} sample {i}");
                }
            }
        }
    }

    #[test]
    fn columns_split_into_runs_of_one_cell_or_decline() {
        let (u, _) = tile(0, 0, 64.0);
        let columns = Columns::new(&u, 4.0, 0.0, fade, 4).expect("16 columns a cell");
        let runs: Vec<_> = columns.runs().collect();
        assert_eq!(
            runs,
            [(0..16, 0.0), (16..32, 1.0), (32..48, 2.0), (48..64, 3.0)]
        );
        // 20 cells across 64 columns: runs under 4 columns long are left to the
        // per-sample kernels.
        assert!(Columns::new(&u, 20.0, 0.0, fade, 4).is_none());
        assert!(Columns::new(&[], 4.0, 0.0, fade, 4).is_none());
    }
}
