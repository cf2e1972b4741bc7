//! The hierarchical scheduler: what `next_txq`, `return_txq`, `may_transmit` and
//! charging do once groups exist or in station-first mode (the algorithm is described
//! in the [`airtime`](super) module documentation).
//!
//! Every list is walked with mac80211's loop (`ieee80211_next_txq`): the head entry is
//! checked; one that may not send now is refilled if in deficit and moved to the tail;
//! a pass that comes back to its first entry without having seen anyone who could send
//! ends the walk, and one after which only more refills could serve anyone skips the
//! passes that would only refill (`pass_skip.rs`). Here an entry may also be a group,
//! which is descended into when it has credit, or (station-first mode) a station,
//! which offers its highest-priority TXQ. A walk of a root list holding only TXQs is
//! exactly mac80211's: stations in no group are scheduled as they are without groups.
//!
//! The entry points the flat code branches to (`tree_next_txq`, `tree_link`, …) are
//! `#[inline(never)]`, so that the flat code, mac80211's case, stays as small and fast
//! as it was without groups.

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

/// What to do with the head of a list.
enum Visit {
    /// Not now: to the tail.
    Skip,
    /// Hand out this TXQ, unless it was handed out this round already.
    Take(u32),
    /// Walk this group's list.
    Descend(u32),
}

/// Station-first mode: the airtime a station has pending in all ACs, which its one
/// deficit must cover.
pub(super) fn pending_all_acs<G: AirtimeGate>(gate: &G, station: StationId) -> u64 {
    Ac::ALL
        .iter()
        .map(|&ac| u64::from(gate.pending_us(station, ac)))
        .sum()
}

