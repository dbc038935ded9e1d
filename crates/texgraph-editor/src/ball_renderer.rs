//! The 3D view's frames, off the UI thread: the material ball rendered from maps the
//! preview worker made, on rayon's pool (both cores: the UI only waits while it orbits).
//! As with the preview, a newer frame asked for supersedes one still waiting, so an orbit
//! drag never queues up stale frames. The environment's light is precomputed once per
//! environment and kept.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use texgraph_core::Image;
use texgraph_core::ball::{BallSettings, Lighting, Material, MaterialMaps, render_ball_with};

/// How long a finished draft may wait for the UI: about one pointer move's time.
const DRAFT_PICKUP: Duration = Duration::from_millis(12);

/// A frame to render.
#[derive(Clone)]
pub struct FrameJob {
    /// Increases with every frame asked for.
    pub id: u64,
    /// The material's maps.
    pub maps: Arc<MaterialMaps>,
    /// How to render it (size and samples included).
    pub settings: BallSettings,
    /// Whether it is a draft (drawn while a drag goes on).
    pub draft: bool,
    /// When the edit whose maps it shows was made (for the latency shown), if it is the
    /// first frame of those maps.
    pub edit_at: Option<Instant>,
}

/// A finished frame.
pub struct Frame {
    /// The job's id.
    pub id: u64,
    /// Whether the job was a draft.
    pub draft: bool,
    /// The job's `edit_at`.
    pub edit_at: Option<Instant>,
    /// RGBA, sRGB-encoded (what `texgraph render --ball` writes), or why it failed.
    pub image: Result<Image, String>,
    /// Time spent rendering (the light included when it had to be computed).
    pub elapsed: Duration,
}

/// The thread that renders frames.
pub struct BallRenderer {
    jobs: Option<Sender<FrameJob>>,
    done: Receiver<Frame>,
    thread: Option<JoinHandle<()>>,
}

impl BallRenderer {
    /// Starts the thread; `wake` is called after each frame (the UI's repaint request),
    /// with how long the UI may take to come for it: none for a full frame or new maps; a
    /// little for an orbit's draft, which the UI's frame for the pointer's next move picks
    /// up anyway, so that an orbit costs one UI frame a draft rather than two.
    pub fn new(wake: impl Fn(Duration) + Send + 'static) -> Self {
        let (jobs, inbox) = channel::<FrameJob>();
        let (outbox, done) = channel();
        let thread = std::thread::Builder::new()
            .name("texgraph-ball".into())
            .spawn(move || run(&inbox, &outbox, &wake))
            .expect("the 3D view's thread starts");
        Self {
            jobs: Some(jobs),
            done,
            thread: Some(thread),
        }
    }

    /// Asks for a frame, superseding any still waiting.
    pub fn submit(&self, job: FrameJob) {
        if let Some(jobs) = &self.jobs {
            // The thread only stops when the renderer is dropped.
            let _ = jobs.send(job);
        }
    }

    /// The newest frame finished since the last call, if any.
    pub fn newest(&self) -> Option<Frame> {
        self.done.try_iter().last()
    }
}

impl Drop for BallRenderer {
    fn drop(&mut self) {
        self.jobs = None; // closes the queue, which ends the thread
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the thread keeps between frames: the light of the last environment, and the last
/// maps prepared for shading (with the maps they came from).
#[derive(Default)]
struct Kept {
    lighting: Option<Lighting>,
    material: Option<(Arc<MaterialMaps>, Material)>,
}

fn run(inbox: &Receiver<FrameJob>, outbox: &Sender<Frame>, wake: &dyn Fn(Duration)) {
    let mut kept = Kept::default();
    while let Ok(first) = inbox.recv() {
        // Only the newest of the frames waiting is worth drawing.
        let job = inbox.try_iter().last().unwrap_or(first);
        let start = Instant::now();
        let image =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| frame(&job, &mut kept)))
                .map_err(|panic| crate::worker::panic_message("the 3D view", &*panic));
        // A draft of new maps (a param being dragged) is shown at once, as the 2D preview
        // would show them.
        let delay = if job.draft && job.edit_at.is_none() {
            DRAFT_PICKUP
        } else {
            Duration::ZERO
        };
        let frame = Frame {
            id: job.id,
            draft: job.draft,
            edit_at: job.edit_at,
            image,
            elapsed: start.elapsed(),
        };
        if outbox.send(frame).is_err() {
            return;
        }
        wake(delay);
    }
}

/// Renders `job`, first computing the environment's light and preparing the maps when
/// they are not the ones kept.
fn frame(job: &FrameJob, kept: &mut Kept) -> Image {
    let settings = &job.settings;
    if kept
        .lighting
        .as_ref()
        .is_none_or(|l| *l.environment() != settings.environment)
    {
        kept.lighting = Some(Lighting::new(settings.environment.clone()));
    }
    if kept
        .material
        .as_ref()
        .is_none_or(|(maps, _)| !Arc::ptr_eq(maps, &job.maps))
    {
        kept.material = Some((job.maps.clone(), Material::new(&job.maps)));
    }
    let (Some(lighting), Some((_, material))) = (&kept.lighting, &kept.material) else {
        unreachable!("both were set above");
    };
    render_ball_with(material, settings, lighting)
}

#[cfg(test)]
mod tests {
    use super::*;
    use texgraph_core::ball::render_ball;

    #[test]
    fn frames_equal_the_cores_render_and_the_newest_wins() {
        let renderer = BallRenderer::new(|_| {});
        let maps = Arc::new(MaterialMaps::neutral());
        let settings = |size| BallSettings {
            size,
            ..BallSettings::default()
        };
        for (id, size) in [(1, 40), (2, 24), (3, 32)] {
            renderer.submit(FrameJob {
                id,
                maps: maps.clone(),
                settings: settings(size),
                draft: false,
                edit_at: None,
            });
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut last = None;
        while last.as_ref().is_none_or(|f: &Frame| f.id != 3) {
            assert!(Instant::now() < deadline, "no frame 3");
            if let Some(frame) = renderer.newest() {
                last = Some(frame);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let image = last.unwrap().image.unwrap();
        assert_eq!(image.data, render_ball(&maps, &settings(32)).data);
    }
}
