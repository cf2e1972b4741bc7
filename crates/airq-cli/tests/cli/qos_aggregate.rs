//! Combined QoS aggregates (`[ap.qos_aggregate]`, seed netdev 2.2 §4.3) through the CLI:
//! four stations each downloading over TCP with an EF VoIP call; with the rule on, the
//! calls' downlink frames ride in BE A-MPDUs (the results count them), every voice
//! packet still arrives, the calls keep a MOS above 4.2 and the downloads lose nothing;
//! with eight stations heard the rule keeps VO's own TXOPs; bad tables are refused at
//! their line.

use super::{airq, compare_variants, write};

const CALLS: &str = r#"name = "calls"
duration = 6.0
omit = 1.0
[bss]
band = "5GHz"
[[station]]
name = "sta"
count = 4
standard = "ht"
mcs = 7
[[traffic]]
test = "tcp_download"
[[traffic]]
test = "voip"
"#;

/// Runs `scenario` off and on: the summary and the `on` run's results file.
fn off_and_on(scenario: &str) -> (serde_json::Value, serde_json::Value) {
    let variants = [
        "off:preset=airtime",
        "on:preset=airtime,ap.qos_aggregate.enabled=true",
    ];
    let (dir, summary) = compare_variants(scenario, &variants);
    let results = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("calls-on-seed"))
        .unwrap();
    let text = {
        use std::io::Read;
        let mut s = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(results).unwrap())
            .read_to_string(&mut s)
            .unwrap();
        s
    };
    (summary, serde_json::from_str(&text).unwrap())
}

fn voip_flows(run: &serde_json::Value) -> Vec<&serde_json::Value> {
    run["flows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["test"] == "voip")
        .collect()
}

#[test]
fn voice_rides_in_be_aggregates_and_every_packet_arrives() {
    let (s, on_results) = off_and_on(CALLS);
    let (off, on) = (&s["runs"][0], &s["runs"][1]);
    assert_eq!(on["config"], "on");
    let q = &on_results["aggregation"]["qos_aggregate"];
    // Measured (seed 1, 6 s): 587 of the calls' downlink frames carried.
    assert!(q["vo_frames_combined"].as_u64().unwrap() > 200, "{q}");
    assert!(q["vo_txops_saved"].as_u64().unwrap() > 200, "{q}");
    assert_eq!(q["own_txop_contention"], 0, "{q}");
    assert_eq!(
        on_results["metadata"]["ap_config"]["qos_aggregate"]["max_vo_frames"],
        2
    );
    let flows = voip_flows(on);
    assert_eq!(flows.len(), 8);
    for f in flows {
        let v = &f["voip"];
        assert_eq!(v["sent"], v["received"], "{f}");
        assert!(v["mos"].as_f64().unwrap() > 4.2, "{f}");
    }
    let goodput = |r: &serde_json::Value| r["total_goodput_mbps"].as_f64().unwrap();
    assert!(
        goodput(on) >= goodput(off),
        "{} vs {}",
        goodput(on),
        goodput(off)
    );
}

#[test]
fn eight_contending_stations_keep_vo_txops() {
    let (s, on_results) = off_and_on(&CALLS.replace("count = 4", "count = 8"));
    let q = &on_results["aggregation"]["qos_aggregate"];
    assert_eq!(q["vo_frames_combined"], 0, "{q}");
    assert!(q["own_txop_contention"].as_u64().unwrap() > 0, "{q}");
    let (off, on) = (&s["runs"][0], &s["runs"][1]);
    assert_eq!(off["flows"], on["flows"]);
}

#[test]
fn bad_tables_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = CALLS.replace("[bss]", "[ap.qos_aggregate]\nmax_vo_frames = 4\n[bss]");
    let path = write(dir.path(), "bad.toml", &text);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml:5"), "{err}");
    assert!(
        err.contains("max_vo_frames") && err.contains("enabled = true"),
        "{err}"
    );
    let long = CALLS.replace(
        "[bss]",
        "[ap.qos_aggregate]\nenabled = true\nmax_wait_us = 200000\n[bss]",
    );
    let path = write(dir.path(), "long.toml", &long);
    let out = airq().arg("run").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("long.toml:6") && err.contains("max_wait_us"),
        "{err}"
    );
    let firmware = CALLS.replace(
        "[bss]",
        "[ap]\ndriver = \"firmware\"\n[ap.qos_aggregate]\nenabled = true\n[bss]",
    );
    let path = write(dir.path(), "fw.toml", &firmware);
    let out = airq().arg("run").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("softmac"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
