//! Running the engine without the GIL, so other Python threads run meanwhile, while the
//! calling thread still answers Ctrl+C: the work runs on a thread of its own and the
//! caller waits for it in short slices, checking Python's signal handlers between them.
//! A `KeyboardInterrupt` (or any exception a signal handler raises) sets the render's
//! cancel flag, waits for the work to stop at its next band or tile column, and is
//! raised.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::RenderError;

/// How long the caller waits without the GIL between looks at Python's signals.
const SLICE: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own without the GIL; `cancel` is set when a signal
/// handler raises, and the exception is returned once the work has stopped. `report` is
/// called with the GIL between slices and once the work is over, to tell Python what the
/// work has done so far (a progress callback); an exception from it stops the work as a
/// signal's does.
pub fn run_reporting<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
    mut report: impl FnMut(Python<'_>) -> PyResult<()>,
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
            if raised.is_none()
                && let Err(err) = report(py)
            {
                cancel.store(true, Ordering::Relaxed);
                raised = Some(err);
            }
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

/// A `report` for [`run_reporting`] that calls `callback(done, total)` whenever the
/// work has moved `done` on (the rows of a render, say), and once at the end.
pub fn count_reporter<'a>(
    callback: Option<&'a Bound<'a, PyAny>>,
    done: &'a AtomicU64,
    total: u64,
) -> impl FnMut(Python<'_>) -> PyResult<()> + 'a {
    let mut said = None;
    move |_| {
        let Some(callback) = callback else {
            return Ok(());
        };
        let now = done.load(Ordering::Relaxed).min(total);
        if said != Some(now) {
            said = Some(now);
            callback.call1((now, total))?;
        }
        Ok(())
    }
}
