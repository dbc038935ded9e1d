//! The words people search for nodes by, beyond their ids and labels: the names Substance
//! 3D Designer and Material Maker give the same or the nearest tools, and the plain words
//! for what a node does. One table for every search (the editor's palette, the node
//! reference): a word finds every node listed with it.

use crate::registry::NODES;

/// Each word (lower case) and the node ids it finds, best first.
pub static SEARCH_WORDS: &[(&str, &[&str])] = &[
    ("invert", &["invert", "math", "remap", "levels"]),
    ("one minus", &["invert", "math"]),
    ("negative", &["invert"]),
    ("uniform color", &["uniform", "color", "constant"]),
    ("solid color", &["uniform", "color", "constant"]),
    ("fill color", &["uniform", "color"]),
    (
        "tile",
        &[
            "tile_sampler",
            "make_it_tile",
            "safe_transform",
            "scatter",
            "bricks",
            "checker",
        ],
    ),
    ("tile sampler", &["tile_sampler", "scatter", "bricks"]),
    ("tile generator", &["tile_sampler", "bricks", "scatter"]),
    ("tile random", &["tile_sampler", "scatter"]),
    ("tiler", &["tile_sampler", "bricks"]),
    ("seamless", &["make_it_tile", "safe_transform"]),
    ("splatter", &["tile_sampler", "scatter"]),
    ("scatter", &["tile_sampler", "scatter"]),
    (
        "grunge",
        &["fbm", "turbulence", "ridged", "cellular", "white_noise"],
    ),
    ("clouds", &["fbm", "perlin", "value"]),
    ("dirt", &["fbm", "turbulence", "white_noise"]),
    (
        "scratches",
        &[
            "anisotropic_noise",
            "directional_blur",
            "wave",
            "white_noise",
        ],
    ),
    ("brushed metal", &["anisotropic_noise", "directional_blur"]),
    ("streaks", &["anisotropic_noise", "directional_blur"]),
    ("directional noise", &["anisotropic_noise"]),
    ("fibers", &["anisotropic_noise"]),
    ("gradient map", &["gradient"]),
    ("color ramp", &["gradient"]),
    ("gradient linear", &["gradient_linear", "wave"]),
    ("linear gradient", &["gradient_linear"]),
    ("ramp", &["gradient_linear", "gradient"]),
    ("gradient radial", &["gradient_radial"]),
    ("radial gradient", &["gradient_radial"]),
    ("vignette", &["gradient_radial"]),
    ("spotlight", &["gradient_radial"]),
    ("voronoi", &["cellular"]),
    ("worley", &["cellular"]),
    ("cells", &["cellular"]),
    ("polygon", &["shape"]),
    ("circle", &["shape", "gradient_radial"]),
    ("star", &["shape"]),
    ("brightness", &["brightness_contrast", "levels", "curve"]),
    (
        "contrast",
        &["brightness_contrast", "levels", "curve", "histogram_scan"],
    ),
    ("contrast luminosity", &["brightness_contrast"]),
    ("luminosity", &["brightness_contrast"]),
    ("auto levels", &["auto_levels"]),
    ("normalize", &["auto_levels"]),
    ("stretch range", &["auto_levels"]),
    ("desaturate", &["grayscale", "hsl"]),
    ("posterize", &["quantize"]),
    ("mix", &["blend", "height_blend"]),
    ("multiply", &["blend", "math"]),
    ("screen", &["blend"]),
    ("overlay", &["blend"]),
    ("difference", &["blend"]),
    ("subtract", &["blend", "math"]),
    ("add", &["blend", "math"]),
    ("darken", &["blend"]),
    ("lighten", &["blend"]),
    ("lerp", &["blend"]),
    ("min", &["clamp", "math", "blend"]),
    ("max", &["clamp", "math", "blend"]),
    ("limit", &["clamp"]),
    ("transformation 2d", &["transform", "safe_transform"]),
    ("safe transform", &["safe_transform"]),
    ("offset", &["transform", "safe_transform"]),
    ("rotate", &["transform", "safe_transform"]),
    ("scale", &["transform", "safe_transform"]),
    ("flip", &["mirror", "safe_transform"]),
    ("vector warp", &["warp"]),
    ("polar", &["polar"]),
    ("cartesian to polar", &["polar"]),
    ("polar to cartesian", &["polar"]),
    ("kaleidoscope", &["symmetry"]),
    ("radial symmetry", &["symmetry"]),
    ("twirl", &["swirl"]),
    ("vortex", &["swirl"]),
    ("pixelize", &["pixelate"]),
    ("mosaic", &["pixelate"]),
    ("slope", &["slope_blur", "curvature"]),
    ("gaussian", &["blur"]),
    ("high pass", &["highpass"]),
    ("detail", &["highpass", "sharpen"]),
    ("outline", &["edge_detect", "distance"]),
    ("dilate", &["distance"]),
    ("expand", &["distance"]),
    ("height to normal", &["normal"]),
    ("normal convert", &["normal_invert"]),
    ("directx", &["normal_invert", "normal"]),
    ("opengl", &["normal_invert", "normal"]),
    ("flip green", &["normal_invert"]),
    ("ao", &["ambient_occlusion"]),
    ("occlusion", &["ambient_occlusion"]),
    ("rgba split", &["split"]),
    ("rgba merge", &["merge"]),
    ("channels shuffle", &["channel_shuffle", "split", "merge"]),
    ("swizzle", &["channel_shuffle"]),
    ("pack channels", &["channel_shuffle", "merge"]),
    ("histogram select", &["histogram_select"]),
    ("band", &["histogram_select"]),
    ("color to mask", &["color_to_mask"]),
    ("id mask", &["color_to_mask"]),
    ("color select", &["color_to_mask"]),
    ("toggle", &["switch"]),
    ("choose", &["switch"]),
    ("pixel processor", &["math"]),
    ("formula", &["math"]),
    ("random", &["white_noise", "fill_to_random"]),
    ("bitmap", &["image"]),
    ("texture", &["image"]),
    ("animation", &["time"]),
];

/// The search words that find node `id`.
pub fn words_for(id: &str) -> impl Iterator<Item = &'static str> + '_ {
    SEARCH_WORDS
        .iter()
        .filter(move |(_, ids)| ids.contains(&id))
        .map(|(word, _)| *word)
}

/// The ids the table names that are no node type: none, when the table is right.
pub fn unknown_ids() -> Vec<&'static str> {
    SEARCH_WORDS
        .iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .filter(|id| !NODES.iter().any(|d| d.id == *id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_finds_node_types_that_exist() {
        assert_eq!(unknown_ids(), Vec::<&str>::new());
        for (word, ids) in SEARCH_WORDS {
            assert_eq!(*word, word.to_lowercase(), "words are lower case");
            assert!(!ids.is_empty(), "{word} finds nothing");
        }
    }

    #[test]
    fn a_nodes_words_are_those_listing_it() {
        let words: Vec<_> = words_for("scatter").collect();
        assert!(words.contains(&"splatter") && words.contains(&"tile sampler"));
        assert!(!words.contains(&"invert"));
    }
}
