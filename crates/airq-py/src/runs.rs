//! Runs from Python, as `airq run`, `airq compare` and `airq sweep` make them: the
//! variants resolved by airq-cli (`compared`, `variant::from_command_line`,
//! `run_set::resolve`), every run built and checked before any starts, then made by
//! `execute::run_all` on `jobs` threads with the GIL released. [`Runs`] holds the
//! results files, in the order asked for (seed by seed, each seed's variants in order;
//! a sweep's points first), and hands them to Python as columns, JSON or files.

use crate::error::to_py;
use crate::frames;
use crate::source::ScenarioSource;
use airq::Duration;
use airq_cli::commands::run::compared;
use airq_cli::commands::warnings;
use airq_cli::execute::{self, run_all, Plan};
use airq_cli::progress::Progress;
use airq_cli::results::{self, ResultsFile};
use airq_cli::run_set::{self, RunSpec};
use airq_cli::scenario::{variant, Variant};
use airq_cli::CliError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::Path;

/// The results files of some runs, in order.
#[pyclass(module = "airq._airq", frozen)]
pub struct Runs {
    pub(crate) runs: Vec<ResultsFile>,
}

#[pymethods]
impl Runs {
    fn __len__(&self) -> usize {
        self.runs.len()
    }

    /// The runs `indices` picks, in that order.
    fn take(&self, indices: Vec<usize>) -> PyResult<Runs> {
        let runs = indices
            .iter()
            .map(|&i| self.get(i).cloned())
            .collect::<PyResult<_>>()?;
        Ok(Runs { runs })
    }

    /// The runs of `self` then those of `other`.
    fn concat(&self, other: &Runs) -> Runs {
        Runs {
            runs: self.runs.iter().chain(&other.runs).cloned().collect(),
        }
    }

    /// Run `i`'s metadata as JSON.
    fn metadata_json(&self, i: usize) -> PyResult<String> {
        serde_json::to_string(&self.get(i)?.metadata)
            .map_err(|e| to_py(CliError::new(format!("cannot encode the metadata: {e}"))))
    }

    /// Run `i`'s whole results file as JSON (what `save` compresses).
    fn to_json(&self, i: usize) -> PyResult<String> {
        serde_json::to_string(self.get(i)?)
            .map_err(|e| to_py(CliError::new(format!("cannot encode the results: {e}"))))
    }

    /// The file name `airq` gives run `i` (`<scenario>-<label>-seed<N>.json.gz`).
    fn file_name(&self, i: usize) -> PyResult<String> {
        let m = &self.get(i)?.metadata;
        Ok(results::file_name(&m.scenario, &m.file_label(), m.seed))
    }

    /// Writes run `i` to `path` in airq's results format (gzip-compressed JSON).
    fn save(&self, py: Python<'_>, i: usize, path: &str) -> PyResult<()> {
        let r = self.get(i)?;
        py.detach(|| results::save(r, Path::new(path)))
            .map_err(to_py)
    }

    /// What `airq` would warn about: stalls, starved stations, runs that delivered
    /// nothing.
    fn warnings(&self) -> Vec<String> {
        self.runs.iter().flat_map(warnings).collect()
    }

    /// The table `kind` (`stations`, `flows`, `series`, `flow_series`, `ap_series`,
    /// `pings`) of every run, as `{column: list}`.
    fn frame<'py>(&self, py: Python<'py>, kind: &str) -> PyResult<Bound<'py, PyDict>> {
        frames::frame(kind, &self.runs)
            .map_err(to_py)?
            .into_dict(py)
    }

    /// Pickling (how a Ray task sends its runs back): the results files as one JSON
    /// array, read back by [`runs_from_json`] to the very same values.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let json = py
            .detach(|| serde_json::to_string(&self.runs))
            .map_err(|e| to_py(CliError::new(format!("cannot encode the results: {e}"))))?;
        let from_json = py.import("airq._airq")?.getattr("runs_from_json")?;
        Ok((from_json, (json,)))
    }
}

/// The runs of `parts`, one after the other.
#[pyfunction]
pub fn join_runs(parts: Vec<PyRef<'_, Runs>>) -> Runs {
    Runs {
        runs: parts.iter().flat_map(|p| p.runs.iter().cloned()).collect(),
    }
}

/// The runs of a JSON array of results files (what `Runs` pickles to).
#[pyfunction]
pub fn runs_from_json(py: Python<'_>, json: &str) -> PyResult<Runs> {
    let runs = py
        .detach(|| serde_json::from_str(json))
        .map_err(|e| to_py(CliError::new(format!("cannot decode pickled results: {e}"))))?;
    Ok(Runs { runs })
}

