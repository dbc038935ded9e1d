//! A batch manifest, read and checked whole, and its jobs: graphs × param sets × seeds ×
//! sizes × tiles, each job one render writing one file per output (or a preset's files),
//! named by a pattern. Jobs are made one at a time from their number, so a manifest of a
//! million jobs costs the memory of its entries, not of its jobs.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use serde_json::{Map, Value};
use texgraph_core::Graph;
use texgraph_core::eval::stream::Region;
use texgraph_core::export::{Depth, Format, file_stem_for};
use texgraph_core::variation::set_param;

use crate::graphs::load_as_written;
use crate::values::{parse_grid, parse_size};

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
    /// Presets' files, each set into its folder, from one render.
    Preset {
        /// Each preset's name and folder.
        sets: Vec<(String, PathBuf)>,
        /// What `{graph}` in the preset's file names becomes: the graph's name, else its
        /// file's stem, as `texgraph render --preset` names it.
        stem: String,
    },
}

impl Files {
    /// The files (or preset folder) written.
    pub fn paths(&self) -> Vec<&Path> {
        match self {
            Files::Outputs { files, .. } => files.iter().map(|(_, p)| p.as_path()).collect(),
            Files::Preset { sets, .. } => sets.iter().map(|(_, dir)| dir.as_path()).collect(),
        }
    }
}

/// One render of a batch.
#[derive(Debug, Clone)]
pub struct Job {
    /// The graph file, for messages.
    pub source: PathBuf,
    /// The graph with the job's params and seed applied.
    pub graph: Arc<Graph>,
    /// The same with its file params as its file writes them: what the job renders
    /// whatever folder the manifest is named from (for its content key).
    pub graph_as_written: Graph,
    /// The image's size.
    pub size: (u32, u32),
    /// The tile rendered (`None`: the whole image).
    pub region: Option<Region>,
    /// What it writes.
    pub files: Files,
    /// The same, relative to [`Job::folder`].
    pub names: Files,
    /// The manifest's folder, which relative paths start from.
    pub folder: PathBuf,
}

/// The placeholders a name pattern may use.
pub const PLACEHOLDERS: [&str; 13] = [
    "graph", "set", "seed", "size", "width", "height", "output", "ext", "tile", "col", "row",
    "index", "preset",
];

/// Largest batch manifest read, in bytes (16 MiB: a manifest lists jobs by rule, so even a
/// generated one of many thousand jobs is far smaller).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// Most jobs one manifest may make (a million): every job's file names are checked
/// against each other before anything renders, which takes a few seconds at this count.
/// Larger batches are split into several manifests.
pub const MAX_JOBS: u64 = 1_000_000;

/// A manifest's graphs and rules, from which each job is made when it is needed.
pub struct Manifest {
    /// The manifest's path as given, for messages.
    pub path: PathBuf,
    entries: Vec<Entry>,
    len: usize,
}

/// One entry of `jobs`, checked.
struct Entry {
    /// "m.json: jobs[3]", for messages.
    at: String,
    /// The number of its first job.
    first: usize,
    sources: Vec<Source>,
    sets: Vec<Map<String, Value>>,
    seeds: Seeds,
    sizes: Vec<(u32, u32)>,
    /// Columns and rows of tiles (1x1: the whole image).
    grid: (u32, u32),
    tiled: bool,
    writes: Writes,
    name: String,
    dir: PathBuf,
}

/// A graph of an entry, loaded once.
struct Source {
    path: PathBuf,
    graph: Graph,
    /// Its file params as its file writes them.
    as_written: Graph,
    /// `{graph}` in names: the file's stem.
    stem: String,
    /// `{graph}` in a preset's file names: the graph's name, else the file's stem.
    preset_stem: String,
    /// The outputs rendered (`None`: the first) and the name each gives `{output}`.
    outputs: Vec<(Option<String>, String)>,
}

enum Writes {
    Outputs {
        ext: String,
        depth: Option<Depth>,
    },
    /// The presets' names, in order.
    Preset(Vec<String>),
}

