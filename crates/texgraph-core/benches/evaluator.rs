//! Evaluator benchmarks: each noise kernel at low and high frequency, the fractals at 6
//! octaves, every example graph, the same fBm computed by noise-rs and fastnoise-lite,
//! the raster stages (blur at several radii, the normal pass), ambient occlusion over
//! the height it reads and the tile sampler at 2048², ending with a table of texgraph
//! against the baselines.
//! Single thread throughout, except the DDS export (BC7 with mips of a 2048² map) and
//! the material ball's frames, which use rayon's pool as the export and the editor's 3D
//! view do.
//!
//! `cargo bench -p texgraph-core` (add `-- fbm` to run only the baseline comparison,
//! `-- dds` only the DDS export, `-- ball` only the material ball, `-- tile_sampler` only
//! the tile sampler).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput};
use texgraph_core::eval::blur::blur;
use texgraph_core::{
    Graph, Image, Program, RenderOptions, compile, output_names, render, render_timed,
};

/// Side of the square grid the kernels and baselines are timed on.
const SIDE: u32 = 512;
/// Side of the example graph renders.
const EXAMPLE_SIDE: u32 = 1024;

fn single_node(node: &str, tileable: bool) -> Program {
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
            {node},
            {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"#
    );
    compile(&Graph::from_json(&json).expect("valid graph"), None).expect("compiles")
}

fn render_once(program: &Program, side: u32) {
    let options = RenderOptions {
        threads: Some(1),
        ..RenderOptions::default()
    };
    black_box(render(program, side, side, options, &|_| {}).expect("renders"));
}

/// (benchmark id, node JSON, tileable) of the kernel benchmarks.
const KERNELS: &[(&str, &str, bool)] = &[
    (
        "perlin_f4",
        r#"{ "id": "n", "type": "perlin", "params": { "frequency": 4 } }"#,
        false,
    ),
    (
        "perlin_f256",
        r#"{ "id": "n", "type": "perlin", "params": { "frequency": 256 } }"#,
        false,
    ),
    (
        "perlin_3d_f4",
        r#"{ "id": "n", "type": "perlin", "params": { "frequency": 4, "z": 0.37 } }"#,
        false,
    ),
    (
        "perlin_tiled_f8",
        r#"{ "id": "n", "type": "perlin", "params": { "frequency": 8 } }"#,
        true,
    ),
    (
        "value_f4",
        r#"{ "id": "n", "type": "value", "params": { "frequency": 4 } }"#,
        false,
    ),
    (
        "value_f256",
        r#"{ "id": "n", "type": "value", "params": { "frequency": 256 } }"#,
        false,
    ),
    (
        "fbm6_f4",
        r#"{ "id": "n", "type": "fbm", "params": { "octaves": 6, "frequency": 4 } }"#,
        false,
    ),
    (
        "fbm6_f64",
        r#"{ "id": "n", "type": "fbm", "params": { "octaves": 6, "frequency": 64 } }"#,
        false,
    ),
    (
        "ridged6",
        r#"{ "id": "n", "type": "ridged", "params": { "octaves": 6 } }"#,
        false,
    ),
    (
        "turbulence6",
        r#"{ "id": "n", "type": "turbulence", "params": { "octaves": 6 } }"#,
        false,
    ),
    (
        "cellular_f1_f8",
        r#"{ "id": "n", "type": "cellular", "params": { "frequency": 8 } }"#,
        false,
    ),
    (
        "cellular_edge_f8",
        r#"{ "id": "n", "type": "cellular", "params": { "frequency": 8, "output": "edge" } }"#,
        false,
    ),
    (
        "cellular_3d_f8",
        r#"{ "id": "n", "type": "cellular", "params": { "frequency": 8, "dimensions": "3d", "z": 0.4 } }"#,
        false,
    ),
    (
        "simplex_f8",
        r#"{ "id": "n", "type": "simplex", "params": { "frequency": 8 } }"#,
        false,
    ),
    (
        "simplex_3d_f8",
        r#"{ "id": "n", "type": "simplex", "params": { "frequency": 8, "dimensions": "3d", "z": 0.4 } }"#,
        false,
    ),
    (
        "simplex_tiled_f8",
        r#"{ "id": "n", "type": "simplex", "params": { "frequency": 8 } }"#,
        true,
    ),
    (
        "bricks",
        r#"{ "id": "n", "type": "bricks", "params": { "round": 0.05 } }"#,
        false,
    ),
    (
        "shape_star",
        r#"{ "id": "n", "type": "shape", "params": { "kind": "star" } }"#,
        false,
    ),
    (
        "wave_sine",
        r#"{ "id": "n", "type": "wave", "params": { "angle": 30 } }"#,
        false,
    ),
];

