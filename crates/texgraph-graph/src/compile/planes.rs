//! What nodes that need neighbours ask of the compiler: an input as a plane (compiled in
//! a stage of its own, over the whole image), a blurred plane, a loaded image, and reads
//! of a plane at the node's own sample position. Nodes say what they read and how far;
//! the compiler decides the stages, and where a plane is read exactly or filtered.

use std::sync::Arc;

use super::compiler::{Derived, StageBuilder, area};
use super::node_ctx::{Frame, NodeCtx, Val};
use crate::descriptor::OpenValue;
use texgraph_base::error::GraphError;
use texgraph_engine::eval::{Image, erosion};
use texgraph_engine::program::{
    Apron, DistanceSide, Op, Operand, PlaneInfo, PlaneSize, Reach, Slot, Stage, StageWork,
};
use texgraph_engine::terrain::Erosion;

/// How an input is materialized as a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneInput {
    /// The plane is 2^shift times smaller than the render (0 = full size).
    pub shift: u32,
    /// Store one channel (a color input becomes its luminance) instead of following the
    /// input.
    pub scalar: bool,
}

impl PlaneInput {
    /// A full-size plane of one channel: what gradient filters read.
    pub const HEIGHT: PlaneInput = PlaneInput {
        shift: 0,
        scalar: true,
    };
    /// A full-size plane with the input's channels.
    pub const FULL: PlaneInput = PlaneInput {
        shift: 0,
        scalar: false,
    };
}

/// Estimated cost per pixel of a blur stage (six running-sum passes and two transposes).
const BLUR_COST: f64 = 24.0;
/// Estimated cost per pixel of one side of a distance transform (two column sweeps, then
/// a lower envelope built and read along each row in exact integer arithmetic).
const DISTANCE_COST: f64 = 40.0;
/// Estimated cost per pixel of a flood fill (runs found, joined, and each texel written
/// its shape's seven values).
const FLOOD_FILL_COST: f64 = 20.0;
/// Estimated cost per pixel of a stretch (a pass for the bounds, a pass to map).
const STRETCH_COST: f64 = 2.0;

impl NodeCtx<'_, '_> {
    /// Input `port` evaluated over the whole image into a plane (once per graph, however
    /// many nodes or positions read it): what is connected, else the constant the port
    /// reads open, else `None`.
    pub fn plane(&mut self, port: &str, shape: PlaneInput) -> Result<Option<u32>, GraphError> {
        let Some(reference) = self.node.inputs.get(port) else {
            return Ok(match self.open_value(port) {
                Some(value) => Some(self.constant_plane(value, shape)?),
                None => None,
            });
        };
        let c = &mut *self.compiler;
        let (index, slot) = c.resolve(reference);
        let key = (index, slot, shape.shift, shape.scalar, c.pass_of(index));
        if let Some(&plane) = c.plane_memo.get(&key) {
            return Ok(Some(plane));
        }
        let source = c.graph.nodes[index].id.clone();
        let size = PlaneSize::Render { shift: shape.shift };
        let plane = self.stage_of_its_own(StageBuilder::new(shape.shift), source, size, |ctx| {
            let values = ctx.compiler.node(index, Frame::IMAGE)?;
            match values[slot] {
                Val::Color(rgba) if !shape.scalar => Ok(rgba.to_vec()),
                val => ctx.scalar(val).map(|s| vec![s]),
            }
        })?;
        let c = &mut *self.compiler;
        c.plane_memo.insert(key, plane);
        Ok(Some(plane))
    }

    /// A plane holding `value` everywhere: an open input of a node that reads planes. It
    /// is rare (a half-wired graph), so it is simply rendered like any other.
    fn constant_plane(&mut self, value: OpenValue, shape: PlaneInput) -> Result<u32, GraphError> {
        let val = Val::constant(value);
        let channels = match val {
            Val::Color(rgba) if !shape.scalar => rgba.to_vec(),
            val => vec![self.scalar(val)?],
        };
        let c = &mut *self.compiler;
        let outer = std::mem::replace(&mut c.stage, StageBuilder::new(shape.shift));
        let plane = c.planes.len() as u32;
        c.planes.push(PlaneInfo {
            node: self.node.id.clone(),
            channels: channels.len() as u32,
            size: PlaneSize::Render { shift: shape.shift },
            wrap: c.graph.settings.tileable,
            image: None,
        });
        c.finish_stage(&self.node.id, Some(plane), channels);
        c.stage = outer;
        Ok(plane)
    }

    /// `plane` blurred with a Gaussian-like kernel of standard deviation `radius` texture
    /// units (a fraction of the width across, of the height down).
    pub fn blurred(&mut self, plane: u32, radius: f32) -> Result<u32, GraphError> {
        let channels = self.plane_channels(plane);
        // Three boxes of about the standard deviation each, plus a texel of rounding per
        // box.
        let reach = Reach::Near(Apron {
            texels: 3,
            texture: 3.0 * radius,
        });
        self.derived(
            StageWork::Blur {
                input: plane,
                radius,
            },
            channels,
            reach,
            BLUR_COST,
        )
    }

