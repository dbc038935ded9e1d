//! What a formula may name: its variables and its functions, with the words the docs and
//! the editor's help print for them.

use texgraph_engine::program::{Binary, Unary};

/// A value the node provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variable {
    /// Texture coordinate across, 0 to 1.
    U,
    /// Texture coordinate down, 0 to 1.
    V,
    /// Width of the image in pixels.
    Width,
    /// Height of the image in pixels.
    Height,
    /// The graph's time.
    Time,
    /// Input `a`…`d` (0…3).
    Input(usize),
    /// Param `p1`…`p4` (0…3).
    Param(usize),
}

/// A variable's name, what it is, and what it is in words.
pub struct VariableInfo {
    /// As written.
    pub name: &'static str,
    /// What it reads, or `None` for a constant or a derived value (`x`, `y`, `pi`, `tau`).
    pub variable: Option<Variable>,
    /// One line for the docs and the editor's help.
    pub doc: &'static str,
}

/// Every variable, in the order the help lists them.
pub const VARIABLES: &[VariableInfo] = &[
    var(
        "u",
        Some(Variable::U),
        "texture coordinate across, 0 at the left edge, 1 at the right",
    ),
    var(
        "v",
        Some(Variable::V),
        "texture coordinate down, 0 at the top, 1 at the bottom",
    ),
    var(
        "x",
        None,
        "pixel position across: u · width (pixel centres are at .5)",
    ),
    var("y", None, "pixel position down: v · height"),
    var(
        "width",
        Some(Variable::Width),
        "the image's width in pixels",
    ),
    var(
        "height",
        Some(Variable::Height),
        "the image's height in pixels",
    ),
    var(
        "time",
        Some(Variable::Time),
        "the graph's time (for animation)",
    ),
    var(
        "a",
        Some(Variable::Input(0)),
        "input a: a number, or a vec4 (r, g, b, a) when a color is connected; 0 when open",
    ),
    var("b", Some(Variable::Input(1)), "input b, as a"),
    var("c", Some(Variable::Input(2)), "input c, as a"),
    var("d", Some(Variable::Input(3)), "input d, as a"),
    var(
        "p1",
        Some(Variable::Param(0)),
        "param p1 (a slider, or what is connected to it)",
    ),
    var("p2", Some(Variable::Param(1)), "param p2"),
    var("p3", Some(Variable::Param(2)), "param p3"),
    var("p4", Some(Variable::Param(3)), "param p4"),
    var("pi", None, "π, 3.14159…"),
    var("tau", None, "2π, a whole turn in radians"),
];

const fn var(name: &'static str, variable: Option<Variable>, doc: &'static str) -> VariableInfo {
    VariableInfo {
        name,
        variable,
        doc,
    }
}

/// How a function is lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lowering {
    /// f(x) of each component.
    Each(Unary),
    /// f(x, y) of each pair of components.
    Pair(Binary),
    /// `atan(y)` or `atan(y, x)`.
    Atan,
    /// `step(edge, x)`.
    Step,
    /// `clamp(x, low, high)`.
    Clamp,
    /// `mix(a, b, t)`.
    Mix,
    /// `smoothstep(edge0, edge1, x)`.
    Smoothstep,
    /// `if(condition, a, b)`.
    If,
    /// `length(v)`.
    Length,
    /// `distance(a, b)`.
    Distance,
    /// `dot(a, b)`.
    Dot,
    /// `normalize(v)`.
    Normalize,
    /// `radians(degrees)` (true) or `degrees(radians)`.
    Angle(bool),
    /// `vec2`, `vec3`, `vec4`.
    Vector(usize),
    /// A noise at a position.
    Noise(Noise),
}

/// The noises a formula can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Noise {
    /// Improved Perlin noise in [0, 1], as the `perlin` node.
    Perlin,
    /// Simplex noise in [0, 1], as the `simplex` node.
    Simplex,
    /// Value noise in [0, 1] (quintic), as the `value` node.
    Value,
    /// Distance to the nearest cell point, in cells, as `cellular`'s f1.
    Cellular,
    /// Distance to the nearest cell border, in cells, as `cellular`'s edge.
    CellularEdge,
    /// A random value in [0, 1] per cell, as `cellular`'s cell_value.
    CellularId,
    /// A random value in [0, 1) per whole-number cell ⌊p⌋.
    Random,
}

