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
//! Every call ends in bounded work, whatever the caller reports. Deficits are 64-bit
//! (mac80211's are `s32`), so that no charge saturates them; and where mac80211's loop
//! would go round the list once per quantum until someone's deficit covers its pending
//! airtime — 2^33 passes after `u32::MAX` µs reported at weight 1, for ever for pending
//! airtime beyond `i32::MAX` µs with 32-bit deficits — the scheduler skips the passes
//! that would only refill and gives every entry the quanta they would have
//! (`pass_skip.rs`): the same choices, deficits and refill counts, in O(list) work.
//!
//! With [`AirtimeParams::round_robin`] the same scheduler is plain round robin: no head
//! insertion, no deficits charged — what mac80211 does for drivers without
//! `NL80211_EXT_FEATURE_AIRTIME_FAIRNESS`.
//!
//! Airtime Queue Limits plug in through [`AirtimeGate`].
//!
//! # Airtime policies: groups and station-first QoS
//!
//! Two options that go beyond mac80211, from the seeds' "next steps" (Høiland-Jørgensen,
//! netdev 2.2, 2017, §4.2–4.3). Both use the DRR above, unchanged, at every level of
//! the hierarchy (one generic walk, `drr.rs`); without them — no group created, per-AC
//! scheduling — its instance for lists of TXQs alone is mac80211's flat scheduler.
//!
//! **Groups** ([`add_group`](AirtimeScheduler::add_group)): "airtime is divided between
//! groups, then between stations within; groups could also be recursive (a station is
//! always its own group); groups can be weighted" (netdev 2.2 slides 17–19). The
//! scheduler becomes a hierarchical DRR. The root's list holds the TXQs of ungrouped
//! stations and the top-level groups; each group holds, per AC, its own list of its
//! stations' TXQs and of its subgroups, and its own deficit. A group is on its parent's
//! list while anything below it is. `next_txq` starts at the root and applies, at each
//! level, the same rule mac80211 applies to stations: the head entry, if its deficit is
//! negative, gets its weight and goes to the tail; otherwise a TXQ is handed out and a
//! group is descended into. A station is therefore served only when every group above it
//! has a non-negative deficit, and station deficits inside a group advance only while
//! the group is being served. Airtime registered for a station is charged to it and to
//! each group above it; a group that becomes backlogged goes to the head of its
//! parent's list, as a sparse station does. A group stands, on its parent's list, for
//! the TXQ it hands out, and moves as mac80211 moves that TXQ on its flat list: handed
//! back with data, the TXQ goes to the head of its list, and the groups above it stay at
//! the heads of theirs; handed back to the tail (empty but kept listed while its station
//! is active, or with fairness or `sparse_first` off), it takes every group above it to
//! the tail of its parent's list. So a group whose TXQs are all empty does not hold the head and end
//! each round before the entries behind it get a turn. A group is one entry of its parent's list
//! however many stations it has, so airtime is split between the entries of a list by
//! weight, whatever lies below them: group shares multiply down the tree.
//!
//! A group is [`Share`](GroupMode::Share) (work-conserving: an idle group's airtime goes
//! to the others, as hostapd's `airtime_mode` 2 "dynamic" BSS weighting) or
//! [`Limit`](GroupMode::Limit): capped at its *nominal share* even when everyone else is
//! idle — the guest network of the netdev slides. The nominal share is what the group
//! gets when every station is busy: the product, from the root down, of its weight over
//! the summed weights of all members of its parent (groups and stations, busy or not).
//! DRR alone cannot hold a cap when the others are idle, so a limited group also has a
//! token bucket in wall time (`limit.rs`): it earns `share × elapsed` µs of credit, at
//! most [`AirtimeParams::limit_burst`], is charged the airtime its deficits are charged,
//! and is skipped while its credit is negative — then the channel may go idle, and
//! [`next_timeout`](AirtimeScheduler::next_timeout) says when to come back. (hostapd's
//! `airtime_mode` 3 "limit" only rescales station weights while other BSSes are busy; it
//! cannot cap an otherwise idle channel.)
//!
//! **Station-first QoS** ([`SchedulingMode::StationFirst`]): "first selecting the station
//! to transmit to, and then picking the highest priority queue active for that station"
//! (seed §4.3); see [`SchedulingMode`] for the trade-off.
//!
//! Costs and limits of the hierarchy: a decision walks one list per level, at most
//! [`MAX_GROUP_DEPTH`] + 1, each with mac80211's refill-and-rotate loop; moving a
//! station between groups is O(TXQs), and changing weights or members is O(groups)
//! when `Limit` groups exist. A group's deficit, unlike a station's, does not subtract
//! the airtime pending below the MAC (the gate reports it per station), so a group can
//! run ahead of its deficit by what AQL lets its stations have in flight. `Limit` caps
//! count the airtime the driver reports, so they hold only with airtime fairness on.

