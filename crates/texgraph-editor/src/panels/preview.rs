//! The preview panel: the graph's output (or a pinned node) as rendered by the worker, with
//! zoom and pan, a 3×3 tiled view, the value under the cursor, a histogram, and time
//! playback for animated graphs.

use std::sync::Arc;

use eframe::egui::{
    self, Color32, ColorImage, Pos2, Rect, Sense, Stroke, TextureHandle, TextureOptions, Ui, Vec2,
    pos2, vec2,
};
use texgraph_core::Image;

/// Preview sizes offered, in pixels.
pub const SIZES: [u32; 5] = [128, 256, 512, 1024, 2048];
/// Bars in the histogram.
const BINS: usize = 48;
/// Seconds of animation the time slider spans.
pub const TIME_RANGE: f32 = 10.0;

/// Statistics of the shown channel: gray, one channel of a color, or a color's Rec. 709
/// luminance when all are shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// What was measured: "" for a gray image, else the channel or "luminance".
    pub of: &'static str,
    /// Smallest value.
    pub min: f32,
    /// Largest value.
    pub max: f32,
    /// Mean value.
    pub mean: f32,
    /// Counts of values in [0, 1] split into equal bins (values outside are clamped in).
    pub bins: Vec<u32>,
}

impl Stats {
    /// The statistics of `channel` of `image` (of its luminance for [`Channel::All`]).
    pub fn of(image: &Image, channel: Channel) -> Self {
        let (of, value): (&'static str, fn(&[f32]) -> f32) = match (image.channels, channel) {
            (4, Channel::All) => ("luminance", |p| {
                0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
            }),
            (4, Channel::Red) => ("red", |p| p[0]),
            (4, Channel::Green) => ("green", |p| p[1]),
            (4, Channel::Blue) => ("blue", |p| p[2]),
            (4, Channel::Alpha) => ("alpha", |p| p[3]),
            // A gray image is opaque: its alpha is 1.
            (_, Channel::Alpha) => ("alpha", |_| 1.0),
            _ => ("", |p| p[0]),
        };
        let mut bins = vec![0u32; BINS];
        let (mut min, mut max, mut sum) = (f32::MAX, f32::MIN, 0.0f64);
        for pixel in image.data.chunks_exact(image.channels.max(1)) {
            let v = value(pixel);
            min = min.min(v);
            max = max.max(v);
            sum += f64::from(v);
            let bin = (v.clamp(0.0, 1.0) * BINS as f32) as usize;
            bins[bin.min(BINS - 1)] += 1;
        }
        let count = (u64::from(image.width) * u64::from(image.height)).max(1) as f64;
        Self {
            of,
            min,
            max,
            mean: (sum / count) as f32,
            bins,
        }
    }
}

/// What the person asked of the preview this frame.
#[derive(Debug, Clone, PartialEq)]
pub enum PreviewAction {
    /// Render again (size, pin or playback time changed).
    Render,
    /// Set the graph's time.
    SetTime(f32),
}

/// The preview's settings and last result.
pub struct Preview {
    /// Render size (square).
    pub size: u32,
    /// Show 3×3 copies to check seams.
    pub tiled: bool,
    /// The node shown instead of the graph's output, whatever is selected.
    pub pinned: Option<String>,
    /// The selected node, shown while nothing is pinned.
    pub following: Option<String>,
    /// The channels shown.
    pub channel: Channel,
    /// The shown image, as egui texture and as rendered values.
    pub texture: Option<TextureHandle>,
    /// The rendered values of the shown image.
    pub image: Option<Arc<Image>>,
    /// The last render's time in milliseconds.
    pub millis: f64,
    /// Statistics of the shown image.
    pub stats: Option<Stats>,
    /// The time shown while the timeline plays or is paused (a frame's time, n / fps);
    /// `None` shows the graph's own time.
    pub playing: Option<f32>,
    /// The timeline's frame range, rate and looping, and whether it runs.
    pub timeline: Timeline,
    /// From the edit to the preview showing it.
    pub latency: Option<std::time::Duration>,
    /// From the edit to its draft showing.
    pub draft_latency: Option<std::time::Duration>,
    /// Whether the image shown is a draft (the full render is on its way).
    pub drafted: bool,
    /// Why the last render failed (nothing is shown then).
    pub error: Option<String>,
    /// What to do to see something, where there is nothing to render yet (a new graph).
    pub hint: Option<String>,
    /// The tallest the image may be drawn, so that it and its statistics fit the part of
    /// the window the preview has.
    pub max_side: f32,
    /// Magnification (1 = fit the panel).
    zoom: f32,
    /// The shown centre, in image widths from the top-left corner.
    center: Vec2,
}

