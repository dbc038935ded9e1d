//! The editor's export dialog writes the same bytes as `texgraph render` with the same
//! settings: the dialog's fields make the request its job runs.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use texgraph_core::Graph;
use texgraph_core::export::Format;
use texgraph_editor::jobs::export::ExportJob;
use texgraph_editor::panels::export_dialog::{ExportDialog, ImageKind, Motion};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../graphs")
        .join(name)
}

fn cli_render(dir: &Path, graph: &Path, args: &[&str]) {
    Command::cargo_bin("texgraph")
        .expect("binary built")
        .current_dir(dir)
        .arg("render")
        .arg(graph)
        .args(args)
        .assert()
        .success();
}

/// What the dialog's Export button writes with the fields of `dialog`.
fn editor_export(graph: &Path, dialog: ExportDialog) -> Vec<PathBuf> {
    let graph = Graph::load(graph).unwrap();
    let request = dialog.request(&graph).expect("the fields make a request");
    let written = ExportJob::start(graph, request, || {})
        .wait()
        .expect("exported");
    written.into_iter().map(|w| w.path).collect()
}

#[test]
fn png_16_bit_at_a_custom_size_matches_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let editor = editor_export(
        &example("marble.json"),
        ExportDialog {
            preset: None,
            width: 96,
            height: 64,
            kind: ImageKind::PNG16,
            output: Some("basecolor".into()),
            path: dir.path().join("editor.png").display().to_string(),
            ..ExportDialog::default()
        },
    );
    cli_render(
        dir.path(),
        &example("marble.json"),
        &["--size", "96x64", "--depth", "16", "-o", "cli.png"],
    );
    let cli = std::fs::read(dir.path().join("cli.png")).unwrap();
    assert_eq!(editor, [dir.path().join("editor.png")]);
    assert_eq!(std::fs::read(&editor[0]).unwrap(), cli);
    let decoded = image::open(&editor[0]).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (96, 64));
    assert_eq!(decoded.color(), image::ColorType::Rgba16);
}

#[test]
fn every_output_as_exr_matches_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let editor = editor_export(
        &example("terrain.json"),
        ExportDialog {
            preset: Some(64),
            kind: ImageKind::EXR,
            output: None,
            path: dir.path().join("editor.exr").display().to_string(),
            ..ExportDialog::default()
        },
    );
    cli_render(
        dir.path(),
        &example("terrain.json"),
        &["--size", "64", "--all-outputs", "-o", "cli.exr"],
    );
    assert_eq!(editor.len(), 2, "{editor:?}");
    for path in editor {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let twin = dir.path().join(name.replace("editor", "cli"));
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&twin).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn one_named_output_as_png_8_matches_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let editor = editor_export(
        &example("terrain.json"),
        ExportDialog {
            preset: None,
            width: 80,
            height: 80,
            kind: ImageKind::PNG8,
            output: Some("color".into()),
            path: dir.path().join("editor.png").display().to_string(),
            ..ExportDialog::default()
        },
    );
    cli_render(
        dir.path(),
        &example("terrain.json"),
        &["--size", "80", "--output", "color", "-o", "cli.png"],
    );
    assert_eq!(
        std::fs::read(&editor[0]).unwrap(),
        std::fs::read(dir.path().join("cli.png")).unwrap()
    );
}

#[test]
fn animations_match_the_cli_as_gif_sheet_and_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let fire = example("fire_loop.json");
    // File name, sheet, format, and the CLI's matching flags.
    type Case<'a> = (&'a str, Motion, ImageKind, &'a [&'a str]);
    let cases: [Case; 3] = [
        ("anim.gif", Motion::Gif, ImageKind::PNG8, &[]),
        (
            "sheet.png",
            Motion::Sheet,
            ImageKind::PNG16,
            &["--sheet", "3x2", "--depth", "16"],
        ),
        ("f_##.exr", Motion::Sequence, ImageKind::EXR, &[]),
    ];
    for (name, motion, kind, extra) in cases {
        let editor_dir = dir.path().join("editor");
        let cli_dir = dir.path().join("cli");
        std::fs::create_dir_all(&editor_dir).unwrap();
        std::fs::create_dir_all(&cli_dir).unwrap();
        let written = editor_export(
            &fire,
            ExportDialog {
                preset: None,
                width: 24,
                height: 16,
                kind,
                output: Some("color".into()),
                path: editor_dir.join(name).display().to_string(),
                animate: true,
                motion,
                first: 70,
                end: 75,
                fps: 24.0,
                sheet: (3, 2),
                ..ExportDialog::default()
            },
        );
        let args = [
            &[
                "--size", "24x16", "--frames", "70..75", "--fps", "24", "-o", name,
            ][..],
            extra,
        ]
        .concat();
        cli_render(&cli_dir, &fire, &args);
        let expected = if name.contains('#') { 5 } else { 1 };
        assert_eq!(written.len(), expected, "{name}");
        for path in written {
            let file = path.file_name().unwrap();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(cli_dir.join(file)).unwrap(),
                "{name}: {file:?}"
            );
        }
    }
}

#[test]
fn material_presets_match_the_cli_file_for_file() {
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("stone.json");
    std::fs::write(&graph, crate::materials::STONE).unwrap();
    for (preset, format) in [("gltf", None), ("unreal", Some(Format::Dds))] {
        let editor_dir = dir.path().join(format!("editor_{preset}"));
        let written = editor_export(
            &graph,
            ExportDialog {
                preset: Some(32),
                material: Some(preset.into()),
                material_format: format,
                folder: editor_dir.display().to_string(),
                graph_name: "stone".into(),
                ..ExportDialog::default()
            },
        );
        let cli_dir = format!("cli_{preset}");
        let mut args = vec!["--size", "32", "--preset", preset, "-o", &cli_dir];
        if format.is_some() {
            args.extend(["--format", "dds"]);
        }
        cli_render(dir.path(), &graph, &args);
        let mut cli_files: Vec<_> = std::fs::read_dir(dir.path().join(&cli_dir))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        cli_files.sort();
        let mut editor_files: Vec<_> = std::fs::read_dir(&editor_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        editor_files.sort();
        assert_eq!(editor_files, cli_files, "{preset}");
        assert!(written.len() >= 3, "{preset}: {written:?}");
        for file in cli_files {
            assert_eq!(
                std::fs::read(editor_dir.join(&file)).unwrap(),
                std::fs::read(dir.path().join(&cli_dir).join(&file)).unwrap(),
                "{preset}: {file:?}"
            );
        }
    }
}
