//! Types a formula and turns it into the program's operations, through a [`Target`] that
//! emits them (the compiler's node context, or a dry run that only checks).
//!
//! A value is a number or a vector of 2 to 4 components. Operators and functions work
//! component by component; a number meets a vector by standing in for each component
//! (broadcast); two vectors must have the same size.

use std::ops::Range;

use super::names::{self, Function, Lowering, Noise, Variable};
use super::parse::{Expr, ExprKind, Formula, Infix, Prefix};
use super::{FormulaError, MAX_OPERATIONS};
use texgraph_base::error::GraphError;
use texgraph_engine::program::{Binary, Op, Operand, Unary};

/// A formula value: `width` components (1 for a number), the rest unused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    /// 1 for a number, 2 to 4 for a vector.
    pub width: usize,
    /// The components; those past `width` are 0.
    pub lanes: [Operand; 4],
}

impl Value {
    /// A number.
    pub fn number(value: Operand) -> Value {
        Value {
            width: 1,
            lanes: [value, ZERO, ZERO, ZERO],
        }
    }

    /// A vector of the given components (1 to 4).
    pub fn of(lanes: &[Operand]) -> Value {
        let mut out = [ZERO; 4];
        out[..lanes.len()].copy_from_slice(lanes);
        Value {
            width: lanes.len(),
            lanes: out,
        }
    }

    /// Component `i`, a number standing in for every component.
    fn lane(&self, i: usize) -> Operand {
        if self.width == 1 {
            self.lanes[0]
        } else {
            self.lanes[i]
        }
    }
}

const ZERO: Operand = Operand::Const(0.0);

/// What a formula's operations go into.
pub trait Target {
    /// Emits one operation with one result (or folds it) and returns the result.
    fn emit(&mut self, op: Op) -> Result<Operand, GraphError>;
    /// A variable's value.
    fn variable(&mut self, variable: Variable) -> Result<Value, GraphError>;
    /// A noise at `at` (x, y and, when `volume`, z).
    fn noise(
        &mut self,
        noise: Noise,
        at: [Operand; 3],
        volume: bool,
        frequency: Operand,
        seed: u32,
    ) -> Result<Operand, GraphError>;
}

/// Why lowering stopped: the formula is wrong, or the compiler refused an operation.
#[derive(Debug)]
pub enum Failure {
    /// A mistake in the formula.
    Formula(FormulaError),
    /// The compiler's own error (a cost over budget).
    Graph(GraphError),
}

impl From<FormulaError> for Failure {
    fn from(e: FormulaError) -> Self {
        Failure::Formula(e)
    }
}

/// The formula's value, its operations emitted into `target`.
pub fn lower(formula: &Formula, target: &mut dyn Target) -> Result<Value, Failure> {
    let mut lowering = Lowerer {
        target,
        bound: Vec::new(),
        operations: 0,
    };
    for binding in &formula.bindings {
        if names::variable(&binding.name).is_some() {
            return Err(FormulaError::new(
                binding.name_span.clone(),
                format!(
                    "\"{}\" is a built-in variable; pick another name",
                    binding.name
                ),
            )
            .into());
        }
        if lowering.bound.iter().any(|(n, _)| *n == binding.name) {
            return Err(FormulaError::new(
                binding.name_span.clone(),
                format!("\"{}\" is already bound by a 'let' above", binding.name),
            )
            .into());
        }
        let value = lowering.expr(&binding.value)?;
        lowering.bound.push((binding.name.clone(), value));
    }
    lowering.expr(&formula.body)
}

struct Lowerer<'t> {
    target: &'t mut dyn Target,
    bound: Vec<(String, Value)>,
    operations: usize,
}

