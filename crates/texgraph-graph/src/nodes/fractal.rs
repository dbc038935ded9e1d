//! Octave sums: `fbm`, `ridged`, `turbulence`. Each sums a basis noise, or any subgraph
//! connected to `source`, over octaves of rising frequency and falling amplitude.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, Param, ParamKind, PortType, SCALAR_OUT, SEED, Unconnected,
    choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Interpolation, Op, Operand, Unary};
use texgraph_kernels::cellular::{Cellular, Feature, Metric};

use super::noise::{self, BASES, Layer};

/// Per-octave offsets that keep octaves from lining up at the origin. Octave 0 is not
/// moved, so a one-octave fbm equals its basis noise.
pub const OCTAVE_OFFSETS: [[f32; 2]; 16] = [
    [0.0, 0.0],
    [37.17, 11.83],
    [-21.53, 47.29],
    [13.71, -33.07],
    [-45.91, -19.37],
    [29.33, 41.61],
    [-8.47, -52.19],
    [51.07, 3.91],
    [-36.83, 27.53],
    [17.29, 58.77],
    [-59.11, -7.43],
    [43.67, -44.89],
    [-3.13, 31.97],
    [24.41, -61.27],
    [-50.39, 15.23],
    [6.89, -25.51],
];

const OCTAVES: Param = Param {
    name: "octaves",
    doc: "Number of noise layers summed.",
    kind: ParamKind::Int {
        default: 6,
        min: 1,
        max: 16,
    },
};
const LACUNARITY: Param = float(
    "lacunarity",
    2.0,
    1.0,
    8.0,
    "Frequency multiplier from one octave to the next.",
);
const GAIN: Param = float(
    "gain",
    0.5,
    0.0,
    1.0,
    "Amplitude multiplier from one octave to the next.",
);
const FREQUENCY: Param = float(
    "frequency",
    4.0,
    0.0,
    1024.0,
    "Base frequency of the built-in basis.",
);
const BASIS: Param = choice(
    "basis",
    "perlin",
    BASES,
    "Noise summed when `source` is unconnected: perlin, simplex (2d), value, or cellular \
     (Worley's F1 at full jitter, as 2·F1 − 1).",
);

const FRACTAL_PARAMS: &[Param] = &[OCTAVES, LACUNARITY, GAIN, FREQUENCY, SEED, BASIS];
const SOURCE: &[InputPort] = &[InputPort {
    name: "source",
    ty: PortType::Scalar,
    unconnected: Unconnected::NodeDecides,
    doc: "Optional pattern summed instead of the basis: octave i samples it at \
          p·lacunarity^i plus a fixed offset (lacunarity^i rounded when tileable).",
}];

/// `fbm`: fractional Brownian motion.
pub static FBM: NodeDescriptor = NodeDescriptor {
    id: "fbm",
    label: "fBm",
    category: Category::Fractal,
    doc: "Fractional Brownian motion: Σ gain^i·n_i over octaves, divided by Σ gain^i, mapped to \
          0.5 + 0.5·sum. Soft natural detail: clouds, terrain, smoke.",
    inputs: SOURCE,
    outputs: SCALAR_OUT,
    params: FRACTAL_PARAMS,
    compile: |ctx| fractal(ctx, Kind::Fbm),
};

/// `ridged`: ridged multifractal.
pub static RIDGED: NodeDescriptor = NodeDescriptor {
    id: "ridged",
    label: "Ridged Multifractal",
    category: Category::Fractal,
    doc: "Ridged multifractal: per octave s = (offset − |n|)² times the previous octave's s \
          (clamped to [0, 1], 1 for the first), summed with weights gain^i and divided by Σ gain^i. \
          Sharp crests: mountain ridges, veins, lightning.",
    inputs: SOURCE,
    outputs: SCALAR_OUT,
    params: &[
        OCTAVES,
        LACUNARITY,
        GAIN,
        FREQUENCY,
        SEED,
        BASIS,
        float(
            "offset",
            1.0,
            0.0,
            2.0,
            "Ridge height: larger values raise and widen the ridges.",
        ),
    ],
    compile: |ctx| fractal(ctx, Kind::Ridged),
};

/// `turbulence`: sum of absolute noise.
pub static TURBULENCE: NodeDescriptor = NodeDescriptor {
    id: "turbulence",
    label: "Turbulence",
    category: Category::Fractal,
    doc: "Turbulence: Σ gain^i·|n_i| divided by Σ gain^i (already in [0, 1]). Creased, billowy \
          detail; the classic marble distortion.",
    inputs: SOURCE,
    outputs: SCALAR_OUT,
    params: FRACTAL_PARAMS,
    compile: |ctx| fractal(ctx, Kind::Turbulence),
};

#[derive(Clone, Copy, PartialEq)]
enum Basis {
    Perlin,
    Simplex,
    Value,
    Cellular,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Fbm,
    Ridged,
    Turbulence,
}

