//! `tile_sampler`: instances on a grid, each a pattern input or a built-in shape, varied
//! by random numbers per instance and by maps read at each instance's centre (Substance's
//! Tile Sampler, Material Maker's Tiler).
//!
//! What an instance is (centre, size and turn as one matrix, weight, random value, color,
//! pattern pick, bounding box) is computed once per instance, into a plane of one texel
//! per instance (`fixed_plane`), whatever the render's size: maps are compiled there at
//! the instance's centre, so a thumbnail and an export place the same instances. A
//! sample can only be covered by the instances of the cells within a fixed reach of its
//! own: built-in shapes are drawn by `Op::Instances`, which finds them a block of samples
//! at a time and skips those whose bounding box misses the block; pattern inputs, which
//! are compiled at each instance's own coordinates, are compiled once per cell of that
//! neighbourhood. Either way a pixel's cost depends on how far instances reach, never on
//! how many there are.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OutputPort, OutputType, Param, PortType, SEED,
    Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{
    Binary, InstanceBlend, InstanceGrid, InstanceShape, Op, Operand, Unary,
};

/// The most cells a sample looks at along each side of its own (7 × 7 cells at most).
const MAX_REACH: f32 = 3.0;
/// Seed changes of an instance's second and third four random numbers.
pub const SECOND_DRAW: u32 = 0x5EED_0002;
/// See [`SECOND_DRAW`].
pub const THIRD_DRAW: u32 = 0x5EED_0003;
/// Values at or below this are "not drawn" (for the instance on top).
pub(crate) const VISIBLE: f32 = 1e-6;

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

pub(crate) const fn pattern(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Scalar,
        // Only read when `pattern` is input: a built-in shape leaves them open.
        unconnected: Unconnected::NodeDecides,
        doc,
    }
}

/// Params the nodes that draw instances share.
pub(crate) const SCALE_RANDOM: Param = float(
    "scale_random",
    0.0,
    0.0,
    1.0,
    "Shrinks each instance by up to this fraction.",
);
/// See [`SCALE_RANDOM`].
pub(crate) const ROTATION: Param = float(
    "rotation",
    0.0,
    -360.0,
    360.0,
    "Turn of every instance, degrees counterclockwise.",
);
/// See [`SCALE_RANDOM`].
pub(crate) const ROTATION_RANDOM: Param = float(
    "rotation_random",
    0.0,
    0.0,
    1.0,
    "Random turn of each instance: 1 is any angle.",
);
/// See [`SCALE_RANDOM`].
pub(crate) const LUMINANCE: Param =
    float("luminance", 1.0, 0.0, 1.0, "Brightness of every instance.");
/// See [`SCALE_RANDOM`].
pub(crate) const LUMINANCE_RANDOM: Param = float(
    "luminance_random",
    0.0,
    0.0,
    1.0,
    "Darkens each instance by up to this fraction.",
);
/// See [`SCALE_RANDOM`].
pub(crate) const MASK_RANDOM: Param = float(
    "mask_random",
    0.0,
    0.0,
    1.0,
    "Chance that an instance is left out.",
);
/// See [`SCALE_RANDOM`].
pub(crate) const BLEND: Param = choice(
    "blend",
    "max",
    &["max", "add", "painter"],
    "How overlapping instances combine.",
);

