//! The flood-fill family: `flood_fill` labels the shapes of a mask (a whole-plane stage),
//! and its companions turn each shape into a value of its own: a random gray or color, a
//! gradient, its size, position or number, or an instance drawn on it (`shape_splatter`). A companion reads the shape under its sample
//! from the flood fill's plane; connected to anything else, it flood-fills that as a mask.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param, ParamKind,
    PortType, SCALAR_OUT, Unconnected, angle, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, BoxMeasure, FillRead, Op, Operand};
use texgraph_kernels::gradient::Ramp;

/// The companions' input.
const SHAPES: InputPort = InputPort {
    name: "flood_fill",
    ty: PortType::Color,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "A `flood_fill` node's output, connected directly; anything else is taken as a mask \
          and flood-filled at threshold 0.5.",
};

/// The seed of a per-shape random.
const SHAPE_SEED: Param = Param {
    name: "seed",
    doc: "Seed of the per-shape randoms.",
    kind: ParamKind::Int {
        default: 0,
        min: 0,
        max: 2_147_483_647,
    },
};

/// `flood_fill`: label the connected shapes of a mask.
pub static FLOOD_FILL: NodeDescriptor = NodeDescriptor {
    id: "flood_fill",
    label: "Flood Fill",
    category: Category::Mask,
    doc: "Finds the connected shapes of a mask (texels above `threshold`, joined through edges \
          and corners, and across the image's edges in tileable graphs, so a shape cut by the \
          border is one shape). Each shape gets its bounding box and a number; the `fill_to_*` \
          nodes read them. `out` shows each shape in a color of its own: red and green its \
          box's centre (u, v), blue its random (as `fill_to_random` with seed 0), alpha 1; \
          black on the background. Shapes are known by their first texel in scan order, so their \
          randoms stay put when other shapes change.",
    inputs: &[InputPort {
        name: "mask",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "Shapes separated by dark gaps (a color input is read as its luminance).",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::Color,
        doc: "A color per shape: its centre's u and v, its random, 1.",
    }],
    params: &[float(
        "threshold",
        0.5,
        0.0,
        1.0,
        "Mask values above it are inside a shape.",
    )],
    compile: |ctx| {
        let shapes = shapes_of(ctx)?;
        let read = |ctx: &mut NodeCtx<'_, '_>, read| fill(ctx, shapes, read);
        Ok(vec![Val::Color([
            read(ctx, FillRead::Centre { down: false })?,
            read(ctx, FillRead::Centre { down: true })?,
            read(ctx, FillRead::Random { seed: 0 })?,
            Operand::Const(1.0),
        ])])
    },
};

/// `fill_to_random`: a random gray per shape.
pub static FILL_TO_RANDOM: NodeDescriptor = NodeDescriptor {
    id: "fill_to_random",
    label: "Fill to Random",
    category: Category::Mask,
    doc: "A random gray in [0, 1) per shape of a flood fill, from the shape's first texel and \
          `seed`; 0 on the background.",
    inputs: &[SHAPES],
    outputs: SCALAR_OUT,
    params: &[SHAPE_SEED],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        let seed = ctx.int("seed") as u32;
        Ok(vec![Val::Scalar(fill(
            ctx,
            shapes,
            FillRead::Random { seed },
        )?)])
    },
};

/// `fill_to_color`: a random color per shape, picked from a ramp.
pub static FILL_TO_COLOR: NodeDescriptor = NodeDescriptor {
    id: "fill_to_color",
    label: "Fill to Color",
    category: Category::Mask,
    doc: "A color per shape of a flood fill: the ramp `stops` read at the shape's random \
          number (as `fill_to_random` with the same `seed`), blended linearly between stops; \
          opaque black on the background.",
    inputs: &[SHAPES],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::Color,
        doc: "The shape's color.",
    }],
    params: &[
        Param {
            name: "stops",
            doc: "The ramp the colors are picked from: [{\"pos\": 0..1, \"color\": \
                  \"#rrggbb\"}, …].",
            kind: ParamKind::Stops {
                default: &[(0.0, "#202020"), (1.0, "#e0e0e0")],
            },
        },
        SHAPE_SEED,
    ],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        let seed = ctx.int("seed") as u32;
        let random = fill(ctx, shapes, FillRead::Random { seed })?;
        let inside = fill(ctx, shapes, FillRead::Inside)?;
        let mut stops = ctx.stops("stops");
        stops.sort_by(|x, y| x.0.total_cmp(&y.0));
        let ramp = ctx.ramp(Ramp {
            stops,
            constant: false,
        });
        let color = ctx.emit4(Op::Ramp { a: random, ramp })?;
        let mut masked = [Operand::Const(1.0); 4];
        for (m, c) in masked.iter_mut().zip(&color[..3]) {
            *m = ctx.emit(Op::Binary(Binary::Multiply, *c, inside))?;
        }
        Ok(vec![Val::Color(masked)])
    },
};

