//! The material nodes' neighbourhood operations: horizon-based ambient occlusion and
//! curvature of a height (or a normal map). Like the other plane filters they read at
//! offsets in texture units with bilinear filtering, wrapping or clamping as the plane
//! does, so a thumbnail, a preview and an 8K export agree. Heights stand as in `normal`
//! at strength 1: height 1 is a tenth of the texture's width ([`RELIEF`]).

use std::f64::consts::TAU;

use super::planes::{self, PlaneView, RELIEF, TileAt};
use texgraph_kernels::dispatch::multiversion;

/// Where a tile's samples are.
#[derive(Clone, Copy)]
pub(super) enum Place<'a> {
    /// The stage's own pixels, on a plane of the grid's size: `cols` samples a row at
    /// `at`. Offsets are then the same whole texels and weights for every pixel.
    Grid {
        /// The tile on the grid.
        at: TileAt,
        /// Samples per tile row.
        cols: usize,
    },
    /// Anywhere: u and v per sample.
    Free {
        /// Sample u.
        u: &'a [f32],
        /// Sample v.
        v: &'a [f32],
    },
}

/// The horizon search of an occlusion: `directions` evenly spread, the first half a step
/// from the u axis, each read at `steps` distances radius·s/steps (s = 1 … steps).
#[derive(Clone, Copy)]
pub struct Horizon {
    /// Farthest read, texture units.
    pub radius: f32,
    /// Directions searched.
    pub directions: u32,
    /// Reads along each.
    pub steps: u32,
}

/// One read of the search: its offset in texture units and the factor turning a height
/// difference there into the tangent of its elevation angle.
#[derive(Clone, Copy)]
struct Tap {
    du: f64,
    dv: f64,
    slope: f32,
}

impl Horizon {
    /// The reads of direction `d`, nearest first.
    fn taps(self, d: u32) -> impl Iterator<Item = Tap> {
        let angle = TAU * (f64::from(d) + 0.5) / f64::from(self.directions);
        let (sin, cos) = angle.sin_cos();
        let radius = f64::from(self.radius.abs());
        (1..=self.steps).map(move |s| {
            let distance = radius * f64::from(s) / f64::from(self.steps);
            Tap {
                du: distance * cos,
                dv: distance * sin,
                slope: (f64::from(RELIEF) / distance) as f32,
            }
        })
    }
}

thread_local! {
    /// Per-sample buffers of the material filters, kept per thread between tiles.
    static SCRATCH: std::cell::Cell<[Vec<f32>; 2]> = const { std::cell::Cell::new([Vec::new(), Vec::new()]) };
}

/// Two buffers of `n` samples (contents unspecified), from the thread's scratch.
fn scratch(n: usize) -> [Vec<f32>; 2] {
    let mut buffers = SCRATCH.take();
    for b in &mut buffers {
        b.resize(n, 0.0);
    }
    buffers
}

/// Horizon-based ambient occlusion of the height `view` at the tile's samples, written
/// to `out`: for each direction of `search`, the largest tangent of the elevation of a
/// read above the sample, t = max(0, max over reads of (h − h₀)·RELIEF / distance); its
/// occlusion is sin(atan t) = t / √(1 + t²); out = clamp(1 − strength·mean, 0, 1). A flat
/// height gives exactly 1.
pub(super) fn occlusion(
    out: &mut [f32],
    view: &PlaneView<'_>,
    place: Place<'_>,
    search: Horizon,
    strength: impl Fn(usize) -> f32,
) {
    let n = out.len();
    let [mut centre, mut horizon] = scratch(n);
    match place {
        Place::Grid { at, cols } => {
            for (r, row) in centre.chunks_exact_mut(cols).enumerate() {
                let start = view.row(at.row0 + r) * view.width + at.col0;
                row.copy_from_slice(&view.data[start..start + cols]);
            }
        }
        Place::Free { u, v } => {
            for i in 0..n {
                centre[i] = view.bilinear(u[i], v[i])[0];
            }
        }
    }
    out.fill(0.0);
    for d in 0..search.directions {
        match place {
            Place::Grid { at, cols } => {
                let taps: Vec<GridTap> = search.taps(d).map(|t| GridTap::new(t, view)).collect();
                grid_direction_k(out, &mut horizon, &centre, view, at, cols, &taps);
            }
            Place::Free { u, v } => {
                horizon.fill(0.0);
                for tap in search.taps(d) {
                    free_horizon_k(&mut horizon, &centre, view, u, v, tap);
                }
                add_occlusion_k(out, &horizon);
            }
        }
    }
    let inv = 1.0 / search.directions as f32;
    for (i, o) in out.iter_mut().enumerate() {
        #[allow(clippy::manual_clamp)] // max/min (not clamp): a NaN lands on a bound
        {
            *o = (1.0 - strength(i) * (*o * inv)).max(0.0).min(1.0);
        }
    }
    SCRATCH.set([centre, horizon]);
}

