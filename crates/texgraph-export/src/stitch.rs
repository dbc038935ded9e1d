//! Assembles the files of regions (`texgraph render --region`) into the file of the whole
//! image, written band by band. The regions must come from one graph, output, size,
//! format and depth and cover the image exactly once; the result is then the same bytes
//! as the whole image rendered at once.

use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::stream::{self, FileSpec, NOTE_KEY};
use crate::streamed::parse_region_note;
use crate::{Depth, Format};
use texgraph_base::error::{Error, Result};
use texgraph_base::staging;
use texgraph_engine::eval::stream::Region;
use texgraph_engine::eval::{Image, MAX_SIDE};
use texgraph_engine::usage::Encoding;

/// One region's file, as its header and note describe it.
#[derive(Debug, Clone)]
pub struct Piece {
    /// The file.
    pub path: PathBuf,
    /// Where it belongs.
    pub region: Region,
    /// The whole image's size.
    pub size: (u32, u32),
    /// The graph's hash (see [`crate::streamed::graph_hash`]).
    pub graph: u64,
    /// The output's name.
    pub output: String,
    /// Its format.
    pub format: Format,
    /// Bits per channel.
    pub depth: Depth,
    /// Channels as stored (float TIFFs store four).
    pub channels: usize,
    /// What its samples are, as far as writing them again goes: a PNG tagged sRGB keeps
    /// its tag; everything else is written as it is.
    pub encoding: Encoding,
}

