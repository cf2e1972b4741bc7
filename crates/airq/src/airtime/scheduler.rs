//! The scheduler's state, and the calls that register stations and TXQs, set weights,
//! start rounds (`ieee80211_txq_schedule_start`) and read statistics. The DRR itself —
//! `next_txq`, `return_txq`, `may_transmit`, `register_airtime` — is `drr.rs`.

use super::group::Group;
use super::station::{StationAirtime, StationAirtimeStats};
use super::station_first::STATION_FIRST_LANE;
use super::txq::{Txq, TxqId};
use super::txq_list::{Links, TxqList};
use super::{check_weight, AirtimeGate, AirtimeParams, SchedError, SchedulingMode};
use crate::ids::{Ac, StationId, Tid};
use crate::station_table::{InsertError, StationTable};
use alloc::vec::Vec;

/// The airtime DRR (or round-robin) scheduler of one radio.
pub struct AirtimeScheduler {
    pub(super) params: AirtimeParams,
    /// TXQs by index; a removed TXQ's slot is reused (`free_txqs`), so the table is as
    /// long as the most TXQs registered at once.
    pub(super) txqs: Vec<Txq>,
    /// Slots of removed TXQs, reused last-freed first.
    pub(super) free_txqs: Vec<u32>,
    /// Stations, found by id in O(1) as mac80211's `sta` pointer; TXQs hold their
    /// station's slot.
    pub(super) stations: StationTable<StationAirtime>,
    /// Per lane (AC; station-first mode uses one), the root list.
    pub(super) lists: [TxqList; Ac::COUNT],
    /// Current round per lane (never 0, which marks a TXQ never served).
    pub(super) rounds: [u16; Ac::COUNT],
    /// The PHY's AQL gate refused the current round of the lane: it hands out nothing.
    /// A flag rather than mac80211's round number 0, which would restart the count at
    /// 1 and make a TXQ last served in an old round 1 look already served — a round
    /// ending at once, for good if nothing is in flight to start another.
    pub(super) refused: [bool; Ac::COUNT],
    /// Groups by index; a removed group's slot is reused (`free_groups`), so the table
    /// is as long as the most groups that existed at once.
    pub(super) groups: Vec<Group>,
    /// Slots of removed groups, reused last-freed first.
    pub(super) free_groups: Vec<u32>,
    pub(super) live_groups: u32,
    /// Summed weights of the root's members (ungrouped stations, top-level groups).
    pub(super) root_member_weight_us: u64,
    /// Whether lists may hold nodes other than TXQs — a group exists, or station-first
    /// mode — so the DRR runs its instance for the hierarchy (`drr.rs`).
    pub(super) tree: bool,
    /// TXQs listed per AC, at every level (mac80211's `num_txq`, which the PHY's AQL
    /// gate is told).
    pub(super) listed_txqs: [u32; Ac::COUNT],
    /// Station-first mode: the ACs the PHY gate allowed at the start of the round.
    pub(super) phy_allowed: [bool; Ac::COUNT],
    /// Whether `next_txq` skips the passes that would only refill (`pass_skip.rs`).
    /// Tests turn it off to compare with mac80211's loop, one quantum per visit.
    #[cfg(test)]
    pub(super) pass_skip: bool,
    /// Tests lower the most TXQs and groups at once, to reach the limits.
    #[cfg(test)]
    pub(super) test_capacity: Option<u32>,
}

impl AirtimeScheduler {
    /// Most TXQs that can exist at once: a TXQ's index is a list entry, whose top two
    /// bits tag stations and groups (`node.rs`).
    pub const MAX_TXQS: u32 = super::node::MAX_ENTRY_INDEX + 1;

    ///
    /// Contract: parameters that [`validate`](AirtimeParams::validate) (rule 1).
    pub fn new(params: AirtimeParams) -> Result<Self, SchedError> {
        params.validate()?;
        Ok(AirtimeScheduler {
            params,
            txqs: Vec::new(),
            free_txqs: Vec::new(),
            stations: StationTable::new(),
            lists: Default::default(),
            rounds: [0; Ac::COUNT],
            refused: [true; Ac::COUNT],
            groups: Vec::new(),
            free_groups: Vec::new(),
            live_groups: 0,
            root_member_weight_us: 0,
            tree: params.mode == SchedulingMode::StationFirst,
            listed_txqs: [0; Ac::COUNT],
            phy_allowed: [false; Ac::COUNT],
            #[cfg(test)]
            pass_skip: true,
            #[cfg(test)]
            test_capacity: None,
        })
    }

    pub fn params(&self) -> &AirtimeParams {
        &self.params
    }

    /// Registers a station with the default weight, at the root (in no group); its
    /// deficit starts at the weight.
    ///
    /// Contract: an id at most [`StationId::MAX`], not registered (rule 2).
    pub fn add_station(&mut self, id: StationId) -> Result<(), SchedError> {
        let weight_us = self.params.default_weight_us;
        let station = StationAirtime::new(id, weight_us);
        match self.stations.insert(id, station) {
            Ok(_) => {
                self.add_member(None, weight_us);
                self.refresh_limits();
                Ok(())
            }
            Err(InsertError::IdTooLarge) => Err(SchedError::StationIdOutOfRange(id)),
            Err(InsertError::Duplicate) => Err(SchedError::DuplicateStation(id)),
        }
    }

