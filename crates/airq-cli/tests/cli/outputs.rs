//! What `run` and `compare` write: the `--json` summary, the CSV, the results files
//! (round trip, version check), and that same inputs give the same outputs.

use super::{airq, json, run_json, udp_scenario, without_wall_time, write, SMALL};
use airq_cli::results;
use std::io::{Read, Write};
use std::path::Path;

/// `airq compare` of the UDP scenario for 1 s with `extra` arguments; its JSON summary.
fn compare_json(dir: &Path, name: &str, extra: &[&str]) -> serde_json::Value {
    let summary = dir.join(name);
    airq()
        .arg("-q")
        .arg("compare")
        .arg(udp_scenario())
        .args(["--duration", "1", "-o"])
        .arg(dir)
        .arg("--json")
        .arg(&summary)
        .args(extra)
        .assert()
        .success();
    json(&summary)
}

#[test]
fn compare_json_has_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let s = compare_json(dir.path(), "c.json", &[]);
    assert_eq!(s["scenario"], "udp-flood-anomaly");
    assert_eq!(s["seed"], 1);
    assert_eq!(s["duration_s"], 1.0);
    let runs = s["runs"].as_array().unwrap();
    let configs: Vec<&str> = runs.iter().map(|r| r["config"].as_str().unwrap()).collect();
    assert_eq!(configs, airq_sim::ap::PRESET_NAMES);
    for run in runs {
        assert!(run["wall_s"].as_f64().unwrap() > 0.0);
        assert!(run["events"].as_u64().unwrap() > 0);
        let total = run["total_goodput_mbps"].as_f64().unwrap();
        let jain = run["airtime_jain"].as_f64().unwrap();
        assert!(jain > 0.3 && jain <= 1.0 + 1e-12, "{jain}");
        let stations = run["stations"].as_array().unwrap();
        let names: Vec<&str> = stations
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["fast1", "fast2", "slow"]);
        let mut sum_goodput = 0.0;
        let mut sum_share = 0.0;
        for st in stations {
            sum_goodput += st["goodput_mbps"].as_f64().unwrap();
            sum_share += st["airtime_share"].as_f64().unwrap();
            for p in ["p50", "p90", "p99"] {
                assert!(st["ping_rtt_ms"][p].is_null(), "no ping in this scenario");
            }
        }
        assert!((sum_goodput - total).abs() < 1e-9);
        assert!((sum_share - 1.0).abs() < 1e-9, "{sum_share}");
    }
    // The seeds' Figure 3: round robin gives the slow station most of the airtime, the
    // airtime scheduler a third.
    let slow_share = |i: usize| runs[i]["stations"][2]["airtime_share"].as_f64().unwrap();
    assert!(slow_share(0) > 0.7, "fifo: {}", slow_share(0));
    assert!(
        (slow_share(3) - 1.0 / 3.0).abs() < 0.05,
        "airtime: {}",
        slow_share(3)
    );
    // Every results file was written.
    for c in configs {
        assert!(dir
            .path()
            .join(results::file_name("udp-flood-anomaly", c, 1))
            .exists());
    }
}

#[test]
fn parallel_compare_equals_sequential() {
    let dir = tempfile::tempdir().unwrap();
    let sequential = compare_json(dir.path(), "seq.json", &["--jobs", "1"]);
    let parallel = compare_json(dir.path(), "par.json", &["--jobs", "3"]);
    assert_eq!(without_wall_time(sequential), without_wall_time(parallel));
}

#[test]
fn same_seed_same_results_other_seed_other_results() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", SMALL);
    let run = |name: &str, seed: &str| {
        // Uplink floods: the stations contend, so the seed's backoff draws matter.
        let args = ["--seed", seed, "--set", "traffic.0.test=udp_flood_up"];
        without_wall_time(run_json(dir.path(), name, &path, &args))
    };
    let a = run("a.json", "5");
    assert_eq!(a, run("b.json", "5"));
    assert_ne!(a["runs"], run("c.json", "6")["runs"]);
}