impl Lowerer<'_> {
    fn emit(&mut self, op: Op, span: &Range<usize>) -> Result<Operand, Failure> {
        self.count(span)?;
        self.target.emit(op).map_err(Failure::Graph)
    }

    /// Counts one more operation, refusing past [`MAX_OPERATIONS`].
    fn count(&mut self, span: &Range<usize>) -> Result<(), FormulaError> {
        self.operations += 1;
        if self.operations > MAX_OPERATIONS {
            return Err(FormulaError::new(
                span.clone(),
                format!("the formula needs more than {MAX_OPERATIONS} operations"),
            ));
        }
        Ok(())
    }

    fn expr(&mut self, e: &Expr) -> Result<Value, Failure> {
        match &e.kind {
            ExprKind::Number(v) => Ok(Value::number(Operand::Const(*v))),
            ExprKind::Name(name) => self.name(name, &e.span),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => {
                let Some(function) = names::function(name) else {
                    return Err(unknown_function(name, name_span).into());
                };
                if args.len() < function.min_args || args.len() > function.max_args {
                    return Err(FormulaError::new(
                        e.span.clone(),
                        format!(
                            "{}{} takes {}, not {}",
                            function.name,
                            function.signature,
                            count(function.min_args, function.max_args),
                            args.len()
                        ),
                    )
                    .into());
                }
                self.call(function, args, &e.span)
            }
            ExprKind::Prefix(prefix, inner) => {
                let value = self.expr(inner)?;
                self.each(value, &e.span, |a| match prefix {
                    Prefix::Negate => Op::Binary(Binary::Subtract, ZERO, a),
                    Prefix::Not => Op::Unary(Unary::Not, a),
                })
            }
            ExprKind::Infix(infix, left, right) => {
                let (l, r) = (self.expr(left)?, self.expr(right)?);
                let (op, swap) = match infix {
                    Infix::Add => (Binary::Add, false),
                    Infix::Subtract => (Binary::Subtract, false),
                    Infix::Multiply => (Binary::Multiply, false),
                    Infix::Divide => (Binary::Divide, false),
                    Infix::Modulo => (Binary::Mod, false),
                    Infix::Less => (Binary::Less, false),
                    Infix::LessEqual => (Binary::LessEqual, false),
                    Infix::Greater => (Binary::Less, true),
                    Infix::GreaterEqual => (Binary::LessEqual, true),
                    Infix::Equal => (Binary::Equal, false),
                    Infix::NotEqual => (Binary::NotEqual, false),
                    Infix::And => (Binary::And, false),
                    Infix::Or => (Binary::Or, false),
                };
                let (l, r) = if swap { (r, l) } else { (l, r) };
                self.pair(l, r, &e.span, |a, b| Op::Binary(op, a, b))
            }
            ExprKind::Conditional(condition, yes, no) => {
                let (c, a, b) = (self.expr(condition)?, self.expr(yes)?, self.expr(no)?);
                self.select(c, a, b, &e.span)
            }
            ExprKind::Components(inner, letters, letters_span) => {
                let value = self.expr(inner)?;
                components(value, letters, letters_span)
            }
        }
    }

    fn name(&mut self, name: &str, span: &Range<usize>) -> Result<Value, Failure> {
        if let Some((_, value)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return Ok(*value);
        }
        let Some(info) = names::variable(name) else {
            let message = if names::function(name).is_some() {
                format!("\"{name}\" is a function: write {name}(…)")
            } else {
                let known = names::VARIABLES
                    .iter()
                    .map(|v| v.name)
                    .chain(self.bound.iter().map(|(n, _)| n.as_str()));
                match names::nearest(name, known) {
                    Some(near) => format!("unknown name \"{name}\" (did you mean \"{near}\"?)"),
                    None => format!("unknown name \"{name}\""),
                }
            };
            return Err(FormulaError::new(span.clone(), message).into());
        };
        match (info.variable, info.name) {
            (Some(variable), _) => self.target.variable(variable).map_err(Failure::Graph),
            (None, "pi") => Ok(Value::number(Operand::Const(std::f32::consts::PI))),
            (None, "tau") => Ok(Value::number(Operand::Const(std::f32::consts::TAU))),
            (None, axis) => {
                // x = u·width, y = v·height: pixel positions follow the frame the node is
                // computed in, as u and v do.
                let (along, size) = if axis == "x" {
                    (Variable::U, Variable::Width)
                } else {
                    (Variable::V, Variable::Height)
                };
                let along = self.target.variable(along).map_err(Failure::Graph)?;
                let size = self.target.variable(size).map_err(Failure::Graph)?;
                self.pair(along, size, span, |a, b| Op::Binary(Binary::Multiply, a, b))
            }
        }
    }

    fn call(
        &mut self,
        function: &Function,
        args: &[Expr],
        span: &Range<usize>,
    ) -> Result<Value, Failure> {
        if let Lowering::Noise(noise) = function.lowering {
            return self.noise(function, noise, args, span);
        }
        let values = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<_>, _>>()?;
        let v = |i: usize| values[i];
        match function.lowering {
            Lowering::Each(f) => self.each(v(0), span, |a| Op::Unary(f, a)),
            Lowering::Pair(f) => self.pair(v(0), v(1), span, |a, b| Op::Binary(f, a, b)),
            Lowering::Atan if values.len() == 1 => {
                self.each(v(0), span, |a| Op::Unary(Unary::Atan, a))
            }
            Lowering::Atan => self.pair(v(0), v(1), span, |a, b| Op::Binary(Binary::Atan2, a, b)),
            Lowering::Step => self.pair(v(1), v(0), span, |x, edge| {
                Op::Binary(Binary::Step, x, edge)
            }),
            Lowering::Clamp => {
                let low = self.pair(v(0), v(1), span, |x, l| Op::Binary(Binary::Max, x, l))?;
                self.pair(low, v(2), span, |x, h| Op::Binary(Binary::Min, x, h))
            }
            Lowering::Mix => {
                let width = common_width(&values, span)?;
                let mut lanes = [ZERO; 4];
                for (i, lane) in lanes.iter_mut().take(width).enumerate() {
                    let mixed =
                        self.emit(Op::Lerp(v(0).lane(i), v(1).lane(i), v(2).lane(i)), span)?;
                    // a + (b − a)·t does not saturate on its own.
                    *lane = self.emit(Op::Unary(Unary::Saturate, mixed), span)?;
                }
                Ok(Value::of(&lanes[..width]))
            }
            Lowering::Smoothstep => {
                let [e0, e1, x] = [v(0), v(1), v(2)];
                let rise = self.pair(x, e0, span, |x, e0| Op::Binary(Binary::Subtract, x, e0))?;
                let run = self.pair(e1, e0, span, |e1, e0| Op::Binary(Binary::Subtract, e1, e0))?;
                let t = self.pair(rise, run, span, |r, w| Op::Binary(Binary::Divide, r, w))?;
                let smooth = self.each(t, span, |t| Op::Unary(Unary::Smoothstep, t))?;
                // Equal edges make a step, as a limit of ever steeper curves would.
                let flat = self.pair(e1, e0, span, |e1, e0| Op::Binary(Binary::Equal, e1, e0))?;
                let step = self.pair(x, e0, span, |x, e0| Op::Binary(Binary::Step, x, e0))?;
                self.select(flat, step, smooth, span)
            }
            Lowering::If => self.select(v(0), v(1), v(2), span),
            Lowering::Length => self.length(v(0), span),
            Lowering::Distance => {
                let d = self.pair(v(0), v(1), span, |a, b| Op::Binary(Binary::Subtract, a, b))?;
                self.length(d, span)
            }
            Lowering::Dot => {
                let products =
                    self.pair(v(0), v(1), span, |a, b| Op::Binary(Binary::Multiply, a, b))?;
                self.sum(products, span)
            }
            Lowering::Normalize => {
                let length = self.length(v(0), span)?;
                self.pair(v(0), length, span, |a, l| Op::Binary(Binary::Divide, a, l))
            }
            Lowering::Angle(to_radians) => {
                let factor = if to_radians {
                    std::f32::consts::PI / 180.0
                } else {
                    180.0 / std::f32::consts::PI
                };
                self.each(v(0), span, |a| {
                    Op::Binary(Binary::Multiply, a, Operand::Const(factor))
                })
            }
            Lowering::Vector(n) => vector(n, &values, span),
            Lowering::Noise(_) => unreachable!("noises are lowered above"),
        }
    }

    fn noise(
        &mut self,
        function: &Function,
        noise: Noise,
        args: &[Expr],
        span: &Range<usize>,
    ) -> Result<Value, Failure> {
        let p = self.expr(&args[0])?;
        let volume = p.width == 3;
        let flat_only = matches!(noise, Noise::Value | Noise::Random);
        if !(p.width == 2 || volume && !flat_only) {
            let wanted = if flat_only {
                "a vec2"
            } else {
                "a vec2 or a vec3"
            };
            return Err(FormulaError::new(
                args[0].span.clone(),
                format!(
                    "{}'s position must be {wanted}, not {}",
                    function.name,
                    type_name(p.width)
                ),
            )
            .into());
        }
        let (frequency, seed_arg) = if noise == Noise::Random {
            (ZERO, &args[1])
        } else {
            let frequency = self.expr(&args[1])?;
            if frequency.width != 1 {
                return Err(FormulaError::new(
                    args[1].span.clone(),
                    format!(
                        "{}'s frequency must be a number, not {}",
                        function.name,
                        type_name(frequency.width)
                    ),
                )
                .into());
            }
            (frequency.lanes[0], &args[2])
        };
        let seed = self.expr(seed_arg)?;
        let seed = match (seed.width, seed.lanes[0].as_const()) {
            (1, Some(s)) if s >= 0.0 && s <= i32::MAX as f32 && s.fract() == 0.0 => s as u32,
            _ => {
                return Err(FormulaError::new(
                    seed_arg.span.clone(),
                    "a seed must be a whole number from 0 on, known without rendering \
                     (a literal, or arithmetic on literals)",
                )
                .into());
            }
        };
        self.count(span)?;
        let at = [p.lanes[0], p.lanes[1], p.lanes[2]];
        let n = self
            .target
            .noise(noise, at, volume, frequency, seed)
            .map_err(Failure::Graph)?;
        Ok(Value::number(n))
    }

    /// f of each component.
    fn each(
        &mut self,
        value: Value,
        span: &Range<usize>,
        f: impl Fn(Operand) -> Op,
    ) -> Result<Value, Failure> {
        let mut lanes = [ZERO; 4];
        for (i, lane) in lanes.iter_mut().take(value.width).enumerate() {
            *lane = self.emit(f(value.lanes[i]), span)?;
        }
        Ok(Value::of(&lanes[..value.width]))
    }

    /// f of each pair of components, a number standing in for every component.
    fn pair(
        &mut self,
        a: Value,
        b: Value,
        span: &Range<usize>,
        f: impl Fn(Operand, Operand) -> Op,
    ) -> Result<Value, Failure> {
        let width = common_width(&[a, b], span)?;
        let mut lanes = [ZERO; 4];
        for (i, lane) in lanes.iter_mut().take(width).enumerate() {
            *lane = self.emit(f(a.lane(i), b.lane(i)), span)?;
        }
        Ok(Value::of(&lanes[..width]))
    }

    /// a where `condition` is not 0, else b, component by component; a condition known
    /// while compiling picks one side outright.
    fn select(
        &mut self,
        condition: Value,
        a: Value,
        b: Value,
        span: &Range<usize>,
    ) -> Result<Value, Failure> {
        let width = common_width(&[condition, a, b], span)?;
        let mut lanes = [ZERO; 4];
        for (i, lane) in lanes.iter_mut().take(width).enumerate() {
            *lane = match condition.lane(i).as_const() {
                Some(c) if c != 0.0 => a.lane(i),
                Some(_) => b.lane(i),
                None => self.emit(Op::Select(condition.lane(i), a.lane(i), b.lane(i)), span)?,
            };
        }
        Ok(Value::of(&lanes[..width]))
    }

    /// The sum of the components.
    fn sum(&mut self, value: Value, span: &Range<usize>) -> Result<Value, Failure> {
        let mut total = value.lanes[0];
        for &lane in &value.lanes[1..value.width] {
            total = self.emit(Op::Binary(Binary::Add, total, lane), span)?;
        }
        Ok(Value::number(total))
    }

    fn length(&mut self, value: Value, span: &Range<usize>) -> Result<Value, Failure> {
        if value.width == 1 {
            return self.each(value, span, |a| Op::Unary(Unary::Abs, a));
        }
        let squares = self.each(value, span, |a| Op::Binary(Binary::Multiply, a, a))?;
        let total = self.sum(squares, span)?;
        self.each(total, span, |a| Op::Unary(Unary::Sqrt, a))
    }
}