impl Default for Preview {
    fn default() -> Self {
        Self {
            size: 256,
            tiled: false,
            pinned: None,
            following: None,
            channel: Channel::All,
            texture: None,
            image: None,
            millis: 0.0,
            stats: None,
            playing: None,
            timeline: Timeline::default(),
            error: None,
            hint: None,
            latency: None,
            draft_latency: None,
            drafted: false,
            max_side: f32::INFINITY,
            zoom: 1.0,
            center: vec2(0.5, 0.5),
        }
    }
}

/// The preview's timeline: which frames play, how fast, and whether they repeat. Frames
/// are shown at exactly the times an animation export renders them (n / fps).
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// First frame.
    pub first: u32,
    /// One past the last frame.
    pub end: u32,
    /// Frames per second.
    pub fps: f32,
    /// Start again at the first frame after the last (else stop there).
    pub looping: bool,
    /// Whether it advances.
    pub running: bool,
    /// Playback position in frames (fractional between frames).
    pub clock: f32,
}

impl Default for Timeline {
    fn default() -> Self {
        Self {
            first: 0,
            end: 48,
            fps: 24.0,
            looping: true,
            running: false,
            clock: 0.0,
        }
    }
}

impl Timeline {
    /// The frame shown.
    pub fn frame(&self) -> u32 {
        (self.clock.max(0.0) as u32).clamp(self.first, self.end.saturating_sub(1).max(self.first))
    }

    /// A position in frames, kept within the range.
    fn clamp(&self, frames: f32) -> f32 {
        frames.clamp(
            self.first as f32,
            self.end.saturating_sub(1).max(self.first) as f32,
        )
    }

    /// Moves `seconds` on; false when it stopped at the last frame.
    pub fn advance(&mut self, seconds: f32) -> bool {
        let length = self.end.saturating_sub(self.first).max(1) as f32;
        self.clock = self.clamp(self.clock) + seconds * self.fps;
        if self.clock < self.end as f32 {
            return true;
        }
        if self.looping {
            self.clock = self.first as f32 + (self.clock - self.first as f32) % length;
            true
        } else {
            self.clock = (self.end - 1).max(self.first) as f32;
            false
        }
    }
}

/// Which channels of a color image the preview shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// The color, over its alpha.
    All,
    /// Red, as gray.
    Red,
    /// Green, as gray.
    Green,
    /// Blue, as gray.
    Blue,
    /// Alpha, as gray.
    Alpha,
}

impl Channel {
    /// The buttons, in order, with their labels and what they show.
    const BUTTONS: [(Channel, &'static str, &'static str); 5] = [
        (Channel::All, "RGBA", "the color"),
        (Channel::Red, "R", "red alone, as gray"),
        (Channel::Green, "G", "green alone, as gray"),
        (Channel::Blue, "B", "blue alone, as gray"),
        (Channel::Alpha, "A", "alpha alone, as gray"),
    ];
}

/// An image as egui pixels, quantized like an 8-bit export.
pub fn to_color_image(image: &Image) -> ColorImage {
    channel_image(image, Channel::All)
}

