//! The editor's tests, driven headlessly as a person would (one test binary, so the
//! crate links its tests once).
#![allow(missing_docs)]

mod ball;
mod common;
mod daily_work;
mod materials;
mod raster;
mod recovery;
mod state;
mod ui;
