//! Results files → the plain-data model of `airq-report` ([`RunView`], [`Comparison`]),
//! from which the plots and flent data files are drawn. Everything comes from the
//! results file alone, so a plot can be redrawn long after the run:
//!
//! - per-step goodput from the differences of the cumulative `series.flow_rx_bytes`,
//!   summed over each station's flows by direction (`flows[i].station`, `.direction`);
//!   files whose series has no per-flow bytes fall back to the stations' IP bytes
//!   (`series.rx_bytes`, so headers included), split between down and up in the
//!   proportion of the station's flows' goodput each way over the run (IP bytes would
//!   count ping replies as an upload);
//! - per-step airtime from the differences of the cumulative `series.airtime_s` (both
//!   directions) and `series.airtime_up_s` (uplink): down is the AP's `airtime_tx`, up
//!   its `airtime_rx`. Files written before the uplink part was recorded have the total
//!   only: it is split in the proportion of the run's `airtime_down_s` and
//!   `airtime_up_s` (exact for a station whose traffic goes one way);
//! - the driver queue only when the AP used the firmware-offload driver: the AP
//!   configuration is rebuilt from the recorded scenario text, as the run built it.

use crate::error::CliError;
use crate::labels::{check_side_by_side, column_labels};
use crate::results::{Metadata, ResultsFile};
use crate::scenario;
use airq_report::{Comparison, QueueSamples, RunView, StationView};
use airq_sim::ap::DriverConfig;
use std::collections::HashSet;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// The MAC address of the station at `index` (scenario order): locally administered,
/// `02:00:00:00:HH:LL` with `HHLL` = `index + 1`.
pub fn station_mac(index: usize) -> String {
    let n = index + 1;
    format!("02:00:00:00:{:02x}:{:02x}", (n >> 8) & 0xff, n & 0xff)
}

/// The view of one run, every number checked as `airq-report` requires.
pub fn run_view(r: &ResultsFile) -> Result<RunView, CliError> {
    let m = &r.metadata;
    let per_step = PerStep::of(r)?;
    let stations = r
        .stations
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (download_mbps, upload_mbps) = per_step.goodput_mbps(r, i);
            let total = per_step.airtime_us(&r.series.airtime_s, i);
            let (airtime_tx_us, airtime_rx_us) = if r.series.airtime_up_s.is_empty() {
                split(&total, s.airtime_down_s, s.airtime_up_s)
            } else {
                let up = per_step.airtime_us(&r.series.airtime_up_s, i);
                let down = total
                    .iter()
                    .zip(&up)
                    .map(|(t, u)| (t - u).max(0.0))
                    .collect();
                (down, up)
            };
            StationView {
                name: s.name.clone(),
                mac: station_mac(i),
                goodput_mbps: s.goodput_mbps,
                airtime_share: s.airtime_share,
                download_mbps,
                upload_mbps,
                airtime_tx_us,
                airtime_rx_us,
                avg_aggr_size: s.mpdus_per_ampdu_down,
                ping_rtt_ms: ping_samples(r, &s.name),
                pings_sent: r.station_ping(&s.name).and_then(|p| p.sent),
            }
        })
        .collect();
    let driver_queue = uses_firmware_driver(m)?.then(|| QueueSamples {
        frames: r.ap_queue.driver_frames.iter().map(|&f| f as f64).collect(),
        airtime_us: r
            .ap_queue
            .driver_airtime_ms
            .iter()
            .map(|ms| ms * 1e3)
            .collect(),
    });
    let view = RunView {
        config: m.variant.clone(),
        duration_s: m.duration_s,
        step_s: m.step_s,
        start_time_unix_s: unix_seconds(&m.started_utc)?,
        stations,
        driver_queue,
        flows: flows::flow_views(r, &per_step)?,
    };
    view.validate().map_err(|e| CliError::new(e.to_string()))?;
    Ok(view)
}

