//! `scatter`: copies of a pattern on a jittered grid (Substance's Tile Sampler, Material
//! Maker's splatter).
//!
//! Each of `count` × `count` cells holds one instance: the `pattern` input's unit square,
//! moved by a random offset, shrunk by a random factor and turned by a random angle. A
//! sample can only be covered by instances of the cells within a fixed reach of its own,
//! so the pattern is compiled once per cell of that neighbourhood (at the instance's
//! coordinates), not once per instance: the cost depends on how far instances reach, not
//! on how many there are. The pattern sees its instance's own coordinates, where nothing
//! tiles (the scatter itself tiles, through its cells).

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, PortType, SEED,
    Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// The most cells a sample looks at along each side of its own.
const MAX_REACH: i32 = 3;
/// Seed change of an instance's second four random numbers (its mask draw, tint and
/// value); the first four (offset x and y, size, turn) use the seed itself.
pub const SECOND_DRAW: u32 = 0x2F6B_1A57;

/// `scatter`: instances of a pattern on a jittered grid.
pub static SCATTER: NodeDescriptor = NodeDescriptor {
    id: "scatter",
    label: "Scatter",
    category: Category::Pattern,
    doc: "Copies of `pattern` (its unit square, drawn around the centre) on a grid of count × \
          count cells, one per cell: each moved from its cell's centre by up to \
          offset_random/2 of a cell, sized scale·(1 − scale_random·r) cells, turned by \
          rotation + rotation_random·(r − ½)·360°, darkened by up to value_random and dropped \
          with probability mask_probability (r a random number per instance). Overlaps are \
          combined by max or add. Also outputs the random value of the instance on top (0 \
          where none). Only the instances that can reach a pixel are evaluated there. Cells \
          wrap when the graph is tileable.",
    inputs: &[InputPort {
        name: "pattern",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::WHITE),
        doc: "What each instance draws, sampled over its unit square (0 outside it).",
    }],
    outputs: &[
        OutputPort {
            name: "out",
            ty: OutputType::Scalar,
            doc: "The instances, combined.",
        },
        OutputPort {
            name: "value",
            ty: OutputType::Scalar,
            doc: "A random value in [0, 1) of the instance on top, 0 where there is none.",
        },
    ],
    params: &[
        float(
            "count",
            8.0,
            1.0,
            256.0,
            "Cells (instances) along each side (rounded; the same over the whole image).",
        ),
        float(
            "scale",
            0.8,
            0.01,
            3.0,
            "Instance size, in cells (the same over the whole image).",
        ),
        float(
            "scale_random",
            0.3,
            0.0,
            0.95,
            "Shrinks each instance by up to this fraction (the same over the whole image).",
        ),
        float(
            "offset_random",
            1.0,
            0.0,
            1.0,
            "Moves each instance by up to half this many cells (the same over the whole image).",
        ),
        float(
            "rotation",
            0.0,
            -360.0,
            360.0,
            "Turn of every instance, degrees.",
        ),
        crate::nodes::tile_sampler::ROTATION_RANDOM,
        float(
            "value_random",
            0.0,
            0.0,
            1.0,
            "Darkens each instance by up to this fraction.",
        ),
        float(
            "mask_probability",
            0.0,
            0.0,
            1.0,
            "Chance that an instance is left out.",
        ),
        choice(
            "combine",
            "max",
            &["max", "add"],
            "How overlapping instances combine.",
        ),
        SEED,
    ],
    compile: scatter,
};

