//! File name patterns: `out/{graph}_{seed}.{ext}` and the placeholders they may use.

use std::path::{Component, Path, PathBuf};

/// The placeholders a name pattern may use.
pub const PLACEHOLDERS: [&str; 13] = [
    "graph", "set", "seed", "size", "width", "height", "output", "ext", "tile", "col", "row",
    "index", "preset",
];

/// Checks that a pattern's placeholders are known and its braces closed.
pub(super) fn check_pattern(pattern: &str) -> Result<(), String> {
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("'{pattern}' has a '{{' without its '}}'"))?;
        let name = &after[..close];
        if !PLACEHOLDERS.contains(&name) {
            return Err(format!(
                "unknown placeholder {{{name}}} (placeholders: {})",
                PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
            ));
        }
        rest = &after[close + 1..];
    }
    if pattern.trim().is_empty() {
        return Err("the pattern is empty".to_owned());
    }
    Ok(())
}

/// The pattern with each placeholder replaced by its value.
pub(super) fn fill_pattern(pattern: &str, values: &[(&str, String)]) -> String {
    let mut out = pattern.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// `path` with `.` dropped and each `name/..` taken out, as written (no file is looked
/// at): two names of one file are then one name, and no folder is made only to be
/// left by `..`.
pub(super) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_taken_as_written_without_dots() {
        for (name, plain) in [
            ("h/sub/../x.png", "h/x.png"),
            ("./a/./b.png", "a/b.png"),
            ("../up/x.png", "../up/x.png"),
            ("a/../../x.png", "../x.png"),
            ("/abs/./x/../y.png", "/abs/y.png"),
        ] {
            assert_eq!(lexical(Path::new(name)), Path::new(plain), "{name}");
        }
    }
}
