//! The sweep's tables: every figure of every run (tidy), their means and 95% intervals
//! over seeds, and the terminal table of the key figures per point and variant.

use super::{grid, Cell, Param};
use crate::repeat::MeanCi;
use crate::results::{ms_or_infinity, ResultsFile};
use crate::run_set::unquoted;
use crate::scenario::Variant;
use crate::summary::csv_field;
use std::fmt::Write as _;

/// One figure of one run: the station (`*` for the whole BSS), the metric and its value
/// (`inf` for a ping percentile that fell among lost pings).
pub struct Figure {
    station: String,
    metric: &'static str,
    value: f64,
}

/// The figures of each run, in run order.
pub fn figures(runs: &[ResultsFile]) -> Vec<Vec<Figure>> {
    runs.iter()
        .map(|r| {
            let mut out = vec![Figure {
                station: "*".into(),
                metric: "total_goodput_mbps",
                value: r.total_goodput_mbps(),
            }];
            if let Some(jain) = r.airtime_jain() {
                out.push(Figure {
                    station: "*".into(),
                    metric: "airtime_jain",
                    value: jain,
                });
            }
            for s in &r.stations {
                let mut push = |metric, value| {
                    out.push(Figure {
                        station: s.name.clone(),
                        metric,
                        value,
                    })
                };
                push("goodput_mbps", s.goodput_mbps);
                push("airtime_share", s.airtime_share);
                push("drops", s.total_drops() as f64);
                // The one-way delay of what it received, as `compare` tables give it;
                // none when nothing was.
                if let Some(d) = s.mean_delay_ms {
                    push("mean_delay_ms", d);
                }
                if let Some(p) = r.station_ping(&s.name) {
                    push("ping_p50_ms", ms_or_infinity(p.p50));
                    push("ping_p90_ms", ms_or_infinity(p.p90));
                    push("ping_p99_ms", ms_or_infinity(p.p99));
                    if let Some(loss) = p.loss() {
                        push("ping_loss", loss);
                    }
                }
            }
            if let Some(value) = r.worst_ping_p99_ms() {
                out.push(Figure {
                    station: "*".into(),
                    metric: "worst_ping_p99_ms",
                    value,
                });
            }
            out
        })
        .collect()
}

/// The parameters' columns of a point.
fn point_fields(params: &[Param], point: &[usize]) -> String {
    params
        .iter()
        .zip(point)
        .map(|(p, &v)| csv_field(&unquoted(&p.values[v])))
        .collect::<Vec<_>>()
        .join(",")
}

fn header(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| csv_field(&p.key))
        .collect::<Vec<_>>()
        .join(",")
}

/// One row per run × figure.
pub fn tidy_csv(
    scenario: &str,
    params: &[Param],
    cells: &[Cell],
    runs: &[ResultsFile],
    rows: &[Vec<Figure>],
) -> String {
    let mut out = format!(
        "scenario,variant,preset,{},seed,duration_s,station,metric,value\n",
        header(params)
    );
    for ((cell, r), figures) in cells.iter().zip(runs).zip(rows) {
        for f in figures {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                csv_field(scenario),
                csv_field(&cell.variant),
                cell.preset,
                point_fields(params, &cell.point),
                r.metadata.seed,
                r.metadata.duration_s,
                csv_field(&f.station),
                f.metric,
                f.value
            );
        }
    }
    out
}

/// One figure over the seeds of a point and variant.
pub(super) struct Mean {
    pub(super) point: Vec<usize>,
    pub(super) variant: String,
    pub(super) preset: String,
    pub(super) station: String,
    pub(super) metric: &'static str,
    /// Over the seeds whose value is finite.
    pub(super) stats: Option<MeanCi>,
    /// Seeds whose value was infinite (a ping percentile among lost pings).
    pub(super) lost: usize,
    pub(super) seeds: usize,
}

