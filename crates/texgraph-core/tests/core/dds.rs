//! Game texture exports: DDS and KTX2 files with block-compressed mip chains, read back
//! with a DDS header parser written here, the `ktx2` crate's reader, and the
//! `texture2ddecoder` crate's BCn decoders, and compared with mip chains computed here
//! in f64.

use std::f64::consts::TAU;

use texgraph_core::Image;
use texgraph_core::export::dds::{BlockFormat, encode_dds};
use texgraph_core::export::ktx2::encode_ktx2;
use texgraph_core::export::mips::mip_chain;

const ALL: [BlockFormat; 5] = [
    BlockFormat::Bc7Srgb,
    BlockFormat::Bc7,
    BlockFormat::Bc5,
    BlockFormat::Bc4,
    BlockFormat::R16,
];

/// A tileable image from `f` over u, v in [0, 1).
fn image(w: u32, h: u32, channels: usize, f: impl Fn(f64, f64) -> [f64; 4]) -> Image {
    let mut data = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = f(f64::from(x) / f64::from(w), f64::from(y) / f64::from(h));
            data.extend(p[..channels].iter().map(|&v| v as f32));
        }
    }
    Image {
        width: w,
        height: h,
        channels,
        data,
    }
}

/// Smooth color: mostly along a line between two colors (as painted maps are), with a
/// second, weaker direction, and an alpha of its own; R, G and B all differ.
fn color(w: u32, h: u32) -> Image {
    image(w, h, 4, |u, v| {
        let t = 0.5 + 0.5 * (TAU * u).sin() * (TAU * v).cos();
        let s = 0.5 + 0.5 * (TAU * (u + v) + 1.0).sin();
        let (from, to, aside) = ([0.85, 0.45, 0.1], [0.1, 0.35, 0.8], [0.1, -0.15, 0.05]);
        let c = |k: usize| from[k] + (to[k] - from[k]) * t + aside[k] * (s - 0.5);
        [c(0), c(1), c(2), 0.55 + 0.35 * s]
    })
}

/// The normals of a smooth height field, encoded as 0.5 + 0.5n (alpha 1).
fn normals(w: u32, h: u32) -> Image {
    image(w, h, 4, |u, v| {
        let dx = 0.6 * (TAU * u).cos() * (TAU * 2.0 * v).sin();
        let dy = 0.5 * (TAU * (u + v)).sin();
        let len = (dx * dx + dy * dy + 1.0).sqrt();
        [
            0.5 - 0.5 * dx / len,
            0.5 - 0.5 * dy / len,
            0.5 + 0.5 / len,
            1.0,
        ]
    })
}

/// Smooth gray.
fn gray(w: u32, h: u32) -> Image {
    image(w, h, 1, |u, v| {
        let g = 0.5 + 0.3 * (TAU * u).sin() * (TAU * v).cos() + 0.15 * (TAU * 2.0 * (u + v)).cos();
        [g, 0.0, 0.0, 0.0]
    })
}

fn source_for(format: BlockFormat, w: u32, h: u32) -> Image {
    match format {
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => color(w, h),
        BlockFormat::Bc5 => normals(w, h),
        BlockFormat::Bc4 | BlockFormat::R16 => gray(w, h),
    }
}

// ---- An independent reference mip chain, in f64 ----

/// A level: RGBA samples (gray in R), rows top to bottom.
#[derive(Clone)]
struct Level {
    w: usize,
    h: usize,
    px: Vec<[f64; 4]>,
}

#[derive(Clone, Copy, PartialEq)]
enum Filter {
    Plain,
    Srgb,
    Normal,
}

fn filter_of(format: BlockFormat) -> Filter {
    match format {
        BlockFormat::Bc7Srgb => Filter::Srgb,
        BlockFormat::Bc5 => Filter::Normal,
        _ => Filter::Plain,
    }
}

