//! CoDel, the Controlled-Delay AQM (RFC 8289), as Linux implements it
//! (`include/net/codel.h`, `codel_impl.h`).
//!
//! CoDel watches the sojourn time of packets leaving a queue. When the sojourn time has
//! stayed above `target` for a whole `interval`, it enters the dropping state and drops
//! (or ECN-marks) one packet, then the next at `t + interval/sqrt(count)`, until the
//! sojourn time falls below `target` again (RFC 8289 §4.2–4.4).
//!
//! Split as in Linux and STYLE.md rule 3: [`CodelParams`] (shared by many queues),
//! [`CodelState`] (one per queue, Linux `codel_vars`), [`CodelStats`] (per owner of the
//! queues, Linux `codel_stats`). The queue itself is the caller's, behind [`CodelQueue`].

mod control_law;
mod state;

pub use state::CodelState;

use crate::time::Duration;
use core::fmt;

/// CoDel parameters (Linux `struct codel_params`).
///
/// [`CodelParams::default`] is Linux's generic `codel_params_init()` (5 ms / 100 ms, no
/// ECN) with the `mtu` of an Ethernet device as `sch_codel`/`sch_fq_codel` set it;
/// [`CodelParams::mac80211`] is what `ieee80211_txq_setup_flows()` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelParams {
    /// Acceptable standing sojourn time (RFC 8289 §4.3). Default 5 ms.
    pub target: Duration,
    /// Sliding window over which the minimum sojourn time is judged, on the order of a
    /// worst-case RTT (RFC 8289 §4.4). Default 100 ms.
    pub interval: Duration,
    /// Mark ECN-capable packets CE instead of dropping them (RFC 8289 §4.5). Default off.
    pub ecn: bool,
    /// Never drop while the queue holds at most this many bytes after the dequeue (Linux
    /// `params->mtu`, RFC 8289 §4.4's "at least one MTU" rule). Default 1514 (Ethernet
    /// `psched_mtu`); mac80211 leaves it 0, so only an empty queue is spared.
    pub mtu_bytes: u32,
    /// Mark ECN-capable packets CE whenever their sojourn time exceeds this, independent
    /// of the control law (Linux `ce_threshold`, used for DCTCP-style signalling).
    /// Default `None` (Linux `CODEL_DISABLED_THRESHOLD`).
    pub ce_threshold: Option<Duration>,
}

impl Default for CodelParams {
    fn default() -> Self {
        CodelParams {
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
            ecn: false,
            mtu_bytes: 1514,
            ce_threshold: None,
        }
    }
}

impl CodelParams {
    /// mac80211's parameters for its FQ-MAC queues (`net/mac80211/tx.c`,
    /// `ieee80211_txq_setup_flows`): target 20 ms, interval 100 ms, ECN on, mtu 0.
    pub const fn mac80211() -> Self {
        CodelParams {
            target: Duration::from_millis(20),
            interval: Duration::from_millis(100),
            ecn: true,
            mtu_bytes: 0,
            ce_threshold: None,
        }
    }

    /// Checks the parameters make sense: a non-zero interval, and a target below it
    /// (RFC 8289 §4.4 recommends 5–10 % of the interval).
    pub fn validate(&self) -> Result<(), CodelParamError> {
        if self.interval.is_zero() {
            return Err(CodelParamError::ZeroInterval);
        }
        if self.target >= self.interval {
            return Err(CodelParamError::TargetNotBelowInterval {
                target: self.target,
                interval: self.interval,
            });
        }
        Ok(())
    }
}

/// Why a [`CodelParams`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodelParamError {
    /// `interval` is zero.
    ZeroInterval,
    /// `target` is not below `interval`.
    TargetNotBelowInterval {
        target: Duration,
        interval: Duration,
    },
}

impl fmt::Display for CodelParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodelParamError::ZeroInterval => f.write_str("codel interval must be above zero"),
            CodelParamError::TargetNotBelowInterval { target, interval } => write!(
                f,
                "codel target ({target}) must be below the interval ({interval})"
            ),
        }
    }
}

/// CoDel statistics (Linux `struct codel_stats` plus the per-TXQ `cstats` mac80211
/// exports through nl80211).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodelStats {
    /// Packets dropped by the control law.
    pub drop_count: u64,
    /// Bytes of those packets.
    pub drop_bytes: u64,
    /// Packets marked CE by the control law instead of being dropped.
    pub ecn_mark: u64,
    /// Packets marked CE because their sojourn exceeded `ce_threshold`.
    pub ce_mark: u64,
    /// Largest packet seen at dequeue, in bytes.
    pub max_packet_bytes: u32,
}

impl CodelStats {
    /// Adds another set of counters into this one (max for `max_packet_bytes`).
    pub fn accumulate(&mut self, other: &CodelStats) {
        self.drop_count += other.drop_count;
        self.drop_bytes += other.drop_bytes;
        self.ecn_mark += other.ecn_mark;
        self.ce_mark += other.ce_mark;
        self.max_packet_bytes = self.max_packet_bytes.max(other.max_packet_bytes);
    }
}

/// The queue CoDel runs on: it takes packets from the head and reports the bytes left.
pub trait CodelQueue<P> {
    /// Removes and returns the head packet, updating every backlog the caller keeps.
    fn dequeue(&mut self) -> Option<P>;
    /// Bytes still queued (after the last dequeue), for the `mtu` rule.
    fn backlog_bytes(&self) -> u64;
}
