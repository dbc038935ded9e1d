//! Hydraulic erosion: water routed downhill cell to cell, carrying material.
//!
//! Each step, every cell sends the water and sediment it passes on to the neighbours
//! whose water surface lies lower, in proportion to the squared slope toward each
//! (multiple flow directions, so streams merge and split as the ground says), and takes
//! what its higher neighbours send it. Rain falls on every cell and water evaporates
//! along the way, so the water passing a cell measures the area draining through it: the
//! river network. Water that reaches a hollow stands there as a lake, rising until it
//! spills over the lowest rim. Running water carries up to `capacity` × area drained ×
//! slope (transport-limited: what a stream can carry grows with its water, so the
//! streams of a valley's sides carry no more into it than its floor carries on), times
//! 1 + `downcutting` × √(area / [`FLOW_HALF`]): with it, large streams carry more than
//! their share, cut down faster than the slopes feeding them and so draw more water, the
//! instability that branches valleys into gullies. A cell whose load is below what it can
//! carry wears the ground (never below its lowest neighbour), one whose load is above
//! lays the excess down, and standing water lays down all it carries, so lakes fill with
//! sediment; a lake still standing when the run ends is filled level (see `lakes`). A
//! step is two passes (each cell's sum of weights, then each cell's gather and update),
//! so every cell reads only its neighbours and the step gives the same bits on any thread
//! and instruction set.
//! Material is only moved: the ground's height plus the sediment in transit stays the
//! same, except what non-tileable grids let run out over their edges, where the ground
//! beyond is the edge's slope continued (as it was when the grid started: a base level
//! the edge wears down to, not one that sinks with it).

use rayon::prelude::*;

use super::field::{Edge, Field, neighbours, rows3};
use super::{LevelMaps, Simulation, lakes, resample, runs};
use crate::eval::planes::RELIEF;
use crate::terrain;
use texgraph_kernels::dispatch::multiversion;
use texgraph_kernels::shapes::hash01;

/// Steps on a grid of [`BASE`](super::BASE) cells across, at duration 1; a grid of
/// twice as many cells across runs half as many.
pub const STEPS: f32 = 400.0;

/// Capacity at `capacity` 1: the load, in height units per cell, that water draining the
/// whole texture carries down a slope of 1.
const CAPACITY: f32 = 0.5;

/// Rain per cell and step at `rain` 1, in height units of water.
const RAIN_DEPTH: f32 = 1.0e-4;

/// Lattice cells across of the rain's random variation.
const RAIN_CELLS: i32 = 16;
/// The rain varies by up to this share either way.
const RAIN_VARIATION: f32 = 0.25;

/// The area drained (a share of the texture's) that reads 0.5 in the `flow` output.
pub const FLOW_HALF: f32 = 0.002;
/// Material worn or laid down that reads 0.5 in the `wear` and `deposition` outputs, in
/// height units.
pub const MATERIAL_HALF: f32 = 0.01;

/// A hydraulic erosion under way.
pub struct Hydraulic {
    settings: terrain::Hydraulic,
    wrap: bool,
    /// Ground height.
    ground: Field,
    /// Standing water (lakes), height units.
    lake: Field,
    /// Ground plus standing water: what water runs down.
    surface: Field,
    /// Beyond the edges of a grid that does not wrap: the ground's slope at the edge
    /// continued outward (not below the grid's lowest ground), as it was when the grid
    /// started. Fixed, so that the edge can wear down to it but not chase it down.
    rim: Vec<f32>,
    /// Water passed on by each cell this step, height units over the cell.
    water: Field,
    /// Sediment passed on by each cell this step, height units over the cell.
    sediment: Field,
    /// 1 / each cell's sum of weights toward its neighbours (0 where none is lower).
    inverse: Field,
    /// Totals worn and laid down at each cell.
    wear: Vec<f32>,
    deposit: Vec<f32>,
    /// Rain per cell and step, and how much of the ground wears (1 − hardness).
    rain: Vec<f32>,
    soft: Vec<f32>,
    next: [Field; 5],
}

impl Hydraulic {
    /// A simulation of `settings`, wrapping at the edges when `wrap`.
    pub fn new(settings: terrain::Hydraulic, wrap: bool) -> Self {
        Self {
            settings,
            wrap,
            ground: Field::default(),
            lake: Field::default(),
            surface: Field::default(),
            rim: Vec::new(),
            water: Field::default(),
            sediment: Field::default(),
            inverse: Field::default(),
            wear: Vec::new(),
            deposit: Vec::new(),
            rain: Vec::new(),
            soft: Vec::new(),
            next: [
                Field::default(),
                Field::default(),
                Field::default(),
                Field::default(),
                Field::default(),
            ],
        }
    }

