//! Branch-free `f32` versions of floor, rounding, cos, log2, exp2 and pow, written in plain
//! arithmetic so that tile loops vectorize and every instruction-set path (and constant
//! folding) gives the same bits. Accuracy is within a few units of 1e-7, far below what
//! 16-bit export resolves; floor and rounding are exact.

/// From 2²³ on every `f32` is a whole number.
const WHOLE: f32 = 8_388_608.0;

/// ⌊c⌋, bit for bit as [`f32::floor`] (−0 stays −0; NaN and infinities pass through).
///
/// The standard floor needs SSE4.1's `roundps`; on the SSE2 baseline it is a library call
/// per sample, which keeps every loop around it scalar. Truncating through an integer and
/// stepping down where that rounded up vectorizes on every instruction set.
#[inline(always)]
pub fn floor(c: f32) -> f32 {
    let inside = c.abs() < WHOLE; // false for NaN and the infinities
    let floored = floor_within(if inside { c } else { 0.0 });
    if inside { floored } else { c }
}

/// ⌊c⌋ for |c| ≤ 2³⁰ (not NaN), bit for bit as [`f32::floor`]: [`floor`] without the
/// range check, for coordinates the lattice code has already clamped.
#[inline(always)]
pub fn floor_within(c: f32) -> f32 {
    // SAFETY: |c| ≤ 2³⁰ converts exactly (from 2²³ on, c is already whole).
    let t = unsafe { c.to_int_unchecked::<i32>() } as f32;
    let stepped = if t > c { t - 1.0 } else { t };
    // ⌊c⌋ has c's sign, which the integer lost only for −0.
    f32::from_bits(stepped.to_bits() | (c.to_bits() & 0x8000_0000))
}

/// c rounded to the nearest whole number, ties to even, bit for bit as
/// [`f32::round_ties_even`]; vectorizes without SSE4.1 as [`floor`] does.
#[inline(always)]
pub fn round_ties_even(c: f32) -> f32 {
    let magnitude = c.abs();
    // Adding 2²³ leaves no fraction bits, so the hardware rounds (to nearest, ties to
    // even); subtracting it again is exact.
    let rounded = (magnitude + WHOLE) - WHOLE;
    let signed = f32::from_bits(rounded.to_bits() | (c.to_bits() & 0x8000_0000));
    if magnitude < WHOLE { signed } else { c }
}

/// cos(2πt), for any t; exact at multiples of a quarter turn.
#[inline(always)]
pub fn cos_2pi(t: f32) -> f32 {
    // Reduce to a ∈ [0, 0.5] (cos is even, period 1), then to b ∈ [0, 0.25] by
    // cos(2π(0.5 − a)) = −cos(2πa); past b = 1/8 use cos(2πb) = sin(2π(0.25 − b)).
    let a = (t - round_ties_even(t)).abs();
    let flip = a > 0.25;
    let b = if flip { 0.5 - a } else { a };
    let use_sin = b > 0.125;
    let x = if use_sin { 0.25 - b } else { b } * std::f32::consts::TAU;
    let z = x * x;
    // Taylor series on [0, π/4]: truncation below 1e-8.
    let cos = 1.0
        + z * (-0.5
            + z * (1.0 / 24.0
                + z * (-1.0 / 720.0 + z * (1.0 / 40_320.0 + z * (-1.0 / 3_628_800.0)))));
    let sin = x
        * (1.0
            + z * (-1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362_880.0)))));
    let c = if use_sin { sin } else { cos };
    if flip { -c } else { c }
}

/// sin(2πt), for any t.
#[inline(always)]
pub fn sin_2pi(t: f32) -> f32 {
    cos_2pi(t - 0.25)
}

/// log₂ x for x > 0 (−126 for 0 and subnormals, NaN-free for non-negative input).
#[inline(always)]
pub fn log2(x: f32) -> f32 {
    let x = x.max(f32::MIN_POSITIVE);
    let bits = x.to_bits();
    // x = m·2^e with m in [√½, √2).
    let mut e = ((bits >> 23) & 255) as i32 - 127;
    let mut m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000);
    let big = m > std::f32::consts::SQRT_2;
    if big {
        m *= 0.5;
        e += 1;
    }
    // ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| < 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let ln_m =
        2.0 * s * (1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0)))));
    e as f32 + ln_m * std::f32::consts::LOG2_E
}

/// 2^y (0 below −126, capped at 2¹²⁷).
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min map NaN to a bound; clamp would keep it
pub fn exp2(y: f32) -> f32 {
    let y = y.max(-127.0).min(127.0);
    let n = floor(y);
    let f = (y - n) * std::f32::consts::LN_2;
    // e^f for f ∈ [0, ln 2), Taylor to f⁸.
    let p = 1.0
        + f * (1.0
            + f * (0.5
                + f * (1.0 / 6.0
                    + f * (1.0 / 24.0
                        + f * (1.0 / 120.0
                            + f * (1.0 / 720.0 + f * (1.0 / 5040.0 + f * (1.0 / 40_320.0))))))));
    // SAFETY: n is a whole number in [-127, 127].
    let n = unsafe { n.to_int_unchecked::<i32>() };
    let scale = if n < -126 {
        0.0
    } else {
        f32::from_bits(((n + 127) as u32) << 23)
    };
    p * scale
}

