//! The light around the ball: an environment's radiance by direction, and what image-based
//! lighting precomputes from it — diffuse irradiance as 9 spherical-harmonic coefficients,
//! specular light prefiltered by roughness into small equirectangular maps, and the
//! split-sum BRDF table. Every sum runs over a fixed set of directions in a fixed order,
//! so the same environment gives the same bits on any machine's thread count.
//!
//! An environment may also be an equirectangular image read from a Radiance `.hdr` or an
//! OpenEXR `.exr` file ([`Environment::load`]). Its orientation is the one [`to_equirect`]
//! gives every map here: the image's centre column is −z (what the default camera looks
//! towards, behind the shape), the column a quarter across −x (the camera's left), three
//! quarters across +x, the left and right edges +z (behind the camera); the top row is
//! straight up, the bottom row straight down.

use std::f32::consts::{PI, TAU};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::vector::{Vec3, floor, v3};
use texgraph_base::files::Source;
use texgraph_base::{Error, Result};

/// Where the light comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Environment {
    /// A photo studio: a dark floor, a lighter ceiling and three softboxes (a large key at
    /// the upper left front, a fill at the right, a rim light behind above).
    Studio,
    /// Outdoors: a blue gradient sky, a dark ground and a sun disc high at the left.
    Sky,
    /// The same linear radiance from every direction (a furnace, for tests).
    Uniform([f32; 3]),
    /// An equirectangular image, usually read from a file ([`Environment::load`]).
    Image(Arc<EnvironmentImage>),
}

/// Widest environment image accepted, in pixels.
pub const MAX_ENVIRONMENT_WIDTH: u32 = 16384;
/// Brightest radiance kept from an image; brighter texels are clamped to it, so sums over
/// the image stay finite.
pub const MAX_ENVIRONMENT_RADIANCE: f32 = 1.0e6;

/// An equirectangular environment image: linear RGB, row by row from the top (straight up),
/// about twice as wide as it is high (see the module's notes for its orientation).
pub struct EnvironmentImage {
    path: PathBuf,
    width: usize,
    height: usize,
    rgb: Vec<f32>,
}

impl EnvironmentImage {
    /// An environment image of `width` × `height` linear RGB values (`rgb`, 3 a pixel, row
    /// by row from the top), named `path` (the file it came from, for messages and
    /// equality). NaN, infinite and negative values become 0 and values above
    /// [`MAX_ENVIRONMENT_RADIANCE`] become that; an image that is not about twice as wide as
    /// it is high, is wider than [`MAX_ENVIRONMENT_WIDTH`] or has the wrong number of values
    /// is refused.
    pub fn new(path: PathBuf, width: u32, height: u32, mut rgb: Vec<f32>) -> Result<Self> {
        let refuse = |message: String| Error::Environment {
            path: path.clone(),
            message,
        };
        check_size(width, height).map_err(refuse)?;
        let (width, height) = (width as usize, height as usize);
        if rgb.len() != width * height * 3 {
            return Err(refuse(format!(
                "{} values for {width}x{height} RGB pixels",
                rgb.len()
            )));
        }
        for v in &mut rgb {
            *v = if v.is_finite() && *v > 0.0 {
                v.min(MAX_ENVIRONMENT_RADIANCE)
            } else {
                0.0
            };
        }
        Ok(Self {
            path,
            width,
            height,
            rgb,
        })
    }

