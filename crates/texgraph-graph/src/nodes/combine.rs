//! Nodes that combine inputs: `blend`, `switch` and `math`.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, PortType, SCALAR_OUT,
    Unconnected, choice, float,
};
use texgraph_engine::program::{Binary, BlendMode, Op, Operand, Unary};

const BLEND_MODES: &[&str] = &[
    "mix",
    "add",
    "multiply",
    "screen",
    "overlay",
    "darken",
    "lighten",
    "difference",
    "subtract",
];

/// `blend`: layer b over a through a mask.
pub static BLEND: NodeDescriptor = NodeDescriptor {
    id: "blend",
    label: "Blend",
    category: Category::Combine,
    doc: "out = mix(a, mode(a, b), mask·opacity), per channel. Modes: mix b, add a + b, multiply \
          a·b, screen 1 − (1 − a)(1 − b), overlay (2ab below a = 0.5, else 1 − 2(1 − a)(1 − b)), \
          darken min, lighten max, difference |a − b|, subtract a − b; results are not clamped. \
          Alpha is mixed from a's to b's. A color if a or b is one.",
    inputs: &[
        InputPort {
            name: "a",
            ty: PortType::Any,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "Background.",
        },
        InputPort {
            name: "b",
            ty: PortType::Any,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "Foreground.",
        },
        InputPort {
            name: "mask",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "Where b shows (0 = a only); unconnected means 1 everywhere.",
        },
    ],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The blend (a color if a or b is).",
    }],
    params: &[
        choice("mode", "mix", BLEND_MODES, "How b combines with a."),
        float(
            "opacity",
            1.0,
            0.0,
            1.0,
            "Strength of the blend, multiplied with the mask.",
        ),
    ],
    compile: |ctx| {
        let a = ctx.input("a")?.expect("an open a reads its default");
        let b = ctx.input("b")?.expect("an open b reads its default");
        let mode = match ctx.text("mode") {
            "add" => BlendMode::Add,
            "multiply" => BlendMode::Multiply,
            "screen" => BlendMode::Screen,
            "overlay" => BlendMode::Overlay,
            "darken" => BlendMode::Darken,
            "lighten" => BlendMode::Lighten,
            "difference" => BlendMode::Difference,
            "subtract" => BlendMode::Subtract,
            _ => BlendMode::Mix,
        };
        let opacity = ctx.float("opacity")?;
        let t = match ctx.input("mask")? {
            Some(mask) => {
                // A mask outside [0, 1] would extrapolate past both layers.
                let mask = ctx.scalar(mask)?;
                let mask = ctx.emit(Op::Unary(Unary::Clamp01, mask))?;
                ctx.emit(Op::Binary(Binary::Multiply, mask, opacity))?
            }
            None => opacity,
        };
        let layer = |ctx: &mut NodeCtx<'_, '_>, a: Operand, b: Operand| {
            // Blend modes that can grow saturate (kernels::scalar::saturate).
            let blended = ctx.emit(Op::Blend(mode, a, b))?;
            ctx.emit(Op::Lerp(a, blended, t))
        };
        Ok(vec![match (a, b) {
            (Val::Scalar(a), Val::Scalar(b)) => Val::Scalar(layer(ctx, a, b)?),
            _ => {
                let (a, b) = (ctx.rgba(a), ctx.rgba(b));
                let rgb = [
                    layer(ctx, a[0], b[0])?,
                    layer(ctx, a[1], b[1])?,
                    layer(ctx, a[2], b[2])?,
                ];
                let alpha = ctx.emit(Op::Lerp(a[3], b[3], t))?;
                Val::Color([rgb[0], rgb[1], rgb[2], alpha])
            }
        }])
    },
};

/// `switch`: one of two inputs, chosen by a param.
pub static SWITCH: NodeDescriptor = NodeDescriptor {
    id: "switch",
    label: "Switch",
    category: Category::Combine,
    doc: "Passes on input a or input b, as `pick` says; the other is not computed at all. \
          Exposed from a graph used as a node, it lets its users choose between two \
          variants (a rough or a polished finish, two patterns).",
    inputs: &[
        InputPort {
            name: "a",
            ty: PortType::Any,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "Passed on when `pick` is a.",
        },
        InputPort {
            name: "b",
            ty: PortType::Any,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "Passed on when `pick` is b.",
        },
    ],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The input picked (a color if it is one).",
    }],
    params: &[choice(
        "pick",
        "a",
        &["a", "b"],
        "Which input is passed on.",
    )],
    compile: |ctx| {
        let port = if ctx.text("pick") == "b" { "b" } else { "a" };
        Ok(vec![
            ctx.input(port)?.expect("an open input reads its default"),
        ])
    },
};

const MATH_OPS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "min",
    "max",
    "power",
    "abs",
    "invert",
    "clamp",
    "sin",
    "fract",
    "step",
    "smoothstep",
];

/// `math`: arithmetic on scalars.
pub static MATH: NodeDescriptor = NodeDescriptor {
    id: "math",
    label: "Math",
    category: Category::Combine,
    doc: "Arithmetic on a and b: add, subtract, multiply, divide (0 where b = 0), min, max, power \
          (max(a, 0)^b), step (1 where a ≥ b, else 0); and on a alone: abs, invert (1 − a), clamp \
          (to [0, 1]), sin (radians), fract (a − floor a), smoothstep (3t² − 2t³, t = clamp(a, 0, 1)).",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        choice("op", "add", MATH_OPS, "The operation."),
        float("a", 0.0, -1e6, 1e6, "First operand."),
        float(
            "b",
            1.0,
            -1e6,
            1e6,
            "Second operand (unused by one-operand ops).",
        ),
    ],
    compile: |ctx| {
        let (a, b) = (ctx.float("a")?, ctx.float("b")?);
        let op = match ctx.text("op") {
            "subtract" => Op::Binary(Binary::Subtract, a, b),
            "multiply" => Op::Binary(Binary::Multiply, a, b),
            "divide" => Op::Binary(Binary::Divide, a, b),
            "min" => Op::Binary(Binary::Min, a, b),
            "max" => Op::Binary(Binary::Max, a, b),
            "power" => Op::Binary(Binary::Power, a, b),
            "step" => Op::Binary(Binary::Step, a, b),
            "abs" => Op::Unary(Unary::Abs, a),
            "invert" => Op::Unary(Unary::Invert, a),
            "clamp" => Op::Unary(Unary::Clamp01, a),
            "sin" => Op::Unary(Unary::Sin, a),
            "fract" => Op::Unary(Unary::Fract, a),
            "smoothstep" => Op::Unary(Unary::Smoothstep, a),
            _ => Op::Binary(Binary::Add, a, b),
        };
        let result = ctx.emit(op)?;
        Ok(vec![Val::Scalar(
            ctx.emit(Op::Unary(Unary::Saturate, result))?,
        )])
    },
};
