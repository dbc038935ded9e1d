//! Writing rendered images: PNG (8 or 16 bits), OpenEXR (32-bit float) and TIFF (8, 16 or
//! 32-bit float); DDS, KTX2 and glTF for materials (`material.rs`). Values are written as
//! rendered (colors sRGB-encoded, as authored), clamped to [0, 1] and rounded for the
//! integer formats, except that maps whose usage is sRGB-encoded are decoded to linear
//! light in the float formats and tagged sRGB in PNG. Files are written to a
//! temporary file beside the target and renamed into place, so a failed write never
//! leaves a half-written or clobbered file.
//!
//! [`still_targets`] settles a render's files and depths and [`streamed::export_streamed`]
//! writes them band by band: the path every front end takes through `texgraph-core`'s
//! export request. [`export_graph`] and [`export_all`] render whole and write; tests hold
//! the two paths' bytes equal.

pub mod animation;
pub mod block_format;
pub mod blocks;
pub mod dds;
pub mod gltf;
pub mod ktx2;
pub mod mips;
pub mod stepped;
pub mod stitch;
pub mod stream;
pub mod streamed;

use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use texgraph_base::error::{Error, Result};
use texgraph_base::staging::{self, Staged};
use texgraph_engine::eval::{Image, RenderOptions, image_bytes, render};
use texgraph_engine::program::Program;
use texgraph_engine::usage::Encoding;
use texgraph_graph::compile::{compile, output_names};
use texgraph_graph::graph::Graph;

pub mod format;
pub mod material;
pub mod presets;

pub use format::{Depth, Format};

use block_format::BlockFormat;

/// Writes `image` to `path` in the format of its extension at `depth`.
pub fn write_image(image: &Image, path: &Path, depth: Depth) -> Result<()> {
    let format = checked_format(path, depth)?;
    stage_encoded(image, path, format, depth, Encoding::AsRendered, None, None)?.commit()
}

/// The format of `path`, when it can hold `depth`.
pub(crate) fn checked_format(path: &Path, depth: Depth) -> Result<Format> {
    let format = Format::from_path(path)?;
    if !format.supports(depth) {
        return Err(Error::Export {
            path: path.to_owned(),
            message: format!(
                "{} files cannot hold {}-bit samples ({})",
                format.name(),
                depth.bits(),
                Format::depths_text()
            ),
        });
    }
    Ok(format)
}

