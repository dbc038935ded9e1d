//! The memory of a streamed render (see [`crate::eval::stream`]): which planes are held
//! as windows of rows and how many, which are computed whole, and the peak of the two
//! phases (the whole planes first, then the bands).

use std::fmt;

use super::{mib, working_bytes, workspace_bytes};
use crate::eval::blur::Columns;
use crate::eval::image_bytes;
use crate::eval::stream::{Region, band_rows, held_rows, window_needs};
use crate::program::{Program, StageWork};

/// How a streamed render holds one plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaneHold {
    /// A window of this many rows, sliding down with the bands.
    Window {
        /// Rows a band reaches.
        rows: u64,
        /// Bytes of the buffer they slide down (with room for half as many again).
        bytes: u64,
    },
    /// Computed whole before the first band.
    Whole {
        /// Its bytes.
        bytes: u64,
        /// Kept while the bands are rendered (a band's stages read it).
        kept: bool,
    },
}

/// A streamed render's schedule of memory.
#[derive(Debug, Clone)]
pub struct StreamPlan {
    /// The region rendered.
    pub region: Region,
    /// Rows of output per band.
    pub band_rows: u32,
    /// Each plane's node and how it is held.
    pub planes: Vec<(String, PlaneHold)>,
    /// The most bytes held at once: the planes computed whole while they are, then the
    /// windows, the planes kept whole, the bands in flight and the encoders' copies.
    pub peak_bytes: u64,
}

/// Bands in flight at once per output byte of a band: the band rendered, its outputs
/// taken apart, one waiting for each file's writer and one being encoded.
const BANDS_IN_FLIGHT: u64 = 4;

/// The memory of rendering `region` of `program` at `width` × `height` band by band on
/// `threads` threads, each band written through an encoder copy of `copy_per_pixel`
/// bytes a pixel.
pub fn streamed(
    program: &Program,
    width: u32,
    height: u32,
    region: Region,
    threads: usize,
    copy_per_pixel: u64,
) -> StreamPlan {
    let streamed = program.streamed_planes();
    let band = band_rows(program, region.width, region.height, threads);
    let plane_bytes = |p: usize, rows: Option<u64>| {
        let info = &program.planes[p];
        let (w, h) = info.size.at(width, height);
        let rows = rows.unwrap_or(u64::from(h));
        image_bytes(w, 1, info.channels as usize)
            .unwrap_or(u64::MAX)
            .saturating_mul(rows)
    };
    // A band in the middle of the region reaches the most rows.
    let mid = i64::from(region.y) + i64::from(region.height.saturating_sub(band) / 2);
    let needs = window_needs(
        program,
        &streamed,
        (width, height),
        mid..mid + i64::from(band),
    );
    // Whole planes a band's stages or the output read are kept to the end.
    let mut kept = vec![false; program.planes.len()];
    for stage in &program.stages {
        if stage.target.is_none_or(|t| streamed[t as usize]) {
            for &p in &stage.reads {
                kept[p as usize] |= !streamed[p as usize];
            }
        }
    }
    let planes = program
        .planes
        .iter()
        .enumerate()
        .map(|(p, info)| {
            let hold = match needs[p] {
                Some((lo, hi)) if streamed[p] => {
                    let rows = (hi - lo) as u64;
                    let h = info.size.at(width, height).1;
                    PlaneHold::Window {
                        rows,
                        bytes: plane_bytes(p, Some(held_rows(rows, u64::from(h)))),
                    }
                }
                _ => PlaneHold::Whole {
                    bytes: plane_bytes(p, None),
                    kept: kept[p] || info.image.is_some(),
                },
            };
            (info.node.clone(), hold)
        })
        .collect::<Vec<_>>();
    let resident = program.table_bytes();
    // The whole phase: planes alive at each whole stage, its target and working memory.
    let last = program.last_readers();
    let mut alive: Vec<usize> = program
        .planes
        .iter()
        .enumerate()
        .filter(|(_, info)| info.image.is_some())
        .map(|(p, _)| p)
        .collect();
    let mut whole_peak = 0u64;
    for (index, stage) in program.stages.iter().enumerate() {
        let Some(target) = stage.target else { break };
        let target = target as usize;
        if streamed[target] {
            continue;
        }
        let grid = program.grid(stage, width, height);
        let bytes = plane_bytes(target, None);
        let held: u64 = alive.iter().map(|&p| plane_bytes(p, None)).sum();
        let working = working_bytes(stage, grid, bytes, threads);
        whole_peak = whole_peak.max(held.saturating_add(bytes).saturating_add(working));
        alive.push(target);
        alive.retain(|&p| kept[p] || last[p].is_some_and(|l| l > index));
    }
    // The band phase.
    let windows: u64 = planes
        .iter()
        .map(|(_, hold)| match hold {
            PlaneHold::Window { bytes, .. } => *bytes,
            PlaneHold::Whole { bytes, kept: true } => *bytes,
            PlaneHold::Whole { kept: false, .. } => 0,
        })
        .fold(0, u64::saturating_add);
    // Each thread's working memory for the band's stages, one stage at a time: tile
    // buffers, or a streamed blur's strip buffers.
    let workspace = program
        .stages
        .iter()
        .filter_map(|s| match (&s.work, s.target) {
            (StageWork::Pixels(tiles), _) => Some(workspace_bytes(tiles)),
            (StageWork::Blur { radius, .. }, Some(t)) if streamed[t as usize] => {
                let info = &program.planes[t as usize];
                let (w, h) = info.size.at(width, height);
                let columns = Columns::new(*radius, h as usize, info.wrap);
                let rows = needs[t as usize].unwrap_or((0, i64::from(h)));
                Some(columns.working_bytes(rows, w as usize, info.channels as usize))
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
        .saturating_mul(threads as u64);
    let band_pixels = u64::from(region.width) * u64::from(band);
    let bands = band_pixels
        .saturating_mul(program.channels() as u64 * 4)
        .saturating_mul(BANDS_IN_FLIGHT)
        .saturating_add(band_pixels.saturating_mul(copy_per_pixel));
    let band_peak = windows.saturating_add(workspace).saturating_add(bands);
    StreamPlan {
        region,
        band_rows: band,
        planes,
        peak_bytes: whole_peak.max(band_peak).saturating_add(resident),
    }
}

impl fmt::Display for StreamPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.region;
        writeln!(
            f,
            "streamed: region {},{},{},{} in bands of {} rows",
            r.x, r.y, r.width, r.height, self.band_rows
        )?;
        for (p, (node, hold)) in self.planes.iter().enumerate() {
            match hold {
                PlaneHold::Window { rows, bytes } => writeln!(
                    f,
                    "    plane #{p} ({node}): a window of {rows} rows, {:.1} MiB",
                    mib(*bytes)
                )?,
                PlaneHold::Whole { bytes, kept } => writeln!(
                    f,
                    "    plane #{p} ({node}): whole{}, {:.1} MiB",
                    if *kept { ", kept for the bands" } else { "" },
                    mib(*bytes)
                )?,
            }
        }
        write!(f, "streamed peak memory {:.1} MiB", mib(self.peak_bytes))
    }
}
