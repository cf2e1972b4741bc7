//! The data series of an exported run, named by [`super::mapping`], and the per-station
//! airtime of flent's `wifi_stats.inc` mixin, keyed by station name:
//!
//! | series | raw samples | unit |
//! |---|---|---|
//! | TCP, UDP goodput (`TCP download BE <station>`, `UDP upload`, ...) | one per step, at its end | Mbit/s |
//! | — beside a TCP series' goodput: its senders' `tcp_cwnd`, `tcp_rtt` (flent's `tcp_stats.inc` plots `tcp_cwnd`, `tcp_rtt`) | one per step with an established connection, at its end | segments, ms |
//! | `VoIP::bitrate` | one per step | Kbit/s |
//! | `Ping (ms) ICMP [<station>]` | each reply, with `seq` | ms |
//! | `HTTP latency[::<n>]` | each page load, at its completion | ms |
//! | `wifi_stats_<ap>` | one per step: `stations` → name → `airtime_tx`, `airtime_rx` (µs in the step); `avg_aggr_size` once, in the last step | — |
//! | `wifi_stats_<ap>::airtime_{tx,rx}::<station>`, `…::avg_aggr_size::<station>` | results only | µs, packets |
//!
//! The aggregate size is the run's measured mean MPDUs per A-MPDU sent to the station:
//! one sample at the end of the run, not a series repeated at every step.

use serde_json::{json, Map, Value};

use super::grid::resample;
use super::mapping::{flent_host, Mapping, Source};
use crate::model::{FlowDirection, RunView};

/// The AP's flent host name in the `wifi_stats_<host>` series.
pub(crate) const AP_HOST: &str = "ap";

/// One series to export: its samples (seconds since the start, value).
struct Series {
    name: String,
    units: &'static str,
    samples: Vec<(f64, f64)>,
}

/// The `results`, `raw_values` and `SERIES_META` objects of one run.
pub(crate) struct Exported {
    pub(crate) results: Map<String, Value>,
    pub(crate) raw_values: Map<String, Value>,
    pub(crate) series_meta: Map<String, Value>,
}

/// Times of the per-step samples: step i ends at (i+1)·step.
fn per_step(values: &[f64], step: f64) -> Vec<(f64, f64)> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| ((i + 1) as f64 * step, v))
        .collect()
}

/// The flows' per-step goodput summed, Mbit/s (as long as the longest).
fn goodput_sum(run: &RunView, flows: &[usize]) -> Vec<f64> {
    let steps = flows
        .iter()
        .map(|&f| run.flows[f].goodput_mbps.len())
        .max()
        .unwrap_or(0);
    (0..steps)
        .map(|i| {
            flows
                .iter()
                .filter_map(|&f| run.flows[f].goodput_mbps.get(i))
                .sum()
        })
        .collect()
}

/// Samples of several flows merged in time order.
fn merged(flows: &[usize], pick: impl Fn(usize) -> Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut samples: Vec<(f64, f64)> = flows.iter().flat_map(|&f| pick(f)).collect();
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    samples
}

