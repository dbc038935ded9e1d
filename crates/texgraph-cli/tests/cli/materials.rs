//! `texgraph presets`, `render --preset` and `plan --all-outputs`: material exports from
//! the command line, and what they refuse.

use crate::common::{entries, run_in};

use predicates::prelude::*;

/// A small material: a height feeding a normal map, roughness and a base color.
pub const STONE: &str = r##"{
  "format": "texgraph", "version": 4, "name": "stone",
  "settings": { "tileable": true },
  "nodes": [
    { "id": "h", "type": "fbm", "params": { "frequency": 4, "octaves": 4, "seed": 3 } },
    { "id": "n", "type": "normal", "params": { "strength": 2 }, "inputs": { "height": "h" } },
    { "id": "ao", "type": "ambient_occlusion", "inputs": { "height": "h" } },
    { "id": "r", "type": "levels", "params": { "in_low": 0.2, "in_high": 0.9 }, "inputs": { "input": "h" } },
    { "id": "c", "type": "gradient", "params": { "stops": [
        { "pos": 0, "color": "#302820" }, { "pos": 1, "color": "#c8b8a0" } ] }, "inputs": { "input": "h" } },
    { "id": "base", "type": "output", "params": { "name": "base", "usage": "basecolor" }, "inputs": { "color": "c" } },
    { "id": "nrm", "type": "output", "params": { "name": "nrm", "usage": "normal" }, "inputs": { "color": "n" } },
    { "id": "occ", "type": "output", "params": { "name": "occ", "usage": "ambient_occlusion" }, "inputs": { "color": "ao" } },
    { "id": "rough", "type": "output", "params": { "name": "rough", "usage": "roughness" }, "inputs": { "color": "r" } },
    { "id": "height", "type": "output", "params": { "name": "height", "usage": "height" }, "inputs": { "color": "h" } }
  ]
}"##;

fn stone_in(dir: &std::path::Path) {
    std::fs::write(dir.join("stone.json"), STONE).unwrap();
}

#[test]
fn presets_lists_the_built_ins_and_prints_them_as_preset_files() {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), &["presets"])
        .success()
        .stdout(predicate::str::contains("unity-hdrp:"))
        .stdout(predicate::str::contains(
            "r=metallic g=ambient_occlusion b=mask a=1-roughness",
        ));
    let out = run_in(dir.path(), &["presets", "--json"]).success();
    let json = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // The printed presets are a preset file: loaded back, they are the built-ins.
    std::fs::write(dir.path().join("all.json"), &json).unwrap();
    stone_in(dir.path());
    run_in(
        dir.path(),
        &[
            "render",
            "stone.json",
            "--size",
            "16",
            "--preset",
            "godot",
            "--preset-file",
            "all.json",
            "-o",
            "out",
        ],
    )
    .success();
    assert_eq!(
        entries(&dir.path().join("out")),
        [
            "stone_albedo.png",
            "stone_height.png",
            "stone_normal.png",
            "stone_orm.png"
        ]
    );
}

#[test]
fn a_preset_writes_its_set_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    run_in(
        dir.path(),
        &[
            "render",
            "stone.json",
            "--size",
            "32",
            "--preset",
            "gltf",
            "-o",
            "gltf",
        ],
    )
    .success()
    .stdout(predicate::str::contains(
        "wrote gltf/stone_occlusionRoughnessMetallic.png",
    ))
    .stdout(predicate::str::contains("from one render"));
    assert_eq!(
        entries(&dir.path().join("gltf")),
        [
            "stone.bin",
            "stone.gltf",
            "stone_baseColor.png",
            "stone_normal.png",
            "stone_occlusionRoughnessMetallic.png"
        ]
    );
    run_in(
        dir.path(),
        &[
            "render",
            "stone.json",
            "--size",
            "32",
            "--preset",
            "unreal",
            "--format",
            "ktx2",
            "-o",
            "ue",
        ],
    )
    .success();
    assert_eq!(
        entries(&dir.path().join("ue")),
        [
            "T_stone_BC.ktx2",
            "T_stone_H.ktx2",
            "T_stone_N.ktx2",
            "T_stone_ORM.ktx2"
        ]
    );
}