    /// Reads a Radiance `.hdr` or OpenEXR `.exr` equirectangular image (the file's contents
    /// decide which). The error names the file and says what is wrong with it.
    pub fn load(path: &Path) -> Result<Self> {
        let refuse = |message: String| Error::Environment {
            path: path.to_owned(),
            message,
        };
        let in_memory = cfg!(target_arch = "wasm32");
        if !in_memory {
            let meta =
                std::fs::metadata(path).map_err(|e| refuse(format!("cannot read it: {e}")))?;
            if !meta.is_file() {
                return Err(refuse("not a file".to_owned()));
            }
        }
        const KINDS: &str = "an environment is a Radiance .hdr or OpenEXR .exr image";
        let open = || -> Result<image::ImageReader<Box<dyn Source>>> {
            let mut reader = image::ImageReader::new(
                texgraph_base::files::open(path)
                    .map_err(|e| refuse(format!("cannot read it: {e}")))?,
            );
            // The name's extension first, then the content's signature, as
            // `ImageReader::open`.
            if let Ok(format) = image::ImageFormat::from_path(path) {
                reader.set_format(format);
            }
            let reader = reader
                .with_guessed_format()
                .map_err(|e| refuse(format!("cannot read it: {e}")))?;
            match reader.format() {
                Some(image::ImageFormat::Hdr | image::ImageFormat::OpenExr) => Ok(reader),
                Some(other) => Err(refuse(format!(
                    "a {} image, but {KINDS}",
                    other
                        .extensions_str()
                        .first()
                        .unwrap_or(&"other")
                        .to_uppercase()
                ))),
                None => Err(refuse(format!("not an image that can be read: {KINDS}"))),
            }
        };
        let reader = open()?;
        let kind = match reader.format() {
            Some(image::ImageFormat::Hdr) => "a Radiance HDR",
            _ => "an OpenEXR",
        };
        let unreadable =
            |e: image::ImageError| refuse(format!("not {kind} image we can read: {e}"));
        // The header alone first: the size decides whether decoding is attempted at all.
        let (width, height) = reader.into_dimensions().map_err(unreadable)?;
        check_size(width, height).map_err(refuse)?;
        // The decoded pixels (up to 16 bytes each) and their RGB copy (12).
        let pixels = u64::from(width) * u64::from(height);
        let needed = pixels * 28;
        if let Some(room) = texgraph_base::memory::short_of(needed) {
            return Err(refuse(format!(
                "{width}x{height} pixels; reading it needs about {} MiB but only {} MiB of memory is available to this process",
                needed >> 20,
                room >> 20
            )));
        }
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(width);
        limits.max_image_height = Some(height);
        limits.max_alloc = Some(pixels * 16 + (64 << 20));
        let mut reader = open()?;
        reader.limits(limits);
        let decoded = reader.decode().map_err(unreadable)?;
        let rgb = decoded.into_rgb32f().into_raw();
        Self::new(path.to_owned(), width, height, rgb)
    }

    /// The file the image came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width as u32
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// The linear RGB values, 3 a pixel, row by row from the top.
    pub fn rgb(&self) -> &[f32] {
        &self.rgb
    }

    fn texel(&self, x: usize, y: usize) -> Vec3 {
        let i = (y * self.width + x) * 3;
        v3(self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }

    /// The image averaged down to `width` × `height` texels, each the mean of the pixels
    /// (and parts of pixels) it covers, so a small bright source is neither missed nor
    /// caught by chance. Each sum runs over the pixels in order.
    fn box_filtered(&self, width: usize, height: usize) -> Vec<Vec3> {
        let columns = spans(self.width, width);
        let rows = spans(self.height, height);
        // Across first: each of the image's rows down to `width` texels.
        let across: Vec<Vec3> = (0..self.height)
            .into_par_iter()
            .flat_map_iter(|y| {
                columns.iter().map(move |(first, weights)| {
                    let mut sum = Vec3::default();
                    for (k, &w) in weights.iter().enumerate() {
                        sum = sum + self.texel(first + k, y) * w;
                    }
                    sum * (1.0 / self.width as f32)
                })
            })
            .collect();
        (0..width * height)
            .into_par_iter()
            .map(|i| {
                let (x, (first, weights)) = (i % width, &rows[i / width]);
                let mut sum = Vec3::default();
                for (k, &w) in weights.iter().enumerate() {
                    sum = sum + across[(first + k) * width + x] * w;
                }
                sum * (1.0 / self.height as f32)
            })
            .collect()
    }
}

/// How `n` cells split `m` texels along an axis (m ≥ n): for each cell, its first texel and
/// how much of each texel from there it covers, in units of 1/n texel (so a cell's weights
/// sum to m).
fn spans(m: usize, n: usize) -> Vec<(usize, Vec<f32>)> {
    (0..n)
        .map(|i| {
            let (start, end) = (i * m, (i + 1) * m);
            let (first, last) = (start / n, (end - 1) / n);
            let weights = (first..=last)
                .map(|x| (end.min((x + 1) * n) - start.max(x * n)) as f32)
                .collect();
            (first, weights)
        })
        .collect()
}

/// Whether an image of `width` × `height` can be an environment: about twice as wide as
/// high (within 1%), and not too wide.
fn check_size(width: u32, height: u32) -> std::result::Result<(), String> {
    if width == 0 || height == 0 {
        return Err("the image is empty".to_owned());
    }
    if width > MAX_ENVIRONMENT_WIDTH {
        return Err(format!(
            "{width}x{height} pixels; environment images are at most {MAX_ENVIRONMENT_WIDTH} pixels wide"
        ));
    }
    // Within 1% of 2:1: |w/h − 2| ≤ 0.02, in whole numbers (no slack of a pixel, which
    // let 3x1 and 1x1 through).
    let (w, h) = (u64::from(width), u64::from(height));
    if w.abs_diff(2 * h) * 100 > 2 * h {
        return Err(format!(
            "{width}x{height} pixels; an equirectangular environment is twice as wide as it is high (such as 4096x2048)"
        ));
    }
    Ok(())
}

impl PartialEq for EnvironmentImage {
    /// The same file name and size, and the same pixels (the same image at once).
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
            && self.width == other.width
            && self.height == other.height
            && (std::ptr::eq(self, other) || self.rgb == other.rgb)
    }
}

