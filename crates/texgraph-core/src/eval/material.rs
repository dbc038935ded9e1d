//! The material nodes' neighbourhood operations: horizon-based ambient occlusion and
//! curvature of a height (or a normal map). Like the other plane filters they read at
//! offsets in texture units with bilinear filtering, wrapping or clamping as the plane
//! does, so a thumbnail, a preview and an 8K export agree. Heights stand as in `normal`
//! at strength 1: height 1 is a tenth of the texture's width ([`RELIEF`]).

use std::f64::consts::TAU;

use super::planes::{self, PlaneView, RELIEF, TileAt};
use crate::kernels::dispatch::multiversion;

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
                let start = (at.row0 + r) * view.width + at.col0;
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
        horizon.fill(0.0);
        for tap in search.taps(d) {
            match place {
                Place::Grid { at, cols } => {
                    grid_horizon_k(&mut horizon, &centre, view, at, cols, tap)
                }
                Place::Free { u, v } => free_horizon_k(&mut horizon, &centre, view, u, v, tap),
            }
        }
        add_occlusion_k(out, &horizon);
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

/// The whole texels and the weight of an offset of `offset` texels along an axis.
fn split(offset: f64) -> (i64, f32) {
    let whole = offset.floor();
    (whole as i64, (offset - whole) as f32)
}

multiversion! {
    /// One read of the horizon search at the stage's own pixels: every pixel reads the
    /// same whole-texel offset with the same bilinear weights, so rows of the tile read
    /// runs of texels (the plane's rows where nothing wraps or clamps).
    fn grid_horizon_k(horizon: &mut [f32], centre: &[f32], view: &PlaneView<'_>, at: TileAt, cols: usize, tap: Tap) {
        let (w, h) = (view.width, view.height);
        let data = &view.data[..w * h];
        let (ix, tx) = split(tap.du * w as f64);
        let (iy, ty) = split(tap.dv * h as f64);
        let first = at.col0 as i64 + ix;
        // The columns read by the tile's pixels, unless they are one run of the row.
        let run = first >= 0 && first + cols as i64 + 1 <= w as i64;
        let (mut xa, mut xb) = (Vec::new(), Vec::new());
        if !run {
            xa = (0..cols as i64).map(|c| view.index(first + c, w)).collect();
            xb = (0..cols as i64).map(|c| view.index(first + c + 1, w)).collect();
        }
        let rows = horizon.len() / cols;
        for r in 0..rows {
            let row = (at.row0 + r) as i64 + iy;
            let (ya, yb) = (view.index(row, h) * w, view.index(row + 1, h) * w);
            let horizon = &mut horizon[r * cols..(r + 1) * cols];
            let centre = &centre[r * cols..(r + 1) * cols];
            if run {
                let start = first as usize;
                let top = &data[ya + start..ya + start + cols + 1];
                let bottom = &data[yb + start..yb + start + cols + 1];
                for c in 0..cols {
                    let p = planes::blend([top[c], top[c + 1], bottom[c], bottom[c + 1]], tx, ty);
                    horizon[c] = horizon[c].max((p - centre[c]) * tap.slope);
                }
            } else {
                for c in 0..cols {
                    let p = planes::blend(
                        [data[ya + xa[c]], data[ya + xb[c]], data[yb + xa[c]], data[yb + xb[c]]],
                        tx,
                        ty,
                    );
                    horizon[c] = horizon[c].max((p - centre[c]) * tap.slope);
                }
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
        horizon[i] = horizon[i].max((p - centre[i]) * tap.slope);
    }
}

/// Channel `ch` of `view` read bilinearly at (u, v) (the arithmetic of
/// [`PlaneView::bilinear`]).
#[inline(always)]
fn read<const WRAP: bool>(view: &PlaneView<'_>, u: f32, v: f32, ch: usize) -> f32 {
    let (w, c) = (view.width, view.channels);
    let (xa, xb, tx) = planes::axis::<WRAP>(u, w);
    let (ya, yb, ty) = planes::axis::<WRAP>(v, view.height);
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
