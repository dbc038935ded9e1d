//! Files written through temporaries. A file is first *staged*: written in full to a
//! hidden temporary beside its target. Staged files are then *committed* together by
//! renaming, so a reader sees either the old files or the whole new set, never a
//! half-written file or half a set. Temporaries are removed when anything fails, when a
//! staged file is dropped, and (through [`remove_pending`]) when the process is
//! interrupted by a signal; so are the folders made for them ([`make_folders`]) that are
//! still empty.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

use crate::error::{Error, Result};

/// What a staged file is written through: its temporary.
pub type Sink = File;

/// Paths of the temporaries that exist right now. The lock is also held while a set is
/// being committed, so a signal handler waits for the renames to finish as a whole.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

fn forget(list: &mut Vec<PathBuf>, path: &Path) {
    if let Some(i) = list.iter().position(|p| p == path) {
        list.swap_remove(i);
    }
}

/// A file written in full to a temporary beside its target, waiting to be committed.
/// Dropping it removes the temporary and leaves the target as it was.
#[derive(Debug)]
pub struct Staged {
    temp: Option<NamedTempFile>,
    target: PathBuf,
}

impl Staged {
    /// The file this will become.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the temporary over the target.
    pub fn commit(self) -> Result<()> {
        commit_all(vec![self])
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            forget(&mut pending(), temp.path());
            // Dropping the temporary removes it.
        }
    }
}

/// Writes `path`'s future contents through `write` into a temporary in the same
/// directory (so the commit is a rename). Nothing at `path` changes yet.
pub fn stage(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<Staged> {
    let io = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    check_target(path)?;
    let dir = folder(path);
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{}.", file_name(path));
    builder.prefix(&prefix).suffix(".tmp");
    // Temporaries are private; the result should look like any other file written here.
    let permissions = match std::fs::metadata(path) {
        Ok(existing) => Some(existing.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let temp = {
        // Registered before it can exist on disk, so a signal never misses it.
        let mut list = pending();
        let temp = builder.tempfile_in(dir).map_err(io)?;
        list.push(temp.path().to_owned());
        temp
    };
    let mut staged = Staged {
        temp: Some(temp),
        target: path.to_owned(),
    };
    let file = staged.temp.as_mut().expect("just staged").as_file_mut();
    write(file)?;
    file.sync_all().map_err(io)?;
    Ok(staged)
}

/// Whether a file can be written at `path` by rename: not when a folder is there.
pub fn check_target(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(Error::Io {
            path: path.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "a folder is in the way"),
        });
    }
    Ok(())
}

/// Renames every staged file over its target: all of them, or (when a rename fails)
/// none, with the targets that were already replaced put back as they were.
pub fn commit_all(mut files: Vec<Staged>) -> Result<()> {
    let mut list = pending();
    // With more than one file, a failure half-way must be undone: each existing target
    // is first kept under a second name (a hard link, so no data is copied).
    let keep = files.len() > 1;
    let mut done: Vec<(PathBuf, Option<NamedTempFile<()>>)> = Vec::new();
    let mut failure = None;
    for file in &mut files {
        let temp = file.temp.take().expect("a staged file is committed once");
        forget(&mut list, temp.path());
        if failure.is_some() {
            // Not reached: dropping the temporary removes it.
            continue;
        }
        let target = file.target.clone();
        let backup = if keep && target.exists() {
            match backup_of(&target) {
                Ok(backup) => Some(backup),
                Err(source) => {
                    failure = Some(Error::Io {
                        path: target,
                        source,
                    });
                    continue;
                }
            }
        } else {
            None
        };
        match temp.persist(&target) {
            Ok(_) => done.push((target, backup)),
            Err(e) => {
                failure = Some(Error::Io {
                    path: target,
                    source: e.error,
                })
            }
        }
    }
    let Some(failure) = failure else {
        // Dropping the backups removes them.
        return Ok(());
    };
    for (target, backup) in done.into_iter().rev() {
        match backup {
            Some(backup) => {
                let _ = backup.persist(&target);
            }
            None => {
                let _ = std::fs::remove_file(&target);
            }
        }
    }
    Err(failure)
}

/// A hard link to `target` under a hidden name beside it, removed when dropped.
fn backup_of(target: &Path) -> std::io::Result<NamedTempFile<()>> {
    tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name(target)))
        .suffix(".old")
        .make_in(folder(target), |link| std::fs::hard_link(target, link))
}

/// Folders made for files about to be written, not yet known to be kept.
static PENDING_FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending_folders() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING_FOLDERS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Folders [`make_folders`] made. Unless [`MadeFolders::keep`] is called, dropping it
/// removes them again (those still empty, deepest first), and so does a signal that ends
/// the process ([`remove_pending`]): a failed or interrupted write leaves no empty folder.
#[derive(Debug, Default)]
pub struct MadeFolders {
    /// Outermost first.
    made: Vec<PathBuf>,
}

impl MadeFolders {
    /// Keeps the folders (what was written into them is in place).
    pub fn keep(mut self) {
        let mut list = pending_folders();
        for dir in self.made.drain(..) {
            forget(&mut list, &dir);
        }
    }
}

