//! The formula language of the `formula` node: per-pixel expressions over texture
//! coordinates, the node's inputs and params, with GLSL's functions and texgraph's noises.
//! The language is described for users in docs/formula.md.
//!
//! A formula is read once when the graph is compiled ([`parse::parse`]), then typed and
//! turned into the program's own operations ([`lower::lower`]): the same kernels, constant
//! folding and sharing of equal operations as every node, so a formula runs as fast as
//! the nodes it spells out and gives the same bits on every instruction set. There are no
//! loops and no recursion, and the text, its nesting and its operations are capped
//! ([`MAX_LENGTH`], [`MAX_DEPTH`], [`MAX_OPERATIONS`]), so every formula ends.

pub mod lex;
pub mod lower;
pub mod names;
pub mod parse;

use std::ops::Range;

use texgraph_base::error::GraphError;
use texgraph_engine::eval;
use texgraph_engine::program::{Op, Operand};

pub use lower::{Failure, Target, Value, lower};
pub use names::{FUNCTIONS, Noise, VARIABLES, Variable};
pub use parse::{Formula, parse};

/// The longest formula, in bytes.
pub const MAX_LENGTH: usize = 10_000;
/// How deeply operators, parentheses and calls may nest.
pub const MAX_DEPTH: usize = 64;
/// The most operations a formula may emit (before equal ones are shared).
pub const MAX_OPERATIONS: usize = 4_000;

/// A mistake in a formula: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormulaError {
    /// The bytes of the text it is about.
    pub span: Range<usize>,
    /// What is wrong, in words.
    pub message: String,
}

impl FormulaError {
    /// A mistake at `span`.
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            span,
            message: message.into(),
        }
    }

    /// The mistake as an error message names it: `column 14: …` (`line 2, column 3: …`
    /// in a formula of several lines), then the line of the formula and a caret under
    /// the part it is about.
    pub fn describe(&self, text: &str) -> String {
        let start = self.span.start.min(text.len());
        let (line, column) = position(text, start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let shown: String = text[line_start..line_end]
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let end = self.span.end.clamp(start, line_end);
        let carets = text[start..end].chars().count().max(1);
        let place = if text.contains('\n') {
            format!("line {line}, column {column}")
        } else {
            format!("column {column}")
        };
        format!(
            "{place}: {}\n    {}\n    {}{}",
            self.message,
            shown.trim_end(),
            " ".repeat(column - 1),
            "^".repeat(carets)
        )
    }
}

/// The line and column (both from 1, columns in characters) of byte `at` of `text`.
pub fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The mistakes `text` has whatever is connected to the node: a formula that reads
/// inputs `a`…`d` is tried with each a number and a color, and is wrong only if it is
/// wrong with every choice. What validation reports for a node before it is compiled.
pub fn check(text: &str) -> Result<(), FormulaError> {
    let formula = parse(text)?;
    let mut first = None;
    // The inputs some try has read. A choice that makes an input a color which no try
    // has read lowers exactly as the same choice without it (tried before: its number is
    // smaller), so it is skipped: a formula reading no input is lowered once.
    let mut read = 0u8;
    for colors in 0..16u8 {
        if colors & !read != 0 {
            continue;
        }
        let mut dry = Dry { colors, read: 0 };
        let outcome = lower(&formula, &mut dry);
        read |= dry.read;
        match outcome {
            Ok(_) => return Ok(()),
            Err(Failure::Formula(e)) => {
                first.get_or_insert(e);
            }
            Err(Failure::Graph(_)) => unreachable!("a dry run emits nothing"),
        }
    }
    Err(first.expect("the all-numbers choice is always tried"))
}

/// A target that emits nothing: operations on constants fold as the compiler folds them,
/// every other result is a stand-in slot, every input a number or a color as `colors`
/// says (bit i for input i); `read` notes the inputs read.
struct Dry {
    colors: u8,
    read: u8,
}

impl Target for Dry {
    fn emit(&mut self, op: Op) -> Result<Operand, GraphError> {
        if op.foldable() {
            let tables = eval::Tables {
                permutations: &[],
                ramps: &[],
                curves: &[],
                corners: &[],
                planes: &[],
            };
            return Ok(Operand::Const(eval::apply_uniform(&op, &tables)[0]));
        }
        Ok(Operand::Slot(0))
    }

    fn variable(&mut self, variable: Variable) -> Result<Value, GraphError> {
        if let Variable::Input(i) = variable {
            self.read |= 1 << i;
        }
        Ok(match variable {
            Variable::Input(i) if self.colors & (1 << i) != 0 => Value::of(&[Operand::Slot(0); 4]),
            _ => Value::number(Operand::Slot(0)),
        })
    }

    fn noise(
        &mut self,
        _: Noise,
        _: [Operand; 3],
        _: bool,
        _: Operand,
        _: u32,
    ) -> Result<Operand, GraphError> {
        Ok(Operand::Slot(0))
    }
}
