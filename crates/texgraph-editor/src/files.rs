//! Choosing files: the desktop's file dialog (through the xdg portal, on a thread so the UI
//! keeps drawing) or, where no portal answers, an in-app path field with the folder's
//! listing; the recent-files list; and the "save changes first?" question.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;
use web_time::Instant;

use eframe::egui::{self, Id, Key, Ui};

/// How many recent files are remembered.
pub const RECENT_LIMIT: usize = 10;

/// A native dialog that comes back empty faster than this never showed (no portal
/// answered), so the in-app field opens instead.
const NO_PORTAL: Duration = Duration::from_millis(300);

/// What a chosen path is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// Open a graph.
    Open,
    /// Save the graph under a new name, then carry on with the action, if any.
    SaveAs(Option<Then>),
    /// The export's destination image.
    Export,
    /// The 3D view's environment (an equirectangular image).
    Environment,
    /// A file param of a node (an `image` node's picture).
    Param {
        /// Node id.
        node: String,
        /// Param name.
        param: String,
    },
}

/// Image files a file param may name.
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "exr", "hdr", "tif", "tiff"];

/// Equirectangular images the 3D view takes as its environment.
pub const ENVIRONMENT_EXTENSIONS: &[&str] = &["hdr", "exr"];

/// An action that would drop unsaved changes, waiting for the person's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Then {
    /// Start an empty graph.
    New,
    /// Open this file.
    Open(PathBuf),
    /// Ask for a graph to open.
    PickOpen,
    /// Close the window.
    Quit,
    /// Show work an editor that did not close cleanly left behind.
    Restore(Box<crate::recovery::Recovered>),
}

/// The answer to "save changes first?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Save, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Do nothing.
    Cancel,
}

/// A native dialog running on its own thread.
struct Native {
    purpose: Purpose,
    started: Instant,
    result: Receiver<Option<PathBuf>>,
}

/// The in-app chooser: a path field over the folder's listing.
struct Fallback {
    purpose: Purpose,
    path: String,
}

/// File-choosing state.
#[derive(Default)]
pub struct Files {
    /// Recently opened or saved graphs, newest first.
    pub recent: Vec<PathBuf>,
    /// The action waiting on "save changes first?".
    pub prompt: Option<Then>,
    /// Where the recent list is kept between runs (`None`: not kept).
    store: Option<PathBuf>,
    /// Whether to try the desktop's dialog before the in-app one.
    native: bool,
    running: Option<Native>,
    fallback: Option<Fallback>,
}

impl Files {
    /// Uses the desktop's file dialogs and keeps the recent list in the user's config
    /// folder (`$XDG_CONFIG_HOME/texgraph/recent.json`): what the application does; tests
    /// keep the defaults (in-app dialog, nothing stored).
    pub fn for_desktop() -> Self {
        let store = crate::settings::config_dir().map(|dir| dir.join("recent.json"));
        let recent = store
            .as_ref()
            .and_then(|s| std::fs::read_to_string(s).ok())
            .and_then(|text| serde_json::from_str::<Vec<PathBuf>>(&text).ok())
            .unwrap_or_default();
        Self {
            recent,
            store,
            native: true,
            ..Self::default()
        }
    }

    /// Uses the browser's file picker and downloads (see `ask`); the recent list is not
    /// kept: the page's files are gone when it closes.
    pub fn for_browser() -> Self {
        Self {
            native: true,
            ..Self::default()
        }
    }

    /// Whether a dialog (native or in-app) is open.
    pub fn choosing(&self) -> bool {
        self.running.is_some() || self.fallback.is_some()
    }

    /// Asks for a path for `purpose`, starting at `start` (a file or folder).
    pub fn choose(&mut self, ctx: &egui::Context, purpose: Purpose, start: Option<&Path>) {
        if self.choosing() {
            return;
        }
        if !self.native {
            self.open_fallback(purpose, start);
            return;
        }
        self.running = Some(Native {
            purpose: purpose.clone(),
            started: Instant::now(),
            result: ask(ctx, purpose, start),
        });
    }

    fn open_fallback(&mut self, purpose: Purpose, start: Option<&Path>) {
        let path = match start {
            Some(p) => p.display().to_string(),
            None => std::env::current_dir()
                .map(|d| format!("{}/", d.display()))
                .unwrap_or_default(),
        };
        self.fallback = Some(Fallback { purpose, path });
    }

