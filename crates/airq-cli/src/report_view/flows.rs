//! The run's flows for the report ([`FlowView`]), from the results file's `flows` and
//! per-flow byte series:
//!
//! - the kind from the test that made the flow (`voip`, `http`, `ping`, `tcp_*`, the
//!   UDP tests); rrul makes TCP streams and a ping, told apart by the TCP counters only
//!   TCP connections have;
//! - per-step goodput from the differences of the flow's cumulative
//!   `series.flow_rx_bytes` (none for files without per-flow bytes);
//! - its TCP sender's congestion window and smoothed RTT at each sample from
//!   `series.flow_tcp_cwnd` and `series.flow_tcp_rtt_ms` (none for a flow that never
//!   had one, and for files without them);
//! - web page loads at their completion: the simulator starts a flow's first page at the
//!   flow's start and each next one a think time after the last completed
//!   (`airq_sim::bss::http`), so page k completes at start + the first k load times +
//!   (k − 1) think times; start and think time come from the recorded scenario, rebuilt
//!   as the run built it.

use super::PerStep;
use crate::build;
use crate::error::CliError;
use crate::results::{FlowSummary, ResultsFile};
use crate::scenario;
use airq_report::{FlowDirection, FlowKind, FlowView, VoipView};
use airq_sim::apps::traffic::App;

/// The kind of flow `test` made (`has_tcp`: the flow counted TCP connections).
fn kind_of(test: &str, has_tcp: bool) -> FlowKind {
    match test {
        "voip" => FlowKind::Voip,
        "http" => FlowKind::Http,
        "ping" => FlowKind::Ping,
        "rrul" if has_tcp => FlowKind::Tcp,
        "rrul" => FlowKind::Ping,
        t if t.starts_with("tcp_") => FlowKind::Tcp,
        _ => FlowKind::Udp,
    }
}

/// Every flow of `r`, in its order.
pub(super) fn flow_views(r: &ResultsFile, per_step: &PerStep) -> Result<Vec<FlowView>, CliError> {
    let page_loads = page_completions(r)?;
    r.flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let direction = match f.direction.as_str() {
                "down" => FlowDirection::Down,
                "up" => FlowDirection::Up,
                other => {
                    return Err(CliError::new(format!(
                        "flows[{i}].direction is `{other}`, not `down` or `up`"
                    )))
                }
            };
            let goodput_mbps = if r.series.flow_rx_bytes.is_empty() {
                Vec::new()
            } else {
                per_step.mbps(r.series.flow_rx_bytes.iter().map(|row| row[i]))
            };
            Ok(FlowView {
                station: f.station.clone(),
                test: f.test.clone(),
                kind: kind_of(&f.test, f.tcp.is_some()),
                direction,
                to: f.to.clone(),
                dscp: f.dscp,
                goodput_mbps,
                rtt_ms: f.rtt_ms.iter().map(|&[t, ms]| (t, ms)).collect(),
                page_loads_s: page_loads[i].clone(),
                voip: f.voip.map(|v| VoipView {
                    sent: v.sent,
                    received: v.received,
                    mean_delay_ms: v.mean_delay_ms,
                    jitter_ms: v.jitter_ms,
                    mos: v.mos,
                }),
                tcp_cwnd: column(&r.series.flow_tcp_cwnd, i),
                tcp_rtt_ms: column(&r.series.flow_tcp_rtt_ms, i),
            })
        })
        .collect()
}

/// Flow `i`'s values of a per-sample, per-flow series; empty when it has none at all (a
/// flow without TCP, a file without the series).
fn column<T: Copy>(rows: &[Vec<Option<T>>], i: usize) -> Vec<Option<T>> {
    let values: Vec<Option<T>> = rows.iter().map(|row| row[i]).collect();
    if values.iter().all(Option::is_none) {
        return Vec::new();
    }
    values
}

/// Per flow, its page loads as (completion s, load time s); empty for other flows.
fn page_completions(r: &ResultsFile) -> Result<Vec<Vec<(f64, f64)>>, CliError> {
    let loads = |f: &FlowSummary| f.test == "http" && !f.page_load_s.is_empty();
    if !r.flows.iter().any(loads) {
        return Ok(vec![Vec::new(); r.flows.len()]);
    }
    let m = &r.metadata;
    let unreadable = |e: CliError| e.context("metadata.scenario_text (the web page flows)");
    let scenario = scenario::parse(&m.scenario_file, &m.scenario_text, &[]).map_err(unreadable)?;
    let inputs = build::build(&scenario, &m.config).map_err(unreadable)?;
    let specs = &inputs.bss.flows;
    if specs.len() != r.flows.len() {
        return Err(CliError::new(format!(
            "metadata.scenario_text makes {} flows but the file has {}",
            specs.len(),
            r.flows.len()
        )));
    }
    let end_s = m.duration_s;
    r.flows
        .iter()
        .zip(specs)
        .map(|(f, spec)| {
            let App::Http { page, .. } = &spec.app else {
                return Ok(Vec::new());
            };
            if !loads(f) {
                return Ok(Vec::new());
            }
            let think_s = page.think_time.as_secs_f64();
            let mut t = spec
                .start
                .saturating_duration_since(airq::Instant::ZERO)
                .as_secs_f64();
            let mut done = Vec::with_capacity(f.page_load_s.len());
            for (k, &load_s) in f.page_load_s.iter().enumerate() {
                if k > 0 {
                    t += think_s;
                }
                t += load_s;
                // Float sums of the recorded times may pass the end by rounding.
                done.push((t.min(end_s), load_s));
            }
            Ok(done)
        })
        .collect()
}