impl fmt::Debug for EnvironmentImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnvironmentImage")
            .field("path", &self.path)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn lerp(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    a + (b - a) * t
}

/// A rectangular softbox facing the centre from `centre` (unit), of half extents `half`
/// (tangent of the half angles), with soft edges; its frame is worked out once.
struct Softbox {
    centre: Vec3,
    right: Vec3,
    up: Vec3,
    half: [f32; 2],
    intensity: f32,
}

impl Softbox {
    fn new(towards: Vec3, half: [f32; 2], intensity: f32) -> Self {
        let centre = towards.normalize();
        let right = v3(0.0, 1.0, 0.0).cross(centre).normalize();
        let up = centre.cross(right);
        Self {
            centre,
            right,
            up,
            half,
            intensity,
        }
    }

    /// The box's radiance towards `d`.
    fn radiance(&self, d: Vec3) -> f32 {
        let k = d.dot(self.centre);
        if k <= 0.0 {
            return 0.0;
        }
        let x = (d.dot(self.right) / k).abs();
        let y = (d.dot(self.up) / k).abs();
        let edge = 0.08;
        let [hx, hy] = self.half;
        self.intensity * (1.0 - smoothstep(hx - edge, hx, x)) * (1.0 - smoothstep(hy - edge, hy, y))
    }
}

/// The studio's softboxes: a large key at the upper left front, a fill at the right, a
/// rim light behind above.
static SOFTBOXES: std::sync::LazyLock<[Softbox; 3]> = std::sync::LazyLock::new(|| {
    [
        Softbox::new(v3(-0.55, 0.5, 0.67), [0.35, 0.5], 6.0),
        Softbox::new(v3(0.85, 0.15, 0.5), [0.3, 0.3], 1.5),
        Softbox::new(v3(0.3, 0.6, -0.75), [0.6, 0.2], 4.0),
    ]
});

const SUN: Vec3 = v3(-0.55, 0.6, 0.58);

impl Environment {
    /// The equirectangular image in a Radiance `.hdr` or OpenEXR `.exr` file as the
    /// environment (see [`EnvironmentImage::load`]).
    pub fn load(path: &Path) -> Result<Environment> {
        Ok(Environment::Image(Arc::new(EnvironmentImage::load(path)?)))
    }

    /// Linear radiance arriving from direction `d` (unit, pointing away from the ball).
    pub fn radiance(&self, d: Vec3) -> Vec3 {
        match self {
            Environment::Uniform(c) => Vec3::from_array(*c),
            Environment::Image(image) => {
                bilinear(image.width, image.height, to_equirect(d), |x, y| {
                    image.texel(x, y)
                })
            }
            Environment::Studio => {
                let base = 0.03 + 0.32 * smoothstep(-0.2, 0.8, d.y);
                let [key, fill, rim] = &*SOFTBOXES;
                let l = base + key.radiance(d) + fill.radiance(d) + rim.radiance(d);
                v3(l, l, l)
            }
            Environment::Sky => {
                let zenith = v3(0.15, 0.32, 0.75);
                let horizon = v3(0.7, 0.8, 0.95);
                let ground = v3(0.12, 0.1, 0.08);
                let sky = if d.y >= 0.0 {
                    lerp(horizon, zenith, smoothstep(0.0, 0.6, d.y))
                } else {
                    lerp(horizon, ground, smoothstep(0.0, -0.1, d.y))
                };
                let k = d.dot(SUN.normalize());
                let disc = smoothstep(0.9994, 0.9997, k) * 200.0;
                let glow = (((k - 1.0) * 30.0).exp()) * 1.5;
                sky + v3(1.0, 0.93, 0.8) * (disc + glow)
            }
        }
    }
}