/// The outputs of the nodes that draw instances.
pub(crate) const INSTANCE_OUTPUTS: &[OutputPort] = &[
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
];

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
          at most 3 cells from their own; beyond that they are cut. A float param with \
          something connected is read once per instance, at its cell's centre.",
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
    outputs: INSTANCE_OUTPUTS,
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
        SCALE_RANDOM,
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
        ROTATION,
        ROTATION_RANDOM,
        float(
            "rotation_map_amount",
            1.0,
            -4.0,
            4.0,
            "Turns per unit of the rotation map.",
        ),
        LUMINANCE,
        LUMINANCE_RANDOM,
        MASK_RANDOM,
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
        BLEND,
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
    position_random: f32,
    offset: f32,
    offset_columns: bool,
    displacement: f32,
    displacement_angle: f32,
    shape: &'static str,
    inputs: usize,
    blend: InstanceBlend,
    seed: u32,
    tileable: bool,
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
            position_random: ctx.uniform("position_random")?.clamp(0.0, 2.0),
            offset: ctx.uniform("offset")?.clamp(0.0, 1.0),
            offset_columns: ctx.text("offset_direction") == "columns",
            displacement: if ctx.is_connected("displacement_map") {
                ctx.uniform("displacement_intensity")?.clamp(0.0, 2.0)
            } else {
                0.0
            },
            displacement_angle: ctx.uniform("displacement_angle")?.to_radians(),
            shape,
            inputs: ctx.uniform("pattern_inputs")?.round().clamp(1.0, 4.0) as usize,
            blend: match ctx.text("blend") {
                "add" => InstanceBlend::Add,
                "painter" => InstanceBlend::Painter,
                _ => InstanceBlend::Max,
            },
            seed: ctx.int("seed") as u32,
            tileable: ctx.tileable(),
        })
    }

    /// Cells a sample looks at each way, across and down: an instance reaches half its
    /// box's diagonal from its centre (whatever its turn), which is at most
    /// position_random/2 + displacement_intensity from its cell's centre.
    fn reach(&self) -> [u32; 2] {
        let half_diagonal = 0.5 * (self.scale[0].powi(2) + self.scale[1].powi(2)).sqrt();
        // The diagonal in cells of each axis (cells need not be square).
        let texture = half_diagonal * (1.0 / self.columns).max(1.0 / self.rows);
        let moved = 0.5 * self.position_random + self.displacement;
        [self.columns, self.rows]
            .map(|count| (texture * count + moved + 0.5).floor().min(MAX_REACH) as u32)
    }

    /// The shifted axis (which moves every other line of cells) and the other, as axes
    /// (0 across, 1 down).
    fn axes(&self) -> (usize, usize) {
        if self.offset_columns { (0, 1) } else { (1, 0) }
    }
}

fn tile_sampler(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let grid = Grid::read(ctx)?;
    let plane = ctx.fixed_plane(grid.columns as u32, grid.rows as u32, |ctx| {
        attributes(ctx, &grid)
    })?;
    let frame = ctx.frame();
    if grid.shape == "input" {
        return drawn_inputs(ctx, &grid, plane);
    }
    let shape = built_in(grid.shape).expect("not input");
    let drawn = ctx.emit_many(Op::Instances {
        plane,
        x: frame.x,
        y: frame.y,
        grid: InstanceGrid {
            columns: grid.columns as u32,
            rows: grid.rows as u32,
            reach: grid.reach(),
            offset: grid.offset.to_bits(),
            offset_columns: grid.offset_columns,
            tileable: grid.tileable,
            anywhere: false,
            shape,
            blend: grid.blend,
        },
    })?;
    let [out, random, index, u, v, r, g, b] = drawn[..] else {
        unreachable!("instances write eight slots")
    };
    Ok(outputs(out, [random, index, u, v, r, g, b]))
}

/// The built-in shape `name` names (of [`SHAPES`]); `None` for `input`.
pub(crate) fn built_in(name: &str) -> Option<InstanceShape> {
    Some(match name {
        "input" => return None,
        "disc" => InstanceShape::Disc,
        "paraboloid" => InstanceShape::Paraboloid,
        "bell" => InstanceShape::Bell,
        "gaussian" => InstanceShape::Gaussian,
        "pyramid" => InstanceShape::Pyramid,
        "cone" => InstanceShape::Cone,
        "hemisphere" => InstanceShape::Hemisphere,
        "brick" => InstanceShape::Brick,
        "thorn" => InstanceShape::Thorn,
        "gradation" => InstanceShape::Gradation,
        _ => InstanceShape::Square,
    })
}

/// The node's outputs from the combined value and, of the instance on top, its random
/// value, index, u, v, red, green and blue.
pub(crate) fn outputs(out: Operand, top: [Operand; 7]) -> Vec<Val> {
    let [random, index, u, v, r, g, b] = top;
    let one = c(1.0);
    vec![
        Val::Scalar(out),
        Val::Color([r, g, b, one]),
        Val::Scalar(random),
        Val::Scalar(index),
        Val::Color([u, v, c(0.0), one]),
    ]
}

