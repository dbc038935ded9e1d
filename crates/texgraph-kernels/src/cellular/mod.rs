//! Cellular (Worley) noise: one feature point per lattice cell, and at each sample the
//! distances to the nearest ones.
//!
//! Cell (i, j[, k]) holds one feature point at `cell + (1 − jitter)/2 + jitter·h`, with h
//! uniform in [0, 1) per axis from a hash of the cell and the seed: jitter 1 scatters it
//! over the whole cell (Worley's noise), 0 puts it at the centre (a square grid). When
//! tiling, cell indices wrap at the period before hashing, so the pattern repeats exactly.
//!
//! The search is exact at every jitter. The 3×3 (3×3×3) block around the sample's cell is
//! always searched, then ring after ring of cells (all cells at Chebyshev distance r) for
//! as long as any sample of the chunk could still find a nearer point there: a feature in
//! ring r is at least `gap_r = min over axes of min(r − f, f + r − 1) + (1 − jitter)/2`
//! away along one axis (f the sample's fraction in its cell), and every metric is at least
//! the distance along one axis. Whether a ring is searched never changes a result: a ring
//! is skipped only when it cannot, with a margin for rounding, so the bits are the same
//! whatever the chunking (tile size, instruction set).

// Lane loops index several per-lane arrays in step; `for l in 0..CHUNK` says so best.
#![allow(clippy::needless_range_loop)]

use crate::noise::{cell_index, split_vectorized};

pub mod grid;

/// Samples searched together: the rings a chunk needs are decided once for all of them.
pub const CHUNK: usize = 16;
/// The farthest ring ever needed: the edge output's bound, d₁ + 2·e < 6 cells, is the
/// loosest (features lie in their cells, so d₁ < √3 and e ≤ d₂ < 2.1 in 3D).
pub const MAX_RING: i32 = 6;
const SPAN: usize = (2 * MAX_RING + 1) as usize;
/// Slack on the ring test, in cells: far above the rounding of any computed distance.
const MARGIN: f32 = 1e-3;

/// How distance is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// √(Δx² + Δy² [+ Δz²]): round cells.
    Euclidean,
    /// |Δx| + |Δy| [+ |Δz|]: diamond-shaped cells.
    Manhattan,
    /// max(|Δx|, |Δy| [, |Δz|]): square cells.
    Chebyshev,
}

/// What cellular noise outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// Distance to the nearest feature point.
    F1,
    /// Distance to the second nearest.
    F2,
    /// F2 − F1: 0 where two cells meet.
    F2MinusF1,
    /// Distance to the nearest border between two cells (Euclidean cells only: the op
    /// is built with [`Metric::Euclidean`]).
    Edge,
    /// A random value in [0, 1] per cell, constant inside it.
    CellValue,
}

/// The parameters every sample of an operation shares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cellular {
    /// Hash seed.
    pub seed: u32,
    /// Distance measure.
    pub metric: Metric,
    /// What to output.
    pub feature: Feature,
    /// 3D cells (the sample's z is the third coordinate) rather than 2D.
    pub volume: bool,
    /// Cell indices wrap at each sample's period (x and y only).
    pub tile: bool,
}

/// The samples of one chunk, positions in cell units.
#[derive(Debug, Clone, Copy, Default)]
pub struct Samples {
    /// Coordinates along x, y and z.
    pub pos: [[f32; CHUNK]; 3],
    /// Tiling period of each sample (ignored unless tiling).
    pub period: [f32; CHUNK],
    /// Jitter of each sample, in [0, 1].
    pub jitter: [f32; CHUNK],
}

/// The mix of a cell's hash terms (lowbias32's finalizer): a bijection with full
/// avalanche in two multiplies, so every bit of the feature position is well mixed.
#[inline(always)]
pub fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846C_A68B);
    h ^ (h >> 16)
}

/// Hash terms of a cell index along each axis; a cell's hash is `mix` of their xor.
const AXIS_KEYS: [u32; 3] = [0x8DA6_B343, 0xD816_3841, 0xCB1A_B31F];
const SEED_KEY: u32 = 0x9E37_79B9;

/// The hash of cell (i, j, k) (k = 0 in 2D) for `seed`.
#[inline(always)]
pub fn cell_hash(cell: [i32; 3], seed: u32) -> u32 {
    mix(seed.wrapping_mul(SEED_KEY)
        ^ (cell[0] as u32).wrapping_mul(AXIS_KEYS[0])
        ^ (cell[1] as u32).wrapping_mul(AXIS_KEYS[1])
        ^ (cell[2] as u32).wrapping_mul(AXIS_KEYS[2]))
}

