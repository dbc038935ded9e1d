//! The [`BlockFormat`] a map is stored in inside a DDS or KTX2 file.

use texgraph_engine::usage::Encoding;

/// How one map is stored in a DDS or KTX2 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockFormat {
    /// RGBA whose RGB values are sRGB-encoded (base color, emissive); BC7 with the sRGB
    /// transfer function (`BC7_UNORM_SRGB`, `VK_FORMAT_BC7_SRGB_BLOCK`).
    Bc7Srgb,
    /// RGBA linear data (packed maps such as occlusion-roughness-metallic); BC7
    /// (`BC7_UNORM`, `VK_FORMAT_BC7_UNORM_BLOCK`).
    Bc7,
    /// A normal map given as RGBA with the normal n encoded as 0.5 + 0.5n; only R and G
    /// are stored (`BC5_UNORM`, `VK_FORMAT_BC5_UNORM_BLOCK`).
    Bc5,
    /// One channel: a gray image, or the R of an RGBA one (`BC4_UNORM`,
    /// `VK_FORMAT_BC4_UNORM_BLOCK`).
    Bc4,
    /// One channel, uncompressed 16-bit (height maps): a gray image, or the R of an RGBA
    /// one (`R16_UNORM`, `VK_FORMAT_R16_UNORM`). Any size.
    R16,
}

impl BlockFormat {
    /// How a map is stored, as presets and single-output renders both choose: one
    /// channel as BC4, or uncompressed 16-bit (R16) when 16 bits are asked for; a normal
    /// map as BC5; sRGB-encoded colors as BC7 sRGB; other colors (packed data, plain
    /// images) as BC7.
    pub fn for_map(channels: usize, bits: u32, normal: bool, encoding: Encoding) -> Self {
        match channels {
            1 if bits >= 16 => BlockFormat::R16,
            1 => BlockFormat::Bc4,
            _ if normal => BlockFormat::Bc5,
            _ if encoding == Encoding::Srgb => BlockFormat::Bc7Srgb,
            _ => BlockFormat::Bc7,
        }
    }

    /// The name used in messages: `BC7`, `BC5`, `BC4` or `R16`.
    pub fn name(self) -> &'static str {
        match self {
            BlockFormat::Bc7Srgb | BlockFormat::Bc7 => "BC7",
            BlockFormat::Bc5 => "BC5",
            BlockFormat::Bc4 => "BC4",
            BlockFormat::R16 => "R16",
        }
    }

    /// Channels of the images [`mip_chain`](crate::mips::mip_chain) makes for this format: 4 for BC7 and BC5,
    /// 1 for BC4 and R16.
    pub fn channels(self) -> usize {
        match self {
            BlockFormat::Bc7Srgb | BlockFormat::Bc7 | BlockFormat::Bc5 => 4,
            BlockFormat::Bc4 | BlockFormat::R16 => 1,
        }
    }

    /// Whether the format is block-compressed (4x4 blocks).
    pub fn is_compressed(self) -> bool {
        self != BlockFormat::R16
    }

    /// Bytes of one 4x4 block, or of one pixel for [`BlockFormat::R16`].
    pub(crate) fn unit_bytes(self) -> usize {
        match self {
            BlockFormat::Bc7Srgb | BlockFormat::Bc7 | BlockFormat::Bc5 => 16,
            BlockFormat::Bc4 => 8,
            BlockFormat::R16 => 2,
        }
    }

    /// Bytes of a `width` x `height` level: whole 4x4 blocks for the compressed
    /// formats (a 2x2 or 1x1 level takes one block), 2 a pixel for R16.
    pub fn level_bytes(self, width: u32, height: u32) -> Option<u64> {
        let (w, h) = (u64::from(width), u64::from(height));
        let units = if self.is_compressed() {
            w.div_ceil(4).checked_mul(h.div_ceil(4))?
        } else {
            w.checked_mul(h)?
        };
        units.checked_mul(self.unit_bytes() as u64)
    }
}
