//! Nodes about tiling: `make_it_tile` makes a non-repeating input (a photo, a graph that
//! does not tile) seamless by blending it, near its edges, with a copy of itself that is
//! continuous there (the copy shifted by half the image, or its mirror image);
//! `safe_transform` moves, repeats and turns a tiling input only in ways that keep it
//! tiling.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, PortType, Unconnected,
    choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// `make_it_tile`: a seamless version of any input.
pub static MAKE_IT_TILE: NodeDescriptor = NodeDescriptor {
    id: "make_it_tile",
    label: "Make It Tile",
    category: Category::Coordinates,
    doc: "Makes the input seamless. With e(c) = 1 − smoothstep(min(c, 1 − c) / blend_width), \
          1 at an edge and 0 from `blend_width` in: `offset-blend` gives, across then down, \
          lerp(x(u, v), x(fract(u + ½), v), e(u)): the input in the middle, near the edges the \
          input moved by half the image, whose edges meet; `mirror-blend` gives, across then down, \
          lerp(x(u, v), x(1 − u, v), e(u)/2): both sides of an edge become the same mean of the \
          input and its mirror. The centre, from `blend_width` in, is the input unchanged.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to make seamless.",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The seamless values (a color if the input is).",
    }],
    params: &[
        choice(
            "mode",
            "offset-blend",
            &["offset-blend", "mirror-blend"],
            "What is blended in near the edges.",
        ),
        float(
            "blend_width",
            0.15,
            0.01,
            0.5,
            "How far in from each edge the blend reaches, texture units.",
        ),
    ],
    compile: make_it_tile,
};

fn make_it_tile(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let width = ctx.uniform("blend_width")?.clamp(0.01, 0.5);
    let frame = ctx.frame();
    let (ex, ey) = (edge(ctx, frame.x, width)?, edge(ctx, frame.y, width)?);
    let read = |ctx: &mut NodeCtx<'_, '_>, x, y| -> Result<Vec<Operand>, GraphError> {
        let val = ctx
            .input_at("input", Frame { x, y, ..frame })?
            .expect("an open input reads its default");
        Ok(val.channels())
    };
    let out = if ctx.text("mode") == "mirror-blend" {
        let (mx, my) = (
            ctx.emit(Op::Unary(Unary::Invert, frame.x))?,
            ctx.emit(Op::Unary(Unary::Invert, frame.y))?,
        );
        let half_x = ctx.emit(Op::MulAdd(ex, Operand::Const(0.5), Operand::Const(0.0)))?;
        let half_y = ctx.emit(Op::MulAdd(ey, Operand::Const(0.5), Operand::Const(0.0)))?;
        // Across at v, and at the mirrored v; then down between the two.
        let (a, b) = (read(ctx, frame.x, frame.y)?, read(ctx, mx, frame.y)?);
        let top = lerp(ctx, &a, &b, half_x)?;
        let (c, d) = (read(ctx, frame.x, my)?, read(ctx, mx, my)?);
        let bottom = lerp(ctx, &c, &d, half_x)?;
        lerp(ctx, &top, &bottom, half_y)?
    } else {
        let shift = |ctx: &mut NodeCtx<'_, '_>, c| -> Result<Operand, GraphError> {
            let moved = ctx.emit(Op::Binary(Binary::Add, c, Operand::Const(0.5)))?;
            ctx.emit(Op::Unary(Unary::Fract, moved))
        };
        let (sx, sy) = (shift(ctx, frame.x)?, shift(ctx, frame.y)?);
        // Across first (the copy moved across, whose own seam sits in the middle where
        // it is not taken), at v and at the moved v; then down between the two.
        let (a, b) = (read(ctx, frame.x, frame.y)?, read(ctx, sx, frame.y)?);
        let here = lerp(ctx, &a, &b, ex)?;
        let (c, d) = (read(ctx, frame.x, sy)?, read(ctx, sx, sy)?);
        let moved = lerp(ctx, &c, &d, ex)?;
        lerp(ctx, &here, &moved, ey)?
    };
    Ok(vec![Val::from_channels(&out)])
}

