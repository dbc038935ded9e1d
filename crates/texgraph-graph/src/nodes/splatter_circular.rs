//! `splatter_circular`: instances on rings around a centre (Substance's Splatter
//! Circular, Material Maker's circular splatter).
//!
//! Each instance is worked out once, into a plane of one texel per instance (`count`
//! across, `rings` down), as the tile sampler's are. Built-in shapes are drawn by
//! `Op::Instances`, which tests every instance's bounding box against each block of
//! samples; a pattern input is compiled once per instance at its own coordinates, so it
//! is drawn by at most [`MAX_PATTERN_INSTANCES`].

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::descriptor::{Category, NodeDescriptor, Param, ParamKind, SEED, choice, float};
use crate::nodes::tile_sampler::{
    BLEND, INSTANCE_OUTPUTS, Instance, LUMINANCE, LUMINANCE_RANDOM, MASK_RANDOM, ROTATION,
    ROTATION_RANDOM, SCALE_RANDOM, SECOND_DRAW, SHAPES, Stack, THIRD_DRAW, built_in, in_square,
    instance_randoms, kept_and_shaded, pattern, pattern_input, placement,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{
    Binary, InstanceBlend, InstanceGrid, Op, Operand, Unary, instance as channel,
};

/// The most instances that draw a pattern input (each is compiled into every pixel).
pub const MAX_PATTERN_INSTANCES: usize = 64;

/// `splatter_circular`: instances on rings.
pub static SPLATTER_CIRCULAR: NodeDescriptor = NodeDescriptor {
    id: "splatter_circular",
    label: "Splatter Circular",
    category: Category::Pattern,
    doc: "Instances on rings around (center_x, center_y): `count` on each of `rings` rings, \
          evenly spaced out to `radius`, each drawing a built-in shape or the pattern input \
          over its own box. The first sits at `angle` (degrees counterclockwise from the \
          right); each ring is turned by ring_offset of a step more than the one inside it, \
          and `spiral` moves each instance outwards along its ring, by up to a ring's gap \
          at the last, into a spiral. With `follow` on, instances turn with the ring, their \
          top pointing away from the centre. Each instance has its own random numbers (from \
          `seed`) for its place, size, turn, brightness and presence. Overlaps combine by \
          `max`, `add`, or `painter` (the instance drawn last that is not black there shows; \
          ring by ring from the inside, each counterclockwise from the first). Instances are \
          at most half the texture across; in tileable graphs they wrap around the edges. \
          A pattern input is drawn by at most 64 instances (count × rings); built-in shapes \
          by up to 1024.",
    inputs: &[pattern(
        "pattern_1",
        "Drawn by each instance when `pattern` is input (its unit square over the instance's box); unconnected means a white square.",
    )],
    outputs: INSTANCE_OUTPUTS,
    params: &[
        float("count", 8.0, 1.0, 64.0, "Instances on each ring (rounded)."),
        float("rings", 1.0, 1.0, 16.0, "Rings (rounded)."),
        float(
            "radius",
            0.3,
            0.0,
            0.5,
            "Radius of the outer ring, texture units; inner rings are evenly spaced inside it.",
        ),
        float(
            "spiral",
            0.0,
            -1.0,
            1.0,
            "Moves each instance outwards along its ring by this many ring gaps times its place on the ring (0 at the first, almost 1 at the last): a spiral.",
        ),
        float(
            "angle",
            90.0,
            -360.0,
            360.0,
            "Where the first instance of each ring sits, degrees counterclockwise from the right (90: at the top).",
        ),
        float(
            "ring_offset",
            0.0,
            0.0,
            1.0,
            "How far each ring is turned past the one inside it, in steps between instances (0.5: staggered).",
        ),
        Param {
            name: "follow",
            doc: "Instances turn with the ring, their top pointing away from the centre.",
            kind: ParamKind::Bool { default: true },
        },
        float(
            "center_x",
            0.5,
            0.0,
            1.0,
            "Centre of the rings, across, texture units.",
        ),
        float(
            "center_y",
            0.5,
            0.0,
            1.0,
            "Centre of the rings, down, texture units.",
        ),
        choice(
            "pattern",
            "disc",
            SHAPES,
            "What each instance draws: a built-in shape, or `input` for the pattern input.",
        ),
        float(
            "scale",
            0.1,
            0.0,
            0.5,
            "Instance size, texture units (at most half the texture with size_x and size_y).",
        ),
        float("size_x", 1.0, 0.0, 4.0, "Width, times `scale`."),
        float("size_y", 1.0, 0.0, 4.0, "Height, times `scale`."),
        SCALE_RANDOM,
        float(
            "position_random",
            0.0,
            0.0,
            0.25,
            "Moves each instance by up to half this many texture units each way.",
        ),
        ROTATION,
        ROTATION_RANDOM,
        LUMINANCE,
        LUMINANCE_RANDOM,
        MASK_RANDOM,
        BLEND,
        SEED,
    ],
    compile: splatter_circular,
};

fn c(value: f32) -> Operand {
    Operand::Const(value)
}

/// The settings, all the same over the whole image.
struct Rings {
    count: f32,
    rings: f32,
    radius: f32,
    spiral: f32,
    angle: f32,
    ring_offset: f32,
    follow: bool,
    centre: [f32; 2],
    /// Width and height in texture units, before random shrinking.
    size: [f32; 2],
    seed: u32,
}

impl Rings {
    fn read(ctx: &mut NodeCtx<'_, '_>) -> Result<Self, GraphError> {
        let scale = ctx.uniform("scale")?.clamp(0.0, 0.5);
        // At most half the texture, so that a sample sees one copy of each instance.
        let side = |ctx: &mut NodeCtx<'_, '_>, name| -> Result<f32, GraphError> {
            Ok((scale * ctx.uniform(name)?.clamp(0.0, 4.0)).min(0.5))
        };
        Ok(Self {
            count: ctx.uniform("count")?.round().clamp(1.0, 64.0),
            rings: ctx.uniform("rings")?.round().clamp(1.0, 16.0),
            radius: ctx.uniform("radius")?.clamp(0.0, 0.5),
            spiral: ctx.uniform("spiral")?.clamp(-1.0, 1.0),
            angle: ctx.uniform("angle")?,
            ring_offset: ctx.uniform("ring_offset")?.clamp(0.0, 1.0),
            follow: ctx.flag("follow"),
            centre: [ctx.uniform("center_x")?, ctx.uniform("center_y")?],
            size: [side(ctx, "size_x")?, side(ctx, "size_y")?],
            seed: ctx.int("seed") as u32,
        })
    }
}

fn splatter_circular(ctx: &mut NodeCtx<'_, '_>) -> Result<Vec<Val>, GraphError> {
    let rings = Rings::read(ctx)?;
    let (count, ring_count) = (rings.count as u32, rings.rings as u32);
    let plane = ctx.fixed_plane(count, ring_count, |ctx| attributes(ctx, &rings))?;
    let blend = match ctx.text("blend") {
        "add" => InstanceBlend::Add,
        "painter" => InstanceBlend::Painter,
        _ => InstanceBlend::Max,
    };
    let tileable = ctx.tileable();
    let frame = ctx.frame();
    let Some(shape) = built_in(ctx.text("pattern")) else {
        let instances = (count * ring_count) as usize;
        if instances > MAX_PATTERN_INSTANCES {
            return Err(ctx.error(
                "count",
                format!(
                    "a pattern input is drawn by at most {MAX_PATTERN_INSTANCES} instances, and \
                     count × rings is {instances}: use fewer, or a built-in shape"
                ),
            ));
        }
        let mut stack = Stack::new(blend);
        for ring in 0..ring_count {
            for step in 0..count {
                let seen = instance(ctx, plane, [count, ring_count], [step, ring], tileable)?;
                stack.add(ctx, &seen)?;
            }
        }
        return Ok(stack.outputs());
    };
    let drawn = ctx.emit_many(Op::Instances {
        plane,
        x: frame.x,
        y: frame.y,
        grid: InstanceGrid {
            columns: count,
            rows: ring_count,
            reach: [0, 0],
            offset: 0,
            offset_columns: false,
            tileable,
            anywhere: true,
            shape,
            blend,
        },
    })?;
    let [out, random, index, u, v, r, g, b] = drawn[..] else {
        unreachable!("instances write eight slots")
    };
    Ok(crate::nodes::tile_sampler::outputs(
        out,
        [random, index, u, v, r, g, b],
    ))
}

/// Instance `at` (its place on its ring, its ring) seen from the sample, read from the
/// instance `plane` of `counts` instances: its pattern input at its own coordinates.
fn instance(
    ctx: &mut NodeCtx<'_, '_>,
    plane: u32,
    counts: [u32; 2],
    at: [u32; 2],
    tileable: bool,
) -> Result<Instance, GraphError> {
    let frame = ctx.frame();
    let texel = ctx.emit_many(Op::Texel {
        plane,
        channels: channel::CHANNELS as u32,
        x: c(at[0] as f32),
        y: c(at[1] as f32),
    })?;
    let mut d = [c(0.0); 2];
    for (axis, coord) in [frame.x, frame.y].into_iter().enumerate() {
        d[axis] = ctx.emit(Op::Binary(
            Binary::Subtract,
            coord,
            texel[channel::CENTRE_X + axis],
        ))?;
        if tileable {
            // The nearest copy.
            let whole = ctx.emit(Op::Unary(Unary::Round, d[axis]))?;
            d[axis] = ctx.emit(Op::Binary(Binary::Subtract, d[axis], whole))?;
        }
    }
    let (local, weight) = in_square(ctx, &texel, d)?;
    let drawn = pattern_input(ctx, 1, local, c(0.0))?;
    let value = ctx.emit(Op::Binary(Binary::Multiply, drawn, weight))?;
    let index = (at[1] as f32 * counts[0] as f32 + at[0] as f32)
        * (1.0 / (counts[0] as f32 * counts[1] as f32));
    let color = channel::COLOR;
    Ok(Instance {
        local,
        value,
        random: texel[channel::RANDOM],
        index: c(index),
        color: [texel[color], texel[color + 1], texel[color + 2]],
    })
}

/// What one instance is (see [`texgraph_engine::program::instance`]), in texture units:
/// the stage's image frame is the centre of the instance's texel, `count` across and
/// `rings` down.
fn attributes(ctx: &mut NodeCtx<'_, '_>, rings: &Rings) -> Result<Vec<Operand>, GraphError> {
    let frame = ctx.frame();
    let mut own = [c(0.0); 2];
    for (axis, (coord, n)) in [(frame.x, rings.count), (frame.y, rings.rings)]
        .into_iter()
        .enumerate()
    {
        let at = ctx.emit(Op::Binary(Binary::Multiply, coord, c(n)))?;
        let within = ctx.emit(Op::Unary(Unary::Fract, at))?;
        own[axis] = ctx.emit(Op::Binary(Binary::Subtract, at, within))?;
    }
    let [step, ring] = own;
    let hash = |ctx: &mut NodeCtx<'_, '_>, seed| instance_randoms(ctx, own, seed);
    let [move_x, move_y, shrink, turn] = hash(ctx, rings.seed)?;
    let [drop, shade, random, _] = hash(ctx, rings.seed ^ SECOND_DRAW)?;
    let [r, g, b, _] = hash(ctx, rings.seed ^ THIRD_DRAW)?;

    // Where on its ring, in degrees, and how far out.
    let place = ctx.emit(Op::MulAdd(ring, c(rings.ring_offset), step))?;
    let degrees = ctx.emit(Op::MulAdd(place, c(360.0 / rings.count), c(rings.angle)))?;
    let gap = rings.radius / rings.rings;
    let ring_radius = ctx.emit(Op::MulAdd(ring, c(gap), c(gap)))?;
    let along = ctx.emit(Op::Binary(Binary::Multiply, step, c(1.0 / rings.count)))?;
    let distance = ctx.emit(Op::MulAdd(along, c(rings.spiral * gap), ring_radius))?;
    let cos = ctx.emit(Op::Unary(Unary::CosDeg, degrees))?;
    let sin = ctx.emit(Op::Unary(Unary::SinDeg, degrees))?;
    let position_random = ctx.float("position_random")?;
    let mut centre = [c(0.0); 2];
    // Up the image is −v.
    for (axis, (toward, jitter)) in [(cos, move_x), (sin, move_y)].into_iter().enumerate() {
        let sign = if axis == 0 { 1.0 } else { -1.0 };
        let out = ctx.emit(Op::Binary(Binary::Multiply, toward, c(sign)))?;
        let on_ring = ctx.emit(Op::MulAdd(out, distance, c(rings.centre[axis])))?;
        let centred = ctx.emit(Op::Binary(Binary::Subtract, jitter, c(0.5)))?;
        centre[axis] = ctx.emit(Op::MulAdd(centred, position_random, on_ring))?;
    }

    // Size (texture units) and turn (degrees).
    let scale_random = ctx.float("scale_random")?;
    let shrink = ctx.emit(Op::Binary(Binary::Multiply, shrink, scale_random))?;
    let factor = ctx.emit(Op::Unary(Unary::Invert, shrink))?;
    let mut size = [c(0.0); 2];
    let mut weight = c(1.0);
    for (side, full) in size.iter_mut().zip(rings.size) {
        *side = ctx.emit(Op::Binary(Binary::Multiply, factor, c(full)))?;
        let some = ctx.emit(Op::Binary(Binary::Step, *side, c(1e-9)))?;
        weight = ctx.emit(Op::Binary(Binary::Multiply, weight, some))?;
    }
    let rotation = ctx.float("rotation")?;
    let rotation_random = ctx.float("rotation_random")?;
    let centred_turn = ctx.emit(Op::Binary(Binary::Subtract, turn, c(0.5)))?;
    let spin = ctx.emit(Op::Binary(Binary::Multiply, rotation_random, c(360.0)))?;
    let mut angle = ctx.emit(Op::MulAdd(centred_turn, spin, rotation))?;
    if rings.follow {
        // Upright at the top of the ring.
        let with_ring = ctx.emit(Op::Binary(Binary::Subtract, degrees, c(90.0)))?;
        angle = ctx.emit(Op::Binary(Binary::Add, angle, with_ring))?;
    }
    let (matrix, extent) = placement(ctx, angle, size, [1.0, 1.0])?;
    weight = kept_and_shaded(ctx, weight, drop, shade)?;
    let [m00, m01, m10, m11] = matrix;
    Ok(vec![
        centre[0],
        centre[1],
        m00,
        m01,
        m10,
        m11,
        weight,
        random,
        r,
        g,
        b,
        c(0.0),
        extent[0],
        extent[1],
    ])
}
