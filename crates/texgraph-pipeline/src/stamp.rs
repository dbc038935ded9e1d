//! Jobs already done: a job's *key* hashes (BLAKE3) everything its files come from —
//! texgraph's version, the job's graph with its params and seed applied, what it writes
//! (files, size, depth, region, the preset and its definition) and the bytes of every
//! file the graph reads (subgraphs, images). Once a job's files are in place, a *stamp*
//! beside them records the key and each file's length; a later run skips the job while
//! the key is the same and the files are there at those lengths. Contents decide, not
//! times: a file touched but unchanged renders nothing, one changed renders its jobs.
//! Paths enter the key as the graph and the manifest write them (relative to their
//! folders), so a manifest named from another folder, or by an absolute path, finds its
//! jobs up to date all the same.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};
use texgraph_core::{ExportRequest, Graph};

/// Largest stamp read, in bytes: a key and a list of file names.
const MAX_STAMP_BYTES: u64 = 1 << 20;

/// The keys of one run's jobs, with each file a graph reads hashed once.
#[derive(Default)]
pub struct Keys {
    hashes: Mutex<HashMap<PathBuf, String>>,
}

impl Keys {
    /// The key of rendering `graph` (its file params as its file writes them) as `request`
    /// says (its paths relative to the manifest's folder), reading the files `reads`.
    pub fn of(&self, graph: &Graph, request: &ExportRequest, reads: &[PathBuf]) -> String {
        let mut hasher = blake3::Hasher::new();
        let mut part = |text: &str| {
            // Each part's length first, so no two lists of parts hash alike.
            hasher.update(&(text.len() as u64).to_le_bytes());
            hasher.update(text.as_bytes());
        };
        part(concat!("texgraph ", env!("CARGO_PKG_VERSION")));
        part(&graph.to_json());
        part(&format!("{request:?}"));
        // The graph names the files (as written); their contents, in its order, decide.
        for file in reads {
            part(&self.content_hash(file));
        }
        // The built-in library graphs it uses, as this program holds them.
        for name in texgraph_core::paths::library_used(graph) {
            part(texgraph_core::library::text(&name).unwrap_or("missing"));
        }
        hasher.finalize().to_hex().to_string()
    }

    /// The hash of a file's bytes (of a missing or unreadable file, a word saying so).
    fn content_hash(&self, path: &Path) -> String {
        if let Some(hash) = self
            .hashes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
        {
            return hash.clone();
        }
        let hash = match std::fs::File::open(path) {
            Ok(file) => {
                let mut hasher = blake3::Hasher::new();
                match hasher.update_reader(file) {
                    Ok(_) => hasher.finalize().to_hex().to_string(),
                    Err(e) => format!("unreadable: {e}"),
                }
            }
            Err(e) => format!("unreadable: {e}"),
        };
        self.hashes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_owned(), hash.clone());
        hash
    }
}

/// Where the stamp of a job whose first file (or preset folder) is `first` goes: beside
/// it, hidden, `.NAME.texgraph-stamp`.
pub fn stamp_path(first: &Path) -> PathBuf {
    let name = first
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    first.with_file_name(format!(".{name}.texgraph-stamp"))
}

/// Whether the stamp at `stamp` holds `key` and every file it lists (relative to
/// `folder`, the manifest's) is there at its length.
pub fn is_up_to_date(stamp: &Path, key: &str, folder: &Path) -> bool {
    let Ok(text) = texgraph_core::files::read_text(stamp, MAX_STAMP_BYTES, "stamps") else {
        return false;
    };
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return false;
    };
    if value.get("key").and_then(Value::as_str) != Some(key) {
        return false;
    }
    let Some(files) = value.get("files").and_then(Value::as_array) else {
        return false;
    };
    files.iter().all(|entry| {
        let (Some(path), Some(len)) = (
            entry.get("path").and_then(Value::as_str),
            entry.get("bytes").and_then(Value::as_u64),
        ) else {
            return false;
        };
        std::fs::metadata(folder.join(path)).is_ok_and(|m| m.is_file() && m.len() == len)
    })
}

/// Writes the stamp of a job whose `files` (paths relative to `folder`, the manifest's)
/// were just written, under `key`.
pub fn write(
    stamp: &Path,
    key: &str,
    files: &[PathBuf],
    folder: &Path,
) -> texgraph_core::Result<()> {
    let files: Vec<Value> = files
        .iter()
        .map(|name| {
            let bytes = std::fs::metadata(folder.join(name)).map_or(0, |m| m.len());
            json!({ "path": name.to_string_lossy(), "bytes": bytes })
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({ "key": key, "files": files }))
        .expect("a stamp serializes");
    texgraph_core::staging::write_atomically(stamp, |file| {
        use std::io::Write;
        file.write_all(text.as_bytes())
            .map_err(|source| texgraph_core::Error::Io {
                path: stamp.to_owned(),
                source,
            })
    })
}
