//! `texgraph`: renders texgraph material graphs without a GUI.

/// `println!` that returns write errors (a closed pipe) instead of panicking, with
/// control characters escaped (paths and names come from the user's files).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        writeln!(std::io::stdout().lock(), "{}", texgraph_core::text::printable(&text))?
    }};
}

/// `eprintln!` with control characters escaped.
#[macro_export]
macro_rules! complain {
    ($($arg:tt)*) => {{
        let text = format!($($arg)*);
        eprintln!("{}", texgraph_core::text::printable(&text));
    }};
}

mod args;
mod ball;
mod batch;
mod bench;
mod deps;
mod load;
mod params;
mod plan;
mod presets;
mod progress;
mod render;
mod stitch;

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
    Render(Box<render::RenderArgs>),
    /// Time the evaluation of a graph (no file is written).
    Bench(bench::BenchArgs),
    /// Show how a graph is rendered: its stages, planes, peak memory and estimated work.
    Plan(plan::PlanArgs),
    /// Check graph files and print every problem found.
    Validate {
        /// Graph files to check.
        #[arg(required = true)]
        graphs: Vec<std::path::PathBuf>,
    },
    /// Render the jobs of a batch manifest (graphs × params × seeds × sizes × outputs or
    /// presets, named by patterns) in one process, several at once, skipping those whose
    /// files are up to date; `--shard I/N` runs a share of them.
    Batch(batch::BatchArgs),
    /// Assemble region files (`render --region`) into the whole image, checking that they
    /// are of one render and cover it exactly once.
    Stitch(stitch::StitchArgs),
    /// List the graph file and every file it reads (subgraphs, images), for make and
    /// other build tools.
    Deps(deps::DepsArgs),
    /// List the export presets (`render --preset`): their files and channels.
    Presets(presets::PresetsArgs),
    /// List a graph's params (node, name, value, kind and range) and, with `--json`, its
    /// settings and outputs too, for programs that drive texgraph.
    Params(params::ParamsArgs),
    /// List every node type with its ports and params.
    Nodes {
        /// Print the Markdown reference (docs/nodes.md).
        #[arg(long)]
        markdown: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    texgraph_core::memory::fit_allocator_to_address_limit();
    // Interrupted, a write under way leaves no temporary and the old file in place; a
    // batch says what it had done.
    if let Err(e) =
        texgraph_core::signals::end_cleanly_on_signals(|_| batch::log::summarise_interrupted())
    {
        complain!(
            "warning: cannot catch signals ({e}); an interrupted write may leave a temporary file"
        );
    }
    let result = match cli.command {
        Command::Render(args) => render::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Plan(args) => plan::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Validate { graphs } => load::validate_files(&graphs),
        Command::Batch(args) => batch::run(&args),
        Command::Stitch(args) => stitch::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Deps(args) => deps::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Presets(args) => presets::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Params(args) => params::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Nodes { markdown } => nodes(markdown).map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|error| {
        // A reader that stopped early (`texgraph nodes | head`) is not an error.
        let closed = error
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe);
        if closed {
            return ExitCode::SUCCESS;
        }
        for line in format!("{error:#}").lines() {
            complain!("error: {line}");
        }
        ExitCode::from(2)
    })
}

fn nodes(markdown: bool) -> anyhow::Result<()> {
    let text = if markdown {
        texgraph_core::docs::nodes_markdown()
    } else {
        texgraph_core::docs::nodes_text()
    };
    say!("{}", text.trim_end());
    Ok(())
}