/// Where a cell's feature point lies inside it, per axis in [0, 1) before jitter: 16 bits
/// per axis in 2D, 10 in 3D.
#[inline(always)]
pub fn feature_unit(h: u32, volume: bool) -> [f32; 3] {
    let [x, y, z] = feature_steps(h, volume);
    let step = if volume { 1.0 / 1024.0 } else { 1.0 / 65536.0 };
    [x * step, y * step, z * step]
}

/// [`feature_unit`] in steps of 2⁻¹⁶ (2⁻¹⁰ in 3D).
#[inline(always)]
fn feature_steps(h: u32, volume: bool) -> [f32; 3] {
    // Through i32 (the values fit): a signed conversion is one instruction everywhere.
    if volume {
        [
            (h & 1023) as i32 as f32,
            ((h >> 10) & 1023) as i32 as f32,
            ((h >> 20) & 1023) as i32 as f32,
        ]
    } else {
        [(h & 0xFFFF) as i32 as f32, (h >> 16) as i32 as f32, 0.0]
    }
}

/// The random value of the cell with hash `h`, in [0, 1].
#[inline(always)]
pub fn cell_value(h: u32) -> f32 {
    (mix(h ^ 0x5BD1_E995) >> 8) as f32 * (1.0 / 16_777_215.0)
}

/// The per-sample state of a search, reused from chunk to chunk (it is large, and every
/// field is written before it is read).
pub struct Search {
    /// Floor (as a number and as a cell index) and fraction of each sample's position,
    /// per axis.
    floor: [[f32; CHUNK]; 3],
    index: [[i32; CHUNK]; 3],
    frac: [[f32; CHUNK]; 3],
    /// Tiling period of each sample.
    period: [f32; CHUNK],
    /// Hash term of each axis's cell index at offset d (index d + MAX_RING).
    terms: [[[u32; CHUNK]; SPAN]; 3],
    /// Offset of the feature-point box of the cell at offset d from the sample, per axis.
    base: [[[f32; CHUNK]; SPAN]; 3],
    /// The least distance along each axis from the sample to that box, less the margin
    /// (at least 0).
    gap: [[[f32; CHUNK]; SPAN]; 3],
    /// The outermost ring whose hash terms and boxes are filled (rings fill in order).
    filled: i32,
    /// Per-sample jitter, clamped to [0, 1], and jitter / 2¹⁶ (2¹⁰ in 3D): the factor on
    /// a hashed position.
    jitter: [f32; CHUNK],
    spread: [f32; CHUNK],
    /// Nearest and second nearest distance (squared for the Euclidean metric).
    f1: [f32; CHUNK],
    f2: [f32; CHUNK],
    /// The nearest feature's offset from the sample, and which cell (packed offset) and
    /// hash it has.
    near: [[f32; CHUNK]; 3],
    near_cell: [u32; CHUNK],
    near_hash: [u32; CHUNK],
}

impl Default for Search {
    fn default() -> Self {
        Self {
            floor: [[0.0; CHUNK]; 3],
            index: [[0; CHUNK]; 3],
            frac: [[0.0; CHUNK]; 3],
            period: [1.0; CHUNK],
            terms: [[[0; CHUNK]; SPAN]; 3],
            base: [[[0.0; CHUNK]; SPAN]; 3],
            gap: [[[0.0; CHUNK]; SPAN]; 3],
            filled: -1,
            jitter: [0.0; CHUNK],
            spread: [0.0; CHUNK],
            f1: [f32::INFINITY; CHUNK],
            f2: [f32::INFINITY; CHUNK],
            near: [[0.0; CHUNK]; 3],
            near_cell: [0; CHUNK],
            near_hash: [0; CHUNK],
        }
    }
}

impl Search {
    /// Starts a search of every lane of `s`. Lanes past the samples wanted may hold
    /// anything: they can only make the chunk search more rings, which changes nothing.
    #[inline(always)]
    fn start<const DIMS: usize>(&mut self, s: &Samples) {
        let unit = if DIMS == 3 {
            1.0 / 1024.0
        } else {
            1.0 / 65536.0
        };
        for l in 0..CHUNK {
            // max/min map NaN to 0, where clamp would keep it.
            #[allow(clippy::manual_clamp)]
            let j = s.jitter[l].max(0.0).min(1.0);
            self.jitter[l] = j;
            self.spread[l] = j * unit;
            self.period[l] = s.period[l];
            for axis in 0..DIMS {
                let (floor, frac) = split_vectorized(s.pos[axis][l]);
                (self.floor[axis][l], self.frac[axis][l]) = (floor, frac);
                self.index[axis][l] = cell_index(floor, None);
            }
            self.f1[l] = f32::INFINITY;
            self.f2[l] = f32::INFINITY;
        }
        self.filled = -1;
    }

