//! 2D cellular distances sampled on the image's own grid, where x depends only on the
//! column and y only on the row.
//!
//! A tile's columns, and so their cells and fractions along x, are the same in every row:
//! they are worked out once a tile ([`Columns`]). Each row then hashes the cells it can
//! see once (its cell row and the one above and below, across the tile), and each chunk
//! of [`CHUNK`] samples that lies within three cell columns folds the block of cells
//! around it, one broadcast feature point after another, as the search's shared blocks do.
//! Only distances are kept, and each cell is folded once, so the nearest and second
//! nearest come out as the search's whatever the order. A chunk where a farther ring
//! could still hold a nearer point for some sample, or that spans more columns, or a
//! row's partial last chunk, takes the search ([`cellular_chunk`]) instead. Both are
//! exact, and every distance goes through the same operations as there, so the bits are
//! the same.

// Lane loops index several per-lane arrays in step; `for l in 0..CHUNK` says so best.
#![allow(clippy::needless_range_loop)]

use super::{
    AXIS_KEYS, CHEBYSHEV, CHUNK, Cellular, EUCLIDEAN, Feature, MANHATTAN, MARGIN, MAX_SPAN, Metric,
    SEED_KEY, Samples, Search, box_offset, cellular_chunk, feature_steps, mix, neighbour,
};
use crate::noise::{cell_index, split_vectorized};

/// Most columns a tile may have.
pub const MAX_COLS: usize = 256;
/// Whole chunks a tile row holds at most.
const MAX_CHUNKS: usize = MAX_COLS / CHUNK;
/// Most cell columns a tile's rows see: past this the cells are too small for chunks to
/// share blocks, and the search is the better way.
const MAX_WIDTH: usize = 64;
/// Coordinates beyond this (in cells) take the search: within it, a cell's floor plus a
/// few cells is exact, so every way of naming a neighbour's index agrees.
const LIMIT: f32 = 4_194_304.0;
/// Unit of a 2D feature step ([`feature_steps`]).
const UNIT: f32 = 1.0 / 65536.0;

/// What every row of a tile shares: each column's x, and each whole chunk's block.
pub struct Columns {
    cols: usize,
    /// Each column's x, in cells.
    x: [f32; MAX_COLS],
    /// The tile's cell columns, from one left of its leftmost column's cell to one right
    /// of its rightmost's: how many, and each one's hash term (the seed's folded in).
    width: usize,
    terms: [u32; MAX_WIDTH],
    /// Each whole chunk's block, when it spans at most [`MAX_SPAN`] + 1 cell columns:
    /// its first cell column (in `terms`) and how many columns past three it spans.
    blocks: [Option<(usize, usize)>; MAX_CHUNKS],
    /// Each whole chunk's box offsets along x, per block column and lane.
    base: [[[f32; CHUNK]; MAX_SPAN + 3]; MAX_CHUNKS],
    /// Each whole chunk's distance along x to its second ring, per lane.
    ring_gap: [[f32; CHUNK]; MAX_CHUNKS],
    /// The clamped jitter, and the factor on a hashed position ([`Search::start`]'s).
    jitter: f32,
    spread: f32,
}

