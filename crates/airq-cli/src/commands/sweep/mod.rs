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
use crate::scenario;
use crate::scenario::overrides::Override;
use crate::scenario::variant::split_top_level;
use airq_report::draw_sweep;
use std::io::Write as _;

mod plots;
mod tables;

use plots::{figure, PLOTTED};
pub use tables::{figures, tidy_csv, Figure};
use tables::{means, means_csv, sweep_table, Mean};

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
        if key == "duration" {
            // A results file's name leaves the duration out (a run of other length
            // replaces it, with --force), so the points would share their files.
            return Err(bad(
                "the duration is not a parameter: the points would share their results \
                 files; run a sweep per --duration",
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
        crate::unused::check_params(params.iter().map(|p| p.key.as_str()), &made)?;
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
        // One seed's runs: each point under each variant, named by the variant and
        // the --sets that tell the runs apart (the point's).
        let first_seed: Vec<&crate::results::Metadata> = runs
            .iter()
            .map(|r| &r.metadata)
            .filter(|m| m.seed == runs[0].metadata.seed)
            .collect();
        let label = |m: &crate::results::Metadata| {
            let own = m
                .overrides
                .iter()
                .filter(|o| !first_seed.iter().all(|other| other.overrides.contains(o)));
            std::iter::once(m.variant.as_str())
                .chain(own.map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ")
        };
        print!(
            "{}{}",
            sweep_table(&base.name, &params, &means, &variants, &runs[0]),
            crate::table::derived_differences(&first_seed, &label)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::csv_field as field;

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
