//! The one error type of this crate: every bad input, missing datum and I/O failure comes
//! back as a [`ReportError`] value that says what went wrong and where; nothing panics.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a plot or a flent file could not be written.
#[derive(Debug)]
pub enum ReportError {
    /// The output path's extension picks no format (plots take `.png` or `.svg`, flent
    /// files `.flent.gz`).
    UnsupportedExtension {
        /// The path as given.
        path: PathBuf,
        /// The extensions this writer accepts.
        expected: &'static str,
    },
    /// The input has nothing to draw or export for this output.
    EmptyData {
        /// What was missing, e.g. "no run has driver_queue samples".
        what: String,
    },
    /// A value in the input is out of its domain (NaN, negative, duplicated name, ...).
    InvalidData {
        /// Where in the input, e.g. `run "fq_mac", station "slow", ping_rtt_ms[3]`.
        location: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The plotting library refused to draw (its message, and the file).
    Draw {
        /// The file being drawn.
        path: PathBuf,
        /// plotters' message.
        message: String,
    },
    /// Encoding the flent JSON failed.
    Encode {
        /// The file being written.
        path: PathBuf,
        /// serde_json's message.
        message: String,
    },
}

impl ReportError {
    /// An [`ReportError::InvalidData`] at `location`.
    pub(crate) fn invalid(location: impl Into<String>, problem: impl Into<String>) -> Self {
        ReportError::InvalidData {
            location: location.into(),
            problem: problem.into(),
        }
    }

    /// An [`ReportError::EmptyData`].
    pub(crate) fn empty(what: impl Into<String>) -> Self {
        ReportError::EmptyData { what: what.into() }
    }

    /// An [`ReportError::Io`] on `path`.
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        ReportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::UnsupportedExtension { path, expected } => write!(
                f,
                "{}: unsupported file extension (expected {expected})",
                path.display()
            ),
            ReportError::EmptyData { what } => write!(f, "nothing to report: {what}"),
            ReportError::InvalidData { location, problem } => write!(f, "{location}: {problem}"),
            ReportError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ReportError::Draw { path, message } => {
                write!(f, "{}: drawing failed: {message}", path.display())
            }
            ReportError::Encode { path, message } => {
                write!(f, "{}: JSON encoding failed: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
