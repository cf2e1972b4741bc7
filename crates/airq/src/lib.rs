//! # airq — WiFi access-point transmit queueing
//!
//! The queueing of a WiFi access point's transmit path, as Linux mac80211 does it and
//! beyond: FQ-CoDel queues per station and TID over one shared pool of flow queues
//! ("FQ-MAC", Høiland-Jørgensen et al., USENIX ATC 2017; Linux `include/net/fq.h`,
//! `fq_impl.h`, `codel.h`).
//!
//! The crate is `no_std` + `alloc`, does no I/O, reads no clock and takes no entropy:
//! every time-dependent call takes `now`, and every packet it does not deliver is handed
//! back to the caller with the reason, never silently freed. It runs the same in router
//! firmware, a userspace AP, a simulator or a test.
//!
//! - [`time`]: [`Instant`] and [`Duration`] in integer nanoseconds.
//! - [`packet`]: the [`Packet`] trait the caller implements.
//! - [`codel`]: CoDel (RFC 8289) with Linux's integer control law.
//! - [`fq`]: the FQ-MAC structure: [`Fq`] with its tins, flows, DRR++ and global limits.
//! - [`phy`]: PHY rates and airtime (IEEE 802.11-2020 TXTIME; mac80211's estimates).
//! - [`airtime`]: the airtime fairness scheduler (mac80211 DRR over stations).
//! - [`aql`]: Airtime Queue Limits, the kernel's and a self-tuning variant.
//! - [`admission`]: soft admission control of VO/VI (seed netdev 2.2 §4.3): a flow that
//!   builds a standing queue there is demoted to BE.
//! - [`aggregate`]: aggregate-building rules beyond mac80211's (the seed's §4.1).
//! - [`report`]: statistics as `iw` and mac80211 debugfs print them.
//!
//! Every public call states its contract — what the caller must guarantee — in its
//! module's documentation ([`fq`], [`airtime`], [`aql`]); a call outside it returns an
//! error and changes nothing, and every call costs a bounded amount whatever it is
//! passed.
//!
//! # Fuzzing
//!
//! The property tests (unit tests and `tests/integration`: random operation sequences
//! on `Fq`, the scheduler flat and grouped in both modes, and AQL, with a driver that
//! breaks the contract on purpose, checking the invariants after every step) run a few
//! hundred cases in `cargo test`. `AIRQ_PROPTEST_CASES` sets the count of each:
//!
//! ```text
//! AIRQ_PROPTEST_CASES=100000 cargo test --release -p airq
//! ```
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod admission;
pub mod aggregate;
pub mod airtime;
pub mod aql;
pub mod codel;
pub mod fq;
pub mod ids;
pub mod packet;
pub mod phy;
pub mod report;
mod station_table;
pub mod time;

pub use codel::{CodelParams, CodelState, CodelStats};
pub use fq::{
    DropReason, Dropped, EnqueueError, FattestSearch, FlowId, FlowInfo, Fq, FqError, FqParams,
    FqStats, Quantum, TinId, TinStats,
};
pub use ids::{Ac, StationId, Tid};

pub use packet::{Ecn, Packet, SimplePacket};
pub use time::{Duration, Instant};

/// Cases each property test runs: `default`, or `AIRQ_PROPTEST_CASES` if set (the
/// crate's README: 100,000 in release mode in CI).
#[cfg(test)]
pub(crate) fn proptest_cases(default: u32) -> u32 {
    std::env::var("AIRQ_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
