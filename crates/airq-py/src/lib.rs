//! # airq-py
//!
//! The native part of the Python package `airq` (`airq._airq`): scenarios loaded and
//! checked by airq-cli's code, runs made by its `run_all` with the GIL released (every
//! core, results in the order asked whatever the thread count), results files in its
//! format, sweeps as its tidy CSV, and each run's figures as columns for pandas
//! (`frames`). The Python side (`python/airq/__init__.py`) turns them into DataFrames;
//! nothing here is a second copy of what the CLI does.

mod error;
mod frames;
mod runs;
mod source;
mod sweep;

use pyo3::prelude::*;

/// The module `airq._airq`.
#[pymodule]
fn _airq(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("AirqError", m.py().get_type::<error::AirqError>())?;
    m.add("PRESETS", airq_sim::ap::PRESET_NAMES.to_vec())?;
    m.add_class::<source::ScenarioSource>()?;
    m.add_class::<runs::Runs>()?;
    m.add_function(wrap_pyfunction!(source::load_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(source::parse_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(source::toml_text, m)?)?;
    m.add_function(wrap_pyfunction!(source::override_of, m)?)?;
    m.add_function(wrap_pyfunction!(runs::run, m)?)?;
    m.add_function(wrap_pyfunction!(runs::compare, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_points, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_point, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_table, m)?)?;
    m.add_function(wrap_pyfunction!(runs::runs_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(runs::join_runs, m)?)?;
    m.add_function(wrap_pyfunction!(runs::load, m)?)?;
    m.add_function(wrap_pyfunction!(runs::default_jobs, m)?)?;
    Ok(())
}