    /// The exact distance field of `mask` (a one-channel plane) across `threshold`, in
    /// texture units: a whole-plane stage (see [`DistanceSide`] for its values), measured
    /// between texel centres or, `to_edge`, to the edge between the sides.
    pub fn distance_field(
        &mut self,
        mask: u32,
        threshold: f32,
        side: DistanceSide,
        to_edge: bool,
    ) -> Result<u32, GraphError> {
        let passes = if side == DistanceSide::Signed {
            2.0
        } else {
            1.0
        };
        let work = StageWork::Distance {
            input: mask,
            threshold,
            side,
            to_edge,
        };
        self.derived(work, 1, Reach::Whole, DISTANCE_COST * passes)
    }

    /// The shapes of `mask` (a one-channel plane) above `threshold`, labelled: a
    /// whole-plane stage whose plane holds each texel's [`Shape`](texgraph_engine::eval::flood::Shape).
    /// Read it with [`Op::Fill`], never as an image.
    pub fn shapes(&mut self, mask: u32, threshold: f32) -> Result<u32, GraphError> {
        let work = StageWork::FloodFill {
            input: mask,
            threshold,
        };
        let channels = texgraph_engine::program::FLOOD_CHANNELS as u32;
        self.derived(work, channels, Reach::Whole, FLOOD_FILL_COST)
    }

    /// `plane` (one channel) stretched onto [0, 1] by its own smallest and largest value:
    /// a whole-plane stage.
    pub fn stretched(&mut self, plane: u32) -> Result<u32, GraphError> {
        self.derived(
            StageWork::Stretch { input: plane },
            1,
            Reach::Whole,
            STRETCH_COST,
        )
    }

    /// `height` (a one-channel plane) eroded by `model`, reading `rain` and `hardness`
    /// (one-channel planes of the same size) where given: a whole-plane stage whose
    /// plane holds the channels [`Erosion::channels`] lists.
    pub fn eroded(
        &mut self,
        height: u32,
        rain: Option<u32>,
        hardness: Option<u32>,
        model: Erosion,
    ) -> Result<u32, GraphError> {
        let work = StageWork::Erosion {
            height,
            rain,
            hardness,
            model,
        };
        let channels = model.channels() as u32;
        self.derived(work, channels, Reach::Whole, erosion::cost_per_texel(model))
    }

    /// Runs `f` as the node connected to `port` when that node is of type `kind`: for
    /// nodes that reach through their input to what it computes rather than to its
    /// output. `None` when nothing, or a node of another type, is connected there.
    pub fn through_input<R>(
        &mut self,
        port: &str,
        kind: &str,
        f: impl FnOnce(&mut NodeCtx<'_, '_>) -> Result<R, GraphError>,
    ) -> Option<Result<R, GraphError>> {
        let reference = self.node.inputs.get(port)?;
        let (index, _) = self.compiler.resolve(reference);
        let node = &self.compiler.graph.nodes[index];
        if node.kind != kind {
            return None;
        }
        let mut ctx = NodeCtx {
            desc: (self.compiler.lookup)(&node.kind).expect("validated"),
            node,
            compiler: &mut *self.compiler,
            frame: self.frame,
        };
        Some(f(&mut ctx))
    }

    /// The plane `work` computes from another of the same size, made once per graph: a
    /// stage of this node of `channels`, charged `cost` per texel.
    fn derived(
        &mut self,
        work: StageWork,
        channels: u32,
        reach: Reach,
        cost: f64,
    ) -> Result<u32, GraphError> {
        let key = Derived::of(&work);
        if let Some(&plane) = self.compiler.derived_memo.get(&key) {
            return Ok(plane);
        }
        let reads = work.inputs();
        let input = reads[0];
        let c = &mut *self.compiler;
        let info = c.planes[input as usize].clone();
        let shift = match info.size {
            PlaneSize::Render { shift } => shift,
            PlaneSize::Fixed { .. } => 0,
        };
        c.charge_pass(cost, shift, &self.node.id)?;
        let plane = c.planes.len() as u32;
        c.planes.push(PlaneInfo {
            node: self.node.id.clone(),
            channels,
            image: None,
            ..info
        });
        c.stages.push(Stage {
            node: self.node.id.clone(),
            target: Some(plane),
            work,
            reaches: vec![reach; reads.len()],
            reads,
            cost: cost as f32,
        });
        c.derived_memo.insert(key, plane);
        Ok(plane)
    }

