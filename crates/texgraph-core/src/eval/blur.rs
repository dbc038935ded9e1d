//! The blur stage: a Gaussian approximated by three box filters per axis (the central
//! limit theorem makes three boxes within a few percent of a Gaussian). Each box is a
//! running sum, so the cost per texel does not depend on the radius. Boxes have a
//! fractional radius (the outermost taps weighted by the fraction), so the blur changes
//! smoothly with the radius and matches at every resolution.
//!
//! Columns are filtered with the running sum going down the rows, many columns at once
//! (the inner loop runs along a row, so it vectorizes); rows are filtered the same way
//! after a transpose. Every column's sums start at its first row whatever the threads,
//! so the result is the same bits for any thread count.

use rayon::prelude::*;

use super::Image;
use crate::kernels::dispatch::multiversion;

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
///
/// Both axes work on blocks that fit in the core's cache: the columns in strips (three
/// passes in two strip buffers, then written out), the rows in bands transposed into a
/// buffer where the sums again run down its rows, then transposed back. The image is
/// read and written once per axis.
pub fn blur(input: &Image, radius: f32, wrap: bool, out: &mut Image) -> Option<()> {
    let (w, h, c) = (input.width as usize, input.height as usize, input.channels);
    let across = BoxRadius::for_sigma(f64::from(radius) * w as f64);
    let down = BoxRadius::for_sigma(f64::from(radius) * h as f64);
    columns(&input.data, &mut out.data, w * c, h, down, wrap)?;
    rows(&mut out.data, w, c, across, wrap)
}

/// Floats per column strip: with two strip buffers, a 2048-row strip takes 1 MiB.
const STRIP: usize = 64;
/// Rows per band of the row pass.
const BAND: usize = 32;

/// Three boxes down the columns of `src` (`rows` rows of `row_len` samples) into `out`.
fn columns(
    src: &[f32],
    out: &mut [f32],
    row_len: usize,
    rows: usize,
    radius: BoxRadius,
    wrap: bool,
) -> Option<()> {
    // Each strip of columns owns its slice of every output row.
    let strips = row_len.div_ceil(STRIP);
    let mut parts: Vec<Vec<&mut [f32]>> = (0..strips).map(|_| Vec::with_capacity(rows)).collect();
    for row in out.chunks_mut(row_len) {
        for (strip, part) in parts.iter_mut().zip(row.chunks_mut(STRIP)) {
            strip.push(part);
        }
    }
    let indices = Indices::new(rows, radius.n, wrap);
    parts
        .into_par_iter()
        .enumerate()
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(a, b, sum), (s, mut out_rows)| -> Option<()> {
                let start = s * STRIP;
                let width = out_rows[0].len();
                for buffer in [&mut *a, &mut *b] {
                    buffer.clear();
                    buffer.try_reserve_exact(width * rows).ok()?;
                    buffer.resize(width * rows, 0.0);
                }
                for (r, row) in a.chunks_exact_mut(width).enumerate() {
                    row.copy_from_slice(&src[r * row_len + start..r * row_len + start + width]);
                }
                boxes(a, b, sum, width, &indices, radius);
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
fn rows(data: &mut [f32], w: usize, c: usize, radius: BoxRadius, wrap: bool) -> Option<()> {
    let indices = Indices::new(w, radius.n, wrap);
    data.par_chunks_mut(BAND * w * c)
        .map_init(
            || (Vec::new(), Vec::new(), Vec::new()),
            |(t, u, sum), band| -> Option<()> {
                let band_rows = band.len() / (w * c);
                let row_len = band_rows * c; // one transposed row: a column of the band
                for buffer in [&mut *t, &mut *u] {
                    buffer.clear();
                    buffer.try_reserve_exact(w * row_len).ok()?;
                    buffer.resize(w * row_len, 0.0);
                }
                transpose(band, t, w, band_rows, c);
                boxes(t, u, sum, row_len, &indices, radius);
                transpose(u, band, band_rows, w, c);
                Some(())
            },
        )
        .collect::<Option<Vec<()>>>()
        .map(|_| ())
}

/// Which rows a box over `len` rows adds, weighs and drops at each output row.
struct Indices {
    /// r − n − 1, r + n + 1 and r − n, wrapped or clamped, for each output row r.
    lo: Vec<usize>,
    hi: Vec<usize>,
    leaving: Vec<usize>,
    /// The rows of the first window, r = −n ..= n.
    first: Vec<usize>,
}

impl Indices {
    fn new(len: usize, n: usize, wrap: bool) -> Self {
        let at = |r: i64| -> usize {
            if wrap {
                r.rem_euclid(len as i64) as usize
            } else {
                r.clamp(0, len as i64 - 1) as usize
            }
        };
        let n = n as i64;
        let rows = 0..len as i64;
        Self {
            lo: rows.clone().map(|r| at(r - n - 1)).collect(),
            hi: rows.clone().map(|r| at(r + n + 1)).collect(),
            leaving: rows.map(|r| at(r - n)).collect(),
            first: (-n..=n).map(at).collect(),
        }
    }
}

/// Three boxes down the rows of `a` (rows of `width` samples): a → b → a → b.
fn boxes(
    a: &mut [f32],
    b: &mut [f32],
    sum: &mut Vec<f32>,
    width: usize,
    indices: &Indices,
    radius: BoxRadius,
) {
    box_pass(a, b, sum, width, indices, radius);
    box_pass(b, a, sum, width, indices, radius);
    box_pass(a, b, sum, width, indices, radius);
}

/// One box down the rows: out[r] = (S_r + f·(src[r − n − 1] + src[r + n + 1])) / (2n + 1 + 2f),
/// S_r = Σ src[r − n ..= r + n].
fn box_pass(
    src: &[f32],
    out: &mut [f32],
    sum: &mut Vec<f32>,
    width: usize,
    indices: &Indices,
    radius: BoxRadius,
) {
    let row = |r: usize| &src[r * width..(r + 1) * width];
    sum.clear();
    sum.resize(width, 0.0);
    for &r in &indices.first {
        add_row(sum, row(r));
    }
    let inv = 1.0 / (2.0 * radius.n as f32 + 1.0 + 2.0 * radius.f);
    for (r, out_row) in out.chunks_exact_mut(width).enumerate() {
        let (lo, hi, leaving) = (
            row(indices.lo[r]),
            row(indices.hi[r]),
            row(indices.leaving[r]),
        );
        box_row(out_row, sum, lo, hi, leaving, radius.f, inv);
    }
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
}
