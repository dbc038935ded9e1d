//! An entry of a manifest's `jobs` read field by field, each checked and named in its
//! error: `m.json: jobs[2]: field 'sizes', entry 0: …`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use serde_json::{Map, Value};
use texgraph_core::Graph;
use texgraph_core::export::{Depth, file_stem_for};

use super::entry::{Entry, Seeds, Source, Writes};
use super::names::check_pattern;
use crate::graphs::load_as_written;
use crate::values::{parse_grid, parse_size};

/// The fields an entry may have.
const FIELDS: [&str; 12] = [
    "graph", "graphs", "sets", "seeds", "sizes", "outputs", "preset", "presets", "format", "depth",
    "tiles", "name",
];

pub(super) fn read_entry(
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
    let presets = texgraph_core::export::presets::built_in();
    for (k, name) in preset.iter().flatten().enumerate() {
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
