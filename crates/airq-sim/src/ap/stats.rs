//! What the AP's transmit path reports: per station, the packets through each layer and
//! their fate, the airtime charged; per station and per AC, what each layer holds now
//! (in packets and, below the MAC, in expected airtime), and AQL's pending airtime.
//!
//! Every packet enqueued is, at any moment, in exactly one of: delivered, dropped (with
//! its [`DropCause`]), or queued in the qdisc, the MAC layer or the driver (which counts
//! frames from the moment they leave the MAC layer until their completion, so it
//! includes the retry queues, the hardware or firmware queue and the PPDU on the air).

use crate::mac::txpath::DropCause;
use airq::Ac;

/// Drops by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropCounts([u64; DropCause::ALL.len()]);

impl DropCounts {
    pub fn get(&self, cause: DropCause) -> u64 {
        self.0[cause_index(cause)]
    }

    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    pub(super) fn add(&mut self, cause: DropCause) {
        self.0[cause_index(cause)] += 1;
    }

    /// Every cause with its count, in [`DropCause::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (DropCause, u64)> + '_ {
        DropCause::ALL.iter().map(|&c| (c, self.get(c)))
    }

    fn accumulate(&mut self, other: &DropCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

fn cause_index(cause: DropCause) -> usize {
    match cause {
        DropCause::QdiscOverlimit => 0,
        DropCause::QdiscCodel => 1,
        DropCause::FqOverlimit => 2,
        DropCause::FqCodel => 3,
        DropCause::QueueFull => 4,
        DropCause::RetryLimit => 5,
        DropCause::WireQueue => 6,
        DropCause::RetryTimeLimit => 7,
    }
}

/// Counters of one station's downlink. They only grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StationTxStats {
    /// Handed to the AP by the wired side.
    pub enqueued_packets: u64,
    pub enqueued_bytes: u64,
    /// Taken from the MAC layer by the driver (mac80211's `ieee80211_tx_dequeue`).
    pub dequeued_packets: u64,
    pub dequeued_bytes: u64,
    /// Received by the station.
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    pub drops: DropCounts,
    /// PPDUs sent to the station and completed.
    pub ppdus: u64,
    /// MPDU transmissions (first tries and retries).
    pub mpdu_transmissions: u64,
    /// MPDUs that failed and were queued for retry.
    pub retries: u64,
    /// Airtime of completed exchanges to the station, µs (charged to the scheduler).
    pub tx_airtime_us: u64,
    /// Airtime of PPDUs received from the station, µs (charged when RX accounting is on).
    pub rx_airtime_us: u64,
}

impl StationTxStats {
    /// Adds another station's counters into these.
    pub fn accumulate(&mut self, o: &StationTxStats) {
        self.enqueued_packets += o.enqueued_packets;
        self.enqueued_bytes += o.enqueued_bytes;
        self.dequeued_packets += o.dequeued_packets;
        self.dequeued_bytes += o.dequeued_bytes;
        self.delivered_packets += o.delivered_packets;
        self.delivered_bytes += o.delivered_bytes;
        self.drops.accumulate(&o.drops);
        self.ppdus += o.ppdus;
        self.mpdu_transmissions += o.mpdu_transmissions;
        self.retries += o.retries;
        self.tx_airtime_us += o.tx_airtime_us;
        self.rx_airtime_us += o.rx_airtime_us;
    }
}

/// What each layer holds now, for one station or one AC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerBacklog {
    pub qdisc_packets: u64,
    pub mac_packets: u64,
    pub mac_bytes: u64,
    /// Frames below the MAC layer, not yet completed (driver or firmware queues, retry
    /// queues, the PPDU on the air).
    pub driver_frames: u64,
    /// Their expected airtime (the AQL estimate, whether AQL is on or not), µs.
    pub driver_airtime_us: u64,
}

impl LayerBacklog {
    /// Packets held by any layer.
    pub fn packets(&self) -> u64 {
        self.qdisc_packets + self.mac_packets + self.driver_frames
    }

    pub fn accumulate(&mut self, o: &LayerBacklog) {
        self.qdisc_packets += o.qdisc_packets;
        self.mac_packets += o.mac_packets;
        self.mac_bytes += o.mac_bytes;
        self.driver_frames += o.driver_frames;
        self.driver_airtime_us += o.driver_airtime_us;
    }
}

/// A snapshot of the whole transmit path's queues, per AC (index [`Ac::index`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApBacklog {
    pub ac: [LayerBacklog; Ac::COUNT],
    /// PPDUs queued to or on the hardware (softmac; 0 for the firmware driver, which
    /// builds PPDUs only when the medium is won).
    pub hw_ppdus: [u32; Ac::COUNT],
    /// Frames held by the firmware, all ACs (firmware driver; 0 for softmac).
    pub firmware_frames: u64,
    /// AQL pending airtime per AC and in total, µs (0 with AQL off).
    pub aql_pending_us: [u64; Ac::COUNT],
    pub aql_total_pending_us: u64,
}

impl ApBacklog {
    /// All ACs together.
    pub fn total(&self) -> LayerBacklog {
        let mut t = LayerBacklog::default();
        for a in &self.ac {
            t.accumulate(a);
        }
        t
    }
}
