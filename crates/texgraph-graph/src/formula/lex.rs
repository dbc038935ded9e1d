//! Splits a formula into tokens, each with the byte range it came from.

use std::ops::Range;

use super::FormulaError;

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A number literal, already an `f32`.
    Number(f32),
    /// A name: a variable, a function, a binding or a component list after `.`.
    Name(String),
    /// An operator or punctuation mark.
    Mark(&'static str),
    /// The end of the text.
    End,
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Its bytes in the text.
    pub span: Range<usize>,
}

/// Marks, longest first so that `<=` is not read as `<` then `=`.
const MARKS: &[&str] = &[
    "&&", "||", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "(", ")", ",", ".", "?", ":", ";",
    "=", "<", ">", "!",
];

/// The tokens of `text`, ending with [`Tok::End`]; `//` starts a comment to the end of
/// the line.
pub fn tokens(text: &str) -> Result<Vec<Token>, FormulaError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &text[at..];
        let c = rest.chars().next().expect("not at the end");
        if c.is_whitespace() {
            at += c.len_utf8();
        } else if rest.starts_with("//") {
            at += rest.find('\n').unwrap_or(rest.len());
        } else if c.is_ascii_digit()
            || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            let len = number_length(rest);
            let span = at..at + len;
            let value: f64 = rest[..len]
                .parse()
                .map_err(|_| FormulaError::new(span.clone(), "this is not a number"))?;
            let value = value as f32;
            if !value.is_finite() {
                return Err(FormulaError::new(
                    span,
                    "this number is too large for a 32-bit float",
                ));
            }
            out.push(Token {
                tok: Tok::Number(value),
                span,
            });
            at += len;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let len = rest
                .find(|d: char| !(d.is_ascii_alphanumeric() || d == '_'))
                .unwrap_or(rest.len());
            out.push(Token {
                tok: Tok::Name(rest[..len].to_owned()),
                span: at..at + len,
            });
            at += len;
        } else if let Some(mark) = MARKS.iter().find(|m| rest.starts_with(**m)) {
            out.push(Token {
                tok: Tok::Mark(mark),
                span: at..at + mark.len(),
            });
            at += mark.len();
        } else {
            let span = at..at + c.len_utf8();
            let message = match c {
                '^' => "'^' is not an operator here; write pow(a, b)".to_owned(),
                '&' => "'&' alone is not an operator; write && for \"and\"".to_owned(),
                '|' => "'|' alone is not an operator; write || for \"or\"".to_owned(),
                '[' | ']' | '{' | '}' => format!("'{c}' is not used in formulas"),
                _ => format!("unexpected character '{}'", c.escape_default()),
            };
            return Err(FormulaError::new(span, message));
        }
    }
    out.push(Token {
        tok: Tok::End,
        span: text.len()..text.len(),
    });
    Ok(out)
}

/// The length of the number literal `text` starts with: digits, an optional fraction and
/// an optional exponent (`1`, `.5`, `2.`, `1e-3`).
fn number_length(text: &str) -> usize {
    let bytes = text.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut len = digits(0);
    if bytes.get(len) == Some(&b'.') {
        len += 1 + digits(len + 1);
    }
    if matches!(bytes.get(len), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(len + 1), Some(b'+' | b'-')));
        let exponent = digits(len + 1 + sign);
        if exponent > 0 {
            len += 1 + sign + exponent;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokens(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_names_and_marks_split_where_they_end() {
        assert_eq!(
            kinds("1.5e2*.5 <= v.xy // note"),
            vec![
                Tok::Number(150.0),
                Tok::Mark("*"),
                Tok::Number(0.5),
                Tok::Mark("<="),
                Tok::Name("v".into()),
                Tok::Mark("."),
                Tok::Name("xy".into()),
                Tok::End
            ]
        );
        assert_eq!(kinds("2.")[0], Tok::Number(2.0));
        // An `e` with no digits after it is a name, as in `2*e`.
        assert_eq!(
            kinds("2e"),
            vec![Tok::Number(2.0), Tok::Name("e".into()), Tok::End]
        );
    }

    #[test]
    fn bad_characters_name_themselves_and_where_they_are() {
        let e = tokens("u ^ 2").unwrap_err();
        assert_eq!((e.span.clone(), e.message.contains("pow")), (2..3, true));
        let e = tokens("u \u{1b} 2").unwrap_err();
        assert_eq!(e.message, "unexpected character '\\u{1b}'");
        assert!(tokens("1e39").unwrap_err().message.contains("too large"));
    }
}
