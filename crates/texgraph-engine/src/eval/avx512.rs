//! Perlin noise from corner tables, hand-written for AVX-512: sixteen samples per step, one
//! gather per table, and each corner's gradient read from registers (`vpermps` on
//! [`GRADIENTS`]) instead of selected code by code. Every step performs the same IEEE
//! operations in the same order as the portable kernels, so the bits are identical.
//!
//! Two loops share the arithmetic: one for any sample positions, and one for the image's
//! own coordinates, where u depends only on the column and v only on the row, so the work
//! on x is done once per tile column and the work on y once per row.

use std::arch::x86_64::*;

use texgraph_kernels::noise::{COORD_LIMIT, CornerTable, GRADIENTS, fade, split};

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

/// Broadcast constants of one operation.
struct Setup<'a> {
    a: &'a PerlinTableArgs<'a>,
    lower: &'a [u32],
    upper: &'a [u32],
    last: __m512i,
    cell_mask: __m512i,
    byte: __m512i,
    f: __m512,
    ox: __m512,
    oy: __m512,
    lo: __m512,
    hi: __m512,
    one: __m512,
    six: __m512,
    fifteen: __m512,
    ten: __m512,
    grad: [__m512; 3],
    scale: __m512,
    volume: bool,
    dz: __m512,
    dz1: __m512,
    w: __m512,
    p: __m512,
    inv_p: __m512,
    p_minus_1: __m512,
    stride: __m512i,
    zero: __m512,
}

/// The x (or y) part of a block's lattice cells: fraction, fade, fraction − 1, and the
/// index contribution.
#[derive(Clone, Copy)]
struct Axis {
    floor: __m512,
    frac: __m512,
    fade: __m512,
    frac1: __m512,
    index: __m512i,
}

