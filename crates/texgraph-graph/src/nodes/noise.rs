//! Noise generators: `perlin`, `simplex`, `value`, `white_noise` and `cellular`.

use crate::compile::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::{Category, NodeDescriptor, SCALAR_OUT, SEED, choice, float};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Interpolation, Op, Operand, Unary};
use texgraph_kernels::cellular::{Cellular, Feature, Metric};
use texgraph_kernels::noise::{MAX_TABLE_PERIOD, cell_index, period_of, split};
use texgraph_kernels::simplex::seed_term;

/// Basis noises a fractal can sum.
pub const BASES: &[&str] = &["perlin", "simplex", "value", "cellular"];
const INTERPOLATIONS: &[&str] = &["linear", "cosine", "quintic"];

/// `perlin`: Ken Perlin's improved noise.
pub static PERLIN: NodeDescriptor = NodeDescriptor {
    id: "perlin",
    label: "Perlin Noise",
    category: Category::Noise,
    doc: "Ken Perlin's improved gradient noise (2002), 3D, sampled at (u·frequency, v·frequency, z) \
          and mapped to 0.5 + 0.5·n. Seed 0 equals the reference implementation.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "frequency",
            4.0,
            0.0,
            1024.0,
            "Lattice cells across the image (rounded when tileable).",
        ),
        SEED,
        float(
            "z",
            0.0,
            -65536.0,
            65536.0,
            "Third coordinate: slide it to evolve the noise.",
        ),
    ],
    compile: |ctx| {
        let freq = ctx.float("frequency")?;
        let z = ctx.float("z")?;
        let seed = ctx.int("seed") as u32;
        Ok(vec![Val::Scalar(perlin(
            ctx,
            ctx.frame(),
            z,
            freq,
            [0.0, 0.0],
            seed,
            Layer::UNIT,
        )?)])
    },
};

const DIMENSIONS: &[&str] = &["2d", "3d"];

/// `simplex`: Perlin's simplex noise.
pub static SIMPLEX: NodeDescriptor = NodeDescriptor {
    id: "simplex",
    label: "Simplex Noise",
    category: Category::Noise,
    doc: "Simplex noise (Perlin 2001, as Gustavson's \"Simplex noise demystified\"): gradients \
          on a triangular lattice (tetrahedral in 3d) blended by a radial falloff, sampled at \
          (u·frequency, v·frequency[, z]) and mapped to 0.5 + 0.5·n. Fewer grid-aligned \
          artifacts than Perlin noise. When the graph is tileable the plane is wrapped onto a \
          flat torus in 4D (frequency rounded to a whole number), where 4D simplex noise is \
          read: seamless by construction, at the same scale, slower than the untiled 2d.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "frequency",
            4.0,
            0.0,
            1024.0,
            "Lattice units across the image (rounded when tileable).",
        ),
        SEED,
        choice(
            "dimensions",
            "2d",
            DIMENSIONS,
            "3d reads 3D noise at `z`; 2d is faster.",
        ),
        float(
            "z",
            0.0,
            -65536.0,
            65536.0,
            "Third coordinate (3d only): slide it to evolve the noise.",
        ),
    ],
    compile: |ctx| {
        let freq = ctx.float("frequency")?;
        let seed = ctx.int("seed") as u32;
        let volume = ctx.text("dimensions") == "3d";
        let z = if volume {
            ctx.float("z")?
        } else {
            Operand::Const(0.0)
        };
        let n = simplex(ctx, ctx.frame(), [freq, z], [0.0, 0.0], seed, volume, true)?;
        Ok(vec![Val::Scalar(n)])
    },
};

/// Simplex noise at (x·freq + offset, y·freq + offset[, z]), signed, or mapped to
/// 0.5 + 0.5·n when `unit`; `at` holds frequency and z.
pub fn simplex(
    ctx: &mut NodeCtx<'_, '_>,
    frame: Frame,
    at: [Operand; 2],
    offset: [f32; 2],
    seed: u32,
    volume: bool,
    unit: bool,
) -> Result<Operand, GraphError> {
    let [freq, z] = at;
    let tile = ctx.tileable();
    ctx.emit(Op::Simplex {
        x: frame.x,
        y: frame.y,
        z,
        freq,
        offset: offset.map(f32::to_bits),
        seed: seed_term(seed),
        volume,
        tile,
        unit,
    })
}

