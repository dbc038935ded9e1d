//! texgraph's engine: the compiled program as plain data, the plans of its memory and
//! work, and the evaluator that runs it over tiles, bands and regions. It knows nothing
//! of graph files, nodes or exports: a compiler above turns a graph into a
//! [`program::Program`]; exporters above write the [`image::Image`]s it returns.
//!
//! - [`program`]: stages in evaluation order, the planes between them, the operations
//!   of a per-pixel stage and how far each reaches.
//! - [`eval`]: renders a program whole ([`eval::render`]), band by band or as one
//!   region ([`eval::stream`]); the same bits on any thread count, tile size, band and
//!   instruction set.
//! - [`plan`]: what a render of a given size will hold in memory and do, whole or
//!   streamed.
//! - [`usage`]: what an output map is for, which fixes its channels and encoding.
//! - [`image`]: the image type.

pub mod eval;
pub mod image;
pub mod plan;
pub mod program;
pub mod terrain;
pub mod usage;