    /// Removes a station and unschedules its TXQs, which cease to exist (their ids are
    /// refused from now on, their slots reused). O(its TXQs).
    ///
    /// Contract: a registered station (rule 3).
    pub fn remove_station(&mut self, id: StationId) -> Result<(), SchedError> {
        let slot = self.slot(id)?;
        for i in core::mem::take(&mut self.station_mut(slot).txqs) {
            self.txq_unlink(self.txq_id(i));
            self.retire_txq(i);
        }
        if let Some(station) = self.stations.remove(id) {
            self.remove_member(station.group, station.weight_us);
            self.refresh_limits();
        }
        Ok(())
    }

    /// Sets a station's weight: its long-run airtime share is proportional to it
    /// (`iw … station set … airtime_weight`).
    ///
    /// Contract: a registered station (rule 3); a weight of 1 to
    /// [`AirtimeParams::MAX_WEIGHT_US`] µs (rule 6).
    pub fn set_weight(&mut self, id: StationId, weight_us: u32) -> Result<(), SchedError> {
        check_weight(weight_us)?;
        let slot = self.slot(id)?;
        let station = self.station_mut(slot);
        let (group, old) = (station.group, station.weight_us);
        station.weight_us = weight_us;
        self.remove_member(group, old);
        self.add_member(group, weight_us);
        self.refresh_limits();
        Ok(())
    }

    /// Creates the TXQ of `station` (or of the interface, for multicast, if `None`) and
    /// `tid`, in the TID's access category. It starts unscheduled. Reuses the slot of a
    /// removed TXQ if there is one.
    ///
    /// Contract: a registered station, or `None` (rule 3); fewer than
    /// [`MAX_TXQS`](Self::MAX_TXQS) TXQs (rule 5).
    pub fn add_txq(&mut self, station: Option<StationId>, tid: Tid) -> Result<TxqId, SchedError> {
        let slot = station.map(|id| self.slot(id)).transpose()?;
        let index = match self.free_txqs.last() {
            Some(&index) => index,
            None if self.txqs.len() >= self.capacity(Self::MAX_TXQS) => {
                return Err(SchedError::TooManyTxqs)
            }
            None => self.txqs.len() as u32,
        };
        let txq = Txq {
            station: slot,
            tid,
            ac: tid.ac(),
            schedule_round: 0,
            links: Links::default(),
            live: true,
            generation: 0,
            eligible: false,
        };
        if let Some(t) = self.txqs.get_mut(index as usize) {
            self.free_txqs.pop();
            *t = Txq {
                generation: t.generation,
                ..txq
            };
        } else {
            self.txqs.push(txq);
        }
        if let Some(slot) = slot {
            self.station_mut(slot).txqs.push(index);
        }
        Ok(self.txq_id(index))
    }

    /// Removes a TXQ (e.g. an interface's, when the interface goes), unscheduling it.
    /// Its id is refused from now on; its slot is reused. A station's TXQs are also
    /// removed with the station.
    ///
    /// Contract: a live TXQ (rule 4).
    pub fn remove_txq(&mut self, txq: TxqId) -> Result<(), SchedError> {
        let station = self.txq(txq)?.station;
        self.txq_unlink(txq);
        if let Some(slot) = station {
            let txqs = &mut self.station_mut(slot).txqs;
            txqs.retain(|&i| i != txq.index);
        }
        self.retire_txq(txq.index);
        Ok(())
    }

    /// Frees an unlinked TXQ's slot for reuse, and its id for good.
    fn retire_txq(&mut self, index: u32) {
        let t = &mut self.txqs[index as usize];
        debug_assert!(t.live && !t.links.listed);
        t.live = false;
        t.generation = t.generation.wrapping_add(1);
        self.free_txqs.push(index);
    }

    /// TXQs that exist (registered and not removed).
    pub fn txq_count(&self) -> usize {
        self.txqs.len() - self.free_txqs.len()
    }

    /// Slots of the TXQ table: the most TXQs that have existed at once. Stays flat
    /// while stations come and go (the slots of removed TXQs are reused).
    pub fn txq_slots(&self) -> usize {
        self.txqs.len()
    }

    /// Starts a scheduling round in `ac` (`ieee80211_txq_schedule_start`): the round
    /// number advances (skipping 0); if the PHY's AQL budget for the AC does not allow,
    /// [`next_txq`](Self::next_txq) hands out nothing this round.
    /// Station-first mode starts its rounds with
    /// [`schedule_start_any`](Self::schedule_start_any) instead; this does nothing.
    ///
    /// Contract: none; any gate (rule 11).
    pub fn schedule_start(&mut self, ac: Ac, gate: &mut impl AirtimeGate) {
        if self.params.mode == SchedulingMode::StationFirst {
            return;
        }
        let active_txqs = self.listed_txqs[ac.index()];
        let round = &mut self.rounds[ac.index()];
        *round = round.wrapping_add(1).max(1);
        self.refused[ac.index()] = !gate.phy_may_schedule(ac, active_txqs);
    }

