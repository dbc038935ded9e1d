//! Evaluates a [`Program`] over an image: tiles in parallel, each operation over a
//! whole tile before the next, so dispatch is paid once per tile and the loops are tight.
//! Every operation is a pure function of the sample, so the result is the same bits for
//! any tile size and thread count.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::kernels::gradient::Ramp;
use crate::kernels::noise::{Permutation, cosine, fade, linear, period_of, perlin3, value2};
use crate::kernels::scalar::{self, LUMA, WaveAt};
use crate::program::{Instr, Interpolation, Op, Operand, Program, U_SLOT, V_SLOT};

/// Side of the square tiles the image is cut into.
pub const TILE: usize = 64;

/// A rendered image: `channels` (1 = gray, 4 = RGBA) interleaved `f32` per pixel,
/// rows top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 1 (grayscale) or 4 (RGBA).
    pub channels: usize,
    /// width × height × channels samples.
    pub data: Vec<f32>,
}

/// How to render.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// Worker threads; `None` uses rayon's global pool (one per core).
    pub threads: Option<usize>,
    /// Side of a tile in pixels (the result does not depend on it).
    pub tile: usize,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            threads: None,
            tile: TILE,
        }
    }
}

/// Bytes an image of this size needs while rendering (the float buffer).
pub fn image_bytes(width: u32, height: u32, channels: usize) -> Option<u64> {
    u64::from(width)
        .checked_mul(u64::from(height))?
        .checked_mul(channels as u64 * 4)
}

