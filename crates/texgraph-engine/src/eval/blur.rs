//! The blur stage: a Gaussian approximated by three box filters per axis (the central
//! limit theorem makes three boxes within a few percent of a Gaussian). Each box is a
//! running sum, so the cost per texel does not depend on the radius. Boxes have a
//! fractional radius (the outermost taps weighted by the fraction), so the blur changes
//! smoothly with the radius and matches at every resolution.
//!
//! Columns are filtered with the running sum going down the rows, many columns at once
//! (the inner loop runs along a row, so it vectorizes); rows are filtered the same way
//! after a transpose. A column's running sums start afresh at fixed rows of the plane
//! ([`Columns`]), so any row's value is the same bits whether the whole plane is blurred
//! at once or a band of rows alone, on any number of threads: that is what lets a
//! streamed render blur band by band.

use std::ops::Range;

use rayon::prelude::*;

use super::planes::PlaneView;
use crate::image::Image;
use texgraph_kernels::dispatch::multiversion;

/// A box of radius n + f: weight 1 out to n texels, f at n + 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxRadius {
    /// Whole texels.
    pub n: usize,
    /// Weight of the two outermost taps, in [0, 1).
    pub f: f32,
}

impl BoxRadius {
    /// The variance of the box, in texels².
    pub fn variance(self) -> f64 {
        let n = self.n as f64;
        let f = f64::from(self.f);
        let inner = n * (n + 1.0) * (2.0 * n + 1.0) / 3.0; // 2·Σ k² for k = 1..n
        (inner + 2.0 * f * (n + 1.0) * (n + 1.0)) / (2.0 * n + 1.0 + 2.0 * f)
    }

    /// The box whose variance is a third of sigma² (three of them make sigma).
    pub fn for_sigma(sigma: f64) -> BoxRadius {
        let target = sigma * sigma / 3.0;
        let mut n = 0;
        while (BoxRadius { n: n + 1, f: 0.0 }).variance() <= target {
            n += 1;
        }
        // The variance grows monotonically with f on [0, 1): bisect.
        let (mut lo, mut hi) = (0.0f32, 1.0f32);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if (BoxRadius { n, f: mid }).variance() < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        BoxRadius { n, f: lo }
    }
}

/// Blurs `input` with standard deviation `radius` texture units (× width across, ×
/// height down) into `out` (same size and channels). Reads beyond the edges wrap or
/// clamp. `None` when memory for the working buffers cannot be had.
pub fn blur(input: &Image, radius: f32, wrap: bool, out: &mut Image) -> Option<()> {
    let (w, h, c) = (input.width as usize, input.height as usize, input.channels);
    let source = PlaneView::whole(&input.data, w, h, c, wrap);
    blur_rows(&source, radius, 0..h, &mut out.data)
}

/// The rows `rows` (inside the plane) of `source` blurred as [`blur`] blurs it, into
/// `out` (those rows, same width and channels): the same bits as those rows of the whole
/// plane's blur. `source` may be a window holding only the rows
/// [`Columns::source_rows`] names. `None` when memory for the working buffers cannot be
/// had.
///
/// Both axes work on blocks that fit in the core's cache: the columns in strips (three
/// passes through two strip buffers, the last written out), the rows in bands transposed
/// into a buffer where the sums again run down its rows, then transposed back.
pub fn blur_rows(
    source: &PlaneView,
    radius: f32,
    rows: Range<usize>,
    out: &mut [f32],
) -> Option<()> {
    let (w, h, c) = (source.width, source.height, source.channels);
    let across = BoxRadius::for_sigma(f64::from(radius) * w as f64);
    let down = Columns::new(radius, h, source.wrap);
    columns(source, &down, rows, out)?;
    along_rows(out, w, c, across, source.wrap)
}

/// How the three boxes down the columns of a plane run: where each box's running sums
/// start afresh, and so which rows computing some rows of the result takes, of each box
/// and of the source.
///
/// Box `p` (1, 2, 3; 3 is the last) starts its sums at row 0 and at every row r with
/// (r + (3 − p)(n + 1)) mod `block` = 0. A row's value therefore depends only on the rows
/// since its box's last start, never on where a computation began. The starts are
/// staggered by a box's reach (n + 1 rows): the rows a block of the last box reads from
/// the middle box begin at one of the middle box's starts, and so on up, so a streamed
/// render that computes whole blocks ([`Columns::blocks`]) computes no box's row twice.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    radius: BoxRadius,
    height: i64,
    wrap: bool,
    block: i64,
}

