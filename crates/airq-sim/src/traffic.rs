//! The traffic of a scenario: flows between the wired server and a station, each run by
//! an application — UDP (saturated or at a constant bit rate) or ICMP echo (ping).
//!
//! A saturated UDP flow keeps a fixed number of its packets queued at its sender (the AP
//! for downlink, the station for uplink), topped up as they leave: the sender never runs
//! dry, as in Bianchi's saturation model, without simulating an offered load far above
//! capacity. A backlog larger than the sender's queue keeps that queue full (one drop per
//! departure).

use airq::{Duration, Instant};

/// IPv4 (20) + UDP (8) header bytes.
pub const UDP_IP_HEADER_BYTES: u32 = 28;
/// IPv4 (20) + ICMP echo (8) header bytes.
pub const ICMP_IP_HEADER_BYTES: u32 = 28;

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

/// What runs over a flow.
#[derive(Clone, Debug, PartialEq)]
pub enum App {
    /// UDP datagrams of `payload_bytes` from the flow's sender.
    Udp { load: Load, payload_bytes: u32 },
    /// ICMP echo requests every `interval` from the flow's sender (the server for
    /// downlink), answered at once by the other end; the RTT is measured at the sender.
    Ping {
        interval: Duration,
        payload_bytes: u32,
    },
}

/// One flow of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSpec {
    pub station: u16,
    /// Which way the flow's data (or echo requests) go.
    pub direction: Direction,
    pub app: App,
    /// DiffServ codepoint of its packets (0..=63); the AP and the stations map it to a
    /// TID as Linux does ([`crate::dscp`]).
    pub dscp: u8,
    pub start: Instant,
    pub stop: Option<Instant>,
}

impl FlowSpec {
    /// A flow of `app`, best effort, from the start to the end of the run.
    pub fn new(station: u16, direction: Direction, app: App) -> FlowSpec {
        FlowSpec {
            station,
            direction,
            app,
            dscp: 0,
            start: Instant::ZERO,
            stop: None,
        }
    }

    /// A saturated UDP flow of 1472-byte payloads (1500-byte IP packets), best effort.
    pub fn saturated(station: u16, direction: Direction) -> FlowSpec {
        FlowSpec::new(
            station,
            direction,
            App::Udp {
                load: Load::Saturated {
                    backlog_packets: 2048,
                },
                payload_bytes: 1472,
            },
        )
    }

    /// Pings from the server to `station` every `interval` (56-byte payload, as `ping`).
    pub fn ping(station: u16, interval: Duration) -> FlowSpec {
        FlowSpec::new(
            station,
            Direction::Downlink,
            App::Ping {
                interval,
                payload_bytes: 56,
            },
        )
    }

    /// IP packet length of the flow's datagrams or echo requests.
    pub fn packet_bytes(&self) -> u32 {
        match self.app {
            App::Udp { payload_bytes, .. } => payload_bytes + UDP_IP_HEADER_BYTES,
            App::Ping { payload_bytes, .. } => payload_bytes + ICMP_IP_HEADER_BYTES,
        }
    }

    /// The saturated load's backlog, if the flow is a saturated UDP flow.
    pub fn saturated_backlog(&self) -> Option<u32> {
        match self.app {
            App::Udp {
                load: Load::Saturated { backlog_packets },
                ..
            } => Some(backlog_packets),
            _ => None,
        }
    }

    /// Gap between packets of a periodic flow (CBR UDP, ping).
    pub fn interval(&self) -> Option<Duration> {
        match self.app {
            App::Udp {
                load: Load::Cbr { rate_bps },
                ..
            } if rate_bps > 0 => Some(Duration::from_nanos(
                u64::from(self.packet_bytes()) * 8 * 1_000_000_000 / rate_bps,
            )),
            App::Ping { interval, .. } if interval > Duration::ZERO => Some(interval),
            _ => None,
        }
    }

    pub fn active_at(&self, now: Instant) -> bool {
        now >= self.start && self.stop.is_none_or(|s| now < s)
    }
}
