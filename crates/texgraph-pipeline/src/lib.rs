//! What texgraph's headless front ends — the `texgraph` CLI and the Python module — share
//! for asset pipelines:
//!
//! - [`graphs`]: graph files loaded with every problem named by file, node and field;
//! - [`values`]: the text forms of sizes and grids;
//! - [`manifest`]: a batch manifest checked whole, its jobs made one at a time from their
//!   numbers;
//! - [`stamp`]: content keys and the stamps that let a batch skip jobs up to date;
//! - [`batch`]: the runner, several jobs at once, reporting each as it starts and ends.
//!
//! It builds on `texgraph-core` alone; the front ends say what happens in their own
//! words (lines, JSON, a progress bar, Python callbacks).

pub mod batch;
pub mod graphs;
pub mod manifest;
pub mod stamp;
pub mod values;
