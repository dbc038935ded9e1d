//! The flood-fill stage: labels the connected shapes of a mask (8-connected, and across
//! the image's edges in tileable graphs) and writes, at each texel, its shape's data.
//!
//! Each row is cut into runs of inside texels. A run joins the runs of the row above that
//! touch it, diagonals included, in a union-find whose root is always the smaller run: so
//! a shape's root is its first run in scan order, and its first texel (its *anchor*) names
//! it whatever the thread count or tile size. Shapes are numbered in the scan order of
//! their anchors.
//!
//! A shape's bounding box is its extent in columns and rows. A shape joined across the
//! left and right edges (or the top and bottom) lives on a torus: its box is the shortest
//! arc of columns (rows) holding all of its texels, found as the complement of the largest
//! gap between them, and a shape that leaves no gap spans the whole image from its first
//! column (row).
//!
//! The plane holds its seven channels one after another (each a whole image), not
//! interleaved: a companion reads only the channels it needs, so its pass over the image
//! moves four or eight bytes a texel instead of twenty-eight.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::planes::PlaneView;
use crate::image::Image;
use crate::program::{BoxMeasure, FLOOD_CHANNELS, FillRead};
use texgraph_kernels::shapes::hash01;

/// What a flood-fill plane holds at each texel of a shape, in order; background texels
/// hold zeros (a zero width marks them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// Centre of the bounding box, texture units (in [0, 1) when the image wraps).
    pub centre: [f32; 2],
    /// Width and height of the bounding box, texture units (a texel is 1/width across).
    pub size: [f32; 2],
    /// Column and row of the shape's first texel in scan order, whole numbers.
    pub anchor: [f32; 2],
    /// (number + 1) / shapes, with shapes numbered from 0 in the scan order of their
    /// anchors: in (0, 1], the last shape at 1.
    pub index: f32,
}

impl Shape {
    /// Texel `t` of a flood-fill plane's `data`, whose channels are `texels` samples each.
    pub fn at(data: &[f32], texels: usize, t: usize) -> Self {
        let s: [f32; FLOOD_CHANNELS] = std::array::from_fn(|ch| data[ch * texels + t]);
        Self {
            centre: [s[0], s[1]],
            size: [s[2], s[3]],
            anchor: [s[4], s[5]],
            index: s[6],
        }
    }

    /// Whether the texel is background.
    pub fn is_background(&self) -> bool {
        self.size[0] <= 0.0
    }

    fn samples(&self) -> [f32; FLOOD_CHANNELS] {
        let [cx, cy] = self.centre;
        let [w, h] = self.size;
        let [ax, ay] = self.anchor;
        [cx, cy, w, h, ax, ay, self.index]
    }
}

/// What `read` gives at (u, v) for the texel whose channel `ch` is `get(ch)` (`wrap`: the
/// image repeats). Only the channels `read` needs are fetched; background texels hold
/// zeros, so every read is 0 there.
#[inline(always)]
pub fn read(read: FillRead, get: impl Fn(usize) -> f32, u: f32, v: f32, wrap: bool) -> f32 {
    match read {
        FillRead::Index => get(6),
        FillRead::Centre { down } => get(down as usize),
        FillRead::Size(measure) => {
            let (w, h) = (get(2), get(3));
            match measure {
                BoxMeasure::Max => w.max(h),
                BoxMeasure::Width => w,
                BoxMeasure::Height => h,
                BoxMeasure::Area => w * h,
            }
        }
        FillRead::Inside => f32::from(u8::from(get(2) > 0.0)),
        FillRead::Random { .. } | FillRead::Gradient { .. } => {
            if get(2) > 0.0 {
                PerShape::of(read, get).at(u, v, wrap)
            } else {
                0.0
            }
        }
    }
}