/// Renders `program` at `width` × `height`. `progress` is called with the number of
/// rows finished so far (from any worker thread).
pub fn render(
    program: &Program,
    width: u32,
    height: u32,
    options: RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Image> {
    if width == 0 || height == 0 {
        return Err(Error::Render(format!(
            "image size {width}x{height} is empty"
        )));
    }
    let channels = program.output.channels.len();
    let len = usize::try_from(image_bytes(width, height, channels).unwrap_or(u64::MAX) / 4)
        .map_err(|_| Error::Render("image too large for this machine".to_owned()))?;
    let mut data = Vec::new();
    data.try_reserve_exact(len)
        .map_err(|_| Error::Render(format!("not enough memory for a {width}x{height} image")))?;
    data.resize(len, 0.0);
    let tile = options.tile.max(1);
    let target = &mut data[..];
    let mut job = move || render_into(program, width, tile, target, progress);
    match options.threads {
        None => job(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|e| Error::Render(format!("cannot start {n} threads: {e}")))?
            .install(job),
    }
    Ok(Image {
        width,
        height,
        channels,
        data,
    })
}

fn render_into(
    program: &Program,
    width: u32,
    tile: usize,
    data: &mut [f32],
    progress: &(dyn Fn(u32) + Sync),
) {
    let width = width as usize;
    let channels = program.output.channels.len();
    let height = data.len() / (width * channels);
    let rows_done = AtomicU32::new(0);
    let band_len = tile * width * channels;
    data.par_chunks_mut(band_len).enumerate().for_each_init(
        || Workspace::new(program, tile * tile),
        |ws, (band, chunk)| {
            let row0 = band * tile;
            let rows = chunk.len() / (width * channels);
            for col0 in (0..width).step_by(tile) {
                let cols = tile.min(width - col0);
                ws.run(program, col0, row0, cols, rows, width, height);
                ws.write(program, chunk, col0, cols, rows, width);
            }
            let done = rows_done.fetch_add(rows as u32, Ordering::Relaxed) + rows as u32;
            progress(done);
        },
    );
}

/// Per-thread tile buffers, allocated once and reused for every tile.
struct Workspace {
    slots: Vec<Vec<f32>>,
}

impl Workspace {
    fn new(program: &Program, tile_len: usize) -> Self {
        Self {
            slots: (0..program.slot_count)
                .map(|_| vec![0.0; tile_len])
                .collect(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        program: &Program,
        col0: usize,
        row0: usize,
        cols: usize,
        rows: usize,
        width: usize,
        height: usize,
    ) {
        let n = cols * rows;
        let (w, h) = (width as f32, height as f32);
        for r in 0..rows {
            let v = ((row0 + r) as f32 + 0.5) / h;
            let range = r * cols..(r + 1) * cols;
            for (c, u) in self.slots[U_SLOT as usize][range.clone()]
                .iter_mut()
                .enumerate()
            {
                *u = ((col0 + c) as f32 + 0.5) / w;
            }
            self.slots[V_SLOT as usize][range].fill(v);
        }
        for instr in &program.instrs {
            self.step(program, instr, n);
        }
    }

    fn step(&mut self, program: &Program, instr: &Instr, n: usize) {
        let first = instr.dst as usize;
        let arity = instr.op.arity() as usize;
        // Destinations are moved out so that sources can be borrowed beside them; an
        // operation never reads its own destination. Empty vectors do not allocate.
        let mut outs: [Vec<f32>; 4] = Default::default();
        for (k, out) in outs.iter_mut().enumerate().take(arity) {
            *out = std::mem::take(&mut self.slots[first + k]);
        }
        {
            let slots = &self.slots;
            let arg = |o: Operand| match o {
                Operand::Const(c) => Arg::C(c),
                Operand::Slot(s) => Arg::S(&slots[s as usize][..n]),
            };
            let [a, b, c, d] = &mut outs;
            let mut dst = [a, b, c, d].map(|v| {
                let len = n.min(v.len());
                &mut v[..len]
            });
            apply(
                &instr.op,
                &program.permutations,
                &program.ramps,
                &arg,
                &mut dst[..arity],
            );
        }
        for (k, out) in outs.into_iter().enumerate().take(arity) {
            self.slots[first + k] = out;
        }
    }

    fn write(
        &self,
        program: &Program,
        band: &mut [f32],
        col0: usize,
        cols: usize,
        rows: usize,
        width: usize,
    ) {
        let channels = program.output.channels.len();
        for (ch, operand) in program.output.channels.iter().enumerate() {
            for r in 0..rows {
                let row =
                    &mut band[(r * width + col0) * channels..(r * width + col0 + cols) * channels];
                match *operand {
                    Operand::Const(c) => row
                        .iter_mut()
                        .skip(ch)
                        .step_by(channels)
                        .for_each(|p| *p = c),
                    Operand::Slot(s) => {
                        let src = &self.slots[s as usize][r * cols..(r + 1) * cols];
                        for (p, v) in row.iter_mut().skip(ch).step_by(channels).zip(src) {
                            *p = *v;
                        }
                    }
                }
            }
        }
    }
}

/// An operand resolved for one tile.
#[derive(Clone, Copy)]
enum Arg<'a> {
    C(f32),
    S(&'a [f32]),
}

impl Arg<'_> {
    #[inline(always)]
    fn at(self, i: usize) -> f32 {
        match self {
            Arg::C(c) => c,
            Arg::S(s) => s[i],
        }
    }
}

/// Evaluates an operation whose operands are all constants (compile-time folding);
/// returns its one or four results.
pub(crate) fn apply_uniform(op: &Op, perms: &[Arc<Permutation>], ramps: &[Arc<Ramp>]) -> [f32; 4] {
    let mut out = [[0.0f32; 1]; 4];
    let arity = op.arity() as usize;
    let arg = |o: Operand| Arg::C(o.as_const().expect("uniform operands"));
    let [a, b, c, d] = &mut out;
    let mut dst: [&mut [f32]; 4] = [a, b, c, d];
    apply(op, perms, ramps, &arg, &mut dst[..arity]);
    out.map(|v| v[0])
}

/// Maps `f` over n samples.
#[inline(always)]
fn map_n(out: &mut [f32], f: impl Fn(usize) -> f32) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(i);
    }
}

