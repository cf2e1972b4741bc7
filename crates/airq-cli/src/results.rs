//! The results file: one gzip-compressed, self-describing JSON document per run, from
//! which every table and plot can be redrawn (flent's model). Field names carry their
//! units. It is versioned: `format_version` grows when the layout changes; files of older
//! versions are migrated on load, files of newer versions are refused with a message
//! saying so.

use crate::error::{io_error, CliError};
use crate::outputs::write_atomically;
use airq_sim::metrics::distribution::{Distribution, LossyPercentile};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

pub mod radio;
mod sums;

pub use radio::{RadioSummary, RateShare};

/// The `format` tag of every results file.
pub const FORMAT_NAME: &str = "airq-results";

/// The layout this build writes, and the newest it reads.
pub const FORMAT_VERSION: u32 = 3;

/// One run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultsFile {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// The layout's version: [`FORMAT_VERSION`] when written by this build.
    pub format_version: u32,
    /// What was run.
    pub metadata: Metadata,
    /// Per station, in scenario order.
    pub stations: Vec<StationSummary>,
    /// Per flow, in the order the scenario's traffic made them.
    pub flows: Vec<FlowSummary>,
    /// The channel over the whole run.
    pub channel: ChannelSummary,
    /// The time series.
    pub series: Series,
    /// The AP's queue depth at a finer step, for depth histograms.
    pub ap_queue: QueueSeries,
    /// Times the AP held frames that no policy held back while the medium stayed idle
    /// past the stall threshold (`airq_sim::metrics::Stall`): a correct run has none.
    pub stalls: Vec<StallSummary>,
    /// What soft admission control (`[ap.admission]`) did, when it was on; absent
    /// otherwise (and in files written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admission: Option<AdmissionSummary>,
    /// What the aggregation options (`[ap.aggregate_sizing]`, `[ap.just_in_time]`) did,
    /// when one was on; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregation: Option<AggregationSummary>,
    /// Times, in the measured part of the run, the AP held packets for a station and
    /// delivered none to it for a second or more, busy medium or not
    /// (`airq_sim::metrics::starvation`): a correct run has none. Absent when there were
    /// none (and in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starvation: Vec<StarvationSummary>,
    /// Each station's flows (not in the file: built on first use).
    #[serde(skip)]
    pub flow_index: FlowIndex,
}

/// The flows of each station of a [`ResultsFile`], by index in flow order, built once
/// on first use: the tables and plots ask for a station's flows once per station, and
/// scanning every flow each time made them quadratic (minutes at 65,535 stations).
#[derive(Default)]
pub struct FlowIndex(std::sync::OnceLock<std::collections::HashMap<String, Vec<usize>>>);

impl FlowIndex {
    fn of(&self, flows: &[FlowSummary], station: &str) -> &[usize] {
        let index = self.0.get_or_init(|| {
            let mut index: std::collections::HashMap<String, Vec<usize>> = Default::default();
            for (i, f) in flows.iter().enumerate() {
                index.entry(f.station.clone()).or_default().push(i);
            }
            index
        });
        index.get(station).map_or(&[], Vec::as_slice)
    }
}

/// A copy starts without its index (it is rebuilt on first use).
impl Clone for FlowIndex {
    fn clone(&self) -> FlowIndex {
        FlowIndex::default()
    }
}

/// The index is derived from the flows: it never makes two results files differ.
impl PartialEq for FlowIndex {
    fn eq(&self, _: &FlowIndex) -> bool {
        true
    }
}

impl std::fmt::Debug for FlowIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FlowIndex")
    }
}

/// One episode of starvation: from `since_s` the AP held packets for `station` and it
/// received none until `until_s` (`None`: not before the end of the run). Times are
/// those of the series' samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StarvationSummary {
    /// The station that received nothing.
    pub station: String,
    /// Simulated seconds from which it waited.
    pub since_s: f64,
    /// Simulated seconds at which it received again or the AP held nothing for it.
    pub until_s: Option<f64>,
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