impl Columns {
    /// The columns of a tile whose rows have x coordinates `u` (in image units), at
    /// frequency `freq` and `offset` along x, with `jitter` and `period` for every
    /// sample, as the search is given them. `None` when the tile is too wide or its
    /// cells too small for the grid.
    #[inline(always)]
    pub fn new(
        u: &[f32],
        freq: f32,
        offset: f32,
        jitter: f32,
        period: Option<f32>,
        seed: u32,
    ) -> Option<Box<Self>> {
        let cols = u.len();
        // False for NaN too.
        let crossed = ((u[cols.checked_sub(1)?] - u[0]) * freq).abs();
        let fits = crossed + 3.0 <= MAX_WIDTH as f32;
        if cols > MAX_COLS || !fits {
            return None;
        }
        // max/min map NaN to 0, where clamp would keep it.
        #[allow(clippy::manual_clamp)]
        let jitter = jitter.max(0.0).min(1.0);
        let mut columns = Box::new(Columns {
            cols,
            x: [0.0; MAX_COLS],
            width: 0,
            terms: [0; MAX_WIDTH],
            blocks: [None; MAX_CHUNKS],
            base: [[[0.0; CHUNK]; MAX_SPAN + 3]; MAX_CHUNKS],
            ring_gap: [[0.0; CHUNK]; MAX_CHUNKS],
            jitter,
            spread: jitter * UNIT,
        });
        let mut frac = [0.0; MAX_COLS];
        let mut index = [0; MAX_COLS];
        let mut inside = true;
        for c in 0..cols {
            let x = u[c] * freq + offset;
            let (floor, f) = split_vectorized(x);
            (columns.x[c], frac[c], index[c]) = (x, f, cell_index(floor, None));
            inside &= x.abs() <= LIMIT;
        }
        if !inside {
            return None;
        }
        let (low, high) = min_max(&index[..cols]);
        columns.width = (high - low) as usize + 3;
        if columns.width > MAX_WIDTH {
            return None;
        }
        let seed_term = seed.wrapping_mul(SEED_KEY);
        for (k, term) in columns.terms[..columns.width].iter_mut().enumerate() {
            let i = neighbour(low as f32, low, k as i32 - 1, period);
            *term = (i as u32).wrapping_mul(AXIS_KEYS[0]) ^ seed_term;
        }
        let chunks = cols / CHUNK;
        let mut shared = 0;
        for q in 0..chunks {
            let lanes = q * CHUNK..(q + 1) * CHUNK;
            let (left, right) = min_max(&index[lanes.clone()]);
            let span = (right - left) as usize;
            if span > MAX_SPAN {
                continue;
            }
            shared += 1;
            columns.blocks[q] = Some(((left - low) as usize, span));
            for (l, c) in lanes.enumerate() {
                // The block's column k lies d = k − 1 − (this column's cell − the
                // leftmost) cells from the sample's own.
                let own = index[c] - left;
                for k in 0..span + 3 {
                    columns.base[q][k][l] = box_offset(k as i32 - 1 - own, jitter, frac[c]);
                }
                columns.ring_gap[q][l] = ring_distance(frac[c]);
            }
        }
        // Most whole chunks must share blocks for the grid to pay.
        (chunks > 0 && 4 * shared >= 3 * chunks).then_some(columns)
    }
}

/// The least and greatest of `v` (not empty).
#[inline(always)]
fn min_max(v: &[i32]) -> (i32, i32) {
    let (mut low, mut high) = (v[0], v[0]);
    for &i in v {
        low = low.min(i);
        high = high.max(i);
    }
    (low, high)
}

/// The distance along one axis from a sample at fraction `f` of its cell to the cells
/// two away, as the search measures it when deciding whether to visit them.
#[inline(always)]
fn ring_distance(f: f32) -> f32 {
    (2.0 - f).min(f + 1.0)
}

/// Cellular distances (F1, F2 or F2 − F1 of `p`; `p` is 2D) of a tile: `columns` from
/// its x, `v` holding each row's y in image units, at
/// frequency `freq` and `offset_y`; `period` and `jitter` as [`Columns::new`] was given.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn rows(
    out: &mut [f32],
    columns: &Columns,
    v: &[f32],
    p: Cellular,
    [freq, offset_y]: [f32; 2],
    period: Option<f32>,
    jitter: f32,
    search: &mut Search,
) {
    debug_assert!(!p.volume && !matches!(p.feature, Feature::Edge | Feature::CellValue));
    let fallback = Fallback {
        p,
        period: period.unwrap_or(1.0),
        jitter,
    };
    let at = [freq, offset_y];
    // Called, not taken as function pointers, so that each is inlined into the caller's
    // instruction set.
    match (p.metric, p.feature == Feature::F1) {
        (Metric::Euclidean, true) => {
            rows_with::<EUCLIDEAN, false>(out, columns, v, at, period, &fallback, search)
        }
        (Metric::Manhattan, true) => {
            rows_with::<MANHATTAN, false>(out, columns, v, at, period, &fallback, search)
        }
        (Metric::Chebyshev, true) => {
            rows_with::<CHEBYSHEV, false>(out, columns, v, at, period, &fallback, search)
        }
        (Metric::Euclidean, false) => {
            rows_with::<EUCLIDEAN, true>(out, columns, v, at, period, &fallback, search)
        }
        (Metric::Manhattan, false) => {
            rows_with::<MANHATTAN, true>(out, columns, v, at, period, &fallback, search)
        }
        (Metric::Chebyshev, false) => {
            rows_with::<CHEBYSHEV, true>(out, columns, v, at, period, &fallback, search)
        }
    }
}

