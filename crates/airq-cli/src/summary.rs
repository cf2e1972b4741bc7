//! Machine-readable summaries of a `run` or `compare`: the `--json` document (scenario,
//! seed, and per run the goodput, airtime shares and Jain's index, ping percentiles and
//! loss, and every flow's figures) and the `--csv` tables, tidy: the per-station summary,
//! one row per configuration × station, and beside it (`x.csv` → `x.flows.csv`) the
//! per-flow one, one row per configuration × flow.
//!
//! Ping percentiles count an unanswered ping as an infinite RTT (flent's convention,
//! `Distribution::percentile_with_loss`): a percentile among the lost pings is `"lost"`
//! in the JSON and `inf` in the CSV (which spreadsheets, pandas and R read as infinity),
//! never a blank, which means "no ping".

use crate::error::{io_error, CliError};
use crate::labels::as_repetitions;
use crate::repeat::MeanCi;
use crate::results::{FlowSummary, PingStats, ResultsFile, TcpResult, VoipResult};
use airq_sim::metrics::distribution::{Distribution, LossyPercentile};
use serde::{Serialize, Serializer};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The `--json` document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The scenario's name.
    pub scenario: String,
    /// The root seed.
    pub seed: u64,
    /// Simulated seconds of the first run (each run gives its own).
    pub duration_s: f64,
    /// One entry per configuration, in the order asked for.
    pub runs: Vec<RunSummary>,
    /// When the runs are repetitions (the same variants under several seeds): every
    /// figure per variant as the mean over seeds and its 95% confidence interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repetitions: Option<Repetitions>,
}

/// The runs of several seeds summarised per variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repetitions {
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Per variant, in the order they first appear.
    pub variants: Vec<VariantSpread>,
}

/// One variant over its seeds: each figure's mean, 95% confidence-interval half-width
/// (Student's t) and count of seeds it is over.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantSpread {
    /// The variant's label.
    pub config: String,
    /// Sum of the stations' goodput.
    pub total_goodput_mbps: Option<MeanCi>,
    /// Jain's index of airtime shares, over the seeds that used airtime.
    pub airtime_jain: Option<MeanCi>,
    /// Per station.
    pub stations: Vec<StationSpread>,
}

/// One station over the seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StationSpread {
    /// The station's name.
    pub name: String,
    /// Goodput, Mbit/s.
    pub goodput_mbps: Option<MeanCi>,
    /// Share of the airtime.
    pub airtime_share: Option<MeanCi>,
    /// Ping percentiles over the seeds where they are a reply's (not lost), ms.
    pub ping_p50_ms: Option<MeanCi>,
    /// 90th percentile.
    pub ping_p90_ms: Option<MeanCi>,
    /// 99th percentile.
    pub ping_p99_ms: Option<MeanCi>,
    /// Seeds whose 99th percentile was among the lost pings (left out above).
    pub ping_p99_lost_seeds: usize,
    /// Fraction of the pings lost.
    pub ping_loss: Option<MeanCi>,
}

/// One configuration's run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    /// What labels the run: its variant (a preset's name, or a named variant's, with
    /// `+key=value` for each `--set` on the AP).
    pub config: String,
    /// The AP preset it started from.
    pub preset: String,
    /// Its `--set` overrides that `config` does not carry (all but the AP's and the
    /// seed): what tells the points of a sweep apart.
    pub overrides: Vec<String>,
    /// Its root seed.
    pub seed: u64,
    /// Simulated seconds.
    pub duration_s: f64,
    /// Seconds at the start left out of its summaries.
    pub omit_s: f64,
    /// Wall-clock seconds the run took.
    pub wall_s: f64,
    /// Events the simulator processed.
    pub events: u64,
    /// Sum of the stations' goodput.
    pub total_goodput_mbps: f64,
    /// Jain's fairness index of the stations' airtime shares; `null` when no station
    /// used any airtime.
    pub airtime_jain: Option<f64>,
    /// Per station, in scenario order.
    pub stations: Vec<StationLine>,
    /// Stalls the run recorded (see the results file's `stalls`): none in a correct run.
    pub stalls: usize,
    /// Per flow, in the order of the results file.
    pub flows: Vec<FlowLine>,
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
    /// Ping RTT percentiles, lost pings counted.
    pub ping_rtt_ms: PingFields,
    /// Ping requests whose reply was due; `null` without ping (or not counted).
    pub pings_sent: Option<u64>,
    /// Fraction of them never answered; `null` without ping (or not counted).
    pub ping_loss: Option<f64>,
    /// Dropped packets, every cause.
    pub drops: u64,
}