//! # Contract
//!
//! What a driver must guarantee, per call. A call that breaks a rule gets a
//! [`SchedError`] naming what was wrong and changes nothing — never a panic, a hang or
//! corrupted lists. `contract_tests.rs` has one test per rule (`rule_N_…`), each
//! breaking it with every call it covers in both scheduling modes, with groups; the
//! random driver of the integration tests (`driver_fuzz.rs`) mixes such calls with
//! legal ones.
//!
//! 1. [`AirtimeScheduler::new`]: a default weight of 1 to
//!    [`AirtimeParams::MAX_WEIGHT_US`] µs ([`SchedError::WeightOutOfRange`]).
//! 2. `add_station`: an id at most [`StationId::MAX`]
//!    ([`SchedError::StationIdOutOfRange`]), not registered already
//!    ([`SchedError::DuplicateStation`]).
//! 3. Calls taking a [`StationId`] (`remove_station`, `set_weight`, `register_airtime`,
//!    `station_stats`, `set_station_group`, `station_group`, `add_txq`): a registered
//!    station ([`SchedError::UnknownStation`]).
//! 4. Calls taking a [`TxqId`] (`return_txq`, `unschedule`, `may_transmit(_at)`,
//!    `remove_txq`, `txq_owner`): a TXQ `add_txq` returned, not removed since (itself
//!    or with its station) ([`SchedError::UnknownTxq`]). Ids carry their slot's
//!    generation: a stale one never reaches the slot's next TXQ.
//! 5. `add_txq`: fewer than [`AirtimeScheduler::MAX_TXQS`] TXQs
//!    ([`SchedError::TooManyTxqs`]); `add_group`: fewer than
//!    [`AirtimeScheduler::MAX_GROUPS`] groups ([`SchedError::TooManyGroups`]). Removed
//!    ones make room: slots are reused, so tables are as long as the most objects that
//!    existed at once.
//! 6. Weights (`set_weight`, `add_group`, `set_group_weight`): 1 to
//!    [`AirtimeParams::MAX_WEIGHT_US`] µs ([`SchedError::WeightOutOfRange`]).
//! 7. Calls taking a [`GroupId`] (`add_group`'s parent, `remove_group`,
//!    `set_group_weight`, `set_group_mode`, `set_group_parent`, `set_station_group`,
//!    `group_stats`): a live group ([`SchedError::UnknownGroup`]); ids carry
//!    generations, as TXQs' do.
//! 8. Nesting (`set_group_parent`): without cycles ([`SchedError::GroupCycle`]).
//! 9. Nesting (`add_group`, `set_group_parent`): at most [`MAX_GROUP_DEPTH`] levels
//!    ([`SchedError::GroupTooDeep`]).
//! 10. `remove_group`: of an empty group ([`SchedError::GroupNotEmpty`]).
//! 11. The [`AirtimeGate`] answers the same within one call (see there). A gate that
//!     does not gets no error — the scheduler cannot tell — but every call still ends
//!     after bounded work, lists intact.
//! 12. Nothing else is asked: any airtime (`register_airtime` up to `u32::MAX` µs each,
//!     TX and RX), any pending airtime a gate reports, any `now` (backwards, or at the
//!     end of time) is taken. Deficits are 64-bit and refills of a deep debt are
//!     computed, not looped, so each `next_txq` costs O(TXQs listed), and
//!     `remove_station` O(its TXQs).
//!
//! In station-first mode the per-AC calls `schedule_start` and `next_txq` do nothing
//! (the driver uses `schedule_start_any` and `next_txq_any`): not an error, as a
//! driver written for both modes may call both.

mod deficit;
mod drr;
mod group;
mod limit;
mod node;
mod pass_skip;
mod scheduler;
mod station;
mod station_first;
mod txq;
mod txq_list;

#[cfg(test)]
mod churn_tests;
#[cfg(test)]
mod contract_tests;
#[cfg(test)]
mod group_tests;
#[cfg(test)]
mod pass_skip_tests;
#[cfg(test)]
mod station_first_tests;
#[cfg(test)]
mod synthetic;
#[cfg(test)]
mod tests;

