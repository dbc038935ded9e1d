//! [`Op::Instances`](crate::program::Op::Instances): a tile sampler's built-in shapes,
//! drawn from its instance plane.
//!
//! Samples are taken a block at a time. The cells the block's samples look at are listed
//! once, and an instance whose bounding box misses every sample of the block is skipped
//! whole, so a sample pays for the instances that can cover it, however many the grid
//! holds. A sample meets instances in the order it would alone (line by line, then along
//! the line), and a skipped instance would have given it nothing, so the result does not
//! depend on how samples were grouped into blocks, tiles or threads.

use std::ops::Range;

use super::lanes::Arg;
use super::planes::PlaneView;
use crate::program::{InstanceBlend, InstanceGrid, InstanceShape, instance};
use texgraph_kernels::dispatch::multiversion;
use texgraph_kernels::fastmath::floor;

/// Values below this are not drawn: such an instance is never the one on top.
const VISIBLE: f32 = 1e-6;
/// Columns and rows of samples examined together.
const BLOCK: [usize; 2] = [16, 8];
const BLOCK_LEN: usize = BLOCK[0] * BLOCK[1];
/// Lines (or cells along a line) a block of a grid's samples may span before they are
/// taken one by one: warped coordinates can scatter a block over the whole grid.
const MAX_SPAN: i64 = 8;
/// Distance in cells from the origin beyond which nothing is drawn: f32 no longer tells
/// cells apart there.
const FAR: f32 = 8_388_608.0;
/// Outputs besides the combined value, for the instance on top: random, index, u, v,
/// red, green, blue.
const TOP: usize = 7;

/// A block's samples (in cells) and what they have gathered so far.
struct Block {
    px: [f32; BLOCK_LEN],
    py: [f32; BLOCK_LEN],
    out: [f32; BLOCK_LEN],
    /// The largest value so far (max and add).
    best: [f32; BLOCK_LEN],
    /// The index of the instance on top so far, −1 before any (painter).
    order: [f32; BLOCK_LEN],
    top: [[f32; BLOCK_LEN]; TOP],
}

/// One instance as the samples see it: the copy of the cell (line, along).
struct Seen {
    centre: [f32; 2],
    matrix: [f32; 4],
    weight: f32,
    /// random, index, red, green, blue.
    data: [f32; 5],
    line: f32,
    along: f32,
    /// Shift of its line, in cells along it.
    shift: f32,
}

impl Seen {
    /// The instance of `texel` (its plane's channels) centred at `centre` (the copy
    /// seen), numbered `index`, its cell's line, place along the line and the line's
    /// shift in `cell` (unused for instances placed anywhere).
    #[inline(always)]
    fn of(texel: &[f32], centre: [f32; 2], index: f32, cell: [f32; 3]) -> Seen {
        let (m, c) = (instance::MATRIX, instance::COLOR);
        Seen {
            centre,
            matrix: [texel[m], texel[m + 1], texel[m + 2], texel[m + 3]],
            weight: texel[instance::WEIGHT],
            data: [
                texel[instance::RANDOM],
                index,
                texel[c],
                texel[c + 1],
                texel[c + 2],
            ],
            line: cell[0],
            along: cell[1],
            shift: cell[2],
        }
    }
}

