//! One operation over one tile. Every hot loop here is monomorphic (uniform operands are
//! separate instantiations from per-sample ones) and branch-free, so it vectorizes, and
//! sits in a small kernel compiled once per instruction-set level.

use std::sync::Arc;

use texgraph_kernels::dispatch::{Level, level, multiversion};

#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512};
use super::{instances, simplex_grid3};
use crate::program::{
    Binary, BlendMode, InstanceShape, Instr, Interpolation, MAX_ARITY, NormalBlendMode, Op,
    Operand, Program, SlopeMode, U_SLOT, Unary, V_SLOT,
};
use texgraph_kernels::cellular::{self, CHUNK as CELL_CHUNK, Cellular, Feature, Samples, Search};
use texgraph_kernels::curve::Curve;
use texgraph_kernels::gradient::Ramp;
use texgraph_kernels::noise::{
    CornerTable, MAX_TABLE_PERIOD, PLAIN_TABLE_LEN, Permutation, ROW_PAD, cell_index, constant,
    cosine, fade, linear, period_of, perlin3, split_vectorized, value2,
};
use texgraph_kernels::perlin_bits::{cell_bits, perlin_plane_bits, perlin_volume_bits};
use texgraph_kernels::scalar::{self, LUMA};
use texgraph_kernels::shapes::{self, ShapeKind};
use texgraph_kernels::simplex;

use super::coordinates::Coordinates;
use super::flood;
use super::grid;
use super::lanes::{Arg, Finish, Lane, Uniform};
use super::material::{self, Horizon, Place};
use super::planes::{self, PlaneView, TileAt};

/// The lookup tables operations refer to by index.
#[derive(Clone, Copy)]
pub struct Tables<'p> {
    /// Perlin permutations.
    pub permutations: &'p [Arc<Permutation>],
    /// Color ramps.
    pub ramps: &'p [Arc<Ramp>],
    /// Curves.
    pub curves: &'p [Arc<Curve>],
    /// Perlin corner tables.
    pub corners: &'p [Arc<CornerTable>],
    /// The planes alive while a stage runs (empty when folding constants).
    pub planes: &'p [Option<PlaneView<'p>>],
}

impl<'p> Tables<'p> {
    /// The tables of `program`, with the planes a stage may read.
    pub fn of(program: &'p Program, planes: &'p [Option<PlaneView<'p>>]) -> Self {
        Self {
            permutations: &program.permutations,
            ramps: &program.ramps,
            curves: &program.curves,
            corners: &program.tables,
            planes,
        }
    }

    /// Plane `index`, which the stage order guarantees is computed.
    fn plane(&self, index: u32) -> &PlaneView<'p> {
        self.planes[index as usize]
            .as_ref()
            .expect("a plane is computed before the stages that read it")
    }
}

/// Calls `$f($pre..., lanes...)` with each [`Arg`] turned into a [`Lane`] of its own
/// type, so each combination of uniform and per-sample operands gets its own loop.
macro_rules! lanes {
    ($f:ident($($pre:expr),*); $n:expr; $($arg:expr),+) => {
        lanes!(@go $f($($pre),*); $n; []; $($arg),+)
    };
    (@go $f:ident($($pre:expr),*); $n:expr; [$($done:expr),*]; $head:expr $(, $rest:expr)*) => {
        match $head {
            Arg::C(c) => lanes!(@go $f($($pre),*); $n; [$($done,)* Uniform(c)]; $($rest),*),
            Arg::S(s) => {
                let s: &[f32] = &s[..$n];
                lanes!(@go $f($($pre),*); $n; [$($done,)* s]; $($rest),*)
            }
        }
    };
    (@go $f:ident($($pre:expr),*); $n:expr; [$($done:expr),*];) => { $f($($pre,)* $($done),*) };
}

#[inline(always)]
fn map1(out: &mut [f32], f: impl Fn(f32) -> f32, a: impl Lane) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(a.get(i));
    }
}

#[inline(always)]
fn map2(out: &mut [f32], f: impl Fn(f32, f32) -> f32, a: impl Lane, b: impl Lane) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(a.get(i), b.get(i));
    }
}

#[inline(always)]
fn map3(
    out: &mut [f32],
    f: impl Fn(f32, f32, f32) -> f32,
    a: impl Lane,
    b: impl Lane,
    c: impl Lane,
) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(a.get(i), b.get(i), c.get(i));
    }
}

#[inline(always)]
fn map4(
    out: &mut [f32],
    f: impl Fn(f32, f32, f32, f32) -> f32,
    a: impl Lane,
    b: impl Lane,
    c: impl Lane,
    d: impl Lane,
) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(a.get(i), b.get(i), c.get(i), d.get(i));
    }
}

/// Where an operation runs: the tile's coordinates, its columns, and where it lies.
#[derive(Clone, Copy)]
struct Frame<'c> {
    coordinates: &'c Coordinates,
    cols: usize,
    at: TileAt,
}

/// Whether an operation samples at the image's own coordinates (u depends only on the
/// column, v only on the row), where the grid kernels and grid reads apply.
fn image_frame(x: Operand, y: Operand) -> bool {
    (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT))
}

/// Runs `instr` over the first `n` samples of `slots`: a tile of rows of `cols` samples at
/// `at` on the stage's grid.
#[allow(clippy::too_many_arguments)]
pub(super) fn step(
    slots: &mut [Vec<f32>],
    coordinates: &Coordinates,
    tables: &Tables<'_>,
    instr: &Instr,
    n: usize,
    cols: usize,
    at: TileAt,
) {
    let first = instr.dst as usize;
    // The coordinate planes are written once a tile (v once a band) and only read.
    debug_assert!(first > V_SLOT as usize && first > U_SLOT as usize);
    let arity = instr.op.arity() as usize;
    // Destinations are moved out so that sources can be borrowed beside them; an
    // operation never reads its own destination. Empty vectors do not allocate.
    let mut outs: [Vec<f32>; MAX_ARITY as usize] = Default::default();
    for (k, out) in outs.iter_mut().enumerate().take(arity) {
        *out = std::mem::take(&mut slots[first + k]);
    }
    {
        let slots = &*slots;
        let arg = |o: Operand| match o {
            Operand::Const(c) => Arg::C(c),
            Operand::Slot(U_SLOT) => Arg::S(&coordinates.u()[..n]),
            Operand::Slot(V_SLOT) => Arg::S(&coordinates.v()[..n]),
            Operand::Slot(s) => Arg::S(&slots[s as usize][..n]),
        };
        let mut dst = outs.each_mut().map(|v| {
            let len = n.min(v.len());
            &mut v[..len]
        });
        let frame = Frame {
            coordinates,
            cols,
            at,
        };
        apply(&instr.op, tables, &arg, &mut dst[..arity], frame);
    }
    for (k, out) in outs.into_iter().enumerate().take(arity) {
        slots[first + k] = out;
    }
}

/// Evaluates an operation whose operands are all constants (compile-time folding);
/// returns its one or four results.
pub fn apply_uniform(op: &Op, tables: &Tables<'_>) -> [f32; 4] {
    let mut out = [[0.0f32; 1]; 4];
    let arity = op.arity() as usize;
    let arg = |o: Operand| Arg::C(o.as_const().expect("uniform operands"));
    let [a, b, c, d] = &mut out;
    let mut dst: [&mut [f32]; 4] = [a, b, c, d];
    let none = Coordinates::new();
    let frame = Frame {
        coordinates: &none,
        cols: 1,
        at: TileAt::default(),
    };
    apply(op, tables, &arg, &mut dst[..arity], frame);
    out.map(|v| v[0])
}

