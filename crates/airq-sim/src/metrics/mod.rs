//! What a run measures: per station, per flow, for the channel and for the simulator
//! itself. Everything here is counted as it happens in the simulation.

pub mod distribution;
pub mod radio;
pub mod starvation;
mod window;

use crate::apps::voip_stats::VoipStats;
use crate::mac::txpath::DropCause;
use crate::transport::tcp::TcpStats;
use airq::{Duration, StationId};
use radio::RadioMetrics;

/// Per-station counters; "down" is AP → station, "up" station → AP.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StationMetrics {
    /// IP bytes received at the far end.
    pub rx_bytes_down: u64,
    pub rx_bytes_up: u64,
    pub rx_packets_down: u64,
    pub rx_packets_up: u64,
    /// Airtime of exchanges carrying this station's frames (PPDU + SIFS + response),
    /// collisions included.
    pub airtime_down: Duration,
    pub airtime_up: Duration,
    /// PPDUs sent, by number of MPDUs (index 0 unused).
    pub ampdu_mpdus_down: Vec<u64>,
    pub ampdu_mpdus_up: Vec<u64>,
    /// MPDU transmissions that failed (and were retried or dropped).
    pub mpdu_failures_down: u64,
    pub mpdu_failures_up: u64,
    /// PPDUs of this station's link lost in a collision.
    pub collisions: u64,
    /// Dropped packets by cause ([`DropCause::ALL`] order), both directions.
    pub drops: [u64; DropCause::ALL.len()],
    /// One-way delay of received packets, from their creation: sum and maximum. A
    /// packet relayed from one station to another counts twice, like its bytes: at the
    /// AP for its source, at its destination for the other station.
    pub delay_sum: Duration,
    pub delay_max: Duration,
    /// SNR and rates of the PPDUs to the station and from it ([`radio`]).
    pub radio_down: RadioMetrics,
    pub radio_up: RadioMetrics,
}

impl StationMetrics {
    pub fn airtime(&self) -> Duration {
        self.airtime_down + self.airtime_up
    }

    pub fn drops_of(&self, cause: DropCause) -> u64 {
        self.drops[cause as usize]
    }

    pub(crate) fn count_ppdu(hist: &mut Vec<u64>, mpdus: usize) {
        if hist.len() <= mpdus {
            hist.resize(mpdus + 1, 0);
        }
        hist[mpdus] += 1;
    }

    /// Mean MPDUs per PPDU of a histogram.
    pub fn mean_mpdus(hist: &[u64]) -> f64 {
        let ppdus: u64 = hist.iter().sum();
        let mpdus: u64 = hist.iter().enumerate().map(|(n, c)| n as u64 * c).sum();
        if ppdus == 0 {
            0.0
        } else {
            mpdus as f64 / ppdus as f64
        }
    }
}

/// One round-trip time measured by a flow's application (a ping reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttSample {
    /// When the reply arrived, since the start.
    pub at: Duration,
    pub rtt: Duration,
}

/// Per-flow measurements, at the application.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowMetrics {
    pub station: StationId,
    /// Application payload bytes delivered to the receiving application (UDP payloads,
    /// in-order TCP data): the flow's goodput.
    pub rx_bytes: u64,
    pub rx_packets: u64,
    /// When each echo request of a ping flow was sent, since the start, in sequence
    /// order: with [`FlowMetrics::rtt`] (a reply was sent at `at - rtt`) it tells which
    /// requests were never answered.
    pub echo_requests: Vec<Duration>,
    /// Round-trip times, in arrival order (ping).
    pub rtt: Vec<RttSample>,
    /// Call quality at the receiver of a VoIP flow.
    pub voip: Option<VoipSummary>,
    /// TCP counters of the flow's connections, both ends summed.
    pub tcp: Option<TcpCounters>,
    /// Load times of the web pages completed, in order.
    pub page_loads: Vec<Duration>,
}

impl FlowMetrics {
    /// A flow of `station` that has measured nothing yet.
    pub fn new(station: StationId) -> FlowMetrics {
        FlowMetrics {
            station,
            rx_bytes: 0,
            rx_packets: 0,
            echo_requests: Vec::new(),
            rtt: Vec::new(),
            voip: None,
            tcp: None,
            page_loads: Vec::new(),
        }
    }
}

