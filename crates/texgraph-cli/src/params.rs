//! `texgraph params`: a graph's params and outputs, for people and, with `--json`, for
//! programs that drive the CLI (the Blender add-on), so that they never read graph files
//! themselves.

use std::path::PathBuf;

use serde_json::{Value, json};
use texgraph_core::params::{GraphParam, graph_params, options, range};
use texgraph_core::usage::Encoding;
use texgraph_core::{Graph, output_names};

use crate::load::load;

/// Arguments of `texgraph params`.
#[derive(clap::Args)]
pub struct ParamsArgs {
    /// The graph file.
    graph: PathBuf,
    /// Print JSON: the graph's settings, its outputs with their usages, and every param
    /// with its kind, value, default, range, options and doc (docs/blender.md has the schema).
    #[arg(long)]
    json: bool,
}

/// Runs `texgraph params`.
pub fn run(args: &ParamsArgs) -> anyhow::Result<()> {
    let graph = load(&args.graph)?;
    let params = graph_params(&graph);
    if args.json {
        let text = serde_json::to_string_pretty(&describe(&args.graph, &graph, &params))?;
        crate::say!("{text}");
        return Ok(());
    }
    let mut node = None;
    for p in &params {
        if node != Some(&p.node) {
            let label = p
                .node_label
                .as_ref()
                .map(|l| format!(" \"{l}\""))
                .unwrap_or_default();
            crate::say!("{} ({}){label}", p.node, p.node_type);
            node = Some(&p.node);
        }
        crate::say!("  {} = {}  ({})", p.name, value_text(&p.value), bounds(p));
    }
    Ok(())
}

/// The JSON `texgraph params --json` prints.
fn describe(path: &std::path::Path, graph: &Graph, params: &[GraphParam]) -> Value {
    let outputs: Vec<Value> = output_names(graph)
        .into_iter()
        .filter_map(|name| {
            let node = graph
                .nodes
                .iter()
                .find(|n| n.kind == "output" && n.output_name() == name)?;
            let usage = node.usage();
            let encoding = match usage.encoding() {
                Encoding::Srgb => "srgb",
                Encoding::Linear => "linear",
                Encoding::AsRendered => "as_rendered",
            };
            Some(json!({
                "name": name,
                "node": node.id,
                "usage": usage.id(),
                "label": usage.label(),
                "encoding": encoding,
            }))
        })
        .collect();
    let params: Vec<Value> = params
        .iter()
        .map(|p| {
            let (min, max) = range(&p.kind).unzip();
            json!({
                "node": p.node,
                "type": p.node_type,
                "label": p.node_label,
                "param": p.name,
                "kind": p.kind.type_name(),
                "value": p.value,
                "default": p.default,
                "min": min,
                "max": max,
                "options": options(&p.kind),
                "doc": p.doc,
            })
        })
        .collect();
    json!({
        "graph": path.display().to_string(),
        "name": graph.name,
        "doc": graph.doc,
        "tileable": graph.settings.tileable,
        "time": graph.settings.time,
        "loop": graph.settings.loop_seconds,
        "animated": texgraph_core::subgraph::uses_time(graph),
        "outputs": outputs,
        "params": params,
    })
}

/// A value as `--set` takes it.
fn value_text(value: &texgraph_core::ParamValue) -> String {
    match value {
        texgraph_core::ParamValue::Text(text) => text.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// What a param accepts, for people: its kind and range or options.
fn bounds(p: &GraphParam) -> String {
    let kind = p.kind.type_name();
    if let Some((min, max)) = range(&p.kind) {
        format!("{kind}, {min} to {max}")
    } else if let Some(options) = options(&p.kind) {
        format!("{kind}: {}", options.join(", "))
    } else {
        kind.to_owned()
    }
}
