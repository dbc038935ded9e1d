//! Progress of long work: a bar on a terminal; elsewhere (a CI log, a build server's
//! console) a plain line on stderr at every tenth of the work once it has run for a
//! second, so a log shows a long render moving, and a short one stays quiet.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Progress over a known amount of work.
pub struct Progress {
    bar: ProgressBar,
    lines: Option<Lines>,
}

/// Plain lines, for a log that is not a terminal.
struct Lines {
    what: String,
    total: u64,
    unit: &'static str,
    start: Instant,
    /// The last tenth said.
    said: AtomicU64,
}

impl Progress {
    /// Progress over `total` `unit`s (rows, jobs) of `what` (`rendering`).
    pub fn new(total: u64, what: &str, unit: &'static str) -> Self {
        if !std::io::stderr().is_terminal() {
            return Self {
                bar: ProgressBar::hidden(),
                lines: Some(Lines {
                    what: what.to_owned(),
                    total,
                    unit,
                    start: Instant::now(),
                    said: AtomicU64::new(0),
                }),
            };
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} {what} [{{bar:40}}] {{pos}}/{{len}} {unit}, {{rate}} {unit}/s, {{eta}} left"
            ))
            .expect("valid template")
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", rate(state.per_sec()));
            })
            .progress_chars("=> "),
        );
        Self { bar, lines: None }
    }

    /// No progress shown (something else reports it).
    pub fn hidden() -> Self {
        Self {
            bar: ProgressBar::hidden(),
            lines: None,
        }
    }

    /// `done` units are done.
    pub fn set(&self, done: u64) {
        self.bar.set_position(done);
        if let Some(lines) = &self.lines {
            lines.reached(done);
        }
    }

    /// One more unit is done.
    pub fn inc(&self) {
        self.bar.inc(1);
        if let Some(lines) = &self.lines {
            lines.reached(self.bar.position());
        }
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Lines {
    fn reached(&self, done: u64) {
        let tenth = done.saturating_mul(10) / self.total.max(1);
        let seconds = self.start.elapsed().as_secs_f64();
        if seconds < 1.0 || tenth <= self.said.load(Ordering::Relaxed) {
            return;
        }
        // One line per tenth, however many threads report it.
        if self.said.fetch_max(tenth, Ordering::Relaxed) >= tenth {
            return;
        }
        // The share done itself (a line comes when a tenth is passed, not at it).
        let percent = done.saturating_mul(100) / self.total.max(1);
        crate::complain!(
            "{}: {percent}% ({done}/{} {}) in {seconds:.1} s, {} {}/s",
            self.what,
            self.total,
            self.unit,
            rate(done as f64 / seconds),
            self.unit
        );
    }
}

/// A rate as people read one: three significant digits, at most two decimals
/// (`1480`, `14.8`, `1.48`, `0.01`), `< 0.01` rather than a misleading `0.00`, and `0`
/// for none.
pub fn rate(per_second: f64) -> String {
    if per_second <= 0.0 || !per_second.is_finite() {
        return "0".to_owned();
    }
    if per_second < 0.005 {
        return "< 0.01".to_owned();
    }
    let decimals = if per_second >= 100.0 {
        0
    } else if per_second >= 10.0 {
        1
    } else {
        2
    };
    format!("{per_second:.decimals$}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_read_as_people_write_them() {
        let cases = [
            (1479.9, "1480"),
            (14.799, "14.8"),
            (1.4799, "1.48"),
            (0.0123, "0.01"),
            (0.001, "< 0.01"),
            (0.0, "0"),
        ];
        for (rate, text) in cases {
            assert_eq!(super::rate(rate), text);
        }
    }
}
