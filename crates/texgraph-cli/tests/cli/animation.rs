//! `texgraph render --frames`: numbered sequences, animated GIF and PNG, sprite sheets,
//! and the refusals of bad frame requests (with the targets left untouched).

use crate::common::{entries, example, run_in};

use std::path::Path;

/// The fire example (it moves with `time`) rendered as a still at `time` in `dir`.
fn still(dir: &Path, time: f32, size: &str, name: &str) -> Vec<u8> {
    let fire = example("fire.json");
    let time = time.to_string();
    let args = [
        "render",
        fire.to_str().unwrap(),
        "--size",
        size,
        "--time",
        &time,
        "-o",
        name,
    ];
    run_in(dir, &args).success();
    std::fs::read(dir.join(name)).unwrap()
}

/// Renders frames `range` of the fire example at `fps` and `size` in `dir`, then `rest`.
fn animate(
    dir: &Path,
    range: &str,
    fps: &str,
    size: &str,
    rest: &[&str],
) -> assert_cmd::assert::Assert {
    let fire = example("fire.json");
    let args = [
        "render",
        fire.to_str().unwrap(),
        "--frames",
        range,
        "--fps",
        fps,
        "--size",
        size,
    ];
    run_in(dir, &[&args[..], rest].concat())
}

fn rgba(png: &[u8]) -> image::RgbaImage {
    image::load_from_memory(png).unwrap().to_rgba8()
}

#[test]
fn a_sequence_holds_the_stills_of_each_frame_time() {
    let dir = tempfile::tempdir().unwrap();
    animate(dir.path(), "3..7", "8", "40", &["-o", "f_####.png"])
        .success()
        .stdout(predicates::str::contains("4 files"));
    assert_eq!(
        entries(dir.path()),
        ["f_0003.png", "f_0004.png", "f_0005.png", "f_0006.png"]
    );
    let mut previous = Vec::new();
    for frame in 3..7 {
        let bytes = std::fs::read(dir.path().join(format!("f_{frame:04}.png"))).unwrap();
        let want = still(dir.path(), frame as f32 / 8.0, "40", "still.png");
        assert_eq!(
            bytes, want,
            "frame {frame} differs from the still at its time"
        );
        assert_ne!(bytes, previous, "frame {frame} does not move");
        previous = bytes;
    }
}

