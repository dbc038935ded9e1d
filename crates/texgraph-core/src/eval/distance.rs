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
//! In tileable graphs the mask repeats. A column's texels also see past its ends, to its
//! last texel of each side going up and its first going down; a row's envelope also takes
//! the columns beyond its ends that can hold a texel's nearest site, at most half a period
//! each side (which holds the nearest copy of every site).
//!
//! The columns' distances are kept in the output plane itself, as whole numbers in `f32`,
//! and each row replaces its own with the result: the transform needs no plane of its own.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::Image;
use crate::program::DistanceSide;

/// The distance, in texture units, written where the other side of the threshold has no
/// texel at all: farther than any two texels of an image can be (√2).
pub const FAR: f32 = 4.0;

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
    let sides = Sides {
        mask,
        threshold,
        w,
        wrap,
    };
    // The columns' distances go into `out`, which each row then overwrites with its own.
    let wrapped = columns(sides, h, &mut out.data);
    let metric = Metric::new(w, h);
    let rows = Rows {
        sides,
        side,
        metric,
        wrapped: wrapped.as_ref(),
        cancel,
    };
    if metric.fits_64_bits() {
        rows.run::<i64>(&mut out.data)
    } else {
        rows.run::<i128>(&mut out.data)
    }
}

/// Moves the distances of `out` (a distance plane) from the nearest texel's centre to the
/// edge between the two sides, which lies half a texel nearer: half a texel of the
/// image's larger side less, never below 0 (the distances of texels with no other side
/// stay as they are).
pub fn to_edge(out: &mut Image) {
    let half = 0.5 / out.width.max(out.height).max(1) as f32;
    for v in &mut out.data {
        if *v != 0.0 && v.abs() < FAR {
            *v = v.signum() * (v.abs() - half).max(0.0);
        }
    }
}

/// Which texels of the mask are inside, and how its rows wrap.
#[derive(Clone, Copy)]
struct Sides<'a> {
    mask: &'a Image,
    threshold: f32,
    w: usize,
    wrap: bool,
}

impl Sides<'_> {
    /// Whether each texel of row `y` is inside, into `row`.
    fn row(&self, y: usize, row: &mut [bool]) {
        let c = self.mask.channels;
        let texels = &self.mask.data[y * self.w * c..(y + 1) * self.w * c];
        if c == 1 {
            // One channel (what the compiler makes of a mask): a loop that vectorizes.
            for (r, &t) in row.iter_mut().zip(texels) {
                *r = t > self.threshold;
            }
        } else {
            for (r, t) in row.iter_mut().zip(texels.chunks_exact(c)) {
                *r = t[0] > self.threshold;
            }
        }
    }
}

/// Down each column, the distance in texels from each texel to the nearest texel of the
/// other side in its column (infinite when there is none), into `dy`: a sweep down and a
/// sweep up, row by row so that the loops run along the rows and vectorize. Whole numbers
/// up to 2²⁴ are exact in `f32`. Wrapping, what lies beyond the top and bottom edges is
/// returned for the rows to add ([`Wrapped::apply`]).
fn columns(sides: Sides<'_>, h: usize, dy: &mut [f32]) -> Option<Wrapped> {
    let w = sides.w;
    // Rows since the last inside texel and since the last outside one.
    let mut since = (vec![f32::INFINITY; w], vec![f32::INFINITY; w]);
    let mut inside = vec![false; w];
    let step = |y: usize, since: &mut (Vec<f32>, Vec<f32>), inside: &mut [bool]| {
        sides.row(y, inside);
        for ((i, s_in), s_out) in inside.iter().zip(&mut since.0).zip(&mut since.1) {
            *s_in = if *i { 0.0 } else { *s_in + 1.0 };
            *s_out = if *i { *s_out + 1.0 } else { 0.0 };
        }
    };
    for (y, d) in dy.chunks_exact_mut(w).enumerate() {
        step(y, &mut since, &mut inside);
        for (((d, &i), &s_in), &s_out) in d.iter_mut().zip(&inside).zip(&since.0).zip(&since.1) {
            *d = if i { s_out } else { s_in };
        }
    }
    let below_last =
        std::mem::replace(&mut since, (vec![f32::INFINITY; w], vec![f32::INFINITY; w]));
    for (y, d) in dy.chunks_exact_mut(w).enumerate().rev() {
        step(y, &mut since, &mut inside);
        for (((d, &i), &s_in), &s_out) in d.iter_mut().zip(&inside).zip(&since.0).zip(&since.1) {
            *d = d.min(if i { s_out } else { s_in });
        }
    }
    sides.wrap.then_some(Wrapped {
        below_last,
        above_first: since,
        h,
    })
}

