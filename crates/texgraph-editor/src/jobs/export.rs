//! An export on a thread of its own: the dialog's [`ExportRequest`] run as `texgraph
//! render` runs it, with its progress counted in rows, cancellable, and a bug in it
//! reported as an error rather than ending the editor.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use web_time::Instant;

use texgraph_core::export::Exported;
use texgraph_core::{ExportRequest, Graph, RenderOptions, output_names};

use super::{Background, Work};

/// An export running on its own thread.
pub struct ExportJob {
    rows: Arc<AtomicU64>,
    total_rows: u64,
    cancel: Arc<AtomicBool>,
    thread: Background<Exporting>,
    started: Instant,
}

/// What runs a request: [`ExportRequest::run`] (a stand-in in tests).
type ExportFn = fn(
    &ExportRequest,
    &Graph,
    &RenderOptions,
    &(dyn Fn(u64) + Sync),
) -> texgraph_core::Result<Vec<Exported>>;

/// The export's work: one request, its rows counted and the UI woken as they finish.
struct Exporting {
    waiting: Option<(Graph, ExportRequest)>,
    export: ExportFn,
    options: RenderOptions,
    rows: Arc<AtomicU64>,
    wake: Arc<dyn Fn() + Send + Sync>,
    /// The request under way a band at a time (the web page: see [`Work::step`]).
    #[cfg(target_arch = "wasm32")]
    steps: Option<texgraph_core::request::Steps>,
}

/// Rows of a still export rendered per step in the web page: a tile's height.
#[cfg(target_arch = "wasm32")]
const STEP_ROWS: u32 = 32;

/// How long the web page's export works between two frames, in steps.
#[cfg(target_arch = "wasm32")]
const FRAME_BUDGET: std::time::Duration = std::time::Duration::from_millis(40);

impl Work for Exporting {
    type Job = (Graph, ExportRequest);
    type Done = Result<Vec<Exported>, String>;

    fn take(&mut self, job: Self::Job) {
        self.waiting = Some(job);
    }

    fn next(&mut self) -> Option<Self::Job> {
        self.waiting.take()
    }

    fn run(&mut self, (graph, request): &Self::Job) -> Self::Done {
        if output_names(graph).is_empty() {
            return Err("the graph has no output node to export".to_owned());
        }
        let progress = |done: u64| {
            self.rows.fetch_max(done, Ordering::Relaxed);
            (self.wake)();
        };
        (self.export)(request, graph, &self.options, &progress)
            .map_err(|e| describe(&named(request), &e))
    }

    /// A still export a few bands at a time, within [`FRAME_BUDGET`]; the planes its
    /// render needs whole are computed in the first step.
    #[cfg(target_arch = "wasm32")]
    fn step(&mut self, (graph, request): &Self::Job) -> Option<Self::Done> {
        let fail = |e: texgraph_core::Error| Some(Err(describe(&named(request), &e)));
        let Some(steps) = self.steps.as_mut() else {
            if output_names(graph).is_empty() {
                return Some(Err("the graph has no output node to export".to_owned()));
            }
            let (rows, wake) = (self.rows.clone(), self.wake.clone());
            let progress = Box::new(move |done: u64| {
                rows.fetch_max(done, Ordering::Relaxed);
                wake();
            });
            match request.steps(graph, &self.options, STEP_ROWS, progress) {
                Ok(steps) => self.steps = Some(steps),
                Err(e) => return fail(e),
            }
            return None;
        };
        let start = Instant::now();
        loop {
            match steps.step() {
                Ok(None) if start.elapsed() < FRAME_BUDGET => {}
                Ok(None) => return None,
                Ok(Some(written)) => {
                    self.steps = None;
                    return Some(Ok(written));
                }
                Err(e) => {
                    self.steps = None;
                    return fail(e);
                }
            }
        }
    }

    fn failed(&self, _: &Self::Job, message: String) -> Self::Done {
        Err(message)
    }

    fn what(&self) -> &'static str {
        "the export"
    }
}

impl ExportJob {
    /// Starts exporting `graph`; `wake` is called as rows finish and at the end.
    pub fn start(
        graph: Graph,
        request: ExportRequest,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(graph, request, wake, ExportRequest::run)
    }

    /// [`ExportJob::start`] through `export`.
    fn start_with(
        graph: Graph,
        request: ExportRequest,
        wake: impl Fn() + Send + Sync + 'static,
        export: ExportFn,
    ) -> Self {
        let rows = Arc::new(AtomicU64::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let total_rows = request.rows();
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        let work = Exporting {
            waiting: None,
            export,
            options: RenderOptions {
                cancel: Some(cancel.clone()),
                ..RenderOptions::default()
            },
            rows: rows.clone(),
            wake: wake.clone(),
            #[cfg(target_arch = "wasm32")]
            steps: None,
        };
        let thread = Background::start("texgraph-export", work, move |_| wake());
        thread.submit((graph, request));
        Self {
            rows,
            total_rows,
            cancel,
            thread,
            started: Instant::now(),
        }
    }

    /// Done fraction, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.rows.load(Ordering::Relaxed) as f32 / self.total_rows.max(1) as f32
    }

