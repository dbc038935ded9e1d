//! Edit-to-screen latency of the 2D preview, for every graph in graphs/: the editor runs
//! headless (egui_kittest, no GPU), a float param upstream of the first output is nudged
//! again and again, and each edit is timed from the frame that applies it to the frame
//! that receives its draft, then its full image (the app's own clocks, which
//! `TEXGRAPH_TRACE=1` prints in the running editor). Frames are stepped every
//! millisecond, as a busy event loop would.
//!
//! `cargo bench -p texgraph-editor --bench latency [-- SIZE…] [--edits N] [--graph NAME]`
//! prints a Markdown table: median and 95th percentile, draft and full, in milliseconds.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use texgraph_core::registry::{self, ParamKind};
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::app::EditorApp;
use texgraph_editor::command::Command;

/// The longest one edit may take to show before the run is called stuck.
const STUCK: Duration = Duration::from_secs(120);

struct Args {
    sizes: Vec<u32>,
    edits: usize,
    graph: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        sizes: Vec::new(),
        edits: 15,
        graph: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--edits" => args.edits = it.next().and_then(|n| n.parse().ok()).unwrap_or(15),
            "--graph" => args.graph = it.next(),
            // cargo bench passes --bench.
            "--bench" => {}
            other => match other.parse() {
                Ok(size) => args.sizes.push(size),
                Err(_) => eprintln!("ignoring argument {other}"),
            },
        }
    }
    if args.sizes.is_empty() {
        args.sizes = vec![256, 1024];
    }
    args
}

/// The node and float param to nudge: the first in file order, upstream of the first
/// output, with a float param (its value, range).
fn knob(graph: &Graph) -> Option<(String, String, f32, f32, f32)> {
    let output = graph.nodes.iter().find(|n| n.kind == "output")?;
    let upstream = texgraph_core::validate::upstream(graph, &output.id);
    graph
        .nodes
        .iter()
        .filter(|n| upstream.contains(n.id.as_str()))
        .find_map(|node| {
            let desc = registry::lookup(&node.kind)?;
            desc.params.iter().find_map(|p| match p.kind {
                ParamKind::Float { default, min, max } if !node.inputs.contains_key(p.name) => {
                    let value = match node.params.get(p.name) {
                        Some(ParamValue::Number(v)) => *v as f32,
                        _ => default,
                    };
                    Some((node.id.clone(), p.name.to_owned(), value, min, max))
                }
                _ => None,
            })
        })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn stats(mut values: Vec<f64>) -> String {
    if values.is_empty() {
        return "—".to_owned();
    }
    values.sort_by(f64::total_cmp);
    format!(
        "{:.1} ({:.1})",
        percentile(&values, 0.5),
        percentile(&values, 0.95)
    )
}

/// Times `edits` edits of `path` with the preview at `size`: (draft, full) latencies in ms.
fn measure(path: &Path, size: u32, edits: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    let graph = Graph::load(path).ok()?;
    let (node, param, start, min, max) = knob(&graph)?;
    let owned = path.to_owned();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_max_steps(100_000)
        .build_eframe(move |cc| EditorApp::open(&cc.egui_ctx, &owned).expect("opens"));
    h.state_mut().preview.size = size;
    let settle = |h: &mut Harness<'_, EditorApp>| {
        let since = Instant::now();
        loop {
            h.run_steps(1);
            let app = h.state();
            if app.preview_is_current() && !app.preview.drafted {
                return true;
            }
            if since.elapsed() > STUCK {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    // A first edit at this size, untimed: the thumbnails and the first preview settle.
    h.state_mut().push(Command::SetParam {
        node: node.clone(),
        param: param.clone(),
        value: ParamValue::Number(f64::from(start)),
    });
    if !settle(&mut h) {
        return None;
    }
    let step = (max - min).min(1e4) * 1e-3;
    let (mut drafts, mut fulls) = (Vec::new(), Vec::new());
    for k in 1..=edits {
        let value = (start + step * k as f32).clamp(min, max);
        let value = if value == start {
            start - step * k as f32
        } else {
            value
        };
        h.state_mut().preview.draft_latency = None;
        h.state_mut().push(Command::SetParam {
            node: node.clone(),
            param: param.clone(),
            value: ParamValue::Number(f64::from(value)),
        });
        if !settle(&mut h) {
            return None;
        }
        let app = h.state();
        if let Some(draft) = app.preview.draft_latency {
            drafts.push(draft.as_secs_f64() * 1e3);
        }
        if let Some(full) = app.preview.latency {
            fulls.push(full.as_secs_f64() * 1e3);
        }
        // Past a slow full render, the thumbnails' turn, as between edits by hand.
        for _ in 0..5 {
            h.run_steps(1);
        }
    }
    Some((drafts, fulls))
}

fn main() {
    let args = args();
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
    let mut graphs: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("graphs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| {
            args.graph
                .as_ref()
                .is_none_or(|g| p.file_stem().is_some_and(|s| s.to_string_lossy() == *g))
        })
        .collect();
    graphs.sort();
    let mut header = "| graph |".to_owned();
    let mut rule = "|---|".to_owned();
    for size in &args.sizes {
        header += &format!(" draft at {size}² | full {size}² |");
        rule += "---|---|";
    }
    println!("{header}\n{rule}");
    for path in graphs {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut row = format!("| {name} |");
        for &size in &args.sizes {
            match measure(&path, size, args.edits) {
                Some((drafts, fulls)) => row += &format!(" {} | {} |", stats(drafts), stats(fulls)),
                None => row += " — | — |",
            }
        }
        println!("{row}");
    }
}
