//! Autosave and recovery. While the open graph has unsaved edits, the editor writes it
//! every few seconds (atomically) to a recovery file of its own in the user's state
//! folder (`$XDG_STATE_HOME/texgraph`, else `~/.local/state/texgraph`). Saving, or closing
//! the editor in the normal way, removes it. After a crash, a kill or a power cut the file
//! stays, and the editor offers to restore it: at the next start, or within [`RESCAN`] in
//! an editor that is running already.
//!
//! Whose work is left behind is told by a lock, not by a process id. Each editor names its
//! files after its process id and the moment it set autosave up
//! (`recovery-<pid>-<unix nanos>.json`), and holds an exclusive lock (`flock`) on a lock
//! file beside it (`recovery-<pid>-<unix nanos>.lock`) for as long as it runs. The kernel
//! releases the lock when the process ends, however it ends (killed, crashed, a zombie not
//! yet reaped), so a recovery file whose lock can be taken is left behind, and one whose
//! lock is held belongs to a running editor. A process id alone would say neither: a killed
//! editor can stay a zombie for a while, and its id can be reused by any other process.
//!
//! A recovery file without a lock file (`recovery-<pid>.json` of an older editor, or one
//! whose writer could not lock) is judged by its process instead: its writer is running if
//! process `pid` is running, is not a zombie, and started before the file was written
//! (from the start time in `/proc/<pid>/stat`, known to within some 10 ms).
//!
//! An editor that finds work left behind keeps its lock until the question about it is
//! answered, so two editors running at once do not both offer the same work.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use web_time::{Instant, SystemTime};

// Recovery files in a folder on the desktop; in the web page, entries of the browser's
// storage.
#[cfg_attr(not(target_arch = "wasm32"), path = "recovery/on_disk.rs")]
#[cfg_attr(target_arch = "wasm32", path = "recovery/in_browser.rs")]
mod storage;

#[cfg(target_arch = "wasm32")]
pub use storage::page_closing;
use storage::{Held, Lock, hold_lock, keep, try_lock};

use serde_json::json;
use texgraph_core::Graph;

/// How long after an edit the graph is written (and at most how often). The web page's
/// storage is quick, and a page can be closed with no last frame to write in: it keeps
/// its copy closer behind.
pub const INTERVAL: Duration = if cfg!(target_arch = "wasm32") {
    Duration::from_millis(500)
} else {
    Duration::from_secs(3)
};

/// How often a running editor looks for work that other editors left behind (see
/// [`Watch`]).
pub const RESCAN: Duration = Duration::from_secs(3);

/// The folder of recovery files: `$XDG_STATE_HOME/texgraph`, else
/// `~/.local/state/texgraph`.
pub fn state_dir() -> Option<PathBuf> {
    crate::settings::xdg_folder("XDG_STATE_HOME", ".local/state")
}

/// This process's autosave. While it lives it holds the lock that tells other editors its
/// recovery file is not left behind; dropped, it removes the lock file unless a recovery
/// file is left for it to guard (work not closed cleanly, then offered by other editors).
#[derive(Debug)]
pub struct Autosave {
    /// The recovery file (`None`: autosave is off, as in tests).
    store: Option<PathBuf>,
    /// The recovery file's lock file, open and locked (`None`: autosave is off, or the
    /// lock could not be taken yet; it is tried again before each write).
    lock: Option<Held>,
    /// The edit generation last written (or known to need no writing).
    written: u64,
    /// When the edits not yet written are due.
    due: Option<Instant>,
    /// Whether a recovery copy was written since the last [`Autosave::clear`].
    on_disk: bool,
    /// The write under way in the background (a write syncs the file to disk, which can
    /// take a while: never on the UI thread, except on a signal).
    writing: Option<std::thread::JoinHandle<Result<(), String>>>,
    /// Why the last write failed, once (for the status bar).
    pub failure: Option<String>,
    /// The graphs the editor holds besides the one shown (parked on the way into a
    /// subgraph, or left with unsaved edits): written into the recovery file with it.
    pub others: Vec<OtherGraph>,
    /// Whether the graph shown has unsaved edits itself (its recovery copy may be written
    /// for the others' sake).
    pub shown_modified: bool,
}

