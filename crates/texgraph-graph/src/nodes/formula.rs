//! `formula`: a per-pixel expression typed by the user ([`crate::formula`]), compiled into
//! the program's own operations.

use crate::compile::node_ctx::{Frame, NodeCtx, OPEN_RANGE, Val};
use crate::descriptor::{
    Category, InputPort, NodeDescriptor, OutputPort, OutputType, Param, ParamKind, PortType,
    Unconnected, float,
};
use crate::formula::{self, Failure, Noise, Target, Value, Variable};
use crate::nodes::noise::{self, Layer};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Interpolation, Op, Operand, Unary};
use texgraph_kernels::cellular::{Cellular, Feature, Metric};

const fn input(name: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Any,
        unconnected: Unconnected::NodeDecides,
        doc: "Read in the formula by its name: a number, or a vec4 (r, g, b, a) when a color \
              is connected; 0 while open.",
    }
}

const fn slider(name: &'static str) -> Param {
    float(
        name,
        0.0,
        -OPEN_RANGE,
        OPEN_RANGE,
        "A number the formula reads by this name: tune it, connect it, or expose it from a \
         subgraph.",
    )
}

/// The label the inspector shows for a slider (its name when empty).
const fn label(name: &'static str) -> Param {
    Param {
        name,
        doc: "The slider's label in the inspector (empty: its name); the formula still \
              reads it by its name.",
        kind: ParamKind::Text { default: "" },
    }
}

/// One end of a slider's range in the inspector.
const fn bound(name: &'static str, default: f32) -> Param {
    Param {
        name,
        doc: "An end of the slider's range in the inspector; typed and connected values may \
              go past it.",
        kind: ParamKind::Number {
            default,
            min: -OPEN_RANGE,
            max: OPEN_RANGE,
        },
    }
}

/// `formula`: a per-pixel expression.
pub static FORMULA: NodeDescriptor = NodeDescriptor {
    id: "formula",
    label: "Formula",
    category: Category::Combine,
    doc: "A per-pixel expression in texgraph's formula language (docs/formula.md): numbers, \
          + − * / %, comparisons, && || !, `c ? a : b`, `let` bindings, vectors with .xyzw \
          and .rgba, GLSL's functions and texgraph's noises, over u, v, x, y, width, height, \
          time, the inputs a…d and the params p1…p4. Compiled into the same operations as \
          the built-in nodes. The output is a scalar for a number, a color for a vector \
          (vec2 as (x, y, 0, 1), vec3 with alpha 1).",
    inputs: &[input("a"), input("b"), input("c"), input("d")],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::ByExpression,
        doc: "The formula's value.",
    }],
    params: &[
        Param {
            name: "expression",
            doc: "The formula (docs/formula.md).",
            kind: ParamKind::Formula { default: "a" },
        },
        slider("p1"),
        slider("p2"),
        slider("p3"),
        slider("p4"),
        label("p1_name"),
        bound("p1_min", 0.0),
        bound("p1_max", 1.0),
        label("p2_name"),
        bound("p2_min", 0.0),
        bound("p2_max", 1.0),
        label("p3_name"),
        bound("p3_min", 0.0),
        bound("p3_max", 1.0),
        label("p4_name"),
        bound("p4_min", 0.0),
        bound("p4_max", 1.0),
    ],
    compile: |ctx| {
        let text = ctx.text("expression").to_owned();
        let parsed =
            formula::parse(&text).map_err(|e| ctx.error("expression", e.describe(&text)))?;
        let value = match formula::lower(&parsed, &mut Emitter { ctx }) {
            Ok(value) => value,
            Err(Failure::Formula(e)) => return Err(ctx.error("expression", e.describe(&text))),
            Err(Failure::Graph(e)) => return Err(e),
        };
        let [x, y, z, w] = value.lanes;
        let one = Operand::Const(1.0);
        Ok(vec![match value.width {
            1 => Val::Scalar(x),
            2 => Val::Color([x, y, Operand::Const(0.0), one]),
            3 => Val::Color([x, y, z, one]),
            _ => Val::Color([x, y, z, w]),
        }])
    },
};

/// The node's context as the formula's target.
struct Emitter<'a, 'c, 'g> {
    ctx: &'a mut NodeCtx<'c, 'g>,
}

impl Target for Emitter<'_, '_, '_> {
    fn emit(&mut self, op: Op) -> Result<Operand, GraphError> {
        self.ctx.emit(op)
    }

    fn variable(&mut self, variable: Variable) -> Result<Value, GraphError> {
        let ctx = &mut *self.ctx;
        let number = |o| Ok(Value::number(o));
        match variable {
            Variable::U => number(ctx.frame().x),
            Variable::V => number(ctx.frame().y),
            Variable::Width => number(ctx.emit(Op::ImageSize { vertical: false })?),
            Variable::Height => number(ctx.emit(Op::ImageSize { vertical: true })?),
            Variable::Time => number(Operand::Const(ctx.time())),
            Variable::Input(i) => Ok(match ctx.input(["a", "b", "c", "d"][i])? {
                Some(Val::Color(rgba)) => Value::of(&rgba),
                Some(Val::Scalar(s)) => Value::number(s),
                None => Value::number(Operand::Const(0.0)),
            }),
            Variable::Param(i) => number(ctx.float(["p1", "p2", "p3", "p4"][i])?),
        }
    }

    fn noise(
        &mut self,
        kind: Noise,
        at: [Operand; 3],
        volume: bool,
        frequency: Operand,
        seed: u32,
    ) -> Result<Operand, GraphError> {
        let ctx = &mut *self.ctx;
        let frame = Frame {
            x: at[0],
            y: at[1],
            ..ctx.frame()
        };
        let z = if volume { at[2] } else { Operand::Const(0.0) };
        let zero = [0.0, 0.0];
        let tile = ctx.tileable();
        let cells = |feature| Cellular {
            seed,
            metric: Metric::Euclidean,
            feature,
            volume,
            tile,
        };
        let jitter = Operand::Const(1.0);
        match kind {
            // The nodes' own helpers, so `perlin(vec2(u, v), 8, 0)` is the perlin node's bits.
            Noise::Perlin => noise::perlin(ctx, frame, z, frequency, zero, seed, Layer::UNIT),
            Noise::Simplex => noise::simplex(ctx, frame, [frequency, z], zero, seed, volume, true),
            Noise::Value => {
                let n = noise::value(ctx, frame, frequency, zero, seed, Interpolation::Quintic)?;
                ctx.emit(Op::Unary(Unary::ToUnit, n))
            }
            Noise::Cellular => {
                let kind = cells(Feature::F1);
                noise::cellular(ctx, frame, kind, [frequency, jitter, z], zero)
            }
            Noise::CellularEdge => {
                let kind = cells(Feature::Edge);
                noise::cellular(ctx, frame, kind, [frequency, jitter, z], zero)
            }
            Noise::CellularId => {
                let kind = cells(Feature::CellValue);
                noise::cellular(ctx, frame, kind, [frequency, jitter, z], zero)
            }
            Noise::Random => {
                let [r, ..] = ctx.emit4(Op::CellHash {
                    x: at[0],
                    y: at[1],
                    offset: [0, 0],
                    seed,
                    period: [0, 0],
                })?;
                Ok(r)
            }
        }
    }
}