/// The width values combine to: all equal, or numbers beside vectors of one size.
fn common_width(values: &[Value], span: &Range<usize>) -> Result<usize, FormulaError> {
    let mut width = 1;
    for v in values {
        if v.width != 1 {
            if width != 1 && width != v.width {
                return Err(FormulaError::new(
                    span.clone(),
                    format!(
                        "cannot combine {} with {}: vectors must have the same size \
                         (a number goes with any)",
                        type_name(width),
                        type_name(v.width)
                    ),
                ));
            }
            width = v.width;
        }
    }
    Ok(width)
}

/// `vecN(…)`: the components of the arguments in order, or one number in each.
fn vector(n: usize, values: &[Value], span: &Range<usize>) -> Result<Value, Failure> {
    if let [one] = values
        && one.width == 1
    {
        return Ok(Value::of(&[one.lanes[0]; 4][..n]));
    }
    let lanes: Vec<Operand> = values
        .iter()
        .flat_map(|v| v.lanes[..v.width].iter().copied())
        .collect();
    if lanes.len() != n {
        return Err(FormulaError::new(
            span.clone(),
            format!(
                "vec{n} needs {n} components (or one number for all), and these arguments \
                 have {}",
                lanes.len()
            ),
        )
        .into());
    }
    Ok(Value::of(&lanes))
}

