//! `airq sweep SCENARIO --param key=v1,v2,... [--param ...]`: the scenario over the grid
//! of every parameter's values × the variants × the seeds, all runs in parallel
//! (deterministically: results come back in grid order whatever the thread count). Each
//! run writes its results file (the parameters are in its name, as `--set`s are); the
//! sweep writes one tidy table of every figure (one row per point × variant × seed ×
//! station × metric, for pandas or a spreadsheet), one of means and 95% confidence
//! intervals over seeds, and prints the key figures per point and variant. The tables
//! are named for the swept keys (`<scenario>-sweep-<keys>.csv`): they are redrawn from
//! the results files, which are never replaced by another experiment's.

use super::run::{compared, seeded};
use super::{run_and_write, Verbosity};
use crate::cli::RunArgs;
use crate::error::CliError;
use crate::execute::default_jobs;
use crate::outputs::write_atomically;
use crate::repeat::MeanCi;
use crate::results::ResultsFile;
use crate::run_set::unquoted;
use crate::scenario::overrides::Override;
use crate::scenario::variant::split_top_level;
use crate::scenario::{self, Variant};
use airq_report::{draw_sweep, SweepAxis, SweepFigure, SweepLine, SweepPoint};
use airq_sim::metrics::distribution::LossyPercentile;
use std::fmt::Write as _;
use std::io::Write as _;

/// Most points a sweep may have: beyond this it is a typo, not an experiment.
pub const MAX_POINTS: usize = 10_000;

/// One swept key and its values (TOML, as `--set` takes them).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The scenario key.
    pub key: String,
    /// Its values, in order.
    pub values: Vec<String>,
}

impl Param {
    /// Parses `key=v1,v2,...` (commas inside brackets or quotes do not split).
    pub fn parse(raw: &str) -> Result<Param, CliError> {
        let bad = |why: &str| CliError::new(format!("--param {raw}: {why}"));
        let (key, values) = raw
            .split_once('=')
            .ok_or_else(|| bad("expected key.path=v1,v2,..."))?;
        let key = key.trim().to_string();
        if key == "seed" {
            return Err(bad(
                "the seed is not a parameter: use --seeds N for repetitions",
            ));
        }
        let values: Vec<String> = split_top_level(values)
            .into_iter()
            .map(|v| v.trim().to_string())
            .collect();
        if values.is_empty() {
            return Err(bad("give at least one value"));
        }
        for (i, v) in values.iter().enumerate() {
            Override::parse_from(&format!("{key}={v}"), "--param")?;
            if values[..i].contains(v) {
                return Err(bad(&format!("the value {v} is listed twice")));
            }
        }
        Ok(Param { key, values })
    }
}

/// What one run of the sweep is: its point (an index into each parameter's values),
/// variant and seed.
#[derive(Clone, Debug)]
pub struct Cell {
    /// An index into each parameter's values.
    pub point: Vec<usize>,
    /// The variant's name.
    pub variant: String,
    /// Its AP preset.
    pub preset: String,
}

/// `airq sweep`.
pub fn sweep(
    args: &RunArgs,
    raw_params: &[String],
    configs: Option<&[String]>,
    variant_specs: &[String],
    jobs: Option<usize>,
    plots: bool,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    if jobs == Some(0) {
        return Err(CliError::new("--jobs: at least 1"));
    }
    let params: Vec<Param> = raw_params
        .iter()
        .map(|p| Param::parse(p))
        .collect::<Result<_, _>>()?;
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|o| o.key == p.key) {
            return Err(CliError::new(format!("--param {}: swept twice", p.key)));
        }
        if let Some(set) = args
            .set
            .iter()
            .find(|s| s.split_once('=').is_some_and(|(k, _)| k.trim() == p.key))
        {
            return Err(CliError::new(format!(
                "--param {} and --set {set}: the key is swept, so it cannot also be set",
                p.key
            )));
        }
    }
    let points: usize = params.iter().map(|p| p.values.len()).product();
    if points > MAX_POINTS {
        return Err(CliError::new(format!(
            "the grid has {points} points (the product of the values' counts); at most \
             {MAX_POINTS}"
        )));
    }
    let base = scenario::load(&args.scenario, &args.overrides())?;
    let variants = compared(&base, configs, variant_specs)?;
    let mut specs = Vec::new();
    let mut cells = Vec::new();
    for point in grid(&params) {
        let mut overrides = args.overrides();
        overrides.extend(
            params
                .iter()
                .zip(&point)
                .map(|(p, &v)| format!("{}={}", p.key, p.values[v])),
        );
        let made = seeded(&args.scenario, &overrides, args.seeds, &variants).map_err(|e| {
            e.context(format!(
                "the sweep's point {}",
                overrides[overrides.len() - params.len()..].join(" ")
            ))
        })?;
        for spec in &made {
            cells.push(Cell {
                point: point.clone(),
                variant: spec.variant.name.clone(),
                preset: spec.preset.clone(),
            });
        }
        specs.extend(made);
    }
    let stem = format!(
        "{}-sweep-{}",
        base.name,
        crate::results::file_label(
            &params
                .iter()
                .map(|p| p.key.as_str())
                .collect::<Vec<_>>()
                .join(","),
            &[]
        )
    );
    let tidy_path = args.output.join(format!("{stem}.csv"));
    let means_path = args.output.join(format!("{stem}-means.csv"));
    let jobs = jobs.unwrap_or_else(default_jobs);
    let runs = run_and_write(&specs, jobs, args, verbosity)?;
    let rows = figures(&runs);
    let tidy = tidy_csv(&base.name, &params, &cells, &runs, &rows);
    write_atomically(&tidy_path, |w| w.write_all(tidy.as_bytes()))?;
    let means = means(&params, &cells, &rows, &variants);
    write_atomically(&means_path, |w| {
        w.write_all(means_csv(&base.name, &params, &means).as_bytes())
    })?;
    if verbosity != Verbosity::Quiet {
        print!(
            "{}",
            sweep_table(&base.name, &params, &means, &variants, &runs[0])
        );
        println!(
            "{} runs: results in {}\ntidy table: {}\nmeans: {}",
            runs.len(),
            args.output.display(),
            tidy_path.display(),
            means_path.display()
        );
    }
    if plots {
        for (metric, y_label) in PLOTTED {
            let Some(figure) = figure(
                &base.name, &params, &means, &variants, &runs[0], metric, y_label,
            ) else {
                continue;
            };
            let path = args.output.join(format!("{stem}-{metric}.png"));
            draw_sweep(&figure, &path).map_err(|e| {
                CliError::new(format!("cannot draw the sweep's {metric} plot: {e}"))
            })?;
            if verbosity != Verbosity::Quiet {
                println!("plot: {}", path.display());
            }
        }
    }
    Ok(())
}

