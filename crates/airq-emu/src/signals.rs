//! SIGINT and SIGTERM as a flag: the handler only stores `true` (async-signal-safe);
//! the real-time loop and the tool runner poll the flag and unwind normally, so the
//! network's guard removes everything. SIGKILL cannot be caught: the next run's
//! [`crate::netns::remove_leftovers`] cleans up after it.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Installs the handler for SIGINT and SIGTERM; returns the flag it sets.
pub fn install() -> &'static AtomicBool {
    let handler = on_signal as extern "C" fn(libc::c_int);
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only does an atomic store, which is async-signal-safe.
        unsafe {
            libc::signal(sig, handler as libc::sighandler_t);
        }
    }
    &STOP
}

/// Whether a stop was asked for.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}
