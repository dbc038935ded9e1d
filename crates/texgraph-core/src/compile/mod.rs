//! Turns a validated [`Graph`] into a [`Program`]: stages, each a flat list of tile
//! operations (or a whole-plane filter), and the planes between them.
//!
//! Every node is compiled *in a frame*: the pair of operands holding the sample
//! coordinates. Nodes that re-sample an input elsewhere (warp, transform, fractals with a
//! `source`) compile that input again in a new frame. Work is shared twice over: a node
//! compiled twice in the same frame is compiled once, and equal operations on equal
//! operands get one slot. Operations whose operands are all uniform are folded into
//! constants, so unconnected params never cost a buffer.
//!
//! Nodes that read their input's neighbourhood ask for it as a *plane* (`planes.rs`): the
//! compiler then compiles that input in a stage of its own, evaluated over the whole
//! image before the stage that reads it. Each stage's cost is counted as it is compiled
//! (`cost.rs`); a graph whose re-sampling would cost more than [`COST_BUDGET`] per pixel
//! is refused, naming the node that fans out.

mod cost;
mod planes;

pub use cost::COST_BUDGET;
pub use planes::PlaneInput;

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{Error, GraphError, Location, Result};
use crate::eval;
use crate::graph::{Graph, Node, ParamValue, split_reference};
use crate::kernels::curve::Curve;
use crate::kernels::gradient::{Ramp, parse_hex_color};
use crate::kernels::noise::{CornerTable, MAX_TABLE_BYTES, Permutation};
use crate::program::{
    Binary, Instr, Op, Operand, PlaneInfo, Program, ProgramOutput, Slot, Stage, StageWork,
    TileProgram, U_SLOT, V_SLOT,
};
use crate::registry::{self, NodeDescriptor, ParamKind};
use crate::validate::{Diagnostics, diagnose, output_name, validate};

use cost::StageCost;

/// A float param whose range reaches ±this is open: its range is the slider's, and
/// connections drive it with any value (the node saturates what could overflow).
pub const OPEN_RANGE: f32 = 1e6;

/// Limit on how deeply node inputs may nest.
pub const MAX_DEPTH: usize = 400;

/// A value flowing along a connection at compile time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    /// One channel.
    Scalar(Operand),
    /// RGBA.
    Color([Operand; 4]),
}

impl Val {
    /// Whether this is a color.
    pub fn is_color(&self) -> bool {
        matches!(self, Val::Color(_))
    }

    /// Its channels: one, or r, g, b, a.
    pub fn channels(self) -> Vec<Operand> {
        match self {
            Val::Scalar(s) => vec![s],
            Val::Color(c) => c.to_vec(),
        }
    }

    /// The value of one channel or four (a plane's, or what [`Val::channels`] gave).
    pub fn from_channels(channels: &[Operand]) -> Val {
        match *channels {
            [s] => Val::Scalar(s),
            [r, g, b, a] => Val::Color([r, g, b, a]),
            _ => unreachable!("values have 1 or 4 channels"),
        }
    }
}

/// The sample coordinates a node is evaluated at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    /// x (u in the image frame).
    pub x: Operand,
    /// y (v in the image frame).
    pub y: Operand,
    /// The coordinates of an instance's own square (inside `scatter`), not the texture's:
    /// nothing tiles there, whatever the graph's setting.
    pub local: bool,
}

impl Frame {
    /// The image's own coordinates.
    pub const IMAGE: Frame = Frame {
        x: Operand::Slot(U_SLOT),
        y: Operand::Slot(V_SLOT),
        local: false,
    };
}

/// Compiles the output called `output` (the first output node when `None`). Warnings do
/// not stop it: the nodes they are about feed no output, and compiling walks back from
/// the output only, so they are never reached.
///
/// Subgraphs are pasted in first ([`crate::subgraph::inline`]); problems inside one are
/// named after the node that includes it.
pub fn compile(graph: &Graph, output: Option<&str>) -> Result<Program> {
    let flat = crate::subgraph::inline(graph).map_err(Error::Invalid)?;
    compile_flat(&flat, output).map_err(|e| crate::subgraph::attribute(graph, e))
}

