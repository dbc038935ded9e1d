//! A grid of values with a border of one cell on every side, so that a step reads a
//! cell's eight neighbours without testing for the edge: the border is filled before
//! each pass, by wrapping (tileable graphs) or by a rule for what lies beyond the edge.

/// What the border holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Edge {
    /// The opposite edge's cells: the grid repeats.
    Wrap,
    /// The edge cell's own value: nothing flows across.
    Clamp,
    /// The slope continued outward (2·edge − inner): ground beyond the edge falls away
    /// as the edge does, so water leaves where it runs to the edge.
    Extend,
    /// Zero: nothing comes in from beyond.
    Zero,
}

/// A `w` × `h` grid stored (w + 2) × (h + 2), the inner cell (x, y) at
/// (y + 1)·(w + 2) + x + 1. The default is a grid of no cells, before a simulation starts.
#[derive(Default)]
pub(super) struct Field {
    pub w: usize,
    pub h: usize,
    pub data: Vec<f32>,
}

impl Field {
    /// A grid of zeros; `None` when the memory cannot be had.
    pub fn zeros(w: usize, h: usize) -> Option<Field> {
        let len = (w + 2).checked_mul(h + 2)?;
        let mut data = Vec::new();
        data.try_reserve_exact(len).ok()?;
        data.resize(len, 0.0);
        Some(Field { w, h, data })
    }

    /// A grid holding `values` (w × h, rows top to bottom).
    pub fn from_values(w: usize, h: usize, values: &[f32]) -> Option<Field> {
        let mut field = Field::zeros(w, h)?;
        for (y, row) in values.chunks_exact(w).enumerate() {
            field.row_mut(y).copy_from_slice(row);
        }
        Some(field)
    }

    /// Columns of the stored rows.
    pub fn stride(&self) -> usize {
        self.w + 2
    }

    /// The inner rows, each with its border cell at either end, to write in parallel.
    pub fn rows_mut(&mut self) -> rayon::slice::ChunksMut<'_, f32> {
        use rayon::prelude::*;
        let (s, h) = (self.stride(), self.h);
        self.data[s..s * (h + 1)].par_chunks_mut(s)
    }

    /// Inner row `y`.
    pub fn row(&self, y: usize) -> &[f32] {
        let s = self.stride();
        &self.data[(y + 1) * s + 1..(y + 1) * s + 1 + self.w]
    }

    /// Inner row `y`, to write.
    pub fn row_mut(&mut self, y: usize) -> &mut [f32] {
        let s = self.stride();
        &mut self.data[(y + 1) * s + 1..(y + 1) * s + 1 + self.w]
    }

    /// The inner cells, rows top to bottom.
    pub fn values(&self) -> impl Iterator<Item = f32> + '_ {
        (0..self.h).flat_map(move |y| self.row(y).iter().copied())
    }

    /// The border's values: the top and bottom rows (corners included), then the left
    /// and right ends of the inner rows.
    pub fn border(&self) -> Vec<f32> {
        let (s, h) = (self.stride(), self.h);
        let mut ring = Vec::with_capacity(2 * s + 2 * h);
        ring.extend_from_slice(&self.data[..s]);
        ring.extend_from_slice(&self.data[(h + 1) * s..]);
        for y in 1..=h {
            ring.push(self.data[y * s]);
            ring.push(self.data[y * s + s - 1]);
        }
        ring
    }

    /// Sets the border to values [`Field::border`] gave.
    pub fn set_border(&mut self, ring: &[f32]) {
        let (s, h) = (self.stride(), self.h);
        self.data[..s].copy_from_slice(&ring[..s]);
        self.data[(h + 1) * s..].copy_from_slice(&ring[s..2 * s]);
        for (y, ends) in (1..=h).zip(ring[2 * s..].chunks_exact(2)) {
            self.data[y * s] = ends[0];
            self.data[y * s + s - 1] = ends[1];
        }
    }

    /// Fills the border by `edge`.
    pub fn fill_border(&mut self, edge: Edge) {
        let (w, h, s) = (self.w, self.h, self.stride());
        // Left and right columns of the inner rows.
        for y in 1..=h {
            let at = y * s;
            let (first, last) = (self.data[at + 1], self.data[at + w]);
            let (second, before_last) = if w > 1 {
                (self.data[at + 2], self.data[at + w - 1])
            } else {
                (first, last)
            };
            let (left, right) = match edge {
                Edge::Wrap => (last, first),
                Edge::Clamp => (first, last),
                Edge::Extend => (2.0 * first - second, 2.0 * last - before_last),
                Edge::Zero => (0.0, 0.0),
            };
            self.data[at] = left;
            self.data[at + w + 1] = right;
        }
        // Top and bottom rows, corners included (from the columns just filled).
        let (top, bottom) = (s, h * s);
        let (second, before_last) = if h > 1 {
            (2 * s, (h - 1) * s)
        } else {
            (top, bottom)
        };
        for x in 0..s {
            let (a, b) = match edge {
                Edge::Wrap => (self.data[bottom + x], self.data[top + x]),
                Edge::Clamp => (self.data[top + x], self.data[bottom + x]),
                Edge::Extend => (
                    2.0 * self.data[top + x] - self.data[second + x],
                    2.0 * self.data[bottom + x] - self.data[before_last + x],
                ),
                Edge::Zero => (0.0, 0.0),
            };
            self.data[x] = a;
            self.data[(h + 1) * s + x] = b;
        }
    }
}

