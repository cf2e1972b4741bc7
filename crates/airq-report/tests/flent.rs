//! The export against the real flent: files written by `write_flent` must load in flent
//! (2.3.0 checked), give its CSV and summary the stations' series with our numbers, and
//! plot. Without a `flent` on PATH the test prints a skip notice and passes, unless
//! `AIRQ_REQUIRE_FLENT=1` (as CI sets it), when a missing flent is a failure.

use std::path::{Path, PathBuf};

use airq_report::demo::demo_comparison;
use airq_report::{write_flent, FlowDirection, FlowKind, FlowView, RunView};

mod support;
use support::flent_tool::{flent_available, flent_ok, summary_avg};

fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("airq-flent-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.len() > 10_000 && bytes.starts_with(b"\x89PNG"),
        "{}: {} bytes, not a plotted PNG",
        path.display(),
        bytes.len()
    );
}

#[test]
fn flent_loads_summarises_and_plots_the_export() {
    if !flent_available(&std::env::temp_dir()) {
        return;
    }
    let dir = scratch_dir("export");
    let comparison = demo_comparison(1);
    let run: &RunView = &comparison.runs[2];
    let file = "fq_mac.flent.gz";
    write_flent(run, &comparison.scenario, "demo (seed 1)", &dir.join(file)).unwrap();

    flent_ok(&["-i", file, "-f", "csv", "-o", "out.csv"], &dir);
    let csv = std::fs::read_to_string(dir.join("out.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[0], "rtt_fair_var_down");
    for sta in &run.stations {
        for series in [
            format!("TCP download BE {}", sta.name),
            format!("Ping (ms) ICMP {}", sta.name),
            format!("wifi_stats_ap::airtime_tx::{}", sta.name),
        ] {
            assert!(header.contains(&series.as_str()), "CSV lacks {series}");
        }
    }
    // One row per x value: 30 s at 0.2 s from 0 inclusive.
    assert_eq!(csv.lines().count(), 1 + 151);

    // flent's own means of our raw samples are the stations' goodput and mean RTT.
    let summary = flent_ok(&["-i", file, "-f", "summary"], &dir);
    // flent's Jain index of the stations' airtime: its glob needs keys without ':'.
    let fairness = summary_avg(&summary, "wifi_stats_ap::airtime_fairness");
    assert!(fairness > 0.3 && fairness <= 1.0, "{summary}");
    for sta in &run.stations {
        let down = summary_avg(&summary, &format!("TCP download BE {}", sta.name));
        assert!(
            (down - sta.goodput_mbps).abs() < 0.006,
            "{}: {down}",
            sta.name
        );
        let rtts: Vec<f64> = sta.ping_rtt_ms.iter().map(|p| p.1).collect();
        let mean_rtt = rtts.iter().sum::<f64>() / rtts.len() as f64;
        let ping = summary_avg(&summary, &format!("Ping (ms) ICMP {}", sta.name));
        assert!(
            (ping - mean_rtt).abs() < 0.006,
            "{}: {ping} vs {mean_rtt}",
            sta.name
        );
    }

    for plot in ["all_scaled", "ping_cdf", "airtime_tx", "totals"] {
        let png = format!("{plot}.png");
        flent_ok(&["-i", file, "-p", plot, "-o", &png], &dir);
        assert_png(&dir.join(&png));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flent_plots_uploads_of_the_bidirectional_test() {
    if !flent_available(&std::env::temp_dir()) {
        return;
    }
    let dir = scratch_dir("upload");
    let comparison = demo_comparison(2);
    let mut run = comparison.runs[4].clone();
    let uploads: Vec<FlowView> = run
        .stations
        .iter()
        .map(|sta| FlowView {
            station: sta.name.clone(),
            test: "tcp_upload".into(),
            kind: FlowKind::Tcp,
            direction: FlowDirection::Up,
            goodput_mbps: sta.download_mbps.iter().map(|d| d / 4.0).collect(),
            ..FlowView::default()
        })
        .collect();
    run.flows.extend(uploads);
    write_flent(
        &run,
        "uploads",
        "uploads (seed 1)",
        &dir.join("up.flent.gz"),
    )
    .unwrap();
    let summary = flent_ok(&["-i", "up.flent.gz", "-f", "summary"], &dir);
    assert!(summary.contains("rtt_fair_var test"), "{summary}");
    let up = summary_avg(&summary, "TCP upload BE slow");
    let want = run.stations[2].goodput_mbps / 4.0;
    assert!((up - want).abs() < 0.006, "{up} vs {want}");
    flent_ok(
        &["-i", "up.flent.gz", "-p", "all_scaled", "-o", "up.png"],
        &dir,
    );
    assert_png(&dir.join("up.png"));
    std::fs::remove_dir_all(&dir).unwrap();
}
