//! Color ramps.

/// A color ramp: stops sorted by position, colors as RGBA in [0, 1].
#[derive(Debug, Clone, PartialEq)]
pub struct Ramp {
    /// (position, RGBA), sorted by position.
    pub stops: Vec<(f32, [f32; 4])>,
    /// Hold each stop's color until the next stop instead of interpolating.
    pub constant: bool,
}

impl Ramp {
    /// The color at `t`: the first stop's color below the first stop, the last one's above
    /// the last; between two stops linear interpolation (or the lower stop's color).
    #[inline]
    pub fn sample(&self, t: f32) -> [f32; 4] {
        let stops = &self.stops;
        let next = stops.partition_point(|(pos, _)| *pos <= t);
        if next == 0 {
            return stops[0].1;
        }
        if next == stops.len() || self.constant {
            return stops[next - 1].1;
        }
        let (p0, c0) = stops[next - 1];
        let (p1, c1) = stops[next];
        let f = (t - p0) / (p1 - p0);
        std::array::from_fn(|i| c0[i] + (c1[i] - c0[i]) * f)
    }
}

/// Parses `#rrggbb` or `#rrggbbaa` into RGBA in [0, 1].
pub fn parse_hex_color(text: &str) -> Option<[f32; 4]> {
    let hex = text.strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    let a = if hex.len() == 8 { byte(6)? } else { 255 };
    Some([byte(0)?, byte(2)?, byte(4)?, a].map(|c| f32::from(c) / 255.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colors_parse_and_reject() {
        assert_eq!(
            parse_hex_color("#ff000080"),
            Some([1.0, 0.0, 0.0, 128.0 / 255.0])
        );
        assert_eq!(parse_hex_color("#00ff00"), Some([0.0, 1.0, 0.0, 1.0]));
        assert_eq!(parse_hex_color("00ff00"), None);
        assert_eq!(parse_hex_color("#0f0"), None);
        assert_eq!(parse_hex_color("#gg0000"), None);
    }

    #[test]
    fn ramp_interpolates_and_clamps() {
        let ramp = Ramp {
            stops: vec![(0.25, [0.0, 0.0, 0.0, 1.0]), (0.75, [1.0, 0.5, 0.0, 1.0])],
            constant: false,
        };
        assert_eq!(ramp.sample(-1.0), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(ramp.sample(0.5), [0.5, 0.25, 0.0, 1.0]);
        assert_eq!(ramp.sample(2.0), [1.0, 0.5, 0.0, 1.0]);
        let held = Ramp {
            constant: true,
            ..ramp
        };
        assert_eq!(held.sample(0.7), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(held.sample(0.75), [1.0, 0.5, 0.0, 1.0]);
    }
}
