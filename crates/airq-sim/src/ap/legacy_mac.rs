//! The MAC layer of ath9k before mac80211's intermediate queues (Linux ≤ 4.10; the seeds'
//! baseline): mac80211 hands each frame to the driver at once (`ath_tx_start`), which
//! keeps it in a software FIFO per station-TID (`tid->buf_q`) until it builds an
//! aggregate. The only limit is per AC, on frames given to the driver and not yet
//! completed: `ath_tx_start` does `++txq->pending_frames > sc->tx.txq_max_pending[q]` →
//! `ieee80211_stop_queue`, and `ath_txq_skb_done` at completion decrements it and wakes
//! the queue once it is below the limit again (xmit.c). So at most `max + 1` frames
//! are accepted before the stop, and the qdisc above holds the rest — the bufferbloat.
//!
//! The count covers the FIFOs and everything below them (retry queue, hardware queue,
//! the PPDU on the air); the caller reports each completed frame with
//! [`LegacyMac::frame_done`].

use super::txq_key::TxqKey;
use crate::net::packet::SimPacket;
use airq::Ac;
use std::collections::VecDeque;

pub(super) struct LegacyMac {
    /// Per station-TID (`tid->buf_q`).
    buf_q: Vec<VecDeque<SimPacket>>,
    /// Per AC (`txq->pending_frames`).
    pending_frames: [u32; Ac::COUNT],
    /// Per AC (`txq->stopped`): the netdev queue is stopped.
    stopped: [bool; Ac::COUNT],
    txq_max_pending: u32,
}

impl LegacyMac {
    pub(super) fn new(keys: usize, txq_max_pending: u32) -> LegacyMac {
        LegacyMac {
            buf_q: (0..keys).map(|_| VecDeque::new()).collect(),
            pending_frames: [0; Ac::COUNT],
            stopped: [false; Ac::COUNT],
            txq_max_pending,
        }
    }

    /// Whether the AC's netdev queue is running (the qdisc may hand it a frame).
    pub(super) fn has_room(&self, ac: Ac) -> bool {
        !self.stopped[ac.index()]
    }

    pub(super) fn enqueue(&mut self, key: TxqKey, packet: SimPacket) {
        let ac = key.ac().index();
        self.pending_frames[ac] += 1;
        if self.pending_frames[ac] > self.txq_max_pending {
            self.stopped[ac] = true;
        }
        self.buf_q[key.index()].push_back(packet);
    }

    pub(super) fn dequeue(&mut self, key: TxqKey) -> Option<SimPacket> {
        self.buf_q[key.index()].pop_front()
    }

    pub(super) fn len(&self, key: TxqKey) -> usize {
        self.buf_q[key.index()].len()
    }

    /// A frame of `ac` was completed (delivered or dropped at the retry limit). Returns
    /// whether that woke the AC's queue.
    pub(super) fn frame_done(&mut self, ac: Ac) -> bool {
        let i = ac.index();
        debug_assert!(self.pending_frames[i] > 0, "pending_frames underflow");
        self.pending_frames[i] = self.pending_frames[i].saturating_sub(1);
        if self.stopped[i] && self.pending_frames[i] < self.txq_max_pending {
            self.stopped[i] = false;
            return true;
        }
        false
    }

    pub(super) fn pending_frames(&self, ac: Ac) -> u32 {
        self.pending_frames[ac.index()]
    }

    /// Frames in the FIFOs of `ac` (an O(keys) scan, for checks).
    pub(super) fn queued(&self, ac: Ac) -> usize {
        TxqKey::all(self.buf_q.len() / airq::Tid::COUNT)
            .filter(|k| k.ac() == ac)
            .map(|k| self.buf_q[k.index()].len())
            .sum()
    }
}
