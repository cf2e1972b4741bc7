//! The input model: plain data that a caller (the `airq` CLI) fills from its own results
//! files. One [`Comparison`] is one scenario run under several AP designs; each
//! [`RunView`] is one design's run, with per-station time series sampled every `step_s`.
//!
//! `validate` checks every number before anything is drawn or written, so bad input gives
//! an error that names the run, the station, the field and the index.

use crate::error::ReportError;
use std::collections::HashSet;

mod flow;
pub use flow::{FlowDirection, FlowKind, FlowView, VoipView};

/// One scenario run under several AP designs, one [`RunView`] per design.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The scenario's name, used in titles.
    pub scenario: String,
    /// What produced the runs, drawn under every figure's title, e.g. "seed 1 · 30.0 s
    /// simulated · --set ap.fq_mac.target_ms=5"; empty draws nothing.
    pub caption: String,
    /// One run per AP design, in the order they are to be shown.
    pub runs: Vec<RunView>,
}

/// One run of a scenario under one AP design.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunView {
    /// The AP design: "fifo", "fq_codel", "fq_mac", "airtime", "airtime_aql", ...
    pub config: String,
    /// Simulated duration in seconds.
    pub duration_s: f64,
    /// Sampling step of the per-step series, in seconds.
    pub step_s: f64,
    /// Wall-clock start of the run (Unix seconds), flent's `T0` and `TIME`.
    pub start_time_unix_s: f64,
    /// The stations, in a fixed order that gives each its colour in every plot.
    pub stations: Vec<StationView>,
    /// Depth of the firmware-offload driver queue, when the design has one.
    pub driver_queue: Option<QueueSamples>,
    /// The run's flows, in the order its traffic made them.
    pub flows: Vec<FlowView>,
}

/// One station's results within a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StationView {
    /// Display name, e.g. "fast1"; becomes the flent host name.
    pub name: String,
    /// MAC address, e.g. "02:00:00:00:00:01"; keys flent's per-station airtime.
    pub mac: String,
    /// Mean goodput over the run, Mbit/s (download plus upload).
    pub goodput_mbps: f64,
    /// The station's fraction of the busy airtime, 0..=1.
    pub airtime_share: f64,
    /// Download goodput per step: index i covers t in (i*step, (i+1)*step].
    pub download_mbps: Vec<f64>,
    /// Upload goodput per step, indexed as `download_mbps`.
    pub upload_mbps: Vec<f64>,
    /// Airtime the AP spent sending to the station in each step, µs.
    pub airtime_tx_us: Vec<f64>,
    /// Airtime the station spent sending to the AP in each step, µs.
    pub airtime_rx_us: Vec<f64>,
    /// Mean number of MPDUs per A-MPDU sent to the station.
    pub avg_aggr_size: f64,
    /// Raw ping samples: (seconds since the start, RTT in ms).
    pub ping_rtt_ms: Vec<(f64, f64)>,
    /// Ping requests whose reply was due, answered or not (at least the samples): the
    /// latency CDF is normalised over them, so that it stops below 1 at the fraction
    /// answered. `None` when not counted: the CDF is then over the samples alone.
    pub pings_sent: Option<u64>,
}

/// Samples of the driver (firmware) queue depth, taken at equal intervals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueSamples {
    /// Frames queued below the MAC at each sample.
    pub frames: Vec<f64>,
    /// Airtime queued below the MAC at each sample, µs.
    pub airtime_us: Vec<f64>,
}

impl Comparison {
    /// Checks every run (see [`RunView::validate`]) and that design names are unique.
    pub fn validate(&self) -> Result<(), ReportError> {
        if self.runs.is_empty() {
            return Err(ReportError::empty(format!(
                "comparison \"{}\" has no runs",
                self.scenario
            )));
        }
        for (i, run) in self.runs.iter().enumerate() {
            if self.runs[..i].iter().any(|r| r.config == run.config) {
                return Err(ReportError::invalid(
                    format!("runs[{i}]"),
                    format!("design \"{}\" appears twice", run.config),
                ));
            }
            run.validate()?;
        }
        Ok(())
    }
}

