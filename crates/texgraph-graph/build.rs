//! Embeds the library of graph files (`graphs/library/*.json`) into the crate, so every
//! front end (the CLI, the editor, the Python module, the web page) offers the same
//! built-in library, whatever folder it runs from.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    let folder = Path::new(&manifest).join("../../graphs/library");
    // The folder itself, so a graph added or removed is seen; each file's content is a
    // dependency through include_str!.
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut table = String::from("&[\n");
    for path in files {
        let name = path.file_stem().expect("a file").to_string_lossy();
        let path = path.canonicalize().expect("listed just now");
        writeln!(
            table,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("a string");
    }
    table.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).join("library.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
