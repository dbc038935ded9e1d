//! Work off the UI thread. Each kind of background work (the preview's renders, the 3D
//! view's frames, an export) is a [`Work`]: how jobs wait (a newer one may supersede one
//! still waiting), how one is done, and what a job that panicked reports. A
//! [`Background`] runs a `Work` on a thread of its own (in the web page, between frames):
//! it takes jobs, hands back what they made, wakes the UI after each, and ends when
//! dropped.

pub mod ball;
pub mod export;
pub mod preview;

// A thread of its own on the desktop; the web page has one thread, where jobs take turns
// with the frames.
#[cfg_attr(not(target_arch = "wasm32"), path = "on_thread.rs")]
#[cfg_attr(target_arch = "wasm32", path = "in_frames.rs")]
mod background;

mod work;

pub use background::Background;
pub use work::{Work, panic_message, serve};
