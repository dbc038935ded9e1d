//! A compiled graph: an ordered list of stages. Most graphs are one stage: a flat,
//! topologically ordered list of operations over numbered buffer slots, each slot one
//! tile of `f32` samples. A node that reads its input's neighbourhood (blur, normal map…)
//! or a `buffer` makes the compiler evaluate that input first, over the whole image, into
//! a *plane*; later stages read planes with filtering.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use texgraph_kernels::cellular::{Feature, Metric};
// The formulas' selectors live beside the formulas; the program names them.
use texgraph_kernels::curve::Curve;
use texgraph_kernels::gradient::Ramp;
use texgraph_kernels::noise::{CornerTable, Permutation};
pub use texgraph_kernels::normals::NormalBlendMode;
pub use texgraph_kernels::scalar::{Binary, BlendMode, Unary};
pub use texgraph_kernels::shapes::InstanceShape;
use texgraph_kernels::shapes::ShapeKind;

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

/// Value-noise interpolation between lattice values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Straight lines (visible lattice creases).
    Linear,
    /// (1 − cos πt) / 2.
    Cosine,
    /// 6t⁵ − 15t⁴ + 10t³ (Perlin's fade).
    Quintic,
    /// None: each cell holds its lattice value (white noise).
    Constant,
}

/// How `slope_blur` combines its samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlopeMode {
    /// The average.
    Blur,
    /// The smallest.
    Min,
    /// The largest.
    Max,
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
    /// Cellular (Worley) noise at (x·freq + ox, y·freq + oy[, z]): see
    /// [`texgraph_kernels::cellular`].
    Cellular {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Third coordinate (3D cells only).
        z: Operand,
        /// Cells per unit.
        freq: Operand,
        /// How far feature points stray from their cell's centre, 0–1.
        jitter: Operand,
        /// Fixed lattice offset, bits of an f32 pair.
        offset: [u32; 2],
        /// Hash seed.
        seed: u32,
        /// Distance measure.
        metric: Metric,
        /// What is output.
        feature: Feature,
        /// 3D cells.
        volume: bool,
        /// Wrap with period max(1, round(freq)).
        tile: bool,
    },
    /// Simplex noise at (x·freq + ox, y·freq + oy[, z]), signed or mapped to 0.5 + 0.5·n:
    /// see [`texgraph_kernels::simplex`].
    Simplex {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Third coordinate (3D only, or the shift of the tiling torus).
        z: Operand,
        /// Lattice units per texture unit.
        freq: Operand,
        /// Fixed lattice offset, bits of an f32 pair.
        offset: [u32; 2],
        /// Hash seed term ([`texgraph_kernels::simplex::seed_term`]).
        seed: u32,
        /// 3D noise.
        volume: bool,
        /// Tile with period max(1, round(freq)) (4D noise on a torus).
        tile: bool,
        /// Mapped to [0, 1] as [`Unary::ToUnit`] maps it, in the same pass.
        unit: bool,
    },
    /// The `shape` node's mask at (x, y) relative to the image centre (and, when tiling,
    /// the union of the copies in the 2×2 tiles nearest the sample).
    Shape {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// What to draw.
        kind: ShapeKind,
        /// Corners of a polygon or points of a star.
        sides: u32,
        /// Radius, in texture units.
        size: Operand,
        /// Inner radius of a star or ring, as a fraction of the radius.
        inner: Operand,
        /// Width of the soft edge, as a fraction of the radius.
        smoothness: Operand,
        /// Rotation in degrees.
        rotate: Operand,
        /// Repeat on the unit square.
        tile: bool,
    },
    /// The `bricks` node: writes four slots (mask, value, u and v in the brick).
    Bricks {
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Bricks across, rows down, row offset, random row offset, mortar, bevel,
        /// corner radius.
        settings: [Operand; 7],
        /// Hash seed.
        seed: u32,
    },
    /// Four random numbers in [0, 1) for the cell `offset` cells from the one holding
    /// (x, y) (positions in cells), its index wrapped every `period` cells along each axis
    /// where that is not 0.
    CellHash {
        /// Sample x, in cells.
        x: Operand,
        /// Sample y, in cells.
        y: Operand,
        /// Cells from the sample's own.
        offset: [i32; 2],
        /// Hash seed.
        seed: u32,
        /// Tiling period in cells across and down (0: none).
        period: [u32; 2],
    },
    /// a through a curve.
    Curve {
        /// The input.
        a: Operand,
        /// Index into [`Program::curves`].
        curve: u32,
    },
    /// f(a).
    Unary(Unary, Operand),
    /// f(a, b).
    Binary(Binary, Operand, Operand),
    /// a·b + c.
    MulAdd(Operand, Operand, Operand),
    /// a + (b − a)·t.
    Lerp(Operand, Operand, Operand),
    /// a where the condition is not 0, else b: `Select(condition, a, b)`.
    Select(Operand, Operand, Operand),
    /// The width (or height) in pixels of the image being computed: the render's, or a
    /// plane's where a stage computes one at a reduced size.
    ImageSize {
        /// The height instead of the width.
        vertical: bool,
    },
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
    /// Hue, saturation and lightness adjustment of (r, g, b) in HSL space; writes three
    /// consecutive slots (see [`texgraph_kernels::color::hsl_adjust`]).
    Hsl {
        /// Red, green and blue.
        rgb: [Operand; 3],
        /// Hue shift in degrees.
        hue: Operand,
        /// Saturation change, −1 (gray) to 1 (doubled).
        saturation: Operand,
        /// Lightness change, −1 (black) to 1 (white).
        lightness: Operand,
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
    /// A plane read at (x, y) in texture units, bilinear or nearest, wrapping or clamping
    /// as the plane does; writes one slot per channel.
    Sample {
        /// The plane read.
        plane: PlaneId,
        /// Its channels (1 or 4).
        channels: u32,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Nearest texel instead of bilinear.
        nearest: bool,
    },
    /// A plane read at the pixel being computed, on a plane of the stage's own size:
    /// exact, no filtering. Writes one slot per channel.
    Fetch {
        /// The plane read.
        plane: PlaneId,
        /// Its channels (1 or 4).
        channels: u32,
    },
    /// Tangent-space normal of a height plane at (x, y), written as r, g, b (0.5 + 0.5·n).
    Normal {
        /// The height plane (one channel).
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Relief strength.
        strength: Operand,
        /// Green points down (DirectX) instead of up (OpenGL).
        directx: bool,
    },
    /// Lambert shading of a height plane lit from a direction.
    Emboss {
        /// The height plane (one channel).
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Relief strength.
        strength: Operand,
        /// Unit vector towards the light (x right, y up, z out), f32 bits.
        light: [u32; 3],
    },
    /// Sobel edge mask of a plane: 1 where the value changes by more than `threshold`
    /// across `width`.
    Edges {
        /// The plane (one channel).
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Distance of the Sobel taps, texture units.
        width: Operand,
        /// Smallest change that counts as an edge.
        threshold: Operand,
    },
    /// Samples of `input` along the downhill direction of `slope`, averaged or reduced.
    SlopeBlur {
        /// The plane smeared.
        input: PlaneId,
        /// Its channels (1 or 4).
        channels: u32,
        /// The height plane whose gradient gives the direction (one channel).
        slope: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Length of the smear, texture units.
        distance: Operand,
        /// Samples along it.
        samples: u32,
        /// How samples combine.
        mode: SlopeMode,
    },
    /// Horizon-based ambient occlusion of a height plane (`eval/material.rs`).
    Occlusion {
        /// The height plane (one channel).
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// How far the horizon is searched, texture units, f32 bits.
        radius: u32,
        /// Factor on the occlusion.
        strength: Operand,
        /// Directions searched.
        directions: u32,
        /// Reads along each direction.
        steps: u32,
    },
    /// Curvature of a height plane, or of a normal-map plane (`eval/material.rs`).
    Curvature {
        /// The plane: a height (one channel) or a normal map (four).
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// Distance of the reads, texture units, f32 bits.
        radius: u32,
        /// Factor on the curvature.
        strength: Operand,
        /// The plane is a normal map.
        normal: bool,
    },
    /// Two normal-map colors combined (see [`texgraph_kernels::normals::blend`]); writes
    /// r, g, b.
    NormalBlend {
        /// The base normal map's r, g, b.
        base: [Operand; 3],
        /// The detail normal map's r, g, b.
        detail: [Operand; 3],
        /// How much of the detail, 0–1.
        strength: Operand,
        /// How they combine.
        mode: NormalBlendMode,
    },
    /// Rec.709 luminance of (r, g, b).
    Luminance(Operand, Operand, Operand),
    /// A flood-fill plane's shape under (x, y) (the nearest texel), read as `read` says.
    Fill {
        /// The flood-fill plane.
        plane: PlaneId,
        /// Sample u.
        x: Operand,
        /// Sample v.
        y: Operand,
        /// What is read.
        read: FillRead,
    },
    /// Texel (x, y) of a plane by its whole-number column and row (wrapped in a plane
    /// that wraps, else clamped to the edge), every channel: one slot each.
    Texel {
        /// The plane read.
        plane: PlaneId,
        /// Its channels.
        channels: u32,
        /// Column.
        x: Operand,
        /// Row.
        y: Operand,
    },
    /// A built-in instance shape at (u, v) of the instance's own square, 0 outside it.
    InstanceShape {
        /// The shape.
        shape: InstanceShape,
        /// Across the square, 0 to 1.
        u: Operand,
        /// Down the square, 0 to 1.
        v: Operand,
    },
    /// A tile sampler's instances of a built-in shape at (x, y), from its instance plane
    /// (see [`instance`]): writes eight slots, the instances combined, then of the instance
    /// on top its random value, index, u, v, red, green and blue.
    Instances {
        /// The instance plane: one texel per instance, [`instance::CHANNELS`] each.
        plane: PlaneId,
        /// Sample x.
        x: Operand,
        /// Sample y.
        y: Operand,
        /// Where instances sit and how they are drawn.
        grid: InstanceGrid,
    },
}

