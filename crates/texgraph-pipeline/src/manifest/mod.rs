//! A batch manifest, read and checked whole, and its jobs: graphs × param sets × seeds ×
//! sizes × tiles, each job one render writing one file per output (or a preset's files),
//! named by a pattern. Jobs are made one at a time from their number, so a manifest of a
//! million jobs costs the memory of its entries, not of its jobs.
//!
//! Here: the manifest and its jobs. [`entry`]: one entry of `jobs` and the jobs it makes
//! by number; [`fields`]: an entry's fields read and checked; [`names`]: file name
//! patterns.

mod entry;
mod fields;
mod names;

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use serde_json::Value;
use texgraph_core::Graph;
use texgraph_core::eval::stream::Region;
use texgraph_core::export::{Depth, Format};

use entry::Entry;
use fields::read_entry;
pub use names::PLACEHOLDERS;

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
                    "{}: the manifest makes {}{total} jobs (graphs × sets × seeds × sizes × tiles); a manifest makes at most {MAX_JOBS} (split it into several)",
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
        // A preset's folder holds files named by the preset: no other job's file may go
        // inside it. Its folders are kept as hashes too, compared by name when one of a
        // file's folders has the same hash.
        let mut preset_folders: HashMap<u64, usize> = HashMap::new();
        for entry in self.entries.iter().filter(|e| e.writes_presets()) {
            for index in entry.first..entry.first + entry.len() as usize {
                for folder in self.files(index).paths() {
                    preset_folders.insert(hasher.hash_one(folder), index);
                }
            }
        }
        for index in 0..self.len {
            let files = self.files(index);
            if let Files::Outputs { files, .. } = &files {
                for (_, path) in files {
                    Format::from_path(path)
                        .map_err(|e| anyhow!("{}: field 'format': {e}", self.entry_of(index).at))?;
                    let inside = (!preset_folders.is_empty())
                        .then(|| {
                            path.ancestors().skip(1).find_map(|folder| {
                                let &job = preset_folders.get(&hasher.hash_one(folder))?;
                                self.files(job)
                                    .paths()
                                    .contains(&folder)
                                    .then_some((folder, job))
                            })
                        })
                        .flatten();
                    if let Some((folder, job)) = inside {
                        bail!(
                            "{}: job {index} writes '{}' into '{}', the folder of job {job}'s preset files: give them names apart",
                            self.path.display(),
                            path.display(),
                            folder.display()
                        );
                    }
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
