//! Evaluates a [`Program`] over an image: tiles in parallel, each operation over a
//! whole tile before the next, so dispatch is paid once per tile and the loops are tight
//! and vectorized (each kernel compiled for AVX-512, AVX2 and the baseline, chosen at
//! run time).
//! Every operation is a pure function of the sample, so the result is the same bits for
//! any tile size and thread count.

#[cfg(target_arch = "x86_64")]
mod avx512;
mod ops;

pub use ops::Tables;
pub(crate) use ops::apply_uniform;

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::program::{Operand, Program, U_SLOT, V_SLOT};

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
    let mut data = zeroed(len)
        .ok_or_else(|| Error::Render(format!("not enough memory for a {width}x{height} image")))?;
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

/// A zeroed buffer from the allocator's zeroed pages: no single-threaded memset before
/// the parallel render touches it. `None` when memory is short.
fn zeroed(len: usize) -> Option<Vec<f32>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<f32>(len).ok()?;
    // SAFETY: the layout is non-zero-sized; the pointer, when non-null, comes from the global
    // allocator with f32's layout and `len` elements, all initialized (zero bits are 0.0).
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<f32>();
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, len, len))
    }
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
        let (w, h) = (width as f32, height as f32);
        // One row of u per tile, copied to every row (the same bits as computing each).
        let us = &mut self.slots[U_SLOT as usize];
        for (c, u) in us[..cols].iter_mut().enumerate() {
            *u = ((col0 + c) as f32 + 0.5) / w;
        }
        for r in 1..rows {
            us.copy_within(..cols, r * cols);
        }
        let vs = &mut self.slots[V_SLOT as usize];
        for r in 0..rows {
            vs[r * cols..(r + 1) * cols].fill(((row0 + r) as f32 + 0.5) / h);
        }
        run_instructions(&mut self.slots, program, cols * rows, cols);
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
        let channel = |ch: usize| -> Result<&[f32], f32> {
            match program.output.channels[ch] {
                Operand::Const(c) => Err(c),
                Operand::Slot(s) => Ok(&self.slots[s as usize][..cols * rows]),
            }
        };
        for r in 0..rows {
            let start = r * width + col0;
            match program.output.channels.len() {
                1 => match channel(0) {
                    Ok(src) => {
                        band[start..start + cols].copy_from_slice(&src[r * cols..(r + 1) * cols])
                    }
                    Err(c) => band[start..start + cols].fill(c),
                },
                _ => {
                    let row = &mut band[start * 4..(start + cols) * 4];
                    let get = |ch: usize, i: usize| match channel(ch) {
                        Ok(src) => src[r * cols + i],
                        Err(c) => c,
                    };
                    // Pixel by pixel so each pixel's four channels are stored together.
                    for (i, px) in row.chunks_exact_mut(4).enumerate() {
                        px.copy_from_slice(&[get(0, i), get(1, i), get(2, i), get(3, i)]);
                    }
                }
            }
        }
    }
}

/// Runs every operation of `program` over the first `n` samples of the slots.
fn run_instructions(slots: &mut [Vec<f32>], program: &Program, n: usize, cols: usize) {
    let tables = Tables::of(program);
    for instr in &program.instrs {
        ops::step(slots, &tables, instr, n, cols);
    }
}
