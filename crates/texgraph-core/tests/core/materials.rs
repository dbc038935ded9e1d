//! Materials: output usages, their color spaces in files, all maps rendered as one program,
//! and export presets packing maps into engines' files.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use texgraph_core::compile::compile_outputs;
use texgraph_core::eval::split_outputs;
use texgraph_core::export::Format;
use texgraph_core::export::material::{MaterialSettings, export_preset};
use texgraph_core::export::presets::{self, Preset, built_in, parse_presets};
use texgraph_core::export::{Depth, ExportSettings, export_all, export_graph};
use texgraph_core::{Graph, Image, RenderOptions, compile, diagnose, render};

/// A small material: a height feeding a normal map, roughness and a base color, a
/// constant metallic; no occlusion, emissive or opacity.
const STONE: &str = r##"{
  "format": "texgraph", "version": 4, "name": "stone",
  "settings": { "tileable": true },
  "nodes": [
    { "id": "h", "type": "fbm", "params": { "frequency": 4, "octaves": 4, "seed": 3 } },
    { "id": "n", "type": "normal", "params": { "strength": 2 }, "inputs": { "height": "h" } },
    { "id": "r", "type": "levels", "params": { "in_low": 0.2, "in_high": 0.9 }, "inputs": { "input": "h" } },
    { "id": "c", "type": "gradient", "params": { "stops": [
        { "pos": 0, "color": "#302820" }, { "pos": 1, "color": "#c8b8a0" } ] }, "inputs": { "input": "h" } },
    { "id": "m", "type": "constant", "params": { "value": 0.25 } },
    { "id": "base", "type": "output", "params": { "name": "base", "usage": "basecolor" }, "inputs": { "color": "c" } },
    { "id": "nrm", "type": "output", "params": { "name": "nrm", "usage": "normal" }, "inputs": { "color": "n" } },
    { "id": "rough", "type": "output", "params": { "name": "rough", "usage": "roughness" }, "inputs": { "color": "r" } },
    { "id": "metal", "type": "output", "params": { "name": "metal", "usage": "metallic" }, "inputs": { "color": "m" } },
    { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "h" } }
  ]
}"##;

fn stone() -> Graph {
    common::graph(STONE)
}

fn alone(graph: &Graph, output: &str, size: u32) -> Image {
    common::render_graph(graph, Some(output), size, RenderOptions::default())
}

fn settings(size: u32, format: Option<Format>) -> MaterialSettings {
    MaterialSettings {
        width: size,
        height: size,
        format,
        graph_name: "stone".into(),
        options: RenderOptions::default(),
    }
}

fn preset(name: &str) -> Preset {
    presets::find(&built_in(), name).unwrap().clone()
}

/// A PNG's samples as 0–65535 (8-bit ones scaled by 257), with its channel count and
/// whether it carries the sRGB chunk.
fn read_png(path: &Path) -> (Vec<u16>, usize, bool) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let srgb = reader.info().srgb.is_some();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let channels = info.color_type.samples();
    let bytes = &buffer[..info.buffer_size()];
    let samples = match info.bit_depth {
        png::BitDepth::Eight => bytes.iter().map(|&b| u16::from(b) * 257).collect(),
        png::BitDepth::Sixteen => bytes
            .chunks_exact(2)
            .map(|p| u16::from_be_bytes([p[0], p[1]]))
            .collect(),
        other => panic!("{other:?}"),
    };
    (samples, channels, srgb)
}

fn channel(samples: &[u16], channels: usize, c: usize) -> Vec<u16> {
    samples.iter().skip(c).step_by(channels).copied().collect()
}

/// What an 8-bit file holds for a rendered value, scaled to 16 bits.
fn eight(v: f32) -> u16 {
    u16::from((v.clamp(0.0, 1.0) * 255.0).round() as u8) * 257
}

