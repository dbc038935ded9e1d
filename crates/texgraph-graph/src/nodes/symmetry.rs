//! Nodes that fold or bend the sample position about an axis or a centre: `mirror`,
//! `symmetry` (a kaleidoscope), `polar` (cartesian ↔ polar) and `swirl`. Each re-samples
//! its input at the moved position, like `transform`. Offsets from a centre are taken on
//! the torus in tileable graphs (the nearest copy of the centre), so what a node does near
//! one edge it also does across it.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param, ParamKind,
    PortType, Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

const INPUT: InputPort = InputPort {
    name: "input",
    ty: PortType::Any,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The values re-sampled at the moved position.",
};

const FOLLOWS_INPUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::FollowsInputs,
    doc: "The input at the moved position (a color if the input is).",
}];

const CENTER_X: Param = float("center_x", 0.5, -16.0, 16.0, "Centre, u.");
const CENTER_Y: Param = float("center_y", 0.5, -16.0, 16.0, "Centre, v.");

fn c(value: f32) -> Operand {
    Operand::Const(value)
}

/// a − b, on the torus when tileable: the offset to the nearest copy of b, in [−½, ½).
fn offset(
    ctx: &mut NodeCtx<'_, '_>,
    a: Operand,
    b: Operand,
    torus: bool,
) -> Result<Operand, GraphError> {
    let d = ctx.emit(Op::Binary(Binary::Subtract, a, b))?;
    if !torus {
        return Ok(d);
    }
    let shifted = ctx.emit(Op::Binary(Binary::Add, d, c(0.5)))?;
    let wrapped = ctx.emit(Op::Unary(Unary::Fract, shifted))?;
    ctx.emit(Op::Binary(Binary::Subtract, wrapped, c(0.5)))
}

/// The input at `at`.
fn resample(ctx: &mut NodeCtx<'_, '_>, at: Frame) -> Result<Vec<Val>, GraphError> {
    Ok(vec![
        ctx.input_at("input", at)?
            .expect("an open input reads its default"),
    ])
}

/// A point or offset: (u, v).
type Point = (Operand, Operand);

/// The centre's position and the sample's offset from it (on the torus when tileable).
fn from_centre(ctx: &mut NodeCtx<'_, '_>) -> Result<(Point, Point), GraphError> {
    let (cx, cy) = (ctx.float("center_x")?, ctx.float("center_y")?);
    let torus = ctx.tileable();
    let frame = ctx.frame();
    let dx = offset(ctx, frame.x, cx, torus)?;
    let dy = offset(ctx, frame.y, cy, torus)?;
    Ok(((cx, cy), (dx, dy)))
}

/// The point `r` from `centre` at `turns` counterclockwise from the right (up the image is
/// −v).
fn at_angle(
    ctx: &mut NodeCtx<'_, '_>,
    centre: (Operand, Operand),
    r: Operand,
    turns: Operand,
) -> Result<Frame, GraphError> {
    let degrees = ctx.emit(Op::Binary(Binary::Multiply, turns, c(360.0)))?;
    let cos = ctx.emit(Op::Unary(Unary::CosDeg, degrees))?;
    let sin = ctx.emit(Op::Unary(Unary::SinDeg, degrees))?;
    let up = ctx.emit(Op::Binary(Binary::Multiply, sin, c(-1.0)))?;
    let frame = ctx.frame();
    Ok(Frame {
        x: ctx.emit(Op::MulAdd(r, cos, centre.0))?,
        y: ctx.emit(Op::MulAdd(r, up, centre.1))?,
        ..frame
    })
}

/// |d| and its angle in turns, counterclockwise from the right (up the image is −v).
fn polar_of(
    ctx: &mut NodeCtx<'_, '_>,
    d: (Operand, Operand),
) -> Result<(Operand, Operand), GraphError> {
    let xx = ctx.emit(Op::Binary(Binary::Multiply, d.0, d.0))?;
    let squared = ctx.emit(Op::MulAdd(d.1, d.1, xx))?;
    let r = ctx.emit(Op::Unary(Unary::Sqrt, squared))?;
    let up = ctx.emit(Op::Binary(Binary::Multiply, d.1, c(-1.0)))?;
    let turns = ctx.emit(Op::Binary(Binary::Angle, up, d.0))?;
    Ok((r, turns))
}

