//! Nodes that turn heights and normal maps into material maps: `ambient_occlusion`,
//! `curvature`, `normal_blend`, `height_blend`. The first two read their input's
//! neighbourhood, so the compiler computes it over the whole image first (as for the
//! filters); distances are in texture units and heights stand as in `normal` at strength
//! 1 (height 1 is a tenth of the texture's width), so every size looks alike.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param,
    ParamKind, PortType, SCALAR_OUT, Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, NormalBlendMode, Op, Operand, Unary};

/// `ambient_occlusion`: horizon-based occlusion of a height.
pub static AMBIENT_OCCLUSION: NodeDescriptor = NodeDescriptor {
    id: "ambient_occlusion",
    label: "Ambient Occlusion",
    category: Category::Material,
    doc: "Horizon-based ambient occlusion of a height h (1 = open, darker where the \
          surroundings rise above): along D directions evenly spread (the first 180°/D from \
          the u axis), reads of h at distances radius·s/S (s = 1 … S, texture units, \
          bilinear) give the horizon's tangent t = max(0, max over reads of 0.1·(h − h0) / \
          distance) (height 1 stands a tenth of the texture's width, as in `normal` at \
          strength 1); each direction occludes sin(atan t) = t / sqrt(1 + t²), and out = \
          clamp(1 − strength·mean over directions, 0, 1). A flat height gives exactly 1. \
          Quality: low 4 directions × 4 reads, medium 8 × 6, high 16 × 8. Tileable graphs \
          read across the edges; others clamp.",
    inputs: &[InputPort {
        name: "height",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The height field (0 low, 1 high).",
    }],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "radius",
            0.05,
            0.001,
            0.5,
            "How far the horizon is searched, texture units.",
        ),
        float(
            "strength",
            1.0,
            0.0,
            4.0,
            "Factor on the occlusion before it is taken from 1.",
        ),
        choice(
            "quality",
            "medium",
            &["low", "medium", "high"],
            "Directions × reads: 4 × 4, 8 × 6 or 16 × 8.",
        ),
    ],
    compile: ambient_occlusion,
};

fn ambient_occlusion(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let radius = ctx.uniform("radius")?;
    let strength = ctx.float("strength")?;
    let (directions, steps) = match ctx.text("quality") {
        "low" => (4, 4),
        "high" => (16, 8),
        _ => (8, 6),
    };
    let plane = ctx
        .plane("height", PlaneInput::HEIGHT)?
        .expect("an open height reads its default");
    let frame = ctx.frame();
    let out = ctx.emit_many(Op::Occlusion {
        plane,
        x: frame.x,
        y: frame.y,
        radius: radius.to_bits(),
        strength,
        directions,
        steps,
    })?;
    Ok(vec![Val::Scalar(out[0])])
}

/// `curvature`: convex and concave areas of a height or normal map.
pub static CURVATURE: NodeDescriptor = NodeDescriptor {
    id: "curvature",
    label: "Curvature",
    category: Category::Material,
    doc: "Curvature around 0.5: above on convex ridges and bumps, below in concave valleys and \
          pits, exactly 0.5 where the surface is flat or a plane; out = clamp(0.5 + \
          0.5·strength·c, 0, 1). From a height: c = −8·0.1·d / radius, d = the mean of h at \
          eight points on the circle of `radius` (texture units, bilinear) minus h at the \
          pixel (about −2·radius·0.1·the Laplacian of h: height 1 stands a tenth of the width, as in \
          `normal`; |d| <= 2^-18 of the largest |h| read is rounding and counts as 0). From a \
          normal map (0.5 + 0.5·n, OpenGL, green up): c = the change of n's x across the \
          diameter along u plus that of its y along y, 2·((r(u + radius) − r(u − radius)) + \
          (g(v − radius) − g(v + radius))), the same value for the normal map of a height. \
          Tileable graphs read across the edges; others clamp.",
    inputs: &[InputPort {
        name: "height",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The height field, or with `source` normal a normal-map color.",
    }],
    outputs: SCALAR_OUT,
    params: &[
        choice(
            "source",
            "height",
            &["height", "normal"],
            "What the input is: a height or a normal map.",
        ),
        float(
            "radius",
            0.01,
            0.001,
            0.25,
            "Distance of the reads, texture units: larger finds broader shapes.",
        ),
        float(
            "strength",
            1.0,
            0.0,
            16.0,
            "Factor on the curvature before it is centred on 0.5.",
        ),
    ],
    compile: curvature,
};

fn curvature(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let normal = ctx.text("source") == "normal";
    let radius = ctx.uniform("radius")?;
    let strength = ctx.float("strength")?;
    let shape = if normal {
        PlaneInput::FULL
    } else {
        PlaneInput::HEIGHT
    };
    let plane = ctx
        .plane("height", shape)?
        .expect("an open height reads its default");
    let frame = ctx.frame();
    let out = ctx.emit_many(Op::Curvature {
        plane,
        x: frame.x,
        y: frame.y,
        radius: radius.to_bits(),
        strength,
        normal,
    })?;
    Ok(vec![Val::Scalar(out[0])])
}

