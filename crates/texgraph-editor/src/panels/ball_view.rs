//! The preview's 3D tab: the graph's material on a lit shape (the core's material ball),
//! orbited by dragging, zoomed with the wheel, its key light and environment turned with
//! Shift+drag. The maps come from the preview worker (every material output rendered by
//! one program, superseded jobs dropped), the frames from [`BallRenderer`].
//!
//! While a drag goes on (an orbit, or a param's slider feeding new maps at a quarter of
//! their size), frames are drafts:
//! half the view's size (less on a machine too busy to draw them in 12 ms, down to 128
//! pixels) and one sample a pixel, drawn scaled up. When the pointer rests
//! the full frame follows: the view's size with 2×2 samples a pixel, the image
//! `texgraph render --ball` writes for the same settings.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Duration;
use web_time::Instant;

use eframe::egui::{self, Color32, Sense, TextureHandle, TextureOptions, Ui, vec2};
use texgraph_core::Image;
use texgraph_core::ball::{
    Background, BallSettings, Environment, MAX_RELIEF, MIN_RELIEF, MaterialMaps, Shape,
};

use crate::jobs::ball::{BallRenderer, FrameJob};
use crate::panels::preview::to_color_image;

/// Sizes of the view offered (the full frame's side, in pixels).
pub const VIEW_SIZES: [u32; 3] = [256, 512, 1024];
/// Sizes of the maps the shape reads.
pub const MAP_SIZES: [u32; 4] = [256, 512, 1024, 2048];
/// The maps' side when the view opens.
const DEFAULT_MAP_SIZE: u32 = 512;
/// Degrees the camera or the light turns per point dragged.
const DEGREES_PER_POINT: f32 = 0.5;
/// The time a draft may take, so that with the UI's own frame an orbit shows well over
/// 30 frames a second.
const DRAFT_BUDGET: Duration = Duration::from_millis(8);
/// The smallest draft's side, in pixels.
const SMALLEST_DRAFT: u32 = 128;
/// Side of the maps' thumbnails under the view, in pixels.
const MAP_THUMBNAIL: usize = 96;

/// What the 3D tab asks of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BallAction {
    /// Render the maps again (their size changed).
    RenderMaps,
    /// Ask for an environment file (an equirectangular `.hdr` or `.exr`).
    ChooseEnvironment,
    /// Copy the `texgraph render` command of this view to the clipboard.
    CopyCommand,
}

/// A shape's name in the menu.
fn shape_name(shape: Shape) -> &'static str {
    match shape {
        Shape::Sphere => "Sphere",
        Shape::Cube => "Rounded cube",
        Shape::Cylinder => "Cylinder",
        Shape::Plane => "Plane",
        Shape::Terrain => "Terrain",
    }
}

