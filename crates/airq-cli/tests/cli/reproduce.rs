//! `airq reproduce --quick`, experiment by experiment: the report is written (Markdown,
//! HTML, JSON), and the parts of each seed's shape that our model reproduces hold. Where
//! the model diverges from a seed the report says so; those checks are named here too,
//! so that a change in the model that makes them hold (or breaks the others) is seen.

use super::airq;
use serde_json::Value;
use std::path::Path;

fn experiments() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments")
}

/// Runs `--quick --only only` and returns report.json's experiments.
fn quick(only: &str) -> (tempfile::TempDir, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    airq()
        .args(["reproduce", "--quick", "--only", only, "--experiments"])
        .arg(experiments())
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    for name in ["report.md", "report.html", "report.json"] {
        assert!(dir.path().join(name).exists(), "{name}");
    }
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    let list = json["experiments"].as_array().unwrap().clone();
    (dir, list)
}

fn experiment(list: &[Value], n: u64) -> &Value {
    list.iter()
        .find(|e| e["experiment"] == n)
        .unwrap_or_else(|| panic!("experiment {n} in the report"))
}

/// Whether the check whose statement starts with `says` holds.
fn holds(e: &Value, says: &str) -> bool {
    e["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["says"].as_str().unwrap().starts_with(says))
        .unwrap_or_else(|| panic!("a check `{says}` in experiment {}", e["experiment"]))["holds"]
        .as_bool()
        .unwrap()
}

/// Every check of experiment `e` holds.
fn assert_all_hold(e: &Value) {
    let failed: Vec<&Value> = e["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["holds"] != true)
        .collect();
    assert!(
        failed.is_empty(),
        "experiment {}: {failed:?}",
        e["experiment"]
    );
}

#[test]
fn ping_latency_and_throughput_of_the_three_station_testbed() {
    let (dir, list) = quick("1,3");
    let e1 = experiment(&list, 1);
    assert!(holds(e1, "FQ-CoDel: the slow station still above 200 ms"));
    assert!(holds(e1, "FQ-CoDel helps the fast stations"));
    assert!(holds(e1, "FQ-MAC: the slow station's median about"));
    assert!(holds(
        e1,
        "FQ-MAC: an order of magnitude below FIFO for every station (fast)"
    ));
    assert!(holds(
        e1,
        "FQ-MAC: an order of magnitude below FIFO for every station (slow)"
    ));
    // Where our model differs from the paper (the report's notes say why).
    assert!(!holds(
        e1,
        "FQ-MAC: the fast stations' latency reduced by another 45%"
    ));
    assert_eq!(e1["verdict"], "diverges");
    let e3 = experiment(&list, 3);
    for says in [
        "Airtime fairness: the fast stations increase their throughput (fast1)",
        "Airtime fairness: the fast stations increase their throughput (fast2)",
        "Airtime fairness: the slow station decreases its throughput",
        "Airtime fairness: a net increase in total throughput",
        "FIFO to FQ-MAC raises the total",
    ] {
        assert!(holds(e3, says), "{says}");
    }
    // Experiment 3 reuses experiment 1's runs: one results folder.
    assert!(dir.path().join("01-ping-latency").is_dir());
    assert!(!dir.path().join("03-throughput").exists());
    // The report links the figures it shows, copied into figures/.
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("](figures/01-ping-latency-latency_cdf.png)"));
    assert!(dir
        .path()
        .join("figures/01-ping-latency-latency_cdf.png")
        .exists());
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(html.contains("<h2>1. Ping latency under TCP load</h2>"));
}

#[test]
fn airtime_shares_under_udp() {
    let (_dir, list) = quick("2");
    let e = experiment(&list, 2);
    assert_eq!(e["verdict"], "reproduced");
    assert_all_hold(e);
}

#[test]
fn aql_on_a_firmware_driver() {
    let (_dir, list) = quick("11,12");
    let e11 = experiment(&list, 11);
    assert!(holds(e11, "AQL cuts the latency under load"));
    assert!(holds(
        e11,
        "With AQL, the 99th percentile of ping latency under 100 ms (kernel"
    ));
    assert!(holds(e11, "AQL keeps comparable throughput"));
    let e12 = experiment(&list, 12);
    assert!(holds(
        e12,
        "Without AQL, the firmware holds an order of magnitude more frames"
    ));
    assert!(holds(e12, "About the same throughput with AQL"));
}

#[test]
fn a_bad_request_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    airq()
        .args(["reproduce", "--quick", "--only", "99", "--experiments"])
        .arg(experiments())
        .arg("-o")
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicates::str::contains("--only 99: no experiment 99"));
    assert!(!dir.path().join("report.md").exists());
    // An experiment file with an unknown key names the file.
    let exp = tempfile::tempdir().unwrap();
    std::fs::copy(
        experiments().join("seed-figures.toml"),
        exp.path().join("seed-figures.toml"),
    )
    .unwrap();
    std::fs::write(
        exp.path().join("01-x.toml"),
        "experiment = 1\ntitle = \"x\"\nreproduces = \"x\"\nscenario = \"x.toml\"\n\
         configs = [\"fifo\"]\nfull = { seeds = 1, duration = 1.0, omit = 0.0 }\n\
         quick = { seeds = 1, duration = 1.0, omit = 0.0 }\nspeed = 3\n",
    )
    .unwrap();
    airq()
        .args(["reproduce", "--experiments"])
        .arg(exp.path())
        .arg("-o")
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(predicates::str::contains("01-x.toml"))
        .stderr(predicates::str::contains("speed"));
}

