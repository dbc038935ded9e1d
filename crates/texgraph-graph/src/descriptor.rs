//! What a node type is: a static [`NodeDescriptor`] with its ports, params and compile
//! function, and the helpers family files build them with. The table of every node type
//! is `registry.rs`, above the families.

use crate::compile::node_ctx::{NodeCtx, Val};
use std::collections::BTreeMap;

use crate::graph::{CurvePoint, GradientStop, ParamValue};
use texgraph_base::error::GraphError;

/// How a node type's outputs are computed from its params and inputs.
pub type CompileFn = fn(&mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError>;

/// Everything the program knows about one node type.
pub struct NodeDescriptor {
    /// Stable id used in files (`"perlin"`).
    pub id: &'static str,
    /// Name shown in the editor.
    pub label: &'static str,
    /// Palette group.
    pub category: Category,
    /// One-line description of what the node computes.
    pub doc: &'static str,
    /// Input ports other than the float params (which are inputs too).
    pub inputs: &'static [InputPort],
    /// Output ports; the first is the one a bare `"node_id"` reference means.
    pub outputs: &'static [OutputPort],
    /// Params, in inspector order.
    pub params: &'static [Param],
    /// Emits the node's operations.
    pub compile: CompileFn,
}

impl NodeDescriptor {
    /// The param called `name`.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The explicit input port called `name`.
    pub fn input(&self, name: &str) -> Option<&'static InputPort> {
        self.inputs.iter().find(|p| p.name == name)
    }

    /// The output port called `name`.
    pub fn output(&self, name: &str) -> Option<&'static OutputPort> {
        self.outputs.iter().find(|p| p.name == name)
    }

    /// Whether param `name` sets the slider of another param: `NAME_name` (its label),
    /// `NAME_min` and `NAME_max` (its range) for a float param `NAME`, as the formula
    /// node's `p1_name`, `p1_min` and `p1_max` do for `p1`.
    pub fn sets_slider(&self, name: &str) -> bool {
        SLIDER_SETTINGS.iter().any(|suffix| {
            name.strip_suffix(suffix).is_some_and(|base| {
                matches!(
                    self.param(base).map(|p| p.kind),
                    Some(ParamKind::Float { .. })
                )
            })
        })
    }

    /// How float param `name` is shown with the node's `params`: the label and range its
    /// slider settings give ([`NodeDescriptor::sets_slider`]), else its name and range.
    /// `None` for a param that is not a float.
    pub fn slider(&self, name: &str, params: &BTreeMap<String, ParamValue>) -> Option<Slider> {
        let ParamKind::Float { min, max, .. } = self.param(name)?.kind else {
            return None;
        };
        let setting = |suffix: &str| {
            let key = format!("{name}{suffix}");
            let declared = self.param(&key)?;
            Some(
                params
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| declared.kind.default_value()),
            )
        };
        let label = match setting("_name") {
            Some(ParamValue::Text(label)) if !label.trim().is_empty() => label.trim().to_owned(),
            _ => name.to_owned(),
        };
        let bound = |suffix: &str, fallback: f32| match setting(suffix) {
            Some(ParamValue::Number(v)) => v as f32,
            _ => fallback,
        };
        let (low, high) = (bound("_min", min), bound("_max", max));
        // A range typed backwards still makes a slider.
        Some(Slider {
            label,
            min: low.min(high).max(min),
            max: high.max(low).min(max),
        })
    }

    /// Every port a connection may target: the explicit inputs, then one scalar socket
    /// per float param.
    pub fn connectable_inputs(&self) -> impl Iterator<Item = (&'static str, PortType)> {
        self.inputs.iter().map(|p| (p.name, p.ty)).chain(
            self.params
                .iter()
                .filter(|p| matches!(p.kind, ParamKind::Float { .. }))
                .map(|p| (p.name, PortType::Scalar)),
        )
    }
}

/// What follows a float param's name in the params that set its slider.
const SLIDER_SETTINGS: [&str; 3] = ["_name", "_min", "_max"];

/// A float param's slider as the inspector shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Slider {
    /// Shown beside it.
    pub label: String,
    /// Its left end.
    pub min: f32,
    /// Its right end.
    pub max: f32,
}

/// Palette groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Lattice noises.
    Noise,
    /// Octave sums of a noise or of any subgraph.
    Fractal,
    /// Regular patterns.
    Pattern,
    /// Nodes that move the sample position.
    Coordinates,
    /// Value and color adjustments.
    Adjust,
    /// Channels, conversions and ranges.
    Color,
    /// Nodes that combine two inputs.
    Combine,
    /// Neighbourhood filters and buffers: nodes whose input is computed over the whole
    /// image first.
    Filter,
    /// Masks of shapes made into material maps: distances, bevels, flood fills, value
    /// ranges.
    Mask,
    /// Material maps from heights and normal maps: occlusion, curvature, layer blends.
    Material,
    /// Heightfield simulations: erosion.
    Terrain,
    /// Constants, images and graph values.
    Input,
    /// Graph outputs.
    Output,
}

