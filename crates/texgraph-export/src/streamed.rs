//! Exports written while they render: the outputs of a graph rendered together band by
//! band ([`texgraph_engine::eval::stream`]), each band handed to one writer thread per file
//! ([`crate::stream`]), so memory holds a few bands and the planes' windows instead of
//! the image. Files are staged beside their targets and renamed into place together only
//! when every one is complete: a failure or cancellation anywhere leaves every target as
//! it was and no temporary behind.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use web_time::Instant;

use crate::stream::{self, FileSpec};
use crate::{Clipping, ExportSettings, Exported, checked_targets};
use texgraph_base::error::{Error, Result};
use texgraph_base::staging::{self, Staged};
use texgraph_engine::eval::stream::{Bands, Region, band_rows};
use texgraph_engine::eval::{Image, split_outputs};
use texgraph_engine::program::Program;
use texgraph_graph::compile::compile_outputs;
use texgraph_graph::graph::Graph;

/// Renders the outputs `targets` name together, band by band, for `region` of the image
/// (the whole of it when `None`), each band handed to its files' writers; the files are
/// staged and committed together, all or none. A region's files carry a note of where they belong (see [`region_note`]),
/// which `texgraph stitch` reads.
pub fn export_streamed(
    graph: &Graph,
    targets: &[(ExportSettings, PathBuf)],
    region: Option<Region>,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    export_in_bands(graph, targets, region, None, progress)
}

/// [`export_streamed`] in bands of `band` rows (`None`: [`band_rows`]'s choice). The
/// files are the same bytes for any band height.
pub fn export_in_bands(
    graph: &Graph,
    targets: &[(ExportSettings, PathBuf)],
    region: Option<Region>,
    band: Option<u32>,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    let Some(prepared) = Prepared::new(graph, targets, region)? else {
        return Ok(Vec::new());
    };
    let Prepared {
        program,
        specs,
        region,
        size: (width, height),
    } = &prepared;
    let region = *region;
    let options = &targets[0].0.options;
    let start = Instant::now();
    let band = if cfg!(target_arch = "wasm32") {
        // The web page has one thread: no writer threads, so one band.
        region.height
    } else {
        band.unwrap_or_else(|| {
            band_rows(program, region.width, region.height, options.thread_count())
        })
    }
    .max(1);
    let mut bands = Bands::new(program, *width, *height, region, options.clone(), progress)?;
    let staged = if region.height <= band {
        // One band: rendered, then written file by file on this thread (small renders,
        // a batch's most of all, spare a thread and a channel per file).
        let image = bands.render(region.y..region.y + region.height)?;
        drop(bands);
        write_whole(program, targets, specs, image)?
    } else {
        write_in_threads(program, &mut bands, targets, specs, region, band)?
    };
    commit(targets, specs, staged, start)
}

/// What a streamed export of some outputs needs before its first band: the targets
/// checked, the outputs compiled together, each file's layout.
pub(crate) struct Prepared {
    pub(crate) program: Program,
    pub(crate) specs: Vec<FileSpec>,
    pub(crate) region: Region,
    /// The whole image's width and height.
    pub(crate) size: (u32, u32),
}

