//! Helpers shared by the core's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use texgraph_core::export::{Depth, read_exr, write_image};
use texgraph_core::{Graph, Image, RenderOptions, compile, render};

/// Whether this runs under continuous integration (`CI` set, as CI services do, and not
/// to `false` or `0`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Whether `TEXGRAPH_BLESS` asks the golden tests to write their goldens anew. Refused
/// under CI: a golden test that rewrites its own reference passes whatever it renders.
pub fn blessing() -> bool {
    let bless = std::env::var_os("TEXGRAPH_BLESS").is_some();
    assert!(
        !(bless && in_ci()),
        "TEXGRAPH_BLESS is refused under CI: blessing rewrites the goldens the test compares \
         with; bless on a workstation and commit the goldens"
    );
    bless
}

/// Compares `image` with the golden EXR at `path`, or writes it there when
/// [`blessing`]; the difference past `tolerance`, if any, as a message naming `what`.
pub fn against_golden(what: &str, image: &Image, path: &Path, tolerance: f32) -> Option<String> {
    if blessing() {
        std::fs::create_dir_all(path.parent().unwrap()).expect("golden folder");
        write_image(image, path, Depth::Float).expect("write golden");
        return None;
    }
    differs_from_golden(what, image, path, tolerance)
}

/// Compares `image` with the golden EXR at `path` (a golden another test blesses);
/// the difference past `tolerance`, if any, as a message naming `what`.
pub fn differs_from_golden(
    what: &str,
    image: &Image,
    path: &Path,
    tolerance: f32,
) -> Option<String> {
    let golden = read_exr(path).unwrap_or_else(|e| {
        panic!(
            "{what}: {e}\nrun `TEXGRAPH_BLESS=1 cargo test -p texgraph-core --test core` \
             outside CI to create {}",
            path.display()
        )
    });
    let shape = |i: &Image| (i.width, i.height, i.channels);
    if shape(&golden) != shape(image) {
        return Some(format!(
            "{what}: {:?} against the golden's {:?} (width, height, channels)",
            shape(image),
            shape(&golden)
        ));
    }
    let worst = image
        .data
        .iter()
        .zip(&golden.data)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    (worst > tolerance).then(|| format!("{what}: max abs difference {worst}"))
}

/// The repository's graphs/ folder.
pub fn graphs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../graphs")
}

/// Every example graph, by file stem.
pub fn examples() -> Vec<(String, Graph)> {
    let mut paths: Vec<_> = std::fs::read_dir(graphs_dir())
        .expect("graphs/ exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let mut graph = Graph::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            graph.resolve_paths(&graphs_dir());
            (stem, graph)
        })
        .collect()
}

/// Renders `output` of `graph` at `size`².
pub fn render_graph(
    graph: &Graph,
    output: Option<&str>,
    size: u32,
    options: RenderOptions,
) -> Image {
    let program = compile(graph, output).unwrap_or_else(|e| panic!("compile: {e}"));
    render(&program, size, size, options, &|_| {}).expect("render")
}

/// A graph from JSON text.
pub fn graph(json: &str) -> Graph {
    Graph::from_json(json).unwrap_or_else(|e| panic!("{e}"))
}

/// Sample (col, row, channel) of an image.
pub fn at(image: &Image, col: u32, row: u32, ch: usize) -> f32 {
    image.data[(row as usize * image.width as usize + col as usize) * image.channels + ch]
}

/// The example graph `graphs/<stem>.json`.
pub fn example(stem: &str) -> Graph {
    let path = graphs_dir().join(format!("{stem}.json"));
    let mut graph = Graph::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    graph.resolve_paths(&graphs_dir());
    graph
}