/// The 3D tab's settings, maps and frames.
pub struct BallView {
    /// How the full frame is rendered (`size` is the view's; `samples` is set per frame).
    pub settings: BallSettings,
    /// Side of the maps, in pixels.
    pub map_size: u32,
    /// The tallest the view may be drawn (the preview part's room).
    pub max_side: f32,
    /// The maps shown, and the generation of the graph they were rendered from.
    maps: Option<(Arc<MaterialMaps>, u64)>,
    /// The rendered maps' thumbnails with their usages' names.
    map_textures: Vec<(&'static str, TextureHandle)>,
    /// The frame shown.
    texture: Option<TextureHandle>,
    /// The last full frame (not a draft): what `texgraph render --ball` writes.
    image: Option<Arc<Image>>,
    /// Why the maps or the frame failed.
    error: Option<String>,
    renderer: BallRenderer,
    /// The id of the frame last asked for, until it comes.
    asked: Option<u64>,
    /// The frame shown is a draft.
    shown_draft: bool,
    /// The id of the frame shown.
    shown_id: u64,
    /// Drafts' side relative to half the view's (1 when the machine keeps up).
    draft_scale: f32,
    next_id: u64,
    /// The last frame's render time, whether it was a draft, and from the edit to it.
    timing: Option<(Duration, bool, Option<Duration>)>,
    /// When the edit behind the maps waiting for a frame was made.
    edit_at: Option<Instant>,
    /// Print frame times and latencies to stderr (`TEXGRAPH_TRACE`).
    trace: bool,
    /// Where the frame was drawn last (screen).
    view_rect: egui::Rect,
    /// The environment files loaded, offered in the menu.
    environments: Vec<Environment>,
    /// An environment file being read off the UI thread.
    loading: Option<(PathBuf, Receiver<Result<Environment, String>>)>,
    /// Why the last environment file could not be read.
    environment_error: Option<String>,
    /// Repaints the UI (when a frame or an environment file is ready).
    wake: Arc<dyn Fn(Duration) + Send + Sync>,
}

impl BallView {
    /// A view showing nothing yet; `wake` asks the UI to repaint within the time given,
    /// when a frame or an environment file is ready.
    pub fn new(wake: impl Fn(Duration) + Send + Sync + 'static, trace: bool) -> Self {
        let wake: Arc<dyn Fn(Duration) + Send + Sync> = Arc::new(wake);
        let renderer_wake = wake.clone();
        Self {
            settings: BallSettings {
                size: 512,
                ..BallSettings::default()
            },
            map_size: DEFAULT_MAP_SIZE,
            max_side: f32::INFINITY,
            maps: None,
            map_textures: Vec::new(),
            texture: None,
            image: None,
            error: None,
            renderer: BallRenderer::new(move |after| renderer_wake(after)),
            asked: None,
            shown_draft: false,
            shown_id: 0,
            draft_scale: 1.0,
            next_id: 0,
            timing: None,
            edit_at: None,
            trace,
            view_rect: egui::Rect::NOTHING,
            environments: Vec::new(),
            loading: None,
            environment_error: None,
            wake,
        }
    }

    /// The settings of the full frame: what `texgraph render --ball` renders with.
    pub fn full_settings(&self) -> BallSettings {
        BallSettings {
            samples: 2,
            ..self.settings.clone()
        }
    }

    /// The last full frame, RGBA sRGB-encoded (none while only drafts were drawn).
    pub fn image(&self) -> Option<&Image> {
        self.image.as_deref()
    }

    /// The side of the maps to ask the worker for: a quarter of the maps' size (at least
    /// 128 pixels) while a drag goes on (a param's slider), so the shape follows it at
    /// least as quickly as the 2D preview would.
    pub fn maps_side(&self, dragging: bool) -> u32 {
        if dragging {
            (self.map_size / 4).max(128).min(self.map_size)
        } else {
            self.map_size
        }
    }

    /// Whether the maps shown are smaller than the maps' size (rendered during a drag).
    pub fn has_draft_maps(&self) -> bool {
        self.maps.as_ref().is_some_and(|(maps, _)| {
            let side = [
                &maps.base_color,
                &maps.normal,
                &maps.roughness,
                &maps.metallic,
                &maps.occlusion,
                &maps.height,
                &maps.opacity,
                &maps.emissive,
            ]
            .iter()
            .map(|m| m.width.max(m.height))
            .max()
            .unwrap_or(1);
            side > 1 && side < self.map_size
        })
    }

    /// The generation of the graph the maps shown were rendered from.
    pub fn maps_generation(&self) -> Option<u64> {
        self.maps.as_ref().map(|(_, g)| *g)
    }

    /// Whether the full frame of the newest maps is showing (nothing is on its way).
    pub fn is_current(&self) -> bool {
        self.asked.is_none() && !self.shown_draft && self.image.is_some()
    }

    /// Reads the environment file at `path` off the UI thread; the view turns to it when
    /// it is read, or says why it could not be.
    pub fn load_environment(&mut self, path: PathBuf) {
        let (done, result) = std::sync::mpsc::channel();
        if cfg!(target_arch = "wasm32") {
            // The web page has one thread, and the file is in memory already.
            let _ = done.send(Environment::load(&path).map_err(|e| e.to_string()));
            self.loading = Some((path, result));
            return;
        }
        let reading = path.clone();
        let wake = self.wake.clone();
        let spawned = std::thread::Builder::new()
            .name("texgraph-environment".into())
            .spawn(move || {
                let loaded = Environment::load(&reading).map_err(|e| e.to_string());
                let _ = done.send(loaded);
                wake(Duration::ZERO);
            });
        if spawned.is_err() {
            self.environment_error = Some(format!(
                "{}: could not start reading it (the system refused a thread)",
                path.display()
            ));
            return;
        }
        self.loading = Some((path, result));
    }

