//! Value and color adjustments: `levels`, `curve` and `gradient`.

use crate::compile::node_ctx::Val;
use crate::descriptor::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param,
    ParamKind, PortType, SCALAR_OUT, Unconnected, choice, float,
};
use texgraph_engine::program::Op;
use texgraph_kernels::curve::Curve;
use texgraph_kernels::gradient::Ramp;

/// `levels`: black point, white point, gamma and output range.
pub static LEVELS: NodeDescriptor = NodeDescriptor {
    id: "levels",
    label: "Levels",
    category: Category::Adjust,
    doc: "Levels: t = clamp((x − in_low)/(in_high − in_low), 0, 1)^(1/gamma), out = out_low + \
          t·(out_high − out_low). Values at or below in_low give out_low, at or above in_high \
          give out_high. On colors it adjusts r, g, b and keeps alpha.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to adjust.",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The adjusted values (a color if the input is).",
    }],
    params: &[
        float("in_low", 0.0, 0.0, 1.0, "Input black point."),
        float("in_high", 1.0, 0.0, 1.0, "Input white point."),
        float(
            "gamma",
            1.0,
            0.01,
            10.0,
            "Midtones: above 1 brightens, below 1 darkens.",
        ),
        float("out_low", 0.0, 0.0, 1.0, "Output value of the black point."),
        float(
            "out_high",
            1.0,
            0.0,
            1.0,
            "Output value of the white point.",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let (in_low, in_high) = (ctx.float("in_low")?, ctx.float("in_high")?);
        let gamma = ctx.float("gamma")?;
        let (out_low, out_high) = (ctx.float("out_low")?, ctx.float("out_high")?);
        let mut adjust = |a| {
            ctx.emit(Op::Levels {
                a,
                in_low,
                in_high,
                gamma,
                out_low,
                out_high,
            })
        };
        Ok(vec![match input {
            Val::Scalar(a) => Val::Scalar(adjust(a)?),
            Val::Color([r, g, b, a]) => Val::Color([adjust(r)?, adjust(g)?, adjust(b)?, a]),
        }])
    },
};

/// `curve`: a scalar through a smooth curve drawn by points.
pub static CURVE: NodeDescriptor = NodeDescriptor {
    id: "curve",
    label: "Curve",
    category: Category::Adjust,
    doc: "Remaps a scalar through a smooth curve through `points`: a monotone cubic spline \
          (Fritsch–Carlson), so between two points it never rises above or dips below them. \
          Inputs left of the first point give its y, right of the last its y; points with \
          equal x make a step. The editor draws the curve and lets you drag, add and remove \
          points.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The value to remap, 0..1 (clamped).",
    }],
    outputs: SCALAR_OUT,
    params: &[Param {
        name: "points",
        doc: "Curve points: [{\"x\": 0..1, \"y\": 0..1}, …], 2 to 64, in any order.",
        kind: ParamKind::Points {
            default: &[(0.0, 0.0), (1.0, 1.0)],
        },
    }],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let a = ctx.scalar(input)?;
        let curve = ctx.curve(Curve::new(&ctx.points("points")));
        Ok(vec![Val::Scalar(ctx.emit(Op::Curve { a, curve })?)])
    },
};

/// `gradient`: a color ramp.
pub static GRADIENT: NodeDescriptor = NodeDescriptor {
    id: "gradient",
    label: "Color Ramp",
    category: Category::Adjust,
    doc: "Maps a scalar to a color along a ramp of stops: below the first stop its color, above \
          the last the last color, between two stops a linear blend (or the lower stop's color \
          with constant interpolation). Stops at equal positions keep their file order.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "Position on the ramp, 0..1.",
    }],
    outputs: COLOR_OUT,
    params: &[
        Param {
            name: "stops",
            doc: "Ramp stops: [{\"pos\": 0..1, \"color\": \"#rrggbb\" or \"#rrggbbaa\"}, …], at least one.",
            kind: ParamKind::Stops {
                default: &[(0.0, "#000000"), (1.0, "#ffffff")],
            },
        },
        choice(
            "interpolation",
            "linear",
            &["linear", "constant"],
            "Blend between stops, or hold each.",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let a = ctx.scalar(input)?;
        let mut stops = ctx.stops("stops");
        stops.sort_by(|x, y| x.0.total_cmp(&y.0));
        let ramp = ctx.ramp(Ramp {
            stops,
            constant: ctx.text("interpolation") == "constant",
        });
        Ok(vec![Val::Color(ctx.emit4(Op::Ramp { a, ramp })?)])
    },
};
