//! The web page carries the example graphs (`graphs/*.json`) and the images they read
//! (`graphs/images/`): it lists them for `src/web/examples.rs`. Other targets read them
//! from disk and get an empty list.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
    println!("cargo::rerun-if-changed={}", root.display());
    println!("cargo::rerun-if-changed={}", root.join("images").display());
    let web = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    let mut list = String::from("&[\n");
    if web {
        for folder in ["", "images"] {
            let mut names: Vec<_> = std::fs::read_dir(root.join(folder))
                .expect("graphs/ is readable")
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| folder == "images" || n.ends_with(".json"))
                .collect();
            names.sort();
            for name in names {
                let inner = if folder.is_empty() {
                    name
                } else {
                    format!("{folder}/{name}")
                };
                let full = root.join(&inner).canonicalize().expect("listed");
                writeln!(
                    list,
                    "    ({inner:?}, include_bytes!({:?})),",
                    full.display()
                )
                .unwrap();
            }
        }
    }
    list.push_str("]\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("examples.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");
}
