//! End-to-end tests of the `texgraph` binary in a temporary directory.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common::skipped;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example(name: &str) -> PathBuf {
    repo().join("graphs").join(name)
}

fn texgraph(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("texgraph").expect("binary built");
    cmd.current_dir(dir);
    cmd
}

const PRECIOUS: &[u8] = b"an image the user already has";

/// A temp dir with an existing `out.png` whose bytes must survive failed runs.
fn dir_with_existing_output() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.png");
    std::fs::write(&out, PRECIOUS).unwrap();
    (dir, out)
}

fn write_graph(dir: &Path, name: &str, json: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    path
}

/// Runs `render <graph> -o out.png` and checks a refusal: exit 2, an `error:` line with
/// every expected word, and the existing out.png untouched with no temp files left.
fn assert_refused(graph_json: &str, extra: &[&str], words: &[&str]) {
    let (dir, out) = dir_with_existing_output();
    let graph = write_graph(dir.path(), "bad.json", graph_json);
    let mut cmd = texgraph(dir.path());
    cmd.arg("render")
        .arg(&graph)
        .arg("-o")
        .arg(&out)
        .args(extra);
    let assert = cmd
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("error: "));
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    for word in words {
        assert!(stderr.contains(word), "stderr lacks '{word}':\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        PRECIOUS,
        "existing output changed"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "temporary files left behind: {leftovers:?}"
    );
}

const PERLIN: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
    { "id": "out", "type": "output", "inputs": { "color": "noise" } } ] }"#;

const DISTANCED: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
    { "id": "far", "type": "distance", "inputs": { "mask": "noise" } },
    { "id": "out", "type": "output", "inputs": { "color": "far" } } ] }"#;

#[test]
fn renders_png_8_and_16_bit_and_exr() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("marble.json");
    texgraph(dir.path())
        .args([
            "render",
            graph.to_str().unwrap(),
            "-o",
            "m.png",
            "--size",
            "96x64",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("96x64").and(predicate::str::contains("Mpix/s")));
    let png = image::open(dir.path().join("m.png")).unwrap();
    assert_eq!((png.width(), png.height()), (96, 64));
    assert_eq!(png.color(), image::ColorType::Rgba8);

    texgraph(dir.path())
        .args([
            "render",
            graph.to_str().unwrap(),
            "-o",
            "m16.png",
            "--size",
            "32",
            "--depth",
            "16",
        ])
        .assert()
        .success();
    assert_eq!(
        image::open(dir.path().join("m16.png")).unwrap().color(),
        image::ColorType::Rgba16
    );

    texgraph(dir.path())
        .args([
            "render",
            graph.to_str().unwrap(),
            "-o",
            "m.exr",
            "--size",
            "32",
        ])
        .assert()
        .success();
    let exr = texgraph_core::export::read_exr(&dir.path().join("m.exr")).unwrap();
    assert_eq!((exr.width, exr.channels), (32, 4));
}

#[test]
fn grayscale_outputs_write_one_channel() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "g.json", PERLIN);
    texgraph(dir.path())
        .arg("render")
        .arg(&graph)
        .args(["-o", "g.png", "--size", "16"])
        .assert()
        .success();
    assert_eq!(
        image::open(dir.path().join("g.png")).unwrap().color(),
        image::ColorType::L8
    );
}

#[test]
fn default_output_is_named_after_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    texgraph(dir.path())
        .arg("render")
        .arg(example("wood.json"))
        .args(["--size", "16"])
        .assert()
        .success();
    assert!(dir.path().join("wood.png").exists());
}