    /// Whether every row is rendered and the files are being encoded and written.
    pub fn encoding(&self) -> bool {
        self.rows.load(Ordering::Relaxed) >= self.total_rows.max(1)
    }

    /// Seconds since the export started.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Asks the job to stop; nothing more is written.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The outcome, once finished.
    pub fn poll(&self) -> Option<Result<Vec<Exported>, String>> {
        self.thread.finished().next()
    }

    /// Waits for the outcome.
    pub fn wait(self) -> Result<Vec<Exported>, String> {
        self.thread
            .wait()
            .unwrap_or_else(|| Err("the export stopped unexpectedly".to_owned()))
    }
}

impl Drop for ExportJob {
    /// An export let go of unfinished is cancelled: its thread ends without writing.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The file or folder a request is named by in its errors, as typed in the dialog.
fn named(request: &ExportRequest) -> PathBuf {
    match request {
        ExportRequest::Still(still) => still
            .files
            .first()
            .map(|(_, p)| p.clone())
            .unwrap_or_default(),
        ExportRequest::Material(material) => material.folder.clone(),
        ExportRequest::Animation(animation) => animation.out.clone(),
        ExportRequest::Ball(ball) => ball.out.clone(),
    }
}

fn describe(path: &Path, error: &texgraph_core::Error) -> String {
    match error {
        texgraph_core::Error::Cancelled => "export cancelled; nothing was written".to_owned(),
        texgraph_core::Error::Invalid(problems) => problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
        other => format!("{}: {other}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use texgraph_core::StillExport;
    use texgraph_core::export::Depth;

    fn heavy() -> Graph {
        Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "n", "type": "fbm", "params": { "octaves": 16 } },
                { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#,
        )
        .unwrap()
    }

    #[test]
    fn a_cancelled_export_writes_nothing_and_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.png");
        std::fs::write(&path, b"keep me").unwrap();
        let job = ExportJob::start(
            heavy(),
            ExportRequest::Still(StillExport {
                files: vec![(None, path.clone())],
                size: (4096, 4096),
                depth: Some(Depth::Sixteen),
                region: None,
            }),
            || {},
        );
        job.cancel();
        let message = job.wait().unwrap_err();
        assert!(message.contains("cancelled"), "{message}");
        assert_eq!(std::fs::read(&path).unwrap(), b"keep me");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp files left"
        );
    }

    /// A 64×64 8-bit PNG of the first output, to `x.png` in `dir`.
    fn small_png(dir: &Path) -> ExportRequest {
        ExportRequest::Still(StillExport {
            files: vec![(None, dir.join("x.png"))],
            size: (64, 64),
            depth: Some(Depth::Eight),
            region: None,
        })
    }

    #[test]
    fn an_export_that_panics_is_an_error_and_the_editor_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let request = small_png(dir.path());
        let buggy: ExportFn = |_, _, _, _| panic!("a bug in the encoder");
        let job = ExportJob::start_with(heavy(), request.clone(), || {}, buggy);
        assert_eq!(
            job.wait().unwrap_err(),
            "the export failed with an internal error (a bug in the encoder); your graph is unchanged"
        );
        // The next export works.
        let job = ExportJob::start(heavy(), request, || {});
        assert_eq!(job.wait().unwrap().len(), 1);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn once_every_row_is_rendered_the_job_says_it_is_encoding() {
        static RELEASE: AtomicBool = AtomicBool::new(false);
        let dir = tempfile::tempdir().unwrap();
        let request = small_png(dir.path());
        // Renders every row at once, then "encodes" until released.
        let slow_encoder: ExportFn = |request, _, _, progress| {
            progress(request.rows());
            while !RELEASE.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            Ok(Vec::new())
        };
        let job = ExportJob::start_with(heavy(), request, || {}, slow_encoder);
        while job.progress() < 1.0 {
            std::thread::yield_now();
        }
        assert!(job.encoding());
        assert!(job.poll().is_none(), "still writing");
        RELEASE.store(true, Ordering::Relaxed);
        assert!(job.wait().is_ok());
    }

    #[test]
    fn a_graph_without_outputs_is_an_error_naming_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let job = ExportJob::start(
            Graph::new(),
            ExportRequest::Still(StillExport::to_file(
                &Graph::new(),
                &dir.path().join("x.png"),
                None,
                true,
                (8, 8),
                Some(Depth::Eight),
            )),
            || {},
        );
        assert!(job.wait().unwrap_err().contains("no output"));
    }
}
