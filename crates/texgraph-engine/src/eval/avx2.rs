//! Perlin noise from corner tables at any sample positions (warped reads), hand-written
//! for AVX2: eight samples per step, one gather per table, and each corner's gradient read
//! from registers (two `vpermps` on each half of [`GRADIENTS`] and a blend) instead of
//! selected code by code. The same IEEE operations in the same order as the portable and
//! AVX-512 kernels, so the bits are identical; the AVX-512 kernel's arguments
//! ([`PerlinTableArgs`], [`Add`]) serve it unchanged.

use std::arch::x86_64::*;

use super::avx512::{Add, PerlinTableArgs};
use texgraph_kernels::noise::{COORD_LIMIT, GRADIENTS, fade};

/// Broadcast constants of one operation.
struct Setup<'a> {
    a: &'a PerlinTableArgs<'a>,
    lower: &'a [u32],
    upper: &'a [u32],
    last: __m256i,
    cell_mask: __m256i,
    byte: __m256i,
    f: __m256,
    ox: __m256,
    oy: __m256,
    lo: __m256,
    hi: __m256,
    one: __m256,
    six: __m256,
    fifteen: __m256,
    ten: __m256,
    /// Each gradient row's first and second eight entries.
    grad: [[__m256; 2]; 3],
    scale: __m256,
    volume: bool,
    dz: __m256,
    dz1: __m256,
    w: __m256,
    p: __m256,
    inv_p: __m256,
    p_minus_1: __m256,
    stride: __m256i,
    zero: __m256,
    sign: __m256,
}

/// The x (or y) part of eight samples' lattice cells: fraction, fade, fraction − 1, and
/// the index contribution.
#[derive(Clone, Copy)]
struct Axis {
    frac: __m256,
    fade: __m256,
    frac1: __m256,
    index: __m256i,
}

impl<'a> Setup<'a> {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(a: &'a PerlinTableArgs<'a>) -> Self {
        let (lower, upper) = (&a.below.codes[..], &a.above.codes[..]);
        let (p, inv_p, p_minus_1) = match a.below.period {
            Some(p) => (
                _mm256_set1_ps(p),
                _mm256_set1_ps(1.0 / p),
                _mm256_set1_ps(p - 1.0),
            ),
            None => (
                _mm256_set1_ps(1.0),
                _mm256_set1_ps(1.0),
                _mm256_set1_ps(1.0),
            ),
        };
        let dz = _mm256_set1_ps(a.dz);
        // SAFETY: each gradient row holds 16 floats.
        let half = |g: &[f32; 16], at: usize| unsafe { _mm256_loadu_ps(g.as_ptr().add(at)) };
        Self {
            a,
            lower,
            upper,
            last: _mm256_set1_epi32((lower.len().min(upper.len()) - 1) as i32),
            cell_mask: _mm256_set1_epi32((a.max_cells - 1) as i32),
            byte: _mm256_set1_epi32(255),
            f: _mm256_set1_ps(a.freq),
            ox: _mm256_set1_ps(a.offset[0]),
            oy: _mm256_set1_ps(a.offset[1]),
            lo: _mm256_set1_ps(-COORD_LIMIT),
            hi: _mm256_set1_ps(COORD_LIMIT),
            one: _mm256_set1_ps(1.0),
            six: _mm256_set1_ps(6.0),
            fifteen: _mm256_set1_ps(15.0),
            ten: _mm256_set1_ps(10.0),
            grad: GRADIENTS.each_ref().map(|g| [half(g, 0), half(g, 8)]),
            scale: _mm256_set1_ps(a.scale),
            volume: a.dz != 0.0,
            dz,
            dz1: _mm256_sub_ps(dz, _mm256_set1_ps(1.0)),
            w: _mm256_set1_ps(fade(a.dz)),
            p,
            inv_p,
            p_minus_1,
            stride: _mm256_set1_epi32(a.below.stride() as i32),
            zero: _mm256_setzero_ps(),
            sign: _mm256_castsi256_ps(_mm256_set1_epi32(i32::MAX)),
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn fade(&self, t: __m256) -> __m256 {
        let inner = _mm256_add_ps(
            _mm256_mul_ps(t, _mm256_sub_ps(_mm256_mul_ps(t, self.six), self.fifteen)),
            self.ten,
        );
        _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(t, t), t), inner)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn lerp(&self, t: __m256, a: __m256, b: __m256) -> __m256 {
        _mm256_add_ps(a, _mm256_mul_ps(t, _mm256_sub_ps(b, a)))
    }

