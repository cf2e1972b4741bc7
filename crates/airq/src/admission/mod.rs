//! # Soft admission control for the VO and VI access categories
//!
//! 802.11e's priority levels are chosen by the sender's DiffServ marking and nothing
//! checks them, so "it is quite possible to send large data flows at the higher priority
//! levels, which can hurt performance of the network" (seed 000, Høiland-Jørgensen,
//! netdev 2.2, §4.3 "Admission control"). The seed proposes Cake's answer, a *soft*
//! admission control: "flows that build a large queue at the higher priority levels are
//! dynamically demoted to best effort (or even background)"; its slide 22 (seed 002):
//! "Demote entire flow if it builds a queue". sch_cake itself does it per tin, not per
//! flow (`sch_cake.c` `cake_dequeue`: a tin running above its threshold rate is served
//! with its `tin_quantum_band` share instead of its priority quantum); we follow the
//! seed's per-flow wording, and judge "builds a queue" with CoDel's own definition of a
//! standing queue rather than a rate, so the rule needs no rate and adapts to the
//! network's current capacity as the seed asks.
//!
//! The rule, per flow (a bucket of [`AdmissionParams::flows`], by flow hash):
//!
//! - **Measured**: every packet of the flow leaving the AP's queues (the caller's
//!   dequeue) with its sojourn time and the bytes the flow still has queued. It is
//!   *above target* when the sojourn is at least `target` and more than `mtu_bytes`
//!   remain (RFC 8289 §4.4 and Linux `codel_should_drop`: a flow with one packet queued
//!   has built no queue, however long the medium made it wait).
//! - **Demotion**: a flow whose last admitted packet was marked VO or VI, all of whose
//!   packets have left above target for `interval` (CoDel's `first_above_time`), is
//!   demoted: its VO/VI packets are given [`AdmissionParams::demoted_tid`] from its next
//!   packet on. Packets already queued at VO/VI stay there.
//! - **Promotion** (the hysteresis): a demoted flow none of whose packets has left
//!   above target for `promote_after` (10 intervals by default) gets its own class back.
//!   Its packets keep being judged in the demotion class, so a bulk flow that still
//!   builds a queue there stays demoted; an idle flow is promoted at its next packet.
//!
//! There are no timers: every transition happens at one of the flow's own packets
//! (a demotion at a dequeue, a promotion at a dequeue or an admission), so
//! [`Admission`] never needs attention of its own and has no `poll_at`.
//!
//! # Contract
//!
//! The caller calls [`Admission::admit`] for every packet before it classifies it into
//! a TXQ (mac80211's `ieee80211_select_queue` point), then exactly once either
//! [`Admission::dequeued`] (it left the managed queues for the driver) or
//! [`Admission::dropped`] (it was dropped before that), with the same flow hash and
//! length. A dequeue or drop the backlog cannot cover empties the bucket and is counted
//! ([`AdmissionStats::underflows`]); nothing panics. Every call is O(1).

mod flow;
mod params;
mod stats;
#[cfg(test)]
mod tests;

pub use flow::{AdmissionEvent, AdmissionFlow};
pub use params::{AdmissionParams, AdmissionParamsError};
pub use stats::AdmissionStats;

use crate::ids::{Ac, Tid};
use crate::time::{Duration, Instant};
use alloc::vec::Vec;

/// What [`Admission::admit`] decided for a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The TID to queue it at: its own, or the demotion TID.
    pub tid: Tid,
    /// The packet was moved to the demotion class.
    pub demoted: bool,
    /// Its flow was promoted back by this packet.
    pub event: Option<AdmissionEvent>,
}

/// Soft admission control of one radio. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Admission {
    params: AdmissionParams,
    flows: Vec<AdmissionFlow>,
    stats: AdmissionStats,
}

impl Admission {
    /// State for `params`, or why they are out of range.
    pub fn new(params: AdmissionParams) -> Result<Admission, AdmissionParamsError> {
        params.validate()?;
        Ok(Admission {
            params,
            flows: alloc::vec![AdmissionFlow::default(); params.flows as usize],
            stats: AdmissionStats::default(),
        })
    }

    pub fn params(&self) -> &AdmissionParams {
        &self.params
    }