impl RunView {
    /// Checks the run's numbers: positive finite duration and step, at least one station,
    /// unique non-empty station names and MACs, finite non-negative samples, no more
    /// per-step samples than steps, shares in 0..=1, positive RTTs and ping times within
    /// the run.
    pub fn validate(&self) -> Result<(), ReportError> {
        let at = |what: &str| format!("run \"{}\", {what}", self.config);
        if self.config.is_empty() {
            return Err(ReportError::invalid("run", "config name is empty"));
        }
        positive(self.duration_s, || at("duration_s"))?;
        positive(self.step_s, || at("step_s"))?;
        if !self.start_time_unix_s.is_finite() || self.start_time_unix_s < 0.0 {
            return Err(ReportError::invalid(
                at("start_time_unix_s"),
                format!("{} is not a time after 1970", self.start_time_unix_s),
            ));
        }
        if self.stations.is_empty() {
            return Err(ReportError::empty(at("no stations")));
        }
        // Sets, not a scan of the stations before each: 65,535 stations (issue 20).
        let mut names: HashSet<&str> = HashSet::with_capacity(self.stations.len());
        let mut macs: HashSet<&str> = HashSet::with_capacity(self.stations.len());
        // The latency CDF pools every station's pings: their count must be one.
        let mut pings = 0usize;
        for (i, sta) in self.stations.iter().enumerate() {
            if sta.name.is_empty() {
                return Err(ReportError::invalid(
                    at(&format!("stations[{i}]")),
                    "empty name",
                ));
            }
            if !names.insert(&sta.name) {
                return Err(ReportError::invalid(
                    at(&format!("stations[{i}]")),
                    format!("station name \"{}\" appears twice", sta.name),
                ));
            }
            if !macs.insert(&sta.mac) {
                return Err(ReportError::invalid(
                    at(&format!("station \"{}\"", sta.name)),
                    format!("MAC \"{}\" appears twice", sta.mac),
                ));
            }
            let at_sta = at(&format!("station \"{}\"", sta.name));
            sta.validate(self.duration_s, &at_sta)?;
            let sent = sta
                .pings_sent
                .map_or(Some(sta.ping_rtt_ms.len()), |n| usize::try_from(n).ok());
            pings = match sent.and_then(|n| pings.checked_add(n)) {
                Some(p) => p,
                None => {
                    return Err(ReportError::invalid(
                        format!("{at_sta}, pings_sent"),
                        "the stations' pings add up past what this machine can count",
                    ))
                }
            };
            let per_step = [
                ("download_mbps", sta.download_mbps.len()),
                ("upload_mbps", sta.upload_mbps.len()),
                ("airtime_tx_us", sta.airtime_tx_us.len()),
                ("airtime_rx_us", sta.airtime_rx_us.len()),
            ];
            for (field, len) in per_step {
                if len > self.steps() {
                    return Err(ReportError::invalid(
                        format!("{at_sta}, {field}"),
                        format!(
                            "{len} samples, but the run has {} steps of {} s",
                            self.steps(),
                            self.step_s
                        ),
                    ));
                }
            }
        }
        for (i, flow) in self.flows.iter().enumerate() {
            let at_flow = at(&format!("flows[{i}]"));
            if !names.contains(flow.station.as_str()) {
                return Err(ReportError::invalid(
                    at_flow,
                    format!("station \"{}\" is not in stations", flow.station),
                ));
            }
            flow.validate(self.duration_s, self.steps(), &at_flow)?;
        }
        if let Some(q) = &self.driver_queue {
            non_negative_all(&q.frames, &at("driver_queue.frames"))?;
            non_negative_all(&q.airtime_us, &at("driver_queue.airtime_us"))?;
        }
        Ok(())
    }

    /// Number of steps in the run: the grid has this many intervals of `step_s`.
    pub(crate) fn steps(&self) -> usize {
        // A duration that is a whole number of steps up to float noise counts as exact.
        (self.duration_s / self.step_s - 1e-9).ceil().max(0.0) as usize
    }
}

impl StationView {
    fn validate(&self, duration_s: f64, at: &str) -> Result<(), ReportError> {
        if !is_mac(&self.mac) {
            return Err(ReportError::invalid(
                format!("{at}, mac"),
                format!("\"{}\" is not six hex octets separated by ':'", self.mac),
            ));
        }
        if !self.goodput_mbps.is_finite() || self.goodput_mbps < 0.0 {
            return Err(ReportError::invalid(
                format!("{at}, goodput_mbps"),
                format!("{} is not a finite rate >= 0", self.goodput_mbps),
            ));
        }
        if !(0.0..=1.0).contains(&self.airtime_share) {
            return Err(ReportError::invalid(
                format!("{at}, airtime_share"),
                format!("{} is not a fraction in 0..=1", self.airtime_share),
            ));
        }
        if !self.avg_aggr_size.is_finite() || self.avg_aggr_size < 0.0 {
            return Err(ReportError::invalid(
                format!("{at}, avg_aggr_size"),
                format!("{} is not a finite size >= 0", self.avg_aggr_size),
            ));
        }
        non_negative_all(&self.download_mbps, &format!("{at}, download_mbps"))?;
        non_negative_all(&self.upload_mbps, &format!("{at}, upload_mbps"))?;
        non_negative_all(&self.airtime_tx_us, &format!("{at}, airtime_tx_us"))?;
        non_negative_all(&self.airtime_rx_us, &format!("{at}, airtime_rx_us"))?;
        if let Some(sent) = self.pings_sent {
            if sent < self.ping_rtt_ms.len() as u64 {
                return Err(ReportError::invalid(
                    format!("{at}, pings_sent"),
                    format!("{sent} pings sent but {} replies", self.ping_rtt_ms.len()),
                ));
            }
        }
        for (i, &(t, rtt)) in self.ping_rtt_ms.iter().enumerate() {
            if !(t.is_finite() && (0.0..=duration_s).contains(&t)) {
                return Err(ReportError::invalid(
                    format!("{at}, ping_rtt_ms[{i}]"),
                    format!("time {t} s is outside the run (0..={duration_s} s)"),
                ));
            }
            if !rtt.is_finite() || rtt <= 0.0 {
                return Err(ReportError::invalid(
                    format!("{at}, ping_rtt_ms[{i}]"),
                    format!("RTT {rtt} ms is not a finite value > 0"),
                ));
            }
        }
        Ok(())
    }
}

