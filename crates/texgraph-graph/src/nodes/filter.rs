//! Nodes that need their input over the whole image first: `buffer`, `blur`, `highpass`,
//! `sharpen`, `normal`, `emboss`, `edge_detect`, `slope_blur`. Each says which inputs it reads as
//! planes and what it computes from them; the compiler puts those inputs in stages of
//! their own. Distances are in texture units (fractions of the image's width across and
//! height down), so a thumbnail, a preview and an 8K export look alike.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param,
    ParamKind, PortType, SCALAR_OUT, Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, SlopeMode, Unary};

const FOLLOWS_INPUT: &[OutputPort] = &[OutputPort {
    name: "out",
    ty: OutputType::FollowsInputs,
    doc: "The result (a color if the input is).",
}];

const fn input(doc: &'static str) -> InputPort {
    InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc,
    }
}

const HEIGHT: InputPort = InputPort {
    name: "height",
    ty: PortType::Scalar,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The height field (0 low, 1 high).",
};

const STRENGTH: Param = float(
    "strength",
    1.0,
    -16.0,
    16.0,
    "Relief: at 1, height 1 stands a tenth of the texture's width; negative inverts.",
);

/// `buffer`: materialize the input once.
pub static BUFFER: NodeDescriptor = NodeDescriptor {
    id: "buffer",
    label: "Buffer",
    category: Category::Filter,
    doc: "Computes its input once over the whole image (at full, half, quarter or eighth of the \
          render size) and serves every read from that raster, bilinearly filtered; reads outside \
          the image wrap when the graph is tileable and clamp to the edge otherwise. Put one after \
          a node that warps, transforms or fractals re-sample many times: its subgraph is then \
          computed once instead of once per sample position.",
    inputs: &[input("The value to compute once.")],
    outputs: FOLLOWS_INPUT,
    params: &[choice(
        "scale",
        "full",
        &["full", "half", "quarter", "eighth"],
        "Raster size relative to the render.",
    )],
    compile: |ctx| {
        let shift = match ctx.text("scale") {
            "half" => 1,
            "quarter" => 2,
            "eighth" => 3,
            _ => 0,
        };
        let shape = PlaneInput {
            shift,
            scalar: false,
        };
        let plane = ctx
            .plane("input", shape)?
            .expect("an open input reads its default");
        Ok(vec![ctx.read(plane, false)?])
    },
};

/// `blur`: Gaussian-like blur.
pub static BLUR: NodeDescriptor = NodeDescriptor {
    id: "blur",
    label: "Blur",
    category: Category::Filter,
    doc: "Gaussian-like blur (three box filters per axis) of standard deviation `radius`; the \
          cost does not depend on the radius. Tileable graphs blur across the edges.",
    inputs: &[input("The values to blur.")],
    outputs: FOLLOWS_INPUT,
    params: &[float(
        "radius",
        0.01,
        0.0,
        0.25,
        "Standard deviation in texture units (a fraction of the width).",
    )],
    compile: |ctx| {
        let radius = ctx.uniform("radius")?;
        let plane = ctx
            .plane("input", PlaneInput::FULL)?
            .expect("an open input reads its default");
        let plane = if radius > 0.0 {
            ctx.blurred(plane, radius)?
        } else {
            plane
        };
        Ok(vec![ctx.read(plane, false)?])
    },
};

/// `f(x, blur of x)` on each color channel of a value and its blur (alpha kept).
fn with_blur(
    ctx: &mut NodeCtx<'_, '_>,
    sharp: Val,
    soft: Val,
    f: impl Fn(&mut NodeCtx<'_, '_>, Operand, Operand) -> Result<Operand, GraphError>,
) -> Result<Val, GraphError> {
    Ok(match (sharp, soft) {
        (Val::Scalar(x), Val::Scalar(b)) => Val::Scalar(f(ctx, x, b)?),
        (Val::Color(x), Val::Color(b)) => Val::Color([
            f(ctx, x[0], b[0])?,
            f(ctx, x[1], b[1])?,
            f(ctx, x[2], b[2])?,
            x[3],
        ]),
        _ => unreachable!("a plane and its blur have the same channels"),
    })
}