/// What was run, how and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Metadata {
    /// The `airq-cli` version that wrote the file.
    pub airq_version: String,
    /// The scenario's `name`.
    pub scenario: String,
    /// The scenario file as named on the command line.
    pub scenario_file: String,
    /// The scenario as run, the `--set` overrides applied (not the variant's changes:
    /// every variant of one comparison has the same text).
    pub scenario_text: String,
    /// `--set` overrides (and `--driver`, `--seed`, `--duration` as `ap.driver=`,
    /// `seed=`, `duration=`), in order.
    pub overrides: Vec<String>,
    /// The root seed of the run.
    pub seed: u64,
    /// The AP preset the run started from.
    pub config: String,
    /// What labels the run: its variant's name (a preset's, or a named variant's) and
    /// `+key=value` for every `--set ap.key=value`.
    pub variant: String,
    /// The variant's own changes to the scenario, `key.path=value`, applied after the
    /// `--set`s.
    pub variant_set: Vec<String>,
    /// The AP as the simulator ran it, every layer and parameter, as data (the keys of
    /// a scenario's `[ap]`); a string in files written before format version 3.
    pub ap_config: serde_json::Value,
    /// The command line that made the file.
    pub command_line: Vec<String>,
    /// Wall-clock start, UTC, RFC 3339.
    pub started_utc: String,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
    /// Events the simulator processed.
    pub events: u64,
    /// Simulated time.
    pub duration_s: f64,
    /// The warm-up at its start left out of every summary, s (the time series keep
    /// it): the summaries cover `duration_s - omit_s`.
    #[serde(default)]
    pub omit_s: f64,
    /// Step of [`Series`].
    pub step_s: f64,
    /// The MAC timing the BSS got from its stations' standards when the scenario did
    /// not set `bss.timing` (e.g. 802.11b timing for a BSS of 802.11b stations); absent
    /// when it was set or the plain OFDM default applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bss_timing: Option<String>,
    /// How an emulated run (`airq emulate`) kept up with real time; absent for a
    /// simulated run (and in files written before emulation existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulation: Option<EmulationSummary>,
}

/// How an emulated run kept up with the real clock, and what its tools reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmulationSummary {
    /// Event lateness (wall time it ran minus the time it was due), median, µs.
    pub lateness_p50_us: f64,
    /// Event lateness, 99th percentile, µs.
    pub lateness_p99_us: f64,
    /// Event lateness, largest, µs.
    pub lateness_max_us: f64,
    /// Events the model ran.
    pub events: u64,
    /// Of those, run more than 1 ms late.
    pub events_over_1ms: u64,
    /// Lateness of the packets written to the hosts, 99th percentile, µs.
    pub delivery_lateness_p99_us: f64,
    /// Packets read from the hosts.
    pub packets_read: u64,
    /// Packets the model delivered to the hosts.
    pub packets_delivered: u64,
    /// Packets the model could not carry (not IPv4, or to an address outside the BSS).
    pub packets_not_carried: u64,
    /// Whether the loop ran at a real-time priority (SCHED_FIFO).
    pub realtime_priority: bool,
    /// Frames written to the capture of the air (`--pcap`): one per MPDU received
    /// without error, so one per packet per wireless hop, the whole run (warm-up and
    /// the tools' last exchanges included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcap_frames: Option<u64>,
    /// What iperf3 reported of each TCP flow (the hosts' own TCP, whose counters the
    /// flows' `tcp` leaves out).
    pub iperf3: Vec<Iperf3Result>,
}

/// One TCP flow as iperf3 reported it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Iperf3Result {
    /// Index into [`ResultsFile::flows`].
    pub flow: usize,
    /// The receiver's goodput over the whole test (warm-up included), Mbit/s.
    pub goodput_mbps: f64,
    /// Segments the sender retransmitted (Linux's `tcpi_total_retrans`); 0 for UDP.
    pub retransmits: u64,
    /// The sender's congestion control as iperf3 reported it
    /// (`end.sender_tcp_congestion`: `cubic`, `bbr`, ...); none for UDP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub congestion: Option<String>,
    /// A UDP flow's datagrams, as its receiver counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub udp: Option<UdpReport>,
}

