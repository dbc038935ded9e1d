//! Autosave and recovery. While the open graph has unsaved edits, the editor writes it
//! every few seconds (atomically) to a recovery file of its own process in the user's
//! state folder (`$XDG_STATE_HOME/texgraph`, else `~/.local/state/texgraph`). Saving,
//! or closing the editor in the normal way, removes it. After a crash, a kill or a power
//! cut the file stays, and the next start offers to restore it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

use serde_json::json;
use texgraph_core::Graph;

/// How long after an edit the graph is written (and at most how often).
pub const INTERVAL: Duration = Duration::from_secs(3);

/// The folder of recovery files: `$XDG_STATE_HOME/texgraph`, else
/// `~/.local/state/texgraph`.
pub fn state_dir() -> Option<PathBuf> {
    crate::settings::xdg_folder("XDG_STATE_HOME", ".local/state")
}

/// This process's autosave.
#[derive(Debug)]
pub struct Autosave {
    /// The recovery file (`None`: autosave is off, as in tests).
    store: Option<PathBuf>,
    /// The edit generation last written (or known to need no writing).
    written: u64,
    /// When the edits not yet written are due.
    due: Option<Instant>,
    /// The write under way in the background (a write syncs the file to disk, which can
    /// take a while: never on the UI thread, except on a signal).
    writing: Option<std::thread::JoinHandle<Result<(), String>>>,
    /// Why the last write failed, once (for the status bar).
    pub failure: Option<String>,
}

impl Autosave {
    /// No autosave.
    pub fn off() -> Self {
        Self {
            store: None,
            written: 0,
            due: None,
            writing: None,
            failure: None,
        }
    }

    /// Autosave into `dir`, in a file named after this process.
    pub fn in_folder(dir: &Path) -> Self {
        Self {
            store: Some(dir.join(format!("recovery-{}.json", std::process::id()))),
            ..Self::off()
        }
    }

    /// Autosave into the user's state folder.
    pub fn for_desktop() -> Self {
        state_dir().map_or_else(Self::off, |dir| Self::in_folder(&dir))
    }

    /// The recovery file, when autosave is on.
    pub fn store(&self) -> Option<&Path> {
        self.store.as_deref()
    }

    /// Called every frame with the document: writes it (in the background) when it has
    /// edits `INTERVAL` old that are not written yet. Returns how long until it should be
    /// called again (for a repaint), when something is pending.
    pub fn tick(
        &mut self,
        graph: &Graph,
        file: Option<&Path>,
        generation: u64,
        modified: bool,
        now: Instant,
    ) -> Option<Duration> {
        if self.writing.as_ref().is_some_and(|w| w.is_finished()) {
            self.finish_writing();
        }
        if self.store.is_none() || !modified || generation == self.written {
            self.due = None;
            return self.writing.as_ref().map(|_| Duration::from_millis(100));
        }
        let due = *self.due.get_or_insert(now + INTERVAL);
        if now < due {
            return Some(due - now);
        }
        if self.writing.is_some() {
            // One write at a time, so an older copy never lands after a newer one.
            return Some(Duration::from_millis(100));
        }
        if let Some((store, text)) = self.snapshot(graph, file, generation) {
            self.writing = Some(std::thread::spawn(move || keep(&store, &text)));
        }
        Some(Duration::from_millis(100))
    }

    /// Writes the document at once, on this thread (on a signal, before the process
    /// ends, and when restoring).
    pub fn write_now(&mut self, graph: &Graph, file: Option<&Path>, generation: u64) {
        self.finish_writing();
        if let Some((store, text)) = self.snapshot(graph, file, generation) {
            self.failure = keep(&store, &text).err();
        }
    }

    /// The document was saved or closed cleanly, as of `generation`: nothing to recover.
    pub fn clear(&mut self, generation: u64) {
        // A write under way would bring the file back after the removal.
        self.finish_writing();
        self.failure = None;
        self.written = generation;
        self.due = None;
        if let Some(store) = &self.store {
            let _ = std::fs::remove_file(store);
        }
    }