/// `channel` of an image as egui pixels, quantized like an 8-bit export: one channel
/// is shown as opaque gray (a gray image is the same in every channel, alpha 1).
pub fn channel_image(image: &Image, channel: Channel) -> ColorImage {
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let pixels = image
        .data
        .chunks_exact(image.channels)
        .map(|p| match (p, channel) {
            (&[_], Channel::Alpha) => Color32::WHITE,
            (&[g], _) => Color32::from_gray(byte(g)),
            (&[r, g, b, a], Channel::All) => {
                Color32::from_rgba_unmultiplied(byte(r), byte(g), byte(b), byte(a))
            }
            (&[r, _, _, _], Channel::Red) => Color32::from_gray(byte(r)),
            (&[_, g, _, _], Channel::Green) => Color32::from_gray(byte(g)),
            (&[_, _, b, _], Channel::Blue) => Color32::from_gray(byte(b)),
            (&[_, _, _, a], Channel::Alpha) => Color32::from_gray(byte(a)),
            _ => Color32::MAGENTA,
        })
        .collect();
    ColorImage::new([image.width as usize, image.height as usize], pixels)
}

impl Preview {
    /// Takes a finished render.
    pub fn show_image(&mut self, ctx: &egui::Context, image: Image, millis: f64) {
        self.millis = millis;
        self.take(ctx, image, false);
    }

    /// Shows a draft: the image at a fraction of the size, drawn as large, until the full
    /// render replaces it.
    pub fn show_draft(&mut self, ctx: &egui::Context, image: Image) {
        self.take(ctx, image, true);
    }

    /// Shows `image` (a draft or the full render) in place of what was shown.
    fn take(&mut self, ctx: &egui::Context, image: Image, drafted: bool) {
        self.drafted = drafted;
        self.image = Some(Arc::new(image));
        self.upload(ctx);
        self.error = None;
        self.hint = None;
    }

    /// Puts the shown channels of the image into the texture, and measures them.
    fn upload(&mut self, ctx: &egui::Context) {
        let Some(image) = &self.image else {
            return;
        };
        self.stats = Some(Stats::of(image, self.channel));
        let pixels = channel_image(image, self.channel);
        match &mut self.texture {
            Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
            None => {
                self.texture = Some(ctx.load_texture("preview", pixels, TextureOptions::LINEAR))
            }
        }
    }

    /// Takes a failed render. The last image that rendered stays, dimmed, under the
    /// error: a formula being typed, or a param on its way through a bad value, does not
    /// blank the view (and the image is still there when the mistake is fixed).
    pub fn show_error(&mut self, message: String) {
        self.error = Some(message);
        self.hint = None;
    }

    /// Shows what to do, where nothing can be rendered yet: no error, as nothing is wrong.
    pub fn show_hint(&mut self, hint: &str) {
        self.texture = None;
        self.image = None;
        self.stats = None;
        self.error = None;
        self.hint = Some(hint.to_owned());
    }

    /// The span of the shown content in image widths (3 when tiled).
    fn span(&self) -> f32 {
        if self.tiled { 3.0 } else { 1.0 }
    }

    /// Back to the whole image, fitted.
    pub fn reset_view(&mut self) {
        self.zoom = 1.0;
        self.center = Vec2::splat(self.span() / 2.0);
    }