/// The pattern inputs drawn by the instances within reach of the sample: each instance
/// compiled once per cell of that neighbourhood, its pattern at its own coordinates.
fn drawn_inputs(
    ctx: &mut NodeCtx<'_, '_>,
    grid: &Grid,
    plane: u32,
) -> Result<Vec<Val>, GraphError> {
    let frame = ctx.frame();
    let px = ctx.emit(Op::Binary(Binary::Multiply, frame.x, c(grid.columns)))?;
    let py = ctx.emit(Op::Binary(Binary::Multiply, frame.y, c(grid.rows)))?;
    let [reach_x, reach_y] = grid.reach().map(|r| r as i32);
    let (line_axis, _) = grid.axes();
    let (line_reach, along_reach) = if line_axis == 0 {
        (reach_x, reach_y)
    } else {
        (reach_y, reach_x)
    };
    let mut stack = Stack::new(grid.blend);
    // Line by line, then along each: the order `Op::Instances` meets them in.
    for line in -line_reach..=line_reach {
        for along in -along_reach..=along_reach {
            let instance = instance(ctx, grid, plane, [px, py], [line, along])?;
            stack.add(ctx, &instance)?;
        }
    }
    Ok(stack.outputs())
}

/// Instances combined one after another as a sample meets them: what `Op::Instances`
/// does for built-in shapes, in operations, for instances compiled one by one.
pub(crate) struct Stack {
    blend: InstanceBlend,
    out: Operand,
    /// The largest value so far (max and add).
    best: Operand,
    /// The drawing order of the instance on top (painter), −1 before any.
    order: Operand,
    /// Of the instance on top: value, random, index, u, v, red, green, blue.
    top: [Operand; 8],
}

impl Stack {
    /// Nothing drawn yet.
    pub(crate) fn new(blend: InstanceBlend) -> Self {
        Self {
            blend,
            out: c(0.0),
            best: c(0.0),
            order: c(-1.0),
            top: [c(0.0); 8],
        }
    }

    /// Draws `instance` over what is there.
    pub(crate) fn add(
        &mut self,
        ctx: &mut NodeCtx<'_, '_>,
        instance: &Instance,
    ) -> Result<(), GraphError> {
        let value = instance.value;
        let visible = ctx.emit(Op::Binary(Binary::Step, value, c(VISIBLE)))?;
        let wins = match self.blend {
            // The largest contribution so far (ties to the later).
            InstanceBlend::Max | InstanceBlend::Add => {
                let above = ctx.emit(Op::Binary(Binary::Step, value, self.best))?;
                ctx.emit(Op::Binary(Binary::Multiply, above, visible))?
            }
            // The one drawn last: the highest index of the instances that show.
            InstanceBlend::Painter => {
                let later = ctx.emit(Op::Binary(Binary::Step, instance.index, self.order))?;
                ctx.emit(Op::Binary(Binary::Multiply, later, visible))?
            }
        };
        let mine = [
            value,
            instance.random,
            instance.index,
            instance.local[0],
            instance.local[1],
            instance.color[0],
            instance.color[1],
            instance.color[2],
        ];
        for (kept, new) in self.top.iter_mut().zip(mine) {
            *kept = ctx.emit(Op::Lerp(*kept, new, wins))?;
        }
        match self.blend {
            InstanceBlend::Max => {
                self.best = ctx.emit(Op::Binary(Binary::Max, self.best, value))?;
                self.out = self.best;
            }
            InstanceBlend::Add => {
                self.best = ctx.emit(Op::Binary(Binary::Max, self.best, value))?;
                self.out = ctx.emit(Op::Binary(Binary::Add, self.out, value))?;
            }
            InstanceBlend::Painter => {
                self.order = ctx.emit(Op::Lerp(self.order, instance.index, wins))?;
                self.out = self.top[0];
            }
        }
        Ok(())
    }

    /// The node's outputs.
    pub(crate) fn outputs(self) -> Vec<Val> {
        let [_, random, index, u, v, r, g, b] = self.top;
        outputs(self.out, [random, index, u, v, r, g, b])
    }
}

