//! Perlin's corner gradients as bits, for levels that cannot look a gradient up in
//! registers (SSE2 has no variable permute). Every gradient component is −1, 0 or 1, and
//! multiplying by them is exact: x·1 is x, x·−1 is x with its sign flipped, x·0 is a zero
//! with x's sign. So each product is an AND (keep the magnitude, or only the sign) and an
//! XOR (flip the sign): the same bits as [`perlin_plane`] and [`perlin_volume`], without
//! decoding a corner's code into its gradient lane by lane.
//!
//! A cell's codes are turned into bits once, when the code is read from its table (a
//! 256-entry table, two corners a byte), and the blend reads them with constant shifts.
//!
//! [`perlin_plane`]: crate::noise::perlin_plane
//! [`perlin_volume`]: crate::noise::perlin_volume

use crate::noise::{GRADIENTS, fade, lerp};

/// Bits per corner: for x, y and z in turn, "the component is not 0" and "it is −1".
const PER_CORNER: u32 = 6;

/// The bits of one gradient code (h < 16).
const fn code_bits(h: usize) -> u32 {
    let mut bits = 0;
    let mut axis = 0;
    while axis < 3 {
        let g = GRADIENTS[axis][h];
        if g != 0.0 {
            bits |= 1 << (2 * axis);
        }
        if g < 0.0 {
            bits |= 2 << (2 * axis);
        }
        axis += 1;
    }
    bits
}

/// The bits of two corners' codes, one byte of a packed cell (low nibble first).
const PAIR_BITS: [u32; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = code_bits(byte & 15) | code_bits(byte >> 4) << PER_CORNER;
        byte += 1;
    }
    table
};

/// The gradient bits of a cell's four corner codes, packed as [`crate::noise::pack`]
/// packs them.
#[inline(always)]
pub fn cell_bits(codes: u32) -> u32 {
    PAIR_BITS[(codes & 255) as usize] | PAIR_BITS[((codes >> 8) & 255) as usize] << 12
}

/// g·c for the gradient component of `corner` on `axis` (0, 1, 2 for x, y, z).
#[inline(always)]
fn times(bits: u32, corner: u32, axis: u32, c: f32) -> f32 {
    let at = corner * PER_CORNER + 2 * axis;
    // All ones where the component is ±1, only the sign bit where it is 0.
    let keep = (((bits << (31 - at)) as i32) >> 31) as u32 | 0x8000_0000;
    let flip = (bits << (30 - at)) & 0x8000_0000;
    f32::from_bits((c.to_bits() & keep) ^ flip)
}

/// Perlin noise inside one cell in a single lattice plane from its gradient bits: the
/// bits of [`crate::noise::perlin_plane`] of the codes they were made from.
#[inline(always)]
pub fn perlin_plane_bits(bits: u32, x: f32, y: f32) -> f32 {
    let (u, v) = (fade(x), fade(y));
    let g = |corner: u32, x: f32, y: f32| times(bits, corner, 0, x) + times(bits, corner, 1, y);
    lerp(
        v,
        lerp(u, g(0, x, y), g(1, x - 1.0, y)),
        lerp(u, g(2, x, y - 1.0), g(3, x - 1.0, y - 1.0)),
    )
}

/// Perlin noise inside one cell between two lattice planes from their gradient bits: the
/// bits of [`crate::noise::perlin_volume`] of the codes they were made from.
#[inline(always)]
pub fn perlin_volume_bits(below: u32, above: u32, x: f32, y: f32, z: f32) -> f32 {
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let g = |bits: u32, corner: u32, x: f32, y: f32, z: f32| {
        times(bits, corner, 0, x) + times(bits, corner, 1, y) + times(bits, corner, 2, z)
    };
    let (x1, y1, z1) = (x - 1.0, y - 1.0, z - 1.0);
    lerp(
        w,
        lerp(
            v,
            lerp(u, g(below, 0, x, y, z), g(below, 1, x1, y, z)),
            lerp(u, g(below, 2, x, y1, z), g(below, 3, x1, y1, z)),
        ),
        lerp(
            v,
            lerp(u, g(above, 0, x, y, z1), g(above, 1, x1, y, z1)),
            lerp(u, g(above, 2, x, y1, z1), g(above, 3, x1, y1, z1)),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::noise::{perlin_plane, perlin_volume, splitmix64};

    /// Positions in a cell where signs and zeros decide the bits: both zeros, the cell's
    /// edges, values just inside them, and scattered ones.
    fn positions() -> Vec<f32> {
        let mut at = vec![0.0, -0.0, 1.0, 0.5, f32::EPSILON, 1.0 - f32::EPSILON / 2.0];
        let mut state = 7;
        at.extend((0..10).map(|_| (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32));
        at
    }

    /// Every code a corner can hold, in every corner, against the blend that decodes the
    /// codes into gradients and multiplies: bit for bit, in a plane and between planes.
    #[test]
    fn the_bits_blend_as_the_codes_do() {
        let at = positions();
        let mut state = 11;
        let mut cells: Vec<u32> = (0..16).map(|h| h * 0x1111).collect();
        cells.extend((0..64).map(|_| splitmix64(&mut state) as u32 & 0xffff));
        for &cell in &cells {
            let other = cell.rotate_left(4) & 0xffff;
            for &x in &at {
                for &y in &at {
                    let plane = perlin_plane_bits(cell_bits(cell), x, y);
                    assert_eq!(plane.to_bits(), perlin_plane(cell, x, y).to_bits());
                    for &z in &at[..6] {
                        let volume = perlin_volume_bits(cell_bits(cell), cell_bits(other), x, y, z);
                        let expected = perlin_volume(cell, other, x, y, z);
                        assert_eq!(
                            volume.to_bits(),
                            expected.to_bits(),
                            "{cell:04x} {other:04x} at {x} {y} {z}"
                        );
                    }
                }
            }
        }
    }

    /// The products themselves, sign of zero included, for each code and axis.
    #[test]
    fn each_product_is_the_multiplication() {
        for h in 0..16u32 {
            let bits = cell_bits(h << 12);
            for axis in 0..3 {
                for c in [0.75f32, -0.75, 0.0, -0.0] {
                    let product = GRADIENTS[axis as usize][h as usize] * c;
                    assert_eq!(times(bits, 3, axis, c).to_bits(), product.to_bits());
                }
            }
        }
    }
}
