//! Parsing of the argument values clap does not know: sizes and `--set` assignments.

use anyhow::{Context, anyhow, bail};
use texgraph_core::graph::GradientStop;
use texgraph_core::registry::{self, ParamKind};
use texgraph_core::{Graph, ParamValue};

/// Parses `1024` (square) or `2048x1024` (width x height).
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(0) | Err(_) => Err(format!("'{s}' is not a positive whole number of pixels")),
            Ok(n) => Ok(n),
        }
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => Ok((side(w)?, side(h)?)),
        None => side(text).map(|n| (n, n)),
    }
}

/// Applies `node.param=value` to `graph`; the value is read as the param's type.
pub fn apply_set(graph: &mut Graph, assignment: &str) -> anyhow::Result<()> {
    let (key, value) = assignment
        .split_once('=')
        .ok_or_else(|| anyhow!("--set '{assignment}': expected node.param=value"))?;
    let (node_id, param) = key
        .split_once('.')
        .ok_or_else(|| anyhow!("--set '{assignment}': expected node.param=value"))?;
    let node = graph
        .node_mut(node_id)
        .ok_or_else(|| anyhow!("--set '{assignment}': the graph has no node '{node_id}'"))?;
    let desc = registry::lookup(&node.kind).ok_or_else(|| {
        anyhow!(
            "--set '{assignment}': node '{node_id}' has unknown type '{}'",
            node.kind
        )
    })?;
    let kind = desc.param(param).map(|p| p.kind).ok_or_else(|| {
        let names: Vec<_> = desc.params.iter().map(|p| p.name).collect();
        anyhow!(
            "--set '{assignment}': node '{node_id}' ({}) has no param '{param}' (params: {})",
            desc.id,
            names.join(", ")
        )
    })?;
    let parsed = match kind {
        ParamKind::Float { .. } | ParamKind::Int { .. } => {
            let number: f64 = value
                .trim()
                .parse()
                .map_err(|_| anyhow!("--set '{assignment}': '{value}' is not a number"))?;
            ParamValue::Number(number)
        }
        ParamKind::Stops { .. } => {
            let stops: Vec<GradientStop> = serde_json::from_str(value)
                .with_context(|| format!("--set '{assignment}': expected a JSON list of stops"))?;
            ParamValue::Stops(stops)
        }
        ParamKind::Choice { .. } | ParamKind::Color { .. } | ParamKind::Text { .. } => {
            ParamValue::Text(value.to_owned())
        }
        // A path typed on the command line is relative to the working directory.
        ParamKind::File { .. } => {
            let path = std::path::absolute(value).unwrap_or_else(|_| value.into());
            ParamValue::Text(path.to_string_lossy().into_owned())
        }
        ParamKind::Bool { .. } => match value.trim() {
            "true" => ParamValue::Bool(true),
            "false" => ParamValue::Bool(false),
            _ => bail!("--set '{assignment}': '{value}' is not true or false"),
        },
    };
    if let Err(message) = texgraph_core::validate::check_param_value(&kind, &parsed) {
        bail!("--set '{assignment}': node '{node_id}', field '{param}': {message}");
    }
    node.params.insert(param.to_owned(), parsed);
    Ok(())
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
    }
}
