//! The cost model shared by `texgraph validate`, `texgraph render` and the editor: every
//! operation has an estimated cost per sample ([`Op::cost`]); a stage costs the sum of
//! its operations, weighted by the share of the render's pixels its grid has. Compiling
//! stops as soon as the whole program would cost more than [`COST_BUDGET`] per pixel, so
//! compiling is bounded too, and the error names the node whose re-sampling fans out.

use std::collections::HashMap;

use super::compiler::{Compiler, area};
use crate::graph::Node;
use texgraph_base::error::{GraphError, Location};
use texgraph_engine::program::Op;

/// Largest estimated cost of one output pixel, in simple operations (a Perlin octave costs
/// 4). About 10 µs per pixel on one core: a 1024² render within seconds.
pub const COST_BUDGET: f64 = 40_000.0;

/// Most node compilations in one program (each node once per distinct position it is
/// sampled at), so that graphs of free operations are bounded too.
const MAX_NODE_COMPILES: u32 = 200_000;

/// What one stage has cost so far, and who made it expensive.
#[derive(Debug, Default)]
pub(super) struct StageCost {
    /// Cost per pixel of the stage's grid.
    pub total: f64,
    /// Distinct positions (frames) each node is compiled at in this stage, and the order
    /// it was first reached in (the output's side first).
    frames: HashMap<usize, (u32, u32)>,
    /// The last node that asked for each node at positions of its own (a re-sampler).
    resampled_by: HashMap<usize, usize>,
}

impl Compiler<'_> {
    /// Counts one more position node `index` is compiled at.
    pub(super) fn count_frame(&mut self, index: usize) -> Result<(), GraphError> {
        self.node_compiles += 1;
        let order = self.stage.cost.frames.len() as u32;
        self.stage.cost.frames.entry(index).or_insert((0, order)).0 += 1;
        // Several outputs compiled together may each compile as many.
        let outputs = (self.budget / COST_BUDGET).round().max(1.0) as u32;
        if self.node_compiles > MAX_NODE_COMPILES.saturating_mul(outputs) {
            return Err(self.over_budget(index));
        }
        Ok(())
    }

    /// Notes that `consumer` samples node `index` at positions of its own.
    pub(super) fn note_resample(&mut self, index: usize, consumer: usize) {
        self.stage.cost.resampled_by.insert(index, consumer);
    }

    /// Adds `op`'s cost; fails when the program would exceed the budget.
    pub(super) fn charge(&mut self, op: &Op, node: &Node) -> Result<(), GraphError> {
        self.stage.cost.total += f64::from(op.cost());
        let total =
            self.finished_cost + self.outer_cost + self.stage.cost.total * area(self.stage.shift);
        if total > self.budget {
            return Err(self.over_budget(self.index[node.id.as_str()]));
        }
        Ok(())
    }

    /// Adds the cost of a whole-plane pass per pixel of its grid.
    pub(super) fn charge_pass(
        &mut self,
        cost: f64,
        shift: u32,
        node: &str,
    ) -> Result<(), GraphError> {
        self.finished_cost += cost * area(shift);
        if self.finished_cost + self.outer_cost > self.budget {
            return Err(self.over_budget(self.index[node]));
        }
        Ok(())
    }

    /// The error for a program over budget. It names the re-sampled node nearest the
    /// output (the first reached that is computed at several positions) and the node
    /// re-sampling it: a `buffer` between them removes that fan-out and everything it
    /// multiplies. Without one, it names `at`.
    fn over_budget(&self, at: usize) -> GraphError {
        let nodes = &self.graph.nodes;
        let budget = self.budget as u64;
        let fanned = self
            .stage
            .cost
            .frames
            .iter()
            .filter(|(_, (count, _))| *count > 1)
            .min_by_key(|(_, (_, order))| *order)
            .map(|(index, (count, _))| (index, count));
        match fanned {
            Some((&index, &count)) => {
                let id = &nodes[index].id;
                let by = self
                    .stage
                    .cost
                    .resampled_by
                    .get(&index)
                    .map(|&c| nodes[c].id.as_str());
                let (by_text, place) = match by {
                    Some(by) => (
                        format!(" (re-sampled by '{by}')"),
                        format!("between '{id}' and '{by}'"),
                    ),
                    None => (String::new(), format!("after '{id}'")),
                };
                GraphError::new(
                    Location::node(id),
                    format!(
                        "computed at {count} positions per pixel{by_text}, each computing all \
                         that feeds it again: the graph would cost more than {budget} operations \
                         per pixel; put a `buffer` node {place} (and wherever else re-sampling fans \
                         out) so that it is computed once"
                    ),
                )
            }
            None => GraphError::new(
                Location::node(&nodes[at].id),
                format!("the graph would cost more than {budget} operations per pixel"),
            ),
        }
    }
}
