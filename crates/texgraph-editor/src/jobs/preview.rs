//! The preview's and thumbnails' renders. The UI submits jobs (a preview, a node's
//! thumbnail); a newer job for the same slot supersedes older ones still waiting, so
//! dragging a slider never queues up stale renders. The worker wakes the UI when a result
//! is ready.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

use super::{Background, Work};

use texgraph_core::ball::{MaterialMaps, material_maps};
use texgraph_core::{Graph, Image, RenderOptions, compile, compile_node, render};

/// Where a result goes; one job per slot is worth doing at a time.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// The preview panel's draft: the same image at a fraction of the size, first (it
    /// sorts first), so an edit reaches the screen within a frame or two.
    Draft,
    /// The preview panel.
    Preview,
    /// The 3D view's maps: every material output, rendered together.
    Material,
    /// The thumbnail of the node with this id.
    Thumbnail(String),
}

/// What to evaluate: a node's output (or the graph's first output) at a size.
#[derive(Debug, Clone)]
pub struct Job {
    /// Where the result goes.
    pub slot: Slot,
    /// Increases with every edit; results carry it back so stale ones can be told apart.
    pub generation: u64,
    /// The graph as it was when the job was made.
    pub graph: Arc<Graph>,
    /// `Some((node, port))` for a node's output, `None` for the graph's first output (or,
    /// in the [`Slot::Material`] slot, its material's maps).
    pub node: Option<(String, Option<String>)>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Set when a newer job makes this one stale: its render stops at the next band.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// What a job makes.
#[derive(Debug)]
pub enum Product {
    /// A node's or output's image.
    Image(Image),
    /// A material's maps ([`Slot::Material`]).
    Maps(Box<MaterialMaps>),
}

impl Product {
    /// The image, if this is one, borrowed.
    pub fn as_image(&self) -> Option<&Image> {
        match self {
            Product::Image(image) => Some(image),
            Product::Maps(_) => None,
        }
    }
}

/// A finished job.
#[derive(Debug)]
pub struct Rendered {
    /// Where it goes.
    pub slot: Slot,
    /// The generation of the job.
    pub generation: u64,
    /// What it made, or the core's error message.
    pub result: Result<Product, String>,
    /// The nodes the error is about, each with its problem.
    pub at_fault: Vec<(String, String)>,
    /// Whether the job was given up as stale (a newer one replaces it; show nothing).
    pub cancelled: bool,
    /// The nodes whose value the program computes over the whole image first (the
    /// stages before the last), for the canvas's badges.
    pub stages: Vec<String>,
    /// Time spent compiling and evaluating.
    pub elapsed: Duration,
    /// The graph's time the job was rendered at (the timeline's while it plays).
    pub time: f32,
}

/// The background evaluator: the preview's and thumbnails' renders, on a thread of its
/// own.
pub struct Worker(Background<Renders<Evaluate>>);

/// How the worker renders a job: [`evaluate`].
type Evaluate = fn(&Job) -> Rendered;

impl Worker {
    /// Starts the worker thread; `wake` is called after each result (the UI's repaint
    /// request).
    pub fn new(wake: impl Fn() + Send + 'static) -> Self {
        let renders = Renders::new(evaluate as Evaluate);
        Self(Background::start("texgraph-preview", renders, move |_| {
            wake()
        }))
    }

    /// Queues a job, superseding any waiting job for the same slot.
    pub fn submit(&self, job: Job) {
        self.0.submit(job);
    }

    /// The results finished since the last call.
    pub fn finished(&self) -> Vec<Rendered> {
        self.0.finished().collect()
    }
}

/// Renders with `evaluate`, one job per slot waiting: the preview first, then thumbnails,
/// a slot starved longer than [`LONGEST_WAIT`] first of all.
pub struct Renders<E> {
    waiting: BTreeMap<Slot, Waiting>,
    evaluate: E,
}

impl<E: FnMut(&Job) -> Rendered> Renders<E> {
    /// Nothing waiting yet.
    pub fn new(evaluate: E) -> Self {
        Self {
            waiting: BTreeMap::new(),
            evaluate,
        }
    }
}

impl<E: FnMut(&Job) -> Rendered> Work for Renders<E> {
    type Job = Job;
    type Done = Rendered;

    fn take(&mut self, job: Job) {
        keep_newest(&mut self.waiting, job);
    }

    fn next(&mut self) -> Option<Job> {
        next(&mut self.waiting)
    }

    fn run(&mut self, job: &Job) -> Rendered {
        (self.evaluate)(job)
    }

    fn failed(&self, job: &Job, message: String) -> Rendered {
        Rendered {
            cancelled: false,
            slot: job.slot.clone(),
            generation: job.generation,
            result: Err(message),
            at_fault: Vec::new(),
            stages: Vec::new(),
            elapsed: Duration::ZERO,
            time: job.graph.settings.time,
        }
    }

