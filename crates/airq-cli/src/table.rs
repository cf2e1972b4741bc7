//! Terminal tables: per station and per flow for one run, and side by side (one column
//! per AP configuration) for a comparison. Blank cells stand for what was not measured
//! (no ping in the scenario). A ping without a reply is lost, not missing: ping
//! percentiles count it as an infinite RTT (flent's convention, see
//! `Distribution::percentile_with_loss`), and a percentile that falls among the lost
//! pings reads `lost`; `?` is a loss the results file did not count (older files).

mod flows;
mod lineup;
mod notes;
mod radio;
mod seeds;

pub use seeds::seeds_table;

pub(crate) use notes::derived_differences;
use notes::{codel_line, notes};

use crate::labels::column_labels;
use crate::results::{Metadata, PingStats, ResultsFile};
use airq_sim::metrics::distribution::LossyPercentile;
use std::fmt::Write as _;

/// The `--set`s every run of the table had, and the warm-up left out, if any: a line
/// each. Runs shown together that differ (`--allow-mixed`) name their own in their
/// columns' labels.
fn settings_line(runs: &[&Metadata]) -> String {
    let Some(m) = runs.first() else {
        return String::new();
    };
    let sets: Vec<&str> = m
        .overrides
        .iter()
        .map(String::as_str)
        .filter(|o| {
            !["seed=", "duration=", "omit="]
                .iter()
                .any(|p| o.starts_with(p))
        })
        .filter(|o| runs.iter().all(|r| r.overrides.iter().any(|p| p == o)))
        .collect();
    let mut out = String::new();
    if !sets.is_empty() {
        out += &format!("with --set {}\n", sets.join(" "));
    }
    let same_window = runs
        .iter()
        .all(|r| (r.omit_s, r.duration_s) == (m.omit_s, m.duration_s));
    if !same_window {
        out += "figures from each run's warm-up (omit) to its end\n";
    } else if m.omit_s > 0.0 {
        out += &format!(
            "figures from {} s to {} s: the first {} s (warm-up) left out\n",
            m.omit_s, m.duration_s, m.omit_s
        );
    }
    out
}

/// What a named variant is: its preset and changes (nothing for a preset unchanged).
fn variant_line(m: &Metadata) -> String {
    if m.variant_set.is_empty() {
        return String::new();
    }
    format!(
        "{}: {} with {}\n",
        m.variant,
        m.config,
        m.variant_set.join(" ")
    )
}

/// Jain's index, or why there is none.
fn jain_cell(r: &ResultsFile) -> String {
    r.airtime_jain()
        .map_or("n/a (nothing delivered)".to_string(), |j| format!("{j:.3}"))
}

/// The share of the measured time the channel was in use, or nothing over no time.
fn in_use_cell(r: &ResultsFile) -> String {
    r.channel
        .in_use_share()
        .map_or(String::new(), |u| format!("{:.1}%", u * 100.0))
}