    /// Fills the hash terms and box offsets of ring `r`'s new columns, rows and layers.
    #[inline(always)]
    fn fill(&mut self, p: Cellular, r: i32, dims: usize) {
        let seed_term = p.seed.wrapping_mul(SEED_KEY);
        let offsets: &[i32] = if r == 0 { &[0] } else { &[-r, r] };
        for &d in offsets {
            let k = (d + MAX_RING) as usize;
            for axis in 0..dims {
                let key = AXIS_KEYS[axis];
                let salt = if axis == 0 { seed_term } else { 0 };
                let terms = &mut self.terms[axis][k];
                let (floor, index) = (&self.floor[axis], &self.index[axis]);
                // One loop per case, so that neither has a branch.
                if p.tile && axis < 2 {
                    for l in 0..CHUNK {
                        let i = neighbour(floor[l], index[l], d, Some(self.period[l]));
                        terms[l] = (i as u32).wrapping_mul(key) ^ salt;
                    }
                } else {
                    for l in 0..CHUNK {
                        let i = neighbour(floor[l], index[l], d, None);
                        terms[l] = (i as u32).wrapping_mul(key) ^ salt;
                    }
                }
                for l in 0..CHUNK {
                    let j = self.jitter[l];
                    let base = box_offset(d, j, self.frac[axis][l]);
                    self.base[axis][k][l] = base;
                    // The box spans [base, base + j) from the sample.
                    let gap = if d > 0 {
                        base
                    } else if d < 0 {
                        -(base + j)
                    } else {
                        0.0
                    };
                    self.gap[axis][k][l] = (gap - MARGIN).max(0.0);
                }
            }
        }
        self.filled = r;
    }

    /// Fills the box offsets of the cells at offset `d` along `axis` (and nothing else).
    #[inline(always)]
    fn fill_base(&mut self, axis: usize, d: i32) {
        let base = &mut self.base[axis][(d + MAX_RING) as usize];
        for l in 0..CHUNK {
            base[l] = box_offset(d, self.jitter[l], self.frac[axis][l]);
        }
    }
}

/// The index of the cell `d` cells along an axis from a sample's cell (floor `floor`,
/// index `index`), wrapped at `period` when tiling.
#[inline(always)]
fn neighbour(floor: f32, index: i32, d: i32, period: Option<f32>) -> i32 {
    match period {
        Some(_) => cell_index(floor + d as f32, period),
        None => index.wrapping_add(d),
    }
}

/// Where the box of the feature points of the cell `d` cells along an axis starts,
/// from a sample at fraction `f` of its own cell, at jitter `j`.
#[inline(always)]
fn box_offset(d: i32, j: f32, f: f32) -> f32 {
    d as f32 + (0.5 - 0.5 * j) - f
}

/// Metric codes of the monomorphic searches.
const EUCLIDEAN: u8 = 0;
const MANHATTAN: u8 = 1;
const CHEBYSHEV: u8 = 2;

/// Cellular noise of the `m` first samples of a chunk into `out`. Each combination of
/// metric, dimensions and what the search keeps is its own loop, so the per-sample
/// loops have no branches and vectorize.
#[inline(always)]
pub fn cellular_chunk(p: Cellular, s: &Samples, m: usize, out: &mut [f32], search: &mut Search) {
    if p.volume {
        search.start::<3>(s);
    } else {
        search.start::<2>(s);
    }
    macro_rules! by_feature {
        ($metric:expr, $volume:expr) => {
            match p.feature {
                Feature::F1 => chunk::<{ $metric }, { $volume }, false, false>(p, m, out, search),
                Feature::F2 | Feature::F2MinusF1 => {
                    chunk::<{ $metric }, { $volume }, false, true>(p, m, out, search)
                }
                Feature::Edge | Feature::CellValue => {
                    chunk::<{ $metric }, { $volume }, true, false>(p, m, out, search)
                }
            }
        };
    }
    match (p.metric, p.volume) {
        (Metric::Euclidean, false) => by_feature!(EUCLIDEAN, false),
        (Metric::Manhattan, false) => by_feature!(MANHATTAN, false),
        (Metric::Chebyshev, false) => by_feature!(CHEBYSHEV, false),
        (Metric::Euclidean, true) => by_feature!(EUCLIDEAN, true),
        (Metric::Manhattan, true) => by_feature!(MANHATTAN, true),
        (Metric::Chebyshev, true) => by_feature!(CHEBYSHEV, true),
    }
}

