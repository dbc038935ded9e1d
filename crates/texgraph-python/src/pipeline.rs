//! Pipelines from Python: a batch manifest's jobs (`texgraph batch`) and regions stitched
//! into the whole image (`texgraph stitch`), with what happens told to a callback. The
//! work runs without the GIL; the callback runs on the calling thread between slices of
//! waiting, and an exception from it (or Ctrl+C) stops the work.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use texgraph_core::RenderOptions;
use texgraph_core::export::stitch::{read_piece, stitch as stitch_pieces};
use texgraph_pipeline::batch::{Event, Settings, run as run_batch, shard as shard_of};
use texgraph_pipeline::manifest::Manifest;

use crate::detached;
use crate::errors::to_py;

/// An event of the runner, owned, to be told to Python once the GIL is held.
struct Told {
    /// As `texgraph batch --log-format json` prints it.
    json: String,
    /// Files written, for a job done.
    files: usize,
    done: bool,
    up_to_date: bool,
    error: Option<String>,
    /// What was clamped in its files.
    warnings: Vec<String>,
}

impl Told {
    fn of(event: &Event<'_>) -> Self {
        let mut told = Told {
            json: event.to_json().to_string(),
            files: 0,
            done: false,
            up_to_date: false,
            error: None,
            warnings: Vec::new(),
        };
        match event {
            Event::UpToDate { .. } => told.up_to_date = true,
            Event::Started { .. } => {}
            Event::Done { files, written, .. } => {
                told.done = true;
                told.files = *files;
                told.warnings = written.iter().filter_map(|w| w.clip_warning()).collect();
            }
            Event::Failed { message, .. } => told.error = Some(message.clone()),
        }
        told
    }
}

/// The counts of a batch, kept on the calling thread.
#[derive(Default)]
struct Summary {
    done: usize,
    up_to_date: usize,
    files: usize,
    errors: Vec<String>,
}

/// Runs the jobs of the batch manifest at `manifest` (the format of `texgraph batch`; see
/// docs/scaling.md), writing the same files, byte for byte, as the CLI. `shard=(i, n)`
/// runs jobs i, i + n, i + 2n…; jobs whose files are up to date are skipped unless
/// `force`. Renders share the module's threads, twice as many jobs at once as there are.
/// `progress`, when given, is called with a dict per event, as `texgraph batch
/// --log-format json` prints them: `{"event": "start", "job", "graph", "files"}`,
/// `{"event": "done", "job", "files", "seconds"}`, `{"event": "up_to_date", "job"}`,
/// `{"event": "failed", "job", "error"}`. Returns the summary: `jobs`, `done` (rendered
/// or up to date), `rendered`, `up_to_date`, `failed`, `files` and `errors` (each failed
/// job's message); a job that
/// fails does not stop the others and raises nothing. A manifest that cannot be read
/// raises ValueError naming the file, the job and the field; Ctrl+C stops the batch
/// (KeyboardInterrupt), its finished jobs stamped so a second run skips them.
#[pyfunction]
#[pyo3(signature = (manifest, shard = None, force = false, progress = None))]
pub fn batch<'py>(
    py: Python<'py>,
    manifest: PathBuf,
    shard: Option<(usize, usize)>,
    force: bool,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (i, n) = shard.unwrap_or((0, 1));
    if n == 0 || i >= n {
        return Err(PyValueError::new_err(format!(
            "shard ({i}, {n}): shards of n are numbered 0 to n - 1, and n is at least 1"
        )));
    }
    let read = py.detach(|| Manifest::read(&manifest));
    let manifest = read.map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let jobs = shard_of(manifest.len(), (i, n));
    let count = jobs.len();
    let cancel = Arc::new(AtomicBool::new(false));
    let options = RenderOptions {
        cancel: Some(cancel.clone()),
        ..RenderOptions::default()
    };
    let settings = Settings {
        jobs_at_once: (2 * options.thread_count()).min(count),
        force,
        options,
    };
    let queue: Mutex<Vec<Told>> = Mutex::new(Vec::new());
    let mut summary = Summary::default();
    let json = py.import("json")?;
    let mut tell = |py: Python<'_>| -> PyResult<()> {
        let told = std::mem::take(&mut *queue.lock().unwrap_or_else(PoisonError::into_inner));
        for event in told {
            if event.done {
                summary.done += 1;
                summary.files += event.files;
            }
            if event.up_to_date {
                summary.up_to_date += 1;
            }
            summary.errors.extend(event.error.clone());
            for warning in &event.warnings {
                let message = std::ffi::CString::new(warning.as_str()).unwrap_or_default();
                PyErr::warn(py, py.get_type::<PyUserWarning>().as_any(), &message, 1)?;
            }
            if let Some(progress) = &progress {
                let dict = json.call_method1("loads", (event.json.as_str(),))?;
                progress.call1((dict,))?;
            }
        }
        Ok(())
    };
    let work = || {
        run_batch(&manifest, jobs, &settings, &|event| {
            let told = Told::of(&event);
            queue
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(told);
        });
    };
    detached::run_reporting(py, &cancel, work, &mut tell)?;
    tell(py)?;
    let result = PyDict::new(py);
    result.set_item("jobs", count)?;
    // Done: rendered now or up to date, as the CLI's summary counts them.
    result.set_item("done", summary.done + summary.up_to_date)?;
    result.set_item("rendered", summary.done)?;
    result.set_item("up_to_date", summary.up_to_date)?;
    result.set_item("failed", summary.errors.len())?;
    result.set_item("files", summary.files)?;
    result.set_item("errors", summary.errors)?;
    Ok(result)
}

/// Assembles region files (written by `Graph.export(..., region=...)` or `texgraph
/// render --region`) into the whole image at `out`, the same bytes as the whole render,
/// as `texgraph stitch` does: the regions must be of one render and cover it exactly
/// once. `progress`, when given, is called as `progress(rows_done, rows)`. Returns
/// `out`. Raises ExportError naming the file that does not fit.
#[pyfunction]
#[pyo3(signature = (files, out, progress = None))]
pub fn stitch(
    py: Python<'_>,
    files: Vec<PathBuf>,
    out: PathBuf,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let pieces = py
        .detach(|| {
            files
                .iter()
                .map(|f| read_piece(f))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| to_py(py, e, None))?;
    let rows = pieces.first().map_or(0, |p| u64::from(p.size.1));
    let done = AtomicU64::new(0);
    let cancel = Arc::new(AtomicBool::new(false));
    let report = detached::count_reporter(progress.as_ref(), &done, rows);
    let work = || {
        stitch_pieces(&pieces, &out, &|row| {
            done.store(u64::from(row), Ordering::Relaxed);
        })
    };
    detached::run_reporting(py, &cancel, work, report)?.map_err(|e| to_py(py, e, None))?;
    Ok(out.display().to_string())
}
