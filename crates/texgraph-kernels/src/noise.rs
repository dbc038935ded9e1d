//! Lattice noises: Ken Perlin's improved noise (2002) and hashed value noise.

use crate::fastmath::floor_within;

/// Ken Perlin's reference permutation of 0..=255 (ImprovedNoise, 2002).
pub const REFERENCE_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// A permutation of 0..=255 stored twice, so that `p[p[x] + y]` needs no wrap for
/// x, y ≤ 256.
#[derive(Clone, PartialEq, Eq)]
pub struct Permutation(pub [u8; 512]);

impl std::fmt::Debug for Permutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Permutation({:?}…)", &self.0[..4])
    }
}

impl Permutation {
    /// The table for `seed`: seed 0 is Perlin's reference table; any other seed
    /// shuffles the reference table with a Fisher–Yates shuffle driven by SplitMix64
    /// seeded with the seed (for i from 255 down to 1: j = next() mod (i + 1), swap).
    pub fn for_seed(seed: u32) -> Self {
        let mut p = REFERENCE_PERMUTATION;
        if seed != 0 {
            let mut state = u64::from(seed);
            for i in (1..256usize).rev() {
                let j = (splitmix64(&mut state) % (i as u64 + 1)) as usize;
                p.swap(i, j);
            }
        }
        let mut table = [0u8; 512];
        table[..256].copy_from_slice(&p);
        table[256..].copy_from_slice(&p);
        Permutation(table)
    }

    /// The gradient code (0..16) of lattice point (x, y, z), each coordinate in 0..256:
    /// Perlin's hash p[p[p[x] + y] + z], low four bits.
    #[inline(always)]
    pub fn code(&self, x: u32, y: u32, z: u32) -> u32 {
        let p = &self.0;
        let a = p[(x & 255) as usize] as usize + (y & 255) as usize;
        u32::from(p[p[a] as usize + (z & 255) as usize] & 15)
    }

