//! A batch manifest read and expanded into jobs: graphs × param sets × seeds × sizes ×
//! tiles, each job one render writing one file per output (or a preset's files), named
//! by a pattern.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use serde_json::{Map, Value};
use texgraph_core::Graph;
use texgraph_core::eval::stream::Region;
use texgraph_core::export::{Depth, Format};

use crate::args::{apply_set, parse_grid, parse_size};
use crate::load::load;

/// What a job writes.
#[derive(Debug, Clone)]
pub enum Files {
    /// One file per output (`None`: the graph's first), in `format` at `depth`.
    Outputs {
        /// Each output and its file.
        files: Vec<(Option<String>, PathBuf)>,
        /// Bits per channel.
        depth: Option<Depth>,
    },
    /// A preset's files, into a folder.
    Preset {
        /// The preset's name.
        name: String,
        /// The folder.
        dir: PathBuf,
        /// The stem of the files' names.
        stem: String,
    },
}

/// One render of a batch.
#[derive(Debug, Clone)]
pub struct Job {
    /// The graph file, for messages.
    pub source: PathBuf,
    /// The graph with the job's params and seed applied.
    pub graph: Arc<Graph>,
    /// The image's size.
    pub size: (u32, u32),
    /// The tile rendered (`None`: the whole image).
    pub region: Option<Region>,
    /// What it writes.
    pub files: Files,
}

/// The placeholders a name pattern may use.
pub const PLACEHOLDERS: [&str; 12] = [
    "graph", "set", "seed", "size", "width", "height", "output", "ext", "tile", "col", "row",
    "index",
];

/// Largest batch manifest read, in bytes (16 MiB: a manifest lists jobs by rule, so even a
/// generated one of many thousand jobs is far smaller).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// Reads the manifest at `path` and expands it into its jobs, in order; relative paths are
/// from the manifest's folder. Every field is checked, and no two files may have one
/// name. Only a regular file of at most [`MAX_MANIFEST_BYTES`] is read.
pub fn read(path: &Path) -> anyhow::Result<Vec<Job>> {
    let file = path.display().to_string();
    let text = texgraph_core::files::read_text(path, MAX_MANIFEST_BYTES, "batch manifests")
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let value: Value =
        serde_json::from_str(&text).with_context(|| format!("{file}: not valid JSON"))?;
    let dir = path.parent().unwrap_or(Path::new("")).to_owned();
    let entries = match value.get("jobs") {
        Some(Value::Array(list)) => list,
        _ => bail!("{file}: field 'jobs': expected a list of jobs"),
    };
    let mut graphs: HashMap<PathBuf, Graph> = HashMap::new();
    let mut jobs = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{file}: jobs[{i}]");
        let entry = entry
            .as_object()
            .ok_or_else(|| anyhow!("{at}: expected an object"))?;
        expand(entry, &dir, &at, &mut graphs, &mut jobs)?;
    }
    let mut seen: HashMap<&Path, usize> = HashMap::new();
    for (index, job) in jobs.iter().enumerate() {
        let paths: Vec<&Path> = match &job.files {
            Files::Outputs { files, .. } => files.iter().map(|(_, p)| p.as_path()).collect(),
            Files::Preset { dir, .. } => vec![dir.as_path()],
        };
        for p in paths {
            if let Some(other) = seen.insert(p, index) {
                bail!(
                    "{file}: jobs {other} and {index} both write '{}': add placeholders such as {{seed}}, {{set}}, {{size}} or {{tile}} to 'name'",
                    p.display()
                );
            }
        }
    }
    Ok(jobs)
}

const FIELDS: [&str; 11] = [
    "graph", "graphs", "sets", "seeds", "sizes", "outputs", "preset", "format", "depth", "tiles",
    "name",
];