    /// The view's settings a graph keeps between runs (its shape, environment and look;
    /// not the orbit), as JSON.
    pub fn kept(&self) -> serde_json::Value {
        Self::settings_kept(&self.settings, self.map_size)
    }

    /// What a graph never shown in 3D starts with: the defaults, as [`BallView::kept`]
    /// gives them.
    pub fn defaults_kept() -> serde_json::Value {
        Self::settings_kept(&BallSettings::default(), DEFAULT_MAP_SIZE)
    }

    fn settings_kept(s: &BallSettings, map_size: u32) -> serde_json::Value {
        let environment = match &s.environment {
            Environment::Sky => "sky".to_owned(),
            Environment::Image(image) => image.path().display().to_string(),
            Environment::Studio | Environment::Uniform(_) => "studio".to_owned(),
        };
        serde_json::json!({
            "shape": s.shape.id(),
            "environment": environment,
            "background": s.background.id(),
            "tiling": s.tiling,
            "depth": s.depth,
            "relief": s.relief,
            "light": s.light_intensity,
            "exposure": s.exposure,
            "size": s.size,
            "maps": map_size,
        })
    }

    /// Takes back what [`BallView::kept`] gave (each value checked; one that does not
    /// read keeps the current one). Returns the environment file to read, if the view
    /// had one.
    pub fn restore(&mut self, kept: &serde_json::Value) -> Option<PathBuf> {
        let text = |key: &str| kept.get(key).and_then(serde_json::Value::as_str);
        let number = |key: &str, range: std::ops::RangeInclusive<f32>| {
            kept.get(key)
                .and_then(serde_json::Value::as_f64)
                .map(|v| v as f32)
                .filter(|v| range.contains(v))
        };
        let s = &mut self.settings;
        if let Some(shape) = text("shape").and_then(Shape::parse) {
            s.shape = shape;
        }
        if let Some(background) = text("background").and_then(Background::parse) {
            s.background = background;
        }
        s.tiling = number("tiling", 0.25..=16.0).unwrap_or(s.tiling);
        s.depth = number("depth", 0.0..=0.2).unwrap_or(s.depth);
        s.relief = number("relief", RELIEF).unwrap_or(s.relief);
        s.light_intensity = number("light", 0.0..=10.0).unwrap_or(s.light_intensity);
        s.exposure = number("exposure", -4.0..=4.0).unwrap_or(s.exposure);
        let size = |key: &str, sizes: &[u32]| {
            kept.get(key)
                .and_then(serde_json::Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| sizes.contains(v))
        };
        s.size = size("size", &VIEW_SIZES).unwrap_or(s.size);
        self.map_size = size("maps", &MAP_SIZES).unwrap_or(self.map_size);
        match text("environment") {
            Some("studio") => self.settings.environment = Environment::Studio,
            Some("sky") => self.settings.environment = Environment::Sky,
            Some(path) => return Some(PathBuf::from(path)),
            None => {}
        }
        None
    }

    /// Whether an environment file is being read.
    pub fn is_loading_environment(&self) -> bool {
        self.loading.is_some()
    }

    /// Takes an environment file that finished reading.
    fn receive_environment(&mut self) {
        let Some((path, result)) = &self.loading else {
            return;
        };
        let loaded = match result.try_recv() {
            Ok(loaded) => loaded,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            // The reading thread ended without an answer: a bug, reported, not waited on.
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Err(format!(
                "{}: reading it failed with an internal error",
                path.display()
            )),
        };
        self.loading = None;
        match loaded {
            Ok(environment) => {
                self.environments.retain(|e| e != &environment);
                self.environments.push(environment.clone());
                self.settings.environment = environment;
                self.environment_error = None;
            }
            // The core's message starts with the file's path.
            Err(message) => self.environment_error = Some(message),
        }
    }