    /// Draws the in-app chooser when it is open and collects finished choices.
    pub fn show(&mut self, ui: &mut Ui) -> Option<(Purpose, PathBuf)> {
        if let Some(native) = &self.running
            && let Ok(chosen) = native.result.try_recv()
        {
            let native = self.running.take().expect("checked");
            match chosen {
                Some(path) => return Some((native.purpose, path)),
                None if native.started.elapsed() < NO_PORTAL && !cfg!(target_arch = "wasm32") => {
                    self.native = false; // no portal here: use the in-app chooser from now on
                    self.open_fallback(native.purpose, None);
                }
                None => {} // cancelled
            }
        }
        let mut fallback = self.fallback.take()?;
        let title = match fallback.purpose {
            Purpose::Open => "Open graph",
            Purpose::SaveAs(_) => "Save graph as",
            Purpose::Export => "Export to",
            Purpose::Param { .. } => "Choose image",
            Purpose::Environment => "Choose environment",
        };
        let mut open = true;
        let mut chosen = None;
        let mut cancelled = false;
        egui::Window::new(title)
            .id(Id::new("file_chooser"))
            .open(&mut open)
            .collapsible(false)
            .default_width(420.0)
            .show(ui.ctx(), |ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut fallback.path)
                        .id(Id::new("file_chooser_path"))
                        .desired_width(400.0),
                );
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                if fallback.path.is_empty() || !field.has_focus() && !field.lost_focus() {
                    field.request_focus();
                }
                let extensions: &[&str] = match fallback.purpose {
                    Purpose::Export => &["png", "exr", "tif", "tiff"],
                    Purpose::Param { .. } => IMAGE_EXTENSIONS,
                    Purpose::Environment => ENVIRONMENT_EXTENSIONS,
                    _ => &["json"],
                };
                egui::ScrollArea::vertical()
                    .max_height(240.0)
                    .show(ui, |ui| {
                        for (name, is_dir) in listing(&fallback.path, extensions) {
                            let label = if is_dir { format!("{name}/") } else { name };
                            if ui.selectable_label(false, &label).clicked() {
                                let folder = folder_of(&fallback.path);
                                fallback.path = folder.join(&label).display().to_string();
                                if !is_dir {
                                    chosen = Some(PathBuf::from(&fallback.path));
                                }
                            }
                        }
                    });
                ui.horizontal(|ui| {
                    let verb = match fallback.purpose {
                        Purpose::Open | Purpose::Param { .. } | Purpose::Environment => "Open",
                        _ => "Save",
                    };
                    if ui.button(verb).clicked() || entered {
                        chosen = Some(PathBuf::from(&fallback.path));
                    }
                    cancelled = ui.button("Cancel").clicked();
                });
            });
        if !open || cancelled || ui.input(|i| i.key_pressed(Key::Escape)) {
            return None;
        }
        match chosen.filter(|p| !p.as_os_str().is_empty() && !p.is_dir()) {
            Some(path) => Some((fallback.purpose, path)),
            None => {
                self.fallback = Some(fallback);
                None
            }
        }
    }

    /// Puts `path` first in the recent list and stores the list.
    pub fn remember(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
        if let Some(store) = &self.store
            && let Ok(text) = serde_json::to_string_pretty(&self.recent)
        {
            crate::settings::keep(store, &text);
        }
    }

    /// Asks "save changes first?" while `self.prompt` waits; the answer, once given.
    pub fn show_prompt(&mut self, ui: &mut Ui, file: &str) -> Option<(Answer, Then)> {
        let then = self.prompt.clone()?;
        let mut answer = None;
        egui::Modal::new(Id::new("unsaved_changes")).show(ui.ctx(), |ui| {
            ui.set_width(360.0);
            ui.heading("Unsaved changes");
            let action = match &then {
                Then::New => "starting a new graph".to_owned(),
                Then::Open(path) => format!("opening {}", path.display()),
                Then::PickOpen => "opening another graph".to_owned(),
                Then::Quit => "closing".to_owned(),
                Then::Restore(found) => {
                    format!("restoring the unsaved changes to {}", found.name())
                }
            };
            ui.label(format!("Save the changes to {file} before {action}?"));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    answer = Some(Answer::Save);
                }
                if ui.button("Don't save").clicked() {
                    answer = Some(Answer::Discard);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
                    answer = Some(Answer::Cancel);
                }
            });
        });
        let answer = answer?;
        self.prompt = None;
        Some((answer, then))
    }
}

/// The folder a typed path points into (the path itself when it ends in a separator).
fn folder_of(typed: &str) -> PathBuf {
    let path = Path::new(typed);
    if typed.is_empty() {
        PathBuf::from(".")
    } else if typed.ends_with('/') || path.is_dir() {
        path.to_owned()
    } else {
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_owned)
    }
}

/// Sub-folders and files with one of `extensions` in the folder of `typed`, folders
/// first, each sorted by name.
fn listing(typed: &str, extensions: &[&str]) -> Vec<(String, bool)> {
    let Ok(entries) = std::fs::read_dir(folder_of(typed)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, bool)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().ok()?.is_dir();
            let wanted = is_dir && !name.starts_with('.')
                || Path::new(&name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.contains(&e.to_ascii_lowercase().as_str()));
            wanted.then_some((name, is_dir))
        })
        .collect();
    found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    found
}

