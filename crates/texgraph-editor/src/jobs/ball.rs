//! The 3D view's frames, off the UI thread: the material ball rendered from maps the
//! preview worker made, on rayon's pool (both cores: the UI only waits while it orbits).
//! As with the preview, a newer frame asked for supersedes one still waiting, so an orbit
//! drag never queues up stale frames. The environment's light is precomputed once per
//! environment and kept.

use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

use super::{Background, Work};

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
pub struct BallRenderer(Background<Frames>);

impl BallRenderer {
    /// Starts the thread; `wake` is called after each frame (the UI's repaint request),
    /// with how long the UI may take to come for it: none for a full frame or new maps; a
    /// little for an orbit's draft, which the UI's frame for the pointer's next move picks
    /// up anyway, so that an orbit costs one UI frame a draft rather than two.
    pub fn new(wake: impl Fn(Duration) + Send + 'static) -> Self {
        Self(Background::start("texgraph-ball", Frames::default(), wake))
    }

    /// Asks for a frame, superseding any still waiting.
    pub fn submit(&self, job: FrameJob) {
        self.0.submit(job);
    }

    /// The newest frame finished since the last call, if any.
    pub fn newest(&self) -> Option<Frame> {
        self.0.finished().last()
    }
}

/// The 3D view's work: only the newest frame asked for is worth drawing. It keeps the
/// light of the last environment, and the last maps prepared for shading (with the maps
/// they came from).
#[derive(Default)]
struct Frames {
    newest: Option<FrameJob>,
    lighting: Option<Lighting>,
    material: Option<(Arc<MaterialMaps>, Material)>,
}

impl Work for Frames {
    type Job = FrameJob;
    type Done = Frame;

    fn take(&mut self, job: FrameJob) {
        self.newest = Some(job);
    }

    fn next(&mut self) -> Option<FrameJob> {
        self.newest.take()
    }

    fn run(&mut self, job: &FrameJob) -> Frame {
        let start = Instant::now();
        let image = self.frame(job);
        Frame {
            id: job.id,
            draft: job.draft,
            edit_at: job.edit_at,
            image: Ok(image),
            elapsed: start.elapsed(),
        }
    }

    fn failed(&self, job: &FrameJob, message: String) -> Frame {
        Frame {
            id: job.id,
            draft: job.draft,
            edit_at: job.edit_at,
            image: Err(message),
            elapsed: Duration::ZERO,
        }
    }

    fn what(&self) -> &'static str {
        "the 3D view"
    }

    /// A draft of new maps (a param being dragged) is shown at once, as the 2D preview
    /// would show them.
    fn pickup(&self, frame: &Frame) -> Duration {
        if frame.draft && frame.edit_at.is_none() {
            DRAFT_PICKUP
        } else {
            Duration::ZERO
        }
    }
}

impl Frames {
    /// Renders `job`, first computing the environment's light and preparing the maps when
    /// they are not the ones kept.
    fn frame(&mut self, job: &FrameJob) -> Image {
        let settings = &job.settings;
        if self
            .lighting
            .as_ref()
            .is_none_or(|l| *l.environment() != settings.environment)
        {
            self.lighting = Some(Lighting::new(settings.environment.clone()));
        }
        if self
            .material
            .as_ref()
            .is_none_or(|(maps, _)| !Arc::ptr_eq(maps, &job.maps))
        {
            self.material = Some((job.maps.clone(), Material::new(&job.maps)));
        }
        let (Some(lighting), Some((_, material))) = (&self.lighting, &self.material) else {
            unreachable!("both were set above");
        };
        render_ball_with(material, settings, lighting)
    }
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