/// `highpass`: the detail above a blur.
pub static HIGHPASS: NodeDescriptor = NodeDescriptor {
    id: "highpass",
    label: "Highpass",
    category: Category::Filter,
    doc: "The fine detail of the input around mid-gray: x − blur(x, radius) + 0.5 on each color \
          channel (alpha kept), clamped to [0, 1]. Removes large-scale shading and keeps what \
          is smaller than the radius: the base of detail normals, even-lit photos and \
          sharpening in overlay mode. Tileable graphs blur across the edges.",
    inputs: &[input("The values whose detail is kept.")],
    outputs: FOLLOWS_INPUT,
    params: &[float(
        "radius",
        0.02,
        0.0,
        0.25,
        "Standard deviation of the blur subtracted, texture units: detail up to about this \
         size is kept.",
    )],
    compile: |ctx| {
        let radius = ctx.uniform("radius")?;
        let plane = ctx
            .plane("input", PlaneInput::FULL)?
            .expect("an open input reads its default");
        let sharp = ctx.read(plane, false)?;
        let blurred = if radius > 0.0 {
            ctx.blurred(plane, radius)?
        } else {
            plane
        };
        let soft = ctx.read(blurred, false)?;
        let detail = |ctx: &mut NodeCtx<'_, '_>, x: Operand, b: Operand| {
            let d = ctx.emit(Op::Binary(Binary::Subtract, x, b))?;
            let centred = ctx.emit(Op::Binary(Binary::Add, d, Operand::Const(0.5)))?;
            ctx.emit(Op::Unary(Unary::Clamp01, centred))
        };
        Ok(vec![with_blur(ctx, sharp, soft, detail)?])
    },
};

/// `sharpen`: unsharp mask.
pub static SHARPEN: NodeDescriptor = NodeDescriptor {
    id: "sharpen",
    label: "Sharpen",
    category: Category::Filter,
    doc: "Unsharp mask: x + amount·(x − blur(x, radius)) on each color channel (alpha kept). \
          Results are not clamped.",
    inputs: &[input("The values to sharpen.")],
    outputs: FOLLOWS_INPUT,
    params: &[
        float(
            "radius",
            0.005,
            0.0,
            0.25,
            "Standard deviation of the blur subtracted, texture units.",
        ),
        float(
            "amount",
            1.0,
            0.0,
            10.0,
            "How much of the detail is added back.",
        ),
    ],
    compile: |ctx| {
        let radius = ctx.uniform("radius")?;
        let amount = ctx.float("amount")?;
        let plane = ctx
            .plane("input", PlaneInput::FULL)?
            .expect("an open input reads its default");
        let sharp = ctx.read(plane, false)?;
        if radius <= 0.0 {
            return Ok(vec![sharp]);
        }
        let blurred = ctx.blurred(plane, radius)?;
        let soft = ctx.read(blurred, false)?;
        let detail = |ctx: &mut NodeCtx<'_, '_>, x: Operand, b: Operand| {
            let d = ctx.emit(Op::Binary(texgraph_engine::program::Binary::Subtract, x, b))?;
            let sharpened = ctx.emit(Op::MulAdd(d, amount, x))?;
            // Sharpening a sharpened image amplifies again: saturate, like other gains.
            ctx.emit(Op::Unary(
                texgraph_engine::program::Unary::Saturate,
                sharpened,
            ))
        };
        Ok(vec![with_blur(ctx, sharp, soft, detail)?])
    },
};

/// `normal`: tangent-space normal map of a height.
pub static NORMAL: NodeDescriptor = NodeDescriptor {
    id: "normal",
    label: "Normal Map",
    category: Category::Filter,
    doc: "Tangent-space normal map of a height h: n = normalize(−k·∂h/∂u, k·∂h/∂v, 1) with \
          k = strength/10, slopes measured per texture unit by central differences one texel \
          apart (one-sided at clamped edges), written as 0.5 + 0.5·n with alpha 1. OpenGL format: \
          green is up (+y towards the top of the image; Blender, Godot, Unity); DirectX: green \
          is 1 − that (Unreal).",
    inputs: &[HEIGHT],
    outputs: COLOR_OUT,
    params: &[
        STRENGTH,
        choice(
            "format",
            "opengl",
            &["opengl", "directx"],
            "Green up (OpenGL) or down (DirectX).",
        ),
    ],
    compile: |ctx| {
        let strength = ctx.float("strength")?;
        let directx = ctx.text("format") == "directx";
        let plane = ctx
            .plane("height", PlaneInput::HEIGHT)?
            .expect("an open height reads its default");
        let frame = ctx.frame();
        let rgb = ctx.emit_many(Op::Normal {
            plane,
            x: frame.x,
            y: frame.y,
            strength,
            directx,
        })?;
        Ok(vec![Val::Color([
            rgb[0],
            rgb[1],
            rgb[2],
            Operand::Const(1.0),
        ])])
    },
};

