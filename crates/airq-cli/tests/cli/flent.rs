//! `--flent`: `run` and `compare` write one flent data file per run beside its results
//! file, and the real flent (2.3.0 checked) reads it as the flent test that runs the
//! scenario's traffic: an rrul scenario as `rrul` with its four classes, a VoIP call
//! beside TCP downloads as `rtt_fair_var_down` with flent's voip mixin, the flagship as
//! `rtt_fair_var_down`. For each, flent's summary has exactly the series of the run's
//! flows (none for a flow the run did not have), with the run's means, and its own
//! Jain's index of the stations' airtime; `all_scaled`, `ping_cdf` and `box_combine`
//! (over two runs) plot, and the flagship's `tcp_cwnd` and `tcp_rtt` (its TCP senders'
//! window and RTT) draw a line per station. Without a `flent` on PATH the flent half
//! prints a skip notice, unless `AIRQ_REQUIRE_FLENT=1` (as CI sets it), when a missing
//! flent is a failure.

use super::{airq, scenarios_dir, stdout, udp_scenario, write, PING};
use airq_cli::results::{self, ResultsFile};
use flate2::read::GzDecoder;
use std::io::Read;
use std::path::{Path, PathBuf};

#[path = "../../../airq-report/tests/support/flent_tool.rs"]
mod flent_tool;
use flent_tool::{flent_available, flent_ok, summary_avg};

/// One series flent should show: its name and, for goodput and ping series, the mean
/// the results file gives it.
struct Expected {
    name: String,
    mean: Option<f64>,
}

/// The summed goodput of `r`'s flows of `station` that `pick` (test, direction, dscp)
/// selects.
fn goodput(r: &ResultsFile, station: &str, pick: impl Fn(&str, &str, u8) -> bool) -> f64 {
    r.flows
        .iter()
        .filter(|f| f.station == station && pick(&f.test, &f.direction, f.dscp))
        .map(|f| f.goodput_mbps)
        .sum()
}

/// The mean RTT of `station`'s pings.
fn mean_rtt(r: &ResultsFile, station: &str) -> f64 {
    let rtts: Vec<f64> = r
        .flows
        .iter()
        .filter(|f| f.station == station)
        .flat_map(|f| f.rtt_ms.iter().map(|p| p[1]))
        .collect();
    rtts.iter().sum::<f64>() / rtts.len() as f64
}

fn series(name: impl Into<String>, mean: Option<f64>) -> Expected {
    Expected {
        name: name.into(),
        mean,
    }
}

/// The flent file's own JSON.
fn flent_json(file: &Path) -> serde_json::Value {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// flent reads `file` (a run of `r`) as `test` with exactly the series `expected`
/// (besides airtime and flent's own aggregates), with the run's means.
fn check_in_flent(file: &Path, r: &ResultsFile, test: &str, expected: &[Expected], dir: &Path) {
    let name = file.file_name().unwrap().to_str().unwrap();
    let doc = flent_json(file);
    assert_eq!(doc["metadata"]["NAME"], test, "{name}");
    let mut written: Vec<&str> = doc["results"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|k| !k.starts_with("wifi_stats_"))
        .collect();
    written.sort();
    let mut want: Vec<&str> = expected.iter().map(|e| e.name.as_str()).collect();
    want.sort();
    assert_eq!(written, want, "{name}: series");
    // A series is a flow's measurement: one whose flow moved data has data (a flow
    // can be starved, as rrul's BE and BK are under strict priority).
    for e in expected.iter().filter(|e| e.mean.is_some_and(|m| m > 0.0)) {
        let values = doc["results"][&e.name].as_array().unwrap();
        assert!(
            values.iter().any(|v| v.as_f64().is_some_and(|x| x > 0.0)),
            "{name}: {} has no data",
            e.name
        );
    }
    let csv_name = format!("{name}.csv");
    flent_ok(&["-i", name, "-f", "csv", "-o", &csv_name], dir);
    let csv = std::fs::read_to_string(dir.join(&csv_name)).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[0], test, "{name}");
    let summary = flent_ok(&["-i", name, "-f", "summary"], dir);
    assert!(
        summary.contains(&format!("Summary of {test} test run")),
        "{summary}"
    );
    for e in expected {
        let flent_mean = summary_avg(&summary, &e.name);
        if let Some(mean) = e.mean {
            assert!(
                (flent_mean - mean).abs() <= 0.03 * mean + 0.006,
                "{name} {}: flent {flent_mean} vs {mean}",
                e.name
            );
        }
    }
    for s in &r.stations {
        let airtime = format!("wifi_stats_ap::airtime_tx::{}", s.name);
        assert!(header.contains(&airtime.as_str()), "{name}: no {airtime}");
    }
    let fairness = summary_avg(&summary, "wifi_stats_ap::airtime_fairness");
    assert!(fairness > 0.0 && fairness <= 1.0 + 1e-9, "{summary}");
}

/// Every flent file `compare` wrote into `dir`, in name order.
fn flent_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".flent.gz"))
        .collect();
    files.sort();
    files
}

