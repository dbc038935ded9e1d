//! The file formats texgraph writes, one table for every front end: a render's `-o`
//! extension, a preset's `format`, the editor's export dialog and the Python module all
//! name formats through this table. Adding a format: a variant, a line in the table, and
//! its writer in `stream.rs`.

use std::path::Path;

use texgraph_base::error::{Error, Result};

/// A file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `.png`: 8 or 16 bits per channel.
    Png,
    /// `.exr`: 32-bit float.
    Exr,
    /// `.tif` / `.tiff`: 8, 16 or 32-bit float.
    Tiff,
    /// `.dds`: a game texture, block-compressed (BC7, BC5, BC4) or 16-bit, with its full
    /// mip chain; the block format follows the map's usage.
    Dds,
    /// `.ktx2`: the same texture in Khronos' container.
    Ktx2,
    /// `.r16` / `.raw`: a heightmap as Unity's and Unreal's landscapes import it: one
    /// channel, 16-bit unsigned little-endian, rows top to bottom, no header.
    Raw,
}

/// What the table says of each format.
struct Entry {
    format: Format,
    /// The extensions that name it, the usual one first.
    extensions: &'static [&'static str],
    /// Its name in messages.
    name: &'static str,
    /// The depths it holds, the one written when none is asked for first.
    depths: &'static [Depth],
}

const TABLE: [Entry; 6] = [
    Entry {
        format: Format::Png,
        extensions: &["png"],
        name: "PNG",
        depths: &[Depth::Eight, Depth::Sixteen],
    },
    Entry {
        format: Format::Exr,
        extensions: &["exr"],
        name: "EXR",
        depths: &[Depth::Float],
    },
    Entry {
        format: Format::Tiff,
        extensions: &["tif", "tiff"],
        name: "TIFF",
        depths: &[Depth::Eight, Depth::Sixteen, Depth::Float],
    },
    // 16 bits: a one-channel map stored uncompressed (R16), as presets store heights.
    Entry {
        format: Format::Dds,
        extensions: &["dds"],
        name: "DDS",
        depths: &[Depth::Eight, Depth::Sixteen],
    },
    Entry {
        format: Format::Ktx2,
        extensions: &["ktx2"],
        name: "KTX2",
        depths: &[Depth::Eight, Depth::Sixteen],
    },
    Entry {
        format: Format::Raw,
        extensions: &["r16", "raw"],
        name: "RAW heightmap",
        depths: &[Depth::Sixteen],
    },
];

impl Format {
    /// Every format, in the order they are offered.
    pub fn all() -> impl Iterator<Item = Format> {
        TABLE.iter().map(|e| e.format)
    }

    fn entry(self) -> &'static Entry {
        TABLE
            .iter()
            .find(|e| e.format == self)
            .expect("every format has a table line")
    }

    /// The format an id or extension names (`png`, `exr`, `tif`, `tiff`, `dds`, `ktx2`,
    /// `r16`, `raw`; any case).
    pub fn parse(id: &str) -> Option<Format> {
        let id = id.to_ascii_lowercase();
        TABLE
            .iter()
            .find(|e| e.extensions.contains(&id.as_str()))
            .map(|e| e.format)
    }

    /// Its id, which is also its usual extension.
    pub fn id(self) -> &'static str {
        self.entry().extensions[0]
    }

    /// Every id [`Format::parse`] takes, usual extensions first.
    pub fn ids() -> impl Iterator<Item = &'static str> {
        TABLE.iter().map(|e| e.extensions[0])
    }

    /// Its name in messages (`PNG`).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The format for `path`'s extension.
    pub fn from_path(path: &Path) -> Result<Self> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(Format::parse)
            .ok_or_else(|| {
                let known: Vec<String> = TABLE
                    .iter()
                    .flat_map(|e| e.extensions)
                    .map(|x| format!(".{x}"))
                    .collect();
                Error::Export {
                    path: path.to_owned(),
                    message: format!("unknown image extension; use {}", known.join(", ")),
                }
            })
    }

    /// The depth written when none is asked for.
    pub fn default_depth(self) -> Depth {
        self.entry().depths[0]
    }

    /// The depths it holds, the one written when none is asked for first.
    pub fn depths(self) -> &'static [Depth] {
        self.entry().depths
    }

    /// Whether the format can store `depth`.
    pub fn supports(self, depth: Depth) -> bool {
        self.entry().depths.contains(&depth)
    }

    /// Each format's depths in words, for messages: `PNG: 8 or 16, EXR: 32, …`.
    pub fn depths_text() -> String {
        TABLE
            .iter()
            .map(|e| {
                let bits: Vec<String> = e.depths.iter().map(|d| d.bits().to_string()).collect();
                let bits = match bits.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                };
                format!("{}: {bits}", e.name)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the format is a game texture: written from the whole image (its mip chain
    /// is filtered from it), one map whose usage chooses the block format.
    pub fn is_texture(self) -> bool {
        matches!(self, Format::Dds | Format::Ktx2)
    }

    /// Channels a file of this format holds for an image of `channels`: a RAW heightmap
    /// one, whatever it was given.
    pub fn stored_channels(self, channels: usize) -> usize {
        if self == Format::Raw { 1 } else { channels }
    }

    /// Bytes a pixel of `channels` takes in the copy the encoder is given at `depth`.
    pub(crate) fn copy_bytes_per_pixel(self, depth: Depth, channels: usize) -> u64 {
        match (self, depth) {
            // Gray is stored as RGBA in float TIFFs.
            (Format::Tiff, Depth::Float) => 16,
            // The whole image as RGBA floats (16 bytes), its mip chain as stored (16, and
            // a third more for the smaller levels) and the blocks (1): about 40.
            (Format::Dds | Format::Ktx2, _) => 40,
            // One 16-bit sample a pixel, whatever the channels.
            (Format::Raw, _) => 2,
            _ => channels as u64 * u64::from(depth.bits() / 8),
        }
    }
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