impl Runs {
    fn get(&self, i: usize) -> PyResult<&ResultsFile> {
        self.runs.get(i).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("run {i} of {}", self.runs.len()))
        })
    }
}

/// Worker threads by default: the machine's parallelism.
#[pyfunction]
pub fn default_jobs() -> usize {
    execute::default_jobs()
}

/// Reads a results file (any format version airq reads).
#[pyfunction]
pub fn load(py: Python<'_>, path: &str) -> PyResult<Runs> {
    let r = py
        .detach(|| results::load(Path::new(path)))
        .map_err(to_py)?;
    Ok(Runs { runs: vec![r] })
}

/// `airq run`: one variant (a preset, a `[[variant]]`, or `NAME:key=value,...`; by
/// default the scenario's preset) under the seeds asked for.
#[pyfunction]
#[pyo3(signature = (scenario, variant, overrides, seeds, jobs, command_line))]
pub fn run(
    py: Python<'_>,
    scenario: &ScenarioSource,
    variant: Option<&str>,
    overrides: Vec<String>,
    seeds: Option<u32>,
    jobs: Option<usize>,
    command_line: Vec<String>,
) -> PyResult<Runs> {
    let base = scenario.parse(&overrides).map_err(to_py)?;
    let variant = match variant {
        Some(spec) => variant::from_command_line(spec, &base.variants).map_err(to_py)?,
        None => Variant::preset(&base.ap.preset),
    };
    let specs = seeded(scenario, &overrides, seeds, &[variant]).map_err(to_py)?;
    execute_all(py, &specs, jobs, &command_line)
}

/// `airq compare`: `configs` (presets) then `variants` (specs), else the scenario's
/// `[[variant]]`s, else every preset; under the seeds asked for.
#[pyfunction]
#[pyo3(signature = (scenario, configs, variants, overrides, seeds, jobs, command_line))]
#[allow(clippy::too_many_arguments)] // The Python call's arguments, one each.
pub fn compare(
    py: Python<'_>,
    scenario: &ScenarioSource,
    configs: Option<Vec<String>>,
    variants: Vec<String>,
    overrides: Vec<String>,
    seeds: Option<u32>,
    jobs: Option<usize>,
    command_line: Vec<String>,
) -> PyResult<Runs> {
    let base = scenario.parse(&overrides).map_err(to_py)?;
    let variants = compared(&base, configs.as_deref(), &variants).map_err(to_py)?;
    let specs = seeded(scenario, &overrides, seeds, &variants).map_err(to_py)?;
    execute_all(py, &specs, jobs, &command_line)
}

/// The runs of `variants` of `scenario` with `overrides`, under every seed `seeds`
/// (else the scenario's `seeds`) asks for, seed by seed: `airq`'s rule
/// (`commands::run::seeded`) on a scenario that need not be a file.
pub(crate) fn seeded(
    scenario: &ScenarioSource,
    overrides: &[String],
    seeds: Option<u32>,
    variants: &[Variant],
) -> Result<Vec<RunSpec>, CliError> {
    if seeds == Some(0) {
        return Err(CliError::new("seeds: at least 1"));
    }
    let base = scenario.parse(overrides)?;
    let n = seeds.unwrap_or(base.seeds);
    if seeds.is_none() && n == 1 {
        return run_set::resolve(&base, variants);
    }
    let mut specs = Vec::new();
    for k in 0..u64::from(n) {
        let seed = base.seed.checked_add(k).ok_or_else(|| {
            CliError::new(format!("seeds {n}: seed {} + {k} overflows", base.seed))
        })?;
        let mut overrides: Vec<String> = overrides
            .iter()
            .filter(|o| !o.starts_with("seed="))
            .cloned()
            .collect();
        overrides.push(format!("seed={seed}"));
        specs.extend(run_set::resolve(&scenario.parse(&overrides)?, variants)?);
    }
    Ok(specs)
}

/// Makes every run of `specs` on `jobs` threads (default: every core), the GIL
/// released.
pub(crate) fn execute_all(
    py: Python<'_>,
    specs: &[RunSpec],
    jobs: Option<usize>,
    command_line: &[String],
) -> PyResult<Runs> {
    if jobs == Some(0) {
        return Err(to_py(CliError::new("jobs: at least 1")));
    }
    let jobs = jobs.unwrap_or_else(execute::default_jobs);
    let runs = py
        .detach(|| {
            let progress = Progress::new(false, specs.len(), Duration::ZERO);
            run_all(&Plan {
                runs: specs,
                jobs,
                progress: &progress,
                verbose: false,
                command_line,
                pcap: None,
            })
        })
        .map_err(to_py)?;
    Ok(Runs { runs })
}
