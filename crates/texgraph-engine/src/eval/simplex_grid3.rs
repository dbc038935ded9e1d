//! 3D simplex noise on the image grid at one z, where x depends only on the column and y
//! only on the row: the 3D counterpart of the 2D simplex grid kernel ([`super::grid`]).
//!
//! Along a tile row y and z are fixed, so a sample's tetrahedron changes only where x
//! crosses a face, tens of samples apart at the frequencies where this kernel is used
//! ([`simplex_grid3_pays`]). A block of
//! neighbouring samples mostly lies in one tetrahedron, otherwise mostly in two: its
//! first sample's and the next block's first sample's. Each block's tetrahedron, its
//! corners' gradients and the parts of the sum that depend only on y and z
//! ([`simplex::TetrahedronRow`]) are worked out once per row for all the row's blocks
//! together (so that this vectorizes across blocks), and kept from row to row while the
//! blocks stay in their tetrahedra. Each sample then needs only its x offset. Blocks that
//! reach into a third tetrahedron work each sample out alone.
//!
//! Every sample goes through the same IEEE operations in the same order as
//! [`simplex::simplex`] in 3D, so the bits are the per-sample kernel's.

use texgraph_kernels::dispatch::multiversion;
use texgraph_kernels::noise::split_vectorized;
use texgraph_kernels::simplex::{self, TetrahedronRow};

use super::grid::{MAX_COLS, RowPoints, finish};

/// Samples per block. Measured at 2048² and 256 columns a lattice unit, ms, 16 against
/// 32: AVX-512 10.9 against 10.3, AVX2 12.0 against 12.8, the baseline 36.7 against 29.2.
const BLOCK: usize = 32;

/// Whole blocks a tile row holds at most.
const MAX_BLOCKS: usize = MAX_COLS / BLOCK;

/// Whether [`simplex_grid3`] beats the per-sample kernel on a tile whose row holds the
/// columns at `u`, at frequency `freq`: it needs most blocks inside one tetrahedron, so
/// enough columns per lattice unit. Measured at 2048², ms, per-sample against grid: at
/// 128 columns a unit 13.6 against 15.5 (AVX-512), 17.9 against 19.6 (AVX2), 38.3
/// against 43.7 (baseline); at 171, 13.9 against 12.8, 18.0 against 15.9, 37.5 against
/// 35.9; at 256, 13.7 against 9.9, 17.9 against 12.6, 34.5 against 27.8. Alike on every
/// level, so one bound.
pub(super) fn simplex_grid3_pays(u: &[f32], freq: f32) -> bool {
    const FEWEST: f32 = 160.0;
    match u {
        [a, b, ..] => (b - a).abs() * freq.abs() * FEWEST <= 1.0,
        _ => false,
    }
}

/// The tetrahedra of `P` samples of a tile row (each whole block's first, and the last
/// block's last), one array a value.
#[derive(Clone)]
struct BlockTetrahedra<const P: usize> {
    cell: [[f32; P]; 3],
    order: [u32; P],
}

impl<const P: usize> BlockTetrahedra<P> {
    /// The tetrahedra of the samples at x `xs` ([bounded](simplex::bounded)) in the row at
    /// y and z (bounded).
    #[inline(always)]
    fn new(xs: &[f32; P], y: f32, z: f32) -> Self {
        let mut t = BlockTetrahedra {
            cell: [[0.0; P]; 3],
            order: [0; P],
        };
        for (b, &x) in xs.iter().enumerate() {
            let found = simplex::tetrahedron3_with(x, y, z, split_vectorized);
            for axis in 0..3 {
                t.cell[axis][b] = found.cell[axis];
            }
            t.order[b] = found.order;
        }
        t
    }

    /// Point `b`'s cell.
    #[inline(always)]
    fn cell(&self, b: usize) -> [f32; 3] {
        [0, 1, 2].map(|axis| self.cell[axis][b])
    }

    /// Whether point `b` lies in tetrahedron `order` of `cell`.
    #[inline(always)]
    fn holds(&self, b: usize, cell: [f32; 3], order: u32) -> bool {
        inside(self.cell(b), self.order[b], cell, order)
    }