/// A ping flow's echo requests whose reply was due by the end of a run, and how many of
/// them were never answered (see [`FlowMetrics::echo_count`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EchoCount {
    pub sent: u64,
    pub lost: u64,
}

impl FlowMetrics {
    /// The echo requests whose reply was due by `end`: every request answered, and every
    /// request sent at least `reply_due` before `end`; those not answered are lost. A
    /// request sent later and not answered yet is left out: its reply may be on its way.
    /// (So loss within the last `reply_due` of a run goes uncounted, an understatement of
    /// at most that long's requests; a request still queued at `end` though sent earlier
    /// is lost, as for a ping tool whose run ended.)
    pub fn echo_count(&self, end: Duration, reply_due: Duration) -> EchoCount {
        let due = |sent: Duration| sent + reply_due <= end;
        let requests_due = self.echo_requests.iter().filter(|&&t| due(t)).count();
        let answered_due = self.rtt.iter().filter(|s| due(s.at - s.rtt)).count();
        debug_assert!(answered_due <= requests_due, "a reply answers a request");
        let lost = (requests_due - answered_due) as u64;
        EchoCount {
            sent: self.rtt.len() as u64 + lost,
            lost,
        }
    }
}

/// What a flow's TCP endpoints counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpCounters {
    pub connections: u64,
    pub retransmits: u64,
    pub rto_timeouts: u64,
    /// Tail loss probes sent (new data or a retransmission, RFC 8985 §7).
    pub tlp_probes: u64,
    pub ce_received: u64,
    pub ecn_reductions: u64,
}

impl TcpCounters {
    /// Adds one endpoint's statistics.
    pub fn add(&mut self, s: &TcpStats) {
        self.retransmits += s.retransmits;
        self.rto_timeouts += s.rto_timeouts;
        self.tlp_probes += s.tlp_probes;
        self.ce_received += s.ce_received;
        self.ecn_reductions += s.ecn_reductions;
    }
}

/// What the receiver of a VoIP call leg measured, and the E-model's verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VoipSummary {
    pub sent: u64,
    pub received: u64,
    /// Lost in the network or (with a fixed playout buffer) too late to play.
    pub loss_fraction: f64,
    /// RFC 3550 interarrival jitter at the end of the run.
    pub jitter: Duration,
    /// Mean one-way network delay of the received packets, ms.
    pub mean_delay_ms: f64,
    /// The E-model's mouth-to-ear delay Ta, ms.
    pub mouth_to_ear_ms: f64,
    /// ITU-T G.107 transmission rating R and its MOS (Annex B).
    pub r: f64,
    pub mos: f64,
}

impl VoipSummary {
    /// The summary of `stats`, `None` before a packet was sent.
    pub fn of(stats: &VoipStats) -> Option<VoipSummary> {
        let rating = stats.rating().ok()?;
        Some(VoipSummary {
            sent: stats.sent(),
            received: stats.received(),
            loss_fraction: stats.loss_fraction()?,
            jitter: stats.jitter(),
            mean_delay_ms: stats.delay_distribution_ms().mean().unwrap_or(0.0),
            mouth_to_ear_ms: stats.mouth_to_ear_ms(),
            r: rating.r,
            mos: rating.mos,
        })
    }
}

/// How the channel's time was spent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChannelMetrics {
    /// Time in successful or failed (non-colliding) exchanges, beacons included.
    pub busy: Duration,
    /// Time in exchanges where several transmitted at once.
    pub collision: Duration,
    pub beacon: Duration,
    pub exchanges: u64,
    pub collisions: u64,
}

impl ChannelMetrics {
    /// Idle time over a run of `duration`.
    pub fn idle(&self, duration: Duration) -> Duration {
        duration.saturating_sub(self.busy + self.collision)
    }
}

/// How much the AP holds at each layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueDepth {
    /// Packets in the qdisc and the MAC layer's queues (mac80211's backlog).
    pub queued_packets: u64,
    /// Frames handed to the driver or firmware, not yet completed.
    pub driver_frames: u64,
    /// Their expected airtime.
    pub driver_airtime: Duration,
}

