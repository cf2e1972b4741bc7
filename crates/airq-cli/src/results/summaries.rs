//! The summaries a results file keeps per run: per station, per flow, the time series,
//! and what each optional mechanism counted.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::*;

/// One episode of starvation: from `since_s` the AP held packets for `station`, sent it
/// nothing and it received none until `until_s` (`None`: not before the end of the run).
/// Times are those of the series' samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StarvationSummary {
    /// The station that received nothing.
    pub station: String,
    /// Simulated seconds from which it waited.
    pub since_s: f64,
    /// Simulated seconds at which it received again, was sent to again or the AP held
    /// nothing for it.
    pub until_s: Option<f64>,
    /// All the while, its packets all waited in the qdisc and the MAC layer held none:
    /// locked out of the driver's queue, shared by the stations and full of other
    /// stations' frames (`airq_sim::metrics::starvation`). Absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub above_mac: bool,
    /// All the while, the AP held another station's packets in an access category of
    /// higher priority than any of this station's: EDCA's priority between ACs at work
    /// (`airq_sim::metrics::starvation`). Absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub behind_higher_ac: bool,
}

/// The aggregation options' counters over the whole run, warm-up included.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AggregationSummary {
    /// Dynamic aggregate sizing, when on.
    pub sizing: Option<AggregateSizingSummary>,
    /// Just-in-time aggregates, when on.
    pub just_in_time: Option<JustInTimeSummary>,
    /// Combined QoS aggregates, when on (absent otherwise, and in files written
    /// before they existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qos_aggregate: Option<QosAggregateSummary>,
}

/// Combined QoS aggregates' counters (`airq::aggregate::QosAggregateStats`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QosAggregateSummary {
    /// BE/VI A-MPDUs that carried VO frames at their head.
    pub combined_aggregates: u64,
    /// VO frames sent in them.
    pub vo_frames_combined: u64,
    /// VO TXOPs saved (at least one per combined aggregate).
    pub vo_txops_saved: u64,
    /// Times VO frames went in their own TXOP although a carrier was coming because
    /// the VO queue was longer than `max_vo_frames`.
    pub own_txop_occupancy: u64,
    /// ... because more than `max_contenders` stations contended.
    pub own_txop_contention: u64,
    /// ... because they had waited `max_wait_us`.
    pub own_txop_waited: u64,
}

/// Dynamic aggregate sizing's counters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AggregateSizingSummary {
    /// A-MPDUs the rule sized.
    pub aggregates: u64,
    /// Of which capped below what they could otherwise have lasted.
    pub capped: u64,
    /// The mean cap given, µs.
    pub mean_cap_us: u64,
}

/// Just-in-time aggregates' counters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JustInTimeSummary {
    /// Builds scheduled (A-MPDUs that went on the air).
    pub scheduled: u64,
    /// A-MPDUs that completed with no next one built while frames waited.
    pub late: u64,
}

/// What soft admission control did over the whole run, warm-up included (when a flow
/// was demoted matters, so nothing is left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmissionSummary {
    /// Downlink packets marked VO or VI.
    pub priority_packets: u64,
    /// Of those, queued at the demotion class instead.
    pub demoted_packets: u64,
    /// Flow demotions.
    pub demotions: u64,
    /// Flow promotions back.
    pub promotions: u64,
    /// Flow buckets still demoted at the end.
    pub flows_demoted_at_end: u64,
    /// Per station, in scenario order.
    pub stations: Vec<AdmissionCounts>,
    /// Per flow, in the order of [`ResultsFile::flows`].
    pub flows: Vec<AdmissionCounts>,
}

/// Soft admission control's counts for one station or flow.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmissionCounts {
    /// Packets marked VO or VI queued at the demotion class instead.
    pub demoted_packets: u64,
    /// Times a flow was demoted.
    pub demotions: u64,
    /// Times a flow was promoted back.
    pub promotions: u64,
    /// When a flow was first demoted, s from the start; `None` if never.
    pub first_demotion_s: Option<f64>,
}

/// One stall: the AP held frames for `station` and the medium was idle from
/// `idle_since_s` until at least `detected_at_s`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StallSummary {
    /// The station whose frames waited.
    pub station: String,
    /// Simulated seconds at which the medium went idle.
    pub idle_since_s: f64,
    /// Simulated seconds at which the stall was detected (the threshold later).
    pub detected_at_s: f64,
}