/// `mirror`: one half reflected onto the other.
pub static MIRROR: NodeDescriptor = NodeDescriptor {
    id: "mirror",
    label: "Mirror",
    category: Category::Coordinates,
    doc: "Reflects one half of the input onto the other about an axis through `position` \
          (and, since the image repeats, about the line half an image away): `horizontal` \
          mirrors across a vertical axis (left onto right), `vertical` across a horizontal \
          one (top onto bottom), `corner` both. The result is continuous at the axes and \
          tiles whenever the input does.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        choice(
            "kind",
            "horizontal",
            &["horizontal", "vertical", "corner"],
            "Which way to mirror: left onto right, top onto bottom, or both.",
        ),
        float(
            "position",
            0.5,
            0.0,
            1.0,
            "Where the axis is, as a fraction of the width (height).",
        ),
        Param {
            name: "keep_second",
            doc: "Keep the right (bottom) half and mirror it onto the left (top) instead.",
            kind: ParamKind::Bool { default: false },
        },
    ],
    compile: |ctx| {
        let kind = ctx.text("kind").to_owned();
        let position = ctx.float("position")?;
        let sign = if ctx.flag("keep_second") { 1.0 } else { -1.0 };
        let frame = ctx.frame();
        // The signed distance from the axis, periodic: the reflection about the axis and
        // about the line half an image away, so both meet continuously.
        let fold = |ctx: &mut NodeCtx<'_, '_>, coord| -> Result<Operand, GraphError> {
            let d = offset(ctx, coord, position, true)?;
            let distance = ctx.emit(Op::Unary(Unary::Abs, d))?;
            ctx.emit(Op::MulAdd(distance, c(sign), position))
        };
        let at = Frame {
            x: if kind == "vertical" {
                frame.x
            } else {
                fold(ctx, frame.x)?
            },
            y: if kind == "horizontal" {
                frame.y
            } else {
                fold(ctx, frame.y)?
            },
            ..frame
        };
        resample(ctx, at)
    },
};

/// `symmetry`: a kaleidoscope.
pub static SYMMETRY: NodeDescriptor = NodeDescriptor {
    id: "symmetry",
    label: "Symmetry",
    category: Category::Coordinates,
    doc: "A kaleidoscope: the wedge of the input between `rotation` and `rotation` + 360°/count \
          around the centre repeated `count` times (with `mirror`, half that wedge and its \
          mirror image, so neighbouring copies meet without a cut). In tileable graphs the \
          centre repeats with the image; the result tiles seamlessly with `mirror` on, an \
          even count and a rotation that is a multiple of 180°/count (the default), where \
          the copies' axes include both image axes.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        float(
            "count",
            6.0,
            1.0,
            64.0,
            "Copies around the centre (rounded).",
        ),
        Param {
            name: "mirror",
            doc: "Mirror every other copy, as a kaleidoscope does.",
            kind: ParamKind::Bool { default: true },
        },
        float(
            "rotation",
            0.0,
            -360.0,
            360.0,
            "Turn of the wedge read and of the copies, degrees.",
        ),
        CENTER_X,
        CENTER_Y,
    ],
    compile: |ctx| {
        let count = ctx.uniform("count")?.round().clamp(1.0, 64.0);
        let mirror = ctx.flag("mirror");
        let rotation = ctx.float("rotation")?;
        let (centre, d) = from_centre(ctx)?;
        let (r, turns) = polar_of(ctx, d)?;
        let start = ctx.emit(Op::Binary(Binary::Multiply, rotation, c(1.0 / 360.0)))?;
        let relative = ctx.emit(Op::Binary(Binary::Subtract, turns, start))?;
        // Where in its copy the sample is: 0 at the copy's start, 1 at its end.
        let scaled = ctx.emit(Op::Binary(Binary::Multiply, relative, c(count)))?;
        let within = ctx.emit(Op::Unary(Unary::Fract, scaled))?;
        let within = if mirror {
            // The nearer edge of the copy: its two halves mirror each other.
            let rest = ctx.emit(Op::Unary(Unary::Invert, within))?;
            ctx.emit(Op::Binary(Binary::Min, within, rest))?
        } else {
            within
        };
        let read = ctx.emit(Op::MulAdd(within, c(1.0 / count), start))?;
        let at = at_angle(ctx, centre, r, read)?;
        resample(ctx, at)
    },
};