    /// Where the frame was drawn last (screen).
    pub fn view_rect(&self) -> egui::Rect {
        self.view_rect
    }

    /// The `texgraph render` command that writes this view's full frame for the graph in
    /// `graph_file` (the flags whose values differ from the CLI's defaults, and the size
    /// and maps' size always).
    pub fn command(&self, graph_file: &std::path::Path) -> String {
        let s = &self.settings;
        let d = BallSettings::default();
        let mut words = vec![
            "texgraph".to_owned(),
            "render".to_owned(),
            shell_word(&graph_file.display().to_string()),
            "--ball".to_owned(),
            s.shape.id().to_owned(),
            "--size".to_owned(),
            s.size.to_string(),
            "--map-size".to_owned(),
            self.map_size.to_string(),
        ];
        let mut flag = |name: &str, value: String| {
            words.push(format!("--{name}"));
            words.push(value);
        };
        match &s.environment {
            Environment::Studio | Environment::Uniform(_) => {}
            Environment::Sky => flag("env", "sky".into()),
            Environment::Image(image) => {
                flag("env", shell_word(&image.path().display().to_string()))
            }
        }
        if s.background != d.background {
            flag("background", s.background.id().into());
        }
        // f32's Display is the shortest text that reads back as the same value.
        let numbers = [
            ("tiling", s.tiling, d.tiling),
            ("light-angle", s.light_azimuth, d.light_azimuth),
            ("light-elevation", s.light_elevation, d.light_elevation),
            ("light-intensity", s.light_intensity, d.light_intensity),
            ("env-turn", s.environment_turn, d.environment_turn),
            ("zoom", s.zoom, d.zoom),
            ("exposure", s.exposure, d.exposure),
            ("parallax", s.depth, d.depth),
            ("relief", s.relief, d.relief),
        ];
        for (name, value, default) in numbers {
            if value != default {
                flag(name, value.to_string());
            }
        }
        if s.orbit != d.orbit {
            flag("orbit", format!("{},{}", s.orbit[0], s.orbit[1]));
        }
        words.push("-o".into());
        words.push("ball.png".into());
        words.join(" ")
    }

    /// The usages whose maps the graph renders, as shown under the view.
    pub fn map_names(&self) -> Vec<&'static str> {
        self.map_textures.iter().map(|(name, _)| *name).collect()
    }

    /// Takes maps the worker rendered from the graph of `generation`, edited at `edit_at`;
    /// a draft follows at once if a drag goes on.
    pub fn take_maps(
        &mut self,
        ctx: &egui::Context,
        maps: MaterialMaps,
        generation: u64,
        edit_at: Option<Instant>,
    ) {
        self.map_textures = thumbnails(ctx, &maps);
        self.maps = Some((Arc::new(maps), generation));
        self.error = None;
        self.edit_at = edit_at;
        let draft = ctx.input(|i| i.pointer.any_down());
        self.request(draft);
    }

    /// Takes a failed render of the maps: nothing is shown then.
    pub fn show_error(&mut self, message: String) {
        self.maps = None;
        self.map_textures.clear();
        self.texture = None;
        self.image = None;
        self.asked = None;
        self.error = Some(message);
    }

    /// The side of the next draft: half the view's, less while drafts take longer than
    /// [`DRAFT_BUDGET`] (a busy machine), never below [`SMALLEST_DRAFT`] (nor above the
    /// view's own side).
    fn draft_side(&self) -> u32 {
        let half = (self.settings.size / 2)
            .max(SMALLEST_DRAFT)
            .min(self.settings.size.max(1));
        ((half as f32 * self.draft_scale) as u32 / 16 * 16).clamp(SMALLEST_DRAFT.min(half), half)
    }

