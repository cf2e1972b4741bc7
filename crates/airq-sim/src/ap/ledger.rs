//! The transmit path's ledger: every packet's moves between layers and its fate, counted
//! per station and per AC in one place, so that "enqueued = delivered + dropped +
//! queued" holds by construction and can be checked against the queues themselves.
//! Soft admission control's per-flow backlog ([`SoftAdmission`]), when it is on, is
//! kept here too: every drop above the driver passes through [`Ledger::drop`].

use super::soft_admission::SoftAdmission;
use super::stats::{LayerBacklog, StationTxStats};
use crate::mac::txpath::{DropCause, TxOutput};
use crate::net::packet::SimPacket;
use airq::Ac;

/// The layer a packet leaves when it is dropped or delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layer {
    /// Refused on arrival (no qdisc, MAC queue stopped).
    Arrival,
    Qdisc,
    Mac,
    /// Below the MAC layer, with its expected airtime in µs.
    Driver(u32),
}

pub(super) struct Ledger {
    pub(super) stations: Vec<StationTxStats>,
    pub(super) station_backlog: Vec<LayerBacklog>,
    pub(super) ac_backlog: [LayerBacklog; Ac::COUNT],
    /// Packets held for each station in each AC, any layer (arrived, neither delivered
    /// nor dropped): whether a waiting station's frames are behind another AC's.
    pub(super) station_ac_held: Vec<[u32; Ac::COUNT]>,
    /// Soft admission control, when on: told of drops before the driver here, of
    /// dequeues in `mac_tx::pull_from_mac`, of arrivals in `ApTx::enqueue`.
    pub(super) admission: Option<SoftAdmission>,
}

impl Ledger {
    pub(super) fn new(stations: usize) -> Ledger {
        Ledger {
            stations: vec![StationTxStats::default(); stations],
            station_backlog: vec![LayerBacklog::default(); stations],
            ac_backlog: [LayerBacklog::default(); Ac::COUNT],
            station_ac_held: vec![[0; Ac::COUNT]; stations],
            admission: None,
        }
    }

    fn both(&mut self, p: &SimPacket) -> (&mut LayerBacklog, &mut LayerBacklog) {
        (
            &mut self.station_backlog[p.station.index()],
            &mut self.ac_backlog[p.tid.ac().index()],
        )
    }

    pub(super) fn arrived(&mut self, p: &SimPacket) {
        let s = &mut self.stations[p.station.index()];
        s.enqueued_packets += 1;
        s.enqueued_bytes += u64::from(p.len_bytes);
        self.station_ac_held[p.station.index()][p.tid.ac().index()] += 1;
    }

    /// A packet is gone from the AP: delivered or dropped.
    fn gone(&mut self, p: &SimPacket) {
        self.station_ac_held[p.station.index()][p.tid.ac().index()] -= 1;
    }

    /// A packet entered `layer` (not [`Layer::Arrival`]).
    pub(super) fn entered(&mut self, layer: Layer, p: &SimPacket) {
        let bytes = u64::from(p.len_bytes);
        if let Layer::Driver(_) = layer {
            let s = &mut self.stations[p.station.index()];
            s.dequeued_packets += 1;
            s.dequeued_bytes += bytes;
        }
        let (a, b) = self.both(p);
        for l in [a, b] {
            match layer {
                Layer::Arrival => {}
                Layer::Qdisc => l.qdisc_packets += 1,
                Layer::Mac => {
                    l.mac_packets += 1;
                    l.mac_bytes += bytes;
                }
                Layer::Driver(us) => {
                    l.driver_frames += 1;
                    l.driver_airtime_us += u64::from(us);
                }
            }
        }
    }

    /// A packet left `layer` (to the next layer, the receiver or a drop).
    pub(super) fn left(&mut self, layer: Layer, p: &SimPacket) {
        let bytes = u64::from(p.len_bytes);
        let (a, b) = self.both(p);
        for l in [a, b] {
            match layer {
                Layer::Arrival => {}
                Layer::Qdisc => l.qdisc_packets -= 1,
                Layer::Mac => {
                    l.mac_packets -= 1;
                    l.mac_bytes -= bytes;
                }
                Layer::Driver(us) => {
                    l.driver_frames -= 1;
                    l.driver_airtime_us -= u64::from(us);
                }
            }
        }
    }

    /// A packet in `layer` was dropped for `cause`: counted and handed to `out`.
    pub(super) fn drop(
        &mut self,
        layer: Layer,
        p: SimPacket,
        cause: DropCause,
        out: &mut TxOutput,
    ) {
        self.left(layer, &p);
        self.gone(&p);
        if let (Some(a), Layer::Arrival | Layer::Qdisc | Layer::Mac) = (&mut self.admission, layer)
        {
            a.dropped(&p);
        }
        self.stations[p.station.index()].drops.add(cause);
        out.dropped.push((p, cause));
    }

    /// A frame below the MAC of `airtime_us` was acknowledged by its station (which
    /// hands it on once its reordering buffer releases it).
    pub(super) fn deliver(&mut self, airtime_us: u32, p: &SimPacket) {
        self.left(Layer::Driver(airtime_us), p);
        self.gone(p);
        let s = &mut self.stations[p.station.index()];
        s.delivered_packets += 1;
        s.delivered_bytes += u64::from(p.len_bytes);
    }
}
