//! A material's maps made ready to shade: linear values (base color and emissive decoded
//! from sRGB once), every map interleaved in one texel so that a single bilinear lookup
//! reads them all, and the height apart for the parallax search's many reads. An editor
//! prepares the maps once and draws every frame of an orbit from them.

use rayon::prelude::*;

use crate::maps::MaterialMaps;
use crate::terrain::Heightfield;
use crate::vector::floor;
use texgraph_engine::eval::Image;
use texgraph_kernels::color::srgb_to_linear;

/// Floats in one interleaved texel.
const TEXEL: usize = 16;
// Where each map sits in a texel.
const BASE: usize = 0; // RGBA
const NORMAL: usize = 4; // XYZ, as stored (0.5 + 0.5·n)
const ROUGHNESS: usize = 7;
const METALLIC: usize = 8;
const OCCLUSION: usize = 9;
const OPACITY: usize = 10;
const EMISSIVE: usize = 11; // RGB

/// What the maps say at one point of the surface, linear.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Surface {
    /// Base color RGB and its alpha.
    pub base: [f32; 4],
    /// The normal map's value (0.5 + 0.5·n, OpenGL).
    pub normal: [f32; 3],
    pub roughness: f32,
    pub metallic: f32,
    pub occlusion: f32,
    pub opacity: f32,
    pub emissive: [f32; 3],
}

/// A material's maps, ready to shade (see the module's documentation).
pub struct Material {
    width: usize,
    height: usize,
    texels: Vec<[f32; TEXEL]>,
    /// The height map, for parallax and as the terrain's ground.
    ground: Heightfield,
}

/// Bilinear lookup coordinates at (`u`, `v`) in a `w`×`h` map that repeats: the two
/// columns and rows and the weights of the second. Texel centres at (i + 0.5) / w, v = 0
/// the top row. The coordinate is wrapped before scaling, so no division is needed.
fn corners(u: f32, v: f32, w: usize, h: usize) -> ([usize; 2], [usize; 2], [f32; 2]) {
    let axis = |t: f32, n: usize| {
        let x = (t - floor(t)) * n as f32 - 0.5;
        let x0 = floor(x);
        let i = x0 as i64;
        let a = if i < 0 {
            n - 1
        } else {
            (i as usize).min(n - 1)
        };
        let b = if a + 1 >= n { 0 } else { a + 1 };
        ([a, b], x - x0)
    };
    let (xs, fx) = axis(u, w);
    let (ys, fy) = axis(v, h);
    (xs, ys, [fx, fy])
}

/// `image`'s value at texel (`x`, `y`) of a `w`×`h` grid as RGBA: the value itself when
/// the sizes agree, a constant for a 1×1 image, otherwise a bilinear read at the texel's
/// centre. One-channel images repeat their value in RGB with alpha 1.
fn value_at(image: &Image, x: usize, y: usize, w: usize, h: usize) -> [f32; 4] {
    let (iw, ih) = (image.width as usize, image.height as usize);
    let c = image.channels.max(1);
    if image.data.len() < iw * ih * c || iw == 0 || ih == 0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let pixel = |px: usize, py: usize| -> [f32; 4] {
        let p = &image.data[(py * iw + px) * c..][..c];
        match c {
            1 => [p[0], p[0], p[0], 1.0],
            2 => [p[0], p[1], 0.0, 1.0],
            3 => [p[0], p[1], p[2], 1.0],
            _ => [p[0], p[1], p[2], p[3]],
        }
    };
    if iw == 1 && ih == 1 {
        return pixel(0, 0);
    }
    if iw == w && ih == h {
        return pixel(x, y);
    }
    let ([xa, xb], [ya, yb], [fx, fy]) = corners(
        (x as f32 + 0.5) / w as f32,
        (y as f32 + 0.5) / h as f32,
        iw,
        ih,
    );
    let lerp = |a: [f32; 4], b: [f32; 4], t: f32| std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
    lerp(
        lerp(pixel(xa, ya), pixel(xb, ya), fx),
        lerp(pixel(xa, yb), pixel(xb, yb), fx),
        fy,
    )
}