    /// The codes of the four corners of cell (x0, y0) in plane z, packed by [`pack`], with
    /// (x1, y1) the next cell along each axis.
    #[inline(always)]
    pub fn cell_codes(&self, x0: u32, x1: u32, y0: u32, y1: u32, z: u32) -> u32 {
        pack(
            self.code(x0, y0, z),
            self.code(x1, y0, z),
            self.code(x0, y1, z),
            self.code(x1, y1, z),
        )
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the seed expander of [`Permutation::for_seed`].
#[inline]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Packs four corner codes: (x0, y0) | (x1, y0) << 4 | (x0, y1) << 8 | (x1, y1) << 12.
#[inline(always)]
pub fn pack(c00: u32, c10: u32, c01: u32, c11: u32) -> u32 {
    c00 | c10 << 4 | c01 << 8 | c11 << 12
}

/// Coordinates are clamped to ±2³⁰ before lattice math so that every path converts them to
/// integers the same way (NaN becomes -2³⁰). Beyond 2²⁴ an f32 has no fraction left anyway.
pub const COORD_LIMIT: f32 = 1_073_741_824.0;

/// The lattice cell of coordinate `c`: (floor as f32, fraction in [0, 1)).
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min map NaN to a bound; clamp would keep it
pub fn split(c: f32) -> (f32, f32) {
    let c = c.max(-COORD_LIMIT).min(COORD_LIMIT);
    let f = c.floor();
    (f, c - f)
}

/// [`split`] bit for bit, through [`floor_within`]: it vectorizes on the SSE2 baseline,
/// where the standard floor is a library call per sample, but costs a few instructions
/// more than SSE4.1's `roundps`. For loops the baseline would otherwise run scalar.
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min map NaN to a bound; clamp would keep it
pub fn split_vectorized(c: f32) -> (f32, f32) {
    let c = c.max(-COORD_LIMIT).min(COORD_LIMIT);
    let f = floor_within(c);
    (f, c - f)
}

/// Index of the lattice cell whose floor is `f` (a whole number within ±2³⁰), wrapped
/// into 0..period when tiling; otherwise the integer itself.
#[inline(always)]
pub fn cell_index(f: f32, period: Option<f32>) -> i32 {
    let wrapped = match period {
        // f − p·floor(f / p) with a reciprocal instead of a division; the quotient may be
        // one off, which the two corrections undo exactly for |f| < 2²⁴.
        Some(p) => {
            let r = f - p * floor_within(f * (1.0 / p));
            let r = if r >= p { r - p } else { r };
            let r = if r < 0.0 { r + p } else { r };
            r.max(0.0).min(p - 1.0)
        }
        None => f,
    };
    // SAFETY: `wrapped` is a whole number within ±2³⁰, so it converts exactly.
    unsafe { wrapped.to_int_unchecked::<i32>() }
}

/// The cell after `i`, wrapped when tiling.
#[inline(always)]
pub fn next_index(i: i32, period: Option<f32>) -> i32 {
    match period {
        Some(p) if (i + 1) as f32 >= p => 0,
        _ => i.wrapping_add(1),
    }
}

/// Perlin's quintic fade 6t⁵ − 15t⁴ + 10t³.
#[inline(always)]
pub fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// a + t·(b − a): the blend every lattice noise uses, in this operation order.
#[inline(always)]
pub fn lerp(t: f32, a: f32, b: f32) -> f32 {
    a + t * (b - a)
}

/// Perlin's 12 edge gradients, indexed by the 4-bit code (16 entries, four repeated):
/// code h selects u = (h < 8 ? x : y), v = (h < 4 ? y : h is 12 or 14 ? x : z), then
/// flips u's sign when bit 0 is set and v's when bit 1 is set. Written as vectors so a
/// gradient is three table reads (one in-register permute each with SIMD).
pub const GRADIENTS: [[f32; 16]; 3] = [
    [
        1., -1., 1., -1., 1., -1., 1., -1., 0., 0., 0., 0., 1., 0., -1., 0.,
    ],
    [
        1., 1., -1., -1., 0., 0., 0., 0., 1., -1., 1., -1., 1., -1., 1., -1.,
    ],
    [
        0., 0., 0., 0., 1., 1., -1., -1., 1., 1., -1., -1., 0., 1., 0., -1.,
    ],
];

/// The components of code `h`'s gradient (h < 16), as [`GRADIENTS`] holds them, computed
/// with selects so that portable loops vectorize without table reads.
#[inline(always)]
fn gradient(h: u32) -> [f32; 3] {
    let sign = |negative: bool| if negative { -1.0 } else { 1.0 };
    let (odd, bit1) = (h & 1 != 0, h & 2 != 0);
    let gx = if h < 8 {
        sign(odd)
    } else if h == 12 {
        1.0
    } else if h == 14 {
        -1.0
    } else {
        0.0
    };
    let gy = if !(4..8).contains(&h) {
        sign(if h < 4 { bit1 } else { odd })
    } else {
        0.0
    };
    let gz = if h < 4 || h == 12 || h == 14 {
        0.0
    } else if h < 12 {
        sign(bit1)
    } else {
        sign(h == 15)
    };
    [gx, gy, gz]
}

/// Dot product of code `h`'s gradient with (x, y) in a lattice plane (z = 0).
#[inline(always)]
fn grad2(h: u32, x: f32, y: f32) -> f32 {
    let [gx, gy, _] = gradient(h & 15);
    gx * x + gy * y
}

/// Dot product of code `h`'s gradient with (x, y, z).
#[inline(always)]
fn grad3(h: u32, x: f32, y: f32, z: f32) -> f32 {
    let [gx, gy, gz] = gradient(h & 15);
    gx * x + gy * y + gz * z
}

/// Perlin noise inside one cell in a single lattice plane (integer z): the bilinear blend of
/// the four corner gradients, `codes` packed by [`pack`], (x, y) the position in the cell.
#[inline(always)]
pub fn perlin_plane(codes: u32, x: f32, y: f32) -> f32 {
    let (u, v) = (fade(x), fade(y));
    let g = |shift: u32, x: f32, y: f32| grad2(codes >> shift, x, y);
    lerp(
        v,
        lerp(u, g(0, x, y), g(4, x - 1.0, y)),
        lerp(u, g(8, x, y - 1.0), g(12, x - 1.0, y - 1.0)),
    )
}

/// Perlin noise inside one cell between two lattice planes: `codes0` in the plane below,
/// `codes1` in the plane above, (x, y, z) the position in the cell.
#[inline(always)]
pub fn perlin_volume(codes0: u32, codes1: u32, x: f32, y: f32, z: f32) -> f32 {
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let g = |codes: u32, shift: u32, x: f32, y: f32, z: f32| grad3(codes >> shift, x, y, z);
    let (x1, y1, z1) = (x - 1.0, y - 1.0, z - 1.0);
    lerp(
        w,
        lerp(
            v,
            lerp(u, g(codes0, 0, x, y, z), g(codes0, 4, x1, y, z)),
            lerp(u, g(codes0, 8, x, y1, z), g(codes0, 12, x1, y1, z)),
        ),
        lerp(
            v,
            lerp(u, g(codes1, 0, x, y, z1), g(codes1, 4, x1, y, z1)),
            lerp(u, g(codes1, 8, x, y1, z1), g(codes1, 12, x1, y1, z1)),
        ),
    )
}

/// Improved Perlin noise at (x, y, z), in about [-1, 1]. With a `period` the lattice wraps
/// every `period` cells in x and y. Seed 0 is the reference algorithm in `f32`; an integer
/// z takes the exact single-plane form (the reference's blend with weight 0).
#[inline(always)]
pub fn perlin3(perm: &Permutation, x: f32, y: f32, z: f32, period: Option<f32>) -> f32 {
    let ((fx, x), (fy, y), (fz, z)) = (split(x), split(y), split(z));
    let (x0, y0) = (cell_index(fx, period), cell_index(fy, period));
    let (x1, y1) = (next_index(x0, period), next_index(y0, period));
    let z0 = cell_index(fz, None);
    let [x0, x1, y0, y1, z0] = [x0, x1, y0, y1, z0].map(|i| i as u32);
    let codes0 = perm.cell_codes(x0, x1, y0, y1, z0);
    if z == 0.0 {
        perlin_plane(codes0, x, y)
    } else {
        let codes1 = perm.cell_codes(x0, x1, y0, y1, z0.wrapping_add(1));
        perlin_volume(codes0, codes1, x, y, z)
    }
}

/// The packed corner codes of every cell of one lattice plane, so that evaluating Perlin
/// noise takes one table read per sample (and plane) instead of twelve dependent ones.
/// Each row of `width` cells is followed by [`ROW_PAD`] entries repeating the row's cells
/// cyclically, so that any run of 16 neighbouring cells in a row is one contiguous read.
#[derive(Debug, Clone, PartialEq)]
pub struct CornerTable {
    /// Packed codes, `width` rows of [`CornerTable::stride`] entries.
    pub codes: Vec<u32>,
    /// Cells per row: 256, or the period when tiling.
    pub width: u32,
    /// The tiling period, if any.
    pub period: Option<f32>,
}

/// Most bytes of corner tables one program builds: 64 tables of the largest period, or
/// 246 untiled ones. Noises past it hash their corners instead (the same bits, slower),
/// so that a graph of many high-frequency noises does not hold gigabytes of tables for a
/// small image.
pub const MAX_TABLE_BYTES: u64 = 64 * 1024 * 1024;

/// Largest tiling period with its own corner table.
pub const MAX_TABLE_PERIOD: u32 = 512;
/// Entries after each table row that repeat its start.
pub const ROW_PAD: u32 = 16;
/// Entries in an untiled table (256 rows of 256 + [`ROW_PAD`]).
pub const PLAIN_TABLE_LEN: usize = 256 * (256 + ROW_PAD as usize);

impl CornerTable {
    /// The table of plane `z` (0..256) of `perm`, wrapping every `period` cells when tiling
    /// (at most [`MAX_TABLE_PERIOD`]).
    pub fn new(perm: &Permutation, z: u32, period: Option<u32>) -> Self {
        let width = period.unwrap_or(256);
        assert!((1..=MAX_TABLE_PERIOD).contains(&width));
        let stride = width + ROW_PAD;
        let next = |i: u32| if i + 1 == width { 0 } else { i + 1 };
        let codes = (0..width * stride)
            .map(|i| {
                let (x, y) = ((i % stride) % width, i / stride);
                perm.cell_codes(x, next(x), y, next(y), z)
            })
            .collect();
        Self {
            codes,
            width,
            period: period.map(|p| p as f32),
        }
    }

    /// Bytes of the table of a plane wrapping every `period` cells (256 when untiled).
    pub fn bytes_for(period: Option<u32>) -> u64 {
        let width = u64::from(period.unwrap_or(256));
        width * (width + u64::from(ROW_PAD)) * 4
    }

    /// Bytes this table holds.
    pub fn bytes(&self) -> u64 {
        self.codes.len() as u64 * 4
    }

    /// Entries from one row to the next.
    #[inline(always)]
    pub fn stride(&self) -> u32 {
        self.width + ROW_PAD
    }

    /// The cell column (or row) of a whole-number floor: wrapped by the period when
    /// tiling, else its low 8 bits.
    #[inline(always)]
    pub fn cell(&self, floor: f32) -> u32 {
        let i = cell_index(floor, self.period) as u32;
        if self.period.is_some() { i } else { i & 255 }
    }

    /// The table entry of the cell with floors (fx, fy).
    #[inline(always)]
    pub fn index(&self, fx: f32, fy: f32) -> usize {
        let i = self.cell(fx) + self.cell(fy) * self.stride();
        // The min keeps the read in bounds whatever the input; it never binds.
        (i as usize).min(self.codes.len() - 1)
    }
}

/// The value-noise lattice value at integer point (x, y) for `seed`, in [-1, 1]: the
/// point and seed mixed into 32 bits (multiply–xor, then the lowbias32 finalizer), top
/// 24 bits scaled.
#[inline(always)]
pub fn lattice_value(x: i32, y: i32, seed: u32) -> f32 {
    (lattice_hash(x, y, seed) >> 8) as f32 * (2.0 / 16_777_215.0) - 1.0
}

/// The 32-bit hash of integer point (x, y) for `seed`: multiply–xor, then the lowbias32
/// finalizer. Value noise, white noise and the patterns' per-cell randoms draw from it.
#[inline(always)]
pub fn lattice_hash(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = seed.wrapping_mul(0x9E37_79B9)
        ^ (x as u32).wrapping_mul(0x85EB_CA6B)
        ^ (y as u32).wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846C_A68B);
    h ^ (h >> 16)
}

/// Value noise at (x, y) in [-1, 1]: lattice values blended with `interp` applied to the
/// cell fractions, wrapping every `period` cells when tiling.
#[inline(always)]
pub fn value2(x: f32, y: f32, seed: u32, period: Option<f32>, interp: impl Fn(f32) -> f32) -> f32 {
    let ((fx, x), (fy, y)) = (split(x), split(y));
    let (x0, y0) = (cell_index(fx, period), cell_index(fy, period));
    let (x1, y1) = (next_index(x0, period), next_index(y0, period));
    let (tx, ty) = (interp(x), interp(y));
    lerp(
        ty,
        lerp(tx, lattice_value(x0, y0, seed), lattice_value(x1, y0, seed)),
        lerp(tx, lattice_value(x0, y1, seed), lattice_value(x1, y1, seed)),
    )
}

/// The identity, as a value-noise interpolation.
#[inline(always)]
pub fn linear(t: f32) -> f32 {
    t
}

/// 0: a value-noise cell holds its corner's lattice value (white noise).
#[inline(always)]
pub fn constant(_t: f32) -> f32 {
    0.0
}

/// (1 − cos πt) / 2, as a value-noise interpolation.
#[inline(always)]
pub fn cosine(t: f32) -> f32 {
    0.5 - 0.5 * crate::fastmath::cos_2pi(0.5 * t)
}

/// The lattice period of a tileable frequency: max(1, round(freq)).
#[inline(always)]
pub fn period_of(freq: f32) -> f32 {
    freq.round().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Perlin's gradient selection as he wrote it.
    fn reference_grad(h: u32, x: f32, y: f32, z: f32) -> f32 {
        let u = if h < 8 { x } else { y };
        let v = if h < 4 {
            y
        } else if h == 12 || h == 14 {
            x
        } else {
            z
        };
        (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
    }

    #[test]
    fn gradient_selects_match_the_table() {
        for h in 0..16 {
            assert_eq!(
                gradient(h),
                [0, 1, 2].map(|axis| GRADIENTS[axis][h as usize]),
                "h={h}"
            );
        }
    }

    #[test]
    fn gradient_table_is_perlins_selection() {
        let values = [-1.5f32, -0.25, 0.0, 0.375, 0.75, 1.0];
        for h in 0..16 {
            for &x in &values {
                for &y in &values {
                    for &z in &values {
                        assert_eq!(
                            grad3(h, x, y, z),
                            reference_grad(h, x, y, z),
                            "h={h} ({x},{y},{z})"
                        );
                    }
                    assert_eq!(
                        grad2(h, x, y),
                        reference_grad(h, x, y, 0.0),
                        "h={h} ({x},{y})"
                    );
                }
            }
        }
    }
}