multiversion! {
    /// sum += t / √(1 + t²) per sample.
    fn add_occlusion_k(sum: &mut [f32], horizon: &[f32]) {
        let horizon = &horizon[..sum.len()];
        for (s, &t) in sum.iter_mut().zip(horizon) {
            *s += t / (1.0 + t * t).sqrt();
        }
    }
}

/// The larger of a horizon so far and a read's tangent: one instruction (planes hold no
/// NaN, so `f32::max`'s care for it is not needed).
#[inline(always)]
fn higher(horizon: f32, t: f32) -> f32 {
    if t > horizon { t } else { horizon }
}

/// The whole texels and the weight of an offset of `offset` texels along an axis.
fn split(offset: f64) -> (i64, f32) {
    let whole = offset.floor();
    (whole as i64, (offset - whole) as f32)
}

/// A [`Tap`] on the plane's grid: every pixel reads the texels `dx`, `dy` (and one more)
/// away, blended with the same weights.
#[derive(Clone, Copy)]
struct GridTap {
    dx: i64,
    dy: i64,
    tx: f32,
    ty: f32,
    slope: f32,
}

impl GridTap {
    fn new(tap: Tap, view: &PlaneView<'_>) -> Self {
        let (dx, tx) = split(tap.du * view.width as f64);
        let (dy, ty) = split(tap.dv * view.height as f64);
        Self {
            dx,
            dy,
            tx,
            ty,
            slope: tap.slope,
        }
    }
}

multiversion! {
    /// One direction of the horizon search at the stage's own pixels, added to `out`
    /// (see [`occlusion`]); `horizon` is scratch. Row by row, each read of the direction
    /// in turn, so a row's horizon stays in cache: within the plane a row's reads are a
    /// run of texels, and only columns whose reads wrap or clamp look their texels up.
    #[allow(clippy::too_many_arguments)]
    fn grid_direction_k(out: &mut [f32], horizon: &mut [f32], centre: &[f32], view: &PlaneView<'_>, at: TileAt, cols: usize, taps: &[GridTap]) {
        let (w, h) = (view.width, view.height);
        let data = &view.data[..view.held()];
        let rows = out.len() / cols;
        let horizon = &mut horizon[..cols];
        for r in 0..rows {
            let out = &mut out[r * cols..(r + 1) * cols];
            let centre = &centre[r * cols..(r + 1) * cols];
            horizon.fill(0.0);
            for tap in taps {
                let row = (at.row0 + r) as i64 + tap.dy;
                let (ya, yb) = (view.row(view.index(row, h)) * w, view.row(view.index(row + 1, h)) * w);
                // Columns c whose texels first + c and first + c + 1 are inside the row.
                let first = at.col0 as i64 + tap.dx;
                let lo = (-first).clamp(0, cols as i64) as usize;
                let hi = (w as i64 - 1 - first).clamp(lo as i64, cols as i64) as usize;
                for c in (0..lo).chain(hi..cols) {
                    let (xa, xb) = (view.index(first + c as i64, w), view.index(first + c as i64 + 1, w));
                    let p = planes::blend([data[ya + xa], data[ya + xb], data[yb + xa], data[yb + xb]], tap.tx, tap.ty);
                    horizon[c] = higher(horizon[c], (p - centre[c]) * tap.slope);
                }
                if lo < hi {
                    let start = (first + lo as i64) as usize;
                    let len = hi - lo;
                    // Four slices of exactly `len`, so the loop has no tail.
                    let (top, top_right) = (&data[ya + start..][..len], &data[ya + start + 1..][..len]);
                    let (bottom, bottom_right) = (&data[yb + start..][..len], &data[yb + start + 1..][..len]);
                    let (horizon, centre) = (&mut horizon[lo..hi], &centre[lo..hi]);
                    for c in 0..len {
                        let p = planes::blend([top[c], top_right[c], bottom[c], bottom_right[c]], tap.tx, tap.ty);
                        horizon[c] = higher(horizon[c], (p - centre[c]) * tap.slope);
                    }
                }
            }
            for (o, &t) in out.iter_mut().zip(horizon.iter()) {
                *o += t / (1.0 + t * t).sqrt();
            }
        }
    }
}