#[test]
fn usages_are_validated_one_map_each_and_fitting_what_feeds_them() {
    let mut graph = stone();
    graph.node_mut("metal").unwrap().params.insert(
        "usage".into(),
        texgraph_core::ParamValue::Text("roughness".into()),
    );
    let errors = diagnose(&graph).errors;
    let shared = errors
        .iter()
        .find(|e| e.location.field.as_deref() == Some("usage"))
        .expect("a shared usage is an error");
    assert_eq!(shared.location.node.as_deref(), Some("metal"));
    assert!(shared.message.contains("'rough'"), "{}", shared.message);

    // A color into a one-channel usage, and a height into a normal map.
    let mut graph = stone();
    graph
        .node_mut("rough")
        .unwrap()
        .inputs
        .insert("color".into(), "c".into());
    let error = compile(&graph, Some("rough")).unwrap_err().to_string();
    assert!(
        error.contains("rough") && error.contains("usage") && error.contains("color"),
        "{error}"
    );
    let mut graph = stone();
    graph
        .node_mut("nrm")
        .unwrap()
        .inputs
        .insert("color".into(), "h".into());
    let error = texgraph_core::check(&graph).errors[0].to_string();
    assert!(error.contains("nrm") && error.contains("normal"), "{error}");

    // A scalar into a base color is gray.
    let mut graph = stone();
    graph
        .node_mut("base")
        .unwrap()
        .inputs
        .insert("color".into(), "h".into());
    let gray = alone(&graph, "base", 16);
    let height = alone(&graph, "height", 16);
    assert_eq!(gray.channels, 4);
    for (pixel, h) in gray.data.chunks_exact(4).zip(&height.data) {
        assert_eq!(pixel, [*h, *h, *h, 1.0]);
    }
}

#[test]
fn a_usage_is_saved_as_format_version_4_and_color_keeps_older_versions() {
    let graph = stone();
    assert_eq!(graph.required_version(), 4);
    let mut plain = common::example("marble_normal");
    assert_eq!(plain.required_version(), 1);
    plain.nodes[4].params.insert(
        "usage".into(),
        texgraph_core::ParamValue::Text("color".into()),
    );
    assert_eq!(plain.required_version(), 1);
}

#[test]
fn all_maps_rendered_as_one_program_equal_each_map_alone_bit_for_bit() {
    let graph = stone();
    let names: Vec<String> = ["base", "nrm", "rough", "metal", "height"]
        .map(String::from)
        .to_vec();
    let program = compile_outputs(&graph, &names).unwrap();
    assert_eq!(program.channels(), 4 + 4 + 1 + 1 + 1);
    let together = render(&program, 48, 40, RenderOptions::default(), &|_| {}).unwrap();
    let maps = split_outputs(&program, together).unwrap();
    for (name, map) in names.iter().zip(&maps) {
        let single = compile(&graph, Some(name)).unwrap();
        let expected = render(&single, 48, 40, RenderOptions::default(), &|_| {}).unwrap();
        assert_eq!(map.channels, expected.channels, "{name}");
        let same = common::same_bits(map, &expected);
        assert!(same, "{name} differs when rendered with the others");
    }
    // The height is computed once: the one program has fewer operations than the five.
    let separate: usize = names
        .iter()
        .map(|n| compile(&graph, Some(n)).unwrap().operation_count())
        .sum();
    assert!(
        program.operation_count() < separate,
        "{} operations together, {separate} apart",
        program.operation_count()
    );
}

