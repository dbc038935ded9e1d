//! Image files written band by band: PNG (8 or 16 bits) through the `png` crate's stream
//! writer, TIFF in strips (BigTIFF past 4 GiB) and EXR in scan-line blocks. Each writer
//! takes its rows one at a time whatever bands they come in, so a file's bytes do not
//! depend on how the render was cut: a whole image written at once and the same image
//! streamed band by band are the same file. DDS and KTX2 textures gather their bands into
//! the whole image, from which their mip chain is filtered.

use std::io::{Seek, Write};
use std::ops::Deref;

use rayon::prelude::*;

use crate::block_format::BlockFormat;
use crate::{Depth, Format, decoded_srgb, eight_bit, float_rgba, sixteen_bit};
use texgraph_engine::eval::Image;
use texgraph_engine::usage::Encoding;

/// The keyword (PNG), attribute (EXR) or tag (TIFF's ImageDescription) holding a
/// file's [`FileSpec::note`].
pub const NOTE_KEY: &str = "texgraph";

/// What a streamed file holds.
#[derive(Debug, Clone)]
pub struct FileSpec {
    /// The file format.
    pub format: Format,
    /// Bits per channel (suited to the format).
    pub depth: Depth,
    /// What the samples are (sRGB colors are decoded for EXR and float TIFF, tagged in
    /// PNG).
    pub encoding: Encoding,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 1 (gray) or 4 (RGBA).
    pub channels: usize,
    /// Text stored with the image (a region's place in the full render), if any.
    pub note: Option<String>,
    /// How a DDS or KTX2 texture stores the map (`None` for the other formats).
    pub block: Option<BlockFormat>,
}

/// Writes the file `spec` describes to `out`, its rows taken from `next`, which hands
/// out bands of whole rows, top to bottom, and `None` when it has no more (an error
/// unless every row was given).
pub fn write<B: Deref<Target = Image>>(
    out: &mut (impl Write + Seek),
    spec: &FileSpec,
    next: &mut dyn FnMut() -> Option<B>,
) -> Result<(), String> {
    let mut rows = Rows {
        next,
        spec,
        given: 0,
    };
    match spec.format {
        Format::Png => write_png(out, spec, &mut rows),
        Format::Tiff => {
            let bytes = u64::from(spec.width)
                * u64::from(spec.height)
                * bytes_per_pixel(spec.depth, spec.channels);
            // A classic TIFF addresses 4 GiB; the margin holds its tags.
            if bytes < u64::from(u32::MAX) - (1 << 20) {
                let encoder = tiff::encoder::TiffEncoder::new(out).map_err(|e| e.to_string())?;
                write_tiff(encoder, spec, &mut rows)
            } else {
                let encoder =
                    tiff::encoder::TiffEncoder::new_big(out).map_err(|e| e.to_string())?;
                write_tiff(encoder, spec, &mut rows)
            }
        }
        Format::Exr => write_exr(out, spec, &mut rows),
        Format::Dds | Format::Ktx2 => write_texture(out, spec, &mut rows),
        Format::Raw => write_raw(out, spec, &mut rows),
    }
}

