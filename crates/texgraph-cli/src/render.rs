//! `texgraph render`.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use texgraph_core::animation::{Frames, Layout, export_animation};
use texgraph_core::export::{
    Depth, ExportSettings, Format, default_image_name, export_all, output_paths,
};
use texgraph_core::{Error, Graph, RenderOptions, diagnose};

use crate::args::{apply_set, parse_grid, parse_size, parse_threads};
use crate::load::{describe, load, print_warnings};

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
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Render the output with this name instead of the first.
    #[arg(long, conflicts_with = "all_outputs")]
    output: Option<String>,
    /// Render every output, each to `<out stem>_<name>.<ext>`.
    #[arg(long)]
    all_outputs: bool,
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
    if let Some(time) = args.time {
        if !time.is_finite() {
            bail!("--time must be a finite number");
        }
        graph.settings.time = time;
    }
    if let Some(range) = &args.frames {
        return animate(args, &graph, range);
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_image_name(&graph, Some(&args.graph)));
    let format = Format::from_path(&out).map_err(|e| anyhow!("{e}"))?;
    let depth = match &args.depth {
        None => format.default_depth(),
        Some(bits) => Depth::from_bits(bits.parse()?).expect("clap checked the value"),
    };
    if !format.supports(depth) {
        bail!(
            "{}: {format:?} cannot hold {}-bit samples (PNG: 8 or 16, EXR: 32, TIFF: 8, 16 or 32)",
            out.display(),
            depth.bits()
        );
    }

    let targets: Vec<(Option<String>, PathBuf)> = if args.all_outputs {
        output_paths(&graph, &out)
            .into_iter()
            .map(|(name, path)| (Some(name), path))
            .collect()
    } else {
        vec![(args.output.clone(), out)]
    };
    if targets.is_empty() {
        bail!(
            "{}: the graph has no output node, so there is nothing to render",
            args.graph.display()
        );
    }
    // Errors stop the render below, named by file, node and field; warnings are about
    // nodes no output uses, so the render goes on.
    let found = diagnose(&graph);
    if found.errors.is_empty() {
        print_warnings(&args.graph, &found.warnings);
    }
    let jobs: Vec<(ExportSettings, PathBuf)> = targets
        .into_iter()
        .map(|(output, path)| {
            let settings = ExportSettings {
                width: args.size.0,
                height: args.size.1,
                depth,
                output,
                options: RenderOptions {
                    threads: args.threads,
                    ..RenderOptions::default()
                },
            };
            (settings, path)
        })
        .collect();
    render_all(args, &graph, &jobs)
}

/// Renders every file of `jobs`, all or none, with one progress bar over their rows.
fn render_all(
    args: &RenderArgs,
    graph: &Graph,
    jobs: &[(ExportSettings, PathBuf)],
) -> anyhow::Result<()> {
    let rows: u64 = jobs.iter().map(|(s, _)| u64::from(s.height)).sum();
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(rows);
        bar.set_style(
            ProgressStyle::with_template("{spinner} rendering [{bar:40}] {pos}/{len} rows ({eta})")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let result = export_all(graph, jobs, &|rows| bar.set_position(u64::from(rows)));
    bar.finish_and_clear();
    let written = result.map_err(|e| match e {
        // Graph problems are named by file, node and field.
        Error::Invalid(_) => describe(&args.graph, &e),
        other => anyhow!("{other}"),
    })?;
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

/// Runs `texgraph render --frames`.
fn animate(args: &RenderArgs, graph: &Graph, range: &str) -> anyhow::Result<()> {
    let frames = Frames::parse(range, args.fps).map_err(|e| anyhow!("--frames: {e}"))?;
    let out = args.out.clone().ok_or_else(|| {
        anyhow!("--frames needs -o: out_####.png (a sequence), anim.gif, anim.png (APNG), or a sheet with --sheet")
    })?;
    let layout = Layout::for_path(&out, args.sheet).map_err(|e| anyhow!("{e}"))?;
    let depth = match (&args.depth, layout) {
        (Some(bits), _) => Depth::from_bits(bits.parse()?).expect("clap checked the value"),
        (None, Layout::Sequence(format) | Layout::Sheet { format, .. }) => format.default_depth(),
        (None, Layout::Gif | Layout::Apng) => Depth::Eight,
    };
    let found = diagnose(graph);
    if found.errors.is_empty() {
        print_warnings(&args.graph, &found.warnings);
    }
    let settings = ExportSettings {
        width: args.size.0,
        height: args.size.1,
        depth,
        output: args.output.clone(),
        options: RenderOptions {
            threads: args.threads,
            ..RenderOptions::default()
        },
    };
    let rows = u64::from(frames.count()) * u64::from(settings.height);
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(rows);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} rendering {} frames [{{bar:40}}] {{pos}}/{{len}} rows ({{eta}})",
                frames.count()
            ))
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = std::time::Instant::now();
    let result = export_animation(graph, &frames, layout, &out, &settings, &|rows| {
        bar.set_position(rows)
    });
    bar.finish_and_clear();
    let written = result.map_err(|e| match e {
        Error::Invalid(_) => describe(&args.graph, &e),
        other => anyhow!("{other}"),
    })?;
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
        settings.width,
        settings.height,
        frames.fps
    );
    Ok(())
}