fn srgb_decode(v: f64) -> f64 {
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

fn srgb_encode(l: f64) -> f64 {
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// The source as stored: clamped, gray in R.
fn level_zero(image: &Image) -> Level {
    let px = image
        .data
        .chunks(image.channels)
        .map(|p| {
            let c = |i: usize| f64::from(p[i.min(p.len() - 1)]).clamp(0.0, 1.0);
            [c(0), c(1), c(2), if p.len() == 4 { c(3) } else { 1.0 }]
        })
        .collect();
    Level {
        w: image.width as usize,
        h: image.height as usize,
        px,
    }
}

/// Output i of an axis going from n to m samples is the mean of n sub-samples 1/m of a
/// source pixel wide: sub-sample t lies in source pixel (i n + t) / m.
fn sources(i: usize, n: usize, m: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |t| (i * n + t) / m)
}

fn next_level(level: &Level, filter: Filter) -> Level {
    let (w, h) = (level.w, level.h);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let work: Vec<[f64; 4]> = level
        .px
        .iter()
        .map(|p| match filter {
            Filter::Plain => *p,
            Filter::Srgb => [
                srgb_decode(p[0]),
                srgb_decode(p[1]),
                srgb_decode(p[2]),
                p[3],
            ],
            Filter::Normal => [2.0 * p[0] - 1.0, 2.0 * p[1] - 1.0, 2.0 * p[2] - 1.0, p[3]],
        })
        .collect();
    let mut across = vec![[0.0; 4]; nw * h];
    for y in 0..h {
        for x in 0..nw {
            for s in sources(x, w, nw) {
                for k in 0..4 {
                    across[y * nw + x][k] += work[y * w + s][k] / w as f64;
                }
            }
        }
    }
    let mut px = vec![[0.0; 4]; nw * nh];
    for y in 0..nh {
        for s in sources(y, h, nh) {
            for x in 0..nw {
                for k in 0..4 {
                    px[y * nw + x][k] += across[s * nw + x][k] / h as f64;
                }
            }
        }
    }
    for p in &mut px {
        *p = match filter {
            Filter::Plain => *p,
            Filter::Srgb => [
                srgb_encode(p[0]),
                srgb_encode(p[1]),
                srgb_encode(p[2]),
                p[3],
            ],
            Filter::Normal => {
                let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                let n = if len > 0.0 {
                    [p[0] / len, p[1] / len, p[2] / len]
                } else {
                    [0.0, 0.0, 1.0]
                };
                [0.5 + 0.5 * n[0], 0.5 + 0.5 * n[1], 0.5 + 0.5 * n[2], p[3]]
            }
        };
        p.iter_mut().for_each(|v| *v = v.clamp(0.0, 1.0));
    }
    Level { w: nw, h: nh, px }
}

fn reference_chain(image: &Image, filter: Filter) -> Vec<Level> {
    let mut chain = vec![level_zero(image)];
    while chain.last().is_some_and(|l| l.w > 1 || l.h > 1) {
        let next = next_level(chain.last().unwrap(), filter);
        chain.push(next);
    }
    chain
}

// ---- Reading the files back ----

struct Dds {
    flags: u32,
    pitch_or_linear_size: usize,
    width: usize,
    height: usize,
    mips: usize,
    dxgi: u32,
    data: Vec<u8>,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// The magic, DDS_HEADER (124 bytes) and DDS_HEADER_DXT10 (20 bytes).
fn parse_dds(bytes: &[u8]) -> Dds {
    assert_eq!(&bytes[0..4], b"DDS ");
    assert_eq!(u32_at(bytes, 4), 124, "dwSize");
    assert_eq!(u32_at(bytes, 76), 32, "ddspf.dwSize");
    assert_eq!(&bytes[84..88], b"DX10", "ddspf.dwFourCC");
    let flags = u32_at(bytes, 8);
    assert_ne!(flags & 0x2_0000, 0, "DDSD_MIPMAPCOUNT");
    let caps = u32_at(bytes, 108);
    assert_ne!(caps & 0x1000, 0, "DDSCAPS_TEXTURE");
    assert_eq!(u32_at(bytes, 132), 3, "resourceDimension: TEXTURE2D");
    assert_eq!(u32_at(bytes, 140), 1, "arraySize");
    Dds {
        flags,
        pitch_or_linear_size: u32_at(bytes, 20) as usize,
        height: u32_at(bytes, 12) as usize,
        width: u32_at(bytes, 16) as usize,
        mips: u32_at(bytes, 28) as usize,
        dxgi: u32_at(bytes, 128),
        data: bytes[148..].to_vec(),
    }
}

fn level_size(w: usize, h: usize, level: usize) -> (usize, usize) {
    ((w >> level).max(1), (h >> level).max(1))
}

fn level_bytes(format: BlockFormat, w: usize, h: usize) -> usize {
    match format {
        BlockFormat::R16 => w * h * 2,
        BlockFormat::Bc4 => w.div_ceil(4) * h.div_ceil(4) * 8,
        _ => w.div_ceil(4) * h.div_ceil(4) * 16,
    }
}

/// The levels of a DDS file's data, level 0 first.
fn split_levels(format: BlockFormat, dds: &Dds) -> Vec<(usize, usize, Vec<u8>)> {
    let mut at = 0;
    let levels = (0..dds.mips)
        .map(|i| {
            let (w, h) = level_size(dds.width, dds.height, i);
            let n = level_bytes(format, w, h);
            let level = dds.data[at..at + n].to_vec();
            at += n;
            (w, h, level)
        })
        .collect();
    assert_eq!(at, dds.data.len(), "no bytes after the last level");
    levels
}

/// A level decoded to RGBA in [0, 1] (gray formats in R).
fn decode(format: BlockFormat, w: usize, h: usize, bytes: &[u8]) -> Vec<[f64; 4]> {
    if format == BlockFormat::R16 {
        return bytes
            .chunks(2)
            .map(|s| {
                [
                    f64::from(u16::from_le_bytes([s[0], s[1]])) / 65535.0,
                    0.0,
                    0.0,
                    1.0,
                ]
            })
            .collect();
    }
    let mut out = vec![0u32; w * h];
    match format {
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => {
            texture2ddecoder::decode_bc7(bytes, w, h, &mut out)
        }
        BlockFormat::Bc5 => texture2ddecoder::decode_bc5(bytes, w, h, &mut out),
        _ => texture2ddecoder::decode_bc4(bytes, w, h, &mut out),
    }
    .unwrap();
    // texture2ddecoder writes BGRA bytes.
    out.iter()
        .map(|p| {
            let [b, g, r, a] = p.to_le_bytes().map(|v| f64::from(v) / 255.0);
            [r, g, b, a]
        })
        .collect()
}

/// The channels a format stores.
fn stored_channels(format: BlockFormat) -> std::ops::Range<usize> {
    match format {
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => 0..4,
        BlockFormat::Bc5 => 0..2,
        BlockFormat::Bc4 | BlockFormat::R16 => 0..1,
    }
}

/// Mean and largest absolute difference over the stored channels.
fn errors(format: BlockFormat, got: &[[f64; 4]], want: &[[f64; 4]]) -> (f64, f64) {
    assert_eq!(got.len(), want.len());
    let (mut sum, mut max, mut n) = (0.0, 0.0f64, 0);
    for (g, w) in got.iter().zip(want) {
        for k in stored_channels(format) {
            let e = (g[k] - w[k]).abs();
            sum += e;
            max = max.max(e);
            n += 1;
        }
    }
    (sum / f64::from(n), max)
}

/// Largest errors (mean, max) a `w` x `h` level may have. Level 0 and the big levels of
/// these smooth maps stay under 2/255 and 12/255. Smaller levels hold more of the
/// pattern's period in a block, more than BC7's lines through RGBA can follow, so
/// they are allowed more; levels of 1 or 2 pixels are close again. R16 rounds exactly.
fn tolerance(format: BlockFormat, w: usize, h: usize) -> (f64, f64) {
    let (big, tiny) = (w.min(h) >= 40, w.max(h) <= 2);
    let (mean, max) = match format {
        // Rounded to the nearest step; the chain is filtered in f32, so a value on a tie
        // may round either way: allow 1% of a step.
        BlockFormat::R16 => return (0.51 / 65535.0, 0.51 / 65535.0),
        _ if big => (2.0, 12.0),
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 if tiny => (1.5, 4.0),
        BlockFormat::Bc7Srgb | BlockFormat::Bc7 => (8.0, 32.0),
        _ if tiny => (1.0, 2.0),
        _ => (5.0, 16.0),
    };
    (mean / 255.0, max / 255.0)
}

fn dxgi_of(format: BlockFormat) -> u32 {
    match format {
        BlockFormat::Bc7Srgb => 99,
        BlockFormat::Bc7 => 98,
        BlockFormat::Bc5 => 83,
        BlockFormat::Bc4 => 80,
        BlockFormat::R16 => 56,
    }
}

fn vk_of(format: BlockFormat) -> u32 {
    match format {
        BlockFormat::Bc7Srgb => 146,
        BlockFormat::Bc7 => 145,
        BlockFormat::Bc5 => 141,
        BlockFormat::Bc4 => 139,
        BlockFormat::R16 => 70,
    }
}

fn dds_bytes(image: &Image, format: BlockFormat) -> Vec<u8> {
    let mut out = Vec::new();
    encode_dds(image, format, &mut out).unwrap();
    out
}

/// Checks every level of `format`'s DDS file of `source` against the reference chain,
/// returning the decoded levels.
fn check_dds(source: &Image, format: BlockFormat) -> Vec<Vec<[f64; 4]>> {
    let dds = parse_dds(&dds_bytes(source, format));
    let (w, h) = (source.width as usize, source.height as usize);
    assert_eq!((dds.width, dds.height), (w, h));
    assert_eq!(dds.dxgi, dxgi_of(format), "{format:?}");
    if format == BlockFormat::R16 {
        assert_ne!(dds.flags & 0x8, 0, "DDSD_PITCH");
        assert_eq!(dds.pitch_or_linear_size, w * 2);
    } else {
        assert_ne!(dds.flags & 0x8_0000, 0, "DDSD_LINEARSIZE");
        assert_eq!(dds.pitch_or_linear_size, level_bytes(format, w, h));
    }
    let count = w.max(h).ilog2() as usize + 1;
    assert_eq!(dds.mips, count, "{format:?}: a full chain");
    let reference = reference_chain(source, filter_of(format));
    assert_eq!(reference.len(), count);
    split_levels(format, &dds)
        .into_iter()
        .zip(&reference)
        .enumerate()
        .map(|(i, ((lw, lh, bytes), want))| {
            assert_eq!((lw, lh), (want.w, want.h));
            let got = decode(format, lw, lh, &bytes);
            let (mean, max) = errors(format, &got, &want.px);
            let (mean_limit, max_limit) = tolerance(format, lw, lh);
            assert!(
                mean <= mean_limit && max <= max_limit,
                "{format:?} level {i} ({lw}x{lh}): mean error {:.3}/255, max {:.3}/255",
                mean * 255.0,
                max * 255.0
            );
            got
        })
        .collect()
}

#[test]
fn each_format_has_its_dxgi_format_and_a_full_chain_close_to_the_reference() {
    for format in ALL {
        check_dds(&source_for(format, 64, 64), format);
    }
}

#[test]
fn level_zero_stays_within_block_error_of_the_source() {
    for format in ALL {
        let source = source_for(format, 128, 128);
        let dds = parse_dds(&dds_bytes(&source, format));
        let (w, h, bytes) = split_levels(format, &dds).remove(0);
        let got = decode(format, w, h, &bytes);
        let (mean, max) = errors(format, &got, &level_zero(&source).px);
        assert!(
            mean < 2.0 / 255.0 && max < 12.0 / 255.0,
            "{format:?}: mean {:.3}/255, max {:.3}/255",
            mean * 255.0,
            max * 255.0
        );
    }
}

#[test]
fn odd_levels_are_area_averages() {
    // 96x40 -> 48x20 -> 24x10 -> 12x5 -> 6x2 -> 3x1 -> 1x1.
    for format in [BlockFormat::Bc7Srgb, BlockFormat::Bc5, BlockFormat::Bc4] {
        check_dds(&source_for(format, 96, 40), format);
    }
    // R16 takes any size: 250 -> 125 -> 62 -> 31 -> 15 -> 7 -> 3 -> 1.
    check_dds(&gray(250, 250), BlockFormat::R16);
    check_dds(&gray(7, 3), BlockFormat::R16);
}

#[test]
fn the_tolerances_tell_srgb_filtering_from_plain_averages() {
    // The tolerances are tight enough that the wrong filter fails: the decoded chain
    // is far from a chain averaged without sRGB decoding or renormalisation.
    for (format, wrong) in [
        (BlockFormat::Bc7Srgb, Filter::Plain),
        (BlockFormat::Bc7, Filter::Srgb),
    ] {
        let source = source_for(format, 64, 64);
        let decoded = check_dds(&source, format);
        let worst = reference_chain(&source, wrong)
            .iter()
            .zip(&decoded)
            .map(|(want, got)| {
                errors(format, got, &want.px).1 / tolerance(format, want.w, want.h).1
            })
            .fold(0.0, f64::max);
        assert!(
            worst > 2.0,
            "{format:?} against {}: {worst:.2} times the tolerance",
            match wrong {
                Filter::Plain => "plain averages",
                Filter::Srgb => "sRGB averages",
                Filter::Normal => "normal averages",
            }
        );
    }
}

#[test]
fn mip_chains_match_the_reference_filter() {
    let sources = [
        (BlockFormat::Bc7Srgb, color(96, 40)),
        (BlockFormat::Bc7, color(64, 64)),
        (BlockFormat::Bc5, normals(96, 40)),
        (BlockFormat::Bc4, gray(64, 64)),
        (BlockFormat::R16, gray(250, 250)),
        (BlockFormat::Bc7Srgb, gray(12, 5)),
    ];
    for (format, source) in sources {
        let chain = mip_chain(&source, format).unwrap();
        let reference = reference_chain(&source, filter_of(format));
        assert_eq!(chain.len(), reference.len());
        for (i, (level, want)) in chain.iter().zip(&reference).enumerate() {
            assert_eq!(
                (level.width as usize, level.height as usize),
                (want.w, want.h)
            );
            assert_eq!(level.channels, format.channels());
            let c = level.channels;
            let worst = level
                .data
                .chunks(c)
                .zip(&want.px)
                .flat_map(|(p, q)| (0..c).map(move |k| (f64::from(p[k]) - q[k]).abs()))
                .fold(0.0, f64::max);
            assert!(worst < 2e-5, "{format:?} level {i}: {worst:e}");
        }
    }
}

#[test]
fn normals_are_renormalised_not_just_averaged() {
    let source = normals(64, 64);
    let chain = mip_chain(&source, BlockFormat::Bc5).unwrap();
    let plain = reference_chain(&source, Filter::Plain);
    let apart = chain
        .iter()
        .zip(&plain)
        .flat_map(|(level, want)| {
            level.data.chunks(4).zip(&want.px).map(|(p, q)| {
                (f64::from(p[0]) - q[0])
                    .abs()
                    .max((f64::from(p[1]) - q[1]).abs())
            })
        })
        .fold(0.0, f64::max);
    // Far more than the 2e-5 the chain keeps to the reference.
    assert!(apart > 0.002, "{apart}");
}

#[test]
fn swapped_channels_would_fail() {
    let source = color(64, 64);
    let dds = parse_dds(&dds_bytes(&source, BlockFormat::Bc7));
    let (w, h, bytes) = split_levels(BlockFormat::Bc7, &dds).remove(0);
    let got = decode(BlockFormat::Bc7, w, h, &bytes);
    let swapped: Vec<[f64; 4]> = got.iter().map(|p| [p[2], p[1], p[0], p[3]]).collect();
    let (mean, _) = errors(BlockFormat::Bc7, &swapped, &level_zero(&source).px);
    assert!(mean > 4.0 * tolerance(BlockFormat::Bc7, w, h).0);
}

#[test]
fn rgba_given_for_one_channel_formats_stores_red() {
    let source = color(64, 64);
    let red = Image {
        channels: 1,
        data: source.data.iter().step_by(4).copied().collect(),
        ..source.clone()
    };
    for format in [BlockFormat::Bc4, BlockFormat::R16] {
        assert_eq!(
            dds_bytes(&source, format),
            dds_bytes(&red, format),
            "{format:?}"
        );
    }
}

#[test]
fn block_formats_refuse_sizes_that_are_not_multiples_of_four() {
    for format in [
        BlockFormat::Bc7Srgb,
        BlockFormat::Bc7,
        BlockFormat::Bc5,
        BlockFormat::Bc4,
    ] {
        for (w, h) in [(250, 250), (64, 66), (2, 4)] {
            let message =
                encode_dds(&source_for(format, w, h), format, &mut Vec::new()).unwrap_err();
            let name = if format == BlockFormat::Bc5 {
                "BC5"
            } else if format == BlockFormat::Bc4 {
                "BC4"
            } else {
                "BC7"
            };
            assert_eq!(
                message,
                format!(
                    "DDS block compression ({name}) needs a width and height that are multiples of 4; {w}x{h} is not"
                )
            );
            let message =
                encode_ktx2(&source_for(format, w, h), format, &mut Vec::new()).unwrap_err();
            assert!(message.starts_with("KTX2 block compression"), "{message}");
        }
    }
    assert!(encode_dds(&gray(250, 250), BlockFormat::R16, &mut Vec::new()).is_ok());
}

#[test]
fn mip_chains_halve_to_one_pixel_and_keep_the_mean() {
    let source = gray(96, 40);
    let chain = mip_chain(&source, BlockFormat::Bc4).unwrap();
    let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.width, l.height)).collect();
    assert_eq!(
        sizes,
        [
            (96, 40),
            (48, 20),
            (24, 10),
            (12, 5),
            (6, 2),
            (3, 1),
            (1, 1)
        ]
    );
    let mean = |l: &Image| l.data.iter().map(|&v| f64::from(v)).sum::<f64>() / l.data.len() as f64;
    for level in &chain {
        assert!((mean(level) - mean(&source)).abs() < 1e-5);
    }
    let chain = mip_chain(&color(1, 8), BlockFormat::Bc7).unwrap();
    let sizes: Vec<(u32, u32)> = chain.iter().map(|l| (l.width, l.height)).collect();
    assert_eq!(sizes, [(1, 8), (1, 4), (1, 2), (1, 1)]);
}