/// A direction's place in an equirectangular map: u = azimuth (0 at −z, turning towards
/// +x), v = polar angle / π (0 straight up).
fn to_equirect(d: Vec3) -> (f32, f32) {
    let u = 0.5 + d.x.atan2(-d.z) / TAU;
    let v = d.y.clamp(-1.0, 1.0).acos() / PI;
    (u, v)
}

fn from_equirect(u: f32, v: f32) -> Vec3 {
    let phi = (u - 0.5) * TAU;
    let theta = v * PI;
    v3(
        theta.sin() * phi.sin(),
        theta.cos(),
        -theta.sin() * phi.cos(),
    )
}

/// An equirectangular map of linear RGB.
struct Equirect {
    width: usize,
    height: usize,
    data: Vec<Vec3>,
}

/// An equirectangular map of `width` × `height` texels (`at`) at (`u`, `v`) in [0, 1]²
/// (see [`to_equirect`]): bilinear, wrapping in azimuth, clamped at the poles.
fn bilinear(
    width: usize,
    height: usize,
    (u, v): (f32, f32),
    at: impl Fn(usize, usize) -> Vec3,
) -> Vec3 {
    let x = u * width as f32 - 0.5;
    let y = (v * height as f32 - 0.5).clamp(0.0, (height - 1) as f32);
    let (x0, y0) = (floor(x), floor(y));
    let (fx, fy) = (x - x0, y - y0);
    // x0 is −1 … width − 1 for u in [0, 1]: wrapped without a division.
    let xa = if x0 < 0.0 {
        width - 1
    } else {
        (x0 as usize).min(width - 1)
    };
    let xb = if xa + 1 >= width { 0 } else { xa + 1 };
    let ya = y0 as usize;
    let yb = (ya + 1).min(height - 1);
    lerp(
        lerp(at(xa, ya), at(xb, ya), fx),
        lerp(at(xa, yb), at(xb, yb), fx),
        fy,
    )
}

impl Equirect {
    /// Bilinear, wrapping in azimuth, clamped at the poles.
    fn sample(&self, d: Vec3) -> Vec3 {
        self.sample_at(to_equirect(d))
    }

    /// [`Self::sample`] at the direction's place in the map, already worked out.
    fn sample_at(&self, uv: (f32, f32)) -> Vec3 {
        bilinear(self.width, self.height, uv, |x, y| {
            self.data[y * self.width + x]
        })
    }
}

/// Point `i` of `n` of the Hammersley set in [0, 1)².
fn hammersley(i: u32, n: u32) -> (f32, f32) {
    (
        (i as f32 + 0.5) / n as f32,
        i.reverse_bits() as f32 * (1.0 / 4_294_967_296.0),
    )
}

/// A GGX-distributed half vector around +z for the sample `xi`.
fn ggx_half(xi: (f32, f32), alpha: f32) -> Vec3 {
    let phi = TAU * xi.0;
    let a2 = alpha * alpha;
    let cos_theta = ((1.0 - xi.1) / (1.0 + (a2 - 1.0) * xi.1)).sqrt();
    let sin_theta = (1.0 - cos_theta * cos_theta).max(0.0).sqrt();
    v3(sin_theta * phi.cos(), sin_theta * phi.sin(), cos_theta)
}

/// An orthonormal frame around `n`: (tangent, bitangent).
fn basis(n: Vec3) -> (Vec3, Vec3) {
    let up = if n.y.abs() < 0.999 {
        v3(0.0, 1.0, 0.0)
    } else {
        v3(1.0, 0.0, 0.0)
    };
    let t = up.cross(n).normalize();
    (t, n.cross(t))
}