/// An entry's seeds: none (the graph as saved), a list, or a range.
enum Seeds {
    Saved,
    List(Vec<u32>),
    Range { from: u32, count: u32 },
}

impl Seeds {
    fn len(&self) -> u64 {
        match self {
            Seeds::Saved => 1,
            Seeds::List(list) => list.len() as u64,
            Seeds::Range { count, .. } => u64::from(*count),
        }
    }

    fn get(&self, k: usize) -> Option<u32> {
        match self {
            Seeds::Saved => None,
            Seeds::List(list) => Some(list[k]),
            // Checked on reading: the range stays within u32.
            Seeds::Range { from, .. } => Some(from + k as u32),
        }
    }
}

/// Where a job sits in its entry's product.
struct Place {
    source: usize,
    set: usize,
    seed: Option<u32>,
    size: (u32, u32),
    col: u32,
    row: u32,
}

impl Entry {
    fn len(&self) -> u64 {
        [
            self.sources.len() as u64,
            self.sets.len() as u64,
            self.seeds.len(),
            self.sizes.len() as u64,
            u64::from(self.grid.0),
            u64::from(self.grid.1),
        ]
        .into_iter()
        .try_fold(1u64, u64::checked_mul)
        .unwrap_or(u64::MAX)
    }

    /// Job `k` of this entry: sources, then sets, seeds, sizes, rows and columns, the
    /// last changing fastest.
    fn place(&self, k: usize) -> Place {
        let mut k = k;
        let mut digit = |radix: usize| {
            let d = k % radix;
            k /= radix;
            d
        };
        let col = digit(self.grid.0 as usize) as u32;
        let row = digit(self.grid.1 as usize) as u32;
        let size = self.sizes[digit(self.sizes.len())];
        let seed = self.seeds.get(digit(self.seeds.len() as usize));
        let set = digit(self.sets.len());
        let source = digit(self.sources.len());
        Place {
            source,
            set,
            seed,
            size,
            col,
            row,
        }
    }

    /// The files job `index` at `place` writes, in `folder` (the manifest's, or none for
    /// the names relative to it).
    fn files(&self, place: &Place, index: usize, folder: &Path) -> Files {
        let source = &self.sources[place.source];
        let (size, grid) = (place.size, self.grid);
        let fill = |output: &str, ext: &str, preset: &str| {
            let values = [
                ("graph", source.stem.clone()),
                ("set", place.set.to_string()),
                ("seed", place.seed.unwrap_or(0).to_string()),
                ("size", format!("{}x{}", size.0, size.1)),
                ("width", size.0.to_string()),
                ("height", size.1.to_string()),
                ("output", output.to_owned()),
                ("ext", ext.to_owned()),
                ("tile", (place.row * grid.0 + place.col).to_string()),
                ("col", place.col.to_string()),
                ("row", place.row.to_string()),
                ("index", index.to_string()),
                ("preset", preset.to_owned()),
            ];
            folder.join(fill_pattern(&self.name, &values))
        };
        match &self.writes {
            Writes::Preset(names) => Files::Preset {
                sets: names
                    .iter()
                    .map(|name| {
                        let dir = fill("", "", name);
                        // Several presets and a name without {preset}: a folder each
                        // inside, named after it, as `render --preset A --preset B` does.
                        let dir = if names.len() > 1 && !self.name.contains("{preset}") {
                            dir.join(name)
                        } else {
                            dir
                        };
                        (name.clone(), dir)
                    })
                    .collect(),
                stem: source.preset_stem.clone(),
            },
            Writes::Outputs { ext, depth } => Files::Outputs {
                files: source
                    .outputs
                    .iter()
                    .map(|(output, shown)| (output.clone(), fill(shown, ext, "")))
                    .collect(),
                depth: *depth,
            },
        }
    }

