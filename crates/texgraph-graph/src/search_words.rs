//! The words people search for nodes by, beyond their ids and labels: the names Substance
//! 3D Designer and Material Maker give the same or the nearest tools, and the plain words
//! for what a node does. One table for every search (the editor's palette, the node
//! reference): a word finds every node listed with it.

use crate::registry::NODES;

/// Each word (lower case) and the node ids it finds, best first.
pub static SEARCH_WORDS: &[(&str, &[&str])] = &[
    ("invert", &["math", "remap", "levels"]),
    ("one minus", &["math"]),
    ("uniform color", &["color", "constant"]),
    ("solid color", &["color", "constant"]),
    ("tile", &["make_it_tile", "scatter", "bricks", "checker"]),
    ("tile sampler", &["scatter", "bricks"]),
    ("tile generator", &["scatter", "bricks"]),
    ("tile random", &["scatter"]),
    ("seamless", &["make_it_tile"]),
    ("splatter", &["scatter"]),
    (
        "grunge",
        &["fbm", "turbulence", "ridged", "cellular", "white_noise"],
    ),
    ("clouds", &["fbm", "perlin", "value"]),
    ("dirt", &["fbm", "turbulence", "white_noise"]),
    ("scratches", &["directional_blur", "wave", "white_noise"]),
    ("brushed metal", &["directional_blur"]),
    ("streaks", &["directional_blur"]),
    ("gradient map", &["gradient"]),
    ("color ramp", &["gradient"]),
    ("gradient linear", &["coords", "wave"]),
    ("voronoi", &["cellular"]),
    ("worley", &["cellular"]),
    ("cells", &["cellular"]),
    ("polygon", &["shape"]),
    ("circle", &["shape"]),
    ("star", &["shape"]),
    ("brightness", &["levels", "curve"]),
    ("contrast", &["levels", "curve", "histogram_scan"]),
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
    ("transformation 2d", &["transform"]),
    ("offset", &["transform"]),
    ("rotate", &["transform"]),
    ("scale", &["transform"]),
    ("vector warp", &["warp"]),
    ("slope", &["slope_blur", "curvature"]),
    ("gaussian", &["blur"]),
    ("outline", &["edge_detect", "distance"]),
    ("dilate", &["distance"]),
    ("expand", &["distance"]),
    ("height to normal", &["normal"]),
    ("ao", &["ambient_occlusion"]),
    ("occlusion", &["ambient_occlusion"]),
    ("rgba split", &["split"]),
    ("rgba merge", &["merge"]),
    ("channels shuffle", &["split", "merge"]),
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