#[test]
fn all_outputs_and_named_output() {
    let dir = tempfile::tempdir().unwrap();
    let terrain = example("terrain.json");
    texgraph(dir.path())
        .arg("render")
        .arg(&terrain)
        .args(["-o", "t.png", "--size", "16", "--all-outputs"])
        .assert()
        .success();
    // A height (its usage) is written in 16 bits without --depth.
    assert_eq!(
        image::open(dir.path().join("t_height.png"))
            .unwrap()
            .color(),
        image::ColorType::L16
    );
    assert_eq!(
        image::open(dir.path().join("t_color.png")).unwrap().color(),
        image::ColorType::Rgba8
    );
    texgraph(dir.path())
        .arg("render")
        .arg(&terrain)
        .args(["-o", "c.png", "--size", "16", "--output", "color"])
        .assert()
        .success();
    assert_eq!(
        std::fs::read(dir.path().join("c.png")).unwrap(),
        std::fs::read(dir.path().join("t_color.png")).unwrap()
    );
}

#[test]
fn time_and_set_change_the_image() {
    let dir = tempfile::tempdir().unwrap();
    let fire = example("fire.json");
    let render = |out: &str, extra: &[&str]| {
        texgraph(dir.path())
            .arg("render")
            .arg(&fire)
            .args(["-o", out, "--size", "32"])
            .args(extra)
            .assert()
            .success();
        std::fs::read(dir.path().join(out)).unwrap()
    };
    let base = render("a.png", &[]);
    assert_eq!(base, render("b.png", &["--time", "0"]));
    assert_ne!(base, render("c.png", &["--time", "1.5"]));
    assert_ne!(base, render("d.png", &["--set", "flame_noise.seed=2"]));
    assert_eq!(base, render("e.png", &["--threads", "1"]));
}

#[test]
fn refuses_unreadable_and_malformed_files() {
    let (dir, out) = dir_with_existing_output();
    texgraph(dir.path())
        .args(["render", "missing.json", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: missing.json: cannot read"));
    assert_eq!(std::fs::read(&out).unwrap(), PRECIOUS);
    assert_refused("{ \"format\": ", &[], &["bad.json", "not valid JSON"]);
}

#[test]
fn refuses_each_kind_of_bad_graph() {
    assert_refused(
        &PERLIN.replace("\"perlin\"", "\"perlinn\""),
        &[],
        &["bad.json", "node 'noise'", "field 'type'", "perlinn"],
    );
    assert_refused(
        &PERLIN.replace("\"frequency\"", "\"freq\""),
        &[],
        &["node 'noise'", "field 'freq'", "unknown param"],
    );
    assert_refused(
        &PERLIN.replace("6 }", "\"six\" }"),
        &[],
        &["node 'noise'", "field 'frequency'", "expected a number"],
    );
    assert_refused(
        &PERLIN.replace("6 }", "9000 }"),
        &[],
        &["node 'noise'", "field 'frequency'", "out of range"],
    );
    assert_refused(
        &PERLIN.replace("\"color\": \"noise\"", "\"color\": \"nois\""),
        &[],
        &["node 'out'", "field 'color'", "no node 'nois'"],
    );
    assert_refused(
        &PERLIN.replace("\"id\": \"out\"", "\"id\": \"noise\""),
        &[],
        &["node 'noise'", "field 'id'", "duplicate"],
    );
    assert_refused(
        &PERLIN.replace("\"version\": 1", "\"version\": 7"),
        &[],
        &["field 'version'", "unsupported version 7"],
    );
    assert_refused(
        &PERLIN.replace("\"type\": \"output\"", "\"type\": \"levels\""),
        &[],
        &["no output node"],
    );
    assert_refused(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "a", "type": "levels", "inputs": { "input": "b" } },
            { "id": "b", "type": "levels", "inputs": { "input": "a" } },
            { "id": "out", "type": "output", "inputs": { "color": "a" } } ] }"#,
        &[],
        &["cycle", "field 'input'"],
    );
    assert_refused(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "a", "type": "output", "inputs": { "color": "n" } },
            { "id": "b", "type": "output", "inputs": { "color": "n" } } ] }"#,
        &[],
        &["node 'b'", "field 'name'", "already used"],
    );
}

