//! `texgraph batch`: many renders from one manifest in one process, several at once so
//! every core works, each written as `texgraph render` writes it (the same bytes), with a
//! progress bar over the batch and a summary. `--shard I/N` runs every N-th job from the
//! I-th, so N machines running the same command share the batch exactly.

pub mod manifest;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::anyhow;
use indicatif::{ProgressBar, ProgressStyle};
use texgraph_core::export::presets::find;
use texgraph_core::{Error, ExportRequest, MaterialExport, RenderOptions, StillExport};

use crate::args::parse_threads;
use manifest::{Files, Job, Manifest};

/// Arguments of `texgraph batch`.
#[derive(clap::Args)]
pub struct BatchArgs {
    /// The manifest (JSON; see docs/scaling.md).
    manifest: PathBuf,
    /// Run only the I-th of N shares of the jobs (I from 0 to N − 1): jobs I, I + N,
    /// I + 2N… For `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` or a Kubernetes
    /// indexed Job's `$JOB_COMPLETION_INDEX`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Print the jobs (and files) the shard would render, and render nothing.
    #[arg(long)]
    list: bool,
}

/// Parses `I/N`: shard I (0 to N − 1) of N.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("'{text}' is not a shard I/N (like 0/4)"))?;
    let (i, n) = (
        i.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{i}' in '{text}' is not a whole number"))?,
        n.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{n}' in '{text}' is not a whole number"))?,
    );
    if n == 0 || i >= n {
        return Err(format!(
            "'{text}': shards of N are numbered 0 to N − 1, and N is at least 1"
        ));
    }
    Ok((i, n))
}

/// The numbers of the jobs of shard `i` of `n` of `total`: every n-th from the i-th.
pub fn shard_of(total: usize, (i, n): (usize, usize)) -> std::iter::StepBy<std::ops::Range<usize>> {
    (i.min(total)..total).step_by(n)
}

/// Runs `texgraph batch`.
pub fn run(args: &BatchArgs) -> anyhow::Result<ExitCode> {
    let manifest = Manifest::read(&args.manifest)?;
    let total = manifest.len();
    let shard = shard_of(total, args.shard.unwrap_or((0, 1)));
    if args.list {
        for index in shard {
            for path in manifest.files(index).paths() {
                crate::say!("{index}  {}", path.display());
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    // Every render's parallel work goes to this process's one pool of `threads`.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| anyhow!("cannot start {threads} threads: {e}"))?;
    let count = shard.len();
    let bar = jobs_bar(count as u64);
    let start = Instant::now();
    let next = Mutex::new(shard);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let written = AtomicUsize::new(0);
    // Twice as many renders at once as threads: small renders keep every core busy (one
    // computes while another waits for its file to reach the disk), large ones share the
    // pool.
    std::thread::scope(|scope| {
        for _ in 0..(2 * threads).min(count) {
            scope.spawn(|| {
                loop {
                    let Some(index) = next.lock().unwrap_or_else(|e| e.into_inner()).next() else {
                        break;
                    };
                    match manifest.job(index).and_then(|job| render_job(&job)) {
                        Ok(count) => {
                            written.fetch_add(count, Ordering::Relaxed);
                        }
                        Err(e) => {
                            let message = format!("{}: {e:#}", manifest.describe(index));
                            bar.suspend(|| crate::complain!("error: {message}"));
                            failures
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(message);
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let failed = failures
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .len();
    let seconds = start.elapsed().as_secs_f64();
    let shard = match args.shard {
        Some((i, n)) => format!(" (shard {i}/{n} of {total})"),
        None => String::new(),
    };
    crate::say!(
        "batch{shard}: {} of {count} jobs done, {} files written, {failed} failed, in {seconds:.2} s ({} jobs/s)",
        count - failed,
        written.load(Ordering::Relaxed),
        rate((count - failed) as f64 / seconds.max(1e-9))
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A rate as people read one: three significant digits, at most two decimals
/// (`1480`, `14.8`, `1.48`, `0.01`), and `< 0.01` rather than a misleading `0`.
pub fn rate(per_second: f64) -> String {
    if per_second > 0.0 && per_second < 0.005 {
        return "< 0.01".to_owned();
    }
    let decimals = if per_second >= 100.0 {
        0
    } else if per_second >= 10.0 {
        1
    } else {
        2
    };
    format!("{per_second:.decimals$}")
}

/// Makes the folders `files` go into.
fn make_folders(files: &Files) -> anyhow::Result<()> {
    for path in files.paths() {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow!("{}: cannot make the folder: {e}", parent.display()))?;
        }
    }
    Ok(())
}

/// A progress bar over `jobs` jobs on a terminal, else a hidden one.
fn jobs_bar(jobs: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(jobs);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} batch [{bar:40}] {pos}/{len} jobs, {rate} jobs/s, {eta} left",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", rate(state.per_sec()));
            },
        )
        .progress_chars("=> "),
    );
    bar
}

use std::io::IsTerminal;

/// Renders one job as `texgraph render` would, making its folders first; returns the
/// files written (a preset's glTF scene included).
fn render_job(job: &Job) -> anyhow::Result<usize> {
    make_folders(&job.files)?;
    let request = match &job.files {
        Files::Outputs { files, depth } => ExportRequest::Still(StillExport {
            files: files.clone(),
            size: job.size,
            depth: *depth,
            region: job.region,
        }),
        Files::Preset { name, dir, stem } => {
            let presets = crate::presets::available(None)?;
            let preset = find(&presets, name).ok_or_else(|| anyhow!("no preset named '{name}'"))?;
            ExportRequest::Material(MaterialExport {
                preset: preset.clone(),
                format: None,
                graph_name: stem.clone(),
                folder: dir.clone(),
                size: job.size,
            })
        }
    };
    let written = request
        .run(&job.graph, &RenderOptions::default(), &|_| {})
        .map_err(|e| match e {
            Error::Invalid(_) => crate::load::describe(&job.source, &e),
            other => anyhow!("{other}"),
        })?;
    crate::render::warn_clipped(&written);
    Ok(request.files(&job.graph).len().max(written.len()))
}