#[test]
fn srgb_maps_are_linear_in_exr_and_tagged_in_png_data_maps_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let graph = stone();
    let job = |output: &str, depth: Depth, file: &str| {
        let settings = ExportSettings {
            width: 16,
            height: 16,
            depth,
            output: Some(output.into()),
            options: RenderOptions::default(),
        };
        export_graph(&graph, &settings, &dir.path().join(file), &|_| {}).unwrap();
    };
    job("base", Depth::Float, "base.exr");
    job("base", Depth::Sixteen, "base.png");
    job("rough", Depth::Eight, "rough.png");
    job("rough", Depth::Float, "rough.exr");
    let rendered = alone(&graph, "base", 16);
    let exr = texgraph_core::export::read_exr(&dir.path().join("base.exr")).unwrap();
    for (i, (&e, &v)) in exr.data.iter().zip(&rendered.data).enumerate() {
        // The IEC 61966-2-1 decoding, written out here in f64.
        let v = f64::from(v);
        let linear = if i % 4 == 3 {
            v
        } else if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        };
        assert!(
            (f64::from(e) - linear).abs() < 1e-6,
            "sample {i}: {e} vs {linear}"
        );
    }
    let (samples, channels, srgb) = read_png(&dir.path().join("base.png"));
    assert!(srgb, "a base color PNG carries the sRGB chunk");
    assert_eq!(channels, 4);
    let sixteen = |v: f32| (v.clamp(0.0, 1.0) * 65535.0).round() as u16;
    assert!(
        samples
            .iter()
            .zip(&rendered.data)
            .all(|(&s, &v)| s == sixteen(v))
    );
    let (_, _, srgb) = read_png(&dir.path().join("rough.png"));
    assert!(!srgb, "data maps carry no sRGB chunk");
    let rough = texgraph_core::export::read_exr(&dir.path().join("rough.exr")).unwrap();
    assert_eq!(rough.data, alone(&graph, "rough", 16).data);

    // A graph without usages writes what it always did: no chunk.
    let marble = common::example("marble");
    let settings = ExportSettings {
        width: 16,
        height: 16,
        depth: Depth::Eight,
        output: None,
        options: RenderOptions::default(),
    };
    export_graph(&marble, &settings, &dir.path().join("marble.png"), &|_| {}).unwrap();
    assert!(!read_png(&dir.path().join("marble.png")).2);
}

#[test]
fn all_outputs_are_written_from_one_render_with_each_maps_color_space() {
    let dir = tempfile::tempdir().unwrap();
    let graph = stone();
    let targets: Vec<(ExportSettings, std::path::PathBuf)> = ["base", "rough"]
        .iter()
        .map(|name| {
            let settings = ExportSettings {
                width: 24,
                height: 24,
                depth: Depth::Eight,
                output: Some((*name).into()),
                options: RenderOptions::default(),
            };
            (settings, dir.path().join(format!("{name}.png")))
        })
        .collect();
    let written = export_all(&graph, &targets, &|_| {}).unwrap();
    assert_eq!(written.len(), 2);
    assert!(read_png(&dir.path().join("base.png")).2);
    assert!(!read_png(&dir.path().join("rough.png")).2);
    let (rough, _, _) = read_png(&dir.path().join("rough.png"));
    let expected: Vec<u16> = alone(&graph, "rough", 24)
        .data
        .iter()
        .map(|&v| eight(v))
        .collect();
    assert_eq!(rough, expected);
}

/// Renders `preset` for the stone into a new folder; the files by name.
fn write_preset(name: &str, size: u32) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let written = export_preset(
        &stone(),
        &preset(name),
        &settings(size, None),
        dir.path(),
        &|_| {},
    )
    .unwrap();
    let names = written
        .iter()
        .map(|w| w.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    (dir, names)
}