#[test]
fn refuses_bad_arguments() {
    assert_refused(
        PERLIN,
        &["--set", "ghost.frequency=2"],
        &["no node 'ghost'"],
    );
    assert_refused(
        PERLIN,
        &["--set", "noise.octaves=2"],
        &["no param 'octaves'"],
    );
    assert_refused(
        PERLIN,
        &["--set", "noise.frequency=lots"],
        &["not a number"],
    );
    assert_refused(
        PERLIN,
        &["--set", "noise.frequency=-3"],
        &["field 'frequency'", "out of range"],
    );
    assert_refused(
        PERLIN,
        &["--output", "height"],
        &["no output named 'height'"],
    );
    assert_refused(PERLIN, &["--size", "0"], &["--size"]);
    // A distance is computed whole: 16 GiB a plane at this size, more than this machine
    // has. (Perlin alone, or blurred, streams in bands at any size.)
    assert_refused(DISTANCED, &["--size", "65536x65536"], &["memory"]);
    assert_refused(PERLIN, &["--size", "100000x100000"], &["1 to 65536 pixels"]);
    assert_refused(PERLIN, &["--depth", "32"], &["cannot hold 32-bit"]);
    assert_refused(PERLIN, &["--threads", "0"], &["--threads"]);
}

#[test]
fn refuses_unknown_extensions_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "g.json", PERLIN);
    texgraph(dir.path())
        .arg("render")
        .arg(&graph)
        .args(["-o", "g.jpeg", "--size", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown image extension"));
    assert!(!dir.path().join("g.jpeg").exists());
}

#[test]
fn validate_reports_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let good = example("marble.json");
    let bad = write_graph(
        dir.path(),
        "bad.json",
        &PERLIN.replace("6 }", "-1, \"z\": \"up\" }"),
    );
    texgraph(dir.path())
        .arg("validate")
        .arg(&good)
        .assert()
        .success()
        .stdout(predicate::str::contains("ok:"));
    texgraph(dir.path())
        .arg("validate")
        .arg(&good)
        .arg(&bad)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("bad.json: node 'noise', field 'frequency'").and(
                predicate::str::contains("bad.json: node 'noise', field 'z'"),
            ),
        );
}

/// PERLIN plus a blend nothing uses, with only its mask connected.
const HALF_BUILT: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "noise", "type": "perlin", "params": { "frequency": 6 } },
    { "id": "mix", "type": "blend", "inputs": { "mask": "noise" } },
    { "id": "out", "type": "output", "inputs": { "color": "noise" } } ] }"#;

#[test]
fn validate_passes_a_graph_with_warnings_only() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "half.json", HALF_BUILT);
    let assert = texgraph(dir.path())
        .arg("validate")
        .arg(&graph)
        .assert()
        .success()
        .stdout(format!("ok: {} (2 warnings)\n", graph.display()));
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let file = graph.display();
    assert_eq!(
        stderr,
        format!(
            "warning: {file}: node 'mix', field 'a': not connected: reads 0\n\
             warning: {file}: node 'mix', field 'b': not connected: reads 0\n"
        )
    );
}

#[test]
fn a_half_built_node_an_output_reads_renders_with_its_open_inputs_constants() {
    let dir = tempfile::tempdir().unwrap();
    let used = HALF_BUILT.replace("\"color\": \"noise\"", "\"color\": \"mix\"");
    let graph = write_graph(dir.path(), "used.json", &used);
    texgraph(dir.path())
        .arg("validate")
        .arg(&graph)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "warning: {}: node 'mix', field 'b': not connected: reads 0\n",
            graph.display()
        )));
    // The same bytes as a constant 0 wired into both.
    let wired = write_graph(
        dir.path(),
        "wired.json",
        &used.replace(
            r#""inputs": { "mask": "noise" }"#,
            r#""inputs": { "mask": "noise", "a": "zero", "b": "zero" } },
               { "id": "zero", "type": "constant", "params": { "value": 0 }"#,
        ),
    );
    for (file, png) in [(&graph, "used.png"), (&wired, "wired.png")] {
        texgraph(dir.path())
            .arg("render")
            .arg(file)
            .args(["-o", png, "--size", "32"])
            .assert()
            .success();
    }
    let bytes = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert_eq!(bytes("used.png"), bytes("wired.png"));

    // An output with nothing connected cannot render: an error, whichever output.
    let spare = write_graph(
        dir.path(),
        "spare.json",
        &HALF_BUILT.replace(
            "] }",
            r#", { "id": "s", "type": "output", "params": { "name": "spare" } } ] }"#,
        ),
    );
    texgraph(dir.path())
        .arg("validate")
        .arg(&spare)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "error: {}: node 's', field 'color': required input is not connected\n",
            spare.display()
        )));
}

