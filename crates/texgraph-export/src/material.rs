//! Writing a material: every map a preset asks for, rendered together as one program,
//! packed into the preset's files (channels from several maps, inverted or flipped where
//! an engine wants it), encoded in each file's color space, depth and format, and
//! committed all or none.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use web_time::Instant;

use crate::presets::{Content, NormalConvention, Preset, PresetFile, Source};
use crate::{Depth, Exported, Format};
use texgraph_base::error::{Error, Result};
use texgraph_base::staging::{self, Staged};
use texgraph_engine::eval::{Image, RenderOptions, render, split_outputs};
use texgraph_engine::program::ProgramOutput;
use texgraph_engine::usage::Usage;
use texgraph_graph::compile::compile_outputs;
use texgraph_graph::graph::Graph;

/// How to write a material.
#[derive(Debug, Clone)]
pub struct MaterialSettings {
    /// Width of every map, in pixels.
    pub width: u32,
    /// Height of every map, in pixels.
    pub height: u32,
    /// Writes every file in this format instead of the preset's (`--format`).
    pub format: Option<Format>,
    /// `{graph}` in file names.
    pub graph_name: String,
    /// Threads, tile size and cancellation of the render.
    pub options: RenderOptions,
}

/// The `output` node name of each usage the graph has (`color` outputs are not maps).
pub fn material_outputs(graph: &Graph) -> HashMap<Usage, String> {
    graph
        .nodes
        .iter()
        .filter(|n| n.kind == "output")
        .map(|n| (n.usage(), n.output_name()))
        .filter(|(usage, _)| *usage != Usage::Color)
        .collect()
}

/// One file of the set: where it goes and how it is written.
struct Planned<'p> {
    file: &'p PresetFile,
    path: PathBuf,
    kind: Format,
}

/// The files `preset` writes for `graph` into `dir`, with their formats: the optional
/// files whose maps the graph lacks are left out. Fails on a name two files share.
pub fn preset_paths(
    graph: &Graph,
    preset: &Preset,
    settings: &MaterialSettings,
    dir: &Path,
) -> Result<Vec<(PathBuf, Format)>> {
    Ok(plan_files(graph, preset, settings, dir)?
        .into_iter()
        .map(|p| (p.path, p.kind))
        .collect())
}

fn plan_files<'p>(
    graph: &Graph,
    preset: &'p Preset,
    settings: &MaterialSettings,
    dir: &Path,
) -> Result<Vec<Planned<'p>>> {
    let have = material_outputs(graph);
    let fail = |message: String| Error::Render(format!("preset '{}': {message}", preset.name));
    if have.is_empty() {
        return Err(fail(
            "the graph has no material outputs: give its outputs a usage (basecolor, normal, roughness…)".into(),
        ));
    }
    let mut planned: Vec<Planned<'p>> = Vec::new();
    for file in &preset.files {
        if file.optional && !file.usages().iter().any(|u| have.contains_key(u)) {
            continue;
        }
        let kind = settings.format.or(file.format).unwrap_or(preset.format);
        if preset.gltf && file.slot.is_some() && kind != Format::Png {
            return Err(fail(format!(
                "its .gltf reads PNG textures, so its files cannot be written as {}",
                kind.id().to_uppercase()
            )));
        }
        let path = dir.join(file.file_name(&settings.graph_name, kind));
        if planned.iter().any(|p| p.path == path) {
            return Err(fail(format!(
                "two of its files would both be {}",
                path.display()
            )));
        }
        planned.push(Planned { file, path, kind });
    }
    if preset.gltf {
        for name in [gltf_name(settings), bin_name(settings)] {
            let path = dir.join(name);
            if planned.iter().any(|p| p.path == path) {
                return Err(fail(format!("a map would overwrite {}", path.display())));
            }
        }
    }
    Ok(planned)
}

/// The glTF scene files (`.gltf` and its `.bin`) `preset` writes into `dir` beside its
/// maps; none for presets without a scene.
pub fn scene_paths(preset: &Preset, settings: &MaterialSettings, dir: &Path) -> Vec<PathBuf> {
    if !preset.gltf {
        return Vec::new();
    }
    vec![dir.join(gltf_name(settings)), dir.join(bin_name(settings))]
}

