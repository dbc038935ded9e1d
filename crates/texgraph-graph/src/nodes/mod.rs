//! Node families. Each file defines its nodes' descriptors and compile functions; the
//! registry lists them.

pub mod adjust;
pub mod anisotropic;
pub mod bitmap;
pub mod color;
pub mod combine;
pub mod coordinates;
pub mod filter;
pub mod flood;
pub mod formula;
pub mod fractal;
pub mod gradients;
pub mod histogram;
pub mod input;
pub mod mask;
pub mod material;
pub mod noise;
pub mod pattern;
pub mod scatter;
pub mod select;
pub mod smear;
pub mod splatter_circular;
pub mod symmetry;
pub mod terrain;
pub mod tile_sampler;
pub mod tiling;
pub mod tone;
