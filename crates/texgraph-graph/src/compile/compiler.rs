//! The compiler's state while it walks a graph back from its outputs: the stage being
//! built, the finished stages and planes, the memos that share work, and the tables the
//! program will hold. Node types are found through the registry it is handed, so the
//! compiler knows no node family.

use std::collections::HashMap;
use std::sync::Arc;

use super::cost::{COST_BUDGET, StageCost};
use super::node_ctx::{Frame, MAX_DEPTH, NodeCtx, Val};
use crate::descriptor::NodeDescriptor;
use crate::graph::{Graph, Node, split_reference};
use texgraph_base::error::{GraphError, Location};
use texgraph_engine::program::{
    Binary, DistanceSide, Instr, Op, Operand, PlaneInfo, Slot, Stage, StageWork, TileProgram,
};
use texgraph_kernels::curve::Curve;
use texgraph_kernels::gradient::Ramp;
use texgraph_kernels::noise::{CornerTable, Permutation};
/// The stage being compiled: its operations, slots and memo (frames are operands of
/// this stage, so nothing here is shared with other stages).
pub(super) struct StageBuilder {
    /// 2^shift: how much smaller than the render the stage's grid is.
    pub(super) shift: u32,
    /// The grid is a fixed number of texels, not the render's (see
    /// [`NodeCtx::fixed_plane`]).
    pub(super) fixed: bool,
    pub(super) instrs: Vec<Instr>,
    pub(super) slot_count: u32,
    pub(super) shared: HashMap<Op, Slot>,
    /// Values by (node, frame, pass: see [`Compiler::pass_of`]).
    pub(super) memo: HashMap<(usize, Frame, u8), Vec<Val>>,
    pub(super) cost: StageCost,
}

impl StageBuilder {
    pub(super) fn new(shift: u32) -> Self {
        Self {
            shift,
            fixed: false,
            instrs: Vec::new(),
            slot_count: 2,
            shared: HashMap::new(),
            memo: HashMap::new(),
            cost: StageCost::default(),
        }
    }
}

pub(super) struct Compiler<'g> {
    pub(super) graph: &'g Graph,
    pub(super) index: HashMap<&'g str, usize>,
    pub(super) stage: StageBuilder,
    pub(super) stages: Vec<Stage>,
    pub(super) planes: Vec<PlaneInfo>,
    /// Planes already made: (node, output slot, size shift, as scalar, pass) → plane.
    pub(super) plane_memo: HashMap<(usize, usize, u32, bool, u8), u32>,
    /// Planes already derived from others by whole-plane stages.
    pub(super) derived_memo: HashMap<Derived, u32>,
    /// Cost per pixel of the render of the stages finished so far.
    pub(super) finished_cost: f64,
    /// Cost so far of the stages suspended while a plane they read is compiled.
    pub(super) outer_cost: f64,
    /// Node compilations so far.
    pub(super) node_compiles: u32,
    /// Planes of loaded images, by node.
    pub(super) image_planes: HashMap<usize, u32>,
    /// Fixed-size planes nodes computed: (node, pass, local) → plane.
    pub(super) fixed_planes: HashMap<(usize, u8, bool), u32>,
    pub(super) perms: Vec<Arc<Permutation>>,
    pub(super) perm_index: HashMap<u32, u32>,
    pub(super) ramps: Vec<Arc<Ramp>>,
    pub(super) curves: Vec<Arc<Curve>>,
    pub(super) tables: Vec<Arc<CornerTable>>,
    pub(super) table_index: HashMap<(u32, u32, Option<u32>), u32>,
    /// Bytes of the corner tables so far.
    pub(super) table_bytes: u64,
    pub(super) depth: usize,
    /// The value `time` nodes give in the pass being compiled.
    pub(super) time: f32,
    /// Which pass of a looping graph is being compiled (0 in a graph that does not loop).
    pub(super) pass: u8,
    /// Whether each node depends on a `time` node: only those differ between passes.
    pub(super) timed: Vec<bool>,
    /// Largest cost per pixel of the whole program.
    pub(super) budget: f64,
    /// The node types: the registry's table, handed in by the entry points.
    pub(super) lookup: Lookup,
}

/// Finds a node type's descriptor by id.
pub type Lookup = fn(&str) -> Option<&'static NodeDescriptor>;

