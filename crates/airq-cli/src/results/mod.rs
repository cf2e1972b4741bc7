//! The results file: one gzip-compressed, self-describing JSON document per run, from
//! which every table and plot can be redrawn (flent's model). Field names carry their
//! units. It is versioned: `format_version` grows when the layout changes; files of older
//! versions are migrated on load, files of newer versions are refused with a message
//! saying so.

use serde::{Deserialize, Serialize};

mod file_io;
mod metadata;
mod ping;
pub mod radio;
mod summaries;
mod sums;

pub use file_io::*;
pub use metadata::*;
pub use ping::*;
pub use radio::{RadioSummary, RateShare};
pub use summaries::*;

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
    /// Times, in the measured part of the run, the AP held packets for a station, sent it
    /// nothing and delivered none to it for a second or more, busy medium or not
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

impl ResultsFile {
    /// The stations' goodput summed.
    pub fn total_goodput_mbps(&self) -> f64 {
        self.stations.iter().map(|s| s.goodput_mbps).sum()
    }

    /// Whether any flow delivered something end to end in the measured time: a flow's
    /// data (goodput) or a ping's reply. Packets that only got one way (pings that
    /// reached a station whose replies were all lost) are not a delivery.
    pub fn delivered_any(&self) -> bool {
        self.stations.iter().any(|s| s.goodput_mbps > 0.0)
            || self.flows.iter().any(|f| {
                f.goodput_mbps > 0.0 || f.pings_sent.unwrap_or(0) > f.pings_lost.unwrap_or(0)
            })
    }

    /// Jain's fairness index of the stations' airtime shares (1: all equal); `None`
    /// when nothing was delivered (the airtime of attempts that all failed is shared
    /// by nobody who got anything: 1.000 there would read as a fair network) or no
    /// station used any airtime (all shares zero: equal, but not fair).
    pub fn airtime_jain(&self) -> Option<f64> {
        let shares: Vec<f64> = self.stations.iter().map(|s| s.airtime_share).collect();
        (self.delivered_any() && shares.iter().any(|&s| s > 0.0))
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

    /// The ping flows between `station` and the server (not those to another station,
    /// whose round trips take two hops through the AP).
    pub fn server_pings<'a>(&'a self, station: &str) -> impl Iterator<Item = &'a FlowSummary> {
        self.station_flows(station)
            .filter(|f| f.to.is_none() && (f.pings_sent.is_some() || !f.rtt_ms.is_empty()))
    }

    /// The ping figures of every ping between `station` and the server together; `None`
    /// without one.
    pub fn station_ping(&self, station: &str) -> Option<PingStats> {
        let flows: Vec<&FlowSummary> = self.server_pings(station).collect();
        let rtts = flows.iter().flat_map(|f| f.rtt_ms.iter().map(|s| s[1]));
        // Loading refused a file whose requests add up past u64::MAX (`sums`); a file
        // built in memory saturates rather than panics.
        let sent = flows
            .iter()
            .try_fold(0u64, |sum, f| Some(sum.saturating_add(f.pings_sent?)));
        PingStats::of(rtts.collect(), sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;
    use std::io::Read;

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
