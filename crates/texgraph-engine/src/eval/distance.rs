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
//! In tileable graphs the mask repeats. Each column sweep carries on past its end into the
//! first rows again until a row no longer changes; a row's envelope also takes the columns
//! beyond its ends that can hold a texel's nearest site (any column bounds that reach), at
//! most half a period each side (which holds the nearest copy of every site). Of a run of
//! sites in a row only its two ends enter the envelope: every texel measured lies outside
//! the run, nearer one end than any column between.
//!
//! The columns' distances are kept in the output plane itself, as whole numbers in `f32`
//! negated for inside texels (so the plane also says which texels are inside, and the mask
//! is read once), and each row replaces its own with the result: the transform needs no
//! plane of its own.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::image::Image;
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
    if w == 0 || h == 0 {
        return Some(());
    }
    // The columns' distances go into `out`, which each row then overwrites with its own.
    columns(mask, threshold, wrap, &mut out.data);
    let metric = Metric::new(w, h);
    let rows = Rows {
        side,
        metric,
        wrap,
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

/// Whether a column distance (see [`columns`]) belongs to an inside texel.
#[inline]
fn is_inside(d: f32) -> bool {
    d.is_sign_negative()
}

/// Down each column, the distance in texels from each texel to the nearest texel of the
/// other side in its column (infinite when there is none), negated for inside texels, into
/// `dy`: a sweep down and a sweep up, row by row so that the loops run along the rows and
/// vectorize. Whole numbers up to 2²⁴ are exact in `f32`.
///
/// Wrapping, each sweep then carries on past its end into the first rows again, until a
/// row no longer changes: from there on every row is what the first round made it, so
/// the columns are cyclic at the cost of only the rows the wrap reaches.
fn columns(mask: &Image, threshold: f32, wrap: bool, dy: &mut [f32]) {
    let (w, h) = (mask.width as usize, mask.height as usize);
    let c = mask.channels;
    // Down: each texel is one further than the texel above when on its side, else 1.
    for y in 0..h {
        let (done, rest) = dy.split_at_mut(y * w);
        let above = done.get(done.len().wrapping_sub(w)..);
        let row = &mut rest[..w];
        let texels = &mask.data[y * w * c..(y + 1) * w * c];
        // One channel (what the compiler makes of a mask): loops that vectorize.
        if c == 1 {
            down(row, texels.iter().copied(), threshold, above);
        } else {
            down(row, texels.iter().step_by(c).copied(), threshold, above);
        }
    }
    if wrap && h > 1 {
        for y in 0..h {
            let (row, above) = two_rows(dy, w, y, (y + h - 1) % h);
            if !relax(row, above) {
                break;
            }
        }
    }
    // Up: the texel below is final, so each texel only needs one step from it.
    for y in (0..h.saturating_sub(1)).rev() {
        let (row, below) = two_rows(dy, w, y, y + 1);
        relax(row, below);
    }
    if wrap && h > 1 {
        for y in (0..h).rev() {
            let (row, below) = two_rows(dy, w, y, (y + 1) % h);
            if !relax(row, below) {
                break;
            }
        }
    }
}

/// Row `a` of `dy` mutably and row `b` (another row) shared.
fn two_rows(dy: &mut [f32], w: usize, a: usize, b: usize) -> (&mut [f32], &[f32]) {
    if a < b {
        let (first, second) = dy.split_at_mut(b * w);
        (&mut first[a * w..(a + 1) * w], &second[..w])
    } else {
        let (first, second) = dy.split_at_mut(a * w);
        (&mut second[..w], &first[b * w..(b + 1) * w])
    }
}

/// The column distances of a row whose texels' values are `texels`, from those of the row
/// `above` it (none for the first row, whose texels see nothing above).
fn down(row: &mut [f32], texels: impl Iterator<Item = f32>, threshold: f32, above: Option<&[f32]>) {
    match above {
        None => {
            for (d, t) in row.iter_mut().zip(texels) {
                *d = if t > threshold {
                    f32::NEG_INFINITY
                } else {
                    f32::INFINITY
                };
            }
        }
        Some(above) => {
            for ((d, t), &a) in row.iter_mut().zip(texels).zip(above) {
                let inside = t > threshold;
                let m = if inside == is_inside(a) {
                    a.abs() + 1.0
                } else {
                    1.0
                };
                *d = if inside { -m } else { m };
            }
        }
    }
}

/// Lowers the column distances of `row` to one step beyond those of its neighbour `next`
/// (1 where the neighbour is on the other side); whether any changed.
fn relax(row: &mut [f32], next: &[f32]) -> bool {
    let mut changed = 0u32;
    for (d, &n) in row.iter_mut().zip(next) {
        let old = *d;
        let m = if (old.to_bits() ^ n.to_bits()) >> 31 == 0 {
            n.abs() + 1.0
        } else {
            1.0
        };
        // Plain comparisons rather than `min`: no NaN gets here, and they vectorize.
        let new = if m < old.abs() { m.copysign(old) } else { old };
        changed |= u32::from(new != old);
        *d = new;
    }
    changed != 0
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

    /// The distance of squared distance `squared`, as [`finish`] computes it (there in a
    /// loop of its own).
    #[cfg(test)]
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
    side: DistanceSide,
    metric: Metric,
    wrap: bool,
    cancel: Option<&'a AtomicBool>,
}

impl Rows<'_> {
    /// Replaces each row of `data` (the columns' distances, see [`columns`]) with the
    /// texels' distances.
    fn run<T: Exact>(&self, data: &mut [f32]) -> Option<()> {
        let (w, metric, wrap) = (self.metric.width, self.metric, self.wrap);
        // Outside texels measure to the inside ones, and inside texels to the outside ones:
        // the factor on the distance of inside and of outside texels.
        let (inside_sign, outside_sign) = match self.side {
            DistanceSide::Outside => (0.0, 1.0),
            DistanceSide::Inside => (1.0, 0.0),
            DistanceSide::Signed => (-1.0, 1.0),
        };
        data.par_chunks_mut(w).try_for_each_init(
            || (Envelope::<T>::default(), Vec::new()),
            |(envelope, squared), row| -> Option<()> {
                if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return Some(());
                }
                if squared.len() != w {
                    squared.try_reserve_exact(w).ok()?;
                    squared.resize(w, 0.0);
                }
                // Each texel is measured by one envelope, so the row is read whole until
                // the last one is built, then overwritten once.
                if outside_sign != 0.0 {
                    envelope.build(row, true, wrap, metric)?;
                    envelope.read(row, true, squared, metric);
                }
                if inside_sign != 0.0 {
                    envelope.build(row, false, wrap, metric)?;
                    envelope.read(row, false, squared, metric);
                }
                finish(row, squared, metric.scale, inside_sign, outside_sign);
                Some(())
            },
        )
    }
}