impl Columns {
    /// The column boxes of a blur of `radius` texture units over a plane `height` rows
    /// high, wrapping or clamped at its edges.
    pub fn new(radius: f32, height: usize, wrap: bool) -> Self {
        let radius = BoxRadius::for_sigma(f64::from(radius) * height as f64);
        // A start adds a window of 2n + 1 rows: at most one row of adds per row.
        let block = (2 * radius.n as i64 + 1).max(64);
        Self {
            radius,
            height: height.max(1) as i64,
            wrap,
            block,
        }
    }

    /// The plane's row at row `v` counted on past its edges (wrapped or clamped).
    fn at(&self, v: i64) -> usize {
        if self.wrap {
            v.rem_euclid(self.height) as usize
        } else {
            v.clamp(0, self.height - 1) as usize
        }
    }

    fn stagger(&self, pass: i64) -> i64 {
        ((3 - pass) * (self.radius.n as i64 + 1)) % self.block
    }

    /// Whether box `pass` starts its sums at row `r` of the plane.
    fn starts_at(&self, pass: i64, r: i64) -> bool {
        r == 0 || (r + self.stagger(pass)) % self.block == 0
    }

    /// The last start of box `pass` at or before row `v` (counted on past the edges as
    /// `v` is).
    fn start_before(&self, pass: i64, v: i64) -> i64 {
        let a = self.at(v) as i64;
        let start = (a - (a + self.stagger(pass)) % self.block).max(0);
        v - (a - start)
    }

    /// Rows `lo..hi` inside the plane: clamped to it, or, wrapping, every row once when
    /// they go all round.
    fn fit(&self, (lo, hi): (i64, i64)) -> (i64, i64) {
        if !self.wrap {
            (lo.max(0), hi.min(self.height))
        } else if hi - lo >= self.height {
            (0, self.height)
        } else {
            (lo, hi)
        }
    }

    /// The rows box `pass` computes to give its reader the rows `need`: from a start.
    fn pass_rows(&self, pass: i64, need: (i64, i64)) -> (i64, i64) {
        let (lo, hi) = self.fit(need);
        self.fit((self.start_before(pass, lo), hi))
    }

    /// The rows a box computing `rows` reads of what it filters.
    fn reads(&self, (lo, hi): (i64, i64)) -> (i64, i64) {
        let reach = self.radius.n as i64 + 1;
        self.fit((lo - reach, hi + reach))
    }

    /// The rows of the first, middle and last box, and of the source, that computing the
    /// result's rows `rows` takes.
    fn passes(&self, rows: (i64, i64)) -> [(i64, i64); 4] {
        let third = self.pass_rows(3, rows);
        let second = self.pass_rows(2, self.reads(third));
        let first = self.pass_rows(1, self.reads(second));
        [first, second, third, self.reads(first)]
    }

    /// `need` widened to whole blocks of the last box: the rows a streamed render computes
    /// at once, so that each box's rows are computed once. Rows may start before 0 or end
    /// past the height when the plane wraps.
    pub fn blocks(&self, need: (i64, i64)) -> (i64, i64) {
        let (lo, hi) = self.fit(need);
        let lo = self.start_before(3, lo);
        let a = hi.rem_euclid(self.height);
        let hi = if (!self.wrap && hi >= self.height) || a % self.block == 0 {
            hi
        } else {
            hi + ((a / self.block + 1) * self.block).min(self.height) - a
        };
        self.fit((lo, hi))
    }

    /// The source's rows that computing the result's rows `rows` reads (before 0 or past
    /// the height when the plane wraps).
    pub fn source_rows(&self, rows: (i64, i64)) -> (i64, i64) {
        self.passes(rows)[3]
    }

    /// Bytes of the strip buffers each thread holds while computing the rows `rows` of a
    /// plane of `channels` channels `width` texels wide.
    pub fn working_bytes(&self, rows: (i64, i64), width: usize, channels: usize) -> u64 {
        let [first, _, _, source] = self.passes(rows);
        let strip = STRIP.min(width * channels) as u64 * 4;
        strip * ((source.1 - source.0) + (first.1 - first.0)) as u64
    }

