//! The example graphs and their images, carried in the page and put where the editor
//! opens files from ([`texgraph_core::memory_files`], under [`FOLDER`]).

use std::path::{Path, PathBuf};

/// Where the examples are: `/examples/marble.json`, `/examples/images/marble.png`.
pub const FOLDER: &str = "/examples";

/// Each example file's path below [`FOLDER`] and its bytes (listed by `build.rs`).
const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// Puts the examples in memory, where opening them reads them.
pub fn install() {
    for (name, bytes) in FILES {
        texgraph_core::memory_files::put(&Path::new(FOLDER).join(name), *bytes);
    }
}

/// The example graphs, by name ("marble") and path.
pub fn graphs() -> Vec<(&'static str, PathBuf)> {
    FILES
        .iter()
        .filter_map(|(name, _)| Some((name.strip_suffix(".json")?, Path::new(FOLDER).join(name))))
        .collect()
}

/// The graph shown when the page opens without a link: the marble.
pub fn first() -> PathBuf {
    Path::new(FOLDER).join("marble.json")
}
