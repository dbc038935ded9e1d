//! Plane buffers kept for reuse. A fresh buffer of many megabytes costs page faults and
//! zeroing on first touch, every render; previews and benchmarks render the same program
//! again and again, and a render frees planes that later stages of the same size can
//! take. Buffers are only ever handed out whole and initialized (stages overwrite every
//! texel), and the pool keeps a bounded number of bytes.

use std::sync::Mutex;

/// Most bytes the pool keeps.
const KEEP_BYTES: usize = 256 << 20;

static POOL: Mutex<Vec<Vec<f32>>> = Mutex::new(Vec::new());

/// A buffer of `len` samples (contents unspecified but initialized), reused when the pool
/// has one large enough, else freshly allocated; `None` when memory is short.
pub fn take(len: usize) -> Option<Vec<f32>> {
    let reused = {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        // The smallest that fits, so large buffers stay for large planes.
        let best = pool
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= len)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        best.map(|i| pool.swap_remove(i))
    };
    match reused {
        Some(mut buffer) => {
            buffer.truncate(len);
            buffer.resize(len, 0.0);
            Some(buffer)
        }
        None => zeroed(len),
    }
}

/// Gives a buffer back for reuse (or drops it when the pool is full).
pub fn give(mut buffer: Vec<f32>) {
    if buffer.capacity() == 0 {
        return;
    }
    // Keep it fully initialized so that any later length is safe to hand out.
    buffer.resize(buffer.capacity(), 0.0);
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    let held: usize = pool.iter().map(|b| b.capacity() * 4).sum();
    if held + buffer.capacity() * 4 <= KEEP_BYTES {
        pool.push(buffer);
    }
}

/// A zeroed buffer from the allocator's zeroed pages: no single-threaded memset before
/// the parallel render touches it. `None` when memory is short.
pub fn zeroed(len: usize) -> Option<Vec<f32>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<f32>(len).ok()?;
    // SAFETY: the layout is non-zero-sized; the pointer, when non-null, comes from the global
    // allocator with f32's layout and `len` elements, all initialized (zero bits are 0.0).
    let buffer = unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<f32>();
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, len, len))?
    };
    advise_huge_pages(&buffer);
    Some(buffer)
}

/// Asks Linux to back a large buffer with 2 MiB pages, so that first touching it costs a
/// few hundred page faults instead of one per 4 KiB. Purely advisory.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buffer: &[f32]) {
    const HUGE: usize = 2 << 20;
    let start = buffer.as_ptr() as usize;
    let end = start + std::mem::size_of_val(buffer);
    let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if first < last {
        // SAFETY: the range lies inside `buffer`'s allocation; MADV_HUGEPAGE changes no
        // contents and its failure is harmless.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            )
        };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buffer: &[f32]) {}
