//! The `airq` binary invoked as a user would: scenario files, errors, outputs, results
//! files, determinism. Runs are short (1–2 simulated seconds) to keep this fast in debug.

mod admission;
mod aggregate_sizing;
mod basic_rates;
mod bianchi;
mod channel;
mod emulate;
mod errors;
mod flent;
mod fuzz_targets;
mod just_in_time;
mod loss;
mod memory_limit;
mod outputs;
mod pcap;
mod ping;
mod plots;
mod policies;
mod protection;
mod qos_aggregate;
mod radio;
mod reference;
mod reproduce;
mod retry_time;
mod scenarios;
mod seed_figures;
mod slow_station_codel;
mod sparse;
mod starvation;
mod station_queue;
mod sweep;
mod unused;
mod variants;
mod warmup;

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

/// The results files in `dir`, by name, sorted.
pub fn results_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json.gz"))
        .collect();
    names.sort();
    names
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

/// [`SMALL`] with a ping to each station beside the floods, 0.2 s steps.
pub const PING: &str = r#"name = "ping-small"
duration = 2.0
step = 0.2
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

[[traffic]]
test = "ping"
interval_ms = 100
"#;

/// Writes `text` as `name` in `dir`.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp dir is writable");
    path
}

/// The standard output of a successful `assert`.
pub fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).expect("UTF-8 output")
}

/// Checks that `path` is a PNG with something drawn in it (a blank 1200-pixel-wide
/// figure compresses to a few kB).
pub fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
        "{}: {} bytes, not a drawn PNG",
        path.display(),
        bytes.len()
    );
}

/// Whether the external `tool` runs here (`tool version_arg`); if not, the test named
/// `test` is skipped with the reason printed, or fails under `AIRQ_REQUIRE_EMU=1` (CI).
pub fn has_tool(test: &str, tool: &str, version_arg: &str) -> bool {
    if std::process::Command::new(tool)
        .arg(version_arg)
        .output()
        .is_ok()
    {
        return true;
    }
    if std::env::var("AIRQ_REQUIRE_EMU").as_deref() == Ok("1") {
        panic!("{test}: {tool} is not installed and AIRQ_REQUIRE_EMU=1");
    }
    eprintln!("{test}: skipped: {tool} is not installed");
    false
}

/// `tshark -T fields` of the capture at `pcap`: a line per frame, the `fields` of each
/// tab-separated.
pub fn tshark_fields(pcap: &Path, fields: &[&str]) -> String {
    let mut cmd = std::process::Command::new("tshark");
    cmd.args(["-n", "-r", pcap.to_str().unwrap(), "-T", "fields"]);
    for f in fields {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "tshark: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The JSON file at `path`.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The results file of `airq -q run` with `args` (which make one run).
pub fn run_results(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    airq()
        .args(["-q", "run"])
        .args(args)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let files = results_files(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    results_json(&dir.path().join(&files[0]))
}

/// The results file (gzipped JSON) at `path`.
pub fn results_json(path: &Path) -> serde_json::Value {
    let gz = std::fs::File::open(path).unwrap();
    serde_json::from_reader(flate2::read::GzDecoder::new(gz)).unwrap()
}

/// `airq -q compare` of the scenario text with each `--variant` of `variants` (in
/// order), no plots, results in the returned folder; with the JSON summary.
pub fn compare_variants(
    scenario: &str,
    variants: &[&str],
) -> (tempfile::TempDir, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "s.toml", scenario);
    let summary = dir.path().join("s.json");
    let mut cmd = airq();
    cmd.args(["-q", "compare"]).arg(&path);
    for v in variants {
        cmd.args(["--variant", v]);
    }
    cmd.args(["--no-plots", "-o"])
        .arg(dir.path())
        .arg("--json")
        .arg(&summary)
        .assert()
        .success();
    let s = json(&summary);
    (dir, s)
}

/// `airq -q run scenario args`, results into `dir`; its JSON summary (written as `name`
/// in `dir`).
pub fn run_json(dir: &Path, name: &str, scenario: &Path, args: &[&str]) -> serde_json::Value {
    let summary = dir.join(name);
    airq()
        .args(["-q", "run"])
        .arg(scenario)
        .args(args)
        .arg("-o")
        .arg(dir)
        .arg("--json")
        .arg(&summary)
        .assert()
        .success();
    json(&summary)
}

/// A JSON summary without its wall-clock fields, for comparing runs.
pub fn without_wall_time(mut json: serde_json::Value) -> serde_json::Value {
    for run in json["runs"].as_array_mut().expect("runs") {
        run.as_object_mut().expect("a run").remove("wall_s");
    }
    json
}
