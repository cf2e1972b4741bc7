//! Fixtures shared by the validation tests.

use airq::{Ac, Duration, Instant};
use airq_sim::frame::Ppdu;
use airq_sim::packet::SimPacket;
use airq_sim::txpath::{ApPath, TxOutput, TxPath};

/// An AP that only receives: for uplink-only experiments.
#[derive(Default)]
pub struct ReceiveOnlyAp {
    pub rx_airtime: Duration,
}

impl TxPath for ReceiveOnlyAp {
    fn has_frames(&self, _ac: Ac) -> bool {
        false
    }

    fn next_ppdu(&mut self, _ac: Ac, _now: Instant, _out: &mut TxOutput) -> Option<Ppdu> {
        None
    }

    fn tx_done(&mut self, _ppdu: Ppdu, _airtime: Duration, _now: Instant, _out: &mut TxOutput) {
        unreachable!("a receive-only AP sends nothing")
    }
}

impl ApPath for ReceiveOnlyAp {
    fn enqueue(&mut self, _packet: SimPacket, _now: Instant, _out: &mut TxOutput) {
        panic!("no downlink traffic in this experiment")
    }

    fn register_rx_airtime(&mut self, _station: u16, airtime: Duration, _now: Instant) {
        self.rx_airtime += airtime;
    }
}