/// The names of the entries of `dir`, sorted.
pub fn dir_entries(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable dir")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Every raster node — a half-size buffer re-sampled by a warp, blur, sharpen, normal,
/// emboss, edge detect, slope blur, a distance field, a transform and an image read — in
/// one graph whose
/// output is node `all`.
pub fn everything_raster(image_path: &str, tileable: bool) -> Graph {
    graph(&format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
           {{ "id": "h", "type": "fbm", "params": {{ "frequency": 3.3, "octaves": 5 }} }},
           {{ "id": "img", "type": "image", "params": {{ "path": {image_path:?} }} }},
           {{ "id": "buf", "type": "buffer", "params": {{ "scale": "half" }}, "inputs": {{ "input": "h" }} }},
           {{ "id": "w", "type": "warp", "params": {{ "strength": 0.1 }}, "inputs": {{ "source": "buf", "dx": "h" }} }},
           {{ "id": "bl", "type": "blur", "params": {{ "radius": 0.03 }}, "inputs": {{ "input": "w" }} }},
           {{ "id": "sh", "type": "sharpen", "inputs": {{ "input": "img" }} }},
           {{ "id": "nm", "type": "normal", "inputs": {{ "height": "bl" }} }},
           {{ "id": "em", "type": "emboss", "inputs": {{ "height": "h" }} }},
           {{ "id": "ed", "type": "edge_detect", "params": {{ "width": 0.01, "threshold": 0.02 }}, "inputs": {{ "input": "em" }} }},
           {{ "id": "sb", "type": "slope_blur", "params": {{ "distance": 0.05, "mode": "max" }}, "inputs": {{ "input": "nm", "slope": "h" }} }},
           {{ "id": "t", "type": "transform", "params": {{ "scale_x": 2, "scale_y": 2 }}, "inputs": {{ "source": "sb" }} }},
           {{ "id": "m1", "type": "blend", "params": {{ "mode": "overlay" }}, "inputs": {{ "a": "t", "b": "sh", "mask": "ed" }} }},
           {{ "id": "ds", "type": "distance", "params": {{ "distance": 0.08, "mode": "signed" }}, "inputs": {{ "mask": "bl" }} }},
           {{ "id": "m2", "type": "blend", "params": {{ "mode": "multiply" }}, "inputs": {{ "a": "m1", "b": "ds" }} }},
           {{ "id": "ff", "type": "flood_fill", "params": {{ "threshold": 0.45 }}, "inputs": {{ "mask": "bl" }} }},
           {{ "id": "fg", "type": "fill_to_gradient", "params": {{ "seed": 5 }}, "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "fc", "type": "fill_to_color", "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "m3", "type": "blend", "params": {{ "mode": "overlay" }}, "inputs": {{ "a": "m2", "b": "fc", "mask": "fg" }} }},
           {{ "id": "bv", "type": "bevel", "params": {{ "distance": 0.05, "profile": "round", "corner": "rounded" }}, "inputs": {{ "mask": "bl" }} }},
           {{ "id": "hs", "type": "histogram_scan", "params": {{ "position": 0.4 }}, "inputs": {{ "input": "bv" }} }},
           {{ "id": "m4", "type": "blend", "params": {{ "mode": "screen" }}, "inputs": {{ "a": "m3", "b": "hs" }} }},
           {{ "id": "db", "type": "directional_blur", "params": {{ "angle": 30, "distance": 0.07, "samples": 6 }}, "inputs": {{ "input": "m4" }} }},
           {{ "id": "nb", "type": "non_uniform_blur", "params": {{ "radius": 0.04 }}, "inputs": {{ "input": "db", "radius_map": "h" }} }},
           {{ "id": "dw", "type": "directional_warp", "params": {{ "angle": 200, "intensity": 0.08 }}, "inputs": {{ "input": "nb", "intensity_map": "em" }} }},
           {{ "id": "fr", "type": "fill_to_random", "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "fb", "type": "fill_to_bbox_size", "params": {{ "measure": "area" }}, "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "fp", "type": "fill_to_position", "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "fi", "type": "fill_to_index", "inputs": {{ "flood_fill": "ff" }} }},
           {{ "id": "hr", "type": "histogram_range", "params": {{ "range": 0.6 }}, "inputs": {{ "input": "fr" }} }},
           {{ "id": "hf", "type": "histogram_shift", "params": {{ "position": 0.3 }}, "inputs": {{ "input": "fi" }} }},
           {{ "id": "fills", "type": "merge", "inputs": {{ "r": "hr", "g": "fp.x", "b": "fb", "a": "hf" }} }},
           {{ "id": "mt", "type": "make_it_tile", "params": {{ "blend_width": 0.2 }}, "inputs": {{ "input": "fills" }} }},
           {{ "id": "m5", "type": "blend", "params": {{ "mode": "overlay", "opacity": 0.5 }}, "inputs": {{ "a": "dw", "b": "mt" }} }},
           {{ "id": "he", "type": "hydraulic_erosion", "params": {{ "duration": 0.3, "downcutting": 8, "seed": 3 }}, "inputs": {{ "height": "h", "hardness_map": "em", "rain_map": "bl" }} }},
           {{ "id": "te", "type": "thermal_erosion", "params": {{ "duration": 0.5, "talus_angle": 20 }}, "inputs": {{ "height": "he" }} }},
           {{ "id": "eroded", "type": "merge", "inputs": {{ "r": "te", "g": "he.flow", "b": "he.wear", "a": "he.deposition" }} }},
           {{ "id": "m6", "type": "blend", "params": {{ "mode": "overlay", "opacity": 0.5 }}, "inputs": {{ "a": "m5", "b": "eroded" }} }},
           {{ "id": "all", "type": "blend", "params": {{ "mode": "mix", "opacity": 0.5 }}, "inputs": {{ "a": "m6", "b": "img" }} }},
           {{ "id": "out", "type": "output", "inputs": {{ "color": "all" }} }} ] }}"#
    ))
}