    /// The steps of box `pass` over the rows `lo..hi` (from one of its starts), reading a
    /// strip buffer that holds the rows `input`: worked out once for every strip.
    fn steps(&self, pass: i64, input: (i64, i64), (lo, hi): (i64, i64)) -> Steps {
        debug_assert!(self.starts_at(pass, self.at(lo) as i64));
        let held = held(&[], 0, input, self.height as usize, self.wrap);
        let slot = |v: i64| held.row(self.at(v));
        let n = self.radius.n as i64;
        let mut steps = Steps {
            rows: Vec::with_capacity((hi - lo) as usize),
            starts: Vec::new(),
        };
        for v in lo..hi {
            let r = self.at(v) as i64;
            if v == lo || self.starts_at(pass, r) {
                let window = (r - n..=r + n).map(slot).collect();
                steps.starts.push(((v - lo) as usize, window));
            }
            steps
                .rows
                .push([slot(r - n - 1), slot(r + n + 1), slot(r - n)]);
        }
        steps
    }

    /// Runs a box's `steps` over `input` (a strip buffer of rows `width` samples wide),
    /// writing the rows from step `emit` on to `out`.
    fn run(
        &self,
        steps: &Steps,
        input: &[f32],
        width: usize,
        emit: usize,
        out: &mut [f32],
        sum: &mut Vec<f32>,
    ) {
        let row = |slot: usize| &input[slot * width..(slot + 1) * width];
        let f = self.radius.f;
        let inv = 1.0 / (2.0 * self.radius.n as f32 + 1.0 + 2.0 * f);
        sum.clear();
        sum.resize(width, 0.0);
        let mut starts = steps.starts.iter().peekable();
        for (i, &[low, high, leaving]) in steps.rows.iter().enumerate() {
            if let Some((_, window)) = starts.next_if(|(at, _)| *at == i) {
                sum.fill(0.0);
                for &slot in window {
                    add_row(sum, row(slot));
                }
            }
            let (low, high, leaving) = (row(low), row(high), row(leaving));
            if i >= emit {
                let at = (i - emit) * width;
                box_row(&mut out[at..at + width], sum, low, high, leaving, f, inv);
            } else {
                advance(sum, high, leaving);
            }
        }
    }
}

/// A box's rows, as rows of the strip buffer it reads.
struct Steps {
    /// For each row it computes: the rows weighed at each end and the row its sum drops.
    rows: Vec<[usize; 3]>,
    /// Where its sums start, and the window of rows they start from.
    starts: Vec<(usize, Vec<usize>)>,
}

/// Floats per column strip: with two strip buffers, a 2048-row strip takes 1 MiB.
const STRIP: usize = 64;
/// Rows per band of the row pass.
const BAND: usize = 32;

/// A strip buffer `width` samples wide holding the rows `lo..hi` of a plane `height`
/// rows high, as a window of the plane's rows.
fn held(
    data: &[f32],
    width: usize,
    (lo, hi): (i64, i64),
    height: usize,
    wrap: bool,
) -> PlaneView<'_> {
    PlaneView {
        data,
        width,
        height,
        channels: 1,
        wrap,
        first_row: lo.rem_euclid(height as i64) as usize,
        rows: (hi - lo) as usize,
    }
}

/// `buffer` made `len` samples long, if memory allows. (What it held is written over.)
fn sized(buffer: &mut Vec<f32>, len: usize) -> Option<()> {
    if buffer.len() < len {
        buffer.try_reserve_exact(len - buffer.len()).ok()?;
        buffer.resize(len, 0.0);
    }
    buffer.truncate(len);
    Some(())
}