/// The comparison of several runs, in the order given: runs of one experiment, one per
/// variant, unless `allow_mixed` (then each is labelled with what sets it apart; see
/// [`crate::labels`]). Each run is named by its file for errors.
pub fn comparison<'a>(
    runs: impl IntoIterator<Item = (&'a Path, &'a ResultsFile)>,
    allow_mixed: bool,
) -> Result<Comparison, CliError> {
    let (paths, files): (Vec<&Path>, Vec<&ResultsFile>) = runs.into_iter().unzip();
    check_side_by_side(&files, &paths, allow_mixed)?;
    let labels = column_labels(&files);
    let mut views: Vec<RunView> = Vec::with_capacity(files.len());
    for ((path, r), label) in paths.iter().zip(&files).zip(labels) {
        let mut view = run_view(r).map_err(|e| e.context(path.display()))?;
        view.config = label;
        views.push(view);
    }
    // What produced the runs, drawn under every figure's title: the seed, the simulated
    // time and the overrides every run shares (`--driver` as the `--set ap.driver=` it
    // stands for); a seed or duration the runs differ in is said to differ.
    let first = &files[0].metadata;
    let seed = if files.iter().all(|r| r.metadata.seed == first.seed) {
        format!("seed {}", first.seed)
    } else {
        "runs of different seeds".to_string()
    };
    let duration = if files
        .iter()
        .all(|r| r.metadata.duration_s == first.duration_s)
    {
        let d = first.duration_s;
        let d = if (d * 10.0).fract() == 0.0 {
            format!("{d:.1}")
        } else {
            d.to_string()
        };
        format!("{d} s simulated")
    } else {
        "runs of different durations".to_string()
    };
    let shared: Vec<String> = first
        .overrides
        .iter()
        .filter(|o| {
            !["seed=", "duration=", "omit="]
                .iter()
                .any(|p| o.starts_with(p))
        })
        .filter(|o| files.iter().all(|r| r.metadata.overrides.contains(o)))
        .map(|o| format!("--set {o}"))
        .collect();
    let mut caption = format!("{seed} · {duration}");
    if files.iter().all(|r| r.metadata.omit_s == first.omit_s) {
        if first.omit_s > 0.0 {
            caption += &format!(
                " · pings and summaries from {} s (warm-up left out)",
                first.omit_s
            );
        }
    } else {
        caption += " · runs of different warm-ups";
    }
    if !shared.is_empty() {
        caption += &format!(" · {}", shared.join(" "));
    }
    Ok(Comparison {
        scenario: first.scenario.clone(),
        caption,
        runs: views,
    })
}

/// The series' sampling steps, checked against the stations and flows of the file.
struct PerStep {
    /// Length of each step, s (the first starts at 0).
    dt_s: Vec<f64>,
}

impl PerStep {
    fn of(r: &ResultsFile) -> Result<PerStep, CliError> {
        let s = &r.series;
        let (stations, flows) = (r.stations.len(), r.flows.len());
        let rows = [
            (
                "rx_bytes",
                s.rx_bytes.iter().map(Vec::len).collect::<Vec<_>>(),
                stations,
            ),
            (
                "airtime_s",
                s.airtime_s.iter().map(Vec::len).collect(),
                stations,
            ),
            (
                "airtime_up_s",
                s.airtime_up_s.iter().map(Vec::len).collect(),
                stations,
            ),
            (
                "flow_rx_bytes",
                s.flow_rx_bytes.iter().map(Vec::len).collect(),
                flows,
            ),
            (
                "flow_tcp_cwnd",
                s.flow_tcp_cwnd.iter().map(Vec::len).collect(),
                flows,
            ),
            (
                "flow_tcp_rtt_ms",
                s.flow_tcp_rtt_ms.iter().map(Vec::len).collect(),
                flows,
            ),
        ];
        for (field, lens, width) in rows {
            // Per-flow bytes, uplink airtime and the TCP senders' state may be absent as
            // a whole (files that did not record them).
            let optional = matches!(
                field,
                "flow_rx_bytes" | "airtime_up_s" | "flow_tcp_cwnd" | "flow_tcp_rtt_ms"
            );
            if optional && lens.is_empty() {
                continue;
            }
            if lens.len() != s.t_s.len() {
                return Err(CliError::new(format!(
                    "series.{field} has {} samples but series.t_s has {}",
                    lens.len(),
                    s.t_s.len()
                )));
            }
            if let Some(k) = lens.iter().position(|&n| n != width) {
                return Err(CliError::new(format!(
                    "series.{field}[{k}] has {} values, expected {width}",
                    lens[k]
                )));
            }
        }
        let names: HashSet<&str> = r.stations.iter().map(|st| st.name.as_str()).collect();
        for flow in &r.flows {
            if !names.contains(flow.station.as_str()) {
                return Err(CliError::new(format!(
                    "flows: station `{}` is not in stations",
                    flow.station
                )));
            }
        }
        let mut dt_s = Vec::with_capacity(s.t_s.len());
        let mut before = 0.0;
        for (k, &t) in s.t_s.iter().enumerate() {
            let on_grid = (t - (k + 1) as f64 * r.metadata.step_s).abs() < 1e-6;
            if !on_grid {
                return Err(CliError::new(format!(
                    "series.t_s[{k}] = {t} s is not step {} of {} s",
                    k + 1,
                    r.metadata.step_s
                )));
            }
            dt_s.push(t - before);
            before = t;
        }
        Ok(PerStep { dt_s })
    }