    /// The graph of `source` with param set `set` applied (its file params as its file
    /// writes them with `as_written`).
    fn graph_with_set(&self, source: usize, set: usize, as_written: bool) -> anyhow::Result<Graph> {
        let source = &self.sources[source];
        let mut graph = if as_written {
            source.as_written.clone()
        } else {
            source.graph.clone()
        };
        for (key, value) in &self.sets[set] {
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let fail = |message: &str| {
                anyhow!(
                    "{}: field 'sets', entry {set}, on {}: {message}",
                    self.at,
                    source.path.display()
                )
            };
            let (node, param) = key
                .split_once('.')
                .ok_or_else(|| fail(&format!("'{key}': expected \"node.param\"")))?;
            set_param(&mut graph, node, param, &text).map_err(|e| fail(&e.message))?;
        }
        Ok(graph)
    }
}

impl Manifest {
    /// Reads the manifest at `path` and checks it whole: every field, every graph and
    /// param set, the job count (at most [`MAX_JOBS`]), and that no two files have one
    /// name. Relative paths are from the manifest's folder. Only a regular file of at most
    /// [`MAX_MANIFEST_BYTES`] is read.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let text = texgraph_core::files::read_text(path, MAX_MANIFEST_BYTES, "batch manifests")
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Self::from_text(&text, path)
    }

    /// [`Manifest::read`] of the text of the manifest at `path` (which names it in
    /// messages and whose folder relative paths start from).
    pub fn from_text(text: &str, path: &Path) -> anyhow::Result<Self> {
        let file = path.display().to_string();
        let value: Value =
            serde_json::from_str(text).with_context(|| format!("{file}: not valid JSON"))?;
        let dir = path.parent().unwrap_or(Path::new("")).to_owned();
        let list = match value.get("jobs") {
            Some(Value::Array(list)) => list,
            _ => bail!("{file}: field 'jobs': expected a list of jobs"),
        };
        let mut graphs: HashMap<PathBuf, Graph> = HashMap::new();
        let mut entries = Vec::new();
        let mut total = 0u64;
        for (i, entry) in list.iter().enumerate() {
            let at = format!("{file}: jobs[{i}]");
            let entry = entry
                .as_object()
                .ok_or_else(|| anyhow!("{at}: expected an object"))?;
            let entry = read_entry(entry, &dir, at, total as usize, &mut graphs)?;
            total += entry.len();
            if total > MAX_JOBS {
                bail!(
                    "{}: the manifest makes {}{total} jobs; a manifest makes at most {MAX_JOBS} (split it into several)",
                    entry.at,
                    if entry.len() == u64::MAX { "over " } else { "" },
                );
            }
            entries.push(entry);
        }
        let manifest = Manifest {
            path: path.to_owned(),
            entries,
            len: total as usize,
        };
        manifest.check_names()?;
        Ok(manifest)
    }

    /// The number of jobs.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it makes no job (a manifest whose `jobs` list is empty).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn entry_of(&self, index: usize) -> &Entry {
        let after = self.entries.partition_point(|e| e.first <= index);
        &self.entries[after - 1]
    }

    /// The files job `index` writes (cheap: no graph is copied).
    pub fn files(&self, index: usize) -> Files {
        let entry = self.entry_of(index);
        entry.files(&entry.place(index - entry.first), index, &entry.dir)
    }

    /// Job `index` (below [`Manifest::len`]), its graph copied and its params and seed
    /// applied.
    pub fn job(&self, index: usize) -> anyhow::Result<Job> {
        let entry = self.entry_of(index);
        let place = entry.place(index - entry.first);
        let varied = |as_written| -> anyhow::Result<Graph> {
            let mut graph = entry.graph_with_set(place.source, place.set, as_written)?;
            if let Some(seed) = place.seed {
                texgraph_core::variation::offset_seeds(&mut graph, seed);
            }
            Ok(graph)
        };
        let tiled = entry.tiled;
        Ok(Job {
            source: entry.sources[place.source].path.clone(),
            graph: Arc::new(varied(false)?),
            graph_as_written: varied(true)?,
            size: place.size,
            region: tiled.then(|| tile(place.size, entry.grid, place.col, place.row)),
            files: entry.files(&place, index, &entry.dir),
            names: entry.files(&place, index, Path::new("")),
            folder: entry.dir.clone(),
        })
    }

    /// Where job `index` comes from, for messages: "m.json: jobs[2] (job 7, wood.json)".
    pub fn describe(&self, index: usize) -> String {
        let entry = self.entry_of(index);
        let place = entry.place(index - entry.first);
        format!(
            "{} (job {index}, {})",
            entry.at,
            entry.sources[place.source].path.display()
        )
    }

    /// Checks that every file name has a format and that no two jobs write one file. Names
    /// are kept as hashes (a million jobs of a few files each fit in tens of MiB); two
    /// equal hashes are compared by name.
    fn check_names(&self) -> anyhow::Result<()> {
        let hasher = RandomState::new();
        let mut seen: HashMap<u64, usize> = HashMap::new();
        seen.try_reserve(self.len).map_err(|_| {
            anyhow!(
                "{}: not enough memory to check {} jobs' file names",
                self.path.display(),
                self.len
            )
        })?;
        for index in 0..self.len {
            let files = self.files(index);
            if let Files::Outputs { files, .. } = &files {
                for (_, path) in files {
                    Format::from_path(path)
                        .map_err(|e| anyhow!("{}: field 'format': {e}", self.entry_of(index).at))?;
                }
            }
            for path in files.paths() {
                let key = hasher.hash_one(path);
                if let Some(&other) = seen.get(&key)
                    && self.files(other).paths().contains(&path)
                {
                    bail!(
                        "{}: jobs {other} and {index} both write '{}': add placeholders such as {{seed}}, {{set}}, {{size}} or {{tile}} to 'name'",
                        self.path.display(),
                        path.display()
                    );
                }
                seen.insert(key, index);
            }
        }
        Ok(())
    }
}

