//! Channel and value nodes: `split`, `channel_shuffle`, `merge`, `grayscale`, `hsl`,
//! `threshold`, `remap`, `quantize`.

use crate::compile::node_ctx::{NodeCtx, Val};
use crate::descriptor::{
    COLOR_OUT, Category, InputPort, NodeDescriptor, OpenValue, OutputPort, OutputType, Param,
    ParamKind, PortType, SCALAR_OUT, Unconnected, choice, float,
};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Interpolation, Op, Operand, Unary};

const CHANNELS: [&str; 4] = ["r", "g", "b", "a"];

/// `split`: a color's four channels as scalars.
pub static SPLIT: NodeDescriptor = NodeDescriptor {
    id: "split",
    label: "Split Channels",
    category: Category::Color,
    doc: "The red, green, blue and alpha channels of a color as four scalars (a scalar input \
          gives itself three times and alpha 1). `merge` puts them back together exactly.",
    inputs: &[InputPort {
        name: "color",
        ty: PortType::Color,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The color to split.",
    }],
    outputs: &[
        OutputPort {
            name: "r",
            ty: OutputType::Scalar,
            doc: "Red.",
        },
        OutputPort {
            name: "g",
            ty: OutputType::Scalar,
            doc: "Green.",
        },
        OutputPort {
            name: "b",
            ty: OutputType::Scalar,
            doc: "Blue.",
        },
        OutputPort {
            name: "a",
            ty: OutputType::Scalar,
            doc: "Alpha.",
        },
    ],
    params: &[],
    compile: |ctx| {
        let color = ctx
            .input("color")?
            .expect("an open color reads its default");
        Ok(ctx.rgba(color).map(Val::Scalar).to_vec())
    },
};

/// What a channel of `channel_shuffle` may take.
const SHUFFLE_SOURCES: &[&str] = &[
    "a.r", "a.g", "a.b", "a.a", "b.r", "b.g", "b.b", "b.a", "0", "1",
];

/// `channel_shuffle`: a color whose channels are picked from two others.
pub static CHANNEL_SHUFFLE: NodeDescriptor = NodeDescriptor {
    id: "channel_shuffle",
    label: "Channel Shuffle",
    category: Category::Color,
    doc: "A color whose red, green, blue and alpha are each picked from a channel of input a \
          or b, or set to 0 or 1: swaps channels, moves a mask into alpha, packs two maps \
          into one. A scalar input gives its value as r, g and b and 1 as alpha.",
    inputs: &[
        InputPort {
            name: "a",
            ty: PortType::Color,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "First source of channels.",
        },
        InputPort {
            name: "b",
            ty: PortType::Color,
            unconnected: Unconnected::Reads(OpenValue::BLACK),
            doc: "Second source of channels.",
        },
    ],
    outputs: COLOR_OUT,
    params: &[
        choice("red", "a.r", SHUFFLE_SOURCES, "Where red comes from."),
        choice("green", "a.g", SHUFFLE_SOURCES, "Where green comes from."),
        choice("blue", "a.b", SHUFFLE_SOURCES, "Where blue comes from."),
        choice("alpha", "a.a", SHUFFLE_SOURCES, "Where alpha comes from."),
    ],
    compile: |ctx| {
        // Only the inputs some channel reads are compiled.
        let picks = ["red", "green", "blue", "alpha"].map(|p| ctx.text(p).to_owned());
        let mut sources = [None, None];
        let mut rgba = [Operand::Const(0.0); 4];
        for (out, pick) in rgba.iter_mut().zip(&picks) {
            *out = match pick.split_once('.') {
                Some((port, channel)) => {
                    let index = usize::from(port == "b");
                    if sources[index].is_none() {
                        let value = ctx.input(port)?.expect("an open input reads its default");
                        sources[index] = Some(ctx.rgba(value));
                    }
                    let at = CHANNELS.iter().position(|c| *c == channel).unwrap_or(0);
                    sources[index].expect("just read")[at]
                }
                None => Operand::Const(if pick == "1" { 1.0 } else { 0.0 }),
            };
        }
        Ok(vec![Val::Color(rgba)])
    },
};