/// What a wrapping column's texels see beyond its edges, for each side (inside, outside):
/// the rows from its last texel of that side to the bottom, and from the top to its first.
struct Wrapped {
    below_last: (Vec<f32>, Vec<f32>),
    above_first: (Vec<f32>, Vec<f32>),
    h: usize,
}

impl Wrapped {
    /// Lowers row `y`'s column distances `dy` (texels' inside-ness `inside`) to those going
    /// round: up from y past the top to the last texel of the other side, y + 1 + rows
    /// below it, or down past the bottom to the first, h − y + rows above it.
    fn apply(&self, y: usize, inside: &[bool], dy: &mut [f32]) {
        let (up, down) = ((y + 1) as f32, (self.h - y) as f32);
        let columns = inside
            .iter()
            .zip(self.below_last.0.iter().zip(&self.below_last.1))
            .zip(self.above_first.0.iter().zip(&self.above_first.1));
        for (d, ((&i, (&last_in, &last_out)), (&first_in, &first_out))) in
            dy.iter_mut().zip(columns)
        {
            let (last, first) = if i {
                (last_out, first_out)
            } else {
                (last_in, first_in)
            };
            *d = d.min(up + last).min(down + first);
        }
    }
}

/// The integer metric: D = dx²·across + dy²·down, and distance = √D · scale.
#[derive(Debug, Clone, Copy)]
struct Metric {
    across: i64,
    down: i64,
    /// The image's size in texels.
    width: usize,
    height: usize,
    scale: f64,
}

impl Metric {
    fn new(w: usize, h: usize) -> Self {
        let g = gcd(w, h);
        let (hg, wg) = ((h / g) as i64, (w / g) as i64);
        Self {
            across: hg * hg,
            down: wg * wg,
            width: w,
            height: h,
            scale: g as f64 / (w as f64 * h as f64),
        }
    }

    /// Whether 64 bits hold every product the envelope forms: a breakpoint's numerator
    /// (up to twice across·r² plus down·h², r the farthest column a row takes: wrapping,
    /// half a period beyond it) times another's denominator (up to 4·across·r). True for
    /// every square image up to 65536²; images whose sides share no large factor take 128
    /// bits.
    fn fits_64_bits(self) -> bool {
        let wide = |v: i64| i128::from(v);
        let r = (self.width + self.width.div_ceil(2)) as i128 + 1;
        let h = self.height as i128;
        let numerator = 2 * wide(self.across) * r * r + wide(self.down) * h * h;
        let denominator = 4 * wide(self.across) * r;
        numerator
            .checked_mul(denominator)
            .is_some_and(|p| p < (1i128 << 62))
    }

