//! `render --region` and `stitch`: regions rendered apart and stitched are the bytes of
//! the whole render; stitching refuses gaps, overlaps, and regions of other renders.

use crate::common::{Unavailable, entries, example, not_tested, run_in};

/// Renders `graph`'s output `output` whole and in the regions `regions` (X,Y,W,H) at
/// `size`, as `ext` files in `dir`, stitches them, and checks the bytes.
fn check_stitch(dir: &std::path::Path, graph: &str, output: &str, ext: &str, depth: &str) {
    let graph = example(graph);
    let graph = graph.to_str().unwrap();
    let size = "301x203";
    let base = [
        "render", graph, "--size", size, "--output", output, "--depth", depth,
    ];
    let full = format!("full.{ext}");
    run_in(dir, &[&base[..], &["-o", &full]].concat()).success();
    // Cuts that divide neither the size nor a band or tile.
    let regions = [
        "0,0,177,61",
        "177,0,124,61",
        "0,61,301,100",
        "0,161,19,42",
        "19,161,282,42",
    ];
    for (i, region) in regions.iter().enumerate() {
        let out = format!("part{i}.{ext}");
        run_in(
            dir,
            &[&base[..], &["--region", region, "-o", &out]].concat(),
        )
        .success();
    }
    let big = format!("big.{ext}");
    run_in(dir, &["stitch", &format!("part*.{ext}"), "-o", &big]).success();
    assert!(
        std::fs::read(dir.join(&full)).unwrap() == std::fs::read(dir.join(&big)).unwrap(),
        "{graph} {output} {ext} {depth}: the stitched file differs from the whole render"
    );
}

#[test]
fn stitched_regions_are_the_bytes_of_the_whole_render() {
    let dir = tempfile::tempdir().unwrap();
    // Slope blur and a normal map of it (streamed planes), in every format.
    check_stitch(dir.path(), "eroded_terrain.json", "normal", "png", "16");
    check_stitch(dir.path(), "eroded_terrain.json", "height", "exr", "32");
    check_stitch(dir.path(), "eroded_terrain.json", "color", "tif", "8");
    // A flood fill, a bevel and a distance (planes computed whole).
    check_stitch(dir.path(), "tiles_worn.json", "basecolor", "png", "8");
    check_stitch(dir.path(), "cobblestones.json", "height", "tif", "32");
}

#[test]
fn stitch_refuses_gaps_overlaps_and_other_renders() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let graph = example("marble_normal.json");
    let graph = graph.to_str().unwrap();
    let render = |region: &str, out: &str, extra: &[&str]| {
        let args = [
            &[
                "render", graph, "--size", "100x80", "--region", region, "-o", out,
            ][..],
            extra,
        ]
        .concat();
        run_in(d, &args).success();
    };
    render("0,0,60,80", "a.png", &[]);
    render("60,0,40,40", "b.png", &[]);
    render("60,40,40,40", "c.png", &[]);
    render("50,30,20,20", "overlap.png", &[]);
    render("60,40,40,40", "other.png", &["--set", "veins.frequency=5"]);
    render("60,40,40,40", "c16.png", &["--depth", "16"]);
    std::fs::write(d.join("big.png"), b"old").unwrap();
    let refused = |files: &[&str], words: &[&str]| {
        let args = [&["stitch"][..], files, &["-o", "big.png"]].concat();
        let out = run_in(d, &args).code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.starts_with("error: "), "{stderr}");
        for word in words {
            assert!(stderr.contains(word), "stderr lacks '{word}':\n{stderr}");
        }
        assert_eq!(std::fs::read(d.join("big.png")).unwrap(), b"old");
    };
    refused(
        &["a.png", "b.png"],
        &["nothing covers pixel 60,40", "missing"],
    );
    refused(
        &["a.png", "b.png", "c.png", "overlap.png"],
        &["overlaps", "a.png"],
    );
    refused(&["a.png", "b.png", "other.png"], &["other.png", "graph"]);
    refused(&["a.png", "b.png", "c16.png"], &["c16.png", "16-bit"]);
    refused(&["a.png", "b.png", "missing.png"], &["missing.png"]);
    refused(&["'nothing*.png'"], &["no file matches"]);
    // The output may not be one of the regions.
    let a = std::fs::read(d.join("a.png")).unwrap();
    let out = run_in(d, &["stitch", "a.png", "b.png", "c.png", "-o", "./a.png"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("is the region file a.png"), "{stderr}");
    assert_eq!(std::fs::read(d.join("a.png")).unwrap(), a);
    // An empty manifest is named, not the output.
    std::fs::write(d.join("none.json"), r#"{ "files": [] }"#).unwrap();
    refused(&["none.json"], &["none.json", "lists no region files"]);
    std::fs::write(d.join("none.json"), "[]").unwrap();
    refused(&["none.json"], &["none.json", "lists no region files"]);
    // A whole render is not a region.
    run_in(d, &["render", graph, "--size", "100x80", "-o", "whole.png"]).success();
    refused(&["whole.png"], &["whole.png", "no texgraph region note"]);
    // A region outside the image, or empty.
    for region in ["60,0,41,10", "0,0,0,5", "1,2,3"] {
        let out = run_in(
            d,
            &[
                "render", graph, "--size", "100x80", "--region", region, "-o", "big.png",
            ],
        )
        .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains("--region"), "{stderr}");
    }
    // And the three that fit stitch.
    run_in(d, &["stitch", "a.png", "b.png", "c.png", "-o", "big.png"]).success();
    assert!(!entries(d).iter().any(|n| n.ends_with(".tmp")));
}

