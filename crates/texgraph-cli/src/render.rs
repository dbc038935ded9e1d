//! `texgraph render`.

use crate::progress::Progress;
use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};
use texgraph_core::animation::{Frames, Layout};
use texgraph_core::eval::stream::Region;
use texgraph_core::export::presets::{Preset, find};
use texgraph_core::export::{Depth, Exported, Format, default_image_name, file_stem_for};
use texgraph_core::{
    AnimationExport, Error, ExportRequest, Graph, MaterialExport, RenderOptions, StillExport,
    diagnose,
};

use crate::args::{apply_set, parse_grid, parse_region, parse_size, parse_threads};
use crate::ball::BallArgs;
use crate::load::{describe, load, print_warnings};
use texgraph_core::ball::BallSettings;

/// Arguments of `texgraph render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// The graph file.
    graph: PathBuf,
    /// Output image; its extension picks the format (.png, .exr, .tif, .tiff).
    /// Default: `<graph name>.png` in the current directory.
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Image size: `1024` for a square or `2048x1024`.
    #[arg(long, default_value = "1024", value_parser = parse_size)]
    size: (u32, u32),
    /// Bits per channel: 8 or 16 for PNG and TIFF, 32 (float) for EXR and TIFF.
    #[arg(long, value_parser = ["8", "16", "32"])]
    depth: Option<String>,
    /// Time fed to `time` nodes (overrides the graph's settings.time).
    #[arg(long, allow_hyphen_values = true)]
    time: Option<f32>,
    /// Override a param: `node.param=value` (repeatable).
    #[arg(long = "set", value_name = "NODE.PARAM=VALUE")]
    sets: Vec<String>,
    /// Vary every noise at once: each node's `seed` (and each subgraph's exposed `seed`)
    /// moves on by this much, wrapping within its range, after any `--set`, as a batch's
    /// `seeds` do. 0 is the graph as saved.
    #[arg(long, value_name = "N")]
    seed: Option<u32>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Render the output with this name instead of the first.
    #[arg(long, conflicts_with = "all_outputs")]
    output: Option<String>,
    /// Render every output, each to `<out stem>_<name>.<ext>`.
    #[arg(long)]
    all_outputs: bool,
    /// Write the graph's material with an export preset (`texgraph presets` lists them)
    /// into the folder given by `-o` (default: the current folder): every map rendered
    /// together, packed into the engine's files, all written or none. Given more than
    /// once, every preset's set comes from one render, each into `-o`'s folder
    /// `<preset>`.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["output", "all_outputs", "frames", "depth"])]
    preset: Vec<String>,
    /// Read more presets from this JSON file (the schema of `texgraph presets --json`).
    #[arg(long, value_name = "FILE", requires = "preset")]
    preset_file: Option<PathBuf>,
    /// Write every file of the preset in this format instead of the preset's.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(Format::ids()), requires = "preset")]
    format: Option<String>,
    /// Render the graph's material on a lit shape instead of a map: sphere, plane, cube,
    /// cylinder or terrain (the height map as a block of ground); a CPU PBR render,
    /// `--size` is the image's, `--map-size` the maps'.
    #[arg(long, value_name = "SHAPE", value_parser = ["sphere", "plane", "cube", "cylinder", "terrain"], conflicts_with_all = ["output", "all_outputs", "frames", "preset", "depth"])]
    ball: Option<String>,
    /// With `--ball`: the light around the shape, `studio`, `sky` or an equirectangular
    /// Radiance .hdr or OpenEXR .exr image file (twice as wide as high; its centre column is
    /// what the camera looks towards, behind the shape, its top row straight up).
    #[arg(long, value_name = "ENV", default_value = "studio", requires = "ball")]
    env: String,
    /// With `--ball`: what shows behind the shape, `environment`, `gray` or `transparent`.
    #[arg(long, value_name = "BACKGROUND", default_value = "environment", value_parser = ["environment", "gray", "transparent"], requires = "ball")]
    background: String,
    /// With `--ball`: how many times the maps repeat across the shape.
    #[arg(long, default_value_t = 1.0, requires = "ball")]
    tiling: f32,
    /// With `--ball`: where the key light comes from, degrees about the camera's up axis
    /// (0 from the camera, negative from the left).
    #[arg(long, default_value_t = -45.0, allow_hyphen_values = true, requires = "ball")]
    light_angle: f32,
    /// With `--ball`: the size of the maps the shape reads.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=8192), requires = "ball")]
    map_size: u32,
    /// With `--ball`: the key light's height above the horizon, degrees.
    #[arg(long, default_value_t = BallSettings::default().light_elevation, allow_hyphen_values = true, requires = "ball")]
    light_elevation: f32,
    /// With `--ball`: the key light's strength (0 turns it off).
    #[arg(long, default_value_t = BallSettings::default().light_intensity, requires = "ball")]
    light_intensity: f32,
    /// With `--ball`: the environment and the key light turned about the up axis, degrees.
    #[arg(long, default_value_t = BallSettings::default().environment_turn, allow_hyphen_values = true, requires = "ball")]
    env_turn: f32,
    /// With `--ball`: the camera turned about the shape from its first view, `YAW,PITCH` in
    /// degrees (yaw to the right, pitch from above), as the editor's 3D view orbits.
    #[arg(long, value_name = "YAW,PITCH", value_parser = parse_orbit, allow_hyphen_values = true, requires = "ball")]
    orbit: Option<[f32; 2]>,
    /// With `--ball`: magnification (0.5 to 3; 2 brings the camera twice as close).
    #[arg(long, default_value_t = BallSettings::default().zoom, requires = "ball")]
    zoom: f32,
    /// With `--ball`: exposure in stops.
    #[arg(long, default_value_t = BallSettings::default().exposure, allow_hyphen_values = true, requires = "ball")]
    exposure: f32,
    /// With `--ball`: parallax depth of the height map in texture tiles (0 to 0.5; 0: off).
    #[arg(long, default_value_t = BallSettings::default().depth, requires = "ball")]
    parallax: f32,
    /// With `--ball terrain`: the terrain's height for a height of 1, as a fraction of its
    /// width (0.01 to 2; default 0.25).
    #[arg(long, default_value_t = BallSettings::default().relief, requires = "ball")]
    relief: f32,
    /// Render only this rectangle of the image, `X,Y,W,H` in pixels of `--size`: the same
    /// bits as that part of the whole render, so regions rendered anywhere stitch into it
    /// exactly (`texgraph stitch`). The file records where it belongs.
    #[arg(long, value_name = "X,Y,W,H", value_parser = parse_region, conflicts_with_all = ["frames", "preset", "ball"])]
    region: Option<Region>,
    /// Render frames `first..end` (end exclusive) with time = frame / fps, to a numbered
    /// sequence (`-o out_####.png`), an animated `.gif` or `.png`, or a sheet (`--sheet`).
    #[arg(long, value_name = "FIRST..END", conflicts_with_all = ["time", "all_outputs"])]
    frames: Option<String>,
    /// Frames per second of `--frames`.
    #[arg(long, default_value = "24", requires = "frames")]
    fps: f64,
    /// Lay the frames out in one image of `COLSxROWS` frames, row by row.
    #[arg(long, value_name = "COLSxROWS", value_parser = parse_grid, requires = "frames")]
    sheet: Option<(u32, u32)>,
}

