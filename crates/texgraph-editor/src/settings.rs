//! What the editor remembers between runs besides the recent files: the UI scale, and
//! each graph's 3D view (shape, environment, look). Kept in the user's config folder
//! (`$XDG_CONFIG_HOME/texgraph/settings.json`).

use std::path::{Path, PathBuf};

use serde_json::json;

/// The smallest and largest UI scale offered (egui's own zoom limits are wider).
pub const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.5..=3.0;

/// The user's config folder for texgraph: `$XDG_CONFIG_HOME/texgraph`, else
/// `~/.config/texgraph`.
pub fn config_dir() -> Option<PathBuf> {
    xdg_folder("XDG_CONFIG_HOME", ".config")
}

/// texgraph's folder in the XDG base directory `variable` names (when it is an absolute
/// path, as the specification requires), else in `~/<fallback>`.
pub fn xdg_folder(variable: &str, fallback: &str) -> Option<PathBuf> {
    std::env::var_os(variable)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(fallback)))
        .map(|base| base.join("texgraph"))
}

/// Settings kept between runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The whole UI's scale (egui's zoom factor): Ctrl+= / Ctrl+- / Ctrl+0.
    pub ui_scale: f32,
    /// Each graph file's 3D view, by the file's path.
    views: serde_json::Map<String, serde_json::Value>,
    /// Where they are kept (`None`: not kept, as in tests).
    store: Option<PathBuf>,
}

/// How many graphs' 3D views are kept: past it, each new one takes an old one's place, so
/// the file stays small.
const MOST_VIEWS: usize = 200;

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            views: serde_json::Map::new(),
            store: None,
        }
    }
}

impl Settings {
    /// The settings kept in the user's config folder.
    pub fn for_desktop() -> Self {
        config_dir().map_or_else(Self::default, |dir| {
            Self::stored_at(dir.join("settings.json"))
        })
    }

    /// The settings kept in `store` (defaults where it is missing or unreadable).
    pub fn stored_at(store: PathBuf) -> Self {
        let stored: Option<serde_json::Value> = std::fs::read_to_string(&store)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok());
        let ui_scale = stored
            .as_ref()
            .and_then(|v| v.get("ui_scale"))
            .and_then(serde_json::Value::as_f64)
            .map(|s| s as f32)
            .filter(|s| UI_SCALE_RANGE.contains(s))
            .unwrap_or(1.0);
        let views = stored
            .as_ref()
            .and_then(|v| v.get("views"))
            .and_then(serde_json::Value::as_object)
            .cloned()
            .unwrap_or_default();
        Self {
            ui_scale,
            views,
            store: Some(store),
        }
    }

    /// Sets the UI scale (kept within [`UI_SCALE_RANGE`]) and stores the settings.
    pub fn set_ui_scale(&mut self, scale: f32) {
        self.ui_scale = scale.clamp(*UI_SCALE_RANGE.start(), *UI_SCALE_RANGE.end());
        self.store();
    }

    /// The 3D view kept for the graph file `graph`, if any.
    pub fn view_of(&self, graph: &Path) -> Option<&serde_json::Value> {
        self.views.get(&graph.display().to_string())
    }

    /// Keeps `view` as the graph file `graph`'s 3D view (stored at once when it changed).
    pub fn keep_view(&mut self, graph: &Path, view: serde_json::Value) {
        let key = graph.display().to_string();
        if self.views.get(&key) == Some(&view) {
            return;
        }
        if !self.views.contains_key(&key)
            && self.views.len() >= MOST_VIEWS
            && let Some(old) = self.views.keys().next().cloned()
        {
            self.views.remove(&old);
        }
        self.views.insert(key, view);
        self.store();
    }

    fn store(&self) {
        if let Some(store) = &self.store {
            // Two decimals: the steps are tenths, and 1.2 should read as 1.2 in the file.
            let scale = (f64::from(self.ui_scale) * 100.0).round() / 100.0;
            keep(
                store,
                &json!({ "ui_scale": scale, "views": self.views }).to_string(),
            );
        }
    }
}

/// Writes a small file of the editor's own (settings, the recent list) atomically, making
/// its folder if needed. Losing one is harmless (the next run starts with the default), so
/// failures are ignored.
pub fn keep(store: &Path, text: &str) {
    if let Some(dir) = store.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = texgraph_core::staging::write_atomically(store, |file| {
        use std::io::Write;
        file.write_all(text.as_bytes())
            .map_err(|source| texgraph_core::Error::Io {
                path: store.to_owned(),
                source,
            })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_scale_is_kept_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("sub/settings.json");
        let mut settings = Settings::stored_at(store.clone());
        assert_eq!(settings.ui_scale, 1.0, "nothing stored yet");
        settings.set_ui_scale(1.3);
        assert_eq!(Settings::stored_at(store.clone()).ui_scale, 1.3);
        assert_eq!(
            std::fs::read_to_string(&store).unwrap(),
            r#"{"ui_scale":1.3,"views":{}}"#
        );
        settings.set_ui_scale(40.0);
        assert_eq!(Settings::stored_at(store.clone()).ui_scale, 3.0);
        std::fs::write(&store, "{ \"ui_scale\": \"big\" }").unwrap();
        assert_eq!(Settings::stored_at(store).ui_scale, 1.0);
    }

    #[test]
    fn each_graphs_view_is_kept_and_their_number_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("settings.json");
        let mut settings = Settings::stored_at(store.clone());
        let a = Path::new("/graphs/a.json");
        settings.keep_view(a, json!({ "shape": "cube" }));
        let read = Settings::stored_at(store.clone());
        assert_eq!(read.view_of(a), Some(&json!({ "shape": "cube" })));
        assert_eq!(read.view_of(Path::new("/graphs/b.json")), None);
        // The UI scale and the views are kept together.
        settings.set_ui_scale(1.5);
        let read = Settings::stored_at(store.clone());
        assert_eq!((read.ui_scale, read.view_of(a).is_some()), (1.5, true));
        for i in 0..MOST_VIEWS + 10 {
            settings.keep_view(&PathBuf::from(format!("/g/{i}.json")), json!({}));
        }
        assert_eq!(Settings::stored_at(store).views.len(), MOST_VIEWS);
    }
}