fn kernels(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    for (name, node, tileable) in KERNELS {
        let program = single_node(node, *tileable);
        group.bench_function(*name, |b| b.iter(|| render_once(&program, SIDE)));
    }
    group.finish();
}

/// u or v of a grid index, as texgraph samples it.
fn coord(i: u32) -> f32 {
    (i as f32 + 0.5) / SIDE as f32
}

fn fbm_baselines(c: &mut Criterion) {
    let mut group = c.benchmark_group("fbm");
    group.throughput(Throughput::Elements(u64::from(SIDE * SIDE)));
    let program = single_node(
        r#"{ "id": "n", "type": "fbm", "params": { "octaves": 6, "frequency": 4, "lacunarity": 2, "gain": 0.5 } }"#,
        false,
    );
    group.bench_function("texgraph", |b| b.iter(|| render_once(&program, SIDE)));

    {
        use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
        let fbm = Fbm::<Perlin>::new(0)
            .set_octaves(6)
            .set_frequency(4.0)
            .set_lacunarity(2.0)
            .set_persistence(0.5);
        let mut out = vec![0.0f64; (SIDE * SIDE) as usize];
        group.bench_function("noise-rs", |b| {
            b.iter(|| {
                for (i, o) in out.iter_mut().enumerate() {
                    let (col, row) = (i as u32 % SIDE, i as u32 / SIDE);
                    *o = fbm.get([f64::from(coord(col)), f64::from(coord(row))]);
                }
                black_box(&out);
            })
        });
    }

    {
        use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
        let mut fbm = FastNoiseLite::new();
        fbm.set_noise_type(Some(NoiseType::Perlin));
        fbm.set_fractal_type(Some(FractalType::FBm));
        fbm.set_fractal_octaves(Some(6));
        fbm.set_fractal_lacunarity(Some(2.0));
        fbm.set_fractal_gain(Some(0.5));
        fbm.set_frequency(Some(4.0));
        let mut out = vec![0.0f32; (SIDE * SIDE) as usize];
        group.bench_function("fastnoise-lite", |b| {
            b.iter(|| {
                for (i, o) in out.iter_mut().enumerate() {
                    let (col, row) = (i as u32 % SIDE, i as u32 / SIDE);
                    *o = fbm.get_noise_2d(coord(col), coord(row));
                }
                black_box(&out);
            })
        });
    }
    group.finish();
}

/// The same fBm at 2048² (the size of the published comparisons), texgraph and noise-rs.
fn fbm_2048(c: &mut Criterion) {
    const BIG: u32 = 2048;
    let mut group = c.benchmark_group("fbm2048");
    group.throughput(Throughput::Elements(u64::from(BIG * BIG)));
    let program = single_node(
        r#"{ "id": "n", "type": "fbm", "params": { "octaves": 6, "frequency": 4 } }"#,
        false,
    );
    group.bench_function("texgraph", |b| b.iter(|| render_once(&program, BIG)));
    use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
    let fbm = Fbm::<Perlin>::new(0)
        .set_octaves(6)
        .set_frequency(4.0)
        .set_lacunarity(2.0)
        .set_persistence(0.5);
    let mut out = vec![0.0f64; (BIG * BIG) as usize];
    let at = |i: u32| f64::from((i as f32 + 0.5) / BIG as f32);
    group.bench_function("noise-rs", |b| {
        b.iter(|| {
            for (i, o) in out.iter_mut().enumerate() {
                *o = fbm.get([at(i as u32 % BIG), at(i as u32 / BIG)]);
            }
            black_box(&out);
        })
    });
    group.finish();
}