/// `big` box-averaged down by `factor` per axis.
pub fn downsample(big: &Image, factor: u32) -> Image {
    let (w, h, c) = (big.width / factor, big.height / factor, big.channels);
    let mut data = vec![0.0; (w * h) as usize * c];
    for y in 0..h {
        for x in 0..w {
            for ch in 0..c {
                let mut sum = 0.0;
                for dy in 0..factor {
                    for dx in 0..factor {
                        sum += at(big, x * factor + dx, y * factor + dy, ch);
                    }
                }
                data[(y * w + x) as usize * c + ch] = sum / (factor * factor) as f32;
            }
        }
    }
    Image {
        width: w,
        height: h,
        channels: c,
        data,
    }
}

/// The mean absolute difference of two images of the same size, sample for sample.
pub fn mean_difference(a: &Image, b: &Image) -> f64 {
    let sum: f64 = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(x, y)| f64::from((x - y).abs()))
        .sum();
    sum / a.data.len() as f64
}

/// Whether two images are the same size and the same bits, sample for sample.
pub fn same_bits(a: &Image, b: &Image) -> bool {
    (a.width, a.height, a.channels) == (b.width, b.height, b.channels)
        && a.data.len() == b.data.len()
        && a.data
            .iter()
            .zip(&b.data)
            .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// (largest jump between neighbouring interior columns, jump from the last column to the
/// first), and the same for rows.
pub fn seams(image: &Image) -> [(f32, f32); 2] {
    let (w, h, c) = (image.width, image.height, image.channels);
    let px = |x: u32, y: u32, ch: usize| at(image, x % w, y % h, ch);
    let mut cols = (0.0f32, 0.0f32);
    let mut rows = (0.0f32, 0.0f32);
    for y in 0..h {
        for x in 0..w {
            for ch in 0..c {
                let dx = (px(x + 1, y, ch) - px(x, y, ch)).abs();
                let dy = (px(x, y + 1, ch) - px(x, y, ch)).abs();
                if x + 1 < w {
                    cols.0 = cols.0.max(dx)
                } else {
                    cols.1 = cols.1.max(dx)
                }
                if y + 1 < h {
                    rows.0 = rows.0.max(dy)
                } else {
                    rows.1 = rows.1.max(dy)
                }
            }
        }
    }
    [cols, rows]
}

/// How many samples of `a` and `b` (the same size) differ by more than `tolerance`.
pub fn samples_apart(a: &Image, b: &Image, tolerance: f32) -> usize {
    assert_eq!(a.data.len(), b.data.len(), "images of one size");
    a.data
        .iter()
        .zip(&b.data)
        .filter(|(x, y)| (*x - *y).abs() > tolerance)
        .count()
}