    /// `cell_index` of whole-number floors (the lattice cell, wrapped when tiling).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn cell(&self, floor: __m256) -> __m256i {
        if self.a.below.period.is_none() {
            return _mm256_cvttps_epi32(floor);
        }
        let q = _mm256_floor_ps(_mm256_mul_ps(floor, self.inv_p));
        let r = _mm256_sub_ps(floor, _mm256_mul_ps(self.p, q));
        let over = _mm256_cmp_ps::<_CMP_GE_OQ>(r, self.p);
        let r = _mm256_blendv_ps(r, _mm256_sub_ps(r, self.p), over);
        let under = _mm256_cmp_ps::<_CMP_LT_OQ>(r, self.zero);
        let r = _mm256_blendv_ps(r, _mm256_add_ps(r, self.p), under);
        _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(r, self.zero), self.p_minus_1))
    }

    /// Coordinate c scaled, offset by `o` and clamped, split into its fraction and cell
    /// (an untiled cell keeps its low 8 bits).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn split(&self, c: __m256, o: __m256) -> (__m256, __m256i) {
        let c = _mm256_add_ps(_mm256_mul_ps(c, self.f), o);
        let c = _mm256_min_ps(_mm256_max_ps(c, self.lo), self.hi);
        let floor = _mm256_floor_ps(c);
        let cell = self.cell(floor);
        let cell = if self.a.below.period.is_none() {
            _mm256_and_si256(cell, self.byte)
        } else {
            cell
        };
        (_mm256_sub_ps(c, floor), cell)
    }

    /// The x (`row` false) or y part of each sample's cell: its column in the table, or
    /// its row's first entry.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn axis(&self, c: __m256, row: bool) -> Axis {
        let (frac, cell) = self.split(c, if row { self.oy } else { self.ox });
        Axis {
            frac,
            fade: self.fade(frac),
            frac1: _mm256_sub_ps(frac, self.one),
            index: if row {
                _mm256_mullo_epi32(cell, self.stride)
            } else {
                cell
            },
        }
    }

    /// Reads the corner codes of the cells (below, and above when between planes) and
    /// blends the gradients: the signed noise.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn noise(&self, x: Axis, y: Axis) -> __m256 {
        let index = _mm256_add_epi32(x.index, y.index);
        let index = match self.a.below.period {
            None => index,
            Some(_) => _mm256_min_epu32(_mm256_and_si256(index, self.cell_mask), self.last),
        };
        // SAFETY: untiled indices are at most 255 + 255·stride, inside the table; tiled ones
        // are clamped to the shorter table's last entry (both tables have the same size).
        let lower = unsafe { _mm256_i32gather_epi32::<4>(self.lower.as_ptr().cast(), index) };
        let upper = if self.volume {
            unsafe { _mm256_i32gather_epi32::<4>(self.upper.as_ptr().cast(), index) }
        } else {
            lower
        };
        self.blend(lower, upper, x, y)
    }

    /// Entry `h & 15` of a 16-entry gradient row, lane by lane: each half permuted by the
    /// low three bits, the half chosen by the fourth (moved to the sign bit for the blend).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lookup(&self, h: __m256i, [first, second]: [__m256; 2]) -> __m256 {
        let high = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(h));
        _mm256_blendv_ps(
            _mm256_permutevar8x32_ps(first, h),
            _mm256_permutevar8x32_ps(second, h),
            high,
        )
    }

    /// The signed noise from the cells' corner codes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn blend(&self, lower: __m256i, upper: __m256i, x: Axis, y: Axis) -> __m256 {
        let nibbles = |c: __m256i| {
            [
                c,
                _mm256_srli_epi32::<4>(c),
                _mm256_srli_epi32::<8>(c),
                _mm256_srli_epi32::<12>(c),
            ]
        };
        let [gx, gy, gz] = self.grad;
        let grad2 = |h: __m256i, x: __m256, y: __m256| {
            _mm256_add_ps(
                _mm256_mul_ps(self.lookup(h, gx), x),
                _mm256_mul_ps(self.lookup(h, gy), y),
            )
        };
        let grad3 = |h: __m256i, x: __m256, y: __m256, z: __m256| {
            _mm256_add_ps(grad2(h, x, y), _mm256_mul_ps(self.lookup(h, gz), z))
        };
        let (u, v) = (x.fade, y.fade);
        let (x0, x1, y0, y1) = (x.frac, x.frac1, y.frac, y.frac1);
        let h = nibbles(lower);
        if !self.volume {
            return self.lerp(
                v,
                self.lerp(u, grad2(h[0], x0, y0), grad2(h[1], x1, y0)),
                self.lerp(u, grad2(h[2], x0, y1), grad2(h[3], x1, y1)),
            );
        }
        let k = nibbles(upper);
        let (z0, z1) = (self.dz, self.dz1);
        let below = self.lerp(
            v,
            self.lerp(u, grad3(h[0], x0, y0, z0), grad3(h[1], x1, y0, z0)),
            self.lerp(u, grad3(h[2], x0, y1, z0), grad3(h[3], x1, y1, z0)),
        );
        let above = self.lerp(
            v,
            self.lerp(u, grad3(k[0], x0, y0, z1), grad3(k[1], x1, y0, z1)),
            self.lerp(u, grad3(k[2], x0, y1, z1), grad3(k[3], x1, y1, z1)),
        );
        self.lerp(self.w, below, above)
    }

    /// scale·n + add (|n| with `abs`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn finish(&self, noise: __m256, addend: __m256) -> __m256 {
        let noise = if self.a.abs {
            _mm256_and_ps(noise, self.sign)
        } else {
            noise
        };
        _mm256_add_ps(_mm256_mul_ps(self.scale, noise), addend)
    }
}