/// One search: `NEAREST` keeps the nearest point's cell and position, `SECOND` the
/// second nearest distance.
#[inline(always)]
fn chunk<const METRIC: u8, const VOLUME: bool, const NEAREST: bool, const SECOND: bool>(
    p: Cellular,
    m: usize,
    out: &mut [f32],
    search: &mut Search,
) {
    let dims = if VOLUME { 3 } else { 2 };
    // The 16 samples of a chunk mostly lie in one row of one to three cells (and in 3D
    // in one layer): the feature points of the block of cells around them are then
    // worked out once, not once per sample. Only distances are kept here, and a minimum
    // does not depend on the order its values come in (nor on a cell seen twice), so
    // this gives the same bits as the search below.
    let mut first_ring = 0;
    if !NEAREST {
        // Folding a cell twice leaves the nearest distance as it was but could make it the
        // second nearest too: a search for F2 shares only blocks of one cell, whose cells
        // the rings after it never visit again.
        let widest = if SECOND { 0 } else { MAX_SPAN };
        // One instantiation per span, so that each block's loops are unrolled.
        if let Some((span, left)) = shared_span(search, m, p.tile, widest, VOLUME) {
            match (VOLUME, span) {
                (false, 0) => visit_shared_block::<METRIC, SECOND, 0>(search, p, left),
                (false, 1) => visit_shared_block::<METRIC, SECOND, 1>(search, p, left),
                (false, _) => visit_shared_block::<METRIC, SECOND, 2>(search, p, left),
                (true, 0) => visit_shared_block3::<METRIC, SECOND, 0>(search, p, left),
                (true, 1) => visit_shared_block3::<METRIC, SECOND, 1>(search, p, left),
                (true, _) => visit_shared_block3::<METRIC, SECOND, 2>(search, p, left),
            }
            first_ring = 2;
        }
    }
    // The nearest (and second nearest) points.
    for r in first_ring..=MAX_RING {
        if r >= 2 {
            let bound = if SECOND { &search.f2 } else { &search.f1 };
            if !ring_may_matter(search, r, dims, METRIC == EUCLIDEAN, bound) {
                break;
            }
        }
        if search.filled < r - 1 {
            // After a shared block: the outer rings read the hash terms of its rows and
            // columns too.
            search.fill(p, 0, dims);
            search.fill(p, 1, dims);
        }
        search.fill(p, r, dims);
        for_ring(
            r,
            VOLUME,
            #[inline(always)]
            |cell, certain| {
                let bound = if SECOND { search.f2 } else { search.f1 };
                if certain || cell_may_matter::<METRIC>(search, cell, dims, &bound) {
                    visit_nearest::<METRIC, VOLUME, NEAREST, SECOND>(search, cell)
                }
            },
        );
    }
    let mut all = [0.0f32; CHUNK];
    if p.feature == Feature::Edge {
        // Only points nearer than d₁ + 2·e can hold a nearer border (the border with a
        // point at distance d is at least (d − d₁)/2 away).
        let d1 = search.f1.map(f32::sqrt);
        let reach = |edge: &[f32; CHUNK]| {
            let mut bound = [0.0f32; CHUNK];
            for l in 0..CHUNK {
                let b = d1[l] + 2.0 * edge[l];
                bound[l] = b * b;
            }
            bound
        };
        let mut edge = [f32::INFINITY; CHUNK];
        for r in 0..=MAX_RING {
            if r >= 2 && !ring_may_matter(search, r, dims, true, &reach(&edge)) {
                break;
            }
            if r > search.filled {
                search.fill(p, r, dims);
            }
            for_ring(
                r,
                VOLUME,
                #[inline(always)]
                |cell, certain| {
                    if certain || cell_may_matter::<EUCLIDEAN>(search, cell, dims, &reach(&edge)) {
                        visit_border::<VOLUME>(search, cell, &mut edge)
                    }
                },
            );
        }
        all = edge;
    } else {
        let distance = |d: f32| {
            if METRIC == EUCLIDEAN { d.sqrt() } else { d }
        };
        // Full-width loops, one per output, so that each vectorizes.
        match p.feature {
            Feature::F1 => all = search.f1.map(distance),
            Feature::F2 => all = search.f2.map(distance),
            Feature::F2MinusF1 => {
                for l in 0..CHUNK {
                    all[l] = distance(search.f2[l]) - distance(search.f1[l]);
                }
            }
            _ => all = search.near_hash.map(cell_value),
        }
    }
    store_lanes(&mut out[..m], &all);
}

/// Copies `from` into the first lanes of `to`. A whole chunk is a fixed-length copy
/// (vector moves); only a shorter last chunk calls memcpy, kept out of line so that the
/// compiler cannot fold the two into one call of variable length.
#[inline(always)]
pub fn load_lanes(to: &mut [f32; CHUNK], from: &[f32]) {
    #[inline(never)]
    #[cold]
    fn part(to: &mut [f32; CHUNK], from: &[f32]) {
        to[..from.len()].copy_from_slice(from);
    }
    match <&[f32; CHUNK]>::try_from(from) {
        Ok(whole) => *to = *whole,
        Err(_) => part(to, from),
    }
}

