//! What a batch says while it runs. On a terminal, a progress bar; elsewhere (a CI log, a
//! build server's console) a plain line per job as it starts and ends, or with
//! `--log-format json` one JSON object a line for machines. The summary comes last, and
//! after an interruption (Ctrl+C, SIGTERM) too.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use serde_json::json;
use texgraph_core::text::printable;
use texgraph_pipeline::batch::Event;

/// How job lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// A line of text per event.
    Plain,
    /// A JSON object per event, one a line: `{"event": "done", "job": 3, …}`.
    Json,
}

/// The counts of a batch under way.
#[derive(Default)]
pub struct Tally {
    /// Jobs rendered.
    pub done: AtomicUsize,
    /// Jobs skipped as up to date.
    pub up_to_date: AtomicUsize,
    /// Jobs that failed.
    pub failed: AtomicUsize,
    /// Files written.
    pub files: AtomicUsize,
}

/// The batch's log: its format (`None`: the progress bar alone), its counts and clock.
pub struct Log {
    format: Option<LogFormat>,
    /// Jobs in this run (the shard's).
    pub count: usize,
    /// " (shard I/N of T)", or nothing.
    pub shard: String,
    /// The counts so far.
    pub tally: Tally,
    start: Instant,
    /// Set once the summary is printed, so an interruption does not print a second.
    summarised: Mutex<bool>,
}

/// The log of the batch under way, for a signal handler's summary.
static CURRENT: OnceLock<&'static Log> = OnceLock::new();

impl Log {
    /// The log of a run of `count` jobs; `format` `None` picks plain lines when stderr is
    /// not a terminal, else the bar alone. It is also the log an interruption summarises.
    pub fn start(format: Option<LogFormat>, count: usize, shard: String) -> &'static Log {
        use std::io::IsTerminal;
        let format =
            format.or_else(|| (!std::io::stderr().is_terminal()).then_some(LogFormat::Plain));
        // One batch a process: kept for the signal handler for the rest of its life.
        let log: &'static Log = Box::leak(Box::new(Log {
            format,
            count,
            shard,
            tally: Tally::default(),
            start: Instant::now(),
            summarised: Mutex::new(false),
        }));
        let _ = CURRENT.set(log);
        log
    }

    /// Whether lines are written (then the progress bar is not drawn).
    pub fn has_lines(&self) -> bool {
        self.format.is_some()
    }

    /// Counts `event` and, outside a terminal, says it: a line of text, or its JSON.
    pub fn event(&self, event: &Event<'_>) {
        let t = &self.tally;
        match event {
            Event::Done { files, .. } => {
                t.done.fetch_add(1, Ordering::Relaxed);
                t.files.fetch_add(*files, Ordering::Relaxed);
            }
            Event::UpToDate { .. } => {
                t.up_to_date.fetch_add(1, Ordering::Relaxed);
            }
            Event::Failed { .. } => {
                t.failed.fetch_add(1, Ordering::Relaxed);
            }
            Event::Started { .. } => {}
        }
        let text = match self.format {
            None => return,
            Some(LogFormat::Json) => event.to_json().to_string(),
            Some(LogFormat::Plain) => printable(&plain(event)).into_owned(),
        };
        // A log nobody reads any more (a closed pipe) does not stop the renders.
        let _ = writeln!(std::io::stdout().lock(), "{text}");
    }

    /// Prints the summary (once): `interrupted` after a signal.
    pub fn summary(&self, interrupted: bool) {
        let mut summarised = self.summarised.lock().unwrap_or_else(|e| e.into_inner());
        if *summarised {
            return;
        }
        *summarised = true;
        let t = &self.tally;
        let (done, fresh, failed, files) = (
            t.done.load(Ordering::Relaxed),
            t.up_to_date.load(Ordering::Relaxed),
            t.failed.load(Ordering::Relaxed),
            t.files.load(Ordering::Relaxed),
        );
        let seconds = self.start.elapsed().as_secs_f64();
        // Done: rendered now or up to date, as in the text; rendered: this run's renders.
        let text = if self.format == Some(LogFormat::Json) {
            json!({
                "event": "summary", "jobs": self.count, "done": done + fresh, "rendered": done,
                "up_to_date": fresh, "failed": failed, "files": files, "seconds": seconds,
                "interrupted": interrupted,
            })
            .to_string()
        } else {
            let how = if interrupted { " interrupted" } else { "" };
            let speed = if done > 0 {
                let rate = crate::progress::rate(done as f64 / seconds.max(1e-9));
                format!(" ({rate} jobs/s)")
            } else {
                String::new()
            };
            printable(&format!(
                "batch{}{how}: {} of {} jobs done ({fresh} up to date), {files} files written, {failed} failed, in {seconds:.2} s{speed}",
                self.shard,
                done + fresh,
                self.count,
            ))
            .into_owned()
        };
        let _ = writeln!(std::io::stdout().lock(), "{text}");
    }
}

/// An event as a line of text (a failure's message goes to stderr as an `error:`).
fn plain(event: &Event<'_>) -> String {
    match event {
        Event::UpToDate { index } => format!("job {index} up to date"),
        Event::Started {
            index,
            graph,
            files,
        } => {
            let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            format!(
                "job {index} started: {} -> {}",
                graph.display(),
                shown.join(", ")
            )
        }
        Event::Done {
            index,
            files,
            seconds,
            ..
        } => {
            let plural = if *files == 1 { "" } else { "s" };
            format!("job {index} done: {files} file{plural} in {seconds:.2} s")
        }
        Event::Failed { index, .. } => format!("job {index} failed"),
    }
}

/// After a signal: the summary of the batch under way, if one is.
pub fn summarise_interrupted() {
    if let Some(log) = CURRENT.get() {
        log.summary(true);
    }
}