    /// Waits for the background write, keeping its failure for the status bar.
    fn finish_writing(&mut self) {
        if let Some(writing) = self.writing.take() {
            self.failure = match writing.join() {
                Ok(result) => result.err(),
                Err(_) => Some("cannot keep a recovery copy: the writer stopped".to_owned()),
            };
        }
    }

    /// The recovery file and its text for the document as of `generation`, now counted
    /// as written.
    fn snapshot(
        &mut self,
        graph: &Graph,
        file: Option<&Path>,
        generation: u64,
    ) -> Option<(PathBuf, String)> {
        let store = self.store.clone()?;
        self.due = None;
        self.written = generation;
        let text = json!({
            "format": "texgraph-recovery",
            "version": 1,
            "saved_at": SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            // Absolute: the next start may be in another working directory.
            "file": file
                .map(|f| std::path::absolute(f).unwrap_or_else(|_| f.to_owned()))
                .map(|f| f.to_string_lossy().into_owned()),
            "graph": serde_json::to_value(graph).expect("a graph always serializes"),
        });
        Some((store, text.to_string()))
    }
}

/// Writes a recovery file atomically, making its folder if needed.
fn keep(store: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = store.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    texgraph_core::staging::write_atomically(store, |out| {
        use std::io::Write;
        out.write_all(text.as_bytes())
            .map_err(|source| texgraph_core::Error::Io {
                path: store.to_owned(),
                source,
            })
    })
    .map_err(|e| format!("cannot keep a recovery copy: {e}"))
}

/// A signal is ending the process: the UI writes the recovery copy at once, then says
/// it is ready (see [`end_on_signals`]).
static ENDING: AtomicBool = AtomicBool::new(false);
static READY: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

/// Whether a signal is ending the process.
pub fn ending() -> bool {
    ENDING.load(Ordering::Relaxed)
}

/// The UI has written what it had to; the process may end.
pub fn ready_to_end() {
    let (ready, done) = &READY;
    *ready.lock().unwrap_or_else(|e| e.into_inner()) = true;
    done.notify_all();
}

/// On SIGINT, SIGTERM or SIGHUP: asks the UI (through `ctx`) to write its recovery copy,
/// waits for it a moment, then ends as [`texgraph_core::signals`] does (temporaries of
/// saves and exports removed, old files kept).
pub fn end_on_signals(ctx: eframe::egui::Context) -> std::io::Result<()> {
    texgraph_core::signals::end_cleanly_on_signals(move |_| {
        ENDING.store(true, Ordering::Relaxed);
        ctx.request_repaint();
        let (ready, done) = &READY;
        let guard = ready.lock().unwrap_or_else(|e| e.into_inner());
        // A UI that does not answer (stuck, or minimized and not drawing) is not waited
        // for long: the copy from the last few seconds is on disk already.
        let _ = done.wait_timeout_while(guard, Duration::from_secs(2), |ready| !*ready);
    })
}

/// Unsaved work a process that ended without closing cleanly left behind.
#[derive(Debug, Clone)]
pub struct Recovered {
    /// The recovery file.
    pub store: PathBuf,
    /// The graph as it was last written.
    pub graph: Graph,
    /// The graph's own file, when it had one.
    pub file: Option<PathBuf>,
    /// When it was written.
    pub saved_at: SystemTime,
}

impl Recovered {
    /// "marble.json" or "an untitled graph", for the question.
    pub fn name(&self) -> String {
        self.file.as_ref().map_or_else(
            || "an untitled graph".to_owned(),
            |f| f.display().to_string(),
        )
    }

    /// Removes the recovery file (restored or discarded).
    pub fn forget(&self) {
        let _ = std::fs::remove_file(&self.store);
    }
}

/// The recovery files in `dir` left by processes that are no longer running, newest
/// first. Files that do not read as a recovery are skipped (and left alone).
pub fn left_behind(dir: &Path) -> Vec<Recovered> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<Recovered> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid: u32 = name
                .strip_prefix("recovery-")?
                .strip_suffix(".json")?
                .parse()
                .ok()?;
            if running(pid) {
                return None; // another editor's live autosave
            }
            read(&entry.path())
        })
        .collect();
    found.sort_by_key(|r| std::cmp::Reverse(r.saved_at));
    found
}

