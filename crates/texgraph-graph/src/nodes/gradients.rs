//! Plain ramps, under the names artists search for: `gradient_linear` and
//! `gradient_radial`.

use crate::compile::node_ctx::Val;
use crate::descriptor::{Category, NodeDescriptor, SCALAR_OUT, choice, float};
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// `gradient_linear`: a ramp along a direction.
pub static GRADIENT_LINEAR: NodeDescriptor = NodeDescriptor {
    id: "gradient_linear",
    label: "Gradient Linear",
    category: Category::Pattern,
    doc: "A ramp along a direction, repeated `repeat` times across the image: `linear` rises \
          from 0 to 1 and starts again (Substance's Gradient Linear 1), `mirrored` rises and \
          falls back (Linear 2), `smooth` does so along a cosine (Linear 3). The position t = \
          repeat·(u·cos a − v·sin a) + offset, a the angle counterclockwise from the right. In \
          tileable graphs repeat·cos a and repeat·sin a are rounded to whole numbers, so \
          `mirrored` and `smooth` are seamless at any angle; `linear` starts again at the \
          edge by its nature.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        choice(
            "kind",
            "linear",
            &["linear", "mirrored", "smooth"],
            "0 to 1 then again, 0 to 1 to 0 straight, or 0 to 1 to 0 along a cosine.",
        ),
        float(
            "angle",
            0.0,
            -360.0,
            360.0,
            "Direction the ramp rises towards, degrees counterclockwise from the right.",
        ),
        float(
            "repeat",
            1.0,
            0.0,
            256.0,
            "Ramps across the image (whole numbers along each axis when tileable).",
        ),
        float(
            "offset",
            0.0,
            -1024.0,
            1024.0,
            "Shift along the ramp, in ramps; drive it with time to move it.",
        ),
    ],
    compile: |ctx| {
        let profile = match ctx.text("kind") {
            "mirrored" => Unary::TriangleWave,
            "smooth" => Unary::SineWave,
            _ => Unary::SawWave,
        };
        let (angle, repeat) = (ctx.float("angle")?, ctx.float("repeat")?);
        let offset = ctx.float("offset")?;
        let frame = ctx.frame();
        let cos = ctx.emit(Op::Unary(Unary::CosDeg, angle))?;
        let sin = ctx.emit(Op::Unary(Unary::SinDeg, angle))?;
        let mut kx = ctx.emit(Op::Binary(Binary::Multiply, repeat, cos))?;
        // Up the image is −v.
        let up = ctx.emit(Op::Binary(Binary::Multiply, sin, Operand::Const(-1.0)))?;
        let mut ky = ctx.emit(Op::Binary(Binary::Multiply, repeat, up))?;
        if ctx.tileable() {
            kx = ctx.emit(Op::Unary(Unary::Round, kx))?;
            ky = ctx.emit(Op::Unary(Unary::Round, ky))?;
        }
        let along_y = ctx.emit(Op::MulAdd(frame.y, ky, offset))?;
        let t = ctx.emit(Op::MulAdd(frame.x, kx, along_y))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(profile, t))?)])
    },
};

/// `gradient_radial`: a ramp around a centre.
pub static GRADIENT_RADIAL: NodeDescriptor = NodeDescriptor {
    id: "gradient_radial",
    label: "Gradient Radial",
    category: Category::Pattern,
    doc: "1 at the centre falling to 0 at `radius` (Substance's Gradient Radial, a spotlight \
          or vignette mask): t = clamp(1 − d/radius, 0, 1) for the distance d from the centre, \
          shaped by `falloff`: `linear` t, `smooth` smoothstep(t), `spherical` sqrt(1 − (1 − t)²) \
          (a dome's height). In tileable graphs d is measured to the nearest copy of the \
          centre, so the result tiles.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float("center_x", 0.5, -16.0, 16.0, "Centre, u."),
        float("center_y", 0.5, -16.0, 16.0, "Centre, v."),
        float(
            "radius",
            0.5,
            0.001,
            16.0,
            "Where the ramp reaches 0, texture units.",
        ),
        choice(
            "falloff",
            "linear",
            &["linear", "smooth", "spherical"],
            "Shape of the ramp from the centre outwards.",
        ),
    ],
    compile: |ctx| {
        let (center_x, center_y) = (ctx.float("center_x")?, ctx.float("center_y")?);
        let radius = ctx.float("radius")?;
        let frame = ctx.frame();
        let d = ctx.emit(Op::RingDistance {
            x: frame.x,
            y: frame.y,
            center_x,
            center_y,
            tile: ctx.tileable(),
        })?;
        let share = ctx.emit(Op::Binary(Binary::Divide, d, radius))?;
        let t = ctx.emit(Op::Unary(Unary::Invert, share))?;
        let t = ctx.emit(Op::Unary(Unary::Clamp01, t))?;
        let out = match ctx.text("falloff") {
            "smooth" => ctx.emit(Op::Unary(Unary::Smoothstep, t))?,
            "spherical" => {
                // √(1 − (1 − t)²) = √(t·(2 − t)).
                let rest = ctx.emit(Op::Binary(Binary::Subtract, Operand::Const(2.0), t))?;
                let product = ctx.emit(Op::Binary(Binary::Multiply, t, rest))?;
                ctx.emit(Op::Unary(Unary::Sqrt, product))?
            }
            _ => t,
        };
        Ok(vec![Val::Scalar(out)])
    },
};
