//! What produced a run (scenario, variant, seed, command line, emulation) and what makes
//! two runs the same experiment, with the label and name of its file.

use serde::{Deserialize, Serialize};

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
    /// The ERP protection of the BSS's OFDM frames (IEEE 802.11-2020 10.26.2), derived
    /// from its stations or set by `bss.protection`; absent without protection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bss_protection: Option<String>,
    /// How an emulated run (`airq emulate`) kept up with real time; absent for a
    /// simulated run (and in files written before emulation existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulation: Option<EmulationSummary>,
}

/// How an emulated run kept up with the real clock, and what its tools reported.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Packets the model could not carry (neither IPv4 nor IPv6, or to an address
    /// outside the BSS: a multicast group).
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
    /// Packets the hosts' own interfaces dropped before the emulated AP read them (their
    /// qdisc's drops and the TUN device's `tx_dropped`), per host: the server's, then
    /// each station's. Non-zero means a sender's own host queue limited what it offered.
    /// Empty in files of runs before it was counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_queue_drops: Vec<u64>,
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
    /// A saturated UDP flow's (`udp_flood`) offered rate of IP packets given to iperf3,
    /// Mbit/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offered_mbps: Option<f64>,
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

impl Metadata {
    /// The run as file names show it: its label, and `+key=value` for every `--set`
    /// that is not on the AP and is not the seed or duration (those go elsewhere in the
    /// name, or make the run a different one of the same name), so that runs of other
    /// settings do not share a file. Characters a file name should not hold become `_`;
    /// a long list becomes a hash of it.
    pub fn file_label(&self) -> String {
        file_label(&self.variant, &self.overrides)
    }

    /// The run's `--set` overrides that its label ([`Self::variant`]) does not carry:
    /// all but those on the AP and the seed, in order. They tell the points of a sweep
    /// over a station's, the traffic's or the run's keys apart in the summaries.
    pub fn unlabelled_overrides(&self) -> Vec<String> {
        self.overrides
            .iter()
            .filter(|o| !o.starts_with("ap.") && !o.starts_with("seed="))
            .cloned()
            .collect()
    }

    /// The run as a warning names it: `scenario under variant with station.0.mcs=3
    /// (seed 1)`, its label and every `--set` the label does not carry, so that the
    /// points of a sweep are told apart.
    pub fn run_name(&self) -> String {
        let sets = self.unlabelled_overrides();
        let sets = if sets.is_empty() {
            String::new()
        } else {
            format!(" with {}", sets.join(" "))
        };
        format!(
            "{} under {}{sets} (seed {})",
            self.scenario, self.variant, self.seed
        )
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
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