/// `merge`: four scalars as a color.
pub static MERGE: NodeDescriptor = NodeDescriptor {
    id: "merge",
    label: "Merge Channels",
    category: Category::Color,
    doc: "A color from four scalars, taken as they are (no clamping). Unconnected red, green \
          and blue are 0; unconnected alpha is 1. A color connected to a channel gives its \
          Rec.709 luminance.",
    inputs: &[
        channel_port("r", "Red (0 when unconnected)."),
        channel_port("g", "Green (0 when unconnected)."),
        channel_port("b", "Blue (0 when unconnected)."),
        channel_port("a", "Alpha (1 when unconnected)."),
    ],
    outputs: COLOR_OUT,
    params: &[],
    compile: |ctx| {
        let mut rgba = [Operand::Const(0.0); 4];
        for (i, name) in CHANNELS.iter().enumerate() {
            rgba[i] = match ctx.input(name)? {
                Some(value) => ctx.scalar(value)?,
                None => Operand::Const(if i == 3 { 1.0 } else { 0.0 }),
            };
        }
        Ok(vec![Val::Color(rgba)])
    },
};

const fn channel_port(name: &'static str, doc: &'static str) -> InputPort {
    InputPort {
        name,
        ty: PortType::Scalar,
        unconnected: Unconnected::NodeDecides,
        doc,
    }
}

const GRAY_MODES: &[&str] = &["luminance", "average", "lightness", "value"];

/// `grayscale`: a color as one value.
pub static GRAYSCALE: NodeDescriptor = NodeDescriptor {
    id: "grayscale",
    label: "Grayscale",
    category: Category::Color,
    doc: "A color as one value: luminance 0.2126 r + 0.7152 g + 0.0722 b (Rec.709), average \
          (r + g + b)/3, lightness (max + min)/2 of r, g, b (HSL's), or value max(r, g, b) \
          (HSV's). Alpha is dropped.",
    inputs: &[InputPort {
        name: "color",
        ty: PortType::Color,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The color to convert.",
    }],
    outputs: SCALAR_OUT,
    params: &[choice(
        "mode",
        "luminance",
        GRAY_MODES,
        "How the channels combine.",
    )],
    compile: |ctx| {
        let color = ctx
            .input("color")?
            .expect("an open color reads its default");
        let [r, g, b, _] = ctx.rgba(color);
        let gray = match ctx.text("mode") {
            "average" => {
                let rg = ctx.emit(Op::Binary(Binary::Add, r, g))?;
                let sum = ctx.emit(Op::Binary(Binary::Add, rg, b))?;
                ctx.emit(Op::Binary(Binary::Multiply, sum, Operand::Const(1.0 / 3.0)))?
            }
            "lightness" => {
                let (high, low) = max_min(ctx, r, g, b)?;
                let sum = ctx.emit(Op::Binary(Binary::Add, high, low))?;
                ctx.emit(Op::Binary(Binary::Multiply, sum, Operand::Const(0.5)))?
            }
            "value" => max_min(ctx, r, g, b)?.0,
            _ => ctx.emit(Op::Luminance(r, g, b))?,
        };
        Ok(vec![Val::Scalar(gray)])
    },
};

/// `hsl`: hue, saturation and lightness.
pub static HSL: NodeDescriptor = NodeDescriptor {
    id: "hsl",
    label: "Hue / Saturation",
    category: Category::Color,
    doc: "Adjusts a color in HSL space, as an image editor's Hue/Saturation: the hue turns by \
          `hue` degrees, the saturation is multiplied by 1 + `saturation` (−1 gives gray, 1 \
          doubles it), and the lightness moves toward black (`lightness` < 0) or white \
          (> 0) by that fraction. Channels are taken within [0, 1]; alpha is kept. A scalar \
          input is gray, so only lightness changes it.",
    inputs: &[InputPort {
        name: "color",
        ty: PortType::Color,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The color to adjust.",
    }],
    outputs: COLOR_OUT,
    params: &[
        float("hue", 0.0, -180.0, 180.0, "Hue shift in degrees."),
        float(
            "saturation",
            0.0,
            -1.0,
            1.0,
            "Saturation change: −1 gray, 0 unchanged, 1 doubled.",
        ),
        float(
            "lightness",
            0.0,
            -1.0,
            1.0,
            "Lightness change: −1 black, 0 unchanged, 1 white.",
        ),
    ],
    compile: |ctx| {
        let color = ctx
            .input("color")?
            .expect("an open color reads its default");
        let [r, g, b, a] = ctx.rgba(color);
        let hue = ctx.float("hue")?;
        let saturation = ctx.float("saturation")?;
        let lightness = ctx.float("lightness")?;
        let rgb = ctx.emit_many(Op::Hsl {
            rgb: [r, g, b],
            hue,
            saturation,
            lightness,
        })?;
        Ok(vec![Val::Color([rgb[0], rgb[1], rgb[2], a])])
    },
};