/// `polar`: cartesian to polar coordinates and back.
pub static POLAR: NodeDescriptor = NodeDescriptor {
    id: "polar",
    label: "Polar",
    category: Category::Coordinates,
    doc: "`to_polar` wraps the input around the centre: across the input (u) becomes the angle \
          (counterclockwise from the right, one turn across) and down it (v) the distance from \
          the centre (0 at the centre, 1 at `radius`), so stripes become rays or rings. \
          `to_cartesian` undoes it: the image's u is the angle and v the distance, read from \
          the input around the centre. The angle's seam lies along the ray to the right of \
          the centre; like Substance's Cartesian to Polar, the result does not tile unless \
          its input is symmetric (mirror it first) — `to_cartesian` of a tileable input tiles \
          across.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        choice(
            "direction",
            "to_polar",
            &["to_polar", "to_cartesian"],
            "Wrap the input around the centre, or unwrap it.",
        ),
        float(
            "radius",
            0.5,
            0.01,
            16.0,
            "The distance from the centre that v = 1 stands for, texture units.",
        ),
        CENTER_X,
        CENTER_Y,
    ],
    compile: |ctx| {
        let radius = ctx.float("radius")?;
        if ctx.text("direction") == "to_cartesian" {
            let (cx, cy) = (ctx.float("center_x")?, ctx.float("center_y")?);
            let frame = ctx.frame();
            let r = ctx.emit(Op::Binary(Binary::Multiply, frame.y, radius))?;
            let at = at_angle(ctx, (cx, cy), r, frame.x)?;
            return resample(ctx, at);
        }
        let (_, d) = from_centre(ctx)?;
        let (r, turns) = polar_of(ctx, d)?;
        let frame = ctx.frame();
        let at = Frame {
            x: ctx.emit(Op::Unary(Unary::Fract, turns))?,
            y: ctx.emit(Op::Binary(Binary::Divide, r, radius))?,
            ..frame
        };
        resample(ctx, at)
    },
};

/// `swirl`: a twist about a centre.
pub static SWIRL: NodeDescriptor = NodeDescriptor {
    id: "swirl",
    label: "Swirl",
    category: Category::Coordinates,
    doc: "Twists the input about the centre: a sample at distance r reads the input turned by \
          amount·(1 − r/radius)² turns, so the twist is strongest at the centre and fades to \
          nothing at `radius`. Outside the radius the input is unchanged, so the result tiles \
          whenever the input does.",
    inputs: &[INPUT],
    outputs: FOLLOWS_INPUT,
    params: &[
        float(
            "amount",
            0.5,
            -8.0,
            8.0,
            "Turns at the centre; negative twists the other way.",
        ),
        float(
            "radius",
            0.4,
            0.0,
            0.5,
            "How far the twist reaches, texture units.",
        ),
        CENTER_X,
        CENTER_Y,
    ],
    compile: |ctx| {
        let amount = ctx.float("amount")?;
        let radius = ctx.float("radius")?;
        let (centre, d) = from_centre(ctx)?;
        let (r, turns) = polar_of(ctx, d)?;
        let share = ctx.emit(Op::Binary(Binary::Divide, r, radius))?;
        let rest = ctx.emit(Op::Unary(Unary::Invert, share))?;
        let rest = ctx.emit(Op::Unary(Unary::Clamp01, rest))?;
        let falloff = ctx.emit(Op::Binary(Binary::Multiply, rest, rest))?;
        let turned = ctx.emit(Op::MulAdd(amount, falloff, turns))?;
        let at = at_angle(ctx, centre, r, turned)?;
        resample(ctx, at)
    },
};
