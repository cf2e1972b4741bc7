//! Dynamic aggregate sizing (`[ap.aggregate_sizing]`, seed netdev 2.2 §4.1) through the
//! CLI: with thirty backlogged stations, 1 ms aggregates shorten the DRR round and so
//! every station's ping, at a bounded cost in throughput; with three stations the rule
//! leaves the full 4 ms aggregates, so nothing changes; a parameter without `enabled`
//! is refused at its line.

use super::{airq, compare_variants, write};

/// Thirty HT MCS7 stations, each downloading over TCP and pinged every 100 ms.
const MANY: &str = r#"name = "many"
duration = 4.0
omit = 1.0
[bss]
band = "5GHz"
[[station]]
name = "busy"
count = 30
standard = "ht"
mcs = 7
[[traffic]]
test = "tcp_download"
[[traffic]]
test = "ping"
interval_ms = 100
"#;

/// Runs `scenario` off and on; the summary.
fn off_and_on(scenario: &str) -> serde_json::Value {
    let variants = [
        "off:preset=airtime",
        "on:preset=airtime,ap.aggregate_sizing.enabled=true",
    ];
    compare_variants(scenario, &variants).1
}

/// The median over the stations of their ping p50, ms.
fn median_ping_p50(run: &serde_json::Value) -> f64 {
    let mut p50: Vec<f64> = run["stations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["ping_rtt_ms"]["p50"].as_f64())
        .collect();
    p50.sort_by(f64::total_cmp);
    p50[p50.len() / 2]
}

#[test]
fn many_backlogged_stations_trade_throughput_for_latency() {
    let s = off_and_on(MANY);
    let (off, on) = (&s["runs"][0], &s["runs"][1]);
    assert_eq!(on["config"], "on");
    let (p_off, p_on) = (median_ping_p50(off), median_ping_p50(on));
    let (g_off, g_on) = (
        off["total_goodput_mbps"].as_f64().unwrap(),
        on["total_goodput_mbps"].as_f64().unwrap(),
    );
    // Measured (seed 1, 4 s, 1 s warm-up): ping p50 about 120 ms off, 45 ms on;
    // goodput about 47 against 37 Mbit/s.
    assert!(p_on * 2.0 < p_off, "ping p50 {p_on} ms on, {p_off} ms off");
    assert!(g_on < g_off, "goodput {g_on} on, {g_off} off");
    assert!(g_on > 0.6 * g_off, "goodput {g_on} on, {g_off} off");
}

#[test]
fn three_stations_keep_full_aggregates() {
    let few = MANY.replace("count = 30", "count = 3");
    let s = off_and_on(&few);
    let (off, on) = (&s["runs"][0], &s["runs"][1]);
    assert_eq!(off["total_goodput_mbps"], on["total_goodput_mbps"]);
    assert_eq!(off["stations"], on["stations"]);
}

#[test]
fn a_parameter_without_enabled_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = MANY.replace(
        "[bss]",
        "[ap.aggregate_sizing]\nround_airtime_us = 8000\n[bss]",
    );
    let path = write(dir.path(), "bad.toml", &text);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml:5"), "{err}");
    assert!(err.contains("round_airtime_us"), "{err}");
    assert!(err.contains("enabled = true"), "{err}");
    let zero = MANY.replace(
        "[bss]",
        "[ap.aggregate_sizing]\nenabled = true\nmin_airtime_us = 0\n[bss]",
    );
    let path = write(dir.path(), "zero.toml", &zero);
    let out = airq().arg("run").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("zero.toml:6") && err.contains("min_airtime_us"),
        "{err}"
    );
}