/// The results file beside a flent file.
fn results_of(flent: &Path) -> ResultsFile {
    let name = flent.to_string_lossy().replace(".flent.gz", ".json.gz");
    results::load(Path::new(&name)).unwrap()
}

/// `compare`s `scenario` under fifo and airtime for `seconds` with `--flent` into a new
/// directory under `parent`; the flent files.
fn compare_with_flent(parent: &Path, scenario: &Path, seconds: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = parent.join(scenario.file_stem().unwrap());
    std::fs::create_dir_all(&dir).unwrap();
    airq()
        .arg("-q")
        .arg("compare")
        .arg(scenario)
        .args([
            "--duration",
            seconds,
            "--configs",
            "fifo,airtime",
            "--flent",
            // One seed, no warm-up: the flagship's 5 seeds and 10 s would not fit.
            "--seeds",
            "1",
            "--omit",
            "0",
        ])
        .args(["--no-plots", "-o"])
        .arg(&dir)
        .assert()
        .success();
    let files = flent_files(&dir);
    assert_eq!(files.len(), 2, "{files:?}");
    (dir, files)
}

/// flent plots the runs: `all_scaled` and `ping_cdf` of one, `box_combine` of both.
/// The runs are short, so flent keeps their first and last seconds (`--delay 0`).
fn check_plots(dir: &Path, files: &[PathBuf]) {
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_str().unwrap())
        .collect();
    for plot in ["all_scaled", "ping_cdf"] {
        let png = format!("{plot}.png");
        flent_ok(
            &["--delay", "0", "-i", names[0], "-p", plot, "-o", &png],
            dir,
        );
        super::assert_png(&dir.join(&png));
    }
    let mut args = vec!["--delay", "0"];
    for n in &names {
        args.extend(["-i", n]);
    }
    args.extend(["-p", "box_combine", "-o", "box_combine.png"]);
    flent_ok(&args, dir);
    super::assert_png(&dir.join("box_combine.png"));
}

/// flent's `tcp_cwnd` and `tcp_rtt` plots (its `tcp_stats.inc` mixin) of the flagship:
/// each TCP download series carries its sender's window and RTT at every sample where
/// the results file has them, and flent draws a line for each station — the legend
/// labels of its SVG, which flent leaves out of a plot without data.
fn check_tcp_plots(dir: &Path, files: &[PathBuf]) {
    for file in files {
        let r = results_of(file);
        let doc = flent_json(file);
        for s in &r.stations {
            let flow = r
                .flows
                .iter()
                .position(|f| f.station == s.name && f.test == "tcp_download")
                .unwrap();
            let raw = doc["raw_values"][format!("TCP download BE {}", s.name)]
                .as_array()
                .unwrap();
            let tcp: Vec<&serde_json::Value> =
                raw.iter().filter(|e| e.get("tcp_cwnd").is_some()).collect();
            let cwnd: Vec<u64> = tcp
                .iter()
                .map(|e| e["tcp_cwnd"].as_u64().unwrap())
                .collect();
            let want: Vec<u64> = r
                .series
                .flow_tcp_cwnd
                .iter()
                .filter_map(|row| row[flow])
                .map(u64::from)
                .collect();
            assert_eq!(cwnd, want, "{}: {}", file.display(), s.name);
            // Established within the first step: a window and an RTT at every sample.
            assert_eq!(cwnd.len(), r.series.t_s.len(), "{}", s.name);
            assert!(cwnd.iter().all(|&c| c >= 1), "{cwnd:?}");
            // The RTT of a 1 ms wired hop each way and the air: above 2 ms.
            let rtt: Vec<f64> = tcp.iter().map(|e| e["tcp_rtt"].as_f64().unwrap()).collect();
            assert!(rtt.iter().all(|&ms| ms > 2.0), "{rtt:?}");
        }
        for series in ["Ping (ms) ICMP slow", "wifi_stats_ap"] {
            let raw = doc["raw_values"][series].as_array().unwrap();
            assert!(raw.iter().all(|e| e.get("tcp_cwnd").is_none()), "{series}");
        }
        let name = file.file_name().unwrap().to_str().unwrap();
        for (plot, label) in [("tcp_cwnd", "TCP window size"), ("tcp_rtt", "RTT")] {
            let png = format!("{name}.{plot}.png");
            flent_ok(&["-i", name, "-p", plot, "-o", &png], dir);
            super::assert_png(&dir.join(&png));
            let svg = format!("{name}.{plot}.svg");
            flent_ok(&["-i", name, "-p", plot, "-o", &svg], dir);
            let svg = std::fs::read_to_string(dir.join(&svg)).unwrap();
            for s in &r.stations {
                // matplotlib names each text in a comment ("--" escaped as "- -").
                let legend = format!("<!-- {label} - - {} -->", s.name);
                assert!(
                    svg.contains(&legend),
                    "{name} {plot}: no line for {}",
                    s.name
                );
            }
        }
    }
}

const RRUL: &str = r#"name = "rrul-one"
duration = 8.0
step = 0.2
seed = 5