/// What `read` gives along a run of `out.len()` texels of `view` (a flood-fill plane) from
/// texel `start`, the i-th at (u(i), v(i)): slices of the channels read, so the common
/// reads are copies and simple loops.
#[inline(always)]
pub fn read_run(
    view: &PlaneView<'_>,
    read_what: FillRead,
    start: usize,
    u: impl Fn(usize) -> f32,
    v: impl Fn(usize) -> f32,
    out: &mut [f32],
) {
    let n = out.len();
    let texels = view.width * view.height;
    let channel = |ch: usize| &view.data[ch * texels + start..ch * texels + start + n];
    match read_what {
        FillRead::Index => out.copy_from_slice(channel(6)),
        FillRead::Centre { down } => out.copy_from_slice(channel(down as usize)),
        FillRead::Size(measure) => {
            let (w, h) = (channel(2), channel(3));
            for ((o, &w), &h) in out.iter_mut().zip(w).zip(h) {
                *o = match measure {
                    BoxMeasure::Max => w.max(h),
                    BoxMeasure::Width => w,
                    BoxMeasure::Height => h,
                    BoxMeasure::Area => w * h,
                };
            }
        }
        FillRead::Inside => {
            for (o, &w) in out.iter_mut().zip(channel(2)) {
                *o = f32::from(u8::from(w > 0.0));
            }
        }
        FillRead::Random { .. } | FillRead::Gradient { .. } => {
            // Neighbours mostly share a shape: its constants are worked out once per run
            // of texels with the same anchor.
            let c: [&[f32]; 6] = std::array::from_fn(channel);
            let mut last: Option<([u32; 2], PerShape)> = None;
            for (i, o) in out.iter_mut().enumerate() {
                if c[2][i] <= 0.0 {
                    *o = 0.0;
                    continue;
                }
                let anchor = [c[4][i].to_bits(), c[5][i].to_bits()];
                let ramp = match last {
                    Some((a, ramp)) if a == anchor => ramp,
                    _ => {
                        let ramp = PerShape::of(read_what, |ch| c[ch][i]);
                        last = Some((anchor, ramp));
                        ramp
                    }
                };
                *o = ramp.at(u(i), v(i), view.wrap);
            }
        }
    }
}

/// A shape's constants for a random or gradient read.
#[derive(Clone, Copy)]
enum PerShape {
    /// The random number.
    Constant(f32),
    /// A gradient: the box's centre, and the direction scaled by 1 / extent.
    Linear { centre: [f32; 2], step: [f32; 2] },
}

impl PerShape {
    #[inline(always)]
    fn of(read: FillRead, get: impl Fn(usize) -> f32) -> Self {
        let random = |seed: u32| hash01(get(4) as i32, get(5) as i32, seed);
        match read {
            FillRead::Gradient {
                angle,
                variation,
                seed,
            } => {
                let (w, h) = (get(2), get(3));
                let turn = f32::from_bits(variation) * (random(seed) - 0.5) * 360.0;
                let (sin, cos) = (f32::from_bits(angle) + turn).to_radians().sin_cos();
                // Up the image is −v: the ramp rises towards (cos, −sin), across the box's
                // extent in that direction.
                let extent = w * cos.abs() + h * sin.abs();
                PerShape::Linear {
                    centre: [get(0), get(1)],
                    step: [cos / extent, -sin / extent],
                }
            }
            FillRead::Random { seed } => PerShape::Constant(random(seed)),
            _ => unreachable!("only randoms and gradients have ramps"),
        }
    }

    #[inline(always)]
    fn at(self, u: f32, v: f32, wrap: bool) -> f32 {
        match self {
            PerShape::Constant(value) => value,
            PerShape::Linear { centre, step } => {
                // From the box's centre, the nearer copy when the image repeats.
                let offset = |p: f32, c: f32| {
                    let d = p - c;
                    if wrap { d - d.round() } else { d }
                };
                let (dx, dy) = (offset(u, centre[0]), offset(v, centre[1]));
                (0.5 + dx * step[0] + dy * step[1]).clamp(0.0, 1.0)
            }
        }
    }
}

/// What `read` gives at (u, v) of `view`, a flood-fill plane: its texel under (u, v).
#[inline(always)]
pub fn read_at(view: &PlaneView<'_>, read_what: FillRead, u: f32, v: f32) -> f32 {
    let x = view.index((u * view.width as f32).floor() as i64, view.width);
    let y = view.index((v * view.height as f32).floor() as i64, view.height);
    let texels = view.width * view.height;
    let t = y * view.width + x;
    read(read_what, |ch| view.data[ch * texels + t], u, v, view.wrap)
}

