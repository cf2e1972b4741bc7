//! The fuzz targets of airq (issue 20, "fuzzing as a habit"), as functions of bytes that
//! return only when the input was handled — refused with an error value or accepted —
//! and panic on anything else (a broken invariant, a panic inside airq). Three targets:
//!
//! - [`library_ops`]: operation sequences on the library's `Fq`, airtime scheduler and
//!   AQL, as a hostile driver makes them, with the invariants checked after each step
//!   (the model of crates/airq/tests/integration/driver_model.rs, decoded from bytes);
//! - [`scenario_file`]: a scenario file through what `airq check` does: parsing,
//!   validation, every variant resolved and built, the simulation constructed;
//! - [`results_file`]: a results file through what `airq show` and `airq plot` do before
//!   they print or draw: loading (gzip or JSON, migration), the tables, summaries and
//!   warnings, the plots' view of the runs.
//!
//! `cargo +nightly fuzz run <target>` runs one under libFuzzer (fuzz_targets/); the seed
//! corpora are fuzz/corpus/<target>/. On the stable toolchain, [`harness`] feeds the
//! same functions each corpus file and mutants of it (crates/airq-cli/tests/cli/
//! fuzz_targets.rs, run by `cargo test` and, with more mutants, by .ci/run).

pub mod harness;
mod library_ops;
pub mod mutate;
mod results_file;
mod scenario_file;

pub use library_ops::library_ops;
pub use results_file::results_file;
pub use scenario_file::scenario_file;

/// A target: a function of the input's bytes.
pub type Target = fn(&[u8]);

/// The targets by name, as fuzz_targets/ and fuzz/corpus/ name them.
pub const TARGETS: [(&str, Target); 3] = [
    ("library_ops", library_ops),
    ("scenario_file", scenario_file),
    ("results_file", results_file),
];
