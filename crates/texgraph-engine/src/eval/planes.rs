//! Operations that read planes: filtered and exact reads, and the neighbourhood filters
//! computed per sample (normal map, emboss, Sobel edges, slope blur). On the stage's own
//! grid, in the image frame, neighbours are whole texels away and are read exactly;
//! anywhere else they are read with bilinear filtering one texel apart, so a filter of a
//! warped or transformed position means the same thing.

use texgraph_kernels::scalar::LUMA;

/// A plane while it is read: interleaved samples, rows top to bottom. It may hold only a
/// window of its rows (a streamed render's band and apron): `rows` rows starting at row
/// `first_row`, going on past the last row to the first when the plane wraps. Reads
/// find a row's samples through [`PlaneView::row`].
#[derive(Clone, Copy)]
pub struct PlaneView<'a> {
    /// width × rows × channels samples.
    pub data: &'a [f32],
    /// Width in texels.
    pub width: usize,
    /// Height in texels of the whole plane.
    pub height: usize,
    /// 1, 4, or a whole-plane stage's own record (a flood fill's, an instance plane's).
    pub channels: usize,
    /// Reads outside wrap around instead of clamping.
    pub wrap: bool,
    /// The plane's row held first in `data` (0 for a whole plane).
    pub first_row: usize,
    /// Rows held in `data` (`height` for a whole plane).
    pub rows: usize,
}

/// Where the tile being computed sits on the stage's grid.
#[derive(Clone, Copy, Default)]
pub struct TileAt {
    /// First column.
    pub col0: usize,
    /// First row.
    pub row0: usize,
    /// Grid width.
    pub width: usize,
    /// Grid height.
    pub height: usize,
}

/// Relief scale of the gradient filters: height 1 stands a tenth of the texture's width.
pub const RELIEF: f32 = 0.1;

impl<'a> PlaneView<'a> {
    /// A view of a whole plane held in `data`.
    pub fn whole(
        data: &'a [f32],
        width: usize,
        height: usize,
        channels: usize,
        wrap: bool,
    ) -> Self {
        Self {
            data,
            width,
            height,
            channels,
            wrap,
            first_row: 0,
            rows: height,
        }
    }

    /// Where row `y` of the plane (in `0..height`) is held in `data`, in rows. A window
    /// holds every row its readers reach, so the row is there.
    #[inline(always)]
    pub fn row(&self, y: usize) -> usize {
        let k = y.wrapping_sub(self.first_row);
        let k = if k >= self.height {
            k.wrapping_add(self.height)
        } else {
            k
        };
        debug_assert!(k < self.rows, "row {y} is outside the plane's window");
        // Never past the rows held, so that unchecked reads stay inside `data`.
        k.min(self.rows - 1)
    }

    /// Whether every row is held, in order (`row` is then the identity).
    #[inline(always)]
    pub fn is_whole(&self) -> bool {
        self.first_row == 0 && self.rows == self.height
    }

    /// [`PlaneView::row`] when `WINDOW`, else `y` as it is: hot loops are compiled for
    /// whole planes, which need no mapping, and for windows.
    #[inline(always)]
    pub fn row_of<const WINDOW: bool>(&self, y: usize) -> usize {
        if WINDOW { self.row(y) } else { y }
    }

    /// Samples held: width × rows × channels.
    #[inline(always)]
    pub fn held(&self) -> usize {
        self.width * self.rows * self.channels
    }

    /// Texel index along an axis of `len` texels, wrapped or clamped.
    #[inline(always)]
    pub(super) fn index(&self, i: i64, len: usize) -> usize {
        if self.wrap {
            i.rem_euclid(len as i64) as usize
        } else {
            i.clamp(0, len as i64 - 1) as usize
        }
    }

    /// Every channel of texel (x, y), by whole-number column and row (wrapped, or
    /// clamped to the edge; NaN reads the first).
    #[inline(always)]
    pub fn texel(&self, x: f32, y: f32) -> &[f32] {
        let at = self.texel_at(x, y);
        &self.data[at..at + self.channels]
    }

    /// Every channel of texel (`column`, `row`), both already inside the plane: no
    /// conversion and no wrap, for callers that walk a plane's texels in order.
    #[inline(always)]
    pub fn texel_in(&self, column: usize, row: usize) -> &[f32] {
        debug_assert!(column < self.width && row < self.height);
        let at = (self.row(row) * self.width + column) * self.channels;
        &self.data[at..at + self.channels]
    }

