//! Tidy tables of results files, for pandas: one row per observation, every row keyed by
//! the run (`scenario`, `variant`, `preset`, `seed`, and `overrides`: its `--set`s the
//! variant's label does not carry, which tell the points of a sweep over a station's or
//! the traffic's key apart) and what it observes (a station, a
//! flow, a sample time, a ping reply). Columns carry their unit as the results file's
//! fields do; a figure a run does not have is `None` (NaN in pandas). Ping percentiles
//! count lost pings as airq's tables do (`ResultsFile::station_ping`, flent's
//! convention): a percentile among the lost ones is `inf`.

use airq_cli::results::{FlowSummary, PingStats, RadioSummary, ResultsFile, StationSummary};
use airq_cli::CliError;
use airq_sim::metrics::distribution::LossyPercentile;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The tables there are.
pub const KINDS: [&str; 7] = [
    "stations",
    "drops",
    "flows",
    "series",
    "flow_series",
    "ap_series",
    "pings",
];

/// One column's values.
enum Column {
    Str(Vec<String>),
    F64(Vec<f64>),
    U64(Vec<u64>),
    OptF64(Vec<Option<f64>>),
    OptU64(Vec<Option<u64>>),
}

/// One value of a row.
enum Value {
    Str(String),
    F64(f64),
    U64(u64),
    OptF64(Option<f64>),
    OptU64(Option<u64>),
}

/// Columns filled a row at a time, every row naming its columns in the same order.
#[derive(Default)]
pub struct Frame {
    names: Vec<String>,
    columns: Vec<Column>,
}

impl Frame {
    /// A row to fill.
    fn row(&mut self) -> Row<'_> {
        Row { frame: self, at: 0 }
    }

    /// `{name: list}` in column order.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        for (name, column) in self.names.into_iter().zip(self.columns) {
            match column {
                Column::Str(v) => dict.set_item(name, v)?,
                Column::F64(v) => dict.set_item(name, v)?,
                Column::U64(v) => dict.set_item(name, v)?,
                // A missing figure is NaN, so that the column is one of floats (pandas
                // makes a column of None objects, not floats).
                Column::OptF64(v) => dict.set_item(
                    name,
                    v.iter().map(|x| x.unwrap_or(f64::NAN)).collect::<Vec<_>>(),
                )?,
                Column::OptU64(v) if v.iter().any(Option::is_none) => dict.set_item(
                    name,
                    v.iter()
                        .map(|x| x.map_or(f64::NAN, |n| n as f64))
                        .collect::<Vec<_>>(),
                )?,
                Column::OptU64(v) => {
                    dict.set_item(name, v.into_iter().flatten().collect::<Vec<_>>())?
                }
            }
        }
        Ok(dict)
    }
}

/// One row being filled: each call adds the next column's value.
struct Row<'a> {
    frame: &'a mut Frame,
    at: usize,
}

