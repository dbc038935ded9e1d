//! Where recovery files live in the web page: the browser's `localStorage`, one entry a
//! file, named by its path. A page cannot lock anything another page would see end with
//! it, so a lock is a heartbeat: the entry `lock` holds the time its page last said it
//! runs ([`beat`], every frame at most once a second), and a page that closes removes it
//! ([`page_closing`]). A lock not renewed for [`STALE_MS`] is free: its page ended
//! without closing (the tab crashed, the browser was killed).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How long a page's heartbeat stays fresh without being renewed.
pub const STALE_MS: f64 = 5_000.0;

/// The lock this page holds, for [`page_closing`].
static HELD: Mutex<Option<PathBuf>> = Mutex::new(None);

/// A lock this page holds: its heartbeat entry.
#[derive(Debug)]
pub struct Held {
    lock: PathBuf,
    /// When the last heartbeat was written, in milliseconds since 1970 (an `f64`'s bits).
    last: AtomicU64,
}

/// What a lock entry says of its page.
pub enum Lock {
    /// Not renewed lately (or removed as its page closed): its page is gone.
    Free(Held),
    /// Renewed lately: its page is open.
    Held,
    /// No lock entry.
    Unknown,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Takes the lock `lock` for this page: its first heartbeat.
pub fn hold_lock(lock: &Path) -> Option<Held> {
    let held = Held {
        lock: lock.to_owned(),
        last: AtomicU64::new(0),
    };
    beat(&held);
    *HELD.lock().unwrap_or_else(|e| e.into_inner()) = Some(lock.to_owned());
    Some(held)
}

/// Whether the lock entry `lock` is held by an open page.
pub fn try_lock(lock: &Path) -> Lock {
    let Some(text) = storage().and_then(|s| s.get_item(&key(lock)).ok().flatten()) else {
        return Lock::Unknown;
    };
    let beat_at = text.parse::<f64>().unwrap_or(0.0);
    if js_sys::Date::now() - beat_at < STALE_MS {
        return Lock::Held;
    }
    Lock::Free(Held {
        lock: lock.to_owned(),
        last: AtomicU64::new(beat_at.to_bits()),
    })
}

/// Renews this page's heartbeat, at most once a second.
pub fn beat(held: &Held) {
    let now = js_sys::Date::now();
    let last = f64::from_bits(held.last.load(Ordering::Relaxed));
    if now - last >= 1_000.0
        && let Some(storage) = storage()
        && storage.set_item(&key(&held.lock), &now.to_string()).is_ok()
    {
        held.last.store(now.to_bits(), Ordering::Relaxed);
    }
}

/// The page is closing (or reloading): its lock goes, so the next page offers its
/// unsaved work at once.
pub fn page_closing() {
    if let Some(lock) = HELD.lock().unwrap_or_else(|e| e.into_inner()).take() {
        remove(&lock);
    }
}

/// Writes the recovery entry `store`.
pub fn keep(store: &Path, text: &str) -> Result<(), String> {
    let storage =
        storage().ok_or("cannot keep a recovery copy: this browser has no local storage")?;
    storage
        .set_item(&key(store), text)
        .map_err(|_| "cannot keep a recovery copy: the browser's storage is full".to_owned())
}

/// The text of the entry `path`.
pub fn read(path: &Path) -> Option<String> {
    storage()?.get_item(&key(path)).ok()?
}

/// Removes the entry `path`, if there.
pub fn remove(path: &Path) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(&key(path));
    }
}

/// Whether an entry is at `path`.
pub fn exists(path: &Path) -> bool {
    read(path).is_some()
}

/// The entries in the folder `dir`, by name and path.
pub fn listing(dir: &Path) -> Option<Vec<(String, PathBuf)>> {
    let storage = storage()?;
    let count = storage.length().ok()?;
    Some(
        (0..count)
            .filter_map(|i| storage.key(i).ok().flatten())
            .map(PathBuf::from)
            .filter(|path| path.parent() == Some(dir))
            .filter_map(|path| Some((path.file_name()?.to_string_lossy().into_owned(), path)))
            .collect(),
    )
}

/// A page has no process id of its own: its files are told apart by the time in their
/// names.
pub fn process_id() -> u32 {
    0
}
