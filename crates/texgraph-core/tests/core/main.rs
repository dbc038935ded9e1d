//! The core's integration tests (one test binary, so the crate links its tests once).
//! Each module was a test file of its own; the data they read stays in tests/golden and
//! tests/fixtures.
#![allow(missing_docs)]

mod common;
// Also compiled into the fuzz targets (fuzz/fuzz_targets/*.rs name this path), so it
// stays in tests/invariants.
#[path = "../invariants/mod.rs"]
mod invariants;

mod ball;
mod cellular;
mod clipping;
mod comments;
mod dds;
mod domain;
mod editing;
mod erosion;
mod examples;
mod export;
mod formula_language;
mod formulas;
mod gltf;
mod kernels;
mod library;
mod looping;
mod masks;
mod material_nodes;
mod materials;
mod migration;
mod patterns;
mod perlin_reference;
mod properties;
mod raster;
mod registry;
mod request;
mod scatter;
mod simplex;
mod smears;
mod splat;
mod splatters;
mod streaming;
mod subgraphs;
mod terrace;
mod terrain_view;
mod tile_sampler;
mod validation;
mod vocabulary;
