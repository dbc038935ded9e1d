//! Blurs that vary over the image or run along a direction: `non_uniform_blur` and
//! `directional_blur`. Both read their input as a plane; the non-uniform blur blends a few
//! uniformly blurred levels of it (each as cheap as one blur, whatever its radius), the
//! directional one averages reads along a segment.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param, ParamKind,
    PortType, Unconnected, angle, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

const FOLLOWS_INPUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::FollowsInputs,
    doc: "The blurred values (a color if the input is).",
}];

const INPUT: InputPort = InputPort {
    name: "input",
    ty: PortType::Any,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The values to blur.",
};

/// Blurred levels of a non-uniform blur besides the input itself.
const LEVELS: usize = 3;

/// `non_uniform_blur`: a blur whose radius a map sets per pixel.
pub static NON_UNIFORM_BLUR: NodeDescriptor = NodeDescriptor {
    id: "non_uniform_blur",
    label: "Non-Uniform Blur",
    category: Category::Filter,
    doc: "A blur whose standard deviation at each pixel is `radius` × the radius map there \
          (clamped to [0, 1]): the input blurred at radius/3, 2·radius/3 and radius (each as \
          `blur`), blended linearly between the two levels around the wanted radius (the input \
          itself at 0). Costs about three blurs, whatever the radius. Tileable graphs blur \
          across the edges.",
    inputs: &[
        INPUT,
        InputPort {
            name: "radius_map",
            ty: PortType::Scalar,
            unconnected: Unconnected::Reads(OpenValue::WHITE),
            doc: "Share of `radius` at each pixel: 0 sharp, 1 the full radius.",
        },
    ],
    outputs: FOLLOWS_INPUT,
    params: &[float(
        "radius",
        0.02,
        0.0,
        0.25,
        "The largest standard deviation, texture units.",
    )],
    compile: non_uniform_blur,
};

fn non_uniform_blur(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let radius = ctx.uniform("radius")?;
    let plane = ctx
        .plane("input", PlaneInput::FULL)?
        .expect("an open input reads its default");
    let map = ctx
        .input("radius_map")?
        .expect("an open radius_map reads its default");
    let map = ctx.scalar(map)?;
    let map = ctx.emit(Op::Unary(Unary::Clamp01, map))?;
    // The level wanted, 0..LEVELS, and each level's hat weight max(0, 1 − |t − k|).
    let t = ctx.emit(Op::MulAdd(
        map,
        Operand::Const(LEVELS as f32),
        Operand::Const(0.0),
    ))?;
    let mut sum = zeros(ctx, plane);
    for k in 0..=LEVELS {
        let level = if k == 0 || radius <= 0.0 {
            plane
        } else {
            ctx.blurred(plane, radius * k as f32 / LEVELS as f32)?
        };
        let values = ctx.read(level, false)?.channels();
        let off = ctx.emit(Op::Binary(Binary::Subtract, t, Operand::Const(k as f32)))?;
        let off = ctx.emit(Op::Unary(Unary::Abs, off))?;
        let near = ctx.emit(Op::Unary(Unary::Invert, off))?;
        let weight = ctx.emit(Op::Binary(Binary::Max, near, Operand::Const(0.0)))?;
        add_weighted(ctx, &mut sum, &values, weight)?;
    }
    Ok(vec![Val::from_channels(&sum)])
}

/// `directional_blur`: a motion blur.
pub static DIRECTIONAL_BLUR: NodeDescriptor = NodeDescriptor {
    id: "directional_blur",
    label: "Directional Blur",
    category: Category::Filter,
    doc: "Motion blur: the average of `samples` bilinear reads of the input evenly spaced on a \
          segment `distance` long through each pixel (centred on it), along `angle` (degrees \
          counterclockwise from the right). Tileable graphs read across the edges.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        angle("Direction of the smear, degrees counterclockwise from the right."),
        float(
            "distance",
            0.05,
            0.0,
            0.5,
            "Length of the smear, texture units.",
        ),
        Param {
            name: "samples",
            doc: "Reads along the smear.",
            kind: ParamKind::Int {
                default: 16,
                min: 2,
                max: 64,
            },
        },
    ],
    compile: directional_blur,
};

fn directional_blur(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let angle = ctx.uniform("angle")?.to_radians();
    let distance = ctx.uniform("distance")?;
    let samples = ctx.int("samples").clamp(2, 64) as usize;
    let plane = ctx
        .plane("input", PlaneInput::FULL)?
        .expect("an open input reads its default");
    let channels = ctx.plane_channels(plane);
    let frame = ctx.frame();
    // Up the image is −v.
    let (dx, dy) = (angle.cos() * distance, -angle.sin() * distance);
    let weight = 1.0 / samples as f32;
    let mut sum = zeros(ctx, plane);
    for i in 0..samples {
        let t = i as f32 / (samples - 1) as f32 - 0.5;
        let x = ctx.emit(Op::Binary(Binary::Add, frame.x, Operand::Const(t * dx)))?;
        let y = ctx.emit(Op::Binary(Binary::Add, frame.y, Operand::Const(t * dy)))?;
        let values = ctx.emit_many(Op::Sample {
            plane,
            channels,
            x,
            y,
            nearest: false,
        })?;
        add_weighted(ctx, &mut sum, &values, Operand::Const(weight))?;
    }
    Ok(vec![Val::from_channels(&sum)])
}

/// A zero per channel of `plane`: where a weighted sum of its reads starts.
fn zeros(ctx: &NodeCtx<'_, '_>, plane: u32) -> Vec<Operand> {
    vec![Operand::Const(0.0); ctx.plane_channels(plane) as usize]
}

/// Adds `weight` × `values` to `sum`, channel by channel.
fn add_weighted(
    ctx: &mut NodeCtx<'_, '_>,
    sum: &mut [Operand],
    values: &[Operand],
    weight: Operand,
) -> Result<(), GraphError> {
    for (s, &v) in sum.iter_mut().zip(values) {
        *s = ctx.emit(Op::MulAdd(v, weight, *s))?;
    }
    Ok(())
}
