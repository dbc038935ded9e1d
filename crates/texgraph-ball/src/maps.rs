//! The maps a material ball shades with: every usage of a graph rendered together, the
//! missing ones neutral, and bilinear, tiling sampling that returns linear values.

use texgraph_base::error::Result;
use texgraph_engine::eval::{Image, RenderOptions};
use texgraph_engine::usage::Usage;
use texgraph_export::material::{MaterialSettings, material_outputs, render_together};
use texgraph_graph::graph::Graph;

/// A material's maps, as a graph renders them (the values its files hold).
#[derive(Debug, Clone)]
pub struct MaterialMaps {
    /// Albedo, RGBA, sRGB-encoded; its alpha multiplies the opacity.
    pub base_color: Image,
    /// Tangent-space normal, RGBA, 0.5 + 0.5·n, OpenGL (green up).
    pub normal: Image,
    /// Perceptual roughness, one channel.
    pub roughness: Image,
    /// Metalness, one channel.
    pub metallic: Image,
    /// Ambient occlusion, one channel, 1 = unoccluded.
    pub occlusion: Image,
    /// Height, one channel, 1 = highest (used by parallax mapping).
    pub height: Image,
    /// Opacity, one channel.
    pub opacity: Image,
    /// Emitted light, RGBA, sRGB-encoded.
    pub emissive: Image,
}

/// A 1×1 image of `usage`'s neutral value, with the usage's channels.
pub fn neutral_image(usage: Usage) -> Image {
    solid(usage.neutral(), usage.channels().unwrap_or(4))
}

/// A 1×1 image of `value` with `channels` (1: the first component).
pub fn solid(value: [f32; 4], channels: usize) -> Image {
    Image {
        width: 1,
        height: 1,
        channels,
        data: value[..channels].to_vec(),
    }
}

impl MaterialMaps {
    /// Every map neutral: a mid-gray, flat, fully rough dielectric.
    pub fn neutral() -> Self {
        Self {
            base_color: neutral_image(Usage::BaseColor),
            normal: neutral_image(Usage::Normal),
            roughness: neutral_image(Usage::Roughness),
            metallic: neutral_image(Usage::Metallic),
            occlusion: neutral_image(Usage::AmbientOcclusion),
            height: neutral_image(Usage::Height),
            opacity: neutral_image(Usage::Opacity),
            emissive: neutral_image(Usage::Emissive),
        }
    }

    /// The map of `usage` (`None` for `color`, `mask` and `splat`, which a ball does not
    /// read).
    pub fn map_mut(&mut self, usage: Usage) -> Option<&mut Image> {
        Some(match usage {
            Usage::BaseColor => &mut self.base_color,
            Usage::Normal => &mut self.normal,
            Usage::Roughness => &mut self.roughness,
            Usage::Metallic => &mut self.metallic,
            Usage::AmbientOcclusion => &mut self.occlusion,
            Usage::Height => &mut self.height,
            Usage::Opacity => &mut self.opacity,
            Usage::Emissive => &mut self.emissive,
            Usage::Color | Usage::Mask | Usage::Splat => return None,
        })
    }
}

/// Renders every map `graph` has, as one program of `size`² pixels, and fills the maps it
/// lacks with 1×1 neutral images.
pub fn material_maps(graph: &Graph, size: u32, options: RenderOptions) -> Result<MaterialMaps> {
    let mut maps = MaterialMaps::neutral();
    let mut wanted: Vec<(Usage, String)> = material_outputs(graph)
        .into_iter()
        .filter(|(usage, _)| maps.map_mut(*usage).is_some())
        .collect();
    if wanted.is_empty() {
        return Ok(maps);
    }
    wanted.sort_by_key(|(usage, _)| *usage as usize);
    let names: Vec<String> = wanted.iter().map(|(_, name)| name.clone()).collect();
    let settings = MaterialSettings {
        width: size,
        height: size,
        format: None,
        graph_name: String::new(),
        options,
    };
    let rendered = render_together(graph, &names, &settings, &|_| 0, &|_| {})?;
    for ((usage, _), image) in wanted.iter().zip(rendered.images) {
        let channels = usage.channels().unwrap_or(4);
        if let Some(map) = maps.map_mut(*usage) {
            *map = with_channels(image, channels);
        }
    }
    Ok(maps)
}

/// `image` with `channels`: gray spread to RGB (alpha 1), or a color's first channel.
fn with_channels(image: Image, channels: usize) -> Image {
    if image.channels == channels {
        return image;
    }
    let data = if channels == 4 {
        image
            .data
            .chunks(image.channels)
            .flat_map(|p| [p[0], p[0], p[0], 1.0])
            .collect()
    } else {
        image.data.chunks(image.channels).map(|p| p[0]).collect()
    };
    Image {
        width: image.width,
        height: image.height,
        channels,
        data,
    }
}

/// A normal map with its green inverted: turns a DirectX map (green down) into the
/// OpenGL one a ball reads, and back.
pub fn flip_green(image: &Image) -> Image {
    let mut out = image.clone();
    if out.channels >= 2 {
        for p in out.data.chunks_mut(out.channels) {
            p[1] = 1.0 - p[1];
        }
    }
    out
}
