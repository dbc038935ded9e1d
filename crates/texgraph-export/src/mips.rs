//! Mip chains for the game texture writers.
//!
//! A chain runs from the image down to 1x1: floor(log2(max(width, height))) + 1 levels,
//! each max(1, previous / 2) on each axis. Levels are filtered on floats in linear
//! space, each from the one above:
//!
//! - [`BlockFormat::Bc7Srgb`]: RGB is decoded from sRGB to linear (the exact sRGB
//!   transfer function), filtered and encoded back; alpha is linear.
//! - [`BlockFormat::Bc5`] (normals): n = 2v − 1 is averaged and renormalised to unit
//!   length (an average of length 0 becomes (0, 0, 1)), then encoded as 0.5 + 0.5n;
//!   alpha is averaged.
//! - Others: plain averages.
//!
//! The filter is an area-weighted box, separable. An axis of even length halves with a
//! 2-tap box (so a 2x2 box when both axes are even). An axis of odd length n > 1 goes to
//! n / 2 (rounded down) pixels, each the area average of the n / (n / 2) source pixels it
//! covers: 3 → 1 averages the 3, 5 → 2 weighs (1, 1, ½) and (½, 1, 1). An axis of length
//! 1 stays 1. The filter never reaches beyond the image, so tileable textures need no
//! wrapping and no edge is clamped; every level keeps the mean of the one above.
//!
//! Level 0 is the image with its values clamped to [0, 1], as the formats store them
//! (NaN becomes 0).

use rayon::prelude::*;

use texgraph_engine::eval::Image;
use texgraph_kernels::color::{linear_to_srgb, srgb_to_linear};

pub use crate::block_format::BlockFormat;
use crate::short_of_memory;

/// Number of levels of a full mip chain of a `width` x `height` image, down to 1x1:
/// floor(log2(max(width, height))) + 1.
pub fn level_count(width: u32, height: u32) -> u32 {
    u32::BITS - width.max(height).max(1).leading_zeros()
}

/// The full mip chain of `image` for `format`: level 0 is the image itself (values
/// clamped to [0, 1]), then each level halves down to 1x1 (see the module docs for the
/// filter). Images have [`BlockFormat::channels`] channels: a gray image given for BC7
/// or BC5 is repeated into RGB with an opaque alpha, and BC4 and R16 keep the R of an
/// RGBA image. For BC5, B holds the z of the renormalised normal.
pub fn mip_chain(image: &Image, format: BlockFormat) -> Result<Vec<Image>, String> {
    let (w, h) = (image.width, image.height);
    if !matches!(image.channels, 1 | 4) {
        return Err(format!(
            "an image has 1 or 4 channels, not {}",
            image.channels
        ));
    }
    let pixels = w as usize * h as usize;
    if w == 0 || h == 0 || image.data.len() != pixels * image.channels {
        return Err(format!(
            "a {w}x{h} image with {} channel(s) cannot have {} samples",
            image.channels,
            image.data.len()
        ));
    }
    let count = level_count(w, h) as usize;
    let mut levels = Vec::new();
    levels
        .try_reserve_exact(count)
        .map_err(|_| short_of_memory(image))?;
    let space = Space::of(format);
    let top = stored(image, format)?;
    let mut work = space.decode(&top)?;
    levels.push(top);
    while levels.len() < count {
        work = half(&work)?;
        space.finish(&mut work);
        levels.push(space.encode(&work)?);
    }
    Ok(levels)
}

/// The image in the layout `format` stores, values clamped to [0, 1].
fn stored(image: &Image, format: BlockFormat) -> Result<Image, String> {
    let channels = format.channels();
    let pixels = image.data.len() / image.channels;
    // NaN (which clamp keeps) is stored as 0.
    let clamp = |v: &f32| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let data = match (image.channels, channels) {
        (1, 1) | (4, 4) => {
            texgraph_base::memory::try_collect(image.data.len(), image.data.iter().map(clamp))
        }
        (4, 1) => {
            texgraph_base::memory::try_collect(pixels, image.data.iter().step_by(4).map(clamp))
        }
        _ => texgraph_base::memory::try_collect(
            pixels * 4,
            image.data.iter().map(clamp).flat_map(|v| [v, v, v, 1.0]),
        ),
    }
    .ok_or_else(|| short_of_memory(image))?;
    Ok(Image {
        width: image.width,
        height: image.height,
        channels,
        data,
    })
}

/// The space a format's levels are filtered in.
#[derive(Clone, Copy)]
enum Space {
    /// As stored.
    Plain,
    /// RGB decoded from sRGB; alpha as stored.
    Srgb,
    /// xyz = 2v − 1, renormalised after filtering; alpha as stored.
    Normal,
}