/// One flow over the whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSummary {
    /// The station at its wireless end.
    pub station: String,
    /// The scenario test that made it (`tcp_download`, `ping`, ...).
    pub test: String,
    /// `down` (server → station) or `up`.
    pub direction: String,
    /// The station a station-to-station ping goes to (relayed by the AP); absent for
    /// every other flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Its DiffServ codepoint.
    pub dscp: u8,
    /// Application bytes delivered per second.
    pub goodput_mbps: f64,
    /// Ping round trips: `[t_s, rtt_ms]` per reply, in arrival order.
    pub rtt_ms: Vec<[f64; 2]>,
    /// A ping flow's echo requests whose reply was due by the end of the run: every one
    /// answered, and every one sent at least [`PING_REPLY_DUE_S`] before the end (a
    /// request sent later and not answered yet is left out: its reply may be on its way).
    /// `None` for other flows, and in files written before requests were counted.
    #[serde(default)]
    pub pings_sent: Option<u64>,
    /// Of `pings_sent`, those never answered: dropped on the way there or back, or still
    /// queued when the run ended. `pings_sent - pings_lost` is `rtt_ms.len()`.
    #[serde(default)]
    pub pings_lost: Option<u64>,
    /// A VoIP leg's quality at its receiver.
    pub voip: Option<VoipResult>,
    /// TCP counters of its connections, summed.
    pub tcp: Option<TcpResult>,
    /// Web page load times, s.
    pub page_load_s: Vec<f64>,
}

/// A VoIP call leg at its receiver, rated with the ITU-T G.107 E-model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoipResult {
    /// RTP packets sent and received.
    pub sent: u64,
    /// Received in time to be played.
    pub received: u64,
    /// Lost or too late, as a fraction of those sent.
    pub loss_fraction: f64,
    /// RFC 3550 interarrival jitter, ms.
    pub jitter_ms: f64,
    /// Mean one-way delay, ms.
    pub mean_delay_ms: f64,
    /// The E-model's mouth-to-ear delay, ms.
    pub mouth_to_ear_ms: f64,
    /// Transmission rating R.
    pub r: f64,
    /// Mean opinion score from R (G.107 Annex B).
    pub mos: f64,
}

/// What a flow's TCP connections counted (both ends).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpResult {
    /// Segments sent again (fast retransmit, RTO, tail loss probe).
    pub retransmits: u64,
    /// Retransmission timeouts.
    pub rto_timeouts: u64,
    /// CE-marked segments received.
    pub ce_received: u64,
    /// Window reductions on an ECN echo.
    pub ecn_reductions: u64,
    /// Connections opened.
    pub connections: u64,
}

/// The AP's queue depth at every queue-sampling step.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueSeries {
    /// Between two samples, s.
    pub step_s: f64,
    /// Packets in the qdisc and MAC queues.
    pub queued_packets: Vec<u64>,
    /// Frames in the driver or firmware.
    pub driver_frames: Vec<u64>,
    /// Their expected airtime, ms.
    pub driver_airtime_ms: Vec<f64>,
}

/// RTT percentiles.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Percentiles {
    /// Median, ms.
    pub p50: f64,
    /// 90th percentile, ms.
    pub p90: f64,
    /// 99th percentile, ms.
    pub p99: f64,
}

/// One station over the whole run; "down" is AP → station.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationSummary {
    /// The station's name (`count` groups expanded: `fast1`).
    pub name: String,
    /// Its PHY rate, as `airq::phy` names it.
    pub rate: String,
    /// Its PHY rate in Mbit/s.
    pub phy_rate_mbps: f64,
    /// Application bytes (UDP payloads, in-order TCP data) its flows delivered, both
    /// directions, per second.
    pub goodput_mbps: f64,
    /// IP bytes received by the station.
    pub rx_bytes_down: u64,
    /// IP bytes received from the station.
    pub rx_bytes_up: u64,
    /// Packets received by the station.
    pub rx_packets_down: u64,
    /// Packets received from the station.
    pub rx_packets_up: u64,
    /// Its fraction of the airtime all stations' exchanges used.
    pub airtime_share: f64,
    /// Airtime of exchanges carrying its downlink frames, collisions included.
    pub airtime_down_s: f64,
    /// Airtime of exchanges carrying its uplink frames.
    pub airtime_up_s: f64,
    /// Dropped packets by cause (every cause listed).
    pub drops: BTreeMap<String, u64>,
    /// Mean MPDUs per PPDU sent.
    pub mpdus_per_ampdu_down: f64,
    /// Mean MPDUs per PPDU it sent.
    pub mpdus_per_ampdu_up: f64,
    /// Failed MPDU transmissions to it (retried or dropped).
    pub mpdu_failures_down: u64,
    /// Failed MPDU transmissions from it.
    pub mpdu_failures_up: u64,
    /// Its PPDUs lost in collisions.
    pub collisions: u64,
    /// One-way delay of received packets; `None` when none was received.
    pub mean_delay_ms: Option<f64>,
    /// Largest one-way delay of a received packet.
    pub max_delay_ms: f64,
    /// Ping RTTs of the replies received (lost pings are not in them: see `ping_loss`
    /// and [`ResultsFile::station_ping`]); `None` when the scenario had no ping to this
    /// station or none was answered.
    pub ping_rtt_ms: Option<Percentiles>,
    /// Fraction of its ping flows' requests never answered, of those whose reply was due
    /// (`pings_lost / pings_sent` of its flows, summed); `None` without pings, and in
    /// files written before requests were counted.
    #[serde(default)]
    pub ping_loss: Option<f64>,
    /// How its rate was chosen (`minstrel_ht`); absent for a fixed rate, and in files
    /// written before rate control existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_control: Option<String>,
    /// Its link's SNR and rates, AP → station and station → AP ([`radio`]); absent for
    /// a station with a fixed rate and no channel model (one rate, no SNR), and in
    /// files written before they were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radio_down: Option<RadioSummary>,
    /// The same, station → AP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radio_up: Option<RadioSummary>,
    /// The CoDel parameters FQ-MAC judged its TXQs by at the end of the run, when they
    /// were set per station (`[ap] slow_station_codel`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codel: Option<CodelSummary>,
}