/// `fill_to_gradient`: a linear gradient across each shape.
pub static FILL_TO_GRADIENT: NodeDescriptor = NodeDescriptor {
    id: "fill_to_gradient",
    label: "Fill to Gradient",
    category: Category::Mask,
    doc: "A linear gradient across each shape's bounding box of a flood fill: 0 on one side, \
          1 on the other, rising towards `angle` (degrees counterclockwise from the right) \
          turned per shape by `variation` × a random angle in ±180°. Per shape: t = 0.5 + \
          (d·(cos a, −sin a)) / (w·|cos a| + h·|sin a|), d the offset from the box's centre, \
          clamped to [0, 1]; 0 on the background. Tilted stones and slabs.",
    inputs: &[SHAPES],
    outputs: SCALAR_OUT,
    params: &[
        angle("Direction the gradient rises towards, degrees counterclockwise from the right."),
        float(
            "variation",
            1.0,
            0.0,
            1.0,
            "Share of a random turn per shape: 0 all alike, 1 any direction.",
        ),
        SHAPE_SEED,
    ],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        let read = FillRead::Gradient {
            angle: ctx.uniform("angle")?.to_bits(),
            variation: ctx.uniform("variation")?.to_bits(),
            seed: ctx.int("seed") as u32,
        };
        Ok(vec![Val::Scalar(fill(ctx, shapes, read)?)])
    },
};

/// `fill_to_bbox_size`: the size of each shape's bounding box.
pub static FILL_TO_BBOX_SIZE: NodeDescriptor = NodeDescriptor {
    id: "fill_to_bbox_size",
    label: "Fill to BBox Size",
    category: Category::Mask,
    doc: "The size of each shape's bounding box of a flood fill, in texture units (1 is the \
          image's width or height): the larger side, the width, the height or the area; 0 on \
          the background. Small stones darker, large ones lighter.",
    inputs: &[SHAPES],
    outputs: SCALAR_OUT,
    params: &[choice(
        "measure",
        "max",
        &["max", "width", "height", "area"],
        "What is measured.",
    )],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        let measure = match ctx.text("measure") {
            "width" => BoxMeasure::Width,
            "height" => BoxMeasure::Height,
            "area" => BoxMeasure::Area,
            _ => BoxMeasure::Max,
        };
        Ok(vec![Val::Scalar(fill(
            ctx,
            shapes,
            FillRead::Size(measure),
        )?)])
    },
};

/// `fill_to_position`: the centre of each shape.
pub static FILL_TO_POSITION: NodeDescriptor = NodeDescriptor {
    id: "fill_to_position",
    label: "Fill to Position",
    category: Category::Mask,
    doc: "The centre of each shape's bounding box of a flood fill, in texture units (in [0, 1) \
          in tileable graphs); 0 on the background. Feed it to a noise's position to give every \
          shape its own sample of it.",
    inputs: &[SHAPES],
    outputs: &[
        OutputPort {
            name: "x",
            ty: OutputType::Scalar,
            doc: "The centre's u.",
        },
        OutputPort {
            name: "y",
            ty: OutputType::Scalar,
            doc: "The centre's v.",
        },
    ],
    params: &[],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        Ok(vec![
            Val::Scalar(fill(ctx, shapes, FillRead::Centre { down: false })?),
            Val::Scalar(fill(ctx, shapes, FillRead::Centre { down: true })?),
        ])
    },
};

/// `fill_to_index`: each shape's number.
pub static FILL_TO_INDEX: NodeDescriptor = NodeDescriptor {
    id: "fill_to_index",
    label: "Fill to Index",
    category: Category::Mask,
    doc: "Each shape's number in scan order of its first texel (top row first, then left to \
          right), as (number + 1) / shapes: the first shape 1/n, the last 1; 0 on the \
          background.",
    inputs: &[SHAPES],
    outputs: SCALAR_OUT,
    params: &[],
    compile: |ctx| {
        let shapes = shapes_input(ctx, "flood_fill")?;
        Ok(vec![Val::Scalar(fill(ctx, shapes, FillRead::Index)?)])
    },
};

