//! `texgraph batch`: many renders from one manifest in one process, several at once so
//! every core works, each written as `texgraph render` writes it (the same bytes), with a
//! progress bar over the batch and a summary. `--shard I/N` runs every N-th job from the
//! I-th, so N machines running the same command share the batch exactly. A job whose
//! files are up to date (see [`texgraph_pipeline::stamp`]) is skipped, so a batch run again renders only
//! what changed, and one interrupted resumes where it stopped.

pub mod log;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::anyhow;
use texgraph_core::RenderOptions;
use texgraph_pipeline::batch::{self, Event, Settings};
use texgraph_pipeline::manifest::Manifest;

use crate::args::parse_threads;
use crate::progress::Progress;

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

/// Runs `texgraph batch`.
pub fn run(args: &BatchArgs) -> anyhow::Result<ExitCode> {
    let manifest = Manifest::read(&args.manifest)?;
    let total = manifest.len();
    let shard = batch::shard(total, args.shard.unwrap_or((0, 1)));
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
    let settings = Settings {
        // Twice as many renders at once as threads: small renders keep every core busy
        // (one computes while another waits for its file to reach the disk), large ones
        // share the pool.
        jobs_at_once: (2 * threads).min(count),
        force: args.force,
        options: RenderOptions::default(),
    };
    batch::run(&manifest, shard, &settings, &|event| {
        match &event {
            Event::Started { .. } => {}
            Event::UpToDate { .. } => bar.inc(),
            Event::Done { written, .. } => {
                bar.suspend(|| crate::render::warn_clipped(written));
                bar.inc();
            }
            Event::Failed { message, .. } => {
                // A message of several problems: each line an `error:`, as elsewhere.
                bar.suspend(|| {
                    for line in message.lines() {
                        crate::complain!("error: {line}");
                    }
                });
                bar.inc();
            }
        }
        log.event(&event);
    });
    bar.finish();
    log.summary(false);
    Ok(if log.tally.failed.load(Ordering::Relaxed) == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