/// Writes into `out` (of [`FLOOD_CHANNELS`] channels one after another, the size of `mask`)
/// each texel's shape data: a texel is inside when its value is above `threshold`. `None` when memory for the
/// labels cannot be had. Once `cancel` is raised the work stops early (the caller
/// discards the plane).
pub fn flood_fill(
    mask: &Image,
    threshold: f32,
    wrap: bool,
    cancel: Option<&AtomicBool>,
    out: &mut Image,
) -> Option<()> {
    let (w, h) = (mask.width as usize, mask.height as usize);
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let runs = Runs::of(mask, threshold)?;
    if cancelled() {
        return Some(());
    }
    let mut labels = Labels::join(&runs, w, wrap)?;
    let shapes = labels.shapes(&runs, w, h)?;
    if cancelled() {
        return Some(());
    }
    let records: Vec<[f32; FLOOD_CHANNELS]> = shapes.iter().map(Shape::samples).collect();
    for (ch, plane) in out.data.chunks_exact_mut(w * h).enumerate() {
        plane.par_chunks_mut(w).enumerate().for_each(|(y, row)| {
            if cancelled() {
                return;
            }
            row.fill(0.0);
            for r in runs.row(y) {
                let value = records[labels.shape_of_run[r] as usize][ch];
                let Run { x0, x1 } = runs.runs[r];
                row[x0 as usize..x1 as usize].fill(value);
            }
        });
    }
    Some(())
}

/// Columns `x0..x1` of a row, all inside.
#[derive(Debug, Clone, Copy)]
struct Run {
    x0: u32,
    x1: u32,
}

/// Every row's runs, in scan order.
struct Runs {
    runs: Vec<Run>,
    /// Index of each row's first run; one more entry than rows.
    row_start: Vec<u32>,
}