/// A graph an editor holds besides the one it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherGraph {
    /// Its file.
    pub file: Option<PathBuf>,
    /// The graph.
    pub graph: Graph,
    /// On the trail down to the graph shown: the subgraph node opened from it (`None`:
    /// a graph left with unsaved edits).
    pub via: Option<String>,
    /// Whether it has unsaved edits.
    pub modified: bool,
}

impl Autosave {
    /// No autosave.
    pub fn off() -> Self {
        Self {
            store: None,
            lock: None,
            written: 0,
            due: None,
            on_disk: false,
            writing: None,
            failure: None,
            others: Vec::new(),
            shown_modified: true,
        }
    }

    /// Autosave into `dir` (made if needed), in a file named after this process and this
    /// moment, whose lock is taken at once.
    pub fn in_folder(dir: &Path) -> Self {
        let store = dir.join(format!(
            "recovery-{}-{}.json",
            storage::process_id(),
            unique_now()
        ));
        Self {
            lock: hold_lock(&lock_path(&store)),
            store: Some(store),
            written: 0,
            due: None,
            on_disk: false,
            writing: None,
            failure: None,
            others: Vec::new(),
            shown_modified: true,
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
        if let Some(lock) = &self.lock {
            storage::beat(lock);
        }
        if !modified && self.on_disk {
            // Nothing is unsaved any more, yet a copy was kept: its edits were undone
            // back to the saved state, and after a crash it would bring them back.
            self.clear(generation);
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
            if cfg!(target_arch = "wasm32") {
                // The web page has one thread, and its storage is quick.
                self.failure = keep(&store, &text).err();
            } else {
                self.writing = Some(std::thread::spawn(move || keep(&store, &text)));
            }
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
    /// Only the recovery file goes: the lock stays held while the editor runs (it is
    /// called after every save), and its file goes when the autosave is dropped.
    pub fn clear(&mut self, generation: u64) {
        // A write under way would bring the file back after the removal.
        self.finish_writing();
        self.failure = None;
        self.written = generation;
        self.due = None;
        self.on_disk = false;
        if let Some(store) = &self.store {
            storage::remove(store);
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
        if self.lock.is_none() {
            // Not taken at set-up (no folder yet?): a recovery file must not look left
            // behind while this editor runs.
            self.lock = hold_lock(&lock_path(&store));
        }
        self.due = None;
        self.written = generation;
        self.on_disk = true;
        let text = json!({
            "format": "texgraph-recovery",
            "version": 1,
            "saved_at": SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            // Absolute: the next start may be in another working directory.
            "file": file.map(absolute),
            "graph": serde_json::to_value(graph).expect("a graph always serializes"),
            "modified": self.shown_modified,
            "others": self.others.iter().map(|other| json!({
                "file": other.file.as_ref().map(|f| absolute(f)),
                "graph": serde_json::to_value(&other.graph).expect("a graph always serializes"),
                "via": other.via,
                "modified": other.modified,
            })).collect::<Vec<_>>(),
        });
        Some((store, text.to_string()))
    }
}

impl Drop for Autosave {
    fn drop(&mut self) {
        let Some(lock) = self.lock.take() else {
            return;
        };
        self.finish_writing();
        // With a recovery file still there (dropped without closing cleanly, as when the
        // editor panics) the lock file stays with it: once released, it says "left behind".
        if let Some(store) = &self.store
            && !storage::exists(store)
        {
            storage::remove(&lock_path(store));
        }
        drop(lock); // released after the removal: never a free lock beside a live file
    }
}

/// The lock file of recovery file `store`.
fn lock_path(store: &Path) -> PathBuf {
    store.with_extension("lock")
}

/// The time in nanoseconds since 1970, later than at any earlier call: several autosaves
/// set up in one process (as in tests) get files of their own.
fn unique_now() -> u64 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    let next = |last: u64| now.max(last.saturating_add(1));
    // The closure always gives a value: the update always succeeds.
    let last = LAST
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
            Some(next(last))
        })
        .unwrap_or_else(|last| last);
    next(last)
}

/// `path` made absolute, as text (the next start may be in another working directory).
fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_owned())
        .to_string_lossy()
        .into_owned()
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
    /// The other graphs the editor held: the trail down to the graph shown, then those
    /// left with unsaved edits.
    pub others: Vec<OtherGraph>,
    /// Whether the graph itself had unsaved edits (older recovery files: yes).
    pub modified: bool,
    /// The lock of the process that wrote it, taken by this one until the question is
    /// answered, so another editor running does not offer the same work (`None` for a
    /// recovery file without a lock file).
    claim: Option<Arc<Held>>,
}