/// Smith-GGX visibility, height-correlated: G / (4 N·L N·V).
pub(crate) fn visibility(n_dot_l: f32, n_dot_v: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let gv = n_dot_l * (n_dot_v * n_dot_v * (1.0 - a2) + a2).sqrt();
    let gl = n_dot_v * (n_dot_l * n_dot_l * (1.0 - a2) + a2).sqrt();
    let sum = gv + gl;
    if sum > 0.0 { 0.5 / sum } else { 0.0 }
}

/// GGX normal distribution for `alpha` = roughness².
pub(crate) fn ggx(n_dot_h: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    a2 / (PI * d * d)
}

/// Size of the equirectangular map the environment is first rendered into, and the
/// samples per texel side it averages (so a small sun is not missed between texels).
const BASE: (usize, usize) = (128, 64);
const BASE_SUPERSAMPLE: usize = 4;

/// The environment as an equirectangular map and its mip chain (2×2 means) down to 4×2.
/// Each texel of the map is the mean of the pixels it covers of an image at least as large,
/// else the mean of a grid of samples.
fn environment_mips(environment: &Environment) -> Vec<Equirect> {
    let (w, h) = BASE;
    let k = BASE_SUPERSAMPLE;
    let data = match environment {
        Environment::Image(image) if image.width >= w && image.height >= h => {
            image.box_filtered(w, h)
        }
        _ => supersampled(environment, w, h, k),
    };
    let mut mips = vec![Equirect {
        width: w,
        height: h,
        data,
    }];
    while mips[mips.len() - 1].width > 4 {
        let prev = &mips[mips.len() - 1];
        let (w, h) = (prev.width / 2, prev.height / 2);
        let at = |x: usize, y: usize| prev.data[y * prev.width + x];
        let data = (0..w * h)
            .map(|i| {
                let (x, y) = (2 * (i % w), 2 * (i / w));
                (at(x, y) + at(x + 1, y) + at(x, y + 1) + at(x + 1, y + 1)) * 0.25
            })
            .collect();
        mips.push(Equirect {
            width: w,
            height: h,
            data,
        });
    }
    mips
}

/// The environment as a `w` × `h` equirectangular map, each texel the mean of a `k` × `k`
/// grid of samples.
fn supersampled(environment: &Environment, w: usize, h: usize, k: usize) -> Vec<Vec3> {
    (0..w * h)
        .into_par_iter()
        .map(|i| {
            let mut sum = Vec3::default();
            for sy in 0..k {
                for sx in 0..k {
                    let u = ((i % w) as f32 + (sx as f32 + 0.5) / k as f32) / w as f32;
                    let v = ((i / w) as f32 + (sy as f32 + 0.5) / k as f32) / h as f32;
                    sum = sum + environment.radiance(from_equirect(u, v));
                }
            }
            sum * (1.0 / (k * k) as f32)
        })
        .collect()
}

/// The mip chain sampled at level of detail `lod`, trilinear.
fn sample_mips(mips: &[Equirect], d: Vec3, lod: f32) -> Vec3 {
    let lod = lod.clamp(0.0, (mips.len() - 1) as f32);
    let i = lod.floor() as usize;
    let f = lod - i as f32;
    if i + 1 >= mips.len() || f == 0.0 {
        mips[i].sample(d)
    } else {
        lerp(mips[i].sample(d), mips[i + 1].sample(d), f)
    }
}

/// Roughness of each prefiltered level (level 0, roughness 0, is the environment itself).
const LEVELS: [(f32, usize, usize); 4] =
    [(0.25, 64, 32), (0.5, 32, 16), (0.75, 16, 8), (1.0, 8, 4)];
/// GGX samples per prefiltered texel.
const PREFILTER_SAMPLES: u32 = 128;
/// Side of the split-sum table, and its samples per cell.
const LUT_SIZE: usize = 32;
const LUT_SAMPLES: u32 = 256;

/// An environment made ready to shade with.
pub struct Lighting {
    environment: Environment,
    sh: [Vec3; 9],
    levels: Vec<Equirect>,
    lut: Vec<[f32; 2]>,
}