#[test]
fn run_prints_the_table_and_writes_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", SMALL);
    let csv = dir.path().join("s.csv");
    let out = airq()
        .arg("run")
        .arg(&path)
        .args(["--config", "fifo", "--set", "station.1.mcs=1", "-o"])
        .arg(dir.path())
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(table.contains("small under fifo (seed 3)"), "{table}");
    assert!(
        table.contains("HT MCS 1 20 MHz LGI"),
        "--set applied: {table}"
    );
    let csv = std::fs::read_to_string(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], airq_cli::summary::CSV_HEADER);
    assert_eq!(lines.len(), 3);
    assert!(
        lines[2].starts_with("small,3,fifo,slow,\"HT MCS 1 20 MHz LGI\","),
        "{csv}"
    );
}

#[test]
fn results_round_trip_and_newer_versions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", SMALL);
    airq()
        .args(["-q", "run"])
        .arg(&path)
        .args(["--set", "duration=2", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let file = dir.path().join("small-airtime-seed3.json.gz");
    let r = results::load(&file).unwrap();
    assert_eq!(r.format_version, results::FORMAT_VERSION);
    assert_eq!(r.metadata.scenario, "small");
    assert_eq!(r.metadata.overrides, ["duration=2"]);
    assert!(r.metadata.scenario_text.contains("duration = 2"));
    assert!(r.metadata.command_line.iter().any(|a| a == "duration=2"));
    assert_eq!(r.series.t_s.len(), 10, "2 s at 0.2 s steps");
    assert_eq!(r.series.rx_bytes[9].len(), 2);
    let copy = dir.path().join("copy.json.gz");
    results::save(&r, &copy).unwrap();
    assert_eq!(results::load(&copy).unwrap(), r);
    // `show` redraws the run's table from the file.
    airq()
        .arg("show")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains("small under airtime (seed 3)"));
    // A file from a newer airq is refused, by the library and by the CLI.
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    // A version-1 file (before the stall detector and variants) loads, with no stalls
    // recorded, labelled by its preset.
    let v1 = text
        .replace("\"format_version\":3", "\"format_version\":1")
        .replace(",\"stalls\":[]", "")
        .replace("\"variant\":\"airtime\",\"variant_set\":[],", "");
    assert!(!v1.contains("stalls") && v1.contains("\"format_version\":1"));
    assert!(!v1.contains("variant"));
    let v1_file = dir.path().join("v1.json.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&v1_file).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(v1.as_bytes()).unwrap();
    gz.finish().unwrap();
    let old = results::load(&v1_file).unwrap();
    assert_eq!((old.format_version, old.stalls.len()), (3, 0));
    assert_eq!(old.metadata.variant, "airtime");
    let newer = text.replace("\"format_version\":3", "\"format_version\":4");
    assert_ne!(newer, text);
    let newer_file = dir.path().join("newer.json.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&newer_file).unwrap(),
        flate2::Compression::default(),
    );
    gz.write_all(newer.as_bytes()).unwrap();
    gz.finish().unwrap();
    let e = results::load(&newer_file).unwrap_err();
    assert!(
        e.message()
            .contains("format_version 4 is newer than this airq"),
        "{e}"
    );
    airq()
        .arg("show")
        .arg(&newer_file)
        .assert()
        .failure()
        .stderr(predicates::str::contains("use a newer airq"));
}

/// A preset on another driver is another file: runs of one preset on two drivers into one
/// folder do not overwrite each other.
#[test]
fn a_driver_chosen_on_the_command_line_names_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "small.toml", SMALL);
    for driver in [None, Some("firmware")] {
        let mut cmd = airq();
        cmd.arg("run")
            .arg(&scenario)
            .args(["--config", "airtime", "--duration", "1", "-q", "-o"])
            .arg(dir.path());
        if let Some(d) = driver {
            cmd.args(["--driver", d]);
        }
        cmd.assert().success();
    }
    let softmac = results::load(&dir.path().join("small-airtime-seed3.json.gz")).unwrap();
    let firmware = results::load(
        &dir.path()
            .join("small-airtime+driver=firmware-seed3.json.gz"),
    )
    .unwrap();
    assert_eq!(firmware.metadata.ap_config["driver"], "firmware");
    assert_eq!(firmware.metadata.variant, "airtime+driver=firmware");
    assert_eq!(softmac.metadata.ap_config["driver"], "softmac");
}
