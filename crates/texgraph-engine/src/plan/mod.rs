//! The schedule of a compiled program at a given size: its stages, what each computes and
//! reads, the planes alive, the peak memory and the estimated work. `texgraph plan`
//! prints it; the memory check before a render uses the same figures.

mod streamed;

use std::fmt;

pub use streamed::{PlaneHold, StreamPlan, streamed};

use crate::eval::{TILE, image_bytes};
use crate::program::{Program, Reach, Stage, StageWork, TileProgram};

/// One stage at a given size.
#[derive(Debug, Clone)]
pub struct StagePlan {
    /// The node whose value the stage computes.
    pub node: String,
    /// `pixels N ops` or `blur σ=…`.
    pub work: String,
    /// Width and height of its grid.
    pub grid: (u32, u32),
    /// 1 or 4.
    pub channels: usize,
    /// What it writes: `plane #i` or `output`.
    pub writes: String,
    /// The nodes of the planes it reads, each with how far around a texel it reads.
    pub reads: Vec<(String, PlaneReach)>,
    /// Estimated operations per texel of its grid.
    pub cost: f32,
    /// Bytes held while it runs: live planes, its target, its working memory.
    pub memory: u64,
}

/// A program's schedule at one size.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Render width.
    pub width: u32,
    /// Render height.
    pub height: u32,
    /// The stages in order.
    pub stages: Vec<StagePlan>,
    /// The most bytes held at once, the output image and the program's tables included.
    pub peak_bytes: u64,
    /// Bytes of the program's lookup tables (Perlin's corner and permutation tables).
    pub table_bytes: u64,
    /// Estimated operations for the whole render.
    pub operations: f64,
}

/// How far around each texel a stage reads a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaneReach {
    /// Within this many texels.
    Apron(u64),
    /// Anywhere: at positions computed per texel (re-sampled).
    Anywhere,
    /// All of it for every texel: the plane must be complete first.
    Whole,
}

/// Bytes of tile buffers each thread of a per-pixel stage holds.
pub(crate) fn workspace_bytes(tiles: &TileProgram) -> u64 {
    u64::from(tiles.slot_count) * (TILE[0] * TILE[1] * 4) as u64
}

/// Bytes a stage works in beside its target (of `target` bytes) on a `grid`, on
/// `threads` threads.
pub(crate) fn working_bytes(stage: &Stage, grid: (u32, u32), target: u64, threads: usize) -> u64 {
    let texels = f64::from(grid.0) * f64::from(grid.1);
    match &stage.work {
        StageWork::Pixels(tiles) => workspace_bytes(tiles).saturating_mul(threads as u64),
        // Three working planes of the target's size.
        StageWork::Blur { .. } => target.saturating_mul(3),
        // The column distances live in the target; each thread keeps a row's
        // envelope (up to two parabolas per texel, each five integers of up to 128
        // bits) and its squared distances (an f64 per texel).
        StageWork::Distance { .. } => u64::from(grid.0).saturating_mul(168 * threads as u64),
        // At most one run per two texels, each with its bounds, parent and shape, and
        // a shape per run.
        StageWork::FloodFill { .. } => (texels as u64).saturating_mul(16),
        // The bounds are found in the target itself.
        StageWork::Stretch { .. } => 0,
        StageWork::Erosion { model, .. } => {
            let maps = stage.work.inputs().len() - 1;
            crate::eval::erosion::working_bytes(*model, grid, maps)
        }
    }
}