/// The 9 real spherical harmonics (bands 0–2) at unit `d`.
fn sh_basis(d: Vec3) -> [f32; 9] {
    [
        0.282_095,
        0.488_603 * d.y,
        0.488_603 * d.z,
        0.488_603 * d.x,
        1.092_548 * d.x * d.y,
        1.092_548 * d.y * d.z,
        0.315_392 * (3.0 * d.z * d.z - 1.0),
        1.092_548 * d.x * d.z,
        0.546_274 * (d.x * d.x - d.y * d.y),
    ]
}

impl Lighting {
    /// Projects `environment` onto spherical harmonics, prefilters its specular levels and
    /// computes the split-sum table.
    pub fn new(environment: Environment) -> Self {
        let mips = environment_mips(&environment);
        // Spherical harmonics over the base map's texels, each weighted by its solid angle.
        let mut sh = [Vec3::default(); 9];
        let base = &mips[0];
        let (rows, cols) = (base.height, base.width);
        let dp = TAU / cols as f32;
        for r in 0..rows {
            let (t0, t1) = (
                r as f32 * PI / rows as f32,
                (r + 1) as f32 * PI / rows as f32,
            );
            let w = (t0.cos() - t1.cos()) * dp;
            let v = (r as f32 + 0.5) / rows as f32;
            for c in 0..cols {
                let d = from_equirect((c as f32 + 0.5) / cols as f32, v);
                let l = base.data[r * cols + c] * w;
                for (k, y) in sh_basis(d).into_iter().enumerate() {
                    sh[k] = sh[k] + l * y;
                }
            }
        }
        let levels = LEVELS
            .iter()
            .map(|&(roughness, width, height)| {
                prefilter(&mips, roughness * roughness, width, height)
            })
            .collect();
        let lut = (0..LUT_SIZE * LUT_SIZE)
            .into_par_iter()
            .map(|i| {
                let n_dot_v = ((i % LUT_SIZE) as f32 + 0.5) / LUT_SIZE as f32;
                let roughness = ((i / LUT_SIZE) as f32 + 0.5) / LUT_SIZE as f32;
                integrate_brdf(n_dot_v, roughness * roughness)
            })
            .collect();
        Self {
            environment,
            sh,
            levels,
            lut,
        }
    }

    /// The environment this light was computed from.
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The environment's radiance from `d`.
    pub fn radiance(&self, d: Vec3) -> Vec3 {
        self.environment.radiance(d)
    }

    /// Irradiance at a surface facing `n`, divided by π: the light a white Lambert surface
    /// reflects (Ramamoorthi and Hanrahan's convolution of the 9 coefficients).
    pub fn diffuse(&self, n: Vec3) -> Vec3 {
        let y = sh_basis(n);
        let band = [
            1.0,
            2.0 / 3.0,
            2.0 / 3.0,
            2.0 / 3.0,
            0.25,
            0.25,
            0.25,
            0.25,
            0.25,
        ];
        let mut e = Vec3::default();
        for k in 0..9 {
            e = e + self.sh[k] * (band[k] * y[k]);
        }
        v3(e.x.max(0.0), e.y.max(0.0), e.z.max(0.0))
    }

    /// Specular light arriving along the reflection `r` for `roughness`: the environment
    /// itself at 0, the prefiltered levels above, linear between them.
    pub fn specular(&self, r: Vec3, roughness: f32) -> Vec3 {
        let p = roughness.clamp(0.0, 1.0) * LEVELS.len() as f32;
        let i = (p.floor() as usize).min(LEVELS.len() - 1);
        let f = p - i as f32;
        // Every prefiltered level has the same layout: the direction's place is found once.
        let uv = to_equirect(r);
        let at = |level: usize| {
            if level == 0 {
                self.environment.radiance(r)
            } else {
                self.levels[level - 1].sample_at(uv)
            }
        };
        if f == 0.0 {
            at(i)
        } else {
            lerp(at(i), at(i + 1), f)
        }
    }