/// A 2 MiB tmpfs mounted at a new folder, unmounted when dropped.
struct SmallDisk {
    path: std::path::PathBuf,
    // Removed after the unmount (fields drop after `drop`).
    _dir: tempfile::TempDir,
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(&self.path)
            .status();
    }
}

/// A [`SmallDisk`], or why none can be had: a kernel without tmpfs lacks it; a mount
/// that fails (not root) is a failure under CI.
fn small_disk() -> Result<SmallDisk, Unavailable> {
    let kernel = std::fs::read_to_string("/proc/filesystems").unwrap_or_default();
    if !kernel
        .lines()
        .any(|l| l.split_whitespace().last() == Some("tmpfs"))
    {
        return Err(Unavailable::Lacking("the kernel has no tmpfs".into()));
    }
    let dir = tempfile::tempdir().map_err(|e| Unavailable::Failed(e.to_string()))?;
    let path = dir.path().join("disk");
    std::fs::create_dir(&path).map_err(|e| Unavailable::Failed(e.to_string()))?;
    let done = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
        .arg(&path)
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Unavailable::Lacking("no mount command".into()),
            _ => Unavailable::Failed(format!("running mount: {e}")),
        })?;
    if !done.status.success() {
        return Err(Unavailable::Failed(format!(
            "mount -t tmpfs: {}",
            String::from_utf8_lossy(&done.stderr).trim()
        )));
    }
    Ok(SmallDisk { path, _dir: dir })
}

#[test]
fn a_disk_that_fills_mid_stream_leaves_the_old_files() {
    let small = match small_disk() {
        Ok(small) => small,
        Err(why) => return not_tested("a disk that fills", why),
    };
    let disk = small.path.clone();
    std::fs::write(disk.join("t_height.exr"), b"old").unwrap();
    let graph = example("eroded_terrain.json");
    let out = run_in(
        &disk,
        &[
            "render",
            graph.to_str().unwrap(),
            "--size",
            "512",
            "--all-outputs",
            "-o",
            "t.exr",
        ],
    )
    .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let left = entries(&disk);
    let old = std::fs::read(disk.join("t_height.exr")).unwrap();
    drop(small);
    // Progress lines may come first on a slow machine; the error is a line of its own.
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or("");
    assert!(error.contains("No space left"), "{stderr}");
    assert!(error.contains(".exr"), "the file is named: {stderr}");
    assert_eq!(left, ["t_height.exr"], "the old file and nothing else");
    assert_eq!(old, b"old");
}

/// Writes a 4x4 grey 8-bit PNG at `path` carrying `note` as its region note.
fn png_with_note(path: &std::path::Path, note: &str) {
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 4, 4);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .add_text_chunk("texgraph".to_owned(), note.to_owned())
        .unwrap();
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[128; 16]).unwrap();
}

/// A region note is the file's word about an image that may not exist: one claiming an
/// image of billions of pixels a side, or pixels its file does not hold, is refused by
/// name before anything is allocated for it, and nothing is left behind.
#[test]
fn stitch_refuses_region_notes_that_claim_what_the_file_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("big.png"), b"old").unwrap();
    let cases = [
        (
            "region 0,0,4294967295,4294967295 of 4294967295x4294967295; graph 00000000000000ff; output height",
            &["huge.png", "4294967295x4294967295", "65536"][..],
        ),
        (
            "region 0,0,65536,65536 of 65536x65536; graph 00000000000000ff; output height",
            &["huge.png", "4x4", "65536x65536"][..],
        ),
        (
            "region 0,0,4,4 of 0x4; graph 00000000000000ff; output height",
            &["huge.png", "0x4"][..],
        ),
    ];
    for (note, words) in cases {
        png_with_note(&d.join("huge.png"), note);
        let out = run_in(d, &["stitch", "huge.png", "-o", "big.png"]).code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.starts_with("error: "), "{note}: {stderr}");
        for word in words {
            assert!(
                stderr.contains(word),
                "{note}: stderr lacks '{word}':\n{stderr}"
            );
        }
        assert_eq!(std::fs::read(d.join("big.png")).unwrap(), b"old");
        assert_eq!(entries(d), ["big.png", "huge.png"], "{note}");
    }
}