#[test]
fn opposite_normals_average_to_flat() {
    // (1, 0, 0) and (-1, 0, 0) average to length 0, which becomes (0, 0, 1).
    let source = Image {
        width: 2,
        height: 1,
        channels: 4,
        data: vec![1.0, 0.5, 0.5, 1.0, 0.0, 0.5, 0.5, 1.0],
    };
    let chain = mip_chain(&source, BlockFormat::Bc5).unwrap();
    assert_eq!(chain[1].data, [0.5, 0.5, 1.0, 1.0]);
}

#[test]
fn values_outside_zero_to_one_are_clamped() {
    let source = Image {
        width: 4,
        height: 4,
        channels: 1,
        data: (0..16)
            .map(|i| if i % 2 == 0 { 1.5 } else { -0.5 })
            .collect(),
    };
    let chain = mip_chain(&source, BlockFormat::R16).unwrap();
    assert!(chain[0].data.iter().all(|&v| v == 0.0 || v == 1.0));
    assert_eq!(chain[2].data, [0.5]);
}

// ---- KTX2 ----

#[test]
fn ktx2_files_hold_the_same_levels_smallest_first() {
    for format in ALL {
        let source = source_for(format, 64, 64);
        let mut bytes = Vec::new();
        encode_ktx2(&source, format, &mut bytes).unwrap();
        let reader = ktx2::Reader::new(&bytes[..]).unwrap();
        let header = reader.header();
        assert_eq!(
            header.format.map(|f| f.value()),
            Some(vk_of(format)),
            "{format:?}"
        );
        assert_eq!((header.pixel_width, header.pixel_height), (64, 64));
        assert_eq!(
            (header.pixel_depth, header.layer_count, header.face_count),
            (0, 0, 1)
        );
        assert_eq!(header.level_count, 7);
        assert!(header.supercompression_scheme.is_none());
        let type_size = if format == BlockFormat::R16 { 2 } else { 1 };
        assert_eq!(header.type_size, type_size);

        let srgb = reader.transfer_function() == Some(ktx2::TransferFunction::SRGB);
        assert_eq!(srgb, format == BlockFormat::Bc7Srgb, "{format:?}");
        let block = reader
            .basic_dfd()
            .unwrap()
            .texel_block_dimensions
            .map(|d| d.get());
        let side = if format == BlockFormat::R16 { 1 } else { 4 };
        assert_eq!(block, [side, side, 1, 1]);

        // Level data matches the DDS file's levels, level by level.
        let dds = parse_dds(&dds_bytes(&source, format));
        let dds_levels = split_levels(format, &dds);
        assert_eq!(reader.levels().len(), dds_levels.len());
        for (i, (level, (w, h, want))) in reader.levels().zip(&dds_levels).enumerate() {
            assert_eq!(
                level.data.len(),
                level_bytes(format, *w, *h),
                "{format:?} level {i}"
            );
            assert_eq!(level.uncompressed_byte_length, level.data.len() as u64);
            assert_eq!(level.data, &want[..], "{format:?} level {i}");
        }

        // The level index: smallest level last in the index but first in the file,
        // each at a multiple of lcm(block bytes, 4).
        let align = match format {
            BlockFormat::R16 => 4,
            BlockFormat::Bc4 => 8,
            _ => 16,
        };
        let offsets: Vec<u64> = (0..7).map(|i| u64_at(&bytes, 80 + i * 24)).collect();
        assert!(offsets.windows(2).all(|w| w[0] > w[1]), "{offsets:?}");
        assert!(offsets.iter().all(|o| o % align == 0), "{offsets:?}");
        let last = u64_at(&bytes, 80) + u64_at(&bytes, 88);
        assert_eq!(last, bytes.len() as u64);

        // Level 0 decodes to within block error of the source.
        let level = reader.levels().next().unwrap();
        let got = decode(format, 64, 64, level.data);
        let (mean, max) = errors(format, &got, &level_zero(&source).px);
        assert!(mean < 2.0 / 255.0 && max < 12.0 / 255.0, "{format:?}");
    }
}

