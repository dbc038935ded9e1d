//! `texgraph presets`: the export presets, built in and from preset files.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use texgraph_core::export::presets::{self, Content, Preset};

/// Arguments of `texgraph presets`.
#[derive(clap::Args)]
pub struct PresetsArgs {
    /// Print the presets as JSON, in the schema of preset files.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the presets' channel tables in Markdown (as docs/materials.md holds them).
    #[arg(long)]
    markdown: bool,
    /// Also list the presets of this file.
    #[arg(long, value_name = "FILE")]
    preset_file: Option<PathBuf>,
}

/// The built-in presets, then those of `file` (which may replace a built-in by name).
pub fn available(file: Option<&Path>) -> anyhow::Result<Vec<Preset>> {
    let theirs = match file {
        Some(path) => presets::load_presets(path).map_err(|e| anyhow!("{e}"))?,
        None => Vec::new(),
    };
    Ok(presets::with_user(theirs))
}

/// Runs `texgraph presets`.
pub fn run(args: &PresetsArgs) -> anyhow::Result<()> {
    let all = available(args.preset_file.as_deref())?;
    if args.markdown {
        crate::say!("{}", presets::markdown(&all).trim_end());
        return Ok(());
    }
    if args.json {
        let list: Vec<_> = all.iter().map(Preset::to_json).collect();
        crate::say!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for preset in &all {
        crate::say!("{}: {}", preset.name, preset.description);
        for file in &preset.files {
            let what = match &file.content {
                Content::Map(usage) => usage.id().to_owned(),
                Content::Channels(_) => {
                    let channels = file_channels(preset, file);
                    ["r", "g", "b", "a"]
                        .iter()
                        .filter_map(|c| channels.get(*c).map(|v| (c, v)))
                        .map(|(c, v)| match v.as_str() {
                            Some(text) => format!("{c}={text}"),
                            None => format!("{c}={v}"),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            };
            crate::say!(
                "    {:<44} {}{}",
                file.pattern,
                what,
                if file.optional {
                    " (when the graph has it)"
                } else {
                    ""
                }
            );
        }
    }
    Ok(())
}

/// The `channels` object of a packed file, as the preset file writes it.
fn file_channels(preset: &Preset, file: &presets::PresetFile) -> serde_json::Value {
    let index = preset.files.iter().position(|f| f == file).unwrap_or(0);
    preset.to_json()["files"][index]["channels"].clone()
}
