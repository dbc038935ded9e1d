//! `texgraph stitch`: assembles region files (`render --region`) into the whole image.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use texgraph_core::export::stitch::{read_piece, stitch};

/// Arguments of `texgraph stitch`.
#[derive(clap::Args)]
pub struct StitchArgs {
    /// The region files: paths, quoted patterns (`'tiles/*.exr'`), or a JSON manifest
    /// listing them (`["a.exr", "b.exr"]` or `{"files": [...]}`, relative to the manifest).
    #[arg(required = true, value_name = "FILES_OR_PATTERN_OR_MANIFEST")]
    inputs: Vec<String>,
    /// The whole image to write; the same format as the regions.
    #[arg(short, long)]
    out: PathBuf,
}

/// Runs `texgraph stitch`.
pub fn run(args: &StitchArgs) -> anyhow::Result<()> {
    let mut files = Vec::new();
    for input in &args.inputs {
        files.extend(expand(input)?);
    }
    files.sort();
    files.dedup();
    let pieces = files
        .iter()
        .map(|f| read_piece(f))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = pieces.first().map_or(0, |p| u64::from(p.size.1));
    let bar = crate::progress::Progress::new(rows, "stitching", "rows");
    let result = stitch(&pieces, &args.out, &|row| bar.set(u64::from(row)));
    bar.finish();
    result?;
    let (width, height) = pieces[0].size;
    crate::say!(
        "wrote {}: {width}x{height} from {} regions",
        args.out.display(),
        pieces.len()
    );
    Ok(())
}

/// The files `input` names: a manifest's list, a pattern's matches, or the file itself.
fn expand(input: &str) -> anyhow::Result<Vec<PathBuf>> {
    let path = Path::new(input);
    if path.extension().is_some_and(|e| e == "json") {
        return manifest(path);
    }
    if input.contains(['*', '?', '[']) && !path.exists() {
        let found: Vec<PathBuf> = glob::glob(input)
            .with_context(|| format!("'{input}' is not a valid file pattern"))?
            .collect::<Result<_, _>>()?;
        if found.is_empty() {
            bail!("no file matches '{input}'");
        }
        return Ok(found);
    }
    Ok(vec![path.to_owned()])
}

/// Largest stitch manifest read, in bytes (16 MiB: a list of region files, each a line).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// The files a JSON manifest lists, relative to its folder (a regular file of at most
/// [`MAX_MANIFEST_BYTES`]).
fn manifest(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let text = texgraph_core::files::read_text(path, MAX_MANIFEST_BYTES, "stitch manifests")
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let list = match &value {
        serde_json::Value::Array(list) => list,
        serde_json::Value::Object(map) => match map.get("files") {
            Some(serde_json::Value::Array(list)) => list,
            _ => bail!(
                "{}: field 'files': expected a list of file names",
                path.display()
            ),
        },
        _ => bail!(
            "{}: expected a list of file names or {{\"files\": [...]}}",
            path.display()
        ),
    };
    if list.is_empty() {
        bail!("{}: field 'files': lists no region files", path.display());
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_str().map(|f| dir.join(f)).ok_or_else(|| {
                anyhow!(
                    "{}: field 'files', entry {i}: expected a file name",
                    path.display()
                )
            })
        })
        .collect()
}