impl Prepared {
    /// Checks `targets` and `region` (the whole image when `None`) and compiles their
    /// outputs; `None` when there are no targets.
    pub(crate) fn new(
        graph: &Graph,
        targets: &[(ExportSettings, PathBuf)],
        region: Option<Region>,
    ) -> Result<Option<Self>> {
        let Some((first, first_path)) = targets.first() else {
            return Ok(None);
        };
        let (names, formats) = checked_targets(graph, targets)?;
        let (width, height) = (first.width, first.height);
        let whole = Region::whole(width, height);
        let region = region.unwrap_or(whole);
        if !region.fits(width, height) {
            return Err(Error::Render(format!(
                "{}: region {},{},{},{} is not inside the {width}x{height} image (it must be non-empty, X + W <= {width} and Y + H <= {height})",
                first_path.display(),
                region.x,
                region.y,
                region.width,
                region.height
            )));
        }
        if region != whole
            && let Some((_, path)) = targets
                .iter()
                .zip(&formats)
                .find(|(_, f)| f.is_texture())
                .map(|(t, _)| t)
        {
            return Err(Error::Input {
                path: path.clone(),
                message: "a region cannot be written as DDS or KTX2 (a texture's mips are filtered from the whole image); write regions as PNG, EXR or TIFF and stitch them".to_owned(),
            });
        }
        let program = compile_outputs(graph, &names)?;
        let threads = first.options.thread_count();
        let copy = targets
            .iter()
            .zip(&formats)
            .zip(&program.outputs)
            .map(|(((s, _), f), o)| f.copy_bytes_per_pixel(s.depth, o.channels))
            .sum();
        check_memory(&program, (width, height), region, threads, copy)?;
        let hash = graph_hash(graph);
        let specs: Vec<FileSpec> = targets
            .iter()
            .zip(&formats)
            .zip(&program.outputs)
            .map(|(((settings, _), format), output)| FileSpec {
                format: *format,
                depth: settings.depth,
                encoding: output.usage.encoding(),
                width: region.width,
                height: region.height,
                channels: output.channels,
                note: (region != whole)
                    .then(|| region_note(region, (width, height), hash, &output.name)),
                block: crate::texture_block(*format, settings.depth, output),
            })
            .collect();
        Ok(Some(Self {
            program,
            specs,
            region,
            size: (width, height),
        }))
    }
}

/// Stages each target's file from `image`, the render of every output together.
pub(crate) fn write_whole(
    program: &Program,
    targets: &[(ExportSettings, PathBuf)],
    specs: &[FileSpec],
    image: Image,
) -> Result<Vec<(Staged, Clipping)>> {
    let parts = split_outputs(program, image)?;
    let mut staged = Vec::with_capacity(parts.len());
    for (((_, path), spec), part) in targets.iter().zip(specs).zip(parts) {
        let mut once = Some(Arc::new(part));
        staged.push(write_file(path, spec, || once.take())?);
    }
    Ok(staged)
}

/// Commits the staged files together and tells what was written.
pub(crate) fn commit(
    targets: &[(ExportSettings, PathBuf)],
    specs: &[FileSpec],
    staged: Vec<(Staged, Clipping)>,
    start: Instant,
) -> Result<Vec<Exported>> {
    let seconds = start.elapsed().as_secs_f64();
    let (staged, clippings): (Vec<Staged>, Vec<Clipping>) = staged.into_iter().unzip();
    staging::commit_all(staged)?;
    Ok(targets
        .iter()
        .zip(specs)
        .zip(clippings)
        .map(|(((settings, path), spec), clipping)| Exported {
            path: path.clone(),
            width: spec.width,
            height: spec.height,
            channels: spec.format.stored_channels(spec.channels),
            depth: settings.depth,
            seconds,
            clipping,
        })
        .collect())
}

/// Renders `region` through `bands` in bands of `band` rows, each band's outputs sent to
/// one writer thread per file; returns the staged files, with what each clamped, once
/// every one is complete.
fn write_in_threads(
    program: &Program,
    bands: &mut Bands<'_>,
    targets: &[(ExportSettings, PathBuf)],
    specs: &[FileSpec],
    region: Region,
    band: u32,
) -> Result<Vec<(Staged, Clipping)>> {
    std::thread::scope(|scope| {
        let mut senders = Vec::with_capacity(targets.len());
        let mut writers = Vec::with_capacity(targets.len());
        for ((_, path), spec) in targets.iter().zip(specs) {
            // One band waits for each writer while the next renders.
            let (send, receive) = sync_channel::<Arc<Image>>(1);
            senders.push(send);
            writers.push(scope.spawn(move || write_file(path, spec, || receive.recv().ok())));
        }
        let mut rendered = || {
            let mut row = region.y;
            let end = region.y + region.height;
            while row < end {
                let next = (row + band).min(end);
                let image = bands.render(row..next)?;
                for (send, part) in senders.iter().zip(split_outputs(program, image)?) {
                    // A writer that stopped has its own error, reported below.
                    if send.send(Arc::new(part)).is_err() {
                        return Err(Error::Cancelled);
                    }
                }
                row = next;
            }
            Ok(())
        };
        let rendered = rendered();
        drop(senders);
        let written: Vec<Result<(Staged, Clipping)>> = writers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(Error::Render("a file writer failed".to_owned())))
            })
            .collect();
        // A writer's own failure (a full disk) explains a stopped render best.
        let failed_writer = written.iter().position(|w| {
            w.as_ref()
                .is_err_and(|e| !matches!(e, Error::Render(m) if m == STOPPED))
        });
        match (rendered, failed_writer) {
            (_, Some(i)) => Err(written
                .into_iter()
                .nth(i)
                .and_then(Result::err)
                .expect("failed")),
            (Err(e), None) => Err(e),
            (Ok(()), None) => written.into_iter().collect::<Result<Vec<_>>>(),
        }
    })
}