/// The largest and smallest of three channels.
fn max_min(
    ctx: &mut NodeCtx<'_, '_>,
    r: Operand,
    g: Operand,
    b: Operand,
) -> Result<(Operand, Operand), GraphError> {
    let rg = ctx.emit(Op::Binary(Binary::Max, r, g))?;
    let high = ctx.emit(Op::Binary(Binary::Max, rg, b))?;
    let rg = ctx.emit(Op::Binary(Binary::Min, r, g))?;
    let low = ctx.emit(Op::Binary(Binary::Min, rg, b))?;
    Ok((high, low))
}

/// `threshold`: 1 above a level, 0 below, with an optional soft edge.
pub static THRESHOLD: NodeDescriptor = NodeDescriptor {
    id: "threshold",
    label: "Threshold",
    category: Category::Color,
    doc: "1 where the input is at or above level, else 0. With smoothness s > 0 the edge is a \
          smoothstep from level − s/2 to level + s/2 (0.5 at the level itself). Colors \
          are thresholded by their luminance.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Scalar,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to threshold.",
    }],
    outputs: SCALAR_OUT,
    params: &[
        float(
            "level",
            0.5,
            0.0,
            1.0,
            "Where the output turns from 0 to 1.",
        ),
        float(
            "smoothness",
            0.0,
            0.0,
            1.0,
            "Width of the soft edge around the level (0: a hard step).",
        ),
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let x = ctx.scalar(input)?;
        let level = ctx.float("level")?;
        let smoothness = ctx.float("smoothness")?;
        if smoothness.as_const() == Some(0.0) {
            return Ok(vec![Val::Scalar(ctx.emit(Op::Binary(
                Binary::Step,
                x,
                level,
            ))?)]);
        }
        // t = (x − level)/s + ½ through a smoothstep; a per-pixel s of 0 is taken as 10⁻⁶,
        // which is a hard step to within a millionth.
        let width = ctx.emit(Op::Binary(Binary::Max, smoothness, Operand::Const(1e-6)))?;
        let offset = ctx.emit(Op::Binary(Binary::Subtract, x, level))?;
        let scaled = ctx.emit(Op::Binary(Binary::Divide, offset, width))?;
        let t = ctx.emit(Op::Binary(Binary::Add, scaled, Operand::Const(0.5)))?;
        Ok(vec![Val::Scalar(
            ctx.emit(Op::Unary(Unary::Smoothstep, t))?,
        )])
    },
};

/// `remap`: one range onto another.
pub static REMAP: NodeDescriptor = NodeDescriptor {
    id: "remap",
    label: "Remap",
    category: Category::Color,
    doc: "Maps [in_min, in_max] linearly onto [out_min, out_max]: out = out_min + (x − in_min)/\
          (in_max − in_min)·(out_max − out_min), clamped to the output range when `clamp` \
          is on. Reversed ranges invert; equal input ends give out_min. On colors it maps r, \
          g and b and keeps alpha.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to remap.",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The remapped values (a color if the input is).",
    }],
    params: &[
        float("in_min", 0.0, -1e6, 1e6, "Input value mapped to out_min."),
        float("in_max", 1.0, -1e6, 1e6, "Input value mapped to out_max."),
        float("out_min", 0.0, -1e6, 1e6, "Output for in_min."),
        float("out_max", 1.0, -1e6, 1e6, "Output for in_max."),
        Param {
            name: "clamp",
            doc: "Keep the output within [out_min, out_max].",
            kind: ParamKind::Bool { default: false },
        },
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let (in_min, in_max) = (ctx.float("in_min")?, ctx.float("in_max")?);
        let (out_min, out_max) = (ctx.float("out_min")?, ctx.float("out_max")?);
        let clamp = ctx.flag("clamp");
        let in_span = ctx.emit(Op::Binary(Binary::Subtract, in_max, in_min))?;
        let out_span = ctx.emit(Op::Binary(Binary::Subtract, out_max, out_min))?;
        let mut map = |x: Operand| -> Result<Operand, GraphError> {
            let offset = ctx.emit(Op::Binary(Binary::Subtract, x, in_min))?;
            let mut t = ctx.emit(Op::Binary(Binary::Divide, offset, in_span))?;
            if clamp {
                t = ctx.emit(Op::Unary(Unary::Clamp01, t))?;
            }
            ctx.emit(Op::MulAdd(t, out_span, out_min))
        };
        Ok(vec![match input {
            Val::Scalar(x) => Val::Scalar(map(x)?),
            Val::Color([r, g, b, a]) => Val::Color([map(r)?, map(g)?, map(b)?, a]),
        }])
    },
};