    /// Where [`PlaneView::texel`] (x, y) starts in `data`.
    #[inline(always)]
    pub fn texel_at(&self, x: f32, y: f32) -> usize {
        // ⌊v⌋ without a call to the library: a conversion, then one step down for
        // negatives that were not whole (NaN converts to 0).
        let whole = |v: f32, len: usize| {
            let t = v as i64;
            let t = if (t as f32) > v { t - 1 } else { t };
            // Most reads are already inside: no division for them.
            if (t as u64) < len as u64 {
                t as usize
            } else {
                self.index(t, len)
            }
        };
        let row = self.row(whole(y, self.height));
        (row * self.width + whole(x, self.width)) * self.channels
    }

    /// The texel under (u, v).
    #[inline(always)]
    pub fn nearest(&self, u: f32, v: f32) -> [f32; 4] {
        let x = self.index((u * self.width as f32).floor() as i64, self.width);
        let y = self.index((v * self.height as f32).floor() as i64, self.height);
        let at = (self.row(y) * self.width + x) * self.channels;
        let mut out = [0.0; 4];
        out[..self.channels].copy_from_slice(&self.data[at..at + self.channels]);
        out
    }

    /// Bilinear read at (u, v): texel centres sit at (i + 0.5) / size.
    #[inline(always)]
    pub fn bilinear(&self, u: f32, v: f32) -> [f32; 4] {
        let (xa, xb, tx, ya, yb, ty) = if self.wrap {
            let (xa, xb, tx) = axis::<true>(u, self.width);
            let (ya, yb, ty) = axis::<true>(v, self.height);
            (xa, xb, tx, ya, yb, ty)
        } else {
            let (xa, xb, tx) = axis::<false>(u, self.width);
            let (ya, yb, ty) = axis::<false>(v, self.height);
            (xa, xb, tx, ya, yb, ty)
        };
        let c = self.channels;
        let (row_a, row_b) = (self.row(ya) * self.width, self.row(yb) * self.width);
        let mut out = [0.0; 4];
        for (ch, o) in out.iter_mut().enumerate().take(c) {
            let p00 = self.data[(row_a + xa) * c + ch];
            let p10 = self.data[(row_a + xb) * c + ch];
            let p01 = self.data[(row_b + xa) * c + ch];
            let p11 = self.data[(row_b + xb) * c + ch];
            *o = blend([p00, p10, p01, p11], tx, ty);
        }
        out
    }

    /// One channel, bilinear.
    #[inline(always)]
    fn value(&self, u: f32, v: f32) -> f32 {
        self.bilinear(u, v)[0]
    }

    /// (∂h/∂u, ∂h/∂v) of channel 0 at (u, v), in value per texture unit: central
    /// differences of bilinear reads one texel apart.
    #[inline(always)]
    pub fn gradient(&self, u: f32, v: f32) -> (f32, f32) {
        let (du, dv) = (1.0 / self.width as f32, 1.0 / self.height as f32);
        let gx = (self.value(u + du, v) - self.value(u - du, v)) * (0.5 * self.width as f32);
        let gy = (self.value(u, v + dv) - self.value(u, v - dv)) * (0.5 * self.height as f32);
        (gx, gy)
    }

    /// (∂h/∂u, ∂h/∂v) of channel 0 at texel (x, y) from its four neighbours, exactly. At a
    /// clamped edge the difference spans one texel instead of two.
    #[inline(always)]
    pub fn grid_gradient(&self, x: usize, y: usize) -> (f32, f32) {
        let (x, y) = (x as i64, y as i64);
        let (l, r) = (self.index(x - 1, self.width), self.index(x + 1, self.width));
        let (t, b) = (
            self.index(y - 1, self.height),
            self.index(y + 1, self.height),
        );
        let span = |lo: usize, hi: usize, len: usize| -> f32 {
            if self.wrap {
                len as f32 / 2.0
            } else if hi > lo {
                len as f32 / (hi - lo) as f32
            } else {
                0.0
            }
        };
        let row = self.row(y as usize) * self.width;
        let gx = (self.data[(row + r) * self.channels] - self.data[(row + l) * self.channels])
            * span(l, r, self.width);
        let gy = (self.data[(self.row(b) * self.width + x as usize) * self.channels]
            - self.data[(self.row(t) * self.width + x as usize) * self.channels])
            * span(t, b, self.height);
        // A one-texel-wide axis has no slope.
        let gx = if self.width > 1 { gx } else { 0.0 };
        let gy = if self.height > 1 { gy } else { 0.0 };
        (gx, gy)
    }
}