impl Runs {
    fn of(mask: &Image, threshold: f32) -> Option<Self> {
        let (w, h, c) = (mask.width as usize, mask.height as usize, mask.channels);
        let mut runs = Vec::new();
        let mut row_start = Vec::new();
        row_start.try_reserve_exact(h + 1).ok()?;
        for texels in mask.data.chunks_exact(w * c).take(h) {
            row_start.push(u32::try_from(runs.len()).ok()?);
            let mut start = None;
            for (x, t) in texels.chunks_exact(c).enumerate() {
                match (t[0] > threshold, start) {
                    (true, None) => start = Some(x as u32),
                    (false, Some(x0)) => {
                        runs.try_reserve(1).ok()?;
                        runs.push(Run { x0, x1: x as u32 });
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(x0) = start {
                runs.try_reserve(1).ok()?;
                runs.push(Run { x0, x1: w as u32 });
            }
        }
        row_start.push(u32::try_from(runs.len()).ok()?);
        Some(Self { runs, row_start })
    }

    /// The indices of row `y`'s runs.
    fn row(&self, y: usize) -> std::ops::Range<usize> {
        self.row_start[y] as usize..self.row_start[y + 1] as usize
    }

    fn rows(&self) -> usize {
        self.row_start.len() - 1
    }
}

/// Which edges a join crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Crossing {
    Columns,
    Rows,
}

/// The runs joined into shapes.
struct Labels {
    parent: Vec<u32>,
    /// Runs joined across the left and right edges, or the top and bottom.
    crossings: Vec<(u32, Crossing)>,
    /// Each run's shape number (after [`Labels::shapes`]).
    shape_of_run: Vec<u32>,
}

impl Labels {
    /// Joins every pair of touching runs.
    fn join(runs: &Runs, w: usize, wrap: bool) -> Option<Self> {
        let n = runs.runs.len();
        let mut parent = Vec::new();
        parent.try_reserve_exact(n).ok()?;
        parent.extend(0..n as u32);
        let mut labels = Self {
            parent,
            crossings: Vec::new(),
            shape_of_run: Vec::new(),
        };
        let h = runs.rows();
        for y in 0..h {
            let row = runs.row(y);
            if wrap && !row.is_empty() {
                // A row's last run touching its first across the vertical edges.
                let (first, last) = (row.start, row.end - 1);
                if runs.runs[first].x0 == 0 && runs.runs[last].x1 as usize == w {
                    labels.union(first, last);
                    labels.crossings.push((first as u32, Crossing::Columns));
                }
            }
            if y > 0 {
                labels.join_rows(runs, runs.row(y - 1), row, w, wrap, None);
            }
        }
        if wrap && h > 1 {
            // The last row touches the first across the horizontal edges.
            labels.join_rows(runs, runs.row(h - 1), runs.row(0), w, true, Some(()));
        }
        Some(labels)
    }

    /// Joins the runs of row `above` with those of the next row `below` that touch them,
    /// diagonals included (and across the vertical edges when wrapping). `across_rows`
    /// says the two rows meet across the top and bottom edges.
    fn join_rows(
        &mut self,
        runs: &Runs,
        above: std::ops::Range<usize>,
        below: std::ops::Range<usize>,
        w: usize,
        wrap: bool,
        across_rows: Option<()>,
    ) {
        let (mut i, mut j) = (above.start, below.start);
        while i < above.end && j < below.end {
            let (a, b) = (runs.runs[i], runs.runs[j]);
            if a.x0 <= b.x1 && b.x0 <= a.x1 {
                self.union(i, j);
                if across_rows.is_some() {
                    self.crossings.push((i as u32, Crossing::Rows));
                }
            }
            if a.x1 < b.x1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        if !wrap || above.is_empty() || below.is_empty() {
            return;
        }
        // Diagonal neighbours across the vertical edges.
        let corner = |l: usize, f: usize| runs.runs[l].x1 as usize == w && runs.runs[f].x0 == 0;
        for (last, first) in [(above.end - 1, below.start), (below.end - 1, above.start)] {
            if corner(last, first) {
                self.union(last, first);
                self.crossings.push((last as u32, Crossing::Columns));
                if across_rows.is_some() {
                    self.crossings.push((last as u32, Crossing::Rows));
                }
            }
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] as usize != i {
            // Path halving.
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    /// Joins two runs' shapes under the earlier root.
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.parent[rb] = ra as u32;
        } else {
            self.parent[ra] = rb as u32;
        }
    }

    /// Numbers the shapes in the scan order of their anchors and measures them.
    fn shapes(&mut self, runs: &Runs, w: usize, h: usize) -> Option<Vec<Shape>> {
        let n = runs.runs.len();
        self.shape_of_run.try_reserve_exact(n).ok()?;
        // Boxes as first and last column and row, linear.
        let mut boxes: Vec<([u32; 2], [u32; 2], [u32; 2])> = Vec::new();
        for y in 0..runs.rows() {
            for r in runs.row(y) {
                let root = self.find(r);
                let Run { x0, x1 } = runs.runs[r];
                let y = y as u32;
                if root == r {
                    self.shape_of_run.push(boxes.len() as u32);
                    boxes.try_reserve(1).ok()?;
                    boxes.push(([x0, y], [x0, x1 - 1], [y, y]));
                } else {
                    let s = self.shape_of_run[root];
                    self.shape_of_run.push(s);
                    let b = &mut boxes[s as usize];
                    b.1 = [b.1[0].min(x0), b.1[1].max(x1 - 1)];
                    b.2[1] = y;
                }
            }
        }
        // Shapes joined across an edge: their extent on the circle instead.
        let mut across = [Vec::new(), Vec::new()];
        for &(run, crossing) in &self.crossings {
            let s = self.shape_of_run[run as usize];
            across[(crossing == Crossing::Rows) as usize].push(s);
        }
        for list in &mut across {
            list.sort_unstable();
            list.dedup();
        }
        let columns = arcs(&across[0], w, |each| {
            for y in 0..runs.rows() {
                for r in runs.row(y) {
                    let Run { x0, x1 } = runs.runs[r];
                    each(self.shape_of_run[r], x0, x1);
                }
            }
        })?;
        let rows = arcs(&across[1], h, |each| {
            for y in 0..runs.rows() {
                for r in runs.row(y) {
                    each(self.shape_of_run[r], y as u32, y as u32 + 1);
                }
            }
        })?;
        let count = boxes.len();
        let mut shapes = Vec::new();
        shapes.try_reserve_exact(count).ok()?;
        let (wf, hf) = (w as f64, h as f64);
        for (s, (anchor, xs, ys)) in boxes.into_iter().enumerate() {
            let s32 = s as u32;
            let (left, width) = columns
                .get(&s32)
                .copied()
                .unwrap_or((xs[0], xs[1] - xs[0] + 1));
            let (top, height) = rows
                .get(&s32)
                .copied()
                .unwrap_or((ys[0], ys[1] - ys[0] + 1));
            let centre = |start: u32, len: u32, size: f64| {
                let c = (f64::from(start) + f64::from(len) / 2.0) / size;
                (c - c.floor()) as f32
            };
            shapes.push(Shape {
                centre: [centre(left, width, wf), centre(top, height, hf)],
                size: [
                    (f64::from(width) / wf) as f32,
                    (f64::from(height) / hf) as f32,
                ],
                anchor: [anchor[0] as f32, anchor[1] as f32],
                index: ((s + 1) as f64 / count as f64) as f32,
            });
        }
        Some(shapes)
    }
}

/// For each shape of `shapes` (sorted), the shortest arc (start, length) of a circle of
/// `len` positions that holds every interval `visit` reports for it: the complement of
/// the largest gap between them (the first such gap in order), or the whole circle from
/// the shape's first interval when there is none.
fn arcs(
    shapes: &[u32],
    len: usize,
    visit: impl FnOnce(&mut dyn FnMut(u32, u32, u32)),
) -> Option<std::collections::HashMap<u32, (u32, u32)>> {
    let mut found = std::collections::HashMap::new();
    if shapes.is_empty() {
        return Some(found);
    }
    let mut intervals: Vec<(u32, u32, u32)> = Vec::new();
    let mut failed = false;
    visit(&mut |s, start, end| {
        if shapes.binary_search(&s).is_ok() {
            if intervals.try_reserve(1).is_err() {
                failed = true;
                return;
            }
            intervals.push((s, start, end));
        }
    });
    if failed {
        return None;
    }
    intervals.sort_unstable();
    let len = len as u32;
    for group in intervals.chunk_by(|a, b| a.0 == b.0) {
        // Merge the shape's intervals, then find the largest gap between them, going
        // round the circle from the last back to the first.
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for &(_, start, end) in group {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let first = merged[0].0;
        let mut best = (
            merged[merged.len() - 1].1,
            len - merged[merged.len() - 1].1 + first,
        );
        for pair in merged.windows(2) {
            let gap = pair[1].0 - pair[0].1;
            if gap > best.1 {
                best = (pair[0].1, gap);
            }
        }
        let (gap_start, gap) = best;
        let arc = if gap == 0 {
            (first, len)
        } else {
            ((gap_start + gap) % len, len - gap)
        };
        found.insert(group[0].0, arc);
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random mask of `density` (out of 16) inside texels.
    fn mask(w: usize, h: usize, seed: u32, density: u32) -> Image {
        let data = (0..w * h)
            .map(|i| {
                let x =
                    (i as u32 ^ seed).wrapping_mul(0x9E37_79B9) ^ seed.wrapping_mul(0x85EB_CA6B);
                let x = (x ^ (x >> 15)).wrapping_mul(0x2C1B_3C6D);
                if (x >> 20) % 16 < density { 1.0 } else { 0.0 }
            })
            .collect();
        Image {
            width: w as u32,
            height: h as u32,
            channels: 1,
            data,
        }
    }

    fn run(mask: &Image, wrap: bool) -> Vec<Shape> {
        let mut out = Image {
            width: mask.width,
            height: mask.height,
            channels: FLOOD_CHANNELS,
            data: vec![f32::NAN; mask.data.len() * FLOOD_CHANNELS],
        };
        flood_fill(mask, 0.5, wrap, None, &mut out).unwrap();
        let texels = mask.data.len();
        (0..texels)
            .map(|t| Shape::at(&out.data, texels, t))
            .collect()
    }

    /// A plain breadth-first labelling: each texel's component number, or `None` outside.
    fn breadth_first(mask: &Image, wrap: bool) -> Vec<Option<usize>> {
        let (w, h) = (mask.width as i64, mask.height as i64);
        let inside = |x: i64, y: i64| mask.data[(y * w + x) as usize] > 0.5;
        let mut label = vec![None; (w * h) as usize];
        let mut next = 0;
        for start in 0..w * h {
            if label[start as usize].is_some() || !inside(start % w, start / w) {
                continue;
            }
            let mut queue = std::collections::VecDeque::from([start]);
            label[start as usize] = Some(next);
            while let Some(at) = queue.pop_front() {
                let (x, y) = (at % w, at / w);
                for (dx, dy) in [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ] {
                    let (mut nx, mut ny) = (x + dx, y + dy);
                    if wrap {
                        (nx, ny) = (nx.rem_euclid(w), ny.rem_euclid(h));
                    } else if !(0..w).contains(&nx) || !(0..h).contains(&ny) {
                        continue;
                    }
                    let n = (ny * w + nx) as usize;
                    if inside(nx, ny) && label[n].is_none() {
                        label[n] = Some(next);
                        queue.push_back(n as i64);
                    }
                }
            }
            next += 1;
        }
        label
    }

    #[test]
    fn shapes_are_the_breadth_first_components() {
        for (w, h) in [(1, 1), (2, 3), (7, 5), (33, 17), (64, 64)] {
            for density in [3, 8, 11, 15] {
                for seed in 0..4 {
                    for wrap in [false, true] {
                        let m = mask(w, h, seed * 31 + density, density);
                        let shapes = run(&m, wrap);
                        let bfs = breadth_first(&m, wrap);
                        let anchors: Vec<Option<[f32; 2]>> = shapes
                            .iter()
                            .map(|s| (!s.is_background()).then_some(s.anchor))
                            .collect();
                        // The same partition: texels share an anchor exactly when they
                        // share a breadth-first component; components are numbered in
                        // scan order of their first texel in both.
                        let count = bfs.iter().flatten().max().map_or(0, |m| m + 1);
                        for (i, (a, b)) in anchors.iter().zip(&bfs).enumerate() {
                            assert_eq!(a.is_some(), b.is_some(), "{w}x{h} texel {i}");
                            let Some(b) = b else { continue };
                            let first = bfs.iter().position(|l| *l == Some(*b)).unwrap();
                            let expected = [(first % w) as f32, (first / w) as f32];
                            assert_eq!(a.unwrap(), expected, "{w}x{h} wrap {wrap} texel {i}");
                            let index = ((b + 1) as f64 / count as f64) as f32;
                            assert_eq!(shapes[i].index, index);
                        }
                    }
                }
            }
        }
    }

    /// The shortest arc holding all of `positions` on a circle of `len`, by trying every
    /// start and length.
    fn brute_arc(positions: &[usize], len: usize) -> (usize, usize) {
        for length in 1..=len {
            for start in 0..len {
                if positions.iter().all(|&p| (p + len - start) % len < length) {
                    return (start, length);
                }
            }
        }
        unreachable!()
    }

    #[test]
    fn boxes_are_the_shortest_arcs_holding_each_shape() {
        for (w, h) in [(5, 4), (16, 9), (31, 31)] {
            for density in [6, 10, 13] {
                for seed in 0..6 {
                    for wrap in [false, true] {
                        let m = mask(w, h, seed * 7 + density, density);
                        let shapes = run(&m, wrap);
                        let bfs = breadth_first(&m, wrap);
                        for component in 0..=bfs.iter().flatten().copied().max().unwrap_or(0) {
                            let texels: Vec<usize> =
                                (0..w * h).filter(|&i| bfs[i] == Some(component)).collect();
                            let Some(&first) = texels.first() else {
                                continue;
                            };
                            let mut xs: Vec<usize> = texels.iter().map(|i| i % w).collect();
                            let mut ys: Vec<usize> = texels.iter().map(|i| i / w).collect();
                            xs.dedup();
                            ys.dedup();
                            let extent = |p: &[usize], len: usize| {
                                if wrap {
                                    brute_arc(p, len).1
                                } else {
                                    p.iter().max().unwrap() - p.iter().min().unwrap() + 1
                                }
                            };
                            let s = shapes[first];
                            assert_eq!(s.size[0], (extent(&xs, w) as f64 / w as f64) as f32);
                            assert_eq!(s.size[1], (extent(&ys, h) as f64 / h as f64) as f32);
                            for t in texels {
                                assert_eq!(shapes[t], s, "one shape, one record");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_shape_cut_by_the_edges_is_one_shape_when_wrapping() {
        // A square straddling all four corners of an 8×8 image.
        let mut m = mask(8, 8, 0, 0);
        for (x, y) in [(0, 0), (7, 0), (0, 7), (7, 7), (1, 0), (6, 7)] {
            m.data[y * 8 + x] = 1.0;
        }
        let wrapped = run(&m, true);
        assert_eq!(wrapped[0], wrapped[7 * 8 + 7]);
        // Columns 6, 7, 0, 1 and rows 7, 0: centred on the corner.
        assert_eq!(wrapped[0].size, [0.5, 0.25]);
        assert_eq!(wrapped[0].centre, [0.0, 0.0]);
        assert_eq!(wrapped[0].index, 1.0);
        let clamped = run(&m, false);
        assert_ne!(clamped[0], clamped[7 * 8 + 7]);
        assert_eq!(clamped[63].index, 1.0);
    }

    #[test]
    fn a_shape_round_the_whole_image_starts_at_its_first_column() {
        let mut m = mask(6, 4, 0, 0);
        for x in 0..6 {
            m.data[6 + x] = 1.0;
        }
        let s = run(&m, true)[6];
        assert_eq!(s.size, [1.0, 0.25]);
        assert_eq!(s.centre, [0.5, 0.375]);
    }
}
