//! Renders a program band by band, or one region of the image, without holding its
//! full-size planes: what streamed exports and `--region` renders use.
//!
//! A plane whose every reader reaches a bounded apron of it ([`Program::streamed_planes`])
//! is held as a window of rows: the rows the current band's readers reach, kept from one
//! band to the next as the window slides down, so each row is computed once. Other planes
//! (read anywhere, or through a whole-plane pass such as a distance or a flood fill)
//! are computed whole first. A blurred plane is streamed too: its column sums start
//! afresh at fixed rows, so it is computed in whole blocks of rows from the source rows
//! they reach. Every texel is computed by the same operations as in
//! a whole render, at the same place on its grid, so bands and regions are the same bits
//! as the matching part of [`render`](super::render).

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::blur::{self, Columns};
use super::{
    Image, RenderOptions, Tables, compute_whole, fill_rows, planes::PlaneView, pool_of, release,
    whole_view,
};
use crate::program::{Program, Reach, StageWork};
use texgraph_base::error::{Error, Result};

/// A rectangle of the image: its first column and row and its size, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// First column.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Region {
    /// The whole of a `width` × `height` image.
    pub fn whole(width: u32, height: u32) -> Self {
        Self {
            x: 0,
            y: 0,
            width,
            height,
        }
    }

    /// Whether the region is non-empty and lies inside a `width` × `height` image.
    pub fn fits(&self, width: u32, height: u32) -> bool {
        self.width > 0
            && self.height > 0
            && u64::from(self.x) + u64::from(self.width) <= u64::from(width)
            && u64::from(self.y) + u64::from(self.height) <= u64::from(height)
    }
}

/// Renders `region` of the `width` × `height` image of `program`: the same bits as that
/// rectangle of the whole render, computing only the rows of streamed planes it reaches.
pub fn render_region(
    program: &Program,
    width: u32,
    height: u32,
    region: Region,
    options: RenderOptions,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Image> {
    if !region.fits(width, height) {
        return Err(Error::Render(format!(
            "region {},{},{},{} is not inside the {width}x{height} image",
            region.x, region.y, region.width, region.height
        )));
    }
    let mut bands = Bands::new(program, width, height, region, options, progress)?;
    bands.render(region.y..region.y + region.height)
}

/// Rows per band of a streamed render of `program` `width` pixels wide on `threads`
/// threads: about 16 MiB of output, at least two rows of tiles per thread.
pub fn band_rows(program: &Program, width: u32, height: u32, threads: usize) -> u32 {
    const BUDGET: u64 = 16 << 20;
    let tile_rows = super::TILE[1] as u64;
    let row_bytes = (u64::from(width) * program.channels() as u64 * 4).max(1);
    let rows = (BUDGET / row_bytes).max(2 * tile_rows * threads.max(1) as u64);
    rows.next_multiple_of(tile_rows)
        .min(u64::from(height.max(1))) as u32
}

/// A render handed out band by band: [`Bands::render`] takes rows in increasing order.
pub struct Bands<'p> {
    program: &'p Program,
    size: (u32, u32),
    columns: Range<usize>,
    options: RenderOptions,
    /// Which planes are held as windows of rows.
    streamed: Vec<bool>,
    /// The planes computed whole (and loaded images), while they are read.
    whole: Vec<Option<Arc<Image>>>,
    /// The windows of the streamed planes.
    windows: Vec<Window>,
    /// Texels computed, and the total expected, for progress.
    done: AtomicU64,
    total: u64,
    /// Rows of the region, what progress counts to.
    rows: u32,
    progress: &'p (dyn Fn(u32) + Sync),
}

/// The rows `lo..hi` of a streamed plane; past the last row of a wrapping plane they go
/// on from its first (so `lo` may be negative and `hi` beyond the height).
#[derive(Default)]
struct Window {
    lo: i64,
    hi: i64,
    /// Where row `lo` is held in `data`, in rows: the rows slide down the buffer, with
    /// room behind them ([`held_rows`]), and move to its front only when they reach its end.
    start: usize,
    data: Vec<f32>,
}

/// Rows a window of `rows` rows of a plane `height` rows high holds room for: half as
/// many again, so that the rows are moved to the buffer's front once every few bands.
pub fn held_rows(rows: u64, height: u64) -> u64 {
    (rows + rows / 2).min(height).max(rows)
}