multiversion! {
    /// One read of the horizon search at samples anywhere: bilinear at (u + du, v + dv).
    fn free_horizon_k(horizon: &mut [f32], centre: &[f32], view: &PlaneView<'_>, u: &[f32], v: &[f32], tap: Tap) {
        if view.wrap {
            free_horizon::<true>(horizon, centre, view, u, v, tap);
        } else {
            free_horizon::<false>(horizon, centre, view, u, v, tap);
        }
    }
}

#[inline(always)]
fn free_horizon<const WRAP: bool>(
    horizon: &mut [f32],
    centre: &[f32],
    view: &PlaneView<'_>,
    u: &[f32],
    v: &[f32],
    tap: Tap,
) {
    let n = horizon.len();
    let (centre, u, v) = (&centre[..n], &u[..n], &v[..n]);
    let (du, dv) = (tap.du as f32, tap.dv as f32);
    for i in 0..n {
        let p = read::<WRAP>(view, u[i] + du, v[i] + dv, 0);
        horizon[i] = higher(horizon[i], (p - centre[i]) * tap.slope);
    }
}

/// Channel `ch` of `view` read bilinearly at (u, v) (the arithmetic of
/// [`PlaneView::bilinear`]).
#[inline(always)]
fn read<const WRAP: bool>(view: &PlaneView<'_>, u: f32, v: f32, ch: usize) -> f32 {
    let (w, c) = (view.width, view.channels);
    let (xa, xb, tx) = planes::axis::<WRAP>(u, w);
    let (ya, yb, ty) = planes::axis::<WRAP>(v, view.height);
    let (ya, yb) = (view.row(ya), view.row(yb));
    let at = |x: usize, y: usize| view.data[(y * w + x) * c + ch];
    planes::blend([at(xa, ya), at(xb, ya), at(xa, yb), at(xb, yb)], tx, ty)
}

/// Mean differences smaller than this fraction of the heights read are rounding, not
/// curvature: a linear ramp gives exactly 0.5.
const CURVATURE_FLOOR: f32 = 1.0 / (1 << 18) as f32;

