//! Machine-readable summaries of a `run` or `compare`: the `--json` document (scenario,
//! seed, and per run the goodput, airtime shares and Jain's index, ping percentiles) and
//! the `--csv` table of the per-station summary, one row per configuration × station.

use crate::error::{io_error, CliError};
use crate::results::ResultsFile;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// The `--json` document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The scenario's name.
    pub scenario: String,
    /// The root seed.
    pub seed: u64,
    /// Simulated seconds per run.
    pub duration_s: f64,
    /// One entry per configuration, in the order asked for.
    pub runs: Vec<RunSummary>,
}

/// One configuration's run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    /// The AP configuration (preset).
    pub config: String,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
    /// Events the simulator processed.
    pub events: u64,
    /// Sum of the stations' goodput.
    pub total_goodput_mbps: f64,
    /// Jain's fairness index of the stations' airtime shares.
    pub airtime_jain: f64,
    /// Per station, in scenario order.
    pub stations: Vec<StationLine>,
    /// Stalls the run recorded (see the results file's `stalls`): none in a correct run.
    pub stalls: usize,
}

/// One station of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StationLine {
    /// The station's name.
    pub name: String,
    /// IP bytes received per second, both directions.
    pub goodput_mbps: f64,
    /// Fraction of the airtime used by all stations' exchanges.
    pub airtime_share: f64,
    /// Ping RTT percentiles.
    pub ping_rtt_ms: PingFields,
    /// Dropped packets, every cause.
    pub drops: u64,
}

/// Ping RTT percentiles, each `null` when the station had no ping.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PingFields {
    /// Median RTT, ms.
    pub p50: Option<f64>,
    /// 90th percentile, ms.
    pub p90: Option<f64>,
    /// 99th percentile, ms.
    pub p99: Option<f64>,
}

/// The summary of `runs` (all of one scenario and seed).
pub fn summarise(runs: &[ResultsFile]) -> Summary {
    let first = &runs[0].metadata;
    Summary {
        scenario: first.scenario.clone(),
        seed: first.seed,
        duration_s: first.duration_s,
        runs: runs.iter().map(run_summary).collect(),
    }
}

fn run_summary(r: &ResultsFile) -> RunSummary {
    RunSummary {
        config: r.metadata.config.clone(),
        wall_s: r.metadata.wall_s,
        events: r.metadata.events,
        total_goodput_mbps: r.total_goodput_mbps(),
        airtime_jain: r.airtime_jain(),
        stations: r
            .stations
            .iter()
            .map(|s| StationLine {
                name: s.name.clone(),
                goodput_mbps: s.goodput_mbps,
                airtime_share: s.airtime_share,
                ping_rtt_ms: PingFields {
                    p50: s.ping_rtt_ms.map(|p| p.p50),
                    p90: s.ping_rtt_ms.map(|p| p.p90),
                    p99: s.ping_rtt_ms.map(|p| p.p99),
                },
                drops: s.total_drops(),
            })
            .collect(),
        stalls: r.stalls.len(),
    }
}

/// Writes the summary of `runs` as pretty JSON to `path`.
pub fn write_json(runs: &[ResultsFile], path: &Path) -> Result<(), CliError> {
    let json = serde_json::to_string_pretty(&summarise(runs))
        .map_err(|e| CliError::new(format!("cannot encode the summary: {e}")))?;
    std::fs::write(path, json + "\n").map_err(|e| io_error("cannot write", path, e))
}

/// The CSV columns.
pub const CSV_HEADER: &str = "scenario,seed,config,station,rate,goodput_mbps,airtime_share,\
ping_p50_ms,ping_p90_ms,ping_p99_ms,drops,mean_delay_ms,max_delay_ms,mpdus_per_ampdu_down";

/// The per-station summary of `runs` as CSV.
pub fn csv(runs: &[ResultsFile]) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.3}"));
    for r in runs {
        let m = &r.metadata;
        for s in &r.stations {
            let ping = s.ping_rtt_ms;
            let _ = writeln!(
                out,
                "{},{},{},{},\"{}\",{:.4},{:.4},{},{},{},{},{},{:.3},{:.2}",
                m.scenario,
                m.seed,
                m.config,
                s.name,
                s.rate,
                s.goodput_mbps,
                s.airtime_share,
                opt(ping.map(|p| p.p50)),
                opt(ping.map(|p| p.p90)),
                opt(ping.map(|p| p.p99)),
                s.total_drops(),
                opt(s.mean_delay_ms),
                s.max_delay_ms,
                s.mpdus_per_ampdu_down
            );
        }
    }
    out
}

/// Writes the CSV of `runs` to `path`.
pub fn write_csv(runs: &[ResultsFile], path: &Path) -> Result<(), CliError> {
    std::fs::write(path, csv(runs)).map_err(|e| io_error("cannot write", path, e))
}