impl<'p> Bands<'p> {
    /// Makes ready to render `region` of `program`'s `width` × `height` image, band by
    /// band: computes the planes that are needed whole. `progress` is told the rows done
    /// so far, out of the region's, in proportion to the texels computed.
    pub fn new(
        program: &'p Program,
        width: u32,
        height: u32,
        region: Region,
        options: RenderOptions,
        progress: &'p (dyn Fn(u32) + Sync),
    ) -> Result<Self> {
        if width == 0 || height == 0 {
            return Err(Error::Render(format!(
                "image size {width}x{height} is empty"
            )));
        }
        if !region.fits(width, height) {
            return Err(Error::Render(format!(
                "region {},{},{},{} is not inside the {width}x{height} image",
                region.x, region.y, region.width, region.height
            )));
        }
        let streamed = program.streamed_planes();
        // Streamed planes count the share of their rows the region's rows reach.
        let share = f64::from(region.height) / f64::from(height);
        let total = program
            .stages
            .iter()
            .map(|s| {
                let (w, h) = program.grid(s, width, height);
                let texels = (u64::from(w) * u64::from(h)) as f64;
                match s.target {
                    None => u64::from(region.width) * u64::from(region.height),
                    Some(p) if streamed[p as usize] => (texels * share) as u64,
                    Some(_) => texels as u64,
                }
            })
            .sum();
        let columns = region.x..region.x + region.width;
        let mut bands = Self {
            program,
            size: (width, height),
            columns: columns.start as usize..columns.end as usize,
            options,
            whole: program.planes.iter().map(|p| p.image.clone()).collect(),
            windows: program.planes.iter().map(|_| Window::default()).collect(),
            streamed,
            done: AtomicU64::new(0),
            total,
            rows: region.height,
            progress,
        };
        bands.in_pool(|b| b.compute_whole_planes())?;
        Ok(bands)
    }

    /// Runs `job` on the render's threads.
    fn in_pool<T: Send>(&mut self, job: impl FnOnce(&mut Self) -> Result<T> + Send) -> Result<T> {
        match self.options.own_pool() {
            None => job(self),
            Some(n) => pool_of(n.max(1))?.install(|| job(self)),
        }
    }

    fn report(&self, texels: u64) {
        let so_far = self.done.fetch_add(texels, Ordering::Relaxed) + texels;
        let rows = so_far.min(self.total) * u64::from(self.rows) / self.total.max(1);
        (self.progress)(rows as u32);
    }

    fn check_cancel(&self) -> Result<()> {
        if self.options.cancelled() {
            return Err(Error::Cancelled);
        }
        Ok(())
    }

    /// Computes every plane that is not streamed, in stage order, freeing those that
    /// only whole stages read after their last reader.
    fn compute_whole_planes(&mut self) -> Result<()> {
        let program = self.program;
        let mut last_reader = program.last_readers();
        // A plane that a streamed stage or the output reads is kept to the end.
        for stage in &program.stages {
            if stage.target.is_none_or(|t| self.streamed[t as usize]) {
                for &p in &stage.reads {
                    last_reader[p as usize] = None;
                }
            }
        }
        let tile = self.options.tile.map(|side| side.max(1));
        for (index, stage) in program.stages.iter().enumerate() {
            let Some(target) = stage.target else { break };
            if self.streamed[target as usize] {
                continue;
            }
            self.check_cancel()?;
            let views = super::whole_views(program, &self.whole);
            let tables = Tables::of(program, &views);
            let cancel = self.options.cancel.as_deref();
            let report = |texels: u64| self.report(texels);
            let plane = compute_whole(
                program,
                stage,
                &self.whole,
                &tables,
                self.size,
                tile,
                cancel,
                &report,
            )?;
            drop(views);
            self.whole[target as usize] = Some(Arc::new(plane));
            for (plane, last) in self.whole.iter_mut().zip(&last_reader) {
                if *last == Some(index) {
                    release(plane.take());
                }
            }
        }
        self.check_cancel()
    }

    /// Renders the rows `rows` of the columns given to [`Bands::new`]; each call's rows
    /// must start at or after the previous call's (they may overlap it).
    pub fn render(&mut self, rows: Range<u32>) -> Result<Image> {
        let (width, height) = self.size;
        if rows.is_empty() || rows.end > height {
            return Err(Error::Render(format!(
                "rows {}..{} are not inside the {width}x{height} image",
                rows.start, rows.end
            )));
        }
        self.in_pool(|b| b.render_band(rows))
    }

