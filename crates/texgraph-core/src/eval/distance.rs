//! The distance stage: the exact Euclidean distance from each texel to the nearest texel on
//! the other side of a mask's threshold, whatever the distance, in time linear in the
//! texels (Felzenszwalb and Huttenlocher, "Distance Transforms of Sampled Functions",
//! 2012).
//!
//! The transform is separable. Down each column, a sweep each way finds the distance to
//! the nearest site of that column. Along each row, the squared distance is then the lower
//! envelope of one parabola per column, f(x') + (x − x')², built left to right.
//!
//! Everything is exact integer arithmetic: distances are measured between texel centres in
//! texture units (a texel is 1/width across and 1/height down), and scaling the squared
//! distance dx²/w² + dy²/h² by (w·h/g)², with g = gcd(w, h), makes it the integer
//! dx²·(h/g)² + dy²·(w/g)². The envelope's breakpoints are compared as fractions, so the
//! result equals a brute-force search bit for bit, on any thread count.
//!
//! In tileable graphs the mask repeats: a column's sweeps go round twice, and a row's
//! envelope takes the columns of half a period on each side as well, which holds the
//! nearest copy of every site.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::Image;
use crate::program::DistanceSide;

/// The distance, in texture units, written where the other side of the threshold has no
/// texel at all: farther than any two texels of an image can be (√2).
pub const FAR: f32 = 4.0;

/// Vertical distance, in texels, meaning "no site in this column".
const NONE: u32 = u32::MAX / 2;

/// Writes into `out` (one channel, the size of `mask`) the distance from each texel to the
/// nearest texel across the threshold, in texture units: see [`DistanceSide`] for which
/// texels get which. A texel is inside when its value is above `threshold`. `None` when
/// memory for the working buffers cannot be had. Once `cancel` is raised the rows not yet
/// started are skipped (the caller discards the plane).
pub fn distance(
    mask: &Image,
    threshold: f32,
    side: DistanceSide,
    wrap: bool,
    cancel: Option<&AtomicBool>,
    out: &mut Image,
) -> Option<()> {
    let (w, h) = (mask.width as usize, mask.height as usize);
    let c = mask.channels;
    let inside: Vec<bool> = {
        let mut v = Vec::new();
        v.try_reserve_exact(w * h).ok()?;
        v.extend(mask.data.chunks_exact(c).map(|t| t[0] > threshold));
        v
    };
    let mut dy = Vec::new();
    dy.try_reserve_exact(w * h).ok()?;
    dy.resize(w * h, NONE);
    let metric = Metric::new(w, h);
    // Outside texels measure to the inside ones, and inside texels to the outside ones.
    let passes: &[(bool, f32)] = match side {
        DistanceSide::Outside => &[(true, 1.0)],
        DistanceSide::Inside => &[(false, 1.0)],
        DistanceSide::Signed => &[(true, 1.0), (false, -1.0)],
    };
    out.data.fill(0.0);
    for &(sites_inside, sign) in passes {
        columns(&inside, sites_inside, w, wrap, &mut dy);
        let along = Along {
            sites_inside,
            wrap,
            metric,
            sign,
            cancel,
        };
        rows(&inside, &dy, w, along, &mut out.data)?;
    }
    Some(())
}

/// The integer metric: D = dx²·across + dy²·down, and distance = √D · scale. 128-bit, so
/// that no size overflows it (a 65536² image's D reaches 2⁶⁴).
#[derive(Debug, Clone, Copy)]
struct Metric {
    across: i128,
    down: i128,
    scale: f64,
}

impl Metric {
    fn new(w: usize, h: usize) -> Self {
        let g = gcd(w, h);
        let (hg, wg) = ((h / g) as i128, (w / g) as i128);
        Self {
            across: hg * hg,
            down: wg * wg,
            scale: g as f64 / (w as f64 * h as f64),
        }
    }

