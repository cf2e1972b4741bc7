//! The exported document's structure: every key flent needs, every series as long as
//! `x_values`, raw samples at absolute times, and errors for bad paths and empty runs.

use std::io::Read;

use flate2::read::GzDecoder;

use super::*;
use crate::demo::demo_comparison;

fn demo_run() -> RunView {
    demo_comparison(1).runs.swap_remove(2)
}

fn document() -> Value {
    flent_document(&demo_run(), "demo", "x.flent.gz").unwrap()
}

#[test]
fn has_flent_version_4_and_required_metadata() {
    let doc = document();
    assert_eq!(doc["version"], 4);
    let meta = doc["metadata"].as_object().unwrap();
    for key in [
        "NAME",
        "TITLE",
        "TIME",
        "T0",
        "HOST",
        "HOSTS",
        "LOCAL_HOST",
        "LENGTH",
        "STEP_SIZE",
        "TOTAL_LENGTH",
        "TEST_PARAMETERS",
        "SERIES_META",
        "DATA_FILENAME",
    ] {
        assert!(meta.contains_key(key), "metadata lacks {key}");
    }
    assert_eq!(meta["NAME"], "rtt_fair_var_down");
    assert_eq!(meta["HOSTS"], json!(["fast1", "fast2", "slow"]));
    assert_eq!(meta["TIME"], "2026-01-01T00:00:00.000000Z");
    assert_eq!(
        meta["TEST_PARAMETERS"]["wifi_stats_stations"],
        "02:00:00:00:00:01,02:00:00:00:00:02,02:00:00:00:00:03"
    );
    assert_eq!(meta["SERIES_META"]["Ping (ms) ICMP slow"]["UNITS"], "ms");
}

#[test]
fn every_result_is_as_long_as_x_values() {
    let doc = document();
    let x = doc["x_values"].as_array().unwrap();
    assert_eq!(x.len(), 151);
    assert_eq!(x[150].as_f64().unwrap(), 150.0 * 0.2);
    let results = doc["results"].as_object().unwrap();
    // 3 stations x (download, ping, airtime tx, rx, aggregation size).
    assert_eq!(results.len(), 15);
    for (name, series) in results {
        assert_eq!(series.as_array().unwrap().len(), x.len(), "{name}");
    }
    assert!(results.contains_key("wifi_stats_ap::airtime_tx::02:00:00:00:00:03"));
}

#[test]
fn raw_values_are_absolute_and_match_results_on_the_grid() {
    let run = demo_run();
    let doc = document();
    let raw = doc["raw_values"]["TCP download BE fast2"]
        .as_array()
        .unwrap();
    assert_eq!(raw.len(), run.stations[1].download_mbps.len());
    // Step i's sample sits at T0 + (i+1)·step and reappears in results at x index i+1.
    let t0 = run.start_time_unix_s;
    assert!((raw[9]["t"].as_f64().unwrap() - (t0 + 2.0)).abs() < 1e-6);
    assert_eq!(raw[9]["val"], json!(run.stations[1].download_mbps[9]));
    let results = &doc["results"]["TCP download BE fast2"];
    let on_grid = results[10].as_f64().unwrap();
    assert!((on_grid - run.stations[1].download_mbps[9]).abs() < 1e-9);
    assert!(results[0].is_null());
    let ping = doc["raw_values"]["Ping (ms) ICMP slow"].as_array().unwrap();
    assert_eq!(ping[3]["seq"], 3);
    let wifi = doc["raw_values"]["wifi_stats_ap"].as_array().unwrap();
    let tx = &wifi[4]["stations"]["02:00:00:00:00:01"]["airtime_tx"];
    assert_eq!(tx, &json!(run.stations[0].airtime_tx_us[4]));
}

#[test]
fn uploads_switch_to_the_bidirectional_test() {
    let mut run = demo_run();
    run.stations[0].upload_mbps = vec![1.5; 100];
    let doc = flent_document(&run, "demo", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["NAME"], "rtt_fair_var");
    assert!(doc["results"]["TCP upload BE fast1"].is_array());
}

#[test]
fn file_is_gzip_json_and_reproducible() {
    let dir = std::env::temp_dir().join(format!("airq-flent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.flent.gz");
    write_flent(&demo_run(), "demo", &a).unwrap();
    let bytes = std::fs::read(&a).unwrap();
    write_flent(&demo_run(), "demo", &a).unwrap();
    assert!(bytes == std::fs::read(&a).unwrap(), "second write differs");
    let mut text = String::new();
    GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["metadata"]["DATA_FILENAME"], "a.flent.gz");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_suffix_and_empty_run_are_errors() {
    let err = write_flent(&demo_run(), "demo", Path::new("out.json.gz")).unwrap_err();
    assert!(
        matches!(err, ReportError::UnsupportedExtension { .. }),
        "{err}"
    );
    let mut run = demo_run();
    for sta in &mut run.stations {
        sta.download_mbps.clear();
        sta.ping_rtt_ms.clear();
        sta.airtime_tx_us.clear();
        sta.airtime_rx_us.clear();
    }
    let err = flent_document(&run, "demo", "x.flent.gz").unwrap_err();
    assert!(matches!(err, ReportError::EmptyData { .. }), "{err}");
}
