//! Staging where there is no file system (the web page): a file is staged in memory and
//! committed to [`crate::memory_files`], a set all at once. The same calls as on disk, so
//! every export writes through one path on every target.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::memory_files;

/// What a staged file is written through: a buffer in memory.
pub type Sink = Cursor<Vec<u8>>;

/// A file written in full, waiting to be committed. Dropping it leaves the target as it
/// was.
#[derive(Debug)]
pub struct Staged {
    bytes: Vec<u8>,
    target: PathBuf,
}

impl Staged {
    /// The file this will become.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Puts the file at its target.
    pub fn commit(self) -> Result<()> {
        commit_all(vec![self])
    }
}

/// Writes `path`'s future contents through `write` into memory. Nothing at `path`
/// changes yet.
pub fn stage(path: &Path, write: impl FnOnce(&mut Sink) -> Result<()>) -> Result<Staged> {
    let mut sink = Cursor::new(Vec::new());
    write(&mut sink)?;
    Ok(Staged {
        bytes: sink.into_inner(),
        target: path.to_owned(),
    })
}

/// Whether a file can be written at `path`: always, in memory.
pub fn check_target(_path: &Path) -> Result<()> {
    Ok(())
}

/// Puts every staged file at its target; nothing can fail half-way.
pub fn commit_all(files: Vec<Staged>) -> Result<()> {
    for file in files {
        memory_files::write(&file.target, file.bytes);
    }
    Ok(())
}

/// Folders made for a write: memory has none to make.
#[derive(Debug, Default)]
pub struct MadeFolders;

impl MadeFolders {
    /// Keeps the folders (there are none).
    pub fn keep(self) {}
}

/// Makes `dir`: nothing to do in memory.
pub fn make_folders(_dir: &Path) -> Result<MadeFolders> {
    Ok(MadeFolders)
}

/// Writes `path` through `write`, then puts it at `path`; on failure `path` is untouched.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut Sink) -> Result<()>) -> Result<()> {
    stage(path, write)?.commit()
}

/// Nothing is pending between a stage and its commit in memory.
pub fn remove_pending() {}