/// Three boxes down the columns of `source` into `out`, its rows `rows`.
///
/// Each strip of columns is copied into a strip buffer (the source rows the three boxes
/// reach), filtered from one strip buffer to the other and back, and copied out: the
/// boxes run on rows that follow each other in memory.
fn columns(source: &PlaneView, plan: &Columns, rows: Range<usize>, out: &mut [f32]) -> Option<()> {
    let row_len = source.width * source.channels;
    let emit = rows.start as i64..rows.end as i64;
    let [first, second, third, from] = plan.passes((emit.start, emit.end));
    // Each strip of columns owns its slice of every output row.
    let strips = row_len.div_ceil(STRIP);
    let mut parts: Vec<Vec<&mut [f32]>> = (0..strips)
        .map(|_| Vec::with_capacity(rows.len()))
        .collect();
    for row in out.chunks_mut(row_len) {
        for (strip, part) in parts.iter_mut().zip(row.chunks_mut(STRIP)) {
            strip.push(part);
        }
    }
    let len = |(lo, hi): (i64, i64)| (hi - lo) as usize;
    let steps = [
        plan.steps(1, from, first),
        plan.steps(2, first, second),
        plan.steps(3, second, third),
    ];
    let emit = (emit.start - third.0) as usize;
    parts
        .into_par_iter()
        .enumerate()
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(a, b, sum), (s, mut out_rows)| -> Option<()> {
                let width = out_rows[0].len();
                let start = s * STRIP;
                // The source rows in `a`, the first box into `b`, the middle one into
                // `a`, the last into `b`: each buffer holds the longer of its two ranges.
                sized(a, width * len(from))?;
                sized(b, width * len(first))?;
                for (v, row) in (from.0..from.1).zip(a.chunks_exact_mut(width)) {
                    let at = source.row(plan.at(v)) * row_len + start;
                    row.copy_from_slice(&source.data[at..at + width]);
                }
                plan.run(&steps[0], a, width, 0, b, sum);
                sized(a, width * len(second))?;
                plan.run(&steps[1], b, width, 0, a, sum);
                sized(b, width * rows.len())?;
                plan.run(&steps[2], a, width, emit, b, sum);
                for (row, from) in out_rows.iter_mut().zip(b.chunks_exact(width)) {
                    row.copy_from_slice(from);
                }
                Some(())
            },
        )
        .collect::<Option<Vec<()>>>()
        .map(|_| ())
}

/// Three boxes along the rows of `data` (`h` rows of `w` texels of `c` samples), in
/// place, band by band through a transposed buffer.
fn along_rows(data: &mut [f32], w: usize, c: usize, radius: BoxRadius, wrap: bool) -> Option<()> {
    // Rows are always whole: the sums start once, at the first texel.
    let boxes = Columns {
        radius,
        height: w as i64,
        wrap,
        block: i64::MAX,
    };
    let all = (0, w as i64);
    let steps = boxes.steps(3, all, all);
    data.par_chunks_mut(BAND * w * c)
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(t, u, sum), band| -> Option<()> {
                let band_rows = band.len() / (w * c);
                let row_len = band_rows * c; // one transposed row: a column of the band
                sized(t, w * row_len)?;
                sized(u, w * row_len)?;
                transpose(band, t, w, band_rows, c);
                boxes.run(&steps, t, row_len, 0, u, sum);
                boxes.run(&steps, u, row_len, 0, t, sum);
                boxes.run(&steps, t, row_len, 0, u, sum);
                transpose(u, band, band_rows, w, c);
                Some(())
            },
        )
        .collect::<Option<Vec<()>>>()
        .map(|_| ())
}

multiversion! {
    fn add_row(sum: &mut [f32], row: &[f32]) {
        let row = &row[..sum.len()];
        for (s, v) in sum.iter_mut().zip(row) {
            *s += v;
        }
    }
}

multiversion! {
    /// The running sum moved on by a row, where no output row is wanted.
    fn advance(sum: &mut [f32], hi: &[f32], leaving: &[f32]) {
        let n = sum.len();
        let (hi, leaving) = (&hi[..n], &leaving[..n]);
        for i in 0..n {
            sum[i] += hi[i] - leaving[i];
        }
    }
}

multiversion! {
    /// One output row of a box and the running sum moved on by a row.
    fn box_row(out: &mut [f32], sum: &mut [f32], lo: &[f32], hi: &[f32], leaving: &[f32], f: f32, inv: f32) {
        let n = out.len();
        let (sum, lo, hi, leaving) = (&mut sum[..n], &lo[..n], &hi[..n], &leaving[..n]);
        for i in 0..n {
            out[i] = (sum[i] + f * (lo[i] + hi[i])) * inv;
            sum[i] += hi[i] - leaving[i];
        }
    }
}

/// `dst` (w rows of h texels of c samples) becomes the transpose of `src` (h rows of w
/// texels): dst[x][y] = src[y][x].
fn transpose(src: &[f32], dst: &mut [f32], w: usize, h: usize, c: usize) {
    match c {
        1 => transpose_texels::<1>(src, dst, w, h),
        4 => transpose_texels::<4>(src, dst, w, h),
        _ => unreachable!("planes have 1 or 4 channels"),
    }
}

multiversion! {
    fn transpose_texels_1(src: &[f32], dst: &mut [f32], w: usize, h: usize) {
        blocked_transpose::<1>(src, dst, w, h)
    }
}

