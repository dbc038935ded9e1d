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

/// What a file is read from: the file itself, buffered, or (in the web page, which has no
/// file system) the bytes it was handed ([`crate::memory_files`]).
pub trait Source: std::io::BufRead + std::io::Seek {}

impl<T: std::io::BufRead + std::io::Seek> Source for T {}

/// Opens `path` for reading: the file, or in the web page the bytes put at `path`. One
/// type for both, so decoders are compiled once.
pub fn open(path: &Path) -> std::io::Result<Box<dyn Source>> {
    if cfg!(target_arch = "wasm32") {
        let bytes =
            crate::memory_files::get(path).ok_or_else(|| crate::memory_files::not_found(path))?;
        Ok(Box::new(std::io::Cursor::new(bytes)))
    } else {
        Ok(Box::new(std::io::BufReader::new(std::fs::File::open(
            path,
        )?)))
    }
}