fn positive(value: f64, at: impl Fn() -> String) -> Result<(), ReportError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(ReportError::invalid(
            at(),
            format!("{value} is not a finite value > 0"),
        ))
    }
}

fn non_negative_all(values: &[f64], at: &str) -> Result<(), ReportError> {
    match values.iter().position(|v| !v.is_finite() || *v < 0.0) {
        None => Ok(()),
        Some(i) => Err(ReportError::invalid(
            format!("{at}[{i}]"),
            format!("{} is not a finite value >= 0", values[i]),
        )),
    }
}

fn is_mac(s: &str) -> bool {
    let octets: Vec<&str> = s.split(':').collect();
    octets.len() == 6
        && octets
            .iter()
            .all(|o| o.len() == 2 && o.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_comparison;

    fn invalid_location(c: &Comparison) -> String {
        match c.validate() {
            Err(ReportError::InvalidData { location, .. }) => location,
            other => panic!("expected InvalidData, got {other:?}"),
        }
    }

    #[test]
    fn demo_data_is_valid() {
        demo_comparison(1).validate().unwrap();
    }

    #[test]
    fn nan_sample_is_located() {
        let mut c = demo_comparison(1);
        c.runs[2].stations[1].download_mbps[7] = f64::NAN;
        assert_eq!(
            invalid_location(&c),
            "run \"fq_mac\", station \"fast2\", download_mbps[7]"
        );
    }

    #[test]
    fn bad_mac_duplicate_name_and_share_are_refused() {
        let mut c = demo_comparison(1);
        c.runs[0].stations[0].mac = "02:00:00:00:01".into();
        assert_eq!(invalid_location(&c), "run \"fifo\", station \"fast1\", mac");
        let mut c = demo_comparison(1);
        c.runs[0].stations[2].name = "fast1".into();
        assert_eq!(invalid_location(&c), "run \"fifo\", stations[2]");
        let mut c = demo_comparison(1);
        c.runs[1].stations[0].airtime_share = 1.5;
        assert!(invalid_location(&c).ends_with("airtime_share"));
    }

    #[test]
    fn ping_outside_run_and_zero_rtt_are_refused() {
        let mut c = demo_comparison(1);
        c.runs[0].stations[0].ping_rtt_ms[0] = (c.runs[0].duration_s + 1.0, 3.0);
        assert!(invalid_location(&c).ends_with("ping_rtt_ms[0]"));
        let mut c = demo_comparison(1);
        c.runs[0].stations[0].ping_rtt_ms[4].1 = 0.0;
        assert!(invalid_location(&c).ends_with("ping_rtt_ms[4]"));
    }

    #[test]
    fn fewer_pings_sent_than_replies_are_refused() {
        let mut c = demo_comparison(1);
        let replies = c.runs[0].stations[0].ping_rtt_ms.len() as u64;
        c.runs[0].stations[0].pings_sent = Some(replies);
        c.validate().unwrap();
        c.runs[0].stations[0].pings_sent = Some(replies - 1);
        assert!(invalid_location(&c).ends_with("pings_sent"));
    }

    #[test]
    fn pings_that_add_up_past_usize_are_refused() {
        let mut c = demo_comparison(1);
        c.runs[0].stations[0].pings_sent = Some(u64::MAX);
        c.runs[0].stations[1].pings_sent = Some(u64::MAX);
        assert_eq!(
            invalid_location(&c),
            "run \"fifo\", station \"fast2\", pings_sent"
        );
    }

    #[test]
    fn per_step_series_longer_than_the_run_are_refused() {
        let mut c = demo_comparison(1);
        c.runs[4].stations[0].airtime_rx_us.push(1.0);
        assert_eq!(
            invalid_location(&c),
            "run \"airtime_aql\", station \"fast1\", airtime_rx_us"
        );
    }

    #[test]
    fn empty_and_duplicate_runs_are_refused() {
        let c = Comparison::default();
        assert!(matches!(c.validate(), Err(ReportError::EmptyData { .. })));
        let mut c = demo_comparison(1);
        c.runs[1].config = "fifo".into();
        assert_eq!(invalid_location(&c), "runs[1]");
    }

    #[test]
    fn steps_round_whole_durations_exactly() {
        let run = RunView {
            duration_s: 3.0,
            step_s: 0.1,
            ..RunView::default()
        };
        assert_eq!(run.steps(), 30);
        let run = RunView {
            duration_s: 3.05,
            step_s: 0.1,
            ..RunView::default()
        };
        assert_eq!(run.steps(), 31);
    }
}