#[test]
fn packed_channels_equal_their_maps_with_inversion_flips_and_neutral_values() {
    let size = 32;
    let graph = stone();
    let map = |name: &str| alone(&graph, name, size);
    let (base, nrm, rough, metal) = (map("base"), map("nrm"), map("rough"), map("metal"));
    let gray = |image: &Image| -> Vec<u16> { image.data.iter().map(|&v| eight(v)).collect() };
    let color = |image: &Image, c: usize| -> Vec<u16> {
        image
            .data
            .iter()
            .skip(c)
            .step_by(4)
            .map(|&v| eight(v))
            .collect()
    };
    let inverted =
        |image: &Image| -> Vec<u16> { image.data.iter().map(|&v| eight(1.0 - v)).collect() };
    let all = |value: u16| vec![value; (size * size) as usize];

    // glTF: ORM = occlusion (none: 1), roughness, metallic; base color alpha = opacity (none: 1).
    let (dir, names) = write_preset("gltf", size);
    assert_eq!(
        names,
        [
            "stone_baseColor.png",
            "stone_normal.png",
            "stone_occlusionRoughnessMetallic.png"
        ]
    );
    let (orm, c, srgb) = read_png(&dir.path().join("stone_occlusionRoughnessMetallic.png"));
    assert_eq!(c, 4);
    assert!(!srgb);
    assert_eq!(channel(&orm, 4, 0), all(65535));
    assert_eq!(channel(&orm, 4, 1), gray(&rough));
    assert_eq!(channel(&orm, 4, 2), gray(&metal));
    let (bc, _, srgb) = read_png(&dir.path().join("stone_baseColor.png"));
    assert!(
        srgb,
        "the base color is tagged sRGB though its alpha is opacity"
    );
    for c in 0..3 {
        assert_eq!(channel(&bc, 4, c), color(&base, c));
    }
    assert_eq!(channel(&bc, 4, 3), all(65535));
    let (gl, _, _) = read_png(&dir.path().join("stone_normal.png"));
    for c in 0..3 {
        assert_eq!(channel(&gl, 4, c), color(&nrm, c));
    }
    assert!(dir.path().join("stone.gltf").is_file());
    assert!(dir.path().join("stone.bin").is_file());

    // Unreal: the DirectX green is the OpenGL green flipped; 16-bit height.
    let (dir, names) = write_preset("unreal", size);
    assert_eq!(
        names,
        [
            "T_stone_BC.png",
            "T_stone_N.png",
            "T_stone_ORM.png",
            "T_stone_H.png"
        ]
    );
    let (dx, _, _) = read_png(&dir.path().join("T_stone_N.png"));
    let flipped: Vec<u16> = nrm
        .data
        .iter()
        .skip(1)
        .step_by(4)
        .map(|&g| eight(1.0 - g))
        .collect();
    assert_eq!(channel(&dx, 4, 1), flipped);
    assert_eq!(channel(&dx, 4, 0), channel(&gl, 4, 0));
    let differ = channel(&dx, 4, 1)
        .iter()
        .zip(channel(&gl, 4, 1))
        .filter(|(a, b)| **a != *b)
        .count();
    assert!(differ > 0);
    let (height, c, _) = read_png(&dir.path().join("T_stone_H.png"));
    assert_eq!(c, 1);
    let h = map("height");
    let sixteen: Vec<u16> = h
        .data
        .iter()
        .map(|&v| (v.clamp(0.0, 1.0) * 65535.0).round() as u16)
        .collect();
    assert_eq!(height, sixteen);

    // Unity HDRP mask map: metallic, occlusion, detail mask (1), smoothness = 1 − roughness.
    let (dir, _) = write_preset("unity-hdrp", size);
    let (mask, _, _) = read_png(&dir.path().join("stone_MaskMap.png"));
    assert_eq!(channel(&mask, 4, 0), gray(&metal));
    assert_eq!(channel(&mask, 4, 1), all(65535));
    assert_eq!(channel(&mask, 4, 2), all(65535));
    assert_eq!(channel(&mask, 4, 3), inverted(&rough));

    // Unity URP metallic map: blue 0.
    let (dir, _) = write_preset("unity-urp", size);
    let (urp, _, _) = read_png(&dir.path().join("stone_MetallicSmoothness.png"));
    assert_eq!(channel(&urp, 4, 2), all(0));
    assert_eq!(channel(&urp, 4, 3), inverted(&rough));

    // Separate: one file per map the graph has, each in its own depth.
    let (dir, names) = write_preset("separate", size);
    assert_eq!(
        names,
        [
            "stone_basecolor.png",
            "stone_normal.png",
            "stone_roughness.png",
            "stone_metallic.png",
            "stone_height.png"
        ]
    );
    let (r, c, _) = read_png(&dir.path().join("stone_roughness.png"));
    assert_eq!((c, r), (1, gray(&rough)));
}

