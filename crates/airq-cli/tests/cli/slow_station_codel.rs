//! `[ap] slow_station_codel`: FQ-MAC's CoDel parameters per station, as mac80211
//! set them from 2016 to 2025.

use super::{airq, run_results};

/// The stations' `codel` and mean delays of a 4 s flagship run under `fq_mac`, seed 1.
fn flagship(args: &[&str]) -> Vec<(Option<f64>, f64)> {
    let mut all = vec![
        "ending-the-anomaly",
        "--config",
        "fq_mac",
        "--duration",
        "4",
    ];
    all.extend(["--omit", "1", "--seeds", "1"]);
    all.extend(args);
    let r = run_results(&all);
    r["stations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let target = s["codel"]["target_ms"].as_f64();
            (target, s["mean_delay_ms"].as_f64().unwrap())
        })
        .collect()
}

/// Three stations: 18 Mbit/s is the line. The slow station (HT MCS 0, 5.4 Mbit/s
/// expected) gets a 50 ms target and its TCP download's packets wait longer for it; the
/// fast ones keep 20 ms. Off, the results say nothing of it.
#[test]
fn the_slow_station_gets_a_50_ms_target_and_a_longer_queue() {
    let on = flagship(&["--set", "ap.slow_station_codel=true"]);
    let off = flagship(&[]);
    let targets: Vec<Option<f64>> = on.iter().map(|s| s.0).collect();
    assert_eq!(targets, [Some(20.0), Some(20.0), Some(50.0)]);
    assert!(off.iter().all(|s| s.0.is_none()), "{off:?}");
    assert!(on[2].1 > 1.5 * off[2].1, "slow: {on:?} against {off:?}");
    assert!(
        (on[0].1 - off[0].1).abs() < 0.2 * off[0].1,
        "{on:?} against {off:?}"
    );
}

/// Under a MAC without FQ-MAC it changes nothing, and is refused as such.
#[test]
fn without_fq_mac_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = airq()
        .args(["run", "ending-the-anomaly", "--config", "fifo"])
        .args(["--set", "ap.slow_station_codel=true", "-o"])
        .arg(dir.path())
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("ap.slow_station_codel"), "{err}");
    assert!(err.contains("no FQ-MAC"), "{err}");
}
