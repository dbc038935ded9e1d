//! texgraph's core: the graph document, the node registry, validation, the compiler into
//! a flat tile program, the parallel evaluator and image export.
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

pub mod animation;
pub mod ball;
pub mod compile;
pub mod docs;
pub mod export;
pub mod graph;
pub mod images;
pub use texgraph_base::{error, memory, signals, staging, text};
pub use texgraph_engine::{eval, image, plan, program, usage};
pub use texgraph_kernels as kernels;
pub mod nodes;
pub mod paths;
pub mod registry;
pub mod subgraph;
pub mod validate;
pub mod variation;

pub use compile::{check, compile, compile_node, output_names};
pub use error::{Error, GraphError, Location, Result};
pub use eval::{Image, RenderOptions, render, render_into, render_timed};
pub use graph::{Comment, Graph, Node, ParamValue, Settings};
pub use program::Program;
pub use validate::{Diagnostics, check_connection, diagnose, validate};
