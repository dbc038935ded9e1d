//! How values are written for people and read back: numbers as the shortest decimal that
//! reads back, colors as hex text.

use texgraph_core::kernels::gradient::parse_hex_color;

/// The shortest decimal that reads back as `v` (what was typed, `0.6` rather than the
/// f32's exact `0.6000000238418579`), for storing an edited value in the file.
pub fn decimal(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(f64::from(v))
}

/// A hex color as 8-bit RGBA (black when it does not parse).
pub fn to_bytes(hex: &str) -> [u8; 4] {
    parse_hex_color(hex)
        .unwrap_or([0.0, 0.0, 0.0, 1.0])
        .map(|c| (c * 255.0).round() as u8)
}

/// 8-bit RGBA as the file's hex color (`#rrggbb` when opaque).
pub fn to_hex([r, g, b, a]: [u8; 4]) -> String {
    if a == 255 {
        format!("#{r:02x}{g:02x}{b:02x}")
    } else {
        format!("#{r:02x}{g:02x}{b:02x}{a:02x}")
    }
}