    /// Whether every one of the first `B` points lies in the tetrahedron it lies in in
    /// `other`.
    #[inline(always)]
    fn same_blocks<const B: usize>(&self, other: &Self) -> bool {
        let mut differ = false;
        for b in 0..B {
            // `|`, not `||`: no branch, so the loop vectorizes.
            differ |= !inside(self.cell(b), self.order[b], other.cell(b), other.order[b]);
        }
        !differ
    }
}

/// Whether the tetrahedron `order` of `cell` is `other_order` of `other_cell`. Floors
/// compare as numbers (a −0 floor hashes as 0 does).
#[inline(always)]
fn inside(cell: [f32; 3], order: u32, other_cell: [f32; 3], other_order: u32) -> bool {
    // `&`, not `&&`: no branch, so that a loop over samples vectorizes.
    (cell[0] == other_cell[0])
        & (cell[1] == other_cell[1])
        & (cell[2] == other_cell[2])
        & (order == other_order)
}

/// The corner gradients ([`simplex::gradients3`]) of the tetrahedra of the first `B`
/// points of a [`BlockTetrahedra`]: `g[corner][axis][block]`.
struct BlockGradients<const B: usize> {
    g: [[[f32; B]; 3]; 4],
}

impl<const B: usize> BlockGradients<B> {
    #[inline(always)]
    fn new<const P: usize>(tetrahedra: &BlockTetrahedra<P>, seed: u32) -> Self {
        let mut gradients = BlockGradients {
            g: [[[0.0; B]; 3]; 4],
        };
        for b in 0..B {
            let g = simplex::gradients3(tetrahedra.cell(b), tetrahedra.order[b], seed);
            for (corner, g) in g.into_iter().enumerate() {
                for (axis, value) in g.into_iter().enumerate() {
                    gradients.g[corner][axis][b] = value;
                }
            }
        }
        gradients
    }

    /// Block `b`'s corner gradients.
    #[inline(always)]
    fn of(&self, b: usize) -> [[f32; 3]; 4] {
        [0, 1, 2, 3].map(|corner| [0, 1, 2].map(|axis| self.g[corner][axis][b]))
    }
}

/// Each block's [`TetrahedronRow`] and its cell's first corner's x
/// ([`simplex::cell_origin3`]), one array a value: `value[corner][block]`.
struct BlockRows<const B: usize> {
    origin_x: [f32; B],
    step_x: [[f32; B]; 4],
    y_squared: [[f32; B]; 4],
    z_squared: [[f32; B]; 4],
    gx: [[f32; B]; 4],
    gy_y: [[f32; B]; 4],
    gz_z: [[f32; B]; 4],
}

impl<const B: usize> BlockRows<B> {
    /// The terms of the first `B` of `tetrahedra`, whose corner gradients are
    /// `gradients`, in the row at y and z (bounded).
    #[inline(always)]
    fn new<const P: usize>(
        tetrahedra: &BlockTetrahedra<P>,
        gradients: &BlockGradients<B>,
        y: f32,
        z: f32,
    ) -> Self {
        let mut rows = BlockRows {
            origin_x: [0.0; B],
            step_x: [[0.0; B]; 4],
            y_squared: [[0.0; B]; 4],
            z_squared: [[0.0; B]; 4],
            gx: [[0.0; B]; 4],
            gy_y: [[0.0; B]; 4],
            gz_z: [[0.0; B]; 4],
        };
        for b in 0..B {
            let row = tetrahedron_row(tetrahedra, b, gradients.of(b), y, z);
            rows.origin_x[b] = simplex::cell_origin3(tetrahedra.cell(b))[0];
            for corner in 0..4 {
                rows.step_x[corner][b] = row.step_x[corner];
                rows.y_squared[corner][b] = row.y_squared[corner];
                rows.z_squared[corner][b] = row.z_squared[corner];
                rows.gx[corner][b] = row.gx[corner];
                rows.gy_y[corner][b] = row.gy_y[corner];
                rows.gz_z[corner][b] = row.gz_z[corner];
            }
        }
        rows
    }

    /// Block `b`'s terms.
    #[inline(always)]
    fn row(&self, b: usize) -> TetrahedronRow {
        let each = |value: &[[f32; B]; 4]| [0, 1, 2, 3].map(|corner| value[corner][b]);
        TetrahedronRow {
            step_x: each(&self.step_x),
            y_squared: each(&self.y_squared),
            z_squared: each(&self.z_squared),
            gx: each(&self.gx),
            gy_y: each(&self.gy_y),
            gz_z: each(&self.gz_z),
        }
    }
}

