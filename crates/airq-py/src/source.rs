//! Scenarios from Python: a file, a bundled scenario's name, TOML text or a dict, kept as
//! the text it was read from plus its overrides so that every run re-parses it the way
//! `airq` does (`scenario::parse`), with the call's own overrides after the scenario's.
//! Python values become TOML values here, so a dict and an override are checked by the
//! same validation as a file and `--set`, with the same messages.

use crate::error::to_py;
use airq_cli::scenario::{self, bundled, Scenario};
use airq_cli::CliError;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::path::Path;

/// `parse_scenario`'s arguments: file, text, overrides.
type ScenarioArgs = (String, String, Vec<String>);

/// A checked scenario: where it came from, its text before any override, and its own
/// overrides (`key.path=value`).
#[pyclass(module = "airq._airq", frozen)]
pub struct ScenarioSource {
    /// The file as named (or `<dict>`, `<text>`): errors name it.
    pub file: String,
    /// The text as read, no override applied.
    pub text: String,
    /// Overrides of the scenario itself, in order.
    pub overrides: Vec<String>,
    /// The scenario parsed with them.
    pub parsed: Scenario,
}

impl ScenarioSource {
    /// Parses `file`'s `text` with `overrides`.
    pub fn new(file: String, text: String, overrides: Vec<String>) -> Result<Self, CliError> {
        let parsed = scenario::parse(&file, &text, &overrides)?;
        Ok(ScenarioSource {
            file,
            text,
            overrides,
            parsed,
        })
    }

    /// The scenario with `more` overrides after its own.
    pub fn parse(&self, more: &[String]) -> Result<Scenario, CliError> {
        scenario::parse(&self.file, &self.text, &self.with(more))
    }

    /// Its overrides followed by `more`.
    pub fn with(&self, more: &[String]) -> Vec<String> {
        self.overrides.iter().chain(more).cloned().collect()
    }
}

#[pymethods]
impl ScenarioSource {
    /// The scenario's `name`.
    #[getter]
    fn name(&self) -> &str {
        &self.parsed.name
    }

    /// The scenario's `description`.
    #[getter]
    fn description(&self) -> &str {
        &self.parsed.description
    }

    /// The file it was read from (`<dict>` for a dict, `<text>` for TOML text).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// Its TOML text as read, before the overrides.
    #[getter]
    fn source_text(&self) -> &str {
        &self.text
    }

    /// Its TOML text with the overrides applied: what a run of it depends on.
    #[getter]
    fn text(&self) -> &str {
        &self.parsed.text
    }

    /// Its overrides, `key.path=value`.
    #[getter]
    fn overrides(&self) -> Vec<String> {
        self.overrides.clone()
    }

    /// Simulated seconds.
    #[getter]
    fn duration_s(&self) -> f64 {
        self.parsed.duration.as_secs_f64()
    }

    /// The warm-up left out of every summary, s.
    #[getter]
    fn omit_s(&self) -> f64 {
        self.parsed.omit.as_secs_f64()
    }

    /// The root seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.parsed.seed
    }

    /// Repetitions it asks for (seeds from `seed` on).
    #[getter]
    fn seeds(&self) -> u32 {
        self.parsed.seeds
    }

    /// The AP preset a run uses unless told otherwise.
    #[getter]
    fn preset(&self) -> &str {
        &self.parsed.ap.preset
    }

    /// Station names, `count` groups expanded.
    #[getter]
    fn stations(&self) -> Vec<String> {
        self.parsed
            .stations
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    /// Names of its `[[variant]]` tables.
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.parsed
            .variants
            .iter()
            .map(|v| v.name.clone())
            .collect()
    }

    /// The same scenario with `overrides` after its own.
    fn with_overrides(&self, overrides: Vec<String>) -> PyResult<ScenarioSource> {
        ScenarioSource::new(self.file.clone(), self.text.clone(), self.with(&overrides))
            .map_err(to_py)
    }

    /// Pickling (how a scenario reaches a Ray task): its file name, text and
    /// overrides, parsed again by `parse_scenario`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, ScenarioArgs)> {
        let parse = py.import("airq._airq")?.getattr("parse_scenario")?;
        Ok((
            parse,
            (self.file.clone(), self.text.clone(), self.overrides.clone()),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<airq.Scenario {:?} from {}{}>",
            self.parsed.name,
            self.file,
            if self.overrides.is_empty() {
                String::new()
            } else {
                format!(" with {}", self.overrides.join(" "))
            }
        )
    }
}

/// Reads the scenario at `path`, or the bundled one of that name, as `airq` does.
#[pyfunction]
pub fn load_scenario(path: &str, overrides: Vec<String>) -> PyResult<ScenarioSource> {
    // `scenario::load` words the errors (no such file, no bundled scenario of that name).
    scenario::load(Path::new(path), &overrides).map_err(to_py)?;
    let p = Path::new(path);
    let text = match bundled::find(path) {
        Some(text) if !p.exists() && p.components().count() == 1 => text.to_string(),
        _ => std::fs::read_to_string(p)
            .map_err(|e| to_py(airq_cli::error::io_error("cannot read", p, e)))?,
    };
    ScenarioSource::new(path.to_string(), text, overrides).map_err(to_py)
}

/// Parses scenario `text`, its errors naming `file`.
#[pyfunction]
pub fn parse_scenario(file: &str, text: &str, overrides: Vec<String>) -> PyResult<ScenarioSource> {
    ScenarioSource::new(file.to_string(), text.to_string(), overrides).map_err(to_py)
}

/// The TOML text of a dict (tables are dicts, arrays lists or tuples).
#[pyfunction]
pub fn toml_text(table: &Bound<'_, PyDict>) -> PyResult<String> {
    let toml::Value::Table(t) = toml_value(table.as_any(), "")? else {
        unreachable!("a dict is a table")
    };
    toml::to_string(&t).map_err(|e| PyTypeError::new_err(format!("not TOML: {e}")))
}

/// `key=value` with a Python value as a TOML literal (`"fq_codel"`, `5`, `0.5`, `[1, 2]`),
/// as `--set` takes it.
#[pyfunction]
pub fn override_of(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(format!("{key}={}", toml_value(value, key)?))
}

/// `value` as TOML; `at` names it in an error.
fn toml_value(value: &Bound<'_, PyAny>, at: &str) -> PyResult<toml::Value> {
    let at_key = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    // bool before int: Python's bool is an int.
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(toml::Value::Boolean(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        let i: i64 = value.extract().map_err(|_| {
            PyTypeError::new_err(format!("{at}: {value} does not fit TOML's 64-bit integer"))
        })?;
        return Ok(toml::Value::Integer(i));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(toml::Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = value.cast::<PyDict>() {
        let mut table = toml::Table::new();
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("{at}: keys must be strings")))?;
            let v = toml_value(&v, &at_key(&key))?;
            table.insert(key, v);
        }
        return Ok(toml::Value::Table(table));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value
            .try_iter()?
            .enumerate()
            .map(|(i, v)| toml_value(&v?, &format!("{at}[{i}]")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(toml::Value::Array(items));
    }
    let what = value.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "{}: a {what} has no TOML value (use str, int, float, bool, list or dict)",
        if at.is_empty() { "scenario" } else { at }
    )))
}
