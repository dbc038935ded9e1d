//! `texgraph deps`: the files a graph reads, for make and other build tools.

use std::path::PathBuf;

use crate::load::load;

/// Arguments of `texgraph deps`.
#[derive(clap::Args)]
pub struct DepsArgs {
    /// The graph file.
    graph: PathBuf,
    /// Print a make rule, `TARGET: GRAPH FILES…`, instead of one file a line (give it
    /// once per target).
    #[arg(long, value_name = "TARGET")]
    make: Vec<String>,
}

/// Runs `texgraph deps`: the graph file, then every file it reads (subgraphs, images),
/// as paths from the working directory.
pub fn run(args: &DepsArgs) -> anyhow::Result<()> {
    let graph = load(&args.graph)?;
    // A graph that includes itself (an error to render) is listed once.
    let files: Vec<PathBuf> = std::iter::once(args.graph.clone())
        .chain(
            texgraph_core::paths::files_read(&graph)
                .into_iter()
                .filter(|f| *f != args.graph),
        )
        .collect();
    if args.make.is_empty() {
        for file in &files {
            crate::say!("{}", file.display());
        }
    } else {
        let targets: Vec<String> = args.make.iter().map(|t| make_word(t)).collect();
        let prerequisites: Vec<String> = files
            .iter()
            .map(|f| make_word(&f.to_string_lossy()))
            .collect();
        crate::say!("{}: {}", targets.join(" "), prerequisites.join(" "));
    }
    Ok(())
}

/// `word` as make reads a target or prerequisite: spaces, `#` and `:` escaped with a
/// backslash, `$` doubled.
fn make_word(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        match c {
            ' ' | '#' | ':' => {
                out.push('\\');
                out.push(c);
            }
            '$' => out.push_str("$$"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn make_words_are_escaped() {
        assert_eq!(super::make_word("a b#c$d:e"), "a\\ b\\#c$$d\\:e");
        assert_eq!(super::make_word("plain/path.json"), "plain/path.json");
    }
}
