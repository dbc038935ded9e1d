//! Terrain nodes: `hydraulic_erosion` and `thermal_erosion`, simulations over the whole
//! heightfield (the evaluator's `erosion`), and `terrace`, a per-texel reshaping of
//! heights into steps. The erosions' settings are in texture units and normalised time,
//! so a preview and an export show the same valleys; they wrap in tileable graphs and
//! give the same bits on any thread count and instruction set.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::compile::planes::PlaneInput;
use crate::descriptor::PortType;
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param, ParamKind, SEED,
    Unconnected, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};
use texgraph_engine::terrain::{Erosion, Hydraulic, Thermal};

const HEIGHT: InputPort = InputPort {
    name: "height",
    ty: PortType::Scalar,
    unconnected: Unconnected::Reads(OpenValue::BLACK),
    doc: "The heightfield eroded (a color is taken as its luminance).",
};

const DURATION: Param = float(
    "duration",
    1.0,
    0.0,
    4.0,
    "How long it runs: 1 is the default's worth of steps, 2 twice as many. The same at \
     every render size.",
);

/// `hydraulic_erosion`: rain, rivers, worn slopes and deposits.
pub static HYDRAULIC_EROSION: NodeDescriptor = NodeDescriptor {
    id: "hydraulic_erosion",
    label: "Hydraulic Erosion",
    category: Category::Terrain,
    doc: "Rain falls on the heightfield, runs downhill and gathers into streams (each cell \
          passes its water and load to its lower neighbours in proportion to the squared \
          slope); water stands in hollows as lakes until they spill. Running water carries \
          up to `capacity` × water × slope (large streams more with \
          `downcutting`), wears the ground where it carries less and lays \
          material down where it carries more; still water lays down all it carries, so \
          lakes fill with sediment, and a lake still standing at the end is filled level to \
          its lowest water surface (its bed would read as a pit). It runs coarse to fine, from a grid of 128 cells \
          across to the render's, so a preview and an export show the same valleys. Heights \
          keep the input's units (a height of 1 stands a tenth of the texture's width, as \
          for the normal map); material is only moved, the filled lakes aside. Tileable graphs wrap; otherwise \
          water runs out over the edges. Outputs: `flow` = q / (q + 0.002), q being the \
          area (a share of the texture's) draining through the texel; `wear` and \
          `deposition` = m / (m + 0.01), m being the height worn away or laid down (a \
          filled lake's depth counted as laid down).",
    inputs: &[
        HEIGHT,
        InputPort {
            name: "rain_map",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "Multiplies the rain per texel (negative reads 0). Unconnected: rain falls \
                  evenly.",
        },
        InputPort {
            name: "hardness_map",
            ty: PortType::Scalar,
            unconnected: Unconnected::NodeDecides,
            doc: "0 (soft) to 1 (does not wear) per texel: rock bands, resistant caps. \
                  Unconnected: every texel soft.",
        },
    ],
    outputs: &[
        OutputPort {
            name: "height",
            ty: OutputType::Scalar,
            doc: "The eroded heights, in the input's units.",
        },
        OutputPort {
            name: "flow",
            ty: OutputType::Scalar,
            doc: "Water discharge, 0…1: the river network.",
        },
        OutputPort {
            name: "wear",
            ty: OutputType::Scalar,
            doc: "Material worn away, 0…1: gullies and river beds.",
        },
        OutputPort {
            name: "deposition",
            ty: OutputType::Scalar,
            doc: "Material laid down, 0…1: alluvial fans, valley floors, filled pits.",
        },
    ],
    params: &[
        DURATION,
        float(
            "rain",
            1.0,
            0.0,
            4.0,
            "Rain on every texel; more water carries more material.",
        ),
        float(
            "evaporation",
            0.1,
            0.0,
            10.0,
            "Water lost along the way, per texture width: with 1, a stream that runs the \
             width of the texture keeps 1/e (37%) of its water. Streams that dry up lay their \
             load down.",
        ),
        float(
            "capacity",
            1.0,
            0.0,
            4.0,
            "How much material running water can carry: deeper cuts and larger deposits.",
        ),
        float(
            "downcutting",
            0.0,
            0.0,
            50.0,
            "How much more large streams carry than their water alone says: a stream \
             draining q of the texture carries (1 + downcutting × √(q / 0.002)) times as \
             much, so streams cut their beds faster than their banks wear and valleys branch \
             into gullies and ridges (10 is a strong cut). With 0, erosion smooths and fills \
             more than it carves. Finer renders run finer grids, which cut finer gullies: an \
             export shows more branches than its preview, on the same valleys.",
        ),
        float(
            "erosion",
            0.3,
            0.0,
            1.0,
            "The share of the missing load water picks up from the ground per step.",
        ),
        float(
            "deposition",
            0.3,
            0.0,
            1.0,
            "The share of the excess load water lays down per step.",
        ),
        float(
            "min_slope",
            0.02,
            0.0,
            1.0,
            "Water carries as if the ground were at least this steep (rise over run), so \
             flats still wear.",
        ),
        Param {
            doc: "Seed of the rain's random variation (±25%, 16 cells across).",
            ..SEED
        },
    ],
    compile: |ctx| {
        let settings = Hydraulic {
            duration: ctx.uniform("duration")?,
            rain: ctx.uniform("rain")?,
            evaporation: ctx.uniform("evaporation")?,
            capacity: ctx.uniform("capacity")?,
            downcutting: ctx.uniform("downcutting")?,
            erosion: ctx.uniform("erosion")?,
            deposition: ctx.uniform("deposition")?,
            min_slope: ctx.uniform("min_slope")?,
            seed: ctx.int("seed") as u32,
        };
        let height = height_plane(ctx)?;
        let rain = ctx.plane("rain_map", PlaneInput::HEIGHT)?;
        let hardness = ctx.plane("hardness_map", PlaneInput::HEIGHT)?;
        let plane = ctx.eroded(height, rain, hardness, Erosion::Hydraulic(settings))?;
        let channels = ctx.read(plane, false)?.channels();
        Ok(channels.into_iter().map(Val::Scalar).collect())
    },
};