/// Ping RTT percentiles, each `null` when the station had no ping, `"lost"` when it
/// falls among the lost pings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PingFields {
    /// Median RTT, ms.
    pub p50: Option<Rtt>,
    /// 90th percentile, ms.
    pub p90: Option<Rtt>,
    /// 99th percentile, ms.
    pub p99: Option<Rtt>,
}

impl PingFields {
    fn of(p: Option<PingStats>) -> PingFields {
        PingFields {
            p50: p.map(|p| Rtt(p.p50)),
            p90: p.map(|p| Rtt(p.p90)),
            p99: p.map(|p| Rtt(p.p99)),
        }
    }
}

/// An RTT percentile: a number of ms, or the string `"lost"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rtt(pub LossyPercentile);

impl Serialize for Rtt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            LossyPercentile::Value(ms) => s.serialize_f64(ms),
            LossyPercentile::Lost => s.serialize_str("lost"),
        }
    }
}

/// One flow of a run; the figures of other kinds of flow are `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowLine {
    /// Its index in the run's flows (and the results file's).
    pub flow: usize,
    /// The station at its wireless end.
    pub station: String,
    /// The scenario test that made it.
    pub test: String,
    /// `down` or `up`.
    pub direction: String,
    /// The station a station-to-station ping goes to (`null` for other flows).
    pub to: Option<String>,
    /// Its DiffServ codepoint.
    pub dscp: u8,
    /// Application bytes delivered per second.
    pub goodput_mbps: f64,
    /// A ping flow's requests, loss and RTTs.
    pub ping: Option<PingLine>,
    /// A TCP flow's counters.
    pub tcp: Option<TcpResult>,
    /// A VoIP leg's quality at its receiver.
    pub voip: Option<VoipResult>,
    /// A web flow's page loads.
    pub web: Option<WebLine>,
}

/// A ping flow's figures.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PingLine {
    /// Requests whose reply was due (`null` if not counted).
    pub sent: Option<u64>,
    /// Of those, never answered.
    pub lost: Option<u64>,
    /// `lost / sent`.
    pub loss: Option<f64>,
    /// RTT percentiles, lost pings counted.
    pub rtt_ms: PingFields,
}

/// A web flow's page loads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WebLine {
    /// Pages loaded completely within the run.
    pub pages: usize,
    /// Median load time, s (`null` without a page).
    pub load_p50_s: Option<f64>,
    /// 90th percentile, s.
    pub load_p90_s: Option<f64>,
}

fn flow_line(flow: usize, f: &FlowSummary) -> FlowLine {
    let loads = Distribution::new(f.page_load_s.clone()).unwrap_or_default();
    let web = f.test == "http" || !f.page_load_s.is_empty();
    FlowLine {
        flow,
        station: f.station.clone(),
        test: f.test.clone(),
        direction: f.direction.clone(),
        to: f.to.clone(),
        dscp: f.dscp,
        goodput_mbps: f.goodput_mbps,
        ping: f.ping().map(|p| PingLine {
            sent: p.sent,
            lost: p.lost(),
            loss: p.loss(),
            rtt_ms: PingFields::of(Some(p)),
        }),
        tcp: f.tcp,
        voip: f.voip,
        web: web.then(|| WebLine {
            pages: loads.len(),
            load_p50_s: loads.percentile(50.0),
            load_p90_s: loads.percentile(90.0),
        }),
    }
}

/// The summary of `runs` (the top-level seed and duration are the first run's; each
/// run says its own).
pub fn summarise(runs: &[ResultsFile]) -> Summary {
    let first = &runs[0].metadata;
    Summary {
        scenario: first.scenario.clone(),
        seed: first.seed,
        duration_s: first.duration_s,
        runs: runs.iter().map(run_summary).collect(),
        repetitions: as_repetitions(runs).map(|(ordered, n)| repetitions(&ordered, n)),
    }
}