/// A RAW heightmap: each pixel's value (a color's luminance) as a 16-bit unsigned
/// little-endian number, rows top to bottom, quantized as a 16-bit PNG is.
fn write_raw<B: Deref<Target = Image>>(
    out: &mut impl Write,
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
) -> Result<(), String> {
    while let Some(band) = rows.next()? {
        let gray = if spec.channels == 1 {
            None
        } else {
            let luma = texgraph_kernels::scalar::LUMA;
            let values = band
                .data
                .chunks_exact(spec.channels)
                .map(|p| luma[0] * p[0] + luma[1] * p[1] + luma[2] * p[2]);
            let pixels = band.data.len() / spec.channels;
            let data = texgraph_base::memory::try_collect(pixels, values)
                .ok_or_else(|| crate::short_of_memory(&band))?;
            Some(Image {
                width: band.width,
                height: band.height,
                channels: 1,
                data,
            })
        };
        let words = sixteen_bit(gray.as_ref().unwrap_or(&band))?;
        let bytes = texgraph_base::memory::try_collect(
            words.len() * 2,
            words.iter().flat_map(|w| w.to_le_bytes()),
        )
        .ok_or_else(|| crate::short_of_memory(&band))?;
        out.write_all(&bytes).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A DDS or KTX2 texture: the whole image (its bands gathered, when it comes in several),
/// then its mip chain filtered and compressed in [`FileSpec::block`]'s format.
fn write_texture<B: Deref<Target = Image>>(
    out: &mut (impl Write + Seek),
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
) -> Result<(), String> {
    let block = spec.block.ok_or_else(|| {
        format!(
            "{} holds one map of a known usage; write it from a render of one output or a preset",
            spec.format.name()
        )
    })?;
    let first = rows.next()?.ok_or("a texture of no rows")?;
    let encode = |image: &Image, out: &mut _| match spec.format {
        Format::Dds => crate::dds::encode_dds(image, block, out),
        _ => crate::ktx2::encode_ktx2(image, block, out),
    };
    // Handed the whole image at once (a render written whole): no copy of it.
    if first.height == spec.height {
        return encode(&first, out);
    }
    let len = spec.width as usize * spec.height as usize * spec.channels;
    let mut data = Vec::new();
    data.try_reserve_exact(len).map_err(|_| {
        format!(
            "not enough memory for a {}x{} texture",
            spec.width, spec.height
        )
    })?;
    data.extend_from_slice(&first.data);
    drop(first);
    while let Some(band) = rows.next()? {
        data.extend_from_slice(&band.data);
    }
    let image = Image {
        width: spec.width,
        height: spec.height,
        channels: spec.channels,
        data,
    };
    encode(&image, out)
}

/// Bytes a pixel takes in a TIFF of `depth` (float TIFFs are RGBA).
fn bytes_per_pixel(depth: Depth, channels: usize) -> u64 {
    match depth {
        Depth::Float => 16,
        _ => u64::from(depth.bits() / 8) * channels as u64,
    }
}

/// The bands handed to a writer, checked against the file's size.
struct Rows<'a, B> {
    next: &'a mut dyn FnMut() -> Option<B>,
    spec: &'a FileSpec,
    given: u32,
}

impl<B: Deref<Target = Image>> Rows<'_, B> {
    /// The next band, `None` once every row was given; an error if the bands stop early or
    /// do not fit the file.
    fn next(&mut self) -> Result<Option<B>, String> {
        if self.given == self.spec.height {
            return Ok(None);
        }
        let band = (self.next)().ok_or_else(|| {
            format!(
                "the image stopped after {} of its {} rows",
                self.given, self.spec.height
            )
        })?;
        if band.width != self.spec.width
            || band.channels != self.spec.channels
            || band.height > self.spec.height - self.given
        {
            return Err(format!(
                "a band of {}x{}x{} does not fit a {}x{}x{} image at row {}",
                band.width,
                band.height,
                band.channels,
                self.spec.width,
                self.spec.height,
                self.spec.channels,
                self.given
            ));
        }
        self.given += band.height;
        Ok(Some(band))
    }
}