/// CoDel's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodelSummary {
    /// Acceptable standing sojourn time, ms.
    pub target_ms: f64,
    /// The window the sojourn time is judged over, ms.
    pub interval_ms: f64,
    /// ECN-capable packets are marked instead of dropped.
    pub ecn: bool,
}

impl From<airq::codel::CodelParams> for CodelSummary {
    fn from(p: airq::codel::CodelParams) -> CodelSummary {
        let ms = |d: airq::Duration| d.as_nanos() as f64 / 1e6;
        CodelSummary {
            target_ms: ms(p.target),
            interval_ms: ms(p.interval),
            ecn: p.ecn,
        }
    }
}

impl StationSummary {
    /// Drops of every cause.
    pub fn total_drops(&self) -> u64 {
        self.drops.values().sum()
    }
}

/// How the channel's time was spent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSummary {
    /// In exchanges without collision, beacons included.
    pub busy_s: f64,
    /// In exchanges where several transmitted at once.
    pub collision_s: f64,
    /// Spent on beacons (within `busy_s`).
    pub beacon_s: f64,
    /// Neither busy nor in collisions.
    pub idle_s: f64,
    /// Exchanges on the air.
    pub exchanges: u64,
    /// Exchanges that collided.
    pub collisions: u64,
}

impl ChannelSummary {
    /// The share of the measured time the channel carried exchanges, collisions
    /// included (beside the stations' airtime shares, which divide what was used, it
    /// shows how much was: a `limit` group with the rest idle leaves half of it
    /// unused); `None` over no time.
    pub fn in_use_share(&self) -> Option<f64> {
        let used = self.busy_s + self.collision_s;
        let total = used + self.idle_s;
        (total > 0.0).then(|| used / total)
    }

    /// The share of the exchanges that collided; 0 without exchanges.
    pub fn collided_share(&self) -> f64 {
        if self.exchanges == 0 {
            0.0
        } else {
            self.collisions as f64 / self.exchanges as f64
        }
    }
}

/// The time series, one entry per sampling step; per-station vectors are in station
/// order. Counters are cumulative since the start.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// Sample times since the start.
    pub t_s: Vec<f64>,
    /// Per sample, per station: IP bytes received, both directions.
    pub rx_bytes: Vec<Vec<u64>>,
    /// Per sample, per station: airtime, s.
    pub airtime_s: Vec<Vec<f64>>,
    /// Per sample, per station: the part of `airtime_s` in exchanges carrying its uplink
    /// frames, s (the rest carried its downlink frames). Empty in files written before
    /// it was recorded.
    #[serde(default)]
    pub airtime_up_s: Vec<Vec<f64>>,
    /// Per sample, per flow: application bytes delivered.
    pub flow_rx_bytes: Vec<Vec<u64>>,
    /// Per sample, per flow: the congestion window of the flow's TCP sender, segments
    /// (`ss`'s `cwnd:`): the server's end of a download or of a web flow's responses
    /// (its most recently opened open connection), the station's of an upload. `null`
    /// for a flow without TCP, or without an established connection at the sample.
    /// Empty in files written before it was recorded.
    #[serde(default)]
    pub flow_tcp_cwnd: Vec<Vec<Option<u32>>>,
    /// Per sample, per flow: the smoothed RTT of that sender, ms (`ss`'s `rtt:`); `null`
    /// where `flow_tcp_cwnd` is, and before the sender's first RTT sample. Empty in
    /// files written before it was recorded.
    #[serde(default)]
    pub flow_tcp_rtt_ms: Vec<Vec<Option<f64>>>,
    /// Packets in the AP's qdisc and MAC queues.
    pub ap_queued_packets: Vec<u64>,
    /// Frames handed to the driver or firmware and not yet completed, and their airtime.
    pub ap_driver_frames: Vec<u64>,
    /// Expected airtime of those frames, ms.
    pub ap_driver_airtime_ms: Vec<f64>,
}

impl FlowSummary {
    /// The flow's ping figures; `None` for a flow that is not a ping (or measured
    /// nothing).
    pub fn ping(&self) -> Option<PingStats> {
        PingStats::of(self.rtt_ms.iter().map(|s| s[1]).collect(), self.pings_sent)
    }
}