/// Encodes `image` into a staged temporary beside `path`; a `cancel` raised by the end of
/// encoding drops it, leaving `path` untouched.
pub(crate) fn stage_encoded(
    image: &Image,
    path: &Path,
    format: Format,
    depth: Depth,
    encoding: Encoding,
    block: Option<BlockFormat>,
    cancel: Option<&AtomicBool>,
) -> Result<Staged> {
    staging::stage(path, |file| {
        let mut out = BufWriter::new(file);
        encode(image, format, depth, encoding, block, &mut out)
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

/// Encodes `image` into a staged temporary for `path`, renamed into place on commit.
pub(crate) fn stage_image(
    image: &Image,
    path: &Path,
    format: Format,
    depth: Depth,
) -> Result<Staged> {
    stage_encoded(image, path, format, depth, Encoding::AsRendered, None, None)
}

/// The image as 8-bit RGBA bytes (gray repeated in r, g and b, opaque).
pub(crate) fn rgba8(image: &Image) -> Result<Vec<u8>, String> {
    let bytes = eight_bit(image)?;
    if image.channels == 4 {
        return Ok(bytes);
    }
    texgraph_base::memory::try_collect(bytes.len() * 4, bytes.iter().flat_map(|&v| [v, v, v, 255]))
        .ok_or_else(|| short_of_memory(image))
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
    /// What an integer depth could not hold (see [`Clipping`]).
    pub clipping: Clipping,
}

/// Samples written clamped: an integer file holds [0, 1], and a sample below 0, above 1
/// or NaN is written as the nearest end (NaN as 0), so a height above 1 becomes a
/// plateau. Float files clip nothing. The front ends warn with [`Clipping::warning`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clipping {
    /// Samples outside [0, 1] (or NaN), over every channel and frame written.
    pub clipped: u64,
    /// Samples written, over every channel and frame.
    pub samples: u64,
}

impl Clipping {
    /// The clipping of writing `image` at `depth`.
    pub fn of(image: &Image, depth: Depth) -> Self {
        let clipped = match depth {
            Depth::Float => 0,
            Depth::Eight | Depth::Sixteen => image
                .data
                .iter()
                .filter(|v| !(0.0..=1.0).contains(*v))
                .count() as u64,
        };
        Self {
            clipped,
            samples: image.data.len() as u64,
        }
    }

    /// The sum of two parts of one file (bands, frames).
    pub fn and(self, other: Self) -> Self {
        Self {
            clipped: self.clipped + other.clipped,
            samples: self.samples + other.samples,
        }
    }

    /// A warning naming `path`, how much was clamped into `depth` and what keeps it; `None`
    /// when nothing was.
    pub fn warning(&self, path: &Path, depth: Depth) -> Option<String> {
        if self.clipped == 0 {
            return None;
        }
        let share = 100.0 * self.clipped as f64 / self.samples.max(1) as f64;
        let share = if share < 0.1 {
            "under 0.1%".to_owned()
        } else {
            format!("{share:.1}%")
        };
        Some(format!(
            "{}: {} of {} samples ({share}) were outside [0, 1] and were clamped into {} bits; write a 32-bit EXR or TIFF to keep them, or bring the output into range (levels, remap)",
            path.display(),
            self.clipped,
            self.samples,
            depth.bits()
        ))
    }
}

impl Exported {
    /// [`Clipping::warning`] for this file.
    pub fn clip_warning(&self) -> Option<String> {
        self.clipping.warning(&self.path, self.depth)
    }
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
    let format = checked_format(path, settings.depth)?;
    let program = compile(graph, settings.output.as_deref())?;
    let (staged, done) = stage_export(&program, format, settings, path, progress)?;
    staged.commit()?;
    Ok(done)
}

/// [`export_graph`] for several outputs of one graph (`--all-outputs`), all at the size
/// of the first target: the outputs are compiled into one program and rendered together
/// (what several of them read is computed once), then each is encoded to a temporary;
/// only when every one has succeeded are they renamed into place together. `progress`
/// counts the render's rows.
pub fn export_all(
    graph: &Graph,
    targets: &[(ExportSettings, PathBuf)],
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    let Some((first, _)) = targets.first() else {
        return Ok(Vec::new());
    };
    let (names, formats) = checked_targets(graph, targets)?;
    let together = material::MaterialSettings {
        width: first.width,
        height: first.height,
        format: None,
        graph_name: String::new(),
        options: first.options.clone(),
    };
    // Beside the render: the maps taken apart when there are several, and the largest
    // encoder's copy.
    let after = |program: &Program| {
        let split = if program.outputs.len() > 1 {
            program.channels() as u64 * 4
        } else {
            0
        };
        let copy = program
            .outputs
            .iter()
            .zip(targets.iter().zip(&formats))
            .map(|(output, ((settings, _), format))| {
                format.copy_bytes_per_pixel(settings.depth, output.channels)
            })
            .max()
            .unwrap_or(0);
        split + copy
    };
    let rendered = material::render_together(graph, &names, &together, &after, progress)?;
    let seconds = rendered.seconds;
    let cancel = first.options.cancel.as_deref();
    let mut staged = Vec::with_capacity(targets.len());
    let mut written = Vec::with_capacity(targets.len());
    for (((settings, path), format), (image, output)) in targets
        .iter()
        .zip(formats.iter().copied())
        .zip(rendered.images.iter().zip(&rendered.outputs))
    {
        staged.push(stage_output(
            image,
            path,
            format,
            settings.depth,
            output,
            cancel,
        )?);
        written.push(Exported {
            path: path.clone(),
            width: image.width,
            height: image.height,
            channels: image.channels,
            depth: settings.depth,
            seconds,
            clipping: Clipping::of(image, settings.depth),
        });
    }
    staging::commit_all(staged)?;
    Ok(written)
}

/// Checks every target of an export of several outputs before anything is rendered: one
/// size for all, formats that hold their depths, paths that can be written. Returns the
/// outputs' names and the files' formats.
pub(crate) fn checked_targets(
    graph: &Graph,
    targets: &[(ExportSettings, PathBuf)],
) -> Result<(Vec<String>, Vec<Format>)> {
    let Some((first, _)) = targets.first() else {
        return Ok((Vec::new(), Vec::new()));
    };
    if let Some((other, path)) = targets
        .iter()
        .find(|(s, _)| (s.width, s.height) != (first.width, first.height))
    {
        return Err(Error::Export {
            path: path.clone(),
            message: format!(
                "outputs rendered together share one size: {}x{}, not {}x{}",
                first.width, first.height, other.width, other.height
            ),
        });
    }
    let mut names = Vec::with_capacity(targets.len());
    let mut formats = Vec::with_capacity(targets.len());
    for (settings, path) in targets {
        formats.push(checked_format(path, settings.depth)?);
        staging::check_target(path)?;
        names.push(match &settings.output {
            Some(name) => name.clone(),
            None => output_names(graph).into_iter().next().unwrap_or_default(),
        });
    }
    Ok((names, formats))
}

/// Renders `program` and encodes it into a staged temporary for `path`.
fn stage_export(
    program: &Program,
    format: Format,
    settings: &ExportSettings,
    path: &Path,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<(Staged, Exported)> {
    let (width, height) = (settings.width, settings.height);
    let channels = program.channels();
    let threads = settings.options.thread_count();
    let copy = format.copy_bytes_per_pixel(settings.depth, channels);
    check_memory_for(program, width, height, threads, copy)?;
    let start = Instant::now();
    let image = render(program, width, height, settings.options.clone(), progress)?;
    let seconds = start.elapsed().as_secs_f64();
    let cancel = settings.options.cancel.as_deref();
    let staged = stage_output(
        &image,
        path,
        format,
        settings.depth,
        program.output(),
        cancel,
    )?;
    let done = Exported {
        path: path.to_owned(),
        width,
        height,
        channels: format.stored_channels(channels),
        depth: settings.depth,
        seconds,
        clipping: Clipping::of(&image, settings.depth),
    };
    Ok((staged, done))
}

/// Encodes `image`, the render of `output`, into a staged temporary for `path`: decoded
/// as its usage asks and, for a texture, in its usage's block format.
fn stage_output(
    image: &Image,
    path: &Path,
    format: Format,
    depth: Depth,
    output: &texgraph_engine::program::ProgramOutput,
    cancel: Option<&AtomicBool>,
) -> Result<Staged> {
    let encoding = output.usage.encoding();
    let block = texture_block(format, depth, output);
    stage_encoded(image, path, format, depth, encoding, block, cancel)
}

/// How a DDS or KTX2 file stores `output` ([`BlockFormat::for_map`], as presets choose);
/// `None` for the image formats.
pub(crate) fn texture_block(
    format: Format,
    depth: Depth,
    output: &texgraph_engine::program::ProgramOutput,
) -> Option<BlockFormat> {
    format.is_texture().then(|| {
        BlockFormat::for_map(
            output.channels,
            depth.bits(),
            output.usage == texgraph_engine::usage::Usage::Normal,
            output.usage.encoding(),
        )
    })
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
    PathBuf::from(format!("{}.png", file_stem_for(graph, graph_path)))
}

/// A graph's name fit for file names: its `name`, else its file's stem, else `texture`,
/// with characters other than letters, digits, `-` and `_` replaced by `_`.
pub fn file_stem_for(graph: &Graph, graph_path: Option<&Path>) -> String {
    let stem = graph_path
        .and_then(Path::file_stem)
        .map(|s| s.to_string_lossy().into_owned());
    let name = graph
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .or(stem)
        .unwrap_or_else(|| "texture".into());
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
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

/// The files a render of `graph` to `out` writes, and how: `out` itself (or, with
/// `all_outputs`, one file per output beside it), as [`still_targets`] settles them. What
/// `texgraph render` writes.
pub fn render_targets(
    graph: &Graph,
    out: &Path,
    size: (u32, u32),
    depth: Option<Depth>,
    output: Option<&str>,
    all_outputs: bool,
    options: &RenderOptions,
) -> Result<Vec<(ExportSettings, PathBuf)>> {
    Format::from_path(out)?;
    still_targets(
        graph,
        &still_files(graph, out, output, all_outputs),
        size,
        depth,
        options,
    )
}

/// The outputs and files of `texgraph render -o out`: `out` for `output` (`None`: the
/// graph's first), or with `all_outputs` one file per output beside it
/// ([`output_paths`]).
pub fn still_files(
    graph: &Graph,
    out: &Path,
    output: Option<&str>,
    all_outputs: bool,
) -> Vec<(Option<String>, PathBuf)> {
    if all_outputs {
        output_paths(graph, out)
            .into_iter()
            .map(|(name, path)| (Some(name), path))
            .collect()
    } else {
        vec![(output.map(str::to_owned), out.to_owned())]
    }
}

/// How each of `files` (an output, `None` for the graph's first, and its file) is
/// written: in the format of its extension, at `depth` or else the depth the output's
/// usage asks for (16 bits for a height) where the format holds it, else the format's own.
/// Fails before anything is rendered on a graph without outputs, an unknown extension or a
/// depth the format cannot hold.
pub fn still_targets(
    graph: &Graph,
    files: &[(Option<String>, PathBuf)],
    size: (u32, u32),
    depth: Option<Depth>,
    options: &RenderOptions,
) -> Result<Vec<(ExportSettings, PathBuf)>> {
    let targets = files
        .iter()
        .map(|(output, path)| {
            let format = Format::from_path(path)?;
            if let Some(depth) = depth
                && !format.supports(depth)
            {
                return Err(Error::Input {
                    path: path.clone(),
                    message: format!(
                        "{} cannot hold {}-bit samples ({})",
                        format.name(),
                        depth.bits(),
                        Format::depths_text()
                    ),
                });
            }
            let usage_depth = graph
                .output_usage(output.as_deref())
                .and_then(|u| Depth::from_bits(u.default_bits()))
                .filter(|d| format.supports(*d));
            let settings = ExportSettings {
                width: size.0,
                height: size.1,
                depth: depth.or(usage_depth).unwrap_or(format.default_depth()),
                output: output.clone(),
                options: options.clone(),
            };
            Ok((settings, path.clone()))
        })
        .collect::<Result<Vec<_>>>()?;
    if output_names(graph).is_empty() {
        return Err(Error::Render(
            "the graph has no output node, so there is nothing to render".to_owned(),
        ));
    }
    Ok(targets)
}

/// Refuses renders whose planes, working memory and image would not fit in the memory this
/// process may take (see [`texgraph_base::memory`]). Exports also count the encoder's copy.
pub fn check_memory(program: &Program, width: u32, height: u32, threads: usize) -> Result<()> {
    check_memory_for(program, width, height, threads, 0)
}

/// [`check_memory`] for a render then encoded through a copy of `copy_per_pixel` bytes a
/// pixel.
pub(crate) fn check_memory_for(
    program: &Program,
    width: u32,
    height: u32,
    threads: usize,
    copy_per_pixel: u64,
) -> Result<()> {
    let needed = memory_needed(program, width, height, threads, copy_per_pixel);
    check_room(needed.unwrap_or(u64::MAX), width, height, threads)
}

/// Refuses a render of `width` × `height` on `threads` threads that needs `needed` bytes
/// when the process has less room (`u64::MAX`: too large to address).
pub(crate) fn check_room(needed: u64, width: u32, height: u32, threads: usize) -> Result<()> {
    let room = texgraph_base::memory::Headroom::of_this_process().for_threads(threads);
    let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
    match (needed, room) {
        (u64::MAX, _) => Err(Error::Render(format!(
            "a {width}x{height} image is too large to address"
        ))),
        (n, Some(room)) if n > room => Err(Error::Render(format!(
            "a {width}x{height} image on {threads} thread(s) needs about {:.2} GiB but only {:.2} GiB of memory is available to this process",
            gib(n),
            gib(room)
        ))),
        _ => Ok(()),
    }
}

/// Bytes a render and its encoding take at most: the peak of the stages (planes alive,
/// every thread's tile buffers, the image), or the float image while it is encoded
/// (the encoder's copy, and its compressed buffer of at most that size), whichever is
/// more.
fn memory_needed(
    program: &Program,
    width: u32,
    height: u32,
    threads: usize,
    copy_per_pixel: u64,
) -> Option<u64> {
    let peak = texgraph_engine::plan::plan(program, width, height, threads).peak_bytes;
    let image = image_bytes(width, height, program.channels())?;
    let copy = u64::from(width)
        .checked_mul(u64::from(height))?
        .checked_mul(copy_per_pixel)?;
    let encoding = image.checked_add(copy.checked_mul(2)?)?;
    Some(encoding.max(peak)).filter(|&b| b != u64::MAX)
}

/// The bytes of `image`, whose values are `encoding`, encoded as `format` at `depth`.
pub fn encode_to_vec(
    image: &Image,
    format: Format,
    depth: Depth,
    encoding: Encoding,
) -> Result<Vec<u8>, String> {
    let mut cursor = std::io::Cursor::new(Vec::new());
    encode(image, format, depth, encoding, None, &mut cursor)?;
    Ok(cursor.into_inner())
}

/// Encodes `image` whose values are `encoding`: EXR and float TIFF hold linear light, so
/// sRGB-encoded colors are decoded for them; PNGs of sRGB maps carry the sRGB chunk.
/// Values `AsRendered` and linear data are written as they are. The bytes are those of
/// the same image streamed band by band (see [`stream`]).
pub(crate) fn encode(
    image: &Image,
    format: Format,
    depth: Depth,
    encoding: Encoding,
    block: Option<BlockFormat>,
    out: &mut (impl Write + Seek),
) -> Result<(), String> {
    let spec = stream::FileSpec {
        format,
        depth,
        encoding,
        width: image.width,
        height: image.height,
        channels: image.channels,
        note: None,
        block,
    };
    let mut whole = Some(image);
    stream::write(out, &spec, &mut || whole.take())
}

/// `image` with its RGB (or its one gray channel) decoded from sRGB to linear light;
/// alpha is linear already.
fn decoded_srgb(image: &Image) -> Result<Image, String> {
    let data = texgraph_base::memory::try_collect(image.data.len(), image.data.iter().copied())
        .ok_or_else(|| short_of_memory(image))?;
    let mut copy = Image { data, ..*image };
    to_linear_light(&mut copy);
    Ok(copy)
}

/// Decodes `image`'s RGB (or its one gray channel) from sRGB to linear light in place,
/// alpha untouched: what EXR and float TIFF files of sRGB maps (base color, emissive)
/// hold.
pub fn to_linear_light(image: &mut Image) {
    use texgraph_kernels::color::srgb_to_linear;
    if image.channels == 4 {
        for texel in image.data.chunks_exact_mut(4) {
            for v in &mut texel[..3] {
                *v = srgb_to_linear(*v);
            }
        }
    } else {
        for v in &mut image.data {
            *v = srgb_to_linear(*v);
        }
    }
}

/// Not enough memory for the encoder's copy of the image.
pub(crate) fn short_of_memory(image: &Image) -> String {
    format!(
        "not enough memory to encode a {}x{} image",
        image.width, image.height
    )
}

/// The samples as 8-bit integers, clamped to [0, 1] and rounded (halves up).
fn eight_bit(image: &Image) -> Result<Vec<u8>, String> {
    let mut out = zeroed_samples(image)?;
    quantize_8(&image.data, &mut out);
    Ok(out)
}

/// The samples as 16-bit integers, clamped to [0, 1] and rounded (halves up).
fn sixteen_bit(image: &Image) -> Result<Vec<u16>, String> {
    let mut out = zeroed_samples(image)?;
    quantize_16(&image.data, &mut out);
    Ok(out)
}

/// A buffer of one zero per sample of `image`, allocated fallibly.
fn zeroed_samples<T: Clone + Default>(image: &Image) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    out.try_reserve_exact(image.data.len())
        .map_err(|_| short_of_memory(image))?;
    out.resize(image.data.len(), T::default());
    Ok(out)
}

/// round(clamp(v, 0, 1) · scale), halves away from zero (as `f32::round`), in operations
/// that vectorize: for x ≥ 0, x − trunc(x) is exact. NaN gives 0; the result is a whole
/// number in [0, scale], never NaN.
#[inline(always)]
pub fn quantize(v: f32, scale: f32) -> f32 {
    #[allow(clippy::manual_clamp)] // max/min, not clamp: they take NaN to 0
    let x = v.max(0.0).min(1.0) * scale;
    let whole = x.trunc();
    whole + if x - whole >= 0.5 { 1.0 } else { 0.0 }
}

texgraph_kernels::dispatch::multiversion! {
    /// 8-bit samples of `data`.
    fn quantize_8(data: &[f32], out: &mut [u8]) {
        for (o, &v) in out.iter_mut().zip(data) {
            // SAFETY: `quantize` gives a whole number in [0, 255], never NaN. (The
            // saturating `as` conversion does not vectorize.)
            *o = unsafe { quantize(v, 255.0).to_int_unchecked::<i32>() } as u8;
        }
    }
}

texgraph_kernels::dispatch::multiversion! {
    /// 16-bit samples of `data`.
    fn quantize_16(data: &[f32], out: &mut [u16]) {
        for (o, &v) in out.iter_mut().zip(data) {
            // SAFETY: `quantize` gives a whole number in [0, 65535], never NaN.
            *o = unsafe { quantize(v, 65535.0).to_int_unchecked::<i32>() } as u16;
        }
    }
}

/// The samples as RGBA floats (TIFF has no one-channel float writer here: gray is stored
/// as RGBA).
fn float_rgba(image: &Image) -> Result<Vec<f32>, String> {
    if image.channels == 4 {
        let mut out = Vec::new();
        out.try_reserve_exact(image.data.len())
            .map_err(|_| short_of_memory(image))?;
        out.extend_from_slice(&image.data);
        return Ok(out);
    }
    let rgba = |&v: &f32| [v, v, v, 1.0];
    texgraph_base::memory::try_collect(image.data.len() * 4, image.data.iter().flat_map(rgba))
        .ok_or_else(|| short_of_memory(image))
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
