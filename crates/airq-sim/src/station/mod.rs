//! A station's transmit path: an unmodified client, so one FIFO per AC feeding its
//! radio, which aggregates per TID towards the AP with the same BlockAck window and
//! retry rules as the AP.
//!
//! Each AC's FIFO holds up to `txqueuelen` packets (1000) on its own, with tail drop: a
//! mac80211 interface of a driver with four hardware queues has four netdev TX queues,
//! one per AC (`net/mac80211/iface.c`, `ieee80211_if_add`: `txqs =
//! IEEE80211_NUM_ACS`), `ieee80211_select_queue` (`wme.c`) puts a packet in its AC's,
//! and such a device gets the `mq` root qdisc with a default qdisc of its own per TX
//! queue (`net/sched/sch_generic.c`, `attach_default_qdiscs`; `sch_mq.c`), each limited
//! by `tx_queue_len` (`pfifo_fast_init`). A saturated best-effort queue therefore never
//! takes a voice packet's room. (Since Linux 6.2 every mac80211 driver uses mac80211's
//! own per-TID FQ-CoDel queues under the `noqueue` qdisc instead; not modelled.)

use crate::mac::frame::Ppdu;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::rate_control::RateControl;
use crate::mac::tid_tx::{AggregateLimits, Completion, LengthBounds, TidTx};
use crate::mac::txpath::{DropCause, TxOutcome, TxOutput, TxPath};
use crate::net::packet::{NodeId, SimPacket};
use airq::{Ac, Duration, Instant, StationId, Tid};
use std::collections::VecDeque;

/// Packets each of a station's AC queues holds (`txqueuelen` 1000, `ether_setup`).
pub const STATION_QUEUE_PACKETS: usize = 1000;

pub struct StationTx {
    id: NodeId,
    bss: BssConfig,
    link: StationLink,
    /// Per AC.
    limit_packets: usize,
    fifo: [VecDeque<SimPacket>; Ac::COUNT],
    queued: usize,
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

impl StationTx {
    pub fn new(
        station: StationId,
        bss: &BssConfig,
        link: &StationLink,
        limit_packets: usize,
    ) -> Self {
        StationTx {
            id: NodeId::Sta(station),
            bss: bss.clone(),
            link: link.clone(),
            limit_packets,
            fifo: Default::default(),
            queued: 0,
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
        }
    }

    /// Chooses the uplink's rates with `rate_control` (built for this link).
    pub fn set_rate_control(&mut self, rate_control: RateControl) {
        self.rate_control = rate_control;
    }

    pub fn rate_control(&self) -> &RateControl {
        &self.rate_control
    }

    /// Queues an uplink packet in its AC's FIFO; tail drop when that FIFO is full: then
    /// the packet comes back, with why.
    pub fn enqueue(
        &mut self,
        mut packet: SimPacket,
        now: Instant,
    ) -> Result<(), (SimPacket, DropCause)> {
        let fifo = &mut self.fifo[packet.tid.ac().index()];
        if fifo.len() >= self.limit_packets {
            return Err((packet, DropCause::QueueFull));
        }
        packet.enqueue_time = now;
        self.queued += 1;
        fifo.push_back(packet);
        Ok(())
    }

    /// Packets in the FIFOs (not counting MPDUs awaiting retry).
    pub fn queued(&self) -> usize {
        self.queued
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
        !self.fifo[ac.index()].is_empty() || self.sendable_tid(ac).is_some()
    }

    fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu> {
        // MPDUs awaiting retry go first; otherwise the TID of the packet at the head.
        let tid = self.sendable_tid(ac).or_else(|| {
            self.fifo[ac.index()]
                .front()
                .map(|p| usize::from(p.tid.get()))
        })?;
        let fifo = &mut self.fifo[ac.index()];
        let queued = &mut self.queued;
        let tid_id = Tid::new(tid as u8).expect("TID below 16");
        let (unanswered, probed) = self.tids[tid].chain_position();
        let tx = self.rate_control.tx_rate(unanswered, probed, now);
        let limits = self.limits[tid].at_rate(&self.bss, &self.link, tx.rate, tx.alone);
        let ppdu = self.tids[tid].build_ppdu_at(
            (self.id, NodeId::Ap, tid_id),
            &self.bss,
            tx,
            &limits,
            || {
                if fifo.front()?.tid != tid_id {
                    return None;
                }
                *queued -= 1;
                fifo.pop_front()
            },
        );
        self.note_retrying(tid);
        ppdu
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
        StationTx::new(StationId(0), &bss, &ht20(7), limit_packets)
    }

    /// mq: one qdisc per AC queue, each with its own `tx_queue_len`
    /// (`net/mac80211/iface.c` `ieee80211_if_add`, `net/sched/sch_mq.c`).
    #[test]
    fn a_full_best_effort_queue_leaves_voice_its_own_room() {
        let mut sta = station(3);
        let enqueue = |sta: &mut StationTx, id, tid| sta.enqueue(packet(id, tid), Instant::ZERO);
        let dropped: Vec<u32> = (0..5)
            .filter_map(|id| enqueue(&mut sta, id, 0).err())
            .map(|(p, cause)| {
                assert!(matches!(cause, DropCause::QueueFull));
                p.id
            })
            .collect();
        assert_eq!(dropped, [3, 4], "tail drop past BE's 3");
        for id in 5..8 {
            assert!(enqueue(&mut sta, id, 6).is_ok(), "VO has its own room");
        }
        assert!(enqueue(&mut sta, 8, 1).is_ok(), "BK has its own room");
        assert_eq!(sta.queued(), 7);
        let full = enqueue(&mut sta, 9, 7).err().map(|(p, _)| p.id);
        assert_eq!(full, Some(9), "VO full at its own 3");
        assert!(sta.has_frames(Ac::Vo) && sta.has_frames(Ac::Bk) && !sta.has_frames(Ac::Vi));
    }
}