/// `thermal_erosion`: talus slopes.
pub static THERMAL_EROSION: NodeDescriptor = NodeDescriptor {
    id: "thermal_erosion",
    label: "Thermal Erosion",
    category: Category::Terrain,
    doc: "Where the ground is steeper than `talus_angle`, material slides to the lower \
          neighbours (each step a cell sends `strength` × half its largest excess height, \
          shared by how far each neighbour lies below the angle): scree slopes, rounded \
          crests, filled clefts. A height of 1 stands a tenth of the texture's width, as for \
          the normal map. Runs coarse to fine like `hydraulic_erosion`; material is only \
          moved. Tileable graphs wrap; otherwise the edges are walls.",
    inputs: &[HEIGHT],
    outputs: &[OutputPort {
        name: "height",
        ty: OutputType::Scalar,
        doc: "The settled heights, in the input's units.",
    }],
    params: &[
        DURATION,
        float(
            "talus_angle",
            35.0,
            0.0,
            89.0,
            "The steepest slope that stands, degrees: loose rock rests near 35°.",
        ),
        float(
            "strength",
            0.5,
            0.0,
            1.0,
            "The share of the excess moved per step.",
        ),
    ],
    compile: |ctx| {
        let settings = Thermal {
            duration: ctx.uniform("duration")?,
            talus_angle: ctx.uniform("talus_angle")?,
            strength: ctx.uniform("strength")?,
        };
        let height = height_plane(ctx)?;
        let plane = ctx.eroded(height, None, None, Erosion::Thermal(settings))?;
        Ok(vec![ctx.read(plane, false)?])
    },
};

/// `terrace`: heights in steps, as strata weather into ledges.
pub static TERRACE: NodeDescriptor = NodeDescriptor {
    id: "terrace",
    label: "Terrace",
    category: Category::Terrain,
    doc: "Shapes heights into `steps` terraces: with x = h·steps − offset, each step is \
          floor(x) + smoothstep((frac(x) − sharpness)/(1 − sharpness)), divided back by \
          `steps` (offset added back), so a step keeps its floor flat over the first \
          `sharpness` of its rise and climbs to the next in the rest. Sharpness 0 gives soft \
          S-shaped steps, near 1 flat treads and sheer risers. `amount` mixes the original \
          back in. Per texel: it reaches no neighbours and tiles as its input does; erode \
          after it for weathered ledges.",
    inputs: &[InputPort {
        name: "height",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The heights to terrace (a color is taken as its luminance).",
    }],
    outputs: &[OutputPort {
        name: "height",
        ty: OutputType::Scalar,
        doc: "The terraced heights, in the input's units.",
    }],
    params: &[
        Param {
            name: "steps",
            doc: "Terraces per unit of height.",
            kind: ParamKind::Int {
                default: 8,
                min: 1,
                max: 256,
            },
        },
        float(
            "sharpness",
            0.7,
            0.0,
            1.0,
            "The share of each step's rise that stays flat: 0 soft S-shaped steps, 1 sheer \
             risers.",
        ),
        float(
            "offset",
            0.0,
            0.0,
            1.0,
            "Moves the terraces' edges up by this share of a step.",
        ),
        float(
            "amount",
            1.0,
            0.0,
            1.0,
            "How much of the terracing shows: 0 the input unchanged.",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("height")?
            .expect("an open height reads its default");
        let height = ctx.scalar(input)?;
        let steps = ctx.int("steps").max(1) as f32;
        let sharpness = ctx.float("sharpness")?;
        let offset = ctx.float("offset")?;
        let amount = ctx.float("amount")?;
        let binary = |ctx: &mut NodeCtx<'_, '_>, op, a, b| ctx.emit(Op::Binary(op, a, b));
        let scaled = binary(ctx, Binary::Multiply, height, Operand::Const(steps))?;
        let x = binary(ctx, Binary::Subtract, scaled, offset)?;
        let floor = ctx.emit(Op::Unary(Unary::Floor, x))?;
        let within = binary(ctx, Binary::Subtract, x, floor)?;
        // The rise is the part of a step past `sharpness`; kept a hair wide so that a
        // sharpness of 1 makes sheer risers rather than dividing by 0.
        let rest = binary(ctx, Binary::Subtract, Operand::Const(1.0), sharpness)?;
        let rise = binary(ctx, Binary::Max, rest, Operand::Const(MIN_RISE))?;
        let climbed = binary(ctx, Binary::Subtract, within, sharpness)?;
        let t = binary(ctx, Binary::Divide, climbed, rise)?;
        let eased = ctx.emit(Op::Unary(Unary::Smoothstep, t))?;
        let level = binary(ctx, Binary::Add, floor, eased)?;
        let shifted = binary(ctx, Binary::Add, level, offset)?;
        let terraced = binary(ctx, Binary::Multiply, shifted, Operand::Const(1.0 / steps))?;
        Ok(vec![Val::Scalar(
            ctx.emit(Op::Lerp(height, terraced, amount))?,
        )])
    },
};

/// The narrowest rise of a terrace, as a share of its step.
const MIN_RISE: f32 = 1.0e-4;

/// The `height` input as a full-size plane of one channel.
fn height_plane(ctx: &mut NodeCtx<'_, '_>) -> Result<u32, GraphError> {
    Ok(ctx
        .plane("height", PlaneInput::HEIGHT)?
        .expect("an open height reads its default"))
}