    fn what(&self) -> &'static str {
        "the preview"
    }
}

/// How long a thumbnail waits at most while previews keep coming (the timeline playing):
/// then it has its turn, so the thumbnails of what moves follow the playback too.
pub const LONGEST_WAIT: Duration = Duration::from_millis(250);

/// A job waiting, and since when its slot has been waiting (a newer job for the slot
/// keeps the older time).
struct Waiting {
    job: Job,
    since: Instant,
}

/// The job to do next: the preview's draft before anything (it is a small fraction of a
/// render: the first picture of an edit never waits behind the thumbnails), then the
/// preview (it sorts first), then thumbnails; but a slot waiting longer than
/// [`LONGEST_WAIT`] goes before those.
fn next(waiting: &mut BTreeMap<Slot, Waiting>) -> Option<Job> {
    if let Some(draft) = waiting.remove(&Slot::Draft) {
        return Some(draft.job);
    }
    let starved = waiting
        .iter()
        .filter(|(_, w)| w.since.elapsed() > LONGEST_WAIT)
        .min_by_key(|(_, w)| w.since)
        .map(|(slot, _)| slot.clone());
    match starved {
        Some(slot) => waiting.remove(&slot).map(|w| w.job),
        None => waiting.pop_first().map(|(_, w)| w.job),
    }
}

fn keep_newest(waiting: &mut BTreeMap<Slot, Waiting>, job: Job) {
    match waiting.get_mut(&job.slot) {
        Some(old) if old.job.generation > job.generation => {}
        Some(old) => old.job = job,
        None => {
            waiting.insert(
                job.slot.clone(),
                Waiting {
                    job,
                    since: Instant::now(),
                },
            );
        }
    }
}

/// The side of the draft rendered before a preview of `side` pixels: an eighth of it (64
/// pixels at least), or less when the last draft showed this graph to be costly: sized
/// so that it takes about [`DRAFT_BUDGET`] at the `seconds_per_pixel` the last draft took
/// (compiling included), never under [`DRAFT_MIN_SIDE`]. `None` when the preview is that
/// small already.
pub fn draft_side(side: u32, seconds_per_pixel: Option<f64>) -> Option<u32> {
    let most = (side / 8).max(64);
    let fits = seconds_per_pixel.map_or(most, |cost| {
        ((DRAFT_BUDGET.as_secs_f64() / cost.max(1e-12)).sqrt() as u32) / 16 * 16
    });
    let draft = fits.clamp(DRAFT_MIN_SIDE, most);
    (draft < side).then_some(draft)
}

/// About how long a draft may take: with the frame that shows it, within 33 ms.
pub const DRAFT_BUDGET: Duration = Duration::from_millis(12);

/// The smallest draft: below it a draft shows too little to be worth a render.
const DRAFT_MIN_SIDE: u32 = 32;

/// Compiles and renders one job on this thread (the worker is one of the two cores; the
/// UI keeps the other).
pub fn evaluate(job: &Job) -> Rendered {
    let start = Instant::now();
    let time = job.graph.settings.time;
    let options = RenderOptions {
        threads: Some(1),
        cancel: job.cancel.clone(),
        ..RenderOptions::default()
    };
    if job.slot == Slot::Material {
        let result = material_maps(&job.graph, job.width, options);
        return Rendered {
            cancelled: is_cancelled(result.as_ref().err()),
            at_fault: at_fault(result.as_ref().err()),
            slot: job.slot.clone(),
            generation: job.generation,
            result: result
                .map(|maps| Product::Maps(Box::new(maps)))
                .map_err(|e| e.to_string()),
            stages: Vec::new(),
            elapsed: start.elapsed(),
            time,
        };
    }
    let program = match &job.node {
        // The first output, checked like a node's preview: an output node added and not
        // connected yet (unfinished work elsewhere) does not blank it.
        None => match job.graph.nodes.iter().find(|n| n.kind == "output") {
            Some(first) => compile_node(&job.graph, &first.id, None),
            None => compile(&job.graph, None),
        },
        Some((node, port)) => compile_node(&job.graph, node, port.as_deref()),
    };
    let stages = program.as_ref().map_or_else(
        |_| Vec::new(),
        |p| {
            p.stages
                .iter()
                .filter(|s| s.target.is_some())
                .map(|s| s.node.clone())
                .collect()
        },
    );
    let result = program.and_then(|p| render(&p, job.width, job.height, options, &|_| {}));
    Rendered {
        cancelled: is_cancelled(result.as_ref().err()),
        slot: job.slot.clone(),
        generation: job.generation,
        at_fault: at_fault(result.as_ref().err()),
        result: result.map(Product::Image).map_err(|e| e.to_string()),
        stages,
        elapsed: start.elapsed(),
        time,
    }
}

