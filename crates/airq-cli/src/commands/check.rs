//! `airq check SCENARIO...`: parse and validate scenario files (and every variant they
//! define) without running them, and say whether the simulator can run every test they
//! name today.

use crate::build::check_runnable;
use crate::error::CliError;
use crate::run_set;
use crate::scenario;
use std::path::PathBuf;

/// Checks each file; the first that does not parse is the error.
pub fn check(paths: &[PathBuf], sets: &[String]) -> Result<(), CliError> {
    for path in paths {
        let s = scenario::load(path, sets)?;
        if !s.variants.is_empty() {
            // Every variant parses and builds; whether the simulator runs it is below.
            run_set::resolve_emulated(&s, &s.variants)?;
        }
        let runnable = match check_runnable(&s) {
            Ok(()) => "runs".to_string(),
            Err(e) => format!("does not run yet: {e}"),
        };
        let variants = match s.variants.len() {
            0 => String::new(),
            n => format!(", {n} variants"),
        };
        println!(
            "{}: ok: {} ({} stations, {} traffic entries{variants}, {:.1} s); {runnable}",
            path.display(),
            s.name,
            s.stations.len(),
            s.traffic.len(),
            s.duration_s()
        );
        super::run::print_derived_timing(&s);
    }
    Ok(())
}