/// The terms of point `b`'s tetrahedron, whose corners have the gradients `g`, in the row
/// at y and z (bounded): the same operations as [`simplex::tetrahedron3_with`]'s offsets.
#[inline(always)]
fn tetrahedron_row<const P: usize>(
    tetrahedra: &BlockTetrahedra<P>,
    b: usize,
    g: [[f32; 3]; 4],
    y: f32,
    z: f32,
) -> TetrahedronRow {
    let origin = simplex::cell_origin3(tetrahedra.cell(b));
    TetrahedronRow::new(y - origin[1], z - origin[2], tetrahedra.order[b], g)
}

/// Picks `b` where `take_b`, else `a`, value by value (a select per value, which
/// vectorizes, rather than a branch).
#[inline(always)]
fn pick(take_b: bool, a: &TetrahedronRow, b: &TetrahedronRow) -> TetrahedronRow {
    let each = |a: [f32; 4], b: [f32; 4]| [0, 1, 2, 3].map(|k| if take_b { b[k] } else { a[k] });
    TetrahedronRow {
        step_x: each(a.step_x, b.step_x),
        y_squared: each(a.y_squared, b.y_squared),
        z_squared: each(a.z_squared, b.z_squared),
        gx: each(a.gx, b.gx),
        gy_y: each(a.gy_y, b.gy_y),
        gz_z: each(a.gz_z, b.gz_z),
    }
}

/// 3D simplex noise at (x, y, z) (bounded), each sample alone: [`simplex::simplex`]'s
/// operations, with the vectorizing lattice split.
#[inline(always)]
fn alone(x: f32, y: f32, z: f32, seed: u32) -> f32 {
    let t = simplex::tetrahedron3_with(x, y, z, split_vectorized);
    simplex::blend3(
        t.offset,
        t.order,
        simplex::gradients3(t.cell, t.order, seed),
    )
}

multiversion! {
    /// 3D simplex noise on the image grid at z: `u` holds the x of each column, `v` each
    /// row's y, `p` is [frequency, offset x, offset y].
    pub(super) fn simplex_grid3(out: &mut [f32], u: &[f32], v: &[f32], p: [f32; 3], z: f32, seed: u32, unit: bool) {
        // Sized for the tile (128 columns by default): the per-row work covers every
        // block the arrays hold.
        match (u.len() <= 4 * BLOCK, unit) {
            (true, true) => rows::<5, 4, true>(out, u, v, p, z, seed),
            (true, false) => rows::<5, 4, false>(out, u, v, p, z, seed),
            (false, true) => rows::<{ MAX_BLOCKS + 1 }, MAX_BLOCKS, true>(out, u, v, p, z, seed),
            (false, false) => rows::<{ MAX_BLOCKS + 1 }, MAX_BLOCKS, false>(out, u, v, p, z, seed),
        }
    }
}