    /// The split-sum table's scale and bias of f0 (A, B) for N·V and roughness, bilinear.
    pub fn brdf(&self, n_dot_v: f32, roughness: f32) -> (f32, f32) {
        let n = LUT_SIZE as f32;
        let x = (n_dot_v * n - 0.5).clamp(0.0, n - 1.0);
        let y = (roughness * n - 0.5).clamp(0.0, n - 1.0);
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(LUT_SIZE - 1), (y0 + 1).min(LUT_SIZE - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let at = |x: usize, y: usize| self.lut[y * LUT_SIZE + x];
        let mix =
            |a: [f32; 2], b: [f32; 2], t: f32| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        let v = mix(
            mix(at(x0, y0), at(x1, y0), fx),
            mix(at(x0, y1), at(x1, y1), fx),
            fy,
        );
        (v[0], v[1])
    }
}

/// The environment seen through a GGX lobe of `alpha` around each texel's direction
/// (N = V = R), weighted by N·L. Each sample reads the mip whose texels cover about the
/// solid angle the sample stands for (filtered importance sampling, GPU Gems 3 ch. 20), so
/// a small bright source is spread, not caught or missed by a few samples.
fn prefilter(mips: &[Equirect], alpha: f32, width: usize, height: usize) -> Equirect {
    let texel = 4.0 * PI / (mips[0].width * mips[0].height) as f32;
    let data = (0..width * height)
        .into_par_iter()
        .map(|i| {
            let n = from_equirect(
                ((i % width) as f32 + 0.5) / width as f32,
                ((i / width) as f32 + 0.5) / height as f32,
            );
            let (t, b) = basis(n);
            let mut sum = Vec3::default();
            let mut weight = 0.0;
            for s in 0..PREFILTER_SAMPLES {
                let local = ggx_half(hammersley(s, PREFILTER_SAMPLES), alpha);
                let h = t * local.x + b * local.y + n * local.z;
                let l = h * (2.0 * n.dot(h)) - n;
                let n_dot_l = n.dot(l);
                if n_dot_l > 0.0 {
                    // With N = V the sample's pdf over directions is D / 4.
                    let pdf = ggx(local.z, alpha) * 0.25;
                    let solid_angle = 1.0 / (PREFILTER_SAMPLES as f32 * pdf);
                    let lod = 0.5 * (solid_angle / texel).log2() + 1.0;
                    sum = sum + sample_mips(mips, l, lod) * n_dot_l;
                    weight += n_dot_l;
                }
            }
            if weight > 0.0 {
                sum * (1.0 / weight)
            } else {
                sample_mips(mips, n, 0.0)
            }
        })
        .collect();
    Equirect {
        width,
        height,
        data,
    }
}

/// The split-sum integral of the GGX BRDF over the hemisphere: (A, B) with
/// ∫ f·cos = f0·A + B (Karis 2013), by importance sampling.
fn integrate_brdf(n_dot_v: f32, alpha: f32) -> [f32; 2] {
    let v = v3((1.0 - n_dot_v * n_dot_v).max(0.0).sqrt(), 0.0, n_dot_v);
    let (mut a, mut b) = (0.0, 0.0);
    for s in 0..LUT_SAMPLES {
        let h = ggx_half(hammersley(s, LUT_SAMPLES), alpha);
        let l = h * (2.0 * v.dot(h)) - v;
        let (n_dot_l, n_dot_h, v_dot_h) = (l.z, h.z, v.dot(h).max(0.0));
        if n_dot_l > 0.0 && n_dot_h > 0.0 {
            let g = visibility(n_dot_l, n_dot_v, alpha) * 4.0 * n_dot_l * v_dot_h / n_dot_h;
            let fc = (1.0 - v_dot_h).powi(5);
            a += (1.0 - fc) * g;
            b += fc * g;
        }
    }
    [a / LUT_SAMPLES as f32, b / LUT_SAMPLES as f32]
}

#[cfg(test)]
mod tests {
    use super::check_size;

    #[test]
    fn an_environment_is_within_one_percent_of_twice_as_wide_as_high() {
        for (width, height) in [(2, 1), (4096, 2048), (4136, 2048), (4056, 2048)] {
            assert_eq!(check_size(width, height), Ok(()), "{width}x{height}");
        }
        // 3x1 and 1x1 are 50% off; 4137x2048 just past 1%.
        for (width, height) in [(3, 1), (1, 1), (4137, 2048), (4055, 2048), (2048, 2048)] {
            let refused = check_size(width, height).unwrap_err();
            assert!(
                refused.contains("twice as wide"),
                "{width}x{height}: {refused}"
            );
        }
    }
}
