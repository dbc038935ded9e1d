//! What the web page hands the browser to download: the files one save or export wrote,
//! as they are when there is one, else in one zip named after the folder they share (a
//! preset's set: its maps and glTF scene).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use zip::write::SimpleFileOptions;

/// One download: its file name and bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    /// The name the browser saves it under.
    pub name: String,
    /// Its bytes.
    pub bytes: Arc<[u8]>,
}

/// The download of `files` (written together), in a zip each named by its path below
/// the folder they share; `None` when there are none.
pub fn bundle(files: &[(PathBuf, Arc<[u8]>)]) -> Result<Option<Download>, String> {
    match files {
        [] => Ok(None),
        [(path, bytes)] => Ok(Some(Download {
            name: file_name(path),
            bytes: bytes.clone(),
        })),
        _ => {
            let common = common_folder(files.iter().map(|(p, _)| p.as_path()));
            let name = match common.file_name() {
                Some(folder) => format!("{}.zip", folder.to_string_lossy()),
                None => "texgraph-export.zip".to_owned(),
            };
            let fail = |e: &dyn std::fmt::Display| format!("cannot make {name}: {e}");
            let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            let options = SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .unix_permissions(0o644);
            for (path, bytes) in files {
                let inner = path.strip_prefix(&common).unwrap_or(path).to_string_lossy();
                zip.start_file(inner, options).map_err(|e| fail(&e))?;
                zip.write_all(bytes).map_err(|e| fail(&e))?;
            }
            let bytes = zip.finish().map_err(|e| fail(&e))?.into_inner();
            Ok(Some(Download {
                name,
                bytes: bytes.into(),
            }))
        }
    }
}

/// The deepest folder holding every one of `paths`.
fn common_folder<'a>(mut paths: impl Iterator<Item = &'a Path>) -> PathBuf {
    let Some(first) = paths.next() else {
        return PathBuf::new();
    };
    let mut common = first.parent().map(Path::to_owned).unwrap_or_default();
    for path in paths {
        while !path.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    common
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "texgraph-export".to_owned(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn file(path: &str, text: &str) -> (PathBuf, Arc<[u8]>) {
        (PathBuf::from(path), Arc::from(text.as_bytes()))
    }

    #[test]
    fn one_file_is_downloaded_as_it_is() {
        let got = bundle(&[file("/downloads/marble.png", "png")]);
        assert_eq!(
            got.unwrap(),
            Some(Download {
                name: "marble.png".into(),
                bytes: Arc::from(&b"png"[..])
            })
        );
        assert_eq!(bundle(&[]).unwrap(), None);
    }

    #[test]
    fn a_set_is_one_zip_named_after_its_folder() {
        let files = [
            file("/downloads/marble_unity/marble_albedo.png", "a"),
            file("/downloads/marble_unity/marble_normal.png", "bb"),
            file("/downloads/marble_unity/scene/marble.gltf", "{}"),
        ];
        assert_eq!(
            common_folder(files.iter().map(|(p, _)| p.as_path())),
            Path::new("/downloads/marble_unity")
        );
        let got = bundle(&files).unwrap().unwrap();
        assert_eq!(got.name, "marble_unity.zip");
        // Read back with the zip crate's reader, and its names checked by hand.
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(got.bytes.to_vec())).unwrap();
        let mut names = Vec::new();
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).unwrap();
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            names.push((entry.name().unwrap().into_owned(), text));
        }
        assert_eq!(
            names,
            vec![
                ("marble_albedo.png".to_owned(), "a".to_owned()),
                ("marble_normal.png".to_owned(), "bb".to_owned()),
                ("scene/marble.gltf".to_owned(), "{}".to_owned()),
            ]
        );
        // The local file header's signature, as any unzip expects.
        assert_eq!(&got.bytes[..4], b"PK\x03\x04");
    }
}
