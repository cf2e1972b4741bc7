//! Soft admission control at the AP (seed 000 §4.3; [`airq::admission`]): the library's
//! [`Admission`] placed where Linux classifies a downlink packet into a TXQ
//! (`ieee80211_select_queue`, before the qdisc and mac80211's TXQs), told of every
//! packet's dequeue from the MAC layer (with its FQ-MAC sojourn, the time CoDel sees)
//! and of every drop above the driver. A demoted packet is given the demotion TID, so it
//! goes to the BE (or BK) TXQ of the same station.
//!
//! It runs only with FQ-MAC: its measure is the sojourn in FQ-MAC's queues, which the
//! seed's proposal builds on ("with the improved queueing structure"); the legacy MAC
//! stamps no enqueue time of its own. Off by default (`ApConfig::admission` `None`):
//! nothing here runs and results are those without it.
//!
//! Counted here, beside the library's per-bucket counters, per station and per scenario
//! flow ([`AdmissionCounters`]), over the whole run.

use crate::net::packet::SimPacket;
use airq::admission::{Admission, AdmissionEvent, AdmissionParams, AdmissionStats};
use airq::{Instant, StationId};

/// What soft admission control did to a station's or a flow's packets, whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdmissionCounters {
    /// Packets marked VO or VI queued at the demotion class instead.
    pub demoted_packets: u64,
    /// Times a flow of it was demoted, and promoted back.
    pub demotions: u64,
    pub promotions: u64,
    /// When a flow of it was first demoted.
    pub first_demotion: Option<Instant>,
}

impl AdmissionCounters {
    fn count(&mut self, event: AdmissionEvent, now: Instant) {
        match event {
            AdmissionEvent::Demoted => {
                self.demotions += 1;
                self.first_demotion.get_or_insert(now);
            }
            AdmissionEvent::Promoted => self.promotions += 1,
        }
    }
}

pub(super) struct SoftAdmission {
    admission: Admission,
    /// By station index.
    stations: Vec<AdmissionCounters>,
    /// By scenario flow ([`SimPacket::flow`]), grown as flows appear.
    flows: Vec<AdmissionCounters>,
}

impl SoftAdmission {
    /// Validated parameters only (the caller checks them).
    pub(super) fn new(params: AdmissionParams, stations: usize) -> Option<SoftAdmission> {
        Some(SoftAdmission {
            admission: Admission::new(params).ok()?,
            stations: vec![AdmissionCounters::default(); stations],
            flows: Vec::new(),
        })
    }

    /// Classifies a downlink packet arriving at `now`: its TID becomes the demotion
    /// TID if its flow is demoted.
    pub(super) fn classify(&mut self, packet: &mut SimPacket, now: Instant) {
        let r = self
            .admission
            .admit(packet.flow_hash, packet.len_bytes, packet.tid, now);
        packet.tid = r.tid;
        let (station, flow) = self.counters(packet);
        for c in [station, flow] {
            if r.demoted {
                c.demoted_packets += 1;
            }
            if let Some(e) = r.event {
                c.count(e, now);
            }
        }
    }

    /// A packet left the MAC layer for the driver at `now`.
    pub(super) fn dequeued(&mut self, packet: &SimPacket, now: Instant) {
        let sojourn = now.saturating_duration_since(packet.enqueue_time);
        let event = self
            .admission
            .dequeued(packet.flow_hash, packet.len_bytes, sojourn, now);
        if let Some(e) = event {
            let (station, flow) = self.counters(packet);
            station.count(e, now);
            flow.count(e, now);
        }
    }

    /// A packet was dropped before the driver took it.
    pub(super) fn dropped(&mut self, packet: &SimPacket) {
        self.admission.dropped(packet.flow_hash, packet.len_bytes);
    }

    fn counters(&mut self, p: &SimPacket) -> (&mut AdmissionCounters, &mut AdmissionCounters) {
        let f = p.flow.0 as usize;
        if self.flows.len() <= f {
            self.flows.resize(f + 1, AdmissionCounters::default());
        }
        (&mut self.stations[p.station.index()], &mut self.flows[f])
    }

    pub(super) fn stats(&self) -> AdmissionStats {
        self.admission.stats()
    }

    pub(super) fn params(&self) -> &AdmissionParams {
        self.admission.params()
    }

    pub(super) fn station(&self, station: StationId) -> AdmissionCounters {
        self.stations
            .get(station.index())
            .copied()
            .unwrap_or_default()
    }

    /// A scenario flow's counters (zero for a flow it never saw).
    pub(super) fn flow(&self, flow: u32) -> AdmissionCounters {
        self.flows.get(flow as usize).copied().unwrap_or_default()
    }

    pub(super) fn assert_invariants(&self) {
        self.admission.assert_invariants();
    }
}