    /// Draws the controls and the image. `time` is the graph's time when it has `time`
    /// nodes.
    pub fn show(&mut self, ui: &mut Ui, time: Option<f32>) -> Vec<PreviewAction> {
        let mut actions = Vec::new();
        ui.horizontal_wrapped(|ui| {
            egui::ComboBox::from_id_salt("preview_size")
                .selected_text(format!("{0}×{0}", self.size))
                .show_ui(ui, |ui| {
                    for size in SIZES {
                        if ui
                            .selectable_value(&mut self.size, size, format!("{size}×{size}"))
                            .clicked()
                        {
                            actions.push(PreviewAction::Render);
                        }
                    }
                });
            if ui.checkbox(&mut self.tiled, "3×3 tiles").changed() {
                self.reset_view();
            }
            if ui
                .button("Fit")
                .on_hover_text("zoom to the whole image (or double-click it)")
                .clicked()
            {
                self.reset_view();
            }
        });
        // Channel isolation, as in Substance's 2D view: shown from the rendered values,
        // without rendering again.
        let color = self.image.as_ref().is_some_and(|i| i.channels == 4);
        ui.horizontal(|ui| {
            ui.add_enabled_ui(color, |ui| {
                for (channel, label, hint) in Channel::BUTTONS {
                    if ui
                        .selectable_label(self.channel == channel, label)
                        .on_hover_text(hint)
                        .clicked()
                        && self.channel != channel
                    {
                        self.channel = channel;
                        self.upload(ui.ctx());
                    }
                }
            });
        });
        // Timings on a line of their own, cut short rather than wrapped.
        let ms = |l: std::time::Duration| l.as_secs_f64() * 1e3;
        let shown = match (self.drafted, self.draft_latency, self.latency) {
            (true, Some(draft), _) => format!(" · draft shown {:.0} ms after the edit", ms(draft)),
            (false, Some(draft), Some(full)) => format!(
                " · draft {:.0} ms, full {:.0} ms after the edit",
                ms(draft),
                ms(full)
            ),
            (false, None, Some(full)) => format!(" · shown {:.0} ms after the edit", ms(full)),
            _ => String::new(),
        };
        ui.add(
            egui::Label::new(
                egui::RichText::new(format!("render {:.1} ms{shown}", self.millis)).small(),
            )
            .truncate(),
        );
        if let Some(id) = self.pinned.clone() {
            ui.horizontal(|ui| {
                ui.label(format!("showing node {id}"));
                if ui
                    .button("Unpin")
                    .on_hover_text("follow the selection again")
                    .clicked()
                {
                    self.pinned = None;
                    actions.push(PreviewAction::Render);
                }
            });
        } else if let Some(id) = self.following.clone() {
            ui.horizontal(|ui| {
                ui.label(format!("showing selected node {id}"));
                if ui
                    .button("Pin")
                    .on_hover_text(
                        "keep showing this node whatever is selected (or double-click a node)",
                    )
                    .clicked()
                {
                    self.pinned = Some(id);
                    actions.push(PreviewAction::Render);
                }
            });
        }
        if let Some(time) = time {
            self.time_controls(ui, time, &mut actions);
        }
        if let Some(error) = &self.error {
            // The first line: a formula's mistake is underlined in the inspector, where its
            // text is in a monospace font the caret lines below it need.
            let first = error.lines().next().unwrap_or_default();
            ui.colored_label(
                Color32::from_rgb(230, 90, 80),
                texgraph_core::text::printable(first),
            );
            if self.image.is_some() {
                ui.weak("showing the last image that rendered");
            }
        }
        if let Some(hint) = &self.hint {
            ui.weak(hint);
        }
        self.image_view(ui);
        if let Some(stats) = &self.stats {
            let of = if stats.of.is_empty() {
                String::new()
            } else {
                format!("{}: ", stats.of)
            };
            ui.label(format!(
                "{of}min {:.3}  max {:.3}  mean {:.3}",
                stats.min, stats.max, stats.mean
            ));
            histogram(ui, &stats.bins);
        }
        actions
    }