/// Writes scale·n + add for every sample at (x[i], y[i]).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn perlin_table(
    out: &mut [f32],
    x: &[f32],
    y: &[f32],
    add: Add<'_>,
    a: &PerlinTableArgs<'_>,
) {
    let n = out.len();
    assert!(x.len() >= n && y.len() >= n);
    if let Add::Slice(s) = add {
        assert!(s.len() >= n);
    }
    let s = Setup::new(a);
    // One loop for whole vectors and the last few samples alike, so that the arithmetic
    // has one call site and is inlined; the last few go through full vectors of copies
    // (padding repeats the last sample, so every lane reads a cell of the table).
    let lanes = |from: &[f32], i: usize| {
        let mut lanes = [from[n - 1]; 8];
        let m = (n - i).min(8);
        lanes[..m].copy_from_slice(&from[i..i + m]);
        lanes
    };
    for i in (0..n).step_by(8) {
        let whole = i + 8 <= n;
        // SAFETY: whole vectors read and write 8 floats at i + 8 <= n, within `x`, `y`,
        // `out` and a sliced `add`; the last few read arrays of eight.
        unsafe {
            let load = |from: &[f32]| {
                if whole {
                    _mm256_loadu_ps(from.as_ptr().add(i))
                } else {
                    _mm256_loadu_ps(lanes(from, i).as_ptr())
                }
            };
            let addend = match add {
                Add::Uniform(c) => _mm256_set1_ps(c),
                Add::Slice(a) => load(a),
            };
            let noise = s.noise(s.axis(load(x), false), s.axis(load(y), true));
            let value = s.finish(noise, addend);
            if whole {
                _mm256_storeu_ps(out.as_mut_ptr().add(i), value);
            } else {
                let mut result = [0.0f32; 8];
                _mm256_storeu_ps(result.as_mut_ptr(), value);
                out[i..].copy_from_slice(&result[..n - i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use texgraph_kernels::noise::{CornerTable, Permutation, perlin3, split};

    /// The kernel against the hashed per-sample formula, sample by sample, bit for bit:
    /// untiled and tiled, in a plane and between planes, signed and |n|, a uniform and a
    /// per-sample addend, and a tail shorter than a vector.
    #[test]
    fn table_noise_has_the_bits_of_the_hashed_formula() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        let perm = Permutation::for_seed(9);
        let n = 37;
        // Warped positions: scattered, some negative, not on any grid.
        let at = |i: usize, k: f32| ((i as f32 * 0.618_034 * k).fract() - 0.3) * 1.7;
        let x: Vec<f32> = (0..n).map(|i| at(i, 1.0)).collect();
        let y: Vec<f32> = (0..n).map(|i| at(i, 2.3)).collect();
        let adds: Vec<f32> = (0..n).map(|i| i as f32 * 0.01).collect();
        for period in [None, Some(6u32)] {
            for z in [3.0f32, 3.37] {
                let (floor, dz) = split(z);
                let z0 = floor as u32;
                let below = CornerTable::new(&perm, z0, period);
                let above = CornerTable::new(&perm, z0 + 1, period);
                let freq = period.map_or(4.5, |p| p as f32);
                for (abs, add) in [(false, Add::Uniform(0.5)), (true, Add::Slice(&adds))] {
                    let args = PerlinTableArgs {
                        below: &below,
                        above: &above,
                        freq,
                        offset: [0.25, -1.5],
                        dz,
                        scale: 0.5,
                        abs,
                        max_cells: super::super::ops::MAX_CELLS,
                    };
                    let mut out = vec![0.0; n];
                    // SAFETY: AVX2 was detected above.
                    unsafe { perlin_table(&mut out, &x, &y, add, &args) };
                    for i in 0..n {
                        let noise = perlin3(
                            &perm,
                            x[i] * freq + 0.25,
                            y[i] * freq - 1.5,
                            z,
                            period.map(|p| p as f32),
                        );
                        let noise = if abs { noise.abs() } else { noise };
                        let addend = match add {
                            Add::Uniform(c) => c,
                            Add::Slice(s) => s[i],
                        };
                        let expected = 0.5 * noise + addend;
                        assert_eq!(
                            out[i].to_bits(),
                            expected.to_bits(),
                            "{period:?} z {z} abs {abs} sample {i}: {} against {expected}",
                            out[i]
                        );
                    }
                }
            }
        }
    }
}
