//! Writing rendered images: PNG (8 or 16 bits), OpenEXR (32-bit float) and TIFF (8, 16 or
//! 32-bit float). Values are written as rendered (colors sRGB-encoded, as authored),
//! clamped to [0, 1] and rounded for the integer formats. Files are written to a
//! temporary file beside the target and renamed into place, so a failed write never
//! leaves a half-written or clobbered file.

use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::Path;

use image::{ExtendedColorType, ImageEncoder};

use crate::error::{Error, Result};
use crate::eval::Image;

/// File formats, chosen by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.png`: 8 or 16 bits per channel.
    Png,
    /// `.exr`: 32-bit float.
    Exr,
    /// `.tif` / `.tiff`: 8, 16 or 32-bit float.
    Tiff,
}

/// Bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// 8-bit integer.
    Eight,
    /// 16-bit integer.
    Sixteen,
    /// 32-bit float.
    Float,
}

impl Depth {
    /// The depth written `8`, `16` or `32`.
    pub fn from_bits(bits: u32) -> Option<Self> {
        match bits {
            8 => Some(Depth::Eight),
            16 => Some(Depth::Sixteen),
            32 => Some(Depth::Float),
            _ => None,
        }
    }

    /// 8, 16 or 32.
    pub fn bits(self) -> u32 {
        match self {
            Depth::Eight => 8,
            Depth::Sixteen => 16,
            Depth::Float => 32,
        }
    }
}

impl Format {
    /// The format for `path`'s extension.
    pub fn from_path(path: &Path) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(Format::Png),
            Some("exr") => Ok(Format::Exr),
            Some("tif" | "tiff") => Ok(Format::Tiff),
            _ => Err(Error::Export {
                path: path.to_owned(),
                message: "unknown image extension; use .png, .exr, .tif or .tiff".to_owned(),
            }),
        }
    }

    /// The depth written when none is asked for.
    pub fn default_depth(self) -> Depth {
        match self {
            Format::Png | Format::Tiff => Depth::Eight,
            Format::Exr => Depth::Float,
        }
    }

    /// Whether the format can store `depth`.
    pub fn supports(self, depth: Depth) -> bool {
        match self {
            Format::Png => depth != Depth::Float,
            Format::Exr => depth == Depth::Float,
            Format::Tiff => true,
        }
    }
}

/// Writes `image` to `path` in the format of its extension at `depth`.
pub fn write_image(image: &Image, path: &Path, depth: Depth) -> Result<()> {
    let format = Format::from_path(path)?;
    if !format.supports(depth) {
        return Err(Error::Export {
            path: path.to_owned(),
            message: format!("{format:?} files cannot hold {}-bit samples", depth.bits()),
        });
    }
    write_atomically(path, |file| {
        let mut out = BufWriter::new(file);
        encode(image, format, depth, &mut out)
            .and_then(|()| out.flush().map_err(|e| e.to_string()))
            .map_err(|message| Error::Export {
                path: path.to_owned(),
                message,
            })
    })
}

/// The bytes of `image` encoded as `format` at `depth`.
pub fn encode_to_vec(image: &Image, format: Format, depth: Depth) -> Result<Vec<u8>, String> {
    let mut cursor = std::io::Cursor::new(Vec::new());
    encode(image, format, depth, &mut cursor)?;
    Ok(cursor.into_inner())
}