const fn normal_map(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Color,
        unconnected: Unconnected::Reads(OpenValue::FLAT_NORMAL),
        doc,
    }
}

/// `normal_blend`: a detail normal map on a base one.
pub static NORMAL_BLEND: NodeDescriptor = NodeDescriptor {
    id: "normal_blend",
    label: "Normal Blend",
    category: Category::Material,
    doc: "A detail normal map applied on a base one (both 0.5 + 0.5·n; channels clamped to \
          [0, 1]). The detail's vector d is first taken towards flat: d becomes normalize(s·dx, \
          s·dy, (1 − s) + s·dz), s = strength. Then, b the base's vector: reoriented (Barré-\
          Brisebois and Hill's RNM): t = (bx, by, bz + 1), u = (−dx, −dy, dz), r = t·(t·u)/t.z \
          − u; whiteout: r = (bx + dx, by + dy, bz·dz); linear: r = b + d − (0, 0, 1) (the \
          detail's tilt added; plain b + d would halve the base's). Out = 0.5 + 0.5·normalize(r), \
          alpha 1. A flat detail (or strength 0) returns a unit base bit for bit in every mode.",
    inputs: &[
        normal_map("base", "The base normal map."),
        normal_map("detail", "The normal map laid on it."),
    ],
    outputs: COLOR_OUT,
    params: &[
        float(
            "strength",
            1.0,
            0.0,
            1.0,
            "How much of the detail: 0 returns the base.",
        ),
        choice(
            "mode",
            "reoriented",
            &["reoriented", "whiteout", "linear"],
            "How the normals combine.",
        ),
    ],
    compile: |ctx| {
        let base = ctx.input("base")?.expect("an open base reads its default");
        let detail = ctx
            .input("detail")?
            .expect("an open detail reads its default");
        let [br, bg, bb, _] = ctx.rgba(base);
        let [dr, dg, db, _] = ctx.rgba(detail);
        let strength = ctx.float("strength")?;
        let mode = match ctx.text("mode") {
            "whiteout" => NormalBlendMode::Whiteout,
            "linear" => NormalBlendMode::Linear,
            _ => NormalBlendMode::Reoriented,
        };
        let rgb = ctx.emit_many(Op::NormalBlend {
            base: [br, bg, bb],
            detail: [dr, dg, db],
            strength,
            mode,
        })?;
        Ok(vec![Val::Color([
            rgb[0],
            rgb[1],
            rgb[2],
            Operand::Const(1.0),
        ])])
    },
};

/// `normal_invert`: flips a normal map's axes.
pub static NORMAL_INVERT: NodeDescriptor = NodeDescriptor {
    id: "normal_invert",
    label: "Normal Invert",
    category: Category::Material,
    doc: "Flips the green channel (1 − g) of a normal map, and the red one with `invert_red`: \
          converts between the OpenGL convention (green up: Blender, Unity, glTF) and the \
          DirectX one (green down: Unreal, 3ds Max), or turns bumps into dents. Blue and \
          alpha are kept.",
    inputs: &[normal_map("normal", "The normal map to convert.")],
    outputs: COLOR_OUT,
    params: &[
        Param {
            name: "invert_green",
            doc: "Flip green: OpenGL to DirectX and back.",
            kind: ParamKind::Bool { default: true },
        },
        Param {
            name: "invert_red",
            doc: "Flip red as well (with green: bumps become dents).",
            kind: ParamKind::Bool { default: false },
        },
    ],
    compile: |ctx| {
        let normal = ctx
            .input("normal")?
            .expect("an open normal reads its default");
        let [mut r, mut g, b, a] = ctx.rgba(normal);
        if ctx.flag("invert_red") {
            r = ctx.emit(Op::Unary(Unary::Invert, r))?;
        }
        if ctx.flag("invert_green") {
            g = ctx.emit(Op::Unary(Unary::Invert, g))?;
        }
        Ok(vec![Val::Color([r, g, b, a])])
    },
};

/// How far below its height layer b sinks where the mask is 0: beneath any layer a in
/// [0, 1] even when raised by the largest offset.
const MASK_SINK: f32 = 3.0;

/// Narrowest transition of `height_blend` (contrast 1).
const MIN_TRANSITION: f32 = 1e-4;

const fn height_input(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc,
    }
}

const fn color_input(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Color,
        unconnected: Unconnected::NodeDecides,
        doc,
    }
}

