//! The export dialog and its background job. The job calls the same core functions as
//! `texgraph render` (`texgraph_core::export::export_all`, and
//! `texgraph_core::animation::export_animation` with `--frames`), so an export is
//! byte-identical to the CLI's files for the same settings.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use eframe::egui::{self, Id, Ui};
use texgraph_core::animation::{Frames, Layout, export_animation, frame_path};
use texgraph_core::export::material::{MaterialSettings, export_preset, preset_paths};
use texgraph_core::export::presets::{Preset, built_in};
use texgraph_core::export::{
    Depth, ExportSettings, Exported, Format, default_image_name, export_all, file_stem_for,
    output_paths, render_targets,
};
use texgraph_core::usage::Usage;
use texgraph_core::{Graph, RenderOptions, output_names};

use crate::files::{Files, Purpose};

/// What the progress bar says once every row is rendered and the file is being written.
pub const ENCODING: &str = "encoding and writing…";
/// The progress bar's width: the window keeps its size while an export runs.
const PROGRESS_WIDTH: f32 = 280.0;

/// Square sizes offered (custom sizes are typed).
pub const SIZE_PRESETS: [u32; 6] = [256, 512, 1024, 2048, 4096, 8192];

/// File format and depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// PNG, 8 bits per channel.
    Png8,
    /// PNG, 16 bits per channel.
    Png16,
    /// OpenEXR, 32-bit float.
    Exr,
    /// TIFF, 8 bits per channel.
    Tiff8,
    /// TIFF, 16 bits per channel.
    Tiff16,
    /// TIFF, 32-bit float.
    Tiff32,
    /// DDS: each map block-compressed as its usage asks (BC7 sRGB, BC7, BC5, BC4, or
    /// 16-bit heights), with its mips.
    Dds,
    /// KTX2: the same texture in Khronos' container.
    Ktx2,
}

impl ImageKind {
    const ALL: [ImageKind; 8] = [
        ImageKind::Png8,
        ImageKind::Png16,
        ImageKind::Exr,
        ImageKind::Tiff8,
        ImageKind::Tiff16,
        ImageKind::Tiff32,
        ImageKind::Dds,
        ImageKind::Ktx2,
    ];

    fn label(self) -> &'static str {
        match self {
            ImageKind::Png8 => "PNG 8-bit",
            ImageKind::Png16 => "PNG 16-bit",
            ImageKind::Exr => "EXR 32-bit float",
            ImageKind::Tiff8 => "TIFF 8-bit",
            ImageKind::Tiff16 => "TIFF 16-bit",
            ImageKind::Tiff32 => "TIFF 32-bit float",
            ImageKind::Dds => "DDS texture (BC7/BC5/BC4, mips)",
            ImageKind::Ktx2 => "KTX2 texture (BC7/BC5/BC4, mips)",
        }
    }

    /// Whether this is a game texture, one map with its mips (no animation frames).
    pub fn is_texture(self) -> bool {
        matches!(self, ImageKind::Dds | ImageKind::Ktx2)
    }

    /// The depth asked for; `None` for textures, whose depth follows each map's usage
    /// (16 bits for a height), as `texgraph render -o x.dds` without `--depth`.
    pub fn depth(self) -> Option<Depth> {
        match self {
            ImageKind::Png8 | ImageKind::Tiff8 => Some(Depth::Eight),
            ImageKind::Png16 | ImageKind::Tiff16 => Some(Depth::Sixteen),
            ImageKind::Exr | ImageKind::Tiff32 => Some(Depth::Float),
            ImageKind::Dds | ImageKind::Ktx2 => None,
        }
    }

    fn extension(self) -> &'static str {
        match self {
            ImageKind::Exr => "exr",
            ImageKind::Tiff8 | ImageKind::Tiff16 | ImageKind::Tiff32 => "tif",
            ImageKind::Png8 | ImageKind::Png16 => "png",
            ImageKind::Dds => "dds",
            ImageKind::Ktx2 => "ktx2",
        }
    }

    /// The kind a file name's extension writes, keeping this one's depth where the
    /// format offers it; `None` for an extension that is no image format.
    fn for_extension(self, extension: &str) -> Option<Self> {
        let depth = self.depth().unwrap_or(Depth::Eight);
        Some(match extension.to_ascii_lowercase().as_str() {
            "png" if depth == Depth::Eight => ImageKind::Png8,
            "png" => ImageKind::Png16,
            "exr" => ImageKind::Exr,
            "dds" => ImageKind::Dds,
            "ktx2" => ImageKind::Ktx2,
            "tif" | "tiff" => match depth {
                Depth::Eight => ImageKind::Tiff8,
                Depth::Sixteen => ImageKind::Tiff16,
                Depth::Float => ImageKind::Tiff32,
            },
            _ => return None,
        })
    }
}