    fn render_band(&mut self, rows: Range<u32>) -> Result<Image> {
        self.check_cancel()?;
        let program = self.program;
        let (width, height) = self.size;
        let needs = window_needs(
            program,
            &self.streamed,
            self.size,
            rows.start as i64..rows.end as i64,
        );
        for stage in &program.stages {
            let Some(target) = stage.target else { break };
            if let Some(need) = needs[target as usize] {
                self.slide(target as usize, need)?;
                self.check_cancel()?;
            }
        }
        let tiles = program.output_stage();
        let channels = tiles.channels.len();
        let n = rows.len() * self.columns.len() * channels;
        let mut image = Image {
            width: self.columns.len() as u32,
            height: rows.len() as u32,
            channels,
            // A buffer given back by the writer of an earlier band, when there is one.
            data: super::pool::take(n).ok_or_else(|| {
                Error::Render(format!(
                    "not enough memory for a band of {}x{} pixels",
                    self.columns.len(),
                    rows.len()
                ))
            })?,
        };
        let views = self.views();
        let tables = Tables::of(program, &views);
        let tile = self.options.tile.map(|side| side.max(1));
        let report = |texels: u64| self.report(texels);
        fill_rows(
            tiles,
            &tables,
            (width as usize, height as usize),
            self.columns.clone(),
            rows.start as usize,
            tile,
            &mut image.data,
            self.options.cancel.as_deref(),
            &report,
        );
        drop(views);
        self.check_cancel()?;
        Ok(image)
    }

    /// Moves plane `p`'s window to the rows `need`, keeping the rows it shares with the
    /// window before and computing the others.
    fn slide(&mut self, p: usize, (lo, hi): (i64, i64)) -> Result<()> {
        let program = self.program;
        let stage = program
            .stages
            .iter()
            .find(|s| s.target == Some(p as u32))
            .expect("a streamed plane has a stage");
        let (w, h) = program.planes[p].size.at(self.size.0, self.size.1);
        let row_len = w as usize * stage.channels(&program.planes);
        let mut window = std::mem::take(&mut self.windows[p]);
        let (mut start, kept_to) = if window.lo <= lo && lo < window.hi {
            (window.start + (lo - window.lo) as usize, window.hi.min(hi))
        } else {
            (0, lo)
        };
        let (rows, kept) = ((hi - lo) as usize, (kept_to - lo) as usize);
        if (start + rows) * row_len > window.data.len() {
            // Move the kept rows to the front, growing the buffer past the window's rows
            // so that it slides a while before the next move: each row is moved about
            // twice in all, not once per band.
            let range = start * row_len..(start + kept) * row_len;
            window.data.copy_within(range, 0);
            start = 0;
            let room = held_rows(rows as u64, u64::from(h)) as usize * row_len;
            if room > window.data.len() {
                window.data.truncate(kept * row_len);
                if window
                    .data
                    .try_reserve_exact(room - window.data.len())
                    .is_err()
                {
                    return Err(Error::Render(format!(
                        "not enough memory for {} rows of the {w}x{h} plane of node '{}'",
                        hi - lo,
                        stage.node
                    )));
                }
                window.data.resize(room, 0.0);
            }
        }
        window.start = start;
        (window.lo, window.hi) = (lo, hi);
        let views = self.views();
        let tables = Tables::of(program, &views);
        let tile = self.options.tile.map(|side| side.max(1));
        let report = |texels: u64| self.report(texels);
        // The new rows, cut where they go on past the last row to the first.
        let h = i64::from(h);
        let mut row = kept_to;
        while row < hi {
            let end = hi.min((row.div_euclid(h) + 1) * h);
            let at =
                (start + (row - lo) as usize) * row_len..(start + (end - lo) as usize) * row_len;
            let first = row.rem_euclid(h) as usize;
            match &stage.work {
                StageWork::Pixels(tiles) => fill_rows(
                    tiles,
                    &tables,
                    (w as usize, h as usize),
                    0..w as usize,
                    first,
                    tile,
                    &mut window.data[at],
                    self.options.cancel.as_deref(),
                    &report,
                ),
                StageWork::Blur { input, radius } => {
                    let source = views[*input as usize]
                        .as_ref()
                        .expect("a blur's source is computed before it");
                    let rows = first..first + (end - row) as usize;
                    blur::blur_rows(source, *radius, rows, &mut window.data[at]).ok_or_else(
                        || {
                            Error::Render(format!(
                                "not enough memory to blur rows of the {w}x{h} plane of node \
                                 '{}'",
                                stage.node
                            ))
                        },
                    )?;
                    report((end - row) as u64 * u64::from(w));
                }
                StageWork::Distance { .. }
                | StageWork::FloodFill { .. }
                | StageWork::Stretch { .. }
                | StageWork::Erosion { .. } => {
                    unreachable!(
                        "distances, flood fills, stretches and erosions are computed whole"
                    )
                }
            }
            row = end;
        }
        drop(views);
        self.windows[p] = window;
        Ok(())
    }