#[test]
fn ktx2_names_its_writer() {
    let mut bytes = Vec::new();
    encode_ktx2(&gray(8, 8), BlockFormat::Bc4, &mut bytes).unwrap();
    let reader = ktx2::Reader::new(&bytes[..]).unwrap();
    assert!(reader.writer().is_some_and(|w| w.starts_with("texgraph")));
}

#[test]
fn ktx2_pads_odd_sized_levels() {
    // R16 levels of 250 -> 125 -> ... -> 1 pixels have lengths that are not multiples
    // of 4; each level still starts on a multiple of 4.
    let source = gray(250, 250);
    let mut bytes = Vec::new();
    encode_ktx2(&source, BlockFormat::R16, &mut bytes).unwrap();
    let reader = ktx2::Reader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header().level_count, 8);
    let dds = parse_dds(&dds_bytes(&source, BlockFormat::R16));
    for (i, (level, (_, _, want))) in reader
        .levels()
        .zip(split_levels(BlockFormat::R16, &dds))
        .enumerate()
    {
        assert_eq!(level.data, &want[..], "level {i}");
        assert_eq!(u64_at(&bytes, 80 + i * 24) % 4, 0, "level {i}");
    }
}

#[test]
fn nan_is_stored_as_zero() {
    let source = Image {
        width: 4,
        height: 4,
        channels: 1,
        data: vec![f32::NAN; 16],
    };
    let chain = mip_chain(&source, BlockFormat::Bc4).unwrap();
    assert!(chain.iter().all(|l| l.data.iter().all(|&v| v == 0.0)));
}

