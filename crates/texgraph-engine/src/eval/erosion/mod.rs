//! The erosion stages: hydraulic and thermal erosion of a heightfield, each a simulation
//! on a grid where a step reads only a cell's eight neighbours, in two passes (what each
//! cell sends, then what each gathers), so a step gives the same bits on any number of
//! threads and instruction set, and wraps at the edges of tileable graphs.
//!
//! **Coarse to fine.** A simulation starts on a grid of about [`BASE`] cells across and
//! moves to grids twice as fine until it reaches the render's: at each move the eroded
//! heights are resampled and the input's detail of the finer grid added back. Each grid
//! runs a number of steps fixed by its own size, never by the render's, so a preview
//! and an export run the same coarse grids the same way and show the same valleys; a
//! finer render only adds grids of finer detail, whose steps are fewer. A render smaller
//! than [`BASE`] runs on a grid doubled up to it and is box-filtered back.
//!
//! Heights are in the input's units; slopes read a height of 1 as
//! [`RELIEF`](super::planes::RELIEF) of the texture's width, as the normal map does.

mod field;
pub mod hydraulic;
mod lakes;
pub mod thermal;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::terrain::Erosion;
use field::{halve, levels, resample, shrink};

/// Cells across the coarsest grid a simulation starts on (the larger side).
pub const BASE: usize = 128;

/// Why a simulation stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Its grids could not be allocated.
    Memory,
    /// Cancellation was asked for.
    Cancelled,
}

/// The maps a simulation reads, each `w` × `h` values, rows top to bottom.
#[derive(Clone, Copy)]
pub struct Maps<'a> {
    /// The heightfield.
    pub height: &'a [f32],
    /// Rain multiplier per texel (hydraulic), or none: 1 everywhere.
    pub rain: Option<&'a [f32]>,
    /// Hardness per texel, 0 (soft) … 1 (does not wear) (hydraulic), or none: 0.
    pub hardness: Option<&'a [f32]>,
}

/// The same maps on one grid of the simulation.
pub struct LevelMaps {
    /// The heightfield.
    pub height: Vec<f32>,
    /// Rain multiplier per cell, if any.
    pub rain: Option<Vec<f32>>,
    /// Hardness per cell, if any.
    pub hardness: Option<Vec<f32>>,
}

/// What a grid of the simulation holds and does: hydraulic or thermal erosion. [`erode`]
/// drives it from grid to grid; tests drive one grid step by step.
pub trait Simulation {
    /// Steps to run on a grid whose larger side is `side` cells.
    fn steps(&self, side: usize) -> usize;
    /// Starts on the coarsest grid, of `w` × `h` cells.
    fn start(&mut self, w: usize, h: usize, maps: &LevelMaps) -> Option<()>;
    /// Moves to a grid of `w` × `h` cells, twice as fine, whose input has `detail` more
    /// than the coarser grid's resampled.
    fn refine(&mut self, w: usize, h: usize, maps: &LevelMaps, detail: &[f32]) -> Option<()>;
    /// One step.
    fn step(&mut self);
    /// The result, channel by channel, each w × h.
    fn finish(self: Box<Self>) -> Vec<Vec<f32>>;
}

/// Erodes `maps` (each `w` × `h`) by `model`; the result's channels are interleaved
/// (see [`Erosion::channels`]). `progress` is told the share done, 0…1, after each step;
/// cancellation is looked at before each step.
pub fn erode(
    model: Erosion,
    maps: Maps<'_>,
    w: usize,
    h: usize,
    wrap: bool,
    cancel: Option<&AtomicBool>,
    progress: &dyn Fn(f64),
) -> Result<Vec<f32>, Stop> {
    let mut simulation: Box<dyn Simulation> = match model {
        Erosion::Hydraulic(settings) => Box::new(hydraulic::Hydraulic::new(settings, wrap)),
        Erosion::Thermal(settings) => Box::new(thermal::Thermal::new(settings, wrap)),
    };
    let (sizes, doubled) = levels(w, h, BASE);
    let pyramid = pyramid(maps, w, h, &sizes, wrap).ok_or(Stop::Memory)?;
    let work: f64 = sizes
        .iter()
        .map(|&(w, h)| simulation.steps(w.max(h)) as f64 * (w * h) as f64)
        .sum();
    let mut done = 0.0;
    for (k, &(lw, lh)) in sizes.iter().enumerate() {
        if k == 0 {
            simulation.start(lw, lh, &pyramid[0]).ok_or(Stop::Memory)?;
        } else {
            let (cw, ch) = sizes[k - 1];
            let coarse =
                resample(&pyramid[k - 1].height, cw, ch, lw, lh, wrap).ok_or(Stop::Memory)?;
            let detail: Vec<f32> = pyramid[k]
                .height
                .iter()
                .zip(&coarse)
                .map(|(f, c)| f - c)
                .collect();
            simulation
                .refine(lw, lh, &pyramid[k], &detail)
                .ok_or(Stop::Memory)?;
        }
        for _ in 0..simulation.steps(lw.max(lh)) {
            if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return Err(Stop::Cancelled);
            }
            simulation.step();
            done += (lw * lh) as f64;
            progress(done / work.max(1.0));
        }
    }
    let (fw, fh) = *sizes.last().expect("at least one grid");
    let channels = simulation.finish();
    let channels = channels
        .into_iter()
        .map(|c| shrink(c, fw, fh, doubled, wrap))
        .collect::<Option<Vec<_>>>()
        .ok_or(Stop::Memory)?;
    let n = channels.len();
    let mut out = Vec::new();
    out.try_reserve_exact(w * h * n).map_err(|_| Stop::Memory)?;
    for t in 0..w * h {
        out.extend(channels.iter().map(|c| c[t]));
    }
    Ok(out)
}