/// Whether `error` is the render stopping because its job went stale.
fn is_cancelled(error: Option<&texgraph_core::Error>) -> bool {
    matches!(error, Some(texgraph_core::Error::Cancelled))
}

/// The nodes `error` is about, each with its problem.
fn at_fault(error: Option<&texgraph_core::Error>) -> Vec<(String, String)> {
    error.map_or_else(Vec::new, |e| {
        e.problems()
            .iter()
            .filter_map(|p| Some((p.location.node.clone()?, p.to_string())))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::serve;
    use std::sync::mpsc::channel;

    fn graph(octaves: u32) -> Arc<Graph> {
        let json = format!(
            r#"{{ "format": "texgraph", "version": 1, "nodes": [
                {{ "id": "n", "type": "fbm", "params": {{ "octaves": {octaves} }} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"#
        );
        Arc::new(Graph::from_json(&json).unwrap())
    }

    fn wait_for(worker: &Worker, generation: u64) -> Vec<Rendered> {
        let mut all = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        while !all.iter().any(|r: &Rendered| r.generation == generation) {
            assert!(
                Instant::now() < deadline,
                "no result for generation {generation}"
            );
            all.extend(worker.finished());
            std::thread::sleep(Duration::from_millis(2));
        }
        all
    }

    /// A 16×16 render of the first output of a 3-octave fBm.
    fn job(generation: u64, slot: Slot) -> Job {
        Job {
            slot,
            generation,
            graph: graph(3),
            node: None,
            width: 16,
            height: 16,
            cancel: None,
        }
    }

    #[test]
    fn superseded_preview_jobs_are_dropped() {
        // Five previews and a thumbnail wait in the queue when the worker looks: only the
        // newest preview is rendered, and the thumbnail still is.
        let (jobs, inbox) = channel();
        for generation in 1..=5 {
            jobs.send(job(generation, Slot::Preview)).unwrap();
        }
        jobs.send(job(3, Slot::Thumbnail("n".into()))).unwrap();
        drop(jobs);
        let (outbox, done) = channel();
        serve(&inbox, &outbox, &mut Renders::new(evaluate), &|_| {});
        let rendered: Vec<(Slot, u64)> = done.try_iter().map(|r| (r.slot, r.generation)).collect();
        assert_eq!(
            rendered,
            [(Slot::Preview, 5), (Slot::Thumbnail("n".into()), 3)]
        );
    }

    #[test]
    fn the_draft_is_rendered_first_and_a_stale_render_stops() {
        // A preview and its draft wait: the draft comes first, at its own size.
        let (jobs, inbox) = channel();
        jobs.send(job(1, Slot::Preview)).unwrap();
        let mut draft = job(1, Slot::Draft);
        (draft.width, draft.height) = (4, 4);
        jobs.send(draft).unwrap();
        // A render made stale before it starts stops at once, with no image.
        let stale = Arc::new(AtomicBool::new(true));
        let mut gone = job(2, Slot::Thumbnail("n".into()));
        gone.cancel = Some(stale);
        jobs.send(gone).unwrap();
        drop(jobs);
        let (outbox, done) = channel();
        serve(&inbox, &outbox, &mut Renders::new(evaluate), &|_| {});
        let rendered: Vec<Rendered> = done.try_iter().collect();
        let shown: Vec<(Slot, u64, bool, Option<u32>)> = rendered
            .iter()
            .map(|r| {
                let width = r
                    .result
                    .as_ref()
                    .ok()
                    .and_then(|p| p.as_image())
                    .map(|i| i.width);
                (r.slot.clone(), r.generation, r.cancelled, width)
            })
            .collect();
        assert_eq!(
            shown,
            [
                (Slot::Draft, 1, false, Some(4)),
                (Slot::Preview, 1, false, Some(16)),
                (Slot::Thumbnail("n".into()), 2, true, None),
            ]
        );
    }

    #[test]
    fn a_draft_is_an_eighth_of_the_preview_or_what_fits_the_budget() {
        assert_eq!(draft_side(2048, None), Some(256));
        assert_eq!(draft_side(1024, None), Some(128));
        assert_eq!(draft_side(256, None), Some(64));
        assert_eq!(draft_side(128, None), Some(64));
        assert_eq!(draft_side(64, None), None);
        // A cheap graph keeps the eighth; a costly one gets what fits in the budget:
        // 12 ms at 4.6 µs a pixel is 51 pixels a side, 48 in steps of 16.
        assert_eq!(draft_side(1024, Some(85e-9)), Some(128));
        assert_eq!(draft_side(1024, Some(4.6e-6)), Some(48));
        // Never under 32, however costly.
        assert_eq!(draft_side(1024, Some(1.0)), Some(32));
    }

    #[test]
    fn a_thumbnail_has_its_turn_while_previews_keep_coming() {
        // As while the timeline plays: the next preview is asked for while one renders.
        let (jobs, inbox) = channel();
        jobs.send(job(1, Slot::Thumbnail("n".into()))).unwrap();
        jobs.send(job(1, Slot::Preview)).unwrap();
        let jobs = std::sync::Mutex::new(Some(jobs));
        let order = std::sync::Mutex::new(Vec::new());
        let playing = |next: &Job| {
            order
                .lock()
                .unwrap()
                .push((next.slot.clone(), next.generation));
            if next.slot == Slot::Preview {
                std::thread::sleep(Duration::from_millis(40));
                let mut sender = jobs.lock().unwrap();
                if next.generation < 20 {
                    let frame = job(next.generation + 1, Slot::Preview);
                    sender.as_ref().unwrap().send(frame).unwrap();
                } else {
                    sender.take(); // the last frame: the queue closes
                }
            }
            evaluate(next)
        };
        let (outbox, _done) = channel();
        serve(&inbox, &outbox, &mut Renders::new(playing), &|_| {});
        let order = order.into_inner().unwrap();
        let thumbnail = order
            .iter()
            .position(|(slot, _)| *slot == Slot::Thumbnail("n".into()))
            .unwrap();
        // 250 ms is about six 40 ms previews: well before the twentieth.
        assert!(thumbnail < 12, "{order:?}");
        assert_eq!(order.len(), 21, "every preview was rendered");
    }

    #[test]
    fn a_job_that_panics_fails_alone() {
        let (jobs, inbox) = channel();
        jobs.send(job(1, Slot::Preview)).unwrap();
        jobs.send(job(1, Slot::Thumbnail("n".into()))).unwrap();
        drop(jobs);
        let (outbox, done) = channel();
        // A bug in the preview: it panics; the thumbnail after it still renders.
        let buggy = |job: &Job| {
            assert!(job.slot != Slot::Preview, "a bug in the preview");
            evaluate(job)
        };
        serve(&inbox, &outbox, &mut Renders::new(buggy), &|_| {});
        let results: Vec<Rendered> = done.try_iter().collect();
        assert_eq!(results.len(), 2);
        let error = results[0].result.as_ref().unwrap_err();
        assert_eq!(
            error,
            "the preview failed with an internal error (a bug in the preview); your graph is unchanged"
        );
        assert_eq!(
            results[1]
                .result
                .as_ref()
                .unwrap()
                .as_image()
                .unwrap()
                .data
                .len(),
            16 * 16
        );
    }

    #[test]
    fn a_busy_worker_renders_the_newest_job_last() {
        let worker = Worker::new(|| {});
        let job = |generation, size| Job {
            slot: Slot::Preview,
            generation,
            graph: graph(16),
            node: None,
            width: size,
            height: size,
            cancel: None,
        };
        worker.submit(job(1, 512));
        for generation in 2..=5 {
            worker.submit(job(generation, 64));
        }
        // However the thread interleaves with the submissions, results come in order and
        // the newest one arrives.
        let generations: Vec<u64> = wait_for(&worker, 5).iter().map(|r| r.generation).collect();
        assert!(
            generations.windows(2).all(|w| w[0] < w[1]),
            "{generations:?}"
        );
        assert_eq!(generations.last(), Some(&5));
    }

    #[test]
    fn thumbnails_and_errors_come_back() {
        let wakes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = wakes.clone();
        let worker = Worker::new(move || {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        let g = graph(3);
        worker.submit(Job {
            slot: Slot::Thumbnail("n".into()),
            generation: 1,
            graph: g.clone(),
            node: Some(("n".into(), None)),
            width: 8,
            height: 8,
            cancel: None,
        });
        worker.submit(Job {
            slot: Slot::Thumbnail("x".into()),
            generation: 2,
            graph: g,
            node: Some(("x".into(), None)),
            width: 8,
            height: 8,
            cancel: None,
        });
        // Both slots are rendered, `n` first (slots sort and `n` was queued first).
        let results = wait_for(&worker, 2);
        let thumb = results
            .iter()
            .find(|r| r.slot == Slot::Thumbnail("n".into()))
            .unwrap();
        assert_eq!(
            thumb
                .result
                .as_ref()
                .unwrap()
                .as_image()
                .unwrap()
                .data
                .len(),
            64
        );
        let missing = results
            .iter()
            .find(|r| r.slot == Slot::Thumbnail("x".into()))
            .unwrap();
        assert!(
            missing
                .result
                .as_ref()
                .unwrap_err()
                .contains("no such node")
        );
        assert!(wakes.load(std::sync::atomic::Ordering::SeqCst) >= 2);
    }
}
