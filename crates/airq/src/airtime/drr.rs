//! The airtime DRR: mac80211's `ieee80211_next_txq`, `__ieee80211_schedule_txq` /
//! `ieee80211_return_txq`, `ieee80211_txq_may_transmit` (`net/mac80211/tx.c`) and
//! `ieee80211_sta_register_airtime` (`sta_info.c`), written once for every level of the
//! hierarchy (the algorithm is described in the [`airtime`](super) module
//! documentation).
//!
//! A list is walked with mac80211's loop: the head entry is checked; one that may not
//! send now is refilled if in deficit and moved to the tail; a pass that comes back to
//! its first entry without having seen anyone who could send ends the walk, and one
//! after which only more refills could serve anyone is followed by skipping the passes
//! that would only refill (`pass_skip.rs`). An entry is a TXQ (mac80211's case), a group
//! — walked into, with the same loop, when it has credit — or, in station-first mode, a
//! station, which offers its highest-priority TXQ.
//!
//! The functions that walk or link lists are generic over `H`: whether the lists may
//! hold nodes other than TXQs. While no group exists, in per-AC mode, they do not, and
//! the scheduler calls the `H = false` instance: the same code, with the decoding of
//! list entries and the climb to parent lists compiled out, which is mac80211's flat
//! scheduler (and as fast). A walk of a root list holding only TXQs makes the same
//! choices in either instance: stations in no group are scheduled as without groups.
//!
//! Functions are named for the noun they act on: `txq_`, `station_`, `group_`,
//! `node_` (any of them), `list_`.

use super::group::GroupMode;
use super::node::{Node, Owner, TreeArena, TreeView};
use super::scheduler::AirtimeScheduler;
use super::station_first::STATION_FIRST_LANE;
use super::txq::TxqId;
use super::txq_list::{LinkArena, TxqList};
use super::{AirtimeGate, SchedError, SchedulingMode, MAX_GROUP_DEPTH};
use crate::ids::{Ac, StationId, Tid};
use crate::time::Instant;
use alloc::vec::Vec;

/// What the walk of one list found.
pub(super) enum Pick {
    Found(TxqId),
    /// The TXQ due next was already handed out this round: the round is over.
    RoundOver,
    /// Nobody below this list may send now.
    Blocked,
}

impl Pick {
    pub(super) fn txq(self) -> Option<TxqId> {
        match self {
            Pick::Found(txq) => Some(txq),
            Pick::RoundOver | Pick::Blocked => None,
        }
    }
}

/// What to do with the head of a list.
enum Visit {
    /// Not now: to the tail.
    Skip,
    /// Hand out this TXQ, unless it was handed out this round already.
    Take(u32),
    /// Walk this group's list.
    Descend(u32),
}

/// The walk of a list stopped at the end of a pass that only refilled deficits.
struct PassesToSkip;

/// Station-first mode: the airtime a station has pending in all ACs, which its one
/// deficit must cover.
pub(super) fn pending_all_acs<G: AirtimeGate>(gate: &G, station: StationId) -> u64 {
    Ac::ALL
        .iter()
        .map(|&ac| u64::from(gate.pending_us(station, ac)))
        .sum()
}

impl AirtimeScheduler {
    /// The next TXQ the driver should serve in `ac`, which it then owns until
    /// [`return_txq`](Self::return_txq); `None` when nothing is eligible in this round
    /// (`ieee80211_next_txq`). In station-first mode, always `None`: the driver asks
    /// [`next_txq_any`](Self::next_txq_any).
    ///
    /// Contract: none, beyond a gate that answers the same within the call (rule 11);
    /// any `now` (rule 12).
    #[inline]
    pub fn next_txq(&mut self, ac: Ac, gate: &mut impl AirtimeGate, now: Instant) -> Option<TxqId> {
        let round = self.rounds[ac.index()];
        if self.refused[ac.index()] {
            return None;
        }
        if self.tree {
            if self.params.mode == SchedulingMode::StationFirst {
                return None;
            }
            return self
                .list_select_tree(Owner::Root(ac), gate, now, round)
                .txq();
        }
        self.list_select::<false, _>(Owner::Root(ac), gate, now, round)
            .txq()
    }