/// Asks the desktop's file dialog for a path for `purpose`, starting at `start`, on a
/// thread of its own: the path comes through the receiver (`None`: cancelled).
#[cfg(not(target_arch = "wasm32"))]
fn ask(ctx: &egui::Context, purpose: Purpose, start: Option<&Path>) -> Receiver<Option<PathBuf>> {
    let mut dialog = rfd::FileDialog::new();
    dialog = match purpose {
        Purpose::Open | Purpose::SaveAs(_) => dialog.add_filter("texgraph graph", &["json"]),
        Purpose::Export => dialog
            .add_filter("PNG image", &["png"])
            .add_filter("OpenEXR image", &["exr"]),
        Purpose::Param { .. } => dialog.add_filter("image", IMAGE_EXTENSIONS),
        Purpose::Environment => {
            dialog.add_filter("equirectangular HDR or EXR image", ENVIRONMENT_EXTENSIONS)
        }
    };
    if let Some(start) = start {
        let folder = if start.is_dir() {
            Some(start)
        } else {
            start.parent()
        };
        if let Some(folder) = folder.filter(|f| !f.as_os_str().is_empty()) {
            dialog = dialog.set_directory(folder);
        }
        if !start.is_dir()
            && let Some(name) = start.file_name()
        {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
    }
    let (send, result) = channel();
    let wake = ctx.clone();
    let saving = !matches!(
        purpose,
        Purpose::Open | Purpose::Param { .. } | Purpose::Environment
    );
    std::thread::spawn(move || {
        let chosen = if saving {
            dialog.save_file()
        } else {
            dialog.pick_file()
        };
        let _ = send.send(chosen);
        wake.request_repaint();
    });
    result
}

/// The folder of the files the web page was handed (opened, picked, dropped).
pub const OPENED_FOLDER: &str = "/opened";

/// The folder of the graphs the web page saves under a new name (a download each).
pub const SAVED_FOLDER: &str = "/saved";

/// In the web page: a file to open comes from the browser's file picker and is put in
/// [`OPENED_FOLDER`]; a file to save or export keeps the name `start` has (in
/// [`SAVED_FOLDER`] when saved under a new name), and what is written there goes to the
/// browser's downloads.
#[cfg(target_arch = "wasm32")]
fn ask(ctx: &egui::Context, purpose: Purpose, start: Option<&Path>) -> Receiver<Option<PathBuf>> {
    let (send, result) = channel();
    let (label, extensions): (&str, &[&str]) = match purpose {
        Purpose::Open => ("texgraph graph", &["json"]),
        Purpose::Param { .. } => ("image", IMAGE_EXTENSIONS),
        Purpose::Environment => ("equirectangular HDR or EXR image", ENVIRONMENT_EXTENSIONS),
        Purpose::SaveAs(_) | Purpose::Export => {
            let name = start
                .and_then(Path::file_name)
                .map_or_else(|| "graph.json".into(), |n| n.to_owned());
            let folder = match (&purpose, start.and_then(Path::parent)) {
                (Purpose::Export, Some(folder)) => folder.to_owned(),
                _ => PathBuf::from(SAVED_FOLDER),
            };
            let _ = send.send(Some(folder.join(name)));
            return result;
        }
    };
    let dialog = rfd::AsyncFileDialog::new().add_filter(label, extensions);
    let wake = ctx.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let chosen = match dialog.pick_file().await {
            Some(file) => {
                let path = Path::new(OPENED_FOLDER).join(file.file_name());
                texgraph_core::memory_files::put(&path, file.read().await);
                Some(path)
            }
            None => None,
        };
        let _ = send.send(chosen);
        wake.request_repaint();
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_shows_folders_then_matching_files() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.json", "a.json", "notes.txt", "img.PNG"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let typed = format!("{}/", dir.path().display());
        let names: Vec<_> = listing(&typed, &["json"])
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["sub", "a.json", "b.json"]);
        let images: Vec<_> = listing(&format!("{typed}x.png"), &["png"])
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(images, ["sub", "img.PNG"]);
    }

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut files = Files::default();
        for i in 0..12 {
            files.remember(Path::new(&format!("/tmp/g{i}.json")));
        }
        files.remember(Path::new("/tmp/g5.json"));
        assert_eq!(files.recent.len(), RECENT_LIMIT);
        assert_eq!(files.recent[0], Path::new("/tmp/g5.json"));
        assert_eq!(files.recent[1], Path::new("/tmp/g11.json"));
        assert_eq!(
            files
                .recent
                .iter()
                .filter(|p| p.ends_with("g5.json"))
                .count(),
            1
        );
    }
}
