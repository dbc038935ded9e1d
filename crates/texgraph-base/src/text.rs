//! Text from files and command lines (node ids, param values, paths) printed safely:
//! control characters — escape sequences, bells, carriage returns — are shown as
//! `\u{…}` escapes instead of acting on the terminal or the window.

use std::borrow::Cow;

/// `text` with every control character but the newline written as a `\u{…}` escape.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() && c != '\n' {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("plain 'id' é ✓"), "plain 'id' é ✓");
        assert_eq!(printable("a\u{1b}[31mb\u{7}"), "a\\u{1b}[31mb\\u{7}");
        assert_eq!(printable("two\nlines\r"), "two\nlines\\u{d}");
        assert_eq!(printable("\u{9b}2J"), "\\u{9b}2J");
    }
}
