//! A station's transmit path: by default an unmodified client, so one FIFO per AC
//! feeding its radio, which aggregates per TID towards the AP with the same BlockAck
//! window and retry rules as the AP.
//!
//! Each AC's FIFO holds up to `txqueuelen` packets (1000) on its own, with tail drop: a
//! mac80211 interface of a driver with four hardware queues has four netdev TX queues,
//! one per AC (`net/mac80211/iface.c`, `ieee80211_if_add`: `txqs =
//! IEEE80211_NUM_ACS`), `ieee80211_select_queue` (`wme.c`) puts a packet in its AC's,
//! and such a device gets the `mq` root qdisc with a default qdisc of its own per TX
//! queue (`net/sched/sch_generic.c`, `attach_default_qdiscs`; `sch_mq.c`), each limited
//! by `tx_queue_len` (`pfifo_fast_init`). A saturated best-effort queue therefore never
//! takes a voice packet's room.
//!
//! Or, [`StationQueue::FqMac`], mac80211's own per-TID FQ-CoDel queues (FQ-MAC) under
//! the `noqueue` qdisc, as a client whose driver has `wake_tx_queue` runs them (every
//! mac80211 driver since Linux 6.2): one tin per TID over a pool of flows, with
//! mac80211's defaults (`ieee80211_txq_setup_flows`), the TIDs of an AC served in turn.

use crate::ap::fq_mac::FqMac;
use crate::ap::TxqKey;
use crate::mac::frame::Ppdu;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::rate_control::RateControl;
use crate::mac::tid_tx::{AggregateLimits, Completion, LengthBounds, TidTx};
use crate::mac::txpath::{DropCause, Dropped, TxOutcome, TxOutput, TxPath};
use crate::net::packet::{NodeId, SimPacket};
use airq::fq::FqParams;
use airq::{Ac, Duration, Instant, StationId, Tid};
use std::collections::VecDeque;

/// Packets each of a station's AC queues holds (`txqueuelen` 1000, `ether_setup`).
pub const STATION_QUEUE_PACKETS: usize = 1000;

/// A station's queues above its radio.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum StationQueue {
    /// One FIFO per AC, each of [`BssScenario::station_queue_packets`] packets
    /// (`pfifo_fast` under `mq`): an unmodified client.
    ///
    /// [`BssScenario::station_queue_packets`]: crate::bss::BssScenario::station_queue_packets
    #[default]
    Fifo,
    /// mac80211's FQ-CoDel per TID (FQ-MAC) with these parameters.
    FqMac(FqParams),
}

enum Queues {
    Fifo {
        /// Per AC.
        limit_packets: usize,
        fifo: [VecDeque<SimPacket>; Ac::COUNT],
    },
    FqMac {
        fq: Box<FqMac>,
        /// Per AC, the TID served last.
        last: [u8; Ac::COUNT],
    },
}

pub struct StationTx {
    id: NodeId,
    bss: BssConfig,
    link: StationLink,
    queues: Queues,
    queued: usize,
    /// What the queues dropped while the radio took frames (CoDel in FQ-MAC), until
    /// [`TxPath::take_dropped`].
    dequeue_drops: Dropped,
    /// Bit `t` set when TID `t` holds MPDUs awaiting a (re)try: `has_frames`, asked after
    /// every event, reads the TIDs' state only then (at 1000 stations that state is
    /// rarely in cache).
    retrying: u16,
    tids: [TidTx; Tid::COUNT],
    limits: [AggregateLimits; Tid::COUNT],
    completion: Completion,
    /// The rate of each PPDU to the AP (the link's fixed rate unless
    /// [`set_rate_control`](Self::set_rate_control) says otherwise).
    rate_control: RateControl,
}

/// The TIDs of each AC (802.11-2020 Table 10-1, as [`Tid::ac`] maps them), as bit masks.
const AC_TIDS: [u16; Ac::COUNT] = {
    let mut masks = [0; Ac::COUNT];
    let mut t = 0;
    while t < 8 {
        if let Some(tid) = Tid::new(t) {
            masks[tid.ac().index()] |= 1 << t;
        }
        t += 1;
    }
    masks
};

