//! Image files read by `image` nodes: PNG (8 or 16 bits), JPEG, OpenEXR, Radiance HDR and
//! TIFF, decoded
//! to RGBA floats as stored (8 and 16-bit values divided by 255 and 65535; no color
//! conversion, like export). Sizes are checked before decoding, so a huge or hostile
//! file is refused with a message instead of exhausting memory.
//!
//! Decoded images are kept in a process-wide cache keyed by path, length and modification
//! time: previews re-use them, and a file changed on disk is read again. The web page,
//! which has no file system, reads the files it was handed ([`memory_files`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use texgraph_base::memory_files;
use texgraph_engine::eval::Image;

/// Largest file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// Largest image, in pixels (8192 × 8192); its RGBA floats take 1 GiB.
pub const MAX_PIXELS: u64 = 8192 * 8192;
/// Most bytes of decoded images kept in the cache.
const CACHE_BYTES: usize = 1 << 30;

/// What identifies one version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// A file in memory: where its bytes are (a file handed over again is a new buffer).
    buffer: Option<usize>,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<PathBuf, (Stamp, Arc<Image>, u64)>,
    /// Increases with each use, for least-recently-used eviction.
    clock: u64,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// The image at `path` as RGBA floats; the error says what is wrong, in words that follow
/// the path.
pub fn load(path: &Path) -> Result<Arc<Image>, String> {
    let cannot_read = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
    let in_memory = if cfg!(target_arch = "wasm32") {
        let found = memory_files::get(path);
        Some(found.ok_or_else(|| cannot_read(&memory_files::not_found(path)))?)
    } else {
        None
    };
    let stamp = match &in_memory {
        Some(bytes) => Stamp {
            len: bytes.len() as u64,
            modified: None,
            buffer: Some(bytes.as_ptr() as usize),
        },
        None => {
            let meta = std::fs::metadata(path).map_err(|e| cannot_read(&e))?;
            if !meta.is_file() {
                return Err(format!("{} is not a regular file", path.display()));
            }
            Stamp {
                len: meta.len(),
                modified: meta.modified().ok(),
                buffer: None,
            }
        }
    };
    if stamp.len > MAX_FILE_BYTES {
        return Err(format!(
            "{} is {} MiB; image files are read up to {} MiB",
            path.display(),
            stamp.len >> 20,
            MAX_FILE_BYTES >> 20
        ));
    }
    {
        let mut guard = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let cache = guard.get_or_insert_with(Cache::default);
        cache.clock += 1;
        let clock = cache.clock;
        if let Some((seen, image, used)) = cache.entries.get_mut(path)
            && *seen == stamp
        {
            *used = clock;
            return Ok(image.clone());
        }
    }
    let image = Arc::new(decode(path)?);
    let mut guard = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = guard.get_or_insert_with(Cache::default);
    cache.clock += 1;
    let clock = cache.clock;
    cache
        .entries
        .insert(path.to_owned(), (stamp, image.clone(), clock));
    evict(cache);
    Ok(image)
}

/// Drops the least recently used images until the cache fits its budget.
fn evict(cache: &mut Cache) {
    let bytes = |c: &Cache| -> usize { c.entries.values().map(|(_, i, _)| i.data.len() * 4).sum() };
    while cache.entries.len() > 1 && bytes(cache) > CACHE_BYTES {
        let oldest = cache
            .entries
            .iter()
            .min_by_key(|(_, (_, _, used))| *used)
            .map(|(p, _)| p.clone());
        if let Some(path) = oldest {
            cache.entries.remove(&path);
        }
    }
}

/// Decodes the image at `path` (in the web page, the bytes it was handed).
fn decode(path: &Path) -> Result<Image, String> {
    let fail =
        |e: &dyn std::fmt::Display| format!("cannot read {} as an image: {e}", path.display());
    let open = || -> Result<image::ImageReader<Box<dyn texgraph_base::files::Source>>, String> {
        let mut reader = texgraph_base::files::open(path)
            .map(image::ImageReader::new)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        // The name's extension first, then the content's signature, as `ImageReader::open`.
        if let Ok(format) = image::ImageFormat::from_path(path) {
            reader.set_format(format);
        }
        let reader = reader.with_guessed_format().map_err(|e| fail(&e))?;
        match reader.format() {
            Some(_) => Ok(reader),
            None => Err(format!(
                "{} is not a PNG, JPEG, EXR, HDR or TIFF image",
                path.display()
            )),
        }
    };
    // The header alone first: the size decides whether decoding is attempted at all.
    let (width, height) = open()?.into_dimensions().map_err(|e| fail(&e))?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "{} is {width}x{height}; images are read up to {MAX_PIXELS} pixels (8192x8192)",
            path.display(),
        ));
    }
    // Decoding holds the file's pixels and their float copy (at most 16 bytes a pixel
    // each); an allocation the process cannot make would abort, so refuse it up front.
    let needed = u64::from(width) * u64::from(height) * 32;
    if let Some(room) = texgraph_base::memory::short_of(needed) {
        return Err(format!(
            "{} is {width}x{height}; reading it needs about {} MiB but only {} MiB of memory is available to this process",
            path.display(),
            needed >> 20,
            room >> 20
        ));
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    limits.max_alloc = Some(MAX_PIXELS * 16 + (64 << 20));
    let mut reader = open()?;
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| fail(&e))?;
    let mut data = decoded.into_rgba32f().into_raw();
    // Float files (EXR, TIFF) may hold NaN and infinities: they become 0 and the
    // saturation bounds, so an image is as finite as any other node's values.
    let limit = texgraph_kernels::scalar::SATURATION;
    for v in &mut data {
        *v = if v.is_nan() {
            0.0
        } else {
            v.clamp(-limit, limit)
        };
    }
    Ok(Image {
        width,
        height,
        channels: 4,
        data,
    })
}
