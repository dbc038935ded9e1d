//! How the kernels' loops see their operands: a value uniform over the tile or a slice
//! of per-sample values, each its own type so that every combination gets its own loop.

/// An operand resolved for one tile.
#[derive(Clone, Copy)]
pub(super) enum Arg<'a> {
    C(f32),
    S(&'a [f32]),
}

impl Arg<'_> {
    #[inline(always)]
    pub(super) fn at(self, i: usize) -> f32 {
        match self {
            Arg::C(c) => c,
            Arg::S(s) => s[i],
        }
    }
}

/// A per-sample accessor: a uniform value or a slice of exactly the tile's length.
pub(super) trait Lane: Copy {
    fn get(self, i: usize) -> f32;
}

#[derive(Clone, Copy)]
pub(super) struct Uniform(pub(super) f32);

impl Lane for Uniform {
    #[inline(always)]
    fn get(self, _: usize) -> f32 {
        self.0
    }
}

impl Lane for &[f32] {
    #[inline(always)]
    fn get(self, i: usize) -> f32 {
        // SAFETY: `lanes!` only builds slice lanes of the destination's length, and the
        // loops index below that length.
        unsafe { *self.get_unchecked(i) }
    }
}

/// The last step of a fused noise: scale·n + add, or scale·|n| + add.
#[derive(Clone, Copy)]
pub(super) struct Finish {
    pub(super) scale: f32,
    pub(super) abs: bool,
}

impl Finish {
    #[inline(always)]
    pub(super) fn apply(self, n: f32, add: f32) -> f32 {
        let n = if self.abs { n.abs() } else { n };
        self.scale * n + add
    }
}
