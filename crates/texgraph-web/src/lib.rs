//! The entry point of the web page (`scripts/build-web.sh` builds it): the editor of
//! `texgraph-editor`, started on the page's canvas. Built for any other target, it is
//! empty.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// Runs when the page has loaded the module: starts the editor on `#texgraph_canvas`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(start)]
pub fn start() {
    texgraph_editor::web::start("texgraph_canvas");
}