impl PartialEq for Recovered {
    /// The same recovery file.
    fn eq(&self, other: &Self) -> bool {
        self.store == other.store
    }
}

impl Recovered {
    /// "marble.json" or "an untitled graph", for the question.
    pub fn name(&self) -> String {
        self.file.as_ref().map_or_else(
            || "an untitled graph".to_owned(),
            |f| f.display().to_string(),
        )
    }

    /// The files with unsaved edits: [`Self::name`] and the other graphs held with
    /// unsaved edits, or only those when the graph shown had none.
    pub fn names(&self) -> String {
        let others: Vec<String> = self
            .others
            .iter()
            .filter(|o| o.modified)
            .map(|o| {
                o.file.as_ref().map_or_else(
                    || "an untitled graph".to_owned(),
                    |f| f.display().to_string(),
                )
            })
            .collect();
        match (self.modified, others.is_empty()) {
            (_, true) => self.name(),
            (true, false) => format!("{} (and {})", self.name(), others.join(", ")),
            // Only the graphs above the one shown had edits.
            (false, false) => format!("{} (shown from {})", others.join(", "), self.name()),
        }
    }

    /// Removes the recovery file and its lock file (restored or discarded).
    pub fn forget(&self) {
        storage::remove(&self.store);
        // After the recovery file: a lock file alone is removed by whoever can lock it,
        // while a recovery file whose lock file is gone would be judged by its pid.
        storage::remove(&lock_path(&self.store));
    }
}

/// The recovery files in `dir` left by processes that are no longer running, newest
/// first. Files that do not read as a recovery are skipped (and left alone). Lock files
/// of ended processes that left no recovery file (they had nothing unsaved) are removed.
pub fn left_behind(dir: &Path) -> Vec<Recovered> {
    look_in(dir, |_| false)
}

/// [`left_behind`], but recovery files that `skip` says were seen already are not read.
fn look_in(dir: &Path, skip: impl Fn(&Path) -> bool) -> Vec<Recovered> {
    let Some(entries) = storage::listing(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (name, path) in entries {
        let Some(tag) = name.strip_prefix("recovery-") else {
            continue;
        };
        if let Some(tag) = tag.strip_suffix(".json") {
            if !skip(&path)
                && let Some(recovered) = examine(&path, tag)
            {
                found.push(recovered);
            }
        } else if tag.ends_with(".lock")
            && !skip(&path)
            && !storage::exists(&path.with_extension("json"))
            && let Lock::Free(lock) = try_lock(&path)
        {
            // Its process ended with nothing unsaved. Removed while locked: its
            // recovery file cannot appear meanwhile (its writer is gone).
            storage::remove(&path);
            drop(lock);
        }
    }
    found.sort_by_key(|r| std::cmp::Reverse(r.saved_at));
    found
}

/// The recovery file `store` named `recovery-<tag>.json`, when its writer is gone.
fn examine(store: &Path, tag: &str) -> Option<Recovered> {
    let (pid, locked) = match tag.split_once('-') {
        // An older editor's: no lock file.
        None => (tag.parse::<u32>().ok()?, false),
        Some((pid, start)) => {
            start.parse::<u64>().ok()?;
            (pid.parse::<u32>().ok()?, true)
        }
    };
    let claim = match locked.then(|| try_lock(&lock_path(store))) {
        Some(Lock::Held) => return None, // a running editor's
        Some(Lock::Free(lock)) => Some(Arc::new(lock)),
        Some(Lock::Unknown) | None => {
            if writer_running(pid, store) {
                return None;
            }
            None
        }
    };
    let mut found = read(store)?;
    found.claim = claim;
    Some(found)
}

fn read(store: &Path) -> Option<Recovered> {
    let text = storage::read(store)?;
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
        // Older recovery files have none.
        modified: value
            .get("modified")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true),
        others: value
            .get("others")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|other| {
                let text = |key: &str| other.get(key).and_then(serde_json::Value::as_str);
                Some(OtherGraph {
                    graph: Graph::from_json(&other.get("graph")?.to_string()).ok()?,
                    file: text("file").map(PathBuf::from),
                    via: text("via").map(str::to_owned),
                    modified: other
                        .get("modified")
                        .and_then(serde_json::Value::as_bool)
                        .unwrap_or(true),
                })
            })
            .collect(),
        claim: None,
    })
}