#[test]
fn render_goes_on_past_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let half = write_graph(dir.path(), "half.json", HALF_BUILT);
    let clean = write_graph(dir.path(), "clean.json", PERLIN);
    texgraph(dir.path())
        .arg("render")
        .arg(&half)
        .args(["-o", "half.png", "--size", "32"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "warning: {}: node 'mix', field 'a': not connected: reads 0",
            half.display()
        )))
        .stdout(predicate::str::contains("wrote"));
    texgraph(dir.path())
        .arg("render")
        .arg(&clean)
        .args(["-o", "clean.png", "--size", "32"])
        .assert()
        .success()
        .stderr("");
    let written = std::fs::read(dir.path().join("half.png")).unwrap();
    assert_eq!(
        written,
        std::fs::read(dir.path().join("clean.png")).unwrap()
    );
    assert_eq!(
        image::load_from_memory(&written).unwrap().color(),
        image::ColorType::L8
    );
}

#[test]
fn nodes_markdown_is_the_committed_reference() {
    let committed = std::fs::read_to_string(repo().join("docs/nodes.md")).unwrap();
    texgraph(&repo())
        .args(["nodes", "--markdown"])
        .assert()
        .success()
        .stdout(committed);
    texgraph(&repo())
        .arg("nodes")
        .assert()
        .success()
        .stdout(predicate::str::contains("perlin").and(predicate::str::contains("turbulence")));
}

/// Perlin above one cell per pixel (the kernels' gather fallback), tiled and not, in the
/// image frame and through a warp, and between lattice planes.
const HIGH_FREQUENCY: &str = r#"{ "format": "texgraph", "version": 1, "settings": { "tileable": TILE }, "nodes": [
    { "id": "fine", "type": "perlin", "params": { "frequency": 700, "z": 0.3 } },
    { "id": "fbm", "type": "fbm", "params": { "frequency": 60, "octaves": 8 } },
    { "id": "warped", "type": "warp", "params": { "strength": 0.05 }, "inputs": { "source": "fbm", "dx": "fine" } },
    { "id": "mix", "type": "blend", "params": { "mode": "overlay" }, "inputs": { "a": "warped", "b": "fine" } },
    { "id": "out", "type": "output", "inputs": { "color": "mix" } } ] }"#;

/// A formula calling every function of the language on noise-fed inputs (over wide ranges,
/// where the polynomials' reductions differ most), and every noise it offers.
const FORMULAS: &str = r#"{ "format": "texgraph", "version": 2, "settings": { "tileable": TILE }, "nodes": [
    { "id": "n", "type": "fbm", "params": { "frequency": 5 } },
    { "id": "f", "type": "formula", "inputs": { "a": "n" }, "params": { "p1": 3, "expression":
      "let s = (a - 0.5) * 40;\nlet p = vec2(u, v);\nlet t = sin(s) + cos(s * 3) + tan(s * 0.05) + asin(a * 2 - 1) + acos(1 - a * 2) + atan(s) + atan(s, p.x - 0.5) + atan2(p.y - 0.5, s);\nlet e = exp(s * 0.2) * 1e-3 + log(a + 1e-3) + sqrt(a) + pow(a, 2.2) + mod(s, 0.7) + s % 3 + abs(s) * sign(s) + floor(s) + ceil(s) + round(s) + fract(s);\nlet g = min(s, 1) + max(s, -1) + clamp(s, 0, 1) + saturate(s) + mix(s, 1, a) + step(0.5, a) + smoothstep(0.2, 0.8, a) + if(a > 0.5, 1, 0) + (a < 0.3 && a != 0.2 || !(a >= 0.9) ? 1 : 2);\nlet q = vec3(p, a) * p1;\nlet w = length(q) + distance(q, vec3(1)) + dot(q, normalize(q)) + radians(s) + degrees(a);\nlet n = perlin(q, 4, 1) + simplex(q, 3, 2) + value(p, 5, 3) + cellular(q, 6, 4) + cellular_edge(p, 5, 5) + cellular_id(q, 4, 6) + random(floor(p * 8), 7);\nvec4(t * 0.1, e * 0.05, g * 0.1 + w * 0.01, n * 0.2) + x / width * y / height" } },
    { "id": "out", "type": "output", "inputs": { "color": "f" } } ] }"#;

