//! The library panel: graphs that can be added as subgraph nodes. It lists the built-in
//! library (by category), then the graph files in the project folder (the shown graph's
//! folder) and its `library/` folder, and in the user's library
//! (`$XDG_DATA_HOME/texgraph/library`, `~/.local/share/texgraph/library` by default). The
//! folders are looked at again every few seconds, so a graph saved meanwhile shows up.

use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::Instant;

use eframe::egui::{self, Ui};

use super::library_thumbnails;

/// How often the folders are listed again.
const RESCAN: Duration = Duration::from_secs(3);
/// Most files listed per folder.
const MOST: usize = 200;
/// Side of a built-in graph's thumbnail, in points.
const THUMBNAIL: f32 = 32.0;

/// One graph file offered.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What the list shows: the path as the including graph would write it.
    pub file: String,
    /// Which folder it is in: "project" or "library".
    pub place: &'static str,
    /// How many input ports (`graph_input` nodes) and exposed params the graph offers
    /// as a node: graphs made to be used as nodes have some.
    pub interface: (usize, usize),
}

impl Entry {
    /// "2 inputs, 4 params", or nothing for a graph that offers neither.
    pub fn interface_text(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        match self.interface {
            (0, 0) => String::new(),
            (0, params) => plural(params, "param"),
            (inputs, 0) => plural(inputs, "input"),
            (inputs, params) => format!("{}, {}", plural(inputs, "input"), plural(params, "param")),
        }
    }
}

/// The input ports and exposed params of the graph file at `path` (none when it does
/// not load: adding it shows why).
fn interface_of(path: &Path) -> (usize, usize) {
    texgraph_core::Graph::load(path).map_or((0, 0), |graph| {
        let inputs = graph
            .nodes
            .iter()
            .filter(|n| n.kind == texgraph_core::graph::GRAPH_INPUT_KIND)
            .count();
        (inputs, graph.exposed.len())
    })
}

/// What a library row carries while it is dragged: the file, as the including graph
/// writes it. The canvas adds it as a subgraph node where it is dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct DraggedGraph(pub String);

/// The panel's state: the last listing and when it was made.
#[derive(Default)]
pub struct Library {
    entries: Vec<Entry>,
    listed: Option<(Instant, PathBuf, Option<PathBuf>)>,
}

/// The user's library folder.
pub fn user_folder() -> Option<PathBuf> {
    crate::settings::xdg_folder("XDG_DATA_HOME", ".local/share").map(|d| d.join("library"))
}

/// The graph files of `project` (the shown graph's folder, `this` excluded) and its
/// `library/` folder, then of `user`: written relative to `project` where they lie inside
/// it, else absolute. The graphs made to be used as nodes (with input ports or exposed
/// params) come first.
pub fn list(project: &Path, this: Option<&Path>, user: Option<&Path>) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut add = |folder: &Path, prefix: &str, place: &'static str| {
        let Ok(read) = std::fs::read_dir(folder) else {
            return;
        };
        let mut files: Vec<PathBuf> = read
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
            .filter(|p| this.is_none_or(|t| t.file_name() != p.file_name() || !prefix.is_empty()))
            .collect();
        files.sort();
        for path in files.into_iter().take(MOST) {
            let interface = interface_of(&path);
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let file = match (prefix, name) {
                ("", Some(name)) => name,
                (prefix, Some(name)) if place == "project" => format!("{prefix}/{name}"),
                _ => path.display().to_string(),
            };
            entries.push(Entry {
                file,
                place,
                interface,
            });
        }
    };
    add(project, "", "project");
    add(&project.join("library"), "library", "project");
    if let Some(user) = user {
        add(user, "user", "library");
    }
    // The graphs made to be used as nodes first, wherever they are (a stable sort: each
    // group keeps its folders' order).
    entries.sort_by_key(|e| e.interface == (0, 0));
    entries
}