    /// The ground's total height and the sediment in transit, summed in f64 (for tests
    /// of what is conserved).
    pub fn totals(&self) -> (f64, f64) {
        let sum = |f: &Field| f.values().map(f64::from).sum::<f64>();
        (sum(&self.ground), sum(&self.sediment))
    }

    /// The totals worn and laid down, summed in f64.
    pub fn material(&self) -> (f64, f64) {
        let sum = |v: &[f32]| v.iter().copied().map(f64::from).sum::<f64>();
        (sum(&self.wear), sum(&self.deposit))
    }

    /// Sets the grids of a `w` × `h` level from values already on it: ground, lakes,
    /// water, sediment, wear and deposit.
    fn grids(&mut self, w: usize, h: usize, maps: &LevelMaps, state: [Vec<f32>; 6]) -> Option<()> {
        let [ground, lake, water, sediment, wear, deposit] = state;
        self.ground = Field::from_values(w, h, &ground)?;
        self.lake = Field::from_values(w, h, &lake)?;
        let surface: Vec<f32> = ground.iter().zip(&lake).map(|(g, l)| g + l).collect();
        self.surface = Field::from_values(w, h, &surface)?;
        if !self.wrap {
            // Never below the lowest ground: the edges wear no deeper than the input goes.
            let lowest = surface.iter().copied().fold(f32::MAX, f32::min);
            self.surface.fill_border(Edge::Extend);
            self.rim = self
                .surface
                .border()
                .iter()
                .map(|v| v.max(lowest))
                .collect();
        }
        self.water = Field::from_values(w, h, &water)?;
        self.sediment = Field::from_values(w, h, &sediment)?;
        self.inverse = Field::zeros(w, h)?;
        self.next = [
            Field::zeros(w, h)?,
            Field::zeros(w, h)?,
            Field::zeros(w, h)?,
            Field::zeros(w, h)?,
            Field::zeros(w, h)?,
        ];
        (self.wear, self.deposit) = (wear, deposit);
        let s = self.settings;
        let mut rain = Vec::new();
        rain.try_reserve_exact(w * h).ok()?;
        for y in 0..h {
            for x in 0..w {
                let (u, v) = ((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32);
                let jitter = 1.0 + RAIN_VARIATION * (2.0 * lattice_noise(u, v, s.seed) - 1.0);
                let map = maps.rain.as_ref().map_or(1.0, |r| r[y * w + x].max(0.0));
                rain.push(s.rain.max(0.0) * RAIN_DEPTH * jitter * map);
            }
        }
        self.rain = rain;
        self.soft = match &maps.hardness {
            Some(hardness) => hardness.iter().map(|v| 1.0 - v.clamp(0.0, 1.0)).collect(),
            None => vec![1.0; w * h],
        };
        Some(())
    }

    /// What every cell of a step uses alike.
    fn rates(&self) -> Rates {
        let s = self.settings;
        let (w, h) = (self.ground.w, self.ground.h);
        Rates {
            grade: runs(w, h).map(|run| RELIEF / run),
            keep: (-s.evaporation.max(0.0) / w.max(h) as f32).exp(),
            area: 1.0 / (w as f32 * h as f32 * RAIN_DEPTH),
            capacity: CAPACITY * s.capacity.max(0.0),
            downcutting: s.downcutting.max(0.0) / FLOW_HALF.sqrt(),
            erosion: s.erosion.clamp(0.0, 1.0),
            deposition: s.deposition.clamp(0.0, 1.0),
            min_slope: s.min_slope.max(0.0),
        }
    }
}

/// What every cell of a step uses alike.
#[derive(Clone, Copy)]
struct Rates {
    /// Slope per unit of height difference toward each neighbour.
    grade: [f32; 8],
    /// Water kept from one cell to the next.
    keep: f32,
    /// Area drained (a share of the texture's) per unit of water passed on.
    area: f32,
    capacity: f32,
    /// `downcutting` / √[`FLOW_HALF`]: a stream draining `a` carries 1 + this × √a times
    /// what its water alone would.
    downcutting: f32,
    erosion: f32,
    deposition: f32,
    min_slope: f32,
}

impl Simulation for Hydraulic {
    fn steps(&self, side: usize) -> usize {
        let scale = super::BASE as f32 / side.max(1) as f32;
        (self.settings.duration.max(0.0) * STEPS * scale).round() as usize
    }

