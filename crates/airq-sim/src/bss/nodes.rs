//! The BSS's nodes: the AP's transmit path (its queueing design and driver) and each
//! station's, and on the receiving side each node's reordering buffers (the recipient's
//! half of a BlockAck agreement, as ns-3's `RecipientBlockAckAgreement`; the
//! originator's window is in the transmit path, [`crate::mac::tid_tx`]). The hosts hand
//! them packets; the air asks them for PPDUs, reports each PPDU's outcome and hands the
//! recipient what arrived. What a call drops it returns.

use crate::ap::ApTx;
use crate::mac::reorder::Recipient;
use crate::mac::txpath::{Dropped, TxOutput, TxPath};
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
}

impl Nodes {
    pub fn new(ap: ApTx, stations: Vec<StationTx>) -> Nodes {
        let n = stations.len();
        Nodes {
            ap,
            stations,
            ap_rx: (0..n).map(|_| Recipient::default()).collect(),
            station_rx: (0..n).map(|_| Recipient::default()).collect(),
        }
    }

    /// The transmit path of `node`.
    pub fn tx_path(&mut self, node: NodeId) -> &mut dyn TxPath {
        match node {
            NodeId::Ap => &mut self.ap,
            NodeId::Sta(s) => &mut self.stations[s.index()],
        }
    }

    /// Whether `node`'s EDCA function of `ac` has a frame to contend for.
    pub fn has_frames(&self, node: NodeId, ac: Ac) -> bool {
        match node {
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
            NodeId::Sta(s) => match self.stations[s.index()].enqueue(packet, now) {
                Ok(()) => Vec::new(),
                Err(dropped) => vec![dropped],
            },
        }
    }

    /// Hands the recipient of an exchange what its originator reported in `out`
    /// (MPDUs acknowledged and given up) and appends every packet its reordering buffer
    /// lets go, in order, to `released`. A multi-TID A-MPDU (combined QoS aggregates,
    /// [`airq::aggregate::qos_aggregate`]) is reordered per TID, as its Multi-STA
    /// BlockAck acknowledges it (IEEE 802.11ax-2021 26.6.3): the TIDs that rode at its
    /// head first, then the PPDU's own `tid`.
    pub fn receive(
        &mut self,
        src: NodeId,
        dst: NodeId,
        tid: Tid,
        out: &mut TxOutput,
        released: &mut Vec<SimPacket>,
    ) {
        let recipient = match (src, dst) {
            (NodeId::Ap, NodeId::Sta(s)) => &mut self.station_rx[s.index()],
            (NodeId::Sta(s), NodeId::Ap) => &mut self.ap_rx[s.index()],
            _ => unreachable!("every exchange is between the AP and a station"),
        };
        let multi_tid = out.acked.iter().any(|(_, p)| p.tid != tid)
            || out.given_up.iter().any(|&(t, _)| t != tid);
        if !multi_tid {
            let buffer = recipient.tid(tid);
            for (seq, packet) in out.acked.drain(..) {
                buffer.receive(seq, packet);
            }
            for (_, seq) in out.given_up.drain(..) {
                buffer.give_up(seq);
            }
            buffer.release(released);
            return;
        }
        let mut tids: Vec<Tid> = Vec::new();
        let others =
            (out.acked.iter().map(|(_, p)| p.tid)).chain(out.given_up.iter().map(|&(t, _)| t));
        for t in others {
            if t != tid && !tids.contains(&t) {
                tids.push(t);
            }
        }
        tids.push(tid);
        let mut acked = std::mem::take(&mut out.acked);
        let mut given_up = std::mem::take(&mut out.given_up);
        for t in tids {
            let buffer = recipient.tid(t);
            let (mine, rest): (Vec<_>, Vec<_>) = acked.drain(..).partition(|(_, p)| p.tid == t);
            acked = rest;
            for (seq, packet) in mine {
                buffer.receive(seq, packet);
            }
            for &(_, seq) in given_up.iter().filter(|&&(gt, _)| gt == t) {
                buffer.give_up(seq);
            }
            given_up.retain(|&(gt, _)| gt != t);
            buffer.release(released);
        }
        debug_assert!(acked.is_empty() && given_up.is_empty());
        // Keep the (now empty) buffers' capacity.
        out.acked = acked;
        out.given_up = given_up;
    }
}
