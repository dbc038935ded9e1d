//! `tile_sampler`: instances on a grid, each a pattern input or a built-in shape, varied
//! by random numbers per instance and by maps read at each instance's centre (Substance's
//! Tile Sampler, Material Maker's Tiler).
//!
//! As in `scatter`, a sample can only be covered by the instances of the cells within a
//! fixed reach of its own, so the instance is compiled once per cell of that neighbourhood:
//! the cost of a pixel depends on how far instances reach, never on how many there are.
//! Maps are compiled at the instance's centre (exactly, whatever the render's size, so a
//! thumbnail and an export place the same instances), and pattern inputs at the
//! instance's own coordinates, where nothing tiles.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OutputPort, OutputType, PortType, SEED, Unconnected,
    choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// The most cells a sample looks at along each side of its own (7 × 7 cells at most).
const MAX_REACH: f32 = 3.0;
/// Seed changes of an instance's second and third four random numbers.
pub const SECOND_DRAW: u32 = 0x5EED_0002;
/// See [`SECOND_DRAW`].
pub const THIRD_DRAW: u32 = 0x5EED_0003;
/// Values at or below this are "not drawn" (for the instance on top).
const VISIBLE: f32 = 1e-6;

/// The built-in shapes, as `pattern` names them; `input` draws the pattern inputs.
pub const SHAPES: &[&str] = &[
    "square",
    "disc",
    "paraboloid",
    "bell",
    "gaussian",
    "pyramid",
    "cone",
    "hemisphere",
    "brick",
    "thorn",
    "gradation",
    "input",
];

const fn map(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Scalar,
        unconnected: Unconnected::NodeDecides,
        doc,
    }
}

const fn pattern(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Scalar,
        // Only read when `pattern` is input: a built-in shape leaves them open.
        unconnected: Unconnected::NodeDecides,
        doc,
    }
}

