//! texgraph's core: the one crate front ends depend on. It holds the [`request`] every
//! front end exports through ([`ExportRequest`]) and re-exports the layers under the
//! paths they have always had; each layer is a crate of its own, and imports run one way,
//! from the top of this list to the bottom:
//!
//! - `texgraph-ball` ([`ball`]): the material ball, a CPU renderer of a material's maps.
//! - `texgraph-export` ([`export`], [`animation`]): formats, presets, streamed renders
//!   written band by band, regions and stitching, staged commits.
//! - `texgraph-graph` ([`graph`], [`registry`], [`nodes`], [`validate`], [`subgraph`],
//!   [`compile`], [`params`], …): the document, the node types, validation and the compiler.
//! - `texgraph-engine` ([`program`], [`eval`], [`plan`], [`usage`], [`image`]): the
//!   compiled program as plain data and its evaluator.
//! - `texgraph-kernels` ([`kernels`]): per-sample math and instruction-set dispatch.
//! - `texgraph-base` ([`error`], [`files`], [`memory`], [`staging`], [`signals`],
//!   [`text`]): what every layer shares.
//!
//! ```
//! use texgraph_core::{Graph, compile, render, RenderOptions};
//! let graph = Graph::from_json(r#"{
//!   "format": "texgraph", "version": 1,
//!   "nodes": [
//!     { "id": "noise", "type": "perlin", "params": { "frequency": 8 } },
//!     { "id": "out", "type": "output", "inputs": { "color": "noise" } }
//!   ]
//! }"#).unwrap();
//! let program = compile(&graph, None).unwrap();
//! let image = render(&program, 64, 64, RenderOptions::default(), &|_| {}).unwrap();
//! assert_eq!(image.data.len(), 64 * 64);
//! ```

pub mod request;

pub use texgraph_ball as ball;
pub use texgraph_base::{error, files, memory, memory_files, signals, staging, text};
pub use texgraph_engine::{eval, image, plan, program, terrain, usage};
pub use texgraph_export as export;
pub use texgraph_export::animation;
pub use texgraph_graph::{
    catalog, checks, compile, descriptor, docs, formula, graph, images, library, nodes, params,
    paths, registry, search_words, subgraph, validate, variation,
};
pub use texgraph_kernels as kernels;

pub use compile::{check, compile, compile_node, output_names};
pub use error::{Error, GraphError, Location, Result};
pub use eval::{Image, RenderOptions, render, render_into, render_timed};
pub use graph::{Comment, Graph, Node, ParamValue, Settings};
pub use program::Program;
pub use request::{AnimationExport, BallExport, ExportRequest, MaterialExport, StillExport};
pub use validate::{Diagnostics, check_connection, diagnose, validate};