fn expand(
    entry: &Map<String, Value>,
    dir: &Path,
    at: &str,
    graphs: &mut HashMap<PathBuf, Graph>,
    jobs: &mut Vec<Job>,
) -> anyhow::Result<()> {
    if let Some(key) = entry.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        bail!(
            "{at}: unknown field '{key}' (fields: {})",
            FIELDS.join(", ")
        );
    }
    let sources: Vec<PathBuf> = match (entry.get("graph"), entry.get("graphs")) {
        (Some(Value::String(g)), None) => vec![dir.join(g)],
        (None, Some(Value::Array(list))) => list
            .iter()
            .enumerate()
            .map(|(k, g)| {
                g.as_str()
                    .map(|g| dir.join(g))
                    .ok_or_else(|| anyhow!("{at}: field 'graphs', entry {k}: expected a file name"))
            })
            .collect::<anyhow::Result<_>>()?,
        _ => bail!("{at}: field 'graph': expected one graph file (or 'graphs', a list)"),
    };
    let sets: Vec<Map<String, Value>> = match entry.get("sets") {
        None => vec![Map::new()],
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, s)| {
                s.as_object().cloned().ok_or_else(|| {
                    anyhow!(
                        "{at}: field 'sets', entry {k}: expected an object of \"node.param\": value"
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?,
        _ => bail!("{at}: field 'sets': expected a non-empty list of objects"),
    };
    let seeds: Vec<Option<u32>> = match entry.get("seeds") {
        None => vec![None],
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, s)| {
                s.as_u64()
                    .and_then(|s| u32::try_from(s).ok())
                    .map(Some)
                    .ok_or_else(|| anyhow!("{at}: field 'seeds', entry {k}: expected a whole number 0 to 4294967295"))
            })
            .collect::<anyhow::Result<_>>()?,
        Some(Value::Object(range)) => {
            let bound = |name: &str| {
                range.get(name).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
            };
            match (bound("from"), bound("count")) {
                (Some(from), Some(count)) if count > 0 => (0..count)
                    .map(|k| from.checked_add(k).map(Some))
                    .collect::<Option<_>>()
                    .ok_or_else(|| anyhow!("{at}: field 'seeds': the range passes 4294967295"))?,
                _ => bail!("{at}: field 'seeds': expected a list of seeds or {{\"from\": N, \"count\": M}}"),
            }
        }
        _ => bail!("{at}: field 'seeds': expected a non-empty list of seeds or {{\"from\": N, \"count\": M}}"),
    };
    let sizes: Vec<(u32, u32)> = match entry.get("sizes") {
        None => vec![(1024, 1024)],
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let text = match s {
                    Value::Number(n) => n.to_string(),
                    Value::String(t) => t.clone(),
                    _ => String::new(),
                };
                parse_size(&text).map_err(|e| anyhow!("{at}: field 'sizes', entry {k}: {e}"))
            })
            .collect::<anyhow::Result<_>>()?,
        _ => bail!(
            "{at}: field 'sizes': expected a non-empty list of sizes like 1024 or \"2048x1024\""
        ),
    };
    let format = match entry.get("format") {
        None => None,
        Some(Value::String(f)) => Some(f.clone()),
        Some(_) => bail!("{at}: field 'format': expected png, exr or tif"),
    };
    let depth = match entry.get("depth") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|b| u32::try_from(b).ok())
                .and_then(Depth::from_bits)
                .ok_or_else(|| anyhow!("{at}: field 'depth': expected 8, 16 or 32"))?,
        ),
    };
    let tiles = match entry.get("tiles") {
        None => None,
        Some(Value::String(t)) => {
            Some(parse_grid(t).map_err(|e| anyhow!("{at}: field 'tiles': {e}"))?)
        }
        Some(_) => bail!("{at}: field 'tiles': expected a grid like \"4x4\" (columns x rows)"),
    };
    let preset = match entry.get("preset") {
        None => None,
        Some(Value::String(p)) => Some(p.clone()),
        Some(_) => bail!("{at}: field 'preset': expected a preset's name"),
    };
    if let Some(name) = &preset {
        let presets = crate::presets::available(None)?;
        if texgraph_core::export::presets::find(&presets, name).is_none() {
            let names: Vec<&str> = presets.iter().map(|p| p.name.as_str()).collect();
            bail!(
                "{at}: field 'preset': no preset named '{name}' (presets: {})",
                names.join(", ")
            );
        }
    }
    if preset.is_some() && (entry.contains_key("outputs") || tiles.is_some() || depth.is_some()) {
        bail!(
            "{at}: field 'preset' writes the preset's files: it takes no 'outputs', 'tiles' or 'depth'"
        );
    }
    let name = match entry.get("name") {
        None if preset.is_some() => "{graph}_{set}_{seed}_{size}".to_owned(),
        None => "{graph}_{set}_{seed}_{size}_{output}.{ext}".to_owned(),
        Some(Value::String(n)) => n.clone(),
        Some(_) => bail!(
            "{at}: field 'name': expected a pattern like \"{{graph}}_{{seed}}_{{output}}.{{ext}}\""
        ),
    };
    check_pattern(&name).map_err(|e| anyhow!("{at}: field 'name': {e}"))?;
    for source in &sources {
        if !graphs.contains_key(source) {
            graphs.insert(source.clone(), load(source).with_context(|| at.to_owned())?);
        }
        let base = &graphs[source];
        let outputs: Vec<Option<String>> = match entry.get("outputs") {
            None => vec![None],
            Some(Value::String(all)) if all == "all" => texgraph_core::output_names(base)
                .into_iter()
                .map(Some)
                .collect(),
            Some(Value::Array(list)) if !list.is_empty() => list
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let name = o.as_str().ok_or_else(|| {
                        anyhow!("{at}: field 'outputs', entry {k}: expected an output's name")
                    })?;
                    if !texgraph_core::output_names(base).iter().any(|n| n == name) {
                        bail!(
                            "{at}: field 'outputs', entry {k}: {} has no output named '{name}' (outputs: {})",
                            source.display(),
                            texgraph_core::output_names(base).join(", ")
                        );
                    }
                    Ok(Some(name.to_owned()))
                })
                .collect::<anyhow::Result<_>>()?,
            _ => bail!("{at}: field 'outputs': expected a list of output names or \"all\""),
        };
        let stem = source
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        for (set_index, set) in sets.iter().enumerate() {
            let mut graph = base.clone();
            for (key, value) in set {
                let text = match value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                apply_set(&mut graph, &format!("{key}={text}"))
                    .map_err(|e| anyhow!("{at}: field 'sets', entry {set_index}: {e:#}"))?;
            }
            for &seed in &seeds {
                let mut graph = graph.clone();
                if let Some(seed) = seed {
                    texgraph_core::variation::offset_seeds(&mut graph, seed);
                }
                let graph = Arc::new(graph);
                for &size in &sizes {
                    let grid = tiles.unwrap_or((1, 1));
                    for row in 0..grid.1 {
                        for col in 0..grid.0 {
                            let region = tiles.map(|_| tile(size, grid, col, row));
                            let index = jobs.len();
                            let fill = |output: &str, ext: &str| {
                                let values = [
                                    ("graph", stem.clone()),
                                    ("set", set_index.to_string()),
                                    ("seed", seed.unwrap_or(0).to_string()),
                                    ("size", format!("{}x{}", size.0, size.1)),
                                    ("width", size.0.to_string()),
                                    ("height", size.1.to_string()),
                                    ("output", output.to_owned()),
                                    ("ext", ext.to_owned()),
                                    ("tile", (row * grid.0 + col).to_string()),
                                    ("col", col.to_string()),
                                    ("row", row.to_string()),
                                    ("index", index.to_string()),
                                ];
                                dir.join(fill_pattern(&name, &values))
                            };
                            let files = match &preset {
                                Some(preset) => {
                                    let folder = fill("", "");
                                    let stem = folder.file_name().map_or_else(String::new, |s| {
                                        s.to_string_lossy().into_owned()
                                    });
                                    Files::Preset {
                                        name: preset.clone(),
                                        dir: folder,
                                        stem,
                                    }
                                }
                                None => {
                                    let ext = format.clone().unwrap_or_else(|| "png".to_owned());
                                    let files = outputs
                                        .iter()
                                        .map(|o| {
                                            let shown = o.clone().unwrap_or_else(|| {
                                                texgraph_core::output_names(&graph)
                                                    .into_iter()
                                                    .next()
                                                    .unwrap_or_default()
                                            });
                                            (o.clone(), fill(&shown, &ext))
                                        })
                                        .collect::<Vec<_>>();
                                    if let Some((_, path)) = files.first() {
                                        Format::from_path(path)
                                            .map_err(|e| anyhow!("{at}: field 'format': {e}"))?;
                                    }
                                    Files::Outputs { files, depth }
                                }
                            };
                            jobs.push(Job {
                                source: source.clone(),
                                graph: graph.clone(),
                                size,
                                region,
                                files,
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Region (col, row) of a `grid` of tiles over an image of `size`: the columns and rows
/// shared as evenly as whole pixels allow.
pub fn tile(size: (u32, u32), grid: (u32, u32), col: u32, row: u32) -> Region {
    let cut =
        |len: u32, parts: u32, k: u32| (u64::from(len) * u64::from(k) / u64::from(parts)) as u32;
    let (x0, x1) = (cut(size.0, grid.0, col), cut(size.0, grid.0, col + 1));
    let (y0, y1) = (cut(size.1, grid.1, row), cut(size.1, grid.1, row + 1));
    Region {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
    }
}

/// Checks that a pattern's placeholders are known and its braces closed.
fn check_pattern(pattern: &str) -> Result<(), String> {
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("'{pattern}' has a '{{' without its '}}'"))?;
        let name = &after[..close];
        if !PLACEHOLDERS.contains(&name) {
            return Err(format!(
                "unknown placeholder {{{name}}} (placeholders: {})",
                PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
            ));
        }
        rest = &after[close + 1..];
    }
    if pattern.trim().is_empty() {
        return Err("the pattern is empty".to_owned());
    }
    Ok(())
}

/// The pattern with each placeholder replaced by its value.
fn fill_pattern(pattern: &str, values: &[(&str, String)]) -> String {
    let mut out = pattern.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}