/// What a chunk that takes the search needs besides its positions.
struct Fallback {
    p: Cellular,
    period: f32,
    jitter: f32,
}

impl Fallback {
    /// The search's result for the samples at x `xs` in the row at `y`. Out of line:
    /// chunks rarely take it ([`Columns::new`] declines tiles where many would), and one
    /// copy of the whole search is enough.
    #[inline(never)]
    fn search(&self, out: &mut [f32], xs: &[f32], y: f32, search: &mut Search) {
        let mut s = Samples {
            pos: [[0.0; CHUNK], [y; CHUNK], [0.0; CHUNK]],
            period: [self.period; CHUNK],
            jitter: [self.jitter; CHUNK],
        };
        s.pos[0][..xs.len()].copy_from_slice(xs);
        cellular_chunk(self.p, &s, xs.len(), out, search);
    }
}

/// [`rows`] for one metric, keeping the second nearest distance when `SECOND`.
#[inline(always)]
fn rows_with<const METRIC: u8, const SECOND: bool>(
    out: &mut [f32],
    columns: &Columns,
    v: &[f32],
    [freq, offset_y]: [f32; 2],
    period: Option<f32>,
    fallback: &Fallback,
    search: &mut Search,
) {
    let cols = columns.cols;
    let width = columns.width;
    let (jitter, spread) = (columns.jitter, columns.spread);
    let distance = |d: f32| {
        if METRIC == EUCLIDEAN { d.sqrt() } else { d }
    };
    // Each cell's offset along x from its box (before the sample's own), and its term of
    // the distance along y (the same for every sample of a row), for the rows of cells
    // below, at and above the sample's: the first `width` of each, rewritten every row.
    let mut jittered_x = [[0.0f32; MAX_WIDTH]; 3];
    let mut y_term = [[0.0f32; MAX_WIDTH]; 3];
    for (row, out) in out.chunks_exact_mut(cols).enumerate() {
        let y = v[row] * freq + offset_y;
        // False for NaN too.
        let inside = y.abs() <= LIMIT;
        if !inside {
            for (out, xs) in out.chunks_mut(CHUNK).zip(columns.x[..cols].chunks(CHUNK)) {
                fallback.search(out, xs, y, search);
            }
            continue;
        }
        let (floor, frac) = split_vectorized(y);
        let index = cell_index(floor, None);
        for (dy, (jx, ty)) in jittered_x.iter_mut().zip(&mut y_term).enumerate() {
            let d = dy as i32 - 1;
            let row_term = (neighbour(floor, index, d, period) as u32).wrapping_mul(AXIS_KEYS[1]);
            let base = box_offset(d, jitter, frac);
            for k in 0..width {
                let [hx, hy, _] = feature_steps(mix(columns.terms[k] ^ row_term), false);
                jx[k] = spread * hx;
                let y = base + spread * hy;
                ty[k] = match METRIC {
                    EUCLIDEAN => y * y,
                    _ => y.abs(),
                };
            }
        }
        let gap_y = ring_distance(frac);
        let (whole, rest) = out.split_at_mut(cols / CHUNK * CHUNK);
        for (q, out) in whole.chunks_exact_mut(CHUNK).enumerate() {
            let xs = &columns.x[q * CHUNK..(q + 1) * CHUNK];
            let Some((first, span)) = columns.blocks[q] else {
                fallback.search(out, xs, y, search);
                continue;
            };
            let base = &columns.base[q];
            let (mut f1, mut f2) = ([f32::INFINITY; CHUNK], [f32::INFINITY; CHUNK]);
            for (jx, ty) in jittered_x.iter().zip(&y_term) {
                for k in 0..span + 3 {
                    let (jx, ty, bx) = (jx[first + k], ty[first + k], &base[k]);
                    for l in 0..CHUNK {
                        let x = bx[l] + jx;
                        // As the search's sum, whose 3D term is 0.
                        let d = match METRIC {
                            EUCLIDEAN => x * x + ty,
                            MANHATTAN => x.abs() + ty,
                            _ => x.abs().max(ty),
                        };
                        // Neither is ever NaN, so compares give min's results.
                        let nearest = f1[l];
                        if SECOND {
                            let other = if d > nearest { d } else { nearest };
                            f2[l] = if other < f2[l] { other } else { f2[l] };
                        }
                        f1[l] = if d < nearest { d } else { nearest };
                    }
                }
            }
            // Whether the second ring could hold a nearer point for any sample, as
            // `ring_may_matter` decides it.
            let bound = if SECOND { &f2 } else { &f1 };
            let gaps = &columns.ring_gap[q];
            let mut farther = false;
            for l in 0..CHUNK {
                let gap = gaps[l].min(gap_y) + 0.5 - 0.5 * jitter - MARGIN;
                let reach = if METRIC == EUCLIDEAN { gap * gap } else { gap };
                farther |= gap <= 0.0 || reach < bound[l];
            }
            if farther {
                fallback.search(out, xs, y, search);
                continue;
            }
            let out: &mut [f32; CHUNK] = out.try_into().expect("a whole chunk");
            match fallback.p.feature {
                Feature::F1 => *out = f1.map(distance),
                Feature::F2 => *out = f2.map(distance),
                _ => {
                    for l in 0..CHUNK {
                        out[l] = distance(f2[l]) - distance(f1[l]);
                    }
                }
            }
        }
        if !rest.is_empty() {
            fallback.search(rest, &columns.x[cols - rest.len()..cols], y, search);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sample of a tile, rendered by [`rows`], against the search of that sample
    /// alone, bit for bit.
    fn check(p: Cellular, freq: f32, offset: [f32; 2], jitter: f32, cols: usize, rows_n: usize) {
        let period = p.tile.then(|| crate::noise::period_of(freq));
        let f = period.unwrap_or(freq);
        let side = 300.0;
        let u: Vec<f32> = (0..cols).map(|c| (c as f32 + 7.5) / side).collect();
        let v: Vec<f32> = (0..rows_n).map(|r| (r as f32 + 3.5) / side).collect();
        let Some(columns) = Columns::new(&u, f, offset[0], jitter, period, p.seed) else {
            panic!("{p:?} at {freq}: no grid");
        };
        let mut out = vec![f32::NAN; cols * rows_n];
        let mut search = Search::default();
        rows(
            &mut out,
            &columns,
            &v,
            p,
            [f, offset[1]],
            period,
            jitter,
            &mut search,
        );
        for (i, got) in out.iter().enumerate() {
            let (x, y) = (u[i % cols] * f + offset[0], v[i / cols] * f + offset[1]);
            let mut s = Samples::default();
            (s.pos[0][0], s.pos[1][0]) = (x, y);
            s.period[0] = period.unwrap_or(1.0);
            s.jitter[0] = jitter;
            let mut alone = [0.0];
            cellular_chunk(p, &s, 1, &mut alone, &mut Search::default());
            assert_eq!(
                got.to_bits(),
                alone[0].to_bits(),
                "{p:?} freq {freq} jitter {jitter} sample {i}: {got} against {}",
                alone[0]
            );
        }
    }

    #[test]
    fn every_sample_has_the_bits_of_the_search_alone() {
        for metric in [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev] {
            for feature in [Feature::F1, Feature::F2, Feature::F2MinusF1] {
                for tile in [false, true] {
                    let p = Cellular {
                        seed: 11,
                        metric,
                        feature,
                        volume: false,
                        tile,
                    };
                    // From cells wider than the tile to ones of 7.5 pixels, where some
                    // chunks span four cell columns; a partial last chunk (cols 40).
                    for (freq, jitter, cols) in [
                        (1.3, 1.0, 128),
                        (7.0, 0.6, 128),
                        (23.0, 1.0, 40),
                        (40.0, 0.0, 128),
                        (40.0, 1.0, 64),
                    ] {
                        check(p, freq, [0.0, 0.0], jitter, cols, 9);
                        check(p, freq, [-17.25, 3.5], jitter, cols, 9);
                    }
                }
            }
        }
    }

    #[test]
    fn tiles_too_wide_for_the_grid_or_far_out_take_the_search() {
        let u: Vec<f32> = (0..128).map(|c| c as f32 / 128.0).collect();
        assert!(Columns::new(&u, 70.0, 0.0, 1.0, None, 1).is_none());
        assert!(Columns::new(&u, 4.0, 5.0e6, 1.0, None, 1).is_none());
        assert!(Columns::new(&u, 4.0, f32::NAN, 1.0, None, 1).is_none());
        assert!(Columns::new(&u[..0], 4.0, 0.0, 1.0, None, 1).is_none());
        assert!(Columns::new(&u, 4.0, 0.0, 1.0, None, 1).is_some());
    }
}