impl Row<'_> {
    fn push(mut self, name: &str, value: Value) -> Self {
        let f = &mut *self.frame;
        if self.at == f.names.len() {
            f.names.push(name.to_string());
            f.columns.push(match value {
                Value::Str(_) => Column::Str(Vec::new()),
                Value::F64(_) => Column::F64(Vec::new()),
                Value::U64(_) => Column::U64(Vec::new()),
                Value::OptF64(_) => Column::OptF64(Vec::new()),
                Value::OptU64(_) => Column::OptU64(Vec::new()),
            });
        }
        assert_eq!(f.names[self.at], name, "every row has the same columns");
        match (&mut f.columns[self.at], value) {
            (Column::Str(c), Value::Str(v)) => c.push(v),
            (Column::F64(c), Value::F64(v)) => c.push(v),
            (Column::U64(c), Value::U64(v)) => c.push(v),
            (Column::OptF64(c), Value::OptF64(v)) => c.push(v),
            (Column::OptU64(c), Value::OptU64(v)) => c.push(v),
            _ => panic!("column {name} holds one type"),
        }
        self.at += 1;
        self
    }

    fn str(self, name: &str, v: impl Into<String>) -> Self {
        self.push(name, Value::Str(v.into()))
    }

    fn f64(self, name: &str, v: f64) -> Self {
        self.push(name, Value::F64(v))
    }

    fn u64(self, name: &str, v: u64) -> Self {
        self.push(name, Value::U64(v))
    }

    fn opt_f64(self, name: &str, v: Option<f64>) -> Self {
        self.push(name, Value::OptF64(v))
    }

    fn opt_u64(self, name: &str, v: Option<u64>) -> Self {
        self.push(name, Value::OptU64(v))
    }

    /// `rate_control` (`fixed` or `minstrel_ht`), and per direction (`_down`, `_up`)
    /// the mean SNR (`snr_down_db`; NaN without a channel model) and the most used rate
    /// with its share of the MPDUs (`top_rate_down`, `top_rate_down_share`; the
    /// configured rate and 1 for a fixed rate, NaN share when nothing was sent), and the
    /// MPDUs sent behind RTS/CTS (`rts_mpdus_down`; NaN for a fixed-rate station without
    /// a channel model, whose results keep no radio summary).
    fn radio(self, s: &StationSummary) -> Self {
        let top = |r: &Option<RadioSummary>| match r {
            None => (s.rate.clone(), Some(1.0)),
            Some(r) => r
                .rates
                .first()
                .map_or((String::new(), None), |t| (t.rate.clone(), Some(t.share))),
        };
        let snr = |r: &Option<RadioSummary>| r.as_ref().and_then(|r| r.mean_snr_db);
        let rts = |r: &Option<RadioSummary>| r.as_ref().map(|r| r.rts_mpdus);
        let (down, down_share) = top(&s.radio_down);
        let (up, up_share) = top(&s.radio_up);
        self.str("rate_control", s.rate_control.as_deref().unwrap_or("fixed"))
            .opt_f64("snr_down_db", snr(&s.radio_down))
            .opt_f64("snr_up_db", snr(&s.radio_up))
            .str("top_rate_down", down)
            .opt_f64("top_rate_down_share", down_share)
            .str("top_rate_up", up)
            .opt_f64("top_rate_up_share", up_share)
            .opt_u64("rts_mpdus_down", rts(&s.radio_down))
            .opt_u64("rts_mpdus_up", rts(&s.radio_up))
    }

    /// The columns that say which run a row is of.
    fn run(self, r: &ResultsFile) -> Self {
        let m = &r.metadata;
        self.str("scenario", m.scenario.as_str())
            .str("variant", m.variant.as_str())
            .str("preset", m.config.as_str())
            .u64("seed", m.seed)
            .str("overrides", m.unlabelled_overrides().join(" "))
    }

    /// `ping_p50_ms`, `ping_p90_ms`, `ping_p99_ms` (`inf` among lost pings) and
    /// `pings_sent`, `ping_loss`.
    fn ping(self, p: Option<PingStats>) -> Self {
        let ms = |l: LossyPercentile| match l {
            LossyPercentile::Value(v) => v,
            LossyPercentile::Lost => f64::INFINITY,
        };
        self.opt_f64("ping_p50_ms", p.map(|p| ms(p.p50)))
            .opt_f64("ping_p90_ms", p.map(|p| ms(p.p90)))
            .opt_f64("ping_p99_ms", p.map(|p| ms(p.p99)))
            .opt_u64("pings_sent", p.and_then(|p| p.sent))
            .opt_f64("ping_loss", p.and_then(|p| p.loss()))
    }
}

/// The table `kind` of `runs`, rows in run order.
pub fn frame(kind: &str, runs: &[ResultsFile]) -> Result<Frame, CliError> {
    let mut f = Frame::default();
    for r in runs {
        match kind {
            "stations" => stations(&mut f, r),
            "drops" => drops(&mut f, r),
            "flows" => flows(&mut f, r),
            "series" => series(&mut f, r),
            "flow_series" => flow_series(&mut f, r),
            "ap_series" => ap_series(&mut f, r),
            "pings" => pings(&mut f, r),
            _ => {
                return Err(CliError::new(format!(
                    "no table `{kind}`: there are {}",
                    KINDS.join(", ")
                )))
            }
        }
    }
    Ok(f)
}

