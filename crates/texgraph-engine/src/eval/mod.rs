//! Evaluates a [`Program`] over an image: tiles in parallel, each operation over a
//! whole tile before the next, so dispatch is paid once per tile and the loops are tight
//! and vectorized (each kernel compiled for AVX-512, AVX2 and the baseline, chosen at
//! run time).
//! Every operation is a pure function of the sample, so the result is the same bits for
//! any tile size and thread count.

//!
//! A program of several stages runs them in order, each over its own grid: per-pixel
//! stages in tiles as above, blur stages as whole-plane passes. A plane is freed after
//! the last stage that reads it.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub mod blur;
mod coordinates;
pub mod distance;
pub mod erosion;
pub mod flood;
mod grid;
mod instances;
mod interleave;
mod lanes;
mod material;
mod ops;
pub mod planes;
pub mod pool;
mod simplex_grid3;
pub mod stream;

pub use crate::image::{Image, image_bytes};
pub use ops::{Tables, apply_uniform};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

use rayon::prelude::*;

use crate::program::{Operand, PlaneId, Program, StageWork, TileProgram, U_SLOT, V_SLOT};
use coordinates::Coordinates;
use planes::{PlaneView, TileAt};
use texgraph_base::error::{Error, Result};

/// Columns and rows of the tiles the image is cut into. Wide tiles keep each written
/// image row long (512 bytes) and give the grid kernels long runs of columns per lattice
/// cell; 32 rows keep a tile's slots, 16 KiB each, in the first-level cache. Square 64×64
/// tiles were 10–40% slower on every noise measured: their 64 rows of a power-of-two-wide
/// image lie a power of two apart and fall into the same few cache sets.
pub const TILE: [usize; 2] = [128, 32];

/// Largest side of an image a front end renders, in pixels: what `--size` and the Python
/// module's `size` accept.
pub const MAX_SIDE: u32 = 65_536;
/// Most worker threads a front end asks for.
pub const MAX_THREADS: usize = 1024;

/// How to render.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Worker threads; `None` uses rayon's global pool (one per core).
    pub threads: Option<usize>,
    /// Columns and rows of a tile (the result does not depend on them).
    pub tile: [usize; 2],
    /// Cancellation: when set to true, the render stops at the next band (or tile
    /// column) and returns [`Error::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            threads: None,
            tile: TILE,
            cancel: None,
        }
    }
}

impl RenderOptions {
    /// The worker threads a render with these options uses.
    pub fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }

    /// The threads of a pool of its own the render asks for: `None` for rayon's global
    /// pool, always on the web, whose one thread that pool is.
    fn own_pool(&self) -> Option<usize> {
        self.threads.filter(|_| !cfg!(target_arch = "wasm32"))
    }

    /// Whether cancellation has been asked for.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_deref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// Renders `program` at `width` × `height`. `progress` is called with the number of