/// The shapes plane of the `flood_fill` node connected to `port` (its labelling alone,
/// not its own output); anything else connected there is taken as a mask and
/// flood-filled at threshold 0.5.
fn shapes_input(ctx: &mut NodeCtx<'_, '_>, port: &str) -> Result<u32, GraphError> {
    if let Some(shapes) = ctx.through_input(port, "flood_fill", shapes_of) {
        return shapes;
    }
    let mask = ctx
        .plane(port, PlaneInput::HEIGHT)?
        .expect("an open input reads its default");
    ctx.shapes(mask, 0.5)
}

/// The shapes plane of a `flood_fill` node: what its companions read.
fn shapes_of(ctx: &mut NodeCtx<'_, '_>) -> Result<u32, GraphError> {
    let threshold = ctx.uniform("threshold")?;
    let mask = ctx
        .plane("mask", PlaneInput::HEIGHT)?
        .expect("an open mask reads its default");
    ctx.shapes(mask, threshold)
}

/// `read` of the shape under this node's sample position.
fn fill(ctx: &mut NodeCtx<'_, '_>, plane: u32, read: FillRead) -> Result<Operand, GraphError> {
    let frame = ctx.frame();
    ctx.emit(Op::Fill {
        plane,
        x: frame.x,
        y: frame.y,
        read,
    })
}

/// `shape_splatter`: one instance on each shape of a flood fill.
pub static SHAPE_SPLATTER: NodeDescriptor = NodeDescriptor {
    id: "shape_splatter",
    label: "Shape Splatter",
    category: Category::Mask,
    doc: "One instance on each shape of a flood fill (a stone, a tile, a plank), centred on the \
          shape's bounding box and sized by it: a built-in shape or the pattern input over \
          the instance's own square, `scale` times the box (`fit` box: the box's width and \
          height; larger side or smaller side: a square), shrunk, turned and darkened at \
          random per shape (from `seed`). Each instance is drawn within its own shape only, \
          so instances never spill onto their neighbours; 0 on the background. In tileable \
          graphs a shape cut by the border is one shape, and so is its instance.",
    inputs: &[
        SHAPES,
        crate::nodes::tile_sampler::pattern(
            "pattern_1",
            "Drawn by each instance when `pattern` is input (its unit square over the instance's box); unconnected means a white square.",
        ),
    ],
    outputs: &[
        OutputPort {
            name: "out",
            ty: OutputType::Scalar,
            doc: "The instances.",
        },
        OutputPort {
            name: "instance_uv",
            ty: OutputType::Color,
            doc: "The sample in its instance's own square: red 0 to 1 across it, green 0 to 1 down it (turned with it), black on the background.",
        },
        OutputPort {
            name: "instance_random",
            ty: OutputType::Scalar,
            doc: "A random value in [0, 1) per shape, 0 on the background.",
        },
    ],
    params: &[
        choice(
            "pattern",
            "disc",
            crate::nodes::tile_sampler::SHAPES,
            "What each instance draws: a built-in shape, or `input` for the pattern input.",
        ),
        choice(
            "fit",
            "box",
            &["box", "larger side", "smaller side"],
            "The instance's size before `scale`: the shape's bounding box, or a square of its larger or smaller side.",
        ),
        float("scale", 0.8, 0.0, 2.0, "Instance size, times the fit."),
        crate::nodes::tile_sampler::SCALE_RANDOM,
        crate::nodes::tile_sampler::ROTATION,
        crate::nodes::tile_sampler::ROTATION_RANDOM,
        crate::nodes::tile_sampler::LUMINANCE_RANDOM,
        SHAPE_SEED,
    ],
    compile: shape_splatter,
};

