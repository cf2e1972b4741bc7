//! The traffic of a scenario: flows between the wired server and a station, each run by
//! an application — UDP (saturated or at a constant bit rate), ICMP echo (ping), a
//! VoIP call leg, a bulk TCP transfer or web page loads. A ping may instead go from one
//! station to another, relayed by the AP.
//!
//! A saturated UDP flow keeps a fixed number of its packets queued at its sender (the AP
//! for downlink, the station for uplink), topped up as they leave: the sender never runs
//! dry, as in Bianchi's saturation model, without simulating an offered load far above
//! capacity. A backlog larger than the sender's queue keeps that queue full (one drop per
//! departure).

use crate::apps::voip_stats::VoipConfig;
use crate::net::dscp::{Dscp, BE};
use crate::transport::tcp::TcpConfig;
use airq::{Duration, Instant, StationId};

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
    /// Station → AP → server (for a station-to-station ping: → AP → the peer).
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
        /// Ping this station instead of the server: the flow's station sends the
        /// requests (the flow goes [`Direction::Uplink`]) and the AP relays each request
        /// and reply from one station to the other, through its whole transmit path.
        peer: Option<StationId>,
    },
    /// One direction of a G.711 call: an RTP packet of 20 ms of speech every 20 ms,
    /// rated at the receiver with the E-model ([`crate::apps::voip_stats`]).
    Voip { config: VoipConfig },
    /// A bulk TCP transfer in the flow's direction for as long as the flow runs (a
    /// netperf TCP_STREAM or TCP_MAERTS). The station opens the connection.
    Tcp { config: TcpConfig },
    /// Web page loads by the station from the server, one after another.
    Http { config: TcpConfig, page: WebPage },
}

/// A web page as a browser loads it: a document, then the objects it references.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPage {
    /// Object sizes in bytes, the document first.
    pub objects: Vec<u32>,
    /// Parallel connections for the objects after the document (browsers: 6 per host).
    pub connections: u8,
    /// Keep connections open from one page to the next (HTTP/1.1 keep-alive), or open
    /// new ones for every page.
    pub keep_alive: bool,
    /// Pause between a page's last byte and the next page.
    pub think_time: Duration,
    /// Bytes of one HTTP request.
    pub request_bytes: u32,
    /// Pages to load (`None`: as long as the flow runs).
    pub pages: Option<u32>,
}

impl Default for WebPage {
    /// A small page: a 14.4 kB document and 12 objects of 4 to 48 kB (about 300 kB in
    /// all), six connections, new connections per page, 1 s think time, 400-byte
    /// requests, for as long as the flow runs.
    fn default() -> Self {
        WebPage {
            objects: vec![
                14_400, 48_000, 32_000, 24_000, 24_000, 16_000, 16_000, 8_000, 8_000, 4_000, 4_000,
                48_000, 48_000,
            ],
            connections: 6,
            keep_alive: false,
            think_time: Duration::from_secs(1),
            request_bytes: 400,
            pages: None,
        }
    }
}

/// One flow of the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowSpec {
    pub station: StationId,
    /// Which way the flow's data (or echo requests) go.
    pub direction: Direction,
    pub app: App,
    /// DiffServ codepoint of its packets; the AP and the stations map it to a TID as
    /// Linux does ([`crate::net::dscp::tid_for_dscp`]).
    pub dscp: Dscp,
    pub start: Instant,
    pub stop: Option<Instant>,
}

impl FlowSpec {
    /// A flow of `app`, best effort, from the start to the end of the run.
    pub fn new(station: StationId, direction: Direction, app: App) -> FlowSpec {
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
    pub fn saturated(station: StationId, direction: Direction) -> FlowSpec {
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
    pub fn ping(station: StationId, interval: Duration) -> FlowSpec {
        FlowSpec::new(
            station,
            Direction::Downlink,
            App::Ping {
                interval,
                payload_bytes: 56,
                peer: None,
            },
        )
    }

    /// Pings from `station` to the server every `interval` (56-byte payload, as `ping`
    /// run on the station).
    pub fn ping_up(station: StationId, interval: Duration) -> FlowSpec {
        FlowSpec::new(
            station,
            Direction::Uplink,
            App::Ping {
                interval,
                payload_bytes: 56,
                peer: None,
            },
        )
    }

    /// Pings from `station` to station `peer` every `interval` (56-byte payload), each
    /// request and reply relayed by the AP.
    pub fn station_ping(station: StationId, peer: StationId, interval: Duration) -> FlowSpec {
        FlowSpec::new(
            station,
            Direction::Uplink,
            App::Ping {
                interval,
                payload_bytes: 56,
                peer: Some(peer),
            },
        )
    }

    /// The station a station-to-station ping goes to.
    pub fn peer(&self) -> Option<StationId> {
        match self.app {
            App::Ping { peer, .. } => peer,
            _ => None,
        }
    }

    /// One direction of a G.711 call to or from `station`, marked EF (voice, AC_VO).
    pub fn voip(station: StationId, direction: Direction) -> FlowSpec {
        FlowSpec {
            dscp: crate::net::dscp::EF,
            ..FlowSpec::new(
                station,
                direction,
                App::Voip {
                    config: VoipConfig::default(),
                },
            )
        }
    }

    /// A bulk TCP transfer (Linux defaults: CUBIC, SACK, ECN off as Linux clients
    /// default to).
    pub fn tcp_bulk(station: StationId, direction: Direction) -> FlowSpec {
        FlowSpec::new(
            station,
            direction,
            App::Tcp {
                config: TcpConfig::default(),
            },
        )
    }

    /// IP packet length of the flow's datagrams or echo requests (`None` for TCP,
    /// whose segments vary).
    pub fn packet_bytes(&self) -> Option<u32> {
        match self.app {
            App::Udp { payload_bytes, .. } => Some(payload_bytes + UDP_IP_HEADER_BYTES),
            App::Ping { payload_bytes, .. } => Some(payload_bytes + ICMP_IP_HEADER_BYTES),
            App::Voip { .. } => Some(G711_FRAME_BYTES + RTP_HEADER_BYTES + UDP_IP_HEADER_BYTES),
            App::Tcp { .. } | App::Http { .. } => None,
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
                u64::from(self.packet_bytes()?) * 8 * 1_000_000_000 / rate_bps,
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
