//! `texgraph`: renders texgraph material graphs without a GUI.

mod args;
mod bench;
mod load;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Render and check texgraph material graphs.
#[derive(Parser)]
#[command(name = "texgraph", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render a graph to an image file (.png, .exr, .tif).
    Render(render::RenderArgs),
    /// Time the evaluation of a graph (no file is written).
    Bench(bench::BenchArgs),
    /// Check graph files and print every problem found.
    Validate {
        /// Graph files to check.
        #[arg(required = true)]
        graphs: Vec<std::path::PathBuf>,
    },
    /// List every node type with its ports and params.
    Nodes {
        /// Print the Markdown reference (docs/nodes.md).
        #[arg(long)]
        markdown: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Render(args) => render::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Validate { graphs } => Ok(load::validate_files(&graphs)),
        Command::Nodes { markdown } => {
            if markdown {
                print!("{}", texgraph_core::docs::nodes_markdown());
            } else {
                print!("{}", texgraph_core::docs::nodes_text());
            }
            Ok(ExitCode::SUCCESS)
        }
    };
    result.unwrap_or_else(|error| {
        for line in format!("{error:#}").lines() {
            eprintln!("error: {line}");
        }
        ExitCode::from(2)
    })
}