/// The largest of the maps' sizes (by pixel count; the first of equals).
fn grid(images: &[&Image]) -> (usize, usize) {
    images
        .iter()
        .map(|i| (i.width as usize, i.height as usize))
        .filter(|(w, h)| *w > 0 && *h > 0)
        .fold((1, 1), |best, size| {
            if size.0 * size.1 > best.0 * best.1 {
                size
            } else {
                best
            }
        })
}

impl Material {
    /// Decodes and interleaves `maps` on the grid of the largest map (maps of the same
    /// size, as one program renders them, are copied texel for texel).
    pub fn new(maps: &MaterialMaps) -> Self {
        let interleaved = [
            &maps.base_color,
            &maps.normal,
            &maps.roughness,
            &maps.metallic,
            &maps.occlusion,
            &maps.opacity,
            &maps.emissive,
        ];
        let (width, height) = grid(&interleaved);
        let texels = (0..width * height)
            .into_par_iter()
            .map(|i| {
                let (x, y) = (i % width, i / width);
                let at = |image: &Image| value_at(image, x, y, width, height);
                let base = at(&maps.base_color);
                let normal = at(&maps.normal);
                let emissive = at(&maps.emissive);
                let mut t = [0.0f32; TEXEL];
                for c in 0..3 {
                    t[BASE + c] = srgb_to_linear(base[c]);
                    t[NORMAL + c] = normal[c];
                    t[EMISSIVE + c] = srgb_to_linear(emissive[c]);
                }
                t[BASE + 3] = base[3];
                t[ROUGHNESS] = at(&maps.roughness)[0];
                t[METALLIC] = at(&maps.metallic)[0];
                t[OCCLUSION] = at(&maps.occlusion)[0];
                t[OPACITY] = at(&maps.opacity)[0];
                t
            })
            .collect();
        let (hw, hh) = grid(&[&maps.height]);
        let heights = (0..hw * hh)
            .map(|i| value_at(&maps.height, i % hw, i / hw, hw, hh)[0])
            .collect();
        Self {
            width,
            height,
            texels,
            ground: Heightfield::new(hw, hh, heights),
        }
    }

    /// The height map as the terrain shape's ground.
    pub fn ground(&self) -> &Heightfield {
        &self.ground
    }

    /// Every map at (`u`, `v`), bilinear, repeating.
    pub(crate) fn sample(&self, u: f32, v: f32) -> Surface {
        let t = if self.texels.len() == 1 {
            self.texels[0]
        } else {
            let ([xa, xb], [ya, yb], [fx, fy]) = corners(u, v, self.width, self.height);
            let at = |x: usize, y: usize| &self.texels[y * self.width + x];
            let (a, b, c, d) = (at(xa, ya), at(xb, ya), at(xa, yb), at(xb, yb));
            std::array::from_fn(|i| {
                let top = a[i] + (b[i] - a[i]) * fx;
                let bottom = c[i] + (d[i] - c[i]) * fx;
                top + (bottom - top) * fy
            })
        };
        Surface {
            base: [t[BASE], t[BASE + 1], t[BASE + 2], t[BASE + 3]],
            normal: [t[NORMAL], t[NORMAL + 1], t[NORMAL + 2]],
            roughness: t[ROUGHNESS],
            metallic: t[METALLIC],
            occlusion: t[OCCLUSION],
            opacity: t[OPACITY],
            emissive: [t[EMISSIVE], t[EMISSIVE + 1], t[EMISSIVE + 2]],
        }
    }

    /// The height map at (`u`, `v`), bilinear, repeating.
    pub(crate) fn height(&self, u: f32, v: f32) -> f32 {
        let (heights, w, h) = self.ground.samples();
        let ([xa, xb], [ya, yb], [fx, fy]) = corners(u, v, w, h);
        let at = |x: usize, y: usize| heights[y * w + x];
        let top = at(xa, ya) + (at(xb, ya) - at(xa, ya)) * fx;
        let bottom = at(xa, yb) + (at(xb, yb) - at(xa, yb)) * fx;
        top + (bottom - top) * fy
    }
}