/// The schedule of `program` rendered at `width` × `height` on `threads` threads.
pub fn plan(program: &Program, width: u32, height: u32, threads: usize) -> Plan {
    let plane_bytes = |i: usize| {
        let info = &program.planes[i];
        let (w, h) = info.size.at(width, height);
        image_bytes(w, h, info.channels as usize).unwrap_or(u64::MAX)
    };
    let output = image_bytes(width, height, program.channels()).unwrap_or(u64::MAX);
    // Loaded images live as long as the program.
    let images: u64 = (0..program.planes.len())
        .filter(|&i| program.planes[i].image.is_some())
        .map(plane_bytes)
        .fold(0u64, u64::saturating_add);
    // So do its lookup tables (Perlin's corner tables are sized by frequency, not by the
    // image: at a small size they can outweigh everything else).
    let tables = program.table_bytes();
    let resident = images.saturating_add(tables);
    let last = program.last_readers();
    let mut alive: Vec<usize> = Vec::new();
    let mut stages = Vec::new();
    let mut peak = 0u64;
    let mut operations = 0.0;
    for (index, stage) in program.stages.iter().enumerate() {
        let grid = match stage.target {
            Some(p) => program.planes[p as usize].size.at(width, height),
            None => (width, height),
        };
        let texels = f64::from(grid.0) * f64::from(grid.1);
        let target = stage.target.map_or(0, |p| plane_bytes(p as usize));
        let working = working_bytes(stage, grid, target, threads);
        let held: u64 = alive
            .iter()
            .map(|&p| plane_bytes(p))
            .fold(0, u64::saturating_add);
        let memory = held
            .saturating_add(target)
            .saturating_add(working)
            .saturating_add(output)
            .saturating_add(resident);
        peak = peak.max(memory);
        operations += f64::from(stage.cost) * texels;
        let apron = |plane: u32| match stage.reach_of(plane).unwrap_or(Reach::Whole) {
            Reach::Anywhere => PlaneReach::Anywhere,
            Reach::Whole => PlaneReach::Whole,
            Reach::Near(a) => {
                let (w, h) = program.planes[plane as usize].size.at(width, height);
                PlaneReach::Apron(a.texels_at(w.max(h)))
            }
        };
        stages.push(StagePlan {
            node: stage.node.clone(),
            work: match &stage.work {
                StageWork::Pixels(tiles) => format!("pixels, {} operations", tiles.instrs.len()),
                StageWork::Blur { radius, .. } => format!(
                    "blur, σ = {:.1} texels",
                    f64::from(*radius) * f64::from(grid.0)
                ),
                StageWork::Distance { side, to_edge, .. } => {
                    let to = if *to_edge { ", to the edge" } else { "" };
                    format!("exact distance transform ({side:?}{to}), reads the whole plane")
                }
                StageWork::Stretch { .. } => {
                    "auto levels: stretches to the plane's range, reads the whole plane".to_owned()
                }
                StageWork::FloodFill { .. } => {
                    "flood fill: labels the shapes, reads the whole plane".to_owned()
                }
                StageWork::Erosion { model, .. } => crate::eval::erosion::describe(*model, grid),
            },
            grid,
            channels: stage.channels(&program.planes),
            writes: stage
                .target
                .map_or_else(|| "output".to_owned(), |p| format!("plane #{p}")),
            reads: stage
                .reads
                .iter()
                .map(|&p| {
                    (
                        format!("#{p} ({})", program.planes[p as usize].node),
                        apron(p),
                    )
                })
                .collect(),
            cost: stage.cost,
            memory,
        });
        if let Some(p) = stage.target
            && last[p as usize].is_some()
        {
            alive.push(p as usize);
        }
        alive.retain(|&p| last[p].is_some_and(|l| l > index));
    }
    Plan {
        width,
        height,
        stages,
        peak_bytes: peak,
        table_bytes: tables,
        operations,
    }
}

pub(crate) fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 20)
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stages.iter().enumerate() {
            writeln!(
                f,
                "stage {i}: '{}' {}x{}x{} -> {}: {} ({:.0} per texel)",
                s.node, s.grid.0, s.grid.1, s.channels, s.writes, s.work, s.cost
            )?;
            for (plane, apron) in &s.reads {
                match apron {
                    PlaneReach::Apron(a) => {
                        writeln!(f, "    reads plane {plane}, apron {a} texels")?
                    }
                    PlaneReach::Anywhere => {
                        writeln!(f, "    reads plane {plane} anywhere (re-sampled)")?
                    }
                    PlaneReach::Whole => writeln!(f, "    reads plane {plane} whole")?,
                }
            }
            writeln!(f, "    memory while running: {:.1} MiB", mib(s.memory))?;
        }
        write!(
            f,
            "{}x{}: {} stage(s), peak memory {:.1} MiB (lookup tables {:.1} MiB), about {:.0} million operations",
            self.width,
            self.height,
            self.stages.len(),
            mib(self.peak_bytes),
            mib(self.table_bytes),
            self.operations / 1e6
        )
    }
}
