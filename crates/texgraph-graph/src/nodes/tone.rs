//! The everyday tone adjustments, under the names artists search for: `invert`, `clamp`,
//! `brightness_contrast` and `auto_levels`.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, PortType, SCALAR_OUT,
    Unconnected, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

const INPUT: InputPort = InputPort {
    name: "input",
    ty: PortType::Any,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The values to adjust.",
};

const FOLLOWS_INPUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::FollowsInputs,
    doc: "The adjusted values (a color if the input is, its alpha kept).",
}];

/// `f` applied to each color channel of `input` (its alpha kept), or to the scalar.
fn per_channel(
    ctx: &mut NodeCtx<'_, '_>,
    input: Val,
    mut f: impl FnMut(&mut NodeCtx<'_, '_>, Operand) -> Result<Operand, GraphError>,
) -> Result<Val, GraphError> {
    Ok(match input {
        Val::Scalar(a) => Val::Scalar(f(ctx, a)?),
        Val::Color([r, g, b, a]) => Val::Color([f(ctx, r)?, f(ctx, g)?, f(ctx, b)?, a]),
    })
}

fn the_input(ctx: &mut NodeCtx<'_, '_>) -> Result<Val, GraphError> {
    Ok(ctx
        .input("input")?
        .expect("an open input reads its default"))
}

/// `invert`: 1 − x.
pub static INVERT: NodeDescriptor = NodeDescriptor {
    id: "invert",
    label: "Invert",
    category: Category::Adjust,
    doc: "1 − x: black becomes white and white black. On colors it inverts r, g and b and keeps \
          alpha.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[],
    compile: |ctx| {
        let input = the_input(ctx)?;
        Ok(vec![per_channel(ctx, input, |ctx, a| {
            ctx.emit(Op::Unary(Unary::Invert, a))
        })?])
    },
};

/// `clamp`: values kept within a range.
pub static CLAMP: NodeDescriptor = NodeDescriptor {
    id: "clamp",
    label: "Clamp",
    category: Category::Adjust,
    doc: "min(max(x, min), max): values below `min` become `min`, above `max` become `max` \
          (with `min` above `max`, everything becomes `max`). On colors it clamps r, g and b \
          and keeps alpha.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        float("min", 0.0, -1e6, 1e6, "The lowest value let through."),
        float("max", 1.0, -1e6, 1e6, "The highest value let through."),
    ],
    compile: |ctx| {
        let input = the_input(ctx)?;
        let (low, high) = (ctx.float("min")?, ctx.float("max")?);
        Ok(vec![per_channel(ctx, input, |ctx, a| {
            let above = ctx.emit(Op::Binary(Binary::Max, a, low))?;
            ctx.emit(Op::Binary(Binary::Min, above, high))
        })?])
    },
};

/// `brightness_contrast`: Substance's Contrast/Luminosity, Material Maker's Brightness
/// Contrast.
pub static BRIGHTNESS_CONTRAST: NodeDescriptor = NodeDescriptor {
    id: "brightness_contrast",
    label: "Brightness/Contrast",
    category: Category::Adjust,
    doc: "(x − 0.5)·(1 + contrast) + 0.5 + brightness, clamped to [0, 1]: contrast spreads \
          values away from mid-gray (−1 makes everything mid-gray), brightness adds to every \
          value. On colors it adjusts r, g and b and keeps alpha.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        float(
            "brightness",
            0.0,
            -1.0,
            1.0,
            "Added to every value: above 0 brighter, below darker.",
        ),
        float(
            "contrast",
            0.0,
            -1.0,
            16.0,
            "Spread away from mid-gray: 0 keeps it, 1 doubles it, −1 flattens to gray.",
        ),
    ],
    compile: |ctx| {
        let input = the_input(ctx)?;
        let brightness = ctx.float("brightness")?;
        let contrast = ctx.float("contrast")?;
        let gain = ctx.emit(Op::Binary(Binary::Add, contrast, Operand::Const(1.0)))?;
        let shift = ctx.emit(Op::Binary(Binary::Add, brightness, Operand::Const(0.5)))?;
        Ok(vec![per_channel(ctx, input, |ctx, a| {
            let centred = ctx.emit(Op::Binary(Binary::Subtract, a, Operand::Const(0.5)))?;
            let spread = ctx.emit(Op::MulAdd(centred, gain, shift))?;
            ctx.emit(Op::Unary(Unary::Clamp01, spread))
        })?])
    },
};

/// `auto_levels`: the input stretched to the full range.
pub static AUTO_LEVELS: NodeDescriptor = NodeDescriptor {
    id: "auto_levels",
    label: "Auto Levels",
    category: Category::Adjust,
    doc: "Stretches the input so its darkest value over the whole image becomes 0 and its \
          brightest 1 ((x − min)/(max − min)); an input of one value is passed as it is. The \
          input is computed over the whole image first, so a region or a band of a render \
          equals the same pixels of the whole; the bounds are those of the pixels rendered, \
          so a thumbnail's can differ slightly from a large export's. Colors are taken as \
          their luminance.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to stretch.",
    }],
    outputs: SCALAR_OUT,
    params: &[],
    compile: |ctx| {
        let plane = ctx
            .plane("input", PlaneInput::HEIGHT)?
            .expect("an open input reads its default");
        let stretched = ctx.stretched(plane)?;
        Ok(vec![ctx.read(stretched, false)?])
    },
};