/// The channels of a tile sampler's instance plane: one texel per instance, its grid's
/// columns across and rows down, computed once per render whatever its size.
pub mod instance {
    /// Its centre across, in cells (the grid's own cell's copy; texture units when
    /// instances are placed anywhere).
    pub const CENTRE_X: usize = 0;
    /// Its centre down, in cells.
    pub const CENTRE_Y: usize = 1;
    /// The four entries (row by row) of the matrix taking a sample's offset from the
    /// centre, in cells (or texture units), to the instance's own square:
    /// u = m00·dx + (m01·dy + ½).
    pub const MATRIX: usize = 2;
    /// What its shape is multiplied by: brightness, 0 when left out or of no size.
    pub const WEIGHT: usize = 6;
    /// Its random value in [0, 1).
    pub const RANDOM: usize = 7;
    /// Its color, red, green, blue.
    pub const COLOR: usize = 8;
    /// Which pattern input it draws, 0 to 1.
    pub const PICK: usize = 11;
    /// Half the width and height of its bounding box, in cells (or texture units).
    pub const EXTENT: usize = 12;
    /// Channels per instance.
    pub const CHANNELS: usize = 14;
}

/// How [`Op::Instances`] finds the instances that may cover a sample and combines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstanceGrid {
    /// Instances across.
    pub columns: u32,
    /// Instances down.
    pub rows: u32,
    /// Cells a sample looks at on each side of its own, across and down: instances of
    /// cells farther away are not drawn there.
    pub reach: [u32; 2],
    /// Shift of every other line of cells, in cells (f32 bits).
    pub offset: u32,
    /// Every other column is shifted down, instead of every other row across.
    pub offset_columns: bool,
    /// Instances wrap around the edges; otherwise only the grid's own are drawn.
    pub tileable: bool,
    /// Instances are not tied to cells (a circular splatter): the plane's columns and
    /// rows only number them, centres and extents are in texture units, every instance
    /// is tested against every block of samples, no reach applies, and in a tileable
    /// graph a sample sees each instance's nearest copy (instances are smaller than half
    /// the texture).
    pub anywhere: bool,
    /// What each draws.
    pub shape: InstanceShape,
    /// How overlaps combine.
    pub blend: InstanceBlend,
}

