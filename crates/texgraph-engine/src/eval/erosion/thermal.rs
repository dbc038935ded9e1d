//! Thermal erosion (talus slumping, after Olsen 2004): a cell steeper than the talus
//! angle toward some neighbours sends them `strength` × half its largest excess height,
//! shared in proportion to each one's excess. A step is two passes: each cell works out
//! what it sends (as a share of each excess), then each cell takes what its neighbours
//! send it and gives what it sends, so material is only moved, never made or lost.
//! Non-tileable grids have walls at the edges: nothing slides out.

use rayon::prelude::*;

use super::field::{Edge, Field, neighbours, rows3};
use super::{LevelMaps, Simulation, resample, runs};
use crate::eval::planes::RELIEF;
use crate::terrain;
use texgraph_kernels::dispatch::multiversion;

/// Steps per grid at duration 1.
pub const STEPS: f32 = 50.0;

/// Beyond a wall: higher than any ground, so nothing is sent there.
const WALL: f32 = 1.0e30;

/// A thermal erosion under way.
pub struct Thermal {
    settings: terrain::Thermal,
    wrap: bool,
    height: Field,
    /// What each cell sends per unit of excess height.
    share: Field,
    next: Field,
    /// Height a neighbour may stand below a cell before material slides, per neighbour.
    talus: [f32; 8],
}

impl Thermal {
    /// A simulation of `settings`, wrapping at the edges when `wrap`.
    pub fn new(settings: terrain::Thermal, wrap: bool) -> Self {
        Self {
            settings,
            wrap,
            height: Field::default(),
            share: Field::default(),
            next: Field::default(),
            talus: [0.0; 8],
        }
    }

    fn grids(&mut self, w: usize, h: usize, height: Vec<f32>) -> Option<()> {
        self.height = Field::from_values(w, h, &height)?;
        self.share = Field::zeros(w, h)?;
        self.next = Field::zeros(w, h)?;
        let slope = self
            .settings
            .talus_angle
            .clamp(0.0, 89.9)
            .to_radians()
            .tan();
        self.talus = runs(w, h).map(|run| slope * run / RELIEF);
        Some(())
    }

    /// The heights now (for tests).
    pub fn heights(&self) -> Vec<f32> {
        self.height.values().collect()
    }
}

impl Simulation for Thermal {
    fn steps(&self, _side: usize) -> usize {
        (self.settings.duration.max(0.0) * STEPS).round() as usize
    }

    fn start(&mut self, w: usize, h: usize, maps: &LevelMaps) -> Option<()> {
        self.grids(w, h, maps.height.clone())
    }

    fn refine(&mut self, w: usize, h: usize, _maps: &LevelMaps, detail: &[f32]) -> Option<()> {
        let coarse: Vec<f32> = self.height.values().collect();
        let mut height = resample(&coarse, self.height.w, self.height.h, w, h, self.wrap)?;
        for (v, d) in height.iter_mut().zip(detail) {
            *v += d;
        }
        self.grids(w, h, height)
    }

    fn step(&mut self) {
        let (w, s) = (self.height.w, self.height.stride());
        let edge = if self.wrap { Edge::Wrap } else { Edge::Clamp };
        self.height.fill_border(edge);
        if !self.wrap {
            wall(&mut self.height);
        }
        let (talus, strength) = (self.talus, self.settings.strength.clamp(0.0, 1.0));
        let height = &self.height.data;
        self.share.rows_mut().enumerate().for_each(|(y, row)| {
            let [a, m, b] = rows3(height, y, s);
            send_row(a, m, b, &mut row[1..w + 1], talus, strength);
        });
        self.share
            .fill_border(if self.wrap { Edge::Wrap } else { Edge::Zero });
        let share = &self.share.data;
        self.next.rows_mut().enumerate().for_each(|(y, row)| {
            move_row(
                rows3(height, y, s),
                rows3(share, y, s),
                &mut row[1..w + 1],
                talus,
            );
        });
        std::mem::swap(&mut self.height, &mut self.next);
    }

    fn finish(self: Box<Self>) -> Vec<Vec<f32>> {
        vec![self.height.values().collect()]
    }
}

/// Raises the border of a clamped grid out of reach: the edges are walls.
fn wall(field: &mut Field) {
    let (s, h) = (field.stride(), field.h);
    for y in 0..h + 2 {
        if y == 0 || y == h + 1 {
            field.data[y * s..(y + 1) * s].fill(WALL);
        } else {
            field.data[y * s] = WALL;
            field.data[y * s + s - 1] = WALL;
        }
    }
}

multiversion! {
    /// What each cell of a row sends per unit of excess: `strength` × half the largest
    /// excess, over the sum of the excesses (0 where nothing is steep).
    fn send_row(a: &[f32], m: &[f32], b: &[f32], out: &mut [f32], talus: [f32; 8], strength: f32) {
        let w = out.len();
        let (a, m, b) = (&a[..w + 2], &m[..w + 2], &b[..w + 2]);
        for x in 0..w {
            let here = m[x + 1];
            let n = neighbours(a, m, b, x);
            let mut sum = 0.0f32;
            let mut most = 0.0f32;
            for k in 0..8 {
                let excess = (here - n[k] - talus[k]).max(0.0);
                sum += excess;
                most = most.max(excess);
            }
            out[x] = if sum > 0.0 { strength * 0.5 * most / sum } else { 0.0 };
        }
    }
}

multiversion! {
    /// The new heights of a row: each cell gives its share of every excess it has and
    /// takes its neighbours' shares of their excesses toward it.
    fn move_row(b: [&[f32]; 3], f: [&[f32]; 3], out: &mut [f32], talus: [f32; 8]) {
        let w = out.len();
        let (ba, bm, bb) = (&b[0][..w + 2], &b[1][..w + 2], &b[2][..w + 2]);
        let (fa, fm, fb) = (&f[0][..w + 2], &f[1][..w + 2], &f[2][..w + 2]);
        for x in 0..w {
            let here = bm[x + 1];
            let nb = neighbours(ba, bm, bb, x);
            let nf = neighbours(fa, fm, fb, x);
            let mut given = 0.0f32;
            let mut taken = 0.0f32;
            for k in 0..8 {
                given += (here - nb[k] - talus[k]).max(0.0);
                taken += nf[k] * (nb[k] - here - talus[k]).max(0.0);
            }
            out[x] = here - fm[x + 1] * given + taken;
        }
    }
}
