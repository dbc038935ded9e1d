//! The node registry: one static descriptor per node type. Validation, the compiler,
//! `texgraph nodes`, docs/nodes.md and the editor's palette and inspector all read it.

use crate::nodes;

// The descriptor's vocabulary, where the front ends have always found it.
pub use crate::descriptor::{
    COLOR_OUT, Category, CompileFn, InputPort, MAX_CURVE_POINTS, NodeDescriptor, OpenValue,
    OutputPort, OutputType, Param, ParamKind, PortType, SCALAR_OUT, SEED, Unconnected, angle,
    choice, float,
};

/// Every node type, in palette order. Adding a node: write it in its family file and
/// add one line here.
pub static NODES: &[&NodeDescriptor] = &[
    &nodes::noise::PERLIN,
    &nodes::noise::SIMPLEX,
    &nodes::noise::VALUE,
    &nodes::noise::WHITE_NOISE,
    &nodes::noise::CELLULAR,
    &nodes::fractal::FBM,
    &nodes::fractal::RIDGED,
    &nodes::fractal::TURBULENCE,
    &nodes::pattern::WAVE,
    &nodes::pattern::CHECKER,
    &nodes::pattern::SHAPE,
    &nodes::pattern::BRICKS,
    &nodes::scatter::SCATTER,
    &nodes::coordinates::COORDS,
    &nodes::coordinates::TRANSFORM,
    &nodes::coordinates::WARP,
    &nodes::coordinates::DIRECTIONAL_WARP,
    &nodes::tiling::MAKE_IT_TILE,
    &nodes::adjust::LEVELS,
    &nodes::adjust::CURVE,
    &nodes::adjust::GRADIENT,
    &nodes::color::SPLIT,
    &nodes::color::MERGE,
    &nodes::color::GRAYSCALE,
    &nodes::color::HSL,
    &nodes::color::THRESHOLD,
    &nodes::color::REMAP,
    &nodes::color::QUANTIZE,
    &nodes::combine::BLEND,
    &nodes::combine::MATH,
    &nodes::filter::BUFFER,
    &nodes::filter::BLUR,
    &nodes::filter::SHARPEN,
    &nodes::filter::NORMAL,
    &nodes::filter::EMBOSS,
    &nodes::filter::EDGE_DETECT,
    &nodes::filter::SLOPE_BLUR,
    &nodes::smear::NON_UNIFORM_BLUR,
    &nodes::smear::DIRECTIONAL_BLUR,
    &nodes::mask::DISTANCE,
    &nodes::mask::BEVEL,
    &nodes::flood::FLOOD_FILL,
    &nodes::flood::FILL_TO_RANDOM,
    &nodes::flood::FILL_TO_COLOR,
    &nodes::flood::FILL_TO_GRADIENT,
    &nodes::flood::FILL_TO_BBOX_SIZE,
    &nodes::flood::FILL_TO_POSITION,
    &nodes::flood::FILL_TO_INDEX,
    &nodes::histogram::HISTOGRAM_SCAN,
    &nodes::histogram::HISTOGRAM_RANGE,
    &nodes::histogram::HISTOGRAM_SHIFT,
    &nodes::material::AMBIENT_OCCLUSION,
    &nodes::material::CURVATURE,
    &nodes::material::NORMAL_BLEND,
    &nodes::material::HEIGHT_BLEND,
    &nodes::bitmap::IMAGE,
    &nodes::input::CONSTANT,
    &nodes::input::COLOR,
    &nodes::input::TIME,
    &nodes::input::GRAPH_INPUT,
    &nodes::input::OUTPUT,
];

/// The descriptor of node type `id`.
pub fn lookup(id: &str) -> Option<&'static NodeDescriptor> {
    NODES.iter().copied().find(|d| d.id == id)
}