/// A UDP flow as iperf3's receiver reported it (the whole test, warm-up included).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UdpReport {
    /// Datagrams the sender sent.
    pub packets: u64,
    /// Of those, not received (dropped by the AP, the hosts' queues, or the air).
    pub lost_packets: u64,
    /// RFC 3550 interarrival jitter, ms.
    pub jitter_ms: f64,
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

impl Metadata {
    /// The run as file names show it: its label, and `+key=value` for every `--set`
    /// that is not on the AP and is not the seed or duration (those go elsewhere in the
    /// name, or make the run a different one of the same name), so that runs of other
    /// settings do not share a file. Characters a file name should not hold become `_`;
    /// a long list becomes a hash of it.
    pub fn file_label(&self) -> String {
        file_label(&self.variant, &self.overrides)
    }

    /// What makes this run the run it is.
    pub fn key(&self) -> RunKey {
        RunKey {
            scenario: self.scenario.clone(),
            scenario_text: self.scenario_text.clone(),
            variant: self.variant.clone(),
            variant_set: self.variant_set.clone(),
            config: self.config.clone(),
            seed: self.seed,
            duration_s: self.duration_s,
        }
    }
}

/// What makes a run the run it is: two runs of one key are the same experiment (run
/// again, perhaps by a newer airq); runs of different keys are different experiments.
#[derive(Clone, Debug, PartialEq)]
pub struct RunKey {
    /// The scenario's name.
    pub scenario: String,
    /// Its text with the `--set`s applied.
    pub scenario_text: String,
    /// The run's label.
    pub variant: String,
    /// The variant's changes.
    pub variant_set: Vec<String>,
    /// The AP preset.
    pub config: String,
    /// The root seed.
    pub seed: u64,
    /// Simulated seconds.
    pub duration_s: f64,
}

impl RunKey {
    /// What differs between the two, in words.
    pub fn difference(&self, other: &RunKey) -> String {
        let mut d = Vec::new();
        if self.scenario != other.scenario {
            d.push(format!(
                "scenario `{}` vs `{}`",
                other.scenario, self.scenario
            ));
        }
        if self.variant != other.variant || self.config != other.config {
            d.push(format!(
                "variant `{}` ({}) vs `{}` ({})",
                other.variant, other.config, self.variant, self.config
            ));
        }
        if self.variant_set != other.variant_set {
            d.push("the variant's changes differ".into());
        }
        if self.seed != other.seed {
            d.push(format!("seed {} vs {}", other.seed, self.seed));
        }
        if self.duration_s != other.duration_s {
            d.push(format!("{} s vs {} s", other.duration_s, self.duration_s));
        }
        if self.scenario_text != other.scenario_text && d.is_empty() {
            d.push("the scenario text (or its --set overrides) differs".into());
        }
        d.join(", ")
    }
}

/// [`Metadata::file_label`] of a run labelled `variant` under `overrides`.
pub fn file_label(variant: &str, overrides: &[String]) -> String {
    let rest: String = overrides
        .iter()
        .filter(|o| {
            !["ap.", "seed=", "duration="]
                .iter()
                .any(|p| o.starts_with(p))
        })
        .map(|o| format!("+{}", o.replace('"', "")))
        .collect();
    let label = if rest.len() > 64 {
        format!("{}+{:08x}", variant, fnv1a(rest.as_bytes()) as u32)
    } else {
        format!("{}{rest}", variant)
    };
    let label: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+' | '=' | ',') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if label.len() > 160 {
        format!("{}+{:08x}", &label[..120], fnv1a(label.as_bytes()) as u32)
    } else {
        label
    }
}

