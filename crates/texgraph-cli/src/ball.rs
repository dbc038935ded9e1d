//! `texgraph render --ball`: the graph's material on a lit shape, rendered on the CPU
//! (the core's `ball` module), written as an sRGB PNG.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use texgraph_core::ball::{
    Background, BallSettings, Environment, Shape, material_maps, render_ball,
};
use texgraph_core::export::{Depth, Format, encode_to_vec};
use texgraph_core::staging::write_atomically;
use texgraph_core::usage::Encoding;
use texgraph_core::{Graph, RenderOptions};

use crate::load::describe;

/// What `--ball` and its options ask for.
pub struct BallArgs<'a> {
    /// The graph file (for error messages and the default output name).
    pub graph_path: &'a Path,
    /// The image to write (default `<graph>_ball.png`).
    pub out: Option<&'a Path>,
    /// The image's size.
    pub size: (u32, u32),
    /// `sphere`, `plane`, `cube` or `cylinder`.
    pub shape: &'a str,
    /// `studio`, `sky` or an environment image file.
    pub env: &'a str,
    /// `environment`, `gray` or `transparent`.
    pub background: &'a str,
    /// Repeats of the maps across the shape.
    pub tiling: f32,
    /// The key light's azimuth, degrees.
    pub light_angle: f32,
    /// The maps' size.
    pub map_size: u32,
    /// Worker threads.
    pub threads: Option<usize>,
}

/// Largest side of a ball image: the shape is a view, not a texture.
const MAX_BALL_SIZE: u32 = 4096;

/// Renders the material ball and writes it.
pub fn run(args: &BallArgs<'_>, graph: &Graph) -> anyhow::Result<()> {
    let (width, height) = args.size;
    if width != height {
        bail!("--ball renders a square image: give --size one number, such as 512");
    }
    if width > MAX_BALL_SIZE {
        bail!("--ball images are at most {MAX_BALL_SIZE} pixels a side");
    }
    if !args.tiling.is_finite() || args.tiling <= 0.0 || args.tiling > 64.0 {
        bail!("--tiling must be above 0 and at most 64");
    }
    if !args.light_angle.is_finite() {
        bail!("--light-angle must be a finite number of degrees");
    }
    if texgraph_core::export::material::material_outputs(graph).is_empty() {
        bail!(
            "{}: the graph has no material outputs to put on a shape: give its outputs a usage (basecolor, normal, roughness…)",
            args.graph_path.display()
        );
    }
    let shape = match args.shape {
        "plane" => Shape::Plane,
        "cube" => Shape::Cube,
        "cylinder" => Shape::Cylinder,
        _ => Shape::Sphere,
    };
    let out: PathBuf = args.out.map(Path::to_owned).unwrap_or_else(|| {
        let stem = texgraph_core::export::file_stem_for(graph, Some(args.graph_path));
        PathBuf::from(format!("{stem}_ball.png"))
    });
    if !out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!("{}: --ball writes a PNG", out.display());
    }
    // Read before the maps are rendered, so a bad file is reported at once.
    let environment = match args.env {
        "studio" => Environment::Studio,
        "sky" => Environment::Sky,
        file => Environment::load(Path::new(file)).map_err(|e| anyhow!("{e}"))?,
    };
    let options = RenderOptions {
        threads: args.threads,
        ..RenderOptions::default()
    };
    let start = std::time::Instant::now();
    let maps = material_maps(graph, args.map_size, options.clone())
        .map_err(|e| describe(args.graph_path, &e))?;
    let settings = BallSettings {
        shape,
        size: width,
        tiling: args.tiling,
        environment,
        light_azimuth: args.light_angle,
        background: match args.background {
            "gray" => Background::Gray,
            "transparent" => Background::Transparent,
            _ => Background::Environment,
        },
        ..BallSettings::default()
    };
    let image = match options.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| anyhow!("{e}"))?
            .install(|| render_ball(&maps, &settings)),
        None => render_ball(&maps, &settings),
    };
    // A picture for people: sRGB-encoded, and tagged so.
    let bytes = encode_to_vec(&image, Format::Png, Depth::Eight, Encoding::Srgb)
        .map_err(|e| anyhow!("{}: {e}", out.display()))?;
    write_atomically(&out, |file| {
        std::io::Write::write_all(file, &bytes).map_err(|source| texgraph_core::Error::Io {
            path: out.clone(),
            source,
        })
    })
    .map_err(|e| anyhow!("{e}"))?;
    crate::say!(
        "wrote {}: {width}x{width} {} ball from {}² maps in {:.3} s",
        out.display(),
        args.shape,
        args.map_size,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
