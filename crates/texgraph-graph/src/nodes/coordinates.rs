//! Nodes about the sample position: `coords` reads it, `transform` and `warp` move it
//! and re-sample their source there, `pixelate` snaps it to the centres of a grid.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, PortType, Unconnected,
    angle, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// `coords`: the sample position.
pub static COORDS: NodeDescriptor = NodeDescriptor {
    id: "coords",
    label: "Coordinates",
    category: Category::Coordinates,
    doc: "The sample position: u across (0 left, 1 right) and v down (0 top, 1 bottom); inside a \
          warp or transform, the moved position.",
    inputs: &[],
    outputs: &[
        OutputPort {
            name: "u",
            ty: OutputType::Scalar,
            doc: "Horizontal position.",
        },
        OutputPort {
            name: "v",
            ty: OutputType::Scalar,
            doc: "Vertical position.",
        },
    ],
    params: &[],
    compile: |ctx| {
        let frame = ctx.frame();
        Ok(vec![Val::Scalar(frame.x), Val::Scalar(frame.y)])
    },
};

const SOURCE: InputPort = InputPort {
    name: "source",
    ty: PortType::Any,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The pattern re-sampled at the moved position.",
};

const FOLLOWS_SOURCE: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::FollowsInputs,
    doc: "The source at the moved position (a color if the source is).",
}];

/// `transform`: scale, rotate and offset the source.
pub static TRANSFORM: NodeDescriptor = NodeDescriptor {
    id: "transform",
    label: "Transform",
    category: Category::Coordinates,
    doc: "Re-samples the source at p' = rotate(p·scale, per axis) + offset (rotation about the origin). \
          When tileable, scales are rounded to whole numbers; rotations other than multiples of \
          90° cannot tile.",
    inputs: &[SOURCE],
    outputs: FOLLOWS_SOURCE,
    params: &[
        float(
            "scale_x",
            1.0,
            -256.0,
            256.0,
            "Horizontal scale of the sampling position.",
        ),
        float(
            "scale_y",
            1.0,
            -256.0,
            256.0,
            "Vertical scale of the sampling position.",
        ),
        float("rotate", 0.0, -360.0, 360.0, "Rotation in degrees."),
        float(
            "offset_x",
            0.0,
            -1024.0,
            1024.0,
            "Added to u after scaling and rotating.",
        ),
        float(
            "offset_y",
            0.0,
            -1024.0,
            1024.0,
            "Added to v after scaling and rotating.",
        ),
    ],
    compile: |ctx| {
        let (mut sx, mut sy) = (ctx.float("scale_x")?, ctx.float("scale_y")?);
        if ctx.tileable() {
            sx = ctx.emit(Op::Unary(Unary::Round, sx))?;
            sy = ctx.emit(Op::Unary(Unary::Round, sy))?;
        }
        let rotate = ctx.float("rotate")?;
        let (ox, oy) = (ctx.float("offset_x")?, ctx.float("offset_y")?);
        let frame = ctx.frame();
        let xs = ctx.emit(Op::Binary(Binary::Multiply, frame.x, sx))?;
        let ys = ctx.emit(Op::Binary(Binary::Multiply, frame.y, sy))?;
        let at = if rotate.as_const() == Some(0.0) {
            Frame {
                x: ctx.emit(Op::Binary(Binary::Add, xs, ox))?,
                y: ctx.emit(Op::Binary(Binary::Add, ys, oy))?,
                ..frame
            }
        } else {
            let cos = ctx.emit(Op::Unary(Unary::CosDeg, rotate))?;
            let sin = ctx.emit(Op::Unary(Unary::SinDeg, rotate))?;
            let neg_sin = ctx.emit(Op::Binary(Binary::Multiply, sin, Operand::Const(-1.0)))?;
            let x_rest = ctx.emit(Op::MulAdd(ys, neg_sin, ox))?;
            let y_rest = ctx.emit(Op::MulAdd(ys, cos, oy))?;
            Frame {
                x: ctx.emit(Op::MulAdd(xs, cos, x_rest))?,
                y: ctx.emit(Op::MulAdd(xs, sin, y_rest))?,
                ..frame
            }
        };
        resample(ctx, at)
    },
};

/// `warp`: domain warp.
pub static WARP: NodeDescriptor = NodeDescriptor {
    id: "warp",
    label: "Domain Warp",
    category: Category::Coordinates,
    doc: "Domain warp: source(p + strength·(2·dx(p) − 1, 2·dy(p) − 1)). Without dy, dx sampled at \
          p + (5.2, 1.3) displaces v.",
    inputs: &[
        SOURCE,
        InputPort {
            name: "dx",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "Horizontal displacement (0.5 = none); unconnected means none.",
        },
        InputPort {
            name: "dy",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "Vertical displacement (0.5 = none); unconnected means dx sampled at p + (5.2, 1.3).",
        },
    ],
    outputs: FOLLOWS_SOURCE,
    params: &[float(
        "strength",
        0.1,
        -16.0,
        16.0,
        "Largest displacement, in image widths.",
    )],
    compile: |ctx| {
        let strength = ctx.float("strength")?;
        let frame = ctx.frame();
        let dx = match ctx.input("dx")? {
            Some(v) => Some(ctx.scalar(v)?),
            None => None,
        };
        let dy = match (ctx.input("dy")?, ctx.is_connected("dx")) {
            (Some(v), _) => Some(ctx.scalar(v)?),
            (None, true) => {
                let shifted = Frame {
                    x: ctx.emit(Op::Binary(Binary::Add, frame.x, Operand::Const(5.2)))?,
                    y: ctx.emit(Op::Binary(Binary::Add, frame.y, Operand::Const(1.3)))?,
                    ..frame
                };
                let v = ctx.input_at("dx", shifted)?.expect("connected");
                Some(ctx.scalar(v)?)
            }
            (None, false) => None,
        };
        let at = Frame {
            x: displace(ctx, frame.x, dx, strength)?,
            y: displace(ctx, frame.y, dy, strength)?,
            ..frame
        };
        resample(ctx, at)
    },
};