/// Warps re-sampling buffers (bilinear reads at computed positions) and a blur, edges and
/// emboss of them.
const BUFFERED_WARPS: &str = r#"{ "format": "texgraph", "version": 1, "settings": { "tileable": TILE },
  "nodes": [
    { "id": "h", "type": "fbm", "params": { "frequency": 5 } },
    { "id": "b", "type": "buffer", "inputs": { "input": "h" } },
    { "id": "w", "type": "warp", "params": { "strength": 0.3 }, "inputs": { "source": "b", "dx": "b" } },
    { "id": "half", "type": "buffer", "params": { "scale": "half" }, "inputs": { "input": "w" } },
    { "id": "bl", "type": "blur", "params": { "radius": 0.02 }, "inputs": { "input": "half" } },
    { "id": "e", "type": "edge_detect", "params": { "width": 0.01, "threshold": 0.02 }, "inputs": { "input": "bl" } },
    { "id": "em", "type": "emboss", "inputs": { "height": "w" } },
    { "id": "mix", "type": "blend", "params": { "mode": "overlay" }, "inputs": { "a": "em", "b": "bl", "mask": "e" } },
    { "id": "out", "type": "output", "inputs": { "color": "mix" } } ] }"#;

/// The node library's generators: every cellular output and metric, in 3D, with a
/// per-sample jitter and warped (so off the pixel grid), simplex in 2D and 3D (on the
/// torus when tileable; at a low frequency, on the grid kernel when not), both as fractal
/// bases, a star, bricks and a scatter of the star,
/// summed.
const LIBRARY: &str = r#"{ "format": "texgraph", "version": 1, "settings": { "tileable": TILE }, "nodes": [
    { "id": "j", "type": "perlin", "params": { "frequency": 3 } },
    { "id": "c1", "type": "cellular", "params": { "frequency": 5.5 }, "inputs": { "jitter": "j" } },
    { "id": "c2", "type": "cellular", "params": { "frequency": 7, "output": "f2_minus_f1", "metric": "manhattan" } },
    { "id": "c3", "type": "cellular", "params": { "frequency": 4, "output": "edge", "jitter": 0.8 } },
    { "id": "c4", "type": "cellular", "params": { "frequency": 6, "output": "cell_value", "metric": "chebyshev", "dimensions": "3d", "z": 0.4 } },
    { "id": "c5", "type": "cellular", "params": { "frequency": 300, "output": "f2" } },
    { "id": "w", "type": "warp", "params": { "strength": 0.3 }, "inputs": { "source": "c3", "dx": "j" } },
    { "id": "a", "type": "math", "params": { "op": "add" }, "inputs": { "a": "c1", "b": "c2" } },
    { "id": "b", "type": "math", "params": { "op": "add" }, "inputs": { "a": "w", "b": "c4" } },
    { "id": "c", "type": "math", "params": { "op": "add" }, "inputs": { "a": "a", "b": "b" } },
    { "id": "d", "type": "math", "params": { "op": "add" }, "inputs": { "a": "c", "b": "c5" } },
    { "id": "s2", "type": "simplex", "params": { "frequency": 6.5 } },
    { "id": "s3", "type": "simplex", "params": { "frequency": 3.2, "dimensions": "3d", "z": 0.7 } },
    { "id": "f", "type": "fbm", "params": { "basis": "simplex", "octaves": 3 } },
    { "id": "g", "type": "ridged", "params": { "basis": "cellular", "octaves": 3 } },
    { "id": "s4", "type": "simplex", "params": { "frequency": 0.3, "dimensions": "3d", "z": -1.3 } },
    { "id": "s5", "type": "math", "params": { "op": "add" }, "inputs": { "a": "s3", "b": "s4" } },
    { "id": "e", "type": "math", "params": { "op": "add" }, "inputs": { "a": "s2", "b": "s5" } },
    { "id": "h", "type": "math", "params": { "op": "add" }, "inputs": { "a": "f", "b": "g" } },
    { "id": "i", "type": "math", "params": { "op": "add" }, "inputs": { "a": "e", "b": "h" } },
    { "id": "k", "type": "math", "params": { "op": "add" }, "inputs": { "a": "d", "b": "i" } },
    { "id": "st", "type": "shape", "params": { "kind": "star", "size": 0.5, "rotate": 12, "smoothness": 0.1 } },
    { "id": "br", "type": "bricks", "params": { "round": 0.1, "random_offset": 0.4 }, "inputs": { "bevel": "j" } },
    { "id": "l", "type": "math", "params": { "op": "add" }, "inputs": { "a": "st", "b": "br.value" } },
    { "id": "m", "type": "math", "params": { "op": "multiply" }, "inputs": { "a": "l", "b": "br.mask" } },
    { "id": "n", "type": "math", "params": { "op": "add" }, "inputs": { "a": "k", "b": "m" } },
    { "id": "sc", "type": "scatter", "params": { "count": 5, "scale": 1.3, "rotation_random": 1, "value_random": 0.4, "mask_probability": 0.2 }, "inputs": { "pattern": "st", "rotation": "j" } },
    { "id": "o", "type": "math", "params": { "op": "add" }, "inputs": { "a": "n", "b": "sc.value" } },
    { "id": "q", "type": "math", "params": { "op": "add" }, "inputs": { "a": "o", "b": "sc" } },
    { "id": "out", "type": "output", "inputs": { "color": "q" } } ] }"#;

