//! Airtime policies written in the scenario reach the AP's scheduler: a station's
//! `weight` and `[[ap.group]]` weights divide the airtime in their ratio (seed netdev 2.2
//! §4.2) under the airtime scheduler.

use super::{run_json, write, SMALL};

/// Airtime shares of (fast, slow) of `text` run for 2 s under `airtime`.
fn shares(text: &str) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "policy.toml", text);
    let s = run_json(
        dir.path(),
        "s.json",
        &path,
        &["--config", "airtime", "--duration", "2"],
    );
    let share = |i: usize| {
        s["runs"][0]["stations"][i]["airtime_share"]
            .as_f64()
            .unwrap()
    };
    (share(0), share(1))
}

#[test]
fn equal_weights_give_equal_airtime() {
    let (fast, slow) = shares(SMALL);
    assert!(
        (fast - 0.5).abs() < 0.03 && (slow - 0.5).abs() < 0.03,
        "{fast} {slow}"
    );
}

#[test]
fn a_station_weight_divides_the_airtime() {
    let (fast, slow) = shares(&SMALL.replace("mcs = 0", "mcs = 0\nweight = 512"));
    assert!(
        (slow / fast - 2.0).abs() < 0.2,
        "fast {fast:.3} slow {slow:.3}"
    );
}

#[test]
fn a_group_weight_divides_the_airtime() {
    let text = SMALL.replace("mcs = 7", "mcs = 7\ngroup = \"office\"")
        + "\n[[ap.group]]\nname = \"office\"\nweight = 768\n";
    let (fast, slow) = shares(&text);
    assert!(
        (fast / slow - 3.0).abs() < 0.3,
        "fast {fast:.3} slow {slow:.3}"
    );
}
