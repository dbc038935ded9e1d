//! Masks that select by value: `histogram_select` (a band of gray levels) and
//! `color_to_mask` (the colors near one color).

use crate::compile::node_ctx::Val;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, Param, ParamKind, PortType, SCALAR_OUT,
    Unconnected, float,
};
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// The smallest falloff width: a hard edge without dividing by zero.
const HARD: f32 = 1e-6;

/// `histogram_select`: a band of gray levels.
pub static HISTOGRAM_SELECT: NodeDescriptor = NodeDescriptor {
    id: "histogram_select",
    label: "Histogram Select",
    category: Category::Mask,
    doc: "White where the input is near `position`, black where it is `range` or more away: \
          clamp((range − |x − position|) / (range·(1 − contrast)), 0, 1). At contrast 0 the \
          mask peaks at `position` and falls straight to 0; at 1 it is a hard band of width \
          2·range. Selects a band of heights, a tone of a grunge, one step of a quantized map.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The gray levels to select from.",
    }],
    outputs: SCALAR_OUT,
    params: &[
        float("position", 0.5, 0.0, 1.0, "The gray level selected."),
        float(
            "range",
            0.25,
            0.0,
            1.0,
            "How far from `position` values are still selected.",
        ),
        float(
            "contrast",
            0.0,
            0.0,
            1.0,
            "Hardness of the band's edges: 0 soft, 1 hard.",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let x = ctx.scalar(input)?;
        let (position, range) = (ctx.float("position")?, ctx.float("range")?);
        let contrast = ctx.float("contrast")?;
        let d = ctx.emit(Op::Binary(Binary::Subtract, x, position))?;
        let d = ctx.emit(Op::Unary(Unary::Abs, d))?;
        let inside = ctx.emit(Op::Binary(Binary::Subtract, range, d))?;
        let soft = ctx.emit(Op::Unary(Unary::Invert, contrast))?;
        let width = ctx.emit(Op::Binary(Binary::Multiply, range, soft))?;
        let width = ctx.emit(Op::Binary(Binary::Max, width, Operand::Const(HARD)))?;
        let t = ctx.emit(Op::Binary(Binary::Divide, inside, width))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::Clamp01, t))?)])
    },
};

/// `color_to_mask`: the colors near one color.
pub static COLOR_TO_MASK: NodeDescriptor = NodeDescriptor {
    id: "color_to_mask",
    label: "Color to Mask",
    category: Category::Mask,
    doc: "White where the input's color is within `range` of `color`, fading to black over \
          `softness` further: clamp((range + softness − d) / softness, 0, 1), d the distance \
          between the two colors' r, g, b (0 for the same color, sqrt(3) for black to white). Picks \
          one material of an ID map, one color of a flood fill's random colors.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Color,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The colors to select from.",
    }],
    outputs: SCALAR_OUT,
    params: &[
        Param {
            name: "color",
            doc: "The color selected, #rrggbb.",
            kind: ParamKind::Color { default: "#ff0000" },
        },
        float(
            "range",
            0.1,
            0.0,
            1.0,
            "How far from `color` (in r, g, b) colors are fully selected.",
        ),
        float(
            "softness",
            0.05,
            0.0,
            1.0,
            "How far beyond `range` the mask fades to black (0: a hard edge).",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let [r, g, b, _] = ctx.rgba(input);
        let want = ctx.color("color");
        let (range, softness) = (ctx.float("range")?, ctx.float("softness")?);
        let mut squared = Operand::Const(0.0);
        for (channel, target) in [r, g, b].into_iter().zip(want) {
            let d = ctx.emit(Op::Binary(
                Binary::Subtract,
                channel,
                Operand::Const(target),
            ))?;
            squared = ctx.emit(Op::MulAdd(d, d, squared))?;
        }
        let distance = ctx.emit(Op::Unary(Unary::Sqrt, squared))?;
        let reach = ctx.emit(Op::Binary(Binary::Add, range, softness))?;
        let inside = ctx.emit(Op::Binary(Binary::Subtract, reach, distance))?;
        let width = ctx.emit(Op::Binary(Binary::Max, softness, Operand::Const(HARD)))?;
        let t = ctx.emit(Op::Binary(Binary::Divide, inside, width))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::Clamp01, t))?)])
    },
};