multiversion! {
    /// The instances of `grid` at each sample of `at` (texture units), from the instance
    /// `plane`, into eight slots (see [`Op::Instances`](crate::program::Op::Instances));
    /// the tile's rows are `cols` samples long.
    pub(super) fn instances_k(dst: &mut [&mut [f32]], plane: &PlaneView<'_>, grid: &InstanceGrid, at: [Arg<'_>; 2], cols: usize) {
        let n = dst[0].len();
        let rows = n / cols;
        let [x, y] = at;
        let mut block = Block {
            px: [0.0; BLOCK_LEN],
            py: [0.0; BLOCK_LEN],
            out: [0.0; BLOCK_LEN],
            best: [0.0; BLOCK_LEN],
            order: [0.0; BLOCK_LEN],
            top: [[0.0; BLOCK_LEN]; TOP],
        };
        // Samples in cells, or in texture units when instances are not tied to cells.
        let counts = if grid.anywhere {
            [1.0, 1.0]
        } else {
            [grid.columns as f32, grid.rows as f32]
        };
        for r0 in (0..rows).step_by(BLOCK[1]) {
            for c0 in (0..cols).step_by(BLOCK[0]) {
                let (w, h) = (BLOCK[0].min(cols - c0), BLOCK[1].min(rows - r0));
                for r in 0..h {
                    let first = (r0 + r) * cols + c0;
                    for (axis, (coord, count)) in [(x, counts[0]), (y, counts[1])].into_iter().enumerate() {
                        let to = if axis == 0 { &mut block.px } else { &mut block.py };
                        let to = &mut to[r * w..(r + 1) * w];
                        match coord {
                            Arg::S(values) => {
                                for (t, v) in to.iter_mut().zip(&values[first..first + w]) {
                                    *t = v * count;
                                }
                            }
                            Arg::C(v) => to.fill(v * count),
                        }
                    }
                }
                draw_block(&mut block, w * h, plane, grid);
                for r in 0..h {
                    let first = (r0 + r) * cols + c0;
                    let from = r * w..(r + 1) * w;
                    dst[0][first..first + w].copy_from_slice(&block.out[from.clone()]);
                    for (d, top) in dst[1..].iter_mut().zip(&block.top) {
                        d[first..first + w].copy_from_slice(&top[from.clone()]);
                    }
                }
            }
        }
    }
}

/// The first `len` samples of `b`, afresh: together when they lie close enough, else
/// each half on its own, down to single samples. A block as wide as [`MAX_SPAN`] cells
/// or more (a grid of as many instances as the render has pixels) is taken a row or
/// half a row at a time, and a scattered block (warped input) sample by sample. A loop
/// over a stack rather than recursion, so that it inlines into each instruction set's
/// kernel.
#[inline(always)]
fn draw_block(b: &mut Block, len: usize, plane: &PlaneView<'_>, grid: &InstanceGrid) {
    b.out[..len].fill(0.0);
    b.best[..len].fill(0.0);
    b.order[..len].fill(-1.0);
    for top in &mut b.top {
        top[..len].fill(0.0);
    }
    // Halving 128 samples down to one leaves at most one pending half per level.
    let mut pending = [(0, 0); 16];
    pending[0] = (0, len);
    let mut count = 1;
    while count > 0 {
        count -= 1;
        let (start, end) = pending[count];
        // A sample out of reach of every cell keeps nothing.
        let bounds = Bounds::of(&b.px[start..end], &b.py[start..end]);
        match bounds {
            Some(bounds) if bounds.fits(grid) => {
                if grid.anywhere {
                    visit_all(b, start..end, bounds, plane, grid);
                } else {
                    visit(b, start..end, bounds, plane, grid);
                }
            }
            _ if end - start > 1 => {
                let middle = start + (end - start) / 2;
                pending[count] = (middle, end);
                pending[count + 1] = (start, middle);
                count += 2;
            }
            _ => {}
        }
    }
}

/// The smallest and largest coordinates of some samples, in cells.
#[derive(Clone, Copy)]
struct Bounds {
    low: [f32; 2],
    high: [f32; 2],
}

impl Bounds {
    /// `None` when a coordinate is not finite or too far.
    #[inline(always)]
    fn of(xs: &[f32], ys: &[f32]) -> Option<Bounds> {
        let mut low = [f32::INFINITY; 2];
        let mut high = [f32::NEG_INFINITY; 2];
        let mut near = true;
        for (axis, values) in [xs, ys].into_iter().enumerate() {
            for &v in values {
                // NaN is not near; plain comparisons keep the loop vectorized.
                near &= v.abs() < FAR;
                low[axis] = if v < low[axis] { v } else { low[axis] };
                high[axis] = if v > high[axis] { v } else { high[axis] };
            }
        }
        near.then_some(Bounds { low, high })
    }

    /// Whether the samples lie close enough together to be taken as one block: within
    /// [`MAX_SPAN`] cells, or a sixteenth of the texture for instances placed anywhere.
    #[inline(always)]
    fn fits(&self, grid: &InstanceGrid) -> bool {
        (0..2).all(|a| {
            if grid.anywhere {
                self.high[a] - self.low[a] <= 1.0 / 16.0
            } else {
                floor(self.high[a]) as i64 - floor(self.low[a]) as i64 <= MAX_SPAN
            }
        })
    }
}

