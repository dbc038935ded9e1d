//! One export request for every front end: `texgraph render` and `batch`, the editor's
//! export dialog and the Python module say what to write as an [`ExportRequest`], list
//! its files with [`ExportRequest::files`] (to ask before replacing them) and write them
//! with [`ExportRequest::run`], so the same request writes the same bytes from each.
//!
//! Stills and materials are rendered band by band ([`export::streamed`],
//! [`export::material`]), animations frame by frame ([`export::animation`]); every file
//! is staged beside its target and the set renamed into place only when all of it is
//! written, so a failure or a cancellation leaves every target as it was.

use std::path::PathBuf;
use web_time::Instant;

use texgraph_ball::{BallSettings, material_maps, render_ball};
use texgraph_base::error::{Error, Result};
use texgraph_base::staging::write_atomically;
use texgraph_engine::eval::RenderOptions;
use texgraph_engine::eval::stream::Region;
use texgraph_engine::usage::Encoding;
use texgraph_export as export;
use texgraph_export::animation::{Frames, Layout, export_animation, frame_path};
use texgraph_export::material::{
    MaterialSettings, export_presets, material_outputs, preset_paths, scene_paths,
};
use texgraph_export::presets::Preset;
use texgraph_export::{
    Clipping, Depth, ExportSettings, Exported, Format, encode_to_vec, still_targets,
};
use texgraph_graph::graph::Graph;

/// What to write, and where.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportRequest {
    /// Images of outputs (`texgraph render -o`).
    Still(StillExport),
    /// A material's files through an export preset (`texgraph render --preset`).
    Material(MaterialExport),
    /// Frames over time (`texgraph render --frames`).
    Animation(AnimationExport),
    /// The material on a lit shape (`texgraph render --ball`).
    Ball(BallExport),
}

/// Outputs rendered together, each to its file.
#[derive(Debug, Clone, PartialEq)]
pub struct StillExport {
    /// Each output (`None`: the graph's first) and its file, whose extension picks the
    /// format.
    pub files: Vec<(Option<String>, PathBuf)>,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Bits per channel; `None`: what each output's usage asks for where the format holds
    /// it (16 for a height), else the format's own.
    pub depth: Option<Depth>,
    /// Only this part of the image (for `texgraph stitch`), or the whole of it.
    pub region: Option<Region>,
}

impl StillExport {
    /// The request of `texgraph render -o out`: `out` for `output` (`None`: the first), or
    /// with `all_outputs` one file per output beside it (`stem_<name>.ext`).
    pub fn to_file(
        graph: &Graph,
        out: &std::path::Path,
        output: Option<&str>,
        all_outputs: bool,
        size: (u32, u32),
        depth: Option<Depth>,
    ) -> Self {
        Self {
            files: export::still_files(graph, out, output, all_outputs),
            size,
            depth,
            region: None,
        }
    }
}

/// A material's files, written into a folder as a preset lays them out.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialExport {
    /// The preset.
    pub preset: Preset,
    /// Every file in this format instead of the preset's.
    pub format: Option<Format>,
    /// `{graph}` in the file names: the graph's name, else its file's stem.
    pub graph_name: String,
    /// The folder, made when missing.
    pub folder: PathBuf,
    /// Width and height of every map.
    pub size: (u32, u32),
    /// More presets written from the same render, each into its folder (`texgraph render
    /// --preset A --preset B`, a batch job's `presets`); all sets are written or none.
    pub also: Vec<(Preset, PathBuf)>,
}

/// Frames of one output over time, as a numbered sequence, an animated GIF or PNG, or a
/// sprite sheet (the file name and `sheet` choose, see [`Layout::for_path`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationExport {
    /// The frames and their rate.
    pub frames: Frames,
    /// The file, or a sequence's pattern with `#` where the frame number goes.
    pub out: PathBuf,
    /// Columns and rows of a sprite sheet.
    pub sheet: Option<(u32, u32)>,
    /// The output (`None`: the graph's first).
    pub output: Option<String>,
    /// Width and height of a frame.
    pub size: (u32, u32),
    /// Bits per channel; `None`: the format's own (8 for GIF and APNG).
    pub depth: Option<Depth>,
}

/// The material on a lit shape, rendered on the CPU and written as an sRGB PNG.
#[derive(Debug, Clone, PartialEq)]
pub struct BallExport {
    /// The PNG file.
    pub out: PathBuf,
    /// The shape, view and light (its `size` is the image's side).
    pub settings: BallSettings,
    /// The side of the maps rendered to put on the shape.
    pub map_size: u32,
}

