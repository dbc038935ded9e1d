//! Animation export: a range of frames, each rendered with `settings.time` = frame / fps,
//! written as a numbered image sequence (`out_####.png`), an animated GIF (`.gif`), an
//! animated PNG (`.png` without `#`), or a sprite sheet (any still format, frames laid out
//! row by row).
//!
//! Every frame is compiled and rendered as a still with that time, so a frame is
//! byte-identical to `texgraph render --time t`. Files are staged and renamed into place
//! only when every frame has been written: a failed or cancelled export leaves all
//! targets as they were.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use web_time::Instant;

use crate::{Clipping, Depth, ExportSettings, Exported, Format};
use texgraph_base::error::{Error, Result};
use texgraph_base::staging;
use texgraph_engine::eval::{Image, render};
use texgraph_graph::compile::compile;
use texgraph_graph::graph::Graph;

/// Most frames one export renders.
pub const MAX_FRAMES: u32 = 10_000;
/// Highest frame rate, in frames per second (APNG stores delays in hundredths of a frame
/// per second, up to 655.35).
pub const MAX_FPS: f64 = 240.0;
/// Largest side of a GIF frame (the format stores sides in 16 bits).
pub const MAX_GIF_SIDE: u32 = 65_535;

/// Which frames to render and how fast they play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frames {
    /// First frame number.
    pub first: u32,
    /// One past the last frame number: `0..48` is 48 frames.
    pub end: u32,
    /// Frames per second; frame n shows time n / fps.
    pub fps: f64,
}

impl Frames {
    /// Frames `first..end` at `fps`, refused when empty, longer than [`MAX_FRAMES`], or
    /// with a frame rate outside (0, [`MAX_FPS`]].
    pub fn new(first: u32, end: u32, fps: f64) -> std::result::Result<Self, String> {
        if !(fps.is_finite() && fps > 0.0 && fps <= MAX_FPS) {
            return Err(format!(
                "a frame rate of {fps} is out of range: more than 0, at most {MAX_FPS}"
            ));
        }
        if end <= first {
            return Err(format!(
                "the frame range {first}..{end} is empty: the end is one past the last frame"
            ));
        }
        if end - first > MAX_FRAMES {
            return Err(format!(
                "the frame range {first}..{end} has {} frames; at most {MAX_FRAMES} are rendered at once",
                end - first
            ));
        }
        Ok(Self { first, end, fps })
    }

    /// Parses `first..end` (end exclusive, as in `0..48`).
    pub fn parse(range: &str, fps: f64) -> std::result::Result<Self, String> {
        let (first, end) = range
            .split_once("..")
            .ok_or_else(|| format!("'{range}' is not a frame range like 0..48"))?;
        let number = |text: &str| {
            text.trim().parse::<u32>().map_err(|_| {
                format!(
                    "'{text}' in '{range}' is not a frame number (0 to {})",
                    u32::MAX
                )
            })
        };
        Self::new(number(first)?, number(end)?, fps)
    }

    /// How many frames there are.
    pub fn count(&self) -> u32 {
        self.end - self.first
    }

    /// The frame numbers, in order.
    pub fn numbers(&self) -> std::ops::Range<u32> {
        self.first..self.end
    }

    /// The time frame `frame` shows, in seconds.
    pub fn time(&self, frame: u32) -> f32 {
        (f64::from(frame) / self.fps) as f32
    }
}

/// How an animation is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One file per frame; the run of `#` in the file name becomes the frame number.
    Sequence(Format),
    /// An animated GIF that loops forever.
    Gif,
    /// An animated PNG (APNG) that loops forever.
    Apng,
    /// One still image holding the frames in a grid of `columns` × `rows`, row by row.
    Sheet {
        /// Frames across.
        columns: u32,
        /// Frames down.
        rows: u32,
        /// The still format.
        format: Format,
    },
}

