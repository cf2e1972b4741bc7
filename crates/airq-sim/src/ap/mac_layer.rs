//! The MAC queueing layer as the rest of the transmit path sees it: either design behind
//! one interface — may the qdisc hand it a packet of this AC, queue, dequeue for a
//! station-TID, is anything queued there, and (legacy only) a frame below it completed.

use super::fq_mac::FqMac;
use super::legacy_mac::LegacyMac;
use super::txq_key::TxqKey;
use crate::mac::txpath::DropCause;
use crate::net::packet::SimPacket;
use airq::{Ac, Instant};

pub(super) enum MacLayer {
    Legacy(LegacyMac),
    FqMac(Box<FqMac>),
}

impl MacLayer {
    /// Whether the AC's netdev queue runs. FQ-MAC never stops it for backlog.
    pub(super) fn has_room(&self, ac: Ac) -> bool {
        match self {
            MacLayer::Legacy(m) => m.has_room(ac),
            MacLayer::FqMac(_) => true,
        }
    }

    pub(super) fn enqueue(
        &mut self,
        key: TxqKey,
        packet: SimPacket,
        now: Instant,
        on_drop: impl FnMut(SimPacket, DropCause),
    ) {
        match self {
            MacLayer::Legacy(m) => m.enqueue(key, packet),
            MacLayer::FqMac(m) => m.enqueue(key, packet, now, on_drop),
        }
    }

    pub(super) fn dequeue(
        &mut self,
        key: TxqKey,
        now: Instant,
        on_drop: impl FnMut(SimPacket, DropCause),
    ) -> Option<SimPacket> {
        match self {
            MacLayer::Legacy(m) => m.dequeue(key),
            MacLayer::FqMac(m) => m.dequeue(key, now, on_drop),
        }
    }

    pub(super) fn has_queue(&self, key: TxqKey) -> bool {
        match self {
            MacLayer::Legacy(m) => m.len(key) > 0,
            MacLayer::FqMac(m) => m.has_queue(key),
        }
    }

    /// Packets queued for the station-TID.
    pub(super) fn backlog_packets(&self, key: TxqKey) -> u32 {
        match self {
            MacLayer::Legacy(m) => u32::try_from(m.len(key)).unwrap_or(u32::MAX),
            MacLayer::FqMac(m) => m.backlog_packets(key),
        }
    }

    /// A frame of `ac` that went through this layer was completed; whether that woke the
    /// AC's netdev queue.
    pub(super) fn frame_done(&mut self, ac: Ac) -> bool {
        match self {
            MacLayer::Legacy(m) => m.frame_done(ac),
            MacLayer::FqMac(_) => false,
        }
    }
}
