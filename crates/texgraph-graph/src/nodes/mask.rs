//! Nodes that turn a mask of shapes into material maps: `distance` and `bevel`. Each
//! reads its mask as a plane and asks the compiler for a whole-plane stage over it (a
//! distance transform); what they compute per pixel from that is theirs.

use crate::compile::node_ctx::Val;
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, PortType, SCALAR_OUT, Unconnected, choice,
    float,
};
use texgraph_engine::program::{Binary, DistanceSide, Op, Operand, Unary};

const MASK: InputPort = InputPort {
    name: "mask",
    ty: PortType::Scalar,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The shapes: values above `threshold` are inside (a color input is read as its \
          luminance).",
};

const THRESHOLD: crate::descriptor::Param = float(
    "threshold",
    0.5,
    0.0,
    1.0,
    "Mask values above it are inside a shape.",
);

/// `distance`: the exact Euclidean distance to the mask's edge.
pub static DISTANCE: NodeDescriptor = NodeDescriptor {
    id: "distance",
    label: "Distance",
    category: Category::Mask,
    doc: "The exact Euclidean distance from each pixel to the nearest pixel across the mask's \
          edge (pixel centre to pixel centre, in texture units: a pixel is 1/width across and \
          1/height down), at any distance in time linear in the pixels. `outside`: 0 inside the \
          shapes, rising to 1 at `distance` away from them; `inside`: 0 outside, rising to 1 at \
          `distance` in from the edge; `signed`: 0.5 at the edge, 1 at `distance` outside, 0 at \
          `distance` inside. Where the other side is empty (a blank or a full mask) the result is \
          1 (0.5 + 0.5 signed). Tileable graphs measure across the edges of the image.",
    inputs: &[MASK],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "distance",
            0.1,
            0.0,
            1.0,
            "The distance that maps to 1, in texture units (a fraction of the width).",
        ),
        THRESHOLD,
        choice(
            "mode",
            "outside",
            &["outside", "inside", "signed"],
            "Which side of the edge is measured.",
        ),
    ],
    compile: |ctx| {
        // A zero range is a hard step at the edge rather than a division by zero.
        let range = ctx.uniform("distance")?.max(1e-6);
        let threshold = ctx.uniform("threshold")?;
        let side = match ctx.text("mode") {
            "inside" => DistanceSide::Inside,
            "signed" => DistanceSide::Signed,
            _ => DistanceSide::Outside,
        };
        let mask = ctx
            .plane("mask", PlaneInput::HEIGHT)?
            .expect("an open mask reads its default");
        let field = ctx.distance_field(mask, threshold, side, false)?;
        let Val::Scalar(d) = ctx.read(field, false)? else {
            unreachable!("a distance field has one channel")
        };
        let (scale, offset) = match side {
            DistanceSide::Signed => (0.5 / range, 0.5),
            DistanceSide::Outside | DistanceSide::Inside => (1.0 / range, 0.0),
        };
        let mapped = ctx.emit(Op::MulAdd(d, Operand::Const(scale), Operand::Const(offset)))?;
        Ok(vec![Val::Scalar(
            ctx.emit(Op::Unary(Unary::Clamp01, mapped))?,
        )])
    },
};

/// `bevel`: a height rising from each shape's edge.
pub static BEVEL: NodeDescriptor = NodeDescriptor {
    id: "bevel",
    label: "Bevel",
    category: Category::Mask,
    doc: "A height that rises from 0 at each shape's edge (mask above 0.5) to 1 at `distance` \
          inside it, flat beyond: the beveled-stone look. With d the exact distance to the \
          edge (as `distance` inside, less half a texel: the edge lies between the last texel \
          inside and the first outside) and t = clamp(d / distance, 0, 1), the profile is t \
          (`linear`), √(1 − (1 − t)²) (`round`: a quarter circle, steep at the edge) or \
          3t² − 2t³ (`smooth`). `sharp` keeps the creases where two slopes meet (a corner's \
          mitre, a thin shape's crest); `rounded` takes d as min(d, d blurred by a quarter of \
          `distance`), which rounds every crease off (a shape thinner than twice the blur \
          also loses some height). 0 outside the shapes.",
    inputs: &[MASK],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "distance",
            0.05,
            0.0,
            0.5,
            "Width of the slope, in texture units (a fraction of the width).",
        ),
        choice(
            "profile",
            "linear",
            &["linear", "round", "smooth"],
            "The slope's shape.",
        ),
        choice(
            "corner",
            "sharp",
            &["sharp", "rounded"],
            "Mitred or rounded where slopes meet.",
        ),
    ],
    compile: |ctx| {
        let range = ctx.uniform("distance")?.max(1e-6);
        let mask = ctx
            .plane("mask", PlaneInput::HEIGHT)?
            .expect("an open mask reads its default");
        let field = ctx.distance_field(mask, 0.5, DistanceSide::Inside, true)?;
        let Val::Scalar(mut d) = ctx.read(field, false)? else {
            unreachable!("a distance field has one channel")
        };
        if ctx.text("corner") == "rounded" {
            let soft = ctx.blurred(field, range / 4.0)?;
            let Val::Scalar(b) = ctx.read(soft, false)? else {
                unreachable!("a distance field has one channel")
            };
            d = ctx.emit(Op::Binary(Binary::Min, d, b))?;
        }
        let scaled = ctx.emit(Op::MulAdd(
            d,
            Operand::Const(1.0 / range),
            Operand::Const(0.0),
        ))?;
        let t = ctx.emit(Op::Unary(Unary::Clamp01, scaled))?;
        let height = match ctx.text("profile") {
            "round" => {
                let from_top = ctx.emit(Op::Unary(Unary::Invert, t))?;
                let square = ctx.emit(Op::Binary(Binary::Multiply, from_top, from_top))?;
                let rest = ctx.emit(Op::Unary(Unary::Invert, square))?;
                ctx.emit(Op::Binary(Binary::Power, rest, Operand::Const(0.5)))?
            }
            "smooth" => ctx.emit(Op::Unary(Unary::Smoothstep, t))?,
            _ => t,
        };
        Ok(vec![Val::Scalar(height)])
    },
};