/// The data TIDs of each AC, in order (802.11-2020 Table 10-1).
const AC_TID_LIST: [[u8; 2]; Ac::COUNT] = {
    let mut lists = [[u8::MAX; 2]; Ac::COUNT];
    let mut t = 0;
    while t < 8 {
        if let Some(tid) = Tid::new(t) {
            let ac = tid.ac().index();
            let i = (lists[ac][0] != u8::MAX) as usize;
            lists[ac][i] = t;
        }
        t += 1;
    }
    lists
};

/// The FQ-MAC tin of TID `t`.
fn tid_key(t: u8) -> TxqKey {
    TxqKey::new(StationId(0), Tid::new(t).expect("a data TID"))
}

impl StationTx {
    /// A station with FIFOs of `limit_packets` per AC, or with `queue`'s FQ-MAC; `None`
    /// when FQ-MAC's parameters are invalid.
    pub fn new(
        station: StationId,
        bss: &BssConfig,
        link: &StationLink,
        limit_packets: usize,
        queue: &StationQueue,
    ) -> Option<Self> {
        let queues = match queue {
            StationQueue::Fifo => Queues::Fifo {
                limit_packets,
                fifo: Default::default(),
            },
            StationQueue::FqMac(params) => Queues::FqMac {
                fq: Box::new(FqMac::new(*params, Tid::COUNT)?),
                last: [0; Ac::COUNT],
            },
        };
        Some(StationTx {
            id: NodeId::Sta(station),
            bss: bss.clone(),
            link: link.clone(),
            queues,
            queued: 0,
            dequeue_drops: Vec::new(),
            retrying: 0,
            tids: Default::default(),
            limits: {
                let mut bounds = LengthBounds::default();
                core::array::from_fn(|t| {
                    let tid = Tid::new(t as u8).expect("TID below 16");
                    AggregateLimits::new_with(bss, link, tid, &mut bounds)
                })
            },
            completion: Completion::default(),
            rate_control: RateControl::Fixed(link.rate),
        })
    }

    /// Chooses the uplink's rates with `rate_control` (built for this link).
    pub fn set_rate_control(&mut self, rate_control: RateControl) {
        self.rate_control = rate_control;
    }

    pub fn rate_control(&self) -> &RateControl {
        &self.rate_control
    }

    /// Queues an uplink packet: in its AC's FIFO, tail drop when that FIFO is full; or
    /// in its TID's FQ-MAC tin, which drops from the fattest flow over its limits.
    /// Returns what was dropped (possibly `packet`), with why.
    pub fn enqueue(&mut self, mut packet: SimPacket, now: Instant) -> Dropped {
        let mut dropped = Vec::new();
        match &mut self.queues {
            Queues::Fifo {
                limit_packets,
                fifo,
            } => {
                let fifo = &mut fifo[packet.tid.ac().index()];
                if fifo.len() >= *limit_packets {
                    dropped.push((packet, DropCause::QueueFull));
                    return dropped;
                }
                packet.enqueue_time = now;
                self.queued += 1;
                fifo.push_back(packet);
            }
            Queues::FqMac { fq, .. } => {
                let key = TxqKey::new(StationId(0), packet.tid);
                self.queued += 1;
                fq.enqueue(key, packet, now, |p, cause| dropped.push((p, cause)));
                self.queued -= dropped.len();
            }
        }
        dropped
    }

    /// Packets in the queues (not counting MPDUs awaiting retry).
    pub fn queued(&self) -> usize {
        self.queued
    }

    /// Whether the queues hold a packet of `ac`.
    fn queue_has(&self, ac: Ac) -> bool {
        match &self.queues {
            Queues::Fifo { fifo, .. } => !fifo[ac.index()].is_empty(),
            Queues::FqMac { fq, .. } => AC_TID_LIST[ac.index()]
                .iter()
                .any(|&t| fq.has_queue(tid_key(t))),
        }
    }

    /// The TID whose queued packets go next for `ac`: the FIFO's head's, or the next of
    /// the AC's TIDs with a queue after the one served last.
    fn next_queued_tid(&self, ac: Ac) -> Option<usize> {
        match &self.queues {
            Queues::Fifo { fifo, .. } => fifo[ac.index()].front().map(|p| usize::from(p.tid.get())),
            Queues::FqMac { fq, last } => {
                let tids = AC_TID_LIST[ac.index()];
                let from = tids
                    .iter()
                    .position(|&t| t == last[ac.index()])
                    .unwrap_or(0);
                (1..=tids.len())
                    .map(|k| tids[(from + k) % tids.len()])
                    .find(|&t| fq.has_queue(tid_key(t)))
                    .map(usize::from)
            }
        }
    }