/// Replaces the column distances of `row` with the texels' distances from their squared
/// distances `squared` (infinite where there is no site: [`FAR`]), times `inside_sign`
/// for inside texels and `outside_sign` for the others (0 for texels not measured). In a
/// loop of its own so that the square roots vectorize.
fn finish(row: &mut [f32], squared: &[f64], scale: f64, inside_sign: f32, outside_sign: f32) {
    for (d, &s) in row.iter_mut().zip(squared) {
        let distance = (s.sqrt() * scale) as f32;
        let distance = if distance < FAR { distance } else { FAR };
        *d = if is_inside(*d) {
            inside_sign
        } else {
            outside_sign
        } * distance;
    }
}

/// One parabola of an envelope.
#[derive(Clone, Copy)]
struct Parabola<T> {
    /// Its column q.
    q: T,
    /// f(q).
    f: T,
    /// f(q) + across·q², which the breakpoints are differences of.
    g: T,
    /// Where it starts: a fraction (numerator, denominator > 0), but −1/0 (−∞) for the
    /// first.
    start: (T, T),
}

/// The lower envelope of the parabolas f(q) + across·(x − q)² of one row.
#[derive(Default)]
struct Envelope<T> {
    parabolas: Vec<Parabola<T>>,
}

impl<T: Exact> Envelope<T> {
    /// Builds the envelope of a row, of column distances `row`, for the texels not on the
    /// side `sites_inside`: column q is a site of f(q) = 0 where its texel is on that side,
    /// else of f(q) = down·dy(q)² (none where dy is infinite). Wrapping, the columns beyond
    /// each end that may hold a texel's nearest site are taken too ([`margins`]).
    ///
    /// Of a run of sites of f = 0, only the ends are taken: the texels measured all lie
    /// outside the run, so one of its ends is always at least as near as the rest.
    fn build(&mut self, row: &[f32], sites_inside: bool, wrap: bool, metric: Metric) -> Option<()> {
        let n = row.len();
        let (left, right) = if wrap {
            margins(row, sites_inside, metric)
        } else {
            (0, 0)
        };
        self.parabolas.clear();
        self.parabolas.try_reserve(n + left + right).ok()?;
        let mut push = Push {
            parabolas: &mut self.parabolas,
            a: T::from_i64(metric.across),
            two_a: T::from_i64(2 * metric.across),
            down: T::from_i64(metric.down),
            sites_inside,
            run: None,
            previous_zero: false,
        };
        // The margins are at most half a period, so the columns beyond the ends are those
        // of the row's other end, one period away.
        push.columns(&row[n - left..], -(left as i64));
        push.columns(row, 0);
        push.columns(&row[..right], n as i64);
        push.end_run();
        Some(())
    }