fn encode(
    image: &Image,
    format: Format,
    depth: Depth,
    out: &mut (impl Write + Seek),
) -> Result<(), String> {
    let (w, h) = (image.width, image.height);
    let gray = image.channels == 1;
    match (format, depth) {
        (Format::Exr, _) => return write_exr(image, out),
        (Format::Png, Depth::Eight) => {
            let color = if gray {
                ExtendedColorType::L8
            } else {
                ExtendedColorType::Rgba8
            };
            image::codecs::png::PngEncoder::new(out).write_image(&to_u8(image), w, h, color)
        }
        (Format::Png, _) => {
            let color = if gray {
                ExtendedColorType::L16
            } else {
                ExtendedColorType::Rgba16
            };
            let bytes: Vec<u8> = to_u16(image).iter().flat_map(|v| v.to_ne_bytes()).collect();
            image::codecs::png::PngEncoder::new(out).write_image(&bytes, w, h, color)
        }
        (Format::Tiff, Depth::Eight) => {
            let color = if gray {
                ExtendedColorType::L8
            } else {
                ExtendedColorType::Rgba8
            };
            image::codecs::tiff::TiffEncoder::new(out).write_image(&to_u8(image), w, h, color)
        }
        (Format::Tiff, Depth::Sixteen) => {
            let color = if gray {
                ExtendedColorType::L16
            } else {
                ExtendedColorType::Rgba16
            };
            let bytes: Vec<u8> = to_u16(image).iter().flat_map(|v| v.to_ne_bytes()).collect();
            image::codecs::tiff::TiffEncoder::new(out).write_image(&bytes, w, h, color)
        }
        (Format::Tiff, Depth::Float) => {
            // TIFF float has no one-channel writer here: gray is stored as RGBA.
            let rgba = if gray {
                image.data.iter().flat_map(|&v| [v, v, v, 1.0]).collect()
            } else {
                image.data.clone()
            };
            let bytes: Vec<u8> = rgba.iter().flat_map(|v: &f32| v.to_ne_bytes()).collect();
            image::codecs::tiff::TiffEncoder::new(out).write_image(
                &bytes,
                w,
                h,
                ExtendedColorType::Rgba32F,
            )
        }
    }
    .map_err(|e| e.to_string())
}

fn to_u8(image: &Image) -> Vec<u8> {
    image
        .data
        .iter()
        .map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

fn to_u16(image: &Image) -> Vec<u16> {
    image
        .data
        .iter()
        .map(|v| (v.clamp(0.0, 1.0) * 65535.0).round() as u16)
        .collect()
}

fn write_exr(image: &Image, out: &mut (impl Write + Seek)) -> Result<(), String> {
    use exr::prelude::*;
    let (w, h, c) = (image.width as usize, image.height as usize, image.channels);
    let names: &[&str] = if c == 1 {
        &["Y"]
    } else {
        &["R", "G", "B", "A"]
    };
    let channels: SmallVec<[AnyChannel<FlatSamples>; 4]> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let samples = image.data.iter().skip(i).step_by(c).copied().collect();
            AnyChannel::new(*name, FlatSamples::F32(samples))
        })
        .collect();
    let layer = Layer::new(
        (w, h),
        LayerAttributes::default(),
        Encoding::SMALL_LOSSLESS,
        AnyChannels::sort(channels),
    );
    exr::prelude::Image::from_layer(layer)
        .write()
        .to_buffered(out)
        .map_err(|e| e.to_string())
}

/// Reads an EXR written by [`write_image`] (channels `Y` or `R`, `G`, `B`, `A`).
pub fn read_exr(path: &Path) -> Result<Image> {
    use exr::prelude::read_all_flat_layers_from_file;
    let fail = |message: String| Error::Export {
        path: path.to_owned(),
        message,
    };
    let file = read_all_flat_layers_from_file(path).map_err(|e| fail(e.to_string()))?;
    let layer = file
        .layer_data
        .first()
        .ok_or_else(|| fail("no layers".to_owned()))?;
    let (w, h) = (layer.size.width(), layer.size.height());
    let channel = |name: &str| {
        layer
            .channel_data
            .list
            .iter()
            .find(|c| c.name.eq(name))
            .map(|c| c.sample_data.values_as_f32().collect::<Vec<f32>>())
    };
    let planes: Vec<Vec<f32>> = match channel("Y") {
        Some(y) => vec![y],
        None => ["R", "G", "B", "A"]
            .iter()
            .map(|n| channel(n).ok_or_else(|| fail(format!("missing channel {n}"))))
            .collect::<Result<_>>()?,
    };
    let c = planes.len();
    let data = (0..w * h)
        .flat_map(|i| planes.iter().map(move |p| p[i]))
        .collect();
    Ok(Image {
        width: w as u32,
        height: h as u32,
        channels: c,
        data,
    })
}

/// Writes `path` through `write` on a temporary file in the same directory, then renames
/// it over `path`. On any failure the temporary file is removed and `path` is untouched.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    let io = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Temporary files are private; the result should look like any other file written here.
    let permissions = match std::fs::metadata(path) {
        Ok(existing) => Some(existing.permissions()),
        Err(_) => default_permissions(),
    };
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let mut temp = builder.tempfile_in(dir).map_err(io)?;
    write(temp.as_file_mut())?;
    temp.as_file().sync_all().map_err(io)?;
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}
