//! The batch runner: jobs of a [`Manifest`] several at once, each skipped when its files
//! are up to date ([`crate::stamp`]) or else rendered as `texgraph render` renders it
//! (the same bytes), its folders made first and removed again if it fails, its stamp
//! written once its files are in place. Every render shares the caller's thread pool.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::anyhow;
use texgraph_core::export::Exported;
use texgraph_core::export::presets::{Preset, built_in, find};
use texgraph_core::{Error, ExportRequest, MaterialExport, RenderOptions, StillExport};

use crate::manifest::{Files, Job, Manifest};
use crate::stamp;

/// What happens to a job, as it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// Job `index`'s files are up to date: nothing is rendered.
    UpToDate {
        /// The job's number.
        index: usize,
    },
    /// Job `index` starts rendering `graph` into `files`.
    Started {
        /// The job's number.
        index: usize,
        /// The graph file.
        graph: &'a Path,
        /// The files (or preset folder) it writes.
        files: &'a [&'a Path],
    },
    /// Job `index` wrote `files` files in `seconds`.
    Done {
        /// The job's number.
        index: usize,
        /// Files written, a preset's glTF scene included.
        files: usize,
        /// Seconds from its start.
        seconds: f64,
        /// Its images as written (with what was clamped: see [`Exported::clip_warning`]).
        written: &'a [Exported],
    },
    /// Job `index` failed; the others go on.
    Failed {
        /// The job's number.
        index: usize,
        /// What went wrong, naming the manifest, the entry, the job and its graph.
        message: String,
    },
}

impl Event<'_> {
    /// The event as one JSON object: what `texgraph batch --log-format json` prints and
    /// Python's `texgraph.batch` hands its `progress` callback.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Event::UpToDate { index } => json!({ "event": "up_to_date", "job": index }),
            Event::Started {
                index,
                graph,
                files,
            } => {
                let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                json!({ "event": "start", "job": index, "graph": graph.display().to_string(), "files": files })
            }
            Event::Done {
                index,
                files,
                seconds,
                ..
            } => json!({ "event": "done", "job": index, "files": files, "seconds": seconds }),
            Event::Failed { index, message } => {
                json!({ "event": "failed", "job": index, "error": message })
            }
        }
    }
}

/// How a batch runs.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Jobs rendered at once (at least 1).
    pub jobs_at_once: usize,
    /// Render every job, up to date or not.
    pub force: bool,
    /// Each render's options; its `cancel` also stops the batch taking new jobs.
    pub options: RenderOptions,
}

/// The numbers of the jobs of shard `i` of `n` of `total` jobs: every n-th from the i-th.
pub fn shard(total: usize, (i, n): (usize, usize)) -> std::iter::StepBy<std::ops::Range<usize>> {
    (i.min(total)..total).step_by(n.max(1))
}

/// Runs jobs `jobs` of `manifest` as `settings` say, telling `report` what happens to
/// each. Once `settings.options.cancel` is set no job starts, renders under way stop at
/// their next band leaving their files as they were, and a cancelled job is not reported.
pub fn run(
    manifest: &Manifest,
    jobs: impl Iterator<Item = usize> + Send,
    settings: &Settings,
    report: &(dyn Fn(Event<'_>) + Sync),
) {
    let next = Mutex::new(jobs);
    let keys = stamp::Keys::default();
    // Parsed once for every job.
    let presets = built_in();
    let cancelled = || {
        settings
            .options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs_at_once.max(1) {
            scope.spawn(|| {
                loop {
                    if cancelled() {
                        break;
                    }
                    let Some(index) = next.lock().unwrap_or_else(|e| e.into_inner()).next() else {
                        break;
                    };
                    if let Err(e) = run_job(manifest, index, settings, &keys, &presets, report) {
                        if cancelled()
                            && e.downcast_ref::<Error>()
                                .is_some_and(|e| matches!(e, Error::Cancelled))
                        {
                            break;
                        }
                        report(Event::Failed {
                            index,
                            message: format!("{}: {e:#}", manifest.describe(index)),
                        });
                    }
                }
            });
        }
    });
}

/// Job `index`: skipped when its files are up to date (unless forced), else rendered.
fn run_job(
    manifest: &Manifest,
    index: usize,
    settings: &Settings,
    keys: &stamp::Keys,
    presets: &[Preset],
    report: &(dyn Fn(Event<'_>) + Sync),
) -> anyhow::Result<()> {
    let start = Instant::now();
    let job = manifest.job(index)?;
    let paths = job.files.paths();
    let request = request_of(&job.files, &job, presets)?;
    // The key's request names the files relative to the manifest's folder.
    let named = request_of(&job.names, &job, presets)?;
    let reads = texgraph_core::paths::files_read(&job.graph);
    let key = keys.of(&job.graph_as_written, &named, &reads);
    let stamp = stamp::stamp_path(paths[0]);
    if !settings.force && stamp::is_up_to_date(&stamp, &key, &job.folder) {
        report(Event::UpToDate { index });
        return Ok(());
    }
    report(Event::Started {
        index,
        graph: &job.source,
        files: &paths,
    });
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
        .run(&job.graph, &settings.options, &|_| {})
        .map_err(|e| match e {
            Error::Invalid(_) => crate::graphs::describe(&job.source, &e),
            other => anyhow::Error::new(other),
        })?;
    // Every file written, a preset's glTF scene included, as the manifest names them.
    let names = named.files(&job.graph);
    stamp::write(&stamp, &key, &names, &job.folder)?;
    for made in folders {
        made.keep();
    }
    report(Event::Done {
        index,
        files: names.len().max(written.len()),
        seconds: start.elapsed().as_secs_f64(),
        written: &written,
    });
    Ok(())
}

/// What `job` writes to `files` (its files, or their names), as `texgraph render`
/// would write it, its presets found among `presets`.
pub fn request_of(files: &Files, job: &Job, presets: &[Preset]) -> anyhow::Result<ExportRequest> {
    Ok(match files {
        Files::Outputs { files, depth } => ExportRequest::Still(StillExport {
            files: files.clone(),
            size: job.size,
            depth: *depth,
            region: job.region,
        }),
        Files::Preset { sets, stem } => {
            let mut sets = sets
                .iter()
                .map(|(name, dir)| {
                    let preset =
                        find(presets, name).ok_or_else(|| anyhow!("no preset named '{name}'"))?;
                    Ok((preset.clone(), dir.clone()))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let (preset, folder) = sets.remove(0);
            // One render writes every set.
            ExportRequest::Material(MaterialExport {
                preset,
                format: None,
                graph_name: stem.clone(),
                folder,
                size: job.size,
                also: sets,
            })
        }
    })
}