/// [`compile`] of a graph whose subgraphs are pasted in already.
fn compile_flat(graph: &Graph, output: Option<&str>) -> Result<Program> {
    let names: Vec<String> = match output {
        Some(name) => vec![name.to_owned()],
        None => output_names(graph).into_iter().take(1).collect(),
    };
    compile_flat_outputs(graph, &names)
}

/// Compiles the outputs called `names` into one program: whatever several of them read —
/// a plane, or a value computed per pixel — is computed once, and the last stage writes
/// every output's channels, one output after another (see [`crate::eval::split_outputs`]).
/// Each output's pixels are the same bits as when it is compiled alone.
pub fn compile_outputs(graph: &Graph, names: &[String]) -> Result<Program> {
    let flat = crate::subgraph::inline(graph).map_err(Error::Invalid)?;
    compile_flat_outputs(&flat, names).map_err(|e| crate::subgraph::attribute(graph, e))
}

fn compile_flat_outputs(graph: &Graph, names: &[String]) -> Result<Program> {
    let problems = validate(graph);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let outputs: Vec<&Node> = graph.nodes.iter().filter(|n| n.kind == "output").collect();
    let mut targets = Vec::with_capacity(names.len());
    for name in names {
        let target = outputs
            .iter()
            .find(|n| output_name(n) == *name)
            .ok_or_else(|| {
                let known: Vec<_> = outputs.iter().map(|n| output_name(n)).collect();
                Error::at(
                    Location::graph_field("output"),
                    format!("no output named '{name}' (outputs: {})", known.join(", ")),
                )
            })?;
        targets.push((*target, 0, output_name(target)));
    }
    build(graph, &targets)
}

/// Compiles one node's output (`port`, or its first output; an `output` node's input) as
/// if it were the graph's output: what the editor shows in a node's thumbnail or a pinned
/// preview. Only problems of this node and what feeds it stop it, warnings included (a
/// required input left unconnected is a warning when no output uses the node, but this
/// node cannot be compiled without it); the rest of the graph may be unfinished.
///
/// A subgraph node compiles what feeds the output `port` of its file.
pub fn compile_node(graph: &Graph, node: &str, port: Option<&str>) -> Result<Program> {
    if graph.node(node).is_none() {
        return Err(Error::at(Location::node(node), "no such node"));
    }
    // Only what feeds the node is pasted in and checked: a broken subgraph elsewhere in
    // the graph costs the nodes downstream of it, not this one.
    let feeding = feeding(graph, node);
    let (flat, inner, inner_port) =
        crate::subgraph::inline_reference(&feeding, node, port).map_err(Error::Invalid)?;
    compile_flat_node(&flat, &inner, inner_port.as_deref())
        .map_err(|e| crate::subgraph::attribute(graph, e))
}

/// The part of `graph` that `node` depends on (the node included), with the exposed
/// params that target it; comments go, they never render.
fn feeding(graph: &Graph, node: &str) -> Graph {
    let upstream = crate::validate::upstream(graph, node);
    let inside = |id: &str| upstream.contains(id);
    Graph {
        nodes: graph
            .nodes
            .iter()
            .filter(|n| inside(&n.id))
            .cloned()
            .collect(),
        exposed: graph
            .exposed
            .iter()
            .filter(|e| e.target.split_once('.').is_some_and(|(id, _)| inside(id)))
            .cloned()
            .collect(),
        comments: Vec::new(),
        format: graph.format.clone(),
        version: graph.version,
        name: graph.name.clone(),
        settings: graph.settings.clone(),
    }
}

