//! A still export done a band at a time, when asked: for a front end that has to draw
//! between bands (the web page, with one thread). It writes the files
//! [`export_streamed`](crate::streamed::export_streamed) writes, byte for byte, but holds
//! each output's image whole until the last band, then encodes it: the web page's images
//! are the size of one screen's work, and an encoder cannot wait for bands across frames.

use std::path::PathBuf;

use texgraph_base::error::Result;
use texgraph_engine::eval::stream::{Bands, Region, band_rows};
use texgraph_engine::eval::{Image, RenderOptions};
use texgraph_graph::graph::Graph;
use web_time::Instant;

use crate::streamed::{Prepared, commit, write_whole};
use crate::{ExportSettings, Exported};

/// What [`Stepped`]'s render borrows: the compiled outputs and the progress callback.
struct Owner {
    prepared: Prepared,
    progress: Box<dyn Fn(u32) + Send + Sync>,
}

type BandsOf<'a> = Bands<'a>;

self_cell::self_cell!(
    /// The render band by band, with what it borrows.
    struct Render {
        owner: Owner,
        #[covariant]
        dependent: BandsOf,
    }
);

/// A still export advanced one band per [`Stepped::step`].
pub struct Stepped {
    render: Render,
    targets: Vec<(ExportSettings, PathBuf)>,
    /// The image so far: every output's channels per pixel, rows up to `row`.
    image: Image,
    row: u32,
    band: u32,
    start: Instant,
}

impl Stepped {
    /// Makes ready to export the outputs `targets` name (as
    /// [`export_streamed`](crate::streamed::export_streamed) does, for the whole image),
    /// in bands of `band` rows (`None`: [`band_rows`]' choice); `progress` is told the
    /// rows done. `None` when there are no targets.
    pub fn new(
        graph: &Graph,
        targets: Vec<(ExportSettings, PathBuf)>,
        band: Option<u32>,
        progress: Box<dyn Fn(u32) + Send + Sync>,
    ) -> Result<Option<Self>> {
        let Some(prepared) = Prepared::new(graph, &targets, None)? else {
            return Ok(None);
        };
        let options: RenderOptions = targets[0].0.options.clone();
        let (width, height) = prepared.size;
        let band = band
            .unwrap_or_else(|| band_rows(&prepared.program, width, height, options.thread_count()))
            .max(1);
        let channels = prepared.program.channels();
        let render = Render::try_new(Owner { prepared, progress }, |owner| {
            let (width, height) = owner.prepared.size;
            let whole = Region::whole(width, height);
            Bands::new(
                &owner.prepared.program,
                width,
                height,
                whole,
                options,
                &*owner.progress,
            )
        })?;
        Ok(Some(Self {
            render,
            targets,
            image: Image {
                width,
                height: 0,
                channels,
                data: Vec::new(),
            },
            row: 0,
            band,
            start: Instant::now(),
        }))
    }

    /// Renders the next band; after the last, encodes and writes every file (all or
    /// none) and returns what was written.
    pub fn step(&mut self) -> Result<Option<Vec<Exported>>> {
        let height = self.render.borrow_owner().prepared.size.1;
        if self.row < height {
            let rows = self.row..(self.row + self.band).min(height);
            let band = self
                .render
                .with_dependent_mut(|_, bands| bands.render(rows.clone()))?;
            self.image.data.try_reserve(band.data.len()).map_err(|_| {
                texgraph_base::error::Error::Render(format!(
                    "not enough memory for a {}x{height} image",
                    self.image.width
                ))
            })?;
            self.image.data.extend_from_slice(&band.data);
            self.image.height += band.height;
            self.row = rows.end;
            if self.row < height {
                return Ok(None);
            }
        }
        let prepared = &self.render.borrow_owner().prepared;
        let empty = Image {
            data: Vec::new(),
            ..self.image
        };
        let image = std::mem::replace(&mut self.image, empty);
        let staged = write_whole(&prepared.program, &self.targets, &prepared.specs, image)?;
        commit(&self.targets, &prepared.specs, staged, self.start).map(Some)
    }

    /// Rows rendered so far, and in all.
    pub fn rows(&self) -> (u32, u32) {
        (self.row, self.render.borrow_owner().prepared.size.1)
    }
}