/// How a tile sampler's overlapping instances combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InstanceBlend {
    /// The largest value.
    Max,
    /// The sum.
    Add,
    /// The instance drawn last (highest index) that is not black there.
    Painter,
}

/// What a flood-fill companion reads of the shape under a sample: each is 0 on the
/// background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FillRead {
    /// A random number in [0, 1) per shape, from its anchor and the seed.
    Random {
        /// Hash seed.
        seed: u32,
    },
    /// 1 inside a shape.
    Inside,
    /// A linear ramp across the shape's bounding box, 0 on one side and 1 on the other,
    /// rising towards `angle` (f32 bits, degrees counterclockwise from the right) turned
    /// by `variation` (f32 bits) times a random angle in ±180°.
    Gradient {
        /// Direction, f32 bits.
        angle: u32,
        /// Share of a random turn, f32 bits.
        variation: u32,
        /// Hash seed of the random turn.
        seed: u32,
    },
    /// The bounding box's centre, across (u) or down (v).
    Centre {
        /// Down instead of across.
        down: bool,
    },
    /// A measure of the bounding box.
    Size(BoxMeasure),
    /// The shape's place in scan order: (number + 1) / shapes.
    Index,
}

/// What `fill_to_bbox_size` measures of a bounding box, in texture units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoxMeasure {
    /// The larger of width and height.
    Max,
    /// Width.
    Width,
    /// Height.
    Height,
    /// Width times height.
    Area,
}

