//! Where recovery files live on the desktop: a folder, with `flock` locks (see the
//! parent module).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// A lock held for as long as this lives.
pub type Held = File;

/// What a lock file says of its process.
pub enum Lock {
    /// Locked now by us: its process is gone.
    Free(Held),
    /// Locked by a running process.
    Held,
    /// No lock file, or it cannot be locked here.
    Unknown,
}

/// Makes the lock file `lock` and locks it, for the life of the returned
/// file. It is made under a temporary name and renamed into place once locked, so another
/// editor never finds it unlocked while its writer runs (and takes it for left behind).
pub fn hold_lock(lock: &Path) -> Option<Held> {
    let dir = lock.parent()?;
    let _ = std::fs::create_dir_all(dir);
    let temp = dir.join(format!(".{}.new", lock.file_name()?.to_string_lossy()));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&temp)
        .ok()?;
    if file.try_lock().is_ok() && std::fs::rename(&temp, lock).is_ok() {
        Some(file)
    } else {
        let _ = std::fs::remove_file(&temp);
        None
    }
}

/// Whether the lock file `lock` is held.
pub fn try_lock(lock: &Path) -> Lock {
    // Opened for writing too: an exclusive lock on NFS needs it.
    let Ok(file) = OpenOptions::new().read(true).write(true).open(lock) else {
        return Lock::Unknown;
    };
    match file.try_lock() {
        Ok(()) => Lock::Free(file),
        Err(TryLockError::WouldBlock) => Lock::Held,
        Err(TryLockError::Error(_)) => Lock::Unknown,
    }
}

/// Tells that the lock's holder still runs: the kernel knows already.
pub fn beat(_held: &Held) {}

/// Writes a recovery file atomically, making its folder if needed.
pub fn keep(store: &Path, text: &str) -> Result<(), String> {
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

/// The text of the file `path`.
pub fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Removes the file `path`, if there.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

/// Whether a file is at `path`.
pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// The files in `dir`, by name and path (`None`: it cannot be read).
pub fn listing(dir: &Path) -> Option<Vec<(String, PathBuf)>> {
    let entries = std::fs::read_dir(dir).ok()?;
    Some(
        entries
            .flatten()
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .collect(),
    )
}

/// This process's id, in its files' names.
pub fn process_id() -> u32 {
    std::process::id()
}