fn gltf_name(settings: &MaterialSettings) -> String {
    format!("{}.gltf", settings.graph_name)
}

fn bin_name(settings: &MaterialSettings) -> String {
    format!("{}.bin", settings.graph_name)
}

/// Renders `graph`'s maps once, together, and writes `preset`'s files into `dir` (made
/// when missing), all or none. `progress` counts the render's rows. The files hold the
/// same pixels as each map rendered alone.
pub fn export_preset(
    graph: &Graph,
    preset: &Preset,
    settings: &MaterialSettings,
    dir: &Path,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    export_presets(graph, &[(preset, dir)], settings, progress)
}

/// [`export_preset`] for several presets, each into its folder, from one render of
/// every map any of them reads: the files of every set are committed together, all or
/// none, and each holds the bytes its preset alone would write.
pub fn export_presets(
    graph: &Graph,
    sets: &[(&Preset, &Path)],
    settings: &MaterialSettings,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Exported>> {
    let mut plans = Vec::new();
    for &(preset, dir) in sets {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Io {
                path: dir.to_owned(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotADirectory,
                    "a preset writes a set of files into a folder, and this is a file",
                ),
            });
        }
        let planned = plan_files(graph, preset, settings, dir)?;
        for p in &planned {
            check_file(p, preset, settings)?;
            staging::check_target(&p.path)?;
        }
        if preset.gltf {
            staging::check_target(&dir.join(gltf_name(settings)))?;
            staging::check_target(&dir.join(bin_name(settings)))?;
        }
        plans.push(planned);
    }
    // Every map any file of any set reads that the graph has, rendered as one program.
    let have = material_outputs(graph);
    let mut usages: Vec<Usage> = Vec::new();
    for p in plans.iter().flatten() {
        for usage in p.file.usages() {
            if have.contains_key(&usage) && !usages.contains(&usage) {
                usages.push(usage);
            }
        }
    }
    let names: Vec<String> = usages.iter().map(|u| have[u].clone()).collect();
    // Beside the render: the maps taken apart (as many floats again), a packed RGBA file
    // and its encoder's copy (16-bit; block compression's mips and work copies take about
    // 70 bytes a pixel).
    let blocks = plans
        .iter()
        .flatten()
        .any(|p| matches!(p.kind, Format::Dds | Format::Ktx2));
    let encoder = if blocks { 70 } else { 8 };
    let after =
        |program: &texgraph_engine::program::Program| program.channels() as u64 * 4 + 16 + encoder;
    // A preset may read none of the maps the graph has (a height-only graph exported for
    // glTF): its files are then neutral values, and nothing is rendered.
    let rendered = if names.is_empty() {
        Rendered {
            images: Vec::new(),
            outputs: Vec::new(),
            seconds: 0.0,
        }
    } else {
        render_together(graph, &names, settings, &after, progress)?
    };
    let seconds = rendered.seconds;
    let maps: HashMap<Usage, &Image> = usages.iter().copied().zip(&rendered.images).collect();

    let mut made = Vec::new();
    for &(_, dir) in sets {
        made.push(staging::make_folders(dir)?);
    }
    let mut staged = Vec::new();
    let mut written = Vec::new();
    for (&(preset, dir), planned) in sets.iter().zip(&plans) {
        let (files, exported) = stage_set(graph, preset, settings, dir, planned, &maps, seconds)?;
        staged.extend(files);
        written.extend(exported);
    }
    let cancel = settings.options.cancel.as_deref();
    if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
        return Err(Error::Cancelled);
    }
    // Nothing committed: the folders made for the sets go again (dropped), when empty.
    staging::commit_all(staged)?;
    for folders in made {
        folders.keep();
    }
    Ok(written)
}

