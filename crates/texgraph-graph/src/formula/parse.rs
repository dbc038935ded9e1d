//! The formula's syntax tree, read by precedence climbing (a Pratt parser): one function
//! per level would repeat itself nine times, and a grammar crate would add a build step
//! and its own error texts, where ours must name the column and suggest a fix.

use std::ops::Range;

use super::lex::{Tok, Token, tokens};
use super::{FormulaError, MAX_DEPTH, MAX_LENGTH};

/// A whole formula: `let` bindings, then the expression whose value is the output.
#[derive(Debug, Clone)]
pub struct Formula {
    /// `let name = value;`, in order: each sees the ones before it.
    pub bindings: Vec<Binding>,
    /// The result.
    pub body: Expr,
}

/// `let name = value;`
#[derive(Debug, Clone)]
pub struct Binding {
    /// The name bound.
    pub name: String,
    /// Where the name is written.
    pub name_span: Range<usize>,
    /// Its value.
    pub value: Expr,
}

/// An expression and the bytes it spans.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its bytes in the text.
    pub span: Range<usize>,
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A literal.
    Number(f32),
    /// A variable or a binding.
    Name(String),
    /// `name(args…)`.
    Call {
        /// The function.
        name: String,
        /// Where its name is written.
        name_span: Range<usize>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `-e`, `!e` (`+e` is `e`).
    Prefix(Prefix, Box<Expr>),
    /// `l op r`.
    Infix(Infix, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e.xy`: components picked, by letters of `xyzw` or `rgba`.
    Components(Box<Expr>, String, Range<usize>),
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    /// `-`
    Negate,
    /// `!`
    Not,
}

/// Infix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Infix {
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `/`
    Divide,
    /// `%`
    Modulo,
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterEqual,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl Infix {
    /// The operator for `mark` and how tightly it binds (higher binds first).
    fn of(mark: &str) -> Option<(Infix, u8)> {
        Some(match mark {
            "||" => (Infix::Or, 2),
            "&&" => (Infix::And, 3),
            "==" => (Infix::Equal, 4),
            "!=" => (Infix::NotEqual, 4),
            "<" => (Infix::Less, 4),
            "<=" => (Infix::LessEqual, 4),
            ">" => (Infix::Greater, 4),
            ">=" => (Infix::GreaterEqual, 4),
            "+" => (Infix::Add, 5),
            "-" => (Infix::Subtract, 5),
            "*" => (Infix::Multiply, 6),
            "/" => (Infix::Divide, 6),
            "%" => (Infix::Modulo, 6),
            _ => return None,
        })
    }
}

/// Comparisons: the one level that does not chain (`a < b < c` means nothing useful).
const COMPARISON: u8 = 4;
/// How tightly `?:` binds: loosest of all, and to the right.
const CONDITIONAL: u8 = 1;
/// How tightly prefix operators bind: above every infix one.
const PREFIX: u8 = 7;

/// Reads `text` as a formula.
pub fn parse(text: &str) -> Result<Formula, FormulaError> {
    if text.len() > MAX_LENGTH {
        return Err(FormulaError::new(
            MAX_LENGTH..text.len(),
            format!("a formula may be at most {MAX_LENGTH} bytes long"),
        ));
    }
    let mut parser = Parser {
        text,
        tokens: tokens(text)?,
        at: 0,
        depth: 0,
    };
    let mut bindings = Vec::new();
    while parser.peek_name("let") {
        parser.next();
        let token = parser.next();
        let Tok::Name(name) = token.tok else {
            return Err(FormulaError::new(token.span, "expected a name after 'let'"));
        };
        parser.expect("=", "after the name in a 'let'")?;
        let value = parser.expression(0)?;
        if !parser.eat(";") {
            let here = parser.peek();
            return Err(FormulaError::new(
                here.span.clone(),
                format!(
                    "expected ';' to end 'let {name} = …', found {}",
                    describe(&here.tok)
                ),
            ));
        }
        bindings.push(Binding {
            name,
            name_span: token.span,
            value,
        });
    }
    if parser.peek().tok == Tok::End {
        let span = parser.peek().span.clone();
        let message = if bindings.is_empty() {
            "the formula is empty: write an expression, such as u * v"
        } else {
            "the formula ends after its 'let's: write the expression they are for"
        };
        return Err(FormulaError::new(span, message));
    }
    let body = parser.expression(0)?;
    let rest = parser.next();
    if rest.tok != Tok::End {
        let message = match rest.tok {
            Tok::Mark(";") => "';' ends a 'let' only; the last expression is the result",
            Tok::Mark(")") => "this ')' closes nothing",
            _ => "expected an operator or the end of the formula",
        };
        return Err(FormulaError::new(rest.span, message));
    }
    Ok(Formula { bindings, body })
}

struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    fn column(&self, at: usize) -> usize {
        super::position(self.text, at).1
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.at]
    }

    fn next(&mut self) -> Token {
        let token = self.tokens[self.at].clone();
        if token.tok != Tok::End {
            self.at += 1;
        }
        token
    }

    fn peek_name(&self, name: &str) -> bool {
        matches!(&self.peek().tok, Tok::Name(n) if n == name)
    }

    fn eat(&mut self, mark: &'static str) -> bool {
        if self.peek().tok == Tok::Mark(mark) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, mark: &'static str, context: &str) -> Result<(), FormulaError> {
        if self.eat(mark) {
            Ok(())
        } else {
            let token = self.peek();
            Err(FormulaError::new(
                token.span.clone(),
                format!(
                    "expected '{mark}' {context}, found {}",
                    describe(&token.tok)
                ),
            ))
        }
    }

    /// An expression of operators binding tighter than `floor`.
    fn expression(&mut self, floor: u8) -> Result<Expr, FormulaError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.peek().span.clone();
            return Err(FormulaError::new(
                span,
                format!("the formula nests more than {MAX_DEPTH} levels deep here"),
            ));
        }
        let mut left = self.operand()?;
        while let Tok::Mark(mark) = self.peek().tok {
            if mark == "?" {
                if floor >= CONDITIONAL {
                    break;
                }
                self.next();
                let yes = self.expression(0)?;
                self.expect(":", "between the two results of '?'")?;
                let no = self.expression(CONDITIONAL - 1)?;
                let span = left.span.start..no.span.end;
                left = Expr {
                    kind: ExprKind::Conditional(Box::new(left), Box::new(yes), Box::new(no)),
                    span,
                };
                continue;
            }
            let Some((op, power)) = Infix::of(mark) else {
                break;
            };
            if power <= floor {
                break;
            }
            self.next();
            let right = self.expression(power)?;
            if power == COMPARISON
                && let Tok::Mark(next) = self.peek().tok
                && Infix::of(next).is_some_and(|(_, p)| p == COMPARISON)
            {
                return Err(FormulaError::new(
                    self.peek().span.clone(),
                    "comparisons do not chain: write (a < b) && (b < c)",
                ));
            }
            let span = left.span.start..right.span.end;
            left = Expr {
                kind: ExprKind::Infix(op, Box::new(left), Box::new(right)),
                span,
            };
        }
        self.depth -= 1;
        Ok(left)
    }

    /// A literal, name, call, parenthesised or prefixed expression, with any `.xyzw`
    /// after it.
    fn operand(&mut self) -> Result<Expr, FormulaError> {
        let token = self.next();
        let mut expr = match token.tok {
            Tok::Number(v) => Expr {
                kind: ExprKind::Number(v),
                span: token.span,
            },
            Tok::Name(name) if name == "let" => {
                return Err(FormulaError::new(
                    token.span,
                    "'let' goes at the start of the formula, before the expression",
                ));
            }
            Tok::Name(name) if self.peek().tok == Tok::Mark("(") => {
                self.next();
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.expression(0)?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",", "or ')' between arguments")?;
                    }
                }
                let end = self.tokens[self.at - 1].span.end;
                Expr {
                    kind: ExprKind::Call {
                        name,
                        name_span: token.span.clone(),
                        args,
                    },
                    span: token.span.start..end,
                }
            }
            Tok::Name(name) => Expr {
                kind: ExprKind::Name(name),
                span: token.span,
            },
            Tok::Mark("(") => {
                let inner = self.expression(0)?;
                if !self.eat(")") {
                    let here = self.peek();
                    return Err(FormulaError::new(
                        here.span.clone(),
                        format!(
                            "expected ')' to close the '(' at column {}, found {}",
                            self.column(token.span.start),
                            describe(&here.tok)
                        ),
                    ));
                }
                Expr {
                    kind: inner.kind,
                    span: token.span.start..self.tokens[self.at - 1].span.end,
                }
            }
            Tok::Mark(mark @ ("-" | "!" | "+")) => {
                let inner = self.expression(PREFIX)?;
                let span = token.span.start..inner.span.end;
                let kind = match mark {
                    "-" => ExprKind::Prefix(Prefix::Negate, Box::new(inner)),
                    "!" => ExprKind::Prefix(Prefix::Not, Box::new(inner)),
                    _ => inner.kind,
                };
                Expr { kind, span }
            }
            other => {
                return Err(FormulaError::new(
                    token.span,
                    format!("expected a value, found {}", describe(&other)),
                ));
            }
        };
        while self.eat(".") {
            let token = self.next();
            let Tok::Name(letters) = token.tok else {
                return Err(FormulaError::new(
                    token.span,
                    "expected components after '.', such as .x or .rgb",
                ));
            };
            let span = expr.span.start..token.span.end;
            expr = Expr {
                kind: ExprKind::Components(Box::new(expr), letters, token.span),
                span,
            };
        }
        Ok(expr)
    }
}

/// A token in words, for "expected …, found …".
fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Number(v) => format!("the number {v}"),
        Tok::Name(n) => format!("'{n}'"),
        Tok::Mark(m) => format!("'{m}'"),
        Tok::End => "the end of the formula".to_owned(),
    }
}
