//! `--flent`: `run` and `compare` write one flent data file per run beside its results
//! file, and the real flent (2.3.0 checked) loads it: its CSV has every station's
//! series, and its summary's means are the run's goodput and ping RTTs. Without a
//! `flent` on PATH the flent half prints a skip notice, unless `AIRQ_REQUIRE_FLENT=1`
//! (as CI sets it), when a missing flent is a failure.

use super::{airq, stdout, udp_scenario, write, PING};
use airq_cli::report_view::station_mac;
use airq_cli::results::{self, ResultsFile};
use std::path::Path;

#[path = "../../../airq-report/tests/support/flent_tool.rs"]
mod flent_tool;
use flent_tool::{flent_available, flent_ok, summary_avg};

/// flent loads `file` (a run of `r`): one CSV column per station and series, one row
/// per 0.2 s step of the 2 s run and t = 0, and summary means that are the run's.
fn check_in_flent(file: &Path, r: &ResultsFile, dir: &Path) {
    let name = file.file_name().unwrap().to_str().unwrap();
    let csv_name = format!("{name}.csv");
    flent_ok(&["-i", name, "-f", "csv", "-o", &csv_name], dir);
    let csv = std::fs::read_to_string(dir.join(&csv_name)).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[0], "rtt_fair_var_down");
    assert_eq!(csv.lines().count(), 1 + 11, "{csv}");
    let summary = flent_ok(&["-i", name, "-f", "summary"], dir);
    for (i, s) in r.stations.iter().enumerate() {
        let download = format!("TCP download BE {}", s.name);
        let airtime = format!("wifi_stats_ap::airtime_tx::{}", station_mac(i));
        for column in [&download, &airtime] {
            assert!(header.contains(&column.as_str()), "{name}: no {column}");
        }
        // Goodput counts application bytes; files without per-flow bytes give the
        // stations' IP bytes (1500 per 1472-byte payload): within 3 %.
        let flent_mbps = summary_avg(&summary, &download);
        assert!(
            (flent_mbps / s.goodput_mbps - 1.0).abs() < 0.03,
            "{name} {}: flent {flent_mbps} vs {}",
            s.name,
            s.goodput_mbps
        );
        let rtts: Vec<f64> = r
            .flows
            .iter()
            .filter(|f| f.station == s.name)
            .flat_map(|f| f.rtt_ms.iter().map(|p| p[1]))
            .collect();
        let ping = format!("Ping (ms) ICMP {}", s.name);
        if rtts.is_empty() {
            assert!(
                !header.contains(&ping.as_str()),
                "{name}: {ping} without pings"
            );
        } else {
            let mean = rtts.iter().sum::<f64>() / rtts.len() as f64;
            let flent_ms = summary_avg(&summary, &ping);
            assert!(
                (flent_ms - mean).abs() < 0.006,
                "{name}: {flent_ms} vs {mean}"
            );
        }
    }
}

#[test]
fn run_and_compare_write_flent_files_that_flent_loads() {
    let dir = tempfile::tempdir().unwrap();
    let ping = write(dir.path(), "ping.toml", PING);
    let out = airq()
        .arg("run")
        .arg(&ping)
        .args(["--config", "airtime_aql", "--flent", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let flent_line = format!(
        "flent: {}\n",
        dir.path()
            .join("ping-small-airtime_aql-seed3.flent.gz")
            .display()
    );
    assert!(stdout(&out).ends_with(&flent_line), "{}", stdout(&out));
    let out = airq()
        .arg("compare")
        .arg(udp_scenario())
        .args(["--duration", "2", "--configs", "fifo,airtime", "--flent"])
        .args(["--no-plots", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let flent_line = format!(
        "flent: {}\n",
        dir.path()
            .join("udp-flood-anomaly-*-seed1.flent.gz")
            .display()
    );
    assert!(stdout(&out).ends_with(&flent_line), "{}", stdout(&out));
    let runs = [
        "ping-small-airtime_aql-seed3",
        "udp-flood-anomaly-fifo-seed1",
        "udp-flood-anomaly-airtime-seed1",
    ];
    for run in runs {
        let file = dir.path().join(format!("{run}.flent.gz"));
        assert!(file.exists(), "{}", file.display());
    }
    if !flent_available(dir.path()) {
        return;
    }
    for run in runs {
        let r = results::load(&dir.path().join(format!("{run}.json.gz"))).unwrap();
        check_in_flent(&dir.path().join(format!("{run}.flent.gz")), &r, dir.path());
    }
}

#[test]
fn without_flent_no_flent_files_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let ping = write(dir.path(), "ping.toml", PING);
    let out = airq()
        .arg("run")
        .arg(&ping)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    assert!(!stdout(&out).contains("flent"), "{}", stdout(&out));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".flent.gz"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}