const FIELDS: [&str; 12] = [
    "graph", "graphs", "sets", "seeds", "sizes", "outputs", "preset", "presets", "format", "depth",
    "tiles", "name",
];

fn read_entry(
    entry: &Map<String, Value>,
    dir: &Path,
    at: String,
    first: usize,
    graphs: &mut HashMap<PathBuf, Graph>,
) -> anyhow::Result<Entry> {
    let at = at.as_str();
    if let Some(key) = entry.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        bail!(
            "{at}: unknown field '{key}' (fields: {})",
            FIELDS.join(", ")
        );
    }
    let paths: Vec<PathBuf> = match (entry.get("graph"), entry.get("graphs")) {
        (Some(Value::String(g)), None) => vec![dir.join(g)],
        (None, Some(Value::Array(list))) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(k, g)| {
                g.as_str()
                    .map(|g| dir.join(g))
                    .ok_or_else(|| anyhow!("{at}: field 'graphs', entry {k}: expected a file name"))
            })
            .collect::<anyhow::Result<_>>()?,
        _ => bail!("{at}: field 'graph': expected one graph file (or 'graphs', a non-empty list)"),
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
    let seeds = match entry.get("seeds") {
        None => Seeds::Saved,
        Some(Value::Array(list)) if !list.is_empty() => Seeds::List(
            list.iter()
                .enumerate()
                .map(|(k, s)| {
                    s.as_u64()
                        .and_then(|s| u32::try_from(s).ok())
                        .ok_or_else(|| anyhow!("{at}: field 'seeds', entry {k}: expected a whole number 0 to 4294967295"))
                })
                .collect::<anyhow::Result<_>>()?,
        ),
        Some(Value::Object(range)) => {
            let bound = |name: &str| {
                range.get(name).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok())
            };
            match (bound("from"), bound("count")) {
                (Some(from), Some(count)) if count > 0 => {
                    if from.checked_add(count - 1).is_none() {
                        bail!("{at}: field 'seeds': the range passes 4294967295");
                    }
                    Seeds::Range { from, count }
                }
                _ => bail!("{at}: field 'seeds': expected a list of seeds or {{\"from\": N, \"count\": M}} (M from 1 to 4294967295)"),
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
    let (preset, field) = match (entry.get("preset"), entry.get("presets")) {
        (None, None) => (None, "preset"),
        (Some(Value::String(p)), None) => (Some(vec![p.clone()]), "preset"),
        (Some(_), None) => bail!("{at}: field 'preset': expected a preset's name"),
        (None, Some(Value::Array(list))) if !list.is_empty() => {
            let names = list
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    p.as_str().map(str::to_owned).ok_or_else(|| {
                        anyhow!("{at}: field 'presets', entry {k}: expected a preset's name")
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            (Some(names), "presets")
        }
        (None, Some(_)) => {
            bail!("{at}: field 'presets': expected a non-empty list of preset names")
        }
        (Some(_), Some(_)) => bail!("{at}: give 'preset' or 'presets', not both"),
    };
    for (k, name) in preset.iter().flatten().enumerate() {
        let presets = texgraph_core::export::presets::with_user(Vec::new());
        let entry_at = if field == "presets" {
            format!("field 'presets', entry {k}")
        } else {
            "field 'preset'".to_owned()
        };
        if texgraph_core::export::presets::find(&presets, name).is_none() {
            let names: Vec<&str> = presets.iter().map(|p| p.name.as_str()).collect();
            bail!(
                "{at}: {entry_at}: no preset named '{name}' (presets: {})",
                names.join(", ")
            );
        }
        if preset.iter().flatten().take(k).any(|n| n == name) {
            bail!("{at}: {entry_at}: '{name}' is listed twice");
        }
    }
    if preset.is_some() && (entry.contains_key("outputs") || tiles.is_some() || depth.is_some()) {
        bail!(
            "{at}: field '{field}' writes the preset's files: it takes no 'outputs', 'tiles' or 'depth'"
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
    let mut sources = Vec::new();
    for path in paths {
        if !graphs.contains_key(&path) {
            let as_written = load_as_written(&path).with_context(|| at.to_owned())?;
            graphs.insert(path.clone(), as_written);
        }
        let as_written = graphs[&path].clone();
        let mut graph = as_written.clone();
        graph.resolve_paths(&texgraph_core::paths::folder_of(&path));
        let names = texgraph_core::output_names(&graph);
        let outputs = match entry.get("outputs") {
            None => vec![(None, names.first().cloned().unwrap_or_default())],
            Some(Value::String(all)) if all == "all" => {
                names.iter().map(|n| (Some(n.clone()), n.clone())).collect()
            }
            Some(Value::Array(list)) if !list.is_empty() => list
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let name = o.as_str().ok_or_else(|| {
                        anyhow!("{at}: field 'outputs', entry {k}: expected an output's name")
                    })?;
                    if !names.iter().any(|n| n == name) {
                        bail!(
                            "{at}: field 'outputs', entry {k}: {} has no output named '{name}' (outputs: {})",
                            path.display(),
                            names.join(", ")
                        );
                    }
                    Ok((Some(name.to_owned()), name.to_owned()))
                })
                .collect::<anyhow::Result<_>>()?,
            _ => bail!("{at}: field 'outputs': expected a list of output names or \"all\""),
        };
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        sources.push(Source {
            preset_stem: file_stem_for(&graph, Some(&path)),
            stem,
            outputs,
            graph,
            as_written,
            path,
        });
    }
    let entry = Entry {
        at: at.to_owned(),
        first,
        sources,
        sets,
        seeds,
        sizes,
        grid: tiles.unwrap_or((1, 1)),
        tiled: tiles.is_some(),
        writes: match preset {
            Some(name) => Writes::Preset(name),
            None => Writes::Outputs {
                ext: format.unwrap_or_else(|| "png".to_owned()),
                depth,
            },
        },
        name,
        dir: dir.to_owned(),
    };
    // Every param set on every graph, once: a job then cannot fail on its params.
    for source in 0..entry.sources.len() {
        for set in 0..entry.sets.len() {
            entry.graph_with_set(source, set, false)?;
        }
    }
    Ok(entry)
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
