//! The qdisc layer: Linux's `mq` root over a mac80211 interface's four netdev queues
//! (one per AC, `ieee80211_select_queue` picks it), one instance of the chosen qdisc per
//! queue. The MAC layer pulls from an AC's instance while it has room for that AC
//! (`qdisc_run` until the driver stops the netdev queue), so a stopped BE queue holds back
//! only BE packets — where FIFO bufferbloat builds up.
//!
//! `fq_codel` is the library's [`Fq`] with a single tin: DRR++ over flow queues with CoDel
//! on each, and the fattest-flow drop at the limits, which is `sch_fq_codel`. Differences
//! from `sch_fq_codel`: an overlimit round drops min(32, half the flow's packets) as
//! mac80211's `fq_flow_drop` does, where `fq_codel_drop` drops up to 64 packets until half
//! the flow's bytes are gone.

use super::pfifo_fast::PfifoFast;
use crate::mac::txpath::DropCause;
use crate::net::packet::SimPacket;
use airq::fq::{DropReason, FqParams, TinId};
use airq::{Ac, Fq, Instant};

/// One qdisc instance per AC.
pub(super) struct Qdisc {
    per_ac: Vec<QdiscQueue>,
}

enum QdiscQueue {
    PfifoFast(PfifoFast),
    FqCodel { fq: Box<Fq<SimPacket>>, tin: TinId },
}

impl Qdisc {
    pub(super) fn pfifo_fast(limit_packets: u32) -> Qdisc {
        Qdisc {
            per_ac: Ac::ALL
                .iter()
                .map(|_| QdiscQueue::PfifoFast(PfifoFast::new(limit_packets)))
                .collect(),
        }
    }

    /// Validated parameters only (the caller checks them).
    pub(super) fn fq_codel(params: FqParams) -> Option<Qdisc> {
        let mut per_ac = Vec::with_capacity(Ac::COUNT);
        for _ in Ac::ALL {
            let mut fq = Box::new(Fq::new(params).ok()?);
            let tin = fq.add_tin();
            per_ac.push(QdiscQueue::FqCodel { fq, tin });
        }
        Some(Qdisc { per_ac })
    }

    /// Queues a packet in its AC's instance at `now`. Packets dropped (possibly this one)
    /// go to `on_drop`.
    pub(super) fn enqueue(
        &mut self,
        packet: SimPacket,
        now: Instant,
        mut on_drop: impl FnMut(SimPacket, DropCause),
    ) {
        match &mut self.per_ac[packet.tid.ac().index()] {
            QdiscQueue::PfifoFast(q) => {
                if let Err(packet) = q.enqueue(packet) {
                    on_drop(packet, DropCause::QdiscOverlimit);
                }
            }
            QdiscQueue::FqCodel { fq, tin } => {
                let result = fq.enqueue(*tin, packet, now, |d| on_drop(d.packet, cause(d.reason)));
                if let Err(e) = result {
                    // The tin is ours and never removed; keep the packet accounted anyway.
                    debug_assert!(false, "fq_codel qdisc tin vanished: {:?}", e.error);
                    on_drop(e.packet, DropCause::QdiscOverlimit);
                }
            }
        }
    }

    /// The next packet of `ac`'s instance at `now`; CoDel's drops go to `on_drop`.
    pub(super) fn dequeue(
        &mut self,
        ac: Ac,
        now: Instant,
        mut on_drop: impl FnMut(SimPacket, DropCause),
    ) -> Option<SimPacket> {
        match &mut self.per_ac[ac.index()] {
            QdiscQueue::PfifoFast(q) => q.dequeue(),
            QdiscQueue::FqCodel { fq, tin } => fq
                .dequeue(*tin, now, |d| on_drop(d.packet, cause(d.reason)))
                .ok()
                .flatten(),
        }
    }

    /// Packets queued in `ac`'s instance.
    pub(super) fn len(&self, ac: Ac) -> u32 {
        match &self.per_ac[ac.index()] {
            QdiscQueue::PfifoFast(q) => q.len(),
            QdiscQueue::FqCodel { fq, .. } => fq.stats().backlog_packets,
        }
    }

    /// Checks the FQ structures' own accounting (tests).
    pub(super) fn assert_invariants(&self) {
        for q in &self.per_ac {
            if let QdiscQueue::FqCodel { fq, .. } = q {
                fq.assert_invariants();
            }
        }
    }
}

/// The qdisc's reason for an [`Fq`] drop.
fn cause(reason: DropReason) -> DropCause {
    match reason {
        DropReason::Codel => DropCause::QdiscCodel,
        // Limits; purges and filters are never asked of the qdisc.
        DropReason::Overlimit
        | DropReason::Overmemory
        | DropReason::Purged
        | DropReason::Filtered => DropCause::QdiscOverlimit,
    }
}
