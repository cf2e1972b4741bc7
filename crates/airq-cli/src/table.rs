//! Terminal tables: per station for one run, and side by side (one column per AP
//! configuration) for a comparison. Blank cells stand for what was not measured (no
//! ping in the scenario).

use crate::results::{Percentiles, ResultsFile};
use std::fmt::Write as _;

/// The table of one run.
pub fn run_table(r: &ResultsFile) -> String {
    let m = &r.metadata;
    let mut out = format!(
        "{} under {} (seed {}): {:.1} s simulated in {:.1} s, {} events\n",
        m.scenario, m.config, m.seed, m.duration_s, m.wall_s, m.events
    );
    let rate_width = r
        .stations
        .iter()
        .map(|s| s.rate.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let name_width = r
        .stations
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let _ = writeln!(
        out,
        "{:<name_width$}  {:<rate_width$}  {:>8}  {:>7}  {:>8}  {:>8}  {:>8}  {:>8}",
        "station", "rate", "Mbit/s", "airtime", "ping p50", "p90 ms", "p99 ms", "drops"
    );
    for s in &r.stations {
        let [p50, p90, p99] = ping_cells(s.ping_rtt_ms);
        let _ = writeln!(
            out,
            "{:<name_width$}  {:<rate_width$}  {:>8.2}  {:>6.1}%  {p50:>8}  {p90:>8}  {p99:>8}  {:>8}",
            s.name,
            s.rate,
            s.goodput_mbps,
            s.airtime_share * 100.0,
            s.total_drops()
        );
    }
    let _ = writeln!(
        out,
        "{:<name_width$}  {:<rate_width$}  {:>8.2}  Jain's index of airtime shares {:.3}",
        "total",
        "",
        r.total_goodput_mbps(),
        r.airtime_jain()
    );
    out
}

/// One table with a column per run (configuration).
pub fn compare_table(runs: &[ResultsFile]) -> String {
    let Some(first) = runs.first() else {
        return String::new();
    };
    let m = &first.metadata;
    let mut out = format!(
        "{} (seed {}), {:.1} s simulated per configuration\n",
        m.scenario, m.seed, m.duration_s
    );
    let names: Vec<&str> = first.stations.iter().map(|s| s.name.as_str()).collect();
    let label_width = names.iter().map(|n| n.len() + 2).max().unwrap_or(0).max(16);
    let widths: Vec<usize> = runs
        .iter()
        .map(|r| r.metadata.config.len().max(10))
        .collect();
    let row = |out: &mut String, label: &str, cells: Vec<String>| {
        let _ = write!(out, "{label:<label_width$}");
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {cell:>w$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    };
    row(
        &mut out,
        "",
        runs.iter().map(|r| r.metadata.config.clone()).collect(),
    );
    let per_station =
        |out: &mut String, title: &str, cell: &dyn Fn(&ResultsFile, usize) -> String| {
            row(out, title, vec![String::new(); runs.len()]);
            for (i, name) in names.iter().enumerate() {
                row(
                    out,
                    &format!("  {name}"),
                    runs.iter().map(|r| cell(r, i)).collect(),
                );
            }
        };
    per_station(&mut out, "goodput, Mbit/s", &|r, i| {
        format!("{:.2}", r.stations[i].goodput_mbps)
    });
    row(
        &mut out,
        "  total",
        runs.iter()
            .map(|r| format!("{:.2}", r.total_goodput_mbps()))
            .collect(),
    );
    per_station(&mut out, "airtime share", &|r, i| {
        format!("{:.1}%", r.stations[i].airtime_share * 100.0)
    });
    row(
        &mut out,
        "  Jain's index",
        runs.iter()
            .map(|r| format!("{:.3}", r.airtime_jain()))
            .collect(),
    );
    let pinged = runs
        .iter()
        .any(|r| r.stations.iter().any(|s| s.ping_rtt_ms.is_some()));
    if pinged {
        per_station(&mut out, "ping p50/p90/p99, ms", &|r, i| {
            ping_cells(r.stations[i].ping_rtt_ms)
                .join("/")
                .trim_matches('/')
                .to_string()
        });
    }
    per_station(&mut out, "mean delay, ms", &|r, i| {
        r.stations[i]
            .mean_delay_ms
            .map_or(String::new(), |d| format!("{d:.1}"))
    });
    per_station(&mut out, "drops", &|r, i| {
        r.stations[i].total_drops().to_string()
    });
    out
}

/// p50, p90, p99 in ms, or blanks.
fn ping_cells(p: Option<Percentiles>) -> [String; 3] {
    match p {
        Some(p) => [p.p50, p.p90, p.p99].map(|v| format!("{v:.1}")),
        None => [String::new(), String::new(), String::new()],
    }
}