/// How closely a process's start and a file's time are known: the start time from
/// `/proc` to a clock tick (10 ms) and the uptime it counts from to 10 ms, a file's time to
/// a kernel tick (up to 10 ms). Within this, a process is taken for the file's writer.
const STARTS_KNOWN_TO: Duration = Duration::from_millis(50);

/// For a recovery file without a lock to go by: whether process `pid` is running and may
/// be the writer of `store`. A zombie (killed, not yet reaped) is not running, and a
/// process that started after the file was last written (by more than
/// [`STARTS_KNOWN_TO`]) is not its writer: its id was reused. When the start time cannot
/// be read, the process is taken for the writer.
fn writer_running(pid: u32, store: &Path) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let Some((state, start_ticks)) = parse_stat(&stat) else {
        return true;
    };
    if matches!(state, 'Z' | 'X' | 'x') {
        return false;
    }
    let written = std::fs::metadata(store).and_then(|m| m.modified());
    match (started_at(start_ticks), written) {
        (Some(started), Ok(written)) => started <= written + STARTS_KNOWN_TO,
        _ => true,
    }
}

/// The state letter and the start time (in clock ticks after boot) of a
/// `/proc/<pid>/stat` line.
fn parse_stat(stat: &str) -> Option<(char, u64)> {
    // The command name, in parentheses, may hold spaces and parentheses of its own.
    let fields = &stat[stat.rfind(')')? + 1..];
    let mut fields = fields.split_whitespace();
    let state = fields.next()?.chars().next()?; // field 3
    let start = fields.nth(18)?.parse().ok()?; // field 22
    Some((state, start))
}

