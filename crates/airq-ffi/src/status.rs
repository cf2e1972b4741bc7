//! How every call ends: a status code, and for errors a message the caller reads with
//! `airq_last_error()` (the thread's last error, as `errno` and `dlerror()` keep one).
//!
//! Every exported function runs its body through [`entry`], which catches panics
//! (`std::panic::catch_unwind`), so that none unwinds into C: a panic becomes
//! `AIRQ_ERR_PANIC` with its message.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The result of a call (`AIRQ_OK`, `AIRQ_EMPTY`, `AIRQ_ERR_*`). Zero is success,
/// positive values are successful outcomes worth telling apart, negative values are
/// errors, whose message `airq_last_error()` returns.
pub type AirqStatus = i32;

/// Success.
pub const AIRQ_OK: AirqStatus = 0;
/// Success, and there was nothing to return: the tin had no packet to dequeue, or the
/// scheduler no TXQ to hand out.
pub const AIRQ_EMPTY: AirqStatus = 1;
/// A required pointer argument was null.
pub const AIRQ_ERR_NULL: AirqStatus = -1;
/// The handle is not a live handle of the expected kind (freed, never created, or of
/// another kind).
pub const AIRQ_ERR_INVALID_HANDLE: AirqStatus = -2;
/// Another call on the same handle is running: a call from a drop callback into the
/// handle that called it, or from another thread.
pub const AIRQ_ERR_BUSY: AirqStatus = -3;
/// A panic interrupted an earlier call on this handle; only freeing it is allowed.
pub const AIRQ_ERR_POISONED: AirqStatus = -4;
/// An argument is out of range: parameters, an AC, a TID, an ECN field, a rate.
pub const AIRQ_ERR_INVALID_ARGUMENT: AirqStatus = -5;
/// The tin does not exist (never added, or removed).
pub const AIRQ_ERR_UNKNOWN_TIN: AirqStatus = -6;
/// The station is not registered with this handle.
pub const AIRQ_ERR_UNKNOWN_STATION: AirqStatus = -7;
/// The station is registered already.
pub const AIRQ_ERR_DUPLICATE_STATION: AirqStatus = -8;
/// The TXQ does not exist (never added, or its station was removed).
pub const AIRQ_ERR_UNKNOWN_TXQ: AirqStatus = -9;
/// The text did not fit in the buffer; it holds as much as fitted, NUL-terminated.
pub const AIRQ_ERR_BUFFER_TOO_SMALL: AirqStatus = -10;
/// An internal error: a panic was caught. The handle it happened on is poisoned.
pub const AIRQ_ERR_PANIC: AirqStatus = -11;
/// The group does not exist (never added, or removed).
pub const AIRQ_ERR_UNKNOWN_GROUP: AirqStatus = -12;
/// The group still has members (stations or groups), so it cannot be removed.
pub const AIRQ_ERR_GROUP_NOT_EMPTY: AirqStatus = -13;
/// The change would put a group inside itself, or nest groups deeper than
/// `AIRQ_MAX_GROUP_DEPTH`.
pub const AIRQ_ERR_GROUP_NESTING: AirqStatus = -14;
/// The scheduler holds as many TXQs as it can, or has created as many groups as it can.
pub const AIRQ_ERR_FULL: AirqStatus = -15;

/// Each status with its name, for `airq_status_str`.
const NAMES: [(AirqStatus, &CStr); 17] = [
    (AIRQ_OK, c"ok"),
    (AIRQ_EMPTY, c"empty"),
    (AIRQ_ERR_NULL, c"null pointer"),
    (AIRQ_ERR_INVALID_HANDLE, c"invalid handle"),
    (AIRQ_ERR_BUSY, c"handle busy"),
    (AIRQ_ERR_POISONED, c"handle poisoned by an earlier panic"),
    (AIRQ_ERR_INVALID_ARGUMENT, c"invalid argument"),
    (AIRQ_ERR_UNKNOWN_TIN, c"unknown tin"),
    (AIRQ_ERR_UNKNOWN_STATION, c"unknown station"),
    (AIRQ_ERR_DUPLICATE_STATION, c"duplicate station"),
    (AIRQ_ERR_UNKNOWN_TXQ, c"unknown TXQ"),
    (AIRQ_ERR_BUFFER_TOO_SMALL, c"buffer too small"),
    (AIRQ_ERR_PANIC, c"internal error (panic)"),
    (AIRQ_ERR_UNKNOWN_GROUP, c"unknown group"),
    (AIRQ_ERR_GROUP_NOT_EMPTY, c"group not empty"),
    (AIRQ_ERR_GROUP_NESTING, c"bad group nesting"),
    (AIRQ_ERR_FULL, c"scheduler full"),
];

