//! `airq emulate` as a user runs it: real hosts in network namespaces, real ping and
//! iperf3 (CUBIC) through the emulated AP. Needs root, namespaces and iperf3: without
//! them the tests print why and pass, unless `AIRQ_REQUIRE_EMU=1` (CI).

use super::{airq, scenarios_dir};
use airq_cli::results::{self, ResultsFile};
use std::process::Command as Process;

/// Why `airq emulate` cannot run here, if it cannot.
fn unavailable() -> Option<String> {
    if !airq_emu::is_root() {
        return Some("not root".into());
    }
    for (tool, arg) in [("ip", "-V"), ("ping", "-V"), ("iperf3", "-v")] {
        if Process::new(tool).arg(arg).output().is_err() {
            return Some(format!("`{tool}` is not installed"));
        }
    }
    None
}

fn can_emulate(test: &str) -> bool {
    match unavailable() {
        None => true,
        Some(why) if std::env::var("AIRQ_REQUIRE_EMU").as_deref() == Ok("1") => {
            panic!("{test}: cannot emulate ({why}) and AIRQ_REQUIRE_EMU=1")
        }
        Some(why) => {
            eprintln!("{test}: skipped: {why}");
            false
        }
    }
}

fn emulate(config: &str, dir: &std::path::Path) -> ResultsFile {
    let scenario = scenarios_dir().join("ending-the-anomaly.toml");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "--config", config])
        .args([
            "--duration",
            "30",
            "--omit",
            "10",
            "-o",
            dir.to_str().unwrap(),
        ])
        .assert()
        .success();
    let prefix = format!("ending-the-anomaly-{config}-emulated");
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(&prefix)
        })
        .expect("a results file");
    results::load(&file).unwrap()
}

fn ping_p50(r: &ResultsFile, station: usize) -> f64 {
    r.stations[station].ping_rtt_ms.expect("pings answered").p50
}

/// The flagship's direction with the hosts' own TCP: FIFO's ping latency well above the
/// airtime scheduler's at every station, airtime shared more equally under airtime,
/// and a higher total goodput.
#[test]
fn tcp_downloads_through_fifo_and_airtime_go_the_flagships_way() {
    if !can_emulate("tcp_downloads_through_fifo_and_airtime_go_the_flagships_way") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = emulate("fifo", dir.path());
    let airtime = emulate("airtime", dir.path());
    for r in [&fifo, &airtime] {
        let s = &r.stations;
        eprintln!(
            "{}: ping p50 {:?} ms, airtime {:?}, goodput {:?} Mbit/s",
            r.metadata.variant,
            (0..3).map(|i| ping_p50(r, i)).collect::<Vec<_>>(),
            s.iter().map(|s| s.airtime_share).collect::<Vec<_>>(),
            s.iter().map(|s| s.goodput_mbps).collect::<Vec<_>>()
        );
    }
    for s in 0..3 {
        assert!(
            ping_p50(&fifo, s) > 2.0 * ping_p50(&airtime, s),
            "station {s}: fifo {} ms, airtime {} ms",
            ping_p50(&fifo, s),
            ping_p50(&airtime, s)
        );
    }
    let slow_share = |r: &ResultsFile| r.stations[2].airtime_share;
    assert!(slow_share(&fifo) > 0.45, "{}", slow_share(&fifo));
    assert!(
        (slow_share(&airtime) - 1.0 / 3.0).abs() < 0.05,
        "{}",
        slow_share(&airtime)
    );
    let total = |r: &ResultsFile| r.stations.iter().map(|s| s.goodput_mbps).sum::<f64>();
    assert!(total(&airtime) > total(&fifo));
    let e = airtime
        .metadata
        .emulation
        .as_ref()
        .expect("an emulated run says so");
    assert!(e.packets_delivered > 0 && e.events > 0);
}