/// The most slots one operation writes (a texel of an instance plane).
pub const MAX_ARITY: u32 = 16;

impl Op {
    /// How many consecutive slots the operation writes (at most [`MAX_ARITY`]).
    pub fn arity(&self) -> u32 {
        match *self {
            Op::Ramp { .. } => 4,
            Op::Normal { .. } | Op::Hsl { .. } | Op::NormalBlend { .. } => 3,
            Op::Bricks { .. } | Op::CellHash { .. } => 4,
            Op::Instances { .. } => 8,
            Op::Texel { channels, .. }
            | Op::Sample { channels, .. }
            | Op::Fetch { channels, .. }
            | Op::SlopeBlur { channels, .. } => channels,
            _ => 1,
        }
    }

    /// Whether the result is known at compile time: every operand a constant, and nothing
    /// read that exists only while rendering (a plane, the image's size). The compiler
    /// folds such an operation into a constant.
    pub fn foldable(&self) -> bool {
        self.planes().is_empty()
            && !matches!(self, Op::ImageSize { .. })
            && self.operands().iter().all(|o| o.as_const().is_some())
    }

    /// The planes the operation reads.
    pub fn planes(&self) -> Vec<PlaneId> {
        match *self {
            Op::Sample { plane, .. }
            | Op::Fetch { plane, .. }
            | Op::Normal { plane, .. }
            | Op::Emboss { plane, .. }
            | Op::Edges { plane, .. }
            | Op::Occlusion { plane, .. }
            | Op::Curvature { plane, .. }
            | Op::Fill { plane, .. }
            | Op::Texel { plane, .. }
            | Op::Instances { plane, .. } => vec![plane],
            Op::SlopeBlur { input, slope, .. } => vec![input, slope],
            _ => Vec::new(),
        }
    }

