//! ERP protection (IEEE 802.11-2020 10.26.2) through the CLI as a user runs it: one
//! 11g station at 54 Mbit/s, saturated downlink, beside an idle 802.11b station in
//! 2.4 GHz (beacons off). The BSS derives the long slot and CTS-to-self from the 802.11b
//! station, says so, and keeps it in the results; each frame then costs its CTS-to-self
//! more: a CTS at 11 Mbit/s, long preamble (192 + ⌈112 / 11⌉ = 203 µs), and a SIFS
//! (10 µs) — 213 µs; RTS/CTS costs the RTS (192 + ⌈160 / 11⌉ = 207 µs), the CTS (203)
//! and two SIFS — 430 µs. Without protection a frame takes AIFS[BE] (3 · 20 + 10 = 70 µs),
//! the mean backoff (7.5 slots, 150 µs), the PPDU (258 µs), SIFS and the Ack at 24 Mbit/s
//! (34 µs): 522 µs.

use super::{airq, write};
use predicates::str::contains;

const SECONDS: f64 = 10.0;

const SCENARIO: &str = r#"name = "gb"
duration = 10.0
seed = 1
[bss]
band = "2.4GHz"
beacons = false
PROTECTION
[ap]
preset = "fifo"
[[station]]
name = "g"
standard = "ofdm"
rate_mbps = 54
[[station]]
name = "b"
standard = "dsss"
rate_mbps = 11
[[traffic]]
test = "udp_flood"
stations = ["g"]
"#;

/// Microseconds per frame delivered to the 11g station, what the results say of the
/// protection, and run's stdout.
fn run(protection: &str) -> (f64, Option<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        dir.path(),
        "gb.toml",
        &SCENARIO.replace("PROTECTION", protection),
    );
    let out = airq()
        .arg("run")
        .arg(&scenario)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let file = dir.path().join("gb-fifo-seed1.json.gz");
    let gz = std::fs::File::open(&file).unwrap();
    let r: serde_json::Value = serde_json::from_reader(flate2::read::GzDecoder::new(gz)).unwrap();
    let packets = r["stations"][0]["rx_packets_down"].as_u64().unwrap();
    let note = r["metadata"]["bss_protection"].as_str().map(str::to_string);
    (SECONDS * 1e6 / packets as f64, note, stdout)
}

#[test]
fn cts_to_self_and_rts_cts_cost_their_frames_on_every_ofdm_frame() {
    let (off, note, _) = run("protection = \"off\"");
    assert_eq!(note, None);
    let (cts, note, stdout) = run("");
    assert!(note.unwrap().starts_with("cts_to_self (derived"));
    assert!(
        stdout.contains("bss protection: cts_to_self (derived"),
        "{stdout}"
    );
    let (rts, note, _) = run("protection = \"rts_cts\"");
    assert_eq!(note.as_deref(), Some("rts_cts (bss.protection)"));
    let report = format!("per frame: off {off:.2} us, cts_to_self {cts:.2}, rts_cts {rts:.2}");
    println!("{report}");
    assert!((off - 522.0).abs() < 5.0, "{report}");
    assert!((cts - off - 213.0).abs() < 2.0, "{report}");
    assert!((rts - off - 430.0).abs() < 2.0, "{report}");
}

#[test]
fn protection_outside_2_4_ghz_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = SCENARIO
        .replace("2.4GHz", "5GHz")
        .replace("PROTECTION", "protection = \"cts_to_self\"")
        .replace(
            "standard = \"dsss\"\nrate_mbps = 11",
            "standard = \"ofdm\"\nrate_mbps = 6",
        );
    let path = write(dir.path(), "bad.toml", &text);
    airq()
        .arg("check")
        .arg(&path)
        .assert()
        .failure()
        .stderr(contains("bad.toml:7:1: bss.protection"))
        .stderr(contains("2.4GHz band only"));
}
