//! Sources of plain values and the graph's outputs: `constant`, `color`, `time`, `output`.

use crate::compile::Val;
use crate::program::Operand;
use crate::registry::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, Param, ParamKind, PortType, SCALAR_OUT, float,
};

/// `constant`: one number everywhere.
pub static CONSTANT: NodeDescriptor = NodeDescriptor {
    id: "constant",
    label: "Constant",
    category: Category::Input,
    doc: "The same scalar everywhere.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[float("value", 0.5, -1e6, 1e6, "The value.")],
    compile: |ctx| Ok(vec![Val::Scalar(ctx.float("value")?)]),
};

/// `color`: one color everywhere.
pub static COLOR: NodeDescriptor = NodeDescriptor {
    id: "color",
    label: "Color",
    category: Category::Input,
    doc: "The same color everywhere.",
    inputs: &[],
    outputs: COLOR_OUT,
    params: &[Param {
        name: "color",
        doc: "The color, #rrggbb or #rrggbbaa.",
        kind: ParamKind::Color { default: "#808080" },
    }],
    compile: |ctx| Ok(vec![Val::Color(ctx.color("color").map(Operand::Const))]),
};

/// `time`: the graph's time setting.
pub static TIME: NodeDescriptor = NodeDescriptor {
    id: "time",
    label: "Time",
    category: Category::Input,
    doc: "The graph's time (settings.time, or `texgraph render --time`), for animation.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[],
    compile: |ctx| Ok(vec![Val::Scalar(Operand::Const(ctx.time()))]),
};

/// `output`: a named result of the graph.
pub static OUTPUT: NodeDescriptor = NodeDescriptor {
    id: "output",
    label: "Output",
    category: Category::Output,
    doc: "A named result of the graph, written as grayscale or RGBA after what feeds it. \
          `texgraph render` writes the first output unless told otherwise.",
    inputs: &[InputPort {
        name: "color",
        ty: PortType::Any,
        required: true,
        doc: "The value to write.",
    }],
    outputs: &[],
    params: &[Param {
        name: "name",
        doc: "Output name, unique in the graph (letters, digits, '_' and '-'), e.g. basecolor, height.",
        kind: ParamKind::Text { default: "color" },
    }],
    // Yields its input so that compiling an output gives the value to write.
    compile: |ctx| Ok(vec![ctx.input("color")?.expect("color is required")]),
};
