//! The raster nodes from the command line: `image` files good and bad, paths relative to
//! the graph, `--set` of a path, `texgraph plan`, and `validate` refusing what `render`
//! would, with the same message.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn texgraph(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("texgraph").expect("binary built");
    cmd.current_dir(dir);
    cmd
}

const PRECIOUS: &[u8] = b"an image the user already has";

fn photo_graph(path: &str) -> String {
    format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [
            {{ "id": "photo", "type": "image", "params": {{ "path": {path:?} }} }},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "photo" }} }} ] }}"#
    )
}

/// CRC-32 (ISO-HDLC), as PNG chunks carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG chunk: length, type and data, CRC.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut body = kind.to_vec();
    body.extend(data);
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend(&body);
    out.extend(crc32(&body).to_be_bytes());
    out
}

/// A PNG whose header claims `w` × `h` pixels, followed by a few bytes of pixel data that
/// decode to nothing.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]); // 8-bit RGBA
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", b"garbage-garbage!!"));
    png
}

/// Renders a graph whose `photo` node reads `images/<file>` holding `bytes` (or nothing,
/// or a folder), and checks the refusal: exit 2, one `error:` naming the graph file, the
/// node and `path` with `words`, out.png untouched, no leftovers. `validate` says the same.
fn assert_bad_image(file: &str, content: Option<&[u8]>, words: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let images = dir.path().join("images");
    std::fs::create_dir(&images).unwrap();
    match content {
        Some(bytes) => std::fs::write(images.join(file), bytes).unwrap(),
        None if file.ends_with('/') => std::fs::create_dir(images.join(file)).unwrap(),
        None => {}
    }
    let graph = dir.path().join("photo.json");
    std::fs::write(&graph, photo_graph(&format!("images/{file}"))).unwrap();
    let out = dir.path().join("out.png");
    std::fs::write(&out, PRECIOUS).unwrap();
    let before: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let rendered = texgraph(dir.path())
        .args(["render", "photo.json", "-o", "out.png"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&rendered.get_output().stderr).into_owned();
    assert!(
        stderr.starts_with("error: photo.json: node 'photo', field 'path': "),
        "{stderr}"
    );
    for word in words {
        assert!(stderr.contains(word), "stderr lacks '{word}':\n{stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        PRECIOUS,
        "existing output changed"
    );
    let after: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before.len(), after.len(), "files left behind: {after:?}");
    let validated = texgraph(dir.path())
        .args(["validate", "photo.json"])
        .assert()
        .code(1);
    let said = String::from_utf8_lossy(&validated.get_output().stderr).into_owned();
    assert_eq!(said, stderr, "validate and render disagree");
}

#[test]
fn each_bad_image_file_is_refused_naming_the_node_and_path() {
    assert_bad_image("missing.png", None, &["images/missing.png", "No such file"]);
    assert_bad_image(
        "text.png",
        Some(b"hello, this is not a picture"),
        &["images/text.png", "as an image", "Invalid PNG signature"],
    );
    assert_bad_image(
        "notes.txt",
        Some(b"hello, this is not a picture"),
        &[
            "images/notes.txt",
            "not a PNG, JPEG, EXR, HDR or TIFF image",
        ],
    );
    let corrupt = png_claiming(64, 64);
    assert_bad_image(
        "corrupt.png",
        Some(&corrupt),
        &["corrupt.png", "cannot read", "as an image"],
    );
    assert_bad_image(
        "huge.png",
        Some(&png_claiming(100_000, 90_000)),
        &["huge.png", "100000x90000", "8192x8192"],
    );
    assert_bad_image("folder/", None, &["is not a regular file"]);
}

#[test]
fn an_unchosen_image_is_an_error_too() {
    assert_bad_image_json(&photo_graph(""), "no image file chosen");
}

fn assert_bad_image_json(json: &str, words: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.json"), json).unwrap();
    let rendered = texgraph(dir.path())
        .args(["render", "g.json", "-o", "out.png"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&rendered.get_output().stderr).into_owned();
    assert!(
        stderr.contains("node 'photo', field 'path'") && stderr.contains(words),
        "{stderr}"
    );
    assert!(!dir.path().join("out.png").exists());
}

fn write_png(path: &Path, rgb: [u8; 3]) {
    image::RgbImage::from_pixel(4, 4, image::Rgb(rgb))
        .save(path)
        .unwrap();
}

fn pixel(path: &Path) -> [u8; 4] {
    image::open(path).unwrap().to_rgba8().get_pixel(1, 1).0
}

#[test]
fn image_paths_start_from_the_graph_folder_and_set_paths_from_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("images")).unwrap();
    write_png(&project.join("images/red.png"), [255, 0, 0]);
    write_png(&dir.path().join("blue.png"), [0, 0, 255]);
    std::fs::write(project.join("photo.json"), photo_graph("images/red.png")).unwrap();
    // Run from the parent folder: the graph's relative path still finds its image.
    texgraph(dir.path())
        .args(["render", "project/photo.json", "-o", "a.png", "--size", "8"])
        .assert()
        .success();
    assert_eq!(pixel(&dir.path().join("a.png")), [255, 0, 0, 255]);
    // A path given with --set is relative to where the command runs.
    texgraph(dir.path())
        .args([
            "render",
            "project/photo.json",
            "-o",
            "b.png",
            "--size",
            "8",
            "--set",
            "photo.path=blue.png",
        ])
        .assert()
        .success();
    assert_eq!(pixel(&dir.path().join("b.png")), [0, 0, 255, 255]);
    texgraph(dir.path())
        .args([
            "render",
            "project/photo.json",
            "-o",
            "c.png",
            "--set",
            "photo.repeat=maybe",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'maybe' is not true or false"));
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn plan_shows_the_stages_planes_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let graph = repo().join("graphs/eroded_terrain.json");
    let assert = texgraph(dir.path())
        .args([
            "plan",
            graph.to_str().unwrap(),
            "--size",
            "512",
            "--output",
            "normal",
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    for words in [
        "output 'normal'",
        "stage 0: 'rough' 512x512x1 -> plane #0",
        "stage 1: 'shape' 512x512x1 -> plane #1",
        "stage 2: 'erosion' 512x512x1 -> plane #2",
        "reads plane #1 (shape), apron 2",
        "stage 3: 'normal' 512x512x4 -> output",
        "reads plane #2 (erosion), apron 1 texels",
        "peak memory",
    ] {
        assert!(text.contains(words), "plan lacks '{words}':\n{text}");
    }
}

#[test]
fn validate_refuses_what_render_refuses_with_the_same_words() {
    let mut nodes = vec![r#"{ "id": "w0", "type": "perlin" }"#.to_owned()];
    for i in 1..=20 {
        nodes.push(format!(
            r#"{{ "id": "w{i}", "type": "warp", "inputs": {{ "source": "w{}", "dx": "w{}" }} }}"#,
            i - 1,
            i - 1
        ));
    }
    nodes.push(r#"{ "id": "out", "type": "output", "inputs": { "color": "w20" } }"#.to_owned());
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "nodes": [ {} ] }}"#,
        nodes.join(",")
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chain.json"), json).unwrap();
    let validated = texgraph(dir.path())
        .args(["validate", "chain.json"])
        .assert()
        .code(1);
    let rendered = texgraph(dir.path())
        .args(["render", "chain.json", "-o", "out.png"])
        .assert()
        .code(2);
    let said = String::from_utf8_lossy(&validated.get_output().stderr).into_owned();
    assert!(said.contains("put a `buffer` node between"), "{said}");
    assert_eq!(said, String::from_utf8_lossy(&rendered.get_output().stderr));
    assert!(!dir.path().join("out.png").exists());
}

#[test]
fn all_outputs_of_marble_normal_are_a_color_and_a_normal_map() {
    let dir = tempfile::tempdir().unwrap();
    let graph = repo().join("graphs/marble_normal.json");
    texgraph(dir.path())
        .args([
            "render",
            graph.to_str().unwrap(),
            "--all-outputs",
            "-o",
            "m.png",
            "--size",
            "64",
        ])
        .assert()
        .success();
    let normal = image::open(dir.path().join("m_normal.png"))
        .unwrap()
        .to_rgba8();
    // Pale blue-violet on average: blue (z) high, red and green about half.
    let n = f64::from(normal.width() * normal.height());
    let mean = |ch: usize| normal.pixels().map(|p| f64::from(p.0[ch])).sum::<f64>() / n;
    assert!(
        (mean(0) - 128.0).abs() < 12.0 && (mean(1) - 128.0).abs() < 12.0,
        "{} {}",
        mean(0),
        mean(1)
    );
    assert!(mean(2) > 200.0, "{}", mean(2));
    assert!(dir.path().join("m_basecolor.png").exists());
}
