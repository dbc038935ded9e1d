//! A material ball: a deterministic CPU renderer that shows a material's maps on a shape
//! under an environment and a key light, apart from the graph evaluator (it is fed the
//! maps [`material_maps`] renders).
//!
//! One concern a file: [`maps`] (the maps and their sampling), [`shapes`] (exact ray
//! intersections with UV and tangent frames), [`environment`] (radiance and image-based
//! light), `shade` (the glTF BRDF) and here the camera, tone mapping and the parallel loop.
//! Each pixel is a pure function of its coordinates, so any thread count gives the same
//! bits.

pub mod environment;
pub mod maps;
pub mod material;
mod shade;
pub mod shapes;
pub mod terrain;
pub mod vector;

use rayon::prelude::*;

pub use environment::{Environment, EnvironmentImage, Lighting};
pub use maps::{MaterialMaps, flip_green, material_maps, neutral_image, solid};
pub use material::Material;
pub use shapes::{Ground, Hit, Shape};
pub use terrain::Heightfield;
pub use vector::{Turn, Vec3, v3};

use shade::{Detail, KeyLight, Light, shade};
use texgraph_engine::eval::Image;
use texgraph_kernels::color::linear_to_srgb;

/// What shows behind the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Background {
    /// The environment itself.
    #[default]
    Environment,
    /// A neutral mid-gray.
    Gray,
    /// Nothing: alpha 0 where the shape is not.
    Transparent,
}

impl Background {
    /// Every backdrop, in the order menus list them.
    pub const ALL: [Background; 3] = [
        Background::Environment,
        Background::Gray,
        Background::Transparent,
    ];

    /// The backdrop's name on the command line (`--background`).
    pub fn id(self) -> &'static str {
        match self {
            Background::Environment => "environment",
            Background::Gray => "gray",
            Background::Transparent => "transparent",
        }
    }

    /// The backdrop named `id` (see [`Background::id`]).
    pub fn parse(id: &str) -> Option<Background> {
        Background::ALL.into_iter().find(|b| b.id() == id)
    }
}

/// How to render a material ball.
#[derive(Debug, Clone, PartialEq)]
pub struct BallSettings {
    /// The shape the material is on.
    pub shape: Shape,
    /// Width and height of the image, in pixels.
    pub size: u32,
    /// How many times the maps repeat across the shape's UV (the terrain shows them once).
    pub tiling: f32,
    /// The light around the shape.
    pub environment: Environment,
    /// Where the key light comes from, in degrees about the camera's up axis: 0 from the
    /// camera, negative from the left.
    pub light_azimuth: f32,
    /// The key light's height above the camera's horizon, in degrees.
    pub light_elevation: f32,
    /// The key light's irradiance on a surface facing it (0 turns it off).
    pub light_intensity: f32,
    /// Exposure in stops: the radiance is multiplied by 2^exposure.
    pub exposure: f32,
    /// Tone maps with Khronos PBR Neutral before encoding (off: clamped to [0, 1]).
    pub tone_map: bool,
    /// What shows behind the shape.
    pub background: Background,
    /// Parallax depth of the height map in texture tiles (0 turns parallax off; the
    /// terrain's relief is its geometry, so it takes none).
    pub depth: f32,
    /// The terrain shape's height for a height of 1, as a fraction of its width.
    pub relief: f32,
    /// Samples per pixel along each axis (2: 4 samples, antialiased edges).
    pub samples: u32,
    /// The camera turned about the shape from the shape's own view, in degrees: about the
    /// world's up axis (positive to the right) and up over it (positive from above).
    pub orbit: [f32; 2],
    /// Magnification: the camera's distance is the framing distance divided by this.
    pub zoom: f32,
    /// The environment and the key light turned together about the world's up axis, in
    /// degrees.
    pub environment_turn: f32,
}

impl Default for BallSettings {
    fn default() -> Self {
        Self {
            shape: Shape::Sphere,
            size: 256,
            tiling: 1.0,
            environment: Environment::Studio,
            light_azimuth: -45.0,
            light_elevation: 40.0,
            light_intensity: 2.0,
            exposure: 0.0,
            tone_map: true,
            background: Background::Environment,
            depth: 0.0,
            relief: 0.25,
            samples: 2,
            orbit: [0.0, 0.0],
            zoom: 1.0,
            environment_turn: 0.0,
        }
    }
}

