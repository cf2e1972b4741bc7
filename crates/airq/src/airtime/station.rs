//! A station's airtime state per access category (mac80211 `struct airtime_info
//! sta->airtime[ac]` and `sta->airtime_weight`, `net/mac80211/sta_info.h`).

use super::deficit::Deficit;
use super::txq_list::{Links, TxqList};
use crate::ids::{Ac, StationId};
use crate::time::{Duration, Instant};
use alloc::vec::Vec;

pub(super) struct StationAirtime {
    pub(super) id: StationId,
    /// DRR quantum in µs added at each refill (`sta->airtime_weight`).
    pub(super) weight_us: u32,
    pub(super) ac: [AcAirtime; Ac::COUNT],
    /// The group it belongs to (index), if any.
    pub(super) group: Option<u32>,
    /// Its TXQs (indices), in the order they were added: removing the station touches
    /// these, not the whole table.
    pub(super) txqs: Vec<u32>,
    /// Station-first mode: its place on its parent's list, where it stands for all its
    /// TXQs, and those of its TXQs that are scheduled, per AC.
    pub(super) links: Links,
    pub(super) queues: [TxqList; Ac::COUNT],
    /// Station-first mode: by TID (a station has one TXQ per TID), the scheduled TXQs
    /// that were returned with data. The others are empty and listed only to repay a
    /// deficit (`ieee80211_txq_keep_active`); an AC with data goes before them.
    pub(super) queued_tids: u16,
    /// Station-first mode: whether, at its last visit by `next_txq`'s loop, it had a
    /// TXQ the gates let through (what the visit added to mac80211's `found_eligible`).
    pub(super) eligible: bool,
    /// Scratch of the pass skip (`pass_skip.rs`): its TXQs on the list whose passes are
    /// skipped, each of which refills it once a pass.
    pub(super) pass_entries: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct AcAirtime {
    /// DRR credit (`airtime_info.deficit`).
    pub(super) deficit: Deficit,
    pub(super) tx_airtime_us: u64,
    pub(super) rx_airtime_us: u64,
    /// When a TXQ of this station and AC was last scheduled with data queued
    /// (`ieee80211_txq_set_active`).
    pub(super) last_active: Option<Instant>,
}

impl StationAirtime {
    pub(super) fn new(id: StationId, weight_us: u32) -> Self {
        let ac = AcAirtime {
            deficit: Deficit::new(weight_us),
            ..AcAirtime::default()
        };
        StationAirtime {
            id,
            weight_us,
            ac: [ac; Ac::COUNT],
            group: None,
            txqs: Vec::new(),
            links: Links::default(),
            queues: Default::default(),
            queued_tids: 0,
            eligible: false,
            pass_entries: 0,
        }
    }

    /// Its deficit in `lane` (an AC; station-first mode's one lane) and its quantum,
    /// the weight.
    #[inline(always)]
    pub(super) fn drr(&mut self, lane: Ac) -> (&mut Deficit, u32) {
        (&mut self.ac[lane.index()].deficit, self.weight_us)
    }

    /// Station-first mode: whether it has a scheduled TXQ in an AC that the round's PHY
    /// gate allowed. One without takes no part in the round: mac80211 walks no list of
    /// an AC whose round the PHY gate refused, so it neither serves nor refills anyone
    /// on it.
    pub(super) fn in_round(&self, phy_allowed: &[bool; Ac::COUNT]) -> bool {
        Ac::ALL
            .iter()
            .any(|&ac| phy_allowed[ac.index()] && !self.queues[ac.index()].is_empty())
    }

    /// Whether the station was active in this AC within `window` of `now`
    /// (`ieee80211_sta_keep_active`: `last_active + HZ/10`, i.e. 100 ms).
    pub(super) fn keep_active(&self, ac: Ac, now: Instant, window: Duration) -> bool {
        self.ac[ac.index()]
            .last_active
            .is_some_and(|t| now <= t + window)
    }
}

/// A snapshot of one station's airtime accounting (what `iw station dump` shows as
/// `airtime weight`, `tx duration`, `rx duration`, and debugfs `airtime` per AC).
///
/// In [station-first](super::SchedulingMode::StationFirst) mode a station has one
/// deficit for all ACs; every entry of `deficit_us` and `refills` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StationAirtimeStats {
    pub station: StationId,
    pub weight_us: u32,
    /// Per AC (index [`Ac::index`]): airtime reported for transmissions, µs.
    pub tx_airtime_us: [u64; Ac::COUNT],
    /// Per AC: airtime reported for receptions, µs.
    pub rx_airtime_us: [u64; Ac::COUNT],
    /// Per AC: the DRR deficit, µs (before subtracting pending AQL airtime).
    pub deficit_us: [i64; Ac::COUNT],
    /// Per AC: refills of the deficit by the weight, so far.
    pub refills: [u64; Ac::COUNT],
}
