//! Round robin on the softmac driver beside an 802.11b station (the open-mesh wall of
//! `airq reproduce`): no aggregating station is starved, and the starvation warning
//! stays silent. Before the fix (`Softmac::head_busy`), the TXQ at the head of the list
//! took every aggregate slot and most fast stations got 0.00 Mbit/s for the whole run,
//! with the medium busy all along — which no stall warning saw. The legacy MAC (`fifo`,
//! `fq_codel`: ath9k before mac80211's TXQs) walked on past such TXQs and starved fast
//! stations the same way until it moved the TID without room to the tail, as ath9k's
//! `ath_txq_schedule` of Linux <= 4.10 does.

use super::{airq, json, write};

const SCENARIO: &str = r#"name = "wall"
duration = 8.0
omit = 2.0
seed = 1
[bss]
band = "2.4GHz"
[ap]
preset = "PRESET"
[[station]]
name = "slow"
standard = "dsss"
rate_mbps = 1.0
[[station]]
name = "fast"
count = 10
standard = "ht"
mcs = 7
width = 20
gi = "long"
[[traffic]]
test = "tcp_download"
"#;

#[test]
fn round_robin_starves_no_aggregating_station_beside_an_11b_one() {
    for preset in ["fq_mac", "fq_codel", "fifo"] {
        starves_none(preset);
    }
}

fn starves_none(preset: &str) {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "wall.toml", &SCENARIO.replace("PRESET", preset));
    let summary = dir.path().join("s.json");
    let out = airq()
        .arg("run")
        .arg(&scenario)
        .arg("-o")
        .arg(dir.path())
        .arg("--json")
        .arg(&summary)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!stderr.contains("WARNING"), "{preset}: {stderr}");
    let s = json(&summary);
    let stations = s["runs"][0]["stations"].as_array().unwrap();
    let fast: Vec<f64> = stations
        .iter()
        .filter(|x| x["name"].as_str().unwrap().starts_with("fast"))
        .map(|x| x["goodput_mbps"].as_f64().unwrap())
        .collect();
    assert_eq!(fast.len(), 10);
    let mean = fast.iter().sum::<f64>() / fast.len() as f64;
    for (i, g) in fast.iter().enumerate() {
        assert!(
            *g * 4.0 >= mean,
            "{preset}: fast{} got {g:.2} of a mean {mean:.2}: {fast:?}",
            i + 1
        );
    }
}