/// `emboss`: height lit from a direction.
pub static EMBOSS: NodeDescriptor = NodeDescriptor {
    id: "emboss",
    label: "Emboss",
    category: Category::Filter,
    doc: "A height lit from a direction: max(0, n·l), n the normal of `normal` with the same \
          strength, l the unit vector towards a light at `angle` (0° from the right, 90° from the \
          top) and `elevation` above the surface. Flat areas get sin(elevation).",
    inputs: &[HEIGHT],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "angle",
            135.0,
            -360.0,
            360.0,
            "Direction the light comes from, degrees counterclockwise from the right.",
        ),
        float(
            "elevation",
            45.0,
            0.0,
            90.0,
            "Height of the light above the surface, degrees.",
        ),
        STRENGTH,
    ],
    compile: |ctx| {
        let angle = ctx.uniform("angle")?.to_radians();
        let elevation = ctx.uniform("elevation")?.to_radians();
        let strength = ctx.float("strength")?;
        let light = [
            elevation.cos() * angle.cos(),
            elevation.cos() * angle.sin(),
            elevation.sin(),
        ]
        .map(f32::to_bits);
        let plane = ctx
            .plane("height", PlaneInput::HEIGHT)?
            .expect("an open height reads its default");
        let frame = ctx.frame();
        let lit = ctx.emit_many(Op::Emboss {
            plane,
            x: frame.x,
            y: frame.y,
            strength,
            light,
        })?;
        Ok(vec![Val::Scalar(lit[0])])
    },
};

/// `edge_detect`: Sobel edge mask.
pub static EDGE_DETECT: NodeDescriptor = NodeDescriptor {
    id: "edge_detect",
    label: "Edge Detect",
    category: Category::Filter,
    doc: "Edge mask: the Sobel gradient with taps `width` apart (at least a texel), m = its \
          magnitude / 4 (a step of 1 gives 1), out = clamp((m − threshold)·20, 0, 1): 1 along \
          changes larger than `threshold` + 0.05, 0 where the change is at most `threshold`. \
          Colors are measured by their luminance.",
    inputs: &[input("The values whose edges are found.")],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "width",
            0.002,
            0.0,
            0.1,
            "Distance of the Sobel taps, texture units: wider finds softer edges.",
        ),
        float(
            "threshold",
            0.1,
            0.0,
            1.0,
            "Smallest change that counts as an edge.",
        ),
    ],
    compile: |ctx| {
        let width = ctx.float("width")?;
        let threshold = ctx.float("threshold")?;
        let plane = ctx
            .plane("input", PlaneInput::HEIGHT)?
            .expect("an open input reads its default");
        let frame = ctx.frame();
        let mask = ctx.emit_many(Op::Edges {
            plane,
            x: frame.x,
            y: frame.y,
            width,
            threshold,
        })?;
        Ok(vec![Val::Scalar(mask[0])])
    },
};

/// `slope_blur`: smear along a slope.
pub static SLOPE_BLUR: NodeDescriptor = NodeDescriptor {
    id: "slope_blur",
    label: "Slope Blur",
    category: Category::Filter,
    doc: "Each pixel combines `samples` reads of `input` on the segment from it up the slope of \
          `slope`, `distance` long (shortened in proportion where the slope is flatter than 1 per \
          texture unit): their average, minimum or maximum. Values flow downhill: the erosion \
          look.",
    inputs: &[
        input("The values smeared."),
        InputPort {
            name: "slope",
            ty: PortType::Scalar,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "A height whose gradient gives the direction.",
        },
    ],
    outputs: FOLLOWS_INPUT,
    params: &[
        float(
            "distance",
            0.02,
            0.0,
            0.5,
            "Length of the smear, texture units.",
        ),
        Param {
            name: "samples",
            doc: "Reads along the smear.",
            kind: ParamKind::Int {
                default: 16,
                min: 4,
                max: 64,
            },
        },
        choice(
            "mode",
            "blur",
            &["blur", "min", "max"],
            "Average, darkest or brightest of the reads.",
        ),
    ],
    compile: slope_blur,
};

fn slope_blur(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let distance = ctx.float("distance")?;
    let samples = ctx.int("samples") as u32;
    let mode = match ctx.text("mode") {
        "min" => SlopeMode::Min,
        "max" => SlopeMode::Max,
        _ => SlopeMode::Blur,
    };
    let input = ctx
        .plane("input", PlaneInput::FULL)?
        .expect("an open input reads its default");
    let slope = ctx
        .plane("slope", PlaneInput::HEIGHT)?
        .expect("an open slope reads its default");
    let frame = ctx.frame();
    let out = ctx.emit_many(Op::SlopeBlur {
        input,
        channels: ctx.plane_channels(input),
        slope,
        x: frame.x,
        y: frame.y,
        distance,
        samples,
        mode,
    })?;
    Ok(vec![Val::from_channels(&out)])
}
