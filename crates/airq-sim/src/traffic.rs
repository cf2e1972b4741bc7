//! The traffic of a scenario: flows between the wired server and a station, each run by
//! an application — UDP (saturated or at a constant bit rate), ICMP echo (ping) or a
//! VoIP call leg.
//!
//! A saturated UDP flow keeps a fixed number of its packets queued at its sender (the AP
//! for downlink, the station for uplink), topped up as they leave: the sender never runs
//! dry, as in Bianchi's saturation model, without simulating an offered load far above
//! capacity. A backlog larger than the sender's queue keeps that queue full (one drop per
//! departure).

use crate::dscp::{Dscp, BE};
use crate::voip_stats::VoipConfig;
use airq::{Duration, Instant};

/// IPv4 (20) + UDP (8) header bytes.
pub const UDP_IP_HEADER_BYTES: u32 = 28;
/// IPv4 (20) + ICMP echo (8) header bytes.
pub const ICMP_IP_HEADER_BYTES: u32 = 28;
/// Packets a saturated flow keeps queued at its sender unless told otherwise: more than
/// any sender's queue holds, so the queue stays full.
pub const SATURATED_BACKLOG_PACKETS: u32 = 2048;
/// RTP header bytes (RFC 3550 5.1, no CSRCs).
pub const RTP_HEADER_BYTES: u32 = 12;
/// G.711 at 64 kbit/s: 160 bytes of speech per 20 ms packet (RFC 3551 4.5.14, 4.2).
pub const G711_FRAME_BYTES: u32 = 160;
/// G.711 packet interval.
pub const G711_INTERVAL: Duration = Duration::from_millis(20);

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
    /// One direction of a G.711 call: an RTP packet of 20 ms of speech every 20 ms,
    /// rated at the receiver with the E-model ([`crate::voip_stats`]).
    Voip { config: VoipConfig },
}

/// One flow of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSpec {
    pub station: u16,
    /// Which way the flow's data (or echo requests) go.
    pub direction: Direction,
    pub app: App,
    /// DiffServ codepoint of its packets; the AP and the stations map it to a TID as
    /// Linux does ([`crate::dscp::tid_for_dscp`]).
    pub dscp: Dscp,
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
            dscp: BE,
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
                    backlog_packets: SATURATED_BACKLOG_PACKETS,
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

    /// One direction of a G.711 call to or from `station`, marked EF (voice, AC_VO).
    pub fn voip(station: u16, direction: Direction) -> FlowSpec {
        FlowSpec {
            dscp: crate::dscp::EF,
            ..FlowSpec::new(
                station,
                direction,
                App::Voip {
                    config: VoipConfig::default(),
                },
            )
        }
    }

    /// IP packet length of the flow's datagrams or echo requests.
    pub fn packet_bytes(&self) -> u32 {
        match self.app {
            App::Udp { payload_bytes, .. } => payload_bytes + UDP_IP_HEADER_BYTES,
            App::Ping { payload_bytes, .. } => payload_bytes + ICMP_IP_HEADER_BYTES,
            App::Voip { .. } => G711_FRAME_BYTES + RTP_HEADER_BYTES + UDP_IP_HEADER_BYTES,
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
            App::Voip { .. } => Some(G711_INTERVAL),
            _ => None,
        }
    }

    pub fn active_at(&self, now: Instant) -> bool {
        now >= self.start && self.stop.is_none_or(|s| now < s)
    }
}