/// The instruction sets (as `TEXGRAPH_SIMD` names them) this CPU has, detected here as
/// the core detects them, so that a core that misdetects or ignores the cap is caught.
fn instruction_sets_of_this_cpu() -> Vec<&'static str> {
    #[allow(unused_mut)] // only x86-64 has more than the baseline
    let mut sets = vec!["baseline"];
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            sets.push("avx2");
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vl")
            {
                sets.push("avx512");
            }
        }
    }
    sets
}

/// The instruction set `texgraph bench` says it ran with `TEXGRAPH_SIMD=asked`.
fn instruction_set_run(dir: &Path, asked: &str) -> String {
    let out = texgraph(dir)
        .env("TEXGRAPH_SIMD", asked)
        .arg("bench")
        .arg(example("marble.json"))
        .args(["--size", "8", "--reps", "1", "--threads", "1"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let first = stdout.lines().next().unwrap_or_default();
    let set = first
        .split(", ")
        .find_map(|part| part.strip_suffix(" instructions"));
    set.unwrap_or_else(|| panic!("bench names no instruction set: {stdout}"))
        .to_owned()
}

#[test]
fn every_instruction_set_renders_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // `TEXGRAPH_SIMD` only caps the CPU's best: each level this CPU has must be the one
    // that runs when asked for, and a level it lacks is said to be untested.
    let cpu = instruction_sets_of_this_cpu();
    let mut levels = Vec::new();
    for asked in ["baseline", "avx2", "avx512"] {
        let ran = instruction_set_run(dir.path(), asked);
        if cpu.contains(&asked) {
            assert_eq!(ran, asked, "TEXGRAPH_SIMD={asked} on a CPU with {asked}");
            levels.push(asked);
        } else {
            assert_eq!(
                ran,
                *cpu.last().unwrap(),
                "TEXGRAPH_SIMD={asked} on a CPU without it"
            );
            skipped(&format!(
                "this CPU has no {asked}: {asked} is not compared with the other \
                 instruction sets (TEXGRAPH_SIMD={asked} ran {ran})"
            ));
        }
    }
    if levels.len() < 2 {
        skipped(&format!(
            "this CPU has only {levels:?}: no two instruction sets to compare"
        ));
        return;
    }
    let mut graphs: Vec<PathBuf> = [
        "marble.json",
        "blend_mask.json",
        "fire.json",
        "marble_normal.json",
        "eroded_terrain.json",
        "image_blend.json",
        "cobblestones.json",
        "bricks.json",
        "pebbles.json",
        "terracotta_hexagons.json",
        "scifi_panels.json",
    ]
    .map(example)
    .to_vec();
    for tile in ["false", "true"] {
        graphs.push(write_graph(
            dir.path(),
            &format!("high_{tile}.json"),
            &HIGH_FREQUENCY.replace("TILE", tile),
        ));
        graphs.push(write_graph(
            dir.path(),
            &format!("buffered_{tile}.json"),
            &BUFFERED_WARPS.replace("TILE", tile),
        ));
        graphs.push(write_graph(
            dir.path(),
            &format!("library_{tile}.json"),
            &LIBRARY.replace("TILE", tile),
        ));
        graphs.push(write_graph(
            dir.path(),
            &format!("formulas_{tile}.json"),
            &FORMULAS.replace("TILE", tile),
        ));
    }
    let mut files = Vec::new();
    for level in &levels {
        for (g, graph) in graphs.iter().enumerate() {
            let out = format!("{level}_{g}.exr");
            texgraph(dir.path())
                .env("TEXGRAPH_SIMD", level)
                .arg("render")
                .arg(graph)
                .args(["-o", &out, "--size", "80x48"])
                .assert()
                .success();
            files.push((g, std::fs::read(dir.path().join(&out)).unwrap()));
        }
    }
    // Each level's files against the first level's (the baseline's).
    for (i, (g, bytes)) in files.iter().enumerate().skip(graphs.len()) {
        let (_, first) = &files[*g];
        assert!(
            bytes == first,
            "{} differs between {} and {}",
            graphs[*g].display(),
            levels[0],
            levels[i / graphs.len()]
        );
    }
}

#[test]
fn a_closed_output_pipe_is_not_a_crash() {
    let bin = assert_cmd::cargo::cargo_bin("texgraph");
    let mut child = std::process::Command::new(bin)
        .args(["nodes", "--markdown"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before anything is written
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

/// A ramp from -0.5 to 1.5 across the image: a height scaled past its range.
const OVERSHOOTING: &str = r#"{ "format": "texgraph", "version": 1, "nodes": [
    { "id": "uv", "type": "coords" },
    { "id": "ramp", "type": "remap", "params": { "out_min": -0.5, "out_max": 1.5 }, "inputs": { "input": "uv.u" } },
    { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "ramp" } } ] }"#;

#[test]
fn an_export_that_clamps_is_written_with_a_warning_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "ramp.json", OVERSHOOTING);
    texgraph(dir.path())
        .arg("render")
        .arg(&graph)
        .args(["-o", "h.png", "--size", "40x6", "--depth", "16"])
        .assert()
        .success()
        .stderr(
            "warning: h.png: 120 of 240 samples (50.0%) were outside [0, 1] and were clamped \
             into 16 bits; write a 32-bit EXR or TIFF to keep them, or bring the output into \
             range (levels, remap)\n",
        )
        .stdout(predicate::str::contains("wrote h.png"));
    assert!(dir.path().join("h.png").exists());
    for quiet in [
        vec!["-o", "h.exr", "--size", "40x6"],
        vec![
            "-o",
            "m.png",
            "--size",
            "40x6",
            "--set",
            "ramp.out_min=0.25",
            "--set",
            "ramp.out_max=0.75",
        ],
    ] {
        texgraph(dir.path())
            .arg("render")
            .arg(&graph)
            .args(&quiet)
            .assert()
            .success()
            .stderr("");
    }
    texgraph(dir.path())
        .arg("render")
        .arg(&graph)
        .args(["--preset", "unreal", "-o", "maps", "--size", "40x8"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: maps/T_ramp_H.png: 160 of 320 samples (50.0%)",
        ));
}

