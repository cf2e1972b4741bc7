//! Sweeps from Python, as `airq sweep` makes them (`commands::sweep`): the grid of the
//! swept keys' values (the first varying slowest) × the variants × the seeds, checked
//! whole before any run starts, and the tidy CSV `airq sweep` writes. A sweep runs here
//! on threads (`sweep`), or point by point elsewhere — each point one Ray task calling
//! [`sweep_point`], its runs sent back pickled (`Runs::__reduce__`) — and then
//! [`sweep_table`] joins the points' runs, in the grid's order, into the same table:
//! every run depends only on its scenario, variant and seed, so where it ran changes
//! no figure.

use crate::error::to_py;
use crate::runs::{execute_all, seeded, Runs};
use crate::source::ScenarioSource;
use airq_cli::commands::run::compared;
use airq_cli::commands::sweep::{figures, grid, tidy_csv, Cell, Param, MAX_POINTS};
use airq_cli::results::ResultsFile;
use airq_cli::run_set::RunSpec;
use airq_cli::scenario::Variant;
use airq_cli::CliError;
use pyo3::prelude::*;

/// A sweep's plan: every run of the grid with its cell of the table, in the grid's
/// order (points first, then seed by seed, each seed's variants in order).
struct SweepPlan {
    /// The scenario's name (the table's `scenario` column).
    name: String,
    params: Vec<Param>,
    /// Each point's `key=value`s, one per swept key.
    sets: Vec<Vec<String>>,
    specs: Vec<RunSpec>,
    cells: Vec<Cell>,
}

impl SweepPlan {
    /// Checks the parameters and builds every run of the grid, as `airq sweep` does.
    fn new(
        scenario: &ScenarioSource,
        params: &[(String, Vec<String>)],
        configs: Option<&[String]>,
        variants: &[String],
        overrides: &[String],
        seeds: Option<u32>,
    ) -> Result<SweepPlan, CliError> {
        let params = sweep_params(params, &scenario.with(overrides))?;
        let base = scenario.parse(overrides)?;
        let variants = compared(&base, configs, variants)?;
        let mut plan = SweepPlan {
            name: base.name,
            params: Vec::new(),
            sets: Vec::new(),
            specs: Vec::new(),
            cells: Vec::new(),
        };
        for point in grid(&params) {
            let set: Vec<String> = params
                .iter()
                .zip(&point)
                .map(|(p, &v)| format!("{}={}", p.key, p.values[v]))
                .collect();
            let specs = point_specs(scenario, overrides, &set, seeds, &variants)?;
            plan.cells.extend(specs.iter().map(|spec| Cell {
                point: point.clone(),
                variant: spec.variant.name.clone(),
                preset: spec.preset.clone(),
            }));
            plan.specs.extend(specs);
            plan.sets.push(set);
        }
        plan.params = params;
        Ok(plan)
    }

    /// The tidy CSV of `runs`, the plan's runs in its order.
    fn table(&self, runs: &[ResultsFile]) -> Result<String, CliError> {
        if self.cells.len() != runs.len() {
            return Err(CliError::new(format!(
                "the sweep has {} runs but {} came back",
                self.cells.len(),
                runs.len()
            )));
        }
        Ok(tidy_csv(
            &self.name,
            &self.params,
            &self.cells,
            runs,
            &figures(runs),
        ))
    }
}

/// The runs of one point: `variants` under the seeds, with the call's overrides then
/// the point's `set`.
fn point_specs(
    scenario: &ScenarioSource,
    overrides: &[String],
    set: &[String],
    seeds: Option<u32>,
    variants: &[Variant],
) -> Result<Vec<RunSpec>, CliError> {
    let all: Vec<String> = overrides.iter().chain(set).cloned().collect();
    let specs = seeded(scenario, &all, seeds, variants)
        .map_err(|e| e.context(format!("the sweep's point {}", set.join(" "))))?;
    let keys = set.iter().filter_map(|s| s.split_once('=').map(|(k, _)| k));
    airq_cli::unused::check_params(keys, &specs)?;
    Ok(specs)
}

/// `airq sweep`: the grid of `params` (`(key, [TOML values])`, the first varying
/// slowest) × the variants × the seeds, on `jobs` threads. Returns the tidy CSV `airq
/// sweep` writes and the runs.
#[pyfunction]
#[pyo3(signature = (scenario, params, configs, variants, overrides, seeds, jobs, command_line))]
#[allow(clippy::too_many_arguments)] // The Python call's arguments, one each.
pub fn sweep(
    py: Python<'_>,
    scenario: &ScenarioSource,
    params: Vec<(String, Vec<String>)>,
    configs: Option<Vec<String>>,
    variants: Vec<String>,
    overrides: Vec<String>,
    seeds: Option<u32>,
    jobs: Option<usize>,
    command_line: Vec<String>,
) -> PyResult<(String, Runs)> {
    let plan = SweepPlan::new(
        scenario,
        &params,
        configs.as_deref(),
        &variants,
        &overrides,
        seeds,
    )
    .map_err(to_py)?;
    let runs = execute_all(py, &plan.specs, jobs, &command_line)?;
    let csv = plan.table(&runs.runs).map_err(to_py)?;
    Ok((csv, runs))
}