    fn distance(self, squared: f64) -> f32 {
        (squared.sqrt() * self.scale) as f32
    }
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// The integers the envelope computes in: 64 bits where they hold every product, else 128.
trait Exact:
    Copy
    + Default
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + Send
{
    fn from_i64(v: i64) -> Self;
    fn to_f64(self) -> f64;
}

impl Exact for i64 {
    fn from_i64(v: i64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Exact for i128 {
    fn from_i64(v: i64) -> Self {
        i128::from(v)
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

/// The row pass: for each row, the lower envelope of its columns' parabolas, read at the
/// texels measured.
struct Rows<'a> {
    sides: Sides<'a>,
    side: DistanceSide,
    metric: Metric,
    wrapped: Option<&'a Wrapped>,
    cancel: Option<&'a AtomicBool>,
}

impl Rows<'_> {
    /// Replaces each row of `data` (the columns' distances) with the texels' distances.
    fn run<T: Exact>(&self, data: &mut [f32]) -> Option<()> {
        let w = self.sides.w;
        // Outside texels measure to the inside ones, and inside texels to the outside ones.
        let passes: &[(bool, f32)] = match self.side {
            DistanceSide::Outside => &[(true, 1.0)],
            DistanceSide::Inside => &[(false, 1.0)],
            DistanceSide::Signed => &[(true, 1.0), (false, -1.0)],
        };
        data.par_chunks_mut(w).enumerate().try_for_each_init(
            || (Envelope::<T>::default(), Vec::new(), Vec::new()),
            |(envelope, dy, inside), (y, row)| -> Option<()> {
                if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return Some(());
                }
                dy.clear();
                dy.try_reserve_exact(w).ok()?;
                dy.extend_from_slice(row);
                inside.clear();
                inside.try_reserve_exact(w).ok()?;
                inside.resize(w, false);
                self.sides.row(y, inside);
                if let Some(wrapped) = self.wrapped {
                    wrapped.apply(y, inside, dy);
                }
                row.fill(0.0);
                for &(sites_inside, sign) in passes {
                    envelope.build(dy, inside, sites_inside, self.sides.wrap, self.metric)?;
                    envelope.read(self.metric, |x, squared| {
                        if inside[x] != sites_inside {
                            row[x] =
                                sign * squared.map_or(FAR, |d: T| self.metric.distance(d.to_f64()));
                        }
                    });
                }
                Some(())
            },
        )
    }
}

/// The lower envelope of the parabolas f(q) + across·(x − q)² of one row.
#[derive(Default)]
struct Envelope<T> {
    /// Each parabola of the envelope: its column q and f(q).
    sites: Vec<(T, T)>,
    /// Where each starts: a fraction (numerator, denominator > 0); the first's is unused
    /// (it starts at −∞).
    starts: Vec<(T, T)>,
    /// The row's length.
    len: usize,
}

impl<T: Exact> Envelope<T> {
    /// Builds the envelope of a row: column q is a site of f(q) = 0 where its texel's
    /// inside-ness is `sites_inside`, else of f(q) = down·dy(q)² (none where dy is
    /// infinite). Wrapping, the columns beyond each end that may hold a texel's nearest
    /// site are taken too ([`margins`]).
    fn build(
        &mut self,
        dy: &[f32],
        inside: &[bool],
        sites_inside: bool,
        wrap: bool,
        metric: Metric,
    ) -> Option<()> {
        let n = dy.len();
        let (left, right) = if wrap {
            margins(dy, inside, sites_inside, metric)
        } else {
            (0, 0)
        };
        self.len = n;
        self.sites.clear();
        self.starts.clear();
        self.sites.try_reserve(n + left + right).ok()?;
        self.starts.try_reserve(n + left + right).ok()?;
        let (a, down) = (T::from_i64(metric.across), T::from_i64(metric.down));
        let two = T::from_i64(2);
        for q in -(left as i64)..(n + right) as i64 {
            // The margins are at most half a period, so one period added or taken away
            // wraps (no division per column).
            let column = if q < 0 {
                (q + n as i64) as usize
            } else if q >= n as i64 {
                (q - n as i64) as usize
            } else {
                q as usize
            };
            let f = if inside[column] == sites_inside {
                T::default()
            } else if dy[column].is_finite() {
                let d = T::from_i64(dy[column] as i64);
                d * d * down
            } else {
                continue;
            };
            let q = T::from_i64(q);
            let mut start = (T::default(), T::from_i64(1));
            while let Some(&(v, fv)) = self.sites.last() {
                // The parabolas of v and q cross at s = (f(q) + a·q² − f(v) − a·v²) /
                // (2a·(q − v)); q hides v when that is not right of where v starts.
                let s = (f + a * q * q - fv - a * v * v, two * a * (q - v));
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
    fn read(&self, metric: Metric, mut each: impl FnMut(usize, Option<T>)) {
        if self.sites.is_empty() {
            for x in 0..self.len {
                each(x, None);
            }
            return;
        }
        let a = T::from_i64(metric.across);
        let mut k = 0;
        for x in 0..self.len {
            let p = T::from_i64(x as i64);
            while k + 1 < self.sites.len() && before(self.starts[k + 1], (p, T::from_i64(1))) {
                k += 1;
            }
            let (q, f) = self.sites[k];
            each(x, Some(f + a * (p - q) * (p - q)));
        }
    }
}

/// How many columns beyond the left and right ends of a wrapping row can hold the nearest
/// site of one of its texels. Texel x's own column is a site at down·dy(x)², so no site
/// farther than dy(x)·w/h texels across is nearer; a site beyond half a period has a nearer
/// copy on the other side.
fn margins(dy: &[f32], inside: &[bool], sites_inside: bool, metric: Metric) -> (usize, usize) {
    let n = dy.len();
    let half = n.div_ceil(2);
    let (mut left, mut right) = (0, 0);
    for (x, (&d, &i)) in dy.iter().zip(inside).enumerate() {
        if i == sites_inside {
            continue;
        }
        // Only a reach past what is already taken counts: ⌈dy·w/h⌉ > the margin plus the
        // columns to the edge, tried by a product before a division.
        let (to_left, to_right) = (left + x, right + n - 1 - x);
        let reach = if !d.is_finite() {
            half
        } else {
            let across = d as usize * metric.width;
            if across <= to_left.min(to_right) * metric.height {
                continue;
            }
            across.div_ceil(metric.height)
        };
        left = left.max(reach.saturating_sub(x));
        right = right.max(reach.saturating_sub(n - 1 - x));
    }
    (left.min(half), right.min(half))
}

/// Whether the fraction `a` is less than the fraction `b` (denominators positive; the
/// products fit, see [`Metric::fits_64_bits`]).
fn before<T: Exact>(a: (T, T), b: (T, T)) -> bool {
    a.0 * b.1 < b.0 * a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brute-force squared distance (in the integer metric) of texel (x, y) to the
    /// nearest texel across the threshold.
    fn brute(inside: &[bool], w: usize, h: usize, wrap: bool, x: usize, y: usize) -> Option<i64> {
        let m = Metric::new(w, h);
        let mut best = None;
        for (j, row) in inside.chunks_exact(w).enumerate() {
            for (i, &s) in row.iter().enumerate() {
                if s == inside[y * w + x] {
                    continue;
                }
                let (mut dx, mut dy) = ((i as i64 - x as i64).abs(), (j as i64 - y as i64).abs());
                if wrap {
                    dx = dx.min(w as i64 - dx);
                    dy = dy.min(h as i64 - dy);
                }
                let d = dx * dx * m.across + dy * dy * m.down;
                best = Some(best.map_or(d, |b: i64| b.min(d)));
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
                                    Some(d) => m.distance(d as f64),
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
    fn sixty_four_bits_serve_square_images_and_128_the_rest() {
        assert!(Metric::new(65536, 65536).fits_64_bits());
        assert!(Metric::new(4096, 1024).fits_64_bits());
        assert!(!Metric::new(1000, 1001).fits_64_bits());
    }

    #[test]
    fn both_widths_give_the_same_bits() {
        let (w, h) = (40, 30);
        for wrap in [false, true] {
            let image = Image {
                width: w as u32,
                height: h as u32,
                channels: 1,
                data: mask(w, h, 7, 20),
            };
            let sides = Sides {
                mask: &image,
                threshold: 0.5,
                w,
                wrap,
            };
            let mut narrow = vec![0.0; w * h];
            let wrapped = columns(sides, h, &mut narrow);
            let rows = Rows {
                sides,
                side: DistanceSide::Signed,
                metric: Metric::new(w, h),
                wrapped: wrapped.as_ref(),
                cancel: None,
            };
            let mut wide = narrow.clone();
            rows.run::<i64>(&mut narrow).unwrap();
            rows.run::<i128>(&mut wide).unwrap();
            assert!(
                narrow
                    .iter()
                    .zip(&wide)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
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
