//! The bottleneck's queue in the TCP test bed: a tail-drop FIFO or FQ-CoDel (the
//! library's [`Fq`] with one tin and `sch_fq_codel`'s defaults), and the IP packet it
//! holds.

use crate::transport::tcp::Segment;
use airq::{CodelParams, Ecn, Fq, FqParams, Instant, Packet, Quantum, TinId};
use std::collections::VecDeque;

/// The bottleneck queue.
#[derive(Clone, Copy, Debug)]
pub(super) enum QueueSpec {
    /// Tail drop beyond this many packets.
    Fifo { limit_packets: usize },
    /// `sch_fq_codel` defaults (1514-byte quantum, 5 ms / 100 ms), ECN marking or not.
    FqCodel { ecn: bool },
}

/// One IP packet on the path.
#[derive(Clone, Debug)]
pub(super) struct Pkt {
    pub(super) flow: usize,
    pub(super) segment: Segment,
    pub(super) ecn: Ecn,
    pub(super) enqueue_time: Instant,
}

impl Packet for Pkt {
    fn len_bytes(&self) -> u32 {
        self.segment.ip_len()
    }
    fn flow_hash(&self) -> u32 {
        (self.flow as u32).wrapping_mul(0x9e37_79b9)
    }
    fn enqueue_time(&self) -> Instant {
        self.enqueue_time
    }
    fn set_enqueue_time(&mut self, now: Instant) {
        self.enqueue_time = now;
    }
    fn ecn_capable(&self) -> bool {
        self.ecn.is_capable()
    }
    fn set_ce(&mut self) {
        self.ecn = Ecn::Ce;
    }
}

pub(super) enum Queue {
    Fifo { limit: usize, q: VecDeque<Pkt> },
    FqCodel { fq: Box<Fq<Pkt>>, tin: TinId },
}

impl Queue {
    pub(super) fn new(spec: QueueSpec) -> Queue {
        match spec {
            QueueSpec::Fifo { limit_packets } => Queue::Fifo {
                limit: limit_packets,
                q: VecDeque::new(),
            },
            QueueSpec::FqCodel { ecn } => {
                let params = FqParams {
                    quantum: Quantum::Bytes(1514),
                    limit_packets: 10_240,
                    codel: CodelParams {
                        ecn,
                        ..CodelParams::default()
                    },
                    ..FqParams::default()
                };
                let mut fq = Box::new(Fq::new(params).expect("valid fq_codel parameters"));
                let tin = fq.add_tin();
                Queue::FqCodel { fq, tin }
            }
        }
    }

    /// Queues `pkt`; returns the packets dropped.
    pub(super) fn enqueue(&mut self, pkt: Pkt, now: Instant) -> u64 {
        match self {
            Queue::Fifo { limit, q } => {
                if q.len() >= *limit {
                    return 1;
                }
                q.push_back(pkt);
                0
            }
            Queue::FqCodel { fq, tin } => {
                let mut drops = 0;
                fq.enqueue(*tin, pkt, now, |_| drops += 1)
                    .expect("the tin exists");
                drops
            }
        }
    }

    /// The next packet, and the packets CoDel dropped on the way.
    pub(super) fn dequeue(&mut self, now: Instant) -> (Option<Pkt>, u64) {
        match self {
            Queue::Fifo { q, .. } => (q.pop_front(), 0),
            Queue::FqCodel { fq, tin } => {
                let mut drops = 0;
                let p = fq
                    .dequeue(*tin, now, |_| drops += 1)
                    .expect("the tin exists");
                (p, drops)
            }
        }
    }

    pub(super) fn assert_invariants(&self) {
        if let Queue::FqCodel { fq, .. } = self {
            fq.assert_invariants();
        }
    }
}
