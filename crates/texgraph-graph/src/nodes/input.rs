//! Sources of plain values and the graph's ends: `constant`, `color`, `uniform`, `time`,
//! `graph_input` and `output`.

use crate::compile::node_ctx::Val;
use crate::descriptor::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, OutputPort, OutputType, Param, ParamKind,
    PortType, SCALAR_OUT, Unconnected, choice, float,
};
use texgraph_engine::program::Operand;
use texgraph_engine::usage::Usage;

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

/// `uniform`: a gray or color constant, under the name Substance users know.
pub static UNIFORM: NodeDescriptor = NodeDescriptor {
    id: "uniform",
    label: "Uniform Color",
    category: Category::Input,
    doc: "The same value everywhere: a gray level (`value`) or a color (`color`), as `type` \
          says. `constant` and `color` do the same, one kind each.",
    inputs: &[],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::ByParam,
        doc: "The value or the color.",
    }],
    params: &[
        choice(
            "type",
            "color",
            &["scalar", "color"],
            "A gray level (one channel) or a color.",
        ),
        float(
            "value",
            0.5,
            -1e6,
            1e6,
            "The gray level, when `type` is scalar.",
        ),
        Param {
            name: "color",
            doc: "The color, #rrggbb or #rrggbbaa, when `type` is color.",
            kind: ParamKind::Color { default: "#808080" },
        },
    ],
    compile: |ctx| {
        Ok(vec![if ctx.text("type") == "color" {
            Val::Color(ctx.color("color").map(Operand::Const))
        } else {
            Val::Scalar(ctx.float("value")?)
        }])
    },
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

/// `graph_input`: an input of the graph when another graph uses it as a subgraph.
pub static GRAPH_INPUT: NodeDescriptor = NodeDescriptor {
    id: "graph_input",
    label: "Graph input",
    category: Category::Input,
    doc: "An input of this graph when another graph uses it as a subgraph: the `graph` node \
          there gets an input port called `name`, and what is connected to it flows out of \
          here. Unconnected there, or when this graph renders on its own, it gives its \
          default: `default` for a scalar, `default_color` for a color.",
    inputs: &[],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::ByParam,
        doc: "The connected value, or the default.",
    }],
    params: &[
        Param {
            name: "name",
            doc: "The port's name on the including graph node, unique among this graph's \
                  inputs (letters, digits, '_' and '-').",
            kind: ParamKind::Text { default: "input" },
        },
        choice(
            "type",
            "scalar",
            &["scalar", "color"],
            "What the port carries (either converts into the other, as everywhere).",
        ),
        float(
            "default",
            0.5,
            -1e6,
            1e6,
            "The value of a scalar input left unconnected.",
        ),
        Param {
            name: "default_color",
            doc: "The value of a color input left unconnected, #rrggbb or #rrggbbaa.",
            kind: ParamKind::Color { default: "#808080" },
        },
    ],
    compile: |ctx| {
        Ok(vec![if ctx.text("type") == "color" {
            Val::Color(ctx.color("default_color").map(Operand::Const))
        } else {
            Val::Scalar(ctx.float("default")?)
        }])
    },
};

/// `output`: a named result of the graph.
pub static OUTPUT: NodeDescriptor = NodeDescriptor {
    id: "output",
    label: "Output",
    category: Category::Output,
    doc: "A named result of the graph, written as grayscale or RGBA after what feeds it. \
          `texgraph render` writes the first output unless told otherwise. Its `usage` says \
          which map of a material it is: basecolor and emissive are sRGB-encoded colors \
          (a scalar becomes gray), normal a color, the others one channel of linear data; \
          `color` writes whatever feeds it, as rendered.",
    inputs: &[InputPort {
        name: "color",
        ty: PortType::Any,
        unconnected: Unconnected::MustConnect,
        doc: "The value to write.",
    }],
    outputs: &[],
    params: &[
        Param {
            name: "name",
            doc: "Output name, unique in the graph (letters, digits, '_' and '-'), e.g. basecolor, height.",
            kind: ParamKind::Text {
                default: crate::graph::DEFAULT_OUTPUT_NAME,
            },
        },
        choice(
            "usage",
            "color",
            &Usage::IDS,
            "The map's role in a material, unique in the graph: how it is stored and which \
             slot of an engine preset it fills.",
        ),
    ],
    // Yields its input, shaped by the usage, so that compiling an output gives the value
    // to write.
    compile: |ctx| {
        let value = ctx
            .input("color")?
            .expect("an open color reads its default");
        let usage = Usage::parse(ctx.text("usage")).unwrap_or(Usage::Color);
        match (usage.channels(), value) {
            (None, value) | (Some(4), value @ Val::Color(_)) => Ok(vec![value]),
            (Some(1), value @ Val::Scalar(_)) => Ok(vec![value]),
            (Some(4), Val::Scalar(_)) if usage == Usage::Normal => Err(ctx.error(
                "usage",
                "a normal map is a color, but a single channel feeds it (a height? \
                 connect it through a 'normal' node)",
            )),
            (Some(4), Val::Scalar(_)) if usage == Usage::Splat => Err(ctx.error(
                "usage",
                "a splat map holds four layers' weights in R, G, B and A, but a single                  channel feeds it (build it with 'merge' or the 'terrain_splat' library                  graph)",
            )),
            (Some(4), Val::Scalar(gray)) => {
                Ok(vec![Val::Color([gray, gray, gray, Operand::Const(1.0)])])
            }
            (_, Val::Color(_)) => Err(ctx.error(
                "usage",
                format!(
                    "{} is one channel, but a color feeds it (take one channel with \
                     'split' or 'grayscale')",
                    usage.id()
                ),
            )),
            (Some(_), Val::Scalar(_)) => unreachable!("usages have 1 or 4 channels"),
        }
    },
};