/// 64-bit FNV-1a: a short, stable name for a long list of settings.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl ResultsFile {
    /// The stations' goodput summed.
    pub fn total_goodput_mbps(&self) -> f64 {
        self.stations.iter().map(|s| s.goodput_mbps).sum()
    }

    /// Jain's fairness index of the stations' airtime shares (1: all equal); `None`
    /// when no station used any airtime (all shares zero: equal, but not fair).
    pub fn airtime_jain(&self) -> Option<f64> {
        let shares: Vec<f64> = self.stations.iter().map(|s| s.airtime_share).collect();
        shares
            .iter()
            .any(|&s| s > 0.0)
            .then(|| airq_sim::metrics::jain(&shares))
    }

    /// The largest 99th percentile of ping RTT over the stations that pinged, ms (a
    /// percentile among lost pings as infinity); `None` without ping.
    pub fn worst_ping_p99_ms(&self) -> Option<f64> {
        self.stations
            .iter()
            .filter_map(|s| self.station_ping(&s.name))
            .map(|p| ms_or_infinity(p.p99))
            .reduce(f64::max)
    }

    /// The flows of station `station`, in flow order.
    pub fn station_flows<'a>(&'a self, station: &str) -> impl Iterator<Item = &'a FlowSummary> {
        self.flow_indices(station).iter().map(|&i| &self.flows[i])
    }

    /// The indices in `flows` of the flows of station `station`, in flow order.
    pub fn flow_indices(&self, station: &str) -> &[usize] {
        self.flow_index.of(&self.flows, station)
    }

    /// The ping figures of every ping flow of `station` together; `None` without ping.
    pub fn station_ping(&self, station: &str) -> Option<PingStats> {
        let flows: Vec<&FlowSummary> = self
            .station_flows(station)
            .filter(|f| f.pings_sent.is_some() || !f.rtt_ms.is_empty())
            .collect();
        let rtts = flows.iter().flat_map(|f| f.rtt_ms.iter().map(|s| s[1]));
        // Loading refused a file whose requests add up past u64::MAX (`sums`); a file
        // built in memory saturates rather than panics.
        let sent = flows
            .iter()
            .try_fold(0u64, |sum, f| Some(sum.saturating_add(f.pings_sent?)));
        PingStats::of(rtts.collect(), sent)
    }
}

/// How long after an echo request its reply is due, s: an unanswered request counts as
/// lost once that long has passed, so a ping sent in the last second of a run is not
/// lost (see [`FlowSummary::pings_sent`]). One second is `ping`'s default interval and
/// far above any RTT of a working network; a reply later than that still counts as
/// received, with its RTT.
pub const PING_REPLY_DUE_S: u64 = 1;

/// A percentile in ms, infinity when it lies among the lost pings.
pub fn ms_or_infinity(p: LossyPercentile) -> f64 {
    match p {
        LossyPercentile::Value(v) => v,
        LossyPercentile::Lost => f64::INFINITY,
    }
}

/// A ping flow's (or a station's ping flows') figures with loss counted: an unanswered
/// request is a sample larger than any RTT, not a missing one (flent's convention, see
/// [`Distribution::percentile_with_loss`]). Percentiles are
/// [`LossyPercentile::Lost`] when more than `1 - p` of the requests went unanswered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PingStats {
    /// Requests whose reply was due; `None` when the file did not count them (then the
    /// loss is unknown and the percentiles are of the replies alone).
    pub sent: Option<u64>,
    /// Replies received.
    pub received: u64,
    /// Median RTT, ms.
    pub p50: LossyPercentile,
    /// 90th percentile, ms.
    pub p90: LossyPercentile,
    /// 99th percentile, ms.
    pub p99: LossyPercentile,
}

impl PingStats {
    /// The figures of `rtts_ms` replies to `sent` requests; `None` when nothing is known:
    /// no reply, and no request due (or not counted).
    pub fn of(rtts_ms: Vec<f64>, sent: Option<u64>) -> Option<PingStats> {
        let received = rtts_ms.len() as u64;
        let total = sent.unwrap_or(received).max(received);
        if total == 0 {
            return None;
        }
        let d = Distribution::new(rtts_ms).ok()?;
        let at = |q| d.percentile_with_loss(q, total as usize);
        Some(PingStats {
            sent,
            received,
            p50: at(50.0)?,
            p90: at(90.0)?,
            p99: at(99.0)?,
        })
    }

