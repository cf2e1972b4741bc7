//! The recipient's side of a BlockAck agreement: its receive reordering buffer
//! (IEEE 802.11-2020 10.25.6.6, receive reordering buffer control), kept by the node
//! that receives, as ns-3 keeps `RecipientBlockAckAgreement` apart from the
//! originator's `BlockAckManager`. The originator's side — sequence numbers, the
//! transmit window, retries — is [`TidTx`](super::tid_tx::TidTx), kept by the sender.
//!
//! MPDUs received after a gap are held until every earlier one has been received or the
//! originator's BlockAckReq moves the window past it (10.25.6.6.4: a BlockAckReq with
//! Starting Sequence Number SSN releases every MPDU before SSN and sets WinStartB to
//! it), so that MSDUs reach the upper layer in order. Without it every MAC retry would
//! look like reordering to TCP. A second copy of an MPDU (its BlockAck was lost, so the
//! originator sent it again), or one older than the window, is discarded (10.3.2.14,
//! duplicate detection; 10.25.6.6). One the window moved past before it arrived — sent
//! before the originator gave up its predecessors and arriving after the BlockAckReq —
//! is a loss, and is handed back as such.

use crate::net::packet::SimPacket;
use airq::Tid;
use std::collections::VecDeque;

/// The reordering buffer of one originator-TID at its recipient, from sequence number
/// `release_next` (WinStartB) on.
#[derive(Debug, Default)]
pub struct ReorderBuffer {
    slots: VecDeque<RxSlot>,
    release_next: u64,
    /// Sequence numbers a BlockAckReq moved the window past before they arrived, most
    /// recent last (at most [`Self::SKIPPED_KEPT`]).
    skipped: VecDeque<u64>,
}

/// One sequence number in the buffer.
#[derive(Debug)]
enum RxSlot {
    Awaited,
    Received(SimPacket),
}

/// What became of a received MPDU.
#[derive(Debug)]
pub enum Reception {
    /// Held or released in order.
    Accepted,
    /// A copy of one already received: discarded.
    Duplicate,
    /// The window moved past it before it arrived: discarded, lost.
    Late(SimPacket),
}

impl ReorderBuffer {
    /// How many skipped sequence numbers are remembered to tell a late MPDU from a
    /// duplicate: a BlockAck window's worth (64) and more.
    const SKIPPED_KEPT: usize = 256;

    /// MPDU `seq` was received.
    pub fn receive(&mut self, seq: u64, packet: SimPacket) -> Reception {
        if seq < self.release_next {
            return if self.skipped.contains(&seq) {
                self.skipped.retain(|&s| s != seq);
                Reception::Late(packet)
            } else {
                Reception::Duplicate
            };
        }
        let at = (seq - self.release_next) as usize;
        if matches!(self.slots.get(at), Some(RxSlot::Received(_))) {
            return Reception::Duplicate;
        }
        self.hold(at, RxSlot::Received(packet));
        Reception::Accepted
    }

    /// A BlockAckReq with Starting Sequence Number `ssn` arrived: every MPDU before it
    /// is released in order (the gaps skipped) and the window starts at `ssn`
    /// (10.25.6.6.4). An older `ssn` changes nothing.
    pub fn block_ack_req(&mut self, ssn: u64, out: &mut Vec<SimPacket>) {
        while self.release_next < ssn {
            match self.slots.pop_front() {
                Some(RxSlot::Received(packet)) => out.push(packet),
                Some(RxSlot::Awaited) | None => {
                    if self.skipped.len() == Self::SKIPPED_KEPT {
                        self.skipped.pop_front();
                    }
                    self.skipped.push_back(self.release_next);
                }
            }
            self.release_next += 1;
        }
        self.release(out);
    }

    /// Hands the upper layer every MPDU now in order.
    pub fn release(&mut self, out: &mut Vec<SimPacket>) {
        while let Some(RxSlot::Received(_)) = self.slots.front() {
            if let Some(RxSlot::Received(packet)) = self.slots.pop_front() {
                out.push(packet);
            }
            self.release_next += 1;
        }
    }

    /// MPDUs held behind a gap.
    pub fn held(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s, RxSlot::Received(_)))
            .count()
    }

    /// Puts the MPDU `at` places after the window's start into the buffer.
    fn hold(&mut self, at: usize, slot: RxSlot) {
        if at == self.slots.len() {
            self.slots.push_back(slot); // the usual case: in order
            return;
        }
        if self.slots.len() < at {
            self.slots.resize_with(at, || RxSlot::Awaited);
            self.slots.push_back(slot);
        } else {
            self.slots[at] = slot;
        }
    }
}

/// A node's reordering buffers for one originator, one per TID.
#[derive(Debug)]
pub struct Recipient {
    tids: Vec<ReorderBuffer>,
}

impl Default for Recipient {
    fn default() -> Self {
        Recipient {
            tids: (0..Tid::COUNT).map(|_| ReorderBuffer::default()).collect(),
        }
    }
}

impl Recipient {
    pub fn tid(&mut self, tid: Tid) -> &mut ReorderBuffer {
        &mut self.tids[usize::from(tid.get())]
    }

    /// MPDUs held behind a gap, over all TIDs.
    pub fn held(&self) -> usize {
        self.tids.iter().map(ReorderBuffer::held).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::udp_packet as packet;

    fn ids(out: &[SimPacket]) -> Vec<u32> {
        out.iter().map(|p| p.id).collect()
    }

    #[test]
    fn a_gap_holds_later_mpdus_until_it_is_filled_or_a_block_ack_req_moves_past_it() {
        let mut b = ReorderBuffer::default();
        let mut out = Vec::new();
        b.receive(0, packet(10));
        b.receive(2, packet(12));
        b.release(&mut out);
        assert_eq!(ids(&out), [10]);
        assert_eq!(b.held(), 1);
        b.receive(1, packet(11));
        b.receive(4, packet(14));
        b.release(&mut out);
        assert_eq!(ids(&out), [10, 11, 12]);
        // 10.25.6.6.4: SSN 4 releases what is before it; 14 is then in order.
        b.block_ack_req(4, &mut out);
        assert_eq!(ids(&out), [10, 11, 12, 14]);
        assert_eq!(b.held(), 0);
        // An older SSN changes nothing.
        b.block_ack_req(2, &mut out);
        assert_eq!(ids(&out), [10, 11, 12, 14]);
    }

    /// A second copy (its BlockAck was lost) is discarded, whether it is still held
    /// or already released; an MPDU the window moved past before it arrived is a loss.
    #[test]
    fn duplicates_are_discarded_and_late_mpdus_are_lost() {
        let mut b = ReorderBuffer::default();
        let mut out = Vec::new();
        assert!(matches!(b.receive(1, packet(11)), Reception::Accepted));
        assert!(matches!(b.receive(1, packet(11)), Reception::Duplicate));
        assert!(matches!(b.receive(0, packet(10)), Reception::Accepted));
        b.release(&mut out);
        assert!(matches!(b.receive(0, packet(10)), Reception::Duplicate));
        b.block_ack_req(5, &mut out);
        assert_eq!(ids(&out), [10, 11]);
        assert!(matches!(b.receive(3, packet(13)), Reception::Late(p) if p.id == 13));
        // Once: a second copy of it is a duplicate.
        assert!(matches!(b.receive(3, packet(13)), Reception::Duplicate));
        assert!(matches!(b.receive(5, packet(15)), Reception::Accepted));
        b.release(&mut out);
        assert_eq!(ids(&out), [10, 11, 15]);
    }
}