    /// Writes into `squared` the envelope's squared distance at each texel not on the side
    /// `sites_inside` (the texels measured, by their column distances `row`), as `f64`;
    /// infinite when the row has no site.
    fn read(&self, row: &[f32], sites_inside: bool, squared: &mut [f64], metric: Metric) {
        let parabolas = &self.parabolas[..];
        let measured = |d: f32| is_inside(d) != sites_inside;
        if parabolas.is_empty() {
            for (s, &d) in squared.iter_mut().zip(row) {
                if measured(d) {
                    *s = f64::INFINITY;
                }
            }
            return;
        }
        let a = T::from_i64(metric.across);
        let mut k = 0;
        for (x, (s, &d)) in squared.iter_mut().zip(row).enumerate() {
            if !measured(d) {
                continue;
            }
            let p = T::from_i64(x as i64);
            // Past each breakpoint left of p.
            let one = T::from_i64(1);
            while parabolas
                .get(k + 1)
                .is_some_and(|next| before(next.start, (p, one)))
            {
                k += 1;
            }
            let Parabola { q, f, .. } = parabolas[k];
            *s = (f + a * (p - q) * (p - q)).to_f64();
        }
    }
}

/// The state of an envelope's construction, column by column.
struct Push<'a, T> {
    parabolas: &'a mut Vec<Parabola<T>>,
    a: T,
    two_a: T,
    down: T,
    sites_inside: bool,
    /// The last column of the run of sites of f = 0 under way, not yet taken.
    run: Option<i64>,
    /// Whether the previous column was a site of f = 0.
    previous_zero: bool,
}

impl<T: Exact> Push<'_, T> {
    /// Takes the columns `row` (column distances), the first being column `first`.
    fn columns(&mut self, row: &[f32], first: i64) {
        for (q, &d) in (first..).zip(row) {
            if is_inside(d) == self.sites_inside {
                if self.previous_zero {
                    self.run = Some(q);
                } else {
                    self.push(q, T::default());
                    self.previous_zero = true;
                }
                continue;
            }
            self.end_run();
            if d.is_finite() {
                let d = T::from_i64(d.abs() as i64);
                self.push(q, d * d * self.down);
            }
        }
    }

    /// Takes the last column of the run of sites of f = 0 under way, if not yet taken.
    fn end_run(&mut self) {
        if let Some(q) = self.run.take() {
            self.push(q, T::default());
        }
        self.previous_zero = false;
    }

    /// Adds the parabola of column q (right of all before) and f(q) = f, hiding those it
    /// covers from where they start.
    #[inline]
    fn push(&mut self, q: i64, f: T) {
        let q = T::from_i64(q);
        let g = f + self.a * q * q;
        // The first parabola starts at −∞, the fraction −1/0: before every other, so it is
        // never hidden.
        let mut start = (T::from_i64(-1), T::default());
        while let Some(v) = self.parabolas.last() {
            // The parabolas of v and q cross at s = (g(q) − g(v)) / (2a·(q − v)); q hides v
            // when that is not right of where v starts.
            let s = (g - v.g, self.two_a * (q - v.q));
            if !before(v.start, s) {
                self.parabolas.pop();
                continue;
            }
            start = s;
            break;
        }
        self.parabolas.push(Parabola { q, f, g, start });
    }
}