    fn start(&mut self, w: usize, h: usize, maps: &LevelMaps) -> Option<()> {
        let zeros = || vec![0.0; w * h];
        let state = [
            maps.height.clone(),
            zeros(),
            zeros(),
            zeros(),
            zeros(),
            zeros(),
        ];
        self.grids(w, h, maps, state)
    }

    fn refine(&mut self, w: usize, h: usize, maps: &LevelMaps, detail: &[f32]) -> Option<()> {
        let (cw, ch, wrap) = (self.ground.w, self.ground.h, self.wrap);
        let up = |values: Vec<f32>| resample(&values, cw, ch, w, h, wrap);
        let mut ground = up(self.ground.values().collect())?;
        for (v, d) in ground.iter_mut().zip(detail) {
            *v += d;
        }
        // The water a cell passes on is the rain on the cells draining through it: on a
        // grid twice as fine, a hillside cell drains a strip half as wide of cells a
        // quarter the size (twice as many cells), a stream's the same area (four times).
        let mut water = up(self.water.values().collect())?;
        for v in &mut water {
            *v *= 2.0;
        }
        let lake = up(self.lake.values().collect())?;
        let sediment = up(self.sediment.values().collect())?;
        let wear = up(std::mem::take(&mut self.wear))?;
        let deposit = up(std::mem::take(&mut self.deposit))?;
        self.grids(w, h, maps, [ground, lake, water, sediment, wear, deposit])
    }

    fn step(&mut self) {
        let (w, s) = (self.ground.w, self.ground.stride());
        let fluid_edge = if self.wrap {
            self.surface.fill_border(Edge::Wrap);
            Edge::Wrap
        } else {
            self.surface.set_border(&self.rim);
            Edge::Zero
        };
        self.water.fill_border(fluid_edge);
        self.sediment.fill_border(fluid_edge);
        let rates = self.rates();
        let surface = &self.surface.data;
        self.inverse.rows_mut().enumerate().for_each(|(y, row)| {
            let [a, m, b] = rows3(surface, y, s);
            weight_row(a, m, b, &mut row[1..w + 1], rates.grade);
        });
        self.inverse.fill_border(fluid_edge);
        let (water, sediment, inverse) =
            (&self.water.data, &self.sediment.data, &self.inverse.data);
        let (ground, lake) = (&self.ground.data, &self.lake.data);
        let (rain, soft) = (&self.rain, &self.soft);
        let [g_out, l_out, z_out, q_out, s_out] = &mut self.next;
        g_out
            .rows_mut()
            .zip(l_out.rows_mut())
            .zip(z_out.rows_mut())
            .zip(q_out.rows_mut())
            .zip(s_out.rows_mut())
            .zip(self.wear.par_chunks_mut(w))
            .zip(self.deposit.par_chunks_mut(w))
            .enumerate()
            .for_each(|(y, ((((((g, l), z), q), sd), wear), deposit))| {
                let at = (y + 1) * s + 1;
                let input = Row {
                    surface: rows3(surface, y, s),
                    water: rows3(water, y, s),
                    sediment: rows3(sediment, y, s),
                    inverse: rows3(inverse, y, s),
                    ground: &ground[at..at + w],
                    lake: &lake[at..at + w],
                    rain: &rain[y * w..][..w],
                    soft: &soft[y * w..][..w],
                };
                let output = RowOut {
                    ground: &mut g[1..w + 1],
                    lake: &mut l[1..w + 1],
                    surface: &mut z[1..w + 1],
                    water: &mut q[1..w + 1],
                    sediment: &mut sd[1..w + 1],
                    wear,
                    deposit,
                };
                update_row(input, output, rates);
            });
        let [g_out, l_out, z_out, q_out, s_out] = &mut self.next;
        std::mem::swap(&mut self.ground, g_out);
        std::mem::swap(&mut self.lake, l_out);
        std::mem::swap(&mut self.surface, z_out);
        std::mem::swap(&mut self.water, q_out);
        std::mem::swap(&mut self.sediment, s_out);
    }