    /// Follows the time drafts take: each draft's side is scaled so that the next one
    /// takes about [`DRAFT_BUDGET`].
    fn adapt_drafts(&mut self, elapsed: Duration) {
        let ratio = DRAFT_BUDGET.as_secs_f32() / elapsed.as_secs_f32().max(1e-4);
        // Cost goes with the area: the side with its square root, a step at a time.
        self.draft_scale = (self.draft_scale * ratio.sqrt().clamp(0.8, 1.25)).clamp(0.25, 1.0);
    }

    /// Asks for a frame of the current maps and settings.
    fn request(&mut self, draft: bool) {
        let Some((maps, _)) = &self.maps else {
            return;
        };
        let settings = if draft {
            BallSettings {
                size: self.draft_side(),
                samples: 1,
                ..self.settings.clone()
            }
        } else {
            self.full_settings()
        };
        self.next_id += 1;
        let edit_at = self.edit_at.take();
        self.asked = Some(self.next_id);
        self.renderer.submit(FrameJob {
            id: self.next_id,
            maps: maps.clone(),
            settings,
            draft,
            edit_at,
        });
    }

    /// Takes the renderer's newest frame, if it is the one last asked for.
    fn receive(&mut self, ctx: &egui::Context) {
        let Some(frame) = self.renderer.newest() else {
            return;
        };
        let Some(asked) = self.asked else {
            return;
        };
        // A draft asked for before the newest one still shows the view moving (an orbit
        // asks for a frame each pointer move, faster than frames are drawn); an older
        // full frame shows settings already left, and is dropped.
        let latest = frame.id == asked;
        if !latest && (!frame.draft || frame.id <= self.shown_id) {
            return;
        }
        if latest {
            self.asked = None;
        }
        self.shown_id = frame.id;
        let draft = frame.draft;
        if draft {
            self.adapt_drafts(frame.elapsed);
        }
        match frame.image {
            Ok(image) => {
                let pixels = to_color_image(&image);
                let side = image.width;
                match &mut self.texture {
                    Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
                    None => {
                        self.texture =
                            Some(ctx.load_texture("ball", pixels, TextureOptions::LINEAR))
                    }
                }
                self.shown_draft = draft;
                if !draft {
                    self.image = Some(Arc::new(image));
                }
                let latency = frame.edit_at.map(|at| at.elapsed());
                self.timing = Some((frame.elapsed, draft, latency));
                if self.trace {
                    eprintln!(
                        "ball {} {} frame_ms {:.2} at_ms {:.1}{}",
                        if draft { "draft" } else { "full" },
                        side,
                        frame.elapsed.as_secs_f64() * 1e3,
                        ctx.input(|i| i.time) * 1e3,
                        latency.map_or_else(String::new, |l| format!(
                            " latency_ms {:.2}",
                            l.as_secs_f64() * 1e3
                        ))
                    );
                }
            }
            Err(message) => self.error = Some(message),
        }
    }

    /// Draws the view and its controls. `has_material` says whether the graph has
    /// outputs with material usages at all.
    pub fn show(&mut self, ui: &mut Ui, has_material: bool) -> Vec<BallAction> {
        let mut actions = Vec::new();
        self.receive(ui.ctx());
        let before = self.settings.clone();
        self.receive_environment();
        self.controls(ui, &mut actions);
        if let Some((elapsed, draft, latency)) = self.timing {
            let shown = latency
                .map(|l| format!(" · shown {:.0} ms after the edit", l.as_secs_f64() * 1e3))
                .unwrap_or_default();
            let kind = if draft { "draft frame" } else { "frame" };
            ui.add(
                egui::Label::new(
                    egui::RichText::new(format!(
                        "{kind} {:.1} ms{shown}",
                        elapsed.as_secs_f64() * 1e3
                    ))
                    .small(),
                )
                .truncate(),
            );
        }
        if !has_material {
            ui.label(
                "The graph has no material outputs yet. Give an output a usage in its inspector \
                 (Base color, Normal, Roughness…) to see the material on a shape.",
            );
        }
        if let Some((path, _)) = &self.loading {
            ui.weak(format!(
                "reading {}…",
                texgraph_core::text::printable(&path.display().to_string())
            ));
        }
        for error in [&self.error, &self.environment_error].into_iter().flatten() {
            ui.colored_label(
                Color32::from_rgb(230, 90, 80),
                texgraph_core::text::printable(error),
            );
        }
        let dragging = self.view(ui);
        let pointer_down = ui.input(|i| i.pointer.any_down());
        if self.settings != before {
            self.request(dragging || pointer_down);
            if self.trace {
                eprintln!("ball asked at_ms {:.1}", ui.input(|i| i.time) * 1e3);
            }
        } else if self.shown_draft && self.asked.is_none() && !pointer_down {
            self.request(false); // the drag ended: the full frame
        }
        self.maps_strip(ui);
        actions
    }