/// coord + strength·(2·d − 1), or coord when there is no displacement.
fn displace(
    ctx: &mut NodeCtx<'_, '_>,
    coord: Operand,
    d: Option<Operand>,
    strength: Operand,
) -> Result<Operand, GraphError> {
    match d {
        None => Ok(coord),
        Some(d) => {
            let signed = ctx.emit(Op::Unary(Unary::ToSigned, d))?;
            ctx.emit(Op::MulAdd(signed, strength, coord))
        }
    }
}

fn resample(ctx: &mut NodeCtx<'_, '_>, at: Frame) -> Result<Vec<Val>, GraphError> {
    Ok(vec![
        ctx.input_at("source", at)?
            .expect("an open source reads its default"),
    ])
}

/// `directional_warp`: moves the input along one direction by a map.
pub static DIRECTIONAL_WARP: NodeDescriptor = NodeDescriptor {
    id: "directional_warp",
    label: "Directional Warp",
    category: Category::Coordinates,
    doc: "Moves the input along one direction by an amount a map sets: out(p) = input(p + \
          intensity·m(p)·(cos a, −sin a)), m the intensity map, a the `angle` (degrees \
          counterclockwise from the right; up the image is −v), `intensity` in texture units. \
          Tileable graphs stay tileable when the input does.",
    inputs: &[
        InputPort {
            name: "input",
            ty: PortType::Any,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "The values moved.",
        },
        InputPort {
            name: "intensity_map",
            ty: PortType::Scalar,
            unconnected: Unconnected::Reads(OpenValue::WHITE),
            doc: "How far each pixel reads, as a share of `intensity` (0 none).",
        },
    ],
    outputs: FOLLOWS_SOURCE,
    params: &[
        angle("Direction the input is read from, degrees counterclockwise from the right."),
        float(
            "intensity",
            0.05,
            -1.0,
            1.0,
            "How far a map value of 1 reads, texture units.",
        ),
    ],
    compile: |ctx| {
        let angle = ctx.uniform("angle")?.to_radians();
        let intensity = ctx.float("intensity")?;
        let frame = ctx.frame();
        let map = ctx
            .input("intensity_map")?
            .expect("an open intensity_map reads its default");
        let map = ctx.scalar(map)?;
        let amount = ctx.emit(Op::Binary(Binary::Multiply, map, intensity))?;
        let (dx, dy) = (angle.cos(), -angle.sin());
        let at = Frame {
            x: ctx.emit(Op::MulAdd(amount, Operand::Const(dx), frame.x))?,
            y: ctx.emit(Op::MulAdd(amount, Operand::Const(dy), frame.y))?,
            ..frame
        };
        Ok(vec![
            ctx.input_at("input", at)?
                .expect("an open input reads its default"),
        ])
    },
};

/// `pixelate`: the input as large square pixels.
pub static PIXELATE: NodeDescriptor = NodeDescriptor {
    id: "pixelate",
    label: "Pixelate",
    category: Category::Coordinates,
    doc: "The input as `columns` × `rows` flat blocks, each the input's value at its centre: \
          ((floor(u·columns) + ½)/columns, (floor(v·rows) + ½)/rows). Blocks are whole \
          numbers across and down, so a tiling input stays tiling.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to pixelate.",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The blocks (a color if the input is).",
    }],
    params: &[
        float("columns", 32.0, 1.0, 4096.0, "Blocks across (rounded)."),
        float("rows", 32.0, 1.0, 4096.0, "Blocks down (rounded)."),
    ],
    compile: |ctx| {
        let columns = ctx.uniform("columns")?.round().clamp(1.0, 4096.0);
        let rows = ctx.uniform("rows")?.round().clamp(1.0, 4096.0);
        let frame = ctx.frame();
        let snap = |ctx: &mut NodeCtx<'_, '_>, coord, count: f32| {
            let scaled = ctx.emit(Op::Binary(Binary::Multiply, coord, Operand::Const(count)))?;
            let within = ctx.emit(Op::Unary(Unary::Fract, scaled))?;
            let start = ctx.emit(Op::Binary(Binary::Subtract, scaled, within))?;
            ctx.emit(Op::MulAdd(
                start,
                Operand::Const(1.0 / count),
                Operand::Const(0.5 / count),
            ))
        };
        let at = Frame {
            x: snap(ctx, frame.x, columns)?,
            y: snap(ctx, frame.y, rows)?,
            ..frame
        };
        Ok(vec![
            ctx.input_at("input", at)?
                .expect("an open input reads its default"),
        ])
    },
};