    /// How far around its sample the operation reads its planes, in texels of the plane
    /// and in texture units; `None` when it reads at computed positions (anywhere).
    pub fn reach(&self) -> Option<Apron> {
        match *self {
            Op::Fetch { .. } => Some(Apron::default()),
            Op::Fill { x, y, .. } if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) => {
                Some(Apron::default())
            }
            Op::Sample { x, y, .. } if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) => {
                Some(Apron {
                    texels: 1,
                    texture: 0.0,
                })
            }
            Op::Normal { x, y, .. } | Op::Emboss { x, y, .. }
                if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) =>
            {
                Some(Apron {
                    texels: 1,
                    texture: 0.0,
                })
            }
            Op::Edges {
                x,
                y,
                width: Operand::Const(w),
                ..
            } if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) => Some(Apron {
                texels: 1,
                texture: w.abs(),
            }),
            Op::SlopeBlur {
                x,
                y,
                distance: Operand::Const(d),
                ..
            } if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) => Some(Apron {
                texels: 2,
                texture: d.abs(),
            }),
            Op::Occlusion { x, y, radius, .. } | Op::Curvature { x, y, radius, .. }
                if (x, y) == (Operand::Slot(U_SLOT), Operand::Slot(V_SLOT)) =>
            {
                Some(Apron {
                    texels: 1,
                    texture: f32::from_bits(radius).abs(),
                })
            }
            _ if self.planes().is_empty() => Some(Apron::default()),
            _ => None,
        }
    }

    /// Estimated cost per sample, in units of one simple arithmetic operation.
    pub fn cost(&self) -> f32 {
        match *self {
            Op::Perlin { .. } | Op::Value { .. } => 12.0,
            Op::Simplex { volume, tile, .. } => match (volume, tile) {
                (_, true) => 40.0,
                (true, false) => 20.0,
                (false, false) => 10.0,
            },
            // 9 (27) cells and sometimes a ring more; the border needs a second search.
            Op::Cellular {
                volume, feature, ..
            } => {
                let cells = if volume { 60.0 } else { 24.0 };
                if feature == Feature::Edge {
                    2.5 * cells
                } else {
                    cells
                }
            }
            Op::PerlinTable { .. } => 4.0,
            Op::Ramp { .. } | Op::Levels { .. } | Op::Curve { .. } => 3.0,
            // A bilinear read costs about as much as a Perlin octave, more with four channels.
            Op::Sample { channels, .. } => 4.0 + 4.0 * channels as f32,
            Op::Fetch { channels, .. } => channels as f32,
            Op::Normal { .. } | Op::Emboss { .. } => 12.0,
            Op::Hsl { .. } => 30.0,
            Op::Shape { tile, .. } => {
                if tile {
                    120.0
                } else {
                    30.0
                }
            }
            Op::Bricks { .. } => 40.0,
            Op::CellHash { .. } => 16.0,
            Op::Edges { .. } => 100.0,
            Op::SlopeBlur {
                samples, channels, ..
            } => 12.0 + samples as f32 * (12.0 + 4.0 * channels as f32),
            // Reads at whole-texel offsets with shared weights: cheaper than a bilinear
            // read each.
            Op::Occlusion {
                directions, steps, ..
            } => 8.0 + directions as f32 * (6.0 + steps as f32 * 6.0),
            Op::Curvature { .. } => 80.0,
            Op::Fill { read, .. } => match read {
                FillRead::Gradient { .. } => 30.0,
                FillRead::Random { .. } => 12.0,
                _ => 6.0,
            },
            Op::NormalBlend { .. } => 40.0,
            Op::Texel { channels, .. } => 2.0 + channels as f32,
            Op::InstanceShape { .. } => 8.0,
            // A handful of instances drawn per sample, most found by their bounding box.
            Op::Instances { .. } => 60.0,
            _ => 1.0,
        }
    }

    /// Replaces every operand the operation reads by `f` of it (the same operands, in the
    /// same order, as [`Op::operands`]).
    pub fn map_operands(&mut self, mut f: impl FnMut(Operand) -> Operand) {
        for operand in self.operand_slots() {
            *operand = f(*operand);
        }
    }

    /// Every operand the operation reads.
    pub fn operands(&self) -> Vec<Operand> {
        // Operations are small plain data: a copy lends its operands to the one list.
        self.clone()
            .operand_slots()
            .into_iter()
            .map(|o| *o)
            .collect()
    }

    /// Every operand the operation reads, in place.
    fn operand_slots(&mut self) -> Vec<&mut Operand> {
        match self {
            Op::Perlin { x, y, z, freq, .. } => vec![x, y, z, freq],
            Op::Value { x, y, freq, .. } => vec![x, y, freq],
            Op::Simplex { x, y, z, freq, .. } => vec![x, y, z, freq],
            Op::Shape {
                x,
                y,
                size,
                inner,
                smoothness,
                rotate,
                ..
            } => vec![x, y, size, inner, smoothness, rotate],
            Op::Bricks { x, y, settings, .. } => [x, y].into_iter().chain(settings).collect(),
            Op::CellHash { x, y, .. } => vec![x, y],
            Op::Cellular {
                x,
                y,
                z,
                freq,
                jitter,
                ..
            } => vec![x, y, z, freq, jitter],
            Op::Unary(_, a) | Op::Ramp { a, .. } | Op::Curve { a, .. } => vec![a],
            Op::Binary(_, a, b) | Op::Blend(_, a, b) => vec![a, b],
            Op::MulAdd(a, b, c)
            | Op::Lerp(a, b, c)
            | Op::Select(a, b, c)
            | Op::Luminance(a, b, c) => vec![a, b, c],
            Op::Hsl {
                rgb,
                hue,
                saturation,
                lightness,
            } => rgb.iter_mut().chain([hue, saturation, lightness]).collect(),
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
            } => vec![a, in_low, in_high, gamma, out_low, out_high],
            Op::Sample { x, y, .. } => vec![x, y],
            Op::Fetch { .. } => Vec::new(),
            Op::Normal { x, y, strength, .. } | Op::Emboss { x, y, strength, .. } => {
                vec![x, y, strength]
            }
            Op::Edges {
                x,
                y,
                width,
                threshold,
                ..
            } => vec![x, y, width, threshold],
            Op::SlopeBlur { x, y, distance, .. } => vec![x, y, distance],
            Op::Occlusion { x, y, strength, .. } | Op::Curvature { x, y, strength, .. } => {
                vec![x, y, strength]
            }
            Op::Fill { x, y, .. } | Op::Texel { x, y, .. } | Op::Instances { x, y, .. } => {
                vec![x, y]
            }
            Op::InstanceShape { u, v, .. } => vec![u, v],
            Op::NormalBlend {
                base,
                detail,
                strength,
                ..
            } => base
                .iter_mut()
                .chain(detail.iter_mut())
                .chain([strength])
                .collect(),
            Op::ImageSize { .. } => Vec::new(),
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
    /// The `output` node's `name` param (`out`, or the port, for a node's preview).
    pub name: String,
    /// Id of the `output` node (or of the node previewed).
    pub node: String,
    /// The map's role (`color` for a node's preview).
    pub usage: crate::usage::Usage,
    /// Channels it takes in the output stage: 1 (grayscale) or 4 (RGBA).
    pub channels: usize,
}