/// Linear radiance of the gray background.
const GRAY: f32 = 0.18;
/// Tangent of half the camera's field of view.
const TAN_HALF_FOV: f32 = 0.3;
/// Steepest view from above or below, in radians (89°).
const MAX_PITCH: f32 = 1.553_343;
/// Range of [`BallSettings::zoom`]: from far out to about touching the shape.
pub const MIN_ZOOM: f32 = 0.5;
/// See [`MIN_ZOOM`].
pub const MAX_ZOOM: f32 = 3.0;
/// Range of [`BallSettings::relief`]: from a nearly flat slab to a block twice as high as
/// wide.
pub const MIN_RELIEF: f32 = 0.01;
/// See [`MIN_RELIEF`].
pub const MAX_RELIEF: f32 = 2.0;

/// The camera: position and its right, up and forward axes.
struct Camera {
    origin: Vec3,
    right: Vec3,
    up: Vec3,
    forward: Vec3,
}

impl Camera {
    /// A camera on the shape's viewing angles, far enough that the shape fills about 85%
    /// of the frame.
    fn framing(shape: Shape) -> Self {
        Self::orbiting(shape, [0.0, 0.0], 1.0)
    }

    /// The framing camera turned by `orbit` degrees (yaw, pitch) about the shape and moved
    /// `zoom` times closer. The pitch stops short of the poles, where "up" is undefined.
    fn orbiting(shape: Shape, orbit: [f32; 2], zoom: f32) -> Self {
        let (az, el) = shape.view_angles();
        let az = az + orbit[0].to_radians();
        let el = (el + orbit[1].to_radians()).clamp(-MAX_PITCH, MAX_PITCH);
        let distance = 3.8 * shape.frame_radius() / zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        let origin = v3(el.cos() * az.sin(), el.sin(), el.cos() * az.cos()) * distance;
        let forward = (-origin).normalize();
        let right = forward.cross(v3(0.0, 1.0, 0.0)).normalize();
        let up = right.cross(forward);
        Self {
            origin,
            right,
            up,
            forward,
        }
    }

    /// The unit ray through the image point (`x`, `y`) in pixels (0, 0 the top left).
    fn ray(&self, x: f32, y: f32, size: f32) -> Vec3 {
        let sx = (2.0 * x / size - 1.0) * TAN_HALF_FOV;
        let sy = (1.0 - 2.0 * y / size) * TAN_HALF_FOV;
        (self.forward + self.right * sx + self.up * sy).normalize()
    }

    /// A direction given in degrees about the camera (azimuth 0 towards the camera,
    /// negative to the left; elevation above its horizon) in world space.
    fn direction(&self, azimuth: f32, elevation: f32) -> Vec3 {
        let (az, el) = (azimuth.to_radians(), elevation.to_radians());
        let local = v3(el.cos() * az.sin(), el.sin(), el.cos() * az.cos());
        (self.right * local.x + self.up * local.y - self.forward * local.z).normalize()
    }
}

/// Khronos PBR Neutral tone mapping (Khronos, 2024): colors below 0.76 keep their hue and
/// value apart from a small offset that lifts the blacks' contrast; brighter ones compress
/// smoothly towards 1 and desaturate a little so highlights go white. Base colors shown
/// under a white light of 1 come out nearly as authored.
pub fn pbr_neutral(c: [f32; 3]) -> [f32; 3] {
    const START: f32 = 0.8 - 0.04;
    const DESATURATION: f32 = 0.15;
    let x = c[0].min(c[1]).min(c[2]);
    let offset = if x < 0.08 { x - 6.25 * x * x } else { 0.04 };
    let c = c.map(|v| v - offset);
    let peak = c[0].max(c[1]).max(c[2]);
    if peak < START {
        return c;
    }
    let d = 1.0 - START;
    let new_peak = 1.0 - d * d / (peak + d - START);
    let c = c.map(|v| v * (new_peak / peak));
    let g = 1.0 - 1.0 / (DESATURATION * (peak - new_peak) + 1.0);
    c.map(|v| v + (new_peak - v) * g)
}

/// The linear radiance of each pixel, exposure applied, premultiplied by its alpha
/// (coverage × opacity over a transparent background, 1 over the others): RGBA.
pub fn render_radiance(maps: &MaterialMaps, settings: &BallSettings) -> Image {
    render_radiance_lit(maps, settings, &Lighting::new(settings.environment.clone()))
}

/// [`render_radiance`] with the environment's light already precomputed (an editor keeps
/// it while only the maps change). `lighting` must be of `settings.environment`.
pub fn render_radiance_lit(
    maps: &MaterialMaps,
    settings: &BallSettings,
    lighting: &Lighting,
) -> Image {
    render_radiance_with(&Material::new(maps), settings, lighting)
}