/// Cells across the texture of the noise `quantize` dithers with: finer than the pixels of
/// any usual render, and the same at every resolution.
pub const DITHER_CELLS: f32 = 4096.0;

/// `quantize`: a few discrete levels.
pub static QUANTIZE: NodeDescriptor = NodeDescriptor {
    id: "quantize",
    label: "Quantize",
    category: Category::Color,
    doc: "Rounds values in [0, 1] down to `steps` evenly spaced levels 0, 1/(steps − 1), …, 1: \
          level = min(floor(x·steps), steps − 1). Driven by a noise, it decides which of k \
          variants a cell or object takes. With `dither`, x·(steps − 1) plus a white noise in \
          [0, 1) of 4096 cells across is rounded down instead, so the mean follows x without \
          bands. Colors are quantized per channel, alpha kept.",
    inputs: &[InputPort {
        name: "input",
        ty: PortType::Any,
        unconnected: Unconnected::Reads(OpenValue::BLACK),
        doc: "The values to quantize (clamped to [0, 1] first).",
    }],
    outputs: &[OutputPort {
        name: "out",
        ty: OutputType::FollowsInputs,
        doc: "The levels (a color if the input is).",
    }],
    params: &[
        Param {
            name: "steps",
            doc: "How many levels.",
            kind: ParamKind::Int {
                default: 4,
                min: 2,
                max: 256,
            },
        },
        Param {
            name: "dither",
            doc: "Dither with fine white noise instead of banding.",
            kind: ParamKind::Bool { default: false },
        },
    ],
    compile: |ctx| {
        let input = ctx
            .input("input")?
            .expect("an open input reads its default");
        let steps = ctx.int("steps") as f32;
        let noise = if ctx.flag("dither") {
            let frame = ctx.frame();
            let n = crate::nodes::noise::value(
                ctx,
                frame,
                Operand::Const(DITHER_CELLS),
                [0.0, 0.0],
                0x5EED,
                Interpolation::Constant,
            )?;
            // [−1, 1] to [0, 1), kept below 1 so a level is never skipped.
            let unit = ctx.emit(Op::Unary(Unary::ToUnit, n))?;
            Some(ctx.emit(Op::Binary(Binary::Min, unit, Operand::Const(0.999_999)))?)
        } else {
            None
        };
        let mut level = |x: Operand| -> Result<Operand, GraphError> {
            let x = ctx.emit(Op::Unary(Unary::Clamp01, x))?;
            let index = match noise {
                // floor(x·(steps − 1) + d)
                Some(d) => {
                    let t = ctx.emit(Op::MulAdd(x, Operand::Const(steps - 1.0), d))?;
                    let f = ctx.emit(Op::Unary(Unary::Fract, t))?;
                    ctx.emit(Op::Binary(Binary::Subtract, t, f))?
                }
                // min(floor(x·steps), steps − 1)
                None => {
                    let t = ctx.emit(Op::Binary(Binary::Multiply, x, Operand::Const(steps)))?;
                    let f = ctx.emit(Op::Unary(Unary::Fract, t))?;
                    let whole = ctx.emit(Op::Binary(Binary::Subtract, t, f))?;
                    ctx.emit(Op::Binary(Binary::Min, whole, Operand::Const(steps - 1.0)))?
                }
            };
            ctx.emit(Op::Binary(
                Binary::Multiply,
                index,
                Operand::Const(1.0 / (steps - 1.0)),
            ))
        };
        Ok(vec![match input {
            Val::Scalar(x) => Val::Scalar(level(x)?),
            Val::Color([r, g, b, a]) => Val::Color([level(r)?, level(g)?, level(b)?, a]),
        }])
    },
};