impl Layout {
    /// The layout `path` asks for: a `#` in the file name makes a sequence, `.gif` a GIF,
    /// `.png` an APNG; `sheet` (columns, rows) makes a sprite sheet in any still format.
    pub fn for_path(path: &Path, sheet: Option<(u32, u32)>) -> Result<Self> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let numbered = name.contains('#');
        let gif = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gif"));
        let refuse = |message: &str| Error::Export {
            path: path.to_owned(),
            message: message.to_owned(),
        };
        // Frames are stills of their own; a texture holds one map and its mips.
        let image_format = || match Format::from_path(path)? {
            format if format.is_texture() => Err(refuse(
                "frames are written as .png, .exr, .tif or .tiff images (DDS and KTX2 hold one map)",
            )),
            format => Ok(format),
        };
        match sheet {
            Some(_) if numbered || gif => Err(refuse(
                "a sprite sheet is one still image: name it without # and as .png, .exr, .tif or .tiff",
            )),
            Some((columns, rows)) => Ok(Layout::Sheet {
                columns,
                rows,
                format: image_format()?,
            }),
            None if gif && numbered => {
                Err(refuse("a GIF holds every frame itself: name it without #"))
            }
            None if gif => Ok(Layout::Gif),
            None if numbered => Ok(Layout::Sequence(image_format()?)),
            None => match Format::from_path(path) {
                Ok(Format::Png) => Ok(Layout::Apng),
                Ok(_) | Err(_) => Err(refuse(
                    "frames go to a numbered sequence (out_####.png, .exr, .tif), a .gif, an animated .png, or a sheet (--sheet)",
                )),
            },
        }
    }
}

/// The file of frame `frame` of a sequence named `pattern`: the last run of `#` in the
/// file name becomes the frame number, zero-padded to the run's length.
pub fn frame_path(pattern: &Path, frame: u32) -> PathBuf {
    let name = pattern
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(end) = name.rfind('#').map(|i| i + 1) else {
        return pattern.to_owned();
    };
    let start = name[..end].trim_end_matches('#').len();
    let numbered = format!(
        "{}{frame:0width$}{}",
        &name[..start],
        &name[end..],
        width = end - start
    );
    pattern.with_file_name(numbered)
}

