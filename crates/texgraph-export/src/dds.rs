//! DDS files with a full mip chain: BC7 (sRGB or linear), BC5, BC4 or uncompressed
//! 16-bit, always with the DX10 header extension so the DXGI format is explicit.
//!
//! The levels come from [`crate::mips::mip_chain`]; the blocks are compressed and the
//! header written by the `dds` crate.

use std::io::Write;
use std::num::NonZeroU32;

use ::dds::header::{Dx10Header, DxgiFormat, Header};

use texgraph_engine::eval::Image;

pub use crate::block_format::BlockFormat;
use crate::blocks::{level_payloads, write_all};

impl BlockFormat {
    /// The DXGI format of a DDS file holding this format.
    pub(crate) fn dxgi_format(self) -> DxgiFormat {
        match self {
            BlockFormat::Bc7Srgb => DxgiFormat::BC7_UNORM_SRGB,
            BlockFormat::Bc7 => DxgiFormat::BC7_UNORM,
            BlockFormat::Bc5 => DxgiFormat::BC5_UNORM,
            BlockFormat::Bc4 => DxgiFormat::BC4_UNORM,
            BlockFormat::R16 => DxgiFormat::R16_UNORM,
        }
    }
}

/// Writes `image` as a DDS file in `format` with its full mip chain (level 0 first, each
/// level's blocks in rows top to bottom). Block-compressed formats need a width and
/// height that are multiples of 4; the message of the error says so.
pub fn encode_dds(image: &Image, format: BlockFormat, out: &mut impl Write) -> Result<(), String> {
    let levels = level_payloads(image, format, "DDS")?;
    let count = NonZeroU32::new(levels.len() as u32).ok_or("a mip chain has no levels")?;
    let header = Dx10Header::new_image(image.width, image.height, format.dxgi_format())
        .with_mipmap_count(count);
    Header::Dx10(header).write(out).map_err(|e| e.to_string())?;
    for level in &levels {
        write_all(out, level)?;
    }
    Ok(())
}