/// [`compile_node`] of a graph whose subgraphs are pasted in already.
fn compile_flat_node(graph: &Graph, node: &str, port: Option<&str>) -> Result<Program> {
    let Some(target) = graph.node(node) else {
        return Err(Error::at(Location::node(node), "no such node"));
    };
    let upstream = crate::validate::upstream(graph, node);
    let Diagnostics { errors, warnings } = crate::validate::diagnose_flat(graph);
    let problems: Vec<_> = errors
        .into_iter()
        .chain(warnings)
        .filter(|p| match &p.location.node {
            Some(id) => upstream.contains(id.as_str()),
            // Header and settings problems count; "no output node" and the canvas
            // comments do not.
            None => p
                .location
                .field
                .as_deref()
                .is_none_or(|f| f != "nodes" && !f.starts_with("comments")),
        })
        .collect();
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let desc = registry::lookup(&target.kind).expect("validated");
    let slot = match port {
        None => 0,
        Some(p) => desc
            .outputs
            .iter()
            .position(|o| o.name == p)
            .ok_or_else(|| {
                Error::at(
                    Location::field(node, p),
                    format!("'{}' has no output '{p}'", desc.id),
                )
            })?,
    };
    build(graph, &[(target, slot, port.unwrap_or("out").to_owned())])
}

/// Compiles output `slot` of each target node, named, in the image frame, into one
/// program whose last stage writes them all.
fn build(graph: &Graph, targets: &[(&Node, usize, String)]) -> Result<Program> {
    let mut compiler = Compiler::new(graph);
    // Each map may cost what one output may: a material of five maps is five renders' work.
    compiler.budget = COST_BUDGET * targets.len().max(1) as f64;
    let mut channels = Vec::new();
    let mut outputs = Vec::with_capacity(targets.len());
    for (target, slot, name) in targets {
        // Each output starts where a program of its own would: `looped` leaves the
        // compiler in its second pass, at the earlier time.
        compiler.time = graph.settings.time;
        compiler.pass = 0;
        let index = compiler.index[target.id.as_str()];
        let values = compiler
            .looped(index, *slot)
            .map_err(|e| Error::Invalid(vec![e]))?;
        outputs.push(ProgramOutput {
            name: name.clone(),
            node: target.id.clone(),
            usage: if target.kind == "output" {
                target.usage()
            } else {
                crate::usage::Usage::Color
            },
            channels: values.len(),
        });
        channels.extend(values);
    }
    // The last stage computes every target: it is named after them all.
    let ids: Vec<&str> = targets.iter().map(|(t, _, _)| t.id.as_str()).collect();
    compiler.finish_stage(&ids.join(", "), None, channels);
    Ok(Program {
        stages: compiler.stages,
        planes: compiler.planes,
        permutations: compiler.perms,
        ramps: compiler.ramps,
        curves: compiler.curves,
        tables: compiler.tables,
        outputs,
    })
}

/// Every problem of `graph` that `compile` would stop at, for every output: the
/// [`diagnose`] errors and warnings, then, when there are no errors, what compiling each
/// output finds (image files that do not load, a cost over budget). What this accepts,
/// every output compiles and renders.
pub fn check(graph: &Graph) -> Diagnostics {
    let mut found = diagnose(graph);
    if found.errors.is_empty() {
        for name in output_names(graph) {
            if let Err(e) = compile(graph, Some(&name)) {
                for problem in e.problems() {
                    if !found.errors.contains(problem) {
                        found.errors.push(problem.clone());
                    }
                }
            }
        }
    }
    found
}

/// The names of a graph's outputs, in file order.
pub fn output_names(graph: &Graph) -> Vec<String> {
    graph
        .nodes
        .iter()
        .filter(|n| n.kind == "output")
        .map(output_name)
        .collect()
}

