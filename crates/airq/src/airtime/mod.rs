//! The airtime fairness scheduler: deficit round robin over stations, with deficits in
//! microseconds of airtime, as Linux mac80211 does it since v6.0 (`net/mac80211/tx.c`
//! `ieee80211_txq_schedule_start`, `ieee80211_next_txq`, `__ieee80211_schedule_txq`,
//! `ieee80211_txq_may_transmit`; `sta_info.c` `ieee80211_sta_register_airtime`), which is
//! the seed's algorithm 3 (Høiland-Jørgensen et al., ATC'17) moved from ath9k into
//! mac80211.
//!
//! Per access category, scheduled TXQs wait on one list. The driver asks
//! [`next_txq`](AirtimeScheduler::next_txq) for the next TXQ to serve, dequeues from it,
//! and hands it back with [`return_txq`](AirtimeScheduler::return_txq). A station whose
//! effective deficit (its deficit minus the airtime it already has pending below the MAC)
//! is negative gets `weight` µs more and goes to the back. Airtime the driver reports
//! with [`register_airtime`](AirtimeScheduler::register_airtime) is charged to the
//! station, but only if it was active in the last 100 ms, so an idle station does not
//! build up debt. A TXQ returned with data goes to the *head* of the list: a station
//! that was idle is served at once and demoted only once its deficit goes negative (the
//! sparse-station optimisation). Push-pull drivers, whose firmware asks for a particular
//! TXQ, use [`may_transmit`](AirtimeScheduler::may_transmit).
//!
//! With [`AirtimeParams::round_robin`] the same scheduler is plain round robin: no head
//! insertion, no deficits charged — what mac80211 does for drivers without
//! `NL80211_EXT_FEATURE_AIRTIME_FAIRNESS`.
//!
//! Airtime Queue Limits plug in through [`AirtimeGate`].

mod scheduler;
mod station;
mod txq;
mod txq_list;

#[cfg(test)]
mod tests;

pub use scheduler::AirtimeScheduler;
pub use station::StationAirtimeStats;
pub use txq::TxqId;

use crate::ids::{Ac, StationId};
use crate::time::{Duration, Instant};
use core::fmt;

/// Scheduler parameters; the default is mac80211's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AirtimeParams {
    /// Airtime fairness on (`NL80211_EXT_FEATURE_AIRTIME_FAIRNESS` and non-zero
    /// `airtime_flags`); off gives plain round robin.
    pub fairness: bool,
    /// Charge TX airtime (`AIRTIME_USE_TX`, default on).
    pub use_tx: bool,
    /// Charge RX airtime (`AIRTIME_USE_RX`, default on).
    pub use_rx: bool,
    /// Weight of a new station, µs per refill (`IEEE80211_DEFAULT_AIRTIME_WEIGHT`, 256).
    pub default_weight_us: u32,
    /// How long after its last activity a station still accumulates deficit and keeps
    /// its TXQs listed (`ieee80211_sta_keep_active`: HZ/10 = 100 ms).
    pub active_window: Duration,
}

impl Default for AirtimeParams {
    fn default() -> Self {
        AirtimeParams {
            fairness: true,
            use_tx: true,
            use_rx: true,
            default_weight_us: 256,
            active_window: Duration::from_millis(100),
        }
    }
}

impl AirtimeParams {
    /// Largest weight accepted (mac80211 keeps weights in a `u16`).
    pub const MAX_WEIGHT_US: u32 = u16::MAX as u32;

    /// Plain round robin over TXQs, the baseline mac80211 uses when the driver reports
    /// no airtime.
    pub fn round_robin() -> Self {
        AirtimeParams {
            fairness: false,
            ..AirtimeParams::default()
        }
    }

    pub fn validate(&self) -> Result<(), SchedError> {
        check_weight(self.default_weight_us)
    }
}

pub(crate) fn check_weight(weight_us: u32) -> Result<(), SchedError> {
    if weight_us == 0 || weight_us > AirtimeParams::MAX_WEIGHT_US {
        return Err(SchedError::WeightOutOfRange(weight_us));
    }
    Ok(())
}

/// What the scheduler asks of Airtime Queue Limits. [`NoAql`] allows everything.
pub trait AirtimeGate {
    /// Airtime dequeued for `station` in `ac` and not yet completed, µs: subtracted from
    /// the deficit (mac80211 `ieee80211_sta_deficit`).
    fn pending_us(&self, _station: StationId, _ac: Ac) -> u32 {
        0
    }
    /// Whether the station may dequeue more in `ac` at `now`
    /// (`ieee80211_txq_airtime_check`). Mutable so that a gate can count refusals and
    /// take samples (self-tuning AQL).
    fn station_may_dequeue(&mut self, _station: StationId, _ac: Ac, _now: Instant) -> bool {
        true
    }
    /// Whether a scheduling round may start in `ac` with `active_txqs` TXQs listed
    /// (`ieee80211_txq_schedule_airtime_check`).
    fn phy_may_schedule(&mut self, _ac: Ac, _active_txqs: u32) -> bool {
        true
    }
}

/// No airtime queue limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAql;

impl AirtimeGate for NoAql {}

/// A call outside the scheduler's contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedError {
    UnknownStation(StationId),
    DuplicateStation(StationId),
    /// Station identifiers index a table: at most [`StationId::MAX`].
    StationIdOutOfRange(StationId),
    UnknownTxq(TxqId),
    /// Weights are 1 to [`AirtimeParams::MAX_WEIGHT_US`] µs.
    WeightOutOfRange(u32),
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchedError::UnknownStation(s) => write!(f, "{s} is not registered"),
            SchedError::DuplicateStation(s) => write!(f, "{s} is already registered"),
            SchedError::StationIdOutOfRange(s) => {
                write!(f, "{s}: station ids must be at most {}", StationId::MAX)
            }
            SchedError::UnknownTxq(t) => write!(f, "TXQ {} does not exist", t.index()),
            SchedError::WeightOutOfRange(w) => write!(
                f,
                "airtime weight must be between 1 and {} us, got {w}",
                AirtimeParams::MAX_WEIGHT_US
            ),
        }
    }
}
