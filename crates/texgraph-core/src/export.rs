//! Writing rendered images: PNG (8 or 16 bits), OpenEXR (32-bit float) and TIFF (8, 16 or
//! 32-bit float). Values are written as rendered (colors sRGB-encoded, as authored),
//! clamped to [0, 1] and rounded for the integer formats. Files are written to a
//! temporary file beside the target and renamed into place, so a failed write never
//! leaves a half-written or clobbered file.
//!
//! [`export_graph`] is the whole "graph to file" path (compile, check, render, write)
//! shared by `texgraph render` and the editor, so both write the same bytes.

use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use image::{ExtendedColorType, ImageEncoder};

use crate::compile::{compile, output_names};
use crate::error::{Error, Result};
use crate::eval::{Image, RenderOptions, image_bytes, render};
use crate::graph::Graph;
use crate::program::Program;
use crate::staging::{self, Staged};

/// File formats, chosen by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.png`: 8 or 16 bits per channel.
    Png,
    /// `.exr`: 32-bit float.
    Exr,
    /// `.tif` / `.tiff`: 8, 16 or 32-bit float.
    Tiff,
}

/// Bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// 8-bit integer.
    Eight,
    /// 16-bit integer.
    Sixteen,
    /// 32-bit float.
    Float,
}

impl Depth {
    /// The depth written `8`, `16` or `32`.
    pub fn from_bits(bits: u32) -> Option<Self> {
        match bits {
            8 => Some(Depth::Eight),
            16 => Some(Depth::Sixteen),
            32 => Some(Depth::Float),
            _ => None,
        }
    }

    /// 8, 16 or 32.
    pub fn bits(self) -> u32 {
        match self {
            Depth::Eight => 8,
            Depth::Sixteen => 16,
            Depth::Float => 32,
        }
    }
}

impl Format {
    /// The format for `path`'s extension.
    pub fn from_path(path: &Path) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("exr") => Ok(Format::Exr),
            Some("tif" | "tiff") => Ok(Format::Tiff),
            _ => Err(Error::Export {
                path: path.to_owned(),
                message: "unknown image extension; use .png, .exr, .tif or .tiff".to_owned(),
            }),
        }
    }

    /// The depth written when none is asked for.
    pub fn default_depth(self) -> Depth {
        match self {
            Format::Png | Format::Tiff => Depth::Eight,
            Format::Exr => Depth::Float,
        }
    }

    /// Whether the format can store `depth`.
    pub fn supports(self, depth: Depth) -> bool {
        match self {
            Format::Png => depth != Depth::Float,
            Format::Exr => depth == Depth::Float,
            Format::Tiff => true,
        }
    }
}

/// Writes `image` to `path` in the format of its extension at `depth`.
pub fn write_image(image: &Image, path: &Path, depth: Depth) -> Result<()> {
    let format = checked_format(path, depth)?;
    write_encoded(image, path, format, depth, None)
}

/// The format of `path`, when it can hold `depth`.
fn checked_format(path: &Path, depth: Depth) -> Result<Format> {
    let format = Format::from_path(path)?;
    if !format.supports(depth) {
        return Err(Error::Export {
            path: path.to_owned(),
            message: format!(
                "{format:?} files cannot hold {}-bit samples (PNG: 8 or 16, EXR: 32, TIFF: 8, 16 or 32)",
                depth.bits()
            ),
        });
    }
    Ok(format)
}

/// Encodes and writes atomically; a `cancel` raised by the end of encoding leaves `path`
/// untouched.
fn write_encoded(
    image: &Image,
    path: &Path,
    format: Format,
    depth: Depth,
    cancel: Option<&AtomicBool>,
) -> Result<()> {
    stage_encoded(image, path, format, depth, cancel)?.commit()
}

/// Encodes `image` into a staged temporary beside `path`.
fn stage_encoded(
    image: &Image,
    path: &Path,
    format: Format,
    depth: Depth,
    cancel: Option<&AtomicBool>,
) -> Result<Staged> {
    staging::stage(path, |file| {
        let mut out = BufWriter::new(file);
        encode(image, format, depth, &mut out)
            .and_then(|()| out.flush().map_err(|e| e.to_string()))
            .map_err(|message| Error::Export {
                path: path.to_owned(),
                message,
            })?;
        if cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        Ok(())
    })
}

/// What to export: size, depth, which output, how to render.
#[derive(Debug, Clone)]
pub struct ExportSettings {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bits per channel; must suit the file format (see [`Format::supports`]).
    pub depth: Depth,
    /// The output node to render by name; `None` renders the first.
    pub output: Option<String>,
    /// Threads, tile size and cancellation of the render.
    pub options: RenderOptions,
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The file written.
    pub path: PathBuf,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 1 (grayscale) or 4 (RGBA).
    pub channels: usize,
    /// Bits per channel written.
    pub depth: Depth,
    /// Seconds spent rendering (not compiling or encoding).
    pub seconds: f64,
}