/// Renders `frames` of `graph` and writes them to `path` in `layout`, with `settings`'
/// size, depth, output and render options. `progress` gets the rows finished over all
/// frames. Returns what was written (one entry per file).
pub fn export_animation(
    graph: &Graph,
    frames: &Frames,
    layout: Layout,
    path: &Path,
    settings: &ExportSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Exported>> {
    check_layout(layout, frames, path, settings)?;
    // Frames differ only in time, a value: the first frame's compile reports every graph
    // error, and what its render needs, each frame's does. The others are compiled one
    // at a time as they are rendered, so a long range never holds more than one program
    // (with its decoded images).
    let at = |frame: u32| {
        let mut at = graph.clone();
        at.settings.time = frames.time(frame);
        compile(&at, settings.output.as_deref())
    };
    let mut first = Some(at(frames.first)?);
    let program = first.as_ref().expect("just compiled");
    let threads = settings.options.thread_count();
    crate::check_memory(program, settings.width, settings.height, threads)?;
    let start = Instant::now();
    let height = u64::from(settings.height);
    let mut render_frame = |index: usize| -> Result<Image> {
        let program = match first.take() {
            Some(program) => program,
            None => at(frames.first + index as u32)?,
        };
        let before = index as u64 * height;
        let rows = |r: u32| progress(before + u64::from(r));
        let (w, h) = (settings.width, settings.height);
        render(&program, w, h, settings.options.clone(), &rows)
    };
    let count = frames.count() as usize;
    match layout {
        Layout::Sequence(format) => {
            let mut staged = Vec::with_capacity(count);
            let mut written = Vec::with_capacity(count);
            for (index, frame) in frames.numbers().enumerate() {
                let target = frame_path(path, frame);
                let began = Instant::now();
                let image = render_frame(index)?;
                staged.push(crate::stage_image(&image, &target, format, settings.depth)?);
                let seconds = began.elapsed().as_secs_f64();
                let clipping = Clipping::of(&image, settings.depth);
                written.push(exported(&target, &image, settings.depth, seconds, clipping));
            }
            staging::commit_all(staged)?;
            Ok(written)
        }
        Layout::Gif | Layout::Apng => {
            let mut last = None;
            let mut clipping = Clipping::default();
            let staged = staging::stage(path, |file| {
                let mut out = BufWriter::new(file);
                let fail = |message: String| Error::Export {
                    path: path.to_owned(),
                    message,
                };
                let mut writer = if layout == Layout::Gif {
                    Moving::gif(&mut out, settings, frames).map_err(fail)?
                } else {
                    Moving::apng(&mut out, settings, frames).map_err(fail)?
                };
                for index in 0..count {
                    let image = render_frame(index)?;
                    clipping = clipping.and(Clipping::of(&image, Depth::Eight));
                    writer.frame(&image).map_err(fail)?;
                    last = Some(image);
                }
                writer.finish().map_err(fail)?;
                out.flush().map_err(|e| fail(e.to_string()))
            })?;
            staged.commit()?;
            let image = last.expect("a frame range is never empty");
            let seconds = start.elapsed().as_secs_f64();
            Ok(vec![exported(
                path,
                &image,
                Depth::Eight,
                seconds,
                clipping,
            )])
        }
        Layout::Sheet {
            columns,
            rows,
            format,
        } => {
            let (w, h) = (settings.width, settings.height);
            let mut sheet: Option<Image> = None;
            for index in 0..count {
                let image = render_frame(index)?;
                let sheet = match &mut sheet {
                    Some(sheet) => sheet,
                    None => sheet.insert(blank_sheet(columns * w, rows * h, image.channels, path)?),
                };
                let (column, row) = (index as u32 % columns, index as u32 / columns);
                blit(sheet, &image, column * w, row * h);
            }
            let sheet = sheet.expect("a frame range is never empty");
            crate::stage_image(&sheet, path, format, settings.depth)?.commit()?;
            let seconds = start.elapsed().as_secs_f64();
            let clipping = Clipping::of(&sheet, settings.depth);
            Ok(vec![exported(
                path,
                &sheet,
                settings.depth,
                seconds,
                clipping,
            )])
        }
    }
}

/// Refuses layouts that cannot hold the frames: depths the format lacks, GIFs past their
/// size limit, sheets with too few cells or too many pixels.
fn check_layout(
    layout: Layout,
    frames: &Frames,
    path: &Path,
    settings: &ExportSettings,
) -> Result<()> {
    let refuse = |message: String| {
        Err(Error::Export {
            path: path.to_owned(),
            message,
        })
    };
    let depth = settings.depth;
    if let Layout::Sequence(_) | Layout::Sheet { .. } = layout {
        crate::checked_format(path, depth)?;
    }
    match layout {
        Layout::Gif | Layout::Apng if depth != Depth::Eight => refuse(format!(
            "animated GIF and PNG are written at 8 bits, not {}; use a numbered sequence for deeper frames",
            depth.bits()
        )),
        Layout::Gif if settings.width > MAX_GIF_SIDE || settings.height > MAX_GIF_SIDE => {
            refuse(format!(
                "a GIF frame is at most {MAX_GIF_SIDE} pixels a side, not {}x{}",
                settings.width, settings.height
            ))
        }
        Layout::Sheet { columns, rows, .. } => {
            let cells = u64::from(columns) * u64::from(rows);
            if cells < u64::from(frames.count()) {
                return refuse(format!(
                    "a {columns}x{rows} sheet has {cells} cells for {} frames",
                    frames.count()
                ));
            }
            let side = |frames: u32, pixels: u32| u64::from(frames) * u64::from(pixels);
            let (w, h) = (side(columns, settings.width), side(rows, settings.height));
            if w > u64::from(u32::MAX) || h > u64::from(u32::MAX) {
                return refuse(format!("a {w}x{h} sheet is too large"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// An empty (transparent black) sheet of `width` × `height`.
fn blank_sheet(width: u32, height: u32, channels: usize, path: &Path) -> Result<Image> {
    let len = texgraph_engine::eval::image_bytes(width, height, channels)
        .and_then(|bytes| usize::try_from(bytes / 4).ok());
    let data = len
        .and_then(|len| texgraph_base::memory::try_collect(len, std::iter::repeat_n(0.0f32, len)))
        .ok_or_else(|| Error::Export {
            path: path.to_owned(),
            message: format!("not enough memory for a {width}x{height} sheet"),
        })?;
    Ok(Image {
        width,
        height,
        channels,
        data,
    })
}

/// Copies `frame` into `sheet` with its top-left corner at (`x`, `y`).
fn blit(sheet: &mut Image, frame: &Image, x: u32, y: u32) {
    let c = frame.channels;
    let row_len = frame.width as usize * c;
    for (r, row) in frame.data.chunks_exact(row_len).enumerate() {
        let start = ((y as usize + r) * sheet.width as usize + x as usize) * c;
        sheet.data[start..start + row_len].copy_from_slice(row);
    }
}

/// What was written to `path`, taking `seconds` to render and encode, with what it clamped.
fn exported(
    path: &Path,
    image: &Image,
    depth: Depth,
    seconds: f64,
    clipping: Clipping,
) -> Exported {
    Exported {
        path: path.to_owned(),
        width: image.width,
        height: image.height,
        channels: image.channels,
        depth,
        seconds,
        clipping,
    }
}

/// An animated-file encoder taking 8-bit frames one at a time.
enum Moving<W: Write> {
    Gif(gif::Encoder<W>, u16),
    Apng(png::Writer<W>),
}

impl<W: Write> Moving<W> {
    /// A looping GIF; its delays are whole hundredths of a second (the format's unit),
    /// the nearest to 1 / fps.
    fn gif(
        out: W,
        settings: &ExportSettings,
        frames: &Frames,
    ) -> std::result::Result<Self, String> {
        let (w, h) = (settings.width as u16, settings.height as u16);
        let mut encoder = gif::Encoder::new(out, w, h, &[]).map_err(|e| e.to_string())?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        let delay = (100.0 / frames.fps).round().clamp(1.0, f64::from(u16::MAX)) as u16;
        Ok(Moving::Gif(encoder, delay))
    }

    /// A looping APNG; each frame shows for 1 / fps seconds (to 1/100 frame per second).
    fn apng(
        out: W,
        settings: &ExportSettings,
        frames: &Frames,
    ) -> std::result::Result<Self, String> {
        let text = |e: png::EncodingError| e.to_string();
        let mut encoder = png::Encoder::new(out, settings.width, settings.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_animated(frames.count(), 0).map_err(text)?;
        let per_second = (frames.fps * 100.0).round().clamp(1.0, f64::from(u16::MAX)) as u16;
        encoder.set_frame_delay(100, per_second).map_err(text)?;
        Ok(Moving::Apng(encoder.write_header().map_err(text)?))
    }

    /// Appends one frame.
    fn frame(&mut self, image: &Image) -> std::result::Result<(), String> {
        let mut rgba = crate::rgba8(image)?;
        match self {
            Moving::Gif(encoder, delay) => {
                let (w, h) = (image.width as u16, image.height as u16);
                let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
                frame.delay = *delay;
                encoder.write_frame(&frame).map_err(|e| e.to_string())
            }
            Moving::Apng(writer) => writer.write_image_data(&rgba).map_err(|e| e.to_string()),
        }
    }

    /// Ends the file.
    fn finish(self) -> std::result::Result<(), String> {
        match self {
            Moving::Gif(encoder, _) => encoder.into_inner().map(drop).map_err(|e| e.to_string()),
            Moving::Apng(writer) => writer.finish().map_err(|e| e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_numbers_replace_the_last_run_of_hashes() {
        let path = |p: &str, frame| frame_path(Path::new(p), frame);
        assert_eq!(path("out/f_####.png", 7), Path::new("out/f_0007.png"));
        assert_eq!(
            path("a#/take#2_##_x.exr", 3),
            Path::new("a#/take#2_03_x.exr")
        );
        assert_eq!(path("f_#.png", 12345), Path::new("f_12345.png"));
    }

    #[test]
    fn frame_times_are_frame_over_fps() {
        let frames = Frames::parse(" 12 .. 15", 24.0).unwrap();
        assert_eq!((frames.count(), frames.numbers()), (3, 12..15));
        assert_eq!(frames.time(12), 0.5);
        assert_eq!(
            Frames::parse("0..3", 29.97).unwrap().time(2),
            (2.0 / 29.97) as f32
        );
    }

    #[test]
    fn layouts_follow_the_file_name() {
        let layout = |p: &str, sheet| Layout::for_path(Path::new(p), sheet);
        assert_eq!(
            layout("f_##.tif", None).unwrap(),
            Layout::Sequence(Format::Tiff)
        );
        assert_eq!(layout("a.GIF", None).unwrap(), Layout::Gif);
        assert_eq!(layout("a.png", None).unwrap(), Layout::Apng);
        assert_eq!(
            layout("s.exr", Some((4, 2))).unwrap(),
            Layout::Sheet {
                columns: 4,
                rows: 2,
                format: Format::Exr
            }
        );
        assert!(layout("s_##.png", Some((4, 2))).is_err());
        assert!(layout("a.exr", None).is_err());
    }
}