/// The reverse of [`load_lanes`]: the first lanes of `from` into `to`.
#[inline(always)]
fn store_lanes(to: &mut [f32], from: &[f32; CHUNK]) {
    #[inline(never)]
    #[cold]
    fn part(to: &mut [f32], from: &[f32; CHUNK]) {
        to.copy_from_slice(&from[..to.len()]);
    }
    match <&mut [f32; CHUNK]>::try_from(&mut *to) {
        Ok(whole) => *whole = *from,
        Err(_) => part(to, from),
    }
}

/// Calls `visit` with every cell offset at Chebyshev distance exactly `r`, and whether
/// the cell is certain to matter (the sample's own cell and, in the first ring, the cells
/// sharing a side or face with it, which nearly always do). The first ring lists those
/// before the others, so the others are tested against a nearer bound.
#[inline(always)]
fn for_ring(r: i32, volume: bool, mut visit: impl FnMut([i32; 3], bool)) {
    if r == 0 {
        visit([0, 0, 0], true);
        return;
    }
    if r == 1 {
        for axis in 0..if volume { 3 } else { 2 } {
            for d in [-1, 1] {
                let mut cell = [0; 3];
                cell[axis] = d;
                visit(cell, true);
            }
        }
    }
    let depth = if volume { r } else { 0 };
    for dz in -depth..=depth {
        for dy in -r..=r {
            let full_row = dz.abs() == r || dy.abs() == r;
            for dx in -r..=r {
                let on_ring = full_row || dx.abs() == r;
                let face = r == 1 && (dx.abs() + dy.abs() + dz.abs()) == 1;
                if on_ring && !face {
                    visit([dx, dy, dz], false);
                }
            }
        }
    }
}

/// Whether a feature in ring `r` could come nearer than `bound` (a distance, or its
/// square when `squared`) for any sample.
#[inline(always)]
fn ring_may_matter(
    search: &Search,
    r: i32,
    dims: usize,
    squared: bool,
    bound: &[f32; CHUNK],
) -> bool {
    let mut any = false;
    for l in 0..CHUNK {
        let mut gap = f32::INFINITY;
        for axis in 0..dims {
            let f = search.frac[axis][l];
            gap = gap.min((r as f32 - f).min(f + (r - 1) as f32));
        }
        let gap = gap + 0.5 - 0.5 * search.jitter[l] - MARGIN;
        let reach = if squared { gap * gap } else { gap };
        any |= gap <= 0.0 || reach < bound[l];
    }
    any
}

/// Whether the feature of the cell at offset `cell` could come nearer than `bound` (in
/// the metric's terms: squared for the Euclidean one) for any sample.
#[inline(always)]
fn cell_may_matter<const METRIC: u8>(
    search: &Search,
    cell: [i32; 3],
    dims: usize,
    bound: &[f32; CHUNK],
) -> bool {
    let k = cell.map(|d| (d + MAX_RING) as usize);
    let [gx, gy, gz] = [0, 1, 2].map(|axis| &search.gap[axis][k[axis]]);
    let mut any = false;
    for l in 0..CHUNK {
        let (x, y) = (gx[l], gy[l]);
        let z = if dims == 3 { gz[l] } else { 0.0 };
        let least = match METRIC {
            EUCLIDEAN => x * x + y * y + z * z,
            MANHATTAN => x + y + z,
            _ => x.max(y).max(z),
        };
        any |= least < bound[l];
    }
    any
}

/// Packs a cell offset into one number (each axis within ±[`MAX_RING`]).
#[inline(always)]
fn pack(cell: [i32; 3]) -> u32 {
    let k = |d: i32| (d + MAX_RING) as u32;
    k(cell[0]) | k(cell[1]) << 4 | k(cell[2]) << 8
}

