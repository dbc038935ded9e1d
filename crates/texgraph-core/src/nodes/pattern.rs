//! Regular patterns: `wave`, `checker`.

use crate::compile::{Frame, NodeCtx, Val};
use crate::error::GraphError;
use crate::program::{Binary, Op, Operand, Unary};
use crate::registry::{Category, InputPort, NodeDescriptor, PortType, SCALAR_OUT, choice, float};

/// `wave`: bands or rings with a chosen profile, optionally distorted by noise.
pub static WAVE: NodeDescriptor = NodeDescriptor {
    id: "wave",
    label: "Wave",
    category: Category::Pattern,
    doc: "Bands or rings: profile(frequency·d(p) + phase + distortion·(2·noise(p) − 1)), where d \
          is the distance along the band direction or from the center. With noise, the base \
          of marble (bands) and wood (rings).",
    inputs: &[InputPort {
        name: "noise",
        ty: PortType::Scalar,
        required: false,
        doc: "Distorts the wave; unconnected means no distortion.",
    }],
    outputs: SCALAR_OUT,
    params: &[
        choice(
            "kind",
            "bands",
            &["bands", "rings"],
            "Parallel bands or concentric rings.",
        ),
        choice(
            "profile",
            "sine",
            &["sine", "saw", "triangle"],
            "Shape of one period: sine 0.5 − 0.5·cos 2πt, saw fract(t), triangle 1 − |2·fract(t) − 1|.",
        ),
        float(
            "frequency",
            4.0,
            0.0,
            1024.0,
            "Periods per image width (rounded when tileable).",
        ),
        float(
            "angle",
            0.0,
            -360.0,
            360.0,
            "Direction of the bands in degrees (0 = along u).",
        ),
        float("center_x", 0.5, -16.0, 16.0, "Ring center, u."),
        float("center_y", 0.5, -16.0, 16.0, "Ring center, v."),
        float(
            "phase",
            0.0,
            -1024.0,
            1024.0,
            "Shift in periods; drive it with time to move the wave.",
        ),
        float(
            "distortion",
            0.0,
            0.0,
            256.0,
            "How far the noise input shifts the wave, in periods.",
        ),
    ],
    compile: |ctx| {
        let rings = ctx.text("kind") == "rings";
        let profile = match ctx.text("profile") {
            "saw" => Unary::SawWave,
            "triangle" => Unary::TriangleWave,
            _ => Unary::SineWave,
        };
        let (freq, angle) = (ctx.float("frequency")?, ctx.float("angle")?);
        let (center_x, center_y) = (ctx.float("center_x")?, ctx.float("center_y")?);
        let (phase, distortion) = (ctx.float("phase")?, ctx.float("distortion")?);
        let tile = ctx.tileable();
        let Frame { x, y } = ctx.frame();
        // The wave coordinate: frequency times the distance along the bands or from the
        // center; when tiling, whole periods across the unit square.
        let position = if rings {
            let d = ctx.emit(Op::RingDistance {
                x,
                y,
                center_x,
                center_y,
                tile,
            })?;
            let f = if tile {
                ctx.emit(Op::Unary(Unary::Period, freq))?
            } else {
                freq
            };
            ctx.emit(Op::Binary(Binary::Multiply, d, f))?
        } else {
            let cos = ctx.emit(Op::Unary(Unary::CosDeg, angle))?;
            let sin = ctx.emit(Op::Unary(Unary::SinDeg, angle))?;
            let mut kx = ctx.emit(Op::Binary(Binary::Multiply, freq, cos))?;
            let mut ky = ctx.emit(Op::Binary(Binary::Multiply, freq, sin))?;
            if tile {
                kx = ctx.emit(Op::Unary(Unary::Round, kx))?;
                ky = ctx.emit(Op::Unary(Unary::Round, ky))?;
            }
            let along_y = ctx.emit(Op::Binary(Binary::Multiply, y, ky))?;
            ctx.emit(Op::MulAdd(x, kx, along_y))?
        };
        let shift = match ctx.input("noise")? {
            Some(noise) => {
                let noise = ctx.scalar(noise)?;
                let signed = ctx.emit(Op::Unary(Unary::ToSigned, noise))?;
                ctx.emit(Op::MulAdd(distortion, signed, phase))?
            }
            None => phase,
        };
        let t = ctx.emit(Op::Binary(Binary::Add, position, shift))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(profile, t))?)])
    },
};

/// `checker`: alternating squares.
pub static CHECKER: NodeDescriptor = NodeDescriptor {
    id: "checker",
    label: "Checker",
    category: Category::Pattern,
    doc: "A checkerboard of frequency × frequency squares: 1 where floor(u·f) + floor(v·f) is \
          even (the top-left square), else 0. When the graph is tileable the frequency is \
          rounded to an even whole number, so the pattern wraps.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[float(
        "frequency",
        8.0,
        0.0,
        1024.0,
        "Squares across the image (an even whole number when tileable).",
    )],
    compile: |ctx| {
        let mut freq = ctx.float("frequency")?;
        if ctx.tileable() {
            let half = ctx.emit(Op::Binary(Binary::Multiply, freq, Operand::Const(0.5)))?;
            let periods = ctx.emit(Op::Unary(Unary::Period, half))?;
            freq = ctx.emit(Op::Binary(Binary::Multiply, periods, Operand::Const(2.0)))?;
        }
        let frame = ctx.frame();
        let column = cell(ctx, frame.x, freq)?;
        let row = cell(ctx, frame.y, freq)?;
        // (column + row)/2 is whole or a half: its fraction tells the parity exactly.
        let sum = ctx.emit(Op::Binary(Binary::Add, column, row))?;
        let half = ctx.emit(Op::Binary(Binary::Multiply, sum, Operand::Const(0.5)))?;
        let odd = ctx.emit(Op::Unary(Unary::Fract, half))?;
        let odd = ctx.emit(Op::Binary(Binary::Multiply, odd, Operand::Const(2.0)))?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::Invert, odd))?)])
    },
};

/// floor(x·freq): the index of the square along one axis.
fn cell(ctx: &mut NodeCtx<'_, '_>, x: Operand, freq: Operand) -> Result<Operand, GraphError> {
    let scaled = ctx.emit(Op::Binary(Binary::Multiply, x, freq))?;
    let fraction = ctx.emit(Op::Unary(Unary::Fract, scaled))?;
    ctx.emit(Op::Binary(Binary::Subtract, scaled, fraction))
}