    fn distance(self, squared: i128) -> f32 {
        ((squared as f64).sqrt() * self.scale) as f32
    }
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// Down each column, the distance in texels to the nearest site (a texel whose inside-ness
/// is `sites_inside`) of that column, or [`NONE`]: a sweep down and a sweep up, row by
/// row so that the loops run along the rows and vectorize. Wrapping, each sweep goes round
/// twice, the first lap only carrying the distance from the far end.
fn columns(inside: &[bool], sites_inside: bool, w: usize, wrap: bool, dy: &mut [u32]) {
    let mut run = vec![NONE; w];
    let step = |run: &mut [u32], row: &[bool]| {
        for (r, &i) in run.iter_mut().zip(row) {
            *r = if i == sites_inside {
                0
            } else {
                (*r + 1).min(NONE)
            };
        }
    };
    if wrap {
        for row in inside.chunks_exact(w) {
            step(&mut run, row);
        }
    }
    for (row, d) in inside.chunks_exact(w).zip(dy.chunks_exact_mut(w)) {
        step(&mut run, row);
        d.copy_from_slice(&run);
    }
    run.fill(NONE);
    if wrap {
        for row in inside.chunks_exact(w).rev() {
            step(&mut run, row);
        }
    }
    for (row, d) in inside.chunks_exact(w).zip(dy.chunks_exact_mut(w)).rev() {
        step(&mut run, row);
        for (d, &r) in d.iter_mut().zip(&run) {
            *d = (*d).min(r);
        }
    }
}

/// How a row pass measures: which texels are sites, whether rows wrap, the metric, the
/// sign written, and the cancel flag.
#[derive(Clone, Copy)]
struct Along<'a> {
    sites_inside: bool,
    wrap: bool,
    metric: Metric,
    sign: f32,
    cancel: Option<&'a AtomicBool>,
}

/// Along each row, the exact distance of every texel that is not a site to the nearest
/// site, times the sign, into `out`.
fn rows(inside: &[bool], dy: &[u32], w: usize, along: Along<'_>, out: &mut [f32]) -> Option<()> {
    let Along {
        sites_inside,
        wrap,
        metric,
        sign,
        cancel,
    } = along;
    let reach = if wrap { w.div_ceil(2) } else { 0 };
    out.par_chunks_mut(w)
        .zip(dy.par_chunks(w))
        .zip(inside.par_chunks(w))
        .map_init(Envelope::default, |envelope, ((out, dy), inside)| {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Some(());
            }
            envelope.build(dy, reach, metric)?;
            envelope.read(metric, |x, squared| {
                if inside[x] != sites_inside {
                    out[x] = match squared {
                        Some(d) => sign * metric.distance(d),
                        None => sign * FAR,
                    };
                }
            });
            Some(())
        })
        .collect::<Option<Vec<()>>>()
        .map(|_| ())
}

/// The lower envelope of the parabolas f(q) + across·(x − q)² of one row.
#[derive(Default)]
struct Envelope {
    /// Each parabola of the envelope: its column q and f(q).
    sites: Vec<(i128, i128)>,
    /// Where each starts: a fraction (numerator, denominator > 0); the first starts at
    /// −∞ (unused).
    starts: Vec<(i128, i128)>,
    /// The row's length.
    len: usize,
}

impl Envelope {
    /// Builds the envelope of the row with vertical distances `dy` (texels), taking
    /// `reach` more columns of the periodic row on each side.
    fn build(&mut self, dy: &[u32], reach: usize, metric: Metric) -> Option<()> {
        let n = dy.len();
        self.len = n;
        self.sites.clear();
        self.starts.clear();
        self.sites.try_reserve(n + 2 * reach).ok()?;
        self.starts.try_reserve(n + 2 * reach).ok()?;
        let first = -(reach as i64);
        let last = (n + reach) as i64;
        for q in first..last {
            let d = dy[q.rem_euclid(n as i64) as usize];
            if d == NONE {
                continue;
            }
            let (q, d) = (i128::from(q), i128::from(d));
            let f = d * d * metric.down;
            let mut start = (0, 1);
            while let Some(&(v, fv)) = self.sites.last() {
                // The parabolas of v and q cross at s = (f(q) + a·q² − f(v) − a·v²) /
                // (2a·(q − v)); q hides v when that is left of where v starts.
                let a = metric.across;
                let s = (f + a * q * q - fv - a * v * v, 2 * a * (q - v));
                let v_start = *self.starts.last().expect("one start per site");
                if self.sites.len() > 1 && !before(v_start, s) {
                    self.sites.pop();
                    self.starts.pop();
                    continue;
                }
                start = s;
                break;
            }
            self.sites.push((q, f));
            self.starts.push(start);
        }
        Some(())
    }

