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
/// clamp. `None` when memory for the working planes cannot be had.
pub fn blur(input: &Image, radius: f32, wrap: bool, out: &mut Image) -> Option<()> {
    let (w, h, c) = (input.width as usize, input.height as usize, input.channels);
    let across = BoxRadius::for_sigma(f64::from(radius) * w as f64);
    let down = BoxRadius::for_sigma(f64::from(radius) * h as f64);
    let mut a = super::try_zeroed(w * h * c)?;
    // Down the columns: input → out → a → out.
    boxes_down(&input.data, &mut out.data, &mut a, w * c, h, down, wrap);
    // Across the rows: transpose, the same down the columns, transpose back.
    let mut t = super::try_zeroed(w * h * c)?;
    transpose(&out.data, &mut t, w, h, c);
    let mut b = super::try_zeroed(w * h * c)?;
    boxes_down(&t, &mut a, &mut b, h * c, w, across, wrap);
    transpose(&a, &mut out.data, h, w, c);
    Some(())
}

/// Three boxes down the columns of `src` (rows of `row_len` samples): src → out, out →
/// spare, spare → out.
fn boxes_down(
    src: &[f32],
    out: &mut [f32],
    spare: &mut [f32],
    row_len: usize,
    rows: usize,
    radius: BoxRadius,
    wrap: bool,
) {
    box_down(src, out, row_len, rows, radius, wrap);
    box_down(out, spare, row_len, rows, radius, wrap);
    box_down(spare, out, row_len, rows, radius, wrap);
}

/// Columns per parallel job: the running sums of a strip stay in L1.
const STRIP: usize = 512;

/// One box down every column: out[r] = (S_r + f·(src[r − n − 1] + src[r + n + 1])) / (2n + 1 + 2f)
/// with S_r = Σ src[r − n ..= r + n], rows wrapped or clamped.
fn box_down(
    src: &[f32],
    out: &mut [f32],
    row_len: usize,
    rows: usize,
    radius: BoxRadius,
    wrap: bool,
) {
    let BoxRadius { n, f } = radius;
    let row_of = |r: i64| -> usize {
        if wrap {
            r.rem_euclid(rows as i64) as usize
        } else {
            r.clamp(0, rows as i64 - 1) as usize
        }
    };
    let inv = 1.0 / (2.0 * n as f32 + 1.0 + 2.0 * f);
    let n = n as i64;
    // Each strip of columns owns its slice of every output row.
    let mut strips: Vec<Vec<&mut [f32]>> = (0..row_len.div_ceil(STRIP))
        .map(|_| Vec::with_capacity(rows))
        .collect();
    for row in out.chunks_mut(row_len) {
        for (strip, part) in strips.iter_mut().zip(row.chunks_mut(STRIP)) {
            strip.push(part);
        }
    }
    strips
        .into_par_iter()
        .enumerate()
        .for_each(|(s, mut out_rows)| {
            let start = s * STRIP;
            let width = out_rows[0].len();
            let at = |r: usize| &src[r * row_len + start..r * row_len + start + width];
            let mut sum = vec![0.0f32; width];
            for k in -n..=n {
                for (acc, v) in sum.iter_mut().zip(at(row_of(k))) {
                    *acc += v;
                }
            }
            for (r, out_row) in out_rows.iter_mut().enumerate() {
                let r = r as i64;
                let (outer_lo, outer_hi) = (at(row_of(r - n - 1)), at(row_of(r + n + 1)));
                let leaving = at(row_of(r - n));
                for i in 0..width {
                    out_row[i] = (sum[i] + f * (outer_lo[i] + outer_hi[i])) * inv;
                    sum[i] += outer_hi[i] - leaving[i];
                }
            }
        });
}

/// Texels per side of the blocks the transpose moves at once.
const BLOCK: usize = 32;

/// `dst` (h rows of w texels of c samples) becomes `src`'s transpose: dst[x][y] = src[y][x].
fn transpose(src: &[f32], dst: &mut [f32], w: usize, h: usize, c: usize) {
    // Parallel over bands of destination rows (source columns).
    dst.par_chunks_mut(BLOCK * h * c)
        .enumerate()
        .for_each(|(band, rows)| {
            let x0 = band * BLOCK;
            let band_w = rows.len() / (h * c);
            for y0 in (0..h).step_by(BLOCK) {
                let y1 = (y0 + BLOCK).min(h);
                for dx in 0..band_w {
                    let x = x0 + dx;
                    let out = &mut rows[dx * h * c..(dx + 1) * h * c];
                    for y in y0..y1 {
                        let from = (y * w + x) * c;
                        out[y * c..(y + 1) * c].copy_from_slice(&src[from..from + c]);
                    }
                }
            }
        });
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
