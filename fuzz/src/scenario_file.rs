//! The scenario-file target: bytes as a scenario file through what `airq check` does
//! (crates/airq-cli/src/commands/check.rs) — the file parsed and validated
//! (`scenario::parse`), its variants resolved, each built into the simulator's inputs
//! (`run_set::resolve`), and the simulation constructed under the AP's own preset
//! (`build::check_runnable`). Every refusal must be an error value naming the file;
//! a panic, an abort on allocation or a hang is a finding.

use airq_cli::build::check_runnable;
use airq_cli::{run_set, scenario};

/// The name errors give the file.
const FILE: &str = "fuzz.toml";

/// Checks `data` as `airq check fuzz.toml` would.
pub fn scenario_file(data: &[u8]) {
    // `airq check` reads the file as UTF-8 text and refuses it otherwise.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let s = match scenario::parse(FILE, text, &[]) {
        Ok(s) => s,
        Err(e) => return refused(&e.to_string()),
    };
    if !s.variants.is_empty() {
        if let Err(e) = run_set::resolve(&s, &s.variants) {
            return refused(&e.to_string());
        }
    }
    // A scenario the simulator cannot run yet is still a valid file: either way is fine.
    let _ = check_runnable(&s);
}

/// A refusal must say something.
fn refused(message: &str) {
    assert!(!message.trim().is_empty(), "an empty error message");
}