/// Runs `texgraph render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    let mut graph = load(&args.graph)?;
    for assignment in &args.sets {
        apply_set(&mut graph, assignment).with_context(|| args.graph.display().to_string())?;
    }
    if let Some(offset) = args.seed {
        texgraph_core::variation::offset_seeds(&mut graph, offset);
    }
    if let Some(time) = args.time {
        if !time.is_finite() {
            bail!("--time must be a finite number");
        }
        graph.settings.time = time;
    }
    if let Some(range) = &args.frames {
        return animate(args, &graph, range);
    }
    if !args.preset.is_empty() {
        return export_preset_files(args, &graph);
    }
    if let Some(shape) = &args.ball {
        return crate::ball::run(
            &BallArgs {
                graph_path: &args.graph,
                out: args.out.as_deref(),
                size: args.size,
                shape,
                env: &args.env,
                background: &args.background,
                tiling: args.tiling,
                light_angle: args.light_angle,
                map_size: args.map_size,
                view: crate::ball::View {
                    light_elevation: args.light_elevation,
                    light_intensity: args.light_intensity,
                    environment_turn: args.env_turn,
                    orbit: args.orbit.unwrap_or_default(),
                    zoom: args.zoom,
                    exposure: args.exposure,
                    parallax: args.parallax,
                    relief: args.relief,
                },
                threads: args.threads,
            },
            &graph,
        );
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_image_name(&graph, Some(&args.graph)));
    let depth = match &args.depth {
        None => None,
        Some(bits) => Some(Depth::from_bits(bits.parse()?).expect("clap checked the value")),
    };
    if let Some(r) = args.region
        && !r.fits(args.size.0, args.size.1)
    {
        bail!(
            "--region {},{},{},{} is not inside the {}x{} image (--size): X + W must be at most {} and Y + H at most {}",
            r.x,
            r.y,
            r.width,
            r.height,
            args.size.0,
            args.size.1,
            args.size.0,
            args.size.1
        );
    }
    let mut still = StillExport::to_file(
        &graph,
        &out,
        args.output.as_deref(),
        args.all_outputs,
        args.size,
        depth,
    );
    still.region = args.region;
    // Errors stop the render below, named by file, node and field; warnings are about
    // nodes no output uses, so the render goes on.
    let found = diagnose(&graph);
    if found.errors.is_empty() {
        print_warnings(&args.graph, &found.warnings);
    }
    render_all(args, &graph, &ExportRequest::Still(still))
}