/// The table of one run.
pub fn run_table(r: &ResultsFile) -> String {
    let m = &r.metadata;
    let mut out = format!(
        "{} under {} (seed {}): {:.1} s simulated in {:.1} s, {} events\n",
        m.scenario, m.variant, m.seed, m.duration_s, m.wall_s, m.events
    );
    out += &settings_line(&[m]);
    out += &variant_line(m);
    let rates: Vec<String> = r.stations.iter().map(radio::rate_cell).collect();
    let rate_width = rates.iter().map(String::len).max().unwrap_or(4).max(4);
    // The SNR column only when a station had a channel model.
    let snr = radio::has_snr(&r.stations);
    let snr_column = |cell: &str| {
        if snr {
            format!("  {cell:>11}")
        } else {
            String::new()
        }
    };
    let name_width = r
        .stations
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(7)
        .max(7);
    // The ping columns only when a station was pinged.
    let pinged = r.stations.iter().any(|s| r.station_ping(&s.name).is_some());
    let ping_columns = |[p50, p90, p99, lost]: [&str; 4]| {
        if pinged {
            format!("  {p50:>8}  {p90:>8}  {p99:>8}  {lost:>6}")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "{:<name_width$}  {:<rate_width$}{}  {:>8}  {:>7}{}  {:>7}",
        "station",
        "rate",
        snr_column("SNR dn/up dB"),
        "Mbit/s",
        "airtime",
        ping_columns(["ping p50", "p90 ms", "p99 ms", "lost"]),
        "drops"
    );
    for (s, rate) in r.stations.iter().zip(&rates) {
        let ping = r.station_ping(&s.name);
        let [p50, p90, p99] = ping_cells(ping);
        let lost = ping.map_or(String::new(), |p| loss_cell(p.loss()));
        let _ = writeln!(
            out,
            "{:<name_width$}  {:<rate_width$}{}  {:>8.2}  {:>6.1}%{}  {:>7}",
            s.name,
            rate,
            snr_column(&radio::snr_cell(s)),
            s.goodput_mbps,
            s.airtime_share * 100.0,
            ping_columns([&p50, &p90, &p99, &lost]),
            s.total_drops()
        );
    }
    let _ = writeln!(
        out,
        "{:<name_width$}  {:<rate_width$}{}  {:>8.2}  Jain's index of airtime shares {}{}",
        "total",
        "",
        snr_column(""),
        r.total_goodput_mbps(),
        jain_cell(r),
        match in_use_cell(r) {
            c if c.is_empty() => c,
            c => format!("; channel in use {c} of the time"),
        }
    );
    out += &codel_line(r);
    flows::run_flows(&mut out, r);
    out += &notes(&[r]);
    out
}

/// One table with a column per run (configuration).
pub fn compare_table(runs: &[ResultsFile]) -> String {
    let Some(first) = runs.first() else {
        return String::new();
    };
    let m = &first.metadata;
    let labels = column_labels(&runs.iter().collect::<Vec<_>>());
    let mixed = runs.iter().any(|r| r.metadata.seed != m.seed)
        || runs.iter().any(|r| r.metadata.duration_s != m.duration_s);
    let mut out = if runs.iter().any(|r| r.metadata.scenario != m.scenario) {
        "runs of different scenarios (each named in its column)\n".to_string()
    } else if mixed {
        format!("{}: runs of different seeds or durations\n", m.scenario)
    } else {
        format!(
            "{} (seed {}), {:.1} s simulated per configuration\n",
            m.scenario, m.seed, m.duration_s
        )
    };
    let metadata: Vec<&Metadata> = runs.iter().map(|r| &r.metadata).collect();
    out += &settings_line(&metadata);
    out += &derived_differences(&metadata, &|m| m.variant.clone());
    for r in runs {
        out += &variant_line(&r.metadata);
    }
    let lineup = lineup::Lineup::stations(runs);
    // The rows first, then columns as wide as their widest cell.
    let mut rows: Vec<Row> = Vec::new();
    let row = |rows: &mut Vec<Row>, label: &str, cells: Vec<String>| {
        rows.push((label.to_string(), cells));
    };
    row(&mut rows, "", labels.clone());
    let per_station =
        |rows: &mut Vec<Row>, title: &str, cell: &dyn Fn(&ResultsFile, usize) -> String| {
            row(rows, title, vec![String::new(); runs.len()]);
            for name in &lineup.names {
                let cells = (runs.iter().enumerate())
                    .map(|(k, r)| {
                        lineup
                            .position(k, name)
                            .map_or(String::new(), |i| cell(r, i))
                    })
                    .collect();
                row(rows, &format!("  {name}"), cells);
            }
        };
    per_station(&mut rows, "goodput, Mbit/s", &|r, i| {
        format!("{:.2}", r.stations[i].goodput_mbps)
    });
    row(
        &mut rows,
        "  total",
        runs.iter()
            .map(|r| format!("{:.2}", r.total_goodput_mbps()))
            .collect(),
    );
    per_station(&mut rows, "airtime share", &|r, i| {
        format!("{:.1}%", r.stations[i].airtime_share * 100.0)
    });
    row(
        &mut rows,
        "  Jain's index",
        runs.iter().map(jain_cell).collect(),
    );
    row(
        &mut rows,
        "  channel in use",
        runs.iter().map(in_use_cell).collect(),
    );
    let pinged = runs
        .iter()
        .any(|r| r.stations.iter().any(|s| r.station_ping(&s.name).is_some()));
    if pinged {
        // A block per percentile: three in a cell would not fit five runs in 100 columns.
        for (k, title) in ["ping p50, ms", "ping p90, ms", "ping p99, ms"]
            .iter()
            .enumerate()
        {
            per_station(&mut rows, title, &|r, i| {
                let [p50, p90, p99] = ping_cells(r.station_ping(&r.stations[i].name));
                [p50, p90, p99][k].clone()
            });
        }
        per_station(&mut rows, "pings lost", &|r, i| {
            r.station_ping(&r.stations[i].name)
                .map_or(String::new(), |p| loss_cell(p.loss()))
        });
    }
    per_station(&mut rows, "mean delay, ms", &|r, i| {
        r.stations[i]
            .mean_delay_ms
            .map_or(String::new(), |d| format!("{d:.1}"))
    });
    per_station(&mut rows, "drops", &|r, i| {
        r.stations[i].total_drops().to_string()
    });
    // The radio, when a station had rate control or a channel model.
    if runs
        .iter()
        .any(|r| r.stations.iter().any(|s| s.rate_control.is_some()))
    {
        per_station(&mut rows, "most used rate", &|r, i| {
            radio::top_rate_cell(&r.stations[i])
        });
    }
    if runs.iter().any(|r| radio::has_snr(&r.stations)) {
        per_station(&mut rows, "SNR down/up, dB", &|r, i| {
            radio::snr_cell(&r.stations[i])
        });
    }
    for (title, flow_rows) in flows::compare_blocks(runs) {
        row(&mut rows, &title, vec![String::new(); runs.len()]);
        rows.extend(flow_rows);
    }
    write_columns(&mut out, &rows);
    out += &notes(&runs.iter().collect::<Vec<_>>());
    out
}

/// A row of a comparison: its label and a cell per run.
type Row = (String, Vec<String>);

/// `rows` as a label column (at least 16 wide) and columns of cells right-aligned, each
/// as wide as its widest cell (at least 10).
fn write_columns(out: &mut String, rows: &[Row]) {
    let label_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(16);
    let columns = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            let cells = rows.iter().filter_map(|r| r.1.get(c));
            cells.map(String::len).max().unwrap_or(0).max(10)
        })
        .collect();
    for (label, cells) in rows {
        let _ = write!(out, "{label:<label_width$}");
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {cell:>w$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
}

/// p50, p90, p99 in ms (`lost` for those among the lost pings), or blanks.
fn ping_cells(p: Option<PingStats>) -> [String; 3] {
    match p {
        Some(p) => [p.p50, p.p90, p.p99].map(percentile_cell),
        None => [String::new(), String::new(), String::new()],
    }
}

/// An RTT percentile in ms, or `lost`.
fn percentile_cell(p: LossyPercentile) -> String {
    match p {
        LossyPercentile::Value(v) => format!("{v:.1}"),
        LossyPercentile::Lost => "lost".into(),
    }
}

/// A lost fraction as a percentage; `?` when not counted.
fn loss_cell(loss: Option<f64>) -> String {
    loss.map_or("?".into(), |l| format!("{:.1}%", l * 100.0))
}
