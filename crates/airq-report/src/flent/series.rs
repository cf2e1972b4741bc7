//! The data series of an exported run, named as flent's `rtt_fair_var` tests name them
//! (`flent/tests/rtt_fair.inc`: one flent host per station) and its `wifi_stats.inc` mixin
//! names per-station airtime:
//!
//! | series | raw samples | unit |
//! |---|---|---|
//! | `TCP download BE <station>` | one per step, at its end | Mbit/s |
//! | `TCP upload BE <station>` (only in `rtt_fair_var`) | one per step | Mbit/s |
//! | `Ping (ms) ICMP <station>` | each ping, with `seq` | ms |
//! | `wifi_stats_<ap>` | one per step: `stations` → MAC → `airtime_tx`, `airtime_rx` (µs in the step), `avg_aggr_size` | — |
//! | `wifi_stats_<ap>::airtime_{tx,rx}::<mac>`, `…::avg_aggr_size::<mac>` | results only | µs, packets |

use serde_json::{json, Map, Value};

use super::grid::resample;
use crate::model::RunView;

/// The AP's flent host name in the `wifi_stats_<host>` series.
pub(crate) const AP_HOST: &str = "ap";

/// One series to export: its samples (seconds since the start, value) and extra raw keys.
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

/// Builds every series of `run` on a grid of `points` points; `with_upload` adds the
/// upload series (test `rtt_fair_var` rather than `rtt_fair_var_down`).
pub(crate) fn export(run: &RunView, points: usize, with_upload: bool) -> Exported {
    let step = run.step_s;
    let t0 = run.start_time_unix_s;
    let mut out = Exported {
        results: Map::new(),
        raw_values: Map::new(),
        series_meta: Map::new(),
    };
    let mut plain = Vec::new();
    for sta in &run.stations {
        plain.push(Series {
            name: format!("TCP download BE {}", sta.name),
            units: "Mbits/s",
            samples: per_step(&sta.download_mbps, step),
        });
        if with_upload {
            plain.push(Series {
                name: format!("TCP upload BE {}", sta.name),
                units: "Mbits/s",
                samples: per_step(&sta.upload_mbps, step),
            });
        }
    }
    for s in plain.into_iter().filter(|s| !s.samples.is_empty()) {
        let raw: Vec<Value> = s
            .samples
            .iter()
            .map(|&(t, v)| json!({"t": t0 + t, "val": v}))
            .collect();
        out.add(&s, raw, points, step);
    }
    for sta in run.stations.iter().filter(|s| !s.ping_rtt_ms.is_empty()) {
        let s = Series {
            name: format!("Ping (ms) ICMP {}", sta.name),
            units: "ms",
            samples: sta.ping_rtt_ms.clone(),
        };
        let raw = s
            .samples
            .iter()
            .enumerate()
            .map(|(seq, &(t, v))| json!({"t": t0 + t, "val": v, "seq": seq}))
            .collect();
        out.add(&s, raw, points, step);
    }
    export_wifi_stats(run, points, &mut out);
    out
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
                if !fields.is_empty() {
                    fields.insert("avg_aggr_size".into(), json!(sta.avg_aggr_size));
                    stations.insert(sta.mac.clone(), Value::Object(fields));
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
        let aggr = vec![sta.avg_aggr_size; sta.airtime_tx_us.len()];
        let fields: [(&str, &[f64], &str); 3] = [
            ("airtime_tx", &sta.airtime_tx_us, "us"),
            ("airtime_rx", &sta.airtime_rx_us, "us"),
            ("avg_aggr_size", &aggr, "packets"),
        ];
        for (field, values, units) in fields {
            if values.is_empty() {
                continue;
            }
            let samples = per_step(values, step);
            let name = format!("{host}::{field}::{}", sta.mac);
            out.results
                .insert(name.clone(), json!(resample(&samples, step, points)));
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            out.series_meta
                .insert(name, json!({"UNITS": units, "MEAN_VALUE": mean}));
        }
    }
}