/// The figures a sweep plots against its first parameter: (metric, y axis).
const PLOTTED: [(&str, &str); 3] = [
    ("total_goodput_mbps", "total goodput, Mbit/s"),
    ("airtime_jain", "Jain's index of airtime shares"),
    ("worst_ping_p99_ms", "ping p99 of the worst station, ms"),
];

/// `metric` of the whole BSS against the first parameter: a line per variant (and per
/// combination of the other parameters' values), each point the mean over seeds with
/// its 95% interval; `None` when no point has the metric (no ping, say). A point some
/// seed lost (a percentile among lost pings) is left out of its line.
fn figure(
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

/// Every point of the grid, the first parameter varying slowest.
pub fn grid(params: &[Param]) -> Vec<Vec<usize>> {
    let mut points: Vec<Vec<usize>> = vec![Vec::new()];
    for p in params {
        points = points
            .into_iter()
            .flat_map(|point| {
                (0..p.values.len()).map(move |v| {
                    let mut next = point.clone();
                    next.push(v);
                    next
                })
            })
            .collect();
    }
    points
}

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
            let mut worst_p99 = f64::NEG_INFINITY;
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
                if let Some(p) = r.station_ping(&s.name) {
                    worst_p99 = worst_p99.max(match p.p99 {
                        LossyPercentile::Value(v) => v,
                        LossyPercentile::Lost => f64::INFINITY,
                    });
                    let ms = |l: LossyPercentile| match l {
                        LossyPercentile::Value(v) => v,
                        LossyPercentile::Lost => f64::INFINITY,
                    };
                    push("ping_p50_ms", ms(p.p50));
                    push("ping_p90_ms", ms(p.p90));
                    push("ping_p99_ms", ms(p.p99));
                    if let Some(loss) = p.loss() {
                        push("ping_loss", loss);
                    }
                }
            }
            if worst_p99 > f64::NEG_INFINITY {
                out.push(Figure {
                    station: "*".into(),
                    metric: "worst_ping_p99_ms",
                    value: worst_p99,
                });
            }
            out
        })
        .collect()
}

/// A CSV field: quoted when it holds a comma, quote or newline.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The parameters' columns of a point.
fn point_fields(params: &[Param], point: &[usize]) -> String {
    params
        .iter()
        .zip(point)
        .map(|(p, &v)| field(&unquoted(&p.values[v])))
        .collect::<Vec<_>>()
        .join(",")
}

fn header(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| field(&p.key))
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
                field(scenario),
                field(&cell.variant),
                cell.preset,
                point_fields(params, &cell.point),
                r.metadata.seed,
                r.metadata.duration_s,
                field(&f.station),
                f.metric,
                f.value
            );
        }
    }
    out
}

/// One figure over the seeds of a point and variant.
struct Mean {
    point: Vec<usize>,
    variant: String,
    preset: String,
    station: String,
    metric: &'static str,
    /// Over the seeds whose value is finite.
    stats: Option<MeanCi>,
    /// Seeds whose value was infinite (a ping percentile among lost pings).
    lost: usize,
    seeds: usize,
}

/// The figures of `rows` over seeds, in grid order, variants in their order.
fn means(
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

fn means_csv(scenario: &str, params: &[Param], means: &[Mean]) -> String {
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
            field(scenario),
            field(&m.variant),
            m.preset,
            point_fields(params, &m.point),
            field(&m.station),
            m.metric,
            m.seeds,
            m.lost
        );
    }
    out
}

/// Total goodput and Jain's index per point (rows) and variant (columns).
fn sweep_table(
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
                    .map_or(String::new(), |s| s.show(decimals));
                let _ = write!(out, "  {cell:>w$}");
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_and_the_grid_varies_the_last_fastest() {
        let p = Param::parse("ap.fq_mac.target_ms=5,20").unwrap();
        assert_eq!(p.values, ["5", "20"]);
        let q = Param::parse("ap.qdisc=\"pfifo_fast\",fq_codel").unwrap();
        assert_eq!(q.values, ["\"pfifo_fast\"", "fq_codel"]);
        assert_eq!(grid(&[p, q]), [[0, 0], [0, 1], [1, 0], [1, 1]]);
        for (bad, why) in [
            ("seed=1,2", "--seeds"),
            ("x", "expected key.path"),
            ("a=1,1", "listed twice"),
            ("a..b=1", "empty key"),
        ] {
            let e = Param::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
    }
}