/// Cellular F1 and 2D simplex at 2048², 8 cells (lattice units) across, one thread:
/// texgraph against fastnoise-lite and noise-rs computing the same noise on the same grid.
fn library_2048(c: &mut Criterion) {
    const BIG: u32 = 2048;
    let mut group = c.benchmark_group("library2048");
    group.throughput(Throughput::Elements(u64::from(BIG * BIG)));
    let at = |i: u32| (i as f32 + 0.5) / BIG as f32;
    let mut out = vec![0.0f32; (BIG * BIG) as usize];
    let mut out64 = vec![0.0f64; (BIG * BIG) as usize];

    let cellular = single_node(
        r#"{ "id": "n", "type": "cellular", "params": { "frequency": 8, "jitter": 1 } }"#,
        false,
    );
    group.bench_function("cellular/texgraph", |b| {
        b.iter(|| render_once(&cellular, BIG))
    });
    {
        use fastnoise_lite::{
            CellularDistanceFunction, CellularReturnType, FastNoiseLite, NoiseType,
        };
        let mut noise = FastNoiseLite::new();
        noise.set_noise_type(Some(NoiseType::Cellular));
        noise.set_cellular_distance_function(Some(CellularDistanceFunction::Euclidean));
        noise.set_cellular_return_type(Some(CellularReturnType::Distance));
        noise.set_cellular_jitter(Some(1.0));
        noise.set_frequency(Some(8.0));
        group.bench_function("cellular/fastnoise-lite", |b| {
            b.iter(|| {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = noise.get_noise_2d(at(i as u32 % BIG), at(i as u32 / BIG));
                }
                black_box(&out);
            })
        });
    }
    {
        use noise::core::worley::ReturnType;
        use noise::{NoiseFn, Worley};
        let noise = Worley::new(0)
            .set_frequency(8.0)
            .set_return_type(ReturnType::Distance);
        group.bench_function("cellular/noise-rs", |b| {
            b.iter(|| {
                for (i, o) in out64.iter_mut().enumerate() {
                    let p = [at(i as u32 % BIG), at(i as u32 / BIG)].map(f64::from);
                    *o = noise.get(p);
                }
                black_box(&out64);
            })
        });
    }

    let simplex = single_node(
        r#"{ "id": "n", "type": "simplex", "params": { "frequency": 8 } }"#,
        false,
    );
    group.bench_function("simplex/texgraph", |b| {
        b.iter(|| render_once(&simplex, BIG))
    });
    {
        use fastnoise_lite::{FastNoiseLite, NoiseType};
        let mut noise = FastNoiseLite::new();
        noise.set_noise_type(Some(NoiseType::OpenSimplex2));
        noise.set_frequency(Some(8.0));
        group.bench_function("simplex/fastnoise-lite", |b| {
            b.iter(|| {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = noise.get_noise_2d(at(i as u32 % BIG), at(i as u32 / BIG));
                }
                black_box(&out);
            })
        });
    }
    {
        use noise::{NoiseFn, Simplex};
        let noise = Simplex::new(0);
        group.bench_function("simplex/noise-rs", |b| {
            b.iter(|| {
                for (i, o) in out64.iter_mut().enumerate() {
                    let p = [at(i as u32 % BIG), at(i as u32 / BIG)].map(|c| f64::from(c) * 8.0);
                    *o = noise.get(p);
                }
                black_box(&out64);
            })
        });
    }
    group.finish();
}

