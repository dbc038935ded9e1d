//! `texgraph bench`: times evaluation alone, without writing a file.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::anyhow;
use texgraph_core::compile::compile_outputs;
use texgraph_core::kernels::dispatch::Level;
use texgraph_core::{Image, RenderOptions, compile, output_names, render_timed};

use crate::args::{parse_reps, parse_size, parse_threads};
use crate::load::{describe, load};

/// Arguments of `texgraph bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// The graph file.
    graph: PathBuf,
    /// Image size: `2048` for a square or `2048x1024`.
    #[arg(long, default_value = "2048", value_parser = parse_size)]
    size: (u32, u32),
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// How many times to evaluate.
    #[arg(long, default_value_t = 5, value_parser = parse_reps)]
    reps: usize,
    /// The output to evaluate (default: the first).
    #[arg(long, conflicts_with = "all_outputs")]
    output: Option<String>,
    /// Evaluate every output together as one program (as `render --all-outputs` and
    /// `--preset` do), then each output alone, and compare the two.
    #[arg(long)]
    all_outputs: bool,
}

/// Runs `texgraph bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let graph = load(&args.graph)?;
    let program = if args.all_outputs {
        compile_outputs(&graph, &output_names(&graph))
    } else {
        compile(&graph, args.output.as_deref())
    }
    .map_err(|e| describe(&args.graph, &e))?;
    let setup = start.elapsed().as_secs_f64();
    let (width, height) = args.size;
    let pixels = f64::from(width) * f64::from(height);
    let options = RenderOptions {
        threads: args.threads,
        ..RenderOptions::default()
    };
    texgraph_core::export::check_memory(&program, width, height, options.thread_count())
        .map_err(|e| anyhow!("{e}"))?;
    // The instruction set that runs, as `TEXGRAPH_SIMD` names it: the variable only caps
    // the CPU's best, so timings (and tests) say which one they had.
    let simd = match texgraph_core::kernels::dispatch::level() {
        Level::Baseline => "baseline",
        Level::Avx2 => "avx2",
        Level::Avx512 => "avx512",
    };
    crate::say!(
        "{}: {width}x{height}, {} operations, {} threads, {simd} instructions, load+compile {:.2} ms",
        args.graph.display(),
        program.operation_count(),
        args.threads
            .map_or_else(|| "all".to_owned(), |t| t.to_string()),
        setup * 1e3
    );
    let (mut times, stage_times) = time_reps(&program, args, &options, |rep, seconds| {
        crate::say!(
            "rep {rep}: {:8.2} ms  {:8.1} Mpix/s  {:6.2} ns/pixel",
            seconds * 1e3,
            pixels / seconds / 1e6,
            seconds * 1e9 / pixels
        );
        Ok(())
    })?;
    if program.stages.len() > 1 {
        for (i, (stage, mut all)) in program.stages.iter().zip(stage_times).enumerate() {
            all.sort_by(f64::total_cmp);
            if let Some(median) = all.get(all.len() / 2) {
                crate::say!("stage {i} '{}': median {:.2} ms", stage.node, median * 1e3);
            }
        }
    }
    let median = median_of(&mut times);
    let fastest = times[0];
    crate::say!(
        "median: {:.2} ms  {:.1} Mpix/s  {:.2} ns/pixel  (fastest {:.2} ms; setup + fastest {:.2} ms)",
        median * 1e3,
        pixels / median / 1e6,
        median * 1e9 / pixels,
        fastest * 1e3,
        (setup + fastest) * 1e3
    );
    if args.all_outputs && program.outputs.len() > 1 {
        compare_with_separate(args, &graph, &options, median)?;
    }
    Ok(())
}

/// Renders `program` `args.reps` times, telling `each` every rep's number and seconds;
/// returns the seconds of every rep and of every stage in every rep. Like an editor's
/// preview, every rep renders into the same image; only the first pays for allocating
/// and first touching its memory.
fn time_reps(
    program: &texgraph_core::Program,
    args: &BenchArgs,
    options: &RenderOptions,
    mut each: impl FnMut(usize, f64) -> anyhow::Result<()>,
) -> anyhow::Result<(Vec<f64>, Vec<Vec<f64>>)> {
    let (width, height) = args.size;
    let mut image = Image {
        width,
        height,
        channels: 0,
        data: Vec::new(),
    };
    let mut times = Vec::with_capacity(args.reps);
    let mut stage_times: Vec<Vec<f64>> = vec![Vec::new(); program.stages.len()];
    for rep in 1..=args.reps {
        let start = Instant::now();
        let stages = render_timed(program, &mut image, width, height, options.clone(), &|_| {})
            .map_err(|e| anyhow!("{e}"))?;
        let seconds = start.elapsed().as_secs_f64();
        for (all, took) in stage_times.iter_mut().zip(stages) {
            all.push(took.as_secs_f64());
        }
        std::hint::black_box(&image);
        times.push(seconds);
        each(rep, seconds)?;
    }
    Ok((times, stage_times))
}

/// The median of `times`, which it sorts (the first is then the fastest).
fn median_of(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Times each output of `graph` compiled alone, as `--all-outputs` did before one program
/// rendered them all, and prints the sum of their medians against `together`.
fn compare_with_separate(
    args: &BenchArgs,
    graph: &texgraph_core::Graph,
    options: &RenderOptions,
    together: f64,
) -> anyhow::Result<()> {
    let mut sum = 0.0;
    for name in output_names(graph) {
        let program = compile(graph, Some(&name)).map_err(|e| describe(&args.graph, &e))?;
        let (mut times, _) = time_reps(&program, args, options, |_, _| Ok(()))?;
        let median = median_of(&mut times);
        crate::say!("alone '{name}': median {:.2} ms", median * 1e3);
        sum += median;
    }
    crate::say!(
        "together {:.2} ms vs {:.2} ms rendered one by one: {:.2}x faster",
        together * 1e3,
        sum * 1e3,
        sum / together.max(1e-12)
    );
    Ok(())
}