/// A function: its name, how many arguments it takes, its signature and doc for the
/// help, and how it is lowered.
pub struct Function {
    /// As written.
    pub name: &'static str,
    /// Fewest arguments.
    pub min_args: usize,
    /// Most arguments.
    pub max_args: usize,
    /// Its arguments as the help shows them, `(x, low, high)`.
    pub signature: &'static str,
    /// One line for the docs and the editor's help.
    pub doc: &'static str,
    /// How it becomes operations.
    pub lowering: Lowering,
}

const fn f(
    name: &'static str,
    args: (usize, usize),
    signature: &'static str,
    doc: &'static str,
    lowering: Lowering,
) -> Function {
    Function {
        name,
        min_args: args.0,
        max_args: args.1,
        signature,
        doc,
        lowering,
    }
}

use Lowering::{Each, Pair};

/// Every function, in the order the help lists them.
pub const FUNCTIONS: &[Function] = &[
    f("abs", (1, 1), "(x)", "|x|", Each(Unary::Abs)),
    f("sign", (1, 1), "(x)", "1, −1 or 0", Each(Unary::Sign)),
    f(
        "floor",
        (1, 1),
        "(x)",
        "the whole number at or below x",
        Each(Unary::Floor),
    ),
    f(
        "ceil",
        (1, 1),
        "(x)",
        "the whole number at or above x",
        Each(Unary::Ceil),
    ),
    f(
        "round",
        (1, 1),
        "(x)",
        "the nearest whole number, halves away from 0",
        Each(Unary::Round),
    ),
    f("fract", (1, 1), "(x)", "x − floor(x)", Each(Unary::Fract)),
    f(
        "mod",
        (2, 2),
        "(x, y)",
        "x − y·floor(x/y), as GLSL; 0 where y is 0",
        Pair(Binary::Mod),
    ),
    f("min", (2, 2), "(x, y)", "the smaller", Pair(Binary::Min)),
    f("max", (2, 2), "(x, y)", "the larger", Pair(Binary::Max)),
    f(
        "clamp",
        (3, 3),
        "(x, low, high)",
        "min(max(x, low), high)",
        Lowering::Clamp,
    ),
    f(
        "saturate",
        (1, 1),
        "(x)",
        "clamp(x, 0, 1)",
        Each(Unary::Clamp01),
    ),
    f("mix", (3, 3), "(a, b, t)", "a + (b − a)·t", Lowering::Mix),
    f(
        "step",
        (2, 2),
        "(edge, x)",
        "0 below edge, 1 from it on",
        Lowering::Step,
    ),
    f(
        "smoothstep",
        (3, 3),
        "(edge0, edge1, x)",
        "0 to 1 smoothly from edge0 to edge1",
        Lowering::Smoothstep,
    ),
    f(
        "if",
        (3, 3),
        "(condition, a, b)",
        "a where condition is not 0, else b",
        Lowering::If,
    ),
    f("sqrt", (1, 1), "(x)", "√x; 0 for x ≤ 0", Each(Unary::Sqrt)),
    f(
        "pow",
        (2, 2),
        "(x, y)",
        "x^y for x ≥ 0; negative x counts as 0",
        Pair(Binary::Power),
    ),
    f("exp", (1, 1), "(x)", "eˣ", Each(Unary::Exp)),
    f(
        "log",
        (1, 1),
        "(x)",
        "natural logarithm; −87.34 for x ≤ 0",
        Each(Unary::Log),
    ),
    f("sin", (1, 1), "(x)", "sine, x in radians", Each(Unary::Sin)),
    f(
        "cos",
        (1, 1),
        "(x)",
        "cosine, x in radians",
        Each(Unary::Cos),
    ),
    f(
        "tan",
        (1, 1),
        "(x)",
        "tangent, x in radians",
        Each(Unary::Tan),
    ),
    f(
        "asin",
        (1, 1),
        "(x)",
        "arcsine in radians; x clamped to [−1, 1]",
        Each(Unary::Asin),
    ),
    f(
        "acos",
        (1, 1),
        "(x)",
        "arccosine in radians; x clamped to [−1, 1]",
        Each(Unary::Acos),
    ),
    f(
        "atan",
        (1, 2),
        "(y) or (y, x)",
        "arctangent in radians; with two arguments the angle of (x, y), as atan2",
        Lowering::Atan,
    ),
    f(
        "atan2",
        (2, 2),
        "(y, x)",
        "the angle of the point (x, y) in radians, −π to π",
        Pair(Binary::Atan2),
    ),
    f(
        "radians",
        (1, 1),
        "(degrees)",
        "degrees to radians",
        Lowering::Angle(true),
    ),
    f(
        "degrees",
        (1, 1),
        "(radians)",
        "radians to degrees",
        Lowering::Angle(false),
    ),
    f(
        "length",
        (1, 1),
        "(v)",
        "the length of a vector",
        Lowering::Length,
    ),
    f(
        "distance",
        (2, 2),
        "(p, q)",
        "length(p − q)",
        Lowering::Distance,
    ),
    f("dot", (2, 2), "(p, q)", "the dot product", Lowering::Dot),
    f(
        "normalize",
        (1, 1),
        "(v)",
        "v / length(v); 0 for a zero vector",
        Lowering::Normalize,
    ),
    f(
        "vec2",
        (1, 2),
        "(x, y)",
        "a 2-vector; one number fills both",
        Lowering::Vector(2),
    ),
    f(
        "vec3",
        (1, 3),
        "(x, y, z)",
        "a 3-vector from numbers and vectors; one number fills all",
        Lowering::Vector(3),
    ),
    f(
        "vec4",
        (1, 4),
        "(x, y, z, w)",
        "a 4-vector (a color: r, g, b, a); one number fills all",
        Lowering::Vector(4),
    ),
    f(
        "perlin",
        (3, 3),
        "(p, frequency, seed)",
        "Perlin noise in [0, 1] at a vec2 or vec3 p, as the perlin node",
        Lowering::Noise(Noise::Perlin),
    ),
    f(
        "simplex",
        (3, 3),
        "(p, frequency, seed)",
        "simplex noise in [0, 1] at a vec2 or vec3 p",
        Lowering::Noise(Noise::Simplex),
    ),
    f(
        "value",
        (3, 3),
        "(p, frequency, seed)",
        "value noise in [0, 1] at a vec2 p",
        Lowering::Noise(Noise::Value),
    ),
    f(
        "cellular",
        (3, 3),
        "(p, frequency, seed)",
        "distance to the nearest cell point, in cells (0 at a point)",
        Lowering::Noise(Noise::Cellular),
    ),
    f(
        "cellular_edge",
        (3, 3),
        "(p, frequency, seed)",
        "distance to the nearest border between cells, in cells",
        Lowering::Noise(Noise::CellularEdge),
    ),
    f(
        "cellular_id",
        (3, 3),
        "(p, frequency, seed)",
        "a random value in [0, 1] per cell, the same inside it",
        Lowering::Noise(Noise::CellularId),
    ),
    f(
        "random",
        (2, 2),
        "(p, seed)",
        "a random value in [0, 1) for the whole-number cell floor(p) of a vec2 p",
        Lowering::Noise(Noise::Random),
    ),
];

/// The function called `name`.
pub fn function(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The variable called `name`.
pub fn variable(name: &str) -> Option<&'static VariableInfo> {
    VARIABLES.iter().find(|v| v.name == name)
}

/// The name in `known` closest to `name`, if it is close enough to be a slip of the
/// fingers (at most two edits, and fewer than the name's own length).
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    known
        .map(|k| (strsim::levenshtein(name, k), k))
        .filter(|&(d, k)| d <= 2 && d < name.len().max(k.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}