    /// The lowest TID of `ac` whose MPDUs awaiting a (re)try the BlockAck window lets go.
    fn sendable_tid(&self, ac: Ac) -> Option<usize> {
        let mut retrying = self.retrying & AC_TIDS[ac.index()];
        while retrying != 0 {
            let t = retrying.trailing_zeros() as usize;
            if self.tids[t].has_sendable(self.link.ba_window) {
                return Some(t);
            }
            retrying &= retrying - 1;
        }
        None
    }

    /// Notes whether TID `tid` holds MPDUs awaiting a (re)try, after a change to it.
    fn note_retrying(&mut self, tid: usize) {
        let bit = 1 << tid;
        if self.tids[tid].pending_len() > 0 {
            self.retrying |= bit;
        } else {
            self.retrying &= !bit;
        }
    }
}

impl TxPath for StationTx {
    fn has_frames(&self, ac: Ac) -> bool {
        debug_assert!(
            (0..Tid::COUNT)
                .all(|t| (self.retrying >> t) & 1 == u16::from(self.tids[t].pending_len() > 0)),
            "the retrying bits follow the TIDs"
        );
        self.queue_has(ac) || self.sendable_tid(ac).is_some()
    }

    fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu> {
        // MPDUs awaiting retry go first; otherwise the TID of the queued packets next.
        let tid = self.sendable_tid(ac).or_else(|| self.next_queued_tid(ac))?;
        let queued = &mut self.queued;
        let tid_id = Tid::new(tid as u8).expect("TID below 16");
        if let Queues::FqMac { last, .. } = &mut self.queues {
            last[ac.index()] = tid as u8;
        }
        let (queues, drops) = (&mut self.queues, &mut self.dequeue_drops);
        let key = TxqKey::new(StationId(0), tid_id);
        let next = || match queues {
            Queues::Fifo { fifo, .. } => {
                let fifo = &mut fifo[ac.index()];
                if fifo.front()?.tid != tid_id {
                    return None;
                }
                *queued -= 1;
                fifo.pop_front()
            }
            Queues::FqMac { fq, .. } => {
                let before = drops.len();
                let p = fq.dequeue(key, now, |p, cause| drops.push((p, cause)));
                *queued -= drops.len() - before + usize::from(p.is_some());
                p
            }
        };
        let (unanswered, probed) = self.tids[tid].chain_position();
        let tx = self.rate_control.tx_rate(unanswered, probed, now);
        let limits = self.limits[tid].at_rate(&self.bss, &self.link, tx.rate, tx.alone);
        let ppdu = self.tids[tid].build_ppdu_at(
            (self.id, NodeId::Ap, tid_id),
            &self.bss,
            tx,
            &limits,
            next,
        );
        self.note_retrying(tid);
        ppdu
    }

    fn take_dropped(&mut self, out: &mut Dropped) {
        out.append(&mut self.dequeue_drops);
    }

