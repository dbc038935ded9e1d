//! Parsing of the argument values clap does not know: sizes and `--set` assignments.

use anyhow::anyhow;
use texgraph_core::Graph;
use texgraph_core::variation::set_param;

pub use texgraph_core::eval::{MAX_SIDE, MAX_THREADS};
/// Most repetitions of `texgraph bench`.
pub const MAX_REPS: usize = 100_000;

/// Parses `1024` (square) or `2048x1024` (width x height), each side 1 to [`MAX_SIDE`].
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u64>() {
            Ok(n) if (1..=u64::from(MAX_SIDE)).contains(&n) => Ok(n as u32),
            Ok(_) => Err(format!(
                "'{s}' is out of range: a side is 1 to {MAX_SIDE} pixels"
            )),
            Err(_) => Err(format!("'{s}' is not a positive whole number of pixels")),
        }
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Ok((side(w)?, side(h)?)),
        None => side(text).map(|n| (n, n)),
    }
}

/// Parses a region `X,Y,W,H` in pixels (whether it fits the image is checked with the
/// size).
pub fn parse_region(text: &str) -> Result<texgraph_core::eval::stream::Region, String> {
    let numbers: Vec<u32> = text
        .split(',')
        .map(|n| n.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{text}' is not a region X,Y,W,H of whole pixels"))?;
    let [x, y, width, height] = numbers[..] else {
        return Err(format!("'{text}' is not a region X,Y,W,H (four numbers)"));
    };
    if width == 0 || height == 0 {
        return Err(format!(
            "'{text}': a region's width and height are at least 1"
        ));
    }
    Ok(texgraph_core::eval::stream::Region {
        x,
        y,
        width,
        height,
    })
}

/// Parses a sprite-sheet grid `COLSxROWS`, each 1 to 1024.
pub fn parse_grid(text: &str) -> Result<(u32, u32), String> {
    let count = |s: &str| match s.trim().parse::<u32>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!("'{s}' in '{text}' is not a count of 1 to 1024")),
    };
    match text.split_once(['x', 'X']) {
        Some((columns, rows)) => Ok((count(columns)?, count(rows)?)),
        None => Err(format!("'{text}' is not a grid like 8x6 (columns x rows)")),
    }
}

/// Parses a thread count, 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    bounded(text, MAX_THREADS, "threads")
}

/// Parses a repetition count, 1 to [`MAX_REPS`].
pub fn parse_reps(text: &str) -> Result<usize, String> {
    bounded(text, MAX_REPS, "repetitions")
}

fn bounded(text: &str, max: usize, what: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 && n <= max as u64 => Ok(n as usize),
        Ok(_) => Err(format!("'{text}' is out of range: 1 to {max} {what}")),
        Err(_) => Err(format!("'{text}' is not a positive whole number")),
    }
}

/// Applies `node.param=value` to `graph`; the value is read as the param's type
/// ([`texgraph_core::variation::set_param`]).
pub fn apply_set(graph: &mut Graph, assignment: &str) -> anyhow::Result<()> {
    let (key, value) = assignment
        .split_once('=')
        .ok_or_else(|| anyhow!("--set '{assignment}': expected node.param=value"))?;
    let (node_id, param) = key
        .split_once('.')
        .ok_or_else(|| anyhow!("--set '{assignment}': expected node.param=value"))?;
    set_param(graph, node_id, param, value)
        .map_err(|e| anyhow!("--set '{assignment}': {}", e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1024"), Ok((1024, 1024)));
        assert_eq!(parse_size("2048x1024"), Ok((2048, 1024)));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12xx4").is_err());
        assert!(parse_size("-3").is_err());
        assert_eq!(parse_size("65536x1"), Ok((65536, 1)));
        assert!(parse_size("65537").unwrap_err().contains("1 to 65536"));
        assert!(parse_size("99999999999999999999").is_err());
    }

    #[test]
    fn counts_have_ranges() {
        assert_eq!(parse_threads("8"), Ok(8));
        assert!(parse_threads("0").is_err());
        assert!(
            parse_threads("100000")
                .unwrap_err()
                .contains("1 to 1024 threads")
        );
        assert_eq!(parse_reps("5"), Ok(5));
        assert!(
            parse_reps("100000000000")
                .unwrap_err()
                .contains("1 to 100000")
        );
    }
}