impl Category {
    /// Display name.
    pub fn label(self) -> &'static str {
        match self {
            Category::Noise => "Noise",
            Category::Fractal => "Fractal",
            Category::Pattern => "Pattern",
            Category::Coordinates => "Coordinates",
            Category::Adjust => "Adjust",
            Category::Color => "Color",
            Category::Combine => "Combine",
            Category::Filter => "Filter",
            Category::Mask => "Mask",
            Category::Material => "Material",
            Category::Terrain => "Terrain",
            Category::Input => "Input",
            Category::Output => "Output",
        }
    }
}

/// What an input port accepts. Scalars and colors convert into each other implicitly
/// (color → Rec.709 luminance, scalar → opaque gray), so the type says what the node
/// computes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortType {
    /// One channel.
    Scalar,
    /// RGBA.
    Color,
    /// Either; the node keeps color if any such input is a color.
    Any,
}

/// An input port.
pub struct InputPort {
    /// Port name used in `inputs`.
    pub name: &'static str,
    /// What it computes with.
    pub ty: PortType,
    /// What the node reads while nothing is connected to it.
    pub unconnected: Unconnected,
    /// What it does (and, when [`Unconnected::NodeDecides`], its meaning unconnected).
    pub doc: &'static str,
}

impl InputPort {
    /// Whether the node cannot render while the port is open.
    pub fn required(&self) -> bool {
        self.unconnected == Unconnected::MustConnect
    }
}

/// What an input port gives its node while nothing is connected to it. A half-wired
/// graph keeps rendering, as in other material editors: only an `output` node's input
/// must be connected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unconnected {
    /// A meaning of the node's own, which the port's doc states ("unconnected means no
    /// distortion").
    NodeDecides,
    /// This constant, as if a uniform value were wired in; validation warns.
    Reads(OpenValue),
    /// Nothing: the node cannot render until something is connected.
    MustConnect,
}

/// The constant an open input reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpenValue {
    /// One channel (opaque gray where the node reads a color).
    Gray(f32),
    /// Red, green, blue, alpha.
    Rgba([f32; 4]),
}

impl OpenValue {
    /// 0: black, the lowest height, an empty mask.
    pub const BLACK: OpenValue = OpenValue::Gray(0.0);
    /// 1: white, the full amount.
    pub const WHITE: OpenValue = OpenValue::Gray(1.0);
    /// A normal map's straight-up normal, (0.5, 0.5, 1) opaque.
    pub const FLAT_NORMAL: OpenValue = OpenValue::Rgba([0.5, 0.5, 1.0, 1.0]);

    /// The value in words, as warnings, docs and the canvas print it.
    pub fn describe(&self) -> String {
        match *self {
            OpenValue::Gray(v) => format!("{v}"),
            OpenValue::FLAT_NORMAL => "a flat normal (0.5, 0.5, 1)".to_owned(),
            OpenValue::Rgba([r, g, b, a]) => format!("({r}, {g}, {b}, {a})"),
        }
    }
}

/// The type of an output port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputType {
    /// One channel.
    Scalar,
    /// RGBA.
    Color,
    /// Color if any [`PortType::Any`] input is a color, else scalar.
    FollowsInputs,
    /// Scalar or color, as the node's `type` param says.
    ByParam,
    /// Scalar or color, as the type of the node's formula says.
    ByExpression,
}

/// An output port.
pub struct OutputPort {
    /// Port name used in `"node_id.port"` references.
    pub name: &'static str,
    /// Its type.
    pub ty: OutputType,
    /// What it carries.
    pub doc: &'static str,
}

/// A param of a node type.
pub struct Param {
    /// Key in the node's `params`.
    pub name: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Type, default and range.
    pub kind: ParamKind,
}

/// Type, default and range of a param.
#[derive(Debug, Clone, Copy)]
pub enum ParamKind {
    /// A float, also an input socket of the same name (connected → per-pixel value).
    Float {
        /// Value when absent.
        default: f32,
        /// Smallest accepted value.
        min: f32,
        /// Largest accepted value.
        max: f32,
    },
    /// A float that is a setting, not an input: no socket (a slider's range).
    Number {
        /// Value when absent.
        default: f32,
        /// Smallest accepted value.
        min: f32,
        /// Largest accepted value.
        max: f32,
    },
    /// An integer.
    Int {
        /// Value when absent.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// One of a fixed list of words.
    Choice {
        /// Value when absent.
        default: &'static str,
        /// Accepted values.
        options: &'static [&'static str],
    },
    /// A color written `#rrggbb` or `#rrggbbaa`.
    Color {
        /// Value when absent.
        default: &'static str,
    },
    /// Free text.
    Text {
        /// Value when absent.
        default: &'static str,
    },
    /// A formula in texgraph's expression language ([`crate::formula`], docs/formula.md),
    /// checked when the graph is validated.
    Formula {
        /// Value when absent.
        default: &'static str,
    },
    /// A file path, relative to the graph file's folder (or absolute).
    File {
        /// Value when absent.
        default: &'static str,
    },
    /// `true` or `false`.
    Bool {
        /// Value when absent.
        default: bool,
    },
    /// The stops of a color ramp, at least one.
    Stops {
        /// Value when absent, as (position, color).
        default: &'static [(f32, &'static str)],
    },
    /// The points of a curve, 2 to [`MAX_CURVE_POINTS`].
    Points {
        /// Value when absent, as (x, y).
        default: &'static [(f32, f32)],
    },
}

