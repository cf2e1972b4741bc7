//! The scheduler itself: registration, rounds, `next_txq`, `return_txq`,
//! `may_transmit` and airtime charging.
//!
//! This file is mac80211's flat scheduler, whose walk skips the passes that would only
//! refill deficits (`pass_skip.rs`). Once a group exists, or in station-first mode,
//! the calls that walk the lists hand over to the hierarchical code of `tree.rs`, which
//! applies the same rules at every level.

use super::group::Group;
use super::node::Node;
use super::station::{StationAirtime, StationAirtimeStats};
use super::station_first::STATION_FIRST_LANE;
use super::txq::{Txq, TxqId};
use super::txq_list::{Links, TxqList};
use super::{check_weight, AirtimeGate, AirtimeParams, SchedError, SchedulingMode};
use crate::ids::{Ac, StationId, Tid};
use crate::station_table::{InsertError, StationTable};
use crate::time::Instant;
use alloc::vec::Vec;

/// `next_txq`'s walk stopped at the end of a pass that only refilled deficits.
struct PassesToSkip;

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
    /// Groups by index; removed ones stay, dead, so that identifiers are not reused.
    pub(super) groups: Vec<Group>,
    pub(super) live_groups: u32,
    /// Summed weights of the root's members (ungrouped stations, top-level groups).
    pub(super) root_member_weight_us: u64,
    /// Whether the hierarchical code runs: a group exists, or station-first mode.
    pub(super) tree: bool,
    /// In the hierarchy, TXQs listed per AC (mac80211's `num_txq`; the flat code
    /// takes its lists' lengths).
    pub(super) listed_txqs: [u32; Ac::COUNT],
    /// Station-first mode: the ACs the PHY gate allowed at the start of the round.
    pub(super) phy_allowed: [bool; Ac::COUNT],
    /// Whether `next_txq` skips the passes that would only refill (`pass_skip.rs`).
    /// Tests turn it off to compare with mac80211's loop, one quantum per visit.
    #[cfg(test)]
    pub(super) pass_skip: bool,
}