    fn time_controls(&mut self, ui: &mut Ui, time: f32, actions: &mut Vec<PreviewAction>) {
        let line = &mut self.timeline;
        ui.horizontal(|ui| {
            let label = if line.running { "Pause" } else { "Play" };
            if ui
                .button(label)
                .on_hover_text("play the frame range (frame n at time n / fps)")
                .clicked()
            {
                if !line.running && self.playing.is_none() {
                    line.clock = line.clamp(time * line.fps);
                }
                line.running = !line.running;
                actions.push(PreviewAction::Render);
            }
            if ui
                .add_enabled(self.playing.is_some(), egui::Button::new("Stop"))
                .on_hover_text("back to the graph's own time")
                .clicked()
            {
                line.running = false;
                self.playing = None;
                actions.push(PreviewAction::Render);
            }
            if self.playing.is_some() {
                let last = line.end.saturating_sub(1).max(line.first);
                let mut frame = line.frame();
                let slider = egui::Slider::new(&mut frame, line.first..=last).text("frame");
                if ui.add(slider).changed() {
                    line.running = false;
                    line.clock = frame as f32;
                    actions.push(PreviewAction::Render);
                }
            } else {
                let mut shown = time;
                let slider = egui::Slider::new(&mut shown, 0.0..=TIME_RANGE)
                    .text("time")
                    .clamping(egui::SliderClamping::Never);
                if ui.add(slider).changed() {
                    actions.push(PreviewAction::SetTime(shown));
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("frames");
            ui.add(egui::DragValue::new(&mut line.first).range(0..=100_000));
            ui.label("to");
            ui.add(egui::DragValue::new(&mut line.end).range(1..=100_000))
                .on_hover_text("one past the last frame");
            line.end = line.end.max(line.first + 1);
            ui.add(
                egui::DragValue::new(&mut line.fps)
                    .range(1.0..=240.0)
                    .suffix(" fps"),
            );
            ui.checkbox(&mut line.looping, "loop")
                .on_hover_text("start again at the first frame after the last");
        });
        if self.playing.is_some() || line.running {
            if line.running {
                let dt = ui.input(|i| i.stable_dt).min(0.1);
                line.running = line.advance(dt);
                ui.ctx().request_repaint();
            }
            let shown = Some(line.frame() as f32 / line.fps);
            if self.playing != shown {
                self.playing = shown;
                actions.push(PreviewAction::Render);
            }
        }
    }

    fn image_view(&mut self, ui: &mut Ui) {
        let Some(texture) = self.texture.as_ref().map(TextureHandle::id) else {
            return;
        };
        let side = ui.available_width().min(self.max_side).clamp(64.0, 1024.0);
        let (rect, response) = ui.allocate_exact_size(vec2(side, side), Sense::click_and_drag());
        let span = self.span();
        // Zoom about the pointer, pan by dragging, double-click to fit.
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0
                && let Some(pointer) = response.hover_pos()
            {
                let before = self.content_at(rect, pointer);
                self.zoom = (self.zoom * (scroll / 200.0).exp()).clamp(1.0, 64.0);
                let after = self.content_at(rect, pointer);
                self.center += before - after;
            }
        }
        if response.dragged() {
            self.center -= response.drag_delta() / side * (span / self.zoom);
        }
        if response.double_clicked() {
            self.reset_view();
        }
        let half = span / self.zoom / 2.0;
        self.center = self
            .center
            .clamp(Vec2::splat(half), Vec2::splat(span - half));

        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::from_gray(30));
        let tiles = if self.tiled { 3 } else { 1 };
        let uv = Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0));
        for row in 0..tiles {
            for col in 0..tiles {
                let min = self.screen_at(rect, vec2(col as f32, row as f32));
                let max = self.screen_at(rect, vec2(col as f32 + 1.0, row as f32 + 1.0));
                // The last good image, dimmed while the graph has an error.
                let tint = if self.error.is_some() {
                    Color32::from_gray(90)
                } else {
                    Color32::WHITE
                };
                painter.image(texture, Rect::from_min_max(min, max), uv, tint);
            }
        }
        if let Some(pointer) = response.hover_pos() {
            let content = self.content_at(rect, pointer);
            if let Some(text) = self.value_at(content) {
                let at = rect.left_bottom() + vec2(4.0, -4.0);
                // Wrapped within the image: a small view shows the values on two lines.
                let galley = painter.layout(
                    text,
                    egui::FontId::monospace(12.0),
                    Color32::WHITE,
                    (rect.width() - 14.0).max(40.0),
                );
                let back =
                    Rect::from_min_size(at - vec2(0.0, galley.size().y), galley.size()).expand(3.0);
                painter.rect_filled(back, 2.0, Color32::from_black_alpha(170));
                painter.galley(back.min + vec2(3.0, 3.0), galley, Color32::WHITE);
            }
        }
    }

    /// Content coordinates (image widths) under a screen point.
    fn content_at(&self, rect: Rect, screen: Pos2) -> Vec2 {
        let width = self.span() / self.zoom;
        self.center - Vec2::splat(width / 2.0) + (screen - rect.min) / rect.width() * width
    }

    /// The screen point showing content coordinates `content`.
    fn screen_at(&self, rect: Rect, content: Vec2) -> Pos2 {
        let width = self.span() / self.zoom;
        rect.min + (content - self.center + Vec2::splat(width / 2.0)) / width * rect.width()
    }

    /// "x, y: value" for the pixel at content coordinates `content`.
    fn value_at(&self, content: Vec2) -> Option<String> {
        let image = self.image.as_ref()?;
        if content.x < 0.0
            || content.y < 0.0
            || content.x >= self.span()
            || content.y >= self.span()
        {
            return None;
        }
        let x = ((content.x.fract() * image.width as f32) as u32).min(image.width - 1);
        let y = ((content.y.fract() * image.height as f32) as u32).min(image.height - 1);
        let at = (y as usize * image.width as usize + x as usize) * image.channels;
        let values = image.data.get(at..at + image.channels)?;
        let shown: Vec<String> = values.iter().map(|v| format!("{v:.4}")).collect();
        Some(format!("{x}, {y}: {}", shown.join(" ")))
    }
}

