//! `anisotropic_noise`: value noise stretched along one axis into streaks (brushed metal,
//! wood fibres, scratches, rain).
//!
//! Its lattice has `x_amount` points across and `y_amount` rows down, each a whole number,
//! so it wraps on both axes at once, which a square lattice stretched by a transform cannot
//! (its period along the short axis would not be whole). Each lattice value is the cell
//! hash of its wrapped (column, row), so the same lattice point gives the same value
//! wherever it is read.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::descriptor::{Category, NodeDescriptor, SCALAR_OUT, SEED, choice, float};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// The narrowest row edge (smoothness 0): a hard step without dividing by zero.
const HARD: f32 = 1e-4;

/// `anisotropic_noise`: streaks.
pub static ANISOTROPIC_NOISE: NodeDescriptor = NodeDescriptor {
    id: "anisotropic_noise",
    label: "Anisotropic Noise",
    category: Category::Noise,
    doc: "Streaks: value noise on a lattice of x_amount points across and y_amount rows down, \
          smooth along the rows (smoothstep between points) and, across them, from hard \
          steps (smoothness 0) to smooth (1). Many rows and few points make long horizontal \
          streaks, as brushed metal or fibres; `direction` vertical turns them. Both amounts \
          are whole numbers, so the noise always tiles.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "x_amount",
            4.0,
            1.0,
            1024.0,
            "Lattice points along the streaks (rounded): fewer, longer streaks.",
        ),
        float(
            "y_amount",
            128.0,
            1.0,
            4096.0,
            "Rows across the streaks (rounded): more, thinner streaks.",
        ),
        float(
            "smoothness",
            0.5,
            0.0,
            1.0,
            "How softly one row turns into the next: 0 hard edges, 1 smooth.",
        ),
        choice(
            "direction",
            "horizontal",
            &["horizontal", "vertical"],
            "Which way the streaks run.",
        ),
        SEED,
    ],
    compile: anisotropic,
};

fn anisotropic(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let columns = ctx.uniform("x_amount")?.round().clamp(1.0, 1024.0);
    let rows = ctx.uniform("y_amount")?.round().clamp(1.0, 4096.0);
    let smoothness = ctx.float("smoothness")?;
    let seed = ctx.int("seed") as u32;
    let frame = ctx.frame();
    let (along, across) = if ctx.text("direction") == "vertical" {
        (frame.y, frame.x)
    } else {
        (frame.x, frame.y)
    };
    let (i0, i1, tx) = lattice(ctx, along, columns)?;
    let (j0, j1, ty) = lattice(ctx, across, rows)?;
    // Along the streak: smoothstep between lattice points.
    let wx = ctx.emit(Op::Unary(Unary::Smoothstep, tx))?;
    // Across: a smoothstep of width `smoothness` about the middle of the row's cell.
    let width = ctx.emit(Op::Binary(Binary::Max, smoothness, Operand::Const(HARD)))?;
    let centred = ctx.emit(Op::Binary(Binary::Subtract, ty, Operand::Const(0.5)))?;
    let scaled = ctx.emit(Op::Binary(Binary::Divide, centred, width))?;
    let shifted = ctx.emit(Op::Binary(Binary::Add, scaled, Operand::Const(0.5)))?;
    let wy = ctx.emit(Op::Unary(Unary::Smoothstep, shifted))?;
    let corner = |ctx: &mut NodeCtx<'_, '_>, i, j| -> Result<Operand, GraphError> {
        let [value, ..] = ctx.emit4(Op::CellHash {
            x: i,
            y: j,
            offset: [0, 0],
            seed,
            period: [0, 0],
        })?;
        Ok(value)
    };
    let (a, b) = (corner(ctx, i0, j0)?, corner(ctx, i1, j0)?);
    let (c, d) = (corner(ctx, i0, j1)?, corner(ctx, i1, j1)?);
    let top = ctx.emit(Op::Lerp(a, b, wx))?;
    let bottom = ctx.emit(Op::Lerp(c, d, wx))?;
    Ok(vec![Val::Scalar(ctx.emit(Op::Lerp(top, bottom, wy))?)])
}

/// The lattice cell holding `coord` on a lattice of `count` cells a unit: its index and
/// the next one, both wrapped into 0..count and moved to their cells' centres (so the
/// cell hash reads them away from any edge), and the position within the cell.
fn lattice(
    ctx: &mut NodeCtx<'_, '_>,
    coord: Operand,
    count: f32,
) -> Result<(Operand, Operand, Operand), GraphError> {
    let c = Operand::Const;
    let scaled = ctx.emit(Op::Binary(Binary::Multiply, coord, c(count)))?;
    let within = ctx.emit(Op::Unary(Unary::Fract, scaled))?;
    // The cell's index, wrapped: count·fract(index/count), exact for whole numbers.
    let index = ctx.emit(Op::Binary(Binary::Subtract, scaled, within))?;
    let turns = ctx.emit(Op::Binary(Binary::Multiply, index, c(1.0 / count)))?;
    let turns = ctx.emit(Op::Unary(Unary::Fract, turns))?;
    let wrapped = ctx.emit(Op::Binary(Binary::Multiply, turns, c(count)))?;
    let wrapped = ctx.emit(Op::Unary(Unary::Round, wrapped))?;
    // A fraction a rounding short of 1 gives `count`: that is cell 0.
    let over = ctx.emit(Op::Binary(Binary::Step, wrapped, c(count)))?;
    let wrapped = ctx.emit(Op::MulAdd(over, c(-count), wrapped))?;
    let next = ctx.emit(Op::Binary(Binary::Add, wrapped, c(1.0)))?;
    let past = ctx.emit(Op::Binary(Binary::Step, next, c(count)))?;
    let next = ctx.emit(Op::MulAdd(past, c(-count), next))?;
    let first = ctx.emit(Op::Binary(Binary::Add, wrapped, c(0.5)))?;
    let second = ctx.emit(Op::Binary(Binary::Add, next, c(0.5)))?;
    Ok((first, second, within))
}
