//! Perlin noise from corner tables, hand-written for AVX-512: sixteen samples per step, one
//! gather per table, and each corner's gradient read from registers (`vpermps` on
//! [`GRADIENTS`]) instead of selected code by code. Every step performs the same IEEE
//! operations in the same order as the portable kernels, so the bits are identical.

use std::arch::x86_64::*;

use crate::kernels::noise::{COORD_LIMIT, CornerTable, GRADIENTS};

/// Everything uniform about one table-driven Perlin operation.
pub(super) struct PerlinTableArgs<'a> {
    /// Table of the lattice plane below the samples.
    pub below: &'a CornerTable,
    /// Table of the plane above (read only when `dz` is not 0).
    pub above: &'a CornerTable,
    /// Lattice cells per unit.
    pub freq: f32,
    /// Lattice offset.
    pub offset: [f32; 2],
    /// Position between the planes.
    pub dz: f32,
    /// Factor on the noise.
    pub scale: f32,
    /// Scale |n| instead of n.
    pub abs: bool,
    /// Cells in the largest tiled table, a power of two.
    pub max_cells: u32,
}

/// The value added after scaling: uniform or per sample.
#[derive(Clone, Copy)]
pub(super) enum Add<'a> {
    Uniform(f32),
    Slice(&'a [f32]),
}