/// An error on its way to the caller: the code and the message.
#[derive(Debug)]
pub(crate) struct Error {
    pub(crate) status: AirqStatus,
    pub(crate) message: String,
}

impl Error {
    pub(crate) fn new(status: AirqStatus, message: impl Display) -> Self {
        Error {
            status,
            message: message.to_string(),
        }
    }

    pub(crate) fn null(what: &str) -> Self {
        Error::new(AIRQ_ERR_NULL, format_args!("{what} is null"))
    }

    pub(crate) fn invalid(message: impl Display) -> Self {
        Error::new(AIRQ_ERR_INVALID_ARGUMENT, message)
    }
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // Interior NULs cannot come from our messages; replace rather than lose the text.
    let text = CString::new(message.replace('\0', "?")).unwrap_or_default();
    // Fails only while the thread is being torn down; the code still says what failed.
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = text);
}

/// Runs the body of an exported function: its status, or its error's status with the
/// message stored for `airq_last_error()`, or `AIRQ_ERR_PANIC` if it panicked.
pub(crate) fn entry(body: impl FnOnce() -> Result<AirqStatus>) -> AirqStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => {
            set_last_error(&e.message);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(no message)");
            set_last_error(&format!("internal error: panic caught: {what}"));
            AIRQ_ERR_PANIC
        }
    }
}

/// The message of the last error on this thread: what the last call that returned a
/// negative status said. Never null; the text stays valid until the next failing call
/// on this thread. Successful calls leave it as it was.
#[no_mangle]
pub extern "C" fn airq_last_error() -> *const c_char {
    LAST_ERROR
        .try_with(|e| e.borrow().as_ptr())
        .unwrap_or(c"".as_ptr())
}

/// A static name for a status code ("ok", "unknown tin", …); "unknown status" for a
/// value that is none.
#[no_mangle]
pub extern "C" fn airq_status_str(status: AirqStatus) -> *const c_char {
    NAMES
        .iter()
        .find(|(s, _)| *s == status)
        .map_or(c"unknown status", |(_, name)| name)
        .as_ptr()
}

/// Writes `value` through the caller's out-pointer `out`, named `what` in the error.
pub(crate) fn write_out<T>(out: *mut T, what: &str, value: T) -> Result<()> {
    if out.is_null() {
        return Err(Error::null(what));
    }
    if !out.is_aligned() {
        return Err(Error::invalid(format_args!("{what} is misaligned")));
    }
    // SAFETY: non-null and aligned; the caller promises it points to a writable `T`.
    unsafe { out.write(value) };
    Ok(())
}

/// Reads the caller's `*const T` argument `ptr`, named `what` in the error.
pub(crate) fn read_in<T: Copy>(ptr: *const T, what: &str) -> Result<T> {
    if ptr.is_null() {
        return Err(Error::null(what));
    }
    if !ptr.is_aligned() {
        return Err(Error::invalid(format_args!("{what} is misaligned")));
    }
    // SAFETY: non-null and aligned; the caller promises it points to a readable `T`.
    Ok(unsafe { ptr.read() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message() -> String {
        // SAFETY: `airq_last_error` returns a valid NUL-terminated string.
        unsafe { CStr::from_ptr(airq_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let status = entry(|| panic!("broken invariant"));
        assert_eq!(status, AIRQ_ERR_PANIC);
        assert_eq!(message(), "internal error: panic caught: broken invariant");
    }

    #[test]
    fn errors_set_the_message_and_successes_leave_it() {
        assert_eq!(
            entry(|| Err(Error::invalid("bad ac"))),
            AIRQ_ERR_INVALID_ARGUMENT
        );
        assert_eq!(entry(|| Ok(AIRQ_EMPTY)), AIRQ_EMPTY);
        assert_eq!(message(), "bad ac");
    }
}