[[station]]
name = "sta"
standard = "ht"
mcs = 7

[[traffic]]
test = "rrul"
"#;

const VOIP: &str = r#"name = "voip-beside-tcp"
duration = 4.0
step = 0.2
seed = 5

[[station]]
name = "fast"
count = 2
standard = "ht"
mcs = 7

[[station]]
name = "slow"
standard = "ht"
mcs = 0

[[traffic]]
test = "tcp_download"

[[traffic]]
test = "ping"

[[traffic]]
test = "voip"
stations = ["fast2"]
"#;

/// rrul's classes as flent's rrul test names and marks them.
const RRUL_CLASSES: [(&str, u8); 4] = [("BE", 0), ("BK", 8), ("CS5", 40), ("EF", 46)];

#[test]
fn flent_reads_rrul_voip_and_the_flagship_as_their_flent_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let rrul = write(tmp.path(), "rrul.toml", RRUL);
    let voip = write(tmp.path(), "voip.toml", VOIP);
    let flagship = scenarios_dir().join("ending-the-anomaly.toml");
    let runs = [
        compare_with_flent(tmp.path(), &rrul, "8"),
        compare_with_flent(tmp.path(), &voip, "4"),
        compare_with_flent(tmp.path(), &flagship, "4"),
    ];
    if !flent_available(tmp.path()) {
        return;
    }
    for (i, (dir, files)) in runs.iter().enumerate() {
        for file in files {
            let r = results_of(file);
            let (test, expected) = match i {
                0 => {
                    let mut e = vec![series("Ping (ms) ICMP", Some(mean_rtt(&r, "sta")))];
                    for (class, dscp) in RRUL_CLASSES {
                        for (dir, word) in [("down", "download"), ("up", "upload")] {
                            let mean = goodput(&r, "sta", |_, d, c| d == dir && c == dscp);
                            e.push(series(format!("TCP {word} {class}"), Some(mean)));
                        }
                    }
                    ("rrul", e)
                }
                _ => {
                    let mut e = Vec::new();
                    for s in ["fast1", "fast2", "slow"] {
                        let down = goodput(&r, s, |t, d, _| t == "tcp_download" && d == "down");
                        e.push(series(format!("TCP download BE {s}"), Some(down)));
                        e.push(series(format!("Ping (ms) ICMP {s}"), Some(mean_rtt(&r, s))));
                    }
                    if i == 1 {
                        let call = goodput(&r, "fast2", |t, d, _| t == "voip" && d == "down");
                        e.push(series("VoIP::bitrate", Some(call * 1e3)));
                    }
                    ("rtt_fair_var_down", e)
                }
            };
            check_in_flent(file, &r, test, &expected, dir);
            if i == 1 {
                let meta = &flent_json(file)["metadata"];
                assert_eq!(meta["TEST_PARAMETERS"]["voip_host"], "fast2");
            }
        }
        check_plots(dir, files);
        if i == 2 {
            check_tcp_plots(dir, files);
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
    // The flent files are named on standard output.
    assert!(stdout(&out).contains("flent: "), "{}", stdout(&out));
    let out = airq()
        .arg("compare")
        .arg(udp_scenario())
        .args(["--duration", "2", "--configs", "fifo,airtime", "--flent"])
        .args(["--no-plots", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    assert!(stdout(&out).contains("flent: "), "{}", stdout(&out));
    let runs = [
        "ping-small-airtime_aql-seed3",
        "udp-flood-anomaly-fifo-seed1",
        "udp-flood-anomaly-airtime-seed1",
    ];
    for run in runs {
        let file = dir.path().join(format!("{run}.flent.gz"));
        assert!(file.exists(), "{}", file.display());
    }
    // flent labels each file of a plot by its TITLE: the run's variant, its other
    // settings and its seed.
    let title = |run: &str| {
        flent_json(&dir.path().join(format!("{run}.flent.gz")))["metadata"]["TITLE"].clone()
    };
    assert_eq!(title(runs[0]), "ping-small (airtime_aql, seed 3)");
    assert_eq!(
        title(runs[1]),
        "udp-flood-anomaly (fifo, duration=2.0, seed 1)"
    );
    if !flent_available(dir.path()) {
        return;
    }
    for run in runs {
        let file = dir.path().join(format!("{run}.flent.gz"));
        let r = results::load(&dir.path().join(format!("{run}.json.gz"))).unwrap();
        // UDP downloads: a name flent has no test for, beside the pings.
        let mut expected = Vec::new();
        for s in &r.stations {
            let udp = goodput(&r, &s.name, |t, d, _| t == "udp_flood" && d == "down");
            expected.push(series(format!("UDP download {}", s.name), Some(udp)));
            if r.flows
                .iter()
                .any(|f| f.station == s.name && f.test == "ping")
            {
                let rtt = mean_rtt(&r, &s.name);
                expected.push(series(format!("Ping (ms) ICMP {}", s.name), Some(rtt)));
            }
        }
        check_in_flent(&file, &r, "rtt_fair_var_down", &expected, dir.path());
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