#[test]
fn gif_and_apng_hold_every_frame_at_the_frame_rate() {
    let dir = tempfile::tempdir().unwrap();
    animate(dir.path(), "0..5", "20", "48x32", &["-o", "fire.gif"]).success();
    animate(dir.path(), "0..5", "20", "48x32", &["-o", "fire.png"]).success();

    // GIF: five 48x32 frames of 5 hundredths of a second, looping forever.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let file = std::fs::File::open(dir.path().join("fire.gif")).unwrap();
    let mut decoder = options.read_info(file).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (48, 32));
    let mut delays = Vec::new();
    let mut first = None;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (48, 32));
        delays.push(frame.delay);
        first.get_or_insert_with(|| frame.buffer.to_vec());
    }
    assert_eq!(delays, [5; 5]);
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
    // Quantized to 256 colors, the first frame still follows the still at time 0.
    let want = rgba(&still(dir.path(), 0.0, "48x32", "still.png"));
    let got = first.unwrap();
    let error: f64 = got
        .iter()
        .zip(want.as_raw())
        .map(|(&a, &b)| f64::from(a.abs_diff(b)))
        .sum::<f64>()
        / got.len() as f64;
    assert!(error < 6.0, "mean error of the GIF's first frame: {error}");

    // APNG: five frames of 1/20 s, each byte-identical to the still at its time.
    let file = std::fs::File::open(dir.path().join("fire.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let control = reader.info().animation_control.expect("an animated PNG");
    assert_eq!((control.num_frames, control.num_plays), (5, 0));
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    for frame in 0..5 {
        let info = reader.next_frame(&mut buffer).unwrap();
        assert_eq!((info.width, info.height), (48, 32));
        let delay = reader.info().frame_control.expect("frame control");
        assert_eq!(
            f64::from(delay.delay_num) / f64::from(delay.delay_den),
            0.05
        );
        let want = rgba(&still(
            dir.path(),
            frame as f32 / 20.0,
            "48x32",
            "still.png",
        ));
        assert_eq!(
            &buffer[..info.buffer_size()],
            want.as_raw().as_slice(),
            "frame {frame}"
        );
    }
}

#[test]
fn a_sheet_lays_the_frames_out_row_by_row() {
    let dir = tempfile::tempdir().unwrap();
    animate(
        dir.path(),
        "0..5",
        "10",
        "24x16",
        &["--sheet", "3x2", "-o", "sheet.png"],
    )
    .success();
    let sheet = rgba(&std::fs::read(dir.path().join("sheet.png")).unwrap());
    assert_eq!(sheet.dimensions(), (72, 32));
    for frame in 0..6u32 {
        let (x0, y0) = ((frame % 3) * 24, (frame / 3) * 16);
        let cell = image::imageops::crop_imm(&sheet, x0, y0, 24, 16).to_image();
        if frame < 5 {
            let want = rgba(&still(
                dir.path(),
                frame as f32 / 10.0,
                "24x16",
                "still.png",
            ));
            assert_eq!(cell, want, "cell {frame}");
        } else {
            assert!(
                cell.pixels().all(|p| p.0 == [0, 0, 0, 0]),
                "the spare cell is empty"
            );
        }
    }
}

#[test]
fn bad_frame_requests_are_refused_and_touch_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fire = example("fire.json");
    let fire = fire.to_str().unwrap();
    for name in ["anim.gif", "anim.png", "sheet.png", "f_0000.png"] {
        std::fs::write(dir.path().join(name), b"keep").unwrap();
    }
    let cases: &[(&[&str], &str)] = &[
        (
            &["--frames", "5..5", "-o", "anim.gif"],
            "the frame range 5..5 is empty",
        ),
        (&["--frames", "9..2", "-o", "anim.gif"], "is empty"),
        (&["--frames", "0..20000", "-o", "anim.gif"], "at most 10000"),
        (
            &["--frames", "0-48", "-o", "anim.gif"],
            "not a frame range like 0..48",
        ),
        (
            &["--frames", "0..x", "-o", "anim.gif"],
            "'x' in '0..x' is not a frame number",
        ),
        (
            &["--frames", "0..4", "--fps", "0", "-o", "anim.gif"],
            "frame rate of 0",
        ),
        (
            &["--frames", "0..4", "--fps", "NaN", "-o", "anim.png"],
            "frame rate of NaN",
        ),
        (
            &["--frames", "0..4", "--depth", "16", "-o", "anim.png"],
            "written at 8 bits",
        ),
        (
            &["--frames", "0..7", "--sheet", "3x2", "-o", "sheet.png"],
            "6 cells for 7 frames",
        ),
        (
            &["--frames", "0..4", "--sheet", "0x2", "-o", "sheet.png"],
            "count of 1 to 1024",
        ),
        (&["--frames", "0..4", "-o", "f_####.gif"], "without #"),
        (&["--frames", "0..4", "-o", "anim.exr"], "numbered sequence"),
        (&["--frames", "0..4"], "needs -o"),
        (
            &["--frames", "0..4", "--time", "1", "-o", "anim.gif"],
            "--time",
        ),
    ];
    for (args, words) in cases {
        let all = [&["render", fire, "--size", "16"][..], args].concat();
        let out = run_in(dir.path(), &all).failure().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
    }
    // A frame that cannot be written fails the whole sequence: no frame is left behind.
    std::fs::create_dir(dir.path().join("f_0002.png")).unwrap();
    let all = [
        "render",
        fire,
        "--size",
        "16",
        "--frames",
        "0..4",
        "-o",
        "f_####.png",
    ];
    run_in(dir.path(), &all).failure().code(2);
    for name in ["anim.gif", "anim.png", "sheet.png", "f_0000.png"] {
        assert_eq!(
            std::fs::read(dir.path().join(name)).unwrap(),
            b"keep",
            "{name}"
        );
    }
    assert_eq!(
        entries(dir.path()),
        [
            "anim.gif",
            "anim.png",
            "f_0000.png",
            "f_0002.png",
            "sheet.png"
        ]
    );
}
