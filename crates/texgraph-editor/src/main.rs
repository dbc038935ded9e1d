//! `texgraph-editor [GRAPH.json]`: opens the editor on a graph (graphs/marble.json when
//! none is given and it exists, else a new graph). The web page starts from
//! `texgraph-web` instead; built for the web, this program is empty.

#![cfg_attr(target_arch = "wasm32", allow(unused_imports))]

use std::path::PathBuf;

use eframe::egui;
use texgraph_editor::app::EditorApp;
use texgraph_editor::document::new_graph;
use texgraph_editor::files::Files;
use texgraph_editor::recovery::{self, Autosave, Watch};
use texgraph_editor::settings::Settings;

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> eframe::Result {
    texgraph_core::memory::fit_allocator_to_address_limit();
    let path = std::env::args_os().nth(1).map(PathBuf::from).or_else(|| {
        let marble = PathBuf::from("graphs/marble.json");
        marble.exists().then_some(marble)
    });
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("texgraph")
            .with_inner_size([1400.0, 860.0])
            .with_min_inner_size([640.0, 400.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "texgraph",
        options,
        Box::new(move |cc| {
            let mut app = match &path {
                Some(path) => EditorApp::open(&cc.egui_ctx, path).unwrap_or_else(|message| {
                    let mut app = EditorApp::new(&cc.egui_ctx, new_graph(), None);
                    app.status = format!("error: {message}");
                    app
                }),
                None => EditorApp::new(&cc.egui_ctx, new_graph(), None),
            };
            app.files = Files::for_desktop();
            app.settings = Settings::for_desktop();
            app.export.user_presets =
                texgraph_editor::settings::config_dir().map(|d| d.join("presets.json"));
            app.autosave = Autosave::for_desktop();
            // Its first look, on the first frame, finds what earlier editors left behind.
            app.recovery_watch = Watch::for_desktop();
            if let Err(e) = recovery::end_on_signals(cc.egui_ctx.clone()) {
                app.status = format!("cannot catch signals ({e}): a kill loses up to 3 s of edits");
            }
            if let Some(path) = app.path.clone() {
                app.files.remember(&path);
            }
            Ok(Box::new(app))
        }),
    )
}