#[test]
fn a_preset_writes_the_same_pixels_as_each_map_exported_alone() {
    let dir = tempfile::tempdir().unwrap();
    let graph = stone();
    let written = export_preset(
        &graph,
        &preset("separate"),
        &settings(40, None),
        dir.path(),
        &|_| {},
    )
    .unwrap();
    let usages: HashMap<&str, &str> = [
        ("basecolor", "base"),
        ("normal", "nrm"),
        ("roughness", "rough"),
        ("metallic", "metal"),
        ("height", "height"),
    ]
    .into();
    for done in written {
        let file = done
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let usage = file.trim_start_matches("stone_").trim_end_matches(".png");
        let alone_path = dir.path().join(format!("alone_{usage}.png"));
        let settings = ExportSettings {
            width: 40,
            height: 40,
            depth: done.depth,
            output: Some(usages[usage].into()),
            options: RenderOptions::default(),
        };
        export_graph(&graph, &settings, &alone_path, &|_| {}).unwrap();
        assert_eq!(
            std::fs::read(&done.path).unwrap(),
            std::fs::read(&alone_path).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn built_in_presets_print_in_the_schema_of_preset_files() {
    let all = built_in();
    let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "gltf",
            "unreal",
            "unity-hdrp",
            "unity-urp",
            "godot",
            "heightmap-raw",
            "unity-terrain",
            "unreal-landscape",
            "separate"
        ]
    );
    let json = serde_json::to_string(&all.iter().map(Preset::to_json).collect::<Vec<_>>()).unwrap();
    assert_eq!(parse_presets(&json).unwrap(), all);
}

#[test]
fn a_bad_preset_file_is_refused_naming_the_preset_and_field() {
    let cases = [
        (
            r#"[{"name": "studio", "files": [{"file": "{graph}_x.png", "map": "rougness"}]}]"#,
            "studio",
            "files[0].map",
            "unknown usage",
        ),
        (
            r#"[{"name": "studio", "files": [{"file": "a.png", "channels": {"r": "metallic", "q": "roughness"}}]}]"#,
            "studio",
            "files[0].channels.q",
            "unknown channel",
        ),
        (
            r#"[{"name": "studio", "files": [{"file": "a.png", "channels": {"r": "basecolor"}}]}]"#,
            "studio",
            "files[0].channels.r",
            "is a color",
        ),
        (
            r#"[{"name": "studio", "files": [{"file": "a.png", "channels": {"r": "metallic.x"}}]}]"#,
            "studio",
            "files[0].channels.r",
            "unknown channel",
        ),
        (
            r#"[{"name": "studio", "files": [{"file": "a.{usage}.png", "channels": {"r": "metallic"}}]}]"#,
            "studio",
            "files[0].file",
            "{usage}",
        ),
        (
            r#"[{"name": "studio", "files": [{"file": "a.png", "map": "height", "bits": 12}]}]"#,
            "studio",
            "files[0].bits",
            "8, 16 or 32",
        ),
        (
            r#"[{"name": "studio", "format": "webp", "files": [{"file": "a.png", "map": "height"}]}]"#,
            "studio",
            "format",
            "unknown format",
        ),
        (
            r#"[{"name": "studio", "filez": []}]"#,
            "studio",
            "filez",
            "unknown field",
        ),
        (r#"[{"files": []}]"#, "#1", "name", "missing"),
        (
            r#"[{"name": "a", "files": [{"file": "x.png", "map": "height"}]}, {"name": "a", "files": [{"file": "y.png", "map": "height"}]}]"#,
            "a",
            "name",
            "another preset",
        ),
    ];
    for (text, preset, field, message) in cases {
        let error = parse_presets(text).unwrap_err();
        assert_eq!(error.preset, preset, "{text}");
        assert_eq!(error.field, field, "{text}");
        assert!(error.message.contains(message), "{text}: {}", error.message);
    }
    assert!(parse_presets("[{").unwrap_err().message.contains("JSON"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("studio.json");
    std::fs::write(&file, cases[0].0).unwrap();
    let error = presets::load_presets(&file).unwrap_err().to_string();
    assert!(
        error.contains("studio.json") && error.contains("files[0].map"),
        "{error}"
    );
}

#[test]
fn a_user_preset_packs_channels_as_it_says() {
    let studio = &parse_presets(
        r#"{"name": "studio", "format": "png", "files": [
            {"file": "{graph}_RMH.{ext}", "channels": {"r": "roughness", "g": "1-metallic", "b": "height", "a": 0.5}},
            {"file": "{graph}_{usage}.{ext}", "map": "emissive", "optional": true},
            {"file": "{graph}_{usage}.{ext}", "map": "opacity"}
        ]}"#,
    )
    .unwrap()[0];
    let dir = tempfile::tempdir().unwrap();
    let written =
        export_preset(&stone(), studio, &settings(16, None), dir.path(), &|_| {}).unwrap();
    assert_eq!(written.len(), 2, "the optional emissive is left out");
    let (rmh, _, _) = read_png(&dir.path().join("stone_RMH.png"));
    let graph = stone();
    let metal = alone(&graph, "metal", 16);
    // It holds a height, so it is 16-bit, as the height's own file would be.
    let sixteen = |v: f32| (v.clamp(0.0, 1.0) * 65535.0).round() as u16;
    let expected: Vec<u16> = metal.data.iter().map(|&v| sixteen(1.0 - v)).collect();
    assert_eq!(channel(&rmh, 4, 1), expected);
    assert!(channel(&rmh, 4, 3).iter().all(|&a| a == sixteen(0.5)));
    let (opacity, c, _) = read_png(&dir.path().join("stone_opacity.png"));
    assert_eq!(c, 1);
    assert!(
        opacity.iter().all(|&v| v == 65535),
        "a missing opacity is opaque"
    );
}

#[test]
fn a_preset_refuses_a_file_for_a_folder_and_a_graph_without_maps_leaving_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not_a_folder");
    std::fs::write(&file, b"precious").unwrap();
    let error = export_preset(
        &stone(),
        &preset("gltf"),
        &settings(16, None),
        &file,
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("not_a_folder") && error.contains("folder"),
        "{error}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"precious");

    let marble = common::example("marble");
    let error = export_preset(
        &marble,
        &preset("unreal"),
        &settings(16, None),
        dir.path(),
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("unreal") && error.contains("usage"),
        "{error}"
    );

    // DDS of a size that is not a multiple of 4 is refused before anything is written.
    let out = dir.path().join("dds");
    let error = export_preset(
        &stone(),
        &preset("unreal"),
        &settings(30, Some(Format::Dds)),
        &out,
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("multiples of 4") && error.contains("T_stone_BC.dds"),
        "{error}"
    );
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

#[test]
fn the_preset_tables_in_the_docs_are_the_presets_data() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/materials.md");
    let docs = std::fs::read_to_string(path).unwrap();
    let tables = presets::markdown(&built_in());
    let begin = docs.find("<!-- presets:begin -->\n").unwrap() + "<!-- presets:begin -->\n".len();
    let end = docs.find("<!-- presets:end -->").unwrap();
    assert_eq!(
        docs[begin..end].trim_end(),
        tables.trim_end(),
        "refresh with `texgraph presets --markdown`"
    );
}

#[test]
fn the_gltf_preset_binds_each_of_its_files_to_its_slot() {
    let (dir, _) = write_preset("gltf", 16);
    let (document, _, images) = gltf::import(dir.path().join("stone.gltf")).unwrap();
    assert_eq!(images.len(), 3, "base color, normal and one ORM image");
    let material = document.materials().next().unwrap();
    let uri = |texture: gltf::Texture<'_>| match texture.source().source() {
        gltf::image::Source::Uri { uri, .. } => uri.to_owned(),
        gltf::image::Source::View { .. } => panic!("textures are files"),
    };
    let pbr = material.pbr_metallic_roughness();
    assert_eq!(
        uri(pbr.base_color_texture().unwrap().texture()),
        "stone_baseColor.png"
    );
    assert_eq!(
        uri(pbr.metallic_roughness_texture().unwrap().texture()),
        "stone_occlusionRoughnessMetallic.png"
    );
    assert_eq!(
        uri(material.occlusion_texture().unwrap().texture()),
        "stone_occlusionRoughnessMetallic.png"
    );
    assert_eq!(
        uri(material.normal_texture().unwrap().texture()),
        "stone_normal.png"
    );
    assert!(
        material.emissive_texture().is_none(),
        "the stone has no emissive map"
    );
    assert_eq!(material.alpha_mode(), gltf::material::AlphaMode::Opaque);
}

#[test]
fn every_material_example_renders_with_every_preset() {
    let materials = ["cobblestone_floor", "brick_wall", "rusted_metal", "lava"];
    for stem in materials {
        let graph = common::example(stem);
        let maps = texgraph_core::export::material::material_outputs(&graph);
        for usage in [
            "basecolor",
            "normal",
            "roughness",
            "height",
            "ambient_occlusion",
        ] {
            let usage = texgraph_core::usage::Usage::parse(usage).unwrap();
            assert!(maps.contains_key(&usage), "{stem} has no {usage:?} map");
        }
        for preset in built_in() {
            let dir = tempfile::tempdir().unwrap();
            let mut settings = settings(32, None);
            settings.graph_name = stem.into();
            let written = export_preset(&graph, &preset, &settings, dir.path(), &|_| {})
                .unwrap_or_else(|e| panic!("{stem} with {}: {e}", preset.name));
            for done in &written {
                if done.path.extension().is_some_and(|e| e == "r16") {
                    // A headerless heightmap: two bytes a pixel.
                    let bytes = std::fs::read(&done.path).unwrap();
                    assert_eq!(bytes.len(), 32 * 32 * 2, "{}", done.path.display());
                    continue;
                }
                let (samples, channels, _) = read_png(&done.path);
                assert_eq!(samples.len(), 32 * 32 * channels, "{}", done.path.display());
            }
            // Every file the preset asks for, less the optional ones whose maps are absent.
            let expected = preset
                .files
                .iter()
                .filter(|f| !f.optional || f.usages().iter().any(|u| maps.contains_key(u)))
                .count();
            assert_eq!(written.len(), expected, "{stem} with {}", preset.name);
        }
    }
    // The emissive map of the lava goes where engines read it.
    let dir = tempfile::tempdir().unwrap();
    let mut lava = settings(32, Some(Format::Dds));
    lava.graph_name = "lava".into();
    export_preset(
        &common::example("lava"),
        &preset("unreal"),
        &lava,
        dir.path(),
        &|_| {},
    )
    .unwrap();
    assert!(dir.path().join("T_lava_E.dds").is_file());
}

#[test]
fn a_looping_graph_renders_each_map_together_as_alone() {
    // Two maps of one time-driven noise, at a phase where the loop crossfades.
    let graph = common::graph(
        r##"{ "format": "texgraph", "version": 4, "settings": { "time": 0.7, "loop": 2 },
        "nodes": [
          { "id": "t", "type": "time" },
          { "id": "n", "type": "perlin", "params": { "frequency": 5 }, "inputs": { "z": "t" } },
          { "id": "l", "type": "levels", "params": { "in_low": 0.3 }, "inputs": { "input": "n" } },
          { "id": "a", "type": "output", "params": { "name": "a", "usage": "height" }, "inputs": { "color": "n" } },
          { "id": "b", "type": "output", "params": { "name": "b", "usage": "roughness" }, "inputs": { "color": "l" } } ] }"##,
    );
    let names = ["a".to_owned(), "b".to_owned()];
    let program = compile_outputs(&graph, &names).unwrap();
    let image = render(&program, 24, 24, RenderOptions::default(), &|_| {}).unwrap();
    for (name, map) in names.iter().zip(split_outputs(&program, image).unwrap()) {
        let single = alone(&graph, name, 24);
        let same = common::same_bits(&map, &single);
        assert!(same, "{name} differs when rendered with the other");
    }
}