impl<'g> Compiler<'g> {
    pub(super) fn new(graph: &'g Graph, lookup: Lookup) -> Self {
        Self {
            graph,
            lookup,
            time: graph.settings.time,
            pass: 0,
            timed: timed_nodes(graph),
            index: graph
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id.as_str(), i))
                .collect(),
            stage: StageBuilder::new(0),
            stages: Vec::new(),
            planes: Vec::new(),
            plane_memo: HashMap::new(),
            derived_memo: HashMap::new(),
            finished_cost: 0.0,
            outer_cost: 0.0,
            node_compiles: 0,
            image_planes: HashMap::new(),
            fixed_planes: HashMap::new(),
            perms: Vec::new(),
            perm_index: HashMap::new(),
            ramps: Vec::new(),
            curves: Vec::new(),
            tables: Vec::new(),
            table_bytes: 0,
            table_index: HashMap::new(),
            depth: 0,
            budget: COST_BUDGET,
        }
    }

    pub(super) fn node(&mut self, index: usize, frame: Frame) -> Result<Vec<Val>, GraphError> {
        let key = (index, frame, self.pass_of(index));
        if let Some(values) = self.stage.memo.get(&key) {
            return Ok(values.clone());
        }
        let node = &self.graph.nodes[index];
        if self.depth >= MAX_DEPTH {
            return Err(GraphError::new(
                Location::node(&node.id),
                format!("inputs nest more than {MAX_DEPTH} levels deep"),
            ));
        }
        let desc = (self.lookup)(&node.kind).expect("validated");
        self.count_frame(index)?;
        self.depth += 1;
        let mut ctx = NodeCtx {
            compiler: self,
            node,
            desc,
            frame,
        };
        let result = (desc.compile)(&mut ctx);
        self.depth -= 1;
        let values = result?;
        self.stage.memo.insert(key, values.clone());
        Ok(values)
    }

    /// The pass a node's values belong to: the current one for nodes that depend on
    /// time, 0 for the rest, which both passes share.
    pub(super) fn pass_of(&self, index: usize) -> u8 {
        if self.timed[index] { self.pass } else { 0 }
    }

    /// The node index and output slot a reference (`"node"` or `"node.port"`) names.
    pub(super) fn resolve(&self, reference: &str) -> (usize, usize) {
        let (id, port) = split_reference(reference);
        let index = self.index[id];
        let desc = (self.lookup)(&self.graph.nodes[index].kind).expect("validated");
        let slot = port.map_or(0, |p| {
            desc.outputs
                .iter()
                .position(|o| o.name == p)
                .expect("validated")
        });
        (index, slot)
    }

    pub(super) fn reference(&mut self, reference: &str, frame: Frame) -> Result<Val, GraphError> {
        let (index, slot) = self.resolve(reference);
        Ok(self.node(index, frame)?[slot])
    }

    pub(super) fn emit(&mut self, op: Op, node: &Node) -> Result<Slot, GraphError> {
        if let Some(slot) = self.stage.shared.get(&op) {
            return Ok(*slot);
        }
        self.charge(&op, node)?;
        let stage = &mut self.stage;
        let dst = stage.slot_count;
        stage.slot_count += op.arity();
        stage.shared.insert(op.clone(), dst);
        stage.instrs.push(Instr { op, dst });
        Ok(dst)
    }

    /// Ends the stage being compiled: it writes `channels` into `target` (the output image
    /// when `None`). The builder starts afresh.
    pub(super) fn finish_stage(&mut self, node: &str, target: Option<u32>, channels: Vec<Operand>) {
        let mut builder = std::mem::replace(&mut self.stage, StageBuilder::new(0));
        let mut channels = channels;
        builder.instrs = super::slots::live(std::mem::take(&mut builder.instrs), &channels);
        builder.slot_count = super::slots::pack(&mut builder.instrs, &mut channels);
        use texgraph_engine::program::{Apron, Reach};
        let mut reads = Vec::new();
        let mut reaches = Vec::new();
        for instr in &builder.instrs {
            for plane in instr.op.planes() {
                let at = reads.iter().position(|&p| p == plane).unwrap_or_else(|| {
                    reads.push(plane);
                    reaches.push(Reach::Near(Apron::default()));
                    reads.len() - 1
                });
                reaches[at] = match (reaches[at], instr.op.reach()) {
                    (Reach::Near(a), Some(b)) => Reach::Near(a.max(b)),
                    _ => Reach::Anywhere,
                };
            }
        }
        let cost = builder.cost.total as f32;
        self.finished_cost += builder.cost.total * area(builder.shift);
        self.stages.push(Stage {
            node: node.to_owned(),
            target,
            work: StageWork::Pixels(TileProgram {
                instrs: builder.instrs,
                slot_count: builder.slot_count,
                channels,
            }),
            reads,
            reaches,
            cost,
        });
    }
}

