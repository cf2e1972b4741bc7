//! Skipping the passes of `next_txq`'s loop that would only refill deficits.
//!
//! mac80211's loop (`ieee80211_next_txq`) gives the station at the head of the list one
//! quantum (its weight) if it is in deficit and moves it to the tail. When every entry
//! of the list is in deficit or held back by AQL, the loop goes round the list until
//! the deficit of one that AQL lets through covers its pending airtime: as many passes
//! as the smallest such debt in quanta. With mac80211's values that is a few passes,
//! but the caller decides the debt: airtime of `u32::MAX` µs reported at weight 1 is
//! 2^33 passes, and pending airtime above `i32::MAX` µs was out of reach for ever of the
//! 32-bit deficits this scheduler (and mac80211) used to have.
//!
//! So when a pass ends with nothing handed out although someone was held back only by
//! its deficit, the scheduler works out how many more passes would also hand out
//! nothing. Usually none: the pass refilled one of those out of debt, and the next
//! pass serves it. Otherwise, the least, over the entries held back only by their
//! deficit, of the quanta their station (or group) still owes divided by the times a
//! pass visits it (a station can have two TXQs of one AC on the list); and it gives
//! every entry of the list at once what those passes would have: a visit refills an
//! entry by one quantum while it owes, so `k` visits give it `min(k, quanta it owes)`
//! quanta. A group on the list that was walked into and found nobody eligible would be
//! walked into again on each skipped pass: its own list is advanced the same way. A
//! full pass leaves a list's order as it was, so the order is untouched, and the next
//! pass is walked as before and makes the choice the loop would have made after the
//! skipped passes: the same TXQ, deficits and refill counts. What differs is only how
//! often the gate is asked.
//!
//! It rests on the gate giving the same answers throughout one call ([`AirtimeGate`]),
//! as the skipped passes are not walked: it reads what each entry's last visit found,
//! kept in its `eligible` flag.
//!
//! Bounded work: a skip is O(entries on and below the list). After it, the next pass
//! hands a TXQ out, or brings a station or group that was in debt out of it (a group
//! then walked into, a station with two TXQs on the list served at its second), which
//! happens at most once per station and group in a call, even if the gate breaks the
//! rule above.

use super::deficit::Deficit;
use super::drr::pending_all_acs;
use super::node::Node;
use super::scheduler::AirtimeScheduler;
use super::txq_list::TxqList;
use super::{AirtimeGate, SchedulingMode};
use crate::ids::Ac;

impl AirtimeScheduler {
    /// At the end of a pass over `list` (of `lane`) that handed nothing out although
    /// someone was held back only by a deficit: skips the passes that would also hand
    /// nothing out, refilling as they would have.
    #[inline(never)]
    pub(super) fn skip_passes<G: AirtimeGate>(&mut self, list: TxqList, lane: Ac, gate: &G) {
        if !self.params.fairness {
            return;
        }
        #[cfg(test)]
        if !self.pass_skip {
            return;
        }
        let passes = self.passes_to_skip(list, lane, gate);
        if passes > 0 {
            self.advance(list, lane, passes, gate);
        }
    }

    /// How many more passes over `list` would hand nothing out: for every entry held
    /// back only by its deficit at its last visit, the quanta it still owes over its
    /// visits per pass.
    fn passes_to_skip<G: AirtimeGate>(&mut self, list: TxqList, lane: Ac, gate: &G) -> u64 {
        // Usually the pass refilled one of them out of debt, and the next serves it:
        // found comparing, without dividing.
        let in_debt = |d: Deficit, target_us, _, _| u64::from(d.owes(target_us));
        if self.least_owed(list, lane, gate, in_debt) == 0 {
            return 0;
        }
        if self.params.mode == SchedulingMode::StationFirst {
            return self.least_owed(list, lane, gate, |d, t, q, _| d.quanta_owed(t, q));
        }
        // Per-AC mode: a station can have several TXQs on the list, each visit of
        // which refills it.
        for counting in [false, true] {
            let mut cur = list.head_entry();
            while let Some(entry) = cur {
                if let Node::Txq(i) = Node::from_entry(entry) {
                    if let Some(slot) = self.txqs[i as usize].station {
                        let station = self.stations.at_mut(slot);
                        station.pass_entries = if counting {
                            station.pass_entries + 1
                        } else {
                            0
                        };
                    }
                }
                cur = list.next_of(&self.view(lane), entry);
            }
        }
        self.least_owed(list, lane, gate, |d, t, q, visits| {
            d.quanta_owed(t, q) / u64::from(visits)
        })
    }

