//! The simple traffic of the BSS model: UDP flows, saturated or at a constant bit rate,
//! downlink (server → station) or uplink (station → server). A saturated flow keeps a
//! fixed number of its packets queued at its sender (the AP for downlink, the station for
//! uplink), topped up as they leave: the sender never runs dry, as in Bianchi's
//! saturation model, without simulating an offered load far above capacity. A backlog
//! larger than the sender's queue keeps that queue full (one drop per departure).

use airq::{Duration, Instant, Tid};

/// IPv4 (20) + UDP (8) header bytes.
pub const UDP_IP_HEADER_BYTES: u32 = 28;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Server → AP → station.
    Downlink,
    /// Station → AP → server.
    Uplink,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Load {
    /// Keep `backlog_packets` packets queued at the sender (fewer while its queue is
    /// full).
    Saturated { backlog_packets: u32 },
    /// Constant bit rate of IP packets.
    Cbr { rate_bps: u64 },
}

/// One flow of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSpec {
    pub station: u16,
    pub direction: Direction,
    pub load: Load,
    /// UDP payload bytes per packet.
    pub payload_bytes: u32,
    pub tid: Tid,
    pub start: Instant,
    pub stop: Option<Instant>,
}

impl FlowSpec {
    /// A saturated UDP flow of 1472-byte payloads (1500-byte IP packets), best effort.
    pub fn saturated(station: u16, direction: Direction) -> FlowSpec {
        FlowSpec {
            station,
            direction,
            load: Load::Saturated {
                backlog_packets: 2048,
            },
            payload_bytes: 1472,
            tid: Tid::new(0).expect("TID 0"),
            start: Instant::ZERO,
            stop: None,
        }
    }

    /// IP packet length.
    pub fn packet_bytes(&self) -> u32 {
        self.payload_bytes + UDP_IP_HEADER_BYTES
    }

    /// Gap between packets of a CBR flow.
    pub fn cbr_interval(&self) -> Option<Duration> {
        match self.load {
            Load::Cbr { rate_bps } if rate_bps > 0 => Some(Duration::from_nanos(
                u64::from(self.packet_bytes()) * 8 * 1_000_000_000 / rate_bps,
            )),
            _ => None,
        }
    }

    pub fn active_at(&self, now: Instant) -> bool {
        now >= self.start && self.stop.is_none_or(|s| now < s)
    }
}