    /// Requests never answered; `None` when not counted.
    pub fn lost(&self) -> Option<u64> {
        self.sent.map(|s| s.saturating_sub(self.received))
    }

    /// Fraction of the requests never answered; `None` when not counted.
    pub fn loss(&self) -> Option<f64> {
        let sent = self.sent.filter(|&s| s > 0)?;
        Some(self.lost()? as f64 / sent as f64)
    }
}

impl FlowSummary {
    /// The flow's ping figures; `None` for a flow that is not a ping (or measured
    /// nothing).
    pub fn ping(&self) -> Option<PingStats> {
        PingStats::of(self.rtt_ms.iter().map(|s| s[1]).collect(), self.pings_sent)
    }
}

/// The file name of a run: `<scenario>-<config>-seed<N>.json.gz`.
pub fn file_name(scenario: &str, config: &str, seed: u64) -> String {
    format!("{scenario}-{config}-seed{seed}.json.gz")
}

/// Writes `results` to `path`, gzip-compressed, atomically.
pub fn save(results: &ResultsFile, path: &Path) -> Result<(), CliError> {
    write_atomically(path, |w| {
        let mut gz = GzEncoder::new(w, Compression::default());
        // serde_json writes a few bytes at a time, and flate2 zeroes its whole 32 KiB
        // output buffer on every write: unbuffered, that was 2.1 of the 4.0 billion
        // instructions of a 60 s three-station run (issue 19).
        let mut json = BufWriter::with_capacity(1 << 16, &mut gz);
        serde_json::to_writer(&mut json, results)?;
        json.flush()?;
        drop(json);
        gz.finish()?.flush()
    })
}

/// Reads the results file at `path`, migrating older versions.
pub fn load(path: &Path) -> Result<ResultsFile, CliError> {
    let file = std::fs::File::open(path).map_err(|e| io_error("cannot open", path, e))?;
    let mut json = String::new();
    GzDecoder::new(file)
        .read_to_string(&mut json)
        .map_err(|e| io_error("cannot decompress", path, e))?;
    from_json(&json).map_err(|e| e.context(path.display()))
}

/// Parses the JSON of a results file, migrating older versions, and refuses counts that
/// add up past `u64::MAX` ([`sums`]).
pub fn from_json(json: &str) -> Result<ResultsFile, CliError> {
    let r = match parse_current(json) {
        Some(r) => r,
        None => parse_any(json)?,
    };
    sums::check(&r)?;
    Ok(r)
}

/// A file of this build's layout, parsed straight into its structure; `None` for
/// anything else (another version, not a results file, an error), which
/// [`parse_any`] then reads or words the error of. Going through a `serde_json::Value`
/// first, as `parse_any` does, took two thirds of `airq show`'s time at 65,535 stations
/// (issue 20). A file this accepts, `parse_any` accepts with the same content: the same
/// parser reads every number, and version 3 needs no migration (a key given twice, which
/// `parse_any` takes the last of, is an error here, so such a file goes there; so does
/// a file of another version, even one that has this layout).
fn parse_current(json: &str) -> Option<ResultsFile> {
    let r: ResultsFile = serde_json::from_str(json).ok()?;
    (r.format == FORMAT_NAME && r.format_version == FORMAT_VERSION).then_some(r)
}

/// Parses a results file of any version through a `serde_json::Value`, migrating it.
fn parse_any(json: &str) -> Result<ResultsFile, CliError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| CliError::new(format!("not JSON: {e}")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT_NAME) {
        return Err(CliError::new(format!("not an {FORMAT_NAME} file")));
    }
    let version = value
        .get("format_version")
        .and_then(|v| v.as_u64())
        .ok_or_else(|| CliError::new("no format_version"))?;
    if version > u64::from(FORMAT_VERSION) {
        return Err(CliError::new(format!(
            "results format_version {version} is newer than this airq ({}) reads (up to \
             {FORMAT_VERSION}): use a newer airq",
            env!("CARGO_PKG_VERSION")
        )));
    }
    let value = migrate(version, value)?;
    serde_json::from_value(value)
        .map_err(|e| CliError::new(format!("format_version {version} but not its layout: {e}")))
}

