//! The editor as a web page: the same editor, on a canvas, with the browser for a file
//! system. Files opened are put in memory ([`texgraph_core::memory_files`]); what a save
//! or an export writes becomes a download; unsaved work is kept in the browser's storage
//! and offered back as on the desktop; a graph travels in the page's address
//! ([`crate::share`]).

mod examples;
mod page;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use eframe::egui::{self, Ui};
use wasm_bindgen::JsCast;

use crate::app::EditorApp;
use crate::files::{OPENED_FOLDER, Then};
use crate::recovery::{self, Autosave, Watch};
use crate::{downloads, share};

pub use examples::graphs as examples;

/// Where the page keeps recovery copies: entries of the browser's storage under this
/// path.
const RECOVERY_FOLDER: &str = "/texgraph/recovery";

/// Starts the editor on the page's canvas with the id `canvas_id`.
pub fn start(canvas_id: &str) {
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(canvas_id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    let Some(canvas) = canvas else {
        page::show_failure(&format!("error: the page has no canvas '{canvas_id}'"));
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| Ok(Box::new(WebApp::new(&cc.egui_ctx)))),
            )
            .await;
        match started {
            Ok(()) => page::loaded(),
            Err(e) => page::show_failure(&format!(
                "error: the editor cannot start in this browser ({e:?}); it needs WebGL 2"
            )),
        }
    });
}

/// "Copy link": puts the graph in the page's address and the address on the clipboard.
/// Returns what the status bar says.
pub fn copy_link(ctx: &egui::Context, graph: &texgraph_core::Graph) -> String {
    match share::fragment(graph).and_then(|fragment| page::set_fragment(&fragment)) {
        Ok(link) => {
            let length = link.len();
            ctx.copy_text(link);
            format!("link copied ({length} characters): opening it shows this graph")
        }
        Err(message) => format!("error: {message}"),
    }
}

/// The editor, with what the page adds around it.
struct WebApp {
    editor: EditorApp,
    /// Why the link the page was opened with could not be read, until dismissed.
    link_error: Option<String>,
    /// The page's size at the last frame, while the person has not touched the page yet:
    /// the browser sizes the canvas over the first frames, and the graph is framed again
    /// each time, as the desktop frames it in its window.
    settling: Option<egui::Rect>,
    /// What the page's live region says now (see [`page::announce`]).
    announced: String,
    /// A file dropped on the page, being read (the browser reads files asynchronously).
    dropped: Option<Receiver<Result<PathBuf, String>>>,
}

impl WebApp {
    fn new(ctx: &egui::Context) -> Self {
        examples::install();
        page::on_page_hide(recovery::page_closing);
        let opened = page::fragment_changed().unwrap_or_default();
        let (linked, link_error) = if share::carries_graph(&opened) {
            match share::graph(&opened) {
                Ok(graph) => (Some(graph), None),
                Err(message) => (None, Some(message)),
            }
        } else {
            (None, None)
        };
        let mut editor = match linked {
            Some(graph) => EditorApp::new(ctx, graph, None),
            None => EditorApp::open(ctx, &examples::first()).unwrap_or_else(|message| {
                let mut app = EditorApp::new(ctx, crate::document::new_graph(), None);
                app.status = format!("error: {message}");
                app
            }),
        };
        if let Some(message) = &link_error {
            editor.status = format!("error: {message}");
        }
        editor.files = crate::files::Files::for_browser();
        editor.autosave = Autosave::in_folder(Path::new(RECOVERY_FOLDER));
        editor.recovery_watch = Watch::in_folder(Path::new(RECOVERY_FOLDER));
        Self {
            editor,
            link_error,
            settling: Some(egui::Rect::NOTHING),
            announced: String::new(),
            dropped: None,
        }
    }

    /// A graph dropped on the page: read into memory, then opened as the desktop opens a
    /// dropped file (through the unsaved-changes question). Taken from the frame's input
    /// first, since the browser gives a name but no path.
    fn take_dropped_file(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input_mut(|i| std::mem::take(&mut i.raw.dropped_files));
        if let Some(file) = dropped.into_iter().next() {
            let (send, receive) = channel();
            let wake = ctx.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.path().file_name().map(|n| n.to_owned());
                let read = match (name, file.bytes_async().await) {
                    (Some(name), Ok(bytes)) => {
                        let path = Path::new(OPENED_FOLDER).join(name);
                        texgraph_core::memory_files::put(&path, bytes);
                        Ok(path)
                    }
                    (_, Err(e)) => Err(format!("cannot read the dropped file: {e}")),
                    (None, _) => Err("the dropped file has no name".to_owned()),
                };
                let _ = send.send(read);
                wake.request_repaint();
            });
            self.dropped = Some(receive);
        }
        if let Some(read) = self.dropped.as_ref().and_then(|r| r.try_recv().ok()) {
            self.dropped = None;
            match read {
                Ok(path) => self.editor.request(Then::Open(path)),
                Err(message) => self.editor.status = format!("error: {message}"),
            }
        }
    }

    /// Offers what the frame's saves and exports wrote as downloads (nothing else writes
    /// files in the page: recovery copies go to the browser's storage).
    fn hand_over_downloads(&mut self) {
        let files = texgraph_core::memory_files::take_written();
        let result = downloads::bundle(&files).and_then(|download| match download {
            Some(download) => page::download(&download.name, &download.bytes).map(|()| {
                self.editor.status = format!("{} is in the browser's downloads", download.name);
            }),
            None => Ok(()),
        });
        if let Err(message) = result {
            self.editor.status = format!("error: {message}");
        }
        for (path, _) in &files {
            // Exports are handed over; a graph saved stays, to be opened again.
            if path.extension().is_none_or(|e| e != "json") {
                texgraph_core::memory_files::remove(path);
            }
        }
    }

    /// A link opened in this tab while the page is open: the unsaved work is kept, then
    /// the page loads again with the link (and offers the work back).
    fn follow_new_link(&mut self) {
        if let Some(fragment) = page::fragment_changed()
            && share::carries_graph(&fragment)
        {
            self.editor.keep_unsaved_now();
            page::reload();
        }
    }

    /// Tells assistive technology, which cannot read the canvas, the status line and the
    /// questions the editor asks.
    fn announce(&mut self) {
        let mut text = self.editor.status.clone();
        if let Some(message) = &self.link_error {
            text = format!("This link cannot be opened. {message}");
        }
        if let Some(names) = self.editor.offering_recovery() {
            text = format!("Restore unsaved work? Unsaved changes to {names} were kept.");
        }
        if text != self.announced {
            page::announce(&text);
            self.announced = text;
        }
    }

    fn link_error_window(&mut self, ctx: &egui::Context) {
        let Some(message) = &self.link_error else {
            return;
        };
        let mut open = true;
        let mut dismissed = false;
        egui::Window::new("This link cannot be opened")
            .collapsible(false)
            .resizable(false)
            .open(&mut open)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(message).color(ui.visuals().error_fg_color));
                ui.label("The example graph is shown instead.");
                dismissed = ui.button("OK").clicked();
            });
        if !open || dismissed {
            self.link_error = None;
        }
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        if let Some(last) = self.settling {
            let (size, touched) = ui.input(|i| {
                (
                    i.content_rect(),
                    i.pointer.any_down() || !i.keys_down.is_empty(),
                )
            });
            self.settling = (!touched).then_some(size);
            if size != last && !touched {
                self.editor.frame_all();
            }
        }
        self.take_dropped_file(ui.ctx());
        self.editor.ui(ui, frame);
        self.link_error_window(ui.ctx());
        self.hand_over_downloads();
        self.follow_new_link();
        self.announce();
    }
}
