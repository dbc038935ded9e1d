//! Writing a tile's rows into the image: four channel rows as RGBA pixels, the last step
//! of every color stage (with AVX-512, sixteen pixels are built from four vectors with
//! six two-source permutes; elsewhere a plain loop), and single rows copied around the
//! cache into images too large for it. Pure data movement: the same bits either way.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

#[cfg(target_arch = "x86_64")]
use texgraph_kernels::dispatch::{Level, level};

/// RGBA pixels from four channel rows of the pixels' length.
pub fn interleave4(pixels: &mut [f32], [red, green, blue, alpha]: [&[f32]; 4]) {
    let n = pixels.len() / 4;
    let (red, green, blue, alpha) = (&red[..n], &green[..n], &blue[..n], &alpha[..n]);
    let done = interleave4_by_hand(pixels, [red, green, blue, alpha]);
    for i in done..n {
        pixels[4 * i..4 * i + 4].copy_from_slice(&[red[i], green[i], blue[i], alpha[i]]);
    }
}

/// Interleaves what a hand-written kernel of this CPU can (whole groups of sixteen pixels
/// with AVX-512); returns how many pixels it wrote.
fn interleave4_by_hand(pixels: &mut [f32], rows: [&[f32]; 4]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if level() == Level::Avx512 {
        // SAFETY: level() reports AVX-512 only when the CPU has it.
        return unsafe { interleave4_avx512(pixels, rows) };
    }
    let _ = (pixels, rows);
    0
}

/// Interleaves whole groups of sixteen pixels; returns how many pixels it wrote.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn interleave4_avx512(pixels: &mut [f32], [red, green, blue, alpha]: [&[f32]; 4]) -> usize {
    // Pairs (r, g) and (b, a) of pixels 0..8 and 8..16, then the pairs side by side.
    let pair_lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    let pair_hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    let quad_lo = _mm512_setr_epi32(0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
    let quad_hi = _mm512_setr_epi32(8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
    let groups = red.len() / 16;
    for k in 0..groups {
        let at = 16 * k;
        // SAFETY: each load reads 16 floats at `at` of a channel row at least `at + 16`
        // long, each store writes 64 floats at 4·at of pixels 4·len long.
        unsafe {
            let r = _mm512_loadu_ps(red.as_ptr().add(at));
            let g = _mm512_loadu_ps(green.as_ptr().add(at));
            let b = _mm512_loadu_ps(blue.as_ptr().add(at));
            let a = _mm512_loadu_ps(alpha.as_ptr().add(at));
            let rg_lo = _mm512_permutex2var_ps(r, pair_lo, g);
            let rg_hi = _mm512_permutex2var_ps(r, pair_hi, g);
            let ba_lo = _mm512_permutex2var_ps(b, pair_lo, a);
            let ba_hi = _mm512_permutex2var_ps(b, pair_hi, a);
            let out = pixels.as_mut_ptr().add(4 * at);
            _mm512_storeu_ps(out, _mm512_permutex2var_ps(rg_lo, quad_lo, ba_lo));
            _mm512_storeu_ps(out.add(16), _mm512_permutex2var_ps(rg_lo, quad_hi, ba_lo));
            _mm512_storeu_ps(out.add(32), _mm512_permutex2var_ps(rg_hi, quad_lo, ba_hi));
            _mm512_storeu_ps(out.add(48), _mm512_permutex2var_ps(rg_hi, quad_hi, ba_hi));
        }
    }
    groups * 16
}

/// Copies `src` into `dst` (of the same length) with stores that bypass the cache, for
/// images too large to stay in it: a cached store first reads the line it writes, so
/// streaming halves the memory traffic. The same bits as `copy_from_slice`.
pub fn stream_copy(dst: &mut [f32], src: &[f32]) {
    let n = dst.len().min(src.len());
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    #[cfg(target_arch = "x86_64")]
    let done = {
        // The first float at a 16-byte boundary.
        let head = dst.as_ptr().align_offset(16).min(n);
        dst[..head].copy_from_slice(&src[..head]);
        let groups = (n - head) / 4;
        for k in 0..groups {
            let at = head + 4 * k;
            // SAFETY: reads and writes 4 floats at `at` < n - 3 of slices n long; the
            // store's address is 16-byte aligned (`head` aligned it). SSE is in every
            // x86-64 CPU.
            unsafe {
                _mm_stream_ps(dst.as_mut_ptr().add(at), _mm_loadu_ps(src.as_ptr().add(at)));
            }
        }
        head + 4 * groups
    };
    dst[done..n].copy_from_slice(&src[done..n]);
}

/// Makes the streamed stores of [`stream_copy`] visible to every thread, as plain stores
/// are: called once a tile's rows are written.
pub fn stream_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a fence; SSE is in every x86-64 CPU.
    unsafe {
        _mm_sfence()
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_copy_holds_every_value_at_any_alignment() {
        let src: Vec<f32> = (0..100).map(|i| i as f32 * 0.5 - 7.0).collect();
        for start in 0..5 {
            for n in [0, 1, 3, 4, 5, 17, 64, 95] {
                let mut dst = vec![f32::NAN; 100];
                stream_copy(&mut dst[start..start + n], &src[start..start + n]);
                stream_fence();
                assert_eq!(dst[start..start + n], src[start..start + n], "{start}+{n}");
                assert!(
                    dst[..start]
                        .iter()
                        .chain(&dst[start + n..])
                        .all(|v| v.is_nan())
                );
            }
        }
    }

    #[test]
    fn pixels_hold_their_four_channels() {
        for n in [1, 15, 16, 37, 64] {
            let rows: Vec<Vec<f32>> = (0..4)
                .map(|c| (0..n).map(|i| (i * 4 + c) as f32).collect())
                .collect();
            let mut pixels = vec![0.0; 4 * n];
            interleave4(&mut pixels, [0, 1, 2, 3].map(|c| rows[c].as_slice()));
            let expected: Vec<f32> = (0..4 * n).map(|i| i as f32).collect();
            assert_eq!(pixels, expected, "{n} pixels");
        }
    }
}