/// Brings a file of `version` to [`FORMAT_VERSION`], one version at a time. Version 1
/// is the first; version 2 added `stalls` (version 1 files come from runs that had no
/// stall detector: they load with none recorded); version 3 added the run's `variant`
/// and `variant_set` (a version 2 run was a preset, with the driver in its name when
/// the command line chose it) and holds `ap_config` as data.
fn migrate(version: u64, mut value: serde_json::Value) -> Result<serde_json::Value, CliError> {
    match version {
        1 => {
            if let Some(map) = value.as_object_mut() {
                map.insert("stalls".into(), serde_json::Value::Array(Vec::new()));
                map.insert("format_version".into(), 2.into());
            }
            migrate(2, value)
        }
        2 => {
            if let Some(m) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
                let config = m.get("config").and_then(|c| c.as_str()).unwrap_or("");
                let overrides: Vec<String> = m
                    .get("overrides")
                    .and_then(|o| o.as_array())
                    .map(|o| {
                        o.iter()
                            .filter_map(|s| s.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let driver = overrides
                    .iter()
                    .rev()
                    .find_map(|o| o.strip_prefix("ap.driver="))
                    .map(|d| format!("+driver={}", d.trim_matches('"')))
                    .unwrap_or_default();
                let variant = format!("{config}{driver}");
                m.insert("variant".into(), variant.into());
                m.insert("variant_set".into(), serde_json::Value::Array(Vec::new()));
            }
            if let Some(map) = value.as_object_mut() {
                map.insert("format_version".into(), 3.into());
            }
            migrate(3, value)
        }
        3 => Ok(value),
        v => Err(CliError::new(format!("unknown results format_version {v}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON of every results file of the fuzz corpus.
    fn corpus() -> Vec<(String, String)> {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/corpus/results_file"
        );
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                let json = if bytes.starts_with(&[0x1f, 0x8b]) {
                    let mut json = String::new();
                    GzDecoder::new(&bytes[..])
                        .read_to_string(&mut json)
                        .unwrap();
                    json
                } else {
                    String::from_utf8(bytes).unwrap()
                };
                (p.display().to_string(), json)
            })
            .collect()
    }

    #[test]
    fn a_current_file_parses_the_same_straight_as_through_a_value() {
        let mut straight = 0;
        for (name, json) in corpus() {
            let Some(fast) = parse_current(&json) else {
                continue;
            };
            straight += 1;
            assert_eq!(fast, parse_any(&json).unwrap(), "{name}");
            // Field by field, floats bit for bit (PartialEq would take -0.0 for 0.0).
            assert_eq!(
                serde_json::to_string(&fast).unwrap(),
                serde_json::to_string(&parse_any(&json).unwrap()).unwrap(),
                "{name}"
            );
        }
        assert!(straight >= 5, "{straight} corpus files of format 3");
    }

    #[test]
    fn other_versions_and_repeated_keys_take_the_value_path() {
        let (_, json) = corpus()
            .into_iter()
            .find(|(n, _)| n.ends_with("udp-flood-anomaly-fifo-seed1.json"))
            .unwrap();
        let older = json.replacen("\"format_version\":3", "\"format_version\":2", 1);
        assert!(parse_current(&older).is_none());
        let newer = json.replacen("\"format_version\":3", "\"format_version\":4", 1);
        assert!(parse_current(&newer).is_none());
        assert!(from_json(&newer).unwrap_err().message().contains("newer"));
        // A key given twice: the value path takes the last, as serde_json's maps do.
        let twice = json.replacen("\"stalls\":[]", "\"stalls\":[],\"stalls\":[]", 1);
        assert_ne!(twice, json);
        assert!(parse_current(&twice).is_none());
        assert_eq!(from_json(&twice).unwrap(), from_json(&json).unwrap());
    }
}
