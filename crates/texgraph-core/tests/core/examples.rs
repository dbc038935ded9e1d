//! The example materials in graphs/: golden images, seamless tiling, determinism and
//! lossless round-trips.

use crate::common;

use std::path::PathBuf;

use texgraph_core::{Graph, RenderOptions, output_names};

pub const GOLDEN_SIZE: u32 = 256;
/// Largest difference from a golden image: loose enough for kernels that round
/// differently, far below any visible change.
pub const GOLDEN_TOLERANCE: f32 = 1e-4;

/// The golden of `output` of the example `graphs/<stem>.json`.
pub fn golden_path(stem: &str, output: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{stem}_{output}.exr"))
}

#[test]
fn examples_match_golden_images() {
    let mut failures = Vec::new();
    for (stem, graph) in common::examples() {
        for output in output_names(&graph) {
            let image =
                common::render_graph(&graph, Some(&output), GOLDEN_SIZE, RenderOptions::default());
            let what = format!("{stem}/{output}");
            failures.extend(common::against_golden(
                &what,
                &image,
                &golden_path(&stem, &output),
                GOLDEN_TOLERANCE,
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "changed looks:\n{}",
        failures.join("\n")
    );
}

fn assert_tiles(name: &str, graph: &Graph) {
    for output in output_names(graph) {
        let image = common::render_graph(graph, Some(&output), 256, RenderOptions::default());
        for (axis, (interior, wrap)) in ["columns", "rows"].iter().zip(common::seams(&image)) {
            assert!(
                wrap <= interior,
                "{name}/{output}: seam between last and first {axis} is {wrap}, interior jumps reach only {interior}"
            );
        }
    }
}

#[test]
fn tileable_examples_tile() {
    let tileable: Vec<_> = common::examples()
        .into_iter()
        .filter(|(_, g)| g.settings.tileable)
        .collect();
    assert!(!tileable.is_empty(), "at least one example is tileable");
    for (stem, graph) in &tileable {
        assert_tiles(stem, graph);
    }
}

/// Every kind of lattice and pattern node, through fbm with a source, warp, transform and
/// blend, at frequencies that are not whole numbers.
const EVERYTHING_TILEABLE: &str = r##"{ "format": "texgraph", "version": 1, "settings": { "tileable": true },
  "nodes": [
    { "id": "p", "type": "perlin", "params": { "frequency": 3.4, "z": 0.37 } },
    { "id": "v", "type": "value", "params": { "frequency": 5.6, "interpolation": "cosine" } },
    { "id": "fb", "type": "fbm", "params": { "frequency": 2.7, "lacunarity": 2.3, "basis": "value" } },
    { "id": "src", "type": "fbm", "params": { "octaves": 4, "lacunarity": 1.7 }, "inputs": { "source": "p" } },
    { "id": "r", "type": "ridged", "params": { "frequency": 2.2 } },
    { "id": "t", "type": "turbulence", "params": { "frequency": 1.3 } },
    { "id": "w", "type": "warp", "params": { "strength": 0.2 }, "inputs": { "source": "r", "dx": "fb" } },
    { "id": "bands", "type": "wave", "params": { "frequency": 3.3, "angle": 27, "distortion": 0.5 }, "inputs": { "noise": "t" } },
    { "id": "rings", "type": "wave", "params": { "kind": "rings", "frequency": 4.4, "center_x": 0.2 } },
    { "id": "tr", "type": "transform", "params": { "scale_x": 2.2, "scale_y": 0.8, "offset_x": 0.31 }, "inputs": { "source": "v" } },
    { "id": "b1", "type": "blend", "params": { "mode": "overlay" }, "inputs": { "a": "w", "b": "bands", "mask": "src" } },
    { "id": "b2", "type": "blend", "params": { "mode": "screen", "opacity": 0.6 }, "inputs": { "a": "b1", "b": "rings", "mask": "tr" } },
    { "id": "cells", "type": "cellular", "params": { "frequency": 4.3 } },
    { "id": "b3", "type": "blend", "params": { "mode": "multiply" }, "inputs": { "a": "b2", "b": "cells" } },
    { "id": "sx", "type": "fbm", "params": { "frequency": 2.6, "basis": "simplex", "octaves": 3 } },
    { "id": "b4", "type": "blend", "params": { "mode": "overlay" }, "inputs": { "a": "b3", "b": "sx" } },
    { "id": "out", "type": "output", "inputs": { "color": "b4" } } ] }"##;

#[test]
fn every_node_kind_tiles_when_tileable() {
    assert_tiles("everything", &common::graph(EVERYTHING_TILEABLE));
}

#[test]
fn every_raster_node_tiles_when_tileable() {
    // The image is marble rendered tileable, so repeating it is seamless too.
    let image = common::graphs_dir().join("images/marble.png");
    let graph = common::everything_raster(&image.display().to_string(), true);
    assert_tiles("everything raster", &graph);
}

#[test]
fn seam_check_catches_a_seam() {
    let mut graph = common::graph(EVERYTHING_TILEABLE);
    graph.settings.tileable = false;
    let image = common::render_graph(&graph, None, 256, RenderOptions::default());
    let [(interior, wrap), _] = common::seams(&image);
    assert!(
        wrap > interior,
        "without tiling the edges should not match ({wrap} vs {interior})"
    );
}

#[test]
fn same_bits_for_any_thread_count_and_tile_size() {
    for (stem, graph) in common::examples() {
        let one = common::render_graph(
            &graph,
            None,
            160,
            RenderOptions {
                threads: Some(1),
                tile: [64, 64],
                cancel: None,
            },
        );
        for options in [
            RenderOptions {
                threads: Some(4),
                tile: [128, 32],
                cancel: None,
            },
            RenderOptions {
                threads: Some(2),
                tile: [17, 5],
                cancel: None,
            },
        ] {
            let other = common::render_graph(&graph, None, 160, options.clone());
            let same = common::same_bits(&one, &other);
            assert!(same, "{stem} differs with {options:?}");
        }
    }
}

#[test]
fn examples_round_trip_through_json() {
    for (stem, graph) in common::examples() {
        let back = Graph::from_json(&graph.to_json()).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(back, graph, "{stem}");
    }
}

#[test]
fn examples_render_in_range_and_vary() {
    for (stem, graph) in common::examples() {
        let image = common::render_graph(&graph, None, 64, RenderOptions::default());
        let (lo, hi) = image
            .data
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        assert!(
            lo >= -1e-4 && hi <= 1.0001,
            "{stem}: values span {lo}..{hi}"
        );
        assert!(hi - lo > 0.3, "{stem}: nearly flat ({lo}..{hi})");
    }
}

/// An example's output called `height` declares the height usage, so every export of it
/// is 16-bit (or float) without `--depth`: a plain color output would write 8 bits, a
/// terraced heightmap.
#[test]
fn example_height_outputs_have_the_height_usage() {
    for (name, graph) in common::examples() {
        for node in graph.nodes.iter().filter(|n| n.kind == "output") {
            if node.output_name() == "height" {
                assert_eq!(
                    node.usage(),
                    texgraph_core::usage::Usage::Height,
                    "{name}'s height output"
                );
            }
        }
    }
}