/// A perlin into `main`, and a color into a one-channel `roughness` output: an error in
/// the graph that rendering `main` alone would never meet.
const ROUGH_COLOR: &str = r##"{ "format": "texgraph", "version": 4, "nodes": [
    { "id": "noise", "type": "perlin" },
    { "id": "tint", "type": "color", "params": { "color": "#ff0000" } },
    { "id": "main", "type": "output", "params": { "name": "main" }, "inputs": { "color": "noise" } },
    { "id": "rough", "type": "output", "params": { "name": "roughness", "usage": "roughness" }, "inputs": { "color": "tint" } } ] }"##;

#[test]
fn an_error_anywhere_in_the_graph_stops_the_render_of_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "rough.json", ROUGH_COLOR);
    let problem = format!(
        "error: {}: node 'rough', field 'usage': roughness is one channel, but a color feeds it",
        graph.display()
    );
    texgraph(dir.path())
        .arg("validate")
        .arg(&graph)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(problem.clone()));
    for args in [
        vec!["--output", "main", "-o", "m.png"],
        vec!["--output", "main", "-o", "f.png", "--frames", "0..2"],
        vec!["--preset", "gltf", "-o", "maps"],
    ] {
        texgraph(dir.path())
            .arg("render")
            .arg(&graph)
            .args(["--size", "16"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(problem.clone()));
    }
    assert_eq!(
        crate::common::entries(dir.path()),
        ["rough.json"],
        "nothing written"
    );
}