multiversion! {
    fn transpose_texels_4(src: &[f32], dst: &mut [f32], w: usize, h: usize) {
        blocked_transpose::<4>(src, dst, w, h)
    }
}

fn transpose_texels<const C: usize>(src: &[f32], dst: &mut [f32], w: usize, h: usize) {
    if C == 1 {
        transpose_texels_1(src, dst, w, h)
    } else {
        transpose_texels_4(src, dst, w, h)
    }
}

/// Moves C-sample texels in 16 × 16 blocks, so that both sides stay in cache. (Element
/// by element: a slice copy of one sample would be a call to memmove.)
#[allow(clippy::manual_memcpy)]
#[inline(always)]
fn blocked_transpose<const C: usize>(src: &[f32], dst: &mut [f32], w: usize, h: usize) {
    const BLOCK: usize = 16;
    let (src, dst) = (&src[..w * h * C], &mut dst[..w * h * C]);
    for x0 in (0..w).step_by(BLOCK) {
        for y0 in (0..h).step_by(BLOCK) {
            for x in x0..(x0 + BLOCK).min(w) {
                for y in y0..(y0 + BLOCK).min(h) {
                    let (from, to) = ((y * w + x) * C, (x * h + y) * C);
                    for k in 0..C {
                        dst[to + k] = src[from + k];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_hit_the_asked_variance() {
        for sigma in [0.3, 1.0, 2.5, 7.7, 40.0, 300.0] {
            let b = BoxRadius::for_sigma(sigma);
            assert!(
                (3.0 * b.variance() - sigma * sigma).abs() < 1e-3 * sigma * sigma,
                "{sigma}: {b:?}"
            );
        }
        assert_eq!(BoxRadius::for_sigma(0.0), BoxRadius { n: 0, f: 0.0 });
    }

    #[test]
    fn transpose_twice_is_identity() {
        let (w, h, c) = (37, 70, 4);
        let src: Vec<f32> = (0..w * h * c).map(|i| i as f32).collect();
        let (mut t, mut back) = (vec![0.0; w * h * c], vec![0.0; w * h * c]);
        transpose(&src, &mut t, w, h, c);
        assert_eq!(t[(3 * h + 5) * c + 2], src[(5 * w + 3) * c + 2]);
        transpose(&t, &mut back, h, w, c);
        assert_eq!(back, src);
    }

    /// Three boxes of `radius` along a line of `len` samples (one every `step` in `data`,
    /// from `offset`), summed directly in f64: the blur's definition without running sums.
    fn boxes_directly(line: &[f64], radius: BoxRadius, wrap: bool) -> Vec<f64> {
        let len = line.len() as i64;
        let at = |i: i64| {
            if wrap {
                i.rem_euclid(len) as usize
            } else {
                i.clamp(0, len - 1) as usize
            }
        };
        let (n, f) = (radius.n as i64, f64::from(radius.f));
        let mut values = line.to_vec();
        for _ in 0..3 {
            values = (0..len)
                .map(|r| {
                    let inner: f64 = (r - n..=r + n).map(|k| values[at(k)]).sum();
                    let outer = values[at(r - n - 1)] + values[at(r + n + 1)];
                    (inner + f * outer) / (2.0 * n as f64 + 1.0 + 2.0 * f)
                })
                .collect();
        }
        values
    }

    /// A pseudo-random plane: values in [-1, 1] with a few large ones.
    fn noise_plane(w: usize, h: usize, c: usize) -> Image {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let data = (0..w * h * c)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let v = (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
                if state.is_multiple_of(97) {
                    v * 40.0
                } else {
                    v
                }
            })
            .collect();
        Image {
            width: w as u32,
            height: h as u32,
            channels: c,
            data,
        }
    }

    #[test]
    fn blur_is_three_boxes_each_way_whatever_the_restarts() {
        // Heights over several blocks of restarts (64 rows at these radii), and radii
        // whose box reaches past a block and past the plane.
        for (w, h, c, radius) in [
            (23, 301, 1, 0.02),
            (9, 260, 4, 0.11),
            (40, 130, 1, 0.6),
            (5, 700, 1, 0.004),
        ] {
            for wrap in [false, true] {
                let input = noise_plane(w, h, c);
                let mut out = Image {
                    data: vec![0.0; w * h * c],
                    ..input.clone()
                };
                blur(&input, radius, wrap, &mut out).unwrap();
                let down = BoxRadius::for_sigma(f64::from(radius) * h as f64);
                let across = BoxRadius::for_sigma(f64::from(radius) * w as f64);
                // Columns then rows, in f64.
                let mut expected = vec![0.0f64; w * h * c];
                for x in 0..w * c {
                    let line: Vec<f64> = (0..h)
                        .map(|y| f64::from(input.data[y * w * c + x]))
                        .collect();
                    for (y, v) in boxes_directly(&line, down, wrap).into_iter().enumerate() {
                        expected[y * w * c + x] = v;
                    }
                }
                for y in 0..h {
                    for k in 0..c {
                        let line: Vec<f64> =
                            (0..w).map(|x| expected[(y * w + x) * c + k]).collect();
                        for (x, v) in boxes_directly(&line, across, wrap).into_iter().enumerate() {
                            expected[(y * w + x) * c + k] = v;
                        }
                    }
                }
                let worst = out
                    .data
                    .iter()
                    .zip(&expected)
                    .map(|(&a, &b)| (f64::from(a) - b).abs())
                    .fold(0.0, f64::max);
                assert!(
                    worst < 2e-5,
                    "{w}x{h}x{c}, radius {radius}, wrap {wrap}: off by {worst}"
                );
            }
        }
    }

    #[test]
    fn rows_blurred_alone_are_the_bits_of_the_whole_blur() {
        for (w, h, c, radius) in [(11, 333, 1, 0.03), (6, 200, 4, 0.15), (7, 90, 1, 0.9)] {
            for wrap in [false, true] {
                let input = noise_plane(w, h, c);
                let mut whole = Image {
                    data: vec![0.0; w * h * c],
                    ..input.clone()
                };
                blur(&input, radius, wrap, &mut whole).unwrap();
                let columns = Columns::new(radius, h, wrap);
                let cuts = [0..1, 5..70, 64..128, 100..h, 1..h, h - 1..h];
                for rows in cuts.into_iter().filter(|r| r.start < r.end && r.end <= h) {
                    // Only the source rows the plan names are held, as a window.
                    let (lo, hi) = columns.source_rows((rows.start as i64, rows.end as i64));
                    let held: Vec<f32> = (lo..hi)
                        .flat_map(|y| {
                            let y = y.rem_euclid(h as i64) as usize;
                            input.data[y * w * c..(y + 1) * w * c].iter().copied()
                        })
                        .collect();
                    let window = PlaneView {
                        data: &held,
                        width: w,
                        height: h,
                        channels: c,
                        wrap,
                        first_row: lo.rem_euclid(h as i64) as usize,
                        rows: (hi - lo) as usize,
                    };
                    let mut part = vec![0.0; rows.len() * w * c];
                    blur_rows(&window, radius, rows.clone(), &mut part).unwrap();
                    let expected = &whole.data[rows.start * w * c..rows.end * w * c];
                    assert!(
                        part.iter()
                            .zip(expected)
                            .all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{w}x{h}, radius {radius}, wrap {wrap}: rows {rows:?} differ"
                    );
                }
            }
        }
    }

    #[test]
    fn blocks_start_where_the_last_box_starts_and_reach_the_source_rows_it_reads() {
        let columns = Columns::new(0.05, 1000, false);
        let (n, block) = (columns.radius.n as i64, columns.block);
        assert_eq!(block, 2 * n + 1, "blocks of a window of rows past 64");
        assert_eq!(columns.blocks((130, 140)), (block, 2 * block));
        assert_eq!(columns.blocks((990, 1000)), (1000 / block * block, 1000));
        // Three boxes of n + 1 rows' reach each side; the middle and first boxes start a
        // reach before the block's start, so no more is read above.
        let reach = 3 * (n + 1);
        assert_eq!(
            columns.source_rows((3 * block, 4 * block)),
            (3 * block - reach, 4 * block + reach)
        );
        assert_eq!(columns.source_rows((0, block)), (0, block + reach));
        let wrapping = Columns::new(0.05, 1000, true);
        let last = 1000 / block * block;
        // The last block is short: rows 990.. of a 1000-row plane, when blocks are 99.
        assert_eq!(wrapping.blocks((-5, 30)), (last - 1000, block));
        assert_eq!(wrapping.blocks((-20, 30)), (last - block - 1000, block));
        assert_eq!(wrapping.blocks((-600, 500)), (0, 1000));
    }
}
