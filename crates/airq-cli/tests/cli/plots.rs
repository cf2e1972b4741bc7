//! Plots: `airq plot` redraws every figure from results files, `compare` draws the
//! standard ones beside its results, and bad plot names, missing files, plots without
//! data and mixed scenarios are refused with messages that say so.

use super::{airq, assert_png, stdout, udp_scenario, write, PING};
use airq_report::PlotKind;
use predicates::str::contains;
use std::path::{Path, PathBuf};

/// `compare` of `scenario` for 2 s under `configs` into `dir`, with `extra` arguments;
/// its standard output.
fn compare(scenario: &Path, configs: &str, dir: &Path, extra: &[&str]) -> String {
    let a = airq()
        .arg("compare")
        .arg(scenario)
        .args(["--duration", "2", "--configs", configs, "-o"])
        .arg(dir)
        .args(extra)
        .assert()
        .success();
    stdout(&a)
}

/// The files in `dir` ending in `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    found.sort();
    found
}

#[test]
fn plot_draws_every_kind_from_results_files() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(dir.path(), "ping.toml", PING);
    // The firmware driver, for the queue-depth plot.
    compare(
        &scenario,
        "fifo,airtime_aql",
        dir.path(),
        &["-q", "--no-plots", "--driver", "firmware"],
    );
    assert!(files(dir.path(), ".png").is_empty(), "--no-plots drew");
    let results = files(dir.path(), ".json.gz");
    assert_eq!(results.len(), 2);
    for kind in PlotKind::ALL {
        let png = dir.path().join(format!("{}.png", kind.name()));
        let out = airq()
            .arg("plot")
            .args(&results)
            .args(["-p", kind.name(), "-o"])
            .arg(&png)
            .assert()
            .success();
        assert_eq!(stdout(&out), format!("plot: {}\n", png.display()));
        assert_png(&png);
    }
    // One file is a comparison of one; the default name is `<scenario>-<plot>.png` here;
    // `.svg` gives SVG.
    airq()
        .current_dir(dir.path())
        .arg("plot")
        .arg(&results[0])
        .args(["-p", "timeseries"])
        .assert()
        .success()
        .stdout("plot: ping-small-timeseries.png\n");
    assert_png(&dir.path().join("ping-small-timeseries.png"));
    let svg = dir.path().join("cdf.svg");
    airq()
        .args(["-q", "plot"])
        .args(&results)
        .args(["-p", "latency_cdf", "-o"])
        .arg(&svg)
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("airtime_aql"),
        "{svg:?}"
    );
}

#[test]
fn plot_errors_name_the_plot_the_file_or_the_missing_data() {
    let dir = tempfile::tempdir().unwrap();
    let ping = write(dir.path(), "ping.toml", PING);
    compare(&ping, "fifo", dir.path(), &["-q", "--no-plots"]);
    compare(&udp_scenario(), "fifo", dir.path(), &["-q", "--no-plots"]);
    let ping_run = dir.path().join("ping-small-fifo-seed3.json.gz");
    let udp_run = dir.path().join("udp-flood-anomaly-fifo-seed1.json.gz");
    let plot = |files: &[&Path], args: &[&str]| {
        let a = airq()
            .current_dir(dir.path())
            .arg("plot")
            .args(files)
            .args(args)
            .assert()
            .failure();
        String::from_utf8(a.get_output().stderr.clone()).unwrap()
    };
    let e = plot(&[&udp_run], &["-p", "latency"]);
    assert!(
        e.contains("invalid value 'latency' for '--plot <PLOT>'"),
        "{e}"
    );
    assert!(
        e.contains("[possible values: latency_cdf, goodput, airtime"),
        "{e}"
    );
    let missing = dir.path().join("nope.json.gz");
    let e = plot(&[&udp_run, &missing], &["-p", "goodput"]);
    assert!(
        e.contains(&format!("cannot open {}: ", missing.display())),
        "{e}"
    );
    let e = plot(&[&udp_run], &["-p", "latency_cdf"]);
    assert!(
        e.contains("no station of any run has ping samples (the scenario needs a `ping`"),
        "{e}"
    );
    let e = plot(&[&ping_run], &["-p", "queue_depth"]);
    assert!(
        e.contains("no run has driver_queue samples (only the firmware"),
        "{e}"
    );
    let e = plot(&[&ping_run, &udp_run], &["-p", "goodput"]);
    assert!(
        e.contains(&format!(
            "airq: {} (fifo of `ping-small`, seed 3, 2 s) and {} (fifo of \
             `udp-flood-anomaly`, seed 1, 2 s) are runs of different experiments",
            ping_run.display(),
            udp_run.display(),
        )),
        "{e}"
    );
    let e = plot(&[&ping_run, &ping_run], &["-p", "goodput"]);
    assert!(e.contains("are the same run (`fifo`)"), "{e}");
    let e = plot(&[&ping_run], &["-p", "goodput", "-o", "g.pdf"]);
    assert!(e.contains("g.pdf: unsupported file extension"), "{e}");
    let not_results = write(dir.path(), "x.json.gz", "not gzip");
    let e = plot(&[&not_results], &["-p", "goodput"]);
    assert!(e.contains("cannot decompress"), "{e}");
    assert!(
        files(dir.path(), ".png").is_empty(),
        "nothing drawn on error"
    );
}

#[test]
fn compare_draws_the_plots_its_runs_have_data_for() {
    let dir = tempfile::tempdir().unwrap();
    // No ping: no latency CDF; the firmware driver: queue depths.
    let out = compare(
        &udp_scenario(),
        "fifo,airtime,airtime_aql",
        dir.path(),
        &["--set", "ap.driver=firmware"],
    );
    let udp = ["goodput", "airtime", "timeseries", "queue_depth"];
    let expected: Vec<PathBuf> = udp
        .iter()
        .map(|p| {
            // The driver chosen on the command line is in the name, and the runs
            // (not the five presets: plots of another comparison keep their names).
            dir.path().join(format!(
                "udp-flood-anomaly+driver=firmware-fifo,airtime,airtime_aql-seed1-{p}.png"
            ))
        })
        .collect();
    for path in &expected {
        assert!(
            out.contains(&format!("plot: {}\n", path.display())),
            "{out}"
        );
        assert_png(path);
    }
    assert_eq!(files(dir.path(), ".png").len(), 4);
    // Ping, and only softmac drivers: a latency CDF, no queue depths.
    let ping = write(dir.path(), "ping.toml", PING);
    let out = compare(&ping, "fifo,airtime", dir.path(), &["-q"]);
    assert_eq!(out, "", "-q prints nothing");
    let drawn = files(dir.path(), ".png");
    let names: Vec<&str> = drawn
        .iter()
        .filter_map(|p| {
            p.file_name()?
                .to_str()?
                .strip_prefix("ping-small-fifo,airtime-seed3-")
        })
        .collect();
    assert_eq!(
        names,
        [
            "airtime.png",
            "goodput.png",
            "latency_cdf.png",
            "timeseries.png"
        ]
    );
}

#[test]
fn list_plots_names_every_kind() {
    let a = airq().args(["list", "plots"]).assert().success();
    let listed = stdout(&a);
    for kind in PlotKind::ALL {
        assert!(
            listed
                .lines()
                .any(|l| l.starts_with(kind.name()) && l.contains(kind.description())),
            "{listed}"
        );
    }
    airq()
        .args(["list", "plot"])
        .assert()
        .failure()
        .stderr(contains(
            "[possible values: scenarios, configs, tests, plots, keys]",
        ));
}
