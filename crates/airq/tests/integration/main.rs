//! Integration tests of the airq library (one binary per crate, STYLE.md rule 7).

mod airtime_differential;
mod airtime_properties;
mod driver_fuzz;
mod driver_model;
mod fq_properties;

/// Cases each property test runs: `default`, or `AIRQ_PROPTEST_CASES` if set (e.g.
/// 100000 in release mode, as CI runs them).
fn proptest_cases(default: u32) -> u32 {
    std::env::var("AIRQ_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