/// The histogram as bars, tallest bar full height.
fn histogram(ui: &mut Ui, bins: &[u32]) {
    let width = ui.available_width().clamp(96.0, 400.0);
    let (rect, _) = ui.allocate_exact_size(vec2(width, 40.0), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(25));
    let top = bins.iter().copied().max().unwrap_or(0).max(1) as f32;
    let bar = rect.width() / bins.len() as f32;
    for (i, &count) in bins.iter().enumerate() {
        let height = count as f32 / top * rect.height();
        let x = rect.left() + i as f32 * bar;
        painter.rect_filled(
            Rect::from_min_max(
                pos2(x, rect.bottom() - height),
                pos2(x + bar - 0.5, rect.bottom()),
            ),
            0.0,
            Color32::from_gray(190),
        );
    }
    painter.rect_stroke(
        rect,
        2.0,
        Stroke::new(1.0, Color32::from_gray(70)),
        egui::StrokeKind::Inside,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_count_every_pixel_and_clamp_outliers_into_the_end_bins() {
        let image = Image {
            width: 2,
            height: 2,
            channels: 1,
            data: vec![-0.5, 0.0, 0.5, 2.0],
        };
        let stats = Stats::of(&image, Channel::All);
        assert_eq!((stats.min, stats.max, stats.mean), (-0.5, 2.0, 0.5));
        assert_eq!(stats.bins.iter().sum::<u32>(), 4);
        assert_eq!(
            (stats.bins[0], stats.bins[BINS / 2], stats.bins[BINS - 1]),
            (2, 1, 1)
        );
    }

    #[test]
    fn stats_measure_the_channel_shown() {
        // Two pixels: (r, g, b, a) = (1, 0, 0, 0.25) and (0, 1, 0, 0.75).
        let image = Image {
            width: 2,
            height: 1,
            channels: 4,
            data: vec![1.0, 0.0, 0.0, 0.25, 0.0, 1.0, 0.0, 0.75],
        };
        let measured = |channel| {
            let s = Stats::of(&image, channel);
            (s.of, s.min, s.max, s.mean)
        };
        assert_eq!(measured(Channel::Red), ("red", 0.0, 1.0, 0.5));
        assert_eq!(measured(Channel::Alpha), ("alpha", 0.25, 0.75, 0.5));
        assert_eq!(measured(Channel::Blue), ("blue", 0.0, 0.0, 0.0));
        assert_eq!(
            measured(Channel::All),
            ("luminance", 0.2126, 0.7152, 0.4639)
        );
        let gray = Image {
            width: 1,
            height: 1,
            channels: 1,
            data: vec![0.3],
        };
        assert_eq!(Stats::of(&gray, Channel::Alpha).mean, 1.0, "gray is opaque");
        assert_eq!(Stats::of(&gray, Channel::Red).mean, 0.3);
    }

    #[test]
    fn a_channel_is_shown_as_its_own_bytes_in_gray() {
        let image = Image {
            width: 2,
            height: 1,
            channels: 4,
            data: vec![0.2, 0.4, 0.6, 0.8, 1.5, -1.0, 0.5, 0.0],
        };
        let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        for (channel, index) in [
            (Channel::Red, 0),
            (Channel::Green, 1),
            (Channel::Blue, 2),
            (Channel::Alpha, 3),
        ] {
            let shown = channel_image(&image, channel);
            for (pixel, px) in shown.pixels.iter().enumerate() {
                let v = byte(image.data[pixel * 4 + index]);
                assert_eq!(*px, Color32::from_gray(v), "{channel:?} {pixel}");
            }
        }
        let all = channel_image(&image, Channel::All);
        assert_eq!(all.pixels, to_color_image(&image).pixels);
        assert_eq!(
            all.pixels[0],
            Color32::from_rgba_unmultiplied(51, 102, 153, 204)
        );
        // A gray image: every channel is the gray, alpha opaque.
        let gray = Image {
            width: 1,
            height: 1,
            channels: 1,
            data: vec![0.4],
        };
        assert_eq!(
            channel_image(&gray, Channel::Red).pixels[0],
            Color32::from_gray(102)
        );
        assert_eq!(
            channel_image(&gray, Channel::Alpha).pixels[0],
            Color32::WHITE
        );
    }

    #[test]
    fn the_value_under_the_cursor_wraps_in_the_tiled_view() {
        let mut preview = Preview {
            image: Some(Arc::new(Image {
                width: 2,
                height: 1,
                channels: 1,
                data: vec![0.25, 0.75],
            })),
            ..Preview::default()
        };
        assert_eq!(
            preview.value_at(vec2(0.7, 0.5)).as_deref(),
            Some("1, 0: 0.7500")
        );
        assert_eq!(preview.value_at(vec2(1.2, 0.5)), None);
        preview.tiled = true;
        assert_eq!(
            preview.value_at(vec2(1.2, 2.5)).as_deref(),
            Some("0, 0: 0.2500")
        );
        let rect = Rect::from_min_size(Pos2::ZERO, vec2(300.0, 300.0));
        preview.reset_view();
        let corner = preview.screen_at(rect, vec2(1.0, 1.0));
        assert!((corner - pos2(100.0, 100.0)).length() < 1e-3);
        assert!((preview.content_at(rect, corner) - vec2(1.0, 1.0)).length() < 1e-4);
    }
}

#[cfg(test)]
mod timeline_tests {
    use super::Timeline;

    #[test]
    fn the_timeline_steps_through_its_frames_and_wraps_or_stops() {
        let mut line = Timeline {
            first: 10,
            end: 14,
            fps: 4.0,
            clock: 10.0,
            ..Timeline::default()
        };
        // Half a second at 4 fps: two frames on.
        assert!(line.advance(0.5));
        assert_eq!(line.frame(), 12);
        // Past the end, a loop starts again at the first frame: 12 + 3 = 15 → 11.
        assert!(line.advance(0.75));
        assert_eq!(line.frame(), 11);
        line.looping = false;
        assert!(!line.advance(10.0), "stops at the last frame");
        assert_eq!(line.frame(), 13);
        // A clock outside the range (the range changed) starts from within it.
        line.first = 20;
        line.end = 30;
        assert!(line.advance(0.0));
        assert_eq!(line.frame(), 20);
    }
}