/// `value`: interpolated lattice values.
pub static VALUE: NodeDescriptor = NodeDescriptor {
    id: "value",
    label: "Value Noise",
    category: Category::Noise,
    doc: "Value noise: a hashed random value at each integer lattice point of (u·frequency, \
          v·frequency), interpolated across each cell, mapped to 0.5 + 0.5·n.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "frequency",
            4.0,
            0.0,
            1024.0,
            "Lattice cells across the image (rounded when tileable).",
        ),
        SEED,
        choice(
            "interpolation",
            "quintic",
            INTERPOLATIONS,
            "How lattice values blend across a cell.",
        ),
    ],
    compile: |ctx| {
        let freq = ctx.float("frequency")?;
        let seed = ctx.int("seed") as u32;
        let interpolation = match ctx.text("interpolation") {
            "linear" => Interpolation::Linear,
            "cosine" => Interpolation::Cosine,
            _ => Interpolation::Quintic,
        };
        let n = value(ctx, ctx.frame(), freq, [0.0, 0.0], seed, interpolation)?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::ToUnit, n))?)])
    },
};

/// `white_noise`: one random value per cell.
pub static WHITE_NOISE: NodeDescriptor = NodeDescriptor {
    id: "white_noise",
    label: "White Noise",
    category: Category::Noise,
    doc: "One independent random value in [0, 1] per cell of a frequency × frequency grid, \
          constant inside the cell: the hashed lattice value of value noise at the cell's \
          corner, without interpolation. At the image's pixel count it is per-pixel noise; \
          lower, it gives random blocks (the base of smooth noise, or a random value per tile).",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "frequency",
            64.0,
            0.0,
            4096.0,
            "Cells across the image (rounded when tileable).",
        ),
        SEED,
    ],
    compile: |ctx| {
        let freq = ctx.float("frequency")?;
        let seed = ctx.int("seed") as u32;
        let n = value(
            ctx,
            ctx.frame(),
            freq,
            [0.0, 0.0],
            seed,
            Interpolation::Constant,
        )?;
        Ok(vec![Val::Scalar(ctx.emit(Op::Unary(Unary::ToUnit, n))?)])
    },
};

const METRICS: &[&str] = &["euclidean", "manhattan", "chebyshev"];
const FEATURES: &[&str] = &["f1", "f2", "f2_minus_f1", "edge", "cell_value"];

/// `cellular`: Worley / Voronoi noise.
pub static CELLULAR: NodeDescriptor = NodeDescriptor {
    id: "cellular",
    label: "Cellular Noise",
    category: Category::Noise,
    doc: "Cellular (Worley, Voronoi) noise: one feature point per cell of a frequency × \
          frequency grid, at the cell's centre moved by jitter·(h − ½) per axis (h a hashed \
          random number in [0, 1)). `output` picks f1 (distance to the nearest point, in \
          cells: 0 at a point, about 0.5 typical), f2 (to the second nearest), f2_minus_f1 \
          (0 where cells meet), edge (Euclidean distance to the nearest border between two \
          cells: 0 on it, for cracks and mortar) or cell_value (a random value in [0, 1] per \
          cell, constant inside it). Exact at every jitter: as many rings of neighbouring \
          cells are searched as can hold a nearer point. Tileable graphs wrap the cells.",
    inputs: &[],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "frequency",
            8.0,
            0.0,
            1024.0,
            "Cells across the image (rounded when tileable).",
        ),
        SEED,
        float(
            "jitter",
            1.0,
            0.0,
            1.0,
            "How far feature points stray from their cell's centre: 0 is a square grid, 1 \
             anywhere in the cell.",
        ),
        choice(
            "metric",
            "euclidean",
            METRICS,
            "Distance measure: round (euclidean), diamond (manhattan) or square (chebyshev) \
             cells. The edge output always uses euclidean cells.",
        ),
        choice("output", "f1", FEATURES, "What the node outputs."),
        choice(
            "dimensions",
            "2d",
            DIMENSIONS,
            "3d puts the points in cubes and slices them at `z`.",
        ),
        float(
            "z",
            0.0,
            -65536.0,
            65536.0,
            "Third coordinate, in cells (3d only): slide it to evolve the cells.",
        ),
    ],
    compile: |ctx| {
        let freq = ctx.float("frequency")?;
        let jitter = ctx.float("jitter")?;
        let seed = ctx.int("seed") as u32;
        let feature = match ctx.text("output") {
            "f2" => Feature::F2,
            "f2_minus_f1" => Feature::F2MinusF1,
            "edge" => Feature::Edge,
            "cell_value" => Feature::CellValue,
            _ => Feature::F1,
        };
        let metric = match ctx.text("metric") {
            _ if feature == Feature::Edge => Metric::Euclidean,
            "manhattan" => Metric::Manhattan,
            "chebyshev" => Metric::Chebyshev,
            _ => Metric::Euclidean,
        };
        let volume = ctx.text("dimensions") == "3d";
        let z = if volume {
            ctx.float("z")?
        } else {
            Operand::Const(0.0)
        };
        let kind = Cellular {
            seed,
            metric,
            feature,
            volume,
            tile: ctx.tileable(),
        };
        let n = cellular(ctx, ctx.frame(), kind, [freq, jitter, z], [0.0, 0.0])?;
        Ok(vec![Val::Scalar(n)])
    },
};