/// The stage being compiled: its operations, slots and memo (frames are operands of
/// this stage, so nothing here is shared with other stages).
struct StageBuilder {
    /// 2^shift: how much smaller than the render the stage's grid is.
    shift: u32,
    instrs: Vec<Instr>,
    slot_count: u32,
    shared: HashMap<Op, Slot>,
    /// Values by (node, frame, pass: see [`Compiler::pass_of`]).
    memo: HashMap<(usize, Frame, u8), Vec<Val>>,
    cost: StageCost,
}

impl StageBuilder {
    fn new(shift: u32) -> Self {
        Self {
            shift,
            instrs: Vec::new(),
            slot_count: 2,
            shared: HashMap::new(),
            memo: HashMap::new(),
            cost: StageCost::default(),
        }
    }
}

struct Compiler<'g> {
    graph: &'g Graph,
    index: HashMap<&'g str, usize>,
    stage: StageBuilder,
    stages: Vec<Stage>,
    planes: Vec<PlaneInfo>,
    /// Planes already made: (node, output slot, size shift, as scalar, pass) → plane.
    plane_memo: HashMap<(usize, usize, u32, bool, u8), u32>,
    /// Planes already derived from others by whole-plane stages.
    derived_memo: HashMap<planes::Derived, u32>,
    /// Cost per pixel of the render of the stages finished so far.
    finished_cost: f64,
    /// Cost so far of the stages suspended while a plane they read is compiled.
    outer_cost: f64,
    /// Node compilations so far.
    node_compiles: u32,
    /// Planes of loaded images, by node.
    image_planes: HashMap<usize, u32>,
    perms: Vec<Arc<Permutation>>,
    perm_index: HashMap<u32, u32>,
    ramps: Vec<Arc<Ramp>>,
    curves: Vec<Arc<Curve>>,
    tables: Vec<Arc<CornerTable>>,
    table_index: HashMap<(u32, u32, Option<u32>), u32>,
    /// Bytes of the corner tables so far.
    table_bytes: u64,
    depth: usize,
    /// The value `time` nodes give in the pass being compiled.
    time: f32,
    /// Which pass of a looping graph is being compiled (0 in a graph that does not loop).
    pass: u8,
    /// Whether each node depends on a `time` node: only those differ between passes.
    timed: Vec<bool>,
    /// Largest cost per pixel of the whole program.
    budget: f64,
}