fn write_png<B: Deref<Target = Image>>(
    out: &mut impl Write,
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
) -> Result<(), String> {
    let mut encoder = png::Encoder::new(out, spec.width, spec.height);
    encoder.set_color(if spec.channels == 1 {
        png::ColorType::Grayscale
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(if spec.depth == Depth::Eight {
        png::BitDepth::Eight
    } else {
        png::BitDepth::Sixteen
    });
    // fdeflate's fast PNG-tuned compression: several times zlib's speed, and smaller
    // files than the fast modes of other encoders (oxipng shrinks them further if wanted).
    encoder.set_compression(png::Compression::Fast);
    if spec.encoding == Encoding::Srgb {
        // The sRGB chunk, with the gAMA and cHRM values the PNG specification gives for it.
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    }
    if let Some(note) = &spec.note {
        encoder
            .add_text_chunk(NOTE_KEY.to_owned(), note.clone())
            .map_err(|e| e.to_string())?;
    }
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    let mut stream = writer.stream_writer().map_err(|e| e.to_string())?;
    let row_bytes = spec.width as usize * spec.channels * (spec.depth.bits() / 8) as usize;
    while let Some(band) = rows.next()? {
        let bytes = if spec.depth == Depth::Eight {
            eight_bit(&band)?
        } else {
            // PNG stores 16-bit samples big-endian.
            let words = sixteen_bit(&band)?;
            texgraph_base::memory::try_collect(
                words.len() * 2,
                words.iter().flat_map(|w| w.to_be_bytes()),
            )
            .ok_or_else(|| crate::short_of_memory(&band))?
        };
        for row in bytes.chunks_exact(row_bytes) {
            stream.write_all(row).map_err(|e| e.to_string())?;
        }
    }
    stream.finish().map_err(|e| e.to_string())
}

fn write_tiff<B: Deref<Target = Image>, W: Write + Seek, K: tiff::encoder::TiffKind>(
    mut encoder: tiff::encoder::TiffEncoder<W, K>,
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
) -> Result<(), String> {
    use tiff::encoder::colortype::{Gray8, Gray16, RGBA8, RGBA16, RGBA32Float};
    let gray = spec.channels == 1;
    match spec.depth {
        Depth::Eight if gray => tiff_strips::<Gray8, _, _, _>(&mut encoder, spec, rows, eight),
        Depth::Eight => tiff_strips::<RGBA8, _, _, _>(&mut encoder, spec, rows, eight),
        Depth::Sixteen if gray => tiff_strips::<Gray16, _, _, _>(&mut encoder, spec, rows, sixteen),
        Depth::Sixteen => tiff_strips::<RGBA16, _, _, _>(&mut encoder, spec, rows, sixteen),
        Depth::Float => tiff_strips::<RGBA32Float, _, _, _>(&mut encoder, spec, rows, floats),
    }
}

/// A band's samples as 8-bit integers.
fn eight(band: &Image, _: &FileSpec) -> Result<Vec<u8>, String> {
    eight_bit(band)
}

/// A band's samples as 16-bit integers.
fn sixteen(band: &Image, _: &FileSpec) -> Result<Vec<u16>, String> {
    sixteen_bit(band)
}

/// A band's samples as RGBA floats in linear light.
fn floats(band: &Image, spec: &FileSpec) -> Result<Vec<f32>, String> {
    if spec.encoding == Encoding::Srgb {
        float_rgba(&decoded_srgb(band)?)
    } else {
        float_rgba(band)
    }
}

/// Turns a band into a TIFF's samples.
type Samples<T> = fn(&Image, &FileSpec) -> Result<Vec<T>, String>;

/// TIFF's ExtraSamples value for an alpha channel that is not premultiplied.
const UNASSOCIATED_ALPHA: u16 = 2;

/// Rows per TIFF strip: about 64 KiB each.
fn strip_rows(spec: &FileSpec) -> u32 {
    let row = (u64::from(spec.width) * bytes_per_pixel(spec.depth, spec.channels)).max(1);
    ((64 << 10) / row).clamp(1, u64::from(spec.height.max(1))) as u32
}

fn tiff_strips<C, B, W, K>(
    encoder: &mut tiff::encoder::TiffEncoder<W, K>,
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
    samples: Samples<C::Inner>,
) -> Result<(), String>
where
    C: tiff::encoder::colortype::ColorType,
    [C::Inner]: tiff::encoder::TiffValue,
    C::Inner: Copy,
    B: Deref<Target = Image>,
    W: Write + Seek,
    K: tiff::encoder::TiffKind,
{
    let fail = |e: tiff::TiffError| e.to_string();
    let mut image = encoder
        .new_image::<C>(spec.width, spec.height)
        .map_err(fail)?;
    let per_strip = strip_rows(spec);
    image.rows_per_strip(per_strip).map_err(fail)?;
    if C::SAMPLE_FORMAT.len() == 4 {
        // The fourth sample is alpha, not premultiplied: without the tag, readers must
        // guess what it is (libtiff warns and calls it unspecified).
        image
            .encoder()
            .write_tag(tiff::tags::Tag::ExtraSamples, UNASSOCIATED_ALPHA)
            .map_err(fail)?;
    }
    if let Some(note) = &spec.note {
        image
            .encoder()
            .write_tag(tiff::tags::Tag::ImageDescription, note.as_str())
            .map_err(fail)?;
    }
    let row_samples = spec.width as usize * C::SAMPLE_FORMAT.len();
    let strip_samples = per_strip as usize * row_samples;
    let mut pending: Vec<C::Inner> = Vec::new();
    while let Some(band) = rows.next()? {
        let mut values = samples(&band, spec)?;
        if pending.is_empty() {
            std::mem::swap(&mut pending, &mut values);
        } else {
            pending.extend_from_slice(&values);
        }
        let whole = pending.len() / strip_samples * strip_samples;
        for strip in pending[..whole].chunks_exact(strip_samples) {
            image.write_strip(strip).map_err(fail)?;
        }
        pending.drain(..whole);
    }
    if !pending.is_empty() {
        image.write_strip(&pending).map_err(fail)?;
    }
    image.finish().map_err(fail)
}

fn write_exr<B: Deref<Target = Image>>(
    out: &mut (impl Write + Seek),
    spec: &FileSpec,
    rows: &mut Rows<'_, B>,
) -> Result<(), String> {
    use exr::block::writer::ChunksWriter;
    use exr::block::{BlockIndex, UncompressedBlock, chunk::Chunk};
    use exr::math::Vec2;
    use exr::meta::BlockDescription;
    use exr::meta::attribute::{AttributeValue, ChannelDescription, SampleType, Text};
    use exr::meta::header::Header;
    use exr::prelude::{Compression, LineOrder};
    let (w, h, c) = (spec.width as usize, spec.height as usize, spec.channels);
    // EXR stores channels sorted by name; `order[k]` is the image channel of the k-th.
    let (names, order): (&[&str], &[usize]) = if c == 1 {
        (&["Y"], &[0])
    } else {
        (&["A", "B", "G", "R"], &[3, 2, 1, 0])
    };
    let channels = names
        .iter()
        .map(|n| ChannelDescription::named(*n, SampleType::F32))
        .collect();
    let mut header = Header::new(Text::from(""), (w, h), channels).with_encoding(
        Compression::ZIP16,
        BlockDescription::ScanLines,
        LineOrder::Increasing,
    );
    if let Some(note) = &spec.note {
        let text = Text::new_or_none(note).ok_or("the note is not EXR text")?;
        header
            .own_attributes
            .other
            .insert(Text::from(NOTE_KEY), AttributeValue::Text(text));
    }
    let lines = Compression::ZIP16.scan_lines_per_block();
    let line_bytes = w * c * 4;
    let mut failure = None;
    exr::block::write(
        out,
        std::iter::once(header).collect(),
        true,
        |meta, writer| {
            // Lines not yet in a block, as EXR lays them out: each line's channels one after
            // another.
            let mut pending: Vec<u8> = Vec::new();
            let mut first_line = 0;
            let mut block = 0;
            let mut flush = |pending: &mut Vec<u8>, last: bool, first_line: &mut usize| {
                let count = pending.len() / line_bytes;
                let whole = if last { count } else { count / lines * lines };
                let blocks: Vec<UncompressedBlock> = pending[..whole * line_bytes]
                    .chunks(lines * line_bytes)
                    .enumerate()
                    .map(|(k, data)| UncompressedBlock {
                        index: BlockIndex {
                            layer: 0,
                            pixel_position: Vec2(0, *first_line + k * lines),
                            pixel_size: Vec2(w, data.len() / line_bytes),
                            level: Vec2(0, 0),
                        },
                        data: data.to_vec(),
                    })
                    .collect();
                // Blocks are compressed in parallel, each on its own: the same bytes.
                let chunks: Vec<exr::error::Result<Chunk>> = blocks
                    .into_par_iter()
                    .map(|b| b.compress_to_chunk(&meta.headers))
                    .collect();
                for chunk in chunks {
                    writer.write_chunk(block, chunk?)?;
                    block += 1;
                }
                pending.drain(..whole * line_bytes);
                *first_line += whole;
                Ok::<(), exr::error::Error>(())
            };
            loop {
                let band = match rows.next() {
                    Ok(Some(band)) => band,
                    Ok(None) => break,
                    Err(message) => {
                        failure = Some(message);
                        return Err(exr::error::Error::Aborted);
                    }
                };
                let linear;
                let band: &Image = if spec.encoding == Encoding::Srgb {
                    match decoded_srgb(&band) {
                        Ok(image) => linear = image,
                        Err(message) => {
                            failure = Some(message);
                            return Err(exr::error::Error::Aborted);
                        }
                    }
                    &linear
                } else {
                    &band
                };
                for row in band.data.chunks_exact(w * c) {
                    for &channel in order {
                        for px in row.chunks_exact(c) {
                            pending.extend_from_slice(&px[channel].to_ne_bytes());
                        }
                    }
                }
                flush(&mut pending, false, &mut first_line)?;
            }
            flush(&mut pending, true, &mut first_line)
        },
    )
    .map_err(|e| failure.take().unwrap_or_else(|| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use tiff::decoder::Decoder;
    use tiff::tags::Tag;

    /// A TIFF of `channels` at `depth`, read back: its ExtraSamples tag, if any.
    fn extra_samples(channels: usize, depth: Depth) -> Option<Vec<u32>> {
        let spec = FileSpec {
            format: Format::Tiff,
            depth,
            encoding: Encoding::Linear,
            width: 3,
            height: 2,
            channels,
            note: None,
            block: None,
        };
        let image = Image {
            width: 3,
            height: 2,
            channels,
            data: (0..6 * channels).map(|i| i as f32 / 30.0).collect(),
        };
        let mut file = Cursor::new(Vec::new());
        let mut once = Some(&image);
        write(&mut file, &spec, &mut || once.take()).unwrap();
        file.set_position(0);
        let mut decoder = Decoder::new(file).unwrap();
        decoder.find_tag_unsigned_vec(Tag::ExtraSamples).unwrap()
    }

    #[test]
    fn rgba_tiffs_say_their_fourth_sample_is_straight_alpha() {
        for depth in [Depth::Eight, Depth::Sixteen, Depth::Float] {
            assert_eq!(extra_samples(4, depth), Some(vec![2]), "{depth:?}");
        }
        for depth in [Depth::Eight, Depth::Sixteen] {
            assert_eq!(extra_samples(1, depth), None, "{depth:?}");
        }
    }
}