/// One output written as a texture (`texgraph render --output NAME -o x.dds`, or `.ktx2`)
/// takes the block format its usage asks for, as presets choose, at the depth the usage
/// asks for (16 bits for a height): the streamed file is, byte for byte, the encoding of
/// that output's own render in that format, with a full chain.
#[test]
fn single_outputs_are_written_as_textures_in_their_usages_block_format() {
    use texgraph_core::export::render_targets;
    use texgraph_core::export::streamed::export_streamed;
    use texgraph_core::{RenderOptions, compile, render};

    let graph = crate::common::example("brick_wall");
    let dir = tempfile::tempdir().unwrap();
    let size = 64;
    let cases = [
        ("basecolor", "dds", BlockFormat::Bc7Srgb),
        ("normal", "ktx2", BlockFormat::Bc5),
        ("height", "dds", BlockFormat::R16),
        ("roughness", "ktx2", BlockFormat::Bc4),
    ];
    for (output, extension, format) in cases {
        let path = dir.path().join(format!("{output}.{extension}"));
        let options = RenderOptions::default();
        let targets = render_targets(
            &graph,
            &path,
            (size, size),
            None,
            Some(output),
            false,
            &options,
        )
        .unwrap();
        export_streamed(&graph, &targets, None, &|_| {}).unwrap();
        let written = std::fs::read(&path).unwrap();

        let program = compile(&graph, Some(output)).unwrap();
        let image = render(&program, size, size, options, &|_| {}).unwrap();
        let mut want = Vec::new();
        if extension == "dds" {
            encode_dds(&image, format, &mut want).unwrap();
            let dds = parse_dds(&written);
            assert_eq!(dds.dxgi, dxgi_of(format), "{output}");
            assert_eq!(dds.mips, 7, "{output}: 64, 32, … 1");
        } else {
            encode_ktx2(&image, format, &mut want).unwrap();
            let reader = ktx2::Reader::new(&written[..]).unwrap();
            assert_eq!(
                reader.header().format.map(|f| f.value()),
                Some(vk_of(format))
            );
            assert_eq!(reader.header().level_count, 7, "{output}");
        }
        assert!(
            written == want,
            "{output}.{extension} is not its render in {format:?}"
        );
    }
}

/// Textures hold one whole map: a region of one is refused before anything renders.
#[test]
fn a_region_cannot_be_a_texture() {
    use texgraph_core::eval::stream::Region;
    use texgraph_core::export::render_targets;
    use texgraph_core::export::streamed::export_streamed;

    let graph = crate::common::example("brick_wall");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bc.dds");
    let targets = render_targets(
        &graph,
        &path,
        (64, 64),
        None,
        Some("basecolor"),
        false,
        &texgraph_core::RenderOptions::default(),
    )
    .unwrap();
    let region = Region {
        x: 0,
        y: 0,
        width: 32,
        height: 32,
    };
    let error = export_streamed(&graph, &targets, Some(region), &|_| {}).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("region cannot be written as DDS"),
        "{error}"
    );
    assert!(!path.exists());
    assert_eq!(crate::common::dir_entries(dir.path()), Vec::<String>::new());
}