/// rows finished so far (from any worker thread). Returns [`Error::Cancelled`] when
/// `options.cancel` is raised before the render ends.
pub fn render(
    program: &Program,
    width: u32,
    height: u32,
    options: RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Image> {
    let mut image = Image {
        width,
        height,
        channels: program.channels(),
        data: Vec::new(),
    };
    render_into(program, &mut image, width, height, options, progress)?;
    Ok(image)
}

/// The images of a program's outputs, taken apart from the render of all of them
/// together (`image` holds every output's channels per pixel, in [`Program::outputs`]'s
/// order). A program of one output gives its image back as it is.
pub fn split_outputs(program: &Program, image: Image) -> Result<Vec<Image>> {
    if program.outputs.len() == 1 {
        return Ok(vec![image]);
    }
    let total = image.channels;
    let pixels = image.data.len() / total.max(1);
    let mut images = Vec::with_capacity(program.outputs.len());
    let mut first = 0;
    for output in &program.outputs {
        let take = output.channels;
        let samples = image
            .data
            .chunks_exact(total)
            .flat_map(|pixel| &pixel[first..first + take])
            .copied();
        let data = texgraph_base::memory::try_collect(pixels * take, samples).ok_or_else(|| {
            Error::Render(format!(
                "not enough memory to take the {}x{} map '{}' out of the render",
                image.width, image.height, output.name
            ))
        })?;
        images.push(Image {
            width: image.width,
            height: image.height,
            channels: take,
            data,
        });
        first += take;
    }
    Ok(images)
}

/// [`render`] into `image`, reusing its buffer when it is large enough (previews and
/// repeated renders then skip allocating and first touching a new image). When cancelled,
/// the image may hold a partial render.
pub fn render_into(
    program: &Program,
    image: &mut Image,
    width: u32,
    height: u32,
    options: RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<()> {
    render_timed(program, image, width, height, options, progress).map(|_| ())
}

/// [`render_into`], returning how long each stage took (what `texgraph bench` shows).
pub fn render_timed(
    program: &Program,
    image: &mut Image,
    width: u32,
    height: u32,
    options: RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Duration>> {
    if width == 0 || height == 0 {
        return Err(Error::Render(format!(
            "image size {width}x{height} is empty"
        )));
    }
    let channels = program.channels();
    let len = usize::try_from(image_bytes(width, height, channels).unwrap_or(u64::MAX) / 4)
        .map_err(|_| Error::Render("image too large for this machine".to_owned()))?;
    if options.cancelled() {
        return Err(Error::Cancelled);
    }
    if image.data.len() != len {
        image.data = Vec::new();
        image.data = pool::zeroed(len).ok_or_else(|| {
            Error::Render(format!("not enough memory for a {width}x{height} image"))
        })?;
    }
    (image.width, image.height, image.channels) = (width, height, channels);
    let mut job = || run_stages(program, image, &options, progress);
    let times = match options.own_pool() {
        None => job()?,
        Some(n) => pool_of(n.max(1))?.install(job)?,
    };
    if options.cancelled() {
        return Err(Error::Cancelled);
    }
    Ok(times)
}

/// A pool of `threads` worker threads, kept for the next render that asks for as many:
/// starting threads per render would also give each a fresh heap and stack to fault in.
fn pool_of(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    /// Pools kept, by thread count (a program asks for a handful of counts at most).
    static POOLS: std::sync::Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> =
        std::sync::Mutex::new(Vec::new());
    const KEEP: usize = 4;
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Render(format!("cannot start {threads} threads: {e}")))?;
    let pool = Arc::new(pool);
    if pools.len() == KEEP {
        pools.remove(0);
    }
    pools.push((threads, pool.clone()));
    Ok(pool)
}

/// Runs every stage of `program`, the last into `image` (already sized), and returns the
/// time each took. Progress is reported in rows of the output, in proportion to the
/// texels computed by all stages.
fn run_stages(
    program: &Program,
    image: &mut Image,
    options: &RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Duration>> {
    let mut times = Vec::with_capacity(program.stages.len());
    let (width, height) = (image.width, image.height);
    let total: u64 = program
        .stages
        .iter()
        .map(|s| {
            let (w, h) = program.grid(s, width, height);
            u64::from(w) * u64::from(h)
        })
        .sum();
    let done = AtomicU64::new(0);
    let report = |texels: u64| {
        let so_far = done.fetch_add(texels, Ordering::Relaxed) + texels;
        progress((so_far * u64::from(height) / total.max(1)) as u32);
    };
    let last_readers = program.last_readers();
    let mut planes: Vec<Option<Arc<Image>>> =
        program.planes.iter().map(|p| p.image.clone()).collect();
    let tile = options.tile.map(|side| side.max(1));
    let cancel = options.cancel.as_deref();
    for (index, stage) in program.stages.iter().enumerate() {
        if options.cancelled() {
            return Err(Error::Cancelled);
        }
        let start = Instant::now();
        let views = whole_views(program, &planes);
        let tables = Tables::of(program, &views);
        let Some(target) = stage.target else {
            let StageWork::Pixels(tiles) = &stage.work else {
                unreachable!("the output stage is per-pixel")
            };
            let grid = (width as usize, height as usize);
            fill_rows(
                tiles,
                &tables,
                grid,
                0..grid.0,
                0,
                tile,
                &mut image.data,
                cancel,
                &report,
            );
            times.push(start.elapsed());
            break;
        };
        let plane = compute_whole(
            program,
            stage,
            &planes,
            &tables,
            (width, height),
            tile,
            cancel,
            &report,
        )?;
        drop(views);
        planes[target as usize] = Some(Arc::new(plane));
        times.push(start.elapsed());
        for (plane, last) in planes.iter_mut().zip(&last_readers) {
            if *last == Some(index) {
                release(plane.take());
            }
        }
    }
    for plane in planes {
        release(plane);
    }
    Ok(times)
}

/// Views of the planes computed so far, each whole.
fn whole_views<'a>(
    program: &Program,
    planes: &'a [Option<Arc<Image>>],
) -> Vec<Option<PlaneView<'a>>> {
    planes
        .iter()
        .zip(&program.planes)
        .map(|(plane, info)| plane.as_deref().map(|p| whole_view(p, info.wrap)))
        .collect()
}

/// A view of a whole plane.
fn whole_view(plane: &Image, wrap: bool) -> PlaneView<'_> {
    PlaneView::whole(
        &plane.data,
        plane.width as usize,
        plane.height as usize,
        plane.channels,
        wrap,
    )
}