    /// The settings above the view, in rows narrow enough for the side panel at its
    /// default width: a row wider than the panel would widen what follows it (the view
    /// would be cut off on the right).
    fn controls(&mut self, ui: &mut Ui, actions: &mut Vec<BallAction>) {
        let s = &mut self.settings;
        ui.horizontal_wrapped(|ui| {
            egui::ComboBox::from_id_salt("ball_shape")
                .width(COMBO_WIDTH)
                .selected_text(shape_name(s.shape))
                .show_ui(ui, |ui| {
                    for shape in Shape::ALL {
                        ui.selectable_value(&mut s.shape, shape, shape_name(shape));
                    }
                })
                .response
                .on_hover_text("the shape the material is on");
            egui::ComboBox::from_id_salt("ball_environment")
                .width(COMBO_WIDTH)
                .selected_text(environment_name(&s.environment))
                .show_ui(ui, |ui| {
                    let built_in = [Environment::Studio, Environment::Sky];
                    for environment in built_in.iter().chain(&self.environments) {
                        let name = environment_name(environment);
                        ui.selectable_value(&mut s.environment, environment.clone(), name);
                    }
                    if ui
                        .button("Open .hdr or .exr…")
                        .on_hover_text(
                            "an equirectangular image: its middle column is straight ahead",
                        )
                        .clicked()
                    {
                        actions.push(BallAction::ChooseEnvironment);
                    }
                })
                .response
                .on_hover_text("the light around the shape");
            egui::ComboBox::from_id_salt("ball_background")
                .width(COMBO_WIDTH)
                .selected_text(background_name(s.background))
                .show_ui(ui, |ui| {
                    for background in Background::ALL {
                        ui.selectable_value(
                            &mut s.background,
                            background,
                            background_name(background),
                        );
                    }
                })
                .response
                .on_hover_text("what shows behind the shape");
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Reset view")
                .on_hover_text(
                    "the shape's own view, the light where it started (or double-click the view)",
                )
                .clicked()
            {
                reset_view(s);
            }
            if ui
                .button("Copy command")
                .on_hover_text("the texgraph render command that writes this view as a PNG, for thumbnails in a pipeline")
                .clicked()
            {
                actions.push(BallAction::CopyCommand);
            }
        });
        ui.horizontal_wrapped(|ui| {
            if s.shape == Shape::Terrain {
                // The terrain shows its maps once and its relief is its geometry.
                ui.label("relief");
                ui.add(
                    egui::DragValue::new(&mut s.relief)
                        .range(RELIEF)
                        .speed(0.005)
                        .max_decimals(3),
                )
                .on_hover_text(
                    "the terrain's height for a height of 1, as a fraction of its width",
                );
                return;
            }
            ui.label("tiling");
            ui.add(
                egui::DragValue::new(&mut s.tiling)
                    .range(0.25..=16.0)
                    .speed(0.02),
            )
            .on_hover_text("how many times the maps repeat across the shape");
            ui.label("depth");
            ui.add(
                egui::DragValue::new(&mut s.depth)
                    .range(0.0..=0.2)
                    .speed(0.001)
                    .max_decimals(3),
            )
            .on_hover_text("parallax depth of the height map, in texture tiles (0: off)");
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("light");
            ui.add(
                egui::DragValue::new(&mut s.light_intensity)
                    .range(0.0..=10.0)
                    .speed(0.02),
            )
            .on_hover_text("the key light's strength (0: the environment alone)");
            ui.label("exposure");
            ui.add(
                egui::DragValue::new(&mut s.exposure)
                    .range(-4.0..=4.0)
                    .speed(0.02),
            )
            .on_hover_text("in stops");
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("view");
            egui::ComboBox::from_id_salt("ball_size")
                .width(COMBO_WIDTH * 0.8)
                .selected_text(format!("{0}×{0}", s.size))
                .show_ui(ui, |ui| {
                    for size in VIEW_SIZES {
                        ui.selectable_value(&mut s.size, size, format!("{size}×{size}"));
                    }
                });
            ui.label("maps");
            egui::ComboBox::from_id_salt("ball_map_size")
                .width(COMBO_WIDTH * 0.8)
                .selected_text(format!("{0}×{0}", self.map_size))
                .show_ui(ui, |ui| {
                    for size in MAP_SIZES {
                        if ui
                            .selectable_value(&mut self.map_size, size, format!("{size}×{size}"))
                            .clicked()
                        {
                            actions.push(BallAction::RenderMaps);
                        }
                    }
                });
        });
    }

