//! The promises texgraph makes about any graph, checked on one graph: shared by the
//! property test (`tests/core/properties.rs`) and the fuzzer (`fuzz/`).
//!
//! - Loading, validating, compiling and rendering never panic.
//! - What `check` (the CLI's `validate`) accepts, every output compiles and renders;
//!   what compiling refuses, `check` reports with the same problems.
//! - Every rendered sample is finite.
//! - One thread and two threads, with different tile sizes, give identical bits.

// Each user takes what it needs.
#![allow(dead_code)]

use serde_json::{Value, json};
use texgraph_core::registry::{NODES, ParamKind};
use texgraph_core::{Graph, RenderOptions, check, compile, output_names, render};

/// Side of the images rendered (small: the promises do not depend on size).
pub const SIZE: u32 = 16;

/// Parses `text` as a graph (paths relative to `folder`) and checks [`check_graph`] when
/// it parses.
pub fn check_text(text: &str, folder: &std::path::Path) -> Result<(), String> {
    let Ok(mut graph) = Graph::from_json(text) else {
        return Ok(()); // not a graph: refusing it is all there is to do
    };
    graph.resolve_paths(folder);
    check_graph(&graph)
}

/// Checks every promise above on `graph`; the error says which broke.
pub fn check_graph(graph: &Graph) -> Result<(), String> {
    check_graph_rendering(graph).map(|_| ())
}

/// [`check_graph`], telling how many outputs were rendered (and checked): a caller can
/// then tell a graph that was rendered from one that was only refused.
pub fn check_graph_rendering(graph: &Graph) -> Result<usize, String> {
    let mut rendered = 0;
    let found = check(graph);
    let accepted = found.errors.is_empty();
    let names = output_names(graph);
    let mut outputs: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
    // No name means the first output: compiling it must fare exactly as the first name
    // does, which is rendered below. Only a graph without outputs renders it on its own.
    match names.first() {
        Some(first) => {
            let outcome = |output| {
                compile(graph, output)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            };
            let (unnamed, named) = (outcome(None), outcome(Some(first.as_str())));
            if unnamed != named {
                return Err(format!(
                    "compiling the first output by no name gave {unnamed:?}, by name {named:?}"
                ));
            }
        }
        None => outputs.push(None),
    }
    for output in outputs {
        let program = match compile(graph, output) {
            Ok(program) => program,
            Err(e) if e.problems().is_empty() => {
                return Err(format!(
                    "compiling {output:?} failed without a location: {e}"
                ));
            }
            Err(e) => {
                if accepted && !names.is_empty() {
                    return Err(format!(
                        "validate accepted; compiling {output:?} refused: {e}"
                    ));
                }
                if let Some(p) = e.problems().iter().find(|p| !found.errors.contains(p)) {
                    // With no output at all, compiling the first output has nothing to find.
                    if !(names.is_empty() && output.is_none()) {
                        return Err(format!(
                            "compiling {output:?} refused with '{p}', which validate does not report"
                        ));
                    }
                }
                continue;
            }
        };
        let one = render(
            &program,
            SIZE,
            SIZE,
            RenderOptions {
                threads: Some(1),
                ..RenderOptions::default()
            },
            &|_| {},
        )
        .map_err(|e| format!("rendering {output:?} failed: {e}"))?;
        if let Some(i) = one.data.iter().position(|v| !v.is_finite()) {
            return Err(format!(
                "output {output:?}: sample {i} (pixel {}) is {}",
                i / one.channels,
                one.data[i]
            ));
        }
        let two = render(
            &program,
            SIZE,
            SIZE,
            RenderOptions {
                threads: Some(2),
                tile: [7, 3],
                ..RenderOptions::default()
            },
            &|_| {},
        )
        .map_err(|e| format!("rendering {output:?} on 2 threads failed: {e}"))?;
        let same = one
            .data
            .iter()
            .zip(&two.data)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        if !same {
            return Err(format!("output {output:?}: 1 and 2 threads differ"));
        }
        rendered += 1;
    }
    Ok(rendered)
}

/// One node of a random graph: which type, and numbers that pick its params and inputs.
pub type Recipe = (u16, Vec<u32>, Vec<u32>);