/// What to export, as chosen in the dialog.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRequest {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Format and depth.
    pub kind: ImageKind,
    /// `None`: the first output; `Some(name)`: that output.
    pub output: Option<String>,
    /// Every output, each to `<stem>_<name>.<ext>` (as `texgraph render --all-outputs`).
    pub all_outputs: bool,
    /// The image file (the stem, with `all_outputs`; with `animation`, a GIF, an APNG,
    /// a sheet or a `#` sequence pattern, as `texgraph render -o` takes it).
    pub path: PathBuf,
    /// Frames to write instead of one still (`texgraph render --frames`).
    pub animation: Option<AnimationRequest>,
    /// The material's files through an export preset instead (`texgraph render --preset`):
    /// `path` is then their folder.
    pub material: Option<MaterialRequest>,
}

/// A material export: `texgraph render --preset NAME [--format F] -o FOLDER`.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialRequest {
    /// The preset.
    pub preset: Preset,
    /// Every file in this format instead of the preset's.
    pub format: Option<Format>,
    /// `{graph}` in the file names: the graph's name, else its file's stem.
    pub graph_name: String,
}

/// The frames of an animation export: `--frames FIRST..END --fps FPS [--sheet CxR]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimationRequest {
    /// First frame.
    pub first: u32,
    /// One past the last frame.
    pub end: u32,
    /// Frames per second: frame n is at time n / fps.
    pub fps: f64,
    /// Columns and rows of a sprite sheet, or `None`.
    pub sheet: Option<(u32, u32)>,
}

/// How an animation is written, as picked in the dialog (the file name carries it to
/// [`Layout::for_path`], as in the CLI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// One file per frame, numbered where the name has `#`s.
    Sequence,
    /// An animated GIF.
    Gif,
    /// An animated PNG.
    Apng,
    /// A sprite sheet.
    Sheet,
}

impl Motion {
    const ALL: [Motion; 4] = [Motion::Sequence, Motion::Gif, Motion::Apng, Motion::Sheet];

    fn label(self) -> &'static str {
        match self {
            Motion::Sequence => "image sequence",
            Motion::Gif => "animated GIF",
            Motion::Apng => "animated PNG",
            Motion::Sheet => "sprite sheet",
        }
    }
}

/// An export running on its own thread.
pub struct ExportJob {
    rows: Arc<AtomicU32>,
    total_rows: u32,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<Vec<Exported>, String>>,
    started: Instant,
}

/// The signature of `texgraph_core::export::export_all`.
type ExportFn = fn(
    &Graph,
    &[(ExportSettings, PathBuf)],
    &(dyn Fn(u32) + Sync),
) -> texgraph_core::Result<Vec<Exported>>;

impl ExportJob {
    /// Starts exporting `graph`; `wake` is called as rows finish and at the end.
    pub fn start(
        graph: Graph,
        request: ExportRequest,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(graph, request, wake, export_all)
    }