/// The hash terms and box offsets of the cell at offset `cell`, per axis, and its
/// packed offset.
struct CellLanes<'s> {
    terms: [&'s [u32; CHUNK]; 3],
    base: [&'s [f32; CHUNK]; 3],
}

impl<'s> CellLanes<'s> {
    #[inline(always)]
    fn new(
        terms: &'s [[[u32; CHUNK]; SPAN]; 3],
        base: &'s [[[f32; CHUNK]; SPAN]; 3],
        cell: [i32; 3],
    ) -> Self {
        let k = cell.map(|d| (d + MAX_RING) as usize);
        Self {
            terms: [0, 1, 2].map(|axis| &terms[axis][k[axis]]),
            base: [0, 1, 2].map(|axis| &base[axis][k[axis]]),
        }
    }

    /// The offset of the cell's feature point from sample `l`, and the cell's hash.
    #[inline(always)]
    fn feature<const VOLUME: bool>(&self, spread: &[f32; CHUNK], l: usize) -> ([f32; 3], u32) {
        let mut h = self.terms[0][l] ^ self.terms[1][l];
        if VOLUME {
            h ^= self.terms[2][l];
        }
        let h = mix(h);
        let unit = feature_steps(h, VOLUME);
        let j = spread[l];
        let z = if VOLUME {
            self.base[2][l] + j * unit[2]
        } else {
            0.0
        };
        (
            [
                self.base[0][l] + j * unit[0],
                self.base[1][l] + j * unit[1],
                z,
            ],
            h,
        )
    }
}

/// Most extra cell columns a shared block spans: with two, its 5×3 cells still fit in one
/// chunk's lanes.
const MAX_SPAN: usize = 2;

/// How many cell columns past the leftmost the samples of the chunk (and the lanes past
/// them) reach, and the leftmost's cell index, when they lie in one row of cells (and in
/// 3D one layer), at most `widest` columns apart, with the same period and jitter: then
/// they all see one block of (span + 3) × 3 (× 3) cells, whose feature points are worked
/// out once.
#[inline(always)]
fn shared_span(
    search: &Search,
    m: usize,
    tile: bool,
    widest: usize,
    volume: bool,
) -> Option<(usize, i32)> {
    // Every lane against the last one wanted: a lane the optimizer cannot name, so it
    // compares whole vectors (knowing that a lane matches itself, it would compare the
    // others in pieces, which stall on the store of the whole vector just written).
    let last = m.saturating_sub(1).min(CHUNK - 1);
    let uniform = |v: &[f32; CHUNK]| {
        let want = v[last].to_bits();
        let mut differ = false;
        for x in v {
            differ |= x.to_bits() != want;
        }
        !differ
    };
    let shared = uniform(&search.floor[1])
        && (!volume || uniform(&search.floor[2]))
        && uniform(&search.spread)
        && (!tile || uniform(&search.period));
    if !shared {
        return None;
    }
    // Integer cell indices (whole floors within ±2³⁰): their minimum and maximum
    // vectorize, where float ones must mind NaN lane by lane.
    let columns = &search.index[0];
    let (mut low, mut high) = (columns[0], columns[0]);
    for &c in columns {
        low = low.min(c);
        high = high.max(c);
    }
    let span = high.wrapping_sub(low) as u32;
    (span as usize <= widest).then_some((span as usize, low))
}

/// Offsets along x and y of the cells of a block `span` + 3 cells wide and 3 high, one
/// cell per lane, x counted from the leftmost sample's cell (lanes past the block repeat
/// its last cell).
const fn block(span: usize) -> [[i32; CHUNK]; 2] {
    let width = span + 3;
    let mut block = [[0; CHUNK]; 2];
    let mut c = 0;
    while c < CHUNK {
        let cell = if c < 3 * width { c } else { 3 * width - 1 };
        block[0][c] = (cell % width) as i32 - 1;
        block[1][c] = (cell / width) as i32 - 1;
        c += 1;
    }
    block
}

/// The blocks of every span.
const BLOCKS: [[[i32; CHUNK]; 2]; MAX_SPAN + 1] = [block(0), block(1), block(2)];

/// Cells of the widest 3D block, (2 + 3) × 3 × 3, rounded up to whole chunks.
const BLOCK3_CELLS: usize = 48;

/// Offsets along x, y and z of the cells of a 3D block `span` + 3 cells wide, 3 high and
/// 3 deep, as [`block`] lays out the 2D one, layer after layer.
const fn block3(span: usize) -> [[i32; BLOCK3_CELLS]; 3] {
    let width = span + 3;
    let mut block = [[0; BLOCK3_CELLS]; 3];
    let mut c = 0;
    while c < BLOCK3_CELLS {
        let cell = if c < 9 * width { c } else { 9 * width - 1 };
        block[0][c] = (cell % width) as i32 - 1;
        block[1][c] = (cell / width % 3) as i32 - 1;
        block[2][c] = (cell / (3 * width)) as i32 - 1;
        c += 1;
    }
    block
}

/// The 3D blocks of every span.
const BLOCKS3: [[[i32; BLOCK3_CELLS]; 3]; MAX_SPAN + 1] = [block3(0), block3(1), block3(2)];

/// Folds the block of 2D cells that all samples share ([`shared_span`]) into the nearest
/// and second nearest distances: each cell's hash and jittered position once, then per
/// sample only the offset from the sample's own box corner, as [`CellLanes::feature`]
/// computes it.
#[inline(always)]
fn visit_shared_block<const METRIC: u8, const SECOND: bool, const SPAN: usize>(
    search: &mut Search,
    p: Cellular,
    left: i32,
) {
    let block = &BLOCKS[SPAN];
    let cells = 3 * (SPAN + 3);
    // The leftmost sample's cell, which the block's x offsets count from (a whole number
    // within ±2³⁰, so its floor converts exactly).
    let left_floor = left as f32;
    // The cells' hashes side by side, with the terms `Search::fill` computes.
    let mut hash = [p.seed.wrapping_mul(SEED_KEY); CHUNK];
    let period = p.tile.then_some(search.period[0]);
    for (axis, floor, index) in [
        (0, left_floor, left),
        (1, search.floor[1][0], search.index[1][0]),
    ] {
        for c in 0..CHUNK {
            let i = neighbour(floor, index, block[axis][c], period);
            hash[c] ^= (i as u32).wrapping_mul(AXIS_KEYS[axis]);
        }
    }
    for d in -1..=1 {
        search.fill_base(1, d);
    }
    // Each sample's box offset along x for each column of the block: the column lies
    // d = column − (the sample's cell − the leftmost) cells from the sample's own, a
    // whole number, so this is `box_offset(d, ..)` to the bit.
    let mut column_base = [[0.0f32; CHUNK]; MAX_SPAN + 3];
    for (column, base) in column_base.iter_mut().enumerate().take(SPAN + 3) {
        for l in 0..CHUNK {
            let d = (column as f32 - 1.0) - (search.floor[0][l] - left_floor);
            base[l] = d + (0.5 - 0.5 * search.jitter[l]) - search.frac[0][l];
        }
    }
    let spread = search.spread[0];
    let mut jittered = [[0.0f32; CHUNK]; 2];
    for c in 0..CHUNK {
        let [x, y, _] = feature_steps(mix(hash[c]), false);
        jittered[0][c] = spread * x;
        jittered[1][c] = spread * y;
    }
    // Local copies, so the folds stay in registers instead of a chain of stores and
    // reloads through the search state.
    let (mut f1s, mut f2s) = (search.f1, search.f2);
    for c in 0..cells {
        let bx = &column_base[(block[0][c] + 1) as usize];
        let by = &search.base[1][(block[1][c] + MAX_RING) as usize];
        let (jx, jy) = (jittered[0][c], jittered[1][c]);
        for l in 0..CHUNK {
            let (x, y) = (bx[l] + jx, by[l] + jy);
            // The 3D terms are 0 (offsets are finite: positions are clamped), so leaving
            // them out changes no bit.
            let d = match METRIC {
                EUCLIDEAN => x * x + y * y,
                MANHATTAN => x.abs() + y.abs(),
                _ => x.abs().max(y.abs()),
            };
            // Neither distance is ever NaN, so compares give min's results in one
            // instruction (the search state's copies below need min: there a compare
            // would become a masked store, which later loads cannot forward from).
            let nearest = f1s[l];
            if SECOND {
                let other = if d > nearest { d } else { nearest };
                f2s[l] = if other < f2s[l] { other } else { f2s[l] };
            }
            f1s[l] = if d < nearest { d } else { nearest };
        }
    }
    (search.f1, search.f2) = (f1s, f2s);
}

/// [`visit_shared_block`] in 3D: the block's cells in one layer after another, each
/// cell's hash and jittered position once, then per sample the offset from the sample's
/// own box corner, as [`CellLanes::feature`] computes it.
#[inline(always)]
fn visit_shared_block3<const METRIC: u8, const SECOND: bool, const SPAN: usize>(
    search: &mut Search,
    p: Cellular,
    left: i32,
) {
    let block = &BLOCKS3[SPAN];
    let cells = 9 * (SPAN + 3);
    let left_floor = left as f32;
    // The cells' hashes side by side, with the terms `Search::fill` computes (z never
    // wraps).
    let mut hash = [p.seed.wrapping_mul(SEED_KEY); BLOCK3_CELLS];
    let period = p.tile.then_some(search.period[0]);
    for (axis, floor, index, period) in [
        (0, left_floor, left, period),
        (1, search.floor[1][0], search.index[1][0], period),
        (2, search.floor[2][0], search.index[2][0], None),
    ] {
        for c in 0..BLOCK3_CELLS {
            let i = neighbour(floor, index, block[axis][c], period);
            hash[c] ^= (i as u32).wrapping_mul(AXIS_KEYS[axis]);
        }
    }
    for d in -1..=1 {
        search.fill_base(1, d);
        search.fill_base(2, d);
    }
    // As in 2D: each sample's box offset along x for each column of the block.
    let mut column_base = [[0.0f32; CHUNK]; MAX_SPAN + 3];
    for (column, base) in column_base.iter_mut().enumerate().take(SPAN + 3) {
        for l in 0..CHUNK {
            let d = (column as f32 - 1.0) - (search.floor[0][l] - left_floor);
            base[l] = d + (0.5 - 0.5 * search.jitter[l]) - search.frac[0][l];
        }
    }
    let spread = search.spread[0];
    let mut jittered = [[0.0f32; BLOCK3_CELLS]; 3];
    for c in 0..BLOCK3_CELLS {
        let unit = feature_steps(mix(hash[c]), true);
        for axis in 0..3 {
            jittered[axis][c] = spread * unit[axis];
        }
    }
    let (mut f1s, mut f2s) = (search.f1, search.f2);
    for c in 0..cells {
        let bx = &column_base[(block[0][c] + 1) as usize];
        let by = &search.base[1][(block[1][c] + MAX_RING) as usize];
        let bz = &search.base[2][(block[2][c] + MAX_RING) as usize];
        let (jx, jy, jz) = (jittered[0][c], jittered[1][c], jittered[2][c]);
        for l in 0..CHUNK {
            let (x, y, z) = (bx[l] + jx, by[l] + jy, bz[l] + jz);
            let d = match METRIC {
                EUCLIDEAN => x * x + y * y + z * z,
                MANHATTAN => x.abs() + y.abs() + z.abs(),
                _ => x.abs().max(y.abs()).max(z.abs()),
            };
            // As in 2D: compares for min, neither distance being NaN.
            let nearest = f1s[l];
            if SECOND {
                let other = if d > nearest { d } else { nearest };
                f2s[l] = if other < f2s[l] { other } else { f2s[l] };
            }
            f1s[l] = if d < nearest { d } else { nearest };
        }
    }
    (search.f1, search.f2) = (f1s, f2s);
}

/// Folds the cell at offset `cell` into the nearest and second nearest distances.
#[inline(always)]
fn visit_nearest<const METRIC: u8, const VOLUME: bool, const NEAREST: bool, const SECOND: bool>(
    search: &mut Search,
    cell: [i32; 3],
) {
    let code = pack(cell);
    let spread = &search.spread;
    let lanes = CellLanes::new(&search.terms, &search.base, cell);
    let (f1s, f2s) = (&mut search.f1, &mut search.f2);
    let (near, near_cell, near_hash) = (
        &mut search.near,
        &mut search.near_cell,
        &mut search.near_hash,
    );
    for l in 0..CHUNK {
        let ([x, y, z], h) = lanes.feature::<VOLUME>(spread, l);
        let d = match METRIC {
            EUCLIDEAN => x * x + y * y + z * z,
            MANHATTAN => x.abs() + y.abs() + z.abs(),
            _ => x.abs().max(y.abs()).max(z.abs()),
        };
        let f1 = f1s[l];
        if NEAREST {
            let closer = d < f1;
            near_hash[l] = if closer { h } else { near_hash[l] };
            near_cell[l] = if closer { code } else { near_cell[l] };
            for (axis, v) in [x, y, z].into_iter().enumerate() {
                near[axis][l] = if closer { v } else { near[axis][l] };
            }
        }
        // Unconditional stores of min/max: a select written back to where its operand was
        // read becomes a masked store, which later loads cannot forward from.
        if SECOND {
            f2s[l] = f2s[l].min(f1.max(d));
        }
        f1s[l] = f1.min(d);
    }
}

/// Folds the cell at offset `cell` into the distance to the nearest cell border: the
/// distance from the sample to the plane halfway between the nearest feature point and
/// this cell's, measured as (a + b)/2 · (b − a)/|b − a| (Quílez), which stays accurate
/// when the two points nearly meet.
#[inline(always)]
fn visit_border<const VOLUME: bool>(search: &Search, cell: [i32; 3], edge: &mut [f32; CHUNK]) {
    let code = pack(cell);
    let lanes = CellLanes::new(&search.terms, &search.base, cell);
    for (l, e) in edge.iter_mut().enumerate() {
        let (b, _) = lanes.feature::<VOLUME>(&search.spread, l);
        let a = [search.near[0][l], search.near[1][l], search.near[2][l]];
        let n = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let mid = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let along = 0.5 * (mid[0] * n[0] + mid[1] * n[1] + mid[2] * n[2]);
        let own = code == search.near_cell[l] || len == 0.0;
        let d = if own { f32::INFINITY } else { along / len };
        *e = e.min(d);
    }
}
