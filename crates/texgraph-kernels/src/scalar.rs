//! Per-sample formulas of the non-noise operations.

use std::f32::consts::TAU;

use crate::fastmath;
use crate::fastmath::floor;

/// Single-argument functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unary {
    /// |a|
    Abs,
    /// 1 − a
    Invert,
    /// a clamped to [0, 1]
    Clamp01,
    /// sin(a), a in radians
    Sin,
    /// a − floor(a)
    Fract,
    /// Hermite smoothstep of a over [0, 1]
    Smoothstep,
    /// cos of a in degrees
    CosDeg,
    /// sin of a in degrees
    SinDeg,
    /// max(1, round(a)): the integer period of a tileable frequency
    Period,
    /// round(a), halves away from zero
    Round,
    /// Sine wave profile 0.5 − 0.5·cos 2πa
    SineWave,
    /// Saw wave profile fract(a)
    SawWave,
    /// Triangle wave profile 1 − |2·fract(a) − 1|
    TriangleWave,
    /// 0.5 + 0.5·a: signed basis to [0, 1]
    ToUnit,
    /// 2·a − 1: [0, 1] to signed
    ToSigned,
    /// a clamped to ±[`SATURATION`]: what nodes that
    /// amplify through operations that do not saturate themselves (sharpen's multiply-add,
    /// a fractal's sum of a source) put on their results, so no chain of them reaches
    /// infinity.
    Saturate,
    /// √max(a, 0)
    Sqrt,
    /// ⌊a⌋
    Floor,
    /// ⌈a⌉
    Ceil,
    /// 1 for a > 0, −1 for a < 0, 0 for 0
    Sign,
    /// 1 where a is 0, else 0
    Not,
    /// cos(a), a in radians
    Cos,
    /// tan(a), a in radians, saturating where cos(a) is 0
    Tan,
    /// asin of a clamped to [−1, 1], in radians
    Asin,
    /// acos of a clamped to [−1, 1], in radians
    Acos,
    /// atan(a), in radians
    Atan,
    /// eᵃ, saturating
    Exp,
    /// ln a; a ≤ 0 reads as the smallest normal `f32` (ln is −87.34 there)
    Log,
}

/// Two-argument functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Binary {
    /// a + b (saturating, as the next three)
    Add,
    /// a − b
    Subtract,
    /// a · b
    Multiply,
    /// a / b, 0 where b = 0
    Divide,
    /// min(a, b)
    Min,
    /// max(a, b)
    Max,
    /// max(a, 0)^b, saturating
    Power,
    /// 1 where a ≥ b, else 0
    Step,
    /// The angle of the point (b, a) in turns, in [−½, ½] ([`fastmath::atan2`]`(a, b)`/2π; 0
    /// at the origin)
    Angle,
    /// a − b·⌊a/b⌋ (GLSL's `mod`: the sign of b), 0 where b = 0
    Mod,
    /// 1 where a < b, else 0
    Less,
    /// 1 where a ≤ b, else 0
    LessEqual,
    /// 1 where a = b, else 0
    Equal,
    /// 1 where a ≠ b, else 0
    NotEqual,
    /// 1 where a and b are both not 0, else 0
    And,
    /// 1 where a or b is not 0, else 0
    Or,
    /// The angle of the point (b, a) in radians, in [−π, π] ([`fastmath::atan2`]; 0 at the
    /// origin)
    Atan2,
}

/// Blend modes of the `blend` node, applied per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlendMode {
    /// b
    Mix,
    /// a + b
    Add,
    /// a · b
    Multiply,
    /// 1 − (1 − a)(1 − b)
    Screen,
    /// multiply below a = 0.5, screen above
    Overlay,
    /// min(a, b)
    Darken,
    /// max(a, b)
    Lighten,
    /// |a − b|
    Difference,
    /// a − b
    Subtract,
}

/// Rec.709 luma weights, used when a color feeds a scalar input.
pub const LUMA: [f32; 3] = [0.2126, 0.7152, 0.0722];

/// The largest magnitude a node that can amplify passes on (see [`Unary::Saturate`]):
/// far beyond any useful texture value, and small enough that a product or sum of two
/// such values is still finite.
pub const SATURATION: f32 = 1e12;

/// `a` within ±[`SATURATION`]. Arithmetic that can grow (sums, products, quotients,
/// powers, blends) saturates inside its own kernel, at the cost of two instructions and
/// no extra pass, so no chain of nodes overflows.
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min (not clamp): even a NaN lands on a bound
pub fn saturate(a: f32) -> f32 {
    a.max(-SATURATION).min(SATURATION)
}