/// `tile_sampler`: instances on a grid, driven by maps.
pub static TILE_SAMPLER: NodeDescriptor = NodeDescriptor {
    id: "tile_sampler",
    label: "Tile Sampler",
    category: Category::Pattern,
    doc: "Instances on a grid of x_amount × y_amount cells, one per cell, each drawing a \
          built-in shape or one of the pattern inputs over its own box. Each instance has its \
          own random numbers (from `seed`): it may be moved (position_random), shrunk \
          (scale_random), turned (rotation_random), darkened (luminance_random) or left out \
          (mask_random). Maps are read at each instance's centre: scale_map shrinks it (its \
          value times the size), rotation_map turns it (value × 360° × rotation_map_amount), \
          mask_map leaves it out where below mask_map_threshold, displacement_map moves it \
          (value × displacement_intensity cells along displacement_angle), \
          pattern_distribution_map picks which pattern input it draws, color_map gives its \
          `color`. Every other row (`rows`) or column (`columns`) is shifted by `offset` \
          cells; it tiles when their count is even. Overlaps combine by `max`, `add`, or \
          `painter` (the instance drawn last that is not black there shows; instances are \
          drawn row by row). The instance outputs give, per pixel, values of the instance on \
          top (the one that shows; 0 where none). In tileable graphs instances cross the \
          edges and wrap; otherwise only the grid's own instances are drawn. Instances reach \
          at most 3 cells from their own; beyond that they are cut.",
    inputs: &[
        pattern(
            "pattern_1",
            "Drawn by the instances when `pattern` is input (its unit square over the instance's box); unconnected means a white square.",
        ),
        pattern(
            "pattern_2",
            "The second pattern input, with pattern_inputs 2 or more; unconnected means a white square.",
        ),
        pattern(
            "pattern_3",
            "The third pattern input, with pattern_inputs 3 or more; unconnected means a white square.",
        ),
        pattern(
            "pattern_4",
            "The fourth pattern input, with pattern_inputs 4; unconnected means a white square.",
        ),
        map(
            "scale_map",
            "Size of each instance, times its value at the centre; unconnected means 1.",
        ),
        map(
            "rotation_map",
            "Added turn of each instance, its value × 360° × rotation_map_amount; unconnected means none.",
        ),
        InputPort {
            name: "color_map",
            ty: PortType::Color,
            unconnected: Unconnected::NodeDecides,
            doc: "Each instance's `color`, read at its centre; unconnected means a random color per instance.",
        },
        map(
            "mask_map",
            "Instances whose centre reads below mask_map_threshold are left out; unconnected keeps them.",
        ),
        map(
            "displacement_map",
            "Moves each instance by its value × displacement_intensity cells; unconnected means none.",
        ),
        map(
            "pattern_distribution_map",
            "Which pattern input each instance draws: value v picks input floor(v × pattern_inputs) + 1; unconnected means at random.",
        ),
    ],
    outputs: &[
        OutputPort {
            name: "out",
            ty: OutputType::Scalar,
            doc: "The instances, combined.",
        },
        OutputPort {
            name: "color",
            ty: OutputType::Color,
            doc: "The color of the instance on top (its color map value, or a random color), black where none.",
        },
        OutputPort {
            name: "instance_random",
            ty: OutputType::Scalar,
            doc: "A random value in [0, 1) of the instance on top, 0 where none.",
        },
        OutputPort {
            name: "instance_index",
            ty: OutputType::Scalar,
            doc: "The index of the instance on top, row by row, divided by x_amount × y_amount (0 where none).",
        },
        OutputPort {
            name: "instance_uv",
            ty: OutputType::Color,
            doc: "The instance on top's own coordinates: red 0 to 1 across it, green 0 to 1 down it (turned with it), black where none.",
        },
    ],
    params: &[
        float("x_amount", 8.0, 1.0, 256.0, "Instances across (rounded)."),
        float("y_amount", 8.0, 1.0, 256.0, "Instances down (rounded)."),
        choice(
            "pattern",
            "square",
            SHAPES,
            "What each instance draws: a built-in shape, or `input` for the pattern inputs.",
        ),
        float(
            "pattern_inputs",
            1.0,
            1.0,
            4.0,
            "How many pattern inputs instances choose from (rounded).",
        ),
        float(
            "scale",
            0.8,
            0.0,
            4.0,
            "Instance size, in cells (the same over the whole image).",
        ),
        float(
            "size_x",
            1.0,
            0.0,
            4.0,
            "Width, times `scale` (the same over the whole image).",
        ),
        float(
            "size_y",
            1.0,
            0.0,
            4.0,
            "Height, times `scale` (the same over the whole image).",
        ),
        float(
            "scale_random",
            0.0,
            0.0,
            1.0,
            "Shrinks each instance by up to this fraction.",
        ),
        float(
            "interstice_x",
            0.0,
            0.0,
            1.0,
            "Gap taken off each instance's width, in cells.",
        ),
        float(
            "interstice_y",
            0.0,
            0.0,
            1.0,
            "Gap taken off each instance's height, in cells.",
        ),
        float(
            "position_random",
            0.0,
            0.0,
            2.0,
            "Moves each instance by up to half this many cells each way (the same over the whole image).",
        ),
        float(
            "offset",
            0.0,
            0.0,
            1.0,
            "Shift of every other row (column), in cells: 0.5 is a running bond.",
        ),
        choice(
            "offset_direction",
            "rows",
            &["rows", "columns"],
            "Shift every other row across, or every other column down.",
        ),
        float(
            "rotation",
            0.0,
            -360.0,
            360.0,
            "Turn of every instance, degrees counterclockwise.",
        ),
        float(
            "rotation_random",
            0.0,
            0.0,
            1.0,
            "Random turn of each instance: 1 is any angle.",
        ),
        float(
            "rotation_map_amount",
            1.0,
            -4.0,
            4.0,
            "Turns per unit of the rotation map.",
        ),
        float("luminance", 1.0, 0.0, 1.0, "Brightness of every instance."),
        float(
            "luminance_random",
            0.0,
            0.0,
            1.0,
            "Darkens each instance by up to this fraction.",
        ),
        float(
            "mask_random",
            0.0,
            0.0,
            1.0,
            "Chance that an instance is left out.",
        ),
        float(
            "mask_map_threshold",
            0.5,
            0.0,
            1.0,
            "Instances whose centre reads below this on the mask map are left out.",
        ),
        float(
            "displacement_intensity",
            0.5,
            0.0,
            2.0,
            "How far a displacement map value of 1 moves an instance, in cells (the same over the whole image).",
        ),
        float(
            "displacement_angle",
            0.0,
            -360.0,
            360.0,
            "Direction the displacement map moves instances, degrees counterclockwise from the right.",
        ),
        choice(
            "blend",
            "max",
            &["max", "add", "painter"],
            "How overlapping instances combine.",
        ),
        SEED,
    ],
    compile: tile_sampler,
};