/// [`visit`] for instances placed anywhere: every instance in turn, row by row of the
/// plane, skipped when its box (its nearest copy's, when tileable) misses the samples.
#[inline(always)]
fn visit_all(
    b: &mut Block,
    range: Range<usize>,
    bounds: Bounds,
    plane: &PlaneView<'_>,
    grid: &InstanceGrid,
) {
    let count = grid.columns as f32 * grid.rows as f32;
    for row in 0..grid.rows {
        for column in 0..grid.columns {
            let texel = plane.texel_in(column as usize, row as usize);
            let weight = texel[instance::WEIGHT];
            if weight == 0.0 {
                continue;
            }
            let centre = [texel[instance::CENTRE_X], texel[instance::CENTRE_Y]];
            let meets = (0..2).all(|a| {
                let half = 0.5 * (bounds.high[a] - bounds.low[a]);
                let mut apart = 0.5 * (bounds.high[a] + bounds.low[a]) - centre[a];
                if grid.tileable {
                    apart -= apart.round();
                }
                let margin = 1e-3;
                apart.abs() <= half + texel[instance::EXTENT + a] + margin
            });
            if !meets {
                continue;
            }
            let index = (row as f32 * grid.columns as f32 + column as f32) * (1.0 / count);
            let seen = Seen::of(texel, centre, index, [0.0; 3]);
            draw_shape(b, range.clone(), &seen, grid);
        }
    }
}

/// Draws, over samples `range`, every instance a sample of theirs may see whose box
/// meets their bounds, in the order a sample meets them.
#[inline(always)]
fn visit(
    b: &mut Block,
    range: Range<usize>,
    bounds: Bounds,
    plane: &PlaneView<'_>,
    grid: &InstanceGrid,
) {
    // The shifted axis moves every other line of cells: lines first, then cells along.
    let (line_axis, along_axis) = if grid.offset_columns { (0, 1) } else { (1, 0) };
    let counts = [i64::from(grid.columns), i64::from(grid.rows)];
    let reach = grid.reach.map(i64::from);
    let offset = f32::from_bits(grid.offset);
    let cell = |v: f32| floor(v) as i64;
    let per_instance = 1.0 / (grid.columns as f32 * grid.rows as f32);
    let first_line = cell(bounds.low[line_axis]) - reach[line_axis];
    let last_line = cell(bounds.high[line_axis]) + reach[line_axis];
    for line in first_line..=last_line {
        if !grid.tileable && !(0..counts[line_axis]).contains(&line) {
            continue;
        }
        let own_line = line.rem_euclid(counts[line_axis]);
        let shift = if own_line & 1 == 1 { offset } else { 0.0 };
        let mut first = cell(bounds.low[along_axis] - shift) - reach[along_axis];
        let mut last = cell(bounds.high[along_axis] - shift) + reach[along_axis];
        if !grid.tileable {
            first = first.max(0);
            last = last.min(counts[along_axis] - 1);
        }
        // The grid's own cell, stepped along with `along` rather than divided each time.
        let mut own_along = first.rem_euclid(counts[along_axis]);
        for along in first..=last {
            let mut own = [0; 2];
            let mut copy = [0; 2];
            (own[line_axis], own[along_axis]) = (own_line, own_along);
            (copy[line_axis], copy[along_axis]) = (line, along);
            own_along = if own_along + 1 == counts[along_axis] {
                0
            } else {
                own_along + 1
            };
            let texel = plane.texel_in(own[0] as usize, own[1] as usize);
            let weight = texel[instance::WEIGHT];
            if weight == 0.0 {
                continue;
            }
            // The copy `copy − own` cells (whole periods) from the grid's own.
            let centre = [0, 1].map(|a| texel[instance::CENTRE_X + a] + (copy[a] - own[a]) as f32);
            let meets = (0..2).all(|a| {
                let extent = texel[instance::EXTENT + a];
                // A margin far above the rounding of the sample's place in the square.
                let margin = 1e-3 + 1e-6 * centre[a].abs();
                centre[a] - extent - margin <= bounds.high[a]
                    && centre[a] + extent + margin >= bounds.low[a]
            });
            if !meets {
                continue;
            }
            let index = (own[1] as f32 * grid.columns as f32 + own[0] as f32) * per_instance;
            let seen = Seen::of(texel, centre, index, [line as f32, along as f32, shift]);
            draw_shape(b, range.clone(), &seen, grid);
        }
    }
}

