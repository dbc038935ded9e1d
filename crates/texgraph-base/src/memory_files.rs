//! The files of a process without a file system: the web page's. What the page is handed
//! (a graph opened, an image picked or dropped) is put here under a path, and what the
//! layers write ([`crate::staging`] commits) lands here, where the page takes it to offer
//! as a download. On other targets nothing uses it but its tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Every file, by path.
static FILES: Mutex<BTreeMap<PathBuf, Arc<[u8]>>> = Mutex::new(BTreeMap::new());

/// The files written since [`take_written`] was last called, in the order of writing.
static WRITTEN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn files() -> MutexGuard<'static, BTreeMap<PathBuf, Arc<[u8]>>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Puts `bytes` at `path` (a file handed to the page), replacing what was there.
pub fn put(path: &Path, bytes: impl Into<Arc<[u8]>>) {
    files().insert(path.to_owned(), bytes.into());
}

/// Writes `bytes` at `path` as the layers' writes do: like [`put`], and listed for
/// [`take_written`].
pub fn write(path: &Path, bytes: impl Into<Arc<[u8]>>) {
    put(path, bytes);
    let mut written = WRITTEN.lock().unwrap_or_else(|e| e.into_inner());
    written.retain(|p| p != path);
    written.push(path.to_owned());
}

/// The bytes at `path`, if a file is there.
pub fn get(path: &Path) -> Option<Arc<[u8]>> {
    files().get(path).cloned()
}

/// Removes the file at `path`.
pub fn remove(path: &Path) {
    files().remove(path);
}

/// The files written since the last call, each with its bytes, oldest first; a file
/// removed since is left out.
pub fn take_written() -> Vec<(PathBuf, Arc<[u8]>)> {
    let paths = std::mem::take(&mut *WRITTEN.lock().unwrap_or_else(|e| e.into_inner()));
    let files = files();
    paths
        .into_iter()
        .filter_map(|path| files.get(&path).cloned().map(|bytes| (path, bytes)))
        .collect()
}

/// An error reading `path` when no file is there.
pub fn not_found(path: &Path) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!("no file {} was opened in this page", path.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_are_taken_once_in_order_and_stay_readable() {
        let (a, b) = (Path::new("/t/mf/a.png"), Path::new("/t/mf/b.png"));
        put(Path::new("/t/mf/opened.json"), b"{}".to_vec());
        write(a, b"one".to_vec());
        write(b, b"two".to_vec());
        write(a, b"three".to_vec());
        let taken: Vec<_> = take_written()
            .into_iter()
            .filter(|(p, _)| p.starts_with("/t/mf"))
            .map(|(p, bytes)| (p, bytes.to_vec()))
            .collect();
        assert_eq!(
            taken,
            vec![
                (b.to_owned(), b"two".to_vec()),
                (a.to_owned(), b"three".to_vec())
            ]
        );
        assert!(take_written().iter().all(|(p, _)| !p.starts_with("/t/mf")));
        assert_eq!(get(a).as_deref(), Some(&b"three"[..]));
        assert!(get(Path::new("/t/mf/opened.json")).is_some());
        remove(a);
        assert!(get(a).is_none());
    }
}
