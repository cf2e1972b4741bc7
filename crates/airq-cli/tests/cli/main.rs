//! The `airq` binary invoked as a user would: scenario files, errors, outputs, results
//! files, determinism. Runs are short (1–2 simulated seconds) to keep this fast in debug.

mod errors;
mod outputs;
mod policies;
mod scenarios;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The `airq` binary.
pub fn airq() -> Command {
    Command::cargo_bin("airq").expect("the airq binary is built")
}

/// The repository's `scenarios/` folder.
pub fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// The scenario that runs today.
pub fn udp_scenario() -> PathBuf {
    scenarios_dir().join("udp-flood-anomaly.toml")
}

/// A minimal valid scenario: one slow and one fast HT station, UDP flood.
pub const SMALL: &str = r#"name = "small"
duration = 1.0
seed = 3

[[station]]
name = "fast"
standard = "ht"
mcs = 7

[[station]]
name = "slow"
standard = "ht"
mcs = 0

[[traffic]]
test = "udp_flood"
"#;

/// Writes `text` as `name` in `dir`.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp dir is writable");
    path
}

/// A JSON summary without its wall-clock fields, for comparing runs.
pub fn without_wall_time(mut json: serde_json::Value) -> serde_json::Value {
    for run in json["runs"].as_array_mut().expect("runs") {
        run.as_object_mut().expect("a run").remove("wall_s");
    }
    json
}