/// One point of the time series, taken every sampling step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Time since the start.
    pub at: Duration,
    /// Cumulative IP bytes received per station, both directions.
    pub rx_bytes: Vec<u64>,
    /// Cumulative airtime per station, both directions.
    pub airtime: Vec<Duration>,
    /// Cumulative airtime per station of exchanges carrying its uplink frames (the rest
    /// of `airtime` carried its downlink frames).
    pub airtime_up: Vec<Duration>,
    /// Cumulative application bytes received per flow ([`FlowMetrics::rx_bytes`]).
    pub flow_rx_bytes: Vec<u64>,
    /// The state of each flow's TCP sender at the sample, as `ss -ti` shows a socket, in
    /// flow order: only the flows whose sender has an open connection (the others,
    /// without TCP or not connected, have no entry: at 1000 stations with a ping each,
    /// half the flows). [`Sample::tcp_sender`] looks one up.
    pub flow_tcp: Vec<(u32, TcpSenderSample)>,
    pub ap: QueueDepth,
}

impl Sample {
    /// The state of flow `flow`'s TCP sender at the sample; `None` for a flow without
    /// TCP, or whose sender has no open connection.
    pub fn tcp_sender(&self, flow: u32) -> Option<TcpSenderSample> {
        let i = self
            .flow_tcp
            .binary_search_by_key(&flow, |&(f, _)| f)
            .ok()?;
        Some(self.flow_tcp[i].1)
    }
}

/// The sending end of a flow's TCP connection at one instant: the server's end of a
/// download, the station's of an upload. A web flow has several connections, one after
/// another or in parallel; its sample is the server's end (which sends the responses) of
/// the most recently opened connection that is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpSenderSample {
    /// Congestion window, segments (Linux `snd_cwnd`, `ss`'s `cwnd:`; in bytes, times
    /// the connection's MSS).
    pub cwnd_segments: u32,
    /// Smoothed RTT (`ss`'s `rtt:`), once the sender has taken a sample.
    pub srtt: Option<Duration>,
}

/// Everything a run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    pub stations: Vec<StationMetrics>,
    pub flows: Vec<FlowMetrics>,
    /// Samples at every sampling step.
    pub series: Vec<Sample>,
    /// The AP's queue depth at every queue-sampling step.
    pub ap_queue: Vec<QueueDepth>,
    pub channel: ChannelMetrics,
    /// Events the loop processed.
    pub events: u64,
    /// Times the AP held frames for a station that no policy was holding back while the
    /// medium stayed idle (see [`Stall`]). A correct run has none.
    pub stalls: Vec<Stall>,
    /// Times, in the measured part of the run, the AP held packets for a station and
    /// delivered none to it for [`starvation::STARVATION_AFTER`] or longer, busy medium
    /// or not (see [`starvation`]). A correct run has none.
    pub starvation: Vec<starvation::Starvation>,
    /// Where the measurements start: zero, or the end of a warm-up left out
    /// ([`Metrics::since`]).
    pub start: Duration,
    /// Simulated time covered, from `start`.
    pub duration: Duration,
}

impl Metrics {
    /// Where the measurements end.
    pub fn end(&self) -> Duration {
        self.start + self.duration
    }

    /// Goodput of a station's flows (both directions, application bytes) in Mbit/s.
    pub fn goodput_mbps(&self, station: StationId) -> f64 {
        let bytes = self
            .flows
            .iter()
            .filter(|f| f.station == station)
            .map(|f| f.rx_bytes)
            .sum();
        self.mbps(bytes)
    }

    /// The flows of each of `stations` stations, by index, in flow order: one pass, so
    /// that summaries per station need not scan every flow for every station.
    pub fn flows_by_station(&self, stations: usize) -> Vec<Vec<usize>> {
        let mut by_station = vec![Vec::new(); stations];
        for (i, f) in self.flows.iter().enumerate() {
            if let Some(list) = by_station.get_mut(f.station.0 as usize) {
                list.push(i);
            }
        }
        by_station
    }