/// Index of a plane in [`Program::planes`].
pub type PlaneId = u32;

/// Samples per texel of a flood fill's plane: each shape's box, anchor and number (the
/// evaluator's `flood::Shape` record).
pub const FLOOD_CHANNELS: usize = 7;

/// How far around the pixel it computes a stage reads its input planes: `texels` of the
/// plane plus `texture` texture units (a fraction of the width or height). A streaming
/// renderer computing a band of rows needs this margin of each input plane.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Apron {
    /// Fixed part, in texels of the plane read.
    pub texels: u32,
    /// Part that scales with the image, in texture units.
    pub texture: f32,
}

impl Apron {
    /// The larger of two aprons, part by part.
    pub fn max(self, other: Apron) -> Apron {
        Apron {
            texels: self.texels.max(other.texels),
            texture: self.texture.max(other.texture),
        }
    }

    /// The apron in texels of a plane `size` texels across.
    pub fn texels_at(self, size: u32) -> u64 {
        u64::from(self.texels) + (f64::from(self.texture) * f64::from(size)).ceil() as u64
    }
}

/// How far a stage reaches into its input planes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reach {
    /// Within an apron of the pixel it computes.
    Near(Apron),
    /// Anywhere: it reads at positions computed per pixel (a warp of a buffered input).
    Anywhere,
    /// The whole plane: every texel may depend on every other (a distance transform), so
    /// the input must be computed whole before any of the result.
    Whole,
}

/// The size of a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaneSize {
    /// The render size divided by 2^shift, rounded up.
    Render {
        /// 0 = full size, 1 = half, 2 = quarter, 3 = eighth.
        shift: u32,
    },
    /// A fixed size: a loaded image.
    Fixed {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
    },
}

impl PlaneSize {
    /// Width and height when the render is `width` × `height`.
    pub fn at(self, width: u32, height: u32) -> (u32, u32) {
        match self {
            PlaneSize::Render { shift } => (
                width.div_ceil(1 << shift).max(1),
                height.div_ceil(1 << shift).max(1),
            ),
            PlaneSize::Fixed { width, height } => (width, height),
        }
    }
}

/// A raster of the program: a node's value materialized over the unit square.
#[derive(Debug, Clone)]
pub struct PlaneInfo {
    /// The node whose value it holds.
    pub node: String,
    /// 1 (scalar), 4 (RGBA), or a stage's own record (a flood fill's, an instance
    /// plane's).
    pub channels: u32,
    /// Its size.
    pub size: PlaneSize,
    /// Reads outside [0, 1) wrap around (tileable graphs, repeated images); otherwise they
    /// clamp to the edge.
    pub wrap: bool,
    /// The pixels of a loaded image; `None` for planes a stage computes.
    pub image: Option<Arc<crate::image::Image>>,
}

/// A fused per-pixel program over a stage's grid.
#[derive(Debug, Clone)]
pub struct TileProgram {
    /// Operations in evaluation order.
    pub instrs: Vec<Instr>,
    /// Number of slots, including the two coordinate slots.
    pub slot_count: u32,
    /// What it writes: one operand (grayscale) or four (RGBA).
    pub channels: Vec<Operand>,
}