/// Cellular noise of `kind` at (x·freq + offset, y·freq + offset[, z]); `at` holds
/// frequency, jitter and z.
pub fn cellular(
    ctx: &mut NodeCtx<'_, '_>,
    frame: Frame,
    kind: Cellular,
    at: [Operand; 3],
    offset: [f32; 2],
) -> Result<Operand, GraphError> {
    let [freq, jitter, z] = at;
    ctx.emit(Op::Cellular {
        x: frame.x,
        y: frame.y,
        z,
        freq,
        jitter,
        offset: offset.map(f32::to_bits),
        seed: kind.seed,
        metric: kind.metric,
        feature: kind.feature,
        volume: kind.volume,
        tile: kind.tile,
    })
}

/// How a noise's signed value n is written: scale·n + add, or scale·|n| + add.
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    /// Factor on the noise.
    pub scale: f32,
    /// Added after scaling.
    pub add: Operand,
    /// Use |n|.
    pub abs: bool,
}

impl Layer {
    /// n itself.
    pub const SIGNED: Layer = Layer {
        scale: 1.0,
        add: Operand::Const(0.0),
        abs: false,
    };
    /// 0.5·n + 0.5: a generator's output in [0, 1].
    pub const UNIT: Layer = Layer {
        scale: 0.5,
        add: Operand::Const(0.5),
        abs: false,
    };
}

/// Perlin noise at (x·freq + offset, y·freq + offset, z), written as `layer` says.
#[allow(clippy::too_many_arguments)]
pub fn perlin(
    ctx: &mut NodeCtx<'_, '_>,
    frame: Frame,
    z: Operand,
    freq: Operand,
    offset: [f32; 2],
    seed: u32,
    layer: Layer,
) -> Result<Operand, GraphError> {
    let tile = ctx.tileable();
    let offset = offset.map(f32::to_bits);
    let (x, y) = (frame.x, frame.y);
    // Uniform frequency and z (the usual case) read packed corner codes from tables.
    if let (Some(z), Some(freq)) = (z.as_const(), freq.as_const()) {
        let period = tile.then(|| period_of(freq));
        if period.is_none_or(|p| p <= MAX_TABLE_PERIOD as f32) {
            let (floor, dz) = split(z);
            let z0 = cell_index(floor, None) as u32 & 255;
            let whole = period.map(|p| p as u32);
            let below = ctx.corner_table(seed, z0, whole);
            let above = if dz == 0.0 {
                below
            } else {
                ctx.corner_table(seed, (z0 + 1) & 255, whole)
            };
            // Past the program's table budget the corners are hashed (below).
            if let (Some(below), Some(above)) = (below, above) {
                let freq = period.unwrap_or(freq).to_bits();
                let (dz, scale) = (dz.to_bits(), layer.scale.to_bits());
                return ctx.emit(Op::PerlinTable {
                    x,
                    y,
                    freq,
                    offset,
                    tables: [below, above],
                    dz,
                    scale,
                    add: layer.add,
                    abs: layer.abs,
                });
            }
        }
    }
    let perm = ctx.permutation(seed);
    let n = ctx.emit(Op::Perlin {
        x,
        y,
        z,
        freq,
        offset,
        perm,
        tile,
    })?;
    // The same arithmetic as the table path, as separate operations.
    let n = if layer.abs {
        ctx.emit(Op::Unary(Unary::Abs, n))?
    } else {
        n
    };
    ctx.emit(Op::MulAdd(Operand::Const(layer.scale), n, layer.add))
}

/// Signed value noise at (x·freq + offset, y·freq + offset).
pub fn value(
    ctx: &mut NodeCtx<'_, '_>,
    frame: Frame,
    freq: Operand,
    offset: [f32; 2],
    seed: u32,
    interpolation: Interpolation,
) -> Result<Operand, GraphError> {
    let tile = ctx.tileable();
    ctx.emit(Op::Value {
        x: frame.x,
        y: frame.y,
        freq,
        offset: offset.map(f32::to_bits),
        seed,
        interpolation,
        tile,
    })
}