    /// [`ExportJob::start`] through `export` (the core's `export_all`; a stand-in in tests).
    fn start_with(
        graph: Graph,
        request: ExportRequest,
        wake: impl Fn() + Send + Sync + 'static,
        export: ExportFn,
    ) -> Self {
        let rows = Arc::new(AtomicU32::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        // Stills of several outputs, and materials, are one render.
        let copies = match request.animation {
            Some(a) => a.end.saturating_sub(a.first),
            None => 1,
        };
        let total_rows = request.height.saturating_mul(copies.max(1));
        let options = RenderOptions {
            cancel: Some(cancel.clone()),
            ..RenderOptions::default()
        };
        // What a material or an animation is rendered with (a still's files and depths
        // are the core's choice below, as the CLI's).
        let settings = ExportSettings {
            width: request.width,
            height: request.height,
            depth: request.kind.depth().unwrap_or(Depth::Eight),
            output: request.output.clone(),
            options: options.clone(),
        };
        let (send, result) = channel();
        let job_rows = rows.clone();
        // Should no thread start, the sender goes with the closure and `poll` reports it.
        let _ = std::thread::Builder::new()
            .name("texgraph-export".into())
            .spawn(move || {
                let progress = |done: u32| {
                    job_rows.fetch_max(done, Ordering::Relaxed);
                    wake();
                };
                // A bug that panics ends this export with an error, not the editor.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    if output_names(&graph).is_empty() {
                        return Err("the graph has no output node to export".to_owned());
                    }
                    if let Some(material) = &request.material {
                        let settings = MaterialSettings {
                            width: request.width,
                            height: request.height,
                            format: material.format,
                            graph_name: material.graph_name.clone(),
                            options: settings.options.clone(),
                        };
                        return export_preset(
                            &graph,
                            &material.preset,
                            &settings,
                            &request.path,
                            &progress,
                        )
                        .map_err(|e| describe(&request.path, &e));
                    }
                    if let Some(animation) = request.animation {
                        let frames = Frames::new(animation.first, animation.end, animation.fps)?;
                        let layout = Layout::for_path(&request.path, animation.sheet)
                            .map_err(|e| describe(&request.path, &e))?;
                        let rows = |done: u64| progress(u32::try_from(done).unwrap_or(u32::MAX));
                        return export_animation(
                            &graph,
                            &frames,
                            layout,
                            &request.path,
                            &settings,
                            &rows,
                        )
                        .map_err(|e| describe(&request.path, &e));
                    }
                    // The files `texgraph render` would write for the same request, every
                    // one or none.
                    let jobs = render_targets(
                        &graph,
                        &request.path,
                        (request.width, request.height),
                        request.kind.depth(),
                        request.output.as_deref(),
                        request.all_outputs,
                        &options,
                    )
                    .map_err(|e| describe(&request.path, &e))?;
                    export(&graph, &jobs, &progress).map_err(|e| describe(&request.path, &e))
                }))
                .unwrap_or_else(|panic| Err(crate::worker::panic_message("the export", &*panic)));
                let _ = send.send(outcome);
                wake();
            });
        Self {
            rows,
            total_rows,
            cancel,
            result,
            started: Instant::now(),
        }
    }

    /// Done fraction, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.rows.load(Ordering::Relaxed) as f32 / self.total_rows.max(1) as f32
    }

    /// Whether every row is rendered and the files are being encoded and written.
    pub fn encoding(&self) -> bool {
        self.rows.load(Ordering::Relaxed) >= self.total_rows.max(1)
    }

    /// Asks the job to stop; nothing more is written.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The outcome, once finished.
    pub fn poll(&self) -> Option<Result<Vec<Exported>, String>> {
        use std::sync::mpsc::TryRecvError;
        match self.result.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the export stopped unexpectedly".to_owned()))
            }
        }
    }

    /// Waits for the outcome.
    pub fn wait(self) -> Result<Vec<Exported>, String> {
        self.result
            .recv()
            .unwrap_or_else(|_| Err("the export stopped unexpectedly".to_owned()))
    }
}

/// Asks whether to replace `existing` files; `Some(true)` to go ahead, `Some(false)` not to
/// (Escape), `None` while unanswered.
fn replace_question(ctx: &egui::Context, existing: &[PathBuf]) -> Option<bool> {
    let mut answer = None;
    egui::Modal::new(Id::new("replace_question")).show(ctx, |ui| {
        ui.set_width(420.0);
        ui.heading(if existing.len() == 1 {
            "Replace the existing file?"
        } else {
            "Replace the existing files?"
        });
        for path in existing {
            ui.label(path.display().to_string());
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Replace").clicked() {
                answer = Some(true);
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                answer = Some(false);
            }
        });
    });
    answer
}

fn describe(path: &Path, error: &texgraph_core::Error) -> String {
    match error {
        texgraph_core::Error::Cancelled => "export cancelled; nothing was written".to_owned(),
        texgraph_core::Error::Invalid(problems) => problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
        other => format!("{}: {other}", path.display()),
    }
}

/// The dialog's state.
pub struct ExportDialog {
    /// Whether the window is open.
    pub open: bool,
    /// Size preset, or `None` for the custom size below.
    pub preset: Option<u32>,
    /// Custom width.
    pub width: u32,
    /// Custom height.
    pub height: u32,
    /// Format and depth.
    pub kind: ImageKind,
    /// Output choice: `None` = every output, `Some(name)`.
    pub output: Option<String>,
    /// Destination path as typed.
    pub path: String,
    /// The running export.
    pub job: Option<ExportJob>,
    /// What the last export did.
    pub message: String,
    /// Existing files the export would replace, while "Replace them?" waits for an answer.
    pub replacing: Option<Vec<PathBuf>>,
    /// Whether to export frames rather than a still.
    pub animate: bool,
    /// How the frames are written.
    pub motion: Motion,
    /// First frame.
    pub first: u32,
    /// One past the last frame.
    pub end: u32,
    /// Frames per second.
    pub fps: f64,
    /// Sprite sheet columns and rows.
    pub sheet: (u32, u32),
    /// The export preset writing the material's files, or `None` for images.
    pub material: Option<String>,
    /// The format of a material's files, or `None` for the preset's own.
    pub material_format: Option<Format>,
    /// The folder a material's files go to, as typed.
    pub folder: String,
    /// `{graph}` in a material's file names.
    pub graph_name: String,
    /// The user's preset file (`$XDG_CONFIG_HOME/texgraph/presets.json`), read each time
    /// the dialog opens; `None` offers the built-in presets only.
    pub user_presets: Option<PathBuf>,
    /// The built-in presets and the user's (which replace built-ins of the same name).
    pub presets: Vec<Preset>,
    /// Why the user's preset file was not read, shown in the dialog.
    pub presets_problem: Option<String>,
}

