//! The `terrain_splat` library graph and the terrain presets: layer weights that sum to 1,
//! each layer where its rule puts it, and the files the engines import.

use crate::common;
use texgraph_core::export::material::{MaterialSettings, export_preset};
use texgraph_core::export::presets::{self, built_in};
use texgraph_core::{Image, RenderOptions};

/// A terrain of known parts: a low plain on the left with a river band across it, a high
/// plateau on the right above the snow line, a cliff between; the splat of it with
/// `params` (JSON members) set on the library node.
fn terrain(params: &str) -> texgraph_core::Graph {
    common::graph(&format!(
        r#"{{ "format": "texgraph", "version": 5, "nodes": [
            {{ "id": "h", "type": "formula", "params": {{ "expression": "u < 0.5 ? 0.1 + 0.02 * v : 0.9" }} }},
            {{ "id": "flow", "type": "formula", "params": {{ "expression": "(v > 0.4 && v < 0.6) ? 0.9 : 0.05" }} }},
            {{ "id": "none", "type": "constant", "params": {{ "value": 0 }} }},
            {{ "id": "layers", "type": "graph", "params": {{ "file": "library:terrain_splat"{params} }},
              "inputs": {{ "height": "h", "flow": "flow", "deposition": "none" }} }},
            {{ "id": "splat", "type": "output", "params": {{ "name": "splat", "usage": "splat" }}, "inputs": {{ "color": "layers" }} }},
            {{ "id": "height", "type": "output", "params": {{ "name": "height", "usage": "height" }}, "inputs": {{ "color": "h" }} }} ] }}"#
    ))
}

fn splat(graph: &texgraph_core::Graph, size: u32) -> Image {
    common::render_graph(graph, Some("splat"), size, RenderOptions::default())
}

/// The four weights at (`u`, `v`).
fn weights(image: &Image, u: f32, v: f32) -> [f32; 4] {
    let (col, row) = (
        (u * image.width as f32) as u32,
        (v * image.height as f32) as u32,
    );
    std::array::from_fn(|c| common::at(image, col, row, c))
}

#[test]
fn the_weights_sum_to_one_and_none_is_negative() {
    for (graph, what) in [
        (terrain(""), "defaults"),
        (
            terrain(r#", "breakup": 1, "smoothing": 0.02"#),
            "ragged, smoothed",
        ),
        (common::example("eroded_mountains"), "eroded_mountains"),
    ] {
        let image = splat(&graph, 128);
        assert_eq!(image.channels, 4);
        for (i, px) in image.data.chunks(4).enumerate() {
            let sum: f32 = px.iter().sum();
            assert!((sum - 1.0).abs() < 1e-6, "{what}: texel {i}: {px:?}");
            assert!(
                px.iter().all(|&w| (0.0..=1.0).contains(&w)),
                "{what}: {px:?}"
            );
        }
    }
}

#[test]
fn each_layer_lies_where_its_rule_puts_it() {
    // No noise, no blur: the rules alone.
    let image = splat(&terrain(r#", "breakup": 0, "smoothing": 0"#), 128);
    let [sediment, grass, rock, snow] = [0, 1, 2, 3];
    let plain = weights(&image, 0.25, 0.2);
    assert!(plain[grass] > 0.99, "grass on the plain: {plain:?}");
    let river = weights(&image, 0.25, 0.5);
    assert!(
        river[sediment] > 0.99,
        "sediment along the river: {river:?}"
    );
    let plateau = weights(&image, 0.8, 0.2);
    assert!(plateau[snow] > 0.99, "snow on the plateau: {plateau:?}");
    // Snow covers the river band where it crosses the plateau.
    assert!(weights(&image, 0.8, 0.5)[snow] > 0.99);
    // The cliff: the normal map's kernel reads a texel either side of the step.
    let cliff = (60..68)
        .map(|col| common::at(&image, col, 30, rock))
        .fold(0.0f32, f32::max);
    assert!(cliff > 0.99, "rock on the cliff: {cliff}");
    // A lower snow line brings snow down onto the plain.
    let low_snow = splat(
        &terrain(r#", "breakup": 0, "smoothing": 0, "snow_line": 0.05"#),
        64,
    );
    assert!(weights(&low_snow, 0.25, 0.2)[snow] > 0.99);
}

#[test]
fn the_terrain_presets_write_what_unity_and_unreal_import() {
    let graph = terrain("");
    let dir = tempfile::tempdir().unwrap();
    let size = 33;
    let settings = |format| MaterialSettings {
        width: size,
        height: size,
        format,
        graph_name: "t".into(),
        options: RenderOptions::default(),
    };
    let presets = built_in();
    let find = |name: &str| presets::find(&presets, name).unwrap().clone();
    let splat = splat(&graph, size);

    let unity = dir.path().join("unity");
    export_preset(
        &graph,
        &find("unity-terrain"),
        &settings(None),
        &unity,
        &|_| {},
    )
    .unwrap();
    assert_eq!(
        common::dir_entries(&unity),
        ["t_heightmap.r16", "t_splatmap.png"]
    );
    let raw = std::fs::read(unity.join("t_heightmap.r16")).unwrap();
    assert_eq!(raw.len(), (size * size * 2) as usize);
    let png = image::open(unity.join("t_splatmap.png"))
        .unwrap()
        .to_rgba8();
    for (px, want) in png.pixels().zip(splat.data.chunks(4)) {
        for c in 0..4 {
            assert_eq!(px[c], (want[c] * 255.0).round() as u8);
        }
    }

    let unreal = dir.path().join("unreal");
    export_preset(
        &graph,
        &find("unreal-landscape"),
        &settings(None),
        &unreal,
        &|_| {},
    )
    .unwrap();
    assert_eq!(
        common::dir_entries(&unreal),
        [
            "t_heightmap.png",
            "t_layer1.png",
            "t_layer2.png",
            "t_layer3.png",
            "t_layer4.png"
        ]
    );
    let height = image::open(unreal.join("t_heightmap.png")).unwrap();
    assert!(matches!(height, image::DynamicImage::ImageLuma16(_)));
    for layer in 0..4 {
        let file = unreal.join(format!("t_layer{}.png", layer + 1));
        let image::DynamicImage::ImageLuma8(gray) = image::open(&file).unwrap() else {
            panic!("{file:?} is 8-bit gray");
        };
        for (px, want) in gray.pixels().zip(splat.data.chunks(4)) {
            assert_eq!(px[0], (want[layer] * 255.0).round() as u8, "{file:?}");
        }
    }
}