/// `source` stretched linearly onto [0, 1] into `out`: the smallest value becomes 0 and the
/// largest 1; a plane of one value (or of no finite value) is copied as it is. The bounds
/// are a min and max over every texel, so the result does not depend on how the plane
/// was cut into tiles or threads.
fn stretch(source: &[f32], out: &mut [f32]) {
    let (low, high) = source
        .iter()
        .filter(|v| v.is_finite())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let range = f64::from(high) - f64::from(low);
    if range.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !range.is_finite() {
        out.copy_from_slice(source);
        return;
    }
    // In f64, so a range near f32's largest does not overflow; rounded once to f32.
    let scale = 1.0 / range;
    for (o, &v) in out.iter_mut().zip(source) {
        *o = ((f64::from(v) - f64::from(low)) * scale).clamp(0.0, 1.0) as f32;
    }
}

/// Computes the whole plane of `stage` (not the output stage) for a render of `size`,
/// reading the planes computed before it.
#[allow(clippy::too_many_arguments)]
fn compute_whole(
    program: &Program,
    stage: &crate::program::Stage,
    planes: &[Option<Arc<Image>>],
    tables: &Tables<'_>,
    size: (u32, u32),
    tile: [usize; 2],
    cancel: Option<&AtomicBool>,
    report: &(dyn Fn(u64) + Sync),
) -> Result<Image> {
    let (w, h) = program.grid(stage, size.0, size.1);
    let input = |p: &PlaneId| {
        let image = planes[*p as usize]
            .as_deref()
            .expect("a plane is computed before the stages that read it");
        (image, program.planes[*p as usize].wrap)
    };
    if let StageWork::Erosion {
        height,
        rain,
        hardness,
        model,
    } = &stage.work
    {
        // The simulation makes its result itself: no plane to allocate first.
        let (heights, wrap) = input(height);
        let maps = erosion::Maps {
            height: &heights.data,
            rain: rain.as_ref().map(|p| &input(p).0.data[..]),
            hardness: hardness.as_ref().map(|p| &input(p).0.data[..]),
        };
        let texels = u64::from(w) * u64::from(h);
        let reported = std::cell::Cell::new(0u64);
        let progress = |share: f64| {
            let now = ((share * texels as f64) as u64).min(texels);
            report(now.saturating_sub(reported.replace(now)));
        };
        let data = erosion::erode(
            *model, maps, w as usize, h as usize, wrap, cancel, &progress,
        )
        .map_err(|stop| match stop {
            erosion::Stop::Cancelled => Error::Cancelled,
            erosion::Stop::Memory => Error::Render(format!(
                "not enough memory to erode the {w}x{h} plane of node '{}'",
                stage.node
            )),
        })?;
        report(texels.saturating_sub(reported.get()));
        return Ok(Image {
            width: w,
            height: h,
            channels: model.channels(),
            data,
        });
    }
    let channels = stage.channels(&program.planes);
    let mut plane = Image {
        width: w,
        height: h,
        channels,
        data: image_bytes(w, h, channels)
            .and_then(|b| usize::try_from(b / 4).ok())
            .and_then(pool::take)
            .ok_or_else(|| {
                Error::Render(format!(
                    "not enough memory for the {w}x{h} plane of node '{}'",
                    stage.node
                ))
            })?,
    };
    match &stage.work {
        StageWork::Pixels(tiles) => {
            let grid = (w as usize, h as usize);
            fill_rows(
                tiles,
                tables,
                grid,
                0..grid.0,
                0,
                tile,
                &mut plane.data,
                cancel,
                report,
            );
            return Ok(plane);
        }
        StageWork::Blur {
            input: source,
            radius,
        } => {
            let (source, wrap) = input(source);
            blur::blur(source, *radius, wrap, &mut plane).ok_or_else(|| {
                Error::Render(format!(
                    "not enough memory to blur the {w}x{h} plane of node '{}'",
                    stage.node
                ))
            })?;
        }
        StageWork::Distance {
            input: source,
            threshold,
            side,
            to_edge,
        } => {
            let (source, wrap) = input(source);
            distance::distance(source, *threshold, *side, wrap, cancel, &mut plane).ok_or_else(
                || {
                    Error::Render(format!(
                        "not enough memory for the distance transform of the {w}x{h} plane \
                     of node '{}'",
                        stage.node
                    ))
                },
            )?;
            if *to_edge {
                distance::to_edge(&mut plane);
            }
        }
        StageWork::Stretch { input: source } => {
            let (source, _) = input(source);
            stretch(&source.data, &mut plane.data);
        }
        StageWork::Erosion { .. } => unreachable!("erosions are computed above"),
        StageWork::FloodFill {
            input: source,
            threshold,
        } => {
            let (source, wrap) = input(source);
            flood::flood_fill(source, *threshold, wrap, cancel, &mut plane).ok_or_else(|| {
                Error::Render(format!(
                    "not enough memory to label the shapes of the {w}x{h} plane of node '{}'",
                    stage.node
                ))
            })?;
        }
    }
    report(u64::from(w) * u64::from(h));
    Ok(plane)
}

