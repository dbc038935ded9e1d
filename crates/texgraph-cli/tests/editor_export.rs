//! The editor's export dialog writes the same bytes as `texgraph render` with the same
//! settings.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use texgraph_core::Graph;
use texgraph_editor::export::{ExportJob, ExportRequest, ImageKind};

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

fn editor_export(graph: &Path, request: ExportRequest) -> Vec<PathBuf> {
    let graph = Graph::load(graph).unwrap();
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
        ExportRequest {
            width: 96,
            height: 64,
            kind: ImageKind::Png16,
            output: None,
            all_outputs: false,
            path: dir.path().join("editor.png"),
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
        ExportRequest {
            width: 64,
            height: 64,
            kind: ImageKind::Exr,
            output: None,
            all_outputs: true,
            path: dir.path().join("editor.exr"),
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
        ExportRequest {
            width: 80,
            height: 80,
            kind: ImageKind::Png8,
            output: Some("color".into()),
            all_outputs: false,
            path: dir.path().join("editor.png"),
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
