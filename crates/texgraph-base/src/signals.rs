//! Ending cleanly on SIGINT (Ctrl+C), SIGTERM and SIGHUP: temporaries of writes under way
//! are removed, the files they would have replaced stay as they were, and the process
//! ends as killed by that signal (a shell reports 128 + its number, 130 for Ctrl+C), so
//! scripts see the interruption. An abort (SIGABRT: an allocation that failed) removes
//! them too, on Linux.

/// Starts a thread that waits for SIGINT, SIGTERM and SIGHUP. On the first one it runs
/// `before_exit` (the editor writes its recovery file there), removes every pending
/// temporary ([`crate::staging::remove_pending`], after any commit under way), and ends
/// the process with the signal's default action. On Linux it also removes the pending
/// temporaries when the process aborts ([`crate::staging::remove_pending_on_abort`]).
#[cfg(unix)]
pub fn end_cleanly_on_signals(
    before_exit: impl FnOnce(i32) + Send + 'static,
) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    #[cfg(target_os = "linux")]
    // SAFETY: the handler allocates nothing and takes no lock it could wait for.
    unsafe {
        signal_hook::low_level::register(
            signal_hook::consts::SIGABRT,
            crate::staging::remove_pending_on_abort,
        )?;
    }
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::path::Path;

    const CHILD: &str = "TEXGRAPH_TEST_ABORT_IN";

    /// Runs as its own child process: in the child, a write aborts half-way; the parent
    /// sees the process die of SIGABRT with nothing left in the folder.
    #[test]
    fn an_abort_half_way_through_a_write_leaves_no_temporary() {
        if let Ok(dir) = std::env::var(CHILD) {
            super::end_cleanly_on_signals(|_| {}).unwrap();
            let target = Path::new(&dir).join("image.png");
            let _ = crate::staging::stage(&target, |_| std::process::abort());
            unreachable!("the write aborts");
        }
        use std::os::unix::process::ExitStatusExt;
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "signals::tests::an_abort_half_way_through_a_write_leaves_no_temporary",
                "--test-threads=1",
            ])
            .env(CHILD, dir.path())
            .stderr(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}