    /// The plane of a loaded image for this node, made by `load` the first time this node
    /// asks (a node is compiled once per position it is sampled at).
    pub fn image_plane(
        &mut self,
        load: impl FnOnce() -> Result<(Arc<Image>, bool), GraphError>,
    ) -> Result<u32, GraphError> {
        let index = self.compiler.index[self.node.id.as_str()];
        if let Some(&plane) = self.compiler.image_planes.get(&index) {
            return Ok(plane);
        }
        let (image, wrap) = load()?;
        let c = &mut *self.compiler;
        let plane = c.planes.len() as u32;
        c.planes.push(PlaneInfo {
            node: self.node.id.clone(),
            channels: image.channels as u32,
            size: PlaneSize::Fixed {
                width: image.width,
                height: image.height,
            },
            wrap,
            image: Some(image),
        });
        c.image_planes.insert(index, plane);
        Ok(plane)
    }

    /// A plane of `width` × `height` texels, whatever the render's size, whose texel
    /// channels `texel` computes: compiled as a stage of its own, once per node, where the
    /// image frame's coordinates are the texel's centre ((column + ½) / width across). For
    /// data a node keeps per element of its own (a tile sampler's instances), read with
    /// [`Op::Texel`].
    pub fn fixed_plane(
        &mut self,
        width: u32,
        height: u32,
        texel: impl FnOnce(&mut NodeCtx<'_, '_>) -> Result<Vec<Operand>, GraphError>,
    ) -> Result<u32, GraphError> {
        let c = &mut *self.compiler;
        let index = c.index[self.node.id.as_str()];
        let key = (index, c.pass_of(index), self.frame.local);
        if let Some(&plane) = c.fixed_planes.get(&key) {
            return Ok(plane);
        }
        let mut builder = StageBuilder::new(0);
        builder.fixed = true;
        let owner = self.node.id.clone();
        let size = PlaneSize::Fixed { width, height };
        let plane = self.stage_of_its_own(builder, owner, size, |ctx| {
            let outer = ctx.frame;
            ctx.frame = Frame {
                local: outer.local,
                ..Frame::IMAGE
            };
            let channels = texel(ctx);
            ctx.frame = outer;
            channels
        })?;
        let c = &mut *self.compiler;
        c.fixed_planes.insert(key, plane);
        Ok(plane)
    }

    /// Runs `body` as a stage of its own, on `builder`'s grid, writing a new plane of
    /// `size` for node `owner`: the stage being built waits meanwhile (its cost set
    /// aside) and resumes whether `body` succeeds or not.
    fn stage_of_its_own(
        &mut self,
        builder: StageBuilder,
        owner: String,
        size: PlaneSize,
        body: impl FnOnce(&mut NodeCtx<'_, '_>) -> Result<Vec<Operand>, GraphError>,
    ) -> Result<u32, GraphError> {
        let c = &mut *self.compiler;
        let outer = std::mem::replace(&mut c.stage, builder);
        let outer_share = outer.cost.total * area(outer.shift);
        c.outer_cost += outer_share;
        let compiled = body(self);
        let c = &mut *self.compiler;
        let plane = compiled.map(|channels| {
            let plane = c.planes.len() as u32;
            c.planes.push(PlaneInfo {
                node: owner.clone(),
                channels: channels.len() as u32,
                size,
                wrap: c.graph.settings.tileable,
                image: None,
            });
            c.finish_stage(&owner, Some(plane), channels);
            plane
        });
        c.stage = outer;
        c.outer_cost -= outer_share;
        plane
    }

    /// Channels of `plane` (1 or 4).
    pub fn plane_channels(&self, plane: u32) -> u32 {
        self.compiler.planes[plane as usize].channels
    }

    /// Whether this node's position is the pixel being computed on a plane of the stage's
    /// own grid: then neighbours are whole texels away and reads can be exact.
    pub fn on_grid(&self, plane: u32) -> bool {
        self.frame == Frame::IMAGE
            && !self.compiler.stage.fixed
            && self.compiler.planes[plane as usize].size
                == (PlaneSize::Render {
                    shift: self.compiler.stage.shift,
                })
    }

    /// `plane` at this node's position: exact on the stage's own grid, else bilinear (or
    /// `nearest`).
    pub fn read(&mut self, plane: u32, nearest: bool) -> Result<Val, GraphError> {
        let channels = self.plane_channels(plane);
        let op = if self.on_grid(plane) {
            Op::Fetch { plane, channels }
        } else {
            Op::Sample {
                plane,
                channels,
                x: self.frame.x,
                y: self.frame.y,
                nearest,
            }
        };
        Ok(Val::from_channels(&self.emit_many(op)?))
    }

    /// Emits an operation writing any number of slots (plane operations are never folded).
    pub fn emit_many(&mut self, op: Op) -> Result<Vec<Operand>, GraphError> {
        let arity = op.arity();
        let dst = self.compiler.emit(op, self.node)?;
        Ok((0..arity).map(|i| Operand::Slot(dst + i as Slot)).collect())
    }
}