/// One instance, as seen from the sample.
pub(crate) struct Instance {
    /// The sample in the instance's own square (0 → 1 across and down it).
    pub(crate) local: [Operand; 2],
    /// What it draws there, 0 outside it, and 0 when it is left out.
    pub(crate) value: Operand,
    /// Its random value for `instance_random`, its index over the count, its color.
    pub(crate) random: Operand,
    pub(crate) index: Operand,
    pub(crate) color: [Operand; 3],
}

/// The instance `steps` (lines, then cells along the line) from the sample's cell (`at`,
/// in cells), as seen from the sample, read from the instance `plane`.
fn instance(
    ctx: &mut NodeCtx<'_, '_>,
    grid: &Grid,
    plane: u32,
    at: [Operand; 2],
    steps: [i32; 2],
) -> Result<Instance, GraphError> {
    use texgraph_engine::program::instance as channel;
    // The shifted axis moves every other line of cells: find the line first, then the
    // cell along it from the sample moved back by the line's shift.
    let (line_axis, along_axis) = grid.axes();
    let counts = [grid.columns, grid.rows];
    let line = cell(ctx, at[line_axis], steps[0])?;
    let line_own = wrapped(ctx, line, counts[line_axis], grid.tileable)?;
    let shift = line_shift(ctx, grid, line_own)?;
    let moved_back = ctx.emit(Op::Binary(Binary::Subtract, at[along_axis], shift))?;
    let along = cell(ctx, moved_back, steps[1])?;
    let along_own = wrapped(ctx, along, counts[along_axis], grid.tileable)?;
    let mut cells = [c(0.0); 2];
    let mut own = [c(0.0); 2];
    (cells[line_axis], cells[along_axis]) = (line, along);
    (own[line_axis], own[along_axis]) = (line_own, along_own);
    let texel = ctx.emit_many(Op::Texel {
        plane,
        channels: channel::CHANNELS as u32,
        x: own[0],
        y: own[1],
    })?;

    // The centre of this copy (whole periods from the grid's own), and the sample in the
    // instance's square.
    let mut d = [c(0.0); 2];
    for axis in 0..2 {
        let periods = ctx.emit(Op::Binary(Binary::Subtract, cells[axis], own[axis]))?;
        let centre = ctx.emit(Op::Binary(
            Binary::Add,
            texel[channel::CENTRE_X + axis],
            periods,
        ))?;
        d[axis] = ctx.emit(Op::Binary(Binary::Subtract, at[axis], centre))?;
    }
    let (local, mut weight) = in_square(ctx, &texel, d)?;
    // Untiled, only the grid's own cells.
    if !grid.tileable {
        for axis in 0..2 {
            for (a, b) in [(cells[axis], c(0.0)), (c(counts[axis] - 1.0), cells[axis])] {
                let inside = ctx.emit(Op::Binary(Binary::Step, a, b))?;
                weight = ctx.emit(Op::Binary(Binary::Multiply, weight, inside))?;
            }
        }
    }
    let drawn = pattern_input(ctx, grid.inputs, local, texel[channel::PICK])?;
    let value = ctx.emit(Op::Binary(Binary::Multiply, drawn, weight))?;
    let index = ctx.emit(Op::MulAdd(own[1], c(grid.columns), own[0]))?;
    let index = ctx.emit(Op::Binary(
        Binary::Multiply,
        index,
        c(1.0 / (grid.columns * grid.rows)),
    ))?;
    let color = channel::COLOR;
    Ok(Instance {
        local,
        value,
        random: texel[channel::RANDOM],
        index,
        color: [texel[color], texel[color + 1], texel[color + 2]],
    })
}