/// (benchmark id, what it is, tile sampler params and inputs) of the tile sampler rows.
const TILE_SAMPLERS: &[(&str, &str, &str)] = &[
    (
        "discs_16",
        "16x16 discs",
        r#""params": { "x_amount": 16, "y_amount": 16, "pattern": "disc" }"#,
    ),
    (
        "discs_256",
        "256x256 discs",
        r#""params": { "x_amount": 256, "y_amount": 256, "pattern": "disc" }"#,
    ),
    (
        "maps_16",
        "16x16 bevelled squares, scale and rotation maps (Perlin)",
        r#""params": { "x_amount": 16, "y_amount": 16, "pattern": "brick", "position_random": 0.3 },
           "inputs": { "scale_map": "s", "rotation_map": "r" }"#,
    ),
];

/// The tile sampler at 2048², one thread: 16×16 and 256×256 instances, and instances
/// sized and turned by Perlin maps read at their centres.
fn tile_sampler_2048(c: &mut Criterion) {
    const BIG: u32 = 2048;
    let mut group = c.benchmark_group("tile_sampler2048");
    group.throughput(Throughput::Elements(u64::from(BIG * BIG)));
    for (name, _, settings) in TILE_SAMPLERS {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 5, "settings": {{ "tileable": true }}, "nodes": [
              {{ "id": "s", "type": "perlin", "params": {{ "frequency": 4 }} }},
              {{ "id": "r", "type": "perlin", "params": {{ "frequency": 3, "seed": 7 }} }},
              {{ "id": "n", "type": "tile_sampler", {settings} }},
              {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"#
        );
        let program =
            compile(&Graph::from_json(&json).expect("valid graph"), None).expect("compiles");
        group.bench_function(*name, |b| b.iter(|| render_once(&program, BIG)));
    }
    group.finish();
}

fn graphs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../graphs")
}

fn example_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(graphs_dir())
        .expect("graphs/ exists")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            (path.extension()? == "json").then_some(stem)
        })
        .collect();
    names.sort();
    names
}

fn examples(c: &mut Criterion) {
    let mut group = c.benchmark_group("example");
    group.throughput(Throughput::Elements(u64::from(EXAMPLE_SIDE * EXAMPLE_SIDE)));
    for name in example_names() {
        let mut graph = Graph::load(&graphs_dir().join(format!("{name}.json"))).expect("loads");
        graph.resolve_paths(&graphs_dir());
        let first = output_names(&graph).remove(0);
        let program = compile(&graph, Some(&first)).expect("compiles");
        group.bench_function(&name, |b| b.iter(|| render_once(&program, EXAMPLE_SIDE)));
    }
    group.finish();
}

/// Side of the raster benchmarks.
const RASTER_SIDE: u32 = 2048;
/// Blur standard deviations timed, in texels of the 2048² plane: from 1 texel to a
/// quarter of the width.
const BLUR_SIGMAS: [u32; 4] = [1, 16, 128, 512];

/// The height the raster benchmarks filter.
const HEIGHT: &str = r#"{ "id": "h", "type": "perlin", "params": { "frequency": 8 } }"#;