    fn finish(self: Box<Self>) -> Vec<Vec<f32>> {
        let saturate = |v: f32, half: f32| {
            let v = v.max(0.0);
            v / (v + half)
        };
        let area = self.rates().area;
        let (w, h, s) = (self.ground.w, self.ground.h, self.ground.stride());
        let inner = |i: usize| (i / w + 1) * s + i % w + 1;
        let (ground, lake) = (&self.ground.data, &self.lake.data);
        let raise = lakes::fill(|i| ground[inner(i)], |i| lake[inner(i)], w, h, self.wrap);
        let height = self
            .ground
            .values()
            .zip(&raise)
            .map(|(g, r)| g + r)
            .collect();
        let flow = self
            .water
            .values()
            .map(|q| saturate(q * area, FLOW_HALF))
            .collect();
        let wear = self
            .wear
            .iter()
            .map(|&e| saturate(e, MATERIAL_HALF))
            .collect();
        let deposit = self
            .deposit
            .iter()
            .zip(&raise)
            .map(|(&d, r)| saturate(d + r, MATERIAL_HALF))
            .collect();
        vec![height, flow, wear, deposit]
    }
}

/// The rain's variation at (u, v): value noise on a lattice of [`RAIN_CELLS`] cells
/// across that repeats with the texture, in [0, 1).
fn lattice_noise(u: f32, v: f32, seed: u32) -> f32 {
    let (x, y) = (u * RAIN_CELLS as f32 - 0.5, v * RAIN_CELLS as f32 - 0.5);
    let (x0, y0) = (x.floor(), y.floor());
    let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (smooth(x - x0), smooth(y - y0));
    let at = |i: i32, j: i32| hash01(i.rem_euclid(RAIN_CELLS), j.rem_euclid(RAIN_CELLS), seed);
    let (i, j) = (x0 as i32, y0 as i32);
    let top = at(i, j) + (at(i + 1, j) - at(i, j)) * sx;
    let bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * sx;
    top + (bottom - top) * sy
}

/// What a row's update reads: padded rows above, level with and below it of the grids
/// read at neighbours, and the row's own cells of the rest.
struct Row<'a> {
    surface: [&'a [f32]; 3],
    water: [&'a [f32]; 3],
    sediment: [&'a [f32]; 3],
    inverse: [&'a [f32]; 3],
    ground: &'a [f32],
    lake: &'a [f32],
    rain: &'a [f32],
    soft: &'a [f32],
}

/// A row's new values.
struct RowOut<'a> {
    ground: &'a mut [f32],
    lake: &'a mut [f32],
    surface: &'a mut [f32],
    water: &'a mut [f32],
    sediment: &'a mut [f32],
    wear: &'a mut [f32],
    deposit: &'a mut [f32],
}

/// The larger of two numbers, as a comparison and a select: the values here are never NaN,
/// and `f32::max`'s care for NaN costs a blend per call on the baseline.
#[inline(always)]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The smaller of two numbers (see [`larger`]).
#[inline(always)]
fn smaller(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The weight of a neighbour `drop` lower, `grade` being slope per unit of height: the
/// squared slope toward it, 0 uphill.
#[inline(always)]
fn weight(drop: f32, grade: f32) -> f32 {
    let slope = larger(drop * grade, 0.0);
    slope * slope
}

multiversion! {
    /// 1 / the sum of each cell's weights toward its neighbours, 0 where none is lower
    /// (or all are lower by next to nothing).
    fn weight_row(a: &[f32], m: &[f32], b: &[f32], out: &mut [f32], grade: [f32; 8]) {
        let w = out.len();
        let (a, m, b) = (&a[..w + 2], &m[..w + 2], &b[..w + 2]);
        for x in 0..w {
            let here = m[x + 1];
            let n = neighbours(a, m, b, x);
            let mut sum = 0.0f32;
            for k in 0..8 {
                sum += weight(here - n[k], grade[k]);
            }
            // A sum so small that its inverse would overflow counts as none.
            out[x] = if sum > TINY { 1.0 / sum } else { 0.0 };
        }
    }
}

/// Values below this are taken as 0: water and load that would otherwise dwindle into
/// subnormal numbers, which every instruction set computes alike but slowly.
const TINY: f32 = 1.0e-30;

/// One row of a step: each cell gathers what its neighbours send, then passes water on
/// or holds it as a lake, and wears or lays down.
fn update_row(row: Row<'_>, out: RowOut<'_>, rates: Rates) {
    let [za, zm, zb] = row.surface;
    let [qa, qm, qb] = row.water;
    let [sa, sm, sb] = row.sediment;
    let [ia, im, ib] = row.inverse;
    update_cells(
        za,
        zm,
        zb,
        qa,
        qm,
        qb,
        sa,
        sm,
        sb,
        ia,
        im,
        ib,
        row.ground,
        row.lake,
        row.rain,
        row.soft,
        out.ground,
        out.lake,
        out.surface,
        out.water,
        out.sediment,
        out.wear,
        out.deposit,
        rates,
    );
}

multiversion! {
    // Every row a separate argument: so the compiler knows no two overlap, and
    // vectorizes the loop.
    #[allow(clippy::too_many_arguments)]
    fn update_cells(
        za: &[f32], zm: &[f32], zb: &[f32],
        qa: &[f32], qm: &[f32], qb: &[f32],
        sa: &[f32], sm: &[f32], sb: &[f32],
        ia: &[f32], im: &[f32], ib: &[f32],
        ground: &[f32], lake: &[f32], rain: &[f32], soft: &[f32],
        g_out: &mut [f32], l_out: &mut [f32], z_out: &mut [f32], q_out: &mut [f32],
        s_out: &mut [f32], wear: &mut [f32], deposit: &mut [f32],
        rates: Rates,
    ) {
        let Rates { grade, keep, area, capacity, downcutting, erosion, deposition, min_slope } = rates;
        let w = g_out.len();
        let (za, zm, zb) = (&za[..w + 2], &zm[..w + 2], &zb[..w + 2]);
        let (qa, qm, qb) = (&qa[..w + 2], &qm[..w + 2], &qb[..w + 2]);
        let (sa, sm, sb) = (&sa[..w + 2], &sm[..w + 2], &sb[..w + 2]);
        let (ia, im, ib) = (&ia[..w + 2], &im[..w + 2], &ib[..w + 2]);
        let (ground, lake, rain, soft) = (&ground[..w], &lake[..w], &rain[..w], &soft[..w]);
        let (l_out, z_out, q_out, s_out) = (&mut l_out[..w], &mut z_out[..w], &mut q_out[..w], &mut s_out[..w]);
        let (wear, deposit) = (&mut wear[..w], &mut deposit[..w]);
        for x in 0..w {
            let here = zm[x + 1];
            let nz = neighbours(za, zm, zb, x);
            let nq = neighbours(qa, qm, qb, x);
            let ns = neighbours(sa, sm, sb, x);
            let ni = neighbours(ia, im, ib, x);
            let mut water_in = 0.0f32;
            let mut load_in = 0.0f32;
            let mut steepest = 0.0f32;
            let mut lowest = f32::MAX;
            for k in 0..8 {
                let share = weight(nz[k] - here, grade[k]) * ni[k];
                water_in += nq[k] * share;
                load_in += ns[k] * share;
                steepest = larger(steepest, (here - nz[k]) * grade[k]);
                lowest = smaller(lowest, nz[k]);
            }
            // Nothing lower around: the cell holds its water and load.
            let hollow = im[x + 1] == 0.0;
            let held = if hollow { sm[x + 1] } else { 0.0 };
            let arriving = rain[x] + water_in * keep;
            let standing = lake[x] * keep;
            // A lake above its lowest rim drains half the difference a step.
            let spill = smaller(larger((here - lowest) * 0.5, 0.0), standing);
            let passed = if hollow { 0.0 } else { arriving + spill };
            let pooled = if hollow { standing + arriving } else { standing - spill };
            let load = load_in + held;
            let dry = pooled <= TINY;
            let carry = if dry {
                let drained = passed * area;
                capacity * drained * (1.0 + downcutting * drained.sqrt()) * larger(steepest, min_slope)
            } else {
                0.0
            };
            let missing = carry - load;
            let ground_here = ground[x];
            // Wear where the load is short, never below the lowest neighbour.
            let worn = larger(smaller(erosion * missing * soft[x], (ground_here - lowest) * 0.5), 0.0);
            // Lay down where it is over; still water lays it all down, under its surface.
            let settled = if dry {
                larger(deposition * -missing, 0.0)
            } else {
                smaller(load, pooled)
            };
            let new_ground = ground_here - worn + settled;
            let new_lake = pooled - settled;
            let new_lake = if new_lake > TINY { new_lake } else { 0.0 };
            let carried = load + worn - settled;
            g_out[x] = new_ground;
            l_out[x] = new_lake;
            z_out[x] = new_ground + new_lake;
            q_out[x] = if passed > TINY { passed } else { 0.0 };
            s_out[x] = if carried > TINY { carried } else { 0.0 };
            wear[x] += worn;
            deposit[x] += settled;
        }
    }
}