impl Drop for MadeFolders {
    fn drop(&mut self) {
        let mut list = pending_folders();
        for dir in self.made.drain(..).rev() {
            forget(&mut list, &dir);
            // Only an empty folder goes: another write may have put a file there.
            let _ = std::fs::remove_dir(&dir);
        }
    }
}

/// Makes `dir` and any missing folders above it, remembering which it made.
pub fn make_folders(dir: &Path) -> Result<MadeFolders> {
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| !a.exists())
        .map(Path::to_owned)
        .collect();
    missing.reverse();
    pending_folders().extend(missing.iter().cloned());
    // Dropped on failure: what was made of the path goes again.
    let made = MadeFolders { made: missing };
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_owned(),
        source,
    })?;
    Ok(made)
}

/// Writes `path` through `write` on a temporary file in the same directory, then renames
/// it over `path`. On any failure the temporary file is removed and `path` is untouched.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    stage(path, write)?.commit()
}

/// Removes every temporary that is still being written or waiting for its commit, after
/// any commit under way has finished. For signal handlers: the process exits next.
pub fn remove_pending() {
    let mut list = pending();
    for path in list.drain(..) {
        let _ = std::fs::remove_file(path);
    }
    // Then the folders made for them, deepest first, when empty.
    let mut folders = pending_folders();
    folders.sort_by_key(|dir| std::cmp::Reverse(dir.components().count()));
    for dir in folders.drain(..) {
        let _ = std::fs::remove_dir(dir);
    }
    std::mem::forget(folders);
    // Keep the lock: no commit may start between this and the exit.
    std::mem::forget(list);
}

/// Removes every pending temporary from inside a SIGABRT handler (an allocation that
/// failed, or any other abort): it allocates nothing and waits for no lock, so a
/// temporary is left only when the aborting thread was itself staging or committing.
#[cfg(target_os = "linux")]
pub fn remove_pending_on_abort() {
    use std::os::unix::ffi::OsStrExt;
    let list = match PENDING.try_lock() {
        Ok(list) => list,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for path in list.iter() {
        let bytes = path.as_os_str().as_bytes();
        // A C string on the stack: the heap may be what failed.
        let mut name = [0u8; 4096];
        if bytes.len() < name.len() && !bytes.contains(&0) {
            name[..bytes.len()].copy_from_slice(bytes);
            // SAFETY: `name` is NUL-terminated and outlives the call.
            unsafe { libc::unlink(name.as_ptr().cast()) };
        }
    }
}

fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staged(path: &Path, text: &str) -> Staged {
        stage(path, |file| {
            use std::io::Write;
            file.write_all(text.as_bytes()).map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })
        })
        .unwrap()
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_set_is_committed_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::fs::write(&a, "old a").unwrap();
        let set = vec![staged(&a, "new a"), staged(&b, "new b")];
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        commit_all(set).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(entries(dir.path()), ["a.txt", "b.txt"]);
    }

    #[test]
    fn a_failed_rename_puts_back_the_files_already_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            dir.path().join("a.txt"),
            dir.path().join("b.txt"),
            dir.path().join("c.txt"),
        );
        std::fs::write(&b, "old b").unwrap();
        let set = vec![
            staged(&a, "new a"),
            staged(&b, "new b"),
            staged(&c, "new c"),
        ];
        // A folder appears where the last file goes after it was staged.
        std::fs::create_dir(&c).unwrap();
        assert!(commit_all(set).is_err());
        assert!(!a.exists(), "a did not exist before and must not now");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "old b");
        assert!(c.is_dir());
        assert_eq!(entries(dir.path()), ["b.txt", "c.txt"]);
    }

    #[test]
    fn dropping_a_staged_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "old").unwrap();
        let file = staged(&a, "new");
        assert_eq!(entries(dir.path()).len(), 2);
        drop(file);
        assert_eq!(entries(dir.path()), ["a.txt"]);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old");
        assert!(!pending().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn folders_made_for_a_write_that_fails_go_again() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        drop(make_folders(&deep).unwrap());
        assert!(entries(dir.path()).is_empty());
        // A folder that was there stays; one a file went into stays.
        std::fs::create_dir(dir.path().join("a")).unwrap();
        let made = make_folders(&deep).unwrap();
        std::fs::write(dir.path().join("a/b/file"), "kept").unwrap();
        drop(made);
        assert_eq!(entries(&dir.path().join("a")), ["b"]);
        assert_eq!(entries(&dir.path().join("a/b")), ["file"]);
        make_folders(&dir.path().join("x/y")).unwrap().keep();
        assert!(dir.path().join("x/y").is_dir());
        assert!(!pending_folders().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn a_folder_in_the_way_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.png");
        std::fs::create_dir(&a).unwrap();
        let error = stage(&a, |_| unreachable!("nothing is written")).unwrap_err();
        assert!(
            error.to_string().contains("a folder is in the way"),
            "{error}"
        );
        assert_eq!(entries(dir.path()), ["a.png"]);
    }
}