impl Space {
    fn of(format: BlockFormat) -> Self {
        match format {
            BlockFormat::Bc7Srgb => Space::Srgb,
            BlockFormat::Bc5 => Space::Normal,
            BlockFormat::Bc7 | BlockFormat::Bc4 | BlockFormat::R16 => Space::Plain,
        }
    }

    /// `level` (as stored) in this space.
    fn decode(self, level: &Image) -> Result<Image, String> {
        self.map(level, srgb_to_linear, |v| 2.0 * v - 1.0)
    }

    /// `level` (in this space) as stored, clamped to [0, 1].
    fn encode(self, level: &Image) -> Result<Image, String> {
        let mut stored = self.map(level, linear_to_srgb, |n| 0.5 + 0.5 * n)?;
        stored.data.iter_mut().for_each(|v| *v = v.clamp(0.0, 1.0));
        Ok(stored)
    }

    /// `level` with RGB through `srgb` (sRGB space) or `normal` (normal space).
    fn map(
        self,
        level: &Image,
        srgb: fn(f32) -> f32,
        normal: fn(f32) -> f32,
    ) -> Result<Image, String> {
        let rgb = match self {
            Space::Plain => None,
            Space::Srgb => Some(srgb),
            Space::Normal => Some(normal),
        };
        let c = level.channels;
        let data = texgraph_base::memory::try_collect(
            level.data.len(),
            level.data.iter().enumerate().map(|(i, &v)| match rgb {
                Some(f) if c == 4 && i % 4 < 3 => f(v),
                _ => v,
            }),
        )
        .ok_or_else(|| short_of_memory(level))?;
        Ok(Image { data, ..*level })
    }

    /// What follows filtering: normals are renormalised.
    fn finish(self, level: &mut Image) {
        if let Space::Normal = self {
            level.data.par_chunks_mut(4).for_each(|p| {
                let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                if len > 0.0 {
                    p[..3].iter_mut().for_each(|v| *v /= len);
                } else {
                    p[..3].copy_from_slice(&[0.0, 0.0, 1.0]);
                }
            });
        }
    }
}

/// The taps of one axis going from `n` pixels to `m`: for each output pixel, the source
/// pixels it covers and the share of each (area weights summing to 1).
fn taps(n: u32, m: u32) -> Vec<Vec<(usize, f32)>> {
    // In units of 1/m of a source pixel, output i covers [i n, (i + 1) n) and source j
    // covers [j m, (j + 1) m).
    let (n, m) = (u64::from(n), u64::from(m));
    (0..m)
        .map(|i| {
            let (start, end) = (i * n, (i + 1) * n);
            (start / m..end.div_ceil(m))
                .map(|j| {
                    let overlap = end.min((j + 1) * m) - start.max(j * m);
                    (j as usize, overlap as f32 / n as f32)
                })
                .filter(|&(_, w)| w > 0.0)
                .collect()
        })
        .collect()
}

/// The next level of `level`: max(1, size / 2) on each axis, area-averaged.
fn half(level: &Image) -> Result<Image, String> {
    let (w, h, c) = (level.width, level.height, level.channels);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (across, down) = (taps(w, nw), taps(h, nh));
    let (w, nw) = (w as usize, nw as usize);
    let too_big = || short_of_memory(level);
    // Across: h rows of nw pixels.
    let mut rows =
        texgraph_base::memory::try_collect(nw * h as usize * c, std::iter::repeat(0.0f32))
            .ok_or_else(too_big)?;
    rows.par_chunks_mut(nw * c)
        .zip(level.data.par_chunks(w * c))
        .for_each(|(out, row)| {
            for (x, taps) in across.iter().enumerate() {
                for &(j, weight) in taps {
                    for k in 0..c {
                        out[x * c + k] += weight * row[j * c + k];
                    }
                }
            }
        });
    // Down: nh rows from the rows above.
    let mut data =
        texgraph_base::memory::try_collect(nw * nh as usize * c, std::iter::repeat(0.0f32))
            .ok_or_else(too_big)?;
    data.par_chunks_mut(nw * c)
        .zip(down.par_iter())
        .for_each(|(out, taps)| {
            for &(j, weight) in taps {
                let row = &rows[j * nw * c..(j + 1) * nw * c];
                out.iter_mut().zip(row).for_each(|(o, v)| *o += weight * v);
            }
        });
    Ok(Image {
        width: nw as u32,
        height: nh,
        channels: c,
        data,
    })
}