/// Compiles `graph` for `settings.output`, checks the image fits in available memory,
/// renders it (progress = rows done), and writes it atomically to `path` (format from
/// extension). Nothing is written when anything fails or the render is cancelled.
///
/// The extension and depth are checked first, then the graph and memory, all before
/// rendering. Cancellation (through `settings.options.cancel`) returns
/// [`Error::Cancelled`].
pub fn export_graph(
    graph: &Graph,
    settings: &ExportSettings,
    path: &Path,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Exported> {
    let (staged, done) = stage_export(graph, settings, path, progress)?;
    staged.commit()?;
    Ok(done)
}

/// [`export_graph`] for several files (`--all-outputs`): all of them are written, or
/// none. Each is rendered and encoded to a temporary in turn; only when every one has
/// succeeded are they renamed into place together. `progress` counts rows over the whole
/// set (the sum of the heights).
pub fn export_all(
    graph: &Graph,
    targets: &[(ExportSettings, PathBuf)],
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    // Every target is checked before anything is rendered.
    for (settings, path) in targets {
        checked_format(path, settings.depth)?;
        compile(graph, settings.output.as_deref())?;
    }
    let mut staged = Vec::with_capacity(targets.len());
    let mut written = Vec::with_capacity(targets.len());
    let mut before = 0u32;
    for (settings, path) in targets {
        let so_far = |rows: u32| progress(before.saturating_add(rows));
        let (file, done) = stage_export(graph, settings, path, &so_far)?;
        staged.push(file);
        written.push(done);
        before = before.saturating_add(settings.height);
    }
    staging::commit_all(staged)?;
    Ok(written)
}

/// Renders and encodes one file into a staged temporary.
fn stage_export(
    graph: &Graph,
    settings: &ExportSettings,
    path: &Path,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<(Staged, Exported)> {
    let format = checked_format(path, settings.depth)?;
    let program = compile(graph, settings.output.as_deref())?;
    let (width, height) = (settings.width, settings.height);
    let channels = program.channels();
    let threads = settings
        .options
        .threads
        .unwrap_or_else(rayon::current_num_threads);
    check_memory(&program, width, height, threads)?;
    let start = Instant::now();
    let image = render(&program, width, height, settings.options.clone(), progress)?;
    let seconds = start.elapsed().as_secs_f64();
    let cancel = settings.options.cancel.as_deref();
    let staged = stage_encoded(&image, path, format, settings.depth, cancel)?;
    let done = Exported {
        path: path.to_owned(),
        width,
        height,
        channels,
        depth: settings.depth,
        seconds,
    };
    Ok((staged, done))
}

/// The files `texgraph render --all-outputs` writes: one per output name,
/// `dir/stem.ext` -> `dir/stem_<name>.ext`.
pub fn output_paths(graph: &Graph, base: &Path) -> Vec<(String, PathBuf)> {
    output_names(graph)
        .into_iter()
        .map(|name| {
            let path = suffixed(base, &name);
            (name, path)
        })
        .collect()
}

/// The default image file name for a graph: `<graph name or file stem>.png`, unsafe
/// characters replaced by `_` (`texture.png` when there is neither).
pub fn default_image_name(graph: &Graph, graph_path: Option<&Path>) -> PathBuf {
    let stem = graph_path
        .and_then(Path::file_stem)
        .map(|s| s.to_string_lossy().into_owned());
    let name = graph
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .or(stem)
        .unwrap_or_else(|| "texture".into());
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    PathBuf::from(format!("{safe}.png"))
}

/// `dir/stem.ext` → `dir/stem_name.ext`.
fn suffixed(path: &Path, name: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = match path.extension() {
        Some(ext) => format!("{stem}_{name}.{}", ext.to_string_lossy()),
        None => format!("{stem}_{name}"),
    };
    path.with_file_name(file)
}

/// Refuses renders whose planes, working memory and image would not fit in the memory
/// this machine has free.
pub fn check_memory(program: &Program, width: u32, height: u32, threads: usize) -> Result<()> {
    // The peak of the stages, or the float image plus an encoded copy of the same size,
    // whichever is more.
    let peak = crate::plan::plan(program, width, height, threads).peak_bytes;
    let needed = image_bytes(width, height, program.channels())
        .and_then(|b| b.checked_mul(2))
        .map(|b| b.max(peak))
        .filter(|&b| b != u64::MAX);
    let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
    match (needed, available_memory()) {
        (None, _) => Err(Error::Render(format!(
            "a {width}x{height} image is too large to address"
        ))),
        (Some(n), Some(avail)) if n > avail => Err(Error::Render(format!(
            "a {width}x{height} image needs about {:.1} GiB but only {:.1} GiB of memory is available",
            gib(n),
            gib(avail)
        ))),
        _ => Ok(()),
    }
}

/// MemAvailable from /proc/meminfo, where the system has one.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The bytes of `image` encoded as `format` at `depth`.
pub fn encode_to_vec(image: &Image, format: Format, depth: Depth) -> Result<Vec<u8>, String> {
    let mut cursor = std::io::Cursor::new(Vec::new());
    encode(image, format, depth, &mut cursor)?;
    Ok(cursor.into_inner())
}

fn encode(
    image: &Image,
    format: Format,
    depth: Depth,
    out: &mut (impl Write + Seek),
) -> Result<(), String> {
    let (w, h) = (image.width, image.height);
    let gray = image.channels == 1;
    match (format, depth) {
        (Format::Exr, _) => return write_exr(image, out),
        (Format::Png, Depth::Eight) => {
            let color = if gray {
                ExtendedColorType::L8
            } else {
                ExtendedColorType::Rgba8
            };
            image::codecs::png::PngEncoder::new(out).write_image(&to_u8(image), w, h, color)
        }
        (Format::Png, _) => {
            let color = if gray {
                ExtendedColorType::L16
            } else {
                ExtendedColorType::Rgba16
            };
            let bytes: Vec<u8> = to_u16(image).iter().flat_map(|v| v.to_ne_bytes()).collect();
            image::codecs::png::PngEncoder::new(out).write_image(&bytes, w, h, color)
        }
        (Format::Tiff, Depth::Eight) => {
            let color = if gray {
                ExtendedColorType::L8
            } else {
                ExtendedColorType::Rgba8
            };
            image::codecs::tiff::TiffEncoder::new(out).write_image(&to_u8(image), w, h, color)
        }
        (Format::Tiff, Depth::Sixteen) => {
            let color = if gray {
                ExtendedColorType::L16
            } else {
                ExtendedColorType::Rgba16
            };
            let bytes: Vec<u8> = to_u16(image).iter().flat_map(|v| v.to_ne_bytes()).collect();
            image::codecs::tiff::TiffEncoder::new(out).write_image(&bytes, w, h, color)
        }
        (Format::Tiff, Depth::Float) => {
            // TIFF float has no one-channel writer here: gray is stored as RGBA.
            let rgba = if gray {
                image.data.iter().flat_map(|&v| [v, v, v, 1.0]).collect()
            } else {
                image.data.clone()
            };
            let bytes: Vec<u8> = rgba.iter().flat_map(|v: &f32| v.to_ne_bytes()).collect();
            image::codecs::tiff::TiffEncoder::new(out).write_image(
                &bytes,
                w,
                h,
                ExtendedColorType::Rgba32F,
            )
        }
    }
    .map_err(|e| e.to_string())
}

fn to_u8(image: &Image) -> Vec<u8> {
    image
        .data
        .iter()
        .map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

fn to_u16(image: &Image) -> Vec<u16> {
    image
        .data
        .iter()
        .map(|v| (v.clamp(0.0, 1.0) * 65535.0).round() as u16)
        .collect()
}

fn write_exr(image: &Image, out: &mut (impl Write + Seek)) -> Result<(), String> {
    use exr::prelude::*;
    let (w, h, c) = (image.width as usize, image.height as usize, image.channels);
    let names: &[&str] = if c == 1 {
        &["Y"]
    } else {
        &["R", "G", "B", "A"]
    };
    let channels: SmallVec<[AnyChannel<FlatSamples>; 4]> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let samples = image.data.iter().skip(i).step_by(c).copied().collect();
            AnyChannel::new(*name, FlatSamples::F32(samples))
        })
        .collect();
    let layer = Layer::new(
        (w, h),
        LayerAttributes::default(),
        Encoding::SMALL_LOSSLESS,
        AnyChannels::sort(channels),
    );
    exr::prelude::Image::from_layer(layer)
        .write()
        .to_buffered(out)
        .map_err(|e| e.to_string())
}

/// Reads an EXR written by [`write_image`] (channels `Y` or `R`, `G`, `B`, `A`).
pub fn read_exr(path: &Path) -> Result<Image> {
    use exr::prelude::read_all_flat_layers_from_file;
    let fail = |message: String| Error::Export {
        path: path.to_owned(),
        message,
    };
    let file = read_all_flat_layers_from_file(path).map_err(|e| fail(e.to_string()))?;
    let layer = file
        .layer_data
        .first()
        .ok_or_else(|| fail("no layers".to_owned()))?;
    let (w, h) = (layer.size.width(), layer.size.height());
    let channel = |name: &str| {
        layer
            .channel_data
            .list
            .iter()
            .find(|c| c.name.eq(name))
            .map(|c| c.sample_data.values_as_f32().collect::<Vec<f32>>())
    };
    let planes: Vec<Vec<f32>> = match channel("Y") {
        Some(y) => vec![y],
        None => ["R", "G", "B", "A"]
            .iter()
            .map(|n| channel(n).ok_or_else(|| fail(format!("missing channel {n}"))))
            .collect::<Result<_>>()?,
    };
    let c = planes.len();
    let data = (0..w * h)
        .flat_map(|i| planes.iter().map(move |p| p[i]))
        .collect();
    Ok(Image {
        width: w as u32,
        height: h as u32,
        channels: c,
        data,
    })
}
