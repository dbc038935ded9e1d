//! The words people search for nodes by, beyond their ids and labels: the names Substance
//! 3D Designer and Material Maker give the same or the nearest tools, and the plain words
//! for what a node does. One table for every search (the editor's palette, the node
//! reference): a word finds every node listed with it. Ids are node types or built-in
//! library graphs (`library:NAME`).

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
    (
        "splatter",
        &["tile_sampler", "splatter_circular", "scatter"],
    ),
    (
        "circular",
        &["splatter_circular", "polar", "gradient_radial"],
    ),
    ("ring", &["splatter_circular", "shape"]),
    ("radial", &["splatter_circular", "gradient_radial", "polar"]),
    ("scatter", &["tile_sampler", "scatter"]),
    (
        "grunge",
        &[
            "library:grunge_concrete",
            "library:grunge_rust",
            "library:grunge_scratches",
            "library:grunge_dust",
            "library:grunge_leaks",
            "library:grunge_splotches",
            "library:grunge_paint_flakes",
            "library:grunge_galvanic",
            "library:grunge_smudges",
            "library:grunge_cracks_fine",
            "library:grunge_water_stains",
            "library:grunge_oil",
            "library:grunge_rough_metal",
            "library:grunge_spray",
            "fbm",
            "turbulence",
            "ridged",
            "cellular",
            "white_noise",
        ],
    ),
    (
        "clouds",
        &[
            "library:clouds_1",
            "library:clouds_2",
            "library:clouds_3",
            "fbm",
            "perlin",
            "value",
        ],
    ),
    (
        "dirt",
        &[
            "library:mask_dirt",
            "library:grunge_dust",
            "fbm",
            "turbulence",
            "white_noise",
        ],
    ),
    (
        "scratches",
        &[
            "library:grunge_scratches",
            "library:scratches_directional",
            "anisotropic_noise",
            "directional_blur",
            "wave",
            "white_noise",
        ],
    ),
    ("brushed metal", &["anisotropic_noise", "directional_blur"]),
    (
        "streaks",
        &[
            "library:grunge_leaks",
            "anisotropic_noise",
            "directional_blur",
        ],
    ),
    ("directional noise", &["anisotropic_noise"]),
    ("fibers", &["library:fibers", "anisotropic_noise"]),
    (
        "gradient map",
        &[
            "gradient",
            "library:gradient_map_rust",
            "library:gradient_map_copper",
            "library:gradient_map_terrain",
        ],
    ),
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
    ("rivers", &["hydraulic_erosion"]),
    ("flow map", &["hydraulic_erosion"]),
    ("sediment", &["hydraulic_erosion"]),
    ("deposition", &["hydraulic_erosion"]),
    ("weathering", &["hydraulic_erosion", "thermal_erosion"]),
    (
        "terrain",
        &[
            "hydraulic_erosion",
            "thermal_erosion",
            "terrace",
            "library:terrain_splat",
        ],
    ),
    (
        "heightfield",
        &["hydraulic_erosion", "thermal_erosion", "terrace"],
    ),
    ("stratify", &["terrace", "quantize"]),
    ("strata", &["terrace"]),
    ("ledges", &["terrace"]),
    ("splat map", &["library:terrain_splat"]),
    ("layer weights", &["library:terrain_splat"]),
    ("alphamap", &["library:terrain_splat"]),
    ("talus", &["thermal_erosion"]),
    ("scree", &["thermal_erosion"]),
    ("gaussian", &["blur"]),
    ("high pass", &["highpass"]),
    ("detail", &["highpass", "sharpen"]),
    (
        "outline",
        &["library:edge_outline", "edge_detect", "distance"],
    ),
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
    ("concrete", &["library:grunge_concrete"]),
    (
        "rust",
        &["library:grunge_rust", "library:gradient_map_rust"],
    ),
    ("dust", &["library:grunge_dust", "library:mask_dust"]),
    ("leaks", &["library:grunge_leaks"]),
    ("splotches", &["library:grunge_splotches"]),
    (
        "stains",
        &["library:grunge_splotches", "library:grunge_water_stains"],
    ),
    ("paint flakes", &["library:grunge_paint_flakes"]),
    ("chipped paint", &["library:grunge_paint_flakes"]),
    ("galvanized", &["library:grunge_galvanic"]),
    ("fingerprints", &["library:grunge_smudges"]),
    ("smudges", &["library:grunge_smudges"]),
    ("cracks", &["library:cracks", "library:grunge_cracks_fine"]),
    ("crystal", &["library:crystals"]),
    ("moisture", &["library:moisture"]),
    ("bnw spots", &["library:bnw_spots"]),
    ("spots", &["library:bnw_spots", "library:gaussian_spots"]),
    ("gaussian spots", &["library:gaussian_spots"]),
    ("stripes", &["library:stripes_random"]),
    ("voronoi fractal", &["library:voronoi_fractal"]),
    ("pebbles", &["library:stones_scatter"]),
    (
        "stones",
        &[
            "library:stones_scatter",
            "library:stone_wall",
            "library:cobble_grid",
        ],
    ),
    ("hexagon", &["library:hexagon_tiles"]),
    ("hex tiles", &["library:hexagon_tiles"]),
    ("herringbone", &["library:herringbone"]),
    ("basket weave", &["library:basket_weave"]),
    (
        "weave",
        &[
            "library:fabric_weave",
            "library:basket_weave",
            "library:metal_mesh",
        ],
    ),
    ("fabric", &["library:fabric_weave"]),
    ("cloth", &["library:fabric_weave"]),
    ("planks", &["library:floor_planks"]),
    (
        "parquet",
        &[
            "library:herringbone",
            "library:floor_planks",
            "library:basket_weave",
        ],
    ),
    (
        "wood floor",
        &["library:floor_planks", "library:herringbone"],
    ),
    ("chevron", &["library:chevrons"]),
    ("scales", &["library:fish_scales"]),
    ("shingles", &["library:roof_tiles", "library:fish_scales"]),
    ("triangle", &["library:triangles"]),
    ("cobblestone", &["library:cobble_grid"]),
    ("diamond plate", &["library:diamond_plate"]),
    ("tread plate", &["library:diamond_plate"]),
    ("checker plate", &["library:diamond_plate"]),
    ("stone wall", &["library:stone_wall"]),
    ("wavy lines", &["library:wavy_lines"]),
    (
        "edge wear",
        &["library:mask_edge_wear", "library:erode_edges"],
    ),
    (
        "edge damage",
        &["library:erode_edges", "library:mask_edge_wear"],
    ),
    ("worn edges", &["library:mask_edge_wear"]),
    ("moss", &["library:mask_moss"]),
    ("height select", &["library:mask_height_range"]),
    ("height range", &["library:mask_height_range"]),
    ("slope mask", &["library:mask_slope"]),
    ("glow", &["library:glow", "library:outer_glow"]),
    ("auto contrast", &["library:auto_contrast"]),
    ("bevel soft", &["library:bevel_soft"]),
    (
        "multi directional warp",
        &["library:multi_directional_warp"],
    ),
    ("liquid", &["library:liquid"]),
    ("creased", &["library:creased"]),
    ("crumpled", &["library:creased"]),
    ("plasma", &["library:plasma"]),
    ("water stains", &["library:grunge_water_stains"]),
    ("oil", &["library:grunge_oil"]),
    ("rough metal", &["library:grunge_rough_metal"]),
    ("roughness", &["library:grunge_rough_metal"]),
    ("spray", &["library:grunge_spray"]),
    ("snow", &["library:snow_cover"]),
    ("cavity", &["library:mask_cavity"]),
    ("convex", &["library:mask_convex_edges"]),
    (
        "curvature mask",
        &["library:mask_cavity", "library:mask_convex_edges"],
    ),
    ("top surfaces", &["library:mask_top_surfaces"]),
    ("erode", &["library:erode_edges"]),
    ("posterize soft", &["library:posterize_soft"]),
    ("emboss lit", &["library:emboss_lit"]),
    ("random per shape", &["library:random_per_shape"]),
    ("flood fill to random", &["library:random_per_shape"]),
    ("wood", &["library:wood_grain", "library:floor_planks"]),
    ("leather", &["library:leather"]),
    ("perforated", &["library:perforated_metal"]),
    ("holes", &["library:perforated_metal"]),
    ("roof", &["library:roof_tiles"]),
    ("square tiles", &["library:square_tiles"]),
    (
        "floor tiles",
        &["library:square_tiles", "library:hexagon_tiles"],
    ),
    ("mosaic tiles", &["library:mosaic"]),
    ("mesh", &["library:metal_mesh"]),
    ("grating", &["library:metal_mesh"]),
    ("hatching", &["library:cross_hatch"]),
    ("sketch", &["library:cross_hatch"]),
    ("marble", &["library:marble_veins"]),
    ("veins", &["library:marble_veins"]),
    ("pixel processor", &["formula", "math"]),
    ("value processor", &["formula"]),
    ("formula", &["formula", "math"]),
    ("expression", &["formula"]),
    ("custom shader", &["formula"]),
    ("glsl", &["formula"]),
    ("code", &["formula"]),
    ("random", &["white_noise", "fill_to_random"]),
    ("bitmap", &["image"]),
    ("texture", &["image"]),
    ("animation", &["time"]),
];