    /// The TXQ at the head of `ac`'s list, the first that [`next_txq`](Self::next_txq)
    /// looks at, without handing it out; `None` if the list is empty, in station-first
    /// mode, or when the head is a group. For a driver that ends its round at a TXQ it
    /// has no room for and leaves that TXQ first, as ath9k's round robin did in Linux
    /// 4.11–4.20 (`ath_txq_schedule` takes `list_first_entry(tid_list, …)` and, when
    /// `ath_tx_sched_aggr` finds the hardware queue full, returns without moving it).
    ///
    /// Contract: none.
    pub fn head_txq(&self, ac: Ac) -> Option<TxqId> {
        if self.params.mode == SchedulingMode::StationFirst {
            return None;
        }
        let entry = self.lists[ac.index()].head_entry()?;
        match super::node::Node::from_entry(entry) {
            super::node::Node::Txq(i) => Some(self.txq_id(i)),
            _ => None,
        }
    }

    /// Whether the current round of `ac` may hand out TXQs: the PHY's AQL gate allowed
    /// it at [`schedule_start`](Self::schedule_start).
    pub fn round_allowed(&self, ac: Ac) -> bool {
        !self.refused[self.lane(ac).index()]
    }

    /// Airtime statistics of a station.
    ///
    /// Contract: a registered station (rule 3).
    pub fn station_stats(&self, id: StationId) -> Result<StationAirtimeStats, SchedError> {
        let s = self.station(self.slot(id)?);
        let lane = |ac: Ac| &s.ac[self.lane(ac).index()];
        Ok(StationAirtimeStats {
            station: s.id,
            weight_us: s.weight_us,
            tx_airtime_us: s.ac.map(|a| a.tx_airtime_us),
            rx_airtime_us: s.ac.map(|a| a.rx_airtime_us),
            deficit_us: Ac::ALL.map(|ac| lane(ac).deficit.us),
            refills: Ac::ALL.map(|ac| lane(ac).deficit.refills),
        })
    }

    /// TXQs listed in `ac`: what the per-AC PHY gate is told (mac80211's `num_txq`).
    pub(super) fn active_txq_count(&self, ac: Ac) -> u32 {
        self.listed_txqs[ac.index()]
    }

    /// The lane that schedules `ac`: itself, or the one lane of station-first mode.
    #[inline]
    pub(super) fn lane(&self, ac: Ac) -> Ac {
        match self.params.mode {
            SchedulingMode::PerAc => ac,
            SchedulingMode::StationFirst => STATION_FIRST_LANE,
        }
    }

    /// The lanes lists are kept in.
    pub(super) fn lanes_in_use(&self) -> &'static [Ac] {
        match self.params.mode {
            SchedulingMode::PerAc => &Ac::ALL,
            SchedulingMode::StationFirst => &[STATION_FIRST_LANE],
        }
    }

    /// Switches to the DRR's instance for the hierarchy when the first group appears.
    /// The root lists hold only TXQs so far; they stay as they are.
    pub(super) fn enter_tree(&mut self) {
        self.tree = true;
    }

    /// Switches back to the DRR's flat instance when the last group goes (per-AC mode):
    /// with no group, the root lists hold only TXQs again.
    pub(super) fn leave_tree_if_flat(&mut self) {
        if self.live_groups == 0 && self.params.mode == SchedulingMode::PerAc {
            self.tree = false;
        }
    }

    /// The station and TID of a TXQ (`None` station: an interface TXQ).
    ///
    /// Contract: a live TXQ (rule 4).
    pub fn txq_owner(&self, txq: TxqId) -> Result<(Option<StationId>, Tid), SchedError> {
        let t = self.txq(txq)?;
        Ok((t.station.map(|slot| self.station(slot).id), t.tid))
    }

    pub(super) fn txq(&self, txq: TxqId) -> Result<&Txq, SchedError> {
        match self.txqs.get(txq.index()) {
            Some(t) if t.live && t.generation == txq.generation => Ok(t),
            _ => Err(SchedError::UnknownTxq(txq.index)),
        }
    }

    /// `limit` (of TXQs or groups at once), or the lower one a test set.
    #[inline]
    pub(super) fn capacity(&self, limit: u32) -> usize {
        #[cfg(test)]
        if let Some(capacity) = self.test_capacity {
            return capacity.min(limit) as usize;
        }
        limit as usize
    }

    /// The id of the TXQ in slot `index`.
    #[inline]
    pub(super) fn txq_id(&self, index: u32) -> TxqId {
        TxqId {
            index,
            generation: self.txqs[index as usize].generation,
        }
    }

    #[inline]
    pub(super) fn slot(&self, id: StationId) -> Result<u32, SchedError> {
        self.stations.slot(id).ok_or(SchedError::UnknownStation(id))
    }

    #[inline]
    pub(super) fn station(&self, slot: u32) -> &StationAirtime {
        self.stations.at(slot)
    }

    #[inline]
    pub(super) fn station_mut(&mut self, slot: u32) -> &mut StationAirtime {
        self.stations.at_mut(slot)
    }
}