fn read(store: &Path) -> Option<Recovered> {
    let text = std::fs::read_to_string(store).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    if value.get("format")?.as_str()? != "texgraph-recovery" {
        return None;
    }
    let graph = Graph::from_json(&value.get("graph")?.to_string()).ok()?;
    let seconds = value.get("saved_at")?.as_u64()?;
    Some(Recovered {
        store: store.to_owned(),
        graph,
        file: value
            .get("file")
            .and_then(serde_json::Value::as_str)
            .map(PathBuf::from),
        saved_at: SystemTime::UNIX_EPOCH + Duration::from_secs(seconds),
    })
}

/// Whether process `pid` is running (this one included).
fn running(pid: u32) -> bool {
    pid == std::process::id() || Path::new("/proc").join(pid.to_string()).exists()
}

/// "14:05:09 UTC, 23 Nov 2026"-style time of day for the question (UTC: no time zone
/// database is at hand).
pub fn when(time: SystemTime) -> String {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{h:02}:{m:02}:{s:02} UTC, {day} {} {year}",
        MONTHS[(month - 1) as usize]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> Graph {
        Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "n", "type": "perlin", "params": { "frequency": 7 } },
                { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
        )
        .unwrap()
    }

    #[test]
    fn edits_are_written_after_the_interval_and_cleared_on_save() {
        let dir = tempfile::tempdir().unwrap();
        let mut autosave = Autosave::in_folder(dir.path());
        let store = autosave.store().unwrap().to_owned();
        let start = Instant::now();
        let file = Path::new("/work/marble.json");
        // Not modified: nothing to keep.
        assert_eq!(autosave.tick(&graph(), Some(file), 1, false, start), None);
        // An edit: due in INTERVAL, not before.
        assert_eq!(
            autosave.tick(&graph(), Some(file), 2, true, start),
            Some(INTERVAL)
        );
        assert!(!store.exists());
        let later = start + INTERVAL;
        // Written in the background: checked again shortly.
        assert!(
            autosave
                .tick(&graph(), Some(file), 2, true, later)
                .is_some()
        );
        autosave.finish_writing();
        assert!(store.exists());
        assert_eq!(autosave.failure, None);
        // Nothing new: no rewrite is pending.
        assert_eq!(autosave.tick(&graph(), Some(file), 2, true, later), None);
        // A write under way when the document is saved does not bring the file back.
        autosave.tick(&graph(), Some(file), 3, true, later);
        autosave.tick(&graph(), Some(file), 3, true, later + INTERVAL);
        autosave.clear(3);
        assert!(!store.exists());
    }

    #[test]
    fn work_of_a_process_that_is_gone_is_found_and_restored() {
        let dir = tempfile::tempdir().unwrap();
        let mut autosave = Autosave::in_folder(dir.path());
        let mut edited = graph();
        edited.nodes[0]
            .params
            .insert("frequency".into(), texgraph_core::ParamValue::Number(11.0));
        autosave.write_now(&edited, Some(Path::new("/work/marble.json")), 5);
        // Ours is live: not offered.
        assert!(left_behind(dir.path()).is_empty());
        // As if written by a process that has ended (pids this large are not in use).
        let gone = dir.path().join("recovery-4000000000.json");
        std::fs::rename(autosave.store().unwrap(), &gone).unwrap();
        std::fs::write(dir.path().join("recovery-4000000001.json"), "not json").unwrap();
        let found = left_behind(dir.path());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].graph, edited);
        assert_eq!(found[0].name(), "/work/marble.json");
        let age = SystemTime::now().duration_since(found[0].saved_at).unwrap();
        assert!(age < Duration::from_secs(60));
        found[0].forget();
        assert!(!gone.exists());
    }

    #[test]
    fn times_read_as_dates() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_442_709);
        assert_eq!(when(t), "14:05:09 UTC, 23 Nov 2026");
        assert_eq!(when(SystemTime::UNIX_EPOCH), "00:00:00 UTC, 1 Jan 1970");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(when(leap), "00:00:00 UTC, 29 Feb 2000");
    }
}