/// Names other tools give the same or the nearest tool, as (Substance 3D Designer, Material
/// Maker, texgraph id); an empty name means that tool has none of its own. Docs/nodes.md
/// prints it as a table, and the palette finds each entry by both names.
pub static OTHER_TOOLS: &[(&str, &str, &str)] = &[
    ("Perlin Noise", "Perlin", "perlin"),
    ("Simplex Noise", "Simplex", "simplex"),
    ("Cells 1", "Voronoi", "cellular"),
    ("Fractal Sum Base", "FBM", "fbm"),
    ("White Noise", "White Noise", "white_noise"),
    (
        "Anisotropic Noise",
        "Anisotropic Noise",
        "anisotropic_noise",
    ),
    ("Clouds 1", "Noise (fbm)", "library:clouds_1"),
    ("Clouds 2", "", "library:clouds_2"),
    ("Clouds 3", "", "library:clouds_3"),
    ("Crystal 1", "Crystal", "library:crystals"),
    ("BnW Spots 1", "", "library:bnw_spots"),
    ("Gaussian Spots 1", "", "library:gaussian_spots"),
    ("Moisture Noise", "", "library:moisture"),
    ("Liquid", "", "library:liquid"),
    ("Creased", "", "library:creased"),
    ("Plasma", "", "library:plasma"),
    (
        "Voronoi Fractal",
        "Voronoi (fractal)",
        "library:voronoi_fractal",
    ),
    ("Directional Scratches", "", "library:scratches_directional"),
    ("Cracks", "Cracks", "library:cracks"),
    ("Fibers 1", "", "library:fibers"),
    ("Tile Sampler", "Tiler", "tile_sampler"),
    ("Tile Generator", "Tiler", "tile_sampler"),
    ("Tile Random", "Splatter", "tile_sampler"),
    (
        "Splatter Circular",
        "Circular Splatter",
        "splatter_circular",
    ),
    ("Shape", "Shape", "shape"),
    ("Brick Generator", "Bricks", "bricks"),
    ("Checker 1", "Checkerboard", "checker"),
    ("Gradient Linear 1", "Gradient", "gradient_linear"),
    ("Gradient Radial", "Radial Gradient", "gradient_radial"),
    ("Hexagon", "Hexagonal Tiles", "library:hexagon_tiles"),
    ("Herringbone 1", "", "library:herringbone"),
    ("Weave 1", "Weave", "library:fabric_weave"),
    ("Fish Scales", "Scale", "library:fish_scales"),
    ("Triangle Grid", "", "library:triangles"),
    ("Cobble Grid", "", "library:cobble_grid"),
    ("Arc Pavement", "", "library:cobble_grid"),
    ("Grunge Map 001", "", "library:grunge_concrete"),
    ("Grunge Rust Fine", "", "library:grunge_rust"),
    (
        "Grunge Scratches Fine",
        "Scratches",
        "library:grunge_scratches",
    ),
    ("Dust", "", "library:grunge_dust"),
    ("Grunge Leaks", "", "library:grunge_leaks"),
    ("Grunge Splotches", "", "library:grunge_splotches"),
    ("Grunge Galvanic Small", "", "library:grunge_galvanic"),
    ("Fingerprints", "", "library:grunge_smudges"),
    ("Invert", "Invert", "invert"),
    ("Clamp", "Clamp", "clamp"),
    ("Uniform Color", "Uniform", "uniform"),
    ("Levels", "Tones", "levels"),
    ("Curve", "Tone Map / Curve", "curve"),
    (
        "Contrast/Luminosity",
        "Brightness Contrast",
        "brightness_contrast",
    ),
    ("Auto Levels", "Normalize", "auto_levels"),
    ("Gradient Map", "Colorize", "gradient"),
    ("HSL", "Adjust HSV", "hsl"),
    ("Grayscale Conversion", "Decompose / Luminance", "grayscale"),
    ("Histogram Scan", "", "histogram_scan"),
    ("Histogram Range", "", "histogram_range"),
    ("Histogram Select", "", "histogram_select"),
    ("Histogram Shift", "", "histogram_shift"),
    ("Posterize", "Quantize", "quantize"),
    ("Threshold", "Threshold", "threshold"),
    ("Color to Mask", "Color to Mask", "color_to_mask"),
    ("RGBA Split", "Decompose", "split"),
    ("RGBA Merge", "Combine", "merge"),
    ("Channels Shuffle", "Swap Channels", "channel_shuffle"),
    ("Blend", "Blend", "blend"),
    ("Switch", "Switch", "switch"),
    ("Blur HQ", "Gaussian Blur", "blur"),
    ("Non-Uniform Blur", "", "non_uniform_blur"),
    ("Directional Blur", "Directional Blur", "directional_blur"),
    ("Slope Blur", "Slope Blur", "slope_blur"),
    ("Sharpen", "Sharpen", "sharpen"),
    ("Highpass", "", "highpass"),
    ("Edge Detect", "Edge Detect", "edge_detect"),
    ("Emboss", "Emboss", "emboss"),
    ("Normal", "Normal Map", "normal"),
    ("Normal Invert", "", "normal_invert"),
    ("Normal Blend", "Normal Blend", "normal_blend"),
    ("Ambient Occlusion (HBAO)", "Occlusion", "ambient_occlusion"),
    ("Curvature Smooth", "Curvature", "curvature"),
    ("Height Blend", "Height Blend", "height_blend"),
    ("Distance", "Distance", "distance"),
    ("Bevel", "Bevel", "bevel"),
    ("Flood Fill", "Fill", "flood_fill"),
    (
        "Flood Fill to Random Grayscale",
        "Fill to Random Grey",
        "fill_to_random",
    ),
    (
        "Flood Fill to Random Color",
        "Fill to Random Color",
        "fill_to_color",
    ),
    (
        "Flood Fill to Gradient",
        "Fill to Gradient",
        "fill_to_gradient",
    ),
    (
        "Flood Fill to BBox Size",
        "Fill to Size",
        "fill_to_bbox_size",
    ),
    (
        "Flood Fill to Position",
        "Fill to Position",
        "fill_to_position",
    ),
    ("Flood Fill to Index", "", "fill_to_index"),
    ("Shape Splatter", "", "shape_splatter"),
    ("Flood Fill Mapper", "", "shape_splatter"),
    ("Transformation 2D", "Transform", "transform"),
    ("Safe Transform", "Tile (offset)", "safe_transform"),
    ("Make It Tile Patch", "Make Tileable", "make_it_tile"),
    ("Vector Warp", "Warp", "warp"),
    ("Directional Warp", "Directional Warp", "directional_warp"),
    ("Mirror", "Mirror", "mirror"),
    ("Symmetry", "Kaleidoscope", "symmetry"),
    ("Cartesian to Polar", "Polar / Cartesian", "polar"),
    ("Swirl", "Swirl", "swirl"),
    ("Pixelate", "Pixelize", "pixelate"),
    ("Pixel Processor", "Math / Expression", "math"),
    ("Edge Damages", "", "library:erode_edges"),
    ("Dirt", "", "library:mask_dirt"),
    (
        "Mask Builder (edges)",
        "Edge Wear",
        "library:mask_edge_wear",
    ),
    ("Glow", "Glow", "library:glow"),
    ("Auto Contrast", "", "library:auto_contrast"),
    (
        "Multi Directional Warp",
        "",
        "library:multi_directional_warp",
    ),
    ("Bitmap", "Image", "image"),
    ("Input Color", "Input", "graph_input"),
    ("Output", "Material / Output", "output"),
];

