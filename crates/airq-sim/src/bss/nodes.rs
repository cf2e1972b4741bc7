//! The BSS's transmitting nodes: the AP's transmit path (its queueing design and driver)
//! and each station's. The hosts hand them packets; the air asks them for PPDUs and
//! reports each PPDU's outcome. What a call drops comes back in the caller's
//! [`TxOutput`], which the caller accounts before its next call.

use crate::ap::ApTx;
use crate::mac::txpath::{TxOutput, TxPath};
use crate::net::packet::{NodeId, SimPacket};
use crate::station::StationTx;
use airq::{Ac, Instant};

/// The AP and the stations, each a transmit path.
pub(super) struct Nodes {
    pub ap: ApTx,
    pub stations: Vec<StationTx>,
}

impl Nodes {
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

    /// Hands `packet` to the transmit path of its sender, `node`; what it drops goes to
    /// `out.dropped`.
    pub fn enqueue(&mut self, node: NodeId, packet: SimPacket, now: Instant, out: &mut TxOutput) {
        match node {
            NodeId::Ap => {
                let result = self.ap.enqueue(packet, now, out);
                debug_assert!(result.is_ok(), "flows are checked against the stations");
            }
            NodeId::Sta(s) => self.stations[s.index()].enqueue(packet, now, out),
        }
    }
}