#[test]
fn airtime_policies_and_the_near_far_demo() {
    let (dir, list) = quick("8,16");
    let e8 = experiment(&list, 8);
    assert!(holds(e8, "Equal group weights"));
    assert!(holds(e8, "The slow station's group at weight 2"));
    assert!(holds(e8, "Home busy: the guest network gets half"));
    // An experiment of two parts writes each part's runs in its own folder.
    assert!(dir.path().join("08-airtime-policies-weights").is_dir());
    assert!(dir.path().join("08-airtime-policies-guest").is_dir());
    let e16 = experiment(&list, 16);
    assert!(holds(e16, "pfifo_fast: the far client's download adds"));
    assert!(holds(
        e16,
        "The intermediate queues cut the near client's latency"
    ));
    // "The intermediate queues improve on the fq_codel qdisc" is a tie in our model,
    // never clear: the near client's median ping under FQ-MAC and under the fq_codel
    // qdisc is 11.5 ± 0.4 and 11.5 ± 0.3 ms in the full run (holds), 12.0 ± 5.6 and
    // 11.3 ± 3.2 ms over the two seeds of --quick (does not); it is left to the report.
}

#[test]
fn queues_policies_and_limits() {
    let (_dir, list) = quick("4,7,9,15,17");
    for n in [4, 7, 9, 17] {
        assert_all_hold(experiment(&list, n));
    }
    let e15 = experiment(&list, 15);
    assert!(holds(
        e15,
        "Latency grows with the target (35 ms against 20 ms)"
    ));
    assert!(holds(
        e15,
        "Latency grows with the target (20 ms against 10 ms)"
    ));
}

#[test]
fn applications_range_quantum_and_many_stations() {
    let (_dir, list) = quick("6,13,14,18");
    for n in [6, 13] {
        assert_all_hold(experiment(&list, n));
    }
    let e14 = experiment(&list, 14);
    assert!(holds(e14, "With a byte quantum the upstream dominates"));
    assert!(holds(e14, "... without losing total throughput"));
    // "A frame-count quantum moves the balance toward the downstream" was never clear:
    // the full run had 19.0 ± 1.2 against 18.6 ± 1.2 Mbit/s, the quick one 19.7 ± 10.0
    // against 19.3 ± 0.9. With the AP on its own EDCA set (BE CWmax 63) it is 19.8 ± 9.7
    // against 19.8 ± 0.3 quick and does not hold: noise either way. Left to the report.
    let e18 = experiment(&list, 18);
    assert!(holds(
        e18,
        "fq_codel + round robin: the slow client gets way too much"
    ));
    assert!(holds(
        e18,
        "fq_codel + fair airtime: the airtime much more equally"
    ));
    // "fq_codel + fair airtime: the aggregate bandwidth much higher" held only while the
    // legacy MAC's round robin starved fast stations (about 4.5 Mbit/s in all); with
    // that fixed, fq_codel's round robin carries 16.1 Mbit/s and fair airtime 19.3 ± 11.0
    // in the full run: not x2. It is left to the report.
}

#[test]
fn the_next_steps() {
    let (_dir, list) = quick("10");
    let e = experiment(&list, 10);
    assert!(holds(e, "Soft admission: demoting the bulk flow"));
    assert!(holds(e, "Soft admission: the well-behaved VoIP call"));
    assert!(holds(e, "... traded for airtime efficiency"));
    assert!(holds(e, "Combined QoS aggregates: VO frames at the head"));
    assert!(holds(e, "... and under high contention (8 stations heard)"));
}

#[test]
fn the_readme_verdict_table_is_the_committed_reports() {
    // The README's table must say what docs/reproduce/report.json (written by
    // `airq reproduce -o docs/reproduce`) says, experiment by experiment.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("docs/reproduce/report.json")).unwrap(),
    )
    .unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let experiments = report["experiments"].as_array().unwrap();
    assert_eq!(experiments.len(), 18, "every experiment is in the report");
    for e in experiments {
        let verdict = match e["verdict"].as_str().unwrap() {
            "same_shape_different_magnitude" => "same shape, different magnitude",
            other => other,
        };
        let row = format!(
            "| {} | {} | {verdict} |",
            e["experiment"],
            e["title"].as_str().unwrap()
        );
        assert!(readme.contains(&row), "README lacks `{row}`");
    }
}