impl Library {
    /// Draws the list; returns the file to add as a subgraph node when its "+" is clicked.
    /// A row's name can also be dragged onto the canvas (a [`DraggedGraph`] payload).
    pub fn show(&mut self, ui: &mut Ui, project: &Path, this: Option<&Path>) -> Option<String> {
        let user = user_folder();
        let stale = match &self.listed {
            Some((when, folder, listed_user)) => {
                when.elapsed() > RESCAN || folder != project || *listed_user != user
            }
            None => true,
        };
        if stale {
            self.entries = list(project, this, user.as_deref());
            self.listed = Some((Instant::now(), project.to_owned(), user.clone()));
        }
        let mut chosen = None;
        egui::CollapsingHeader::new("Library")
            .id_salt("library_panel")
            .default_open(true)
            .show(ui, |ui| {
                if let Some(file) = built_in(ui) {
                    chosen = Some(file);
                }
                if self.entries.is_empty() {
                    let where_ = user.map_or_else(String::new, |u| format!(" or {}", u.display()));
                    ui.weak(format!(
                        "No graph files beside this one{where_}: save graphs there to use them as nodes."
                    ));
                }
                for entry in &self.entries {
                    ui.horizontal(|ui| {
                        let hover = "drag onto the canvas to add this graph as a node";
                        if graph_row(ui, &entry.file, &entry.file, hover) {
                            chosen = Some(entry.file.clone());
                        }
                        let interface = entry.interface_text();
                        if interface.is_empty() {
                            ui.weak(entry.place);
                        } else {
                            ui.weak(format!("{} · {interface}", entry.place));
                        }
                    });
                }
            });
        chosen
    }
}

/// A row offering graph `file`, shown as `label`: its "+" button (whether it was clicked)
/// and its name, which drags onto the canvas; `hover` is the name's tooltip.
fn graph_row(ui: &mut Ui, file: &str, label: &str, hover: &str) -> bool {
    let added = ui
        .button("+")
        .on_hover_text("add this graph as a node")
        .clicked();
    let id = egui::Id::new(("library_entry", file));
    ui.dnd_drag_source(id, DraggedGraph(file.to_owned()), |ui| {
        ui.label(texgraph_core::text::printable(label))
    })
    .response
    .on_hover_text(texgraph_core::text::printable(hover));
    added
}

/// The built-in library, one collapsed group per category; the `library:NAME` of the
/// graph whose "+" is clicked. Rows drag onto the canvas like the files'.
fn built_in(ui: &mut Ui) -> Option<String> {
    static ENTRIES: std::sync::OnceLock<Vec<texgraph_core::catalog::LibraryEntry>> =
        std::sync::OnceLock::new();
    let entries = ENTRIES.get_or_init(texgraph_core::catalog::library_entries);
    let mut chosen = None;
    let mut start = 0;
    while start < entries.len() {
        let category = &entries[start].category;
        let end = entries[start..]
            .iter()
            .position(|e| &e.category != category)
            .map_or(entries.len(), |n| start + n);
        egui::CollapsingHeader::new(format!("{category} ({})", end - start))
            .id_salt(("library_category", category))
            .show(ui, |ui| {
                for entry in &entries[start..end] {
                    ui.horizontal(|ui| {
                        let thumbnail = library_thumbnails::thumbnail(ui.ctx(), &entry.file);
                        library_thumbnails::show(ui, thumbnail, THUMBNAIL);
                        if graph_row(ui, &entry.file, &entry.label, &entry.doc) {
                            chosen = Some(entry.file.clone());
                        }
                    });
                }
            });
        start = end;
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_the_project_and_library_graphs() {
        let graphs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs");
        let this = graphs.join("marble.json");
        let entries = list(&graphs, Some(&this), None);
        let files: Vec<&str> = entries.iter().map(|e| e.file.as_str()).collect();
        assert!(files.contains(&"fire.json"), "{files:?}");
        assert!(files.contains(&"library/marble_veins.json"), "{files:?}");
        assert!(
            !files.contains(&"marble.json"),
            "the shown graph itself is left out"
        );
        // marble_slab.json's veins file exposes five params; plain graphs offer none and
        // come after the graphs made to be nodes.
        let veins = entries
            .iter()
            .find(|e| e.file == "library/marble_veins.json")
            .unwrap();
        assert_eq!(veins.interface, (0, 5));
        assert_eq!(veins.interface_text(), "5 params");
        let first_plain = entries.iter().position(|e| e.interface == (0, 0)).unwrap();
        assert!(
            entries[first_plain..].iter().all(|e| e.interface == (0, 0)),
            "{:?}",
            entries
                .iter()
                .map(|e| (&e.file, e.interface))
                .collect::<Vec<_>>()
        );
        assert!(
            first_plain > 0,
            "marble_veins.json comes before the plain graphs"
        );
    }
}