/// A row per station: the results file's figures, its drops in all, and its pings.
fn stations(f: &mut Frame, r: &ResultsFile) {
    for s in &r.stations {
        f.row()
            .run(r)
            .str("station", s.name.as_str())
            .str("rate", s.rate.as_str())
            .f64("phy_rate_mbps", s.phy_rate_mbps)
            .f64("goodput_mbps", s.goodput_mbps)
            .f64("airtime_share", s.airtime_share)
            .f64("airtime_down_s", s.airtime_down_s)
            .f64("airtime_up_s", s.airtime_up_s)
            .u64("rx_bytes_down", s.rx_bytes_down)
            .u64("rx_bytes_up", s.rx_bytes_up)
            .u64("rx_packets_down", s.rx_packets_down)
            .u64("rx_packets_up", s.rx_packets_up)
            .f64("mpdus_per_ampdu_down", s.mpdus_per_ampdu_down)
            .f64("mpdus_per_ampdu_up", s.mpdus_per_ampdu_up)
            .u64("mpdu_failures_down", s.mpdu_failures_down)
            .u64("mpdu_failures_up", s.mpdu_failures_up)
            .u64("collisions", s.collisions)
            .opt_f64("mean_delay_ms", s.mean_delay_ms)
            .f64("max_delay_ms", s.max_delay_ms)
            .ping(r.station_ping(&s.name))
            .u64("drops", s.total_drops())
            .radio(s);
    }
}

/// A row per station and drop cause (every cause the results file lists, in its order).
fn drops(f: &mut Frame, r: &ResultsFile) {
    for s in &r.stations {
        for (cause, &n) in &s.drops {
            f.row()
                .run(r)
                .str("station", s.name.as_str())
                .str("cause", cause.as_str())
                .u64("packets", n);
        }
    }
}

/// A row per flow, numbered in the order the scenario's traffic made them.
fn flows(f: &mut Frame, r: &ResultsFile) {
    for (i, fl) in r.flows.iter().enumerate() {
        let tcp = fl.tcp;
        let voip = fl.voip;
        let pages = &fl.page_load_s;
        flow_key(f.row().run(r), i, fl)
            .f64("goodput_mbps", fl.goodput_mbps)
            .ping(fl.ping())
            .opt_u64("pings_lost", fl.pings_lost)
            .opt_u64("tcp_retransmits", tcp.map(|t| t.retransmits))
            .opt_u64("tcp_rto_timeouts", tcp.map(|t| t.rto_timeouts))
            .opt_u64("tcp_ce_received", tcp.map(|t| t.ce_received))
            .opt_u64("tcp_ecn_reductions", tcp.map(|t| t.ecn_reductions))
            .opt_u64("tcp_connections", tcp.map(|t| t.connections))
            .opt_u64("voip_sent", voip.map(|v| v.sent))
            .opt_u64("voip_received", voip.map(|v| v.received))
            .opt_f64("voip_loss_fraction", voip.map(|v| v.loss_fraction))
            .opt_f64("voip_jitter_ms", voip.map(|v| v.jitter_ms))
            .opt_f64("voip_mean_delay_ms", voip.map(|v| v.mean_delay_ms))
            .opt_f64("voip_mouth_to_ear_ms", voip.map(|v| v.mouth_to_ear_ms))
            .opt_f64("voip_r", voip.map(|v| v.r))
            .opt_f64("voip_mos", voip.map(|v| v.mos))
            .u64("page_loads", pages.len() as u64)
            .opt_f64(
                "page_load_mean_s",
                (!pages.is_empty()).then(|| pages.iter().sum::<f64>() / pages.len() as f64),
            );
    }
}

/// `flow`, `station`, `test`, `direction`, `to` (the pinged station of a
/// station-to-station ping, else empty), `dscp` of flow `i`.
fn flow_key<'a>(row: Row<'a>, i: usize, fl: &FlowSummary) -> Row<'a> {
    row.u64("flow", i as u64)
        .str("station", fl.station.as_str())
        .str("test", fl.test.as_str())
        .str("direction", fl.direction.as_str())
        .str("to", fl.to.as_deref().unwrap_or(""))
        .u64("dscp", u64::from(fl.dscp))
}

