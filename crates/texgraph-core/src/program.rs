//! A compiled graph: a flat, topologically ordered list of operations over numbered
//! buffer slots, each slot one tile of `f32` samples.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::kernels::gradient::Ramp;
use crate::kernels::noise::{CornerTable, Permutation};

/// Index of a tile buffer. Slots 0 and 1 hold the pixel's u and v.
pub type Slot = u32;

/// Slot of the image's u coordinate.
pub const U_SLOT: Slot = 0;
/// Slot of the image's v coordinate.
pub const V_SLOT: Slot = 1;

/// An operation argument: a value uniform over the image, or a per-sample slot.
#[derive(Debug, Clone, Copy)]
pub enum Operand {
    /// The same value at every sample (unconnected params stay scalars).
    Const(f32),
    /// A per-sample buffer.
    Slot(Slot),
}

impl Operand {
    /// The constant value, if uniform.
    pub fn as_const(self) -> Option<f32> {
        match self {
            Operand::Const(c) => Some(c),
            Operand::Slot(_) => None,
        }
    }
}

// Bitwise equality so that operations can be shared by key (0.0 and -0.0 differ).
impl PartialEq for Operand {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Operand::Const(a), Operand::Const(b)) => a.to_bits() == b.to_bits(),
            (Operand::Slot(a), Operand::Slot(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for Operand {}
impl Hash for Operand {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Operand::Const(c) => (0u8, c.to_bits()).hash(state),
            Operand::Slot(s) => (1u8, *s).hash(state),
        }
    }
}

/// Single-argument functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unary {
    /// |a|
    Abs,
    /// 1 − a
    Invert,
    /// a clamped to [0, 1]
    Clamp01,
    /// sin(a), a in radians
    Sin,
    /// a − floor(a)
    Fract,
    /// Hermite smoothstep of a over [0, 1]
    Smoothstep,
    /// cos of a in degrees
    CosDeg,
    /// sin of a in degrees
    SinDeg,
    /// max(1, round(a)): the integer period of a tileable frequency
    Period,
    /// round(a), halves away from zero
    Round,
    /// Sine wave profile 0.5 − 0.5·cos 2πa
    SineWave,
    /// Saw wave profile fract(a)
    SawWave,
    /// Triangle wave profile 1 − |2·fract(a) − 1|
    TriangleWave,
    /// 0.5 + 0.5·a: signed basis to [0, 1]
    ToUnit,
    /// 2·a − 1: [0, 1] to signed
    ToSigned,
}

/// Two-argument functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binary {
    /// a + b
    Add,
    /// a − b
    Subtract,
    /// a · b
    Multiply,
    /// a / b, 0 where b = 0
    Divide,
    /// min(a, b)
    Min,
    /// max(a, b)
    Max,
    /// max(a, 0)^b
    Power,
    /// 1 where a ≥ b, else 0
    Step,
}

/// Blend modes of the `blend` node, applied per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlendMode {
    /// b
    Mix,
    /// a + b
    Add,
    /// a · b
    Multiply,
    /// 1 − (1 − a)(1 − b)
    Screen,
    /// multiply below a = 0.5, screen above
    Overlay,
    /// min(a, b)
    Darken,
    /// max(a, b)
    Lighten,
    /// |a − b|
    Difference,
    /// a − b
    Subtract,
}

/// Value-noise interpolation between lattice values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Straight lines (visible lattice creases).
    Linear,
    /// (1 − cos πt) / 2.
    Cosine,
    /// 6t⁵ − 15t⁴ + 10t³ (Perlin's fade).
    Quintic,
}

