//! Ending cleanly on SIGINT (Ctrl+C), SIGTERM and SIGHUP: temporaries of writes under way
//! are removed, the files they would have replaced stay as they were, and the process
//! ends as killed by that signal (a shell reports 128 + its number, 130 for Ctrl+C), so
//! scripts see the interruption.

/// Starts a thread that waits for SIGINT, SIGTERM and SIGHUP. On the first one it runs
/// `before_exit` (the editor writes its recovery file there), removes every pending
/// temporary ([`crate::staging::remove_pending`], after any commit under way), and ends
/// the process with the signal's default action.
#[cfg(unix)]
pub fn end_cleanly_on_signals(
    before_exit: impl FnOnce(i32) + Send + 'static,
) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("texgraph-signals".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            before_exit(signal);
            crate::staging::remove_pending();
            // Take it again with the default action: the process ends "killed by signal",
            // the convention shells and build tools expect.
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        })?;
    Ok(())
}

/// Elsewhere there is nothing to install; the default handling stays.
#[cfg(not(unix))]
pub fn end_cleanly_on_signals(
    _before_exit: impl FnOnce(i32) + Send + 'static,
) -> std::io::Result<()> {
    Ok(())
}