/// Packs, encodes and stages every planned file of one preset (and its .gltf).
fn stage_set(
    graph: &Graph,
    preset: &Preset,
    settings: &MaterialSettings,
    dir: &Path,
    planned: &[Planned<'_>],
    maps: &HashMap<Usage, &Image>,
    seconds: f64,
) -> Result<(Vec<Staged>, Vec<Exported>)> {
    let mut staged: Vec<Staged> = Vec::new();
    let mut written = Vec::new();
    for p in planned {
        let image = pack(p.file, maps, settings.width, settings.height)?;
        let (file, depth) = stage_file(&image, p, settings)?;
        staged.push(file);
        written.push(Exported {
            path: p.path.clone(),
            width: settings.width,
            height: settings.height,
            channels: image.channels,
            depth,
            seconds,
            clipping: crate::Clipping::of(&image, depth),
        });
    }
    if preset.gltf {
        staged.extend(stage_gltf(graph, planned, settings, dir)?);
    }
    Ok((staged, written))
}

/// Refuses what a file's format cannot hold, before anything is rendered.
fn check_file(p: &Planned<'_>, preset: &Preset, settings: &MaterialSettings) -> Result<()> {
    let fail = |message: String| Error::Export {
        path: p.path.clone(),
        message: format!("preset '{}': {message}", preset.name),
    };
    let bits = p.file.bits();
    match p.kind {
        Format::Png if bits == 32 => Err(fail(
            "PNG holds 8 or 16 bits; write 32-bit maps as EXR or TIFF".into(),
        )),
        Format::Dds | Format::Ktx2
            if block_format(p.file) != crate::block_format::BlockFormat::R16
                && (!settings.width.is_multiple_of(4) || !settings.height.is_multiple_of(4)) =>
        {
            Err(fail(format!(
                "block compression needs a width and height that are multiples of 4; {}x{} is not (pick a size such as {}x{})",
                settings.width,
                settings.height,
                settings.width.next_multiple_of(4),
                settings.height.next_multiple_of(4)
            )))
        }
        _ => Ok(()),
    }
}

/// Maps rendered together.
pub struct Rendered {
    /// The maps' images, in the order asked for.
    pub images: Vec<Image>,
    /// What each is: name, node, usage, channels.
    pub outputs: Vec<ProgramOutput>,
    /// Seconds the render took (not compiling, splitting or encoding).
    pub seconds: f64,
}

/// Renders the outputs `names` of `graph` as one program, checked against the memory
/// available first: the render's peak, or the render with what is made of it afterwards
/// (`after` bytes a pixel, given the program), whichever is more.
pub fn render_together(
    graph: &Graph,
    names: &[String],
    settings: &MaterialSettings,
    after: &dyn Fn(&texgraph_engine::program::Program) -> u64,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Rendered> {
    let program = compile_outputs(graph, names)?;
    let threads = settings.options.thread_count();
    let copy = after(&program);
    crate::check_memory_for(&program, settings.width, settings.height, threads, copy)?;
    let start = Instant::now();
    let image = render(
        &program,
        settings.width,
        settings.height,
        settings.options.clone(),
        progress,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Rendered {
        images: split_outputs(&program, image)?,
        outputs: program.outputs,
        seconds,
    })
}

/// The file's image: its map, or its channels gathered from the maps (neutral values for
/// maps the graph lacks), with the normal's green flipped for DirectX.
fn pack(
    file: &PresetFile,
    maps: &HashMap<Usage, &Image>,
    width: u32,
    height: u32,
) -> Result<Image> {
    let pixels = width as usize * height as usize;
    let sources: Vec<Source> = match &file.content {
        Content::Map(usage) => {
            let n = usage.channels().unwrap_or(4);
            (0..n)
                .map(|c| Source::Map {
                    usage: *usage,
                    channel: Some(c),
                    invert: false,
                })
                .collect()
        }
        Content::Channels(list) => {
            let n = file.channels();
            (0..n)
                .map(|c| list[c].unwrap_or(Source::Constant(if c == 3 { 1.0 } else { 0.0 })))
                .collect()
        }
    };
    let n = sources.len();
    let mut data = Vec::new();
    data.try_reserve_exact(pixels * n)
        .map_err(|_| Error::Render(format!("not enough memory to pack a {width}x{height} map")))?;
    data.resize(pixels * n, 0.0);
    for (c, source) in sources.iter().enumerate() {
        let Source::Map {
            usage,
            channel,
            invert,
        } = *source
        else {
            let Source::Constant(v) = *source else {
                unreachable!()
            };
            data.iter_mut().skip(c).step_by(n).for_each(|d| *d = v);
            continue;
        };
        let channel = channel.unwrap_or(0);
        let flip =
            usage == Usage::Normal && channel == 1 && file.normal == NormalConvention::DirectX;
        let shape = |v: f32| {
            let v = if flip { 1.0 - v } else { v };
            if invert { 1.0 - v } else { v }
        };
        match maps.get(&usage) {
            Some(map) => {
                let stride = map.channels;
                let from = map
                    .data
                    .iter()
                    .skip(channel.min(stride - 1))
                    .step_by(stride);
                for (d, &v) in data.iter_mut().skip(c).step_by(n).zip(from) {
                    *d = shape(v);
                }
            }
            None => {
                let v = shape(usage.neutral()[channel]);
                data.iter_mut().skip(c).step_by(n).for_each(|d| *d = v);
            }
        }
    }
    Ok(Image {
        width,
        height,
        channels: n,
        data,
    })
}

/// How a file is block-compressed in DDS and KTX2 ([`BlockFormat::for_map`]).
fn block_format(file: &PresetFile) -> crate::block_format::BlockFormat {
    crate::block_format::BlockFormat::for_map(
        file.channels(),
        file.bits(),
        matches!(file.content, Content::Map(Usage::Normal)),
        file.encoding(),
    )
}

/// Encodes a file's image into a staged temporary; returns it with the depth written.
fn stage_file(
    image: &Image,
    p: &Planned<'_>,
    settings: &MaterialSettings,
) -> Result<(Staged, Depth)> {
    let encoding = p.file.encoding();
    let cancel = settings.options.cancel.as_deref();
    let (format, depth, block) = match p.kind {
        format if format.is_texture() => {
            let block = block_format(p.file);
            let depth = if block == crate::block_format::BlockFormat::R16 {
                Depth::Sixteen
            } else {
                Depth::Eight
            };
            (format, depth, Some(block))
        }
        // Images: the file's bits where the format holds them, else the format's own.
        format => (
            format,
            Depth::from_bits(p.file.bits())
                .filter(|d| format.supports(*d))
                .unwrap_or(format.default_depth()),
            None,
        ),
    };
    let staged = crate::stage_encoded(image, &p.path, format, depth, encoding, block, cancel)?;
    Ok((staged, depth))
}

/// The `.gltf` and `.bin` of a preset that writes a glTF scene of the material.
fn stage_gltf(
    graph: &Graph,
    planned: &[Planned<'_>],
    settings: &MaterialSettings,
    dir: &Path,
) -> Result<Vec<Staged>> {
    use crate::gltf::{GltfMaterial, gltf_document};
    use crate::presets::GltfSlot;
    let uri = |slot: GltfSlot| {
        planned
            .iter()
            .find(|p| p.file.slot == Some(slot))
            .and_then(|p| p.path.file_name())
            .map(|name| name.to_string_lossy().into_owned())
    };
    let material = GltfMaterial {
        name: settings.graph_name.clone(),
        base_color: uri(GltfSlot::BaseColor),
        alpha_blend: material_outputs(graph).contains_key(&Usage::Opacity),
        normal: uri(GltfSlot::Normal),
        occlusion_roughness_metallic: uri(GltfSlot::OcclusionRoughnessMetallic),
        emissive: uri(GltfSlot::Emissive),
        emissive_strength: 1.0,
    };
    let gltf_path = dir.join(gltf_name(settings));
    let bin_path = dir.join(bin_name(settings));
    let (json, bin) =
        gltf_document(&material, &bin_name(settings)).map_err(|message| Error::Export {
            path: gltf_path.clone(),
            message,
        })?;
    let write = |path: &Path, bytes: &[u8]| {
        staging::stage(path, |file| {
            std::io::Write::write_all(file, bytes).map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })
        })
    };
    Ok(vec![
        write(&gltf_path, json.as_bytes())?,
        write(&bin_path, &bin)?,
    ])
}