    /// Goodput of the flows `flows` together in Mbit/s ([`goodput_mbps`] of a station
    /// is that of its flows).
    ///
    /// [`goodput_mbps`]: Self::goodput_mbps
    pub fn flows_goodput_mbps(&self, flows: &[usize]) -> f64 {
        self.mbps(flows.iter().map(|&f| self.flows[f].rx_bytes).sum())
    }

    /// Goodput of flow `flow` in Mbit/s.
    pub fn flow_goodput_mbps(&self, flow: usize) -> f64 {
        self.mbps(self.flows[flow].rx_bytes)
    }

    /// `bytes` over the run, in Mbit/s.
    fn mbps(&self, bytes: u64) -> f64 {
        let secs = self.duration.as_secs_f64();
        if secs == 0.0 {
            return 0.0;
        }
        bytes as f64 * 8.0 / secs / 1e6
    }

    /// Each station's share of the airtime used by all stations' exchanges.
    pub fn airtime_shares(&self) -> Vec<f64> {
        let total: u64 = self.stations.iter().map(|s| s.airtime().as_nanos()).sum();
        self.stations
            .iter()
            .map(|s| {
                if total == 0 {
                    0.0
                } else {
                    s.airtime().as_nanos() as f64 / total as f64
                }
            })
            .collect()
    }
}

/// Jain's fairness index of `x` (1 = perfectly equal).
pub fn jain(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let squares: f64 = x.iter().map(|v| v * v).sum();
    if squares == 0.0 {
        1.0
    } else {
        sum * sum / (x.len() as f64 * squares)
    }
}

/// The AP held frames for `station`, no airtime policy was holding them back, and the
/// medium stayed idle from `idle_since` for at least the scenario's stall threshold
/// (detected at `detected_at`): a defect of the model (a component that did not ask to
/// be woken), recorded so that no result built on it passes unnoticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stall {
    pub station: StationId,
    pub idle_since: Duration,
    pub detected_at: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ping flow with requests sent at `sent_ms` and answered after `rtt_ms` (`None`:
    /// never answered).
    fn pings(requests: &[(u64, Option<u64>)]) -> FlowMetrics {
        let ms = Duration::from_millis;
        let mut f = FlowMetrics::new(StationId(0));
        for &(sent, rtt) in requests {
            f.echo_requests.push(ms(sent));
            if let Some(rtt) = rtt {
                f.rtt.push(RttSample {
                    at: ms(sent + rtt),
                    rtt: ms(rtt),
                });
            }
        }
        f
    }

    #[test]
    fn a_flow_without_an_open_tcp_sender_has_no_sample() {
        let sender = |cwnd_segments| TcpSenderSample {
            cwnd_segments,
            srtt: None,
        };
        let s = Sample {
            flow_tcp: vec![(1, sender(10)), (4, sender(3))],
            ..Sample::default()
        };
        let found: Vec<_> = (0..6).map(|f| s.tcp_sender(f)).collect();
        assert_eq!(
            found,
            [None, Some(sender(10)), None, None, Some(sender(3)), None]
        );
    }

    #[test]
    fn an_unanswered_request_is_lost_once_its_reply_was_due() {
        let ms = Duration::from_millis;
        // A 10 s run, replies due within 1 s: requests at 0, 8 and 9 s unanswered, 5 s
        // and 9.5 s answered (the latter after 0.4 s).
        let f = pings(&[
            (0, None),
            (5_000, Some(20)),
            (8_000, None),
            (9_000, None),
            (9_500, Some(400)),
            (9_990, None),
        ]);
        // Due: 0, 5, 8, 9 s (9 s exactly 1 s before the end); 9.5 s answered; 9.99 s
        // neither answered nor due.
        assert_eq!(
            f.echo_count(ms(10_000), ms(1_000)),
            EchoCount { sent: 5, lost: 3 }
        );
        // Nothing due yet: only the answered requests count.
        assert_eq!(
            f.echo_count(ms(1), ms(1_000)),
            EchoCount { sent: 2, lost: 0 }
        );
        assert_eq!(
            pings(&[]).echo_count(ms(10_000), ms(1_000)),
            EchoCount::default()
        );
    }
}
