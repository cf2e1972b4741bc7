//! # airq-cli
//!
//! The `airq` command-line tool: scenario files (TOML, validated, `--set` overrides),
//! runs of the `airq-sim` simulator under the AP's queueing designs, side-by-side
//! comparisons run in parallel with deterministic output, tables, versioned results files
//! and machine-readable summaries. In the spirit of flent: a test is declarative data,
//! and one self-describing results file holds everything a run measured.

#![warn(missing_docs)]

pub mod admission_data;
pub mod aggregation_data;
pub mod ap_data;
pub mod build;
pub mod cli;
pub mod collect;
pub mod commands;
pub mod error;
pub mod execute;
pub mod export;
pub mod labels;
pub mod outputs;
pub mod progress;
pub mod repeat;
pub mod report_view;
pub mod results;
pub mod run_set;
pub mod scenario;
pub mod summary;
pub mod table;
pub mod unused;

pub use error::CliError;
