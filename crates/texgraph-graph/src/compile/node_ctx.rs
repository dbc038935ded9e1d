//! What a node's compile function sees ([`NodeCtx`]): its params, its inputs as values
//! ([`Val`]) in the frame it is compiled in ([`Frame`]), and ways to emit operations. The
//! plane requests of nodes that read neighbourhoods are in `planes.rs`.

use std::sync::Arc;

use super::compiler::Compiler;
use crate::descriptor::{NodeDescriptor, OpenValue, ParamKind, Unconnected};
use crate::graph::{Node, ParamValue};
use texgraph_base::error::{GraphError, Location};
use texgraph_engine::eval;
use texgraph_engine::program::{Binary, Op, Operand, Slot, U_SLOT, V_SLOT};
use texgraph_kernels::curve::Curve;
use texgraph_kernels::gradient::{Ramp, parse_hex_color};
use texgraph_kernels::noise::{CornerTable, MAX_TABLE_BYTES, Permutation};
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

    /// An open input's constant.
    pub fn constant(value: OpenValue) -> Val {
        match value {
            OpenValue::Gray(v) => Val::Scalar(Operand::Const(v)),
            OpenValue::Rgba(rgba) => Val::Color(rgba.map(Operand::Const)),
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

/// What a node's compile function sees: its params, its inputs, the frame it is
/// compiled in, and ways to emit operations.
pub struct NodeCtx<'c, 'g> {
    pub(super) compiler: &'c mut Compiler<'g>,
    pub(super) node: &'g Node,
    pub(super) desc: &'static NodeDescriptor,
    pub(super) frame: Frame,
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

    /// The graph's `time` setting, within ±[`SATURATION`](texgraph_kernels::scalar::SATURATION)
    /// like every value a node passes on (a time of 10³⁸ would overflow a blur's sums).
    pub fn time(&self) -> f32 {
        let limit = texgraph_kernels::scalar::SATURATION;
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
                | ParamKind::Formula { default }
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

    /// Input `port` compiled in this node's frame: what is connected, else the constant
    /// the port reads open ([`Unconnected::Reads`]), else `None`.
    pub fn input(&mut self, port: &str) -> Result<Option<Val>, GraphError> {
        self.input_at(port, self.frame)
    }

    /// Input `port` compiled at other coordinates, as [`NodeCtx::input`].
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
            None => Ok(self.open_value(port).map(Val::constant)),
        }
    }

    /// The constant input `port` reads while unconnected, if the port has one.
    pub(super) fn open_value(&self, port: &str) -> Option<OpenValue> {
        match self.desc.input(port)?.unconnected {
            Unconnected::Reads(value) => Some(value),
            Unconnected::NodeDecides | Unconnected::MustConnect => None,
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
        if !op.foldable() {
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
