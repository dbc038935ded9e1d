//! Thumbnails of the built-in library's graphs, for the palette and the Library panel.
//! They are rendered once per run, in the background: the first time one is asked for,
//! a thread of their own renders every entry in the panel's order, one at a time on one
//! core, so the UI and the preview never wait for them; each shows as soon as it is done.
//! The web page, with one thread, renders one between frames instead.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

use eframe::egui::{self, ColorImage, TextureHandle, TextureOptions};
use texgraph_core::{Image, RenderOptions};

use super::preview::to_color_image;

/// Side of a thumbnail, in pixels.
pub const SIDE: u32 = 64;

/// Thumbnails rendered so far: images not yet made textures, and textures.
#[derive(Default)]
struct Store {
    ready: Vec<(String, ColorImage)>,
    textures: HashMap<String, TextureHandle>,
    /// In the web page: the entries left to render (`None`: not listed yet), and the
    /// frame that rendered the last.
    #[cfg(target_arch = "wasm32")]
    left: Option<std::collections::VecDeque<(String, String)>>,
    #[cfg(target_arch = "wasm32")]
    rendered_in: Option<u64>,
}

fn store() -> MutexGuard<'static, Store> {
    static STORE: LazyLock<Mutex<Store>> = LazyLock::new(Mutex::default);
    STORE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The thumbnail of library entry `file` (`library:NAME`), once rendered. The first call
/// starts rendering them all.
pub fn thumbnail(ctx: &egui::Context, file: &str) -> Option<TextureHandle> {
    start(ctx);
    let mut store = store();
    let ready = std::mem::take(&mut store.ready);
    for (name, image) in ready {
        let texture = ctx.load_texture(format!("library-{name}"), image, TextureOptions::LINEAR);
        store.textures.insert(name, texture);
    }
    store.textures.get(file).cloned()
}

/// Renders the next thumbnail, once a frame, on the web page's one thread.
#[cfg(target_arch = "wasm32")]
fn start(ctx: &egui::Context) {
    let frame = ctx.cumulative_frame_nr();
    let next = {
        let mut store = store();
        if store.rendered_in == Some(frame) {
            return;
        }
        let left = store.left.get_or_insert_with(|| {
            texgraph_core::catalog::library_entries()
                .into_iter()
                .map(|entry| (entry.name.to_owned(), entry.file))
                .collect()
        });
        let Some(next) = left.pop_front() else {
            return;
        };
        store.rendered_in = Some(frame);
        next
    };
    let (name, file) = next;
    if let Some(image) = render(&name) {
        store().ready.push((file, to_color_image(&image)));
    }
    ctx.request_repaint();
}

/// Starts the thread that renders every thumbnail (once per run).
#[cfg(not(target_arch = "wasm32"))]
fn start(ctx: &egui::Context) {
    use std::sync::Once;
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("library thumbnails".to_owned())
            .spawn(move || {
                for entry in texgraph_core::catalog::library_entries() {
                    // A graph that does not render shows no thumbnail: adding it says why.
                    if let Some(image) = render(entry.name) {
                        store().ready.push((entry.file, to_color_image(&image)));
                        ctx.request_repaint();
                    }
                }
            });
        // Without a thread the lists show names only.
        drop(spawned);
    });
}

/// Each thumbnail pixel averages this many rendered pixels across and down, so that
/// fine lines (an outline, scratches) show as gray rather than vanish between samples.
const SUPERSAMPLE: u32 = 4;

/// Library graph `name` rendered on one thread and shrunk to [`SIDE`]² (a smart mask or
/// a filter shows its own preview input).
pub fn render(name: &str) -> Option<Image> {
    let graph = texgraph_core::library::graph(name)?;
    let program = texgraph_core::compile(&graph, None).ok()?;
    let options = RenderOptions {
        threads: Some(1),
        ..RenderOptions::default()
    };
    let big = SIDE * SUPERSAMPLE;
    let image = texgraph_core::render(&program, big, big, options, &|_| {}).ok()?;
    Some(shrink(&image))
}

/// `image` (SUPERSAMPLE × SIDE square) averaged down to SIDE².
fn shrink(image: &Image) -> Image {
    let (n, c) = (SUPERSAMPLE as usize, image.channels);
    let (side, big) = (SIDE as usize, image.width as usize);
    let mut data = vec![0.0f32; side * side * c];
    for (i, out) in data.chunks_exact_mut(c).enumerate() {
        let (x, y) = (i % side * n, i / side * n);
        for dy in 0..n {
            for dx in 0..n {
                let at = ((y + dy) * big + x + dx) * c;
                for (o, v) in out.iter_mut().zip(&image.data[at..at + c]) {
                    *o += v / (n * n) as f32;
                }
            }
        }
    }
    Image {
        width: SIDE,
        height: SIDE,
        channels: c,
        data,
    }
}

/// Shows `texture` at `size` points, or keeps its place empty until it is rendered.
pub fn show(ui: &mut egui::Ui, texture: Option<TextureHandle>, size: f32) {
    let size = egui::vec2(size, size);
    match texture {
        Some(texture) => {
            ui.add(egui::Image::new(&texture).fit_to_exact_size(size));
        }
        None => {
            ui.allocate_space(size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_graph_has_a_thumbnail_that_shows_something() {
        for entry in texgraph_core::catalog::library_entries() {
            let image = render(entry.name)
                .unwrap_or_else(|| panic!("{} does not render a thumbnail", entry.file));
            assert_eq!((image.width, image.height), (SIDE, SIDE), "{}", entry.file);
            let pixels = to_color_image(&image);
            let first = pixels.pixels[0];
            assert!(
                pixels.pixels.iter().any(|p| *p != first),
                "{}'s thumbnail is one flat color",
                entry.file
            );
        }
    }
}