/// Builds every series of `run`, as `mapping` names them, on a grid of `points` points.
pub(crate) fn export(run: &RunView, mapping: &Mapping, points: usize) -> Exported {
    let step = run.step_s;
    let t0 = run.start_time_unix_s;
    let mut out = Exported {
        results: Map::new(),
        raw_values: Map::new(),
        series_meta: Map::new(),
    };
    for planned in &mapping.series {
        let (units, samples, with_seq) = match &planned.source {
            Source::Goodput(flows) => ("Mbits/s", per_step(&goodput_sum(run, flows), step), false),
            Source::VoipBitrate(leg) => {
                let kbps: Vec<f64> = run.flows[*leg]
                    .goodput_mbps
                    .iter()
                    .map(|v| v * 1e3)
                    .collect();
                ("Kbits/s", per_step(&kbps, step), false)
            }
            Source::Rtt(flows) => ("ms", merged(flows, |f| run.flows[f].rtt_ms.clone()), true),
            Source::PageLoads(flows) => {
                let ms = |f: usize| {
                    run.flows[f]
                        .page_loads_s
                        .iter()
                        .map(|&(t, s)| (t, s * 1e3))
                        .collect()
                };
                ("ms", merged(flows, ms), false)
            }
        };
        if samples.is_empty() {
            continue;
        }
        let s = Series {
            name: planned.name.clone(),
            units,
            samples,
        };
        let mut raw: Vec<(f64, Value)> = s
            .samples
            .iter()
            .enumerate()
            .map(|(seq, &(t, v))| match with_seq {
                true => (t, json!({"t": t0 + t, "val": v, "seq": seq})),
                false => (t, json!({"t": t0 + t, "val": v})),
            })
            .collect();
        if let Source::Goodput(flows) = &planned.source {
            // Beside the goodput, as flent's ss runner records a socket beside netperf's
            // samples: the entries flent's tcp_cwnd and tcp_rtt plots read. A stable
            // sort keeps a step's goodput before its TCP state.
            raw.extend(tcp_stats(run, flows));
            raw.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let raw = raw.into_iter().map(|(_, v)| v).collect();
        out.add(&s, raw, points, step);
        if let Source::VoipBitrate(leg) = planned.source {
            voip_meta(run, leg, &mut out.series_meta[&s.name]);
        }
    }
    export_wifi_stats(run, points, &mut out);
    out
}

/// The TCP senders of `flows` at the end of each step, as flent's `tcp_stats.inc`
/// mixin reads them from `ss` (`SsRunner` in `flent/runners.py`): `{"t", "tcp_cwnd":
/// segments, "tcp_rtt": ms}`, one entry per step at which one of them had an established
/// connection. Several flows in one series (one station, direction and class) give their
/// windows summed, as the series sums their goodput, and their mean RTT.
fn tcp_stats(run: &RunView, flows: &[usize]) -> Vec<(f64, Value)> {
    let steps = flows
        .iter()
        .map(|&f| run.flows[f].tcp_cwnd.len())
        .max()
        .unwrap_or(0);
    (0..steps)
        .filter_map(|i| {
            let cwnds: Vec<u32> = flows
                .iter()
                .filter_map(|&f| run.flows[f].tcp_cwnd.get(i).copied().flatten())
                .collect();
            let rtts: Vec<f64> = flows
                .iter()
                .filter_map(|&f| run.flows[f].tcp_rtt_ms.get(i).copied().flatten())
                .collect();
            if cwnds.is_empty() {
                return None;
            }
            let t = (i + 1) as f64 * run.step_s;
            let mut entry = Map::new();
            entry.insert("t".into(), json!(run.start_time_unix_s + t));
            entry.insert("tcp_cwnd".into(), json!(cwnds.iter().sum::<u32>()));
            if !rtts.is_empty() {
                let mean = rtts.iter().sum::<f64>() / rtts.len() as f64;
                entry.insert("tcp_rtt".into(), json!(mean));
            }
            Some((t, Value::Object(entry)))
        })
        .collect()
}

/// The call's quality beside its bitrate, under the keys flent's irtt-based VoIP runner
/// records (`flent/runners.py`), and the E-model's MOS.
fn voip_meta(run: &RunView, leg: usize, meta: &mut Value) {
    let flow = &run.flows[leg];
    let (Some(v), Some(meta)) = (flow.voip, meta.as_object_mut()) else {
        return;
    };
    let owd = match flow.direction {
        FlowDirection::Down => "OWD_DOWN_MEAN",
        FlowDirection::Up => "OWD_UP_MEAN",
    };
    let loss = if v.sent > 0 {
        1.0 - v.received as f64 / v.sent as f64
    } else {
        0.0
    };
    meta.insert("PACKETS_SENT".into(), json!(v.sent));
    meta.insert("PACKETS_RECEIVED".into(), json!(v.received));
    meta.insert("PACKET_LOSS_RATE".into(), json!(loss));
    meta.insert(owd.into(), json!(v.mean_delay_ms));
    meta.insert("AIRQ_JITTER_MS".into(), json!(v.jitter_ms));
    meta.insert("AIRQ_MOS".into(), json!(v.mos));
}

impl Exported {
    fn add(&mut self, s: &Series, raw: Vec<Value>, points: usize, step: f64) {
        let grid = resample(&s.samples, step, points);
        self.results.insert(s.name.clone(), json!(grid));
        self.raw_values.insert(s.name.clone(), Value::Array(raw));
        let mean = s.samples.iter().map(|p| p.1).sum::<f64>() / s.samples.len() as f64;
        self.series_meta.insert(
            s.name.clone(),
            json!({"UNITS": s.units, "MEAN_VALUE": mean, "RUNNER": "airq"}),
        );
    }
}

/// Whether any station has per-step airtime to export.
pub(crate) fn has_airtime(run: &RunView) -> bool {
    run.stations
        .iter()
        .any(|s| !s.airtime_tx_us.is_empty() || !s.airtime_rx_us.is_empty())
}

/// The `wifi_stats_ap` raw series (one entry per step holding every station) and its
/// per-station results, as flent's WifiStatsRunner records mac80211's debugfs airtime.
fn export_wifi_stats(run: &RunView, points: usize, out: &mut Exported) {
    if !has_airtime(run) {
        return;
    }
    let step = run.step_s;
    let steps = run
        .stations
        .iter()
        .map(|s| s.airtime_tx_us.len().max(s.airtime_rx_us.len()))
        .max()
        .unwrap_or(0);
    let raw: Vec<Value> = (0..steps)
        .map(|i| {
            let mut stations = Map::new();
            for sta in &run.stations {
                let mut fields = Map::new();
                if let Some(&tx) = sta.airtime_tx_us.get(i) {
                    fields.insert("airtime_tx".into(), json!(tx));
                }
                if let Some(&rx) = sta.airtime_rx_us.get(i) {
                    fields.insert("airtime_rx".into(), json!(rx));
                }
                if i + 1 == steps && sta.avg_aggr_size > 0.0 {
                    fields.insert("avg_aggr_size".into(), json!(sta.avg_aggr_size));
                }
                if !fields.is_empty() {
                    stations.insert(flent_host(&sta.name), Value::Object(fields));
                }
            }
            json!({"t": run.start_time_unix_s + (i + 1) as f64 * step, "stations": stations})
        })
        .collect();
    let host = format!("wifi_stats_{AP_HOST}");
    out.raw_values.insert(host.clone(), Value::Array(raw));
    out.series_meta
        .insert(host.clone(), json!({"UNITS": "misc", "RUNNER": "airq"}));
    for sta in &run.stations {
        let aggr: Vec<(f64, f64)> = if sta.avg_aggr_size > 0.0 && steps > 0 {
            vec![(steps as f64 * step, sta.avg_aggr_size)]
        } else {
            Vec::new()
        };
        let fields = [
            ("airtime_tx", per_step(&sta.airtime_tx_us, step), "us"),
            ("airtime_rx", per_step(&sta.airtime_rx_us, step), "us"),
            ("avg_aggr_size", aggr, "packets"),
        ];
        for (field, samples, units) in fields {
            if samples.is_empty() {
                continue;
            }
            let name = format!("{host}::{field}::{}", flent_host(&sta.name));
            out.results
                .insert(name.clone(), json!(resample(&samples, step, points)));
            let mean = samples.iter().map(|s| s.1).sum::<f64>() / samples.len() as f64;
            out.series_meta
                .insert(name, json!({"UNITS": units, "MEAN_VALUE": mean}));
        }
    }
}