/// 1 − smoothstep(min(c, 1 − c) / width): 1 at an edge of the unit square, 0 from `width`
/// in.
fn edge(ctx: &mut NodeCtx<'_, '_>, c: Operand, width: f32) -> Result<Operand, GraphError> {
    let mirrored = ctx.emit(Op::Unary(Unary::Invert, c))?;
    let near = ctx.emit(Op::Binary(Binary::Min, c, mirrored))?;
    let t = ctx.emit(Op::MulAdd(
        near,
        Operand::Const(1.0 / width),
        Operand::Const(0.0),
    ))?;
    let t = ctx.emit(Op::Unary(Unary::Clamp01, t))?;
    let s = ctx.emit(Op::Unary(Unary::Smoothstep, t))?;
    ctx.emit(Op::Unary(Unary::Invert, s))
}

/// a + (b − a)·t per channel.
fn lerp(
    ctx: &mut NodeCtx<'_, '_>,
    a: &[Operand],
    b: &[Operand],
    t: Operand,
) -> Result<Vec<Operand>, GraphError> {
    a.iter()
        .zip(b)
        .map(|(&a, &b)| ctx.emit(Op::Lerp(a, b, t)))
        .collect()
}

/// `safe_transform`: a transform that keeps tiling.
pub static SAFE_TRANSFORM: NodeDescriptor = NodeDescriptor {
    id: "safe_transform",
    label: "Safe Transform",
    category: Category::Coordinates,
    doc: "Moves, repeats, turns and flips a tiling input in the ways that keep it tiling \
          (Substance's Safe Transform): the input repeated `repeat` times across, turned about \
          the image's centre by `rotation` snapped to a multiple of 45° (a diagonal turn also \
          repeats the input sqrt(2) times more, so its copies meet along the diagonals), flipped, \
          then moved by `offset`. Sampled at p' = repeat·R·(p − ½) + ½ − offset, R the turn \
          (and flip) as a matrix of whole numbers, so p' moves by whole images whenever p \
          does.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The tiling values to move, repeat or turn.",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The moved values (a color if the input is).",
    }],
    params: &[
        float(
            "repeat",
            1.0,
            1.0,
            64.0,
            "How many times the input repeats across (rounded).",
        ),
        float(
            "rotation",
            0.0,
            -360.0,
            360.0,
            "Turn, degrees counterclockwise, snapped to a multiple of 45°.",
        ),
        choice(
            "flip",
            "none",
            &["none", "horizontal", "vertical", "both"],
            "Mirror the input left to right, top to bottom, or both.",
        ),
        float("offset_x", 0.0, -16.0, 16.0, "Shift right, texture units."),
        float("offset_y", 0.0, -16.0, 16.0, "Shift down, texture units."),
    ],
    compile: safe_transform,
};

fn safe_transform(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let repeat = ctx.uniform("repeat")?.round().clamp(1.0, 64.0);
    let eighths = (ctx.uniform("rotation")? / 45.0).round().rem_euclid(8.0) as usize;
    // The turn as a matrix of whole numbers, counterclockwise on screen (v points down):
    // [a −b; b a] with (a, b) the image of the u axis read in (u, −v).
    let (a, b) = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ][eighths];
    let (fx, fy) = match ctx.text("flip") {
        "horizontal" => (-1, 1),
        "vertical" => (1, -1),
        "both" => (-1, -1),
        _ => (1, 1),
    };
    // Sample position p' = repeat·M·(p − ½) + ½ − offset, M = flip · turn⁻¹ (turning the
    // image counterclockwise reads the input clockwise).
    let m = [
        [(a * fx) as f32, (-b * fx) as f32],
        [(b * fy) as f32, (a * fy) as f32],
    ];
    let (ox, oy) = (ctx.float("offset_x")?, ctx.float("offset_y")?);
    let frame = ctx.frame();
    let c = Operand::Const;
    let dx = ctx.emit(Op::Binary(Binary::Subtract, frame.x, c(0.5)))?;
    let dy = ctx.emit(Op::Binary(Binary::Subtract, frame.y, c(0.5)))?;
    let along = |ctx: &mut NodeCtx<'_, '_>, row: [f32; 2], offset| {
        let rest = ctx.emit(Op::Binary(Binary::Subtract, c(0.5), offset))?;
        let y_part = ctx.emit(Op::MulAdd(dy, c(row[1] * repeat), rest))?;
        ctx.emit(Op::MulAdd(dx, c(row[0] * repeat), y_part))
    };
    let at = Frame {
        x: along(ctx, m[0], ox)?,
        y: along(ctx, m[1], oy)?,
        ..frame
    };
    Ok(vec![
        ctx.input_at("input", at)?
            .expect("an open input reads its default"),
    ])
}
