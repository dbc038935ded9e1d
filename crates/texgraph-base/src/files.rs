//! Reading the files users hand over (graphs, presets, manifests) without trusting them.

use std::path::Path;

use crate::error::{Error, Result};

/// Reads a text file of at most `limit` bytes (`what` names such files in the message).
/// Only regular files are read, so a device, a pipe or a huge file is refused at once
/// instead of hanging or filling memory.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String> {
    let fail = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    let refuse = |message: String| fail(std::io::Error::other(message));
    if cfg!(target_arch = "wasm32") {
        // The web page has no file system: its files are those it was handed.
        let bytes = crate::memory_files::get(path)
            .ok_or_else(|| fail(crate::memory_files::not_found(path)))?;
        if bytes.len() as u64 > limit {
            return Err(refuse(too_large(bytes.len() as u64, limit, what)));
        }
        return String::from_utf8(bytes.to_vec()).map_err(|_| refuse("not UTF-8 text".to_owned()));
    }
    use std::io::Read;
    // Looked at before opening: opening a pipe would wait for a writer.
    let meta = std::fs::metadata(path).map_err(fail)?;
    if !meta.is_file() {
        return Err(refuse("not a regular file".to_owned()));
    }
    if meta.len() > limit {
        return Err(refuse(too_large(meta.len(), limit, what)));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(fail)?
        .take(limit + 1)
        .read_to_string(&mut text)
        .map_err(fail)?;
    if text.len() as u64 > limit {
        return Err(refuse(format!(
            "grew past {} MiB while being read",
            limit >> 20
        )));
    }
    Ok(text)
}

fn too_large(len: u64, limit: u64, what: &str) -> String {
    format!(
        "{} MiB; {what} are read up to {} MiB",
        len >> 20,
        limit >> 20
    )
}