/// The bilinear blend of four texels (top-left, top-right, bottom-left, bottom-right) at
/// weights (tx, ty): the one formula every bilinear read uses, so all give the same bits.
#[inline(always)]
pub fn blend([p00, p10, p01, p11]: [f32; 4], tx: f32, ty: f32) -> f32 {
    let top = p00 + (p10 - p00) * tx;
    let bottom = p01 + (p11 - p01) * tx;
    top + (bottom - top) * ty
}

/// The two texels a bilinear read at `t` (texture units) blends along an axis of `len`
/// texels, and the weight of the second; wrapping (`WRAP`) or clamping. Wrapping is done
/// in floats: no integer division per read. Both indices are below `len`.
#[inline(always)]
pub fn axis<const WRAP: bool>(t: f32, len: usize) -> (usize, usize, f32) {
    let size = len as f32;
    let f = t * size - 0.5;
    let whole = f.floor();
    let frac = f - whole;
    if WRAP {
        // floor mod len; a product instead of a division, the two corrections below make
        // it exact either way.
        let mut i = whole - size * (whole * (1.0 / size)).floor();
        if i < 0.0 {
            i += size;
        }
        if i >= size {
            i -= size;
        }
        // `as` maps NaN to 0; the comparisons above keep i below len otherwise.
        let i0 = (i as usize).min(len - 1);
        let i1 = if i0 + 1 == len { 0 } else { i0 + 1 };
        (i0, i1, frac)
    } else {
        let top = size - 1.0;
        (
            whole.clamp(0.0, top) as usize,
            (whole + 1.0).clamp(0.0, top) as usize,
            frac,
        )
    }
}

/// The unit normal of the relief `strength`·[`RELIEF`]·h with slope (gx, gy) per texture
/// unit, x right, y up (v grows down), z out of the surface.
#[inline(always)]
pub fn normal(gx: f32, gy: f32, strength: f32) -> [f32; 3] {
    let k = strength * RELIEF;
    let (nx, ny) = (-k * gx, k * gy);
    let inv = 1.0 / (nx * nx + ny * ny + 1.0).sqrt();
    [nx * inv, ny * inv, inv]
}

/// The normal encoded as a color: 0.5 + 0.5·n, green flipped (1 − g) for DirectX.
#[inline(always)]
pub fn encode_normal(n: [f32; 3], directx: bool) -> [f32; 3] {
    let g = 0.5 + 0.5 * n[1];
    [
        0.5 + 0.5 * n[0],
        if directx { 1.0 - g } else { g },
        0.5 + 0.5 * n[2],
    ]
}

/// Lambert shading max(0, n·light).
#[inline(always)]
pub fn emboss(gx: f32, gy: f32, strength: f32, light: [f32; 3]) -> f32 {
    let n = normal(gx, gy, strength);
    (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]).max(0.0)
}

/// The Sobel edge mask at (u, v) with taps `width` texture units apart (at least a texel):
/// m = |(Sobel x, Sobel y)| / 4 (a step of 1 gives 1), mask = clamp((m − threshold)·20, 0, 1).
#[inline(always)]
pub fn edges(plane: &PlaneView<'_>, u: f32, v: f32, width: f32, threshold: f32) -> f32 {
    let du = width.abs().max(1.0 / plane.width as f32);
    let dv = width.abs().max(1.0 / plane.height as f32);
    let p = |i: f32, j: f32| luma(plane, plane.bilinear(u + i * du, v + j * dv));
    let (tl, t, tr) = (p(-1.0, -1.0), p(0.0, -1.0), p(1.0, -1.0));
    let (l, r) = (p(-1.0, 0.0), p(1.0, 0.0));
    let (bl, b, br) = (p(-1.0, 1.0), p(0.0, 1.0), p(1.0, 1.0));
    let gx = ((tr + 2.0 * r + br) - (tl + 2.0 * l + bl)) * 0.25;
    let gy = ((bl + 2.0 * b + br) - (tl + 2.0 * t + tr)) * 0.25;
    let m = (gx * gx + gy * gy).sqrt();
    ((m - threshold) * 20.0).clamp(0.0, 1.0)
}

/// One channel of a read: the value of a scalar plane, the luminance of a color one.
#[inline(always)]
fn luma(plane: &PlaneView<'_>, px: [f32; 4]) -> f32 {
    if plane.channels == 1 {
        px[0]
    } else {
        LUMA[0] * px[0] + LUMA[1] * px[1] + LUMA[2] * px[2]
    }
}