    /// Views of every plane there is: whole ones and the streamed planes' windows.
    fn views(&self) -> Vec<Option<PlaneView<'_>>> {
        let (width, height) = self.size;
        self.program
            .planes
            .iter()
            .enumerate()
            .map(|(p, info)| {
                if let Some(image) = self.whole[p].as_deref() {
                    return Some(whole_view(image, info.wrap));
                }
                let window = &self.windows[p];
                if !self.streamed[p] || window.hi <= window.lo {
                    return None;
                }
                let (w, h) = info.size.at(width, height);
                let row_len = w as usize * info.channels as usize;
                let rows = (window.hi - window.lo) as usize;
                Some(PlaneView {
                    data: &window.data[window.start * row_len..(window.start + rows) * row_len],
                    width: w as usize,
                    height: h as usize,
                    channels: info.channels as usize,
                    wrap: info.wrap,
                    first_row: window.lo.rem_euclid(i64::from(h)) as usize,
                    rows: (window.hi - window.lo) as usize,
                })
            })
            .collect()
    }
}

/// The rows of each streamed plane (`streamed`, from [`Program::streamed_planes`]) that
/// the output rows `rows` of a `size` render reach, through every stage between: each
/// reader's rows, on the plane's grid, widened by its apron (and a texel for bilinear
/// reads), clamped to the plane unless it wraps. A wrapping plane's rows may start
/// before 0 or end past its height (they go on from the other side); a window of every
/// row is `0..height`.
pub fn window_needs(
    program: &Program,
    streamed: &[bool],
    (width, height): (u32, u32),
    rows: Range<i64>,
) -> Vec<Option<(i64, i64)>> {
    let mut needs: Vec<Option<(i64, i64)>> = vec![None; program.planes.len()];
    for stage in program.stages.iter().rev() {
        let (lo, hi) = match stage.target {
            None => (rows.start, rows.end),
            Some(p) => match needs[p as usize] {
                Some(need) if streamed[p as usize] => need,
                _ => continue,
            },
        };
        if let StageWork::Blur { input, radius } = stage.work {
            // A blur computes whole blocks of rows, each from the source rows its three
            // boxes reach (see `blur::Columns`).
            let Some(target) = stage.target else { continue };
            let info = &program.planes[target as usize];
            let (_, h) = info.size.at(width, height);
            let columns = Columns::new(radius, h as usize, info.wrap);
            let blocks = columns.blocks((lo, hi));
            needs[target as usize] = Some(blocks);
            if streamed[input as usize] {
                let (s_lo, s_hi) = columns.source_rows(blocks);
                widen(&mut needs[input as usize], (s_lo, s_hi), i64::from(h));
            }
            continue;
        }
        let grid_h = i64::from(program.grid(stage, width, height).1);
        for (&q, reach) in stage.reads.iter().zip(&stage.reaches) {
            let Reach::Near(apron) = reach else { continue };
            if !streamed[q as usize] {
                continue;
            }
            let info = &program.planes[q as usize];
            let (w, h) = info.size.at(width, height);
            let reach = apron.texels_at(w.max(h)) as i64 + 1;
            let h = i64::from(h);
            let mut q_lo = (lo * h).div_euclid(grid_h) - reach;
            let mut q_hi = (hi * h + grid_h - 1).div_euclid(grid_h) + reach;
            if !info.wrap {
                (q_lo, q_hi) = (q_lo.max(0), q_hi.min(h));
            }
            widen(&mut needs[q as usize], (q_lo, q_hi), h);
        }
    }
    needs
}

/// `need` (of a plane `h` rows high) widened to take in the rows `lo..hi` too; every row
/// once when that goes all round.
fn widen(need: &mut Option<(i64, i64)>, (lo, hi): (i64, i64), h: i64) {
    let (lo, hi) = match *need {
        Some((a, b)) => (a.min(lo), b.max(hi)),
        None => (lo, hi),
    };
    *need = Some(if hi - lo >= h { (0, h) } else { (lo, hi) });
}

impl Drop for Bands<'_> {
    fn drop(&mut self) {
        for plane in self.whole.drain(..) {
            release(plane);
        }
    }
}