/// The search words that find node `id`.
pub fn words_for(id: &str) -> impl Iterator<Item = &'static str> + '_ {
    SEARCH_WORDS
        .iter()
        .filter(move |(_, ids)| ids.contains(&id))
        .map(|(word, _)| *word)
}

/// Every (word, id) a search matches against, the words lower case: [`SEARCH_WORDS`],
/// then both names of each row of [`OTHER_TOOLS`].
pub fn all_words() -> impl Iterator<Item = (String, &'static str)> {
    let words = SEARCH_WORDS
        .iter()
        .flat_map(|(word, ids)| ids.iter().map(|id| ((*word).to_owned(), *id)));
    let names = OTHER_TOOLS.iter().flat_map(|(substance, maker, id)| {
        [substance, maker]
            .into_iter()
            .filter(|name| !name.is_empty())
            .map(|name| (name.to_lowercase(), *id))
    });
    words.chain(names)
}

/// The ids the table names that are neither a node type nor a built-in library graph
/// (`library:NAME`): none, when the table is right.
pub fn unknown_ids() -> Vec<&'static str> {
    SEARCH_WORDS
        .iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .chain(OTHER_TOOLS.iter().map(|(_, _, id)| *id))
        .filter(|id| match id.strip_prefix(crate::library::PREFIX) {
            Some(name) => crate::library::text(name).is_none(),
            None => !NODES.iter().any(|d| d.id == *id),
        })
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