fn fail(path: &Path, message: impl Into<String>) -> Error {
    Error::Input {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Reads the header and note of a region's file. The note is only the file's word: an
/// image size beyond [`MAX_SIDE`], a region outside it, or a region of another size
/// than the file's pixels is refused here, before anything is allocated for it.
pub fn read_piece(path: &Path) -> Result<Piece> {
    let format = Format::from_path(path)?;
    let Header {
        note,
        depth,
        channels,
        encoding,
        pixels,
    } = match format {
        Format::Png => png_header(path)?,
        Format::Tiff => tiff_header(path)?,
        Format::Exr => exr_header(path)?,
        // Only these formats carry the note a region is known by.
        _ => {
            return Err(fail(
                path,
                "is not a region of a render (regions are PNG, EXR or TIFF files)",
            ));
        }
    };
    let note = note.ok_or_else(|| {
        fail(
            path,
            "is not a region of a render (it has no texgraph region note; render regions with `texgraph render --region`)",
        )
    })?;
    let (region, size, graph, output) = parse_region_note(&note)
        .ok_or_else(|| fail(path, format!("its region note '{note}' cannot be read")))?;
    let (width, height) = size;
    let side = 1..=MAX_SIDE;
    if !side.contains(&width) || !side.contains(&height) {
        return Err(fail(
            path,
            format!(
                "its region note claims a {width}x{height} image; images are 1 to {MAX_SIDE} pixels a side"
            ),
        ));
    }
    if !region.fits(width, height) {
        return Err(fail(
            path,
            format!(
                "its region note's region {} is not inside its {width}x{height} image",
                describe(region)
            ),
        ));
    }
    if pixels != (region.width, region.height) {
        return Err(fail(
            path,
            format!(
                "its pixels are {}x{} but its region note says {}x{}",
                pixels.0, pixels.1, region.width, region.height
            ),
        ));
    }
    Ok(Piece {
        path: path.to_owned(),
        region,
        size,
        graph,
        output,
        format,
        depth,
        channels,
        encoding,
    })
}

/// What a region file's header says.
struct Header {
    note: Option<String>,
    depth: Depth,
    channels: usize,
    encoding: Encoding,
    /// Width and height of the pixels it holds.
    pixels: (u32, u32),
}

fn png_header(path: &Path) -> Result<Header> {
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let reader = png::Decoder::new(BufReader::new(file))
        .read_info()
        .map_err(|e| fail(path, e.to_string()))?;
    let info = reader.info();
    let note = info
        .uncompressed_latin1_text
        .iter()
        .find(|t| t.keyword == NOTE_KEY)
        .map(|t| t.text.clone());
    let depth = match info.bit_depth {
        png::BitDepth::Eight => Depth::Eight,
        png::BitDepth::Sixteen => Depth::Sixteen,
        other => return Err(fail(path, format!("{other:?}-bit PNGs are not texgraph's"))),
    };
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::Rgba => 4,
        other => return Err(fail(path, format!("{other:?} PNGs are not texgraph's"))),
    };
    let encoding = if info.srgb.is_some() {
        Encoding::Srgb
    } else {
        Encoding::AsRendered
    };
    Ok(Header {
        note,
        depth,
        channels,
        encoding,
        pixels: (info.width, info.height),
    })
}

fn tiff_header(path: &Path) -> Result<Header> {
    use tiff::ColorType;
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut decoder =
        tiff::decoder::Decoder::new(BufReader::new(file)).map_err(|e| fail(path, e.to_string()))?;
    let note = decoder
        .get_tag_ascii_string(tiff::tags::Tag::ImageDescription)
        .ok();
    let pixels = decoder
        .dimensions()
        .map_err(|e| fail(path, e.to_string()))?;
    let (depth, channels) = match decoder.colortype().map_err(|e| fail(path, e.to_string()))? {
        ColorType::Gray(8) => (Depth::Eight, 1),
        ColorType::RGBA(8) => (Depth::Eight, 4),
        ColorType::Gray(16) => (Depth::Sixteen, 1),
        ColorType::RGBA(16) => (Depth::Sixteen, 4),
        ColorType::RGBA(32) => (Depth::Float, 4),
        other => return Err(fail(path, format!("{other:?} TIFFs are not texgraph's"))),
    };
    Ok(Header {
        note,
        depth,
        channels,
        encoding: Encoding::AsRendered,
        pixels,
    })
}

fn exr_header(path: &Path) -> Result<Header> {
    use exr::meta::attribute::AttributeValue;
    let meta =
        exr::meta::MetaData::read_from_file(path, false).map_err(|e| fail(path, e.to_string()))?;
    let header = meta
        .headers
        .first()
        .ok_or_else(|| fail(path, "has no layers"))?;
    let note = header
        .own_attributes
        .other
        .iter()
        .find(|(k, _)| *k == NOTE_KEY)
        .and_then(|(_, v)| match v {
            AttributeValue::Text(t) => Some(t.to_string()),
            _ => None,
        });
    let channels = header.channels.list.len();
    if channels != 1 && channels != 4 {
        return Err(fail(path, format!("has {channels} channels, not 1 or 4")));
    }
    let size = header.layer_size;
    let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(Header {
        note,
        depth: Depth::Float,
        channels,
        encoding: Encoding::Linear,
        pixels: (side(size.width()), side(size.height())),
    })
}

/// Checks that `pieces` are regions of one image (graph, output, size, format, depth and
/// channels) and cover it exactly once, and that `out` has their format. Returns the
/// image's size.
pub fn check(pieces: &[Piece], out: &Path) -> Result<(u32, u32)> {
    let first = pieces
        .first()
        .ok_or_else(|| fail(out, "no region files to stitch"))?;
    // The output replacing a region would lose it half-way through reading it.
    if let Ok(target) = std::fs::canonicalize(out)
        && let Some(piece) = pieces
            .iter()
            .find(|p| std::fs::canonicalize(&p.path).is_ok_and(|p| p == target))
    {
        return Err(fail(
            out,
            format!(
                "is the region file {}: stitch into another file",
                piece.path.display()
            ),
        ));
    }
    let format = Format::from_path(out)?;
    if format != first.format {
        return Err(fail(
            out,
            format!(
                "the regions are {:?} files; stitch them into a {:?} file",
                first.format, first.format
            ),
        ));
    }
    for piece in &pieces[1..] {
        let differs = |field: &str, a: String, b: String| {
            fail(
                &piece.path,
                format!(
                    "its {field} is {b} but {}'s is {a}: the regions are not of one render",
                    first.path.display()
                ),
            )
        };
        if piece.size != first.size {
            let size = |(w, h): (u32, u32)| format!("{w}x{h}");
            return Err(differs("image size", size(first.size), size(piece.size)));
        }
        if piece.graph != first.graph {
            let hash = |h: u64| format!("{h:016x}");
            return Err(differs("graph", hash(first.graph), hash(piece.graph)));
        }
        if piece.output != first.output {
            return Err(differs(
                "output",
                first.output.clone(),
                piece.output.clone(),
            ));
        }
        if (piece.format, piece.depth, piece.channels)
            != (first.format, first.depth, first.channels)
        {
            let kind = |p: &Piece| format!("{:?} {}-bit x{}", p.format, p.depth.bits(), p.channels);
            return Err(differs("format", kind(first), kind(piece)));
        }
    }
    let (width, height) = first.size;
    for piece in pieces {
        if !piece.region.fits(width, height) {
            return Err(fail(
                &piece.path,
                format!("its region is not inside the {width}x{height} image"),
            ));
        }
    }
    let overlaps = |a: &Region, b: &Region| {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    };
    for (i, a) in pieces.iter().enumerate() {
        if let Some(b) = pieces[i + 1..]
            .iter()
            .find(|b| overlaps(&a.region, &b.region))
        {
            return Err(fail(
                &b.path,
                format!(
                    "its region {} overlaps {}'s region {}",
                    describe(b.region),
                    a.path.display(),
                    describe(a.region)
                ),
            ));
        }
    }
    let covered: u64 = pieces
        .iter()
        .map(|p| u64::from(p.region.width) * u64::from(p.region.height))
        .sum();
    if covered != u64::from(width) * u64::from(height) {
        let gap = gap(pieces, (width, height));
        return Err(fail(
            out,
            format!(
                "the regions cover {covered} of the {width}x{height} image's {} pixels: nothing covers pixel {},{} (a region file is missing)",
                u64::from(width) * u64::from(height),
                gap.0,
                gap.1
            ),
        ));
    }
    Ok((width, height))
}

fn describe(r: Region) -> String {
    format!("{},{},{},{}", r.x, r.y, r.width, r.height)
}

/// A pixel no piece covers (the regions do not overlap and cover less than the image):
/// one is at a corner of the grid of their edges.
fn gap(pieces: &[Piece], (width, height): (u32, u32)) -> (u32, u32) {
    let mut xs: Vec<u32> = pieces
        .iter()
        .flat_map(|p| [p.region.x, p.region.x + p.region.width])
        .chain([0])
        .filter(|&x| x < width)
        .collect();
    let mut ys: Vec<u32> = pieces
        .iter()
        .flat_map(|p| [p.region.y, p.region.y + p.region.height])
        .chain([0])
        .filter(|&y| y < height)
        .collect();
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    let covers = |p: &Piece, x: u32, y: u32| {
        let r = p.region;
        (r.x..r.x + r.width).contains(&x) && (r.y..r.y + r.height).contains(&y)
    };
    ys.iter()
        .flat_map(|&y| xs.iter().map(move |&x| (x, y)))
        .find(|&(x, y)| !pieces.iter().any(|p| covers(p, x, y)))
        .unwrap_or((0, 0))
}

/// A piece's samples while the bands that need it are written, as stored.
enum Samples {
    Float(Vec<f32>),
    Eight(Vec<u8>),
    Sixteen(Vec<u16>),
}

impl Samples {
    fn load(piece: &Piece) -> Result<Self> {
        let region = piece.region;
        let expected = region.width as usize * region.height as usize * piece.channels;
        let bytes = expected as u64 * u64::from(piece.depth.bits() / 8);
        // Decoding may hold the file's samples twice (planes, then interleaved).
        if let Some(room) = texgraph_base::memory::short_of(bytes * 2) {
            return Err(fail(
                &piece.path,
                format!(
                    "reading its {}x{} region needs about {} MiB but only {} MiB of memory is available to this process",
                    region.width,
                    region.height,
                    (bytes * 2) >> 20,
                    room >> 20
                ),
            ));
        }
        let samples = if piece.format == Format::Exr {
            Samples::Float(crate::read_exr(&piece.path)?.data)
        } else {
            let mut reader = image::ImageReader::open(&piece.path).map_err(|source| Error::Io {
                path: piece.path.clone(),
                source,
            })?;
            // The header was checked against the region; decoding allocates no more.
            let mut limits = image::Limits::default();
            limits.max_image_width = Some(region.width);
            limits.max_image_height = Some(region.height);
            limits.max_alloc = Some(bytes + (64 << 20));
            reader.limits(limits);
            let decoded = reader
                .decode()
                .map_err(|e| fail(&piece.path, e.to_string()))?;
            match decoded {
                image::DynamicImage::ImageLuma8(i) => Samples::Eight(i.into_raw()),
                image::DynamicImage::ImageRgba8(i) => Samples::Eight(i.into_raw()),
                image::DynamicImage::ImageLuma16(i) => Samples::Sixteen(i.into_raw()),
                image::DynamicImage::ImageRgba16(i) => Samples::Sixteen(i.into_raw()),
                image::DynamicImage::ImageRgba32F(i) => Samples::Float(i.into_raw()),
                other => {
                    return Err(fail(
                        &piece.path,
                        format!(
                            "its pixels ({:?}) are not a texgraph render's",
                            other.color()
                        ),
                    ));
                }
            }
        };
        let len = match &samples {
            Samples::Float(d) => d.len(),
            Samples::Eight(d) => d.len(),
            Samples::Sixteen(d) => d.len(),
        };
        if len != expected {
            return Err(fail(
                &piece.path,
                format!(
                    "holds {len} samples, not the {expected} of its region ({}x{}x{})",
                    piece.region.width, piece.region.height, piece.channels
                ),
            ));
        }
        Ok(samples)
    }

    /// Row `row` of the piece as floats that encode back to the same samples (k / 255
    /// and k / 65535 round back to k).
    fn row(&self, row: u32, width: u32, channels: usize, out: &mut Vec<f32>) {
        let n = width as usize * channels;
        let at = row as usize * n..(row as usize + 1) * n;
        match self {
            Samples::Float(d) => out.extend_from_slice(&d[at]),
            Samples::Eight(d) => out.extend(d[at].iter().map(|&v| f32::from(v) / 255.0)),
            Samples::Sixteen(d) => out.extend(d[at].iter().map(|&v| f32::from(v) / 65535.0)),
        }
    }
}

/// Rows per band of the stitched file.
const BAND: u32 = 64;

/// Writes the image the `pieces` (checked by [`check`]) make up to `out`, band by band,
/// staged and renamed into place at the end; `progress` is told the rows written.
pub fn stitch(pieces: &[Piece], out: &Path, progress: &dyn Fn(u32)) -> Result<()> {
    let (width, height) = check(pieces, out)?;
    let first = &pieces[0];
    let spec = FileSpec {
        format: first.format,
        depth: first.depth,
        encoding: first.encoding,
        width,
        height,
        channels: first.channels,
        note: None,
        block: None,
    };
    let mut order: Vec<&Piece> = pieces.iter().collect();
    order.sort_by_key(|p| (p.region.y, p.region.x));
    let mut loaded: HashMap<PathBuf, Samples> = HashMap::new();
    let mut failure: Option<Error> = None;
    let mut row = 0;
    let staged = staging::stage(out, |file| {
        let mut writer = BufWriter::new(&mut *file);
        let mut next = || -> Option<Box<Image>> {
            if row >= height {
                return None;
            }
            let end = (row + BAND).min(height);
            // Pieces the band needs are loaded; those above it are done with.
            loaded.retain(|path, _| {
                order
                    .iter()
                    .any(|p| &p.path == path && p.region.y + p.region.height > row)
            });
            let mut band = Vec::new();
            let len = (end - row) as usize * width as usize * spec.channels;
            if band.try_reserve_exact(len).is_err() {
                failure = Some(fail(
                    out,
                    format!("a band of {} MiB cannot be allocated", (len * 4) >> 20),
                ));
                return None;
            }
            for y in row..end {
                let mut across: Vec<&&Piece> = order
                    .iter()
                    .filter(|p| (p.region.y..p.region.y + p.region.height).contains(&y))
                    .collect();
                across.sort_by_key(|p| p.region.x);
                for piece in across {
                    if !loaded.contains_key(&piece.path) {
                        match Samples::load(piece) {
                            Ok(samples) => {
                                loaded.insert(piece.path.clone(), samples);
                            }
                            Err(e) => {
                                failure = Some(e);
                                return None;
                            }
                        }
                    }
                    loaded[&piece.path].row(
                        y - piece.region.y,
                        piece.region.width,
                        spec.channels,
                        &mut band,
                    );
                }
            }
            let image = Image {
                width,
                height: end - row,
                channels: spec.channels,
                data: band,
            };
            row = end;
            progress(row);
            Some(Box::new(image))
        };
        let written = stream::write(&mut writer, &spec, &mut next)
            .and_then(|()| writer.flush().map_err(|e| e.to_string()));
        match (written, failure.take()) {
            (_, Some(e)) => Err(e),
            (Err(message), None) => Err(Error::Export {
                path: out.to_owned(),
                message,
            }),
            (Ok(()), None) => Ok(()),
        }
    })?;
    staged.commit()
}