/// What a stage computes.
#[derive(Debug, Clone)]
pub enum StageWork {
    /// A fused per-pixel program, evaluated in tiles.
    Pixels(TileProgram),
    /// A Gaussian-like blur of a plane: three box filters per axis, each a running sum, so
    /// the cost does not depend on the radius.
    Blur {
        /// The plane blurred (same size and channels as the result).
        input: PlaneId,
        /// Standard deviation, texture units.
        radius: f32,
    },
    /// The exact Euclidean distance of each texel to the nearest texel across a threshold
    /// of a one-channel plane, in texture units: a whole-plane computation.
    Distance {
        /// The mask (one channel, same size as the result).
        input: PlaneId,
        /// Texels above it are inside.
        threshold: f32,
        /// Which texels are measured, and with which sign.
        side: DistanceSide,
        /// Measure to the edge between the two sides (half a texel of the larger side
        /// less, never below 0) instead of to the nearest texel's centre.
        to_edge: bool,
    },
    /// The connected shapes of a one-channel plane labelled, each texel given its shape's
    /// data (see the evaluator's `flood::Shape`): a whole-plane computation.
    FloodFill {
        /// The mask (one channel, same size as the result).
        input: PlaneId,
        /// Texels above it are inside.
        threshold: f32,
    },
    /// The values of a one-channel plane stretched linearly onto [0, 1]: its smallest
    /// value becomes 0 and its largest 1 (a plane of one value is left as it is): a
    /// whole-plane computation.
    Stretch {
        /// The plane stretched (one channel, same size as the result).
        input: PlaneId,
    },
    /// A heightfield eroded (the evaluator's `erosion`): a simulation over the whole
    /// plane, many steps, each texel's result depending on every other's.
    Erosion {
        /// The heights (one channel, same size as the result).
        height: PlaneId,
        /// Rain multiplier per texel (one channel, same size), if any.
        rain: Option<PlaneId>,
        /// Hardness per texel (one channel, same size), if any.
        hardness: Option<PlaneId>,
        /// Which erosion, and its settings.
        model: crate::terrain::Erosion,
    },
}

impl StageWork {
    /// The planes it reads, in order: none for a per-pixel program (its reads are in its
    /// operations).
    pub fn inputs(&self) -> Vec<PlaneId> {
        match self {
            StageWork::Pixels(_) => Vec::new(),
            StageWork::Blur { input, .. }
            | StageWork::Distance { input, .. }
            | StageWork::FloodFill { input, .. }
            | StageWork::Stretch { input } => vec![*input],
            StageWork::Erosion {
                height,
                rain,
                hardness,
                ..
            } => std::iter::once(*height)
                .chain(*rain)
                .chain(*hardness)
                .collect(),
        }
    }
}

/// Which texels a distance stage measures, and the sign it gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DistanceSide {
    /// Outside texels: their distance to the nearest inside texel; inside texels are 0.
    Outside,
    /// Inside texels: their distance to the nearest outside texel; outside texels are 0.
    Inside,
    /// Both: outside texels' distances positive, inside texels' negative.
    Signed,
}

/// One pass over a grid: the output image or a plane.
#[derive(Debug, Clone)]
pub struct Stage {
    /// The node whose value the stage computes.
    pub node: String,
    /// The plane it writes; `None` for the last stage, which writes the output image.
    pub target: Option<PlaneId>,
    /// What it computes.
    pub work: StageWork,
    /// The planes it reads.
    pub reads: Vec<PlaneId>,
    /// How far around each pixel it reads each plane of `reads`.
    pub reaches: Vec<Reach>,
    /// Estimated cost per pixel of its grid, in simple operations.
    pub cost: f32,
}

impl Stage {
    /// How far around each pixel it reads plane `plane` (`None`: it does not read it).
    pub fn reach_of(&self, plane: PlaneId) -> Option<Reach> {
        let at = self.reads.iter().position(|&p| p == plane)?;
        Some(self.reaches[at])
    }

    /// Channels written (1 or 4).
    pub fn channels(&self, planes: &[PlaneInfo]) -> usize {
        match &self.work {
            StageWork::Pixels(p) => p.channels.len(),
            StageWork::Blur { input, .. } => planes[*input as usize].channels as usize,
            StageWork::Distance { .. } => 1,
            StageWork::FloodFill { .. } => FLOOD_CHANNELS,
            StageWork::Stretch { .. } => 1,
            StageWork::Erosion { model, .. } => model.channels(),
        }
    }
}

