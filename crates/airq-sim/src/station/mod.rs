//! A station's transmit path: an unmodified client, so one FIFO per AC (pfifo_fast-like,
//! 1000 packets shared, tail drop) feeding its radio, which aggregates per TID towards
//! the AP with the same BlockAck window and retry rules as the AP.

use crate::mac::frame::Ppdu;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::rate_control::RateControl;
use crate::mac::tid_tx::{AggregateLimits, Completion, LengthBounds, TidTx};
use crate::mac::txpath::{DropCause, TxOutcome, TxOutput, TxPath};
use crate::net::packet::{NodeId, SimPacket};
use airq::{Ac, Duration, Instant, StationId, Tid};
use std::collections::VecDeque;

/// Packets a station's queues hold (`txqueuelen` 1000 of pfifo_fast).
pub const STATION_QUEUE_PACKETS: usize = 1000;

pub struct StationTx {
    id: NodeId,
    bss: BssConfig,
    link: StationLink,
    limit_packets: usize,
    fifo: [VecDeque<SimPacket>; Ac::COUNT],
    queued: usize,
    tids: [TidTx; Tid::COUNT],
    limits: [AggregateLimits; Tid::COUNT],
    completion: Completion,
    /// The rate of each PPDU to the AP (the link's fixed rate unless
    /// [`set_rate_control`](Self::set_rate_control) says otherwise).
    rate_control: RateControl,
}

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

    /// Queues an uplink packet; tail drop when the queues are full: then the packet
    /// comes back, with why.
    pub fn enqueue(
        &mut self,
        mut packet: SimPacket,
        now: Instant,
    ) -> Result<(), (SimPacket, DropCause)> {
        if self.queued >= self.limit_packets {
            return Err((packet, DropCause::QueueFull));
        }
        packet.enqueue_time = now;
        self.queued += 1;
        self.fifo[packet.tid.ac().index()].push_back(packet);
        Ok(())
    }

    /// Packets in the FIFOs (not counting MPDUs awaiting retry).
    pub fn queued(&self) -> usize {
        self.queued
    }

    fn tids_of(ac: Ac) -> impl Iterator<Item = usize> {
        (0..8).filter(move |&t| Tid::new(t as u8).is_some_and(|tid| tid.ac() == ac))
    }
}

impl TxPath for StationTx {
    fn has_frames(&self, ac: Ac) -> bool {
        !self.fifo[ac.index()].is_empty()
            || Self::tids_of(ac).any(|t| self.tids[t].has_sendable(self.link.ba_window))
    }

    fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu> {
        // MPDUs awaiting retry go first; otherwise the TID of the packet at the head.
        let window = self.link.ba_window;
        let tid = Self::tids_of(ac)
            .find(|&t| self.tids[t].has_sendable(window))
            .or_else(|| {
                self.fifo[ac.index()]
                    .front()
                    .map(|p| usize::from(p.tid.get()))
            })?;
        let fifo = &mut self.fifo[ac.index()];
        let queued = &mut self.queued;
        let tid_id = Tid::new(tid as u8).expect("TID below 16");
        let tx = self
            .rate_control
            .tx_rate(self.tids[tid].head_retries(), now);
        let limits = self.limits[tid].at_rate(&self.bss, &self.link, tx.rate, tx.probe);
        self.tids[tid].build_ppdu_at(
            (self.id, NodeId::Ap, tid_id),
            &self.bss,
            tx.rate,
            &limits,
            || {
                if fifo.front()?.tid != tid_id {
                    return None;
                }
                *queued -= 1;
                fifo.pop_front()
            },
        )
    }

    fn tx_done(&mut self, ppdu: Ppdu, _airtime: Duration, now: Instant) -> (TxOutcome, TxOutput) {
        let mut out = TxOutput::default();
        let ppdu_tid = ppdu.tid;
        let tid = usize::from(ppdu_tid.get());
        let (rate, mpdus) = (ppdu.rate, ppdu.mpdus.len() as u32);
        let c = &mut self.completion;
        let retry_limit = self.bss.retry_limit_for(&ppdu);
        self.tids[tid].complete(ppdu, retry_limit, c);
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