    /// Calls `each(x, D)` for x = 0..len with the squared distance D of the envelope there,
    /// `None` when the row has no site.
    fn read(&self, metric: Metric, mut each: impl FnMut(usize, Option<i128>)) {
        if self.sites.is_empty() {
            for x in 0..self.len {
                each(x, None);
            }
            return;
        }
        let mut k = 0;
        for x in 0..self.len {
            let p = x as i128;
            while k + 1 < self.sites.len() && before(self.starts[k + 1], (p, 1)) {
                k += 1;
            }
            let (q, f) = self.sites[k];
            each(x, Some(f + metric.across * (p - q) * (p - q)));
        }
    }
}

/// Whether the fraction `a` is less than the fraction `b` (denominators positive). The
/// products stay below 2¹²⁰ for images up to 65536 texels on a side.
fn before(a: (i128, i128), b: (i128, i128)) -> bool {
    a.0 * b.1 < b.0 * a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brute-force squared distance (in the integer metric) of texel (x, y) to the
    /// nearest texel across the threshold.
    fn brute(inside: &[bool], w: usize, h: usize, wrap: bool, x: usize, y: usize) -> Option<i128> {
        let m = Metric::new(w, h);
        let mut best = None;
        for (j, row) in inside.chunks_exact(w).enumerate() {
            for (i, &s) in row.iter().enumerate() {
                if s == inside[y * w + x] {
                    continue;
                }
                let (mut dx, mut dy) =
                    ((i as i128 - x as i128).abs(), (j as i128 - y as i128).abs());
                if wrap {
                    dx = dx.min(w as i128 - dx);
                    dy = dy.min(h as i128 - dy);
                }
                let d = dx * dx * m.across + dy * dy * m.down;
                best = Some(best.map_or(d, |b: i128| b.min(d)));
            }
        }
        best
    }

    /// A deterministic pseudo-random mask: blobs and specks at `density`.
    fn mask(w: usize, h: usize, seed: u32, density: u32) -> Vec<f32> {
        let mut state = seed.wrapping_mul(0x9E37_79B9) | 1;
        (0..w * h)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                if state % 100 < density { 1.0 } else { 0.0 }
            })
            .collect()
    }

    #[test]
    fn the_transform_equals_a_brute_force_search() {
        for (w, h) in [(17, 13), (24, 24), (31, 8), (1, 9), (12, 18)] {
            for wrap in [false, true] {
                for density in [1, 10, 50, 97] {
                    for side in [
                        DistanceSide::Outside,
                        DistanceSide::Inside,
                        DistanceSide::Signed,
                    ] {
                        let data = mask(w, h, (w * 31 + h + density as usize) as u32, density);
                        let image = Image {
                            width: w as u32,
                            height: h as u32,
                            channels: 1,
                            data,
                        };
                        let mut out = Image {
                            data: vec![9.0; w * h],
                            ..image.clone()
                        };
                        distance(&image, 0.5, side, wrap, None, &mut out).unwrap();
                        let inside: Vec<bool> = image.data.iter().map(|&v| v > 0.5).collect();
                        let m = Metric::new(w, h);
                        for y in 0..h {
                            for x in 0..w {
                                let i = inside[y * w + x];
                                let d = match brute(&inside, w, h, wrap, x, y) {
                                    Some(d) => m.distance(d),
                                    None => FAR,
                                };
                                let expected = match (side, i) {
                                    (DistanceSide::Outside, true)
                                    | (DistanceSide::Inside, false) => 0.0,
                                    (DistanceSide::Signed, true) => -d,
                                    _ => d,
                                };
                                assert_eq!(
                                    out.data[y * w + x].to_bits(),
                                    expected.to_bits(),
                                    "{w}x{h} wrap {wrap} density {density} {side:?} at ({x}, {y})"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn distances_are_in_texture_units() {
        // One inside texel at the centre of a 2:1 image: its row neighbours are a width
        // texel away, its column neighbours a height texel.
        let (w, h) = (8, 4);
        let mut data = vec![0.0; w * h];
        data[2 * w + 4] = 1.0;
        let image = Image {
            width: w as u32,
            height: h as u32,
            channels: 1,
            data,
        };
        let mut out = image.clone();
        distance(&image, 0.5, DistanceSide::Outside, false, None, &mut out).unwrap();
        assert_eq!(out.data[2 * w + 5], 1.0 / 8.0);
        assert_eq!(out.data[w + 4], 1.0 / 4.0);
        assert_eq!(out.data[2 * w + 7], 3.0 / 8.0);
        let diagonal = ((1.0f64 / 64.0 + 1.0 / 16.0).sqrt()) as f32;
        assert_eq!(out.data[w + 5], diagonal);
    }
}
