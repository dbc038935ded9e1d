//! Pure per-sample math. Each function here is the single definition of its formula:
//! the evaluator maps it over tile slices and the compiler calls it to fold constants.

pub mod cellular;
pub mod color;
pub mod curve;
pub mod dispatch;
pub mod fastmath;
pub mod gradient;
pub mod noise;
pub mod normals;
pub mod perlin_bits;
pub mod scalar;
pub mod shapes;
pub mod simplex;