    /// Per-step rates of a cumulative byte counter, Mbit/s.
    fn mbps(&self, cumulative: impl Iterator<Item = u64>) -> Vec<f64> {
        let mut before = 0u64;
        cumulative
            .zip(&self.dt_s)
            .map(|(bytes, dt)| {
                let delta = bytes.saturating_sub(before);
                before = bytes;
                delta as f64 * 8.0 / dt / 1e6
            })
            .collect()
    }

    /// Station `i`'s download and upload goodput per step, Mbit/s.
    fn goodput_mbps(&self, r: &ResultsFile, i: usize) -> (Vec<f64>, Vec<f64>) {
        let s = &r.series;
        let station = &r.stations[i];
        let flows = |dir: &'static str| {
            r.flow_indices(&station.name)
                .iter()
                .copied()
                .filter(move |&f| r.flows[f].direction == dir)
        };
        if s.flow_rx_bytes.is_empty() {
            let total = self.mbps(s.rx_bytes.iter().map(|row| row[i]));
            let goodput = |dir| flows(dir).map(|f| r.flows[f].goodput_mbps).sum::<f64>();
            return split(&total, goodput("down"), goodput("up"));
        }
        let direction = |dir| {
            let picked: Vec<usize> = flows(dir).collect();
            // Loading refused a file whose flows' bytes add up past u64::MAX at a
            // sample (`results::sums`); saturating for a file built in memory.
            self.mbps(s.flow_rx_bytes.iter().map(|row| {
                picked
                    .iter()
                    .fold(0u64, |sum, &f| sum.saturating_add(row[f]))
            }))
        };
        (direction("down"), direction("up"))
    }

    /// Station `i`'s airtime per step, µs, from a cumulative series of seconds.
    fn airtime_us(&self, cumulative: &[Vec<f64>], i: usize) -> Vec<f64> {
        let mut before = 0.0;
        cumulative
            .iter()
            .map(|row| {
                let delta = (row[i] - before).max(0.0);
                before = row[i];
                delta * 1e6
            })
            .collect()
    }
}

/// `values` split in the proportion `a : b` (all to `a` when both are zero).
fn split(values: &[f64], a: f64, b: f64) -> (Vec<f64>, Vec<f64>) {
    let share_a = if a + b > 0.0 { a / (a + b) } else { 1.0 };
    let part = |share: f64| values.iter().map(|v| v * share).collect();
    (part(share_a), part(1.0 - share_a))
}

/// Every ping reply between the station and the server, `(t_s, rtt_ms)` in time order.
fn ping_samples(r: &ResultsFile, station: &str) -> Vec<(f64, f64)> {
    let mut samples: Vec<(f64, f64)> = r
        .server_pings(station)
        .flat_map(|f| f.rtt_ms.iter().map(|&[t, ms]| (t, ms)))
        .collect();
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    samples
}

/// Whether the run's AP used the firmware-offload driver, from its configuration as
/// recorded (format 3), or as the run built it: the recorded scenario text with the
/// variant's changes, under its preset.
fn uses_firmware_driver(m: &Metadata) -> Result<bool, CliError> {
    if let Some(driver) = m.ap_config.get("driver").and_then(|d| d.as_str()) {
        return Ok(driver.starts_with("firmware"));
    }
    let unreadable = |e: CliError| e.context("metadata.scenario_text (the AP configuration)");
    let scenario =
        scenario::parse(&m.scenario_file, &m.scenario_text, &m.variant_set).map_err(unreadable)?;
    let ap = scenario.ap.config(&m.config).map_err(unreadable)?;
    Ok(matches!(ap.driver, DriverConfig::Firmware { .. }))
}

/// Seconds since 1970 of an RFC 3339 time.
fn unix_seconds(rfc3339: &str) -> Result<f64, CliError> {
    let bad = |why: String| {
        CliError::new(format!(
            "metadata.started_utc: `{rfc3339}` is not an RFC 3339 time after 1970: {why}"
        ))
    };
    let t = humantime::parse_rfc3339_weak(rfc3339).map_err(|e| bad(e.to_string()))?;
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .map_err(|e| bad(e.to_string()))
}

mod flows;

#[cfg(test)]
pub(crate) mod tests;
