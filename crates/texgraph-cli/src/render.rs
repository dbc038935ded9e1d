//! `texgraph render`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use texgraph_core::eval::image_bytes;
use texgraph_core::export::{Depth, Format, write_image};
use texgraph_core::{Graph, RenderOptions, compile, output_names, render};

use crate::args::{apply_set, parse_size};
use crate::load::{describe, load};

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
    #[arg(long)]
    threads: Option<usize>,
    /// Render the output with this name instead of the first.
    #[arg(long, conflicts_with = "all_outputs")]
    output: Option<String>,
    /// Render every output, each to `<out stem>_<name>.<ext>`.
    #[arg(long)]
    all_outputs: bool,
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
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_output(&graph, &args.graph));
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
        output_names(&graph)
            .into_iter()
            .map(|name| {
                let path = suffixed(&out, &name);
                (Some(name), path)
            })
            .collect()
    } else {
        vec![(args.output.clone(), out)]
    };
    for (name, path) in targets {
        render_one(args, &graph, name.as_deref(), &path, depth)?;
    }
    Ok(())
}

fn render_one(
    args: &RenderArgs,
    graph: &Graph,
    output: Option<&str>,
    path: &Path,
    depth: Depth,
) -> anyhow::Result<()> {
    let program = compile(graph, output).map_err(|e| describe(&args.graph, &e))?;
    let (width, height) = args.size;
    let channels = program.output.channels.len();
    check_memory(width, height, channels)?;

    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::from(height));
        bar.set_style(
            ProgressStyle::with_template("{spinner} rendering [{bar:40}] {pos}/{len} rows ({eta})")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let options = RenderOptions {
        threads: args.threads,
        ..RenderOptions::default()
    };
    let image = render(&program, width, height, options, &|rows| {
        bar.set_position(u64::from(rows))
    })
    .map_err(|e| anyhow!("{e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    write_image(&image, path, depth).map_err(|e| anyhow!("{e}"))?;
    let mpix = f64::from(width) * f64::from(height) / 1e6;
    crate::say!(
        "wrote {}: {width}x{height} {} {}-bit, rendered in {:.3} s ({:.1} Mpix/s)",
        path.display(),
        if channels == 1 { "gray" } else { "rgba" },
        depth.bits(),
        seconds,
        mpix / seconds.max(1e-9)
    );
    Ok(())
}

/// `<graph name>.png`, from the graph's `name` or else the file's stem.
fn default_output(graph: &Graph, path: &Path) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
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

/// Refuses images whose buffers would not fit in the memory this machine has free.
fn check_memory(width: u32, height: u32, channels: usize) -> anyhow::Result<()> {
    // The float image plus, at most, an encoded copy of the same size.
    let needed = image_bytes(width, height, channels).and_then(|b| b.checked_mul(2));
    let available = available_memory();
    match (needed, available) {
        (None, _) => bail!("--size {width}x{height} is too large to address"),
        (Some(n), Some(avail)) if n > avail => bail!(
            "--size {width}x{height} needs about {:.1} GiB but only {:.1} GiB of memory is available",
            n as f64 / f64::from(1u32 << 30),
            avail as f64 / f64::from(1u32 << 30)
        ),
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
