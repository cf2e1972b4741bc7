//! `[bss] basic_rates_mbps`: the basic rate set that control responses are sent at
//! (IEEE 802.11-2020 10.6.6.5). In a 5 GHz UDP flood to an HT MCS 7 and an MCS 0
//! station, the MCS 7 station's BlockAck goes at 6 Mbit/s with the set {6} (68 µs), at
//! 24 with hostapd's {6, 12, 24} (32 µs) and at 54 with every OFDM rate (28 µs); the MCS
//! 0 station's at 6 in all three: the longer the response, the less the goodput. Rates
//! that are not legacy rates, DSSS rates outside 2.4 GHz and an empty set are refused
//! at their line.

use super::{airq, run_json, write, SMALL};

fn total(dir: &std::path::Path, name: &str, set: Option<&str>) -> f64 {
    let text = match set {
        Some(rates) => SMALL.replace(
            "seed = 3\n",
            &format!("seed = 3\n[bss]\nbasic_rates_mbps = {rates}\n"),
        ),
        None => SMALL.to_string(),
    };
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).unwrap();
    let path = write(&sub, "s.toml", &text);
    let s = run_json(
        &sub,
        "s.json",
        &path,
        &["--config", "airtime", "--duration", "5"],
    );
    s["runs"][0]["total_goodput_mbps"].as_f64().unwrap()
}

#[test]
fn slower_control_responses_cost_goodput() {
    let dir = tempfile::tempdir().unwrap();
    let at6 = total(dir.path(), "six", Some("[6]"));
    let hostapd = total(dir.path(), "default", None);
    let same = total(dir.path(), "listed", Some("[6, 12, 24]"));
    let at54 = total(dir.path(), "all", Some("[6, 9, 12, 18, 24, 36, 48, 54]"));
    assert_eq!(hostapd, same, "hostapd's set is the default");
    assert!(at6 < hostapd && hostapd < at54, "{at6} {hostapd} {at54}");
    // 36 µs more per exchange of the MCS 7 station (about 3.3 ms): under 2%.
    let loss = 1.0 - at6 / hostapd;
    assert!((0.003..0.03).contains(&loss), "{loss}");
}

#[test]
fn rates_that_cannot_be_basic_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    for (rates, says) in [
        ("[7]", "not a basic rate"),
        ("[5.5]", "only the 2.4GHz band"),
        ("[]", "at least one rate"),
    ] {
        let text = SMALL.replace(
            "seed = 3\n",
            &format!("seed = 3\n[bss]\nbasic_rates_mbps = {rates}\n"),
        );
        let path = write(dir.path(), "bad.toml", &text);
        airq()
            .arg("check")
            .arg(&path)
            .assert()
            .failure()
            .stderr(predicates::str::contains("bad.toml:5:"))
            .stderr(predicates::str::contains("bss.basic_rates_mbps"))
            .stderr(predicates::str::contains(says));
    }
}