/// [`splat`] of the grid's shape and blend, each its own loop.
#[inline(always)]
fn draw_shape(b: &mut Block, range: Range<usize>, seen: &Seen, grid: &InstanceGrid) {
    macro_rules! with_blend {
        ($shape:expr) => {
            match grid.blend {
                InstanceBlend::Max => splat::<0>(b, range, seen, grid, $shape),
                InstanceBlend::Add => splat::<1>(b, range, seen, grid, $shape),
                InstanceBlend::Painter => splat::<2>(b, range, seen, grid, $shape),
            }
        };
    }
    match grid.shape {
        InstanceShape::Square => with_blend!(|_, _| 1.0),
        InstanceShape::Disc => with_blend!(|u, v| InstanceShape::Disc.at(u, v)),
        InstanceShape::Paraboloid => with_blend!(|u, v| InstanceShape::Paraboloid.at(u, v)),
        InstanceShape::Bell => with_blend!(|u, v| InstanceShape::Bell.at(u, v)),
        InstanceShape::Gaussian => with_blend!(|u, v| InstanceShape::Gaussian.at(u, v)),
        InstanceShape::Pyramid => with_blend!(|u, v| InstanceShape::Pyramid.at(u, v)),
        InstanceShape::Cone => with_blend!(|u, v| InstanceShape::Cone.at(u, v)),
        InstanceShape::Hemisphere => with_blend!(|u, v| InstanceShape::Hemisphere.at(u, v)),
        InstanceShape::Brick => with_blend!(|u, v| InstanceShape::Brick.at(u, v)),
        InstanceShape::Thorn => with_blend!(|u, v| InstanceShape::Thorn.at(u, v)),
        InstanceShape::Gradation => with_blend!(|u, _| u),
    }
}

/// One instance over samples `range`, combined by blend `BLEND` (0 max, 1 add, 2
/// painter). Branch-free, so the loop is vectorized.
#[inline(always)]
fn splat<const BLEND: u8>(
    b: &mut Block,
    range: Range<usize>,
    seen: &Seen,
    grid: &InstanceGrid,
    shape: impl Fn(f32, f32) -> f32,
) {
    let reach = grid.reach.map(|r| r as f32);
    let (line_reach, along_reach) = if grid.offset_columns {
        (reach[0], reach[1])
    } else {
        (reach[1], reach[0])
    };
    let [m00, m01, m10, m11] = seen.matrix;
    for k in range {
        let (px, py) = (b.px[k], b.py[k]);
        let (line, along) = if grid.offset_columns {
            (px, py)
        } else {
            (py, px)
        };
        // Only the cells within reach of the sample's own draw there.
        let near = grid.anywhere
            || ((seen.line - floor(line)).abs() <= line_reach
                && (seen.along - floor(along - seen.shift)).abs() <= along_reach);
        let (mut dx, mut dy) = (px - seen.centre[0], py - seen.centre[1]);
        if grid.anywhere && grid.tileable {
            // The nearest copy.
            dx -= dx.round();
            dy -= dy.round();
        }
        let u = m00 * dx + (m01 * dy + 0.5);
        let v = m10 * dx + (m11 * dy + 0.5);
        let inside = near && (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v);
        let value = if inside {
            shape(u, v) * seen.weight
        } else {
            0.0
        };
        let visible = value >= VISIBLE;
        let wins = visible
            && if BLEND == 2 {
                seen.data[1] >= b.order[k]
            } else {
                value >= b.best[k]
            };
        let mine = [
            seen.data[0],
            seen.data[1],
            u,
            v,
            seen.data[2],
            seen.data[3],
            seen.data[4],
        ];
        for (top, new) in b.top.iter_mut().zip(mine) {
            top[k] = if wins { new } else { top[k] };
        }
        match BLEND {
            0 => {
                b.best[k] = b.best[k].max(value);
                b.out[k] = b.best[k];
            }
            1 => {
                b.best[k] = b.best[k].max(value);
                b.out[k] += value;
            }
            _ => {
                b.order[k] = if wins { seen.data[1] } else { b.order[k] };
                b.out[k] = if wins { value } else { b.out[k] };
            }
        }
    }
}
