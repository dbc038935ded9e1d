//! `texgraph batch`: many renders from one manifest in one process, several at once so
//! every core works, each written as `texgraph render` writes it (the same bytes), with a
//! progress bar over the batch and a summary. `--shard I/N` runs every N-th job from the
//! I-th, so N machines running the same command share the batch exactly. A job whose
//! files are up to date (see [`stamp`]) is skipped, so a batch run again renders only
//! what changed, and one interrupted resumes where it stopped.

pub mod log;
pub mod manifest;
pub mod stamp;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::anyhow;
use texgraph_core::export::presets::find;
use texgraph_core::{Error, ExportRequest, MaterialExport, RenderOptions, StillExport};

use crate::args::parse_threads;
use crate::progress::Progress;
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
    /// Render every job, even those whose files are up to date.
    #[arg(long)]
    force: bool,
    /// Write a line per job as it starts and ends: `plain` text or `json` objects (the
    /// default when stderr is not a terminal is `plain`; on a terminal, a progress bar).
    #[arg(long, value_enum, value_name = "FORMAT")]
    log_format: Option<log::LogFormat>,
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
    let shard_text = match args.shard {
        Some((i, n)) => format!(" (shard {i}/{n} of {total})"),
        None => String::new(),
    };
    let log = log::Log::start(args.log_format, count, shard_text);
    let bar = if log.has_lines() {
        Progress::hidden()
    } else {
        Progress::new(count as u64, "batch", "jobs")
    };
    let next = Mutex::new(shard);
    let keys = stamp::Keys::default();
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
                    if let Err(e) = run_job(&manifest, index, args.force, &keys, log) {
                        let message = format!("{}: {e:#}", manifest.describe(index));
                        bar.suspend(|| crate::complain!("error: {message}"));
                        log.failed(index, &message);
                    }
                    bar.inc();
                }
            });
        }
    });
    bar.finish();
    log.summary(false);
    Ok(if log.tally.failed.load(Ordering::Relaxed) == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Job `index`: skipped when its files are up to date (unless `force`), else rendered, its
/// folders made first (and removed again if it fails) and its stamp written after.
fn run_job(
    manifest: &Manifest,
    index: usize,
    force: bool,
    keys: &stamp::Keys,
    log: &log::Log,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let job = manifest.job(index)?;
    let paths = job.files.paths();
    let request = request_of(&job)?;
    let key = keys.of(&job.graph, &request);
    let stamp = stamp::stamp_path(paths[0]);
    if !force && stamp::is_up_to_date(&stamp, &key) {
        log.up_to_date(index);
        return Ok(());
    }
    log.started(index, &job.source, &paths);
    let mut folders = Vec::new();
    for path in &paths {
        let folder = match &job.files {
            // A preset's files go into the folder itself.
            Files::Preset { .. } => Some(*path),
            Files::Outputs { .. } => path.parent(),
        };
        if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
            folders.push(
                texgraph_core::staging::make_folders(folder).map_err(|e| match e {
                    Error::Io { path, source } => {
                        anyhow!("{}: cannot make the folder: {source}", path.display())
                    }
                    other => anyhow!("{other}"),
                })?,
            );
        }
    }
    let written = request
        .run(&job.graph, &RenderOptions::default(), &|_| {})
        .map_err(|e| match e {
            Error::Invalid(_) => crate::load::describe(&job.source, &e),
            other => anyhow!("{other}"),
        })?;
    crate::render::warn_clipped(&written);
    // Every file written, a preset's glTF scene included.
    let files = request.files(&job.graph);
    stamp::write(&stamp, &key, &files)?;
    for made in folders {
        made.keep();
    }
    log.done(
        index,
        files.len().max(written.len()),
        start.elapsed().as_secs_f64(),
    );
    Ok(())
}

/// What job `job` writes, as `texgraph render` would write it.
fn request_of(job: &Job) -> anyhow::Result<ExportRequest> {
    Ok(match &job.files {
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
    })
}
