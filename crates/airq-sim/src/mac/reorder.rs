//! The recipient's side of a BlockAck agreement: its receive reordering buffer
//! (IEEE 802.11-2020 10.25.6.6, receive reordering buffer control), kept by the node
//! that receives, as ns-3 keeps `RecipientBlockAckAgreement` apart from the
//! originator's `BlockAckManager`. The originator's side — sequence numbers, the
//! transmit window, retries — is [`TidTx`](super::tid_tx::TidTx), kept by the sender.
//!
//! MPDUs received after a gap are held until every earlier one has been received or
//! given up by the originator, so that MSDUs reach the upper layer in order. Without
//! it every MAC retry would look like reordering to TCP.

use crate::net::packet::SimPacket;
use airq::Tid;
use std::collections::VecDeque;

/// The reordering buffer of one originator-TID at its recipient, from sequence number
/// `release_next` (WinStartB) on.
#[derive(Debug, Default)]
pub struct ReorderBuffer {
    slots: VecDeque<RxSlot>,
    release_next: u64,
}

/// One sequence number in the buffer.
#[derive(Debug)]
enum RxSlot {
    Awaited,
    Received(SimPacket),
    GivenUp,
}

impl ReorderBuffer {
    /// MPDU `seq` was received.
    pub fn receive(&mut self, seq: u64, packet: SimPacket) {
        self.hold(seq, RxSlot::Received(packet));
    }

    /// The originator gave MPDU `seq` up: stop waiting for it (in the standard a
    /// BlockAckReq moves the window, 10.25.6.6; its airtime is not modelled).
    pub fn give_up(&mut self, seq: u64) {
        self.hold(seq, RxSlot::GivenUp);
    }

    /// Hands the upper layer every MPDU now in order.
    pub fn release(&mut self, out: &mut Vec<SimPacket>) {
        while !matches!(self.slots.front(), None | Some(RxSlot::Awaited)) {
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

    /// Puts sequence number `seq`'s outcome into the buffer.
    fn hold(&mut self, seq: u64, slot: RxSlot) {
        let at = (seq - self.release_next) as usize;
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

    fn packet(id: u64) -> SimPacket {
        SimPacket {
            id,
            flow: crate::net::packet::FlowIndex(0),
            station: airq::StationId(0),
            uplink: false,
            relay_to: None,
            len_bytes: 1500,
            tid: Tid::new(0).unwrap(),
            flow_hash: 0,
            ecn: airq::Ecn::NotEct,
            created: airq::Instant::ZERO,
            payload: crate::net::packet::Payload::Udp,
            enqueue_time: airq::Instant::ZERO,
            airtime_est_us: 0,
        }
    }

    fn ids(out: &[SimPacket]) -> Vec<u64> {
        out.iter().map(|p| p.id).collect()
    }

    #[test]
    fn a_gap_holds_later_mpdus_until_it_is_filled_or_given_up() {
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
        b.give_up(3);
        b.release(&mut out);
        assert_eq!(ids(&out), [10, 11, 12, 14]);
        assert_eq!(b.held(), 0);
    }
}
