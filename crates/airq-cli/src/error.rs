//! The one error type of the CLI: a message a user can act on, naming what went wrong and
//! where (a file and line, a `--set` override, a results file). `main` prints it and exits
//! with status 1; nothing in the CLI panics on bad input.

use std::fmt;

/// Something the CLI could not do, already worded for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    message: String,
}

impl CliError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
        }
    }

    /// The same error with `context` (e.g. the file being read) in front.
    pub fn context(self, context: impl fmt::Display) -> CliError {
        CliError {
            message: format!("{context}: {}", self.message),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// Wraps an I/O error with the path it happened on.
pub fn io_error(action: &str, path: &std::path::Path, e: std::io::Error) -> CliError {
    CliError::new(format!("{action} {}: {e}", path.display()))
}