    /// [`list_select`](Self::list_select) of the hierarchy, out of line so that the
    /// flat instance, mac80211's case, stays as small as without groups.
    #[inline(never)]
    pub(super) fn list_select_tree<G: AirtimeGate>(
        &mut self,
        owner: Owner,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Pick {
        self.list_select::<true, G>(owner, gate, now, round)
    }

    /// `next_txq` on one list: mac80211's loop, then, while passes would only refill,
    /// skips them and walks on.
    #[inline]
    fn list_select<const H: bool, G: AirtimeGate>(
        &mut self,
        owner: Owner,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Pick {
        match self.list_walk::<H, G>(owner, gate, now, round) {
            Ok(pick) => pick,
            Err(PassesToSkip) => self.list_skip_and_walk::<H, G>(owner, gate, now, round),
        }
    }

    #[cold]
    #[inline(never)]
    fn list_skip_and_walk<const H: bool, G: AirtimeGate>(
        &mut self,
        owner: Owner,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Pick {
        loop {
            self.skip_passes(self.list_of(owner), owner.lane(), gate);
            if let Ok(pick) = self.list_walk::<H, G>(owner, gate, now, round) {
                return pick;
            }
        }
    }

    /// mac80211's loop (`ieee80211_next_txq`) over one list: until it hands a TXQ out
    /// or ends, or until a pass ends in which nothing was handed out although someone
    /// who may send was refilled — then passes that would only refill may follow, which
    /// the caller skips. A group with credit is walked into (at most
    /// [`MAX_GROUP_DEPTH`] deep). The list is worked on in a local copy, stored back
    /// before anything else may touch it.
    #[inline(always)]
    fn list_walk<const H: bool, G: AirtimeGate>(
        &mut self,
        owner: Owner,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Result<Pick, PassesToSkip> {
        let lane = owner.lane();
        let mut list = self.list_of(owner);
        let mut first = None;
        let mut found_eligible = false;
        loop {
            // Rotations keep a list non-empty: only the first look can find it empty.
            let Some(entry) = list.head_entry() else {
                return Ok(Pick::Blocked);
            };
            if first == Some(entry) {
                // A full pass: stop unless someone was held back only by a deficit,
                // which the pass has refilled.
                self.set_list(owner, list);
                return if found_eligible {
                    Err(PassesToSkip)
                } else {
                    Ok(Pick::Blocked)
                };
            }
            first.get_or_insert(entry);
            let visit = match Node::of::<H>(entry) {
                Node::Txq(i) => self.txq_visit::<H, G>(i, gate, now, &mut found_eligible),
                Node::Station(s) => self.station_visit(s, gate, now, &mut found_eligible),
                Node::Group(g) => self.group_visit(g, lane, now, &mut found_eligible),
            };
            match visit {
                Visit::Skip => list.move_entry_to_tail(&mut self.arena::<H>(lane), entry),
                Visit::Take(i) => {
                    self.set_list(owner, list);
                    let txq = &mut self.txqs[i as usize];
                    if txq.schedule_round == round {
                        return Ok(Pick::RoundOver);
                    }
                    txq.schedule_round = round;
                    let ac = txq.ac;
                    // Flat lists are per AC: the TXQ's lane is the list's.
                    let lane = if H { self.lane(ac) } else { lane };
                    self.node_unlink::<H>(Node::Txq(i), lane);
                    return Ok(Pick::Found(self.txq_id(i)));
                }
                Visit::Descend(g) => {
                    self.set_list(owner, list);
                    match self.list_select_tree(Owner::Group(g, lane), gate, now, round) {
                        Pick::Blocked => {
                            list = self.list_of(owner);
                            list.move_entry_to_tail(&mut self.arena::<H>(lane), entry);
                        }
                        pick => return Ok(pick),
                    }
                }
            }
        }
    }

    /// A TXQ on a list: mac80211's per-TXQ rule (per-AC mode, or an interface TXQ).
    #[inline(always)]
    fn txq_visit<const H: bool, G: AirtimeGate>(
        &mut self,
        i: u32,
        gate: &mut G,
        now: Instant,
        found_eligible: &mut bool,
    ) -> Visit {
        let t = &mut self.txqs[i as usize];
        let ac = t.ac;
        let Some(slot) = t.station else {
            // Interface TXQs are never throttled, but in station-first mode the round
            // may have been refused for their AC.
            if H && self.params.mode == SchedulingMode::StationFirst
                && !self.phy_allowed[ac.index()]
            {
                return Visit::Skip;
            }
            *found_eligible = true;
            return Visit::Take(i);
        };
        let fairness = self.params.fairness;
        let station = self.stations.at_mut(slot);
        let mut eligible = gate.station_may_dequeue(station.id, ac, now);
        t.eligible = eligible;
        *found_eligible |= eligible;
        let pending_us = gate.pending_us(station.id, ac).into();
        let (deficit, quantum_us) = station.drr(ac);
        if fairness && deficit.refill_if_owing(pending_us, quantum_us) {
            eligible = false;
        }
        if eligible {
            Visit::Take(i)
        } else {
            Visit::Skip
        }
    }

    /// A station (station-first mode): eligible with its highest-priority AC that has
    /// a TXQ with data (or, failing that, any scheduled TXQ), was allowed this round and
    /// passes the station's AQL gate; its one deficit counts the airtime pending in
    /// every AC. A station with no TXQ in an AC allowed this round is passed over
    /// without a refill, as mac80211 does not walk a refused AC's list: refilled while
    /// it cannot send, a station served up to its AQL limit would be out of debt by the
    /// next allowed round and, its place on the list kept by the full passes of the
    /// refused rounds, served again before the stations behind it — for ever.
    fn station_visit<G: AirtimeGate>(
        &mut self,
        slot: u32,
        gate: &mut G,
        now: Instant,
        found_eligible: &mut bool,
    ) -> Visit {
        let fairness = self.params.fairness;
        let phy_allowed = self.phy_allowed;
        let txqs = &self.txqs[..];
        let station = self.stations.at_mut(slot);
        let id = station.id;
        if !station.in_round(&phy_allowed) {
            station.eligible = false;
            return Visit::Skip;
        }
        let (mut with_data, mut without) = (None, None);
        for ac in Ac::ALL {
            let queue = station.queues[ac.index()];
            if queue.is_empty() || !phy_allowed[ac.index()] {
                continue;
            }
            let queued = queue
                .entries(txqs)
                .find(|&i| station.queued_tids & (1 << txqs[i as usize].tid.get()) != 0);
            if queued.is_none() && without.is_some() {
                continue;
            }
            if !gate.station_may_dequeue(id, ac, now) {
                continue;
            }
            if queued.is_some() {
                with_data = queued;
                break;
            }
            without = queue.head_entry();
        }
        let mut chosen = with_data.or(without);
        station.eligible = chosen.is_some();
        *found_eligible |= station.eligible;
        let (deficit, quantum_us) = station.drr(STATION_FIRST_LANE);
        if fairness && deficit.refill_if_owing(pending_all_acs(gate, id), quantum_us) {
            chosen = None;
        }
        chosen.map_or(Visit::Skip, Visit::Take)
    }

    /// A group: walked into when its deficit is not negative and, if limited, it has
    /// wall-time credit.
    fn group_visit(&mut self, g: u32, lane: Ac, now: Instant, found_eligible: &mut bool) -> Visit {
        // Station-first mode, a round the PHY gate refused some ACs: a group with no
        // station in the round is passed over without a refill, as its stations are
        // (`station_visit`) — refilled while nothing below it can send, a group just
        // served would be out of debt at the next allowed round and keep its place.
        if !self.group_in_round(g) {
            self.groups[g as usize].lanes[lane.index()].eligible = false;
            return Visit::Skip;
        }
        let burst = self.params.limit_burst;
        let fairness = self.params.fairness;
        let group = &mut self.groups[g as usize];
        let open = match group.mode {
            GroupMode::Share => true,
            GroupMode::Limit => {
                group.limit.earn(now, burst);
                group.limit.is_open()
            }
        };
        let (deficit, quantum_us) = group.drr(lane);
        let owes = fairness && deficit.refill_if_owing(0, quantum_us);
        group.lanes[lane.index()].eligible = owes && open;
        if owes {
            // Refills make progress only for a group that may send once out of debt.
            *found_eligible |= open;
            return Visit::Skip;
        }
        if open {
            Visit::Descend(g)
        } else {
            Visit::Skip
        }
    }

    /// Whether anything below group `g` takes part in this round: always, unless in
    /// station-first mode the PHY gate refused some AC this round; then whether some
    /// station below it has a TXQ in an allowed AC. O(members below `g`), only in
    /// such rounds.
    pub(super) fn group_in_round(&self, g: u32) -> bool {
        if self.params.mode != SchedulingMode::StationFirst || !self.phy_allowed.contains(&false) {
            return true;
        }
        let owner = Owner::Group(g, STATION_FIRST_LANE);
        self.list_of(owner)
            .entries(&self.view(STATION_FIRST_LANE))
            .any(|entry| match Node::from_entry(entry) {
                Node::Station(s) => self.stations.at(s).in_round(&self.phy_allowed),
                Node::Group(h) => self.group_in_round(h),
                Node::Txq(_) => true,
            })
    }

    /// Hands a TXQ back, or schedules one that just got data (`ieee80211_return_txq` /
    /// `__ieee80211_schedule_txq`). `has_queue` is whether it holds packets the driver
    /// may send (or `force`). An unlisted TXQ is listed if it has data — at the head
    /// when airtime fairness and `sparse_first` are on, so a newly active station is
    /// served first — or, empty, if its station was active within the window and may
    /// still owe airtime.
    ///
    /// Contract: a live TXQ (rule 4); any `now` (rule 12).
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
            if has_queue {
                self.txq_mark_queued(txq, true);
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
            let lane = self.lane(ac);
            let handed_out = self.txqs[txq.index()].schedule_round == self.rounds[lane.index()];
            self.node_link_tree(Node::Txq(txq.index), lane, front);
            self.txq_mark_queued(txq, has_queue);
            if handed_out && !front {
                self.node_ancestors_to_tail(Node::Txq(txq.index), lane);
            }
        } else {
            self.node_link::<false>(Node::Txq(txq.index), ac, front);
        }
        if has_queue {
            if let Some(slot) = station {
                self.station_mut(slot).ac[ac.index()].last_active = Some(now);
            }
        }
        Ok(())
    }

    /// A TXQ handed out this round came back to the tail of its list (empty but kept
    /// active, or without airtime fairness or `sparse_first`): so does every station
    /// (station-first mode) and group above it. In mac80211's flat list the TXQ itself
    /// is the root's entry, and `__ieee80211_schedule_txq` appends it at the tail
    /// (`net/mac80211/tx.c`); the entries standing for it in the hierarchy do the same,
    /// at every level. (A TXQ returned with data goes to the head, and the entries
    /// above it stay where they are, at the head: mac80211's sparse-station rule.)
    /// Left at the head, a group whose TXQs are all empty but kept listed
    /// (`ieee80211_txq_keep_active`), so never charged, would be walked into again and
    /// again until the walk came back to a TXQ served this round — which ends the round
    /// before the entries behind the group are reached, every round.
    #[inline(never)]
    fn node_ancestors_to_tail(&mut self, node: Node, lane: Ac) {
        let mut owner = self.owner_of(node, lane);
        while let Some(up) = owner.node() {
            owner = self.owner_of(up, lane);
            if self.node_listed(up, lane) {
                self.list_rotate(owner, up.entry());
            }
        }
    }

    /// Station-first mode: records whether a TXQ just scheduled has data.
    #[inline]
    fn txq_mark_queued(&mut self, txq: TxqId, has_queue: bool) {
        if self.params.mode != SchedulingMode::StationFirst {
            return;
        }
        let t = &self.txqs[txq.index()];
        if let Some(slot) = t.station {
            let bit = 1 << t.tid.get();
            let station = self.station_mut(slot);
            if has_queue {
                station.queued_tids |= bit;
            } else {
                station.queued_tids &= !bit;
            }
        }
    }

    /// Removes a TXQ from scheduling (e.g. its queue was purged).
    ///
    /// Contract: a live TXQ (rule 4).
    pub fn unschedule(&mut self, txq: TxqId) -> Result<(), SchedError> {
        self.txq(txq)?;
        self.txq_unlink(txq);
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
    ///
    /// Contract: a live TXQ (rule 4).
    pub fn may_transmit(
        &mut self,
        txq: TxqId,
        gate: &mut impl AirtimeGate,
    ) -> Result<bool, SchedError> {
        self.txq_may_transmit(txq, gate, None)
    }

    /// [`may_transmit`](Self::may_transmit) that also holds `Limit` groups to their
    /// wall-time caps at `now`.
    ///
    /// Contract: a live TXQ (rule 4); any `now` (rule 12).
    pub fn may_transmit_at(
        &mut self,
        txq: TxqId,
        gate: &mut impl AirtimeGate,
        now: Instant,
    ) -> Result<bool, SchedError> {
        self.txq_may_transmit(txq, gate, Some(now))
    }

    fn txq_may_transmit<G: AirtimeGate>(
        &mut self,
        txq: TxqId,
        gate: &mut G,
        now: Option<Instant>,
    ) -> Result<bool, SchedError> {
        let t = self.txq(txq)?;
        let (ac, station, listed) = (t.ac, t.station, t.links.listed);
        let allowed = match station {
            _ if !listed => true,
            None => true,
            Some(_) if !gate.phy_may_schedule(ac, self.active_txq_count(ac)) => true,
            Some(_) => self.txq_path_may_transmit(txq, self.lane(ac), gate, now),
        };
        if allowed {
            self.txq_unlink(txq);
        }
        Ok(allowed)
    }

    /// mac80211's `ieee80211_txq_may_transmit` at every level from the root down to a
    /// listed station TXQ (one level without groups): what is ahead of the path is
    /// rotated behind it (refilled if in deficit); the TXQ may send if nothing on the
    /// path is in deficit or over its limit, and whatever is, is refilled and moved to
    /// the back.
    fn txq_path_may_transmit<G: AirtimeGate>(
        &mut self,
        txq: TxqId,
        lane: Ac,
        gate: &mut G,
        now: Option<Instant>,
    ) -> bool {
        // TXQ, station (station-first), groups: at most MAX_GROUP_DEPTH + 2 levels.
        let mut path = [(Node::Txq(txq.index), Owner::Root(lane)); MAX_GROUP_DEPTH as usize + 2];
        let mut len = 0;
        let mut node = Some(Node::Txq(txq.index));
        while let Some(n) = node {
            let owner = self.owner_of(n, lane);
            path[len] = (n, owner);
            len += 1;
            node = owner.node();
        }
        let path = &path[..len];
        for &(n, owner) in path.iter().rev() {
            while let Some(ahead) = self.list_of(owner).head_entry() {
                if ahead == n.entry() {
                    break;
                }
                let ahead_node = Node::from_entry(ahead);
                if self.params.fairness {
                    let target_us = self.node_pending_us(ahead_node, gate);
                    self.node_refill_below(ahead_node, lane, target_us);
                }
                self.list_rotate(owner, ahead);
            }
        }
        let mut allowed = true;
        for &(n, owner) in path {
            if !self.node_may_send(n, lane, now) {
                allowed = false;
                // mac80211 checks and refills the raw deficit here, not the effective.
                self.node_refill_below(n, lane, 0);
                self.list_rotate(owner, n.entry());
            }
        }
        allowed
    }

    /// For `may_transmit`: the raw deficit (mac80211 checks it, not the effective one)
    /// of the node is not negative, and a limited group has credit.
    fn node_may_send(&mut self, node: Node, lane: Ac, now: Option<Instant>) -> bool {
        let open = match (node, now) {
            (Node::Group(g), Some(now)) => {
                let burst = self.params.limit_burst;
                let group = &mut self.groups[g as usize];
                if group.mode == GroupMode::Limit {
                    group.limit.earn(now, burst);
                }
                group.is_open()
            }
            _ => true,
        };
        open && self.node_drr(node, lane).is_none_or(|(d, _)| !d.owes(0))
    }

    /// The deficit and quantum of the station or group a node stands for in `lane`;
    /// `None` for a TXQ with no DRR of its own (an interface TXQ, or in station-first
    /// mode a TXQ, whose station is the node that has one).
    fn node_drr(&mut self, node: Node, lane: Ac) -> Option<(&mut super::deficit::Deficit, u32)> {
        match node {
            Node::Txq(i) => match (self.params.mode, self.txqs[i as usize].station) {
                (SchedulingMode::PerAc, Some(slot)) => Some(self.station_mut(slot).drr(lane)),
                _ => None,
            },
            Node::Station(slot) => Some(self.station_mut(slot).drr(lane)),
            Node::Group(g) => Some(self.groups[g as usize].drr(lane)),
        }
    }

    /// What a node's deficit must cover: the airtime its station has pending
    /// below the MAC (in its AC; station-first mode, in all ACs); 0 for a group.
    fn node_pending_us<G: AirtimeGate>(&self, node: Node, gate: &G) -> u64 {
        match node {
            Node::Txq(i) => {
                let t = &self.txqs[i as usize];
                t.station.map_or(0, |slot| {
                    gate.pending_us(self.station(slot).id, t.ac).into()
                })
            }
            Node::Station(slot) => pending_all_acs(gate, self.station(slot).id),
            Node::Group(_) => 0,
        }
    }

    /// Refills, by one quantum, the station or group a node stands for if its deficit
    /// in `lane` is below `target_us`.
    fn node_refill_below(&mut self, node: Node, lane: Ac, target_us: u64) {
        if let Some((deficit, quantum_us)) = self.node_drr(node, lane) {
            deficit.refill_if_owing(target_us, quantum_us);
        }
    }

    /// Charges airtime the driver measured for `station` on `tid`
    /// (`ieee80211_sta_register_airtime`): both always count in the statistics; the
    /// deficit is charged with what the TX/RX flags select, and only while the station
    /// is active, so an idle station does not go into debt. The same charge goes to
    /// every group above the station, and to the wall-time credit of `Limit` ones.
    ///
    /// Contract: a registered station (rule 3); any airtime and `now` (rule 12).
    pub fn register_airtime(
        &mut self,
        station: StationId,
        tid: Tid,
        tx_airtime_us: u32,
        rx_airtime_us: u32,
        now: Instant,
    ) -> Result<(), SchedError> {
        let slot = self.slot(station)?;
        let p = self.params;
        let ac = tid.ac();
        let lane = self.lane(ac);
        let sta = self.station_mut(slot);
        let active = sta.keep_active(ac, now, p.active_window);
        let a = &mut sta.ac[ac.index()];
        a.tx_airtime_us += u64::from(tx_airtime_us);
        a.rx_airtime_us += u64::from(rx_airtime_us);
        if !(p.fairness && active) {
            return Ok(());
        }
        let charge_us = u64::from(if p.use_tx { tx_airtime_us } else { 0 })
            + u64::from(if p.use_rx { rx_airtime_us } else { 0 });
        sta.ac[lane.index()].deficit.charge(charge_us);
        let mut cur = sta.group;
        while let Some(g) = cur {
            cur = self.group_charge(g, lane, ac, charge_us, now);
        }
        Ok(())
    }

    /// `register_airtime` for a group above the station: its deficit, statistics and
    /// `Limit` credit. Returns its parent.
    #[inline(never)]
    fn group_charge(
        &mut self,
        g: u32,
        lane: Ac,
        ac: Ac,
        charge_us: u64,
        now: Instant,
    ) -> Option<u32> {
        let burst = self.params.limit_burst;
        let group = &mut self.groups[g as usize];
        group.lanes[lane.index()].deficit.charge(charge_us);
        group.airtime_us[ac.index()] += charge_us;
        if group.mode == GroupMode::Limit {
            group.limit.charge(charge_us, now, burst);
        }
        group.parent
    }

    /// Lists a node on its parent's list — at the head if `front` (newly backlogged,
    /// fairness on: the sparse-station rule, applied to groups and stations too) — and
    /// its parent, if the parent's list was empty, on the grandparent's, and so on.
    #[inline]
    fn node_link<const H: bool>(&mut self, node: Node, lane: Ac, front: bool) {
        let owner = if H {
            self.owner_of(node, lane)
        } else {
            Owner::Root(lane)
        };
        let was_empty = H && self.owner_is_empty(owner);
        let mut list = self.list_of(owner);
        let mut arena = self.arena::<H>(lane);
        // A station's TXQs of one AC take turns: the DRR is at the station's level.
        if front && !matches!(owner, Owner::Station(..)) {
            list.push_front_entry(&mut arena, node.entry());
        } else {
            list.push_back_entry(&mut arena, node.entry());
        }
        self.set_list(owner, list);
        if let Node::Txq(i) = node {
            self.listed_txqs[self.txqs[i as usize].ac.index()] += 1;
        }
        if was_empty {
            if let Some(up) = owner.node() {
                self.node_link_tree(up, lane, front);
            }
        }
    }

    /// [`node_link`](Self::node_link) in the hierarchy, out of line.
    #[inline(never)]
    pub(super) fn node_link_tree(&mut self, node: Node, lane: Ac, front: bool) {
        self.node_link::<true>(node, lane, front);
    }

    /// Unlinks a listed node, and every parent whose list that empties.
    #[inline]
    fn node_unlink<const H: bool>(&mut self, node: Node, lane: Ac) {
        let owner = if H {
            self.owner_of(node, lane)
        } else {
            Owner::Root(lane)
        };
        let mut list = self.list_of(owner);
        list.remove_entry(&mut self.arena::<H>(lane), node.entry());
        self.set_list(owner, list);
        if let Node::Txq(i) = node {
            self.listed_txqs[self.txqs[i as usize].ac.index()] -= 1;
        }
        if H && self.owner_is_empty(owner) {
            if let Some(up) = owner.node() {
                self.node_unlink_tree(up, lane);
            }
        }
    }

    /// [`node_unlink`](Self::node_unlink) in the hierarchy, out of line.
    #[inline(never)]
    pub(super) fn node_unlink_tree(&mut self, node: Node, lane: Ac) {
        self.node_unlink::<true>(node, lane);
    }

    /// Unlinks a TXQ if it is listed.
    pub(super) fn txq_unlink(&mut self, txq: TxqId) {
        let t = &self.txqs[txq.index()];
        if t.links.listed {
            let lane = self.lane(t.ac);
            if self.tree {
                self.node_unlink_tree(Node::Txq(txq.index), lane);
            } else {
                self.node_unlink::<false>(Node::Txq(txq.index), lane);
            }
        }
    }

    pub(super) fn node_listed(&self, node: Node, lane: Ac) -> bool {
        self.view(lane).links(node.entry()).listed
    }

    /// The TXQs scheduled in `ac`, in list order (with groups: depth first, each
    /// group's TXQs where the group stands in its parent's list).
    ///
    /// Contract: none.
    pub fn active_txqs(&self, ac: Ac) -> impl Iterator<Item = TxqId> + '_ {
        let mut txqs = Vec::new();
        self.list_collect_txqs(Owner::Root(self.lane(ac)), ac, &mut txqs);
        txqs.into_iter()
    }

    fn list_collect_txqs(&self, owner: Owner, ac: Ac, txqs: &mut Vec<TxqId>) {
        let lane = owner.lane();
        for entry in self.list_of(owner).entries(&self.view(lane)) {
            match Node::from_entry(entry) {
                Node::Txq(i) => {
                    if self.txqs[i as usize].ac == ac {
                        txqs.push(self.txq_id(i));
                    }
                }
                Node::Station(s) => self.list_collect_txqs(Owner::Station(s, ac), ac, txqs),
                Node::Group(g) => self.list_collect_txqs(Owner::Group(g, lane), ac, txqs),
            }
        }
    }

    #[inline]
    fn list_rotate(&mut self, owner: Owner, entry: u32) {
        let mut list = self.list_of(owner);
        list.move_entry_to_tail(&mut self.arena::<true>(owner.lane()), entry);
        self.set_list(owner, list);
    }

    /// The list a node is on (or would be) in `lane`.
    pub(super) fn owner_of(&self, node: Node, lane: Ac) -> Owner {
        let in_group = |g: Option<u32>| g.map_or(Owner::Root(lane), |g| Owner::Group(g, lane));
        match node {
            Node::Txq(i) => {
                let t = &self.txqs[i as usize];
                match (t.station, self.params.mode) {
                    (None, _) => Owner::Root(lane),
                    (Some(s), SchedulingMode::StationFirst) => Owner::Station(s, t.ac),
                    (Some(s), SchedulingMode::PerAc) => in_group(self.station(s).group),
                }
            }
            Node::Station(s) => in_group(self.station(s).group),
            Node::Group(g) => in_group(self.groups[g as usize].parent),
        }
    }

    fn owner_is_empty(&self, owner: Owner) -> bool {
        match owner {
            Owner::Station(s, _) => self.station(s).queues.iter().all(TxqList::is_empty),
            _ => self.list_of(owner).is_empty(),
        }
    }

    #[inline(always)]
    pub(super) fn list_of(&self, owner: Owner) -> TxqList {
        match owner {
            Owner::Root(lane) => self.lists[lane.index()],
            Owner::Group(g, lane) => self.groups[g as usize].lanes[lane.index()].list,
            Owner::Station(s, ac) => self.station(s).queues[ac.index()],
        }
    }

    #[inline(always)]
    fn set_list(&mut self, owner: Owner, list: TxqList) {
        match owner {
            Owner::Root(lane) => self.lists[lane.index()] = list,
            Owner::Group(g, lane) => self.groups[g as usize].lanes[lane.index()].list = list,
            Owner::Station(s, ac) => self.station_mut(s).queues[ac.index()] = list,
        }
    }

    #[inline(always)]
    fn arena<const H: bool>(&mut self, lane: Ac) -> TreeArena<'_, H> {
        TreeArena {
            txqs: &mut self.txqs,
            stations: &mut self.stations,
            groups: &mut self.groups,
            lane,
        }
    }

    pub(super) fn view(&self, lane: Ac) -> TreeView<'_> {
        TreeView {
            txqs: &self.txqs,
            stations: &self.stations,
            groups: &self.groups,
            lane,
        }
    }
}
