//! Regular patterns: `wave`, `checker`, `shape`, `bricks`.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OutputPort, OutputType, Param, ParamKind, PortType,
    SCALAR_OUT, SEED, Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};
use texgraph_kernels::shapes::ShapeKind;

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
        unconnected: Unconnected::NodeDecides,
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
        let Frame { x, y, .. } = ctx.frame();
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

/// `shape`: a circle, polygon, star or ring in the middle of the image.
pub static SHAPE: NodeDescriptor = NodeDescriptor {
    id: "shape",
    label: "Shape",
    category: Category::Pattern,
    doc: "A mask of one shape centred in the image: 1 inside, 0 outside, with a smooth edge. \
          `kind` circle, polygon (regular, `sides` corners), star (`sides` points, inner \
          corners at `inner` of the radius) or ring (a hole of `inner` of the radius); \
          `size` is the radius in image widths. Edges come from exact signed distances. When \
          the graph is tileable the shape repeats on the unit square, and parts past an edge \
          come back on the other side.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        choice(
            "kind",
            "circle",
            &["circle", "polygon", "star", "ring"],
            "What to draw.",
        ),
        Param {
            name: "sides",
            doc: "Corners of a polygon, points of a star.",
            kind: ParamKind::Int {
                default: 5,
                min: 3,
                max: 64,
            },
        },
        float(
            "size",
            0.35,
            0.0,
            0.5,
            "Radius (to the corners or points), in image widths.",
        ),
        float(
            "inner",
            0.5,
            0.0,
            1.0,
            "Inner corners of a star, or the hole of a ring, as a fraction of the radius.",
        ),
        float(
            "smoothness",
            0.02,
            0.0,
            1.0,
            "Width of the soft edge, as a fraction of the radius (0: hard).",
        ),
        float(
            "rotate",
            0.0,
            -360.0,
            360.0,
            "Rotation in degrees, clockwise; at 0 a corner or point is at the top.",
        ),
    ],
    compile: |ctx| {
        let kind = match ctx.text("kind") {
            "polygon" => ShapeKind::Polygon,
            "star" => ShapeKind::Star,
            "ring" => ShapeKind::Ring,
            _ => ShapeKind::Circle,
        };
        let sides = ctx.int("sides").clamp(3, 64) as u32;
        let frame = ctx.frame();
        let op = Op::Shape {
            x: frame.x,
            y: frame.y,
            kind,
            sides,
            size: ctx.float("size")?,
            inner: ctx.float("inner")?,
            smoothness: ctx.float("smoothness")?,
            rotate: ctx.float("rotate")?,
            tile: ctx.tileable(),
        };
        Ok(vec![Val::Scalar(ctx.emit(op)?)])
    },
};

/// `bricks`: a brick wall.
pub static BRICKS: NodeDescriptor = NodeDescriptor {
    id: "bricks",
    label: "Bricks",
    category: Category::Pattern,
    doc: "A brick wall of `columns` × `rows` bricks (whole numbers, so it always tiles), every \
          other row shifted by `offset` bricks (0.5: running bond) plus a random shift of up \
          to `random_offset`. Outputs the mask (0 in the mortar, rising over `bevel` to 1), \
          a random value per brick, and u and v inside each brick (0 to 1), to give every \
          brick its own color and noise. Mortar, bevel and rounding are in brick heights.",
    inputs: &[],
    outputs: &[
        OutputPort {
            name: "mask",
            ty: OutputType::Scalar,
            doc: "0 in the mortar, 1 on the brick, the bevel between.",
        },
        OutputPort {
            name: "value",
            ty: OutputType::Scalar,
            doc: "A random value in [0, 1) per brick.",
        },
        OutputPort {
            name: "u",
            ty: OutputType::Scalar,
            doc: "Across the brick, 0 to 1.",
        },
        OutputPort {
            name: "v",
            ty: OutputType::Scalar,
            doc: "Down the brick, 0 to 1.",
        },
    ],
    params: &[
        float(
            "columns",
            4.0,
            1.0,
            256.0,
            "Bricks across the image (rounded).",
        ),
        float("rows", 8.0, 1.0, 256.0, "Rows down the image (rounded)."),
        float(
            "offset",
            0.5,
            0.0,
            1.0,
            "Shift of every other row, in bricks (0.5: running bond, 0: stack bond).",
        ),
        float(
            "random_offset",
            0.0,
            0.0,
            1.0,
            "Each row shifted by a random amount up to this, in bricks.",
        ),
        float("mortar", 0.08, 0.0, 0.5, "Mortar width, in brick heights."),
        float(
            "bevel",
            0.1,
            0.0,
            0.5,
            "Width of the brick's sloped edge, in brick heights.",
        ),
        float("round", 0.0, 0.0, 0.5, "Corner radius, in brick heights."),
        SEED,
    ],
    compile: |ctx| {
        let frame = ctx.frame();
        let mut settings = [Operand::Const(0.0); 7];
        let names = [
            "columns",
            "rows",
            "offset",
            "random_offset",
            "mortar",
            "bevel",
            "round",
        ];
        for (slot, name) in settings.iter_mut().zip(names) {
            *slot = ctx.float(name)?;
        }
        let op = Op::Bricks {
            x: frame.x,
            y: frame.y,
            settings,
            seed: ctx.int("seed") as u32,
        };
        Ok(ctx.emit4(op)?.map(Val::Scalar).to_vec())
    },
};