#[test]
fn bad_preset_requests_exit_2_naming_what_is_wrong_and_leave_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    let precious = b"an engine's texture".as_slice();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    std::fs::write(dir.path().join("out/T_stone_BC.png"), precious).unwrap();
    let render = |args: &[&str]| {
        let mut all = vec!["render", "stone.json", "--size", "30", "-o", "out"];
        all.extend_from_slice(args);
        run_in(dir.path(), &all).code(2)
    };
    render(&["--preset", "unrael"])
        .stderr(predicate::str::contains(
            "error: --preset: no preset named 'unrael'",
        ))
        .stderr(predicate::str::contains("unreal"));
    std::fs::write(
        dir.path().join("studio.json"),
        r#"[{"name": "studio", "files": [{"file": "{graph}.png", "channels": {"r": "metalic"}}]}]"#,
    )
    .unwrap();
    render(&["--preset", "studio", "--preset-file", "studio.json"]).stderr(
        predicate::str::contains("studio.json")
            .and(predicate::str::contains("preset 'studio'"))
            .and(predicate::str::contains("files[0].channels.r"))
            .and(predicate::str::contains("unknown usage 'metalic'")),
    );
    render(&["--preset", "unreal", "--format", "dds"]).stderr(
        predicate::str::contains("T_stone_BC.dds").and(predicate::str::contains("multiples of 4")),
    );
    // A usage that does not fit what feeds it.
    let broken = STONE.replace(
        r#""inputs": { "color": "r" }"#,
        r#""inputs": { "color": "c" }"#,
    );
    std::fs::write(dir.path().join("broken.json"), broken).unwrap();
    run_in(
        dir.path(),
        &[
            "render",
            "broken.json",
            "--size",
            "32",
            "--preset",
            "unreal",
            "-o",
            "out",
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("'rough'").and(predicate::str::contains("usage")));
    // A folder that is a file.
    std::fs::write(dir.path().join("file"), precious).unwrap();
    run_in(
        dir.path(),
        &[
            "render",
            "stone.json",
            "--size",
            "32",
            "--preset",
            "unreal",
            "-o",
            "file",
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("file").and(predicate::str::contains("folder")));
    assert_eq!(std::fs::read(dir.path().join("file")).unwrap(), precious);
    assert_eq!(entries(&dir.path().join("out")), ["T_stone_BC.png"]);
    assert_eq!(
        std::fs::read(dir.path().join("out/T_stone_BC.png")).unwrap(),
        precious
    );
}

#[test]
fn plan_all_outputs_shows_one_program_sharing_the_height() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    let out = run_in(
        dir.path(),
        &["plan", "stone.json", "--all-outputs", "--size", "64"],
    )
    .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("outputs 'base', 'nrm', 'occ', 'rough', 'height'"),
        "{text}"
    );
    // The height is one plane, read by the normal and the occlusion; one output stage
    // writes every map's channels.
    assert_eq!(text.matches("-> plane").count(), 1, "{text}");
    assert!(text.contains("64x64x11 -> output"), "{text}");
}

#[test]
fn a_ball_is_lit_by_an_environment_file_and_a_missing_one_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    // A warm sky above, a dark ground below.
    let sky = image::Rgb32FImage::from_fn(64, 32, |_, y| {
        if y < 16 {
            image::Rgb([1.5, 1.2, 0.8])
        } else {
            image::Rgb([0.05, 0.04, 0.03])
        }
    });
    image::DynamicImage::ImageRgb32F(sky)
        .save(dir.path().join("sky.hdr"))
        .unwrap();
    let ball = |env: &str, out: &str| {
        run_in(
            dir.path(),
            &[
                "render",
                "stone.json",
                "--ball",
                "sphere",
                "--env",
                env,
                "--size",
                "32",
                "--map-size",
                "32",
                "-o",
                out,
            ],
        )
    };
    ball("sky.hdr", "lit.png")
        .success()
        .stdout(predicate::str::contains("sphere ball"));
    let image = image::open(dir.path().join("lit.png")).unwrap().to_rgb8();
    // The background shows the file: warm above the horizon, dark below it.
    let (top, bottom) = (image.get_pixel(1, 1), image.get_pixel(1, 30));
    assert!(top[0] > top[2] && top[0] > 200, "{top:?}");
    assert!(bottom[0] < 80, "{bottom:?}");
    ball("missing.hdr", "missing.png")
        .code(2)
        .stderr(predicate::str::contains(
            "error: missing.hdr: cannot read it",
        ));
    assert!(!dir.path().join("missing.png").exists());
    std::fs::write(dir.path().join("notes.exr"), "not an image\n").unwrap();
    ball("notes.exr", "notes.png")
        .code(2)
        .stderr(predicate::str::contains("error: notes.exr: "));
    assert!(!dir.path().join("notes.png").exists());
}