/// A formula node feeding the output.
const FORMULA: &str = r#"{ "format": "texgraph", "version": 2, "nodes": [
    { "id": "f", "type": "formula", "params": { "expression": "u * v" } },
    { "id": "out", "type": "output", "inputs": { "color": "f" } } ] }"#;

#[test]
fn formulas_are_set_on_the_command_line_and_their_mistakes_shown_with_a_caret() {
    let dir = tempfile::tempdir().unwrap();
    let graph = write_graph(dir.path(), "f.json", FORMULA);
    let render = |name: &str, set: &str| {
        texgraph(dir.path())
            .arg("render")
            .arg(&graph)
            .args(["-o", name, "--size", "16", "--set", set])
            .assert()
            .success();
        std::fs::read(dir.path().join(name)).unwrap()
    };
    // The same formula typed on the command line and written in a file: the same bytes.
    let typed = render(
        "typed.png",
        "f.expression=let p = vec2(u, v);\nvec3(p, 1 - p.x)",
    );
    let written = write_graph(
        dir.path(),
        "g.json",
        &FORMULA.replace("u * v", "let p = vec2(u, v);\\nvec3(p, 1 - p.x)"),
    );
    texgraph(dir.path())
        .arg("render")
        .arg(&written)
        .args(["-o", "written.png", "--size", "16"])
        .assert()
        .success();
    assert_eq!(
        typed,
        std::fs::read(dir.path().join("written.png")).unwrap()
    );
    assert_ne!(typed, render("other.png", "f.expression=u"));
    // A mistake: the file, node, field and column, then the line and a caret under it.
    let expected = "error: f.json: node 'f', field 'expression': column 9: unknown function \
                    \"sn\" (did you mean \"sin\"?)\n\
                    error:     u * 2 + sn(v)\n\
                    error:             ^^\n";
    let bad = write_graph(
        dir.path(),
        "f.json",
        &FORMULA.replace("u * v", "u * 2 + sn(v)"),
    );
    texgraph(dir.path())
        .arg("validate")
        .arg(bad.file_name().unwrap())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(expected));
    assert_refused(
        FORMULA,
        &["--set", "f.expression=vec3(u) + vec2(v)"],
        &[
            "node 'f', field 'expression': column 1: cannot combine a vec3 with a vec2",
            "    ^^^^^^^^^^^^^^^^^\n",
        ],
    );
}