/// Runs one operation over a tile whose rows of `cols` samples follow one another.
fn apply<'s>(
    op: &Op,
    tables: &Tables<'_>,
    arg: &dyn Fn(Operand) -> Arg<'s>,
    dst: &mut [&mut [f32]],
    frame: Frame<'_>,
) {
    let Frame {
        coordinates,
        cols,
        at,
    } = frame;
    let n = dst[0].len();
    match *op {
        Op::Sample {
            plane,
            x,
            y,
            nearest,
            ..
        } => {
            let view = tables.plane(plane);
            let (x, y) = (arg(x), arg(y));
            if !nearest {
                bilinear_k(dst, view, x, y);
                return;
            }
            for i in 0..n {
                let px = if nearest {
                    view.nearest(x.at(i), y.at(i))
                } else {
                    view.bilinear(x.at(i), y.at(i))
                };
                for (d, p) in dst.iter_mut().zip(px) {
                    d[i] = p;
                }
            }
        }
        Op::Fetch { plane, .. } => fetch(tables.plane(plane), dst, cols, at),
        Op::Normal {
            plane,
            x,
            y,
            strength,
            directx,
        } => {
            let (gx, gy) = slopes(tables.plane(plane), (x, y), arg, cols, at, n);
            let [r, g, b, ..] = dst else {
                unreachable!("a normal writes three channels")
            };
            normal_k(r, g, b, &gx, &gy, arg(strength), directx);
            keep_scratch((gx, gy));
        }
        Op::Emboss {
            plane,
            x,
            y,
            strength,
            light,
        } => {
            let (gx, gy) = slopes(tables.plane(plane), (x, y), arg, cols, at, n);
            let (strength, light) = (arg(strength), light.map(f32::from_bits));
            for (i, o) in dst[0].iter_mut().enumerate() {
                *o = planes::emboss(gx[i], gy[i], strength.at(i), light);
            }
            keep_scratch((gx, gy));
        }
        Op::Edges {
            plane,
            x,
            y,
            width,
            threshold,
        } => {
            let view = tables.plane(plane);
            let (x, y, width, threshold) = (arg(x), arg(y), arg(width), arg(threshold));
            for (i, o) in dst[0].iter_mut().enumerate() {
                *o = planes::edges(view, x.at(i), y.at(i), width.at(i), threshold.at(i));
            }
        }
        Op::SlopeBlur {
            input,
            slope,
            x,
            y,
            distance,
            samples,
            mode,
            ..
        } => {
            let (input, slope) = (tables.plane(input), tables.plane(slope));
            let (gx, gy) = slopes(slope, (x, y), arg, cols, at, n);
            let (x, y, distance) = (arg(x), arg(y), arg(distance));
            // Each pixel's segment: from (u, v), `distance` up the slope (shortened where
            // the slope is flatter than 1 per texture unit).
            let (mut sx, mut sy) = (vec![0.0; n], vec![0.0; n]);
            for i in 0..n {
                let scale = distance.at(i) / (gx[i] * gx[i] + gy[i] * gy[i]).sqrt().max(1.0);
                (sx[i], sy[i]) = (gx[i] * scale, gy[i] * scale);
            }
            let us: Vec<f32> = (0..n).map(|i| x.at(i)).collect();
            let vs: Vec<f32> = (0..n).map(|i| y.at(i)).collect();
            keep_scratch((gx, gy));
            let start = match mode {
                SlopeMode::Blur => 0.0,
                SlopeMode::Min => f32::INFINITY,
                SlopeMode::Max => f32::NEG_INFINITY,
            };
            for d in dst.iter_mut() {
                d.fill(start);
            }
            // Step by step over all the tile's pixels, so each step vectorizes.
            let steps = samples.max(2);
            for i in 0..steps {
                let t = i as f32 / (steps - 1) as f32;
                smear_step_k(dst, input, [&us, &vs, &sx, &sy], t, mode);
            }
            if mode == SlopeMode::Blur {
                for d in dst.iter_mut() {
                    d.iter_mut().for_each(|a| *a /= steps as f32);
                }
            }
        }
        Op::Occlusion {
            plane,
            x,
            y,
            radius,
            strength,
            directions,
            steps,
        } => {
            let view = tables.plane(plane);
            let search = Horizon {
                radius: f32::from_bits(radius),
                directions,
                steps,
            };
            let strength = arg(strength);
            let image_frame = image_frame(x, y);
            let on_grid = image_frame
                && (view.width, view.height) == (at.width, at.height)
                && view.channels == 1;
            let (u, v) = (samples(arg(x), n), samples(arg(y), n));
            let place = if on_grid {
                Place::Grid { at, cols }
            } else {
                Place::Free { u: &u, v: &v }
            };
            material::occlusion(dst[0], view, place, search, |i| strength.at(i));
        }
        Op::Curvature {
            plane,
            x,
            y,
            radius,
            strength,
            normal,
        } => {
            let (u, v) = (samples(arg(x), n), samples(arg(y), n));
            let strength = arg(strength);
            let (view, radius) = (tables.plane(plane), f32::from_bits(radius));
            material::curvature(dst[0], view, (&u, &v), radius, normal, |i| strength.at(i));
        }
        Op::NormalBlend {
            base,
            detail,
            strength,
            mode,
        } => {
            let [r, g, b] = dst else {
                unreachable!("a normal blend writes three slots")
            };
            normal_blend_k(
                [r, g, b],
                base.map(arg),
                detail.map(arg),
                arg(strength),
                mode,
            );
        }
        Op::PerlinTable {
            x,
            y,
            freq,
            offset,
            tables: [below, above],
            dz,
            scale,
            add,
            abs,
        } => {
            let [ox, oy] = offset.map(f32::from_bits);
            let p = [
                f32::from_bits(freq),
                ox,
                oy,
                f32::from_bits(dz),
                f32::from_bits(scale),
            ];
            let (below, above) = (
                &*tables.corners[below as usize],
                &*tables.corners[above as usize],
            );
            let image_frame = image_frame(x, y);
            let (us, vs) = (coordinates.u_row(), coordinates.v_rows());
            if image_frame
                && let Some(columns) = grid::Columns::new(us, p[0], ox, fade, grid::min_run())
            {
                let [freq, _, oy, dz, scale] = p;
                let grid_p = [freq, oy, dz, scale];
                grid::perlin_grid(dst[0], &columns, vs, below, above, grid_p, abs, arg(add));
                return;
            }
            #[cfg(target_arch = "x86_64")]
            if let (wide @ (Level::Avx512 | Level::Avx2), Arg::S(xs), Arg::S(ys)) =
                (level(), arg(x), arg(y))
            {
                let add = match arg(add) {
                    Arg::C(c) => avx512::Add::Uniform(c),
                    Arg::S(s) => avx512::Add::Slice(s),
                };
                let [freq, ox, oy, dz, scale] = p;
                let args = avx512::PerlinTableArgs {
                    below,
                    above,
                    freq,
                    offset: [ox, oy],
                    dz,
                    scale,
                    abs,
                    max_cells: MAX_CELLS,
                };
                // SAFETY: level() reports AVX-512 and AVX2 only when the CPU has them.
                unsafe {
                    if wide == Level::Avx2 {
                        avx2::perlin_table(dst[0], xs, ys, add, &args);
                    } else if image_frame {
                        avx512::perlin_table_grid(dst[0], xs, ys, cols, add, &args);
                    } else {
                        avx512::perlin_table(dst[0], xs, ys, add, &args);
                    }
                }
                return;
            }
            perlin_table_k(dst[0], below, above, p, abs, arg(x), arg(y), arg(add));
        }
        Op::Perlin {
            x,
            y,
            z,
            freq,
            offset,
            perm,
            tile,
        } => {
            let perm = &*tables.permutations[perm as usize];
            let at = [x, y, z, freq].map(arg);
            perlin_k(dst[0], perm, offset.map(f32::from_bits), tile, at);
        }
        Op::Value {
            x,
            y,
            freq,
            offset,
            seed,
            interpolation,
            tile,
        } => {
            let [ox, oy] = offset.map(f32::from_bits);
            let image_frame = image_frame(x, y);
            if let (true, Arg::C(freq)) = (image_frame, arg(freq)) {
                let (us, vs) = (coordinates.u_row(), coordinates.v_rows());
                let interp: fn(f32) -> f32 = match interpolation {
                    Interpolation::Linear => linear,
                    Interpolation::Cosine => cosine,
                    Interpolation::Quintic => fade,
                    Interpolation::Constant => constant,
                };
                let (f, period) = frequency(freq, tile);
                if let Some(columns) = grid::Columns::new(us, f, ox, interp, grid::min_run()) {
                    grid::value_grid(dst[0], &columns, vs, [f, oy], period, seed, interp);
                    return;
                }
            }
            value_k(
                dst[0],
                interpolation,
                seed,
                tile,
                [ox, oy],
                arg(x),
                arg(y),
                arg(freq),
            );
        }
        Op::Cellular {
            x,
            y,
            z,
            freq,
            jitter,
            offset,
            seed,
            metric,
            feature,
            volume,
            tile,
        } => {
            let p = Cellular {
                seed,
                metric,
                feature,
                volume,
                tile,
            };
            let [ox, oy] = offset.map(f32::from_bits);
            let distances = !matches!(feature, Feature::Edge | Feature::CellValue);
            if let (true, false, true, Arg::C(freq), Arg::C(jitter)) =
                (image_frame(x, y), volume, distances, arg(freq), arg(jitter))
            {
                let (us, vs) = (coordinates.u_row(), coordinates.v_rows());
                let (f, period) = frequency(freq, tile);
                if let Some(columns) = cellular::grid::Columns::new(us, f, ox, jitter, period, seed)
                {
                    cellular_grid_k(dst[0], &columns, vs, p, [f, oy], period, jitter);
                    return;
                }
            }
            let at = [x, y, z, freq, jitter].map(arg);
            cellular_k(dst[0], p, [ox, oy], at);
        }
        Op::Simplex {
            x,
            y,
            z,
            freq,
            offset,
            seed,
            volume,
            tile,
            unit,
        } => {
            let [ox, oy] = offset.map(f32::from_bits);
            let image_frame = image_frame(x, y);
            let (us, vs) = (coordinates.u_row(), coordinates.v_rows());
            if let (true, false, false, Arg::C(freq)) = (image_frame, volume, tile, arg(freq))
                && grid::simplex_grid_pays(us, freq)
            {
                grid::simplex_grid(dst[0], us, vs, [freq, ox, oy], seed, unit);
                return;
            }
            if let (true, true, false, Arg::C(freq), Arg::C(z)) =
                (image_frame, volume, tile, arg(freq), arg(z))
                && simplex_grid3::simplex_grid3_pays(us, freq)
            {
                simplex_grid3::simplex_grid3(dst[0], us, vs, [freq, ox, oy], z, seed, unit);
                return;
            }
            let at = [x, y, z, freq].map(arg);
            simplex_k(dst[0], seed, volume, tile, [ox, oy], at);
            if unit {
                for o in dst[0].iter_mut() {
                    *o = scalar::unary(Unary::ToUnit, *o);
                }
            }
        }
        Op::Shape {
            x,
            y,
            kind,
            sides,
            size,
            inner,
            smoothness,
            rotate,
            tile,
        } => {
            let at = [x, y, size, inner, smoothness, rotate].map(arg);
            shape_k(dst[0], kind, sides, tile, at);
        }
        Op::Bricks {
            x,
            y,
            settings,
            seed,
        } => bricks_k(dst, seed, [arg(x), arg(y)], settings.map(arg)),
        Op::CellHash {
            x,
            y,
            offset,
            seed,
            period,
        } => {
            cell_hash_k(dst, [arg(x), arg(y)], offset, seed, period);
        }
        Op::Curve { a, curve } => {
            let curve = &*tables.curves[curve as usize];
            let a = arg(a);
            for (i, o) in dst[0].iter_mut().enumerate() {
                *o = curve.at(a.at(i));
            }
        }
        Op::Unary(f, a) => unary_k(dst[0], f, arg(a)),
        Op::Binary(f, a, b) => binary_k(dst[0], f, arg(a), arg(b)),
        Op::MulAdd(a, b, c) => ternary_k(dst[0], Ternary::MulAdd, arg(a), arg(b), arg(c)),
        Op::Lerp(a, b, t) => ternary_k(dst[0], Ternary::Lerp, arg(a), arg(b), arg(t)),
        Op::Ridge {
            n: noise,
            offset,
            weight,
        } => {
            ternary_k(dst[0], Ternary::Ridge, arg(noise), arg(offset), arg(weight));
        }
        Op::Luminance(r, g, b) => ternary_k(dst[0], Ternary::Luminance, arg(r), arg(g), arg(b)),
        Op::Select(c, a, b) => ternary_k(dst[0], Ternary::Select, arg(c), arg(a), arg(b)),
        Op::ImageSize { vertical } => {
            dst[0].fill(if vertical { at.height } else { at.width } as f32);
        }
        Op::Fill { plane, x, y, read } => {
            let view = tables.plane(plane);
            let on_grid = image_frame(x, y) && (view.width, view.height) == (at.width, at.height);
            let (x, y) = (arg(x), arg(y));
            if on_grid {
                // The tile's own texels, row by row.
                for (r, row) in dst[0].chunks_mut(cols).enumerate() {
                    let start = (at.row0 + r) * view.width + at.col0;
                    let (u, v) = (|c| x.at(r * cols + c), |c| y.at(r * cols + c));
                    flood::read_run(view, read, start, u, v, row);
                }
                return;
            }
            for (i, o) in dst[0].iter_mut().enumerate() {
                *o = flood::read_at(view, read, x.at(i), y.at(i));
            }
        }
        Op::Texel { plane, x, y, .. } => texels(dst, tables.plane(plane), arg(x), arg(y)),
        Op::InstanceShape { shape, u, v } => instance_shape_k(dst[0], shape, [arg(u), arg(v)]),
        Op::Instances {
            plane,
            x,
            y,
            ref grid,
        } => instances::instances_k(dst, tables.plane(plane), grid, [arg(x), arg(y)], cols),
        Op::RingDistance {
            x,
            y,
            center_x,
            center_y,
            tile,
        } => {
            ring_k(dst[0], tile, arg(x), arg(y), arg(center_x), arg(center_y));
        }
        Op::Levels {
            a,
            in_low,
            in_high,
            gamma,
            out_low,
            out_high,
        } => {
            let params = [in_low, in_high, gamma, out_low, out_high].map(|p| p.as_const());
            if let [Some(il), Some(ih), Some(g), Some(ol), Some(oh)] = params {
                levels_k(dst[0], [il, ih, g, ol, oh], arg(a));
            } else {
                let (a, il, ih, g) = (arg(a), arg(in_low), arg(in_high), arg(gamma));
                let (ol, oh) = (arg(out_low), arg(out_high));
                for (i, o) in dst[0].iter_mut().enumerate() {
                    *o = scalar::levels(a.at(i), il.at(i), ih.at(i), g.at(i), ol.at(i), oh.at(i));
                }
            }
        }
        Op::Ramp { a, ramp } => {
            let ramp = &*tables.ramps[ramp as usize];
            match arg(a) {
                Arg::C(t) => {
                    let c = ramp.sample(t);
                    for (d, c) in dst.iter_mut().zip(c) {
                        d.fill(c);
                    }
                }
                Arg::S(t) => ramp_k(dst, ramp, &t[..n]),
            }
        }
        Op::Blend(mode, a, b) => blend_k(dst[0], mode, arg(a), arg(b)),
        Op::Hsl {
            rgb: [r, g, b],
            hue,
            saturation,
            lightness,
        } => {
            let (r, g, b) = (arg(r), arg(g), arg(b));
            let (h, s, l) = (arg(hue), arg(saturation), arg(lightness));
            let [red, green, blue] = dst else {
                unreachable!("hsl writes three slots")
            };
            let outputs = red.iter_mut().zip(green.iter_mut()).zip(blue.iter_mut());
            for (i, ((or, og), ob)) in outputs.enumerate() {
                [*or, *og, *ob] = texgraph_kernels::color::hsl_adjust(
                    [r.at(i), g.at(i), b.at(i)],
                    h.at(i),
                    s.at(i),
                    l.at(i),
                );
            }
        }
    }
}

