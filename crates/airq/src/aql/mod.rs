//! # Airtime Queue Limits (AQL)
//!
//! Bounds the airtime queued below the MAC — in the driver, firmware and hardware — so
//! that packets wait in the MAC's FQ-CoDel queues, where CoDel can see their sojourn
//! time, rather than in deep hardware queues where nothing manages them. It is BQL with
//! airtime in place of bytes: Kan Yan's design for Google WiFi (ath10k, 2018), merged into
//! Linux mac80211 in v5.5 (Kan Yan and Toke Høiland-Jørgensen, commits 3ace10f5b5ad and
//! 7a89233ac504), with the per-AC PHY cap and the exclusion of multicast of v6.0.
//!
//! - [`params`] — [`AqlParams`]: `aql_limit_low`/`aql_limit_high` per AC (5000/12000
//!   µs), `aql_threshold` (24000 µs), enable switches, estimator, self-tuning.
//! - [`limits`] — the kernel's two gates as pure functions, per station-AC
//!   (`ieee80211_txq_airtime_check`) and per AC (`ieee80211_txq_schedule_airtime_check`).
//! - [`accounting`] — [`Aql`], the pending-airtime counters of one radio (per
//!   station-AC, per AC, total), charged at dequeue and released at completion, with the
//!   gates and the statistics.
//! - [`estimate`] — [`AirtimeEstimator`], the airtime a packet is charged: the kernel's
//!   estimate (4 µs units, ≤ 4092 µs) or the exact TXTIME model.
//! - [`self_tuning`] — a DQL-like limit per station-AC that grows when the hardware
//!   starves and shrinks when slack persists; not in Linux.
//!
//! A driver loop with AQL, per packet: ask [`Aql::may_dequeue`] (and, per scheduling
//! round, [`Aql::schedule_allowed`]); dequeue; [`Aql::charge`] the estimate; on the
//! hardware's completion (or drop) [`Aql::release`] the same amount, or
//! [`Aql::report_completion`] when self-tuning.

//! # Contract
//!
//! What a caller of [`Aql`] must guarantee, per call. A call that breaks a rule gets an
//! [`AqlError`] (or, at creation, an [`AqlParamsError`]) naming what was wrong and
//! changes nothing — never a panic or a counter out of step. `contract_tests.rs` has
//! one test per rule (`rule_N_…`); the random driver of the integration tests
//! (`driver_fuzz.rs`) mixes such calls with legal ones.
//!
//! 1. [`Aql::new`]: parameters that [`validate`](AqlParams::validate) — per-AC limits
//!    non-zero with low ≤ high, a non-zero threshold, a valid estimator and
//!    self-tuning.
//! 2. `register_station`: an id at most [`StationId::MAX`]
//!    ([`AqlError::StationIdTooLarge`]), not registered already
//!    ([`AqlError::StationAlreadyRegistered`]).
//! 3. Calls taking a [`StationId`] (`unregister_station`, `charge`, `release`,
//!    `report_completion`, `may_dequeue`, `station_pending_us`, `station_limits`,
//!    `set_station_limits`, `self_tuning_state`): a registered station
//!    ([`AqlError::UnknownStation`]) — completions for a station that left are such
//!    errors, for the caller to ignore.
//! 4. `set_station_limits`: limits that validate and, with self-tuning, a high limit
//!    not below its `min_limit_us` ([`AqlError::InvalidLimits`]).
//! 5. Nothing is asked of amounts: anything up to `u32::MAX` µs. The counters are
//!    64-bit; a release above what is pending is clamped, returned as the excess and
//!    counted ([`AqlStats::underflows`]); the per-AC and total counters stay the sums
//!    of the stations'.
//! 6. Nothing is asked of `now`: backwards, or at the end of time, it is taken (time
//!    arithmetic saturates).
//! 7. As the scheduler's [`AirtimeGate`](crate::airtime::AirtimeGate), a station AQL
//!    does not track is not limited and has nothing pending, as mac80211 does not
//!    limit TXQs without a station.

pub mod accounting;
pub mod estimate;
mod gate;
pub mod limits;
pub mod params;
pub mod self_tuning;

#[cfg(test)]
mod contract_tests;

use core::fmt;

use crate::ids::StationId;

pub use accounting::{Aql, AqlStats};
pub use estimate::{kernel_assumes_ampdu, AirtimeEstimator, TxTimeEstEncoding};
pub use params::{AqlLimits, AqlParams, AqlParamsError};
pub use self_tuning::{SelfTuningParams, SelfTuningState, SelfTuningStats};

/// A call [`Aql`] cannot honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AqlError {
    /// The station is not registered.
    UnknownStation(StationId),
    /// The station is registered already.
    StationAlreadyRegistered(StationId),
    /// The id is above [`StationId::MAX`].
    StationIdTooLarge(StationId),
    /// Per-station limits that fail validation.
    InvalidLimits(AqlParamsError),
}

impl fmt::Display for AqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AqlError::UnknownStation(id) => write!(f, "AQL: {id} is not registered"),
            AqlError::StationAlreadyRegistered(id) => {
                write!(f, "AQL: {id} is already registered")
            }
            AqlError::StationIdTooLarge(id) => {
                write!(f, "AQL: {id} is above the largest id, {}", StationId::MAX)
            }
            AqlError::InvalidLimits(e) => write!(f, "AQL: invalid limits: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn errors_display_the_station() {
        assert_eq!(
            AqlError::UnknownStation(StationId(4)).to_string(),
            "AQL: station 4 is not registered"
        );
    }
}