/// max(x, 0)^y: 0^y is 0 for y > 0, 1 for y = 0 and 2¹²⁷ for y < 0.
#[inline(always)]
pub fn pow(x: f32, y: f32) -> f32 {
    let x = x.max(0.0);
    let r = exp2(y * log2(x));
    if x == 0.0 {
        if y == 0.0 {
            1.0
        } else if y > 0.0 {
            0.0
        } else {
            // 0^−y would be infinite: capped like exp2.
            exp2(127.0)
        }
    } else {
        r
    }
}

/// atan2(y, x) in radians, within 2e-5 of the true angle (0 for the origin): a minimax
/// polynomial for atan on [0, 1] of min/max, then the octant, with selects only.
#[inline(always)]
pub fn atan2(y: f32, x: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    let (low, high) = (ax.min(ay), ax.max(ay));
    let a = if high > 0.0 { low / high } else { 0.0 };
    let s = a * a;
    // Nvidia Cg's odd polynomial of degree 11.
    let r = (((((-0.013_480_47 * s + 0.057_477_314) * s - 0.121_239_07) * s + 0.195_635_93) * s
        - 0.332_994_6)
        * s
        + 0.999_995_6)
        * a;
    let r = if ay > ax {
        std::f32::consts::FRAC_PI_2 - r
    } else {
        r
    };
    let r = if x < 0.0 { std::f32::consts::PI - r } else { r };
    if y < 0.0 { -r } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 251st bit pattern (all signs, exponents, NaNs and infinities), and the
    /// neighbourhood of every whole number near zero and of 2²³.
    fn samples() -> impl Iterator<Item = f32> {
        let spread = (0..=u32::MAX / 251).map(|i| f32::from_bits(i * 251));
        let near = (-300..300).flat_map(|k| {
            let w = k as f32 * 0.5;
            [w, w.next_up(), w.next_down()]
        });
        let edges = [
            WHOLE,
            -WHOLE,
            2.0 * WHOLE,
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]
        .into_iter()
        .flat_map(|w| [w, w.next_up(), w.next_down()]);
        spread.chain(near).chain(edges)
    }

    #[test]
    fn floor_and_rounding_have_the_bits_of_the_library() {
        for c in samples() {
            if c.is_nan() {
                assert!(floor(c).is_nan() && round_ties_even(c).is_nan(), "{c:?}");
                continue;
            }
            assert_eq!(floor(c).to_bits(), c.floor().to_bits(), "floor {c:?}");
            if c.abs() <= 1_073_741_824.0 {
                assert_eq!(floor_within(c).to_bits(), c.floor().to_bits(), "{c:?}");
            }
            let (got, want) = (round_ties_even(c), c.round_ties_even());
            assert_eq!(got.to_bits(), want.to_bits(), "round {c:?}");
        }
    }

    #[test]
    fn cos_matches_the_library() {
        let mut worst = 0.0f64;
        for i in -20_000..20_000 {
            let t = i as f32 * 0.000_37;
            let exact = (f64::from(t) * std::f64::consts::TAU).cos();
            worst = worst.max((f64::from(cos_2pi(t)) - exact).abs());
        }
        assert!(worst < 5e-7, "{worst}");
        assert_eq!(cos_2pi(0.0), 1.0);
        assert_eq!(cos_2pi(0.5), -1.0);
        assert_eq!(
            (sin_2pi(0.25), sin_2pi(0.0), cos_2pi(0.25), cos_2pi(-0.75)),
            (1.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn pow_matches_the_library() {
        let mut worst = 0.0f64;
        for i in 0..2000 {
            let x = i as f32 / 1999.0;
            for y in [0.1f32, 0.45, 1.0, 2.2, 5.0] {
                let exact = f64::from(x).powf(f64::from(y));
                let rel = (f64::from(pow(x, y)) - exact).abs() / exact.max(1e-3);
                worst = worst.max(rel);
            }
        }
        assert!(worst < 2e-6, "{worst}");
        assert_eq!(pow(0.0, 2.0), 0.0);
        assert_eq!(pow(0.0, 0.0), 1.0);
        assert_eq!(pow(-3.0, 2.0), 0.0);
        assert!((pow(10.0, 3.0) - 1000.0).abs() < 1e-3);
        assert!((log2(8.0) - 3.0).abs() < 1e-6 && (exp2(-3.0) - 0.125).abs() < 1e-8);
    }

    #[test]
    fn atan2_is_within_2e5_of_the_true_angle() {
        let mut worst = 0.0f64;
        for i in 0..20_000 {
            let t = i as f64 / 20_000.0 * std::f64::consts::TAU;
            for r in [1e-3, 0.7, 5.0, 3e4] {
                let (y, x) = ((r * t.sin()) as f32, (r * t.cos()) as f32);
                let want = f64::from(y).atan2(f64::from(x));
                let got = f64::from(atan2(y, x));
                // ±π are one angle.
                let error = (got - want)
                    .abs()
                    .min(std::f64::consts::TAU - (got - want).abs());
                worst = worst.max(error);
            }
        }
        assert!(worst < 2e-5, "worst error {worst}");
        assert_eq!(atan2(0.0, 0.0), 0.0);
    }
}