/// The most points a curve may have.
pub const MAX_CURVE_POINTS: usize = 64;

impl ParamKind {
    /// The default as a file would hold it.
    pub fn default_value(&self) -> ParamValue {
        match *self {
            ParamKind::Float { default, .. } | ParamKind::Number { default, .. } => {
                ParamValue::Number(f64::from(default))
            }
            ParamKind::Int { default, .. } => ParamValue::Number(default as f64),
            ParamKind::Choice { default, .. }
            | ParamKind::Color { default }
            | ParamKind::Text { default }
            | ParamKind::Formula { default }
            | ParamKind::File { default } => ParamValue::Text(default.to_owned()),
            ParamKind::Bool { default } => ParamValue::Bool(default),
            ParamKind::Stops { default } => ParamValue::Stops(
                default
                    .iter()
                    .map(|&(pos, color)| GradientStop {
                        pos: f64::from(pos),
                        color: color.to_owned(),
                    })
                    .collect(),
            ),
            ParamKind::Points { default } => ParamValue::Points(
                default
                    .iter()
                    .map(|&(x, y)| CurvePoint {
                        x: f64::from(x),
                        y: f64::from(y),
                    })
                    .collect(),
            ),
        }
    }

    /// The default written as it would appear in JSON (for docs and the inspector).
    pub fn default_text(&self) -> String {
        match self {
            ParamKind::Float { default, .. } | ParamKind::Number { default, .. } => {
                format!("{default}")
            }
            ParamKind::Int { default, .. } => format!("{default}"),
            ParamKind::Choice { default, .. }
            | ParamKind::Color { default }
            | ParamKind::Text { default }
            | ParamKind::Formula { default }
            | ParamKind::File { default } => format!("\"{default}\""),
            ParamKind::Bool { default } => format!("{default}"),
            ParamKind::Stops { default } => default
                .iter()
                .map(|(pos, color)| format!("{pos} {color}"))
                .collect::<Vec<_>>()
                .join(", "),
            ParamKind::Points { default } => default
                .iter()
                .map(|(x, y)| format!("({x}, {y})"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Short type name for docs.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamKind::Float { .. } | ParamKind::Number { .. } => "float",
            ParamKind::Int { .. } => "integer",
            ParamKind::Choice { .. } => "choice",
            ParamKind::Color { .. } => "color",
            ParamKind::Text { .. } => "text",
            ParamKind::Formula { .. } => "formula",
            ParamKind::File { .. } => "file",
            ParamKind::Bool { .. } => "boolean",
            ParamKind::Stops { .. } => "stops",
            ParamKind::Points { .. } => "points",
        }
    }
}

/// Shorthand for a float param in node family files.
pub const fn float(
    name: &'static str,
    default: f32,
    min: f32,
    max: f32,
    doc: &'static str,
) -> Param {
    Param {
        name,
        doc,
        kind: ParamKind::Float { default, min, max },
    }
}

/// The `angle` param of a node that works along a direction: degrees counterclockwise
/// from the right, 0 by default, ±360.
pub const fn angle(doc: &'static str) -> Param {
    float("angle", 0.0, -360.0, 360.0, doc)
}

/// Shorthand for a choice param in node family files.
pub const fn choice(
    name: &'static str,
    default: &'static str,
    options: &'static [&'static str],
    doc: &'static str,
) -> Param {
    Param {
        name,
        doc,
        kind: ParamKind::Choice { default, options },
    }
}

/// The `seed` param shared by every noise.
pub const SEED: Param = Param {
    name: "seed",
    doc: "Noise seed. 0 uses Ken Perlin's reference permutation; others a shuffle of it.",
    kind: ParamKind::Int {
        default: 0,
        min: 0,
        max: 2_147_483_647,
    },
};

/// The single scalar output most nodes have.
pub const SCALAR_OUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::Scalar,
    doc: "The computed value.",
}];

/// The single color output.
pub const COLOR_OUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::Color,
    doc: "The computed color.",
}];
