//! The export dialog. Its fields make the core's [`ExportRequest`], the one `texgraph
//! render` makes from its flags, and [`ExportJob`] runs it, so an export is byte-identical
//! to the CLI's files for the same settings.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Id, Ui};
use texgraph_core::animation::Frames;
use texgraph_core::export::material::{MaterialSettings, preset_paths};
use texgraph_core::export::presets::{Preset, built_in};
use texgraph_core::export::{
    Depth, Exported, Format, default_image_name, file_stem_for, output_paths,
};
use texgraph_core::usage::Usage;
use texgraph_core::{
    AnimationExport, ExportRequest, Graph, MaterialExport, RenderOptions, StillExport, output_names,
};

use super::export_choices::{Choice, Choices, ExportKind};
use crate::files::{Files, Purpose};
use crate::jobs::export::ExportJob;

/// What the progress bar says once every row is rendered and the file is being written.
pub const ENCODING: &str = "encoding and writing…";
/// The progress bar's width: the window keeps its size while an export runs.
const PROGRESS_WIDTH: f32 = 280.0;
/// The preset menu's greatest height, in points.
const PRESET_LIST_HEIGHT: f32 = 420.0;

/// Square sizes offered (custom sizes are typed).
pub const SIZE_PRESETS: [u32; 6] = [256, 512, 1024, 2048, 4096, 8192];

/// A file format and depth offered in the dialog: each image format of the core's
/// [`Format`] table at each depth it holds, and each texture format once (its depth
/// follows each map's usage, as `texgraph render -o x.dds` without `--depth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageKind {
    /// The format.
    pub format: Format,
    /// Bits per channel; `None` for textures.
    pub depth: Option<Depth>,
}

impl ImageKind {
    /// PNG, 8 bits per channel.
    pub const PNG8: ImageKind = ImageKind::image(Format::Png, Depth::Eight);
    /// PNG, 16 bits per channel.
    pub const PNG16: ImageKind = ImageKind::image(Format::Png, Depth::Sixteen);
    /// OpenEXR, 32-bit float.
    pub const EXR: ImageKind = ImageKind::image(Format::Exr, Depth::Float);
    /// TIFF, 8 bits per channel.
    pub const TIFF8: ImageKind = ImageKind::image(Format::Tiff, Depth::Eight);
    /// TIFF, 32-bit float.
    pub const TIFF32: ImageKind = ImageKind::image(Format::Tiff, Depth::Float);

    const fn image(format: Format, depth: Depth) -> Self {
        Self {
            format,
            depth: Some(depth),
        }
    }

    /// Every kind, in the table's order.
    fn all() -> impl Iterator<Item = ImageKind> {
        Format::all().flat_map(|format| {
            let depths: Vec<Option<Depth>> = if format.is_texture() {
                vec![None]
            } else {
                format.depths().iter().copied().map(Some).collect()
            };
            depths
                .into_iter()
                .map(move |depth| ImageKind { format, depth })
        })
    }

    fn label(self) -> String {
        match self.depth {
            None => format!("{} texture (BC7/BC5/BC4, mips)", self.format.name()),
            Some(Depth::Float) => format!("{} 32-bit float", self.format.name()),
            Some(depth) => format!("{} {}-bit", self.format.name(), depth.bits()),
        }
    }

    /// Whether this is a game texture, one map with its mips (no animation frames).
    pub fn is_texture(self) -> bool {
        self.format.is_texture()
    }

    /// The depth asked for; `None` for textures, whose depth follows each map's usage.
    pub fn depth(self) -> Option<Depth> {
        self.depth
    }

    fn extension(self) -> &'static str {
        self.format.id()
    }

    /// The kind a file name's extension writes, keeping this one's depth where the
    /// format holds it (else the deepest it holds; a texture's: the format's own); `None`
    /// for an extension that is no image format.
    fn for_extension(self, extension: &str) -> Option<Self> {
        let format = Format::parse(extension)?;
        if format.is_texture() {
            return Some(ImageKind {
                format,
                depth: None,
            });
        }
        let deepest = format.depths().iter().copied().max_by_key(|d| d.bits());
        let depth = match self.depth {
            Some(depth) if format.supports(depth) => depth,
            Some(_) => deepest.unwrap_or(format.default_depth()),
            None => format.default_depth(),
        };
        Some(ImageKind::image(format, depth))
    }
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
    /// What the last export wrote other than rendered: samples clamped into an integer
    /// depth, one line a file.
    pub warnings: Vec<String>,
    /// Every file the running export writes, as its request lists them (a material's maps
    /// and its glTF scene and buffer).
    pub listed: Vec<PathBuf>,
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
    /// The graph file exported (`None` before it is saved).
    pub graph_path: Option<PathBuf>,
    /// The size and format last chosen for each graph and kind of export.
    pub choices: Choices<ImageKind>,
}