/// A row per sample and station: the cumulative counters, and the rate over the step
/// that ends at the sample (from zero at time zero for the first).
fn series(f: &mut Frame, r: &ResultsFile) {
    let s = &r.series;
    for (k, &t) in s.t_s.iter().enumerate() {
        let t0 = if k == 0 { 0.0 } else { s.t_s[k - 1] };
        for (j, st) in r.stations.iter().enumerate() {
            let bytes = s.rx_bytes[k][j];
            let before = if k == 0 { 0 } else { s.rx_bytes[k - 1][j] };
            let air = s.airtime_s[k][j];
            let air_before = if k == 0 { 0.0 } else { s.airtime_s[k - 1][j] };
            let dt = t - t0;
            f.row()
                .run(r)
                .f64("t_s", t)
                .str("station", st.name.as_str())
                .u64("rx_bytes", bytes)
                .f64("airtime_s", air)
                .opt_f64(
                    "airtime_up_s",
                    s.airtime_up_s.get(k).and_then(|a| a.get(j)).copied(),
                )
                .opt_f64(
                    "rx_mbps",
                    (dt > 0.0).then(|| bytes.saturating_sub(before) as f64 * 8.0 / dt / 1e6),
                )
                .opt_f64(
                    "airtime_fraction",
                    (dt > 0.0).then(|| (air - air_before) / dt),
                );
        }
    }
}

/// A row per sample and flow: bytes delivered so far, the goodput over the step, and
/// the TCP sender's window and smoothed RTT where it has one.
fn flow_series(f: &mut Frame, r: &ResultsFile) {
    let s = &r.series;
    for (k, &t) in s.t_s.iter().enumerate() {
        let t0 = if k == 0 { 0.0 } else { s.t_s[k - 1] };
        let dt = t - t0;
        for (i, fl) in r.flows.iter().enumerate() {
            let bytes = s.flow_rx_bytes[k][i];
            let before = if k == 0 { 0 } else { s.flow_rx_bytes[k - 1][i] };
            let cwnd = s
                .flow_tcp_cwnd
                .get(k)
                .and_then(|c| c.get(i))
                .copied()
                .flatten();
            let rtt = s
                .flow_tcp_rtt_ms
                .get(k)
                .and_then(|c| c.get(i))
                .copied()
                .flatten();
            flow_key(f.row().run(r).f64("t_s", t), i, fl)
                .u64("rx_bytes", bytes)
                .opt_f64(
                    "goodput_mbps",
                    (dt > 0.0).then(|| bytes.saturating_sub(before) as f64 * 8.0 / dt / 1e6),
                )
                .opt_u64("tcp_cwnd", cwnd.map(u64::from))
                .opt_f64("tcp_rtt_ms", rtt);
        }
    }
}

/// A row per sample of the AP's queues (at the time series' step).
fn ap_series(f: &mut Frame, r: &ResultsFile) {
    let s = &r.series;
    for (k, &t) in s.t_s.iter().enumerate() {
        f.row()
            .run(r)
            .f64("t_s", t)
            .opt_u64("queued_packets", s.ap_queued_packets.get(k).copied())
            .opt_u64("driver_frames", s.ap_driver_frames.get(k).copied())
            .opt_f64("driver_airtime_ms", s.ap_driver_airtime_ms.get(k).copied());
    }
}

/// A row per ping reply: when it arrived and its RTT (lost pings have no row: see
/// `pings_sent` and `ping_loss` in the stations and flows tables).
fn pings(f: &mut Frame, r: &ResultsFile) {
    for (i, fl) in r.flows.iter().enumerate() {
        for &[t, rtt] in &fl.rtt_ms {
            flow_key(f.row().run(r), i, fl)
                .f64("t_s", t)
                .f64("rtt_ms", rtt);
        }
    }
}