/// When a process started `ticks` clock ticks after boot. The boot time is now less the
/// uptime, both to 10 ms (the whole seconds of `btime` in `/proc/stat` are too coarse to
/// tell a process started just after a file was written).
fn started_at(ticks: u64) -> Option<std::time::SystemTime> {
    let uptime = std::fs::read_to_string("/proc/uptime").ok()?;
    let uptime: f64 = uptime.split_whitespace().next()?.parse().ok()?;
    let boot =
        std::time::SystemTime::now().checked_sub(Duration::try_from_secs_f64(uptime).ok()?)?;
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(clock_ticks_per_second());
    boot.checked_add(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

/// The kernel's clock ticks per second of `/proc` times (`sysconf(_SC_CLK_TCK)`, read from
/// the process's auxiliary vector; 100 where it cannot be read, as on every common Linux).
fn clock_ticks_per_second() -> u64 {
    const AT_CLKTCK: usize = 17;
    const WORD: usize = size_of::<usize>();
    let Ok(auxv) = std::fs::read("/proc/self/auxv") else {
        return 100;
    };
    auxv.chunks_exact(2 * WORD)
        .find_map(|pair| {
            let key = usize::from_ne_bytes(pair[..WORD].try_into().ok()?);
            let value = usize::from_ne_bytes(pair[WORD..].try_into().ok()?);
            (key == AT_CLKTCK).then_some(value as u64)
        })
        .filter(|&ticks| ticks > 0)
        .unwrap_or(100)
}

/// A running editor's look-out for work that other editors leave behind while it runs
/// (an editor killed, or crashed): it looks in the folder every [`RESCAN`] and adds what
/// it has not offered before to the recoveries offered. Off unless set up, as in tests.
#[derive(Debug, Default)]
pub struct Watch {
    /// The folder of recovery files (`None`: off).
    dir: Option<PathBuf>,
    /// When to look next (`None`: at the next call).
    next: Option<Instant>,
    /// Recovery files offered already (answered or not): never offered again, even when
    /// they could not be removed.
    seen: HashSet<PathBuf>,
}

impl Watch {
    /// No looking.
    pub fn off() -> Self {
        Self::default()
    }

    /// Looks in `dir`, first at the next call of [`Watch::look`].
    pub fn in_folder(dir: &Path) -> Self {
        Self {
            dir: Some(dir.to_owned()),
            ..Self::default()
        }
    }

    /// Looks in the user's state folder.
    pub fn for_desktop() -> Self {
        state_dir().map_or_else(Self::off, |dir| Self::in_folder(&dir))
    }

    /// Called every frame with the recoveries offered: when a look is due, adds the work
    /// left behind that was not offered before. Cheap when no look is due. Returns how
    /// long until the next look (for a repaint), when on.
    ///
    /// `own` is this editor's recovery file: never offered, nor its lock touched, even
    /// where a lock taken by this process does not conflict with its own (NFS emulates
    /// `flock` with per-process locks).
    pub fn look(
        &mut self,
        now: Instant,
        offered: &mut Vec<Recovered>,
        own: Option<&Path>,
    ) -> Option<Duration> {
        let dir = self.dir.as_ref()?;
        if self.next.is_none_or(|next| now >= next) {
            self.seen.extend(offered.iter().map(|r| r.store.clone()));
            let seen = &self.seen;
            let own_lock = own.map(lock_path);
            let found = look_in(dir, |path| {
                seen.contains(path) || own == Some(path) || own_lock.as_deref() == Some(path)
            });
            self.seen.extend(found.iter().map(|r| r.store.clone()));
            offered.extend(found);
            self.next = Some(now + RESCAN);
        }
        self.next.map(|next| next.saturating_duration_since(now))
    }
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
        let lock = lock_path(&store);
        assert!(lock.exists(), "locked from the start");
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
        // Saved, the editor goes on: still locked.
        assert!(matches!(try_lock(&lock), Lock::Held));
        // Closed: nothing of it is left.
        drop(autosave);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_live_autosave_is_not_offered_and_an_abandoned_one_is() {
        let dir = tempfile::tempdir().unwrap();
        let mut autosave = Autosave::in_folder(dir.path());
        let mut edited = graph();
        edited.nodes[0]
            .params
            .insert("frequency".into(), texgraph_core::ParamValue::Number(11.0));
        // A subgraph left with unsaved edits on the way is kept with it.
        let mut veins = graph();
        veins.name = Some("veins".into());
        let parked = OtherGraph {
            file: Some(PathBuf::from("/work/library/veins.json")),
            graph: veins,
            via: Some("fine".into()),
            modified: true,
        };
        autosave.others = vec![parked.clone()];
        autosave.write_now(&edited, Some(Path::new("/work/marble.json")), 5);
        let store = autosave.store().unwrap().to_owned();
        // Live, in this very process (its lock is held through another open file, which
        // a lock taken here conflicts with all the same): not offered.
        assert!(left_behind(dir.path()).is_empty());
        // Another editor, live too, with nothing unsaved: its lock file stays.
        let other = Autosave::in_folder(dir.path());
        let other_lock = lock_path(other.store().unwrap());
        assert!(left_behind(dir.path()).is_empty());
        assert!(other_lock.exists());
        // Dropped without closing (as by a panic): the work is left behind.
        drop(autosave);
        assert!(store.exists() && lock_path(&store).exists());
        let found = left_behind(dir.path());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].store, store);
        assert_eq!(found[0].graph, edited);
        assert_eq!(found[0].name(), "/work/marble.json");
        assert_eq!(found[0].others, [parked]);
        assert_eq!(
            found[0].names(),
            "/work/marble.json (and /work/library/veins.json)"
        );
        let age = SystemTime::now().duration_since(found[0].saved_at).unwrap();
        assert!(age < Duration::from_secs(60));
        // Offered here, it is not offered again (as by another editor) until answered.
        assert!(left_behind(dir.path()).is_empty());
        found[0].forget();
        assert!(!store.exists() && !lock_path(&store).exists());
        drop(found);
        // A lock file of a process that ended with nothing unsaved is tidied away.
        drop(other);
        std::fs::write(&other_lock, "").unwrap();
        assert!(left_behind(dir.path()).is_empty());
        assert!(!other_lock.exists());
    }

    #[test]
    fn files_without_a_lock_are_judged_by_their_process() {
        let dir = tempfile::tempdir().unwrap();
        let mut autosave = Autosave::in_folder(dir.path());
        autosave.write_now(&graph(), None, 1);
        let text = std::fs::read(autosave.store().unwrap()).unwrap();
        // An older editor's, of a process that has ended (pids this large are not in use).
        let gone = dir.path().join("recovery-4000000000.json");
        std::fs::write(&gone, &text).unwrap();
        std::fs::write(dir.path().join("recovery-4000000001.json"), "not json").unwrap();
        // Of this process, written just now: its writer may be running.
        let ours = dir
            .path()
            .join(format!("recovery-{}.json", std::process::id()));
        std::fs::write(&ours, &text).unwrap();
        // Of this process's id, written before it started: its id was reused.
        let before = dir
            .path()
            .join(format!("recovery-{}-1.json", std::process::id()));
        std::fs::write(&before, &text).unwrap();
        let long_ago = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        std::fs::File::options()
            .write(true)
            .open(&before)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        let mut found: Vec<_> = left_behind(dir.path())
            .into_iter()
            .map(|r| r.store)
            .collect();
        found.sort();
        let mut expected = [before.clone(), gone.clone()];
        expected.sort();
        assert_eq!(found, expected);
        assert!(writer_running(std::process::id(), &ours));
        assert!(!writer_running(std::process::id(), &before));
    }

    #[test]
    fn proc_stat_lines_read() {
        let line = "4242 (a (b) c) Z 1 4242 4242 0 -1 4194560 80 0 0 0 1 0 0 0 20 0 1 0 \
                    987654 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        assert_eq!(parse_stat(line), Some(('Z', 987_654)));
        assert_eq!(parse_stat("4242 (x) R 1"), None);
        let own = std::fs::read_to_string("/proc/self/stat").unwrap();
        let (state, ticks) = parse_stat(&own).unwrap();
        assert!(!matches!(state, 'Z' | 'X'), "{state}");
        let started = started_at(ticks).unwrap();
        // This test process started moments ago (a wrong tick rate would be hours off).
        let age = SystemTime::now().duration_since(started).unwrap();
        assert!(age < Duration::from_secs(3600), "{age:?}");
        assert!(clock_ticks_per_second() > 0);
    }

    #[test]
    fn the_watch_never_offers_this_editors_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut own = Autosave::in_folder(dir.path());
        own.write_now(&graph(), None, 1);
        let store = own.store().unwrap().to_owned();
        // Its lock released, as where a process's own locks do not conflict (NFS).
        drop(own);
        let mut watch = Watch::in_folder(dir.path());
        let mut offered = Vec::new();
        let now = Instant::now();
        watch.look(now, &mut offered, Some(&store));
        assert!(offered.is_empty());
        assert!(lock_path(&store).exists(), "its lock file is left alone");
        // Any other editor's look finds it.
        watch.look(now + RESCAN, &mut offered, None);
        assert_eq!(offered.len(), 1);
    }

    #[test]
    fn the_watch_offers_each_leftover_once_and_looks_again_later() {
        let dir = tempfile::tempdir().unwrap();
        let mut watch = Watch::in_folder(dir.path());
        let mut offered = Vec::new();
        let start = Instant::now();
        assert_eq!(watch.look(start, &mut offered, None), Some(RESCAN));
        assert!(offered.is_empty());
        // Left behind after the first look (an editor dropped without closing).
        let mut gone = Autosave::in_folder(dir.path());
        gone.write_now(&graph(), None, 1);
        drop(gone);
        // And an older editor's, which has no lock to claim.
        let old = dir.path().join("recovery-4000000000.json");
        std::fs::copy(
            std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|e| e == "json"))
                .unwrap(),
            &old,
        )
        .unwrap();
        // Not looked for before RESCAN.
        let soon = start + RESCAN / 2;
        assert_eq!(watch.look(soon, &mut offered, None), Some(RESCAN / 2));
        assert!(offered.is_empty());
        let later = start + RESCAN;
        assert_eq!(watch.look(later, &mut offered, None), Some(RESCAN));
        assert_eq!(offered.len(), 2);
        // Offered once, even while still on disk.
        watch.look(later + RESCAN, &mut offered, None);
        assert_eq!(offered.len(), 2);
        offered.clear();
        watch.look(later + RESCAN * 2, &mut offered, None);
        assert!(offered.is_empty());
        assert_eq!(Watch::off().look(later, &mut offered, None), None);
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