impl AirtimeScheduler {
    #[inline(never)]
    pub(super) fn tree_next_txq<G: AirtimeGate>(
        &mut self,
        ac: Ac,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Option<TxqId> {
        if self.params.mode == SchedulingMode::StationFirst {
            return None;
        }
        match self.select(Owner::Root(ac), gate, now, round) {
            Pick::Found(txq) => Some(txq),
            Pick::RoundOver | Pick::Blocked => None,
        }
    }

    /// One level of `next_txq`: mac80211's loop over a list whose entries may be
    /// groups (walked recursively, at most [`MAX_GROUP_DEPTH`] deep) or stations. The
    /// list is worked on in a local copy, stored back before anything else may touch
    /// it.
    pub(super) fn select<G: AirtimeGate>(
        &mut self,
        owner: Owner,
        gate: &mut G,
        now: Instant,
        round: u16,
    ) -> Pick {
        let lane = owner.lane();
        let mut list = self.list_of(owner);
        let mut first = None;
        let mut found_eligible = false;
        loop {
            let Some(entry) = list.head_entry() else {
                return Pick::Blocked;
            };
            if first == Some(entry) {
                // A full pass: stop unless someone was held back only by a deficit,
                // which the pass has refilled; skip the passes that would only refill.
                if !found_eligible {
                    self.set_list(owner, list);
                    return Pick::Blocked;
                }
                found_eligible = false;
                self.skip_passes(list, lane, gate);
            }
            first.get_or_insert(entry);
            let visit = match Node::from_entry(entry) {
                Node::Txq(i) => self.visit_txq(i, gate, now, &mut found_eligible),
                Node::Station(s) => self.visit_station(s, gate, now, &mut found_eligible),
                Node::Group(g) => self.visit_group(g, lane, now, &mut found_eligible),
            };
            match visit {
                Visit::Skip => list.move_entry_to_tail(&mut self.arena(lane), entry),
                Visit::Take(i) => {
                    self.set_list(owner, list);
                    let txq = &mut self.txqs[i as usize];
                    if txq.schedule_round == round {
                        return Pick::RoundOver;
                    }
                    txq.schedule_round = round;
                    let ac = txq.ac;
                    let lane = self.lane(ac);
                    self.tree_unlink(Node::Txq(i), lane);
                    return Pick::Found(self.txq_id(i));
                }
                Visit::Descend(g) => {
                    self.set_list(owner, list);
                    match self.select(Owner::Group(g, lane), gate, now, round) {
                        Pick::Blocked => {
                            list = self.list_of(owner);
                            list.move_entry_to_tail(&mut self.arena(lane), entry);
                        }
                        pick => return pick,
                    }
                }
            }
        }
    }

    /// A TXQ on a list: mac80211's per-TXQ rule (per-AC mode, or an interface TXQ).
    fn visit_txq<G: AirtimeGate>(
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
            if self.params.mode == SchedulingMode::StationFirst && !self.phy_allowed[ac.index()] {
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
        if fairness && station.owes(ac, gate.pending_us(station.id, ac).into()) {
            station.refill(ac);
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
    fn visit_station<G: AirtimeGate>(
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
        if fairness && station.owes(STATION_FIRST_LANE, pending_all_acs(gate, id)) {
            station.refill(STATION_FIRST_LANE);
            chosen = None;
        }
        chosen.map_or(Visit::Skip, Visit::Take)
    }

    /// Station-first mode: records whether a TXQ just scheduled has data.
    pub(super) fn mark_queued(&mut self, txq: TxqId, has_queue: bool) {
        let t = &self.txqs[txq.index()];
        if let (SchedulingMode::StationFirst, Some(slot)) = (self.params.mode, t.station) {
            let bit = 1 << t.tid.get();
            let station = self.station_mut(slot);
            if has_queue {
                station.queued_tids |= bit;
            } else {
                station.queued_tids &= !bit;
            }
        }
    }

    /// A group: walked into when its deficit is not negative and, if limited, it has
    /// wall-time credit.
    fn visit_group(&mut self, g: u32, lane: Ac, now: Instant, found_eligible: &mut bool) -> Visit {
        // Station-first mode, a round the PHY gate refused some ACs: a group with no
        // station in the round is passed over without a refill, as its stations are
        // (`visit_station`) — refilled while nothing below it can send, a group just
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
        let owes = fairness && group.owes(lane);
        group.lanes[lane.index()].eligible = owes && open;
        if owes {
            group.refill(lane);
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

    /// `may_transmit` in the hierarchy. `now`, if given, also holds `Limit` groups to
    /// their caps.
    #[inline(never)]
    pub(super) fn tree_may_transmit<G: AirtimeGate>(
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
            Some(_) => self.may_transmit_path(txq, self.lane(ac), gate, now),
        };
        if allowed {
            self.unlink(txq);
        }
        Ok(allowed)
    }

    /// mac80211's `ieee80211_txq_may_transmit` at every level from the root down to a
    /// listed station TXQ: what is ahead of the path is rotated behind it (refilled if
    /// in deficit); the TXQ may send if nothing on the path is in deficit or over its
    /// limit, and whatever is, is refilled and moved to the back.
    fn may_transmit_path<G: AirtimeGate>(
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
                self.refill_node_if_owing(Node::from_entry(ahead), lane, gate);
                self.rotate(owner, ahead);
            }
        }
        let mut allowed = true;
        for &(n, owner) in path {
            if !self.node_may_send(n, lane, now) {
                allowed = false;
                self.refill_if_in_debt(n, lane);
                self.rotate(owner, n.entry());
            }
        }
        allowed
    }

    /// For `may_transmit`: the raw deficit (mac80211 checks it, not the effective one)
    /// of the node is not negative, and a limited group has credit.
    fn node_may_send(&mut self, node: Node, lane: Ac, now: Option<Instant>) -> bool {
        match node {
            Node::Txq(i) => match (self.params.mode, self.txqs[i as usize].station) {
                (SchedulingMode::PerAc, Some(slot)) => {
                    self.station(slot).ac[lane.index()].deficit_us >= 0
                }
                // A TXQ inside a station (or an interface TXQ): no deficit of its own.
                _ => true,
            },
            Node::Station(slot) => self.station(slot).ac[lane.index()].deficit_us >= 0,
            Node::Group(g) => {
                let burst = self.params.limit_burst;
                let group = &mut self.groups[g as usize];
                let open = match (group.mode, now) {
                    (GroupMode::Limit, Some(now)) => {
                        group.limit.earn(now, burst);
                        group.limit.is_open()
                    }
                    _ => true,
                };
                open && !group.owes(lane)
            }
        }
    }

    /// The station or group a node stands for, if it has a deficit in `lane`.
    fn refill_if_in_debt(&mut self, node: Node, lane: Ac) {
        match node {
            Node::Txq(i) => {
                if let (SchedulingMode::PerAc, Some(slot)) =
                    (self.params.mode, self.txqs[i as usize].station)
                {
                    let station = self.station_mut(slot);
                    if station.ac[lane.index()].deficit_us < 0 {
                        station.refill(lane);
                    }
                }
            }
            Node::Station(slot) => {
                let station = self.station_mut(slot);
                if station.ac[lane.index()].deficit_us < 0 {
                    station.refill(lane);
                }
            }
            Node::Group(g) => {
                let group = &mut self.groups[g as usize];
                if group.owes(lane) {
                    group.refill(lane);
                }
            }
        }
    }

    /// Refills a node passed over whose effective deficit (with pending airtime, for
    /// stations) is negative.
    fn refill_node_if_owing<G: AirtimeGate>(&mut self, node: Node, lane: Ac, gate: &G) {
        if !self.params.fairness {
            return;
        }
        match node {
            Node::Txq(i) => {
                let t = &self.txqs[i as usize];
                if let (SchedulingMode::PerAc, Some(slot)) = (self.params.mode, t.station) {
                    let ac = t.ac;
                    let station = self.station_mut(slot);
                    if station.owes(ac, gate.pending_us(station.id, ac).into()) {
                        station.refill(ac);
                    }
                }
            }
            Node::Station(slot) => {
                let station = self.station_mut(slot);
                if station.owes(lane, pending_all_acs(gate, station.id)) {
                    station.refill(lane);
                }
            }
            Node::Group(g) => {
                let group = &mut self.groups[g as usize];
                if group.owes(lane) {
                    group.refill(lane);
                }
            }
        }
    }

    /// `register_airtime` in the hierarchy: the station's deficit in its lane, then
    /// every group above it — deficits, statistics and `Limit` credit.
    #[inline(never)]
    pub(super) fn tree_register_airtime(
        &mut self,
        station: StationId,
        tid: Tid,
        tx_airtime_us: u32,
        rx_airtime_us: u32,
        now: Instant,
    ) -> Result<(), SchedError> {
        let slot = self.slot(station)?;
        let ac = tid.ac();
        let lane = self.lane(ac);
        let Some(charge_us) =
            self.charge_station(slot, tid, tx_airtime_us, rx_airtime_us, now, lane)
        else {
            return Ok(());
        };
        let burst = self.params.limit_burst;
        let mut cur = self.station(slot).group;
        while let Some(g) = cur {
            let group = &mut self.groups[g as usize];
            let l = &mut group.lanes[lane.index()];
            // At most 2^33 µs: exact in the 64-bit deficit.
            l.deficit_us = l.deficit_us.saturating_sub(charge_us as i64);
            group.airtime_us[ac.index()] += charge_us;
            if group.mode == GroupMode::Limit {
                group.limit.charge(charge_us, now, burst);
            }
            cur = group.parent;
        }
        Ok(())
    }

    /// Lists a node on its parent's list — at the head if `front` (newly backlogged,
    /// fairness on: the sparse-station rule, applied to groups and stations too) — and
    /// its parent, if the parent's list was empty, on the grandparent's, and so on.
    #[inline(never)]
    pub(super) fn tree_link(&mut self, node: Node, lane: Ac, front: bool) {
        let owner = self.owner_of(node, lane);
        let was_empty = self.owner_is_empty(owner);
        let mut list = self.list_of(owner);
        let mut arena = self.arena(lane);
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
                self.tree_link(up, lane, front);
            }
        }
    }

    /// Unlinks a listed node, and every parent whose list that empties.
    #[inline(never)]
    pub(super) fn tree_unlink(&mut self, node: Node, lane: Ac) {
        let owner = self.owner_of(node, lane);
        let mut list = self.list_of(owner);
        list.remove_entry(&mut self.arena(lane), node.entry());
        self.set_list(owner, list);
        if let Node::Txq(i) = node {
            self.listed_txqs[self.txqs[i as usize].ac.index()] -= 1;
        }
        if self.owner_is_empty(owner) {
            if let Some(up) = owner.node() {
                self.tree_unlink(up, lane);
            }
        }
    }

    pub(super) fn node_listed(&self, node: Node, lane: Ac) -> bool {
        self.view(lane).links(node.entry()).listed
    }

    /// The TXQs listed in `ac`, depth first.
    pub(super) fn tree_active_txqs(&self, ac: Ac) -> Vec<TxqId> {
        let mut txqs = Vec::new();
        self.collect_txqs(Owner::Root(self.lane(ac)), ac, &mut txqs);
        txqs
    }

    fn collect_txqs(&self, owner: Owner, ac: Ac, txqs: &mut Vec<TxqId>) {
        let lane = owner.lane();
        for entry in self.list_of(owner).entries(&self.view(lane)) {
            match Node::from_entry(entry) {
                Node::Txq(i) => {
                    if self.txqs[i as usize].ac == ac {
                        txqs.push(self.txq_id(i));
                    }
                }
                Node::Station(s) => self.collect_txqs(Owner::Station(s, ac), ac, txqs),
                Node::Group(g) => self.collect_txqs(Owner::Group(g, lane), ac, txqs),
            }
        }
    }

    #[inline]
    fn rotate(&mut self, owner: Owner, entry: u32) {
        let mut list = self.list_of(owner);
        list.move_entry_to_tail(&mut self.arena(owner.lane()), entry);
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

    #[inline]
    fn list_of(&self, owner: Owner) -> TxqList {
        match owner {
            Owner::Root(lane) => self.lists[lane.index()],
            Owner::Group(g, lane) => self.groups[g as usize].lanes[lane.index()].list,
            Owner::Station(s, ac) => self.station(s).queues[ac.index()],
        }
    }

    #[inline]
    fn set_list(&mut self, owner: Owner, list: TxqList) {
        match owner {
            Owner::Root(lane) => self.lists[lane.index()] = list,
            Owner::Group(g, lane) => self.groups[g as usize].lanes[lane.index()].list = list,
            Owner::Station(s, ac) => self.station_mut(s).queues[ac.index()] = list,
        }
    }

    #[inline]
    fn arena(&mut self, lane: Ac) -> TreeArena<'_> {
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