impl<'g> Compiler<'g> {
    fn new(graph: &'g Graph) -> Self {
        Self {
            graph,
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

    fn node(&mut self, index: usize, frame: Frame) -> Result<Vec<Val>, GraphError> {
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
        let desc = registry::lookup(&node.kind).expect("validated");
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
    fn pass_of(&self, index: usize) -> u8 {
        if self.timed[index] { self.pass } else { 0 }
    }

    /// The node index and output slot a reference (`"node"` or `"node.port"`) names.
    fn resolve(&self, reference: &str) -> (usize, usize) {
        let (id, port) = split_reference(reference);
        let index = self.index[id];
        let desc = registry::lookup(&self.graph.nodes[index].kind).expect("validated");
        let slot = port.map_or(0, |p| {
            desc.outputs
                .iter()
                .position(|o| o.name == p)
                .expect("validated")
        });
        (index, slot)
    }

    fn reference(&mut self, reference: &str, frame: Frame) -> Result<Val, GraphError> {
        let (index, slot) = self.resolve(reference);
        Ok(self.node(index, frame)?[slot])
    }

    fn emit(&mut self, op: Op, node: &Node) -> Result<Slot, GraphError> {
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
    fn finish_stage(&mut self, node: &str, target: Option<u32>, channels: Vec<Operand>) {
        let builder = std::mem::replace(&mut self.stage, StageBuilder::new(0));
        use crate::program::{Apron, Reach};
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
    fn looped(&mut self, index: usize, slot: usize) -> Result<Vec<Operand>, GraphError> {
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
fn area(shift: u32) -> f64 {
    1.0 / f64::from(1u32 << (2 * shift))
}

/// What a node's compile function sees: its params, its inputs, the frame it is
/// compiled in, and ways to emit operations.
pub struct NodeCtx<'c, 'g> {
    compiler: &'c mut Compiler<'g>,
    node: &'g Node,
    desc: &'static NodeDescriptor,
    frame: Frame,
}

impl NodeCtx<'_, '_> {
    /// The coordinates this node is compiled at.
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// The graph's `tileable` setting.
    pub fn tileable(&self) -> bool {
        self.compiler.graph.settings.tileable && !self.frame.local
    }

    /// The graph's `time` setting, within ±[`SATURATION`](crate::kernels::scalar::SATURATION)
    /// like every value a node passes on (a time of 10³⁸ would overflow a blur's sums).
    pub fn time(&self) -> f32 {
        let limit = crate::kernels::scalar::SATURATION;
        self.compiler.time.clamp(-limit, limit)
    }

    /// An error about `field` of this node.
    pub fn error(&self, field: &str, message: impl Into<String>) -> GraphError {
        GraphError::new(Location::field(&self.node.id, field), message)
    }

    fn param_kind(&self, name: &str) -> ParamKind {
        self.desc
            .param(name)
            .unwrap_or_else(|| panic!("{} has no param {name}", self.desc.id))
            .kind
    }

    /// A float param: the connected input of the same name, as a per-sample scalar
    /// clamped to the param's range (its domain: a noise's frequency is never 10⁹), or the
    /// param's value (its default when absent). A range of ±[`OPEN_RANGE`] or wider (math's
    /// operands) only bounds the slider: connected values pass as they are.
    pub fn float(&mut self, name: &str) -> Result<Operand, GraphError> {
        if let Some(val) = self.input(name)? {
            let value = self.scalar(val)?;
            let ParamKind::Float { min, max, .. } = self.param_kind(name) else {
                unreachable!("{name} is a float param")
            };
            if min <= -OPEN_RANGE && max >= OPEN_RANGE {
                return Ok(value);
            }
            let low = self.emit(Op::Binary(Binary::Max, value, Operand::Const(min)))?;
            return self.emit(Op::Binary(Binary::Min, low, Operand::Const(max)));
        }
        Ok(Operand::Const(
            match (self.node.params.get(name), self.param_kind(name)) {
                (Some(ParamValue::Number(v)), _) => *v as f32,
                (_, ParamKind::Float { default, .. }) => default,
                _ => unreachable!("{name} is a float param"),
            },
        ))
    }

    /// An integer param.
    pub fn int(&self, name: &str) -> i64 {
        match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Number(v)), _) => *v as i64,
            (_, ParamKind::Int { default, .. }) => default,
            _ => unreachable!("{name} is an integer param"),
        }
    }

    /// A choice or text param.
    pub fn text(&self, name: &str) -> &str {
        match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Text(v)), _) => v,
            (
                _,
                ParamKind::Choice { default, .. }
                | ParamKind::Text { default }
                | ParamKind::File { default },
            ) => default,
            _ => unreachable!("{name} is a text param"),
        }
    }

    /// A boolean param.
    pub fn flag(&self, name: &str) -> bool {
        match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Bool(v)), _) => *v,
            (_, ParamKind::Bool { default }) => default,
            _ => unreachable!("{name} is a boolean param"),
        }
    }

    /// A float param that must be the same over the whole image (a filter's radius): its
    /// value, or an error naming the param when something per-pixel is connected to it.
    pub fn uniform(&mut self, name: &str) -> Result<f32, GraphError> {
        self.float(name)?.as_const().ok_or_else(|| {
            self.error(
                name,
                "must be the same over the whole image: connect only constants, time or math of \
                 them, or leave it unconnected",
            )
        })
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.node.id
    }

    /// A color param as RGBA.
    pub fn color(&self, name: &str) -> [f32; 4] {
        let text = match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Text(v)), _) => v.as_str(),
            (_, ParamKind::Color { default }) => default,
            _ => unreachable!("{name} is a color param"),
        };
        parse_hex_color(text).expect("validated")
    }

    /// A stops param as (position, RGBA) pairs in file order.
    pub fn stops(&self, name: &str) -> Vec<(f32, [f32; 4])> {
        match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Stops(stops)), _) => stops
                .iter()
                .map(|s| (s.pos as f32, parse_hex_color(&s.color).expect("validated")))
                .collect(),
            (_, ParamKind::Stops { default }) => default
                .iter()
                .map(|(pos, color)| (*pos, parse_hex_color(color).expect("valid default")))
                .collect(),
            _ => unreachable!("{name} is a stops param"),
        }
    }

    /// The points of curve param `name`, as (x, y).
    pub fn points(&self, name: &str) -> Vec<(f32, f32)> {
        match (self.node.params.get(name), self.param_kind(name)) {
            (Some(ParamValue::Points(points)), _) => {
                points.iter().map(|p| (p.x as f32, p.y as f32)).collect()
            }
            (_, ParamKind::Points { default }) => default.to_vec(),
            _ => unreachable!("{name} is a points param"),
        }
    }

    /// Whether input `port` is connected.
    pub fn is_connected(&self, port: &str) -> bool {
        self.node.inputs.contains_key(port)
    }

    /// Input `port` compiled in this node's frame, if connected.
    pub fn input(&mut self, port: &str) -> Result<Option<Val>, GraphError> {
        self.input_at(port, self.frame)
    }

    /// Input `port` compiled at other coordinates, if connected.
    pub fn input_at(&mut self, port: &str, frame: Frame) -> Result<Option<Val>, GraphError> {
        match self.node.inputs.get(port) {
            Some(reference) => {
                if frame != self.frame {
                    let source = self.compiler.resolve(reference).0;
                    let me = self.compiler.index[self.node.id.as_str()];
                    self.compiler.note_resample(source, me);
                }
                self.compiler.reference(reference, frame).map(Some)
            }
            None => Ok(None),
        }
    }

    /// A value as one channel (a color becomes its Rec.709 luminance).
    pub fn scalar(&mut self, val: Val) -> Result<Operand, GraphError> {
        match val {
            Val::Scalar(s) => Ok(s),
            Val::Color([r, g, b, _]) => self.emit(Op::Luminance(r, g, b)),
        }
    }

    /// A value as RGBA (a scalar becomes opaque gray).
    pub fn rgba(&self, val: Val) -> [Operand; 4] {
        match val {
            Val::Scalar(s) => [s, s, s, Operand::Const(1.0)],
            Val::Color(c) => c,
        }
    }

    /// Emits one operation (or folds it to a constant) and returns its result.
    pub fn emit(&mut self, op: Op) -> Result<Operand, GraphError> {
        debug_assert_eq!(op.arity(), 1);
        if let Some(value) = self.fold(&op) {
            return Ok(Operand::Const(value[0]));
        }
        self.compiler.emit(op, self.node).map(Operand::Slot)
    }

    /// Emits an operation that writes four channels.
    pub fn emit4(&mut self, op: Op) -> Result<[Operand; 4], GraphError> {
        debug_assert_eq!(op.arity(), 4);
        if let Some(value) = self.fold(&op) {
            return Ok(value.map(Operand::Const));
        }
        let dst = self.compiler.emit(op, self.node)?;
        Ok(std::array::from_fn(|i| Operand::Slot(dst + i as Slot)))
    }

    fn fold(&self, op: &Op) -> Option<[f32; 4]> {
        // Planes exist only while rendering.
        if !op.planes().is_empty() || !op.operands().iter().all(|o| o.as_const().is_some()) {
            return None;
        }
        let c = &self.compiler;
        let tables = eval::Tables {
            permutations: &c.perms,
            ramps: &c.ramps,
            curves: &c.curves,
            corners: &c.tables,
            planes: &[],
        };
        Some(eval::apply_uniform(op, &tables))
    }

    /// The index of the permutation table for `seed` (see [`Permutation::for_seed`]).
    pub fn permutation(&mut self, seed: u32) -> u32 {
        let c = &mut *self.compiler;
        *c.perm_index.entry(seed).or_insert_with(|| {
            c.perms.push(Arc::new(Permutation::for_seed(seed)));
            (c.perms.len() - 1) as u32
        })
    }

    /// The index of the corner table of plane `z` for `seed`, wrapping every `period`
    /// cells (see [`CornerTable::new`]); `None` when a new table would take the program's
    /// tables past [`MAX_TABLE_BYTES`] (the noise then hashes its corners, the same bits).
    pub fn corner_table(&mut self, seed: u32, z: u32, period: Option<u32>) -> Option<u32> {
        let key = (seed, z, period);
        if let Some(&index) = self.compiler.table_index.get(&key) {
            return Some(index);
        }
        let bytes = CornerTable::bytes_for(period);
        if self.compiler.table_bytes + bytes > MAX_TABLE_BYTES {
            return None;
        }
        let perm = self.permutation(seed);
        let c = &mut *self.compiler;
        c.table_bytes += bytes;
        c.tables.push(Arc::new(CornerTable::new(
            &c.perms[perm as usize],
            z,
            period,
        )));
        let index = (c.tables.len() - 1) as u32;
        c.table_index.insert(key, index);
        Some(index)
    }

    /// Registers a curve (shared with equal ones); returns its index.
    pub fn curve(&mut self, curve: Curve) -> u32 {
        let c = &mut *self.compiler;
        if let Some(i) = c.curves.iter().position(|r| **r == curve) {
            return i as u32;
        }
        c.curves.push(Arc::new(curve));
        (c.curves.len() - 1) as u32
    }

    /// Registers a color ramp (shared with equal ones); returns its index.
    pub fn ramp(&mut self, ramp: Ramp) -> u32 {
        let c = &mut *self.compiler;
        if let Some(i) = c.ramps.iter().position(|r| **r == ramp) {
            return i as u32;
        }
        c.ramps.push(Arc::new(ramp));
        (c.ramps.len() - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph beside a subgraph file whose output was renamed (`levels2_out` → `ao`)
    /// after the graph was wired to it.
    fn with_broken_port() -> (std::path::PathBuf, Graph) {
        let dir = std::env::temp_dir().join(format!("texgraph-feeding-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("sub.json"),
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "n", "type": "perlin" },
                { "id": "o", "type": "output", "params": { "name": "ao" }, "inputs": { "color": "n" } } ] }"#,
        )
        .unwrap();
        let mut graph = Graph::from_json(
            r#"{ "format": "texgraph", "version": 2, "nodes": [
                { "id": "a", "type": "perlin" },
                { "id": "color", "type": "output", "inputs": { "color": "a" } },
                { "id": "s", "type": "graph", "params": { "file": "sub.json" } },
                { "id": "lv", "type": "levels", "inputs": { "input": "s.levels2_out" } },
                { "id": "height", "type": "output", "params": { "name": "height" }, "inputs": { "color": "lv" } } ] }"#,
        )
        .unwrap();
        graph.resolve_paths(&dir);
        (dir, graph)
    }

    #[test]
    fn a_broken_subgraph_port_stops_only_what_reads_it() {
        let (dir, graph) = with_broken_port();
        for fine in ["a", "color", "s"] {
            assert!(compile_node(&graph, fine, None).is_ok(), "{fine}");
        }
        for broken in ["lv", "height"] {
            let message = compile_node(&graph, broken, None).unwrap_err().to_string();
            assert!(
                message.contains("lv") && message.contains("has no output 'levels2_out'"),
                "{broken}: {message}"
            );
        }
        // The whole graph still does not render: `texgraph render` stays strict.
        assert!(compile(&graph, None).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
