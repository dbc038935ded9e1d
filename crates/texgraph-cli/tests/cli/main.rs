//! End-to-end tests of the `texgraph` binary (one test binary, so the crate links its
//! tests once). Each module was a test file of its own; all run the built binary in a
//! child process.
#![allow(missing_docs)]

mod common;

mod animation;
mod batch;
mod cli;
mod deps;
mod editor_ball;
mod editor_export;
mod limits;
mod materials;
mod memory;
mod params;
mod raster;
mod regions;
mod subgraphs;
mod writes;
