//! One entry of a manifest's `jobs`, checked: its graphs, param sets, seeds, sizes, tiles
//! and what it writes, and the job it makes from a number (its place in their product).

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use serde_json::{Map, Value};
use texgraph_core::Graph;
use texgraph_core::export::Depth;
use texgraph_core::variation::set_param;

use super::Files;
use super::names::{fill_pattern, lexical};

/// One entry of `jobs`, checked.
pub(super) struct Entry {
    /// "m.json: jobs[3]", for messages.
    pub(super) at: String,
    /// The number of its first job.
    pub(super) first: usize,
    /// Its graphs (`graph` or `graphs`).
    pub(super) sources: Vec<Source>,
    /// Its param sets, each `{"node.param": value}` (one empty set when none).
    pub(super) sets: Vec<Map<String, Value>>,
    /// Its seeds.
    pub(super) seeds: Seeds,
    /// Its image sizes.
    pub(super) sizes: Vec<(u32, u32)>,
    /// Columns and rows of tiles (1x1: the whole image).
    pub(super) grid: (u32, u32),
    /// Whether `tiles` was given (a 1x1 grid then still writes a region file).
    pub(super) tiled: bool,
    /// Outputs or presets.
    pub(super) writes: Writes,
    /// The file name pattern.
    pub(super) name: String,
    /// The manifest's folder, which names start from.
    pub(super) dir: PathBuf,
}

/// A graph of an entry, loaded once.
pub(super) struct Source {
    pub(super) path: PathBuf,
    pub(super) graph: Graph,
    /// Its file params as its file writes them.
    pub(super) as_written: Graph,
    /// `{graph}` in names: the file's stem.
    pub(super) stem: String,
    /// `{graph}` in a preset's file names: the graph's name, else the file's stem.
    pub(super) preset_stem: String,
    /// The outputs rendered (`None`: the first) and the name each gives `{output}`.
    pub(super) outputs: Vec<(Option<String>, String)>,
}

/// What an entry's jobs write.
pub(super) enum Writes {
    /// A file per output, with this extension, at this depth (`None`: the usage's).
    Outputs { ext: String, depth: Option<Depth> },
    /// The presets' names, in order.
    Preset(Vec<String>),
}

/// An entry's seeds: none (the graph as saved), a list, or a range.
pub(super) enum Seeds {
    /// No `seeds`: the graph as saved.
    Saved,
    /// `[1, 5, 9]`.
    List(Vec<u32>),
    /// `{"from": N, "count": M}`, checked not to pass `u32::MAX`.
    Range { from: u32, count: u32 },
}

impl Seeds {
    pub(super) fn len(&self) -> u64 {
        match self {
            Seeds::Saved => 1,
            Seeds::List(list) => list.len() as u64,
            Seeds::Range { count, .. } => u64::from(*count),
        }
    }

    pub(super) fn get(&self, k: usize) -> Option<u32> {
        match self {
            Seeds::Saved => None,
            Seeds::List(list) => Some(list[k]),
            // Checked on reading: the range stays within u32.
            Seeds::Range { from, .. } => Some(from + k as u32),
        }
    }
}

/// Where a job sits in its entry's product.
pub(super) struct Place {
    pub(super) source: usize,
    pub(super) set: usize,
    pub(super) seed: Option<u32>,
    pub(super) size: (u32, u32),
    pub(super) col: u32,
    pub(super) row: u32,
}

impl Entry {
    /// Whether its jobs write presets' files into folders.
    pub(super) fn writes_presets(&self) -> bool {
        matches!(self.writes, Writes::Preset(_))
    }

    pub(super) fn len(&self) -> u64 {
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
    pub(super) fn place(&self, k: usize) -> Place {
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
    pub(super) fn files(&self, place: &Place, index: usize, folder: &Path) -> Files {
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
            folder.join(lexical(Path::new(&fill_pattern(&self.name, &values))))
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
    pub(super) fn graph_with_set(
        &self,
        source: usize,
        set: usize,
        as_written: bool,
    ) -> anyhow::Result<Graph> {
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