/// A compiled graph, ready to evaluate over any image size.
#[derive(Debug, Clone)]
pub struct Program {
    /// Stages in evaluation order; the last writes the output.
    pub stages: Vec<Stage>,
    /// Planes written by stages or loaded from files.
    pub planes: Vec<PlaneInfo>,
    /// Permutation tables referenced by Perlin operations.
    pub permutations: Vec<Arc<Permutation>>,
    /// Color ramps referenced by ramp operations.
    pub ramps: Vec<Arc<Ramp>>,
    /// Curves referenced by curve operations.
    pub curves: Vec<Arc<Curve>>,
    /// Corner tables referenced by table-driven Perlin operations.
    pub tables: Vec<Arc<CornerTable>>,
    /// What the last stage writes, in order: its channels are theirs, one after another.
    pub outputs: Vec<ProgramOutput>,
}

impl Program {
    /// The last stage: the per-pixel program writing the output.
    pub fn output_stage(&self) -> &TileProgram {
        match &self.stages.last().expect("a program has a stage").work {
            StageWork::Pixels(p) => p,
            StageWork::Blur { .. }
            | StageWork::Distance { .. }
            | StageWork::FloodFill { .. }
            | StageWork::Stretch { .. }
            | StageWork::Erosion { .. } => {
                unreachable!("the output stage is per-pixel")
            }
        }
    }

    /// Channels the last stage writes: those of every output together (1 or 4 for a
    /// program of one output).
    pub fn channels(&self) -> usize {
        self.output_stage().channels.len()
    }

    /// The first output (the only one, unless several were compiled together).
    pub fn output(&self) -> &ProgramOutput {
        &self.outputs[0]
    }

    /// Bytes of the lookup tables the program holds: Perlin's corner and permutation
    /// tables.
    pub fn table_bytes(&self) -> u64 {
        let corners: u64 = self.tables.iter().map(|t| t.bytes()).sum();
        let permutations = (self.permutations.len() * std::mem::size_of::<Permutation>()) as u64;
        corners + permutations
    }

    /// Operations in every per-pixel stage.
    pub fn operation_count(&self) -> usize {
        self.stages
            .iter()
            .map(|s| match &s.work {
                StageWork::Pixels(p) => p.instrs.len(),
                StageWork::Blur { .. }
                | StageWork::Distance { .. }
                | StageWork::FloodFill { .. }
                | StageWork::Stretch { .. }
                | StageWork::Erosion { .. } => 1,
            })
            .sum()
    }

    /// Which planes a render may hold as windows of rows instead of whole (see
    /// the evaluator's `stream`): those computed per pixel or blurred, whose every reader
    /// reaches a bounded apron of them and is itself the output or computes such a plane.
    /// A plane read anywhere, or by a whole-plane pass (distance, flood fill), is whole,
    /// and so is everything those read.
    pub fn streamed_planes(&self) -> Vec<bool> {
        let mut streamed = vec![true; self.planes.len()];
        for (p, info) in self.planes.iter().enumerate() {
            streamed[p] = info.image.is_none();
        }
        for stage in self.stages.iter().rev() {
            let by_rows = matches!(stage.work, StageWork::Pixels(_) | StageWork::Blur { .. });
            let reader_streams = match stage.target {
                None => true,
                Some(t) => streamed[t as usize] && by_rows,
            };
            if let Some(t) = stage.target
                && !by_rows
            {
                streamed[t as usize] = false;
            }
            for (&p, reach) in stage.reads.iter().zip(&stage.reaches) {
                if !(reader_streams && matches!(reach, Reach::Near(_))) {
                    streamed[p as usize] = false;
                }
            }
        }
        streamed
    }

    /// The grid `stage` computes over in a render of `width` × `height`: its plane's size,
    /// or the render's for the output stage.
    pub fn grid(&self, stage: &Stage, width: u32, height: u32) -> (u32, u32) {
        match stage.target {
            Some(p) => self.planes[p as usize].size.at(width, height),
            None => (width, height),
        }
    }

    /// Index of the last stage that reads each plane (`None`: never read).
    pub fn last_readers(&self) -> Vec<Option<usize>> {
        let mut last = vec![None; self.planes.len()];
        for (i, stage) in self.stages.iter().enumerate() {
            for &p in &stage.reads {
                last[p as usize] = Some(i);
            }
        }
        last
    }
}