/// How many columns beyond the left and right ends of a wrapping row (of column distances
/// `row`) can hold the nearest site of one of its texels, for sites on the side
/// `sites_inside`. Column x' bounds every texel x's distance, in texels across, by
/// reach(x') + |x − x'|, where reach is 0 for a site of f = 0 and dy(x')·w/h else; no
/// site farther than that is nearer. That bound grows by at most 1 a column, so the
/// farthest left any texel needs is its least at the first column, min(reach(x') + x'),
/// and the same on the right. A site beyond half a period has a nearer copy on the other
/// side. The search stops where x' alone passes the bound.
fn margins(row: &[f32], sites_inside: bool, metric: Metric) -> (usize, usize) {
    let n = row.len();
    let half = n.div_ceil(2);
    let reach = |d: f32| {
        if is_inside(d) == sites_inside {
            0
        } else if d.is_finite() {
            (d.abs() as usize * metric.width).div_ceil(metric.height)
        } else {
            usize::MAX
        }
    };
    let mut left = half;
    for (x, &d) in row.iter().enumerate() {
        if x >= left {
            break;
        }
        left = left.min(x.saturating_add(reach(d)));
    }
    let mut right = half;
    for (x, &d) in row.iter().rev().enumerate() {
        if x >= right {
            break;
        }
        right = right.min(x.saturating_add(reach(d)));
    }
    (left, right)
}

/// Whether the fraction `a` is less than the fraction `b` (`b`'s denominator positive,
/// `a`'s positive or −1/0, which is less than any `b`; the products fit, see
/// [`Metric::fits_64_bits`]).
#[inline]
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
            let mut narrow = vec![0.0; w * h];
            columns(&image, 0.5, wrap, &mut narrow);
            let rows = Rows {
                side: DistanceSide::Signed,
                metric: Metric::new(w, h),
                wrap,
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

    /// Shapes the random masks miss: long uniform runs down and across (which the wrapping
    /// sweeps carry round and the row margins reach over), lone texels, and masks of four
    /// channels (of which only the first counts).
    #[test]
    fn structured_masks_equal_a_brute_force_search() {
        for (w, h) in [(3, 70), (70, 3), (33, 33), (1, 1), (2, 2)] {
            for kind in 0..4 {
                let inside: Vec<bool> = (0..w * h)
                    .map(|i| {
                        let (x, y) = (i % w, i / w);
                        match kind {
                            0 => ((x as f32 * 0.3).sin() + (y as f32 * 0.2).cos()) > 0.8,
                            1 => x == w / 3 && y % 3 == 0,
                            2 => y == h / 2,
                            _ => x * x + y * y < 4,
                        }
                    })
                    .collect();
                let channels = 4;
                let data = inside
                    .iter()
                    .flat_map(|&i| [if i { 1.0 } else { 0.0 }, 0.7, 0.7, 0.7])
                    .collect();
                let image = Image {
                    width: w as u32,
                    height: h as u32,
                    channels,
                    data,
                };
                let m = Metric::new(w, h);
                for wrap in [false, true] {
                    let mut out = Image {
                        width: w as u32,
                        height: h as u32,
                        channels: 1,
                        data: vec![9.0; w * h],
                    };
                    distance(&image, 0.5, DistanceSide::Signed, wrap, None, &mut out).unwrap();
                    for (j, &i) in inside.iter().enumerate() {
                        let d = match brute(&inside, w, h, wrap, j % w, j / w) {
                            Some(d) => m.distance(d as f64),
                            None => FAR,
                        };
                        let expected = if i { -d } else { d };
                        assert_eq!(
                            out.data[j].to_bits(),
                            expected.to_bits(),
                            "{w}x{h} kind {kind} wrap {wrap} at texel {j}"
                        );
                    }
                }
            }
        }
    }
}