    pub fn stats(&self) -> AdmissionStats {
        self.stats
    }

    /// The bucket of a flow hash (Linux `reciprocal_scale(hash, flows)`).
    pub fn flow_index(&self, flow_hash: u32) -> usize {
        ((u64::from(flow_hash) * u64::from(self.params.flows)) >> 32) as usize
    }

    /// The state of the bucket `flow_hash` falls in.
    pub fn flow(&self, flow_hash: u32) -> &AdmissionFlow {
        &self.flows[self.flow_index(flow_hash)]
    }

    /// Classifies a packet marked `tid` of `len_bytes` of flow `flow_hash` arriving at
    /// `now`, and counts it in its flow's backlog.
    pub fn admit(&mut self, flow_hash: u32, len_bytes: u32, tid: Tid, now: Instant) -> Admitted {
        let i = self.flow_index(flow_hash);
        let (p, flow, s) = (&self.params, &mut self.flows[i], &mut self.stats);
        let priority = matches!(tid.ac(), Ac::Vo | Ac::Vi);
        let event = flow.try_promote(now, p);
        if event.is_some() {
            s.promotions += 1;
            s.flows_demoted -= 1;
        }
        flow.priority = priority;
        flow.admit(len_bytes);
        s.admitted_packets += 1;
        s.backlog_packets += 1;
        let demoted = priority && flow.demoted;
        if priority {
            s.priority_packets += 1;
        }
        if demoted {
            flow.demoted_packets += 1;
            s.demoted_packets += 1;
            s.demoted_bytes += u64::from(len_bytes);
        }
        Admitted {
            tid: if demoted { p.demoted_tid() } else { tid },
            demoted,
            event,
        }
    }

    /// A packet of flow `flow_hash` admitted earlier left the managed queues at `now`
    /// after `sojourn`: judged, and the flow possibly demoted or promoted.
    pub fn dequeued(
        &mut self,
        flow_hash: u32,
        len_bytes: u32,
        sojourn: Duration,
        now: Instant,
    ) -> Option<AdmissionEvent> {
        let i = self.flow_index(flow_hash);
        if !self.leave(i, len_bytes) {
            return None;
        }
        let event = self.flows[i].judge(sojourn, now, &self.params);
        match event {
            Some(AdmissionEvent::Demoted) => {
                self.stats.demotions += 1;
                self.stats.flows_demoted += 1;
            }
            Some(AdmissionEvent::Promoted) => {
                self.stats.promotions += 1;
                self.stats.flows_demoted -= 1;
            }
            None => {}
        }
        event
    }

    /// A packet of flow `flow_hash` admitted earlier was dropped before its dequeue.
    pub fn dropped(&mut self, flow_hash: u32, len_bytes: u32) {
        let i = self.flow_index(flow_hash);
        self.leave(i, len_bytes);
    }

    /// Takes a packet out of bucket `i`'s backlog; false (counted) if it held none.
    fn leave(&mut self, i: usize, len_bytes: u32) -> bool {
        let held = u64::from(self.flows[i].backlog_packets);
        if self.flows[i].leave(len_bytes) {
            self.stats.backlog_packets -= 1;
            return true;
        }
        self.stats.backlog_packets -= held;
        self.stats.underflows += 1;
        false
    }

    /// Panics if the counters disagree with the buckets (for tests and debug builds):
    /// the backlog is the buckets' sum, the demoted count theirs and `demotions -
    /// promotions`.
    pub fn assert_invariants(&self) {
        let backlog: u64 = self
            .flows
            .iter()
            .map(|f| u64::from(f.backlog_packets))
            .sum();
        let demoted = self.flows.iter().filter(|f| f.demoted).count() as u64;
        let s = &self.stats;
        assert_eq!(backlog, s.backlog_packets, "admission backlog");
        assert_eq!(demoted, s.flows_demoted, "admission demoted flows");
        assert_eq!(s.demotions - s.promotions, demoted, "admission demotions");
        let per_flow: u64 = self.flows.iter().map(|f| f.demoted_packets).sum();
        assert_eq!(per_flow, s.demoted_packets, "admission demoted packets");
    }
}