    /// The frame, with the pointer's gestures; whether a gesture goes on.
    fn view(&mut self, ui: &mut Ui) -> bool {
        let side = ui.available_width().min(self.max_side).clamp(64.0, 1024.0);
        let (rect, response) = ui.allocate_exact_size(vec2(side, side), Sense::click_and_drag());
        self.view_rect = rect;
        let response = response.on_hover_text(
            "drag: orbit · wheel: zoom · Shift+drag: turn the light and environment · double-click: reset",
        );
        let s = &mut self.settings;
        if response.hovered() {
            // Taken, so that the panel around does not scroll as well.
            let scroll = ui.input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta.y));
            if scroll != 0.0 {
                s.zoom = (s.zoom * (scroll / 300.0).exp())
                    .clamp(texgraph_core::ball::MIN_ZOOM, texgraph_core::ball::MAX_ZOOM);
            }
        }
        if response.dragged() {
            let delta = response.drag_delta() * DEGREES_PER_POINT;
            if ui.input(|i| i.modifiers.shift) {
                s.environment_turn = (s.environment_turn + delta.x).rem_euclid(360.0);
                s.light_elevation = (s.light_elevation - delta.y).clamp(-10.0, 90.0);
            } else {
                s.orbit[0] = (s.orbit[0] - delta.x).rem_euclid(360.0);
                s.orbit[1] = (s.orbit[1] + delta.y).clamp(-85.0, 85.0);
            }
        }
        if response.double_clicked() {
            reset_view(s);
        }
        let painter = ui.painter_at(rect);
        checkerboard(&painter, rect);
        if let Some(texture) = &self.texture {
            let uv = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1.0, 1.0));
            painter.image(texture.id(), rect, uv, Color32::WHITE);
        }
        response.dragged()
    }

    /// The rendered maps, small, each with its usage.
    fn maps_strip(&self, ui: &mut Ui) {
        if self.map_textures.is_empty() {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            for (name, texture) in &self.map_textures {
                ui.vertical(|ui| {
                    ui.add(egui::Image::new(texture).fit_to_exact_size(vec2(56.0, 56.0)));
                    ui.small(*name);
                });
            }
        });
    }
}

/// The width of the 3D tab's choices: three fit the side panel at its default width.
const COMBO_WIDTH: f32 = 84.0;
/// The terrain's relief, as `texgraph render --relief` takes it.
const RELIEF: std::ops::RangeInclusive<f32> = MIN_RELIEF..=MAX_RELIEF;

/// `word` as one word of a POSIX shell command line (single-quoted unless plain).
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,=:".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Back to the shape's own view with the light and environment where they started.
fn reset_view(s: &mut BallSettings) {
    let default = BallSettings::default();
    s.orbit = default.orbit;
    s.zoom = default.zoom;
    s.environment_turn = default.environment_turn;
    s.light_elevation = default.light_elevation;
}