/// A param value picked by `pick`: an end of the range, the default, or a point inside.
pub fn param_value(kind: &ParamKind, pick: u32) -> Option<Value> {
    let fraction = f64::from(pick >> 3) / f64::from(u32::MAX >> 3);
    Some(match *kind {
        ParamKind::Float { default, min, max } | ParamKind::Number { default, min, max } => {
            match pick % 6 {
                0 => json!(min),
                1 => json!(max),
                2 => json!(default),
                _ => json!(f64::from(min) + (f64::from(max) - f64::from(min)) * fraction),
            }
        }
        ParamKind::Int { default, min, max } => match pick % 6 {
            0 => json!(min),
            1 => json!(max.min(64)),
            2 => json!(default),
            // Mostly small: octaves and seeds.
            _ => json!(min + (fraction * (max.min(1000) - min) as f64) as i64),
        },
        ParamKind::Choice { options, .. } => json!(options[pick as usize % options.len()]),
        ParamKind::Bool { .. } => json!(pick % 2 == 1),
        ParamKind::Color { .. } => json!(["#000000", "#ffffff80", "#3a7bd5"][pick as usize % 3]),
        ParamKind::Stops { .. } => match pick % 3 {
            0 => return None,
            1 => json!([{ "pos": fraction, "color": "#ff8800" }]),
            _ => {
                json!([{ "pos": 1.0, "color": "#000000" }, { "pos": fraction, "color": "#ffffff" }])
            }
        },
        ParamKind::Points { .. } => match pick % 3 {
            0 => return None,
            1 => json!([{ "x": fraction, "y": 1.0 }, { "x": 0.0, "y": fraction }]),
            _ => {
                json!([{ "x": 0.0, "y": 0.0 }, { "x": fraction, "y": 1.0 - fraction }, { "x": fraction, "y": 0.5 }, { "x": 1.0, "y": 1.0 }])
            }
        },
        ParamKind::File { .. } => {
            json!(["images/marble.png", "images/wood.png"][pick as usize % 2])
        }
        ParamKind::Text { .. } => json!(format!("o{}", pick % 3)),
        ParamKind::Formula { .. } => json!(
            [
                "a * p1 + b",
                "mix(a, b, smoothstep(0.2, 0.8, c)) / (d - p2)",
                "let q = vec2(u, v) * p3;\nvec3(perlin(q, 4, 1), fract(q))",
                "a.rgb + b",
                "sin(",
            ][pick as usize % 5]
        ),
    })
}

/// The graph a list of recipes describes: node `i` may take inputs from nodes before it,
/// and one or two outputs read the last node and one picked by the first recipe.
pub fn graph_of(recipes: &[Recipe]) -> Value {
    let mut nodes = Vec::new();
    for (i, (kind, params, inputs)) in recipes.iter().enumerate() {
        // The first node has nothing to connect to: a source, so the graph can be valid.
        let sources: Vec<_> = NODES
            .iter()
            .filter(|d| d.inputs.iter().all(|p| !p.required()))
            .collect();
        let desc = if i == 0 {
            sources[*kind as usize % sources.len()]
        } else {
            NODES[*kind as usize % NODES.len()]
        };
        let mut node_params = serde_json::Map::new();
        for (j, param) in desc.params.iter().enumerate() {
            let pick = params[j % params.len()].wrapping_mul(j as u32 + 1);
            if pick % 5 != 4
                && let Some(value) = param_value(&param.kind, pick)
            {
                node_params.insert(param.name.to_owned(), value);
            }
        }
        let mut node_inputs = serde_json::Map::new();
        for (j, (port, _)) in desc.connectable_inputs().enumerate() {
            let pick = inputs[j % inputs.len()].wrapping_add(j as u32 * 7919);
            let required = desc.input(port).is_some_and(|p| p.required());
            if i > 0 && (required || pick % 3 == 0) {
                node_inputs.insert(port.to_owned(), json!(format!("n{}", pick as usize % i)));
            }
        }
        nodes.push(json!({ "id": format!("n{i}"), "type": desc.id, "params": node_params, "inputs": node_inputs }));
    }
    let last = recipes.len() - 1;
    nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": format!("n{last}") } }));
    let other = recipes[0].2[0] as usize % recipes.len();
    if other != last {
        nodes.push(json!({ "id": "out2", "type": "output", "params": { "name": "second" }, "inputs": { "color": format!("n{other}") } }));
    }
    let tileable = recipes[0].1[0].is_multiple_of(2);
    // Any finite time: ordinary, huge or the largest float.
    let time = [0.25, -1e6, 1e30, 3.4e38][(recipes[0].1[0] / 2 % 4) as usize];
    json!({ "format": "texgraph", "version": 1, "settings": { "tileable": tileable, "time": time }, "nodes": nodes })
}

/// Recipes read from raw bytes (the structured fuzz target): 16 bytes a node.
pub fn recipes_from_bytes(data: &[u8]) -> Vec<Recipe> {
    data.chunks_exact(16)
        .take(12)
        .map(|c| {
            let word = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            let kind = u16::from_le_bytes([c[0], c[1]]);
            let params = vec![word(2), word(6), word(2).rotate_left(13) ^ word(10)];
            let inputs = vec![word(10), u32::from(c[14]) | u32::from(c[15]) << 8];
            (kind, params, inputs)
        })
        .collect()
}
