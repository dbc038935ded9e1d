//! Parsing of the argument values clap does not know: sizes and `--set` assignments.

use anyhow::anyhow;
use texgraph_core::Graph;
use texgraph_core::variation::set_param;

pub use texgraph_core::eval::MAX_THREADS;
pub use texgraph_pipeline::values::{parse_grid, parse_size};
/// Most repetitions of `texgraph bench`.
pub const MAX_REPS: usize = 100_000;

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