pub use group::{GroupId, GroupMode, GroupStats, MAX_GROUP_DEPTH};
pub use scheduler::AirtimeScheduler;
pub use station::StationAirtimeStats;
pub use station_first::SchedulingMode;
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
    /// Per-AC scheduling (mac80211) or station first (seed §4.3).
    pub mode: SchedulingMode,
    /// Most airtime credit a [`Limit`](GroupMode::Limit) group can save up while it is
    /// not served. Our choice, 10 ms: about two of the longest PPDUs (5.484 ms, the VHT
    /// and HE aPPDUMaxTime of IEEE 802.11-2020), so that a limited group that waited
    /// behind another station's longest aggregates loses no credit, while one that was
    /// idle can exceed its share by at most that much.
    pub limit_burst: Duration,
    /// The sparse-station optimisation (mac80211's default, seed 002 slide 33): a TXQ
    /// that becomes active goes to the head of the list, so a station that was idle is
    /// served at once. Off, it goes to the back like any other, so its effect can be
    /// measured.
    pub sparse_first: bool,
}

impl Default for AirtimeParams {
    fn default() -> Self {
        AirtimeParams {
            fairness: true,
            use_tx: true,
            use_rx: true,
            default_weight_us: 256,
            active_window: Duration::from_millis(100),
            mode: SchedulingMode::PerAc,
            limit_burst: Duration::from_millis(10),
            sparse_first: true,
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
///
/// Within one call of the scheduler, the answers about a station and AC must not
/// change: mac80211's loop asks them again on every pass over the list, and the
/// scheduler, which skips the passes that would only refill deficits, assumes the
/// answers of the pass it walked (as it may ask fewer times than that loop would).
/// [`Aql`](crate::aql::Aql) answers so: a station's self-tuning sample is taken at its
/// first check; only its count of refusals sees how often it was asked.
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
///
/// Every variant holds at most one 4-byte identifier, so that `Result<(), SchedError>`
/// is returned in registers by the per-packet calls (`return_txq`,
/// `register_airtime`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedError {
    UnknownStation(StationId),
    DuplicateStation(StationId),
    /// Station identifiers index a table: at most [`StationId::MAX`].
    StationIdOutOfRange(StationId),
    /// No such TXQ — never created here, or removed (the id's generation is stale) —
    /// named by the refused id's [`index`](TxqId::index). The index alone keeps the
    /// error at 8 bytes (a 12-byte `Result` made every decision 8% slower).
    UnknownTxq(u32),
    /// [`AirtimeScheduler::MAX_TXQS`] TXQs exist already.
    TooManyTxqs,
    /// [`AirtimeScheduler::MAX_GROUPS`] groups exist already.
    TooManyGroups,
    /// Weights are 1 to [`AirtimeParams::MAX_WEIGHT_US`] µs.
    WeightOutOfRange(u32),
    /// No such group — never created here, or removed (the id's generation is stale) —
    /// named, as the group errors below, by the id's [`index`](GroupId::index), which
    /// keeps the error at 8 bytes.
    UnknownGroup(u32),
    /// The group cannot be nested in itself or in a group inside it.
    GroupCycle(u32),
    /// Nesting in this group would make the hierarchy deeper than [`MAX_GROUP_DEPTH`].
    GroupTooDeep(u32),
    /// A group with members (stations or groups) cannot be removed.
    GroupNotEmpty(u32),
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchedError::UnknownStation(s) => write!(f, "{s} is not registered"),
            SchedError::DuplicateStation(s) => write!(f, "{s} is already registered"),
            SchedError::StationIdOutOfRange(s) => {
                write!(f, "{s}: station ids must be at most {}", StationId::MAX)
            }
            SchedError::UnknownTxq(index) => write!(
                f,
                "TXQ {index} does not exist (never added, or removed since)"
            ),
            SchedError::TooManyTxqs => write!(
                f,
                "{} TXQs exist already, the most a scheduler holds",
                AirtimeScheduler::MAX_TXQS
            ),
            SchedError::TooManyGroups => write!(
                f,
                "{} groups exist already, the most a scheduler holds",
                AirtimeScheduler::MAX_GROUPS
            ),
            SchedError::WeightOutOfRange(w) => write!(
                f,
                "airtime weight must be between 1 and {} us, got {w}",
                AirtimeParams::MAX_WEIGHT_US
            ),
            SchedError::UnknownGroup(g) => write!(
                f,
                "group {g} does not exist (never created, or removed since)"
            ),
            SchedError::GroupCycle(g) => write!(
                f,
                "group {g} cannot be nested in itself or in a group inside it"
            ),
            SchedError::GroupTooDeep(parent) => write!(
                f,
                "nesting in group {parent} would make groups more than {MAX_GROUP_DEPTH} deep"
            ),
            SchedError::GroupNotEmpty(g) => write!(
                f,
                "group {g} still has stations or groups in it; move them out first"
            ),
        }
    }
}
