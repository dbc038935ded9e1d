//! KTX2 files with a full mip chain: BC7 (sRGB or linear), BC5, BC4 or uncompressed
//! 16-bit, no supercompression.
//!
//! The layout follows the KTX 2.0 specification: the 80-byte header, the level index
//! (level 0 first), the data format descriptor (one Basic block, made by the `ktx2`
//! crate from the Vulkan format, so BC7 sRGB carries the sRGB transfer function), a
//! `KTXwriter` key, then the levels smallest first, each starting at a multiple of
//! lcm(texel block size, 4) bytes with zero padding before it. The level payloads are the
//! same as a DDS file's (see [`crate::dds`]).

use std::io::Write;

use ::ktx2::dfd::{Basic, Block};
use ::ktx2::{Format, Header, Index, LevelIndex};

use texgraph_engine::eval::Image;

pub use crate::block_format::BlockFormat;
use crate::blocks::{level_payloads, write_all};
use crate::short_of_memory;

impl BlockFormat {
    /// The Vulkan format of a KTX2 file holding this format.
    pub(crate) fn vk_format(self) -> Format {
        match self {
            BlockFormat::Bc7Srgb => Format::BC7_SRGB_BLOCK,
            BlockFormat::Bc7 => Format::BC7_UNORM_BLOCK,
            BlockFormat::Bc5 => Format::BC5_UNORM_BLOCK,
            BlockFormat::Bc4 => Format::BC4_UNORM_BLOCK,
            BlockFormat::R16 => Format::R16_UNORM,
        }
    }
}

/// The program named in the `KTXwriter` key.
const WRITER: &str = concat!("texgraph ", env!("CARGO_PKG_VERSION"));

/// Writes `image` as a KTX2 file in `format` with its full mip chain. Block-compressed
/// formats need a width and height that are multiples of 4; the message of the error
/// says so.
pub fn encode_ktx2(image: &Image, format: BlockFormat, out: &mut impl Write) -> Result<(), String> {
    let levels = level_payloads(image, format, "KTX2")?;
    let (basic, type_size) = Basic::from_format(format.vk_format()).map_err(|e| e.to_string())?;
    let dfd_block = Block::Basic(basic).to_vec();
    let kvd = key_value(&[("KTXwriter", WRITER)]);
    let count = levels.len();

    let dfd_offset = Header::LENGTH + count * LevelIndex::LENGTH;
    let dfd_length = 4 + dfd_block.len();
    let kvd_offset = dfd_offset + dfd_length;
    let align = lcm(format.unit_bytes() as u64, 4);

    // Levels go smallest first; each starts on the alignment.
    let mut index = vec![
        LevelIndex {
            byte_offset: 0,
            byte_length: 0,
            uncompressed_byte_length: 0,
        };
        count
    ];
    let mut end = (kvd_offset + kvd.len()) as u64;
    for (entry, level) in index.iter_mut().zip(&levels).rev() {
        let length = level.len() as u64;
        let offset = end.next_multiple_of(align);
        *entry = LevelIndex {
            byte_offset: offset,
            byte_length: length,
            uncompressed_byte_length: length,
        };
        end = offset + length;
    }

    let header = Header {
        format: Some(format.vk_format()),
        type_size,
        pixel_width: image.width,
        pixel_height: image.height,
        pixel_depth: 0,
        layer_count: 0,
        face_count: 1,
        level_count: count as u32,
        supercompression_scheme: None,
        index: Index {
            dfd_byte_offset: dfd_offset as u32,
            dfd_byte_length: dfd_length as u32,
            kvd_byte_offset: kvd_offset as u32,
            kvd_byte_length: kvd.len() as u32,
            sgd_byte_offset: 0,
            sgd_byte_length: 0,
        },
    };
    let mut start = Vec::new();
    start
        .try_reserve_exact(kvd_offset + kvd.len())
        .map_err(|_| short_of_memory(image))?;
    start.extend_from_slice(&header.as_bytes());
    index
        .iter()
        .for_each(|entry| start.extend_from_slice(&entry.as_bytes()));
    start.extend_from_slice(&(dfd_length as u32).to_le_bytes());
    start.extend_from_slice(&dfd_block);
    start.extend_from_slice(&kvd);
    write_all(out, &start)?;

    let mut written = start.len() as u64;
    for (entry, level) in index.iter().zip(&levels).rev() {
        let padding = (entry.byte_offset - written) as usize;
        write_all(out, &[0; 16][..padding])?;
        write_all(out, level)?;
        written = entry.byte_offset + entry.byte_length;
    }
    Ok(())
}

/// Key/value data: each pair as its byte length, the key and the value NUL-terminated,
/// padded to 4 bytes.
fn key_value(pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut data = Vec::new();
    for (key, value) in pairs {
        let length = key.len() + 1 + value.len() + 1;
        data.extend_from_slice(&(length as u32).to_le_bytes());
        data.extend_from_slice(key.as_bytes());
        data.push(0);
        data.extend_from_slice(value.as_bytes());
        data.push(0);
        data.resize(data.len().next_multiple_of(4), 0);
    }
    data
}

/// Least common multiple.
fn lcm(a: u64, b: u64) -> u64 {
    let gcd = |mut x: u64, mut y: u64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b) * b
}