fn scatter(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let count = ctx.uniform("count")?.round().clamp(1.0, 256.0);
    let scale = ctx.uniform("scale")?.clamp(0.01, 3.0);
    let scale_random = ctx.uniform("scale_random")?.clamp(0.0, 0.95);
    let jitter = ctx.uniform("offset_random")?.clamp(0.0, 1.0);
    let rotation = ctx.float("rotation")?;
    let rotation_random = ctx.float("rotation_random")?;
    let value_random = ctx.float("value_random")?;
    let mask_probability = ctx.float("mask_probability")?;
    let add = ctx.text("combine") == "add";
    let seed = ctx.int("seed") as u32;
    let period = if ctx.tileable() {
        [count as u32; 2]
    } else {
        [0; 2]
    };

    // An instance reaches half its diagonal from its centre, which is at most jitter/2
    // from its cell's: cells further than that from the sample's cannot cover it.
    let reach = scale * std::f32::consts::FRAC_1_SQRT_2;
    let cells = ((reach + 0.5 + 0.5 * jitter).floor() as i32).min(MAX_REACH);

    let frame = ctx.frame();
    let c = Operand::Const;
    let x = ctx.emit(Op::MulAdd(frame.x, c(count), c(0.0)))?;
    let y = ctx.emit(Op::MulAdd(frame.y, c(count), c(0.0)))?;
    let fx = ctx.emit(Op::Unary(Unary::Fract, x))?;
    let fy = ctx.emit(Op::Unary(Unary::Fract, y))?;
    let spin = ctx.emit(Op::Binary(Binary::Multiply, rotation_random, c(360.0)))?;
    let darken = ctx.emit(Op::Binary(Binary::Multiply, value_random, c(-1.0)))?;

    let mut out = c(0.0);
    let mut best = c(0.0);
    let mut top = c(0.0);
    for dy in -cells..=cells {
        for dx in -cells..=cells {
            let hash = |seed| Op::CellHash {
                x,
                y,
                offset: [dx, dy],
                seed,
                period,
            };
            let [jx, jy, shrink, turn] = ctx.emit4(hash(seed))?;
            let [drop, shade, value, _] = ctx.emit4(hash(seed ^ SECOND_DRAW))?;
            // The sample's offset from the instance's centre, in cells.
            let centre = |d: i32| d as f32 + 0.5 - 0.5 * jitter;
            let ox = ctx.emit(Op::Binary(Binary::Subtract, fx, c(centre(dx))))?;
            let ox = ctx.emit(Op::MulAdd(jx, c(-jitter), ox))?;
            let oy = ctx.emit(Op::Binary(Binary::Subtract, fy, c(centre(dy))))?;
            let oy = ctx.emit(Op::MulAdd(jy, c(-jitter), oy))?;
            // Size in cells, and the turn in degrees.
            let size = ctx.emit(Op::MulAdd(shrink, c(-scale * scale_random), c(scale)))?;
            let centred = ctx.emit(Op::Binary(Binary::Subtract, turn, c(0.5)))?;
            let angle = ctx.emit(Op::MulAdd(centred, spin, rotation))?;
            let (cos, sin) = (
                ctx.emit(Op::Unary(Unary::CosDeg, angle))?,
                ctx.emit(Op::Unary(Unary::SinDeg, angle))?,
            );
            // Into the instance's unit square: turned back, divided by the size, centred.
            let inverse = ctx.emit(Op::Binary(Binary::Divide, c(1.0), size))?;
            let along = ctx.emit(Op::Binary(Binary::Multiply, cos, ox))?;
            let along = ctx.emit(Op::MulAdd(sin, oy, along))?;
            let across = ctx.emit(Op::Binary(Binary::Multiply, cos, oy))?;
            let sin_ox = ctx.emit(Op::Binary(Binary::Multiply, sin, ox))?;
            let across = ctx.emit(Op::Binary(Binary::Subtract, across, sin_ox))?;
            let lx = ctx.emit(Op::MulAdd(along, inverse, c(0.5)))?;
            let ly = ctx.emit(Op::MulAdd(across, inverse, c(0.5)))?;
            // 1 inside the unit square and for instances kept, else 0.
            let mut weight = ctx.emit(Op::Binary(Binary::Step, drop, mask_probability))?;
            for (a, b) in [(lx, c(0.0)), (c(1.0), lx), (ly, c(0.0)), (c(1.0), ly)] {
                let inside = ctx.emit(Op::Binary(Binary::Step, a, b))?;
                weight = ctx.emit(Op::Binary(Binary::Multiply, weight, inside))?;
            }
            let tint = ctx.emit(Op::MulAdd(shade, darken, c(1.0)))?;
            weight = ctx.emit(Op::Binary(Binary::Multiply, weight, tint))?;
            let pattern = ctx
                .input_at(
                    "pattern",
                    Frame {
                        x: lx,
                        y: ly,
                        local: true,
                    },
                )?
                .expect("an open the pattern reads its default");
            let pattern = ctx.scalar(pattern)?;
            let drawn = ctx.emit(Op::Binary(Binary::Multiply, pattern, weight))?;
            // The instance on top: the largest contribution so far (ties to the later).
            let above = ctx.emit(Op::Binary(Binary::Step, drawn, best))?;
            let visible = ctx.emit(Op::Binary(Binary::Step, drawn, c(1e-6)))?;
            let wins = ctx.emit(Op::Binary(Binary::Multiply, above, visible))?;
            top = ctx.emit(Op::Lerp(top, value, wins))?;
            best = ctx.emit(Op::Binary(Binary::Max, best, drawn))?;
            out = if add {
                ctx.emit(Op::Binary(Binary::Add, out, drawn))?
            } else {
                best
            };
        }
    }
    Ok(vec![Val::Scalar(out), Val::Scalar(top)])
}
