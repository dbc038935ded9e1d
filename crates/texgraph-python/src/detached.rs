//! Running the engine without the GIL, so other Python threads run meanwhile, while the
//! calling thread still answers Ctrl+C: the work runs on a thread of its own and the
//! caller waits for it in short slices, checking Python's signal handlers between them.
//! A `KeyboardInterrupt` (or any exception a signal handler raises) sets the render's
//! cancel flag, waits for the work to stop at its next band or tile column, and is
//! raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::RenderError;

/// How long the caller waits without the GIL between looks at Python's signals.
const SLICE: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own without the GIL; `cancel` is set when a signal
/// handler raises, and the exception is returned once the work has stopped.
pub fn run<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // Said even if the work panics, so that the caller stops waiting.
            let _said = Finished(&finished);
            work()
        });
        let mut raised = None;
        loop {
            let done = py.detach(|| {
                let (lock, signal) = &finished;
                let guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
                let (guard, _) = signal
                    .wait_timeout_while(guard, SLICE, |done| !*done)
                    .unwrap_or_else(PoisonError::into_inner);
                *guard
            });
            if done {
                break;
            }
            if raised.is_none()
                && let Err(err) = py.check_signals()
            {
                cancel.store(true, Ordering::Relaxed);
                raised = Some(err);
            }
        }
        let result = py.detach(|| worker.join());
        match (raised, result) {
            (Some(err), _) => Err(err),
            (None, Ok(value)) => Ok(value),
            (None, Err(_)) => Err(RenderError::new_err(
                "internal error: the render stopped unexpectedly (a bug in texgraph; please \
                 report it with the graph)",
            )),
        }
    })
}

/// Tells the waiting caller that the work is over when dropped.
struct Finished<'a>(&'a (Mutex<bool>, Condvar));

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        let (lock, signal) = self.0;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) = true;
        signal.notify_all();
    }
}
