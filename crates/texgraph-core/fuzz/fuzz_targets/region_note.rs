//! A region file whose note (the place `texgraph stitch` reads from it) says anything:
//! any text, or a region and image of any size, on a small file of any format, depth
//! and channels. Reading it and stitching it must never panic or abort, and nothing the
//! note claims is allocated before it is checked against what the file holds (run under
//! `ulimit -v`); a failed stitch leaves no file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use texgraph_core::Image;
use texgraph_core::export::stitch::{read_piece, stitch};
use texgraph_core::export::stream::{FileSpec, write};
use texgraph_core::export::{Depth, Format};
use texgraph_core::usage::Encoding;

fuzz_target!(|data: &[u8]| {
    let [kind, width, height, shape, rest @ ..] = data else {
        return;
    };
    let (format, ext) = [(Format::Png, "png"), (Format::Tiff, "tif"), (Format::Exr, "exr")]
        [usize::from(*kind) % 3];
    let depth = match (format, shape % 3) {
        (Format::Exr, _) | (Format::Tiff, 2) => Depth::Float,
        (_, 0) => Depth::Eight,
        _ => Depth::Sixteen,
    };
    let channels = if format == Format::Tiff && depth == Depth::Float || shape & 4 != 0 {
        4
    } else {
        1
    };
    let (width, height) = (1 + u32::from(*width) % 48, 1 + u32::from(*height) % 48);
    // Half the time a note of the right shape with numbers of any size, else any text.
    let note = if shape & 8 != 0 && rest.len() >= 24 {
        let n = |k: usize| u32::from_le_bytes(rest[4 * k..4 * k + 4].try_into().unwrap());
        format!(
            "region {},{},{},{} of {}x{}; graph 00000000000000ff; output height",
            n(0),
            n(1),
            n(2),
            n(3),
            n(4),
            n(5)
        )
    } else {
        rest.iter().map(|&b| char::from(b)).collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let piece = dir.path().join(format!("piece.{ext}"));
    let spec = FileSpec {
        format,
        depth,
        encoding: Encoding::AsRendered,
        width,
        height,
        channels,
        note: Some(note),
        block: None,
    };
    let mut band = Some(Image {
        width,
        height,
        channels,
        data: vec![0.5; width as usize * height as usize * channels],
    });
    let mut file = std::io::BufWriter::new(std::fs::File::create(&piece).unwrap());
    if write(&mut file, &spec, &mut || band.take().map(Box::new)).is_err() {
        return;
    }
    drop(file);
    let Ok(read) = read_piece(&piece) else {
        return;
    };
    let out = dir.path().join(format!("whole.{ext}"));
    if stitch(&[read], &out, &|_| {}).is_err() {
        assert!(!out.exists(), "a failed stitch left a file");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporaries left: {left:?}");
});
