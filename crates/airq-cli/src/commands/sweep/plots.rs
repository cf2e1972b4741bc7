//! The sweep's figures: a metric of the whole BSS against the first parameter, a line
//! per variant, mean ± 95% CI over seeds (airq-report's sweep figure).

use super::{grid, Mean, Param};
use crate::results::ResultsFile;
use crate::run_set::unquoted;
use crate::scenario::Variant;
use airq_report::{SweepAxis, SweepFigure, SweepLine, SweepPoint};

pub(super) const PLOTTED: [(&str, &str); 3] = [
    ("total_goodput_mbps", "total goodput, Mbit/s"),
    ("airtime_jain", "Jain's index of airtime shares"),
    ("worst_ping_p99_ms", "ping p99 of the worst station, ms"),
];

/// `metric` of the whole BSS against the first parameter: a line per variant (and per
/// combination of the other parameters' values), each point the mean over seeds with
/// its 95% interval; `None` when no point has the metric (no ping, say). A point some
/// seed lost (a percentile among lost pings) is left out of its line.
pub(super) fn figure(
    scenario: &str,
    params: &[Param],
    means: &[Mean],
    variants: &[Variant],
    first: &ResultsFile,
    metric: &str,
    y_label: &str,
) -> Option<SweepFigure> {
    let swept = &params[0];
    let numbers: Option<Vec<f64>> = swept
        .values
        .iter()
        .map(|v| unquoted(v).parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect();
    let x = match &numbers {
        Some(xs) => {
            let lo = xs.iter().copied().fold(f64::MAX, f64::min);
            let hi = xs.iter().copied().fold(f64::MIN, f64::max);
            SweepAxis::Numeric {
                log: lo > 0.0 && hi / lo >= 50.0,
            }
        }
        None => SweepAxis::Categories(swept.values.iter().map(|v| unquoted(v)).collect()),
    };
    let mut lines = Vec::new();
    for v in variants {
        for rest in grid(&params[1..]) {
            let name = std::iter::once(v.name.clone())
                .chain(
                    params[1..]
                        .iter()
                        .zip(&rest)
                        .map(|(p, &i)| format!("{}={}", p.key, unquoted(&p.values[i]))),
                )
                .collect::<Vec<_>>()
                .join(" ");
            let points: Vec<SweepPoint> = (0..swept.values.len())
                .filter_map(|i| {
                    let point: Vec<usize> =
                        std::iter::once(i).chain(rest.iter().copied()).collect();
                    let m = means.iter().find(|m| {
                        m.point == point
                            && m.variant == v.name
                            && m.station == "*"
                            && m.metric == metric
                    })?;
                    let stats = m.stats.filter(|_| m.lost == 0)?;
                    Some(SweepPoint {
                        x: numbers.as_ref().map_or(i as f64, |xs| xs[i]),
                        mean: stats.mean,
                        ci95: stats.ci95,
                    })
                })
                .collect();
            if !points.is_empty() {
                lines.push(SweepLine { name, points });
            }
        }
    }
    if lines.is_empty() {
        return None;
    }
    let seeds = means.first().map_or(1, |m| m.seeds);
    let m = &first.metadata;
    let window = if m.omit_s > 0.0 {
        format!("{} s to {} s", m.omit_s, m.duration_s)
    } else {
        format!("{} s", m.duration_s)
    };
    Some(SweepFigure {
        title: format!("{scenario}: {y_label} vs {}", swept.key),
        caption: format!(
            "{seeds} seed(s) from {}, {window} of each run, mean ± 95% CI",
            m.seed
        ),
        x_label: swept.key.clone(),
        y_label: y_label.to_string(),
        x,
        lines,
    })
}
