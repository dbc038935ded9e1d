//! What an output map is for: its *usage*. A usage fixes how a map is stored and read —
//! one channel or a color, sRGB-encoded or linear data, its default bit depth — and the
//! value an engine preset writes when a graph lacks the map.

/// The role of an `output` node's map in a material (its `usage` param).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Usage {
    /// A plain image, written as rendered (the default, and what files made before usages
    /// hold).
    Color,
    /// Albedo, sRGB-encoded RGB with alpha.
    BaseColor,
    /// Tangent-space normal map, 0.5 + 0.5·n, OpenGL convention (green up).
    Normal,
    /// Perceptual roughness, linear.
    Roughness,
    /// Metalness, linear.
    Metallic,
    /// Height (displacement), linear.
    Height,
    /// Ambient occlusion, linear (1 = unoccluded).
    AmbientOcclusion,
    /// Emitted light, sRGB-encoded RGB.
    Emissive,
    /// Opacity (alpha coverage), linear.
    Opacity,
    /// A mask for engines' detail and layer slots, linear.
    Mask,
    /// A terrain's layer weights (splat map): four layers in R, G, B and A that sum to 1,
    /// linear, as Unity terrain layers and Unreal landscape layers import them.
    Splat,
}

/// How a map's values relate to light.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// sRGB-encoded color: decoded to linear where a file holds linear values (EXR), and
    /// tagged sRGB where it can say so (PNG's sRGB chunk, DDS and KTX2 `_SRGB` formats).
    Srgb,
    /// Data read as it is (normals, roughness, height…): written as rendered, with no
    /// color-space tag (engines read untagged data as values), and the linear formats in
    /// DDS and KTX2.
    Linear,
    /// Values as rendered, with no claim about them (the `color` usage): files carry no
    /// color-space tag and EXR holds the values as rendered, as before usages existed.
    AsRendered,
}

impl Usage {
    /// Every usage, in the order menus and docs list them.
    pub const ALL: [Usage; 11] = [
        Usage::Color,
        Usage::BaseColor,
        Usage::Normal,
        Usage::Roughness,
        Usage::Metallic,
        Usage::Height,
        Usage::AmbientOcclusion,
        Usage::Emissive,
        Usage::Opacity,
        Usage::Mask,
        Usage::Splat,
    ];

    /// The ids as written in files, in [`Usage::ALL`]'s order.
    pub const IDS: [&'static str; 11] = [
        "color",
        "basecolor",
        "normal",
        "roughness",
        "metallic",
        "height",
        "ambient_occlusion",
        "emissive",
        "opacity",
        "mask",
        "splat",
    ];

    /// The id written in files and presets (`basecolor`, `ambient_occlusion`…).
    pub fn id(self) -> &'static str {
        Self::IDS[self as usize]
    }

    /// The usage with id `id`.
    pub fn parse(id: &str) -> Option<Usage> {
        Self::IDS
            .iter()
            .position(|&known| known == id)
            .map(|i| Self::ALL[i])
    }

    /// A short name for people: "Base color", "Ambient occlusion"…
    pub fn label(self) -> &'static str {
        match self {
            Usage::Color => "Color",
            Usage::BaseColor => "Base color",
            Usage::Normal => "Normal",
            Usage::Roughness => "Roughness",
            Usage::Metallic => "Metallic",
            Usage::Height => "Height",
            Usage::AmbientOcclusion => "Ambient occlusion",
            Usage::Emissive => "Emissive",
            Usage::Opacity => "Opacity",
            Usage::Mask => "Mask",
            Usage::Splat => "Splat map",
        }
    }

    /// Channels of the map: `Some(1)` for data of one channel, `Some(4)` for colors (RGBA),
    /// `None` for `color`, which writes whatever feeds it.
    pub fn channels(self) -> Option<usize> {
        match self {
            Usage::Color => None,
            Usage::BaseColor | Usage::Normal | Usage::Emissive | Usage::Splat => Some(4),
            _ => Some(1),
        }
    }

    /// How the map's values are encoded.
    pub fn encoding(self) -> Encoding {
        match self {
            Usage::Color => Encoding::AsRendered,
            Usage::BaseColor | Usage::Emissive => Encoding::Srgb,
            _ => Encoding::Linear,
        }
    }

    /// The value a preset writes when the graph has no output of this usage, as RGBA (one
    /// channel maps read the first): metallic 0, occlusion, roughness, opacity and masks 1,
    /// emissive black, height 0.5, a flat normal, a mid-gray base color, the first terrain
    /// layer everywhere.
    pub fn neutral(self) -> [f32; 4] {
        match self {
            Usage::Metallic => [0.0, 0.0, 0.0, 1.0],
            Usage::Emissive => [0.0, 0.0, 0.0, 1.0],
            Usage::Height => [0.5, 0.5, 0.5, 1.0],
            Usage::Normal => [0.5, 0.5, 1.0, 1.0],
            Usage::BaseColor | Usage::Color => [0.5, 0.5, 0.5, 1.0],
            Usage::Splat => [1.0, 0.0, 0.0, 0.0],
            Usage::Roughness | Usage::AmbientOcclusion | Usage::Opacity | Usage::Mask => [1.0; 4],
        }
    }

    /// Bits per channel written when neither the command nor a preset says: 16 for height
    /// (8 bits terrace a displacement), 8 otherwise.
    pub fn default_bits(self) -> u32 {
        match self {
            Usage::Height => 16,
            _ => 8,
        }
    }
}