/// What a writer says when the render stopped sending it bands.
const STOPPED: &str = "the render stopped";

/// Writes the file `spec` describes to a temporary staged for `path`, from the bands
/// `bands` hands out; an error (and no temporary) when they stop early or the write fails.
fn write_file(
    path: &Path,
    spec: &FileSpec,
    mut bands: impl FnMut() -> Option<Arc<Image>>,
) -> Result<(Staged, Clipping)> {
    let mut stopped = false;
    let mut clipping = Clipping::default();
    let staged = staging::stage(path, |file| {
        let mut out = BufWriter::new(file);
        // The band handed out before: written by the time the next is asked for, so its
        // buffer goes back for a later band.
        let mut last: Option<Arc<Image>> = None;
        let mut next = || {
            if let Some(image) = last.take().and_then(|a| Arc::try_unwrap(a).ok()) {
                texgraph_engine::eval::pool::give(image.data);
            }
            let band = bands();
            stopped = band.is_none();
            if let Some(band) = &band {
                clipping = clipping.and(Clipping::of(band, spec.depth));
            }
            last = band.clone();
            band
        };
        let result = stream::write(&mut out, spec, &mut next)
            .and_then(|()| out.flush().map_err(|e| e.to_string()));
        match result {
            Err(_) if stopped => Err(Error::Render(STOPPED.to_owned())),
            Err(message) => Err(Error::Export {
                path: path.to_owned(),
                message,
            }),
            Ok(()) => Ok(()),
        }
    })?;
    Ok((staged, clipping))
}

/// Refuses a streamed render whose peak (see [`texgraph_engine::plan::streamed`]) would not fit in
/// the memory this process may take.
fn check_memory(
    program: &Program,
    (width, height): (u32, u32),
    region: Region,
    threads: usize,
    copy_per_pixel: u64,
) -> Result<()> {
    let plan =
        texgraph_engine::plan::streamed(program, width, height, region, threads, copy_per_pixel);
    crate::check_room(plan.peak_bytes, width, height, threads)
}

/// A stable hash of a graph (FNV-1a of its JSON): the same graph, params and settings give
/// the same hash on every machine.
pub fn graph_hash(graph: &Graph) -> u64 {
    graph.to_json().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The note a region's file carries: `region X,Y,W,H of WxH; graph HASH; output NAME`.
pub fn region_note(region: Region, (width, height): (u32, u32), hash: u64, output: &str) -> String {
    format!(
        "region {},{},{},{} of {width}x{height}; graph {hash:016x}; output {output}",
        region.x, region.y, region.width, region.height
    )
}

/// A region's place as its file's note gives it: the region, the full size, the graph's
/// hash and the output's name; `None` when the note is not one.
pub fn parse_region_note(note: &str) -> Option<(Region, (u32, u32), u64, String)> {
    let rest = note.strip_prefix("region ")?;
    let (rect, rest) = rest.split_once(" of ")?;
    let (size, rest) = rest.split_once("; graph ")?;
    let (hash, output) = rest.split_once("; output ")?;
    let numbers: Vec<u32> = rect
        .split(',')
        .map(|n| n.parse().ok())
        .collect::<Option<_>>()?;
    let [x, y, w, h] = numbers[..] else {
        return None;
    };
    let (width, height) = size.split_once('x')?;
    Some((
        Region {
            x,
            y,
            width: w,
            height: h,
        },
        (width.parse().ok()?, height.parse().ok()?),
        u64::from_str_radix(hash, 16).ok()?,
        output.to_owned(),
    ))
}