fn c(value: f32) -> Operand {
    Operand::Const(value)
}

/// The settings that are the same over the whole image.
struct Grid {
    columns: f32,
    rows: f32,
    scale: [f32; 2],
    interstice: [Operand; 2],
    scale_random: Operand,
    position_random: f32,
    offset: f32,
    offset_columns: bool,
    rotation: Operand,
    rotation_random: Operand,
    rotation_map_amount: Operand,
    luminance: Operand,
    luminance_random: Operand,
    mask_random: Operand,
    mask_threshold: Operand,
    displacement: f32,
    displacement_angle: f32,
    shape: &'static str,
    inputs: usize,
    blend: Blend,
    seed: u32,
    tileable: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Blend {
    Max,
    Add,
    Painter,
}

impl Grid {
    fn read(ctx: &mut NodeCtx<'_, '_>) -> Result<Self, GraphError> {
        let shape = SHAPES
            .iter()
            .copied()
            .find(|s| *s == ctx.text("pattern"))
            .unwrap_or("square");
        let scale = ctx.uniform("scale")?.clamp(0.0, 4.0);
        Ok(Self {
            columns: ctx.uniform("x_amount")?.round().clamp(1.0, 256.0),
            rows: ctx.uniform("y_amount")?.round().clamp(1.0, 256.0),
            scale: [
                scale * ctx.uniform("size_x")?.clamp(0.0, 4.0),
                scale * ctx.uniform("size_y")?.clamp(0.0, 4.0),
            ],
            interstice: [ctx.float("interstice_x")?, ctx.float("interstice_y")?],
            scale_random: ctx.float("scale_random")?,
            position_random: ctx.uniform("position_random")?.clamp(0.0, 2.0),
            offset: ctx.uniform("offset")?.clamp(0.0, 1.0),
            offset_columns: ctx.text("offset_direction") == "columns",
            rotation: ctx.float("rotation")?,
            rotation_random: ctx.float("rotation_random")?,
            rotation_map_amount: ctx.float("rotation_map_amount")?,
            luminance: ctx.float("luminance")?,
            luminance_random: ctx.float("luminance_random")?,
            mask_random: ctx.float("mask_random")?,
            mask_threshold: ctx.float("mask_map_threshold")?,
            displacement: if ctx.is_connected("displacement_map") {
                ctx.uniform("displacement_intensity")?.clamp(0.0, 2.0)
            } else {
                0.0
            },
            displacement_angle: ctx.uniform("displacement_angle")?.to_radians(),
            shape,
            inputs: ctx.uniform("pattern_inputs")?.round().clamp(1.0, 4.0) as usize,
            blend: match ctx.text("blend") {
                "add" => Blend::Add,
                "painter" => Blend::Painter,
                _ => Blend::Max,
            },
            seed: ctx.int("seed") as u32,
            tileable: ctx.tileable(),
        })
    }

