//! `texgraph render --ball`: the graph's material on a lit shape, rendered on the CPU
//! (the core's `ball` module), written as an sRGB PNG.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use texgraph_core::ball::{Background, BallSettings, Environment, Shape};
use texgraph_core::{BallExport, ExportRequest, Graph, RenderOptions};

use crate::load::describe;

/// What `--ball` and its options ask for.
pub struct BallArgs<'a> {
    /// The graph file (for error messages and the default output name).
    pub graph_path: &'a Path,
    /// The image to write (default `<graph>_ball.png`).
    pub out: Option<&'a Path>,
    /// The image's size.
    pub size: (u32, u32),
    /// `sphere`, `plane`, `cube`, `cylinder` or `terrain`.
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
    /// The camera, light and image settings the editor's 3D view also sets.
    pub view: View,
    /// Worker threads.
    pub threads: Option<usize>,
}

/// The view settings beyond the shape, environment, backdrop, tiling and light angle.
pub struct View {
    /// The key light's elevation, degrees.
    pub light_elevation: f32,
    /// The key light's strength.
    pub light_intensity: f32,
    /// The environment and key light turned about the up axis, degrees.
    pub environment_turn: f32,
    /// The camera's yaw and pitch about the shape, degrees.
    pub orbit: [f32; 2],
    /// Magnification.
    pub zoom: f32,
    /// Exposure, stops.
    pub exposure: f32,
    /// Parallax depth, texture tiles.
    pub parallax: f32,
    /// The terrain's height for a height of 1, as a fraction of its width.
    pub relief: f32,
}

/// Deepest parallax `--parallax` takes, in texture tiles.
const MAX_PARALLAX: f32 = 0.5;
/// Strongest key light `--light-intensity` takes.
const MAX_LIGHT: f32 = 100.0;

impl View {
    /// Refuses values that are not numbers or out of range, naming the flag.
    fn check(&self) -> anyhow::Result<()> {
        let v = self;
        let finite = [
            ("--light-elevation", v.light_elevation),
            ("--env-turn", v.environment_turn),
            ("--orbit", v.orbit[0]),
            ("--orbit", v.orbit[1]),
            ("--exposure", v.exposure),
        ];
        if let Some((flag, _)) = finite.iter().find(|(_, x)| !x.is_finite()) {
            bail!("{flag} must be a finite number");
        }
        let ranged = [
            ("--light-intensity", v.light_intensity, 0.0, MAX_LIGHT),
            (
                "--zoom",
                v.zoom,
                texgraph_core::ball::MIN_ZOOM,
                texgraph_core::ball::MAX_ZOOM,
            ),
            ("--parallax", v.parallax, 0.0, MAX_PARALLAX),
            (
                "--relief",
                v.relief,
                texgraph_core::ball::MIN_RELIEF,
                texgraph_core::ball::MAX_RELIEF,
            ),
            ("--exposure", v.exposure, -16.0, 16.0),
        ];
        for (flag, x, low, high) in ranged {
            if !(low..=high).contains(&x) {
                bail!("{flag} must be between {low} and {high}");
            }
        }
        Ok(())
    }
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
    args.view.check()?;
    // clap accepts only the shapes' and backdrops' names.
    let shape = Shape::parse(args.shape).unwrap_or_default();
    let background = Background::parse(args.background).unwrap_or_default();
    let out: PathBuf = args.out.map(Path::to_owned).unwrap_or_else(|| {
        let stem = texgraph_core::export::file_stem_for(graph, Some(args.graph_path));
        PathBuf::from(format!("{stem}_ball.png"))
    });
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
    let settings = BallSettings {
        shape,
        size: width,
        tiling: args.tiling,
        environment,
        light_azimuth: args.light_angle,
        background,
        light_elevation: args.view.light_elevation,
        light_intensity: args.view.light_intensity,
        environment_turn: args.view.environment_turn,
        orbit: args.view.orbit,
        zoom: args.view.zoom,
        exposure: args.view.exposure,
        depth: args.view.parallax,
        relief: args.view.relief,
        ..BallSettings::default()
    };
    let request = ExportRequest::Ball(BallExport {
        out: out.clone(),
        settings,
        map_size: args.map_size,
    });
    let start = std::time::Instant::now();
    request.run(graph, &options, &|_| {}).map_err(|e| match e {
        texgraph_core::Error::Invalid(_) => describe(args.graph_path, &e),
        texgraph_core::Error::Render(message) => {
            anyhow!("{}: {message}", args.graph_path.display())
        }
        other => anyhow!("{other}"),
    })?;
    crate::say!(
        "wrote {}: {width}x{width} {} ball from {}² maps in {:.3} s",
        out.display(),
        args.shape,
        args.map_size,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
