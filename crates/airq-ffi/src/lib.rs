//! # airq-ffi — the C API of airq
//!
//! The airq library behind opaque handles for C: firmware and userspace access points
//! link `libairq_ffi.a` (or `libairq_ffi.so`) and include `include/airq.h`, which
//! cbindgen generates from this crate (the `header_is_up_to_date` test regenerates it
//! and fails if the committed one differs; `AIRQ_BLESS=1` rewrites it).
//!
//! Three handles, one per component of a radio's transmit path, as a mac80211 driver
//! has them: [`fq`] (the FQ-MAC queues, one tin per TXQ), [`sched`] (the airtime
//! fairness scheduler over TXQs, with [`group`]s of stations) and [`aql`] (Airtime
//! Queue Limits, the scheduler's optional gate). The driver ties them together: it
//! keeps which tin holds each TXQ's packets, as mac80211 keeps a `txq_info` with both.
//! `examples/c/driver.c` is such a driver loop; `examples/c/groups.c` uses groups.
//!
//! The contract, the same for every function (and stated in the header):
//!
//! - **Packets** are the caller's: an [`AirqPacket`](packet::AirqPacket) carries an
//!   opaque `cookie` pointer with the length, flow hash and ECN field. The library never
//!   dereferences or frees a cookie; every packet it takes in comes back out, dequeued or
//!   handed to the caller's drop callback with the reason.
//! - **Errors** are return codes ([`AirqStatus`](status::AirqStatus)), negative for
//!   errors, with a message from `airq_last_error()`. No panic crosses the boundary:
//!   every entry point runs under `catch_unwind`, and a handle a panic interrupted is
//!   poisoned (every later call on it fails, except freeing it).
//! - **Handles** are checked against the set of live handles before use, so a null,
//!   freed or foreign pointer, or a handle of the wrong kind, is an error rather than a
//!   crash. Other pointers (out-parameters, packets, buffers) must be null or valid.
//! - **Thread safety**: none, as mac80211's TX path under its locks: one handle per
//!   radio, used from one context at a time. A call made while another call on the same
//!   handle is running — from the drop callback, or from another thread — fails with
//!   `AIRQ_ERR_BUSY` instead of corrupting it.
//! - **Time** is the caller's: every time-dependent call takes `now_ns`, nanoseconds on
//!   the caller's monotonic clock (the library reads no clock).
#![deny(unsafe_op_in_unsafe_fn)]
// Every exported function is `unsafe extern "C"` for the one reason the crate docs and
// the header state: its pointer arguments must be null or valid. One contract for all,
// so no per-function `# Safety` section.
#![allow(clippy::missing_safety_doc)]
// The C structs hold every counter as 64 bits, converted with `u64::from`, which
// compiles whether airq keeps a counter in 32 or 64 bits: the C ABI stays the same
// when airq widens one.
#![allow(clippy::useless_conversion)]

pub mod aql;
pub mod fq;
pub mod group;
mod handle;
pub mod packet;
pub mod print;
pub mod rate;
pub mod sched;
pub mod status;
