//! [`Background`] on the desktop: a thread of its own.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use super::work::{Work, serve};

/// A thread doing one [`Work`]'s jobs in turn.
pub struct Background<W: Work> {
    jobs: Option<Sender<W::Job>>,
    done: Receiver<W::Done>,
    thread: Option<JoinHandle<()>>,
}

impl<W> Background<W>
where
    W: Work + Send + 'static,
    W::Job: Send + 'static,
    W::Done: Send + 'static,
{
    /// Starts the thread `name`; `wake` is called after each result, with how long the UI
    /// may take to come for it ([`Work::pickup`]; the UI's repaint request).
    pub fn start(name: &str, mut work: W, wake: impl Fn(Duration) + Send + 'static) -> Self {
        let (jobs, inbox) = channel::<W::Job>();
        let (outbox, done) = channel();
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || serve(&inbox, &outbox, &mut work, &wake))
            .unwrap_or_else(|e| panic!("the {name} thread cannot start: {e}"));
        Self {
            jobs: Some(jobs),
            done,
            thread: Some(thread),
        }
    }
}

impl<W: Work> Background<W> {
    /// Queues a job.
    pub fn submit(&self, job: W::Job) {
        if let Some(jobs) = &self.jobs {
            // The thread only stops when this is dropped.
            let _ = jobs.send(job);
        }
    }

    /// The results finished since the last call, oldest first.
    pub fn finished(&self) -> impl Iterator<Item = W::Done> + '_ {
        self.done.try_iter()
    }

    /// Waits for the next result; `None` once the thread has ended without one.
    pub fn wait(&self) -> Option<W::Done> {
        self.done.recv().ok()
    }
}

impl<W: Work> Drop for Background<W> {
    fn drop(&mut self) {
        self.jobs = None; // closes the queue, which ends the thread after its job
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