impl AirtimeScheduler {
    /// Most TXQs that can exist at once: a TXQ's index is a list entry, whose top two
    /// bits tag stations and groups (`node.rs`).
    pub const MAX_TXQS: u32 = super::node::MAX_ENTRY_INDEX + 1;

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
            live_groups: 0,
            root_member_weight_us: 0,
            tree: params.mode == SchedulingMode::StationFirst,
            listed_txqs: [0; Ac::COUNT],
            phy_allowed: [false; Ac::COUNT],
            #[cfg(test)]
            pass_skip: true,
        })
    }

    pub fn params(&self) -> &AirtimeParams {
        &self.params
    }

    /// Registers a station with the default weight, at the root (in no group); its
    /// deficit starts at the weight.
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
    pub fn remove_station(&mut self, id: StationId) -> Result<(), SchedError> {
        let slot = self.slot(id)?;
        for i in core::mem::take(&mut self.station_mut(slot).txqs) {
            self.unlink(self.txq_id(i));
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
    /// Contract: `station` is registered ([`SchedError::UnknownStation`]); at most
    /// [`MAX_TXQS`](Self::MAX_TXQS) TXQs exist at once ([`SchedError::TooManyTxqs`]).
    pub fn add_txq(&mut self, station: Option<StationId>, tid: Tid) -> Result<TxqId, SchedError> {
        let slot = station.map(|id| self.slot(id)).transpose()?;
        let index = match self.free_txqs.last() {
            Some(&index) => index,
            None if self.txqs.len() >= Self::MAX_TXQS as usize => {
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
    pub fn remove_txq(&mut self, txq: TxqId) -> Result<(), SchedError> {
        let station = self.txq(txq)?.station;
        self.unlink(txq);
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
    pub fn schedule_start(&mut self, ac: Ac, gate: &mut impl AirtimeGate) {
        let active_txqs = if self.tree {
            if self.params.mode == SchedulingMode::StationFirst {
                return;
            }
            self.listed_txqs[ac.index()]
        } else {
            self.lists[ac.index()].len()
        };
        let round = &mut self.rounds[ac.index()];
        *round = round.wrapping_add(1).max(1);
        self.refused[ac.index()] = !gate.phy_may_schedule(ac, active_txqs);
    }

    /// Whether the current round of `ac` may hand out TXQs: the PHY's AQL gate allowed
    /// it at [`schedule_start`](Self::schedule_start).
    pub fn round_allowed(&self, ac: Ac) -> bool {
        !self.refused[self.lane(ac).index()]
    }

    /// The next TXQ the driver should serve in `ac`, which it then owns until
    /// [`return_txq`](Self::return_txq); `None` when nothing is eligible in this round
    /// (`ieee80211_next_txq`). In station-first mode, always `None`: the driver asks
    /// [`next_txq_any`](Self::next_txq_any).
    #[inline]
    pub fn next_txq(&mut self, ac: Ac, gate: &mut impl AirtimeGate, now: Instant) -> Option<TxqId> {
        let round = self.rounds[ac.index()];
        if self.refused[ac.index()] {
            return None;
        }
        if self.tree {
            return self.tree_next_txq(ac, gate, now, round);
        }
        match self.flat_walk(ac, gate, now, round) {
            Ok(txq) => txq,
            Err(PassesToSkip) => self.flat_skip_and_walk(ac, gate, now, round),
        }
    }

    /// mac80211's loop (`ieee80211_next_txq`) over the list of `ac`: until it hands a
    /// TXQ out or ends, or until a pass ends in which nothing was handed out although
    /// someone who may send was refilled. Then passes that would only refill may
    /// follow, which the caller skips (`pass_skip.rs`): with no call in it, and as few
    /// variables as mac80211's, the loop keeps the scheduler's tables in registers.
    #[inline(always)]
    fn flat_walk<G: AirtimeGate>(
        &mut self,
        ac: Ac,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Result<Option<TxqId>, PassesToSkip> {
        let fairness = self.params.fairness;
        let mut first = None;
        let mut found_eligible = false;
        loop {
            let Some(index) = self.lists[ac.index()].head_entry() else {
                return Ok(None);
            };
            if first == Some(index) {
                // A full pass: stop unless someone was held back only by its deficit,
                // which the pass has refilled.
                if !found_eligible {
                    return Ok(None);
                }
                return Err(PassesToSkip);
            }
            first.get_or_insert(index);
            let mut eligible = true;
            let txq = &mut self.txqs[index as usize];
            if let Some(slot) = txq.station {
                let station = self.stations.at_mut(slot);
                eligible = gate.station_may_dequeue(station.id, ac, now);
                txq.eligible = eligible;
                found_eligible |= eligible;
                if fairness && station.owes(ac, gate.pending_us(station.id, ac).into()) {
                    station.refill(ac);
                    eligible = false;
                }
            } else {
                found_eligible = true;
            }
            if !eligible {
                self.lists[ac.index()].move_entry_to_tail(&mut self.txqs[..], index);
                continue;
            }
            let txq = &mut self.txqs[index as usize];
            if txq.schedule_round == round {
                return Ok(None);
            }
            txq.schedule_round = round;
            let generation = txq.generation;
            self.lists[ac.index()].remove_entry(&mut self.txqs[..], index);
            return Ok(Some(TxqId { index, generation }));
        }
    }

    /// `next_txq` at the end of a pass that handed nothing out although it refilled
    /// someone who may send: skips the passes that would only refill, if any, and walks
    /// on.
    #[cold]
    #[inline(never)]
    fn flat_skip_and_walk<G: AirtimeGate>(
        &mut self,
        ac: Ac,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Option<TxqId> {
        loop {
            self.skip_passes(self.lists[ac.index()], ac, gate);
            if let Ok(txq) = self.flat_walk(ac, gate, now, round) {
                return txq;
            }
        }
    }

    /// Hands a TXQ back, or schedules one that just got data (`ieee80211_return_txq` /
    /// `ieee80211_schedule_txq`). `has_queue` is whether it holds packets the driver may
    /// send (or `force`). An unlisted TXQ is listed if it has data — at the head when
    /// airtime fairness and `sparse_first` are on, so a newly active station is served
    /// first — or, empty,
    /// if its station was active within the window and may still owe airtime.
    pub fn return_txq(
        &mut self,
        txq: TxqId,
        has_queue: bool,
        now: Instant,
    ) -> Result<(), SchedError> {
        let t = self.txq(txq)?;
        if t.links.listed {
            // Kept listed while empty, it has data again: station-first mode serves a
            // station's TXQs with data first, so it must know (a station served only
            // its empty TXQs starves).
            if has_queue && self.tree {
                self.mark_queued(txq, true);
            }
            return Ok(());
        }
        let (ac, station) = (t.ac, t.station);
        let keep_active = || {
            station.is_some_and(|slot| {
                self.station(slot)
                    .keep_active(ac, now, self.params.active_window)
            })
        };
        if !has_queue && !keep_active() {
            return Ok(());
        }
        let front =
            station.is_some() && self.params.fairness && self.params.sparse_first && has_queue;
        if self.tree {
            self.tree_link(Node::Txq(txq.index), self.lane(ac), front);
            self.mark_queued(txq, has_queue);
        } else {
            let list = &mut self.lists[ac.index()];
            if front {
                list.push_front(&mut self.txqs, txq);
            } else {
                list.push_back(&mut self.txqs, txq);
            }
        }
        if has_queue {
            if let Some(slot) = station {
                self.station_mut(slot).ac[ac.index()].last_active = Some(now);
            }
        }
        Ok(())
    }

    /// Removes a TXQ from scheduling (e.g. its queue was purged).
    pub fn unschedule(&mut self, txq: TxqId) -> Result<(), SchedError> {
        self.txq(txq)?;
        self.unlink(txq);
        Ok(())
    }

    /// For push-pull drivers whose firmware asks for a given TXQ
    /// (`ieee80211_txq_may_transmit`): whether it may send now. TXQs ahead of it are
    /// rotated behind it, refilling those in deficit. A TXQ allowed to send is unlisted,
    /// as after `next_txq`; one refused is refilled and moved to the back.
    ///
    /// With groups, the same happens at every level above the TXQ, and it is refused
    /// if any group above it is in deficit. `Limit` groups' wall-time caps need the
    /// time: use [`may_transmit_at`](Self::may_transmit_at) to enforce them too.
    pub fn may_transmit(
        &mut self,
        txq: TxqId,
        gate: &mut impl AirtimeGate,
    ) -> Result<bool, SchedError> {
        if self.tree {
            return self.tree_may_transmit(txq, gate, None);
        }
        let t = self.txq(txq)?;
        let (ac, station) = (t.ac, t.station);
        let allowed = match station {
            _ if !t.links.listed => true,
            None => true,
            Some(_) if !gate.phy_may_schedule(ac, self.lists[ac.index()].len()) => true,
            Some(slot) => {
                while let Some(ahead) = self.lists[ac.index()].head_entry() {
                    let ahead = self.txq_id(ahead);
                    if ahead == txq {
                        break;
                    }
                    if let Some(s) = self.txqs[ahead.index()].station {
                        self.refill_if_owing(s, ac, gate);
                    }
                    self.lists[ac.index()].move_to_tail(&mut self.txqs, ahead);
                }
                let station = self.station_mut(slot);
                if station.ac[ac.index()].deficit_us >= 0 {
                    true
                } else {
                    station.refill(ac);
                    self.lists[ac.index()].move_to_tail(&mut self.txqs, txq);
                    false
                }
            }
        };
        if allowed {
            self.unlink(txq);
        }
        Ok(allowed)
    }

    /// [`may_transmit`](Self::may_transmit) that also holds `Limit` groups to their
    /// wall-time caps at `now`.
    pub fn may_transmit_at(
        &mut self,
        txq: TxqId,
        gate: &mut impl AirtimeGate,
        now: Instant,
    ) -> Result<bool, SchedError> {
        if self.tree {
            return self.tree_may_transmit(txq, gate, Some(now));
        }
        self.may_transmit(txq, gate)
    }

    /// Charges airtime the driver measured for `station` on `tid`
    /// (`ieee80211_sta_register_airtime`): both always count in the statistics; the
    /// deficit is charged with what the TX/RX flags select, and only while the station
    /// is active, so an idle station does not go into debt. The same charge goes to
    /// every group above the station, and to the wall-time credit of `Limit` ones.
    pub fn register_airtime(
        &mut self,
        station: StationId,
        tid: Tid,
        tx_airtime_us: u32,
        rx_airtime_us: u32,
        now: Instant,
    ) -> Result<(), SchedError> {
        if self.tree {
            return self.tree_register_airtime(station, tid, tx_airtime_us, rx_airtime_us, now);
        }
        let slot = self.slot(station)?;
        self.charge_station(slot, tid, tx_airtime_us, rx_airtime_us, now, tid.ac());
        Ok(())
    }

    /// `register_airtime` for one station: statistics, and the charge to its deficit
    /// in `lane`, which it returns (`None`: nothing charged).
    #[inline(always)]
    pub(super) fn charge_station(
        &mut self,
        slot: u32,
        tid: Tid,
        tx_airtime_us: u32,
        rx_airtime_us: u32,
        now: Instant,
        lane: Ac,
    ) -> Option<u64> {
        let p = self.params;
        let station = self.station_mut(slot);
        let ac = tid.ac();
        let active = station.keep_active(ac, now, p.active_window);
        let a = &mut station.ac[ac.index()];
        a.tx_airtime_us += u64::from(tx_airtime_us);
        a.rx_airtime_us += u64::from(rx_airtime_us);
        let charge = u64::from(if p.use_tx { tx_airtime_us } else { 0 })
            + u64::from(if p.use_rx { rx_airtime_us } else { 0 });
        if p.fairness && active {
            // At most 2^33 µs: exact in the 64-bit deficit.
            let d = &mut station.ac[lane.index()].deficit_us;
            *d = d.saturating_sub(charge as i64);
            return Some(charge);
        }
        None
    }

    /// Airtime statistics of a station.
    pub fn station_stats(&self, id: StationId) -> Result<StationAirtimeStats, SchedError> {
        let s = self.station(self.slot(id)?);
        let lane = |ac: Ac| &s.ac[self.lane(ac).index()];
        Ok(StationAirtimeStats {
            station: s.id,
            weight_us: s.weight_us,
            tx_airtime_us: s.ac.map(|a| a.tx_airtime_us),
            rx_airtime_us: s.ac.map(|a| a.rx_airtime_us),
            deficit_us: Ac::ALL.map(|ac| lane(ac).deficit_us),
            refills: Ac::ALL.map(|ac| lane(ac).refills),
        })
    }

    /// The TXQs scheduled in `ac`, in list order (with groups: depth first, each
    /// group's TXQs where the group stands in its parent's list).
    pub fn active_txqs(&self, ac: Ac) -> impl Iterator<Item = TxqId> + '_ {
        let txqs: Vec<TxqId> = if self.tree {
            self.tree_active_txqs(ac)
        } else {
            self.lists[ac.index()].iter(&self.txqs).collect()
        };
        txqs.into_iter()
    }

    /// TXQs listed in `ac`: what the per-AC PHY gate is told (mac80211's `num_txq`).
    pub(super) fn active_txq_count(&self, ac: Ac) -> u32 {
        if self.tree {
            self.listed_txqs[ac.index()]
        } else {
            self.lists[ac.index()].len()
        }
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

    /// Switches to the hierarchical code when the first group appears. The root lists
    /// hold only TXQs so far; they stay as they are.
    pub(super) fn enter_tree(&mut self) {
        if !self.tree {
            self.tree = true;
            self.listed_txqs = self.lists.map(|l| l.len());
        }
    }

    /// Switches back to the flat code when the last group goes (per-AC mode): with no
    /// group, the root lists hold only TXQs again.
    pub(super) fn leave_tree_if_flat(&mut self) {
        if self.live_groups == 0 && self.params.mode == SchedulingMode::PerAc {
            self.tree = false;
        }
    }

    /// The station and TID of a TXQ (`None` station: an interface TXQ).
    pub fn txq_owner(&self, txq: TxqId) -> Result<(Option<StationId>, Tid), SchedError> {
        let t = self.txq(txq)?;
        Ok((t.station.map(|slot| self.station(slot).id), t.tid))
    }

    fn refill_if_owing(&mut self, slot: u32, ac: Ac, gate: &impl AirtimeGate) {
        if !self.params.fairness {
            return;
        }
        let station = self.station_mut(slot);
        if station.owes(ac, gate.pending_us(station.id, ac).into()) {
            station.refill(ac);
        }
    }

    pub(super) fn unlink(&mut self, txq: TxqId) {
        let t = &self.txqs[txq.index()];
        if t.links.listed {
            let ac = t.ac;
            if self.tree {
                self.tree_unlink(Node::Txq(txq.index), self.lane(ac));
            } else {
                self.lists[ac.index()].remove(&mut self.txqs, txq);
            }
        }
    }

    pub(super) fn txq(&self, txq: TxqId) -> Result<&Txq, SchedError> {
        match self.txqs.get(txq.index()) {
            Some(t) if t.live && t.generation == txq.generation => Ok(t),
            _ => Err(SchedError::UnknownTxq(txq.index)),
        }
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