/// Gives a computed plane's buffer back to the pool (loaded images stay with the program).
fn release(plane: Option<Arc<Image>>) {
    if let Some(image) = plane.and_then(|p| Arc::try_unwrap(p).ok()) {
        pool::give(image.data);
    }
}

/// Bytes of rows from which [`fill_rows`] writes single-channel rows with streaming
/// stores: beyond what a core's caches hold, where a plain store's read of the line
/// it overwrites is wasted. A 2048² single-channel render is 16 MiB.
const STREAM_BYTES: usize = 8 << 20;

/// Renders `program` into `data`: the columns `cols` of the rows from `row0` on of a
/// grid of `grid` (width, height) texels, as many rows as `data` holds, in bands of
/// `tile[1]` rows of tiles `tile[0]` wide, in parallel. Once `cancel` is raised, bands
/// not yet started are skipped and a band under way stops at its next tile column.
/// `report` is told how many texels each band added. Every sample depends only on its
/// place on the grid, so any cut of the grid into such calls gives the same bits.
#[allow(clippy::too_many_arguments)]
fn fill_rows(
    program: &TileProgram,
    tables: &Tables<'_>,
    grid: (usize, usize),
    cols: std::ops::Range<usize>,
    row0: usize,
    tile: [usize; 2],
    data: &mut [f32],
    cancel: Option<&AtomicBool>,
    report: &(dyn Fn(u64) + Sync),
) {
    let cancelled = || cancel.is_some_and(|flag| flag.load(Ordering::Relaxed));
    let (width, height) = grid;
    let row_len = cols.len();
    let channels = program.channels.len();
    if row_len == 0 {
        return;
    }
    let [tile_cols, tile_rows] = tile;
    let band_len = tile_rows * row_len * channels;
    // Rows too many to stay in the cache are written around it (see `stream_copy`).
    let stream = data.len() * 4 >= STREAM_BYTES;
    data.par_chunks_mut(band_len)
        .enumerate()
        .for_each(|(band, chunk)| {
            Workspace::with(program, tile, |ws| {
                let first = row0 + band * tile_rows;
                let rows = chunk.len() / (row_len * channels);
                for col0 in cols.clone().step_by(tile_cols) {
                    if cancelled() {
                        return;
                    }
                    let n = tile_cols.min(cols.end - col0);
                    ws.run(program, tables, col0, first, n, rows, width, height);
                    ws.write(program, chunk, col0 - cols.start, n, rows, row_len, stream);
                }
                report((rows * row_len) as u64);
            })
        });
}

thread_local! {
    /// Each worker thread's tile buffers, kept from band to band: allocated per band they
    /// would be returned to the system and faulted back in, zeroed page by page, every time.
    static WORKSPACE: std::cell::RefCell<Workspace> =
        const { std::cell::RefCell::new(Workspace::empty()) };
}

/// Most bytes of tile buffers a thread keeps between bands (more are freed after each).
const KEEP_WORKSPACE_BYTES: usize = 64 << 20;

/// Per-thread tile buffers, allocated once and reused for every tile.
struct Workspace {
    slots: Vec<Vec<f32>>,
    /// One tile row of each output channel that is uniform, filled with its value.
    uniform_rows: Vec<Vec<f32>>,
    /// The image coordinates of the tile being run.
    coordinates: Coordinates,
}

impl Workspace {
    /// No buffers yet.
    const fn empty() -> Workspace {
        Workspace {
            slots: Vec::new(),
            uniform_rows: Vec::new(),
            coordinates: Coordinates::new(),
        }
    }