impl<'a> Setup<'a> {
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn new(a: &'a PerlinTableArgs<'a>) -> Self {
        let (lower, upper) = (&a.below.codes[..], &a.above.codes[..]);
        let (p, inv_p, p_minus_1) = match a.below.period {
            Some(p) => (
                _mm512_set1_ps(p),
                _mm512_set1_ps(1.0 / p),
                _mm512_set1_ps(p - 1.0),
            ),
            None => (
                _mm512_set1_ps(1.0),
                _mm512_set1_ps(1.0),
                _mm512_set1_ps(1.0),
            ),
        };
        let dz = _mm512_set1_ps(a.dz);
        Self {
            a,
            lower,
            upper,
            last: _mm512_set1_epi32((lower.len().min(upper.len()) - 1) as i32),
            cell_mask: _mm512_set1_epi32((a.max_cells - 1) as i32),
            byte: _mm512_set1_epi32(255),
            f: _mm512_set1_ps(a.freq),
            ox: _mm512_set1_ps(a.offset[0]),
            oy: _mm512_set1_ps(a.offset[1]),
            lo: _mm512_set1_ps(-COORD_LIMIT),
            hi: _mm512_set1_ps(COORD_LIMIT),
            one: _mm512_set1_ps(1.0),
            six: _mm512_set1_ps(6.0),
            fifteen: _mm512_set1_ps(15.0),
            ten: _mm512_set1_ps(10.0),
            // SAFETY: each gradient row holds 16 floats.
            grad: GRADIENTS.map(|g| unsafe { _mm512_loadu_ps(g.as_ptr()) }),
            scale: _mm512_set1_ps(a.scale),
            volume: a.dz != 0.0,
            dz,
            dz1: _mm512_sub_ps(dz, _mm512_set1_ps(1.0)),
            w: _mm512_set1_ps(fade(a.dz)),
            p,
            inv_p,
            p_minus_1,
            stride: _mm512_set1_epi32(a.below.stride() as i32),
            zero: _mm512_setzero_ps(),
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn fade(&self, t: __m512) -> __m512 {
        let inner = _mm512_add_ps(
            _mm512_mul_ps(t, _mm512_sub_ps(_mm512_mul_ps(t, self.six), self.fifteen)),
            self.ten,
        );
        _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(t, t), t), inner)
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn lerp(&self, t: __m512, a: __m512, b: __m512) -> __m512 {
        _mm512_add_ps(a, _mm512_mul_ps(t, _mm512_sub_ps(b, a)))
    }

    /// `cell_index` of whole-number floors (the lattice cell, wrapped when tiling).
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn cell(&self, floor: __m512) -> __m512i {
        if self.a.below.period.is_none() {
            return _mm512_cvttps_epi32(floor);
        }
        let q = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(
            _mm512_mul_ps(floor, self.inv_p),
        );
        let r = _mm512_sub_ps(floor, _mm512_mul_ps(self.p, q));
        let r = _mm512_mask_sub_ps(r, _mm512_cmp_ps_mask::<_CMP_GE_OQ>(r, self.p), r, self.p);
        let r = _mm512_mask_add_ps(r, _mm512_cmp_ps_mask::<_CMP_LT_OQ>(r, self.zero), r, self.p);
        _mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(r, self.zero), self.p_minus_1))
    }

    /// Coordinate c scaled, offset by `o` and clamped, split into its floor, fraction and
    /// cell (an untiled cell keeps its low 8 bits).
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn split(&self, c: __m512, o: __m512) -> (__m512, __m512, __m512i) {
        let c = _mm512_add_ps(_mm512_mul_ps(c, self.f), o);
        let c = _mm512_min_ps(_mm512_max_ps(c, self.lo), self.hi);
        let floor = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(c);
        let cell = self.cell(floor);
        let cell = if self.a.below.period.is_none() {
            _mm512_and_si512(cell, self.byte)
        } else {
            cell
        };
        (floor, _mm512_sub_ps(c, floor), cell)
    }

    /// The x part of each sample's cell: its column in the table.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn x_axis(&self, c: __m512) -> Axis {
        let (floor, frac, cell) = self.split(c, self.ox);
        Axis {
            floor,
            frac,
            fade: self.fade(frac),
            frac1: _mm512_sub_ps(frac, self.one),
            index: cell,
        }
    }

    /// The y part of each sample's cell: its row's first entry in the table.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn y_axis(&self, c: __m512) -> Axis {
        let (floor, frac, cell) = self.split(c, self.oy);
        let index = _mm512_mullo_epi32(cell, self.stride);
        Axis {
            floor,
            frac,
            fade: self.fade(frac),
            frac1: _mm512_sub_ps(frac, self.one),
            index,
        }
    }

    /// The y part of one row, computed with the scalar kernels and broadcast: the same
    /// operations as [`Setup::y_axis`], so the same bits.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn y_row(&self, v: f32) -> Axis {
        let (floor, frac) = split(v * self.a.freq + self.a.offset[1]);
        let index = self.a.below.cell(floor) * self.a.below.stride();
        Axis {
            floor: _mm512_set1_ps(floor),
            frac: _mm512_set1_ps(frac),
            fade: _mm512_set1_ps(fade(frac)),
            frac1: _mm512_set1_ps(frac - 1.0),
            index: _mm512_set1_epi32(index as i32),
        }
    }

    /// Reads the corner codes of the cells (below, and above when between planes) and
    /// blends the gradients: the signed noise.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn noise(&self, x: Axis, y: Axis) -> __m512 {
        let index = _mm512_add_epi32(x.index, y.index);
        let index = match self.a.below.period {
            None => index,
            Some(_) => _mm512_min_epu32(_mm512_and_si512(index, self.cell_mask), self.last),
        };
        // SAFETY: untiled indices are at most 255 + 255·stride, inside the table; tiled ones
        // are clamped to the shorter table's last entry (both tables have the same size).
        let lower = unsafe { _mm512_i32gather_epi32::<4>(index, self.lower.as_ptr().cast()) };
        let upper = if self.volume {
            unsafe { _mm512_i32gather_epi32::<4>(index, self.upper.as_ptr().cast()) }
        } else {
            lower
        };
        self.blend(lower, upper, x, y)
    }

    /// The signed noise from the cells' corner codes.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn blend(&self, lower: __m512i, upper: __m512i, x: Axis, y: Axis) -> __m512 {
        let nibbles = |c: __m512i| {
            [
                c,
                _mm512_srli_epi32::<4>(c),
                _mm512_srli_epi32::<8>(c),
                _mm512_srli_epi32::<12>(c),
            ]
        };
        let [gx, gy, gz] = self.grad;
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

    /// Writes scale·n + add (|n| with `abs`) to the masked lanes of out[i..].
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
    #[inline]
    fn store(&self, out: &mut [f32], i: usize, mask: __mmask16, noise: __m512, add: Add<'_>) {
        let noise = if self.a.abs {
            _mm512_abs_ps(noise)
        } else {
            noise
        };
        let addend = match add {
            Add::Uniform(c) => _mm512_set1_ps(c),
            // SAFETY: callers pass masks covering only lanes inside `out`, and `add` is at
            // least as long.
            Add::Slice(s) => unsafe { _mm512_maskz_loadu_ps(mask, s.as_ptr().add(i)) },
        };
        let result = _mm512_add_ps(_mm512_mul_ps(self.scale, noise), addend);
        // SAFETY: as above.
        unsafe { _mm512_mask_storeu_ps(out.as_mut_ptr().add(i), mask, result) };
    }
}