/// 3t² − 2t³ of t clamped to [0, 1].
#[inline(always)]
pub fn smoothstep(a: f32) -> f32 {
    let t = a.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// f(a) for a [`Unary`] function.
#[inline(always)]
pub fn unary(f: Unary, a: f32) -> f32 {
    match f {
        Unary::Abs => a.abs(),
        Unary::Invert => 1.0 - a,
        Unary::Clamp01 => a.clamp(0.0, 1.0),
        Unary::Sin => fastmath::sin_2pi(a * (1.0 / TAU)),
        Unary::Fract => a - floor(a),
        Unary::Smoothstep => smoothstep(a),
        Unary::CosDeg => fastmath::cos_2pi(a * (1.0 / 360.0)),
        Unary::SinDeg => fastmath::sin_2pi(a * (1.0 / 360.0)),
        Unary::Period => crate::noise::period_of(a),
        Unary::Round => a.round(),
        Unary::SineWave => 0.5 - 0.5 * fastmath::cos_2pi(a),
        Unary::SawWave => a - floor(a),
        Unary::TriangleWave => 1.0 - (2.0 * (a - floor(a)) - 1.0).abs(),
        Unary::ToUnit => 0.5 + 0.5 * a,
        Unary::ToSigned => 2.0 * a - 1.0,
        Unary::Saturate => saturate(a),
        Unary::Sqrt => a.max(0.0).sqrt(),
        Unary::Floor => floor(a),
        Unary::Ceil => -floor(-a),
        Unary::Sign => truth(a > 0.0) - truth(a < 0.0),
        Unary::Not => truth(a == 0.0),
        Unary::Cos => fastmath::cos_2pi(a * (1.0 / TAU)),
        Unary::Tan => {
            let turns = a * (1.0 / TAU);
            // cos is exactly 0 only at odd quarter turns, where the quotient is infinite.
            saturate(fastmath::sin_2pi(turns) / fastmath::cos_2pi(turns))
        }
        Unary::Asin => {
            let s = a.clamp(-1.0, 1.0);
            // (1 − s)(1 + s) keeps the digits 1 − s² loses near ±1.
            fastmath::atan2(s, ((1.0 - s) * (1.0 + s)).sqrt())
        }
        Unary::Acos => {
            let s = a.clamp(-1.0, 1.0);
            fastmath::atan2(((1.0 - s) * (1.0 + s)).sqrt(), s)
        }
        Unary::Atan => fastmath::atan2(a, 1.0),
        Unary::Exp => saturate(fastmath::exp2(a * std::f32::consts::LOG2_E)),
        Unary::Log => fastmath::log2(a) * std::f32::consts::LN_2,
    }
}

/// f(a, b) for a [`Binary`] function.
#[inline(always)]
pub fn binary(f: Binary, a: f32, b: f32) -> f32 {
    match f {
        Binary::Add => saturate(a + b),
        Binary::Subtract => saturate(a - b),
        Binary::Multiply => saturate(a * b),
        Binary::Divide => {
            if b == 0.0 {
                0.0
            } else {
                saturate(a / b)
            }
        }
        Binary::Min => a.min(b),
        Binary::Max => a.max(b),
        Binary::Power => saturate(fastmath::pow(a, b)),
        Binary::Step => {
            if a >= b {
                1.0
            } else {
                0.0
            }
        }
        Binary::Angle => fastmath::atan2(a, b) * (1.0 / TAU),
        Binary::Mod => {
            if b == 0.0 {
                0.0
            } else {
                // The quotient saturates first, so a huge a over a tiny b stays finite.
                saturate(a - b * floor(saturate(a / b)))
            }
        }
        Binary::Less => truth(a < b),
        Binary::LessEqual => truth(a <= b),
        Binary::Equal => truth(a == b),
        Binary::NotEqual => truth(a != b),
        Binary::And => truth(a != 0.0 && b != 0.0),
        Binary::Or => truth(a != 0.0 || b != 0.0),
        Binary::Atan2 => fastmath::atan2(a, b),
    }
}

/// 1 for true, 0 for false.
#[inline(always)]
pub fn truth(holds: bool) -> f32 {
    if holds { 1.0 } else { 0.0 }
}

/// a where `condition` is not 0, else b.
#[inline(always)]
pub fn select(condition: f32, a: f32, b: f32) -> f32 {
    if condition != 0.0 { a } else { b }
}

/// mode(a, b) for one channel.
#[inline(always)]
pub fn blend(mode: BlendMode, a: f32, b: f32) -> f32 {
    match mode {
        BlendMode::Mix => b,
        BlendMode::Add => saturate(a + b),
        BlendMode::Multiply => saturate(a * b),
        BlendMode::Screen => saturate(1.0 - (1.0 - a) * (1.0 - b)),
        BlendMode::Overlay => saturate(if a < 0.5 {
            2.0 * a * b
        } else {
            1.0 - 2.0 * (1.0 - a) * (1.0 - b)
        }),
        BlendMode::Darken => a.min(b),
        BlendMode::Lighten => a.max(b),
        BlendMode::Difference => saturate((a - b).abs()),
        BlendMode::Subtract => saturate(a - b),
    }
}

/// Levels: (a − in_low)/(in_high − in_low) clamped to [0, 1], raised to 1/gamma, mapped
/// onto [out_low, out_high]. Equal input points make a hard threshold at in_low.
#[inline(always)]
pub fn levels(a: f32, in_low: f32, in_high: f32, gamma: f32, out_low: f32, out_high: f32) -> f32 {
    let range = in_high - in_low;
    let t = if range > 0.0 {
        ((a - in_low) / range).clamp(0.0, 1.0)
    } else if a > in_low {
        1.0
    } else {
        0.0
    };
    let t = if gamma == 1.0 {
        t
    } else {
        fastmath::pow(t, 1.0 / gamma.max(1e-4))
    };
    out_low + t * (out_high - out_low)
}

/// One ridged-multifractal octave: ((offset − |n|)²)·weight.
#[inline(always)]
pub fn ridge(n: f32, offset: f32, weight: f32) -> f32 {
    let s = offset - n.abs();
    s * s * weight
}

/// Distance from `center`; with `tile`, each offset is first wrapped into [-0.5, 0.5] so the
/// distance repeats on the unit square.
#[inline(always)]
pub fn ring_distance(x: f32, y: f32, cx: f32, cy: f32, tile: bool) -> f32 {
    let (mut dx, mut dy) = (x - cx, y - cy);
    if tile {
        dx -= dx.round_ties_even();
        dy -= dy.round_ties_even();
    }
    (dx * dx + dy * dy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_maps_points_and_thresholds() {
        assert_eq!(levels(0.2, 0.2, 0.8, 1.0, 0.1, 0.9), 0.1);
        assert_eq!(levels(0.9, 0.2, 0.8, 1.0, 0.1, 0.9), 0.9);
        assert!((levels(0.5, 0.2, 0.8, 1.0, 0.0, 1.0) - 0.5).abs() < 1e-6);
        assert!((levels(0.25, 0.0, 1.0, 2.0, 0.0, 1.0) - 0.5).abs() < 1e-6);
        assert_eq!(levels(0.51, 0.5, 0.5, 1.0, 0.0, 1.0), 1.0);
        assert_eq!(levels(0.5, 0.5, 0.5, 1.0, 0.0, 1.0), 0.0);
    }

    #[test]
    fn profiles_start_at_zero_and_peak_mid_period() {
        for p in [Unary::SineWave, Unary::TriangleWave] {
            assert!(unary(p, 0.0).abs() < 1e-6);
            assert!((unary(p, 0.5) - 1.0).abs() < 1e-6);
            assert!(unary(p, 3.0).abs() < 1e-5);
        }
        assert!((unary(Unary::SawWave, 1.25) - 0.25).abs() < 1e-6);
    }

    #[test]
    fn blend_modes_match_their_formulas() {
        assert_eq!(blend(BlendMode::Screen, 0.5, 0.5), 0.75);
        assert_eq!(blend(BlendMode::Overlay, 0.25, 0.5), 0.25);
        assert_eq!(blend(BlendMode::Overlay, 0.75, 0.5), 0.75);
        assert_eq!(blend(BlendMode::Difference, 0.25, 0.75), 0.5);
        assert_eq!(binary(Binary::Divide, 1.0, 0.0), 0.0);
        assert_eq!(binary(Binary::Power, -2.0, 0.5), 0.0);
    }

    #[test]
    fn tiled_rings_repeat_on_the_unit_square() {
        let a = ring_distance(0.999_9, 0.2, 0.3, 0.6, true);
        let b = ring_distance(-0.000_1, 0.2, 0.3, 0.6, true);
        assert!((a - b).abs() < 1e-3);
        assert!((ring_distance(0.3, 0.2, 0.3, 0.6, false) - 0.4).abs() < 1e-6);
    }
}