    fn tx_done(&mut self, ppdu: Ppdu, _airtime: Duration, now: Instant) -> (TxOutcome, TxOutput) {
        let mut out = TxOutput::default();
        let ppdu_tid = ppdu.tid;
        let tid = usize::from(ppdu_tid.get());
        let (rate, mpdus) = (ppdu.rate, ppdu.mpdus.len() as u32);
        let retry_limit = self.bss.retry_limit_for(&ppdu);
        self.tids[tid].complete(ppdu, retry_limit, &mut self.completion);
        self.note_retrying(tid);
        let c = &mut self.completion;
        let outcome = c.outcome();
        self.rate_control
            .tx_status(&rate, mpdus, outcome.acked, now);
        c.retried = 0;
        c.copies = 0;
        out.acked.append(&mut c.delivered);
        for (seq, p) in c.dropped.drain(..) {
            out.given_up.push((ppdu_tid, seq));
            out.dropped.push((p, DropCause::RetryLimit));
        }
        (outcome, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::{ht20, udp_packet};
    use airq::phy::Band;

    fn packet(id: u32, tid: u8) -> SimPacket {
        SimPacket {
            uplink: true,
            tid: Tid::new(tid).unwrap(),
            ..udp_packet(id)
        }
    }

    fn station(limit_packets: usize) -> StationTx {
        let bss = BssConfig::ofdm(Band::Ghz5);
        StationTx::new(
            StationId(0),
            &bss,
            &ht20(7),
            limit_packets,
            &StationQueue::Fifo,
        )
        .unwrap()
    }

    /// The one packet `enqueue` dropped, if any.
    fn dropped(mut d: Dropped) -> Option<(SimPacket, DropCause)> {
        assert!(d.len() <= 1);
        d.pop()
    }

    /// mq: one qdisc per AC queue, each with its own `tx_queue_len`
    /// (`net/mac80211/iface.c` `ieee80211_if_add`, `net/sched/sch_mq.c`).
    #[test]
    fn a_full_best_effort_queue_leaves_voice_its_own_room() {
        let mut sta = station(3);
        let enqueue =
            |sta: &mut StationTx, id, tid| dropped(sta.enqueue(packet(id, tid), Instant::ZERO));
        let dropped: Vec<u32> = (0..5)
            .filter_map(|id| enqueue(&mut sta, id, 0))
            .map(|(p, cause)| {
                assert!(matches!(cause, DropCause::QueueFull));
                p.id
            })
            .collect();
        assert_eq!(dropped, [3, 4], "tail drop past BE's 3");
        for id in 5..8 {
            assert!(enqueue(&mut sta, id, 6).is_none(), "VO has its own room");
        }
        assert!(enqueue(&mut sta, 8, 1).is_none(), "BK has its own room");
        assert_eq!(sta.queued(), 7);
        let full = enqueue(&mut sta, 9, 7).map(|(p, _)| p.id);
        assert_eq!(full, Some(9), "VO full at its own 3");
        assert!(sta.has_frames(Ac::Vo) && sta.has_frames(Ac::Bk) && !sta.has_frames(Ac::Vi));
    }

    /// FQ-MAC: a sparse flow's packet goes out in the first A-MPDU behind a bulk flow's
    /// backlog (its flow queue is new, so it is served first), where the FIFO sends it
    /// after the whole backlog; its global limit drops from the fattest flow.
    #[test]
    fn fq_mac_sends_a_sparse_flows_packet_ahead_of_a_backlog() {
        let bss = BssConfig::ofdm(Band::Ghz5);
        let params = FqParams {
            limit_packets: 100,
            ..FqParams::default()
        };
        let queue = StationQueue::FqMac(params);
        let mut fq = StationTx::new(StationId(0), &bss, &ht20(7), 1000, &queue).unwrap();
        let mut fifo = station(1000);
        // Hashes far apart: the pool's flow is the hash scaled onto it.
        let bulk = |id| SimPacket {
            flow_hash: 0x1000_0000,
            ..packet(id, 0)
        };
        let sparse = SimPacket {
            flow_hash: 0x9000_0000,
            ..packet(999, 0)
        };
        for sta in [&mut fq, &mut fifo] {
            for id in 0..100 {
                assert!(sta.enqueue(bulk(id), Instant::ZERO).is_empty());
            }
        }
        // Over the limit: FQ-MAC drops from the bulk flow, the FIFO takes it.
        let d = fq.enqueue(sparse.clone(), Instant::ZERO);
        assert!(!d.is_empty());
        assert!(d
            .iter()
            .all(|(p, cause)| p.flow_hash == 0x1000_0000 && *cause == DropCause::FqOverlimit));
        assert!(fifo.enqueue(sparse, Instant::ZERO).is_empty());
        assert_eq!((fq.queued(), fifo.queued()), (101 - d.len(), 101));
        let first = |sta: &mut StationTx| -> Vec<u32> {
            let ppdu = sta.next_ppdu(Ac::Be, Instant::ZERO).unwrap();
            ppdu.mpdus.iter().map(|m| m.packet.id).collect()
        };
        let f = first(&mut fq);
        assert!(
            f.contains(&999),
            "FQ-MAC: the sparse packet goes first: {f:?}"
        );
        assert!(!first(&mut fifo).contains(&999), "FIFO: behind the backlog");
        let mut out = Vec::new();
        fq.take_dropped(&mut out);
        assert!(out.is_empty(), "no CoDel drop at time zero");
    }
}
