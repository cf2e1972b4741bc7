//! What the queues need to know about a packet, and nothing more.
//!
//! The caller owns its packet type (an `sk_buff`-like buffer in firmware, a struct in a
//! simulator) and implements [`Packet`] for it. The queues read its length and flow hash,
//! stamp its enqueue time (CoDel measures sojourn from it, as mac80211 stamps
//! `control.enqueue_time`), and may mark it Congestion Experienced (RFC 3168) instead of
//! dropping it.

use crate::time::Instant;

/// A packet as the queues see it.
pub trait Packet {
    /// Length in bytes: what DRR charges against a byte quantum and what backlogs count
    /// (Linux `skb->len`).
    fn len_bytes(&self) -> u32;

    /// Memory the packet holds, counted against the memory limit (Linux `skb->truesize`).
    /// Defaults to the length; a caller with buffer overhead reports more.
    fn truesize_bytes(&self) -> u32 {
        self.len_bytes()
    }

    /// The flow hash (Linux `skb_get_hash`, a hash of the 5-tuple). Packets of one flow
    /// must return the same value; the queues scale it onto the flow pool.
    fn flow_hash(&self) -> u32;

    /// The time [`set_enqueue_time`](Packet::set_enqueue_time) last stored.
    fn enqueue_time(&self) -> Instant;

    /// Called by the queue when it accepts the packet.
    fn set_enqueue_time(&mut self, now: Instant);

    /// Whether the packet's ECN field is ECT(0), ECT(1) or already CE (RFC 3168 §5), so
    /// that marking CE is a valid congestion signal (Linux `INET_ECN_set_ce` succeeds).
    fn ecn_capable(&self) -> bool;

    /// Sets the ECN field to CE. Only called when [`ecn_capable`](Packet::ecn_capable) is true.
    fn set_ce(&mut self);
}

/// ECN codepoints of the IP header (RFC 3168 §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ecn {
    /// Not ECN-Capable Transport.
    #[default]
    NotEct,
    /// ECN-Capable Transport (0).
    Ect0,
    /// ECN-Capable Transport (1).
    Ect1,
    /// Congestion Experienced.
    Ce,
}

impl Ecn {
    /// ECT(0), ECT(1) and CE may be (re)marked CE.
    pub const fn is_capable(self) -> bool {
        !matches!(self, Ecn::NotEct)
    }
}

/// A minimal [`Packet`] for tests, examples and simulators that need nothing more: an
/// identifier, a length, a flow hash and the ECN field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimplePacket {
    /// The caller's identifier, e.g. a sequence number for tracking.
    pub id: u64,
    pub len_bytes: u32,
    pub flow_hash: u32,
    pub ecn: Ecn,
    pub enqueue_time: Instant,
}

impl SimplePacket {
    /// A not-ECN-capable packet.
    pub fn new(id: u64, flow_hash: u32, len_bytes: u32) -> Self {
        SimplePacket {
            id,
            len_bytes,
            flow_hash,
            ecn: Ecn::NotEct,
            enqueue_time: Instant::ZERO,
        }
    }

    /// The same packet with the given ECN field.
    pub fn with_ecn(mut self, ecn: Ecn) -> Self {
        self.ecn = ecn;
        self
    }
}

impl Packet for SimplePacket {
    fn len_bytes(&self) -> u32 {
        self.len_bytes
    }
    fn flow_hash(&self) -> u32 {
        self.flow_hash
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