    /// Runs `work` with this thread's workspace made ready for `program` with tiles of
    /// `tile` columns and rows.
    fn with(program: &TileProgram, tile: [usize; 2], work: impl FnOnce(&mut Workspace)) {
        WORKSPACE.with(|cell| {
            // A nested render on this thread (none today) gets a workspace of its own.
            let mut own;
            let mut borrowed = cell.try_borrow_mut();
            let ws = match borrowed.as_deref_mut() {
                Ok(ws) => ws,
                Err(_) => {
                    own = Workspace::empty();
                    &mut own
                }
            };
            ws.prepare(program, tile);
            work(ws);
            let bytes: usize = ws.slots.iter().map(|s| s.capacity() * 4).sum();
            if bytes > KEEP_WORKSPACE_BYTES {
                ws.slots = Vec::new();
            }
        });
    }

    /// Sizes the slots for `program`, zeroed as fresh ones would be (keeping their
    /// buffers), and spreads its uniform output channels into tile rows.
    fn prepare(&mut self, program: &TileProgram, [cols, rows]: [usize; 2]) {
        let count = program.slot_count as usize;
        self.coordinates.forget();
        self.slots.truncate(count);
        self.slots.resize_with(count, Vec::new);
        for (s, slot) in self.slots.iter_mut().enumerate() {
            slot.clear();
            // The coordinate slots stay empty: u and v live in `coordinates`.
            if s != U_SLOT as usize && s != V_SLOT as usize {
                slot.resize(cols * rows, 0.0);
            }
        }
        self.uniform_rows
            .resize_with(program.channels.len(), Vec::new);
        for (row, operand) in self.uniform_rows.iter_mut().zip(&program.channels) {
            row.clear();
            if let Operand::Const(c) = operand {
                row.resize(cols, *c);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        program: &TileProgram,
        tables: &Tables<'_>,
        col0: usize,
        row0: usize,
        cols: usize,
        rows: usize,
        width: usize,
        height: usize,
    ) {
        self.coordinates
            .start([col0, row0, cols, rows], [width, height]);
        let at = TileAt {
            col0,
            row0,
            width,
            height,
        };
        for instr in &program.instrs {
            ops::step(
                &mut self.slots,
                &self.coordinates,
                tables,
                instr,
                cols * rows,
                cols,
                at,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        program: &TileProgram,
        band: &mut [f32],
        col0: usize,
        cols: usize,
        rows: usize,
        width: usize,
        stream: bool,
    ) {
        // Uniform channels are spread into a row of their own once, so that every channel
        // is a slice and the interleaving loop has no branches. Each channel as (samples,
        // step between rows): a uniform channel's single spread row serves every row.
        let sources: Vec<(&[f32], usize)> = program
            .channels
            .iter()
            .enumerate()
            .map(|(c, operand)| match operand {
                Operand::Const(_) => (&self.uniform_rows[c][..cols], 0),
                // u is the same in every row.
                Operand::Slot(U_SLOT) => (&self.coordinates.u_row()[..cols], 0),
                Operand::Slot(V_SLOT) => (&self.coordinates.v()[..rows * cols], cols),
                Operand::Slot(s) => (&self.slots[*s as usize][..rows * cols], cols),
            })
            .collect();
        fn row((samples, step): (&[f32], usize), r: usize, cols: usize) -> &[f32] {
            &samples[r * step..r * step + cols]
        }
        for r in 0..rows {
            let start = r * width + col0;
            if let [only] = sources[..] {
                if stream {
                    interleave::stream_copy(&mut band[start..start + cols], row(only, r, cols));
                } else {
                    band[start..start + cols].copy_from_slice(row(only, r, cols));
                }
                continue;
            }
            if let [a, b, c, d] = sources[..] {
                let channels = [
                    row(a, r, cols),
                    row(b, r, cols),
                    row(c, r, cols),
                    row(d, r, cols),
                ];
                interleave::interleave4(&mut band[start * 4..(start + cols) * 4], channels);
                continue;
            }
            // Several outputs compiled together: any number of channels.
            let n = sources.len();
            let pixels = &mut band[start * n..(start + cols) * n];
            for (c, &source) in sources.iter().enumerate() {
                for (pixel, &v) in pixels.chunks_exact_mut(n).zip(row(source, r, cols)) {
                    pixel[c] = v;
                }
            }
        }
        if stream {
            interleave::stream_fence();
        }
    }
}
