//! Color-space arithmetic: the HSL adjustment of the `hsl` node.

use crate::fastmath::floor;

/// (r, g, b) with its HSL hue turned by `hue` degrees, its saturation scaled by
/// 1 + `saturation` (−1 removes it, 1 doubles it) and its lightness moved toward black
/// (`lightness` < 0, by that fraction) or white (> 0), as in an image editor's
/// Hue/Saturation. Channels are taken within [0, 1] first; every result is in [0, 1].
#[inline]
pub fn hsl_adjust(rgb: [f32; 3], hue: f32, saturation: f32, lightness: f32) -> [f32; 3] {
    let [h, s, l] = to_hsl(rgb.map(|c| c.clamp(0.0, 1.0)));
    // Degrees to turns, wrapped into [0, 1).
    let turned = h + hue / 360.0;
    let h = turned - floor(turned);
    let s = (s * (1.0 + saturation.clamp(-1.0, 1.0))).clamp(0.0, 1.0);
    let amount = lightness.clamp(-1.0, 1.0);
    let l = if amount < 0.0 {
        l * (1.0 + amount)
    } else {
        l + (1.0 - l) * amount
    };
    from_hsl(h, s, l)
}

/// Hue (turns, [0, 1)), saturation and lightness of a color in [0, 1].
fn to_hsl([r, g, b]: [f32; 3]) -> [f32; 3] {
    let (high, low) = (r.max(g).max(b), r.min(g).min(b));
    let l = 0.5 * (high + low);
    let d = high - low;
    if d <= 0.0 {
        return [0.0, 0.0, l];
    }
    let s = if l > 0.5 {
        d / (2.0 - high - low)
    } else {
        d / (high + low)
    };
    let sector = if high == r {
        (g - b) / d + if g < b { 6.0 } else { 0.0 }
    } else if high == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    [sector / 6.0, s, l]
}

/// The color of hue `h` (turns), saturation `s` and lightness `l`.
fn from_hsl(h: f32, s: f32, l: f32) -> [f32; 3] {
    if s <= 0.0 {
        return [l; 3];
    }
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    [h + 1.0 / 3.0, h, h - 1.0 / 3.0].map(|t| {
        let t = t - floor(t);
        let c = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        c.clamp(0.0, 1.0)
    })
}

/// sRGB-encoded value to linear light (IEC 61966-2-1, the exact piecewise curve).
#[inline]
pub fn srgb_to_linear(v: f32) -> f32 {
    if v <= 0.040_45 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear light to an sRGB-encoded value (the inverse of [`srgb_to_linear`]).
#[inline]
pub fn linear_to_srgb(v: f32) -> f32 {
    if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}
