//! What the channel asks of a node's transmit path — the boundary between the MAC/PHY
//! model (EDCA contention, the PPDU on the air, errors) and the queues above it (the AP's
//! queueing designs, a station's FIFOs). Hardware asks for a frame when its EDCA function
//! wins the medium and reports the outcome when the exchange ends.

use crate::mac::frame::Ppdu;
use crate::net::packet::SimPacket;
use airq::{Ac, Duration, Instant, Tid};

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DropCause {
    /// The qdisc's limit (pfifo_fast tail drop, fq_codel's fattest-flow drop).
    QdiscOverlimit,
    /// CoDel in the fq_codel qdisc.
    QdiscCodel,
    /// The FQ-MAC global packet or memory limit.
    FqOverlimit,
    /// CoDel in the FQ-MAC flow queues.
    FqCodel,
    /// A legacy driver FIFO (or a station's FIFO) was full.
    QueueFull,
    /// Failed transmissions reached the retry limit.
    RetryLimit,
    /// The wired link's transmit queue was full (a sender faster than the link).
    WireQueue,
    /// A failed MPDU older than the time-based retry limit ([`super::retry_time`]).
    RetryTimeLimit,
}

impl DropCause {
    pub const ALL: [DropCause; 8] = [
        DropCause::QdiscOverlimit,
        DropCause::QdiscCodel,
        DropCause::FqOverlimit,
        DropCause::FqCodel,
        DropCause::QueueFull,
        DropCause::RetryLimit,
        DropCause::WireQueue,
        DropCause::RetryTimeLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DropCause::QdiscOverlimit => "qdisc_overlimit",
            DropCause::QdiscCodel => "qdisc_codel",
            DropCause::FqOverlimit => "fq_overlimit",
            DropCause::FqCodel => "fq_codel",
            DropCause::QueueFull => "queue_full",
            DropCause::RetryLimit => "retry_limit",
            DropCause::WireQueue => "wire_queue",
            DropCause::RetryTimeLimit => "retry_time_limit",
        }
    }
}

/// Packets a transmit path dropped during one call, with why.
pub type Dropped = Vec<(SimPacket, DropCause)>;

/// Packets that left a transmit path during one call: what a call returns, or, inside
/// a node's layers, what they collect for it.
#[derive(Debug, Default)]
pub struct TxOutput {
    /// Received by the other end of the link, with their sequence numbers, for the
    /// recipient's reordering buffer ([`tx_done`](TxPath::tx_done) only).
    pub acked: Vec<(u64, SimPacket)>,
    /// Sequence numbers the originator gave up at the retry limit, with their TID: the
    /// BlockAckReq it then owes moves the recipient's window past them
    /// ([`super::block_ack_req`]).
    pub given_up: Vec<(Tid, u64)>,
    pub dropped: Dropped,
}

impl TxOutput {
    pub fn clear(&mut self) {
        self.acked.clear();
        self.given_up.clear();
        self.dropped.clear();
    }
}

/// What became of a PPDU's MPDUs, as the transmitter's MAC reports it at the end of the
/// exchange (the BlockAck bitmap or Ack, and the retry counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxOutcome {
    /// Acknowledged.
    pub acked: u32,
    /// Failed, and kept for another try.
    pub retried: u32,
    /// Failed for the last time: dropped at the retry limit.
    pub dropped: u32,
}

impl TxOutcome {
    /// Whether the EDCA function resets its contention window: an MPDU got through, or
    /// every failed one reached its retry limit (IEEE 802.11-2020 10.23.2.2: CW is reset
    /// after a successful attempt or when a retry limit is reached). Otherwise it
    /// doubles.
    pub fn resets_cw(&self) -> bool {
        self.acked > 0 || self.retried == 0
    }
}

/// A node's transmit path as its radio sees it.
pub trait TxPath {
    /// Whether the EDCA function of `ac` has a frame to contend for.
    fn has_frames(&self, ac: Ac) -> bool;

    /// The EDCA function of `ac` won the medium at `now`: the PPDU to send, if any is
    /// left.
    fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu>;

    /// The exchange of `ppdu` ended at `now`; each MPDU's `ok` says whether it was
    /// received. `airtime` is what the exchange took (PPDU, SIFS, Ack/BlockAck, and
    /// RTS/CTS if used). Returns what became of the MPDUs, and the packets that left:
    /// received MPDUs in `acked`, those given up at the retry limit in `given_up`
    /// (their packets in `dropped`, with whatever else the call dropped).
    fn tx_done(&mut self, ppdu: Ppdu, airtime: Duration, now: Instant) -> (TxOutcome, TxOutput);

    /// Moves what the path dropped while [`next_ppdu`](Self::next_ppdu) took frames
    /// (CoDel at dequeue) to `out`; a path that drops nothing there has nothing to move.
    fn take_dropped(&mut self, _out: &mut Dropped) {}
}
