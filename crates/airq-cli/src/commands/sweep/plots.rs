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
    // Points a drawn line has no value at: said in the caption, not left to the axis.
    let mut missing: Vec<(String, Vec<String>)> = Vec::new();
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
            let mut gaps = Vec::new();
            let points: Vec<SweepPoint> = (0..swept.values.len())
                .filter_map(|i| {
                    let point: Vec<usize> =
                        std::iter::once(i).chain(rest.iter().copied()).collect();
                    let m = means.iter().find(|m| {
                        m.point == point
                            && m.variant == v.name
                            && m.station == "*"
                            && m.metric == metric
                    });
                    let Some(stats) = m.and_then(|m| m.stats.filter(|_| m.lost == 0)) else {
                        gaps.push(i);
                        return None;
                    };
                    Some(SweepPoint {
                        x: numbers.as_ref().map_or(i as f64, |xs| xs[i]),
                        mean: stats.mean,
                        ci95: stats.ci95,
                    })
                })
                .collect();
            if !points.is_empty() {
                for i in gaps {
                    let at = format!("{}={}", swept.key, unquoted(&swept.values[i]));
                    match missing.iter_mut().find(|(a, _)| *a == at) {
                        Some((_, names)) => names.push(name.clone()),
                        None => missing.push((at, vec![name.clone()])),
                    }
                }
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
    let gaps: String = missing
        .iter()
        .map(|(at, names)| format!("; no value at {at} for {}", names.join(", ")))
        .collect();
    let gaps = match gaps.is_empty() {
        true => gaps,
        false => format!("{gaps} (nothing delivered, or a percentile among lost pings)"),
    };
    Some(SweepFigure {
        title: format!("{scenario}: {y_label} vs {}", swept.key),
        caption: format!(
            "{seeds} seed(s) from {}, {window} of each run, mean ± 95% CI{gaps}",
            m.seed
        ),
        x_label: swept.key.clone(),
        y_label: y_label.to_string(),
        x,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repeat::MeanCi;

    fn mean(x: usize, value: Option<f64>) -> Mean {
        Mean {
            point: vec![x],
            variant: "airtime".into(),
            preset: "airtime".into(),
            station: "*".into(),
            metric: "airtime_jain",
            stats: value.map(|mean| MeanCi {
                mean,
                ci95: None,
                n: 1,
            }),
            lost: 0,
            seeds: 1,
        }
    }

    /// A point without a value (a run that delivered nothing) is named in the caption,
    /// not left for the reader to miss on the axis.
    #[test]
    fn a_point_without_a_value_is_named_in_the_caption() {
        let corpus = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fuzz/corpus/results_file/kitchen-sink-plain-seed2.json.gz"
        );
        let first = crate::results::load(std::path::Path::new(corpus)).unwrap();
        let params = [Param::parse("station.sta.attenuation_db=0,80").unwrap()];
        let variants = [Variant::preset("airtime")];
        let jain = |means: &[Mean]| {
            figure(
                "s",
                &params,
                means,
                &variants,
                &first,
                "airtime_jain",
                "Jain",
            )
        };
        let whole = jain(&[mean(0, Some(1.0)), mean(1, Some(0.9))]).unwrap();
        assert!(!whole.caption.contains("no value"), "{}", whole.caption);
        let gap = jain(&[mean(0, Some(1.0)), mean(1, None)]).unwrap();
        assert_eq!(gap.lines[0].points.len(), 1);
        assert!(
            gap.caption.ends_with(
                "; no value at station.sta.attenuation_db=80 for airtime (nothing delivered, \
                 or a percentile among lost pings)"
            ),
            "{}",
            gap.caption
        );
        // Without the point's row at all (no seed had a value), the same.
        let absent = jain(&[mean(0, Some(1.0))]).unwrap();
        assert_eq!(absent.caption, gap.caption);
        assert!(jain(&[mean(0, None), mean(1, None)]).is_none());
    }
}