/// `ordered` seed by seed, `n` variants per seed.
fn repetitions(ordered: &[&ResultsFile], n: usize) -> Repetitions {
    let seeds = ordered.iter().step_by(n).map(|r| r.metadata.seed).collect();
    let variants = (0..n)
        .map(|v| {
            let runs: Vec<&ResultsFile> = ordered.iter().skip(v).step_by(n).copied().collect();
            let over = |f: &dyn Fn(&ResultsFile) -> Option<f64>| -> Option<MeanCi> {
                MeanCi::of(&runs.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
            };
            let stations = runs[0]
                .stations
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let ping = |r: &ResultsFile| r.station_ping(&r.stations[i].name);
                    let value = |p: LossyPercentile| match p {
                        LossyPercentile::Value(v) => Some(v),
                        LossyPercentile::Lost => None,
                    };
                    StationSpread {
                        name: s.name.clone(),
                        goodput_mbps: over(&|r| Some(r.stations[i].goodput_mbps)),
                        airtime_share: over(&|r| Some(r.stations[i].airtime_share)),
                        ping_p50_ms: over(&|r| ping(r).and_then(|p| value(p.p50))),
                        ping_p90_ms: over(&|r| ping(r).and_then(|p| value(p.p90))),
                        ping_p99_ms: over(&|r| ping(r).and_then(|p| value(p.p99))),
                        ping_p99_lost_seeds: runs
                            .iter()
                            .filter(|r| ping(r).is_some_and(|p| p.p99 == LossyPercentile::Lost))
                            .count(),
                        ping_loss: over(&|r| ping(r).and_then(|p| p.loss())),
                    }
                })
                .collect();
            VariantSpread {
                config: runs[0].metadata.variant.clone(),
                total_goodput_mbps: over(&|r| Some(r.total_goodput_mbps())),
                airtime_jain: over(&|r| r.airtime_jain()),
                stations,
            }
        })
        .collect();
    Repetitions { seeds, variants }
}

fn run_summary(r: &ResultsFile) -> RunSummary {
    RunSummary {
        config: r.metadata.variant.clone(),
        preset: r.metadata.config.clone(),
        overrides: r.metadata.unlabelled_overrides(),
        seed: r.metadata.seed,
        duration_s: r.metadata.duration_s,
        omit_s: r.metadata.omit_s,
        wall_s: r.metadata.wall_s,
        events: r.metadata.events,
        total_goodput_mbps: r.total_goodput_mbps(),
        airtime_jain: r.airtime_jain(),
        stations: r
            .stations
            .iter()
            .map(|s| {
                let ping = r.station_ping(&s.name);
                StationLine {
                    name: s.name.clone(),
                    goodput_mbps: s.goodput_mbps,
                    airtime_share: s.airtime_share,
                    ping_rtt_ms: PingFields::of(ping),
                    pings_sent: ping.and_then(|p| p.sent),
                    ping_loss: ping.and_then(|p| p.loss()),
                    drops: s.total_drops(),
                }
            })
            .collect(),
        stalls: r.stalls.len(),
        flows: r
            .flows
            .iter()
            .enumerate()
            .map(|(i, f)| flow_line(i, f))
            .collect(),
    }
}

/// Writes the summary of `runs` as pretty JSON to `path`.
pub fn write_json(runs: &[ResultsFile], path: &Path) -> Result<(), CliError> {
    let json = serde_json::to_string_pretty(&summarise(runs))
        .map_err(|e| CliError::new(format!("cannot encode the summary: {e}")))?;
    std::fs::write(path, json + "\n").map_err(|e| io_error("cannot write", path, e))
}

/// The CSV columns (new ones are appended, so that scripts reading the older ones by
/// position keep working).
pub const CSV_HEADER: &str = "scenario,seed,config,station,rate,goodput_mbps,airtime_share,\
ping_p50_ms,ping_p90_ms,ping_p99_ms,drops,mean_delay_ms,max_delay_ms,mpdus_per_ampdu_down,\
pings_sent,ping_loss,overrides";

/// The per-flow CSV's columns; those of another kind of flow are empty.
pub const FLOWS_CSV_HEADER: &str = "scenario,seed,config,flow,station,test,direction,to,dscp,\
goodput_mbps,pings_sent,pings_lost,ping_loss,ping_p50_ms,ping_p90_ms,ping_p99_ms,\
tcp_retransmits,tcp_rto_timeouts,voip_mean_delay_ms,voip_jitter_ms,voip_loss,voip_mos,\
pages,page_load_p50_s,page_load_p90_s,overrides";

/// A CSV text cell: quoted, its quotes doubled (RFC 4180), when it holds a comma, a
/// quote or a line break.
pub(crate) fn csv_field(v: &str) -> String {
    match v.contains([',', '"', '\n', '\r']) {
        true => format!("\"{}\"", v.replace('"', "\"\"")),
        false => v.to_string(),
    }
}

