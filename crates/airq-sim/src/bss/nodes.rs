//! The BSS's nodes: the AP's transmit path (its queueing design and driver) and each
//! station's, and on the receiving side each node's reordering buffers (the recipient's
//! half of a BlockAck agreement, as ns-3's `RecipientBlockAckAgreement`; the
//! originator's window is in the transmit path, [`crate::mac::tid_tx`]) and the
//! BlockAckReqs each originator owes ([`crate::mac::block_ack_req`]). The hosts hand
//! them packets; the air asks them for PPDUs, reports each PPDU's outcome and hands the
//! recipient what arrived. What a call drops it returns.

use crate::ap::ApTx;
use crate::mac::block_ack_req::{BlockAckReq, PendingBars};
use crate::mac::reorder::{Reception, Recipient};
use crate::mac::txpath::{DropCause, Dropped, TxPath};
use crate::net::packet::{NodeId, SimPacket};
use crate::station::StationTx;
use airq::{Ac, Instant, Tid};

/// The AP and the stations: each a transmit path, and a recipient of BlockAck
/// agreements with a reordering buffer per originator and TID.
pub(super) struct Nodes {
    pub ap: ApTx,
    pub stations: Vec<StationTx>,
    /// The AP's receive reordering buffers, one set per station (the originator).
    ap_rx: Vec<Recipient>,
    /// Each station's receive reordering buffers, for the AP (the originator).
    station_rx: Vec<Recipient>,
    /// The BlockAckReqs the originators owe.
    bars: PendingBars,
}

impl Nodes {
    pub fn new(ap: ApTx, stations: Vec<StationTx>) -> Nodes {
        let n = stations.len();
        Nodes {
            ap,
            stations,
            ap_rx: (0..n).map(|_| Recipient::default()).collect(),
            station_rx: (0..n).map(|_| Recipient::default()).collect(),
            bars: PendingBars::new(n + 1),
        }
    }

    /// The transmit path of `node`.
    pub fn tx_path(&mut self, node: NodeId) -> &mut dyn TxPath {
        match node {
            NodeId::Ap => &mut self.ap,
            NodeId::Sta(s) => &mut self.stations[s.index()],
        }
    }

    /// Whether `node`'s EDCA function of `ac` has a frame to contend for: data, or a
    /// BlockAckReq it owes.
    pub fn has_frames(&self, node: NodeId, ac: Ac) -> bool {
        self.bars.owes(node, ac)
            || match node {
                NodeId::Ap => self.ap.has_frames(ac),
                NodeId::Sta(s) => self.stations[s.index()].has_frames(ac),
            }
    }

    /// Hands `packet` to the transmit path of its sender, `node`; returns what that
    /// dropped (possibly `packet`), each with why.
    pub fn enqueue(&mut self, node: NodeId, packet: SimPacket, now: Instant) -> Dropped {
        match node {
            NodeId::Ap => {
                let result = self.ap.enqueue(packet, now);
                debug_assert!(result.is_ok(), "flows are checked against the stations");
                result.unwrap_or_default()
            }
            NodeId::Sta(s) => self.stations[s.index()].enqueue(packet, now),
        }
    }

    /// Hands the recipient of an exchange the MPDUs its originator reported received
    /// in `acked` and appends every packet its reordering buffer lets go, in order, to
    /// `released`; a late one (the window moved past it) goes to `lost`. A multi-TID
    /// A-MPDU (combined QoS aggregates, [`airq::aggregate::qos_aggregate`]) is
    /// reordered per TID, as its Multi-STA BlockAck acknowledges it (IEEE 802.11ax-2021
    /// 26.6.3): the TIDs that rode at its head first, then the PPDU's own `tid`.
    pub fn receive(
        &mut self,
        (src, dst, tid): (NodeId, NodeId, Tid),
        acked: &mut Vec<(u64, SimPacket)>,
        released: &mut Vec<SimPacket>,
        lost: &mut Dropped,
    ) {
        let recipient = self.recipient(src, dst);
        if acked.iter().all(|(_, p)| p.tid == tid) {
            let buffer = recipient.tid(tid);
            for (seq, packet) in acked.drain(..) {
                if let Reception::Late(p) = buffer.receive(seq, packet) {
                    lost.push((p, DropCause::RetryLimit));
                }
            }
            buffer.release(released);
            return;
        }
        let mut tids: Vec<Tid> = Vec::new();
        for (_, p) in acked.iter() {
            if p.tid != tid && !tids.contains(&p.tid) {
                tids.push(p.tid);
            }
        }
        tids.push(tid);
        for t in tids {
            let (mine, rest): (Vec<_>, Vec<_>) = acked.drain(..).partition(|(_, p)| p.tid == t);
            *acked = rest;
            let buffer = recipient.tid(t);
            for (seq, packet) in mine {
                if let Reception::Late(p) = buffer.receive(seq, packet) {
                    lost.push((p, DropCause::RetryLimit));
                }
            }
            buffer.release(released);
        }
    }

    /// The originator `src` gave up the MPDUs `given_up` (TID and sequence number) it
    /// sent `dst`: under a BlockAck agreement (`block_ack`: A-MPDUs) it owes a
    /// BlockAckReq past them; without one (single MPDUs with a normal Ack) the
    /// recipient holds nothing behind a gap, and lets go past it at once (into
    /// `released`).
    pub fn gave_up(
        &mut self,
        (src, dst): (NodeId, NodeId),
        block_ack: bool,
        given_up: &mut Vec<(Tid, u64)>,
        released: &mut Vec<SimPacket>,
    ) {
        for (tid, seq) in given_up.drain(..) {
            if block_ack {
                self.bars.request(src, dst, tid, seq + 1);
            } else {
                self.recipient(src, dst)
                    .tid(tid)
                    .block_ack_req(seq + 1, released);
            }
        }
    }

    /// `node`'s EDCA function of `ac` won the medium: the BlockAckReq it owes, if any,
    /// goes before its data.
    pub fn block_ack_req(&mut self, node: NodeId, ac: Ac) -> Option<BlockAckReq> {
        self.bars.send(node, ac)
    }

    /// The exchange of `bar` ended, `ok` if it got through: the recipient releases what
    /// it held before its Starting Sequence Number into `released`.
    pub fn block_ack_req_done(
        &mut self,
        bar: BlockAckReq,
        ok: bool,
        released: &mut Vec<SimPacket>,
    ) {
        if ok {
            self.recipient(bar.src, bar.dst)
                .tid(bar.tid)
                .block_ack_req(bar.ssn, released);
        }
        self.bars.done(bar, ok);
    }

    /// The reordering buffers `dst` keeps for the originator `src`.
    fn recipient(&mut self, src: NodeId, dst: NodeId) -> &mut Recipient {
        match (src, dst) {
            (NodeId::Ap, NodeId::Sta(s)) => &mut self.station_rx[s.index()],
            (NodeId::Sta(s), NodeId::Ap) => &mut self.ap_rx[s.index()],
            _ => unreachable!("every exchange is between the AP and a station"),
        }
    }
}
