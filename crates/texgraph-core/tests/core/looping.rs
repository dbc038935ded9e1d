//! `settings.loop`: the last frame of a loop flows into the first as any frame flows into
//! the next (the seam test, in time).

use crate::common;

use texgraph_core::{Graph, Image, RenderOptions};

fn frame(graph: &Graph, time: f32) -> Image {
    let mut graph = graph.clone();
    graph.settings.time = time;
    common::render_graph(&graph, None, 48, RenderOptions::default())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn the_last_frame_of_a_loop_flows_into_the_first() {
    let fire = common::example("fire_loop");
    let length = fire.settings.loop_seconds.expect("fire_loop loops");
    let fps = 24.0;
    let count = (length * fps) as usize;
    let frames: Vec<Image> = (0..=count).map(|n| frame(&fire, n as f32 / fps)).collect();
    assert_eq!(
        frames[count].data, frames[0].data,
        "one loop later is the first frame again"
    );
    let steps: Vec<f64> = frames
        .windows(2)
        .map(|w| common::mean_difference(&w[0], &w[1]))
        .collect();
    let typical = median(steps[..count - 1].to_vec());
    let seam = steps[count - 1];
    eprintln!("seam {seam}, neighbouring frames {typical}");
    assert!(typical > 0.005, "the fire moves: {typical}");
    assert!(
        seam > 0.5 * typical && seam < 2.0 * typical,
        "last → first {seam} against neighbouring frames {typical}"
    );

    // Without the loop the same graph jumps there.
    let mut plain = fire.clone();
    plain.settings.loop_seconds = None;
    let jump = common::mean_difference(&frame(&plain, length - 1.0 / fps), &frame(&plain, 0.0));
    assert!(jump > 3.0 * typical, "{jump} against {typical}");
}

#[test]
fn a_loop_leaves_time_free_graphs_and_its_start_unchanged() {
    let fire = common::example("fire");
    let looping = common::example("fire_loop");
    assert_eq!(frame(&looping, 0.0).data, frame(&fire, 0.0).data);
    let marble = common::example("marble");
    let mut marble_loop = marble.clone();
    marble_loop.settings.loop_seconds = Some(2.0);
    assert_eq!(frame(&marble_loop, 0.7).data, frame(&marble, 0.7).data);
}