/// `value.letters`: components picked by `xyzw` or `rgba`; a number stands for every
/// component (`n.xyz` is `vec3(n)`), as it does beside a vector.
fn components(value: Value, letters: &str, span: &Range<usize>) -> Result<Value, Failure> {
    let error = |message: String| Err(FormulaError::new(span.clone(), message).into());
    if letters.len() > 4 {
        return error(format!(".{letters}: at most four components may be picked"));
    }
    let set = if letters.chars().all(|c| "xyzw".contains(c)) {
        "xyzw"
    } else if letters.chars().all(|c| "rgba".contains(c)) {
        "rgba"
    } else {
        return error(format!(
            ".{letters}: components are letters of xyzw or of rgba, not mixed"
        ));
    };
    let mut lanes = Vec::with_capacity(letters.len());
    for c in letters.chars() {
        let i = set.find(c).expect("checked above");
        if value.width == 1 {
            lanes.push(value.lanes[0]);
            continue;
        }
        if i >= value.width {
            let have = &set[..value.width];
            return error(format!(
                "{} has no .{c} (it has {})",
                type_name(value.width),
                have.chars()
                    .map(|h| format!(".{h}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        lanes.push(value.lanes[i]);
    }
    Ok(Value::of(&lanes))
}

fn unknown_function(name: &str, span: &Range<usize>) -> FormulaError {
    let message = if names::variable(name).is_some() {
        format!("\"{name}\" is a variable, not a function")
    } else {
        match names::nearest(name, names::FUNCTIONS.iter().map(|f| f.name)) {
            Some(near) => format!("unknown function \"{name}\" (did you mean \"{near}\"?)"),
            None => format!("unknown function \"{name}\""),
        }
    };
    FormulaError::new(span.clone(), message)
}

/// A value's type in words.
pub fn type_name(width: usize) -> String {
    if width == 1 {
        "a number".to_owned()
    } else {
        format!("a vec{width}")
    }
}

fn count(min: usize, max: usize) -> String {
    let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
    if min == max {
        format!("{min} {}", plural(min))
    } else {
        format!("{min} to {max} {}", plural(max))
    }
}