impl Default for ExportDialog {
    fn default() -> Self {
        Self {
            open: false,
            preset: Some(1024),
            width: 1024,
            height: 1024,
            kind: ImageKind::Png8,
            output: None,
            path: String::new(),
            job: None,
            message: String::new(),
            replacing: None,
            animate: false,
            motion: Motion::Gif,
            first: 0,
            end: 48,
            fps: 24.0,
            sheet: (8, 6),
            material: None,
            material_format: None,
            folder: String::new(),
            graph_name: String::new(),
            user_presets: None,
            presets: built_in(),
            presets_problem: None,
        }
    }
}

impl ExportDialog {
    /// Opens the dialog, suggesting a file beside the graph named after it. `animated`:
    /// the graph moves with time, so a first export of it writes an animation.
    pub fn open_for(&mut self, graph: &Graph, graph_path: Option<&Path>, animated: bool) {
        self.open = true;
        let names = output_names(graph);
        if self.output.as_ref().is_none_or(|o| !names.contains(o)) {
            self.output = names.first().cloned();
        }
        self.graph_name = file_stem_for(graph, graph_path);
        self.load_presets();
        if self.folder.is_empty() {
            let folder = graph_path.and_then(Path::parent).unwrap_or(Path::new(""));
            self.folder = folder
                .join(format!("{}_maps", self.graph_name))
                .display()
                .to_string();
        }
        if self.path.is_empty() {
            // A first export of this graph: a still unless it moves.
            self.animate = animated;
            let name = default_image_name(graph, graph_path).with_extension(self.kind.extension());
            let folder = graph_path.and_then(Path::parent).unwrap_or(Path::new(""));
            self.path = folder.join(name).display().to_string();
            self.fit_path();
        }
    }

    /// Takes the frame range and rate of the preview's timeline, so that an animation
    /// export writes the frames just played.
    pub fn follow_timeline(&mut self, timeline: &crate::preview::Timeline) {
        self.first = timeline.first;
        self.end = timeline.end;
        self.fps = f64::from(timeline.fps);
    }

    /// Forgets what belonged to the previous graph (its file name, output and messages);
    /// the next [`Self::open_for`] suggests names from the graph shown then.
    pub fn forget_graph(&mut self) {
        self.path.clear();
        self.folder.clear();
        self.output = None;
        self.message.clear();
        self.replacing = None;
        self.animate = false;
    }

