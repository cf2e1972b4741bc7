//! The exported document's structure: every key flent needs, every series as long as
//! `x_values`, raw samples at absolute times, the flent test and series names the
//! run's flows map to, and errors for bad paths and empty runs.

use std::io::Read;

use flate2::read::GzDecoder;

use super::*;
use crate::demo::demo_comparison;
use crate::model::{FlowDirection, FlowKind, FlowView, VoipView};

fn demo_run() -> RunView {
    demo_comparison(1).runs.swap_remove(2)
}

fn document() -> Value {
    flent_document(&demo_run(), "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap()
}

/// The demo run's stations with only the flows `flows` makes of each (`i`, name).
fn with_flows(flows: impl Fn(usize, &str) -> Vec<FlowView>) -> RunView {
    let mut run = demo_run();
    run.flows = run
        .stations
        .iter()
        .enumerate()
        .flat_map(|(i, s)| flows(i, &s.name))
        .collect();
    run
}

fn flow(station: &str, test: &str, kind: FlowKind, direction: FlowDirection, dscp: u8) -> FlowView {
    FlowView {
        station: station.into(),
        test: test.into(),
        kind,
        direction,
        to: None,
        dscp,
        goodput_mbps: match kind {
            FlowKind::Ping | FlowKind::Http => Vec::new(),
            _ => vec![1.0 + f64::from(dscp); 150],
        },
        rtt_ms: match kind {
            FlowKind::Ping => vec![(1.0, 5.0), (2.0, 6.0)],
            _ => Vec::new(),
        },
        page_loads_s: match kind {
            FlowKind::Http => vec![(1.5, 0.5), (3.0, 0.5)],
            _ => Vec::new(),
        },
        voip: None,
        tcp_cwnd: Vec::new(),
        tcp_rtt_ms: Vec::new(),
    }
}

fn names(doc: &Value) -> Vec<String> {
    let mut names: Vec<String> = doc["results"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| !k.starts_with("wifi_stats"))
        .cloned()
        .collect();
    names.sort();
    names
}

use FlowDirection::{Down, Up};
use FlowKind::{Http, Ping, Tcp, Udp, Voip};

#[test]
fn has_flent_version_4_and_required_metadata() {
    let doc = document();
    assert_eq!(doc["version"], 4);
    let meta = doc["metadata"].as_object().unwrap();
    assert_eq!(meta["TITLE"], "demo (airtime, seed 1)");
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
        "fast1,fast2,slow"
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
    assert!(results.contains_key("wifi_stats_ap::airtime_tx::slow"));
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
    let tx = &wifi[4]["stations"]["fast1"]["airtime_tx"];
    assert_eq!(tx, &json!(run.stations[0].airtime_tx_us[4]));
}

/// flent's `tcp_cwnd` and `tcp_rtt` plots read `raw_values[<TCP series>]` entries with
/// `tcp_cwnd` and `tcp_rtt` keys, as its ss runner records them beside netperf's.
#[test]
fn tcp_series_carry_their_senders_window_and_rtt() {
    // Two downloads of one station and class (one series) and a UDP upload.
    let run = with_flows(|i, s| {
        if i != 0 {
            return Vec::new();
        }
        let mut a = flow(s, "tcp_download", Tcp, Down, 0);
        a.tcp_cwnd = vec![None, Some(10), Some(20)];
        a.tcp_rtt_ms = vec![None, None, Some(4.0)];
        let mut b = flow(s, "tcp_download", Tcp, Down, 0);
        b.tcp_cwnd = vec![None, None, Some(30)];
        b.tcp_rtt_ms = vec![None, None, Some(8.0)];
        vec![a, b, flow(s, "udp_flood_up", Udp, Up, 0)]
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    let (t0, step) = (run.start_time_unix_s, run.step_s);
    let raw = doc["raw_values"]["TCP download"].as_array().unwrap();
    let tcp: Vec<&Value> = raw.iter().filter(|e| e.get("tcp_cwnd").is_some()).collect();
    // None at the first step; the second has a window and no RTT sample yet; the third
    // sums the windows and averages the RTTs, as the series sums the goodput.
    assert_eq!(
        tcp,
        [
            &json!({"t": t0 + 2.0 * step, "tcp_cwnd": 10}),
            &json!({"t": t0 + 3.0 * step, "tcp_cwnd": 50, "tcp_rtt": 6.0}),
        ]
    );
    // Every goodput sample is still there, each step's before its TCP state.
    assert_eq!(raw.len(), 150 + 2);
    assert_eq!(raw[1]["val"], 2.0);
    assert_eq!(&raw[2], tcp[0]);
    let times: Vec<f64> = raw.iter().map(|e| e["t"].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
    let udp = doc["raw_values"]["UDP upload"].as_array().unwrap();
    assert!(udp.iter().all(|e| e.get("tcp_cwnd").is_none()));
    assert_eq!(udp.len(), 150);
    // What a sender cannot have measured is refused.
    let mut bad = run.clone();
    bad.flows[0].tcp_cwnd[1] = Some(0);
    let e = flent_document(&bad, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap_err();
    assert!(e.to_string().contains("tcp_cwnd[1]"), "{e}");
    let mut bad = run;
    bad.flows[1].tcp_rtt_ms[2] = Some(f64::NAN);
    let e = flent_document(&bad, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap_err();
    assert!(e.to_string().contains("tcp_rtt_ms[2]: NaN is not"), "{e}");
}

/// The measured mean aggregate size is one sample at the end of the run, not a constant
/// series.
#[test]
fn aggregate_size_is_one_measured_sample() {
    let run = demo_run();
    let doc = document();
    let wifi = doc["raw_values"]["wifi_stats_ap"].as_array().unwrap();
    let with_aggr = |entry: &Value| entry["stations"]["slow"].get("avg_aggr_size").is_some();
    assert_eq!(wifi.iter().filter(|e| with_aggr(e)).count(), 1);
    assert!(with_aggr(wifi.last().unwrap()));
    let results = doc["results"]["wifi_stats_ap::avg_aggr_size::slow"]
        .as_array()
        .unwrap();
    let present: Vec<&Value> = results.iter().filter(|v| !v.is_null()).collect();
    assert_eq!(present, [&json!(run.stations[2].avg_aggr_size)]);
}

#[test]
fn uploads_switch_to_the_bidirectional_tests() {
    // Every station both ways: rtt_fair_var.
    let run = with_flows(|_, s| {
        vec![
            flow(s, "tcp_bidirectional", Tcp, Down, 0),
            flow(s, "tcp_bidirectional", Tcp, Up, 0),
        ]
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["NAME"], "rtt_fair_var");
    assert!(doc["results"]["TCP upload BE fast1"].is_array());
    // Only uploads: rtt_fair_var_up.
    let run = with_flows(|_, s| vec![flow(s, "tcp_upload", Tcp, Up, 0)]);
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["NAME"], "rtt_fair_var_up");
    // One station uploads, the others download, one only pings: rtt_fair_var_mixed
    // with each stream's directions, and no series for a flow the run did not have.
    let run = with_flows(|i, s| match i {
        0 => vec![flow(s, "tcp_upload", Tcp, Up, 0)],
        1 => vec![flow(s, "tcp_download", Tcp, Down, 0)],
        _ => vec![flow(s, "ping", Ping, Down, 0)],
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["NAME"], "rtt_fair_var_mixed");
    assert_eq!(
        doc["metadata"]["TEST_PARAMETERS"]["data_directions"],
        "u,d,"
    );
    assert_eq!(
        names(&doc),
        [
            "Ping (ms) ICMP slow",
            "TCP download BE fast2",
            "TCP upload BE fast1"
        ]
    );
}

#[test]
fn rrul_on_one_station_is_flents_rrul_with_its_four_classes() {
    let classes = [0, 8, 40, 46];
    let run = with_flows(|i, s| {
        if i != 1 {
            return Vec::new();
        }
        let mut flows: Vec<FlowView> = classes
            .iter()
            .flat_map(|&c| [flow(s, "rrul", Tcp, Down, c), flow(s, "rrul", Tcp, Up, c)])
            .collect();
        flows.push(flow(s, "rrul", Ping, Down, 0));
        flows
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["NAME"], "rrul");
    assert_eq!(doc["metadata"]["HOSTS"], json!(["fast2"]));
    assert_eq!(
        names(&doc),
        [
            "Ping (ms) ICMP",
            "TCP download BE",
            "TCP download BK",
            "TCP download CS5",
            "TCP download EF",
            "TCP upload BE",
            "TCP upload BK",
            "TCP upload CS5",
            "TCP upload EF"
        ]
    );
    // Each class's own flow, not a sum over classes.
    assert_eq!(doc["raw_values"]["TCP download CS5"][0]["val"], 41.0);
}

#[test]
fn rrul_on_several_stations_is_one_labelled_stream_per_class() {
    let run = with_flows(|_, s| {
        [0, 8, 40, 46]
            .iter()
            .flat_map(|&c| [flow(s, "rrul", Tcp, Down, c), flow(s, "rrul", Tcp, Up, c)])
            .chain([flow(s, "rrul", Ping, Down, 0)])
            .collect()
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    let meta = &doc["metadata"];
    assert_eq!(meta["NAME"], "rtt_fair_var");
    assert_eq!(meta["HOSTS"].as_array().unwrap().len(), 12);
    assert_eq!(meta["HOSTS"][4], "fast2");
    let params = &meta["TEST_PARAMETERS"];
    assert_eq!(params["labels"], "BE,BK,CS5,EF,BE,BK,CS5,EF,BE,BK,CS5,EF");
    assert!(params["markings"]
        .as_str()
        .unwrap()
        .starts_with("CS0,CS1,CS5,EF,"));
    assert!(doc["results"]["TCP upload CS5 slow"].is_array());
    assert!(doc["results"]["Ping (ms) ICMP slow"].is_array());
}

/// A flow to make: its test, kind and direction.
type Made = (&'static str, FlowKind, FlowDirection);

#[test]
fn single_station_tests_take_flents_single_host_names() {
    let cases: [(&[Made], &str, &[&str]); 6] = [
        (
            &[("tcp_download", Tcp, Down), ("ping", Ping, Down)],
            "tcp_download",
            &["Ping (ms) ICMP", "TCP download"],
        ),
        (&[("tcp_upload", Tcp, Up)], "tcp_upload", &["TCP upload"]),
        (
            &[("udp_flood_up", Udp, Up), ("ping", Ping, Down)],
            "udp_flood",
            &["Ping (ms) ICMP", "UDP upload"],
        ),
        (&[("ping", Ping, Down)], "ping", &["Ping (ms) ICMP"]),
        (&[("http", Http, Down)], "http", &["HTTP latency"]),
        (
            &[("voip", Voip, Down), ("voip", Voip, Up)],
            "voip",
            &["VoIP::bitrate"],
        ),
    ];
    for (flows, test, series) in cases {
        let run = with_flows(|i, s| match i {
            2 => flows.iter().map(|&(t, k, d)| flow(s, t, k, d, 0)).collect(),
            _ => Vec::new(),
        });
        let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
        assert_eq!(doc["metadata"]["NAME"], test);
        assert_eq!(doc["metadata"]["HOSTS"], json!(["slow"]), "{test}");
        assert_eq!(names(&doc), series, "{test}");
    }
}

#[test]
fn voip_and_http_are_flents_mixins_beside_other_traffic() {
    let run = with_flows(|i, s| {
        let mut flows = vec![
            flow(s, "tcp_download", Tcp, Down, 0),
            flow(s, "ping", Ping, Down, 0),
        ];
        if i == 1 {
            let mut down = flow(s, "voip", Voip, Down, 46);
            down.voip = Some(VoipView {
                sent: 100,
                received: 98,
                mean_delay_ms: 12.0,
                jitter_ms: 1.5,
                mos: 4.3,
            });
            flows.extend([down, flow(s, "voip", Voip, Up, 46)]);
        }
        if i == 2 {
            flows.push(flow(s, "http", Http, Down, 0));
        }
        flows
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    let meta = &doc["metadata"];
    assert_eq!(meta["NAME"], "rtt_fair_var_down");
    assert_eq!(meta["TEST_PARAMETERS"]["voip_host"], "fast2");
    assert_eq!(meta["TEST_PARAMETERS"]["include_http"], "1");
    // The downlink leg, in Kbit/s, with the call's quality beside it.
    assert_eq!(doc["raw_values"]["VoIP::bitrate"][0]["val"], 47_000.0);
    let voip_meta = &meta["SERIES_META"]["VoIP::bitrate"];
    assert_eq!(voip_meta["UNITS"], "Kbits/s");
    assert_eq!(voip_meta["PACKETS_RECEIVED"], 98);
    assert_eq!(voip_meta["OWD_DOWN_MEAN"], 12.0);
    // Page loads at their completion, in ms.
    let http = doc["raw_values"]["HTTP latency"].as_array().unwrap();
    assert_eq!(http[1]["val"], 500.0);
    assert_eq!(http[1]["t"], json!(demo_run().start_time_unix_s + 3.0));
    assert!(!names(&doc).iter().any(|n| n.starts_with("TCP upload")));
}

#[test]
fn a_ping_to_another_station_is_a_series_of_its_own() {
    let to_slow = |s: &str| FlowView {
        to: Some("slow".into()),
        rtt_ms: vec![(1.0, 30.0), (2.0, 31.0)],
        ..flow(s, "ping", Ping, Up, 0)
    };
    // One station: its server ping and its ping to `slow`, each a series.
    let run = with_flows(|i, s| match i {
        0 => vec![flow(s, "ping", Ping, Down, 0), to_slow(s)],
        _ => Vec::new(),
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(names(&doc), ["Ping (ms) ICMP", "Ping (ms) ICMP to slow"]);
    let rtts = |name: &str| -> Vec<f64> {
        doc["raw_values"][name]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["val"].as_f64().unwrap())
            .collect()
    };
    assert_eq!(rtts("Ping (ms) ICMP"), [5.0, 6.0]);
    assert_eq!(rtts("Ping (ms) ICMP to slow"), [30.0, 31.0]);
    // Several stations: named by host, a station that only pings another a stream.
    let run = with_flows(|i, s| match i {
        0 => vec![to_slow(s)],
        _ => vec![flow(s, "ping", Ping, Down, 0)],
    });
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert!(
        names(&doc).contains(&"Ping (ms) ICMP fast1 to slow".to_string())
            && !names(&doc).contains(&"Ping (ms) ICMP fast1".to_string()),
        "{:?}",
        names(&doc)
    );
    assert_eq!(doc["metadata"]["HOSTS"][0], "fast1");
}

#[test]
fn station_names_become_flent_hosts_without_separators() {
    let mut run = demo_run();
    run.stations[0].name = "a:b,c".into();
    for f in run.flows.iter_mut().filter(|f| f.station == "fast1") {
        f.station = "a:b,c".into();
    }
    let doc = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap();
    assert_eq!(doc["metadata"]["HOSTS"][0], "a_b_c");
    assert!(doc["results"]["wifi_stats_ap::airtime_tx::a_b_c"].is_array());
    assert!(doc["results"]["TCP download BE a_b_c"].is_array());
}

#[test]
fn file_is_gzip_json_and_reproducible() {
    let dir = std::env::temp_dir().join(format!("airq-flent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.flent.gz");
    write_flent(&demo_run(), "demo", "demo (airtime, seed 1)", &a).unwrap();
    let bytes = std::fs::read(&a).unwrap();
    write_flent(&demo_run(), "demo", "demo (airtime, seed 1)", &a).unwrap();
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
    let err = write_flent(
        &demo_run(),
        "demo",
        "demo (airtime, seed 1)",
        Path::new("out.json.gz"),
    )
    .unwrap_err();
    assert!(
        matches!(err, ReportError::UnsupportedExtension { .. }),
        "{err}"
    );
    let mut run = demo_run();
    run.flows.clear();
    for sta in &mut run.stations {
        sta.airtime_tx_us.clear();
        sta.airtime_rx_us.clear();
    }
    let err = flent_document(&run, "demo", "demo (airtime, seed 1)", "x.flent.gz").unwrap_err();
    assert!(matches!(err, ReportError::EmptyData { .. }), "{err}");
}
