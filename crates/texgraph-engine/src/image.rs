//! The image type every layer hands around: rendered outputs, planes between stages,
//! images loaded for `image` nodes.

/// A rendered image: `channels` (1 = gray, 4 = RGBA) interleaved `f32` per pixel,
/// rows top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 1 (grayscale) or 4 (RGBA).
    pub channels: usize,
    /// width × height × channels samples.
    pub data: Vec<f32>,
}

/// Bytes an image of this size needs while rendering (the float buffer).
pub fn image_bytes(width: u32, height: u32, channels: usize) -> Option<u64> {
    u64::from(width)
        .checked_mul(u64::from(height))?
        .checked_mul(channels as u64 * 4)
}