#[test]
fn a_ball_is_the_material_on_a_lit_shape_the_same_bytes_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    for threads in ["1", "2"] {
        let out = format!("ball{threads}.png");
        run_in(
            dir.path(),
            &[
                "render",
                "stone.json",
                "--ball",
                "sphere",
                "--size",
                "48",
                "--map-size",
                "64",
                "--threads",
                threads,
                "-o",
                &out,
            ],
        )
        .success()
        .stdout(predicate::str::contains("sphere ball"));
    }
    let one = std::fs::read(dir.path().join("ball1.png")).unwrap();
    assert_eq!(one, std::fs::read(dir.path().join("ball2.png")).unwrap());
    let image = image::load_from_memory(&one).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (48, 48));
    // The shape covers the middle and is lit; the corners show the studio behind it.
    let centre = image.get_pixel(24, 24);
    assert_eq!(centre[3], 255);
    assert!(centre[0] > 20, "{centre:?}");
    run_in(
        dir.path(),
        &["render", "stone.json", "--ball", "cube", "--size", "64x32"],
    )
    .code(2)
    .stderr(predicate::str::contains("square"));
    run_in(
        dir.path(),
        &[
            "render",
            "stone.json",
            "--ball",
            "plane",
            "--tiling",
            "0",
            "--size",
            "32",
        ],
    )
    .code(2)
    .stderr(predicate::str::contains("--tiling"));
}

/// `render --output NAME -o x.dds` / `x.ktx2`: one map as a game texture, in the block
/// format its usage asks for (read back from the DDS DX10 header's DXGI format and the
/// KTX2 header's Vulkan format), with its full mip chain; an animation refuses textures.
#[test]
fn a_single_output_renders_to_dds_and_ktx2_in_its_usages_block_format() {
    let dir = tempfile::tempdir().unwrap();
    stone_in(dir.path());
    let u32_at =
        |bytes: &[u8], at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let common = ["render", "stone.json", "--size", "64"];
    run_in(
        dir.path(),
        &[&common[..], &["--output", "base", "-o", "bc.dds"]].concat(),
    )
    .success();
    let dds = std::fs::read(dir.path().join("bc.dds")).unwrap();
    assert_eq!(&dds[0..4], b"DDS ");
    assert_eq!(u32_at(&dds, 128), 99, "DXGI_FORMAT_BC7_UNORM_SRGB");
    assert_eq!(u32_at(&dds, 28), 7, "mips 64 … 1");

    run_in(
        dir.path(),
        &[&common[..], &["--output", "nrm", "-o", "n.ktx2"]].concat(),
    )
    .success();
    let ktx2 = std::fs::read(dir.path().join("n.ktx2")).unwrap();
    assert_eq!(&ktx2[0..12], b"\xABKTX 20\xBB\r\n\x1A\n");
    assert_eq!(u32_at(&ktx2, 12), 141, "VK_FORMAT_BC5_UNORM_BLOCK");
    assert_eq!(u32_at(&ktx2, 40), 7, "levelCount");

    run_in(
        dir.path(),
        &[&common[..], &["--output", "height", "-o", "h.dds"]].concat(),
    )
    .success();
    let height = std::fs::read(dir.path().join("h.dds")).unwrap();
    assert_eq!(
        u32_at(&height, 128),
        56,
        "DXGI_FORMAT_R16_UNORM: heights keep 16 bits"
    );

    run_in(
        dir.path(),
        &[&common[..], &["--frames", "0..2", "-o", "f_##.dds"]].concat(),
    )
    .failure()
    .stderr(predicate::str::contains("frames are written as"));
    assert!(!dir.path().join("f_00.dds").exists());
}
