//! The texgraph editor: build materials visually on the core's graph, with live previews.
//!
//! The core's [`texgraph_core::Graph`] is the document. The node canvas (egui-snarl) holds
//! only view state derived from it; every edit is a [`command::Command`] applied to the graph
//! after drawing, which also feeds undo.

pub mod app;
pub mod command;
pub mod comment_layout;
mod curve_editor;
pub mod document;
pub mod downloads;
pub mod files;
pub mod history;
pub mod jobs;
pub mod navigation;
pub mod panels;
pub mod recovery;
pub mod settings;
pub mod share;
pub mod shown;
pub mod slider;
pub mod subgraphs;
#[cfg(target_arch = "wasm32")]
pub mod web;