impl ExportRequest {
    /// The files [`Self::run`] writes, for asking before replacing them. A request that
    /// cannot run lists what it can (a preset's files that cannot be planned: none).
    pub fn files(&self, graph: &Graph) -> Vec<PathBuf> {
        match self {
            Self::Still(still) => still.files.iter().map(|(_, path)| path.clone()).collect(),
            Self::Material(material) => {
                let settings = material.settings(RenderOptions::default());
                let mut files = Vec::new();
                for (preset, folder) in material.sets() {
                    let Ok(maps) = preset_paths(graph, preset, &settings, folder) else {
                        return Vec::new();
                    };
                    files.extend(maps.into_iter().map(|(path, _)| path));
                    files.extend(scene_paths(preset, &settings, folder));
                }
                files
            }
            Self::Animation(animation) => match animation.layout() {
                Ok(Layout::Sequence(_)) => animation
                    .frames
                    .numbers()
                    .map(|frame| frame_path(&animation.out, frame))
                    .collect(),
                _ => vec![animation.out.clone()],
            },
            Self::Ball(ball) => vec![ball.out.clone()],
        }
    }

    /// The rows [`Self::run`] counts in its progress, over every frame; 0 when it
    /// reports none (the material ball).
    pub fn rows(&self) -> u64 {
        match self {
            Self::Still(still) => {
                u64::from(still.region.map_or(still.size.1, |region| region.height))
            }
            Self::Material(material) => u64::from(material.size.1),
            Self::Animation(animation) => {
                u64::from(animation.frames.count()) * u64::from(animation.size.1)
            }
            Self::Ball(_) => 0,
        }
    }

    /// Renders `graph` and writes the request's files, all or none, when the graph has no
    /// error anywhere (see [`crate::check`]); `progress` gets the
    /// rows finished (see [`Self::rows`]). A cancel in `options` stops it with
    /// [`Error::Cancelled`] and nothing written. Returns what was written: each image,
    /// but not a material's glTF scene (listed by [`Self::files`]).
    pub fn run(
        &self,
        graph: &Graph,
        options: &RenderOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<Exported>> {
        let made = self.prepare(graph)?;
        let rows = |done: u32| progress(u64::from(done));
        let written = self.write(graph, options, progress, &rows)?;
        for folders in made {
            folders.keep();
        }
        Ok(written)
    }

    /// [`Self::run`] a step at a time ([`Steps::step`]): a still export of the whole
    /// image renders a band of `band` rows a step (and holds its images whole until they
    /// are written; its planes needed whole are computed before the first step);
    /// any other request runs whole in the first step. The same files, byte for byte.
    pub fn steps(
        &self,
        graph: &Graph,
        options: &RenderOptions,
        band: u32,
        progress: Box<dyn Fn(u64) + Send + Sync>,
    ) -> Result<Steps> {
        let still = match self {
            Self::Still(still) if still.region.is_none() => still,
            _ => {
                let job = Box::new((self.clone(), graph.clone(), options.clone()));
                return Ok(Steps {
                    how: How::Once(job, progress),
                    made: Vec::new(),
                });
            }
        };
        let made = self.prepare(graph)?;
        let targets = still_targets(graph, &still.files, still.size, still.depth, options)?;
        let rows = Box::new(move |done: u32| progress(u64::from(done)));
        let how = match export::stepped::Stepped::new(graph, targets, Some(band), rows)? {
            Some(stepped) => How::Bands(Box::new(stepped)),
            None => How::Done,
        };
        Ok(Steps { how, made })
    }

    /// What [`Self::run`] does before rendering: refuses a graph with an error, and makes
    /// the files' missing folders, which the caller keeps once the files are written.
    fn prepare(&self, graph: &Graph) -> Result<Vec<texgraph_base::staging::MadeFolders>> {
        // One rule for every front end: an error anywhere in the graph stops the export,
        // whichever outputs it writes, as `validate` reports it; warnings do not.
        let found = crate::check(graph);
        if !found.errors.is_empty() {
            return Err(Error::Invalid(found.errors));
        }
        // A file's missing folders are made, as a preset's folder is, and go again
        // (when still empty) if nothing is written.
        let mut made = Vec::new();
        if !matches!(self, Self::Material(_)) {
            let mut folders: Vec<&std::path::Path> = Vec::new();
            let files = self.files(graph);
            for file in &files {
                if let Some(folder) = file.parent().filter(|f| !f.as_os_str().is_empty())
                    && !folders.contains(&folder)
                {
                    folders.push(folder);
                }
            }
            for folder in folders {
                made.push(texgraph_base::staging::make_folders(folder)?);
            }
        }
        Ok(made)
    }

    /// [`Self::run`] once its folders are there.
    fn write(
        &self,
        graph: &Graph,
        options: &RenderOptions,
        progress: &(dyn Fn(u64) + Sync),
        rows: &(dyn Fn(u32) + Sync),
    ) -> Result<Vec<Exported>> {
        match self {
            Self::Still(still) => {
                let targets = still_targets(graph, &still.files, still.size, still.depth, options)?;
                export::streamed::export_streamed(graph, &targets, still.region, rows)
            }
            Self::Material(material) => {
                let settings = material.settings(options.clone());
                let sets: Vec<_> = material.sets().collect();
                export_presets(graph, &sets, &settings, rows)
            }
            Self::Animation(animation) => {
                let layout = animation.layout()?;
                let depth = animation.depth.unwrap_or(match layout {
                    Layout::Sequence(format) | Layout::Sheet { format, .. } => {
                        format.default_depth()
                    }
                    Layout::Gif | Layout::Apng => Depth::Eight,
                });
                let settings = ExportSettings {
                    width: animation.size.0,
                    height: animation.size.1,
                    depth,
                    output: animation.output.clone(),
                    options: options.clone(),
                };
                export_animation(
                    graph,
                    &animation.frames,
                    layout,
                    &animation.out,
                    &settings,
                    progress,
                )
            }
            Self::Ball(ball) => ball.run(graph, options),
        }
    }
}

/// An export done a step at a time ([`ExportRequest::steps`]), for a front end that has
/// to draw between steps (the web page, with one thread).
pub struct Steps {
    how: How,
    /// Folders made for the files, kept once they are written.
    made: Vec<texgraph_base::staging::MadeFolders>,
}

enum How {
    /// A still export of the whole image: a band a step.
    Bands(Box<export::stepped::Stepped>),
    /// Any other request, all in one step.
    Once(
        Box<(ExportRequest, Graph, RenderOptions)>,
        Box<dyn Fn(u64) + Send + Sync>,
    ),
    /// Finished.
    Done,
}

impl Steps {
    /// Does the next step; the files, once every one is written (all or none, as
    /// [`ExportRequest::run`] writes them); nothing more after that.
    pub fn step(&mut self) -> Result<Option<Vec<Exported>>> {
        let written = match std::mem::replace(&mut self.how, How::Done) {
            How::Bands(mut stepped) => match stepped.step()? {
                Some(written) => written,
                None => {
                    self.how = How::Bands(stepped);
                    return Ok(None);
                }
            },
            How::Once(job, progress) => {
                let (request, graph, options) = *job;
                return request.run(&graph, &options, &*progress).map(Some);
            }
            How::Done => return Ok(Some(Vec::new())),
        };
        for folders in self.made.drain(..) {
            folders.keep();
        }
        Ok(Some(written))
    }
}

impl MaterialExport {
    /// Each preset and its folder: the first, then [`MaterialExport::also`].
    pub fn sets(&self) -> impl Iterator<Item = (&Preset, &std::path::Path)> {
        std::iter::once((&self.preset, self.folder.as_path())).chain(
            self.also
                .iter()
                .map(|(preset, folder)| (preset, folder.as_path())),
        )
    }