    /// The least, over the entries of `list` held back only by their deficit at their
    /// last visit, of `owed(deficit, target_us, quantum_us, visits per pass)`; 0 if
    /// there are none. A station's visits per pass are its `pass_entries` (per-AC mode,
    /// once counted), else 1.
    fn least_owed<G: AirtimeGate>(
        &self,
        list: TxqList,
        lane: Ac,
        gate: &G,
        owed: impl Fn(Deficit, u64, u32, u32) -> u64,
    ) -> u64 {
        let mut least = u64::MAX;
        for entry in list.entries(&self.view(lane)) {
            let owes = match Node::from_entry(entry) {
                Node::Txq(i) => {
                    let t = &self.txqs[i as usize];
                    match (self.params.mode, t.station) {
                        (SchedulingMode::PerAc, Some(slot)) if t.eligible => {
                            let station = self.station(slot);
                            let deficit = station.ac[t.ac.index()].deficit;
                            let pending = gate.pending_us(station.id, t.ac).into();
                            let visits = station.pass_entries.max(1);
                            owed(deficit, pending, station.weight_us, visits)
                        }
                        // Held back by its gate, or an interface TXQ, which only a
                        // refused round holds back: refills change nothing for it.
                        _ => continue,
                    }
                }
                Node::Station(slot) => {
                    let station = self.station(slot);
                    if !station.eligible {
                        continue;
                    }
                    let deficit = station.ac[lane.index()].deficit;
                    let pending = pending_all_acs(gate, station.id);
                    owed(deficit, pending, station.weight_us, 1)
                }
                Node::Group(g) => {
                    let group = &self.groups[g as usize];
                    let l = &group.lanes[lane.index()];
                    if !l.eligible {
                        continue;
                    }
                    owed(l.deficit, 0, group.weight_us, 1)
                }
            };
            least = least.min(owes);
            if least == 0 {
                return 0;
            }
        }
        if least == u64::MAX {
            0
        } else {
            least
        }
    }

    /// Gives every entry of `list`, and of the lists of the groups on it that the
    /// skipped passes would walk into, what `passes` passes would have.
    fn advance<G: AirtimeGate>(&mut self, list: TxqList, lane: Ac, passes: u64, gate: &G) {
        let mut cur = list.head_entry();
        while let Some(entry) = cur {
            // The next entry first: a branch below may `continue`. (It did after the
            // cursor moved, and a group out of the round spun `next_txq_any` for ever.)
            cur = list.next_of(&self.view(lane), entry);
            match Node::from_entry(entry) {
                Node::Txq(i) => {
                    let t = &self.txqs[i as usize];
                    if let (SchedulingMode::PerAc, Some(slot)) = (self.params.mode, t.station) {
                        let ac = t.ac;
                        let station = self.stations.at_mut(slot);
                        let pending = gate.pending_us(station.id, ac).into();
                        let (deficit, quantum_us) = station.drr(ac);
                        deficit.refill_visits(quantum_us, pending, passes);
                    }
                }
                Node::Station(slot) => {
                    let station = self.stations.at_mut(slot);
                    // Out of the round (no TXQ in an AC it allowed): visits pass it
                    // over without a refill.
                    if station.in_round(&self.phy_allowed) {
                        let pending = pending_all_acs(gate, station.id);
                        let (deficit, quantum_us) = station.drr(lane);
                        deficit.refill_visits(quantum_us, pending, passes);
                    }
                }
                Node::Group(g) => {
                    // Out of the round: passed over without a refill (`visit_group`).
                    if !self.group_in_round(g) {
                        continue;
                    }
                    let group = &mut self.groups[g as usize];
                    // Out of debt and open at its last visit: it was walked into, and
                    // found nobody (else the walk would have ended), as it would on each
                    // skipped pass. In debt: it is refilled, and, having had its
                    // visit's refill, could be out of debt only if it were eligible,
                    // which would have made `passes` 0; or it is capped, and skipped.
                    if !group.owes(lane) && group.is_open() {
                        let sub = group.lanes[lane.index()].list;
                        self.advance(sub, lane, passes, gate);
                    } else {
                        let (deficit, quantum_us) = group.drr(lane);
                        deficit.refill_visits(quantum_us, 0, passes);
                    }
                }
            }
        }
    }
}