/// What one instance is, whatever sample sees it: the channels of its texel of the
/// instance plane (see [`texgraph_engine::program::instance`]). The stage's image frame
/// is the centre of the instance's own cell.
fn attributes(ctx: &mut NodeCtx<'_, '_>, grid: &Grid) -> Result<Vec<Operand>, GraphError> {
    let frame = ctx.frame();
    let counts = [grid.columns, grid.rows];
    let mut own = [c(0.0); 2];
    for (axis, coord) in [frame.x, frame.y].into_iter().enumerate() {
        let at = ctx.emit(Op::Binary(Binary::Multiply, coord, c(counts[axis])))?;
        own[axis] = cell(ctx, at, 0)?;
    }
    let (line_axis, along_axis) = grid.axes();
    let mut shifts = [c(0.0); 2];
    shifts[along_axis] = line_shift(ctx, grid, own[line_axis])?;

    // Random numbers of the instance, from its cell.
    let hash = |ctx: &mut NodeCtx<'_, '_>, seed| instance_randoms(ctx, own, seed);
    let [move_x, move_y, shrink, turn] = hash(ctx, grid.seed)?;
    let [drop, shade, random, pick] = hash(ctx, grid.seed ^ SECOND_DRAW)?;

    // The centre, in cells.
    let mut centre = [c(0.0); 2];
    for (axis, jitter) in [move_x, move_y].into_iter().enumerate() {
        let base = ctx.emit(Op::Binary(Binary::Add, own[axis], c(0.5)))?;
        let base = ctx.emit(Op::Binary(Binary::Add, base, shifts[axis]))?;
        let centred = ctx.emit(Op::Binary(Binary::Subtract, jitter, c(0.5)))?;
        centre[axis] = ctx.emit(Op::MulAdd(centred, c(grid.position_random), base))?;
    }
    let at_centre =
        |ctx: &mut NodeCtx<'_, '_>, centre: [Operand; 2]| -> Result<Frame, GraphError> {
            Ok(Frame {
                x: ctx.emit(Op::Binary(Binary::Multiply, centre[0], c(1.0 / counts[0])))?,
                y: ctx.emit(Op::Binary(Binary::Multiply, centre[1], c(1.0 / counts[1])))?,
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
    let scale_random = ctx.float("scale_random")?;
    let shrink = ctx.emit(Op::Binary(Binary::Multiply, shrink, scale_random))?;
    let mut factor = ctx.emit(Op::Unary(Unary::Invert, shrink))?;
    if let Some(scale) = read_map(ctx, "scale_map", here)? {
        let scale = ctx.emit(Op::Unary(Unary::Clamp01, scale))?;
        factor = ctx.emit(Op::Binary(Binary::Multiply, factor, scale))?;
    }
    let mut size = [c(0.0); 2];
    let mut weight = c(1.0);
    for (axis, gap) in ["interstice_x", "interstice_y"].into_iter().enumerate() {
        let gap = ctx.float(gap)?;
        let cells = ctx.emit(Op::Binary(Binary::Multiply, factor, c(grid.scale[axis])))?;
        let cells = ctx.emit(Op::Binary(Binary::Subtract, cells, gap))?;
        let cells = ctx.emit(Op::Binary(Binary::Max, cells, c(0.0)))?;
        size[axis] = ctx.emit(Op::Binary(Binary::Multiply, cells, c(1.0 / counts[axis])))?;
        // Of some size.
        let some = ctx.emit(Op::Binary(Binary::Step, size[axis], c(1e-9)))?;
        weight = ctx.emit(Op::Binary(Binary::Multiply, weight, some))?;
    }
    let rotation = ctx.float("rotation")?;
    let rotation_random = ctx.float("rotation_random")?;
    let centred_turn = ctx.emit(Op::Binary(Binary::Subtract, turn, c(0.5)))?;
    let spin = ctx.emit(Op::Binary(Binary::Multiply, rotation_random, c(360.0)))?;
    let mut angle = ctx.emit(Op::MulAdd(centred_turn, spin, rotation))?;
    if let Some(turns) = read_map(ctx, "rotation_map", here)? {
        let amount = ctx.float("rotation_map_amount")?;
        let per = ctx.emit(Op::Binary(Binary::Multiply, amount, c(360.0)))?;
        angle = ctx.emit(Op::MulAdd(turns, per, angle))?;
    }

    let (matrix, extent) = placement(ctx, angle, size, counts)?;
    weight = kept_and_shaded(ctx, weight, drop, shade)?;
    if let Some(mask) = read_map(ctx, "mask_map", here)? {
        let threshold = ctx.float("mask_map_threshold")?;
        let kept = ctx.emit(Op::Binary(Binary::Step, mask, threshold))?;
        weight = ctx.emit(Op::Binary(Binary::Multiply, weight, kept))?;
    }

    let [r, g, b] = match ctx.input_at("color_map", here)? {
        Some(color) => {
            let [r, g, b, _] = ctx.rgba(color);
            [r, g, b]
        }
        None => {
            let [r, g, b, _] = hash(ctx, grid.seed ^ THIRD_DRAW)?;
            [r, g, b]
        }
    };
    let distribution = if grid.shape == "input" {
        read_map(ctx, "pattern_distribution_map", here)?
    } else {
        None
    };
    let chooser = match distribution {
        Some(map) => ctx.emit(Op::Unary(Unary::Clamp01, map))?,
        None => pick,
    };
    let [m00, m01, m10, m11] = matrix;
    Ok(vec![
        centre[0], centre[1], m00, m01, m10, m11, weight, random, r, g, b, chooser, extent[0],
        extent[1],
    ])
}

/// The sample `d` from an instance's centre in its own square (from the instance's
/// `texel` of the instance plane), and the instance's weight there: 0 outside the
/// square.
pub(crate) fn in_square(
    ctx: &mut NodeCtx<'_, '_>,
    texel: &[Operand],
    d: [Operand; 2],
) -> Result<([Operand; 2], Operand), GraphError> {
    use texgraph_engine::program::instance as channel;
    let m = &texel[channel::MATRIX..channel::MATRIX + 4];
    let mut local = [c(0.0); 2];
    let mut weight = texel[channel::WEIGHT];
    for axis in 0..2 {
        let second = ctx.emit(Op::MulAdd(m[2 * axis + 1], d[1], c(0.5)))?;
        local[axis] = ctx.emit(Op::MulAdd(m[2 * axis], d[0], second))?;
        for (a, b) in [(local[axis], c(0.0)), (c(1.0), local[axis])] {
            let inside = ctx.emit(Op::Binary(Binary::Step, a, b))?;
            weight = ctx.emit(Op::Binary(Binary::Multiply, weight, inside))?;
        }
    }
    Ok((local, weight))
}

/// For an instance `size` texture units across and down, turned `angle` degrees
/// (counterclockwise on screen, where v points down): the matrix taking a sample's
/// offset from its centre, in units `counts` to a texture unit (cells; 1 for texture
/// units), to its own square, and half its turned box's width and height in those units.
pub(crate) fn placement(
    ctx: &mut NodeCtx<'_, '_>,
    angle: Operand,
    size: [Operand; 2],
    counts: [f32; 2],
) -> Result<([Operand; 4], [Operand; 2]), GraphError> {
    let cos = ctx.emit(Op::Unary(Unary::CosDeg, angle))?;
    let sin = ctx.emit(Op::Unary(Unary::SinDeg, angle))?;
    let minus_sin = ctx.emit(Op::Binary(Binary::Multiply, sin, c(-1.0)))?;
    let mut matrix = [c(0.0); 4];
    for (axis, [across, down]) in [[cos, minus_sin], [sin, cos]].into_iter().enumerate() {
        let kept = ctx.emit(Op::Binary(Binary::Max, size[axis], c(1e-9)))?;
        let inverse = ctx.emit(Op::Binary(Binary::Divide, c(1.0), kept))?;
        for (k, (term, count)) in [(across, counts[0]), (down, counts[1])]
            .into_iter()
            .enumerate()
        {
            let per_unit = ctx.emit(Op::Binary(Binary::Multiply, term, c(1.0 / count)))?;
            matrix[2 * axis + k] = ctx.emit(Op::Binary(Binary::Multiply, per_unit, inverse))?;
        }
    }
    let (abs_cos, abs_sin) = (
        ctx.emit(Op::Unary(Unary::Abs, cos))?,
        ctx.emit(Op::Unary(Unary::Abs, sin))?,
    );
    let mut extent = [c(0.0); 2];
    for (axis, (first, second)) in [(abs_cos, abs_sin), (abs_sin, abs_cos)]
        .into_iter()
        .enumerate()
    {
        let a = ctx.emit(Op::Binary(Binary::Multiply, first, size[0]))?;
        let both = ctx.emit(Op::MulAdd(second, size[1], a))?;
        extent[axis] = ctx.emit(Op::Binary(Binary::Multiply, both, c(0.5 * counts[axis])))?;
    }
    Ok((matrix, extent))
}

/// `weight` left out by chance (`drop` below mask_random) and darkened (by `shade`
/// times luminance_random, times luminance).
pub(crate) fn kept_and_shaded(
    ctx: &mut NodeCtx<'_, '_>,
    weight: Operand,
    drop: Operand,
    shade: Operand,
) -> Result<Operand, GraphError> {
    let mask_random = ctx.float("mask_random")?;
    let kept = ctx.emit(Op::Binary(Binary::Step, drop, mask_random))?;
    let weight = ctx.emit(Op::Binary(Binary::Multiply, weight, kept))?;
    let luminance_random = ctx.float("luminance_random")?;
    let darken = ctx.emit(Op::Binary(Binary::Multiply, shade, luminance_random))?;
    let brightness = ctx.emit(Op::Unary(Unary::Invert, darken))?;
    let luminance = ctx.float("luminance")?;
    let brightness = ctx.emit(Op::Binary(Binary::Multiply, brightness, luminance))?;
    ctx.emit(Op::Binary(Binary::Multiply, weight, brightness))
}

/// Four random numbers of the instance of texel `own` (whole column and row) of an
/// instance plane, for `seed`.
pub(crate) fn instance_randoms(
    ctx: &mut NodeCtx<'_, '_>,
    own: [Operand; 2],
    seed: u32,
) -> Result<[Operand; 4], GraphError> {
    let x = ctx.emit(Op::Binary(Binary::Add, own[0], c(0.5)))?;
    let y = ctx.emit(Op::Binary(Binary::Add, own[1], c(0.5)))?;
    ctx.emit4(Op::CellHash {
        x,
        y,
        offset: [0, 0],
        seed,
        period: [0, 0],
    })
}

/// The shift of line `line` (a whole number in the grid) along it: `offset` on odd
/// lines.
fn line_shift(
    ctx: &mut NodeCtx<'_, '_>,
    grid: &Grid,
    line: Operand,
) -> Result<Operand, GraphError> {
    if grid.offset == 0.0 {
        return Ok(c(0.0));
    }
    // (line mod 2)·offset.
    let half = ctx.emit(Op::Binary(Binary::Multiply, line, c(0.5)))?;
    let odd = ctx.emit(Op::Unary(Unary::Fract, half))?;
    ctx.emit(Op::Binary(Binary::Multiply, odd, c(2.0 * grid.offset)))
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

/// The pattern input an instance draws at `local` (its own square's coordinates): the
/// one `chooser` (0 to 1) picks.
pub(crate) fn pattern_input(
    ctx: &mut NodeCtx<'_, '_>,
    inputs: usize,
    local: [Operand; 2],
    chooser: Operand,
) -> Result<Operand, GraphError> {
    let inside = Frame {
        x: local[0],
        y: local[1],
        local: true,
    };
    // Input k + 1 where k ≤ chooser·n < k + 1 (the last also takes chooser = 1).
    let slot = ctx.emit(Op::Binary(Binary::Multiply, chooser, c(inputs as f32)))?;
    let mut drawn = c(0.0);
    for k in 0..inputs {
        let port = ["pattern_1", "pattern_2", "pattern_3", "pattern_4"][k];
        let value = match ctx.input_at(port, inside)? {
            Some(value) => ctx.scalar(value)?,
            None => c(1.0),
        };
        if inputs == 1 {
            return Ok(value);
        }
        let from = ctx.emit(Op::Binary(Binary::Step, slot, c(k as f32)))?;
        let below = if k + 1 == inputs {
            c(1.0)
        } else {
            let at_next = ctx.emit(Op::Binary(Binary::Step, slot, c((k + 1) as f32)))?;
            ctx.emit(Op::Unary(Unary::Invert, at_next))?
        };
        let chosen = ctx.emit(Op::Binary(Binary::Multiply, from, below))?;
        drawn = ctx.emit(Op::MulAdd(value, chosen, drawn))?;
    }
    Ok(drawn)
}