/// [`render_radiance`] of a material already prepared, with the environment's light
/// already precomputed (an editor keeps both while only the view changes). `lighting` must
/// be of `settings.environment`.
pub fn render_radiance_with(
    material: &Material,
    settings: &BallSettings,
    lighting: &Lighting,
) -> Image {
    assert_eq!(
        lighting.environment(),
        &settings.environment,
        "the lighting was precomputed for another environment"
    );
    let size = settings.size.max(1);
    // The key light is placed about the shape's own view, so it stays where it is in the
    // world while the camera orbits, and turns with the environment.
    let turn = Turn::degrees(settings.environment_turn);
    let key = KeyLight {
        direction: turn.to_world(
            Camera::framing(settings.shape)
                .direction(settings.light_azimuth, settings.light_elevation),
        ),
        intensity: settings.light_intensity.max(0.0),
    };
    let camera = Camera::orbiting(settings.shape, settings.orbit, settings.zoom);
    let light = Light {
        lighting,
        turn,
        key,
    };
    let exposure = settings.exposure.exp2();
    let ground = Ground {
        field: material.ground(),
        relief: settings.relief,
    };
    // The terrain's ground is its height map, so its normal map and parallax would show
    // the same relief twice.
    let detail = if settings.shape == Shape::Terrain {
        Detail::None
    } else {
        Detail::NormalMap {
            depth: settings.depth,
        }
    };
    let n = settings.samples.max(1);
    let weight = 1.0 / (n * n) as f32;
    let width = size as usize;
    let mut data = vec![0.0f32; width * width * 4];
    data.par_chunks_mut(width * 4)
        .enumerate()
        .for_each(|(row, out)| {
            for col in 0..width {
                let mut sum = [0.0f32; 4];
                for sy in 0..n {
                    for sx in 0..n {
                        let x = col as f32 + (sx as f32 + 0.5) / n as f32;
                        let y = row as f32 + (sy as f32 + 0.5) / n as f32;
                        let dir = camera.ray(x, y, size as f32);
                        let behind = match settings.background {
                            Background::Environment => {
                                Some(lighting.radiance(turn.to_environment(dir)))
                            }
                            Background::Gray => Some(v3(GRAY, GRAY, GRAY)),
                            Background::Transparent => None,
                        };
                        let (color, alpha) = match settings.shape.intersect(
                            camera.origin,
                            dir,
                            settings.tiling,
                            ground,
                        ) {
                            Some(hit) => {
                                let (c, a) = shade(&hit, -dir, material, &light, detail);
                                match behind {
                                    Some(bg) => (c * a + bg * (1.0 - a), 1.0),
                                    None => (c * a, a),
                                }
                            }
                            None => match behind {
                                Some(bg) => (bg, 1.0),
                                None => (Vec3::default(), 0.0),
                            },
                        };
                        sum[0] += color.x;
                        sum[1] += color.y;
                        sum[2] += color.z;
                        sum[3] += alpha;
                    }
                }
                let px = &mut out[col * 4..col * 4 + 4];
                for c in 0..3 {
                    px[c] = sum[c] * weight * exposure;
                }
                px[3] = sum[3] * weight;
            }
        });
    Image {
        width: size,
        height: size,
        channels: 4,
        data,
    }
}

/// Renders `maps` on the ball: RGBA, tone mapped with [`pbr_neutral`] (unless
/// `tone_map` is off), sRGB-encoded, alpha = coverage × opacity (1 over an environment or
/// gray background). Any thread count gives the same bits.
pub fn render_ball(maps: &MaterialMaps, settings: &BallSettings) -> Image {
    render_ball_lit(maps, settings, &Lighting::new(settings.environment.clone()))
}

/// [`render_ball`] with the environment's light already precomputed; `lighting` must be
/// of `settings.environment`.
pub fn render_ball_lit(maps: &MaterialMaps, settings: &BallSettings, lighting: &Lighting) -> Image {
    render_ball_with(&Material::new(maps), settings, lighting)
}

/// [`render_ball`] of a material already prepared, with the environment's light already
/// precomputed; `lighting` must be of `settings.environment`.
pub fn render_ball_with(
    material: &Material,
    settings: &BallSettings,
    lighting: &Lighting,
) -> Image {
    let mut image = render_radiance_with(material, settings, lighting);
    image.data.par_chunks_mut(4).for_each(|px| {
        let a = px[3];
        if a <= 0.0 {
            px.copy_from_slice(&[0.0; 4]);
            return;
        }
        let straight = [px[0] / a, px[1] / a, px[2] / a];
        let mapped = if settings.tone_map {
            pbr_neutral(straight)
        } else {
            straight
        };
        for c in 0..3 {
            px[c] = linear_to_srgb(mapped[c].clamp(0.0, 1.0));
        }
    });
    image
}