/// Renders every file of a still request together, band by band, writing them as the
/// bands come, all or none, with a progress bar over the rows.
fn render_all(args: &RenderArgs, graph: &Graph, request: &ExportRequest) -> anyhow::Result<()> {
    let bar = Progress::new(request.rows(), "rendering", "rows");
    let result = request.run(graph, &render_options(args), &|rows| bar.set(rows));
    bar.finish();
    let written = result.map_err(|e| match e {
        // Graph problems are named by file, node and field.
        Error::Invalid(_) => describe(&args.graph, &e),
        Error::Render(message) => anyhow!("{}: {message}", args.graph.display()),
        other => anyhow!("{other}"),
    })?;
    warn_clipped(&written);
    for done in written {
        let (width, height, seconds) = (done.width, done.height, done.seconds);
        let mpix = f64::from(width) * f64::from(height) / 1e6;
        crate::say!(
            "wrote {}: {width}x{height} {} {}-bit, rendered in {:.3} s ({:.1} Mpix/s)",
            done.path.display(),
            if done.channels == 1 { "gray" } else { "rgba" },
            done.depth.bits(),
            seconds,
            mpix / seconds.max(1e-9)
        );
    }
    Ok(())
}

/// Warns of every file whose samples were clamped into its integer depth (a height above
/// 1 written as a plateau): the file is written, but not as rendered.
pub fn warn_clipped(written: &[Exported]) {
    for warning in written.iter().filter_map(Exported::clip_warning) {
        crate::complain!("warning: {warning}");
    }
}

/// Runs `texgraph render --frames`.
fn animate(args: &RenderArgs, graph: &Graph, range: &str) -> anyhow::Result<()> {
    let frames = Frames::parse(range, args.fps).map_err(|e| anyhow!("--frames: {e}"))?;
    let out = args.out.clone().ok_or_else(|| {
        anyhow!("--frames needs -o: out_####.png (a sequence), anim.gif, anim.png (APNG), or a sheet with --sheet")
    })?;
    let layout = Layout::for_path(&out, args.sheet).map_err(|e| anyhow!("{e}"))?;
    let depth = match &args.depth {
        Some(bits) => Some(Depth::from_bits(bits.parse()?).expect("clap checked the value")),
        None => None,
    };
    let found = diagnose(graph);
    if found.errors.is_empty() {
        print_warnings(&args.graph, &found.warnings);
    }
    let request = ExportRequest::Animation(AnimationExport {
        frames,
        out: out.clone(),
        sheet: args.sheet,
        output: args.output.clone(),
        size: args.size,
        depth,
    });
    let bar = Progress::new(
        request.rows(),
        &format!("rendering {} frames", frames.count()),
        "rows",
    );
    let start = std::time::Instant::now();
    let result = request.run(graph, &render_options(args), &|rows| bar.set(rows));
    bar.finish();
    let written = result.map_err(|e| match e {
        Error::Invalid(_) => describe(&args.graph, &e),
        other => anyhow!("{other}"),
    })?;
    warn_clipped(&written);
    let seconds = start.elapsed().as_secs_f64();
    let what = match layout {
        Layout::Sequence(_) => format!("{} files", written.len()),
        Layout::Gif => "an animated GIF".to_owned(),
        Layout::Apng => "an animated PNG".to_owned(),
        Layout::Sheet { columns, rows, .. } => format!("a {columns}x{rows} sheet"),
    };
    let first = &written[0];
    crate::say!(
        "wrote {} ({what}): {} frames of {}x{} at {} fps, rendered in {seconds:.3} s",
        if written.len() == 1 {
            first.path.display().to_string()
        } else {
            format!(
                "{} … {}",
                first.path.display(),
                written[written.len() - 1].path.display()
            )
        },
        frames.count(),
        args.size.0,
        args.size.1,
        frames.fps
    );
    Ok(())
}

