//! A tile's image coordinates, u and v, made as the tile's operations need them.
//!
//! The noises sampled on the image grid read only the first row of u and one v per row
//! ([`Coordinates::u_row`], [`Coordinates::v_rows`]): those are always made. Whole
//! planes, one u and one v per sample, are made the first time an operation reads the
//! coordinates as operands, and a tile whose operations never do is spared writing them
//! (for a noise alone, a tenth of its time). The v plane of a band's tiles is the same
//! from tile to tile, and is kept.

use std::cell::{Cell, OnceCell};

use texgraph_kernels::dispatch::multiversion;

/// The coordinates of the tile being run.
pub(super) struct Coordinates {
    /// The tile: first column and row, columns, rows; the image's width and height.
    tile: [usize; 6],
    u_row: Vec<f32>,
    v_rows: Vec<f32>,
    /// The whole planes, once made, and the buffers they are made in.
    u: OnceCell<Vec<f32>>,
    v: OnceCell<Vec<f32>>,
    spare_u: Cell<Vec<f32>>,
    spare_v: Cell<Vec<f32>>,
}

impl Coordinates {
    /// No tile yet.
    pub(super) const fn new() -> Coordinates {
        Coordinates {
            tile: [usize::MAX; 6],
            u_row: Vec::new(),
            v_rows: Vec::new(),
            u: OnceCell::new(),
            v: OnceCell::new(),
            spare_u: Cell::new(Vec::new()),
            spare_v: Cell::new(Vec::new()),
        }
    }

    /// Starts the tile of `cols` × `rows` samples at `col0`, `row0` of a `width` ×
    /// `height` image.
    pub(super) fn start(
        &mut self,
        [col0, row0, cols, rows]: [usize; 4],
        [width, height]: [usize; 2],
    ) {
        let tile = [col0, row0, cols, rows, width, height];
        let same_rows = self.tile[1..] == tile[1..];
        self.tile = tile;
        recycle(&mut self.u, &self.spare_u);
        if !same_rows {
            recycle(&mut self.v, &self.spare_v);
        }
        self.u_row.resize(cols, 0.0);
        centres(&mut self.u_row, col0, width);
        self.v_rows.resize(rows, 0.0);
        centres(&mut self.v_rows, row0, height);
    }

    /// Forgets the planes (their buffers are kept), so that the next tile makes them anew.
    pub(super) fn forget(&mut self) {
        self.tile = [usize::MAX; 6];
        recycle(&mut self.u, &self.spare_u);
        recycle(&mut self.v, &self.spare_v);
    }

    /// u of each column of the tile.
    pub(super) fn u_row(&self) -> &[f32] {
        &self.u_row
    }

    /// v of each row of the tile.
    pub(super) fn v_rows(&self) -> &[f32] {
        &self.v_rows
    }

    /// u of every sample, row after row.
    pub(super) fn u(&self) -> &[f32] {
        self.u.get_or_init(|| {
            let mut plane = self.spare_u.take();
            plane.resize(self.u_row.len() * self.v_rows.len(), 0.0);
            repeat_row(&mut plane, &self.u_row);
            plane
        })
    }

    /// v of every sample, row after row.
    pub(super) fn v(&self) -> &[f32] {
        self.v.get_or_init(|| {
            let mut plane = self.spare_v.take();
            plane.resize(self.u_row.len() * self.v_rows.len(), 0.0);
            spread_rows(&mut plane, &self.v_rows);
            plane
        })
    }
}

/// Moves a made plane's buffer back to `spare`.
fn recycle(plane: &mut OnceCell<Vec<f32>>, spare: &Cell<Vec<f32>>) {
    if let Some(buffer) = plane.take() {
        spare.set(buffer);
    }
}

multiversion! {
    /// The centres of pixels `first`, `first` + 1, … of `size`, in image units, into `out`.
    fn centres(out: &mut [f32], first: usize, size: usize) {
        let size = size as f32;
        match i32::try_from(first + out.len()) {
            // Through i32, which converts to f32 in one vector instruction: the same
            // integer, so the same f32.
            Ok(_) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = ((first + k) as i32 as f32 + 0.5) / size;
                }
            }
            Err(_) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = ((first + k) as f32 + 0.5) / size;
                }
            }
        }
    }
}

multiversion! {
    /// `row` into every row of `plane`. Compiled per level, as are the copies below, so
    /// that the wide stores fill the planes in a fraction of the baseline's time.
    fn repeat_row(plane: &mut [f32], row: &[f32]) {
        for to in plane.chunks_exact_mut(row.len()) {
            to.copy_from_slice(row);
        }
    }
}

multiversion! {
    /// Each of `values` across a row of `plane`.
    fn spread_rows(plane: &mut [f32], values: &[f32]) {
        let cols = plane.len() / values.len().max(1);
        for (to, &v) in plane.chunks_exact_mut(cols.max(1)).zip(values) {
            to.fill(v);
        }
    }
}
