//! `texgraph plan`: how a graph will be rendered — its stages, planes, aprons, peak
//! memory and estimated work — without rendering it.

use std::path::PathBuf;

use texgraph_core::compile;
use texgraph_core::compile::{compile_outputs, output_names};
use texgraph_core::plan::{plan, streamed};

use texgraph_core::eval::stream::Region;

use crate::args::{parse_region, parse_size, parse_threads};
use crate::load::{describe, load};

/// Arguments of `texgraph plan`.
#[derive(clap::Args)]
pub struct PlanArgs {
    /// The graph file.
    graph: PathBuf,
    /// Image size: `1024` for a square or `2048x1024`.
    #[arg(long, default_value = "1024", value_parser = parse_size)]
    size: (u32, u32),
    /// Worker threads the render would use (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// The output to plan (default: the first).
    #[arg(long, conflicts_with = "all_outputs")]
    output: Option<String>,
    /// Plan every output rendered together, as `render --all-outputs` and `--preset` do:
    /// what several maps read is computed once.
    #[arg(long)]
    all_outputs: bool,
    /// Plan the render of this rectangle only, `X,Y,W,H`, as `render --region` does.
    #[arg(long, value_name = "X,Y,W,H", value_parser = parse_region)]
    region: Option<Region>,
}

/// Runs `texgraph plan`.
pub fn run(args: &PlanArgs) -> anyhow::Result<()> {
    let graph = load(&args.graph)?;
    let program = if args.all_outputs {
        compile_outputs(&graph, &output_names(&graph))
    } else {
        compile(&graph, args.output.as_deref())
    }
    .map_err(|e| describe(&args.graph, &e))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let (width, height) = args.size;
    let names: Vec<String> = program
        .outputs
        .iter()
        .map(|o| format!("'{}'", o.name))
        .collect();
    let what = if names.len() == 1 {
        "output"
    } else {
        "outputs"
    };
    crate::say!("{}: {what} {}", args.graph.display(), names.join(", "));
    let region = args.region.unwrap_or(Region::whole(width, height));
    if !region.fits(width, height) {
        anyhow::bail!(
            "--region {},{},{},{} is not inside the {width}x{height} image",
            region.x,
            region.y,
            region.width,
            region.height
        );
    }
    crate::say!("{}", plan(&program, width, height, threads));
    // What `texgraph render` does: bands written as they render (with the encoder's
    // copy of a 16-bit RGBA file's band as the typical case).
    crate::say!("{}", streamed(&program, width, height, region, threads, 8));
    Ok(())
}