/// Padded rows `y`, `y + 1` and `y + 2` of `data` (rows of `s` values): above, level
/// with and below inner row `y`.
pub(super) fn rows3(data: &[f32], y: usize, s: usize) -> [&[f32]; 3] {
    [
        &data[y * s..][..s],
        &data[(y + 1) * s..][..s],
        &data[(y + 2) * s..][..s],
    ]
}

/// The eight neighbours of inner cell `x` of a row, from the padded rows above (`a`),
/// level (`m`) and below (`b`), in the order of [`runs`].
#[inline(always)]
pub(super) fn neighbours(a: &[f32], m: &[f32], b: &[f32], x: usize) -> [f32; 8] {
    [
        m[x],
        m[x + 2],
        a[x + 1],
        b[x + 1],
        a[x],
        a[x + 2],
        b[x],
        b[x + 2],
    ]
}

/// The grids a simulation runs on, coarsest first, ending with the one it finishes on:
/// halving `w` × `h` (rounding up) while the larger side is above `base`. A grid smaller
/// than `base` is doubled instead until its larger side reaches `base`, and the second
/// value says how many times (the result is then box-filtered back down).
pub(super) fn levels(w: usize, h: usize, base: usize) -> (Vec<(usize, usize)>, u32) {
    let (mut w, mut h, mut doubled) = (w, h, 0);
    while w.max(h) < base {
        (w, h) = (w * 2, h * 2);
        doubled += 1;
    }
    let mut sizes = vec![(w, h)];
    while w.max(h) > base {
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
        sizes.push((w, h));
    }
    sizes.reverse();
    (sizes, doubled)
}

/// `values` (w × h) box-filtered to half size (rounding up): each coarse cell the mean of
/// the 2 × 2 fine cells it covers, the second row or column wrapped or clamped where the
/// fine grid is odd.
pub(super) fn halve(values: &[f32], w: usize, h: usize, wrap: bool) -> Option<Vec<f32>> {
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let next = |i: usize, len: usize| {
        if i + 1 < len {
            i + 1
        } else if wrap {
            0
        } else {
            i
        }
    };
    let mut out = Vec::new();
    out.try_reserve_exact(cw * ch).ok()?;
    for y in 0..ch {
        let (y0, y1) = (2 * y, next(2 * y, h));
        for x in 0..cw {
            let (x0, x1) = (2 * x, next(2 * x, w));
            let sum = (values[y0 * w + x0] + values[y0 * w + x1])
                + (values[y1 * w + x0] + values[y1 * w + x1]);
            out.push(sum * 0.25);
        }
    }
    Some(out)
}

/// `values` (cw × ch) read bilinearly at the centres of a w × h grid over the same
/// square: texel centres at (i + 0.5)/size, wrapped or clamped at the edges.
pub(super) fn resample(
    values: &[f32],
    cw: usize,
    ch: usize,
    w: usize,
    h: usize,
    wrap: bool,
) -> Option<Vec<f32>> {
    use super::super::planes::{axis, blend};
    let at = |t: f32, len: usize| {
        if wrap {
            axis::<true>(t, len)
        } else {
            axis::<false>(t, len)
        }
    };
    let columns: Vec<(usize, usize, f32)> = (0..w)
        .map(|x| at((x as f32 + 0.5) / w as f32, cw))
        .collect();
    let mut out = Vec::new();
    out.try_reserve_exact(w * h).ok()?;
    for y in 0..h {
        let (ya, yb, ty) = at((y as f32 + 0.5) / h as f32, ch);
        let (top, bottom) = (&values[ya * cw..][..cw], &values[yb * cw..][..cw]);
        for &(xa, xb, tx) in &columns {
            out.push(blend([top[xa], top[xb], bottom[xa], bottom[xb]], tx, ty));
        }
    }
    Some(out)
}

/// `values` (w × h) box-filtered by 2^times: the mean of each block.
pub(super) fn shrink(
    values: Vec<f32>,
    w: usize,
    h: usize,
    times: u32,
    wrap: bool,
) -> Option<Vec<f32>> {
    let (mut values, mut w, mut h) = (values, w, h);
    for _ in 0..times {
        values = halve(&values, w, h, wrap)?;
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
    }
    Some(values)
}