/// The maps on every grid of `sizes` (coarsest first; the last is the finest, `w` × `h`
/// itself or a multiple of it), each grid's the box filter of the next finer's. Heights
/// that are not finite read as 0.
fn pyramid(
    maps: Maps<'_>,
    w: usize,
    h: usize,
    sizes: &[(usize, usize)],
    wrap: bool,
) -> Option<Vec<LevelMaps>> {
    let (fw, fh) = *sizes.last()?;
    let finest = |values: &[f32]| -> Option<Vec<f32>> {
        let clean: Vec<f32> = values
            .iter()
            .map(|v| if v.is_finite() { *v } else { 0.0 })
            .collect();
        if (fw, fh) == (w, h) {
            Some(clean)
        } else {
            resample(&clean, w, h, fw, fh, wrap)
        }
    };
    let mut levels = vec![LevelMaps {
        height: finest(maps.height)?,
        rain: optional(maps.rain, finest)?,
        hardness: optional(maps.hardness, finest)?,
    }];
    for k in (1..sizes.len()).rev() {
        let (lw, lh) = sizes[k];
        let last = levels.last()?;
        let down = |v: &Vec<f32>| halve(v, lw, lh, wrap);
        let coarser = LevelMaps {
            height: down(&last.height)?,
            rain: optional(last.rain.as_ref(), down)?,
            hardness: optional(last.hardness.as_ref(), down)?,
        };
        levels.push(coarser);
    }
    levels.reverse();
    Some(levels)
}

/// `f` of a map that may be absent: `None` when `f` fails, `Some(None)` for no map.
fn optional<T>(map: Option<T>, f: impl Fn(T) -> Option<Vec<f32>>) -> Option<Option<Vec<f32>>> {
    match map {
        Some(map) => Some(Some(f(map)?)),
        None => Some(None),
    }
}

/// The cell sizes of a `w` × `h` grid over the unit square, in texture units, and the
/// run to each of the eight neighbours (left, right, up, down, then the diagonals
/// up-left, up-right, down-left, down-right).
pub(crate) fn runs(w: usize, h: usize) -> [f32; 8] {
    let (dx, dy) = (1.0 / w as f32, 1.0 / h as f32);
    let diagonal = (dx * dx + dy * dy).sqrt();
    [dx, dx, dy, dy, diagonal, diagonal, diagonal, diagonal]
}

/// Cell-steps `model` runs for a render of `grid` (w, h): cells times steps, summed over
/// its grids, and the grids.
fn work(model: Erosion, grid: (u32, u32)) -> (f64, Vec<(usize, usize)>) {
    let (sizes, _) = levels(grid.0 as usize, grid.1 as usize, BASE);
    let steps = |side: usize| match model {
        Erosion::Hydraulic(s) => hydraulic::Hydraulic::new(s, false).steps(side),
        Erosion::Thermal(s) => thermal::Thermal::new(s, false).steps(side),
    };
    let cells = sizes
        .iter()
        .map(|&(w, h)| steps(w.max(h)) as f64 * (w * h) as f64)
        .sum();
    (cells, sizes)
}

/// Bytes a simulation of `model` holds beside its result for a render of `grid`, with
/// `maps` rain or hardness maps: per cell of its finest grid, hydraulic erosion keeps 11
/// values (ground, water and sediment, each twice; weights; wear; deposition; rain;
/// softness), thermal 3 (heights twice, shares), and either may hold 8 more while it
/// moves to a finer grid or writes its result (hydraulic erosion 4 more, for filling its
/// lakes); the input maps' pyramids add a third of a value per map and cell.
pub fn working_bytes(model: Erosion, grid: (u32, u32), maps: usize) -> u64 {
    let (_, sizes) = work(model, grid);
    let (w, h) = *sizes.last().expect("at least one grid");
    let cells = (w as u64 + 2) * (h as u64 + 2);
    let values = match model {
        Erosion::Hydraulic(_) => 11 + 8 + 4,
        Erosion::Thermal(_) => 3 + 8,
    };
    let pyramid = (1 + maps as u64) * cells * 4 * 4 / 3;
    (cells * values * 4).saturating_add(pyramid)
}

/// What `texgraph plan` says of an erosion stage for a render of `grid`.
pub fn describe(model: Erosion, grid: (u32, u32)) -> String {
    let (cells, sizes) = work(model, grid);
    let name = match model {
        Erosion::Hydraulic(_) => "hydraulic erosion",
        Erosion::Thermal(_) => "thermal erosion",
    };
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    format!(
        "{name}: {} grids {}x{} to {}x{}, {:.1} M cell-steps, reads the whole plane",
        sizes.len(),
        first.0,
        first.1,
        last.0,
        last.1,
        cells / 1e6
    )
}

/// Estimated simple operations per texel of a 1024² render: the compiler's charge for an
/// erosion stage (the share of the work per texel shrinks slowly as renders grow).
pub fn cost_per_texel(model: Erosion) -> f64 {
    // Operations per cell and step.
    let per_step = match model {
        Erosion::Hydraulic(_) => 70.0,
        Erosion::Thermal(_) => 45.0,
    };
    let (cells, _) = work(model, (1024, 1024));
    per_step * cells / (1024.0 * 1024.0)
}