/// The lane mask of a block starting `left` samples before the end.
fn lanes(left: usize) -> __mmask16 {
    if left >= 16 {
        0xFFFF
    } else {
        ((1u32 << left) - 1) as u16
    }
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
    let s = Setup::new(a);
    for i in (0..n).step_by(16) {
        let mask = lanes(n - i);
        // SAFETY: `mask` covers only lanes i..n, within both slices.
        let (xv, yv) = unsafe {
            (
                _mm512_maskz_loadu_ps(mask, x.as_ptr().add(i)),
                _mm512_maskz_loadu_ps(mask, y.as_ptr().add(i)),
            )
        };
        let noise = s.noise(s.x_axis(xv), s.y_axis(yv));
        s.store(out, i, mask, noise, add);
    }
}

/// [`perlin_table`] at the image's own coordinates over a tile of `cols` columns: `u` and
/// `v` are the tile's coordinate slots (u repeats every row, v is constant along a row).
///
/// # Safety
/// The CPU must support AVX-512 F, BW, DQ and VL.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
pub(super) unsafe fn perlin_table_grid(
    out: &mut [f32],
    u: &[f32],
    v: &[f32],
    cols: usize,
    add: Add<'_>,
    a: &PerlinTableArgs<'_>,
) {
    let n = out.len();
    assert!(cols > 0 && u.len() >= cols && v.len() >= n && n.is_multiple_of(cols));
    if let Add::Slice(s) = add {
        assert!(s.len() >= n);
    }
    let s = Setup::new(a);
    for c in (0..cols).step_by(16) {
        let mask = lanes(cols - c);
        // SAFETY: `mask` covers only columns c..cols, within the first row of `u`.
        let x = s.x_axis(unsafe { _mm512_maskz_loadu_ps(mask, u.as_ptr().add(c)) });
        // u grows along a row, so a block's cells are a run starting at its first column's
        // cell. When the run is at most 16 cells long (fewer cells than pixels: any sane
        // frequency), each row's codes are one 16-entry read at that cell (rows carry 16
        // padding entries for this) and a permute by the lanes' offsets into the run.
        let first = _mm512_permutexvar_ps(_mm512_setzero_si512(), x.floor);
        let offset = _mm512_cvttps_epi32(_mm512_sub_ps(x.floor, first));
        let run = _mm512_mask_reduce_max_epi32(mask, offset);
        let window = _mm512_mask_reduce_min_epi32(mask, offset) >= 0 && run < 16;
        let x_start = _mm512_cvtsi512_si32(x.index) as usize;
        for row in 0..n / cols {
            let y = s.y_row(v[row * cols]);
            let noise = if window {
                let start = x_start + _mm512_cvtsi512_si32(y.index) as usize;
                // SAFETY: start is a cell of the table and each row has 16 padding entries
                // after its last cell, so start..start + 16 is inside both tables.
                let (lower, upper) = unsafe {
                    let lower = _mm512_loadu_si512(s.lower.as_ptr().add(start).cast());
                    let upper = if s.volume {
                        _mm512_loadu_si512(s.upper.as_ptr().add(start).cast())
                    } else {
                        lower
                    };
                    (lower, upper)
                };
                s.blend(
                    _mm512_permutexvar_epi32(offset, lower),
                    _mm512_permutexvar_epi32(offset, upper),
                    x,
                    y,
                )
            } else {
                s.noise(x, y)
            };
            s.store(out, row * cols + c, mask, noise, add);
        }
    }
}