/// The run's overrides its label does not carry ([`Metadata::unlabelled_overrides`]),
/// space-separated, as one cell: the points of a sweep share a label.
///
/// [`Metadata::unlabelled_overrides`]: crate::results::Metadata::unlabelled_overrides
fn overrides(r: &ResultsFile) -> String {
    csv_field(&r.metadata.unlabelled_overrides().join(" "))
}

/// An optional figure with 3 decimals, or nothing.
fn opt(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v:.3}"))
}

/// An optional count, or nothing.
fn count(v: Option<u64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// An RTT percentile: ms, `inf` when lost, nothing without ping.
fn rtt(p: Option<LossyPercentile>) -> String {
    match p {
        Some(LossyPercentile::Value(ms)) => format!("{ms:.3}"),
        Some(LossyPercentile::Lost) => "inf".into(),
        None => String::new(),
    }
}

/// The per-station summary of `runs` as CSV.
pub fn csv(runs: &[ResultsFile]) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    for r in runs {
        let m = &r.metadata;
        for s in &r.stations {
            let ping = r.station_ping(&s.name);
            let _ = writeln!(
                out,
                "{},{},{},{},\"{}\",{:.4},{:.4},{},{},{},{},{},{:.3},{:.2},{},{},{}",
                csv_field(&m.scenario),
                m.seed,
                csv_field(&m.variant),
                csv_field(&s.name),
                s.rate,
                s.goodput_mbps,
                s.airtime_share,
                rtt(ping.map(|p| p.p50)),
                rtt(ping.map(|p| p.p90)),
                rtt(ping.map(|p| p.p99)),
                s.total_drops(),
                opt(s.mean_delay_ms),
                s.max_delay_ms,
                s.mpdus_per_ampdu_down,
                count(ping.and_then(|p| p.sent)),
                opt(ping.and_then(|p| p.loss())),
                overrides(r),
            );
        }
    }
    out
}

/// The per-flow summary of `runs` as CSV: one row per run × flow.
pub fn flows_csv(runs: &[ResultsFile]) -> String {
    let mut out = format!("{FLOWS_CSV_HEADER}\n");
    for r in runs {
        let m = &r.metadata;
        for (i, f) in r.flows.iter().enumerate() {
            let l = flow_line(i, f);
            let ping = l.ping;
            let p = ping.map(|p| p.rtt_ms);
            let (tcp, voip, web) = (l.tcp, l.voip, l.web);
            let _ = writeln!(
                out,
                "{},{},{},{i},{},{},{},{},{},{:.4},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(&m.scenario),
                m.seed,
                csv_field(&m.variant),
                csv_field(&f.station),
                f.test,
                f.direction,
                csv_field(f.to.as_deref().unwrap_or("")),
                f.dscp,
                f.goodput_mbps,
                count(ping.and_then(|p| p.sent)),
                count(ping.and_then(|p| p.lost)),
                opt(ping.and_then(|p| p.loss)),
                rtt(p.and_then(|p| p.p50).map(|r| r.0)),
                rtt(p.and_then(|p| p.p90).map(|r| r.0)),
                rtt(p.and_then(|p| p.p99).map(|r| r.0)),
                count(tcp.map(|t| t.retransmits)),
                count(tcp.map(|t| t.rto_timeouts)),
                opt(voip.map(|v| v.mean_delay_ms)),
                opt(voip.map(|v| v.jitter_ms)),
                opt(voip.map(|v| v.loss_fraction)),
                opt(voip.map(|v| v.mos)),
                count(web.map(|w| w.pages as u64)),
                opt(web.and_then(|w| w.load_p50_s)),
                opt(web.and_then(|w| w.load_p90_s)),
                overrides(r),
            );
        }
    }
    out
}

/// Where the per-flow CSV goes beside the per-station one at `path`: `x.csv` →
/// `x.flows.csv` (any other name gets `.flows.csv` appended).
pub fn flows_csv_path(path: &Path) -> PathBuf {
    match path.extension() {
        Some(ext) if ext == "csv" => path.with_extension("flows.csv"),
        _ => {
            let mut name = path.as_os_str().to_owned();
            name.push(".flows.csv");
            PathBuf::from(name)
        }
    }
}

/// Writes the CSVs of `runs`: the per-station one to `path`, the per-flow one beside it
/// ([`flows_csv_path`]).
pub fn write_csv(runs: &[ResultsFile], path: &Path) -> Result<(), CliError> {
    std::fs::write(path, csv(runs)).map_err(|e| io_error("cannot write", path, e))?;
    let flows = flows_csv_path(path);
    std::fs::write(&flows, flows_csv(runs)).map_err(|e| io_error("cannot write", &flows, e))
}