    /// Cells a sample looks at each way, across and down: an instance reaches half its
    /// box's diagonal from its centre (whatever its turn), which is at most
    /// position_random/2 + displacement_intensity from its cell's centre.
    fn reach(&self) -> [i32; 2] {
        let half_diagonal = 0.5 * (self.scale[0].powi(2) + self.scale[1].powi(2)).sqrt();
        // The diagonal in cells of each axis (cells need not be square).
        let texture = half_diagonal * (1.0 / self.columns).max(1.0 / self.rows);
        let moved = 0.5 * self.position_random + self.displacement;
        [self.columns, self.rows]
            .map(|count| (texture * count + moved + 0.5).floor().min(MAX_REACH) as i32)
    }
}

/// One instance, as seen from the sample.
struct Instance {
    /// The sample in the instance's own square (0 → 1 across and down it).
    local: [Operand; 2],
    /// What it draws there, 0 outside it, and 0 when it is left out.
    value: Operand,
    /// Its random value for `instance_random`, its index over the count, its color.
    random: Operand,
    index: Operand,
    color: [Operand; 3],
}

fn tile_sampler(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let grid = Grid::read(ctx)?;
    let frame = ctx.frame();
    let px = ctx.emit(Op::Binary(Binary::Multiply, frame.x, c(grid.columns)))?;
    let py = ctx.emit(Op::Binary(Binary::Multiply, frame.y, c(grid.rows)))?;
    let [reach_x, reach_y] = grid.reach();
    let mut out = c(0.0);
    let mut best = c(0.0);
    // The drawing order of the instance on top (painter), −1 before any.
    let mut order = c(-1.0);
    // Of the instance on top: value, random, index, u, v, red, green, blue.
    let mut top = [c(0.0); 8];
    for dy in -reach_y..=reach_y {
        for dx in -reach_x..=reach_x {
            let instance = instance(ctx, &grid, frame, [px, py], [dx, dy])?;
            let value = instance.value;
            let visible = ctx.emit(Op::Binary(Binary::Step, value, c(VISIBLE)))?;
            let wins = match grid.blend {
                // The largest contribution so far (ties to the later).
                Blend::Max | Blend::Add => {
                    let above = ctx.emit(Op::Binary(Binary::Step, value, best))?;
                    ctx.emit(Op::Binary(Binary::Multiply, above, visible))?
                }
                // The one drawn last: the highest index of the instances that show.
                Blend::Painter => {
                    let later = ctx.emit(Op::Binary(Binary::Step, instance.index, order))?;
                    ctx.emit(Op::Binary(Binary::Multiply, later, visible))?
                }
            };
            let [u, v] = instance.local;
            let [r, g, b] = instance.color;
            let index = ctx.emit(Op::Binary(
                Binary::Multiply,
                instance.index,
                c(1.0 / (grid.columns * grid.rows)),
            ))?;
            let mine = [value, instance.random, index, u, v, r, g, b];
            for (kept, new) in top.iter_mut().zip(mine) {
                *kept = ctx.emit(Op::Lerp(*kept, new, wins))?;
            }
            match grid.blend {
                Blend::Max => {
                    best = ctx.emit(Op::Binary(Binary::Max, best, value))?;
                    out = best;
                }
                Blend::Add => {
                    best = ctx.emit(Op::Binary(Binary::Max, best, value))?;
                    out = ctx.emit(Op::Binary(Binary::Add, out, value))?;
                }
                Blend::Painter => {
                    order = ctx.emit(Op::Lerp(order, instance.index, wins))?;
                    out = top[0];
                }
            }
        }
    }
    let [_, random, index, u, v, r, g, b] = top;
    let one = c(1.0);
    Ok(vec![
        Val::Scalar(out),
        Val::Color([r, g, b, one]),
        Val::Scalar(random),
        Val::Scalar(index),
        Val::Color([u, v, c(0.0), one]),
    ])
}

/// The instance of the cell `offset` cells from the sample's (`at`, in cells), as seen
/// from the sample.
fn instance(
    ctx: &mut NodeCtx<'_, '_>,
    grid: &Grid,
    frame: Frame,
    at: [Operand; 2],
    offset: [i32; 2],
) -> Result<Instance, GraphError> {
    // The shifted axis moves every other line of cells: find the line first, then the
    // cell along it from the sample moved back by the line's shift.
    let (line_axis, along_axis) = if grid.offset_columns { (0, 1) } else { (1, 0) };
    let counts = [grid.columns, grid.rows];
    let line = cell(ctx, at[line_axis], offset[line_axis])?;
    let line_wrapped = wrapped(ctx, line, counts[line_axis], grid.tileable)?;
    let shift = if grid.offset == 0.0 {
        c(0.0)
    } else {
        // (line mod 2)·offset.
        let half = ctx.emit(Op::Binary(Binary::Multiply, line_wrapped, c(0.5)))?;
        let odd = ctx.emit(Op::Unary(Unary::Fract, half))?;
        ctx.emit(Op::Binary(Binary::Multiply, odd, c(2.0 * grid.offset)))?
    };
    let moved_back = ctx.emit(Op::Binary(Binary::Subtract, at[along_axis], shift))?;
    let along = cell(ctx, moved_back, offset[along_axis])?;
    let along_wrapped = wrapped(ctx, along, counts[along_axis], grid.tileable)?;
    let mut cells = [c(0.0); 2];
    let mut index_of = [c(0.0); 2];
    cells[line_axis] = line;
    cells[along_axis] = along;
    index_of[line_axis] = line_wrapped;
    index_of[along_axis] = along_wrapped;
    let mut shifts = [c(0.0); 2];
    shifts[along_axis] = shift;

    // Random numbers of the instance: its wrapped cell's, wherever it is seen from.
    let hash = |ctx: &mut NodeCtx<'_, '_>, seed| {
        let [x, y] = index_of.map(|i| i);
        let x = ctx.emit(Op::Binary(Binary::Add, x, c(0.5)))?;
        let y = ctx.emit(Op::Binary(Binary::Add, y, c(0.5)))?;
        ctx.emit4(Op::CellHash {
            x,
            y,
            offset: [0, 0],
            seed,
            period: [0, 0],
        })
    };
    let [move_x, move_y, shrink, turn] = hash(ctx, grid.seed)?;
    let [drop, shade, random, pick] = hash(ctx, grid.seed ^ SECOND_DRAW)?;

    // The centre, in cells.
    let mut centre = [c(0.0); 2];
    for (axis, jitter) in [move_x, move_y].into_iter().enumerate() {
        let base = ctx.emit(Op::Binary(Binary::Add, cells[axis], c(0.5)))?;
        let base = ctx.emit(Op::Binary(Binary::Add, base, shifts[axis]))?;
        let centred = ctx.emit(Op::Binary(Binary::Subtract, jitter, c(0.5)))?;
        centre[axis] = ctx.emit(Op::MulAdd(centred, c(grid.position_random), base))?;
    }
    let at_centre =
        |ctx: &mut NodeCtx<'_, '_>, centre: [Operand; 2]| -> Result<Frame, GraphError> {
            Ok(Frame {
                x: ctx.emit(Op::Binary(
                    Binary::Multiply,
                    centre[0],
                    c(1.0 / grid.columns),
                ))?,
                y: ctx.emit(Op::Binary(Binary::Multiply, centre[1], c(1.0 / grid.rows)))?,
                ..frame
            })
        };
    if grid.displacement > 0.0 {
        let here = at_centre(ctx, centre)?;
        let amount = read_map(ctx, "displacement_map", here)?.expect("connected");
        let amount = ctx.emit(Op::Binary(Binary::Multiply, amount, c(grid.displacement)))?;
        let (cos, sin) = (grid.displacement_angle.cos(), grid.displacement_angle.sin());
        // Up the image is −v.
        centre[0] = ctx.emit(Op::MulAdd(amount, c(cos), centre[0]))?;
        centre[1] = ctx.emit(Op::MulAdd(amount, c(-sin), centre[1]))?;
    }
    let here = at_centre(ctx, centre)?;

    // Size (texture units) and turn (degrees).
    let shrink = ctx.emit(Op::Binary(Binary::Multiply, shrink, grid.scale_random))?;
    let mut factor = ctx.emit(Op::Unary(Unary::Invert, shrink))?;
    if let Some(scale) = read_map(ctx, "scale_map", here)? {
        let scale = ctx.emit(Op::Unary(Unary::Clamp01, scale))?;
        factor = ctx.emit(Op::Binary(Binary::Multiply, factor, scale))?;
    }
    let mut size = [c(0.0); 2];
    for axis in 0..2 {
        let cells = ctx.emit(Op::Binary(Binary::Multiply, factor, c(grid.scale[axis])))?;
        let cells = ctx.emit(Op::Binary(Binary::Subtract, cells, grid.interstice[axis]))?;
        let cells = ctx.emit(Op::Binary(Binary::Max, cells, c(0.0)))?;
        size[axis] = ctx.emit(Op::Binary(Binary::Multiply, cells, c(1.0 / counts[axis])))?;
    }
    let centred_turn = ctx.emit(Op::Binary(Binary::Subtract, turn, c(0.5)))?;
    let spin = ctx.emit(Op::Binary(Binary::Multiply, grid.rotation_random, c(360.0)))?;
    let mut angle = ctx.emit(Op::MulAdd(centred_turn, spin, grid.rotation))?;
    if let Some(turns) = read_map(ctx, "rotation_map", here)? {
        let per = ctx.emit(Op::Binary(
            Binary::Multiply,
            grid.rotation_map_amount,
            c(360.0),
        ))?;
        angle = ctx.emit(Op::MulAdd(turns, per, angle))?;
    }

    // The sample in the instance's square: its offset from the centre in texture units,
    // turned back (counterclockwise on screen, where v points down), over the size.
    let mut d = [c(0.0); 2];
    for axis in 0..2 {
        let cells = ctx.emit(Op::Binary(Binary::Subtract, at[axis], centre[axis]))?;
        d[axis] = ctx.emit(Op::Binary(Binary::Multiply, cells, c(1.0 / counts[axis])))?;
    }
    let cos = ctx.emit(Op::Unary(Unary::CosDeg, angle))?;
    let sin = ctx.emit(Op::Unary(Unary::SinDeg, angle))?;
    let sin_y = ctx.emit(Op::Binary(Binary::Multiply, sin, d[1]))?;
    let across = ctx.emit(Op::Binary(Binary::Multiply, cos, d[0]))?;
    let across = ctx.emit(Op::Binary(Binary::Subtract, across, sin_y))?;
    let sin_x = ctx.emit(Op::Binary(Binary::Multiply, sin, d[0]))?;
    let down = ctx.emit(Op::MulAdd(cos, d[1], sin_x))?;
    let mut local = [c(0.0); 2];
    let mut weight = c(1.0);
    for (axis, offset) in [across, down].into_iter().enumerate() {
        let inverse = ctx.emit(Op::Binary(Binary::Divide, c(1.0), size[axis]))?;
        local[axis] = ctx.emit(Op::MulAdd(offset, inverse, c(0.5)))?;
        // Inside the square, and of some size.
        for (a, b) in [
            (local[axis], c(0.0)),
            (c(1.0), local[axis]),
            (size[axis], c(1e-9)),
        ] {
            let inside = ctx.emit(Op::Binary(Binary::Step, a, b))?;
            weight = ctx.emit(Op::Binary(Binary::Multiply, weight, inside))?;
        }
    }

    // Kept: by chance, by the mask map, and (untiled) only the grid's own cells.
    let kept = ctx.emit(Op::Binary(Binary::Step, drop, grid.mask_random))?;
    weight = ctx.emit(Op::Binary(Binary::Multiply, weight, kept))?;
    if let Some(mask) = read_map(ctx, "mask_map", here)? {
        let kept = ctx.emit(Op::Binary(Binary::Step, mask, grid.mask_threshold))?;
        weight = ctx.emit(Op::Binary(Binary::Multiply, weight, kept))?;
    }
    if !grid.tileable {
        for axis in 0..2 {
            for (a, b) in [(cells[axis], c(0.0)), (c(counts[axis] - 1.0), cells[axis])] {
                let inside = ctx.emit(Op::Binary(Binary::Step, a, b))?;
                weight = ctx.emit(Op::Binary(Binary::Multiply, weight, inside))?;
            }
        }
    }
    let darken = ctx.emit(Op::Binary(Binary::Multiply, shade, grid.luminance_random))?;
    let brightness = ctx.emit(Op::Unary(Unary::Invert, darken))?;
    let brightness = ctx.emit(Op::Binary(Binary::Multiply, brightness, grid.luminance))?;
    weight = ctx.emit(Op::Binary(Binary::Multiply, weight, brightness))?;

    let drawn = draw(ctx, grid, local, here, pick)?;
    let value = ctx.emit(Op::Binary(Binary::Multiply, drawn, weight))?;
    let color = match ctx.input_at("color_map", here)? {
        Some(color) => {
            let [r, g, b, _] = ctx.rgba(color);
            [r, g, b]
        }
        None => {
            let [r, g, b, _] = hash(ctx, grid.seed ^ THIRD_DRAW)?;
            [r, g, b]
        }
    };
    let index = ctx.emit(Op::MulAdd(index_of[1], c(grid.columns), index_of[0]))?;
    Ok(Instance {
        local,
        value,
        random,
        index,
        color,
    })
}

/// The whole number of the cell holding `coord` (in cells), moved by `offset`.
fn cell(ctx: &mut NodeCtx<'_, '_>, coord: Operand, offset: i32) -> Result<Operand, GraphError> {
    let within = ctx.emit(Op::Unary(Unary::Fract, coord))?;
    let start = ctx.emit(Op::Binary(Binary::Subtract, coord, within))?;
    ctx.emit(Op::Binary(Binary::Add, start, c(offset as f32)))
}

/// Whole number `n` wrapped into 0..count when tileable (else as it is).
fn wrapped(
    ctx: &mut NodeCtx<'_, '_>,
    n: Operand,
    count: f32,
    tileable: bool,
) -> Result<Operand, GraphError> {
    if !tileable {
        return Ok(n);
    }
    let turns = ctx.emit(Op::Binary(Binary::Multiply, n, c(1.0 / count)))?;
    let turns = ctx.emit(Op::Unary(Unary::Fract, turns))?;
    let wrapped = ctx.emit(Op::Binary(Binary::Multiply, turns, c(count)))?;
    let wrapped = ctx.emit(Op::Unary(Unary::Round, wrapped))?;
    // A fraction a rounding short of 1 gives `count`: that is cell 0.
    let over = ctx.emit(Op::Binary(Binary::Step, wrapped, c(count)))?;
    ctx.emit(Op::MulAdd(over, c(-count), wrapped))
}

/// Map `port` at the instance's centre, as one channel; `None` when unconnected.
fn read_map(
    ctx: &mut NodeCtx<'_, '_>,
    port: &str,
    here: Frame,
) -> Result<Option<Operand>, GraphError> {
    match ctx.input_at(port, here)? {
        Some(value) => Ok(Some(ctx.scalar(value)?)),
        None => Ok(None),
    }
}

/// What the instance draws at `local` (its own square's coordinates): a built-in shape,
/// or the pattern input its distribution picks.
fn draw(
    ctx: &mut NodeCtx<'_, '_>,
    grid: &Grid,
    local: [Operand; 2],
    here: Frame,
    pick: Operand,
) -> Result<Operand, GraphError> {
    if grid.shape == "input" {
        let inside = Frame {
            x: local[0],
            y: local[1],
            local: true,
        };
        let chooser = match read_map(ctx, "pattern_distribution_map", here)? {
            Some(map) => ctx.emit(Op::Unary(Unary::Clamp01, map))?,
            None => pick,
        };
        // Input k + 1 where k ≤ chooser·n < k + 1 (the last also takes chooser = 1).
        let slot = ctx.emit(Op::Binary(Binary::Multiply, chooser, c(grid.inputs as f32)))?;
        let mut drawn = c(0.0);
        for k in 0..grid.inputs {
            let port = ["pattern_1", "pattern_2", "pattern_3", "pattern_4"][k];
            let value = match ctx.input_at(port, inside)? {
                Some(value) => ctx.scalar(value)?,
                None => c(1.0),
            };
            if grid.inputs == 1 {
                return Ok(value);
            }
            let from = ctx.emit(Op::Binary(Binary::Step, slot, c(k as f32)))?;
            let below = if k + 1 == grid.inputs {
                c(1.0)
            } else {
                let at_next = ctx.emit(Op::Binary(Binary::Step, slot, c((k + 1) as f32)))?;
                ctx.emit(Op::Unary(Unary::Invert, at_next))?
            };
            let chosen = ctx.emit(Op::Binary(Binary::Multiply, from, below))?;
            drawn = ctx.emit(Op::MulAdd(value, chosen, drawn))?;
        }
        return Ok(drawn);
    }
    shape(ctx, grid.shape, local)
}

/// Built-in shape `name` at `local`, from d = 2·local − 1 (−1 → 1 across the square).
fn shape(
    ctx: &mut NodeCtx<'_, '_>,
    name: &str,
    local: [Operand; 2],
) -> Result<Operand, GraphError> {
    if name == "square" {
        return Ok(c(1.0));
    }
    if name == "gradation" {
        return Ok(local[0]);
    }
    let d = [
        ctx.emit(Op::Unary(Unary::ToSigned, local[0]))?,
        ctx.emit(Op::Unary(Unary::ToSigned, local[1]))?,
    ];
    let xx = ctx.emit(Op::Binary(Binary::Multiply, d[0], d[0]))?;
    let r2 = ctx.emit(Op::MulAdd(d[1], d[1], xx))?;
    let disc = ctx.emit(Op::Binary(Binary::Step, c(1.0), r2))?;
    let rest2 = ctx.emit(Op::Unary(Unary::Invert, r2))?;
    let rest2 = ctx.emit(Op::Unary(Unary::Clamp01, rest2))?;
    let radial = |ctx: &mut NodeCtx<'_, '_>| -> Result<Operand, GraphError> {
        let r = ctx.emit(Op::Unary(Unary::Sqrt, r2))?;
        let rest = ctx.emit(Op::Unary(Unary::Invert, r))?;
        ctx.emit(Op::Unary(Unary::Clamp01, rest))
    };
    let chebyshev = |ctx: &mut NodeCtx<'_, '_>| -> Result<Operand, GraphError> {
        let ax = ctx.emit(Op::Unary(Unary::Abs, d[0]))?;
        let ay = ctx.emit(Op::Unary(Unary::Abs, d[1]))?;
        let m = ctx.emit(Op::Binary(Binary::Max, ax, ay))?;
        ctx.emit(Op::Unary(Unary::Invert, m))
    };
    match name {
        "disc" => Ok(disc),
        "paraboloid" => Ok(rest2),
        "hemisphere" => ctx.emit(Op::Unary(Unary::Sqrt, rest2)),
        "cone" => radial(ctx),
        "bell" => {
            let r = radial(ctx)?;
            ctx.emit(Op::Unary(Unary::Smoothstep, r))
        }
        "gaussian" => {
            // e^(−4r²) inside the disc: e^(−4) = 0.0183 at its edge.
            let falloff = ctx.emit(Op::Binary(Binary::Power, c((-4.0f32).exp()), r2))?;
            ctx.emit(Op::Binary(Binary::Multiply, falloff, disc))
        }
        "thorn" => {
            let r = radial(ctx)?;
            ctx.emit(Op::Binary(Binary::Power, r, c(3.0)))
        }
        "pyramid" => chebyshev(ctx),
        // A square with a bevel a quarter of its half-width wide.
        "brick" => {
            let rest = chebyshev(ctx)?;
            let ramp = ctx.emit(Op::Binary(Binary::Multiply, rest, c(4.0)))?;
            ctx.emit(Op::Unary(Unary::Clamp01, ramp))
        }
        _ => Ok(c(1.0)),
    }
}