fn fractal(ctx: &mut NodeCtx<'_, '_>, kind: Kind) -> Result<Vec<Val>, GraphError> {
    let octaves = ctx.int("octaves") as usize;
    let lacunarity = ctx.float("lacunarity")?;
    let gain = ctx.float("gain")?;
    let freq = ctx.float("frequency")?;
    let seed = ctx.int("seed") as u32;
    let basis = match ctx.text("basis") {
        "value" => Basis::Value,
        "simplex" => Basis::Simplex,
        "cellular" => Basis::Cellular,
        _ => Basis::Perlin,
    };
    let perlin_basis = basis == Basis::Perlin;
    let offset = if kind == Kind::Ridged {
        ctx.float("offset")?
    } else {
        Operand::Const(1.0)
    };
    let frame = ctx.frame();
    let tile = ctx.tileable();
    let has_source = ctx.is_connected("source");

    let mut sum = Operand::Const(0.0);
    let mut total = Operand::Const(0.0);
    let mut amplitude = Operand::Const(1.0);
    let mut scale = Operand::Const(1.0);
    let mut weight = Operand::Const(1.0);
    for (octave, offset_xy) in OCTAVE_OFFSETS.iter().enumerate().take(octaves) {
        // A Perlin octave of fbm or turbulence with a uniform amplitude adds itself to the
        // sum in its own pass.
        let fused = !has_source && perlin_basis && kind != Kind::Ridged;
        if let (true, Some(amp)) = (fused, amplitude.as_const()) {
            let f = ctx.emit(Op::Binary(Binary::Multiply, freq, scale))?;
            let layer = Layer {
                scale: amp,
                add: sum,
                abs: kind == Kind::Turbulence,
            };
            sum = noise::perlin(ctx, frame, Operand::Const(0.0), f, *offset_xy, seed, layer)?;
        } else {
            let n = if has_source {
                let s = if tile {
                    ctx.emit(Op::Unary(Unary::Period, scale))?
                } else {
                    scale
                };
                let at = Frame {
                    x: ctx.emit(Op::MulAdd(frame.x, s, Operand::Const(offset_xy[0])))?,
                    y: ctx.emit(Op::MulAdd(frame.y, s, Operand::Const(offset_xy[1])))?,
                    ..frame
                };
                let source = ctx.input_at("source", at)?.expect("connected");
                let source = ctx.scalar(source)?;
                ctx.emit(Op::Unary(Unary::ToSigned, source))?
            } else {
                let f = ctx.emit(Op::Binary(Binary::Multiply, freq, scale))?;
                if perlin_basis {
                    noise::perlin(
                        ctx,
                        frame,
                        Operand::Const(0.0),
                        f,
                        *offset_xy,
                        seed,
                        Layer::SIGNED,
                    )?
                } else if basis == Basis::Simplex {
                    let at = [f, Operand::Const(0.0)];
                    noise::simplex(ctx, frame, at, *offset_xy, seed, false, false)?
                } else if basis == Basis::Cellular {
                    // Worley's F1 at full jitter, from [0, ~1] to about [−1, 1].
                    let kind = Cellular {
                        seed,
                        metric: Metric::Euclidean,
                        feature: Feature::F1,
                        volume: false,
                        tile,
                    };
                    let zero = Operand::Const(0.0);
                    let at = [f, Operand::Const(1.0), zero];
                    let d = noise::cellular(ctx, frame, kind, at, *offset_xy)?;
                    ctx.emit(Op::Unary(Unary::ToSigned, d))?
                } else {
                    noise::value(ctx, frame, f, *offset_xy, seed, Interpolation::Quintic)?
                }
            };
            let layer = match kind {
                Kind::Fbm => n,
                Kind::Turbulence => ctx.emit(Op::Unary(Unary::Abs, n))?,
                Kind::Ridged => {
                    let s = ctx.emit(Op::Ridge { n, offset, weight })?;
                    weight = ctx.emit(Op::Unary(Unary::Clamp01, s))?;
                    s
                }
            };
            sum = ctx.emit(Op::MulAdd(amplitude, layer, sum))?;
        }
        total = ctx.emit(Op::Binary(Binary::Add, total, amplitude))?;
        if octave + 1 < octaves {
            amplitude = ctx.emit(Op::Binary(Binary::Multiply, amplitude, gain))?;
            scale = ctx.emit(Op::Binary(Binary::Multiply, scale, lacunarity))?;
        }
    }
    let normalized = ctx.emit(Op::Binary(Binary::Divide, sum, total))?;
    let out = match kind {
        Kind::Fbm => ctx.emit(Op::Unary(Unary::ToUnit, normalized))?,
        Kind::Ridged | Kind::Turbulence => normalized,
    };
    // The result is a weighted average of its octaves: bounded for the built-in noises,
    // but a fractal of a fractal of … doubles (fbm) or squares (ridged) its source's
    // range at each level, so with a source it saturates.
    let out = if has_source {
        ctx.emit(Op::Unary(Unary::Saturate, out))?
    } else {
        out
    };
    Ok(vec![Val::Scalar(out)])
}
