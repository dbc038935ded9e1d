//! The flood-fill family: `flood_fill` labels the shapes of a mask (a whole-plane stage),
//! and its companions turn each shape into a value of its own: a random gray or color, a
//! gradient, its size, position or number. A companion reads the shape under its sample
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