/// `height_blend`: two layers, the higher one showing.
pub static HEIGHT_BLEND: NodeDescriptor = NodeDescriptor {
    id: "height_blend",
    label: "Height Blend",
    category: Category::Material,
    doc: "Two material layers, the higher showing: b's height is h_b' = h_b + offset − 3·(1 − \
          m), m the mask clamped to [0, 1] (where m = 0 b sinks beneath any a in [0, 1]), w = \
          smoothstep((h_b' − h_a)/t + 0.5) with t = max((1 − contrast)/4, 0.0001) (b shows \
          where it stands more than t/2 above a, a where more than t/2 below; and w = 0 where \
          m = 0), color = (1 − w)·color_a + w·color_b per channel and height = (1 − w)·h_a + \
          w·h_b', exactly a's where w = 0 and b's where w = 1.",
    inputs: &[
        height_input("height_a", "Layer a's height."),
        height_input("height_b", "Layer b's height."),
        color_input("color_a", "Layer a's color; unconnected, black."),
        color_input(
            "color_b",
            "Layer b's color; unconnected, white (color is then w).",
        ),
        InputPort {
            name: "mask",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "Where b may show (0: a only); unconnected means 1 everywhere.",
        },
    ],
    outputs: &[
        OutputPort {
            name: "height",
            ty: OutputType::Scalar,
            doc: "The blended height.",
        },
        OutputPort {
            name: "color",
            ty: OutputType::Color,
            doc: "The blended color.",
        },
    ],
    params: &[
        float(
            "contrast",
            0.9,
            0.0,
            1.0,
            "Sharpness of the transition: 1 is a hard edge, 0 a transition 0.25 high.",
        ),
        float(
            "offset",
            0.0,
            -1.0,
            1.0,
            "Raises layer b (lowers it when negative).",
        ),
    ],
    compile: height_blend,
};

fn height_blend(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let ha = ctx
        .input("height_a")?
        .expect("an open height_a reads its default");
    let ha = ctx.scalar(ha)?;
    let hb = ctx
        .input("height_b")?
        .expect("an open height_b reads its default");
    let hb = ctx.scalar(hb)?;
    let color = |ctx: &mut NodeCtx<'_, '_>, port: &str, gray: f32| match ctx.input(port)? {
        Some(val) => Ok::<_, GraphError>(ctx.rgba(val)),
        None => Ok([gray, gray, gray, 1.0].map(Operand::Const)),
    };
    let ca = color(ctx, "color_a", 0.0)?;
    let cb = color(ctx, "color_b", 1.0)?;
    let mask = match ctx.input("mask")? {
        Some(val) => {
            let m = ctx.scalar(val)?;
            Some(ctx.emit(Op::Unary(Unary::Clamp01, m))?)
        }
        None => None,
    };
    let contrast = ctx.float("contrast")?;
    let offset = ctx.float("offset")?;
    let mut raised = ctx.emit(Op::Binary(Binary::Add, hb, offset))?;
    if let Some(m) = mask {
        let open = ctx.emit(Op::Unary(Unary::Invert, m))?;
        let sink = ctx.emit(Op::Binary(
            Binary::Multiply,
            open,
            Operand::Const(MASK_SINK),
        ))?;
        raised = ctx.emit(Op::Binary(Binary::Subtract, raised, sink))?;
    }
    let soft = ctx.emit(Op::Unary(Unary::Invert, contrast))?;
    let width = ctx.emit(Op::Binary(Binary::Multiply, soft, Operand::Const(0.25)))?;
    let width = ctx.emit(Op::Binary(
        Binary::Max,
        width,
        Operand::Const(MIN_TRANSITION),
    ))?;
    let above = ctx.emit(Op::Binary(Binary::Subtract, raised, ha))?;
    let ratio = ctx.emit(Op::Binary(Binary::Divide, above, width))?;
    let ratio = ctx.emit(Op::Binary(Binary::Add, ratio, Operand::Const(0.5)))?;
    let mut w = ctx.emit(Op::Unary(Unary::Smoothstep, ratio))?;
    if let Some(m) = mask {
        let open = ctx.emit(Op::Binary(
            Binary::Step,
            m,
            Operand::Const(f32::MIN_POSITIVE),
        ))?;
        w = ctx.emit(Op::Binary(Binary::Multiply, w, open))?;
    }
    // (1 − w)·a + w·b: a exactly where w = 0, b exactly where w = 1.
    let keep = ctx.emit(Op::Unary(Unary::Invert, w))?;
    let mut mix = |a: Operand, b: Operand| -> Result<Operand, GraphError> {
        let kept = ctx.emit(Op::Binary(Binary::Multiply, a, keep))?;
        ctx.emit(Op::MulAdd(b, w, kept))
    };
    let height = mix(ha, raised)?;
    let color = [
        mix(ca[0], cb[0])?,
        mix(ca[1], cb[1])?,
        mix(ca[2], cb[2])?,
        mix(ca[3], cb[3])?,
    ];
    Ok(vec![Val::Scalar(height), Val::Color(color)])
}
