//! [`Background`] in the web page, which has one thread: jobs take turns with the frames.
//! Each call for results first does a part of the job under way ([`Work::step`]: an
//! export renders a band), or of the next waiting one, so the page draws a frame between
//! any two parts, and a job submitted while others wait supersedes them as it does on the
//! desktop. The jobs are small by design (a draft before each preview, one thumbnail at a
//! time, the 3D view's frames at its own size), which keeps every frame short.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::time::Duration;

use super::work::Work;

/// One [`Work`]'s jobs, done one per frame on the page's thread.
pub struct Background<W: Work> {
    state: RefCell<State<W>>,
    wake: Box<dyn Fn(Duration)>,
}

struct State<W: Work> {
    work: W,
    /// The job begun and not finished.
    under_way: Option<W::Job>,
    done: VecDeque<W::Done>,
}

impl<W> Background<W>
where
    W: Work + Send + 'static,
    W::Job: Send + 'static,
    W::Done: Send + 'static,
{
    /// Takes `work`; `wake` asks for the frame that does the next job (the UI's repaint
    /// request), with how long the UI may take to come for a result ([`Work::pickup`]).
    pub fn start(_name: &str, work: W, wake: impl Fn(Duration) + Send + 'static) -> Self {
        Self {
            state: RefCell::new(State {
                work,
                under_way: None,
                done: VecDeque::new(),
            }),
            wake: Box::new(wake),
        }
    }
}

impl<W: Work> Background<W> {
    /// Queues a job and asks for a frame to do it in.
    pub fn submit(&self, job: W::Job) {
        self.state.borrow_mut().work.take(job);
        (self.wake)(Duration::ZERO);
    }

    /// Does a part of the job under way (or of the next waiting one), then hands back the
    /// results not yet taken, oldest first.
    pub fn finished(&self) -> impl Iterator<Item = W::Done> + '_ {
        self.step();
        std::mem::take(&mut self.state.borrow_mut().done).into_iter()
    }

    /// The next result: one not yet taken, else the next job's, done to its end; `None`
    /// when no job waits.
    pub fn wait(&self) -> Option<W::Done> {
        loop {
            if let Some(done) = self.state.borrow_mut().done.pop_front() {
                return Some(done);
            }
            self.step();
            let state = self.state.borrow();
            if state.under_way.is_none() && state.done.is_empty() {
                return None; // no job was waiting
            }
        }
    }

    /// Does a part of the job under way or of the next waiting one, if any, and asks for
    /// a frame to show its result (and to go on).
    fn step(&self) {
        let mut state = self.state.borrow_mut();
        let Some(job) = state.under_way.take().or_else(|| state.work.next()) else {
            return;
        };
        let pickup = match state.work.step(&job) {
            Some(done) => {
                let pickup = state.work.pickup(&done);
                state.done.push_back(done);
                pickup
            }
            None => {
                state.under_way = Some(job);
                Duration::ZERO
            }
        };
        drop(state);
        (self.wake)(pickup);
    }
}