/// Runs `texgraph render --preset`: the material's files into the folder `-o`, or with
/// several presets, each preset's into its own folder in it, from one render.
fn export_preset_files(args: &RenderArgs, graph: &Graph) -> anyhow::Result<()> {
    let presets = crate::presets::available(args.preset_file.as_deref())?;
    let dir = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut sets = Vec::new();
    for name in &args.preset {
        let preset = find(&presets, name).ok_or_else(|| {
            let names: Vec<&str> = presets.iter().map(|p| p.name.as_str()).collect();
            anyhow!(
                "--preset: no preset named '{name}' (presets: {})",
                names.join(", ")
            )
        })?;
        if sets
            .iter()
            .any(|(p, _): &(Preset, PathBuf)| p.name == preset.name)
        {
            bail!("--preset '{name}' is given twice");
        }
        let folder = if args.preset.len() == 1 {
            dir.clone()
        } else {
            dir.join(&preset.name)
        };
        sets.push((preset.clone(), folder));
    }
    let (preset, folder) = sets.remove(0);
    let request = ExportRequest::Material(MaterialExport {
        preset,
        format: args.format.as_deref().and_then(Format::parse),
        graph_name: file_stem_for(graph, Some(&args.graph)),
        folder,
        size: args.size,
        also: sets,
    });
    let found = diagnose(graph);
    if found.errors.is_empty() {
        print_warnings(&args.graph, &found.warnings);
    }
    let names = args
        .preset
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let bar = Progress::new(request.rows(), &format!("rendering {names} maps"), "rows");
    let result = request.run(graph, &render_options(args), &|rows| bar.set(rows));
    bar.finish();
    let written = result.map_err(|e| match e {
        Error::Invalid(_) => describe(&args.graph, &e),
        other => anyhow!("{other}"),
    })?;
    warn_clipped(&written);
    let seconds = written.first().map_or(0.0, |w| w.seconds);
    for done in &written {
        crate::say!(
            "wrote {}: {}x{} {} {}-bit",
            done.path.display(),
            done.width,
            done.height,
            if done.channels == 1 { "gray" } else { "rgba" },
            done.depth.bits(),
        );
    }
    // The glTF scenes: each .gltf and its .bin.
    let files = request.files(graph);
    let scenes: Vec<_> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "gltf" || e == "bin"))
        .collect();
    for scene in &scenes {
        crate::say!("wrote {}", scene.display());
    }
    let plural = if args.preset.len() == 1 { "" } else { "s" };
    crate::say!(
        "preset{plural} {names}: {} files from one render of {:.3} s",
        written.len() + scenes.len(),
        seconds
    );
    Ok(())
}

/// The render options `--threads` asks for.
fn render_options(args: &RenderArgs) -> RenderOptions {
    RenderOptions {
        threads: args.threads,
        ..RenderOptions::default()
    }
}

/// Parses `--orbit YAW,PITCH` (degrees).
fn parse_orbit(text: &str) -> Result<[f32; 2], String> {
    let angle = |s: &str| match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' in '{text}' is not a number of degrees")),
    };
    match text.split_once(',') {
        Some((yaw, pitch)) => Ok([angle(yaw)?, angle(pitch)?]),
        None => Err(format!(
            "'{text}' is not YAW,PITCH in degrees, such as 30,-10"
        )),
    }
}
