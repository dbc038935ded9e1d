//! The preview panel: the graph's output (or a pinned node) as rendered by the worker.

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions, Ui};
use texgraph_core::Image;

/// Preview sizes offered, in pixels.
pub const SIZES: [u32; 4] = [128, 256, 512, 1024];

/// The preview's settings and last result.
pub struct Preview {
    /// Render size (square).
    pub size: u32,
    /// Show 3×3 copies to check seams.
    pub tiled: bool,
    /// The shown image.
    pub texture: Option<TextureHandle>,
    /// The last render's time in milliseconds.
    pub millis: f64,
    /// min, max and mean of the shown image's first channel.
    pub stats: Option<[f32; 3]>,
}

impl Default for Preview {
    fn default() -> Self {
        Self {
            size: 256,
            tiled: false,
            texture: None,
            millis: 0.0,
            stats: None,
        }
    }
}

/// An image as egui pixels, quantized like an 8-bit export.
pub fn to_color_image(image: &Image) -> ColorImage {
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let pixels = image
        .data
        .chunks_exact(image.channels)
        .map(|p| match *p {
            [g] => Color32::from_gray(byte(g)),
            [r, g, b, a] => Color32::from_rgba_unmultiplied(byte(r), byte(g), byte(b), byte(a)),
            _ => Color32::MAGENTA,
        })
        .collect();
    ColorImage::new([image.width as usize, image.height as usize], pixels)
}

impl Preview {
    /// Takes a finished render.
    pub fn show_image(&mut self, ctx: &egui::Context, image: &Image, millis: f64) {
        let pixels = to_color_image(image);
        match &mut self.texture {
            Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
            None => {
                self.texture = Some(ctx.load_texture("preview", pixels, TextureOptions::LINEAR))
            }
        }
        self.millis = millis;
        let first = image.data.iter().step_by(image.channels);
        let (min, max, sum) = first.fold((f32::MAX, f32::MIN, 0.0f64), |(lo, hi, s), v| {
            (lo.min(*v), hi.max(*v), s + f64::from(*v))
        });
        let count = (image.width * image.height) as f64;
        self.stats = Some([min, max, (sum / count) as f32]);
    }

    /// Draws the controls and the image; true when the size changed (a new render is needed).
    pub fn show(&mut self, ui: &mut Ui) -> bool {
        let mut resized = false;
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("preview_size")
                .selected_text(format!("{0}×{0}", self.size))
                .show_ui(ui, |ui| {
                    for size in SIZES {
                        if ui
                            .selectable_value(&mut self.size, size, format!("{size}×{size}"))
                            .clicked()
                        {
                            resized = true;
                        }
                    }
                });
            ui.checkbox(&mut self.tiled, "3×3 tiles");
            ui.label(format!("{:.1} ms", self.millis));
        });
        if let Some([min, max, mean]) = self.stats {
            ui.label(format!("min {min:.3}  max {max:.3}  mean {mean:.3}"));
        }
        if let Some(texture) = &self.texture {
            let side = ui.available_width().min(ui.available_height()).max(64.0);
            if self.tiled {
                let cell = side / 3.0;
                egui::Grid::new("tiles").spacing([0.0, 0.0]).show(ui, |ui| {
                    for _ in 0..3 {
                        for _ in 0..3 {
                            ui.add(
                                egui::Image::new(texture).fit_to_exact_size(egui::vec2(cell, cell)),
                            );
                        }
                        ui.end_row();
                    }
                });
            } else {
                ui.add(egui::Image::new(texture).fit_to_exact_size(egui::vec2(side, side)));
            }
        }
        resized
    }
}