impl Compiler<'_> {
    /// The channels of output `slot` of node `index` in the image frame. In a looping
    /// graph (`settings.loop` = L seconds) time runs round the loop: at phase p = time mod
    /// L, the node is compiled at time p and at time p − L, and the two are crossfaded
    /// with weight p / L on the second. At p = 0 only the first is taken, and as p nears L
    /// the second nears the first at p = 0, so the last frame flows into the first
    /// whatever the nodes do with time. Nodes that do not depend on time are compiled
    /// once for both.
    pub(super) fn looped(&mut self, index: usize, slot: usize) -> Result<Vec<Operand>, GraphError> {
        let channels = |values: Vec<Val>| match values.get(slot) {
            Some(Val::Scalar(s)) => vec![*s],
            Some(Val::Color(c)) => c.to_vec(),
            None => unreachable!("validated output slot"),
        };
        let Some(length) = self.graph.settings.loop_seconds else {
            return Ok(channels(self.node(index, Frame::IMAGE)?));
        };
        let phase = self.time.rem_euclid(length);
        // rem_euclid may round up to the length itself.
        let phase = if phase >= length { 0.0 } else { phase };
        self.time = phase;
        let now = channels(self.node(index, Frame::IMAGE)?);
        let weight = phase / length;
        if weight == 0.0 || !self.timed[index] {
            return Ok(now);
        }
        self.time = phase - length;
        self.pass = 1;
        let before = channels(self.node(index, Frame::IMAGE)?);
        let node = &self.graph.nodes[index];
        let mut mixed = Vec::with_capacity(now.len());
        for (a, b) in now.into_iter().zip(before) {
            let a = self.emit(
                Op::Binary(Binary::Multiply, a, Operand::Const(1.0 - weight)),
                node,
            )?;
            let b = self.emit(
                Op::Binary(Binary::Multiply, b, Operand::Const(weight)),
                node,
            )?;
            let sum = self.emit(
                Op::Binary(Binary::Add, Operand::Slot(a), Operand::Slot(b)),
                node,
            )?;
            mixed.push(Operand::Slot(sum));
        }
        Ok(mixed)
    }
}

/// Whether each node of `graph` depends on a `time` node, through any input.
fn timed_nodes(graph: &Graph) -> Vec<bool> {
    let index: HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    // 0 = not yet known, 1 = being visited, 2 = no, 3 = yes. Iterative: inputs may nest
    // deeply, and a cycle (refused elsewhere) must not loop here.
    let mut state = vec![0u8; graph.nodes.len()];
    for start in 0..graph.nodes.len() {
        let mut stack = vec![start];
        while let Some(&i) = stack.last() {
            if state[i] >= 2 {
                stack.pop();
                continue;
            }
            let node = &graph.nodes[i];
            let sources: Vec<usize> = node
                .inputs
                .values()
                .filter_map(|r| index.get(split_reference(r).0).copied())
                .collect();
            if state[i] == 0 {
                state[i] = 1;
                stack.extend(sources.iter().filter(|&&s| state[s] == 0));
                continue;
            }
            let timed = node.kind == "time" || sources.iter().any(|&s| state[s] == 3);
            state[i] = if timed { 3 } else { 2 };
            stack.pop();
        }
    }
    state.into_iter().map(|s| s == 3).collect()
}

/// The share of the render's pixels a grid 2^shift times smaller has.
pub(super) fn area(shift: u32) -> f64 {
    1.0 / f64::from(1u32 << (2 * shift))
}

/// A plane derived from another by a whole-plane stage, as a memo key (values by their
/// bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Derived {
    Blur(u32, u32),
    Distance(u32, u32, DistanceSide, bool),
    FloodFill(u32, u32),
    Stretch(u32),
    Erosion(u32, Option<u32>, Option<u32>, [u32; 10]),
}

impl Derived {
    pub(super) fn of(work: &StageWork) -> Self {
        match *work {
            StageWork::Blur { input, radius } => Derived::Blur(input, radius.to_bits()),
            StageWork::Distance {
                input,
                threshold,
                side,
                to_edge,
            } => Derived::Distance(input, threshold.to_bits(), side, to_edge),
            StageWork::FloodFill { input, threshold } => {
                Derived::FloodFill(input, threshold.to_bits())
            }
            StageWork::Stretch { input } => Derived::Stretch(input),
            StageWork::Erosion {
                height,
                rain,
                hardness,
                model,
            } => Derived::Erosion(height, rain, hardness, model.key()),
            StageWork::Pixels(_) => unreachable!("per-pixel stages are not derived planes"),
        }
    }
}