    /// Makes the format shown agree with a file name typed or chosen: the name decides
    /// what is written (as in the CLI), so the choices follow it.
    pub fn follow_path(&mut self) {
        let path = PathBuf::from(&self.path);
        let extension = path
            .extension()
            .map_or_else(String::new, |e| e.to_string_lossy().to_ascii_lowercase());
        let numbered = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().contains('#'));
        if self.animate {
            self.motion = match (extension.as_str(), self.motion) {
                ("gif", _) => Motion::Gif,
                (_, _) if numbered => Motion::Sequence,
                (_, Motion::Sheet) => Motion::Sheet,
                ("png", _) => Motion::Apng,
                (_, motion) => motion,
            };
            if matches!(self.motion, Motion::Gif | Motion::Apng) {
                return;
            }
        }
        if let Some(kind) = self.kind.for_extension(&extension) {
            self.kind = kind;
        }
    }

    /// The request the dialog's fields make.
    pub fn request(&self) -> ExportRequest {
        let (width, height) = match self.preset {
            Some(side) => (side, side),
            None => (self.width, self.height),
        };
        if let Some(preset) = self.chosen_preset() {
            return ExportRequest {
                width,
                height,
                kind: self.kind,
                output: None,
                all_outputs: true,
                path: PathBuf::from(&self.folder),
                animation: None,
                material: Some(MaterialRequest {
                    preset,
                    format: self.material_format,
                    graph_name: self.graph_name.clone(),
                }),
            };
        }
        if self.animate {
            return ExportRequest {
                width,
                height,
                // GIF and APNG are 8-bit (as the CLI's default for them).
                kind: match self.motion {
                    Motion::Gif | Motion::Apng => ImageKind::Png8,
                    Motion::Sequence | Motion::Sheet => self.kind,
                },
                output: self.output.clone(),
                all_outputs: false,
                path: PathBuf::from(&self.path),
                animation: Some(AnimationRequest {
                    first: self.first,
                    end: self.end,
                    fps: self.fps,
                    sheet: (self.motion == Motion::Sheet).then_some(self.sheet),
                }),
                material: None,
            };
        }
        ExportRequest {
            width,
            height,
            kind: self.kind,
            output: self.output.clone(),
            all_outputs: self.output.is_none(),
            path: PathBuf::from(&self.path),
            animation: None,
            material: None,
        }
    }

    /// Reads the presets again: the built-ins, then the user's file (as `texgraph render
    /// --preset-file` takes it), whose presets replace built-ins of the same name. A file
    /// that does not load leaves the built-ins and says why.
    pub fn load_presets(&mut self) {
        self.presets = built_in();
        self.presets_problem = None;
        let Some(path) = self.user_presets.as_deref().filter(|p| p.exists()) else {
            return;
        };
        match texgraph_core::export::presets::load_presets(path) {
            Ok(theirs) => self.presets = texgraph_core::export::presets::with_user(theirs),
            Err(e) => self.presets_problem = Some(e.to_string()),
        }
        if self
            .material
            .as_ref()
            .is_some_and(|m| !self.presets.iter().any(|p| p.name == *m))
        {
            self.material = None;
        }
    }

    /// The preset chosen for a material export, when there is one.
    fn chosen_preset(&self) -> Option<Preset> {
        let name = self.material.as_deref()?;
        self.presets.iter().find(|p| p.name == name).cloned()
    }

    /// The settings a material export uses (size, format, names), for listing its files.
    fn material_settings(&self) -> MaterialSettings {
        let request = self.request();
        MaterialSettings {
            width: request.width,
            height: request.height,
            format: self.material_format,
            graph_name: self.graph_name.clone(),
            options: RenderOptions::default(),
        }
    }

    /// The file name the dialog's choices call for: a `_####` pattern for a sequence, the
    /// extension of the format otherwise.
    fn fit_path(&mut self) {
        if self.path.is_empty() {
            return;
        }
        let path = PathBuf::from(&self.path);
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let bare = stem.trim_end_matches('#').trim_end_matches('_').to_owned();
        let (name, extension) = match (self.animate, self.motion) {
            (true, Motion::Sequence) => (format!("{bare}_####"), self.kind.extension()),
            (true, Motion::Gif) => (bare, "gif"),
            (true, Motion::Apng | Motion::Sheet) => (bare, "png"),
            (false, _) => (bare, self.kind.extension()),
        };
        self.path = path
            .with_file_name(name)
            .with_extension(extension)
            .display()
            .to_string();
    }

    /// Draws the dialog; true when Export was pressed.
    pub fn show(&mut self, ui: &Ui, graph: &Graph, files: &mut Files) -> bool {
        if !self.open {
            return false;
        }
        if let Some(outcome) = self.job.as_ref().and_then(ExportJob::poll) {
            let seconds = self
                .job
                .take()
                .map_or(0.0, |j| j.started.elapsed().as_secs_f64());
            self.message = match outcome {
                Ok(written) => format!(
                    "wrote {} in {seconds:.2} s",
                    written
                        .iter()
                        .map(|w| w.path.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Err(message) => format!("error: {message}"),
            };
        }
        let mut start = false;
        let mut open = self.open;
        let mut close = false;
        egui::Window::new("Export")
            .id(Id::new("export_dialog"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .show(ui.ctx(), |ui| {
                let running = self.job.is_some();
                ui.add_enabled_ui(!running, |ui| self.fields(ui, graph, files));
                ui.separator();
                ui.horizontal(|ui| match &self.job {
                    Some(job) => {
                        // Cancel first, so no width the bar takes can push it out of view.
                        if ui
                            .button("Cancel")
                            .on_hover_text("stop the export (Escape)")
                            .clicked()
                        {
                            job.cancel();
                        }
                        // Every row rendered: the file is being encoded and written, which
                        // takes a while of its own for a large image.
                        let bar = if job.encoding() {
                            egui::ProgressBar::new(1.0).text(ENCODING).animate(true)
                        } else {
                            egui::ProgressBar::new(job.progress()).show_percentage()
                        };
                        ui.add(bar.desired_width(PROGRESS_WIDTH));
                    }
                    None => {
                        if ui.button("Export").clicked() {
                            let existing: Vec<PathBuf> = self
                                .targets(graph)
                                .into_iter()
                                .filter(|p| p.exists())
                                .collect();
                            if existing.is_empty() {
                                start = true;
                            } else {
                                self.replacing = Some(existing);
                            }
                        }
                        close = ui.button("Cancel").on_hover_text("Escape").clicked();
                    }
                });
                if !self.message.is_empty() {
                    ui.label(&self.message);
                }
            });
        if let Some(existing) = self.replacing.clone() {
            match replace_question(ui.ctx(), &existing) {
                Some(true) => {
                    self.replacing = None;
                    start = true;
                }
                Some(false) => self.replacing = None,
                None => {}
            }
        } else if !files.choosing() && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            close = true;
        }
        if !open || close {
            if let Some(job) = &self.job {
                job.cancel();
            }
            self.open = false;
        }
        start
    }

    /// The files the dialog's settings write.
    pub fn targets(&self, graph: &Graph) -> Vec<PathBuf> {
        if let Some(preset) = self.chosen_preset() {
            let settings = self.material_settings();
            let folder = PathBuf::from(&self.folder);
            let mut paths: Vec<PathBuf> = preset_paths(graph, &preset, &settings, &folder)
                .map(|files| files.into_iter().map(|(p, _)| p).collect())
                .unwrap_or_default();
            if preset.gltf {
                for ext in ["gltf", "bin"] {
                    paths.push(folder.join(format!("{}.{ext}", self.graph_name)));
                }
            }
            return paths;
        }
        let path = PathBuf::from(&self.path);
        if self.animate {
            return if self.motion == Motion::Sequence {
                (self.first..self.end.min(self.first.saturating_add(10_000)))
                    .map(|n| frame_path(&path, n))
                    .collect()
            } else {
                vec![path]
            };
        }
        if self.output.is_none() {
            output_paths(graph, &path)
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        } else {
            vec![path]
        }
    }

    fn fields(&mut self, ui: &mut Ui, graph: &Graph, files: &mut Files) {
        egui::Grid::new("export_fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("size");
                ui.horizontal(|ui| {
                    let label = self
                        .preset
                        .map_or("custom".to_owned(), |s| format!("{s}×{s}"));
                    egui::ComboBox::from_id_salt("export_size")
                        .selected_text(label)
                        .show_ui(ui, |ui| {
                            for side in SIZE_PRESETS {
                                ui.selectable_value(
                                    &mut self.preset,
                                    Some(side),
                                    format!("{side}×{side}"),
                                );
                            }
                            ui.selectable_value(&mut self.preset, None, "custom");
                        });
                    if self.preset.is_none() {
                        ui.add(egui::DragValue::new(&mut self.width).range(1..=65536));
                        ui.label("×");
                        ui.add(egui::DragValue::new(&mut self.height).range(1..=65536));
                    }
                });
                ui.end_row();

                ui.label("preset");
                let presets = self.presets.clone();
                egui::ComboBox::from_id_salt("export_preset")
                    .selected_text(
                        self.material
                            .clone()
                            .unwrap_or_else(|| "none: images".into()),
                    )
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.material, None, "none: images")
                            .on_hover_text("write outputs as images, one file each");
                        for preset in &presets {
                            ui.selectable_value(
                                &mut self.material,
                                Some(preset.name.clone()),
                                &preset.name,
                            )
                            .on_hover_text(&preset.description);
                        }
                    })
                    .response
                    .on_hover_text(
                        "write the material's maps for an engine, as `texgraph render --preset`",
                    );
                ui.end_row();
                if self.material.is_some() {
                    self.material_fields(ui, graph);
                    return;
                }

                ui.label("frames");
                let before = (self.animate, self.motion);
                ui.horizontal(|ui| {
                    ui.checkbox(&mut self.animate, "animation")
                        .on_hover_text("write frames over time, as `texgraph render --frames`");
                    if self.animate {
                        egui::ComboBox::from_id_salt("export_motion")
                            .selected_text(self.motion.label())
                            .show_ui(ui, |ui| {
                                for motion in Motion::ALL {
                                    ui.selectable_value(&mut self.motion, motion, motion.label());
                                }
                            });
                    }
                });
                ui.end_row();
                if self.animate {
                    ui.label("range");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut self.first).range(0..=1_000_000));
                        ui.label("to");
                        ui.add(egui::DragValue::new(&mut self.end).range(0..=1_000_000))
                            .on_hover_text("one past the last frame: 0 to 48 is 48 frames");
                        ui.label("at");
                        ui.add(
                            egui::DragValue::new(&mut self.fps)
                                .range(1.0..=texgraph_core::animation::MAX_FPS)
                                .suffix(" fps"),
                        );
                    });
                    ui.end_row();
                    if self.motion == Motion::Sheet {
                        ui.label("sheet");
                        ui.horizontal(|ui| {
                            ui.add(egui::DragValue::new(&mut self.sheet.0).range(1..=1024));
                            ui.label("columns ×");
                            ui.add(egui::DragValue::new(&mut self.sheet.1).range(1..=1024));
                            ui.label("rows");
                        });
                        ui.end_row();
                    }
                }

                let still_format =
                    !self.animate || matches!(self.motion, Motion::Sequence | Motion::Sheet);
                if self.animate && self.kind.is_texture() {
                    self.kind = ImageKind::Png8;
                }
                let kind = self.kind;
                if still_format {
                    ui.label("format");
                    egui::ComboBox::from_id_salt("export_format")
                        .selected_text(self.kind.label())
                        .show_ui(ui, |ui| {
                            // Textures hold one map each: stills only, no frames.
                            for kind in ImageKind::ALL
                                .into_iter()
                                .filter(|k| !self.animate || !k.is_texture())
                            {
                                ui.selectable_value(&mut self.kind, kind, kind.label());
                            }
                        });
                    ui.end_row();
                }
                if self.kind != kind || (self.animate, self.motion) != before {
                    self.fit_path();
                }

                let names = output_names(graph);
                ui.label("output");
                egui::ComboBox::from_id_salt("export_output")
                    .selected_text(self.output.clone().unwrap_or_else(|| "every output".into()))
                    .show_ui(ui, |ui| {
                        for name in &names {
                            let shown = match graph.output_usage(Some(name)).unwrap_or(Usage::Color)
                            {
                                Usage::Color => name.clone(),
                                usage => format!("{name} ({})", usage.label()),
                            };
                            ui.selectable_value(&mut self.output, Some(name.clone()), shown);
                        }
                        if names.len() > 1 && !self.animate {
                            ui.selectable_value(&mut self.output, None, "every output");
                        }
                    });
                ui.end_row();

                ui.label("file");
                ui.horizontal(|ui| {
                    let typed = ui.add(
                        egui::TextEdit::singleline(&mut self.path)
                            .id(Id::new("export_path"))
                            .desired_width(260.0),
                    );
                    if typed.changed() {
                        self.follow_path();
                    }
                    if ui.button("Browse…").clicked() {
                        let start = PathBuf::from(&self.path);
                        files.choose(ui.ctx(), Purpose::Export, Some(&start));
                    }
                });
                ui.end_row();
            });
        if self.material.is_some() {
            self.material_files(ui, graph);
            return;
        }
        if self.animate && self.output.is_none() {
            self.output = output_names(graph).first().cloned();
        }
        if self.output.is_none() {
            let files: Vec<String> = output_paths(graph, Path::new(&self.path))
                .into_iter()
                .map(|(_, p)| p.display().to_string())
                .collect();
            ui.label(format!("writes {}", files.join(", ")));
        }
    }

    /// The rows of a material export: its format and folder.
    fn material_fields(&mut self, ui: &mut Ui, graph: &Graph) {
        ui.label("format");
        let shown = self
            .material_format
            .map_or("the preset's".to_owned(), |f| f.id().to_uppercase());
        egui::ComboBox::from_id_salt("export_material_format")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.material_format, None, "the preset's");
                for kind in Format::all() {
                    let label = match kind {
                        Format::Dds => "DDS (BC7, BC5, BC4, mips)".to_owned(),
                        Format::Ktx2 => "KTX2 (BC7, BC5, BC4, mips)".to_owned(),
                        other => other.id().to_uppercase(),
                    };
                    ui.selectable_value(&mut self.material_format, Some(kind), label);
                }
            });
        ui.end_row();
        ui.label("maps");
        ui.vertical(|ui| {
            let maps: Vec<String> = graph
                .nodes
                .iter()
                .filter(|n| n.kind == "output")
                .map(|n| {
                    let name = n.output_name();
                    match n.usage() {
                        Usage::Color => format!("{name}: no usage (not part of the material)"),
                        usage => format!("{name}: {}", usage.label()),
                    }
                })
                .collect();
            for map in maps {
                ui.label(texgraph_core::text::printable(&map));
            }
        });
        ui.end_row();
        ui.label("folder");
        ui.add(
            egui::TextEdit::singleline(&mut self.folder)
                .id(Id::new("export_folder"))
                .desired_width(260.0),
        );
        ui.end_row();
    }

    /// What a material export writes, or why it cannot.
    fn material_files(&self, ui: &mut Ui, graph: &Graph) {
        let Some(preset) = self.chosen_preset() else {
            return;
        };
        let settings = self.material_settings();
        match preset_paths(graph, &preset, &settings, Path::new(&self.folder)) {
            Ok(files) => {
                let mut names: Vec<String> = files
                    .iter()
                    .map(|(p, _)| {
                        p.file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                    })
                    .collect();
                if preset.gltf {
                    names.push(format!("{}.gltf", self.graph_name));
                    names.push(format!("{}.bin", self.graph_name));
                }
                ui.label(texgraph_core::text::printable(&format!(
                    "writes {}",
                    names.join(", ")
                )));
            }
            Err(e) => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    texgraph_core::text::printable(&e.to_string()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heavy() -> Graph {
        Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "n", "type": "fbm", "params": { "octaves": 16 } },
                { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
        )
        .unwrap()
    }

    #[test]
    fn a_cancelled_export_writes_nothing_and_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.png");
        std::fs::write(&path, b"keep me").unwrap();
        let job = ExportJob::start(
            heavy(),
            ExportRequest {
                width: 4096,
                height: 4096,
                kind: ImageKind::Png16,
                output: None,
                all_outputs: false,
                path: path.clone(),
                animation: None,
                material: None,
            },
            || {},
        );
        job.cancel();
        let message = job.wait().unwrap_err();
        assert!(message.contains("cancelled"), "{message}");
        assert_eq!(std::fs::read(&path).unwrap(), b"keep me");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp files left"
        );
    }

    /// A 64×64 8-bit PNG of the first output, to `x.png` in `dir`.
    fn small_png(dir: &Path) -> ExportRequest {
        ExportRequest {
            width: 64,
            height: 64,
            kind: ImageKind::Png8,
            output: None,
            all_outputs: false,
            path: dir.join("x.png"),
            animation: None,
            material: None,
        }
    }

    #[test]
    fn an_export_that_panics_is_an_error_and_the_editor_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let request = small_png(dir.path());
        let buggy: ExportFn = |_, _, _| panic!("a bug in the encoder");
        let job = ExportJob::start_with(heavy(), request.clone(), || {}, buggy);
        assert_eq!(
            job.wait().unwrap_err(),
            "the export failed with an internal error (a bug in the encoder); your graph is unchanged"
        );
        // The next export works.
        let job = ExportJob::start(heavy(), request, || {});
        assert_eq!(job.wait().unwrap().len(), 1);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn once_every_row_is_rendered_the_job_says_it_is_encoding() {
        static RELEASE: AtomicBool = AtomicBool::new(false);
        let dir = tempfile::tempdir().unwrap();
        let request = small_png(dir.path());
        // Renders every row at once, then "encodes" until released.
        let slow_encoder: ExportFn = |_, jobs, progress| {
            progress(jobs[0].0.height);
            while !RELEASE.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            Ok(Vec::new())
        };
        let job = ExportJob::start_with(heavy(), request, || {}, slow_encoder);
        while job.progress() < 1.0 {
            std::thread::yield_now();
        }
        assert!(job.encoding());
        assert!(job.poll().is_none(), "still writing");
        RELEASE.store(true, Ordering::Relaxed);
        assert!(job.wait().is_ok());
    }

    #[test]
    fn a_typed_file_name_decides_the_format_shown() {
        let mut dialog = ExportDialog {
            path: "out.exr".into(),
            ..ExportDialog::default()
        };
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::Exr);
        dialog.path = "out.tiff".into();
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::Tiff32, "the depth is kept");
        dialog.path = "out.png".into();
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::Png16);
        dialog.animate = true;
        dialog.path = "fire.gif".into();
        dialog.follow_path();
        assert_eq!(dialog.motion, Motion::Gif);
        dialog.path = "fire.png".into();
        dialog.follow_path();
        assert_eq!(dialog.motion, Motion::Apng);
        dialog.path = "fire_####.exr".into();
        dialog.follow_path();
        assert_eq!(
            (dialog.motion, dialog.kind),
            (Motion::Sequence, ImageKind::Exr)
        );
        let layout = Layout::for_path(&dialog.request().path, None).unwrap();
        assert!(matches!(layout, Layout::Sequence(_)));
    }

    #[test]
    fn a_graph_without_outputs_is_an_error_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let job = ExportJob::start(
            Graph::new(),
            ExportRequest {
                width: 8,
                height: 8,
                kind: ImageKind::Png8,
                output: None,
                all_outputs: true,
                path: dir.path().join("x.png"),
                animation: None,
                material: None,
            },
            || {},
        );
        assert!(job.wait().unwrap_err().contains("no output"));
    }

    #[test]
    fn the_dialog_suggests_a_file_beside_the_graph_and_follows_the_format() {
        let mut dialog = ExportDialog::default();
        let graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "name": "my marble", "nodes": [
                { "id": "out", "type": "output" } ] }"#,
        )
        .unwrap();
        dialog.open_for(&graph, Some(Path::new("/work/graphs/m.json")), false);
        assert_eq!(dialog.path, "/work/graphs/my_marble.png");
        dialog.kind = ImageKind::Exr;
        dialog.preset = None;
        (dialog.width, dialog.height) = (300, 200);
        let request = dialog.request();
        assert_eq!((request.width, request.height), (300, 200));
        assert_eq!(request.output, output_names(&graph).first().cloned());
        assert!(!request.all_outputs);
    }
}