fn raster(c: &mut Criterion) {
    let mut group = c.benchmark_group("raster");
    group.throughput(Throughput::Elements(u64::from(RASTER_SIDE * RASTER_SIDE)));
    let height = single_node(
        r#"{ "id": "n", "type": "perlin", "params": { "frequency": 8 } }"#,
        true,
    );
    let options = RenderOptions {
        threads: Some(1),
        ..RenderOptions::default()
    };
    let plane =
        render(&height, RASTER_SIDE, RASTER_SIDE, options.clone(), &|_| {}).expect("renders");
    let mut out = Image {
        data: vec![0.0; plane.data.len()],
        ..plane.clone()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    for sigma in BLUR_SIGMAS {
        let radius = sigma as f32 / RASTER_SIDE as f32;
        group.bench_function(format!("blur_sigma{sigma}"), |b| {
            b.iter(|| {
                pool.install(|| blur(&plane, radius, true, &mut out))
                    .expect("memory")
            })
        });
    }
    // The normal pass: the last stage of height → normal (gradients, normals and the
    // RGBA write), timed by the evaluator itself; the height stage before it is not
    // counted. Both render into a reused image, as `texgraph bench` and previews do.
    let program = single_node(
        &format!(r#"{HEIGHT}, {{ "id": "n", "type": "normal", "inputs": {{ "height": "h" }} }}"#),
        true,
    );
    let mut image = Image {
        width: 0,
        height: 0,
        channels: 0,
        data: Vec::new(),
    };
    group.bench_function("normal_pass", |b| {
        b.iter_custom(|reps| {
            let mut total = Duration::ZERO;
            for _ in 0..reps {
                let times = render_timed(
                    &program,
                    &mut image,
                    RASTER_SIDE,
                    RASTER_SIDE,
                    options.clone(),
                    &|_| {},
                )
                .expect("renders");
                total += *times.last().expect("an output stage");
            }
            total
        })
    });
    group.finish();
}

/// The height the occlusion benchmark reads.
const OCCLUSION_HEIGHT: &str =
    r#"{ "id": "h", "type": "fbm", "params": { "octaves": 6, "frequency": 4 } }"#;

/// Ambient occlusion at 2048², one thread: the height alone, and the height with
/// `ambient_occlusion` at each quality on top (its plane, then the occlusion stage).
fn occlusion_2048(c: &mut Criterion) {
    const BIG: u32 = 2048;
    let mut group = c.benchmark_group("occlusion2048");
    group.throughput(Throughput::Elements(u64::from(BIG * BIG)));
    let height = single_node(&OCCLUSION_HEIGHT.replace(r#""h""#, r#""n""#), false);
    group.bench_function("height", |b| b.iter(|| render_once(&height, BIG)));
    for quality in ["low", "medium", "high"] {
        let program = single_node(
            &format!(
                r#"{OCCLUSION_HEIGHT}, {{ "id": "n", "type": "ambient_occlusion", "params": {{ "quality": "{quality}" }}, "inputs": {{ "height": "h" }} }}"#
            ),
            false,
        );
        group.bench_function(format!("occlusion_{quality}"), |b| {
            b.iter(|| render_once(&program, BIG))
        });
    }
    group.finish();
}

/// Side of the DDS export benchmark.
const DDS_SIDE: u32 = 2048;

/// A 2048² RGBA map (the bricks example, rendered once) written as a BC7 sRGB DDS file
/// with its 12 mip levels, into memory, on rayon's pool (every core).
fn dds_export(c: &mut Criterion) {
    use texgraph_core::export::dds::{BlockFormat, encode_dds};
    let mut graph = Graph::load(&graphs_dir().join("bricks.json")).expect("loads");
    graph.resolve_paths(&graphs_dir());
    let first = output_names(&graph).remove(0);
    let program = compile(&graph, Some(&first)).expect("compiles");
    let options = RenderOptions::default();
    let map = render(&program, DDS_SIDE, DDS_SIDE, options, &|_| {}).expect("renders");
    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    group.throughput(Throughput::Elements(u64::from(DDS_SIDE * DDS_SIDE)));
    group.bench_function("dds_bc7_mips_2048", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            encode_dds(&map, BlockFormat::Bc7Srgb, &mut out).expect("encodes");
            black_box(out)
        })
    });
    group.finish();
}

/// Criterion's median time of one benchmark in nanoseconds, from its saved estimates.
/// The material ball as the editor's 3D view draws it: the maps of a material example
/// rendered together (one thread, as the editor's worker does), the environment's light
/// precomputed, and frames on rayon's pool: the refined 512² frame (2×2 samples a pixel)
/// and the frames shown while orbiting (256² and 512², one sample).
fn ball(c: &mut Criterion) {
    use texgraph_core::ball::{
        BallSettings, Environment, Lighting, Material, material_maps, render_ball_with,
    };
    let mut graph = Graph::load(&graphs_dir().join("brick_wall.json")).expect("loads");
    graph.resolve_paths(&graphs_dir());
    let one_thread = RenderOptions {
        threads: Some(1),
        ..RenderOptions::default()
    };
    let mut group = c.benchmark_group("ball");
    group.sample_size(10);
    for side in [256u32, 512] {
        group.bench_function(format!("maps_brick_wall_{side}"), |b| {
            b.iter(|| black_box(material_maps(&graph, side, one_thread.clone()).expect("renders")))
        });
    }
    group.bench_function("lighting_studio", |b| {
        b.iter(|| black_box(Lighting::new(Environment::Studio)))
    });
    let maps = material_maps(&graph, 512, one_thread).expect("renders");
    group.bench_function("prepare_512", |b| {
        b.iter(|| black_box(Material::new(&maps)))
    });
    let material = Material::new(&maps);
    let lighting = Lighting::new(Environment::Studio);
    for (id, size, samples) in [
        ("frame_512_refined", 512, 2),
        ("frame_512_orbit", 512, 1),
        ("frame_256_orbit", 256, 1),
    ] {
        let settings = BallSettings {
            size,
            samples,
            orbit: [20.0, 10.0],
            ..BallSettings::default()
        };
        group.bench_function(id, |b| {
            b.iter(|| black_box(render_ball_with(&material, &settings, &lighting)))
        });
    }
    // The terrain shape, ray-traced through its height map, against the sphere above.
    let mut terrain = Graph::load(&graphs_dir().join("eroded_mountains.json")).expect("loads");
    terrain.resolve_paths(&graphs_dir());
    let maps = material_maps(&terrain, 512, RenderOptions::default()).expect("renders");
    let material = Material::new(&maps);
    for (id, size, samples) in [
        ("terrain_512_refined", 512, 2),
        ("terrain_256_orbit", 256, 1),
    ] {
        let settings = BallSettings {
            size,
            samples,
            shape: texgraph_core::ball::Shape::Terrain,
            orbit: [20.0, 10.0],
            ..BallSettings::default()
        };
        group.bench_function(id, |b| {
            b.iter(|| black_box(render_ball_with(&material, &settings, &lighting)))
        });
    }
    group.finish();
}

fn median_ns(dir: &Path, id: &str) -> Option<f64> {
    let text = std::fs::read_to_string(dir.join(id).join("new/estimates.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn print_summary(dir: &Path) {
    let per_sample =
        |id: &str, samples: u32| median_ns(dir, id).map(|ns| ns / f64::from(samples * samples));
    println!("\nns per sample, single thread (median of criterion's samples):");
    println!("{:<22} {:>10}", "kernel", "texgraph");
    for (name, _, _) in KERNELS {
        if let Some(ns) = per_sample(&format!("kernel/{name}"), SIDE) {
            println!("{name:<22} {ns:>10.2}");
        }
    }
    if let Some(ours) = per_sample("fbm/texgraph", SIDE) {
        println!("\nfBm, 6 octaves of 2D Perlin, {SIDE}x{SIDE}:");
        println!(
            "{:<16} {:>10} {:>14}",
            "implementation", "ns/sample", "texgraph is"
        );
        println!("{:<16} {ours:>10.2} {:>14}", "texgraph", "");
        for other in ["noise-rs", "fastnoise-lite"] {
            if let Some(ns) = per_sample(&format!("fbm/{other}"), SIDE) {
                println!("{other:<16} {ns:>10.2} {:>13.1}x", ns / ours);
            }
        }
    }
    if let (Some(ours), Some(theirs)) = (
        per_sample("fbm2048/texgraph", 2048),
        per_sample("fbm2048/noise-rs", 2048),
    ) {
        println!(
            "\nthe same fBm at 2048x2048: texgraph {ours:.2}, noise-rs {theirs:.2} ns/sample ({:.1}x)",
            theirs / ours
        );
    }
    for noise in ["cellular", "simplex"] {
        let Some(ours) = per_sample(&format!("library2048/{noise}_texgraph"), 2048) else {
            continue;
        };
        let what = if noise == "cellular" {
            ", F1, jitter 1"
        } else {
            ""
        };
        println!("\n{noise} 2D{what}, 8 across, 2048x2048:");
        println!(
            "{:<16} {:>10} {:>14}",
            "implementation", "ns/sample", "texgraph is"
        );
        println!("{:<16} {ours:>10.2} {:>14}", "texgraph", "");
        for other in ["fastnoise-lite", "noise-rs"] {
            if let Some(ns) = per_sample(&format!("library2048/{noise}_{other}"), 2048) {
                println!("{other:<16} {ns:>10.2} {:>13.1}x", ns / ours);
            }
        }
    }
    if per_sample("tile_sampler2048/discs_16", 2048).is_some() {
        println!("\ntile_sampler at 2048x2048, ns per pixel:");
        for (name, what, _) in TILE_SAMPLERS {
            if let Some(ns) = per_sample(&format!("tile_sampler2048/{name}"), 2048) {
                println!("{what:<58} {ns:>8.2}");
            }
        }
    }
    let raster = |id: &str| per_sample(&format!("raster/{id}"), RASTER_SIDE);
    if raster("blur_sigma1").is_some() {
        println!("\nraster stages at {RASTER_SIDE}x{RASTER_SIDE}, ns per texel:");
        for sigma in BLUR_SIGMAS {
            if let Some(ns) = raster(&format!("blur_sigma{sigma}")) {
                println!("blur, sigma {sigma:>3} texels {ns:>8.2}");
            }
        }
        if let Some(ns) = raster("normal_pass") {
            println!("normal pass         {ns:>8.2}  (the output stage of height → normal)");
        }
    }
    if let Some(height) = median_ns(dir, "occlusion2048/height") {
        println!("\nambient occlusion at 2048x2048 over a 6-octave fBm height, one thread:");
        println!("height alone        {:>8.1} ms", height / 1e6);
        for quality in ["low", "medium", "high"] {
            if let Some(ns) = median_ns(dir, &format!("occlusion2048/occlusion_{quality}")) {
                println!(
                    "{:<19} {:>8.1} ms {:>6.2}x the height",
                    format!("with AO, {quality}"),
                    ns / 1e6,
                    ns / height
                );
            }
        }
    }
    if let Some(ns) = median_ns(dir, "export/dds_bc7_mips_2048") {
        println!(
            "\nDDS, BC7 sRGB with mips, {DDS_SIDE}x{DDS_SIDE} on every core: {:.2} s",
            ns / 1e9
        );
    }
    let names = example_names();
    if names
        .iter()
        .any(|n| median_ns(dir, &format!("example/{n}")).is_some())
    {
        println!("\nexample graphs at {EXAMPLE_SIDE}x{EXAMPLE_SIDE}:");
        for name in names {
            if let Some(ns) = median_ns(dir, &format!("example/{name}")) {
                let per_pixel = ns / f64::from(EXAMPLE_SIDE * EXAMPLE_SIDE);
                println!("{name:<16} {:>8.2} ms {per_pixel:>8.2} ns/pixel", ns / 1e6);
            }
        }
    }
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/criterion");
    let mut c = Criterion::default()
        .output_directory(&dir)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    kernels(&mut c);
    fbm_baselines(&mut c);
    fbm_2048(&mut c);
    library_2048(&mut c);
    tile_sampler_2048(&mut c);
    raster(&mut c);
    occlusion_2048(&mut c);
    examples(&mut c);
    dds_export(&mut c);
    ball(&mut c);
    c.final_summary();
    print_summary(&dir);
}
