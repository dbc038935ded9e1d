//! Substance-style masking tools defined on values: `histogram_scan`, `histogram_range`
//! and `histogram_shift`. Each is a small formula of its input and params (any of which
//! may be connected), built from the program's arithmetic.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, PortType, SCALAR_OUT, Unconnected, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

const INPUT: InputPort = InputPort {
    name: "input",
    ty: PortType::Scalar,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The values (a color is read as its luminance).",
};

/// `histogram_scan`: a threshold with a soft edge.
pub static HISTOGRAM_SCAN: NodeDescriptor = NodeDescriptor {
    id: "histogram_scan",
    label: "Histogram Scan",
    category: Category::Mask,
    doc: "Picks the top of the values as a mask: with m = 1 − position and r = (1 − \
          contrast)/2, out = clamp((x − (m − r)) / max(2r, 0.000001), 0, 1). Raising `position` \
          lets more of the image through (0: only values above 1, 1: everything above 0); \
          `contrast` 1 is a hard threshold at m (values above it give 1), 0 a ramp one unit \
          wide.",
    inputs: &[INPUT],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "position",
            0.5,
            0.0,
            1.0,
            "How much passes: 1 − the threshold.",
        ),
        float("contrast", 0.5, 0.0, 1.0, "Hardness of the edge: 1 a step."),
    ],
    compile: |ctx| {
        let x = input(ctx)?;
        let (position, contrast) = (ctx.float("position")?, ctx.float("contrast")?);
        let m = ctx.emit(Op::Unary(Unary::Invert, position))?;
        let r = ctx.emit(Op::MulAdd(
            contrast,
            Operand::Const(-0.5),
            Operand::Const(0.5),
        ))?;
        let low = ctx.emit(Op::Binary(Binary::Subtract, m, r))?;
        let width = ctx.emit(Op::MulAdd(r, Operand::Const(2.0), Operand::Const(0.0)))?;
        let width = ctx.emit(Op::Binary(Binary::Max, width, Operand::Const(1e-6)))?;
        let above = ctx.emit(Op::Binary(Binary::Subtract, x, low))?;
        let t = ctx.emit(Op::Binary(Binary::Divide, above, width))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::Clamp01, t))?)])
    },
};

/// `histogram_range`: the values squeezed into a narrower range.
pub static HISTOGRAM_RANGE: NodeDescriptor = NodeDescriptor {
    id: "histogram_range",
    label: "Histogram Range",
    category: Category::Mask,
    doc: "Squeezes the values into a range `range` wide placed at `position`: out = \
          position·(1 − range) + range·x. Range 1 keeps the values; range 0 gives `position` \
          everywhere; between, 0 maps to position·(1 − range) and 1 to that plus range.",
    inputs: &[INPUT],
    outputs: SCALAR_OUT,
    params: &[
        float("range", 0.5, 0.0, 1.0, "Width of the output range."),
        float(
            "position",
            0.5,
            0.0,
            1.0,
            "Where the range sits: 0 at the bottom, 1 at the top.",
        ),
    ],
    compile: |ctx| {
        let x = input(ctx)?;
        let (range, position) = (ctx.float("range")?, ctx.float("position")?);
        let rest = ctx.emit(Op::Unary(Unary::Invert, range))?;
        let low = ctx.emit(Op::Binary(Binary::Multiply, position, rest))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::MulAdd(x, range, low))?)])
    },
};

/// `histogram_shift`: the values shifted round.
pub static HISTOGRAM_SHIFT: NodeDescriptor = NodeDescriptor {
    id: "histogram_shift",
    label: "Histogram Shift",
    category: Category::Mask,
    doc: "Shifts the values up by `position`, wrapping round: s = x + position, out = s − 1 \
          where s > 1, else s. Position 0 keeps the values (1 stays 1); 0.5 swaps the halves.",
    inputs: &[INPUT],
    outputs: SCALAR_OUT,
    params: &[float(
        "position",
        0.5,
        0.0,
        1.0,
        "How far the values move up.",
    )],
    compile: |ctx| {
        let x = input(ctx)?;
        let position = ctx.float("position")?;
        let s = ctx.emit(Op::Binary(Binary::Add, x, position))?;
        // Step gives 1 where s ≥ its bound: the float just above 1 makes that s > 1.
        let over = ctx.emit(Op::Binary(
            Binary::Step,
            s,
            Operand::Const(1.0f32.next_up()),
        ))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Binary(
            Binary::Subtract,
            s,
            over,
        ))?)])
    },
};

fn input(ctx: &mut NodeCtx<'_, '_>) -> Result<Operand, GraphError> {
    let value = ctx
        .input("input")?
        .expect("an open input reads its default");
    ctx.scalar(value)
}