/// Writes scale·n + add for every sample at (x[i], y[i]).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, DQ and VL.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
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
    let (c0, c1) = (&a.below.codes[..], &a.above.codes[..]);
    let last = _mm512_set1_epi32((c0.len().min(c1.len()) - 1) as i32);
    let cell_mask = _mm512_set1_epi32((a.max_cells - 1) as i32);
    let byte = _mm512_set1_epi32(255);
    let f = _mm512_set1_ps(a.freq);
    let (ox, oy) = (_mm512_set1_ps(a.offset[0]), _mm512_set1_ps(a.offset[1]));
    let (lo, hi) = (_mm512_set1_ps(-COORD_LIMIT), _mm512_set1_ps(COORD_LIMIT));
    let one = _mm512_set1_ps(1.0);
    let (six, fifteen, ten) = (
        _mm512_set1_ps(6.0),
        _mm512_set1_ps(15.0),
        _mm512_set1_ps(10.0),
    );
    // SAFETY: each gradient row holds 16 floats.
    let [gx, gy, gz] = GRADIENTS.map(|g| unsafe { _mm512_loadu_ps(g.as_ptr()) });
    let scale = _mm512_set1_ps(a.scale);
    let volume = a.dz != 0.0;
    let dz = _mm512_set1_ps(a.dz);
    let dz1 = _mm512_sub_ps(dz, one);
    let period = a.below.period;
    let (p, inv_p, p_minus_1) = match period {
        Some(p) => (
            _mm512_set1_ps(p),
            _mm512_set1_ps(1.0 / p),
            _mm512_set1_ps(p - 1.0),
        ),
        None => (one, one, one),
    };
    let width = _mm512_set1_epi32(a.below.width as i32);
    let zero = _mm512_setzero_ps();

    let fade = |t: __m512| {
        let inner = _mm512_add_ps(
            _mm512_mul_ps(t, _mm512_sub_ps(_mm512_mul_ps(t, six), fifteen)),
            ten,
        );
        _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(t, t), t), inner)
    };
    let lerp =
        |t: __m512, a: __m512, b: __m512| _mm512_add_ps(a, _mm512_mul_ps(t, _mm512_sub_ps(b, a)));
    // Whole-number floor of a clamped coordinate, and the fraction.
    let split = |c: __m512| {
        let c = _mm512_min_ps(_mm512_max_ps(c, lo), hi);
        let floor = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(c);
        (floor, _mm512_sub_ps(c, floor))
    };
    // `cell_index` with a period: f − p·floor(f·(1/p)), corrected into [0, p).
    let wrap = |f: __m512| {
        let q = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(
            _mm512_mul_ps(f, inv_p),
        );
        let r = _mm512_sub_ps(f, _mm512_mul_ps(p, q));
        let r = _mm512_mask_sub_ps(r, _mm512_cmp_ps_mask::<_CMP_GE_OQ>(r, p), r, p);
        let r = _mm512_mask_add_ps(r, _mm512_cmp_ps_mask::<_CMP_LT_OQ>(r, zero), r, p);
        _mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(r, zero), p_minus_1))
    };
    let grad2 = |h: __m512i, x: __m512, y: __m512| {
        _mm512_add_ps(
            _mm512_mul_ps(_mm512_permutexvar_ps(h, gx), x),
            _mm512_mul_ps(_mm512_permutexvar_ps(h, gy), y),
        )
    };
    let grad3 = |h: __m512i, x: __m512, y: __m512, z: __m512| {
        _mm512_add_ps(
            grad2(h, x, y),
            _mm512_mul_ps(_mm512_permutexvar_ps(h, gz), z),
        )
    };

    let mut i = 0;
    while i < n {
        let left = n - i;
        let mask: __mmask16 = if left >= 16 {
            0xFFFF
        } else {
            ((1u32 << left) - 1) as u16
        };
        // SAFETY (loads, stores): `mask` covers only lanes i..n, within every slice (asserted
        // above). Gathers: indices are clamped to the shorter table's last entry.
        let (xv, yv) = unsafe {
            (
                _mm512_maskz_loadu_ps(mask, x.as_ptr().add(i)),
                _mm512_maskz_loadu_ps(mask, y.as_ptr().add(i)),
            )
        };
        let xs = _mm512_add_ps(_mm512_mul_ps(xv, f), ox);
        let ys = _mm512_add_ps(_mm512_mul_ps(yv, f), oy);
        let ((fx, sx), (fy, sy)) = (split(xs), split(ys));
        let index = match period {
            None => {
                let cx = _mm512_and_si512(_mm512_cvttps_epi32(fx), byte);
                let cy = _mm512_slli_epi32::<8>(_mm512_and_si512(_mm512_cvttps_epi32(fy), byte));
                _mm512_or_si512(cx, cy)
            }
            Some(_) => {
                let k = _mm512_add_epi32(wrap(fx), _mm512_mullo_epi32(wrap(fy), width));
                _mm512_min_epu32(_mm512_and_si512(k, cell_mask), last)
            }
        };
        let codes = unsafe { _mm512_i32gather_epi32::<4>(index, c0.as_ptr().cast()) };
        let (u, v) = (fade(sx), fade(sy));
        let (sx1, sy1) = (_mm512_sub_ps(sx, one), _mm512_sub_ps(sy, one));
        let h = |shift: u32| match shift {
            0 => codes,
            4 => _mm512_srli_epi32::<4>(codes),
            8 => _mm512_srli_epi32::<8>(codes),
            _ => _mm512_srli_epi32::<12>(codes),
        };
        let noise = if volume {
            let upper = unsafe { _mm512_i32gather_epi32::<4>(index, c1.as_ptr().cast()) };
            let k = |shift: u32| match shift {
                0 => upper,
                4 => _mm512_srli_epi32::<4>(upper),
                8 => _mm512_srli_epi32::<8>(upper),
                _ => _mm512_srli_epi32::<12>(upper),
            };
            let w = fade(dz);
            let below = lerp(
                v,
                lerp(u, grad3(h(0), sx, sy, dz), grad3(h(4), sx1, sy, dz)),
                lerp(u, grad3(h(8), sx, sy1, dz), grad3(h(12), sx1, sy1, dz)),
            );
            let above = lerp(
                v,
                lerp(u, grad3(k(0), sx, sy, dz1), grad3(k(4), sx1, sy, dz1)),
                lerp(u, grad3(k(8), sx, sy1, dz1), grad3(k(12), sx1, sy1, dz1)),
            );
            lerp(w, below, above)
        } else {
            lerp(
                v,
                lerp(u, grad2(h(0), sx, sy), grad2(h(4), sx1, sy)),
                lerp(u, grad2(h(8), sx, sy1), grad2(h(12), sx1, sy1)),
            )
        };
        let noise = if a.abs { _mm512_abs_ps(noise) } else { noise };
        let addend = match add {
            Add::Uniform(c) => _mm512_set1_ps(c),
            Add::Slice(s) => unsafe { _mm512_maskz_loadu_ps(mask, s.as_ptr().add(i)) },
        };
        let result = _mm512_add_ps(_mm512_mul_ps(scale, noise), addend);
        unsafe { _mm512_mask_storeu_ps(out.as_mut_ptr().add(i), mask, result) };
        i += 16;
    }
}
