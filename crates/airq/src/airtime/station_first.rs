//! Station-first QoS (seed: Høiland-Jørgensen, netdev 2.2, §4.3 "Interaction with
//! airtime fairness"): "first selecting the station to transmit to, and then picking
//! the highest priority queue active for that station", as an option beside mac80211's
//! per-AC scheduling.
//!
//! In station-first mode the scheduler has one lane for all ACs. A station stands on
//! the list (its group's, or the root's) for all its scheduled TXQs, with one deficit
//! charged by the airtime of every AC; the station chosen by the same DRR hands out its
//! TXQ of the highest-priority AC (VO > VI > BE > BK) that has one scheduled, that the
//! round's PHY gate allowed and that its AQL gate lets through. TXQs of one AC of a
//! station (two TIDs) take turns.

use super::node::Owner;
use super::scheduler::AirtimeScheduler;
use super::txq::TxqId;
use super::AirtimeGate;
use crate::ids::Ac;
use crate::time::Instant;

/// The lane station-first mode schedules in: the deficits of stations and groups, and
/// the root list and round, live in this AC's slot.
pub(super) const STATION_FIRST_LANE: Ac = Ac::Vo;

/// How airtime fairness and the four access categories combine.
///
/// - **`PerAc`** (mac80211): one DRR per AC, each station with a deficit per AC.
///   Fairness holds within each AC; which AC goes first is the driver's (and EDCA's)
///   affair, so any station's VO traffic can go before every station's BE traffic —
///   and a station that sends in several ACs can get more than its share of the
///   airtime in total, one share per AC.
/// - **`StationFirst`** (seed §4.3): the DRR chooses the station over all ACs, with one
///   deficit per station, then the station's highest-priority AC with data is served.
///   A station's airtime over all ACs is what is shared fairly, so marking traffic VO
///   buys no extra airtime. The price, in the seed's words: "a station with outstanding
///   high priority packets needs to be throttled to achieve fairness, even though all
///   other stations only have packets queued of a lower priority … lower priority
///   packets will be transmitted before those of higher priority", which "may lead to
///   problems with regulatory compliance" — priority holds only among a station's own
///   queues. The TXQ handed out can be of any AC: the driver puts it on that AC's
///   hardware queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchedulingMode {
    #[default]
    PerAc,
    StationFirst,
}

impl AirtimeScheduler {
    /// Starts a scheduling round for [`next_txq_any`](Self::next_txq_any). Per-AC
    /// mode: [`schedule_start`](Self::schedule_start) of every AC. Station-first mode:
    /// the PHY gate is asked per AC (`ieee80211_txq_schedule_airtime_check`); the round
    /// advances if it allows any, and only the ACs it allowed are served this round.
    ///
    /// Contract: none; any gate (rule 11).
    pub fn schedule_start_any(&mut self, gate: &mut impl AirtimeGate) {
        if !self.is_station_first() {
            for ac in Ac::ALL {
                self.schedule_start(ac, gate);
            }
            return;
        }
        let mut any = false;
        for ac in Ac::ALL {
            let allowed = gate.phy_may_schedule(ac, self.active_txq_count(ac));
            self.phy_allowed[ac.index()] = allowed;
            any |= allowed;
        }
        let lane = STATION_FIRST_LANE.index();
        self.rounds[lane] = self.rounds[lane].wrapping_add(1).max(1);
        self.refused[lane] = !any;
    }

    /// The next TXQ to serve, of any AC. Station-first mode: the station chosen by
    /// airtime DRR over all ACs, and its highest-priority scheduled TXQ. Per-AC mode:
    /// strict priority — [`next_txq`](Self::next_txq) of VO, then VI, BE and BK.
    ///
    /// Contract: as [`next_txq`](Self::next_txq)'s (rules 11, 12).
    pub fn next_txq_any(&mut self, gate: &mut impl AirtimeGate, now: Instant) -> Option<TxqId> {
        if !self.is_station_first() {
            return Ac::ALL
                .into_iter()
                .find_map(|ac| self.next_txq(ac, gate, now));
        }
        let round = self.rounds[STATION_FIRST_LANE.index()];
        if self.refused[STATION_FIRST_LANE.index()] {
            return None;
        }
        self.list_select_tree(Owner::Root(STATION_FIRST_LANE), gate, now, round)
            .txq()
    }

    fn is_station_first(&self) -> bool {
        self.params.mode == SchedulingMode::StationFirst
    }
}