fn shape_splatter(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    use texgraph_engine::program::{Binary as B, Unary};
    let c = Operand::Const;
    let shapes = shapes_input(ctx, "flood_fill")?;
    let seed = ctx.int("seed") as u32;
    let frame = ctx.frame();
    let tileable = ctx.tileable();
    let random = |ctx: &mut NodeCtx<'_, '_>, salt: u32| {
        fill(ctx, shapes, FillRead::Random { seed: seed ^ salt })
    };
    let inside = fill(ctx, shapes, FillRead::Inside)?;
    let own = random(ctx, 0)?;
    let (shrink, turn, shade) = (
        random(ctx, 0x5EED_0001)?,
        random(ctx, 0x5EED_0002)?,
        random(ctx, 0x5EED_0003)?,
    );
    // The box and the instance's size in texture units.
    let width = fill(ctx, shapes, FillRead::Size(BoxMeasure::Width))?;
    let height = fill(ctx, shapes, FillRead::Size(BoxMeasure::Height))?;
    let [mut across, mut down] = match ctx.text("fit") {
        "larger side" => [ctx.emit(Op::Binary(B::Max, width, height))?; 2],
        "smaller side" => [ctx.emit(Op::Binary(B::Min, width, height))?; 2],
        _ => [width, height],
    };
    let scale = ctx.float("scale")?;
    let scale_random = ctx.float("scale_random")?;
    let shrunk = ctx.emit(Op::Binary(B::Multiply, shrink, scale_random))?;
    let factor = ctx.emit(Op::Unary(Unary::Invert, shrunk))?;
    let factor = ctx.emit(Op::Binary(B::Multiply, factor, scale))?;
    for side in [&mut across, &mut down] {
        let sized = ctx.emit(Op::Binary(B::Multiply, *side, factor))?;
        // Never 0: a shape of no size draws nothing (its sample falls outside).
        *side = ctx.emit(Op::Binary(B::Max, sized, c(1e-9)))?;
    }
    // The sample from the box's centre (its nearest copy when tileable), turned back.
    let mut d = [c(0.0); 2];
    for (axis, (coord, down_axis)) in [(frame.x, false), (frame.y, true)].into_iter().enumerate() {
        let centre = fill(ctx, shapes, FillRead::Centre { down: down_axis })?;
        d[axis] = ctx.emit(Op::Binary(B::Subtract, coord, centre))?;
        if tileable {
            let whole = ctx.emit(Op::Unary(Unary::Round, d[axis]))?;
            d[axis] = ctx.emit(Op::Binary(B::Subtract, d[axis], whole))?;
        }
    }
    let rotation = ctx.float("rotation")?;
    let rotation_random = ctx.float("rotation_random")?;
    let centred = ctx.emit(Op::Binary(B::Subtract, turn, c(0.5)))?;
    let spin = ctx.emit(Op::Binary(B::Multiply, rotation_random, c(360.0)))?;
    let angle = ctx.emit(Op::MulAdd(centred, spin, rotation))?;
    let cos = ctx.emit(Op::Unary(Unary::CosDeg, angle))?;
    let sin = ctx.emit(Op::Unary(Unary::SinDeg, angle))?;
    let sin_y = ctx.emit(Op::Binary(B::Multiply, sin, d[1]))?;
    let turned_x = ctx.emit(Op::Binary(B::Multiply, cos, d[0]))?;
    let turned_x = ctx.emit(Op::Binary(B::Subtract, turned_x, sin_y))?;
    let sin_x = ctx.emit(Op::Binary(B::Multiply, sin, d[0]))?;
    let turned_y = ctx.emit(Op::MulAdd(cos, d[1], sin_x))?;
    let mut local = [c(0.0); 2];
    for (axis, (turned, side)) in [(turned_x, across), (turned_y, down)]
        .into_iter()
        .enumerate()
    {
        let over = ctx.emit(Op::Binary(B::Divide, turned, side))?;
        local[axis] = ctx.emit(Op::Binary(B::Add, over, c(0.5)))?;
    }
    let drawn = match crate::nodes::tile_sampler::built_in(ctx.text("pattern")) {
        Some(shape) => ctx.emit(Op::InstanceShape {
            shape,
            u: local[0],
            v: local[1],
        })?,
        None => {
            let drawn = crate::nodes::tile_sampler::pattern_input(ctx, 1, local, c(0.0))?;
            let mut kept = drawn;
            for (a, b) in [
                (local[0], c(0.0)),
                (c(1.0), local[0]),
                (local[1], c(0.0)),
                (c(1.0), local[1]),
            ] {
                let within = ctx.emit(Op::Binary(B::Step, a, b))?;
                kept = ctx.emit(Op::Binary(B::Multiply, kept, within))?;
            }
            kept
        }
    };
    let luminance_random = ctx.float("luminance_random")?;
    let darken = ctx.emit(Op::Binary(B::Multiply, shade, luminance_random))?;
    let brightness = ctx.emit(Op::Unary(Unary::Invert, darken))?;
    let weight = ctx.emit(Op::Binary(B::Multiply, inside, brightness))?;
    let out = ctx.emit(Op::Binary(B::Multiply, drawn, weight))?;
    let [u, v] = local.map(|l| ctx.emit(Op::Binary(B::Multiply, l, inside)));
    Ok(vec![
        Val::Scalar(out),
        Val::Color([u?, v?, c(0.0), c(1.0)]),
        Val::Scalar(own),
    ])
}