/// One operation. Every operation is a pure function of its operands at each sample,
/// so equal operations may share one slot and tiles may be cut anywhere.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    /// Improved Perlin noise, signed, at (x·freq + ox, y·freq + oy, z).
    Perlin {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Third coordinate.
        z: Operand,
        /// Lattice cells per unit.
        freq: Operand,
        /// Fixed lattice offset (octave decorrelation), bits of an f32 pair.
        offset: [u32; 2],
        /// Index into [`Program::permutations`].
        perm: u32,
        /// Wrap with period max(1, round(freq)).
        tile: bool,
    },
    /// Improved Perlin noise n with uniform frequency and z, read from corner tables (one
    /// per lattice plane) built at compile time, written as scale·n + add (or
    /// scale·|n| + add), so fractal octaves accumulate in the same pass.
    PerlinTable {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Lattice cells per unit (already rounded when tiling), f32 bits.
        freq: u32,
        /// Fixed lattice offset, bits of an f32 pair.
        offset: [u32; 2],
        /// Indices into [`Program::tables`]: the plane below and above the sample.
        tables: [u32; 2],
        /// Position between the two planes, f32 bits; 0 reads only the first.
        dz: u32,
        /// Factor on the noise, f32 bits.
        scale: u32,
        /// Added after scaling.
        add: Operand,
        /// Scale |n| instead of n.
        abs: bool,
    },
    /// Value noise, signed, at (x·freq + ox, y·freq + oy).
    Value {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Lattice cells per unit.
        freq: Operand,
        /// Fixed lattice offset, bits of an f32 pair.
        offset: [u32; 2],
        /// Hash seed.
        seed: u32,
        /// Interpolation between lattice values.
        interpolation: Interpolation,
        /// Wrap with period max(1, round(freq)).
        tile: bool,
    },
    /// f(a).
    Unary(Unary, Operand),
    /// f(a, b).
    Binary(Binary, Operand, Operand),
    /// a·b + c.
    MulAdd(Operand, Operand, Operand),
    /// a + (b − a)·t.
    Lerp(Operand, Operand, Operand),
    /// ((offset − |n|)²)·weight: one ridged-multifractal octave.
    Ridge {
        /// Signed noise.
        n: Operand,
        /// Ridge height.
        offset: Operand,
        /// Weight from the previous octave.
        weight: Operand,
    },
    /// Distance from (center_x, center_y); when tiling, the distance on the torus (each
    /// offset wrapped into [-0.5, 0.5]).
    RingDistance {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Center x.
        center_x: Operand,
        /// Center y.
        center_y: Operand,
        /// Wrap offsets.
        tile: bool,
    },
    /// Levels adjustment of one channel.
    Levels {
        /// Input.
        a: Operand,
        /// Input black point.
        in_low: Operand,
        /// Input white point.
        in_high: Operand,
        /// Midtone gamma.
        gamma: Operand,
        /// Output black.
        out_low: Operand,
        /// Output white.
        out_high: Operand,
    },
    /// Color ramp lookup; writes four consecutive slots (RGBA).
    Ramp {
        /// Position on the ramp.
        a: Operand,
        /// Index into [`Program::ramps`].
        ramp: u32,
    },
    /// Blend of one channel; the result still needs mixing by the mask.
    Blend(BlendMode, Operand, Operand),
    /// Rec.709 luminance of (r, g, b).
    Luminance(Operand, Operand, Operand),
}

impl Op {
    /// How many consecutive slots the operation writes.
    pub fn arity(&self) -> u32 {
        match self {
            Op::Ramp { .. } => 4,
            _ => 1,
        }
    }

    /// Every operand the operation reads.
    pub fn operands(&self) -> Vec<Operand> {
        match *self {
            Op::Perlin { x, y, z, freq, .. } => vec![x, y, z, freq],
            Op::Value { x, y, freq, .. } => vec![x, y, freq],
            Op::Unary(_, a) | Op::Ramp { a, .. } => vec![a],
            Op::Binary(_, a, b) | Op::Blend(_, a, b) => vec![a, b],
            Op::MulAdd(a, b, c) | Op::Lerp(a, b, c) | Op::Luminance(a, b, c) => vec![a, b, c],
            Op::Ridge { n, offset, weight } => vec![n, offset, weight],
            Op::PerlinTable { x, y, add, .. } => vec![x, y, add],
            Op::RingDistance {
                x,
                y,
                center_x,
                center_y,
                ..
            } => vec![x, y, center_x, center_y],
            Op::Levels {
                a,
                in_low,
                in_high,
                gamma,
                out_low,
                out_high,
            } => {
                vec![a, in_low, in_high, gamma, out_low, out_high]
            }
        }
    }
}

/// An operation and the first slot it writes.
#[derive(Debug, Clone)]
pub struct Instr {
    /// What to compute.
    pub op: Op,
    /// First destination slot.
    pub dst: Slot,
}

/// One named output of a compiled graph.
#[derive(Debug, Clone)]
pub struct ProgramOutput {
    /// The `output` node's `name` param.
    pub name: String,
    /// Id of the `output` node.
    pub node: String,
    /// One operand (grayscale) or four (RGBA).
    pub channels: Vec<Operand>,
}

/// A compiled graph, ready to evaluate over any image region.
#[derive(Debug, Clone)]
pub struct Program {
    /// Operations in evaluation order.
    pub instrs: Vec<Instr>,
    /// Number of slots, including the two coordinate slots.
    pub slot_count: u32,
    /// Permutation tables referenced by Perlin operations.
    pub permutations: Vec<Arc<Permutation>>,
    /// Color ramps referenced by ramp operations.
    pub ramps: Vec<Arc<Ramp>>,
    /// Corner tables referenced by table-driven Perlin operations.
    pub tables: Vec<Arc<CornerTable>>,
    /// What to write out.
    pub output: ProgramOutput,
}