/// An operand's `n` samples as a slice (a uniform one spread).
fn samples(a: Arg<'_>, n: usize) -> std::borrow::Cow<'_, [f32]> {
    match a {
        Arg::S(s) => std::borrow::Cow::Borrowed(&s[..n]),
        Arg::C(c) => std::borrow::Cow::Owned(vec![c; n]),
    }
}

multiversion! {
    /// Two normal maps combined (see [`texgraph_kernels::normals::blend`]).
    fn normal_blend_k(out: [&mut [f32]; 3], base: [Arg<'_>; 3], detail: [Arg<'_>; 3], strength: Arg<'_>, mode: NormalBlendMode) {
        let [r, g, b] = out;
        for i in 0..r.len() {
            let c = texgraph_kernels::normals::blend(
                base.map(|a| a.at(i)),
                detail.map(|a| a.at(i)),
                strength.at(i),
                mode,
            );
            (r[i], g[i], b[i]) = (c[0], c[1], c[2]);
        }
    }
}

multiversion! {
    /// Bilinear reads of a plane into one slot per channel: the same arithmetic as
    /// [`PlaneView::bilinear`], each channel in a loop over the tile the compiler can
    /// vectorize.
    fn bilinear_k(dst: &mut [&mut [f32]], view: &PlaneView<'_>, x: Arg<'_>, y: Arg<'_>) {
        let n = dst[0].len();
        match (view.wrap, view.channels, x, y, view.is_whole()) {
            (true, 1, Arg::S(x), Arg::S(y), true) => bilinear::<true, 1, false>(dst, view, &x[..n], &y[..n]),
            (false, 1, Arg::S(x), Arg::S(y), true) => bilinear::<false, 1, false>(dst, view, &x[..n], &y[..n]),
            (true, 4, Arg::S(x), Arg::S(y), true) => bilinear::<true, 4, false>(dst, view, &x[..n], &y[..n]),
            (false, 4, Arg::S(x), Arg::S(y), true) => bilinear::<false, 4, false>(dst, view, &x[..n], &y[..n]),
            (true, 1, Arg::S(x), Arg::S(y), false) => bilinear::<true, 1, true>(dst, view, &x[..n], &y[..n]),
            (false, 1, Arg::S(x), Arg::S(y), false) => bilinear::<false, 1, true>(dst, view, &x[..n], &y[..n]),
            (true, 4, Arg::S(x), Arg::S(y), false) => bilinear::<true, 4, true>(dst, view, &x[..n], &y[..n]),
            (false, 4, Arg::S(x), Arg::S(y), false) => bilinear::<false, 4, true>(dst, view, &x[..n], &y[..n]),
            _ => {
                for i in 0..n {
                    let px = view.bilinear(x.at(i), y.at(i));
                    for (d, p) in dst.iter_mut().zip(px) {
                        d[i] = p;
                    }
                }
            }
        }
    }
}

/// Pixels per pass of [`bilinear`]: their texel offsets and weights fit on the stack.
const BILINEAR_CHUNK: usize = 256;

#[inline(always)]
fn bilinear<const WRAP: bool, const C: usize, const WINDOW: bool>(
    dst: &mut [&mut [f32]],
    view: &PlaneView<'_>,
    x: &[f32],
    y: &[f32],
) {
    let (w, h) = (view.width, view.height);
    let data = &view.data[..view.held()];
    let n = x.len();
    // The four texels and two weights of each pixel, once for all channels.
    let mut offsets = [[0usize; 4]; BILINEAR_CHUNK];
    let mut weights = [[0.0f32; 2]; BILINEAR_CHUNK];
    for start in (0..n).step_by(BILINEAR_CHUNK) {
        let m = BILINEAR_CHUNK.min(n - start);
        for j in 0..m {
            let (xa, xb, tx) = planes::axis::<WRAP>(x[start + j], w);
            let (ya, yb, ty) = planes::axis::<WRAP>(y[start + j], h);
            let (ra, rb) = (view.row_of::<WINDOW>(ya) * w, view.row_of::<WINDOW>(yb) * w);
            offsets[j] = [(ra + xa) * C, (ra + xb) * C, (rb + xa) * C, (rb + xb) * C];
            weights[j] = [tx, ty];
        }
        for (ch, out) in dst.iter_mut().enumerate().take(C) {
            let out = &mut out[start..start + m];
            for j in 0..m {
                let [o00, o10, o01, o11] = offsets[j];
                let [tx, ty] = weights[j];
                // SAFETY: `axis` returns indices below each axis's length and `row` maps a
                // row to one held, so every offset plus a channel is below the samples held.
                let [p00, p10, p01, p11] = unsafe {
                    [
                        *data.get_unchecked(o00 + ch),
                        *data.get_unchecked(o10 + ch),
                        *data.get_unchecked(o01 + ch),
                        *data.get_unchecked(o11 + ch),
                    ]
                };
                out[j] = planes::blend([p00, p10, p01, p11], tx, ty);
            }
        }
    }
}

multiversion! {
    /// One step of a slope blur: each pixel's accumulator combined with `input` read
    /// bilinearly at (u + t·sx, v + t·sy).
    fn smear_step_k(acc: &mut [&mut [f32]], input: &PlaneView<'_>, segments: [&[f32]; 4], t: f32, mode: SlopeMode) {
        if input.is_whole() {
            smear_steps::<false>(acc, input, segments, t, mode);
        } else {
            smear_steps::<true>(acc, input, segments, t, mode);
        }
    }
}

/// [`smear_step_k`] for a whole plane or a window of its rows (`WINDOW`).
#[inline(always)]
fn smear_steps<const WINDOW: bool>(
    acc: &mut [&mut [f32]],
    input: &PlaneView<'_>,
    segments: [&[f32]; 4],
    t: f32,
    mode: SlopeMode,
) {
    match (input.wrap, input.channels, mode) {
        (true, 1, SlopeMode::Blur) => smear_step::<true, 1, 0, WINDOW>(acc, input, segments, t),
        (true, 1, SlopeMode::Min) => smear_step::<true, 1, 1, WINDOW>(acc, input, segments, t),
        (true, 1, SlopeMode::Max) => smear_step::<true, 1, 2, WINDOW>(acc, input, segments, t),
        (false, 1, SlopeMode::Blur) => smear_step::<false, 1, 0, WINDOW>(acc, input, segments, t),
        (false, 1, SlopeMode::Min) => smear_step::<false, 1, 1, WINDOW>(acc, input, segments, t),
        (false, 1, SlopeMode::Max) => smear_step::<false, 1, 2, WINDOW>(acc, input, segments, t),
        (true, _, SlopeMode::Blur) => smear_step::<true, 4, 0, WINDOW>(acc, input, segments, t),
        (true, _, SlopeMode::Min) => smear_step::<true, 4, 1, WINDOW>(acc, input, segments, t),
        (true, _, SlopeMode::Max) => smear_step::<true, 4, 2, WINDOW>(acc, input, segments, t),
        (false, _, SlopeMode::Blur) => smear_step::<false, 4, 0, WINDOW>(acc, input, segments, t),
        (false, _, SlopeMode::Min) => smear_step::<false, 4, 1, WINDOW>(acc, input, segments, t),
        (false, _, SlopeMode::Max) => smear_step::<false, 4, 2, WINDOW>(acc, input, segments, t),
    }
}

/// [`smear_step_k`] for a plane that wraps or not, of C channels, combining by sum (M =
/// 0), minimum (1) or maximum (2), whole or a window of rows.
#[inline(always)]
fn smear_step<const WRAP: bool, const C: usize, const M: u8, const WINDOW: bool>(
    acc: &mut [&mut [f32]],
    input: &PlaneView<'_>,
    [us, vs, sx, sy]: [&[f32]; 4],
    t: f32,
) {
    let (w, h) = (input.width, input.height);
    let data = &input.data[..input.held()];
    let n = us.len();
    let (vs, sx, sy) = (&vs[..n], &sx[..n], &sy[..n]);
    for ch in 0..C {
        let acc = &mut acc[ch][..n];
        for i in 0..n {
            let (xa, xb, tx) = planes::axis::<WRAP>(us[i] + t * sx[i], w);
            let (ya, yb, ty) = planes::axis::<WRAP>(vs[i] + t * sy[i], h);
            let (ya, yb) = (input.row_of::<WINDOW>(ya), input.row_of::<WINDOW>(yb));
            // SAFETY: `axis` returns indices below each axis's length, `row` one held.
            let [p00, p10, p01, p11] = unsafe {
                [
                    *data.get_unchecked((ya * w + xa) * C + ch),
                    *data.get_unchecked((ya * w + xb) * C + ch),
                    *data.get_unchecked((yb * w + xa) * C + ch),
                    *data.get_unchecked((yb * w + xb) * C + ch),
                ]
            };
            let p = planes::blend([p00, p10, p01, p11], tx, ty);
            acc[i] = match M {
                0 => acc[i] + p,
                1 => acc[i].min(p),
                _ => acc[i].max(p),
            };
        }
    }
}

/// Every channel of the texels at whole-number columns `x` and rows `y` (see
/// [`Op::Texel`]): where each sample reads is found once, then each channel is gathered
/// in a pass of its own.
fn texels(dst: &mut [&mut [f32]], view: &PlaneView<'_>, x: Arg<'_>, y: Arg<'_>) {
    const CHUNK: usize = 64;
    let n = dst[0].len();
    let mut at = [0usize; CHUNK];
    for start in (0..n).step_by(CHUNK) {
        let len = CHUNK.min(n - start);
        for (i, at) in at[..len].iter_mut().enumerate() {
            *at = view.texel_at(x.at(start + i), y.at(start + i));
        }
        for (k, d) in dst.iter_mut().enumerate() {
            for (d, &at) in d[start..start + len].iter_mut().zip(&at[..len]) {
                *d = view.data[at + k];
            }
        }
    }
}

/// Copies the tile's texels of a plane of the grid's own size into one slot per channel.
fn fetch(view: &PlaneView<'_>, dst: &mut [&mut [f32]], cols: usize, at: TileAt) {
    let n = dst[0].len();
    let c = view.channels;
    for r in 0..n / cols {
        let start = (view.row(at.row0 + r) * view.width + at.col0) * c;
        let row = &view.data[start..start + cols * c];
        let out = r * cols..(r + 1) * cols;
        if c == 1 {
            dst[0][out].copy_from_slice(row);
        } else {
            for (k, d) in dst.iter_mut().enumerate() {
                for (o, px) in d[out.clone()].iter_mut().zip(row.chunks_exact(c)) {
                    *o = px[k];
                }
            }
        }
    }
}

thread_local! {
    /// The slope buffers of the gradient filters, kept per thread between tiles.
    static SCRATCH: std::cell::Cell<(Vec<f32>, Vec<f32>)> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// Returns slope buffers taken by [`gradients`] for the next tile.
fn keep_scratch(buffers: (Vec<f32>, Vec<f32>)) {
    SCRATCH.set(buffers);
}

/// The slopes of `view` at the samples (x, y) of the tile: on the grid when (x, y) is the
/// stage's own pixel and the plane has the grid's size.
fn slopes<'s>(
    view: &PlaneView<'_>,
    (x, y): (Operand, Operand),
    arg: &dyn Fn(Operand) -> Arg<'s>,
    cols: usize,
    at: TileAt,
    n: usize,
) -> (Vec<f32>, Vec<f32>) {
    let image_frame = image_frame(x, y);
    let on_grid = image_frame && (view.width, view.height) == (at.width, at.height);
    gradients(view, on_grid, arg(x), arg(y), cols, at, n)
}

/// (∂h/∂u, ∂h/∂v) at each sample of the tile: exact neighbours on the grid (interior
/// texels in one vectorized pass per row), bilinear ones elsewhere.
#[allow(clippy::too_many_arguments)]
fn gradients(
    view: &PlaneView<'_>,
    on_grid: bool,
    x: Arg<'_>,
    y: Arg<'_>,
    cols: usize,
    at: TileAt,
    n: usize,
) -> (Vec<f32>, Vec<f32>) {
    let (mut gx, mut gy) = SCRATCH.take();
    // Every sample below is written; the buffers only need the length.
    gx.resize(n, 0.0);
    gy.resize(n, 0.0);
    if !on_grid {
        for i in 0..n {
            (gx[i], gy[i]) = view.gradient(x.at(i), y.at(i));
        }
        return (gx, gy);
    }
    let (w, h, c) = (view.width, view.height, view.channels);
    let rows = n / cols;
    // Texels whose four neighbours are inside the plane: one vectorized pass.
    let inner_rows = if c == 1 {
        at.row0.max(1)..(at.row0 + rows).min(h.saturating_sub(1))
    } else {
        0..0
    };
    let inner_cols = at.col0.max(1)..(at.col0 + cols).min(w.saturating_sub(1));
    if !inner_rows.is_empty() && !inner_cols.is_empty() {
        let tile = Inner {
            cols,
            row0: at.row0,
            col0: at.col0,
            rows: inner_rows.clone(),
            texels: inner_cols.clone(),
        };
        central_differences(
            &mut gx,
            &mut gy,
            view,
            &tile,
            [0.5 * w as f32, 0.5 * h as f32],
        );
    }
    // The rest (edge rows and columns, clamped or wrapped) one texel at a time.
    for r in 0..rows {
        let row = at.row0 + r;
        let (skip_from, skip_to) = if inner_rows.contains(&row) && !inner_cols.is_empty() {
            (inner_cols.start, inner_cols.end)
        } else {
            (at.col0, at.col0)
        };
        for col in (at.col0..skip_from).chain(skip_to.max(at.col0)..at.col0 + cols) {
            let i = r * cols + col - at.col0;
            (gx[i], gy[i]) = view.grid_gradient(col, row);
        }
    }
    (gx, gy)
}

/// The interior part of a tile: rows and columns (of the plane) whose neighbours are all
/// inside it.
struct Inner {
    /// Samples per tile row.
    cols: usize,
    /// The tile's first row and column on the plane.
    row0: usize,
    col0: usize,
    /// Interior rows and columns, in plane coordinates.
    rows: std::ops::Range<usize>,
    texels: std::ops::Range<usize>,
}

multiversion! {
    /// gx = (right − left)·sx, gy = (below − above)·sy over the interior of a tile of a
    /// one-channel plane `w` texels wide.
    fn central_differences(gx: &mut [f32], gy: &mut [f32], view: &PlaneView<'_>, tile: &Inner, scale: [f32; 2]) {
        let (data, w) = (view.data, view.width);
        let (first, last) = (tile.texels.start, tile.texels.end);
        let len = last - first;
        for row in tile.rows.clone() {
            let at = (row - tile.row0) * tile.cols + first - tile.col0;
            let (gx, gy) = (&mut gx[at..at + len], &mut gy[at..at + len]);
            let (here, up, down) = (view.row(row) * w, view.row(row - 1) * w, view.row(row + 1) * w);
            let left = &data[here + first - 1..here + last - 1];
            let right = &data[here + first + 1..here + last + 1];
            let above = &data[up + first..up + last];
            let below = &data[down + first..down + last];
            for i in 0..len {
                gx[i] = (right[i] - left[i]) * scale[0];
                gy[i] = (below[i] - above[i]) * scale[1];
            }
        }
    }
}

multiversion! {
    /// Normal-map colors from slopes (see [`planes::normal`] and [`planes::encode_normal`]).
    fn normal_k(r: &mut [f32], g: &mut [f32], b: &mut [f32], gx: &[f32], gy: &[f32], strength: Arg<'_>, directx: bool) {
        let n = r.len();
        match strength {
            Arg::C(s) => normal_loop(r, &mut g[..n], &mut b[..n], &gx[..n], &gy[..n], Uniform(s), directx),
            Arg::S(s) => normal_loop(r, &mut g[..n], &mut b[..n], &gx[..n], &gy[..n], &s[..n], directx),
        }
    }
}

#[inline(always)]
fn normal_loop(
    r: &mut [f32],
    g: &mut [f32],
    b: &mut [f32],
    gx: &[f32],
    gy: &[f32],
    strength: impl Lane,
    directx: bool,
) {
    for i in 0..r.len() {
        let c = planes::encode_normal(planes::normal(gx[i], gy[i], strength.get(i)), directx);
        r[i] = c[0];
        g[i] = c[1];
        b[i] = c[2];
    }
}

multiversion! {
    /// Perlin noise from corner tables, written as scale·n + add (|n| with `abs`);
    /// `p` is [frequency, offset x, offset y, dz, scale].
    #[allow(clippy::too_many_arguments)]
    fn perlin_table_k(out: &mut [f32], below: &CornerTable, above: &CornerTable, p: [f32; 5], abs: bool, x: Arg<'_>, y: Arg<'_>, add: Arg<'_>) {
        let n = out.len();
        let [f, ox, oy, dz, scale] = p;
        let layer = Finish { scale, abs };
        match (below.period, dz == 0.0) {
            (None, true) => lanes!(perlin_plain(out, plain_codes(below), [f, ox, oy], layer); n; x, y, add),
            (None, false) => lanes!(perlin_plain_volume(out, plain_codes(below), plain_codes(above), [f, ox, oy, dz], layer); n; x, y, add),
            (Some(period), _) => lanes!(perlin_tiled(out, below, above, period, [f, ox, oy, dz], layer); n; x, y, add),
        }
    }
}

/// The codes of an untiled table, whose fixed size the loops can rely on.
#[inline(always)]
fn plain_codes(table: &CornerTable) -> &[u32; PLAIN_TABLE_LEN] {
    table
        .codes
        .as_slice()
        .try_into()
        .expect("untiled corner tables have 256 rows of 256 + ROW_PAD")
}

/// The untiled cell index: low 8 bits of each cell coordinate.
#[inline(always)]
fn plain_index(fx: f32, fy: f32) -> usize {
    let (x, y) = (cell_index(fx, None) as u32, cell_index(fy, None) as u32);
    ((x & 255) + (y & 255) * (256 + ROW_PAD)) as usize
}

/// Replaces each index in `cells` by the gradient bits of the table's codes there.
#[inline(always)]
fn read_bits(cells: &mut [u32], codes: &[u32]) {
    for c in cells {
        *c = cell_bits(codes[*c as usize]);
    }
}

/// Samples per pass of the table loops.
const CHUNK: usize = 256;

#[inline(always)]
fn perlin_plain(
    out: &mut [f32],
    codes: &[u32; PLAIN_TABLE_LEN],
    p: [f32; 3],
    finish: Finish,
    x: impl Lane,
    y: impl Lane,
    add: impl Lane,
) {
    let [f, ox, oy] = p;
    // Three passes per chunk: the cells' indices (vectorized), then only the table reads
    // (each code turned into its gradient bits), so that many are in flight at once,
    // then the arithmetic on bits read back from L1.
    let mut cell = [0u32; CHUNK];
    for (start, out) in (0..out.len()).step_by(CHUNK).zip(out.chunks_mut(CHUNK)) {
        let cell = &mut cell[..out.len()];
        for (j, c) in cell.iter_mut().enumerate() {
            let (fx, fy) = (
                split_vectorized(x.get(start + j) * f + ox).0,
                split_vectorized(y.get(start + j) * f + oy).0,
            );
            *c = plain_index(fx, fy) as u32;
        }
        read_bits(cell, codes);
        for (j, o) in out.iter_mut().enumerate() {
            let i = start + j;
            let ((_, sx), (_, sy)) = (
                split_vectorized(x.get(i) * f + ox),
                split_vectorized(y.get(i) * f + oy),
            );
            *o = finish.apply(perlin_plane_bits(cell[j], sx, sy), add.get(i));
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn perlin_plain_volume(
    out: &mut [f32],
    below: &[u32; PLAIN_TABLE_LEN],
    above: &[u32; PLAIN_TABLE_LEN],
    p: [f32; 4],
    finish: Finish,
    x: impl Lane,
    y: impl Lane,
    add: impl Lane,
) {
    let [f, ox, oy, dz] = p;
    for (i, o) in out.iter_mut().enumerate() {
        let ((fx, sx), (fy, sy)) = (
            split_vectorized(x.get(i) * f + ox),
            split_vectorized(y.get(i) * f + oy),
        );
        let k = plain_index(fx, fy);
        let (lower, upper) = (cell_bits(below[k]), cell_bits(above[k]));
        *o = finish.apply(perlin_volume_bits(lower, upper, sx, sy, dz), add.get(i));
    }
}

/// Cells in the largest tiled corner table.
pub(super) const MAX_CELLS: u32 =
    ((MAX_TABLE_PERIOD + ROW_PAD) * MAX_TABLE_PERIOD).next_power_of_two();

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn perlin_tiled(
    out: &mut [f32],
    below: &CornerTable,
    above: &CornerTable,
    period: f32,
    p: [f32; 4],
    finish: Finish,
    x: impl Lane,
    y: impl Lane,
    add: impl Lane,
) {
    let [f, ox, oy, dz] = p;
    let (c0, c1) = (&below.codes[..], &above.codes[..]);
    let last = (c0.len().min(c1.len()) - 1) as u32;
    let stride = below.stride();
    let cell = |i: usize| {
        let (fx, fy) = (
            split_vectorized(x.get(i) * f + ox).0,
            split_vectorized(y.get(i) * f + oy).0,
        );
        let (cx, cy) = (
            cell_index(fx, Some(period)) as u32,
            cell_index(fy, Some(period)) as u32,
        );
        // The mask (a no-op: tables hold at most 2¹⁸ cells) proves the index fits in 31
        // bits, so the reads become 32-bit gathers.
        ((cx + cy * stride) & (MAX_CELLS - 1)).min(last) as usize
    };
    let fraction = |i: usize| {
        (
            split_vectorized(x.get(i) * f + ox).1,
            split_vectorized(y.get(i) * f + oy).1,
        )
    };
    // Passes per chunk as in `perlin_plain`; the plane case must not pay for the
    // volume's eight corners.
    let (mut lower, mut upper) = ([0u32; CHUNK], [0u32; CHUNK]);
    for (start, out) in (0..out.len()).step_by(CHUNK).zip(out.chunks_mut(CHUNK)) {
        let m = out.len();
        if dz == 0.0 {
            for (j, c) in lower[..m].iter_mut().enumerate() {
                *c = cell(start + j) as u32;
            }
            read_bits(&mut lower[..m], c0);
            for (j, o) in out.iter_mut().enumerate() {
                let (sx, sy) = fraction(start + j);
                *o = finish.apply(perlin_plane_bits(lower[j], sx, sy), add.get(start + j));
            }
        } else {
            for (j, c) in lower[..m].iter_mut().enumerate() {
                *c = cell(start + j) as u32;
            }
            upper[..m].copy_from_slice(&lower[..m]);
            read_bits(&mut lower[..m], c0);
            read_bits(&mut upper[..m], c1);
            for (j, o) in out.iter_mut().enumerate() {
                let (sx, sy) = fraction(start + j);
                *o = finish.apply(
                    perlin_volume_bits(lower[j], upper[j], sx, sy, dz),
                    add.get(start + j),
                );
            }
        }
    }
}

multiversion! {
    /// Value noise; `offset` is the lattice offset.
    #[allow(clippy::too_many_arguments)]
    fn value_k(out: &mut [f32], interpolation: Interpolation, seed: u32, tile: bool, offset: [f32; 2], x: Arg<'_>, y: Arg<'_>, freq: Arg<'_>) {
        let n = out.len();
        let [ox, oy] = offset;
        match interpolation {
            Interpolation::Linear => lanes!(value_noise(out, linear, seed, tile, ox, oy); n; x, y, freq),
            Interpolation::Cosine => lanes!(value_noise(out, cosine, seed, tile, ox, oy); n; x, y, freq),
            Interpolation::Quintic => lanes!(value_noise(out, fade, seed, tile, ox, oy); n; x, y, freq),
            Interpolation::Constant => lanes!(value_noise(out, constant, seed, tile, ox, oy); n; x, y, freq),
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn value_noise(
    out: &mut [f32],
    interp: impl Fn(f32) -> f32 + Copy,
    seed: u32,
    tile: bool,
    ox: f32,
    oy: f32,
    x: impl Lane,
    y: impl Lane,
    freq: impl Lane,
) {
    for (i, o) in out.iter_mut().enumerate() {
        let (f, period) = frequency(freq.get(i), tile);
        *o = value2(x.get(i) * f + ox, y.get(i) * f + oy, seed, period, interp);
    }
}

multiversion! {
    /// Shape masks; `at` holds x, y, size, inner, smoothness and rotation.
    fn shape_k(out: &mut [f32], kind: ShapeKind, sides: u32, tile: bool, at: [Arg<'_>; 6]) {
        let [x, y, size, inner, smoothness, rotate] = at;
        for (i, o) in out.iter_mut().enumerate() {
            // max/min map NaN to a bound, where clamp would keep it.
            #[allow(clippy::manual_clamp)]
            let (size, inner) = (size.at(i).max(0.0).min(0.5), inner.at(i).max(0.0).min(1.0));
            let turn = rotate.at(i) * (1.0 / 360.0);
            let (dx, dy) = (x.at(i) - 0.5, y.at(i) - 0.5);
            let shape = shapes::Shape::new(kind, sides, size, inner, turn);
            let distance = if tile {
                // The nearest copies: a shape at most half the tile across reaches no
                // further than the 2×2 tiles around the sample.
                let (wx, wy) = (dx - dx.round(), dy - dy.round());
                let (ox, oy) = (if wx > 0.0 { 1.0 } else { -1.0 }, if wy > 0.0 { 1.0 } else { -1.0 });
                let d = |px: f32, py: f32| shape.distance(px, py);
                d(wx, wy).min(d(wx - ox, wy)).min(d(wx, wy - oy)).min(d(wx - ox, wy - oy))
            } else {
                shape.distance(dx, dy)
            };
            #[allow(clippy::manual_clamp)]
            let soft = smoothness.at(i).max(0.0).min(1.0) * size;
            *o = shapes::shape_mask(distance, soft);
        }
    }
}

multiversion! {
    /// Four random numbers per sample for the cell it is in, moved by `offset` (see
    /// [`shapes::cell_randoms`]).
    fn cell_hash_k(dst: &mut [&mut [f32]], at: [Arg<'_>; 2], offset: [i32; 2], seed: u32, period: [u32; 2]) {
        let [x, y] = at;
        // One pass per number, each a branch-free map the compiler vectorizes.
        for (k, out) in (0u32..).zip(dst.iter_mut()) {
            let n = out.len();
            lanes!(map2(out, #[inline(always)] |x, y| shapes::cell_random(x, y, offset, seed, period, k)); n; x, y);
        }
    }
}

multiversion! {
    /// A built-in instance shape, 0 outside its square.
    fn instance_shape_k(out: &mut [f32], shape: InstanceShape, at: [Arg<'_>; 2]) {
        let n = out.len();
        let [u, v] = at;
        lanes!(map2(out, #[inline(always)] |u: f32, v: f32| {
            if (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v) { shape.at(u, v) } else { 0.0 }
        }); n; u, v);
    }
}

multiversion! {
    /// Bricks; `settings` as [`Op::Bricks`] holds them.
    fn bricks_k(dst: &mut [&mut [f32]], seed: u32, at: [Arg<'_>; 2], settings: [Arg<'_>; 7]) {
        let [mask, value, u, v] = dst else { unreachable!("bricks write four slots") };
        let [x, y] = at;
        let n = mask.len();
        for i in 0..n {
            let s = settings.map(|a| a.at(i));
            // max/min map NaN to a bound, where clamp would keep it.
            #[allow(clippy::manual_clamp)]
            let count = |c: f32| c.round().max(1.0).min(4096.0);
            #[allow(clippy::manual_clamp)]
            let within = |c: f32, high: f32| c.max(0.0).min(high);
            let b = shapes::Bricks {
                columns: count(s[0]),
                rows: count(s[1]),
                offset: within(s[2], 1.0),
                random_offset: within(s[3], 1.0),
                mortar: within(s[4], 0.5),
                bevel: within(s[5], 0.5),
                round: within(s[6], 0.5),
                seed,
            };
            [mask[i], value[i], u[i], v[i]] = shapes::bricks(x.at(i), y.at(i), b);
        }
    }
}

multiversion! {
    /// Simplex noise; `at` holds x, y, z and frequency.
    fn simplex_k(out: &mut [f32], seed: u32, volume: bool, tile: bool, offset: [f32; 2], at: [Arg<'_>; 4]) {
        let n = out.len();
        let [x, y, z, freq] = at;
        match (volume, tile) {
            (false, false) => lanes!(simplex_noise(out, seed, false, false, offset); n; x, y, z, freq),
            (true, false) => lanes!(simplex_noise(out, seed, true, false, offset); n; x, y, z, freq),
            (false, true) => lanes!(simplex_noise(out, seed, false, true, offset); n; x, y, z, freq),
            (true, true) => lanes!(simplex_noise(out, seed, true, true, offset); n; x, y, z, freq),
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn simplex_noise(
    out: &mut [f32],
    seed: u32,
    volume: bool,
    tile: bool,
    offset: [f32; 2],
    x: impl Lane,
    y: impl Lane,
    z: impl Lane,
    freq: impl Lane,
) {
    // Blocks pay on the baseline's four lanes; on AVX2 and AVX-512 a block's hashing,
    // done once but in scalar code, costs about what the lanes' hashing saves.
    if volume && !tile && level() == Level::Baseline {
        return simplex_volume(out, seed, offset, x, y, z, freq);
    }
    for (i, o) in out.iter_mut().enumerate() {
        let (f, period) = frequency(freq.get(i), tile);
        let (sx, sy) = (x.get(i) * f + offset[0], y.get(i) * f + offset[1]);
        *o = simplex::simplex(sx, sy, z.get(i), period, volume, seed);
    }
}

/// Samples per block of [`simplex_volume`].
const TETRAHEDRON_BLOCK: usize = 16;

/// 3D simplex noise a block of samples at a time: where a block lies in one tetrahedron
/// (most blocks, unless the lattice is finer than a few samples), its corners are
/// hashed once for all; the rest hash their own. The same operations per sample as
/// [`simplex::simplex`], so the same bits.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn simplex_volume(
    out: &mut [f32],
    seed: u32,
    offset: [f32; 2],
    x: impl Lane,
    y: impl Lane,
    z: impl Lane,
    freq: impl Lane,
) {
    const B: usize = TETRAHEDRON_BLOCK;
    let whole = out.len() / B * B;
    let (blocks, rest) = out.as_chunks_mut::<B>();
    // Loops of exactly B samples, so that they vectorize whole.
    for (start, block) in (0..).step_by(B).zip(blocks) {
        let (mut at, mut cell, mut order) = ([[0.0f32; B]; 3], [[0.0f32; B]; 3], [0u32; B]);
        for j in 0..B {
            let (i, f) = (start + j, freq.get(start + j));
            let (sx, sy) = (x.get(i) * f + offset[0], y.get(i) * f + offset[1]);
            let t = simplex::tetrahedron3_with(sx, sy, z.get(i), split_vectorized);
            for axis in 0..3 {
                (at[axis][j], cell[axis][j]) = (t.offset[axis], t.cell[axis]);
            }
            order[j] = t.order;
        }
        let sample = |j: usize| [at[0][j], at[1][j], at[2][j]];
        let cell_of = |j: usize| [cell[0][j], cell[1][j], cell[2][j]];
        // Floors compare as numbers (a −0 floor hashes as 0 does).
        let mut apart = false;
        for j in 0..B {
            // `|`, not `||`: no branch, so the loop vectorizes.
            apart |= (order[j] != order[0])
                | (cell[0][j] != cell[0][0])
                | (cell[1][j] != cell[1][0])
                | (cell[2][j] != cell[2][0]);
        }
        if apart {
            for (j, o) in block.iter_mut().enumerate() {
                let g = simplex::gradients3(cell_of(j), order[j], seed);
                *o = simplex::blend3(sample(j), order[j], g).clamp(-1.0, 1.0);
            }
        } else {
            let g = simplex::gradients3(cell_of(0), order[0], seed);
            for (j, o) in block.iter_mut().enumerate() {
                *o = simplex::blend3(sample(j), order[0], g).clamp(-1.0, 1.0);
            }
        }
    }
    for (i, o) in (whole..).zip(rest) {
        let f = freq.get(i);
        let (sx, sy) = (x.get(i) * f + offset[0], y.get(i) * f + offset[1]);
        *o = simplex::simplex(sx, sy, z.get(i), None, true, seed);
    }
}

multiversion! {
    /// Perlin noise with its corners hashed per sample (a frequency or z that varies, or
    /// past the program's table budget); `at` holds x, y, z and frequency. Compiled per
    /// level, so the floors are instructions rather than library calls on AVX2 and up.
    fn perlin_k(out: &mut [f32], perm: &Permutation, offset: [f32; 2], tile: bool, at: [Arg<'_>; 4]) {
        let [x, y, z, freq] = at;
        let [ox, oy] = offset;
        for (i, o) in out.iter_mut().enumerate() {
            let (f, period) = frequency(freq.at(i), tile);
            *o = perlin3(perm, x.at(i) * f + ox, y.at(i) * f + oy, z.at(i), period);
        }
    }
}

multiversion! {
    /// Cellular distances on the image grid ([`cellular::grid`]): `v` holds each row's
    /// y, `p` is [frequency, offset y].
    fn cellular_grid_k(out: &mut [f32], columns: &cellular::grid::Columns, v: &[f32], kind: Cellular, p: [f32; 2], period: Option<f32>, jitter: f32) {
        let mut search = Search::default();
        cellular::grid::rows(out, columns, v, kind, p, period, jitter, &mut search);
    }
}

multiversion! {
    /// Cellular noise, chunk by chunk; `at` holds x, y, z, frequency and jitter.
    fn cellular_k(out: &mut [f32], p: Cellular, offset: [f32; 2], at: [Arg<'_>; 5]) {
        let [x, y, z, freq, jitter] = at;
        let mut search = Search::default();
        let mut s = Samples::default();
        let mut freqs = [0.0f32; CELL_CHUNK];
        for (c, chunk) in out.chunks_mut(CELL_CHUNK).enumerate() {
            let (first, m) = (c * CELL_CHUNK, chunk.len());
            let load = |to: &mut [f32; CELL_CHUNK], from: Arg<'_>| match from {
                Arg::C(v) => to[..m].fill(v),
                Arg::S(v) => cellular::load_lanes(to, &v[first..first + m]),
            };
            let [px, py, pz] = &mut s.pos;
            load(px, x);
            load(py, y);
            load(pz, z);
            load(&mut s.jitter, jitter);
            load(&mut freqs, freq);
            for l in 0..m {
                let (f, period) = frequency(freqs[l], p.tile);
                px[l] = px[l] * f + offset[0];
                py[l] = py[l] * f + offset[1];
                s.period[l] = period.unwrap_or(1.0);
            }
            cellular::cellular_chunk(p, &s, chunk.len(), chunk, &mut search);
        }
    }
}

multiversion! {
    /// Linear ramps as a sum over segments, so the loop has no search: starting from the
    /// first color, each segment adds its color step times how far t is through it (0
    /// before, 1 after; a step at the segment's end for constant ramps and zero-width
    /// segments).
    fn ramp_k(dst: &mut [&mut [f32]], ramp: &Ramp, t: &[f32]) {
        let [r, g, b, a] = dst else { unreachable!("a ramp writes four channels") };
        let first = ramp.stops[0].1;
        r.fill(first[0]);
        g.fill(first[1]);
        b.fill(first[2]);
        a.fill(first[3]);
        let n = t.len().min(r.len()).min(g.len()).min(b.len()).min(a.len());
        for pair in ramp.stops.windows(2) {
            let ((p0, c0), (p1, c1)) = (pair[0], pair[1]);
            let d = [c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2], c1[3] - c0[3]];
            let width = p1 - p0;
            let hard = ramp.constant || width <= 0.0;
            let inv = if hard { 0.0 } else { 1.0 / width };
            for i in 0..n {
                let w = if hard {
                    if t[i] >= p1 { 1.0 } else { 0.0 }
                } else {
                    // max/min map NaN to 0, where clamp would keep it.
                    #[allow(clippy::manual_clamp)]
                    ((t[i] - p0) * inv).max(0.0).min(1.0)
                };
                r[i] += w * d[0];
                g[i] += w * d[1];
                b[i] += w * d[2];
                a[i] += w * d[3];
            }
        }
    }
}

/// One arm per variant, with the variant bound as a constant so that each arm's loop is
/// specialized to it.
macro_rules! each_variant {
    ($value:expr, $enum:ident [$($variant:ident),*], |$v:ident| $body:expr) => {
        match $value { $($enum::$variant => { const $v: $enum = $enum::$variant; $body })* }
    };
}

multiversion! {
    fn unary_k(out: &mut [f32], f: Unary, a: Arg<'_>) {
        let n = out.len();
        each_variant!(f, Unary [Abs, Invert, Clamp01, Sin, Fract, Smoothstep, CosDeg, SinDeg, Period, Round, SineWave, SawWave, TriangleWave, ToUnit, ToSigned, Saturate, Sqrt, Floor, Ceil, Sign, Not, Cos, Tan, Asin, Acos, Atan, Exp, Log],
            |V| lanes!(map1(out, #[inline(always)] |a| scalar::unary(V, a)); n; a))
    }
}

multiversion! {
    fn binary_k(out: &mut [f32], f: Binary, a: Arg<'_>, b: Arg<'_>) {
        let n = out.len();
        each_variant!(f, Binary [Add, Subtract, Multiply, Divide, Min, Max, Power, Step, Angle, Mod, Less, LessEqual, Equal, NotEqual, And, Or, Atan2],
            |V| lanes!(map2(out, #[inline(always)] |a, b| scalar::binary(V, a, b)); n; a, b))
    }
}

multiversion! {
    fn blend_k(out: &mut [f32], mode: BlendMode, a: Arg<'_>, b: Arg<'_>) {
        let n = out.len();
        each_variant!(mode, BlendMode [Mix, Add, Multiply, Screen, Overlay, Darken, Lighten, Difference, Subtract],
            |V| lanes!(map2(out, #[inline(always)] |a, b| scalar::blend(V, a, b)); n; a, b))
    }
}

/// Three-operand arithmetic operations.
#[derive(Clone, Copy)]
enum Ternary {
    MulAdd,
    Lerp,
    Ridge,
    Luminance,
    Select,
}

multiversion! {
    fn ternary_k(out: &mut [f32], f: Ternary, a: Arg<'_>, b: Arg<'_>, c: Arg<'_>) {
        let n = out.len();
        match f {
            Ternary::MulAdd => lanes!(map3(out, #[inline(always)] |a, b, c| a * b + c); n; a, b, c),
            Ternary::Lerp => lanes!(map3(out, #[inline(always)] |a, b, t| a + (b - a) * t); n; a, b, c),
            Ternary::Ridge => lanes!(map3(out, scalar::ridge); n; a, b, c),
            Ternary::Luminance => lanes!(map3(out, #[inline(always)] |r, g, b| LUMA[0] * r + LUMA[1] * g + LUMA[2] * b); n; a, b, c),
            Ternary::Select => lanes!(map3(out, scalar::select); n; a, b, c),
        }
    }
}

multiversion! {
    fn ring_k(out: &mut [f32], tile: bool, x: Arg<'_>, y: Arg<'_>, cx: Arg<'_>, cy: Arg<'_>) {
        let n = out.len();
        if tile {
            lanes!(map4(out, #[inline(always)] |x, y, cx, cy| scalar::ring_distance(x, y, cx, cy, true)); n; x, y, cx, cy)
        } else {
            lanes!(map4(out, #[inline(always)] |x, y, cx, cy| scalar::ring_distance(x, y, cx, cy, false)); n; x, y, cx, cy)
        }
    }
}

multiversion! {
    /// Levels with uniform settings [in_low, in_high, gamma, out_low, out_high].
    fn levels_k(out: &mut [f32], p: [f32; 5], a: Arg<'_>) {
        let n = out.len();
        let [il, ih, g, ol, oh] = p;
        lanes!(map1(out, #[inline(always)] |a| scalar::levels(a, il, ih, g, ol, oh)); n; a)
    }
}

/// The frequency actually used and the lattice period: when tiling, the frequency is
/// rounded to a whole number of cells (at least 1) and the lattice wraps there.
#[inline(always)]
fn frequency(freq: f32, tile: bool) -> (f32, Option<f32>) {
    if tile {
        let p = period_of(freq);
        (p, Some(p))
    } else {
        (freq, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 3D simplex in blocks against the noise of each sample alone, bit for bit: blocks
    /// within one tetrahedron (a coarse lattice) and across many (a lattice finer than the
    /// samples), along a row and scattered, below and above z = 0, and a partial last
    /// block.
    #[test]
    fn simplex_in_blocks_has_the_bits_of_each_sample_alone() {
        let n = TETRAHEDRON_BLOCK * 9 + 5;
        let row: Vec<f32> = (0..n).map(|i| (i as f32 + 0.5) / n as f32).collect();
        let scattered: Vec<f32> = (0..n)
            .map(|i| ((i * 7919) % 173) as f32 / 173.0 - 0.4)
            .collect();
        let across: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 97) as f32 / 97.0).collect();
        let level = vec![0.3; n];
        for (freq, x, y, z) in [
            (3.0f32, &row, &level, 0.7f32),
            (200.0, &row, &level, -0.3),
            (7.0, &scattered, &across, 2.5),
        ] {
            let mut out = vec![0.0; n];
            let (offset, seed) = ([0.25, -1.5], 5);
            simplex_volume(
                &mut out,
                seed,
                offset,
                x.as_slice(),
                y.as_slice(),
                Uniform(z),
                Uniform(freq),
            );
            for i in 0..n {
                let (sx, sy) = (x[i] * freq + offset[0], y[i] * freq + offset[1]);
                let expected = simplex::simplex(sx, sy, z, None, true, seed);
                assert_eq!(
                    out[i].to_bits(),
                    expected.to_bits(),
                    "frequency {freq}, sample {i}: {} against {expected}",
                    out[i]
                );
            }
        }
    }
}