#[test]
fn a_preset_that_reads_none_of_the_graphs_maps_writes_neutral_files() {
    // A height alone, exported for glTF, which reads no height.
    let graph = common::graph(
        r##"{ "format": "texgraph", "version": 4, "nodes": [
          { "id": "n", "type": "perlin" },
          { "id": "h", "type": "output", "params": { "name": "h", "usage": "height" }, "inputs": { "color": "n" } } ] }"##,
    );
    let dir = tempfile::tempdir().unwrap();
    let written = export_preset(
        &graph,
        &preset("gltf"),
        &settings(8, None),
        dir.path(),
        &|_| {},
    )
    .unwrap();
    assert_eq!(written.len(), 3);
    let (orm, _, _) = read_png(&dir.path().join("stone_occlusionRoughnessMetallic.png"));
    assert_eq!(
        &orm[..4],
        [65535, 65535, 0, 65535],
        "occlusion 1, roughness 1, metallic 0"
    );
    let (normal, _, _) = read_png(&dir.path().join("stone_normal.png"));
    assert_eq!(&normal[..4], [eight(0.5), eight(0.5), 65535, 65535], "flat");
}

#[test]
fn the_gltf_preset_refuses_formats_its_gltf_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let error = export_preset(
        &stone(),
        &preset("gltf"),
        &settings(16, Some(Format::Dds)),
        &out,
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("gltf") && error.contains("PNG") && error.contains("DDS"),
        "{error}"
    );
    assert!(!out.exists(), "nothing is made for a refused set");
}