fn apply<'s>(
    op: &Op,
    perms: &[Arc<Permutation>],
    ramps: &[Arc<Ramp>],
    arg: &dyn Fn(Operand) -> Arg<'s>,
    dst: &mut [&mut [f32]],
) {
    match *op {
        Op::Perlin {
            x,
            y,
            z,
            freq,
            offset,
            perm,
            tile,
        } => {
            let (x, y, z, freq) = (arg(x), arg(y), arg(z), arg(freq));
            let [ox, oy] = offset.map(f32::from_bits);
            let perm = &*perms[perm as usize];
            map_n(dst[0], |i| {
                let (f, period) = frequency(freq.at(i), tile);
                perlin3(perm, x.at(i) * f + ox, y.at(i) * f + oy, z.at(i), period)
            });
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
            let (x, y, freq) = (arg(x), arg(y), arg(freq));
            let [ox, oy] = offset.map(f32::from_bits);
            let interp: fn(f32) -> f32 = match interpolation {
                Interpolation::Linear => linear,
                Interpolation::Cosine => cosine,
                Interpolation::Quintic => fade,
            };
            map_n(dst[0], |i| {
                let (f, period) = frequency(freq.at(i), tile);
                value2(x.at(i) * f + ox, y.at(i) * f + oy, seed, period, interp)
            });
        }
        Op::Unary(f, a) => {
            let a = arg(a);
            map_n(dst[0], |i| scalar::unary(f, a.at(i)));
        }
        Op::Binary(f, a, b) => {
            let (a, b) = (arg(a), arg(b));
            map_n(dst[0], |i| scalar::binary(f, a.at(i), b.at(i)));
        }
        Op::MulAdd(a, b, c) => {
            let (a, b, c) = (arg(a), arg(b), arg(c));
            map_n(dst[0], |i| a.at(i) * b.at(i) + c.at(i));
        }
        Op::Lerp(a, b, t) => {
            let (a, b, t) = (arg(a), arg(b), arg(t));
            map_n(dst[0], |i| {
                let a = a.at(i);
                a + (b.at(i) - a) * t.at(i)
            });
        }
        Op::Ridge { n, offset, weight } => {
            let (n, offset, weight) = (arg(n), arg(offset), arg(weight));
            map_n(dst[0], |i| {
                scalar::ridge(n.at(i), offset.at(i), weight.at(i))
            });
        }
        Op::Wave {
            x,
            y,
            kind,
            profile,
            freq,
            angle,
            center_x,
            center_y,
            phase,
            shift,
            tile,
        } => {
            let (x, y, freq, angle) = (arg(x), arg(y), arg(freq), arg(angle));
            let (cx, cy, phase, shift) = (arg(center_x), arg(center_y), arg(phase), arg(shift));
            map_n(dst[0], |i| {
                let at = WaveAt {
                    freq: freq.at(i),
                    angle: angle.at(i),
                    center: [cx.at(i), cy.at(i)],
                    shift: phase.at(i) + shift.at(i),
                };
                scalar::wave(kind, profile, x.at(i), y.at(i), at, tile)
            });
        }
        Op::Levels {
            a,
            in_low,
            in_high,
            gamma,
            out_low,
            out_high,
        } => {
            let (a, il, ih, g) = (arg(a), arg(in_low), arg(in_high), arg(gamma));
            let (ol, oh) = (arg(out_low), arg(out_high));
            map_n(dst[0], |i| {
                scalar::levels(a.at(i), il.at(i), ih.at(i), g.at(i), ol.at(i), oh.at(i))
            });
        }
        Op::Ramp { a, ramp } => {
            let a = arg(a);
            let ramp = &*ramps[ramp as usize];
            let n = dst[0].len();
            for i in 0..n {
                let c = ramp.sample(a.at(i));
                for (ch, d) in dst.iter_mut().enumerate() {
                    d[i] = c[ch];
                }
            }
        }
        Op::Blend(mode, a, b) => {
            let (a, b) = (arg(a), arg(b));
            map_n(dst[0], |i| scalar::blend(mode, a.at(i), b.at(i)));
        }
        Op::Luminance(r, g, b) => {
            let (r, g, b) = (arg(r), arg(g), arg(b));
            map_n(dst[0], |i| {
                LUMA[0] * r.at(i) + LUMA[1] * g.at(i) + LUMA[2] * b.at(i)
            });
        }
    }
}

/// The frequency actually used and the lattice period: when tiling, the frequency is
/// rounded to a whole number of cells (at least 1) and the lattice wraps there.
#[inline(always)]
fn frequency(freq: f32, tile: bool) -> (f32, Option<i64>) {
    if tile {
        let p = period_of(freq);
        (p, Some(p as i64))
    } else {
        (freq, None)
    }
}