    fn settings(&self, options: RenderOptions) -> MaterialSettings {
        MaterialSettings {
            width: self.size.0,
            height: self.size.1,
            format: self.format,
            graph_name: self.graph_name.clone(),
            options,
        }
    }
}

impl AnimationExport {
    fn layout(&self) -> Result<Layout> {
        Layout::for_path(&self.out, self.sheet)
    }
}

impl BallExport {
    fn run(&self, graph: &Graph, options: &RenderOptions) -> Result<Vec<Exported>> {
        if !self
            .out
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"))
        {
            return Err(Error::Input {
                path: self.out.clone(),
                message: "a material ball is written as a PNG".to_owned(),
            });
        }
        if material_outputs(graph).is_empty() {
            return Err(Error::Render(
                "the graph has no material outputs to put on a shape: give its outputs a usage (basecolor, normal, roughness…)".to_owned(),
            ));
        }
        let start = Instant::now();
        let maps = material_maps(graph, self.map_size, options.clone())?;
        let image = match options.threads.filter(|_| !cfg!(target_arch = "wasm32")) {
            Some(threads) => rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::Render(e.to_string()))?
                .install(|| render_ball(&maps, &self.settings)),
            None => render_ball(&maps, &self.settings),
        };
        let seconds = start.elapsed().as_secs_f64();
        // A picture for people: sRGB-encoded, and tagged so.
        let bytes = encode_to_vec(&image, Format::Png, Depth::Eight, Encoding::Srgb).map_err(
            |message| Error::Export {
                path: self.out.clone(),
                message,
            },
        )?;
        write_atomically(&self.out, |file| {
            std::io::Write::write_all(file, &bytes).map_err(|source| Error::Io {
                path: self.out.clone(),
                source,
            })
        })?;
        Ok(vec![Exported {
            path: self.out.clone(),
            width: image.width,
            height: image.height,
            channels: image.channels,
            depth: Depth::Eight,
            seconds,
            clipping: Clipping::of(&image, Depth::Eight),
        }])
    }
}
