//! Regular patterns: `wave`.

use crate::compile::Val;
use crate::program::{Binary, Op, Operand, Unary, WaveKind, WaveProfile};
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
        let kind = if ctx.text("kind") == "rings" {
            WaveKind::Rings
        } else {
            WaveKind::Bands
        };
        let profile = match ctx.text("profile") {
            "saw" => WaveProfile::Saw,
            "triangle" => WaveProfile::Triangle,
            _ => WaveProfile::Sine,
        };
        let (freq, angle) = (ctx.float("frequency")?, ctx.float("angle")?);
        let (center_x, center_y) = (ctx.float("center_x")?, ctx.float("center_y")?);
        let (phase, distortion) = (ctx.float("phase")?, ctx.float("distortion")?);
        let shift = match ctx.input("noise")? {
            Some(noise) => {
                let noise = ctx.scalar(noise)?;
                let signed = ctx.emit(Op::Unary(Unary::ToSigned, noise))?;
                ctx.emit(Op::Binary(Binary::Multiply, distortion, signed))?
            }
            None => Operand::Const(0.0),
        };
        let frame = ctx.frame();
        let tile = ctx.tileable();
        let wave = Op::Wave {
            x: frame.x,
            y: frame.y,
            kind,
            profile,
            freq,
            angle,
            center_x,
            center_y,
            phase,
            shift,
            tile,
        };
        Ok(vec![Val::Scalar(ctx.emit(wave)?)])
    },
};
