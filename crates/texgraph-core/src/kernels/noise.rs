//! Lattice noises: Ken Perlin's improved noise (2002) and hashed value noise.

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

    #[inline(always)]
    fn hash(&self, x: usize, y: usize, z: usize) -> u8 {
        let p = &self.0;
        p[p[p[x] as usize + y] as usize + z]
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the seed expander of [`Permutation::for_seed`].
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Perlin's quintic fade 6t⁵ − 15t⁴ + 10t³.
#[inline(always)]
pub fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

#[inline(always)]
fn lerp(t: f32, a: f32, b: f32) -> f32 {
    a + t * (b - a)
}

/// Dot product of one of Perlin's 12 edge gradients (16 with repeats) with (x, y, z).
#[inline(always)]
fn grad(hash: u8, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15;
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

/// Lattice index of the cell containing `coord` and of the next cell, each in 0..=256,
/// wrapped with `period` cells when tiling.
#[inline(always)]
fn cell(floor: f32, period: Option<i64>) -> (usize, usize) {
    let i = floor as i64;
    match period {
        None => {
            let i0 = (i & 255) as usize;
            (i0, i0 + 1)
        }
        Some(p) => {
            let i0 = i.rem_euclid(p);
            let i1 = if i0 + 1 == p { 0 } else { i0 + 1 };
            ((i0 & 255) as usize, (i1 & 255) as usize)
        }
    }
}

/// Improved Perlin noise at (x, y, z), in about [-1, 1]. With `period = Some(p)` the
/// lattice wraps every p cells in x and y, so the noise is p-periodic there. Without a
/// period it is bit-for-bit the reference algorithm in `f32`.
#[inline]
pub fn perlin3(perm: &Permutation, x: f32, y: f32, z: f32, period: Option<i64>) -> f32 {
    let (fx, fy, fz) = (x.floor(), y.floor(), z.floor());
    let (x0, x1) = cell(fx, period);
    let (y0, y1) = cell(fy, period);
    let (z0, z1) = cell(fz, None);
    let (x, y, z) = (x - fx, y - fy, z - fz);
    let (u, v, w) = (fade(x), fade(y), fade(z));
    lerp(
        w,
        lerp(
            v,
            lerp(
                u,
                grad(perm.hash(x0, y0, z0), x, y, z),
                grad(perm.hash(x1, y0, z0), x - 1.0, y, z),
            ),
            lerp(
                u,
                grad(perm.hash(x0, y1, z0), x, y - 1.0, z),
                grad(perm.hash(x1, y1, z0), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad(perm.hash(x0, y0, z1), x, y, z - 1.0),
                grad(perm.hash(x1, y0, z1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad(perm.hash(x0, y1, z1), x, y - 1.0, z - 1.0),
                grad(perm.hash(x1, y1, z1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

/// The value-noise lattice value at integer point (x, y) for `seed`, in [-1, 1]: the
/// point and seed mixed into 32 bits (multiply–xor, then the lowbias32 finalizer), top
/// 24 bits scaled.
#[inline(always)]
pub fn lattice_value(x: i64, y: i64, seed: u32) -> f32 {
    let mut h = seed.wrapping_mul(0x9E37_79B9)
        ^ (x as u32).wrapping_mul(0x85EB_CA6B)
        ^ (y as u32).wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846C_A68B);
    h ^= h >> 16;
    (h >> 8) as f32 * (2.0 / 16_777_215.0) - 1.0
}

/// Value noise at (x, y) in [-1, 1]: lattice values blended with `interp` applied to the
/// cell fractions, wrapping every `period` cells when tiling.
#[inline]
pub fn value2(x: f32, y: f32, seed: u32, period: Option<i64>, interp: fn(f32) -> f32) -> f32 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let wrap = |i: i64| period.map_or(i, |p| i.rem_euclid(p));
    let (x0, x1, y0, y1) = (wrap(ix), wrap(ix + 1), wrap(iy), wrap(iy + 1));
    let (tx, ty) = (interp(x - fx), interp(y - fy));
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

/// (1 − cos πt) / 2, as a value-noise interpolation.
#[inline(always)]
pub fn cosine(t: f32) -> f32 {
    0.5 - 0.5 * (t * std::f32::consts::PI).cos()
}

/// The lattice period of a tileable frequency: max(1, round(freq)).
#[inline(always)]
pub fn period_of(freq: f32) -> f32 {
    freq.round().max(1.0)
}