/// [`simplex_grid3`] for tile rows of at most `B` blocks, with `P` = `B` + 1 points,
/// mapped to [0, 1] when `UNIT`.
#[inline(always)]
fn rows<const P: usize, const B: usize, const UNIT: bool>(
    out: &mut [f32],
    u: &[f32],
    v: &[f32],
    p: [f32; 3],
    z: f32,
    seed: u32,
) {
    const { assert!(P == B + 1 && B <= MAX_BLOCKS) };
    let [f, ox, oy] = p;
    let z = simplex::bounded(z);
    let cols = u.len();
    let RowPoints { xs, points, whole } = RowPoints::<P>::new(u, f, ox, BLOCK, B);
    // The tetrahedra whose gradients `gradients` holds.
    let mut known: Option<BlockTetrahedra<P>> = None;
    let mut gradients = BlockGradients::<B> {
        g: [[[0.0; B]; 3]; 4],
    };
    for (row, out) in out.chunks_exact_mut(cols).enumerate() {
        let y = simplex::bounded(v[row] * f + oy);
        let tetrahedra = BlockTetrahedra::new(&points, y, z);
        if !known
            .as_ref()
            .is_some_and(|k| k.same_blocks::<B>(&tetrahedra))
        {
            gradients = BlockGradients::new(&tetrahedra, seed);
            known = Some(tetrahedra.clone());
        }
        let terms = BlockRows::new(&tetrahedra, &gradients, y, z);
        let (out, rest) = out.split_at_mut(whole);
        for (b, (out, xs)) in out
            .chunks_exact_mut(BLOCK)
            .zip(xs.chunks_exact(BLOCK))
            .enumerate()
        {
            let out: &mut [f32; BLOCK] = out.try_into().expect("a whole block");
            let xs: &[f32; BLOCK] = xs.try_into().expect("a whole block");
            let first = terms.row(b);
            let (cell, order) = (tetrahedra.cell(b), tetrahedra.order[b]);
            // Along a row x only grows (or only shrinks), every floor and offset with
            // it, and a tetrahedron is convex: when a block's first sample and the next
            // point lie in one tetrahedron, so does every sample between.
            if tetrahedra.holds(b + 1, cell, order) {
                let origin_x = terms.origin_x[b];
                for l in 0..BLOCK {
                    out[l] = finish::<UNIT>(first.at(xs[l] - origin_x));
                }
                continue;
            }
            // Otherwise its samples lie in its first sample's tetrahedron, then the
            // next point's, and perhaps others between.
            let next = if b + 1 < B {
                terms.row(b + 1)
            } else {
                let g = simplex::gradients3(tetrahedra.cell(b + 1), tetrahedra.order[b + 1], seed);
                tetrahedron_row(&tetrahedra, b + 1, g, y, z)
            };
            let (next_cell, next_order) = (tetrahedra.cell(b + 1), tetrahedra.order[b + 1]);
            let mut all = true;
            for l in 0..BLOCK {
                let t = simplex::tetrahedron3_with(xs[l], y, z, split_vectorized);
                let in_next = inside(t.cell, t.order, next_cell, next_order);
                all &= in_next | inside(t.cell, t.order, cell, order);
                out[l] = finish::<UNIT>(pick(in_next, &first, &next).at(t.offset[0]));
            }
            if !all {
                for (o, &x) in out.iter_mut().zip(xs) {
                    *o = finish::<UNIT>(alone(x, y, z, seed));
                }
            }
        }
        for (o, &u) in rest.iter_mut().zip(&u[whole..]) {
            *o = finish::<UNIT>(alone(simplex::bounded(u * f + ox), y, z, seed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: usize = 8;

    #[test]
    fn grid_simplex_3d_has_the_bits_of_the_per_sample_formula() {
        let seed = simplex::seed_term(9);
        let mut checked = 0;
        // Low frequencies keep whole blocks in one tetrahedron; high ones cross faces
        // inside blocks; 40 and 200 columns leave a partial block (200: the rows of 8
        // blocks), 128 fills the rows of 4. Negative z, z across a lattice plane, and a z
        // past the lattice's range.
        let cases = [
            (3.0, 64),
            (8.5, 40),
            (40.0, 64),
            (300.0, 64),
            (6.0, 200),
            (20.0, 128),
        ];
        for (f, cols) in cases {
            let u: Vec<f32> = (0..cols).map(|c| ((17 + c) as f32 + 0.5) / 512.0).collect();
            let v: Vec<f32> = (0..ROWS)
                .map(|r| ((250 + r) as f32 + 0.5) / 512.0)
                .collect();
            let (ox, oy) = (-2.5, 0.75);
            for z in [0.0, 0.5, -3.25, 1.0e9] {
                for unit in [false, true] {
                    let mut out = vec![0.0; cols * ROWS];
                    simplex_grid3(&mut out, &u, &v, [f, ox, oy], z, seed, unit);
                    for (i, &o) in out.iter().enumerate() {
                        let (x, y) = (u[i % cols] * f + ox, v[i / cols] * f + oy);
                        let n = simplex::simplex(x, y, z, None, true, seed);
                        let expected = if unit { 0.5 + 0.5 * n } else { n };
                        assert_eq!(o.to_bits(), expected.to_bits(), "{f} {z} {unit} sample {i}");
                        checked += 1;
                    }
                }
            }
        }
        let samples: usize = cases.iter().map(|&(_, cols)| cols * ROWS).sum();
        assert_eq!(checked, samples * 4 * 2, "every case ran");
    }
}
