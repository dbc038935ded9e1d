//! What every layer of texgraph shares, and nothing that knows about graphs, programs or
//! images:
//!
//! - [`error`]: the one error type; every problem with a graph names its node and field.
//! - [`files`]: text files read with a size limit, refusing devices and pipes.
//! - [`text`]: text from files made safe to print on a terminal.
//! - [`memory`]: what the process may still allocate (available memory, cgroup and
//!   address-space limits), and fallible collection.
//! - [`staging`]: every file written is staged beside its target and committed by
//!   rename, alone or as a set; [`signals`] removes pending temporaries when the process
//!   is killed.

pub mod error;
pub mod files;
pub mod memory;
pub mod memory_files;
pub mod signals;
// On disk, or in memory where there is no file system (the web page).
#[cfg_attr(not(target_arch = "wasm32"), path = "staging/on_disk.rs")]
#[cfg_attr(target_arch = "wasm32", path = "staging/in_memory.rs")]
pub mod staging;
pub mod text;

pub use error::{Error, GraphError, Location, Result};
