//! What a kind of background work is ([`Work`]), and how a thread does its jobs
//! ([`serve`]).

use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

/// One kind of background work.
pub trait Work {
    /// What is asked for.
    type Job;
    /// What a job makes.
    type Done;
    /// Takes in a job as it arrives; it may supersede one still waiting.
    fn take(&mut self, job: Self::Job);
    /// The job to do next, if one waits.
    fn next(&mut self) -> Option<Self::Job>;
    /// Does `job`.
    fn run(&mut self, job: &Self::Job) -> Self::Done;
    /// Does a part of `job`, about a frame's worth, and its result once the last part is
    /// done: how the web page, which has one thread, runs jobs between frames. By
    /// default all of it, in one part.
    fn step(&mut self, job: &Self::Job) -> Option<Self::Done> {
        Some(self.run(job))
    }
    /// What `job` reports when its run panicked with `message` (a bug: the editor goes on).
    fn failed(&self, job: &Self::Job, message: String) -> Self::Done;
    /// What failed, in a panic's message: "the preview".
    fn what(&self) -> &'static str;
    /// How long the UI may take to come for `done`: none by default.
    fn pickup(&self, done: &Self::Done) -> Duration {
        let _ = done;
        Duration::ZERO
    }
}

/// Does `work`'s jobs from `inbox` until it closes and none waits, sending each result to
/// `outbox` and then calling `wake` ([`Background::start`]). Everything that arrived is taken in before the
/// next job is chosen, so superseded jobs are never started.
pub fn serve<W: Work + ?Sized>(
    inbox: &Receiver<W::Job>,
    outbox: &Sender<W::Done>,
    work: &mut W,
    wake: &dyn Fn(Duration),
) {
    loop {
        for job in inbox.try_iter() {
            work.take(job);
        }
        let Some(job) = work.next() else {
            match inbox.recv() {
                Ok(job) => {
                    work.take(job);
                    continue;
                }
                Err(_) => return,
            }
        };
        // A bug that panics fails this job only; the thread and the editor go on.
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work.run(&job)))
            .unwrap_or_else(|panic| work.failed(&job, panic_message(work.what(), &*panic)));
        let pickup = work.pickup(&done);
        if outbox.send(done).is_err() {
            return;
        }
        wake(pickup);
    }
}

/// What to show for a panic caught in a background job: a bug, reported as an error.
pub fn panic_message(what: &str, panic: &(dyn std::any::Any + Send)) -> String {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".to_owned());
    format!("{what} failed with an internal error ({detail}); your graph is unchanged")
}