/// The points of a sweep, checked as [`sweep`] checks them (every run of every point
/// built): each point's `key=value`s, in the grid's order. A point's runs are
/// [`sweep_point`]'s.
#[pyfunction]
#[pyo3(signature = (scenario, params, configs, variants, overrides, seeds))]
pub fn sweep_points(
    scenario: &ScenarioSource,
    params: Vec<(String, Vec<String>)>,
    configs: Option<Vec<String>>,
    variants: Vec<String>,
    overrides: Vec<String>,
    seeds: Option<u32>,
) -> PyResult<Vec<Vec<String>>> {
    let plan = SweepPlan::new(
        scenario,
        &params,
        configs.as_deref(),
        &variants,
        &overrides,
        seeds,
    )
    .map_err(to_py)?;
    Ok(plan.sets)
}

/// The runs of one point of a sweep (its `key=value`s `set`, as [`sweep_points`] gave
/// them), on `jobs` threads: the same runs, in the same order, as [`sweep`] makes for
/// that point.
#[pyfunction]
#[pyo3(signature = (scenario, set, configs, variants, overrides, seeds, jobs, command_line))]
#[allow(clippy::too_many_arguments)] // The Python call's arguments, one each.
pub fn sweep_point(
    py: Python<'_>,
    scenario: &ScenarioSource,
    set: Vec<String>,
    configs: Option<Vec<String>>,
    variants: Vec<String>,
    overrides: Vec<String>,
    seeds: Option<u32>,
    jobs: Option<usize>,
    command_line: Vec<String>,
) -> PyResult<Runs> {
    let base = scenario.parse(&overrides).map_err(to_py)?;
    let variants = compared(&base, configs.as_deref(), &variants).map_err(to_py)?;
    let specs = point_specs(scenario, &overrides, &set, seeds, &variants).map_err(to_py)?;
    execute_all(py, &specs, jobs, &command_line)
}

/// The tidy CSV of a sweep whose runs were made point by point ([`sweep_point`]) and
/// joined in the grid's order; the same text [`sweep`] returns for those runs.
#[pyfunction]
#[pyo3(signature = (scenario, params, configs, variants, overrides, seeds, runs))]
#[allow(clippy::too_many_arguments)] // The Python call's arguments, one each.
pub fn sweep_table(
    scenario: &ScenarioSource,
    params: Vec<(String, Vec<String>)>,
    configs: Option<Vec<String>>,
    variants: Vec<String>,
    overrides: Vec<String>,
    seeds: Option<u32>,
    runs: &Runs,
) -> PyResult<String> {
    let plan = SweepPlan::new(
        scenario,
        &params,
        configs.as_deref(),
        &variants,
        &overrides,
        seeds,
    )
    .map_err(to_py)?;
    plan.table(&runs.runs).map_err(to_py)
}

/// The sweep's parameters, checked as `airq sweep` checks `--param`s: each key once,
/// none also among the overrides, at most [`MAX_POINTS`] points.
fn sweep_params(
    raw: &[(String, Vec<String>)],
    overrides: &[String],
) -> Result<Vec<Param>, CliError> {
    if raw.is_empty() {
        return Err(CliError::new("params: name at least one key to sweep"));
    }
    let mut params: Vec<Param> = Vec::with_capacity(raw.len());
    for (key, values) in raw {
        let p = Param::parse(&format!("{key}={}", values.join(",")))?;
        if params.iter().any(|o| o.key == p.key) {
            return Err(CliError::new(format!("--param {}: swept twice", p.key)));
        }
        if let Some(set) = overrides
            .iter()
            .find(|s| s.split_once('=').is_some_and(|(k, _)| k.trim() == p.key))
        {
            return Err(CliError::new(format!(
                "--param {} and override {set}: the key is swept, so it cannot also be set",
                p.key
            )));
        }
        params.push(p);
    }
    let points: usize = params.iter().map(|p| p.values.len()).product();
    if points > MAX_POINTS {
        return Err(CliError::new(format!(
            "the grid has {points} points (the product of the values' counts); at most \
             {MAX_POINTS}"
        )));
    }
    Ok(params)
}
