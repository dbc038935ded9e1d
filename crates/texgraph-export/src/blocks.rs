//! What the game texture writers share: the size rule of block compression, and each
//! mip level's payload (BCn blocks compressed by the
//! `dds` crate's encoder, or 16-bit samples), which [`crate::dds`] and [`crate::ktx2`]
//! wrap in their own headers.

use std::io::Write;

use crate::short_of_memory;
use texgraph_engine::eval::Image;

use crate::block_format::BlockFormat;
use crate::mips::mip_chain;

/// Refuses block compression of a top level whose width or height is not a multiple of
/// 4; `container` (`DDS`, `KTX2`) opens the message.
pub(crate) fn check_size(
    image: &Image,
    format: BlockFormat,
    container: &str,
) -> Result<(), String> {
    let (w, h) = (image.width, image.height);
    if w == 0 || h == 0 {
        return Err(format!("{container} cannot hold an empty {w}x{h} image"));
    }
    if format.is_compressed() && (w % 4 != 0 || h % 4 != 0) {
        return Err(format!(
            "{container} block compression ({}) needs a width and height that are multiples of 4; {w}x{h} is not",
            format.name()
        ));
    }
    Ok(())
}

/// Every level of `image`'s mip chain as stored in `format`, level 0 first, after the
/// size check for `container`.
pub(crate) fn level_payloads(
    image: &Image,
    format: BlockFormat,
    container: &str,
) -> Result<Vec<Vec<u8>>, String> {
    check_size(image, format, container)?;
    let levels = mip_chain(image, format)?;
    let mut payloads = Vec::new();
    payloads
        .try_reserve_exact(levels.len())
        .map_err(|_| short_of_memory(image))?;
    for level in &levels {
        let bytes = match format {
            BlockFormat::R16 => r16_bytes(level)?,
            _ => compress(level, format)?,
        };
        payloads.push(bytes);
    }
    Ok(payloads)
}

/// The encoder settings. BC7 uses the `dds` crate's `Normal` quality (modes 1, 3 to 7,
/// one partition candidate, no refinement): on smooth maps its error is within a few
/// percent of `High`'s, at about a third of the time (a 2048² map with its mips in
/// seconds rather than half a minute on two cores). BC4 and BC5 are cheap at any
/// setting and use `High` (refined endpoints, tried block-size variations). No dithering
/// (the maps are smooth and many are data, not pictures); blocks are spread over
/// rayon's threads.
fn encode_options(format: BlockFormat) -> ::dds::EncodeOptions {
    let mut options = ::dds::EncodeOptions::default();
    options.quality = match format {
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => ::dds::CompressionQuality::Normal,
        BlockFormat::Bc5 | BlockFormat::Bc4 | BlockFormat::R16 => ::dds::CompressionQuality::High,
    };
    options.dithering = ::dds::Dithering::None;
    options.error_metric = ::dds::ErrorMetric::Uniform;
    options.parallel = true;
    options
}

/// One level (channels as [`BlockFormat::channels`], values in [0, 1]) compressed to
/// whole 4x4 blocks, rows of blocks top to bottom. The encoder pads a partial block by
/// repeating the level's last column and its first rows.
fn compress(level: &Image, format: BlockFormat) -> Result<Vec<u8>, String> {
    let (color, target) = match format {
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => {
            (::dds::ColorFormat::RGBA_F32, ::dds::Format::BC7_UNORM)
        }
        BlockFormat::Bc5 => (::dds::ColorFormat::RGBA_F32, ::dds::Format::BC5_UNORM),
        BlockFormat::Bc4 => (::dds::ColorFormat::GRAYSCALE_F32, ::dds::Format::BC4_UNORM),
        BlockFormat::R16 => unreachable!("R16 is not block-compressed"),
    };
    let samples = texgraph_base::memory::try_collect(
        level.data.len() * 4,
        level
            .data
            .iter()
            .flat_map(|v| v.clamp(0.0, 1.0).to_ne_bytes()),
    )
    .ok_or_else(|| short_of_memory(level))?;
    let size = ::dds::Size::new(level.width, level.height);
    let view = ::dds::ImageView::new(&samples, size, color).ok_or_else(|| {
        format!(
            "a {}x{} level has the wrong number of samples",
            level.width, level.height
        )
    })?;
    let len = format
        .level_bytes(level.width, level.height)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| short_of_memory(level))?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| short_of_memory(level))?;
    ::dds::encode(&mut bytes, view, target, None, &encode_options(format))
        .map_err(|e| e.to_string())?;
    if bytes.len() != len {
        return Err(format!(
            "the {} encoder wrote {} bytes for a {}x{} level, not {len}",
            format.name(),
            bytes.len(),
            level.width,
            level.height
        ));
    }
    Ok(bytes)
}

/// One gray level as little-endian 16-bit samples, clamped to [0, 1] and rounded.
fn r16_bytes(level: &Image) -> Result<Vec<u8>, String> {
    let sample = |v: &f32| ((v.clamp(0.0, 1.0) * 65535.0).round() as u16).to_le_bytes();
    texgraph_base::memory::try_collect(level.data.len() * 2, level.data.iter().flat_map(sample))
        .ok_or_else(|| short_of_memory(level))
}

/// Writes `bytes`, turning an I/O error into a message.
pub(crate) fn write_all(out: &mut impl Write, bytes: &[u8]) -> Result<(), String> {
    out.write_all(bytes).map_err(|e| e.to_string())
}