fn environment_name(environment: &Environment) -> String {
    match environment {
        Environment::Studio => "Studio".into(),
        Environment::Sky => "Sky".into(),
        Environment::Uniform(_) => "Uniform".into(),
        Environment::Image(image) => {
            let name = image.path().file_name().map_or_else(
                || image.path().display().to_string(),
                |name| name.to_string_lossy().into_owned(),
            );
            texgraph_core::text::printable(&name).into_owned()
        }
    }
}

fn background_name(background: Background) -> &'static str {
    match background {
        Background::Environment => "Environment",
        Background::Gray => "Gray",
        Background::Transparent => "Transparent",
    }
}

/// A checkerboard under the frame, so a transparent background reads as one.
fn checkerboard(painter: &egui::Painter, rect: egui::Rect) {
    painter.rect_filled(rect, 0.0, Color32::from_gray(60));
    let cell = 16.0;
    let (cols, rows) = (
        (rect.width() / cell).ceil() as i32,
        (rect.height() / cell).ceil() as i32,
    );
    for row in 0..rows {
        for col in 0..cols {
            if (row + col) % 2 == 0 {
                let min = rect.min + vec2(col as f32 * cell, row as f32 * cell);
                let square = egui::Rect::from_min_size(min, vec2(cell, cell)).intersect(rect);
                painter.rect_filled(square, 0.0, Color32::from_gray(90));
            }
        }
    }
}

/// Thumbnails of the maps the graph rendered (the neutral 1×1 stand-ins left out).
fn thumbnails(ctx: &egui::Context, maps: &MaterialMaps) -> Vec<(&'static str, TextureHandle)> {
    let all = [
        ("Base color", &maps.base_color),
        ("Normal", &maps.normal),
        ("Roughness", &maps.roughness),
        ("Metallic", &maps.metallic),
        ("Occlusion", &maps.occlusion),
        ("Height", &maps.height),
        ("Opacity", &maps.opacity),
        ("Emissive", &maps.emissive),
    ];
    all.into_iter()
        .filter(|(_, map)| map.width > 1 || map.height > 1)
        .map(|(name, map)| {
            let small = shrink(map, MAP_THUMBNAIL);
            let texture = ctx.load_texture(
                format!("ball-map-{name}"),
                to_color_image(&small),
                TextureOptions::LINEAR,
            );
            (name, texture)
        })
        .collect()
}

/// `image` shrunk to at most `side` pixels a side, by averaging boxes of pixels.
fn shrink(image: &Image, side: usize) -> Image {
    let (w, h, c) = (image.width as usize, image.height as usize, image.channels);
    let step = w.max(h).div_ceil(side).max(1);
    let (sw, sh) = (w / step, h / step);
    let mut data = Vec::with_capacity(sw * sh * c);
    let weight = 1.0 / (step * step) as f32;
    for y in 0..sh {
        for x in 0..sw {
            for ch in 0..c {
                let mut sum = 0.0;
                for dy in 0..step {
                    for dx in 0..step {
                        sum += image.data[((y * step + dy) * w + x * step + dx) * c + ch];
                    }
                }
                data.push(sum * weight);
            }
        }
    }
    Image {
        width: sw as u32,
        height: sh as u32,
        channels: c,
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_shrink_while_they_take_too_long_and_grow_back() {
        let mut view = BallView::new(|_| {}, false);
        view.settings.size = 512;
        assert_eq!(view.draft_side(), 256, "half the view's side");
        for _ in 0..20 {
            view.adapt_drafts(DRAFT_BUDGET * 4);
        }
        assert_eq!(view.draft_side(), SMALLEST_DRAFT);
        for _ in 0..20 {
            view.adapt_drafts(DRAFT_BUDGET / 4);
        }
        assert_eq!(view.draft_side(), 256, "never above half the view's side");
        // On time: no change.
        view.draft_scale = 0.75;
        view.adapt_drafts(DRAFT_BUDGET);
        assert_eq!(view.draft_side(), 192);
        // A small view's drafts are no smaller than the smallest, nor larger than it.
        view.settings.size = 192;
        assert_eq!(view.draft_side(), SMALLEST_DRAFT);
        view.settings.size = 96;
        assert_eq!(view.draft_side(), 96);
    }
}