impl Default for ExportDialog {
    fn default() -> Self {
        Self {
            open: false,
            preset: Some(1024),
            width: 1024,
            height: 1024,
            kind: ImageKind::PNG8,
            output: None,
            path: String::new(),
            job: None,
            message: String::new(),
            warnings: Vec::new(),
            listed: Vec::new(),
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
            graph_path: None,
            choices: Choices::default(),
        }
    }
}

impl ExportDialog {
    /// Opens the dialog, suggesting a file beside the graph named after it. `animated`:
    /// the graph moves with time, so a first export of it writes an animation.
    pub fn open_for(&mut self, graph: &Graph, graph_path: Option<&Path>, animated: bool) {
        self.open = true;
        self.graph_path = graph_path.map(Path::to_path_buf);
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
    pub fn follow_timeline(&mut self, timeline: &crate::panels::preview::Timeline) {
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
        self.warnings.clear();
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

    /// Width and height chosen.
    fn size(&self) -> (u32, u32) {
        match self.preset {
            Some(side) => (side, side),
            None => (self.width, self.height),
        }
    }

    /// The request the dialog's fields make for `graph`, or why they make none.
    pub fn request(&self, graph: &Graph) -> Result<ExportRequest, String> {
        let size = self.size();
        if let Some(preset) = self.chosen_preset() {
            return Ok(ExportRequest::Material(MaterialExport {
                preset,
                format: self.material_format,
                graph_name: self.graph_name.clone(),
                folder: PathBuf::from(&self.folder),
                size,
                also: Vec::new(),
            }));
        }
        let path = PathBuf::from(&self.path);
        if self.animate {
            return Ok(ExportRequest::Animation(AnimationExport {
                frames: Frames::new(self.first, self.end, self.fps)?,
                out: path,
                sheet: (self.motion == Motion::Sheet).then_some(self.sheet),
                output: self.output.clone(),
                size,
                // GIF and APNG are 8-bit (as the CLI's default for them).
                depth: match self.motion {
                    Motion::Gif | Motion::Apng => Some(Depth::Eight),
                    Motion::Sequence | Motion::Sheet => self.kind.depth(),
                },
            }));
        }
        Ok(ExportRequest::Still(StillExport::to_file(
            graph,
            &path,
            self.output.as_deref(),
            self.output.is_none(),
            size,
            self.kind.depth(),
        )))
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
        let (width, height) = self.size();
        MaterialSettings {
            width,
            height,
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
            let seconds = self.job.take().map_or(0.0, |j| j.seconds());
            self.warnings = outcome.as_ref().map_or_else(
                |_| Vec::new(),
                |written| written.iter().filter_map(Exported::clip_warning).collect(),
            );
            self.message = match outcome {
                Ok(written) => {
                    // The request's list: what the export wrote beside its images too.
                    let mut files: Vec<PathBuf> = written.iter().map(|w| w.path.clone()).collect();
                    for path in std::mem::take(&mut self.listed) {
                        if !files.contains(&path) {
                            files.push(path);
                        }
                    }
                    format!(
                        "wrote {} in {seconds:.2} s",
                        files
                            .iter()
                            .map(|p| p.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
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
                self.follow_choices();
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
                    ui.label(texgraph_core::text::printable(&self.message));
                }
                for warning in &self.warnings {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        texgraph_core::text::printable(&format!("warning: {warning}")),
                    );
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

    /// What kind of export the dialog is set to.
    fn export_kind(&self) -> ExportKind {
        match (self.material.is_some(), self.animate) {
            (true, _) => ExportKind::Material,
            (false, true) => ExportKind::Animation,
            (false, false) => ExportKind::Still,
        }
    }

    /// Keeps the size and format per graph and kind: switching kind (or graph) brings
    /// back what was chosen for it, or the dialog's defaults.
    fn follow_choices(&mut self) {
        let current = Choice {
            preset: self.preset,
            width: self.width,
            height: self.height,
            kind: self.kind,
        };
        let defaults = Self::default();
        let fresh = Choice {
            preset: defaults.preset,
            width: defaults.width,
            height: defaults.height,
            kind: self.kind,
        };
        let now = (self.graph_path.clone(), self.export_kind());
        let shown = self.choices.follow(now, current, fresh);
        if shown != current {
            (self.preset, self.width, self.height) = (shown.preset, shown.width, shown.height);
            if shown.kind != self.kind && !(self.animate && shown.kind.is_texture()) {
                self.kind = shown.kind;
                self.fit_path();
            }
        }
    }

    /// The files the dialog's settings write.
    pub fn targets(&self, graph: &Graph) -> Vec<PathBuf> {
        self.request(graph)
            .map(|request| request.files(graph))
            .unwrap_or_default()
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
                    // Tall enough for every built-in preset and a few of the user's
                    // without scrolling.
                    .height(PRESET_LIST_HEIGHT)
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
                    self.kind = ImageKind::PNG8;
                }
                let kind = self.kind;
                if still_format {
                    ui.label("format");
                    egui::ComboBox::from_id_salt("export_format")
                        .selected_text(self.kind.label())
                        .show_ui(ui, |ui| {
                            // Textures hold one map each: stills only, no frames.
                            for kind in
                                ImageKind::all().filter(|k| !self.animate || !k.is_texture())
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
            let preset = self
                .material
                .as_deref()
                .and_then(|name| texgraph_core::export::presets::find(&self.presets, name));
            for (map, carried) in preset_maps(graph, preset) {
                let text = texgraph_core::text::printable(&map);
                if carried {
                    ui.label(text);
                } else {
                    ui.colored_label(crate::panels::canvas::AMBER, text);
                }
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

/// Each output of `graph` in words, for the material fields: its usage, and whether
/// `preset` writes it (false: said in the text, as a preset with no place for a map, such
/// as glTF for a height map, leaves it out).
pub fn preset_maps(graph: &Graph, preset: Option<&Preset>) -> Vec<(String, bool)> {
    let read: Vec<Usage> = preset
        .map(|p| p.files.iter().flat_map(|f| f.usages()).collect())
        .unwrap_or_default();
    graph
        .nodes
        .iter()
        .filter(|n| n.kind == "output")
        .map(|n| {
            let name = n.output_name();
            match (n.usage(), preset) {
                (Usage::Color, _) => (format!("{name}: no usage (not part of the material)"), true),
                (usage, Some(preset)) if !read.contains(&usage) => (
                    format!(
                        "{name}: {}: not written, the {} preset has no place for it \
                         (export it as an image)",
                        usage.label(),
                        preset.name
                    ),
                    false,
                ),
                (usage, _) => (format!("{name}: {}", usage.label()), true),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use texgraph_core::animation::Layout;

    #[test]
    fn a_map_the_preset_cannot_carry_is_named_as_not_written() {
        let graph = Graph::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs/brick_wall.json"),
        )
        .unwrap();
        let presets = built_in();
        let maps =
            |name: &str| preset_maps(&graph, texgraph_core::export::presets::find(&presets, name));
        let gltf = maps("gltf");
        let left_out: Vec<&str> = gltf
            .iter()
            .filter(|(_, carried)| !carried)
            .map(|(text, _)| text.as_str())
            .collect();
        assert_eq!(
            left_out,
            [
                "height: Height: not written, the gltf preset has no place for it (export it as an image)"
            ]
        );
        // Every map of the graph is listed, carried or not.
        assert_eq!(gltf.len(), 5);
        // A preset with a height slot writes it.
        assert!(
            maps("unreal").iter().all(|(_, carried)| *carried),
            "{:?}",
            maps("unreal")
        );
    }

    #[test]
    fn a_typed_file_name_decides_the_format_shown() {
        let mut dialog = ExportDialog {
            path: "out.exr".into(),
            ..ExportDialog::default()
        };
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::EXR);
        dialog.path = "out.tiff".into();
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::TIFF32, "the depth is kept");
        dialog.path = "out.png".into();
        dialog.follow_path();
        assert_eq!(dialog.kind, ImageKind::PNG16);
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
            (Motion::Sequence, ImageKind::EXR)
        );
        let graph = Graph::new();
        let Ok(ExportRequest::Animation(animation)) = dialog.request(&graph) else {
            panic!("frames are exported as an animation");
        };
        let layout = Layout::for_path(&animation.out, None).unwrap();
        assert!(matches!(layout, Layout::Sequence(_)));
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
        dialog.kind = ImageKind::EXR;
        dialog.fit_path();
        dialog.preset = None;
        (dialog.width, dialog.height) = (300, 200);
        let Ok(ExportRequest::Still(still)) = dialog.request(&graph) else {
            panic!("a still");
        };
        assert_eq!(still.size, (300, 200));
        assert_eq!(
            still.files,
            vec![(
                output_names(&graph).first().cloned(),
                PathBuf::from("/work/graphs/my_marble.exr")
            )],
            "the output chosen, to the file shown"
        );
        assert_eq!(still.depth, Some(Depth::Float));
    }
}
