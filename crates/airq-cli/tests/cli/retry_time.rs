//! The time-based retry limit (`[ap.retry]`, seed netdev 2.2 §4.1) through the CLI, on
//! the bundled scenario's lossy slow station: the limit cuts the head-of-line wait of
//! its pings behind failing MPDUs, its drops are counted under their own cause, and a
//! key without `time_limit_ms` is refused at its line.

use super::{airq, json, scenarios_dir, write};
use airq_cli::results;

#[test]
fn the_time_limit_halves_the_lossy_stations_ping_and_counts_its_drops() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    airq()
        .args(["-q", "compare"])
        .arg(scenarios_dir().join("retry-time-limit.toml"))
        .args([
            "--seed",
            "1",
            "--seeds",
            "1",
            "--duration",
            "6",
            "--set",
            "omit=1",
        ])
        .args(["--variant", "off", "--variant", "limit_20ms"])
        .args(["--no-plots", "-o"])
        .arg(dir.path())
        .arg("--json")
        .arg(&summary)
        .assert()
        .success();
    let s = json(&summary);
    let slow_p50 = |run: usize| {
        let st = &s["runs"][run]["stations"][2];
        assert_eq!(st["name"], "slow");
        st["ping_rtt_ms"]["p50"].as_f64().unwrap()
    };
    // Measured (seed 1, 6 s, 1 s warm-up): 65.6 ms off, 26.2 ms with the limit.
    let (off, on) = (slow_p50(0), slow_p50(1));
    assert!(
        on < 0.6 * off,
        "slow ping p50 {on} ms with the limit, {off} ms off"
    );
    let file = |variant: &str| {
        let name = format!("retry-time-limit-{variant}+omit=1-seed1.json.gz");
        results::load(&dir.path().join(name)).unwrap()
    };
    let (off, on) = (file("off"), file("limit_20ms"));
    let slow = &on.stations[2];
    assert!(slow.drops["retry_time_limit"] > 0, "{:?}", slow.drops);
    assert!(!off.stations[2].drops.contains_key("retry_time_limit"));
    assert_eq!(
        on.metadata.ap_config["retry"]["time_limit_ms"].as_f64(),
        Some(20.0)
    );
}

#[test]
fn a_key_without_time_limit_ms_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = super::SMALL.replacen("[[station]]", "[ap.retry]\nmin_tries = 3\n[[station]]", 1);
    let path = write(dir.path(), "bad.toml", &text);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:6") && err.contains("min_tries"),
        "{err}"
    );
    assert!(err.contains("time_limit_ms"), "{err}");
}