/// Curvature at the samples (u, v), written to `out` as clamp(0.5 + 0.5·strength·c, 0, 1):
/// - of a height (`normal` false): d = mean of eight reads on the circle of `radius`
///   around the sample − the height there, c = −8·RELIEF·d / radius (for a smooth height
///   about −2·radius·RELIEF·∇²h; d within [`CURVATURE_FLOOR`] of the heights counts as 0);
/// - of a normal map: c = 2·((r(u + radius) − r(u − radius)) + (g(v − radius) −
///   g(v + radius))), the change of the normal's x and y (y up) across the diameter:
///   the same quantity for the normal map of the height.
pub(super) fn curvature(
    out: &mut [f32],
    view: &PlaneView<'_>,
    (u, v): (&[f32], &[f32]),
    radius: f32,
    normal: bool,
    strength: impl Fn(usize) -> f32,
) {
    let r = radius.abs();
    let [mut acc, mut mag] = scratch(out.len());
    let scale = if normal {
        curvature_normal_k(&mut acc, view, u, v, r);
        1.0
    } else {
        curvature_height_k(&mut acc, &mut mag, view, u, v, r);
        -8.0 * RELIEF / r
    };
    for (i, o) in out.iter_mut().enumerate() {
        #[allow(clippy::manual_clamp)] // max/min (not clamp): a NaN lands on a bound
        {
            *o = (0.5 + 0.5 * strength(i) * (acc[i] * scale))
                .max(0.0)
                .min(1.0);
        }
    }
    SCRATCH.set([acc, mag]);
}

multiversion! {
    /// acc = the normal map's change across the diameter (see [`curvature`]).
    fn curvature_normal_k(acc: &mut [f32], view: &PlaneView<'_>, u: &[f32], v: &[f32], r: f32) {
        if view.wrap {
            curvature_normal::<true>(acc, view, u, v, r);
        } else {
            curvature_normal::<false>(acc, view, u, v, r);
        }
    }
}

#[inline(always)]
fn curvature_normal<const WRAP: bool>(
    acc: &mut [f32],
    view: &PlaneView<'_>,
    u: &[f32],
    v: &[f32],
    r: f32,
) {
    let n = acc.len();
    let (u, v) = (&u[..n], &v[..n]);
    // A scalar plane is a gray normal map: its one channel is red and green.
    let green = usize::from(view.channels > 1);
    for i in 0..n {
        let dx = read::<WRAP>(view, u[i] + r, v[i], 0) - read::<WRAP>(view, u[i] - r, v[i], 0);
        let dy =
            read::<WRAP>(view, u[i], v[i] - r, green) - read::<WRAP>(view, u[i], v[i] + r, green);
        acc[i] = 2.0 * (dx + dy);
    }
}

multiversion! {
    /// acc = the mean height on the circle − the height at the sample, 0 within the
    /// rounding of the heights (see [`curvature`]); `mag` is scratch.
    fn curvature_height_k(acc: &mut [f32], mag: &mut [f32], view: &PlaneView<'_>, u: &[f32], v: &[f32], r: f32) {
        if view.wrap {
            curvature_height::<true>(acc, mag, view, u, v, r);
        } else {
            curvature_height::<false>(acc, mag, view, u, v, r);
        }
    }
}

#[inline(always)]
fn curvature_height<const WRAP: bool>(
    acc: &mut [f32],
    mag: &mut [f32],
    view: &PlaneView<'_>,
    u: &[f32],
    v: &[f32],
    r: f32,
) {
    let n = acc.len();
    let (mag, u, v) = (&mut mag[..n], &u[..n], &v[..n]);
    // The centre goes to `mag` first, then becomes the largest magnitude read.
    for i in 0..n {
        mag[i] = read::<WRAP>(view, u[i], v[i], 0);
    }
    let diagonal = (f64::from(r) * std::f64::consts::FRAC_1_SQRT_2) as f32;
    let ring = [
        (r, 0.0),
        (-r, 0.0),
        (0.0, r),
        (0.0, -r),
        (diagonal, diagonal),
        (-diagonal, -diagonal),
        (diagonal, -diagonal),
        (-diagonal, diagonal),
    ];
    for i in 0..n {
        let centre = mag[i];
        let mut sum = 0.0;
        let mut largest = centre.abs();
        for &(du, dv) in &ring {
            let p = read::<WRAP>(view, u[i] + du, v[i] + dv, 0);
            sum += p - centre;
            largest = largest.max(p.abs());
        }
        let d = sum * 0.125;
        acc[i] = if d.abs() <= largest * CURVATURE_FLOOR {
            0.0
        } else {
            d
        };
    }
}
