//! `airq.AirqError`: every error of the CLI's code reaches Python as this exception, its
//! message the CLI's own (file, line, key, what to do).

use airq_cli::CliError;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;

create_exception!(
    airq,
    AirqError,
    PyException,
    "What airq could not do: a scenario's bad key or value (its message names the file, \
     line and key), a bad override, variant or parameter, a results file that cannot be \
     read or written."
);

/// The CLI's error as an `AirqError`.
pub fn to_py(e: CliError) -> PyErr {
    AirqError::new_err(e.message().to_string())
}
