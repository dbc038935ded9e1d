//! The promises texgraph makes about any graph, checked on one graph: shared by the
//! property test (`tests/properties.rs`) and the fuzzer (`fuzz/`).
//!
//! - Loading, validating, compiling and rendering never panic.
//! - What `check` (the CLI's `validate`) accepts, every output compiles and renders;
//!   what compiling refuses, `check` reports with the same problems.
//! - Every rendered sample is finite.
//! - One thread and two threads, with different tile sizes, give identical bits.

use texgraph_core::{Graph, RenderOptions, check, compile, output_names, render};

/// Side of the images rendered (small: the promises do not depend on size).
pub const SIZE: u32 = 16;

/// Parses `text` as a graph (paths relative to `folder`) and checks [`check_graph`] when
/// it parses.
#[allow(dead_code)]
pub fn check_text(text: &str, folder: &std::path::Path) -> Result<(), String> {
    let Ok(mut graph) = Graph::from_json(text) else {
        return Ok(()); // not a graph: refusing it is all there is to do
    };
    graph.resolve_paths(folder);
    check_graph(&graph)
}

/// Checks every promise above on `graph`; the error says which broke.
pub fn check_graph(graph: &Graph) -> Result<(), String> {
    let found = check(graph);
    let accepted = found.errors.is_empty();
    let names = output_names(graph);
    let mut outputs: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
    outputs.push(None);
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
                tile: 5,
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
    }
    Ok(())
}
