//! Just-in-time aggregates (`[ap.just_in_time]`, seed netdev 2.2 §4.1) through the CLI:
//! beside eight saturated stations a pinged station's packets wait behind the aggregate
//! on the air only, not also behind one built ahead, at no cost in throughput; the
//! results count the builds; a firmware driver and a parameter without `enabled` are
//! refused.

use super::{airq, compare_variants, write};

const BUSY: &str = r#"name = "jit"
duration = 6.0
omit = 1.0
[bss]
band = "5GHz"
[[station]]
name = "busy"
count = 8
standard = "ht"
mcs = 7
[[station]]
name = "sparse"
standard = "ht"
mcs = 7
[[traffic]]
test = "udp_flood"
stations = ["busy"]
[[traffic]]
test = "ping"
stations = ["sparse"]
interval_ms = 100
"#;

#[test]
fn the_sparse_station_waits_behind_one_aggregate_not_two() {
    let variants = [
        "ath9k:preset=airtime",
        "jit:preset=airtime,ap.just_in_time.enabled=true",
    ];
    let (dir, s) = compare_variants(BUSY, &variants);
    let sparse_p50 = |run: usize| {
        let stations = s["runs"][run]["stations"].as_array().unwrap();
        let st = stations.iter().find(|x| x["name"] == "sparse").unwrap();
        st["ping_rtt_ms"]["p50"].as_f64().unwrap()
    };
    let goodput = |run: usize| s["runs"][run]["total_goodput_mbps"].as_f64().unwrap();
    // Measured (seed 1, 6 s, 1 s warm-up): 14.3 ms with ath9k's two aggregates,
    // 10.9 ms just in time; goodput 58.2 and 58.3 Mbit/s.
    assert!(
        sparse_p50(1) + 2.0 < sparse_p50(0),
        "{} vs {}",
        sparse_p50(1),
        sparse_p50(0)
    );
    assert!((goodput(1) - goodput(0)).abs() < 0.02 * goodput(0));
    let results = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("jit-jit-seed"))
        .unwrap();
    let r = super::results_json(&results);
    let jit = &r["aggregation"]["just_in_time"];
    assert!(jit["scheduled"].as_u64().unwrap() > 1000, "{jit}");
    assert_eq!(jit["late"], 0, "{jit}");
    assert_eq!(
        r["metadata"]["ap_config"]["just_in_time"]["lead_time_us"],
        500
    );
}

#[test]
fn a_firmware_driver_or_a_parameter_without_enabled_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = BUSY.replace("[bss]", "[ap.just_in_time]\nmax_jitter_us = 100\n[bss]");
    let path = write(dir.path(), "bad.toml", &text);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:5") && err.contains("max_jitter_us"),
        "{err}"
    );
    let text = BUSY.replace(
        "[bss]",
        "[ap]\ndriver = \"firmware\"\n[ap.just_in_time]\nenabled = true\n[bss]",
    );
    let path = write(dir.path(), "fw.toml", &text);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("just_in_time needs driver softmac"), "{err}");
}