/// The figures of `rows` over seeds, in grid order, variants in their order.
pub(super) fn means(
    params: &[Param],
    cells: &[Cell],
    rows: &[Vec<Figure>],
    variants: &[Variant],
) -> Vec<Mean> {
    let mut out = Vec::new();
    for point in grid(params) {
        for v in variants {
            let runs: Vec<usize> = (0..cells.len())
                .filter(|&i| cells[i].point == point && cells[i].variant == v.name)
                .collect();
            let Some(&first) = runs.first() else { continue };
            for f in &rows[first] {
                let values: Vec<f64> = runs
                    .iter()
                    .filter_map(|&i| {
                        rows[i]
                            .iter()
                            .find(|g| g.station == f.station && g.metric == f.metric)
                            .map(|g| g.value)
                    })
                    .collect();
                out.push(Mean {
                    point: point.clone(),
                    variant: v.name.clone(),
                    preset: cells[first].preset.clone(),
                    station: f.station.clone(),
                    metric: f.metric,
                    stats: MeanCi::of(&values),
                    lost: values.iter().filter(|x| x.is_infinite()).count(),
                    seeds: runs.len(),
                });
            }
        }
    }
    out
}

pub(super) fn means_csv(scenario: &str, params: &[Param], means: &[Mean]) -> String {
    let mut out = format!(
        "scenario,variant,preset,{},station,metric,seeds,n,mean,ci95,seeds_lost\n",
        header(params)
    );
    for m in means {
        let (n, mean, ci) = match m.stats {
            Some(s) => (
                s.n.to_string(),
                s.mean.to_string(),
                s.ci95.map_or(String::new(), |c| c.to_string()),
            ),
            None => ("0".into(), String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{n},{mean},{ci},{}",
            csv_field(scenario),
            csv_field(&m.variant),
            m.preset,
            point_fields(params, &m.point),
            csv_field(&m.station),
            m.metric,
            m.seeds,
            m.lost
        );
    }
    out
}

/// Total goodput and Jain's index per point (rows) and variant (columns).
pub(super) fn sweep_table(
    scenario: &str,
    params: &[Param],
    means: &[Mean],
    variants: &[Variant],
    first: &ResultsFile,
) -> String {
    let seeds = means.first().map_or(1, |m| m.seeds);
    let mut out = format!(
        "{scenario}: sweep of {} ({} points x {} variants x {} seeds), {:.1} s each; mean \
         ± 95% confidence interval over seeds\n",
        params
            .iter()
            .map(|p| p.key.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        grid(params).len(),
        variants.len(),
        seeds,
        first.metadata.duration_s
    );
    let point_label = |point: &[usize]| -> String {
        params
            .iter()
            .zip(point)
            .map(|(p, &v)| format!("{}={}", p.key, unquoted(&p.values[v])))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let points = grid(params);
    let width = points
        .iter()
        .map(|p| point_label(p).len())
        .max()
        .unwrap_or(0)
        .max(12);
    let cols: Vec<usize> = variants.iter().map(|v| v.name.len().max(15)).collect();
    let mut unmeasured = false;
    for (metric, title, decimals) in [
        ("total_goodput_mbps", "total goodput, Mbit/s", 2),
        ("airtime_jain", "Jain's index of airtime shares", 3),
    ] {
        let _ = write!(out, "{title}\n{:width$}", "");
        for (v, w) in variants.iter().zip(&cols) {
            let _ = write!(out, "  {:>w$}", v.name);
        }
        out.push('\n');
        for point in &points {
            let _ = write!(out, "{:width$}", point_label(point));
            for (v, w) in variants.iter().zip(&cols) {
                let cell = means
                    .iter()
                    .find(|m| m.point == *point && m.variant == v.name && m.metric == metric)
                    .and_then(|m| m.stats)
                    .map_or_else(
                        || {
                            unmeasured = true;
                            "n/a".to_string()
                        },
                        |s| s.show(decimals),
                    );
                let _ = write!(out, "  {cell:>w$}");
            }
            out.push('\n');
        }
    }
    if unmeasured {
        out += "n/a: no run of the point delivered a packet (its WARNING says which)\n";
    }
    out
}
