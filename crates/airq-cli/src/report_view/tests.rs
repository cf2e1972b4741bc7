//! Results → report model, on a hand-made two-station results file whose per-step
//! numbers are worked out by hand in each test.

use super::*;
use crate::results::{
    ChannelSummary, FlowSummary, Metadata, QueueSeries, Series, StationSummary, FORMAT_NAME,
    FORMAT_VERSION,
};
use std::path::PathBuf;

const SCENARIO: &str = "name = \"two\"\nduration = 1.0\nstep = 0.5\n[[station]]\nname = \"a\"\n\
    standard = \"ht\"\nmcs = 7\n[[station]]\nname = \"b\"\nstandard = \"ht\"\nmcs = 0\n\
    [[traffic]]\ntest = \"udp_flood\"\n[[traffic]]\ntest = \"ping\"\n";

fn station(name: &str, down_bytes: u64, up_bytes: u64, down_s: f64, up_s: f64) -> StationSummary {
    StationSummary {
        name: name.into(),
        rate: "HT MCS 7 20 MHz LGI".into(),
        phy_rate_mbps: 65.0,
        goodput_mbps: 0.5,
        rx_bytes_down: down_bytes,
        rx_bytes_up: up_bytes,
        rx_packets_down: 1,
        rx_packets_up: 1,
        airtime_share: 0.5,
        airtime_down_s: down_s,
        airtime_up_s: up_s,
        drops: Default::default(),
        mpdus_per_ampdu_down: 12.5,
        mpdus_per_ampdu_up: 1.0,
        mpdu_failures_down: 0,
        mpdu_failures_up: 0,
        collisions: 0,
        mean_delay_ms: None,
        max_delay_ms: 0.0,
        ping_rtt_ms: None,
        ping_loss: None,
        rate_control: None,
        radio_down: None,
        radio_up: None,
        codel: None,
    }
}

fn flow(
    station: &str,
    test: &str,
    direction: &str,
    mbps: f64,
    rtt_ms: Vec<[f64; 2]>,
) -> FlowSummary {
    FlowSummary {
        station: station.into(),
        test: test.into(),
        direction: direction.into(),
        to: None,
        dscp: 0,
        goodput_mbps: mbps,
        rtt_ms,
        pings_sent: None,
        pings_lost: None,
        voip: None,
        tcp: None,
        page_load_s: Vec::new(),
    }
}

/// Station `a` receives, `b` receives and sends (goodput 1 : 3), both ping; two 0.5 s
/// steps.
pub(crate) fn results(config: &str) -> ResultsFile {
    ResultsFile {
        format: FORMAT_NAME.into(),
        format_version: FORMAT_VERSION,
        metadata: Metadata {
            airq_version: "0".into(),
            scenario: "two".into(),
            scenario_file: "two.toml".into(),
            scenario_text: SCENARIO.into(),
            overrides: Vec::new(),
            seed: 1,
            config: config.into(),
            variant: config.into(),
            variant_set: Vec::new(),
            ap_config: serde_json::Value::Null,
            command_line: Vec::new(),
            started_utc: "2025-01-01T00:00:00Z".into(),
            wall_s: 0.1,
            events: 1,
            duration_s: 1.0,
            omit_s: 0.0,
            step_s: 0.5,
            bss_timing: None,
            bss_protection: None,
            emulation: None,
        },
        stations: vec![
            station("a", 2510, 0, 0.3, 0.0),
            station("b", 100, 300, 0.1, 0.3),
        ],
        flows: vec![
            flow("a", "udp_flood", "down", 0.02, Vec::new()),
            flow("b", "udp_flood", "down", 0.0008, Vec::new()),
            flow("b", "udp_flood_up", "up", 0.0024, Vec::new()),
            flow("a", "ping", "down", 0.0, vec![[0.6, 5.0], [0.2, 4.0]]),
            flow("b", "ping", "down", 0.0, vec![[0.4, 9.0]]),
        ],
        channel: ChannelSummary {
            busy_s: 0.7,
            collision_s: 0.0,
            beacon_s: 0.0,
            idle_s: 0.3,
            exchanges: 1,
            collisions: 0,
        },
        series: Series {
            t_s: vec![0.5, 1.0],
            rx_bytes: vec![vec![1000, 200], vec![2500, 400]],
            airtime_s: vec![vec![0.1, 0.1], vec![0.3, 0.4]],
            airtime_up_s: vec![vec![0.0, 0.08], vec![0.0, 0.18]],
            flow_rx_bytes: vec![vec![1000, 50, 100, 10, 0], vec![2500, 100, 300, 20, 0]],
            // As a file written before the TCP senders' state was recorded.
            flow_tcp_cwnd: Vec::new(),
            flow_tcp_rtt_ms: Vec::new(),
            ap_queued_packets: vec![0, 0],
            ap_driver_frames: vec![0, 0],
            ap_driver_airtime_ms: vec![0.0, 0.0],
        },
        ap_queue: QueueSeries {
            step_s: 0.25,
            queued_packets: vec![1, 2, 3, 4],
            driver_frames: vec![5, 6, 7, 8],
            driver_airtime_ms: vec![0.5, 1.0, 1.5, 2.0],
        },
        stalls: Vec::new(),
        admission: None,
        aggregation: None,
        starvation: Vec::new(),
        flow_index: Default::default(),
    }
}

#[test]
fn stalls_are_named_in_a_warning() {
    let mut r = results("airtime");
    assert_eq!(crate::commands::stall_warning(&r), None);
    r.stalls.push(crate::results::StallSummary {
        station: "b".into(),
        idle_since_s: 1.25,
        detected_at_s: 1.35,
    });
    let w = crate::commands::stall_warning(&r).unwrap();
    assert!(w.contains("two under airtime (seed"), "{w}");
    assert!(w.contains("stalled 1 time(s)"), "{w}");
    assert!(w.contains("b idle from 1.250 s to at least 1.350 s"), "{w}");
}

#[test]
fn starved_stations_are_named_in_a_warning() {
    let mut r = results("fq_mac");
    assert_eq!(crate::commands::starvation_warning(&r), None);
    // Served often (1000 packets in 12.5-MPDU aggregates, 80 turns in the 1 s measured): a
    // second without a turn is a station left out.
    for s in &mut r.stations {
        s.rx_packets_down = 1000;
    }
    r.starvation.push(crate::results::StarvationSummary {
        station: "b".into(),
        since_s: 5.0,
        until_s: Some(10.6),
        above_mac: false,
        behind_higher_ac: false,
    });
    r.starvation.push(crate::results::StarvationSummary {
        station: "a".into(),
        since_s: 12.2,
        until_s: None,
        above_mac: false,
        behind_higher_ac: false,
    });
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("two under fq_mac (seed"), "{w}");
    assert!(w.contains("starved stations 2 time(s)"), "{w}");
    assert!(
        w.contains("b from 5.0 s to 10.6 s; a from 12.2 s to the end"),
        "{w}"
    );
    assert!(crate::commands::warnings(&r).contains(&w));
    assert!(w.contains("defect of the model"), "{w}");
    assert!(!w.contains("collided"), "{w}");
    // Where collisions were common, the warning says how common.
    r.channel.exchanges = 1000;
    r.channel.collisions = 170;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(
        w.contains(
            "or its frames collide: 2 stations, 17% of the exchanges collided), this is a defect"
        ),
        "{w}"
    );
    r.channel.collisions = 0;
    // Stations that got a turn (an exchange carrying their frames) every 0.25 s or less
    // often, on average, wait a second now and then at that pace: the warning gives the
    // pace instead. A turn is an aggregate: 1000 packets in 12.5-MPDU aggregates over
    // 20 s are a turn every 0.25 s, however many packets a second that makes.
    r.metadata.duration_s = 20.0;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("starved stations 2 time(s)"), "{w}");
    assert!(
        w.contains("b a turn every 0.25 s on average, 1000 packets in all, 50.0% of the airtime"),
        "{w}"
    );
    assert!(!w.contains("defect"), "{w}");
    // Failed MPDUs were sent too: one failure per MPDU received halves the interval.
    r.stations[1].mpdu_failures_down = 1000;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("defect of the model"), "{w}");
    r.stations[1].mpdu_failures_down = 0;
    // One station served often enough makes it a defect again.
    r.stations[0].rx_packets_down = 4000;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("defect of the model"), "{w}");
    // A station that got nothing has no pace of its own: slow-paced only if the
    // stations' average pace is slow (here 20 s × 2 stations / 80 turns = 0.5 s).
    r.stations[0].rx_packets_down = 0;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(
        w.contains("no packet in the measured time, where a station got a turn every 0.50 s"),
        "{w}"
    );
    assert!(!w.contains("defect"), "{w}");
    // Nobody served at all: no average pace to give (it is not an infinite one).
    r.stations[1].rx_packets_down = 0;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(
        w.contains("b no packet in the measured time, where no station got a turn"),
        "{w}"
    );
    assert!(!w.contains("inf"), "{w}");
    r.stations[1].rx_packets_down = 4000;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("defect of the model"), "{w}");
    // Lock-outs (every packet in the qdisc, the driver's shared queue full): one of two
    // is named beside the defect; both, and the warning says it is the design's.
    r.starvation[0].above_mac = true;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("defect of the model"), "{w}");
    assert!(w.contains("(1 of the episodes were lock-outs"), "{w}");
    r.starvation[1].above_mac = true;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(!w.contains("defect"), "{w}");
    assert!(
        w.contains("the lock-out of a driver without per-station queues under a qdisc"),
        "{w}"
    );
    // Behind a higher-priority AC (station-first under per_ac): one of two is named
    // beside the defect; both, and the warning says it is the design's QoS.
    r.starvation[0].above_mac = false;
    r.starvation[1].above_mac = false;
    r.starvation[0].behind_higher_ac = true;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("defect of the model"), "{w}");
    assert!(
        w.contains("(1 of the episodes were behind a higher-priority access category"),
        "{w}"
    );
    r.starvation[1].above_mac = true;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("1 of the episodes were lock-outs"), "{w}");
    assert!(w.contains("; 1 of the episodes were behind"), "{w}");
    r.starvation[1].above_mac = false;
    r.starvation[1].behind_higher_ac = true;
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(!w.contains("defect"), "{w}");
    assert!(w.contains("the design's QoS at work"), "{w}");
}

/// A run in which most exchanges collided is flagged, whatever its other figures.
#[test]
fn a_collapsed_channel_is_named_in_a_warning() {
    let mut r = results("airtime");
    r.channel.exchanges = 31_006;
    r.channel.collisions = 10_000;
    assert_eq!(crate::commands::collapse_warning(&r), None);
    r.channel.collisions = 30_181;
    r.channel.collision_s = 6.418;
    r.channel.busy_s = 0.168;
    let w = crate::commands::collapse_warning(&r).unwrap();
    assert!(
        w.contains("97% of the 31006 exchanges collided (6.42 s of collisions against 0.17 s"),
        "{w}"
    );
    assert!(w.contains("contention of 2 stations"), "{w}");
    assert!(crate::commands::warnings(&r).contains(&w));
    // Too few exchanges to say.
    r.channel.exchanges = 50;
    r.channel.collisions = 40;
    assert_eq!(crate::commands::collapse_warning(&r), None);
}

/// Thousands of slow-paced starved stations: the warning names five of each list and
/// counts the rest, instead of growing with the stations.
#[test]
fn a_warning_about_many_starved_stations_stays_short() {
    let mut r = results("fq_mac");
    let template = r.stations[0].clone();
    r.stations = (0..1000)
        .map(|i| {
            let mut s = template.clone();
            s.name = format!("s{i}");
            s.rx_packets_down = 2;
            s
        })
        .collect();
    r.starvation = (0..1000)
        .map(|i| crate::results::StarvationSummary {
            station: format!("s{i}"),
            since_s: 1.0,
            until_s: None,
            above_mac: false,
            behind_higher_ac: false,
        })
        .collect();
    let w = crate::commands::starvation_warning(&r).unwrap();
    assert!(w.contains("and 995 more."), "{w}");
    assert!(
        w.contains(
            "s4 a turn every 6.25 s on average, 2 packets in all, 50.0% of the airtime and 995 more)"
        ),
        "{w}"
    );
    assert!(w.len() < 1500, "{} bytes: {w}", w.len());
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-9 * w.abs().max(1e-3),
            "{got:?} vs {want:?}"
        );
    }
}

/// Mbit/s of `bytes` in a 0.5 s step.
fn mbps(bytes: f64) -> f64 {
    bytes * 8.0 / 0.5 / 1e6
}

#[test]
fn goodput_per_step_is_the_flows_byte_differences_by_direction() {
    let v = run_view(&results("fifo")).unwrap();
    let (a, b) = (&v.stations[0], &v.stations[1]);
    // a: its UDP and ping flows, 1000 + 10 then 1500 + 10 bytes.
    close(&a.download_mbps, &[mbps(1010.0), mbps(1510.0)]);
    close(&a.upload_mbps, &[0.0, 0.0]);
    close(&b.download_mbps, &[mbps(50.0), mbps(50.0)]);
    close(&b.upload_mbps, &[mbps(100.0), mbps(200.0)]);
    assert_eq!((v.duration_s, v.step_s), (1.0, 0.5));
    assert_eq!(
        (a.goodput_mbps, a.airtime_share, a.avg_aggr_size),
        (0.5, 0.5, 12.5)
    );
}

#[test]
fn without_per_flow_bytes_the_stations_ip_bytes_are_split_by_its_flows_goodput() {
    let mut r = results("fifo");
    r.series.flow_rx_bytes.clear();
    let v = run_view(&r).unwrap();
    let (a, b) = (&v.stations[0], &v.stations[1]);
    close(&a.download_mbps, &[mbps(1000.0), mbps(1500.0)]);
    close(&a.upload_mbps, &[0.0, 0.0]);
    // b's flows had 0.8 kbit/s down and 2.4 up over the run: a quarter of each step is
    // down.
    close(&b.download_mbps, &[mbps(50.0), mbps(50.0)]);
    close(&b.upload_mbps, &[mbps(150.0), mbps(150.0)]);
}

#[test]
fn tcp_senders_state_is_the_flows_column_and_absent_without_tcp() {
    let v = run_view(&results("fifo")).unwrap();
    assert!(v.flows.iter().all(|f| f.tcp_cwnd.is_empty()), "older file");
    let mut r = results("fifo");
    r.flows[0].test = "tcp_download".into();
    r.series.flow_tcp_cwnd = vec![
        vec![Some(10), None, None, None, None],
        vec![Some(14), None, None, None, None],
    ];
    r.series.flow_tcp_rtt_ms = vec![vec![None; 5], vec![Some(3.5), None, None, None, None]];
    // Flows without TCP are `null` in the file; files without the series still load.
    let mut json = serde_json::to_value(&r).unwrap();
    assert_eq!(
        json["series"]["flow_tcp_cwnd"][1],
        serde_json::json!([14, null, null, null, null])
    );
    let series = json["series"].as_object_mut().unwrap();
    series.remove("flow_tcp_cwnd");
    series.remove("flow_tcp_rtt_ms");
    let older: ResultsFile = serde_json::from_value(json).unwrap();
    assert!(older.series.flow_tcp_cwnd.is_empty() && older.series.flow_tcp_rtt_ms.is_empty());
    let v = run_view(&r).unwrap();
    assert_eq!(v.flows[0].tcp_cwnd, [Some(10), Some(14)]);
    assert_eq!(v.flows[0].tcp_rtt_ms, [None, Some(3.5)]);
    // Flows without TCP: null at every sample, nothing in the view.
    assert!(v.flows[1..].iter().all(|f| f.tcp_cwnd.is_empty()));
    assert!(v.flows[1..].iter().all(|f| f.tcp_rtt_ms.is_empty()));
    // Checked as the other series are.
    let mut bad = r.clone();
    bad.series.flow_tcp_rtt_ms[1].pop();
    let e = run_view(&bad).unwrap_err();
    assert_eq!(
        e.message(),
        "series.flow_tcp_rtt_ms[1] has 4 values, expected 5"
    );
    let mut bad = r;
    bad.series.flow_tcp_cwnd.pop();
    let e = run_view(&bad).unwrap_err();
    assert_eq!(
        e.message(),
        "series.flow_tcp_cwnd has 1 samples but series.t_s has 2"
    );
}

#[test]
fn airtime_per_step_is_measured_each_way() {
    let v = run_view(&results("fifo")).unwrap();
    let (a, b) = (&v.stations[0], &v.stations[1]);
    close(&a.airtime_tx_us, &[100_000.0, 200_000.0]);
    close(&a.airtime_rx_us, &[0.0, 0.0]);
    // b: 0.1 s then 0.3 s in all, of which 0.08 s then 0.1 s up.
    close(&b.airtime_tx_us, &[20_000.0, 200_000.0]);
    close(&b.airtime_rx_us, &[80_000.0, 100_000.0]);
}

#[test]
fn airtime_per_step_of_older_files_is_split_by_the_runs_down_and_up_airtime() {
    let mut r = results("fifo");
    r.series.airtime_up_s.clear();
    let v = run_view(&r).unwrap();
    let (a, b) = (&v.stations[0], &v.stations[1]);
    close(&a.airtime_tx_us, &[100_000.0, 200_000.0]);
    close(&a.airtime_rx_us, &[0.0, 0.0]);
    // b: 0.1 s then 0.3 s, a quarter of it down (0.1 s of 0.4 s over the run).
    close(&b.airtime_tx_us, &[25_000.0, 75_000.0]);
    close(&b.airtime_rx_us, &[75_000.0, 225_000.0]);
}

#[test]
fn pings_are_the_stations_flows_samples_in_time_order() {
    let v = run_view(&results("fifo")).unwrap();
    assert_eq!(v.stations[0].ping_rtt_ms, [(0.2, 4.0), (0.6, 5.0)]);
    assert_eq!(v.stations[1].ping_rtt_ms, [(0.4, 9.0)]);
}

#[test]
fn macs_follow_the_station_index() {
    let v = run_view(&results("fifo")).unwrap();
    assert_eq!(v.stations[0].mac, "02:00:00:00:00:01");
    assert_eq!(v.stations[1].mac, "02:00:00:00:00:02");
    assert_eq!(station_mac(299), "02:00:00:00:01:2c");
}

#[test]
fn the_driver_queue_is_shown_only_for_the_firmware_driver() {
    assert_eq!(run_view(&results("fifo")).unwrap().driver_queue, None);
    assert_eq!(run_view(&results("airtime")).unwrap().driver_queue, None);
    assert_eq!(
        run_view(&results("airtime_aql")).unwrap().driver_queue,
        None
    );
    // A scenario that gives the presets the firmware driver.
    let mut r = results("airtime_aql");
    r.metadata.scenario_text = format!("{SCENARIO}[ap]\ndriver = \"firmware\"\n");
    let q = run_view(&r).unwrap().driver_queue.unwrap();
    assert_eq!(q.frames, [5.0, 6.0, 7.0, 8.0]);
    close(&q.airtime_us, &[500.0, 1000.0, 1500.0, 2000.0]);
}

#[test]
fn the_start_time_is_read_from_rfc3339() {
    let v = run_view(&results("fifo")).unwrap();
    assert_eq!(v.start_time_unix_s, 1_735_689_600.0);
    let mut r = results("fifo");
    r.metadata.started_utc = "yesterday".into();
    let e = run_view(&r).unwrap_err();
    assert!(
        e.message().starts_with("metadata.started_utc: `yesterday`"),
        "{e}"
    );
}

#[test]
fn series_that_do_not_fit_the_file_are_refused() {
    let mut r = results("fifo");
    r.series.t_s[1] = 0.9;
    let e = run_view(&r).unwrap_err();
    assert_eq!(e.message(), "series.t_s[1] = 0.9 s is not step 2 of 0.5 s");
    let mut r = results("fifo");
    r.series.airtime_s[1].pop();
    let e = run_view(&r).unwrap_err();
    assert_eq!(e.message(), "series.airtime_s[1] has 1 values, expected 2");
    let mut r = results("fifo");
    r.flows[0].station = "c".into();
    assert!(run_view(&r).unwrap_err().message().contains("`c`"));
}

#[test]
fn a_comparison_takes_one_run_per_variant_of_one_experiment() {
    let (fifo, aql) = (results("fifo"), results("airtime_aql"));
    let (p1, p2) = (PathBuf::from("f.json.gz"), PathBuf::from("q.json.gz"));
    let c = comparison([(p1.as_path(), &fifo), (p2.as_path(), &aql)], false).unwrap();
    assert_eq!(c.scenario, "two");
    let configs: Vec<&str> = c.runs.iter().map(|r| r.config.as_str()).collect();
    assert_eq!(configs, ["fifo", "airtime_aql"]);

    let mut other = results("airtime");
    other.metadata.scenario = "three".into();
    let e = comparison([(p1.as_path(), &fifo), (p2.as_path(), &other)], false).unwrap_err();
    assert!(
        e.message().starts_with(
            "f.json.gz (fifo of `two`, seed 1, 1 s) and q.json.gz (airtime of `three`, seed \
             1, 1 s) are runs of different experiments (their scenario differ)"
        ),
        "{e}"
    );
    let c = comparison([(p1.as_path(), &fifo), (p2.as_path(), &other)], true).unwrap();
    let labels: Vec<&str> = c.runs.iter().map(|r| r.config.as_str()).collect();
    assert_eq!(labels, ["two:fifo", "three:airtime"]);

    let mut seed2 = results("fifo");
    seed2.metadata.seed = 2;
    assert!(comparison([(p1.as_path(), &fifo), (p2.as_path(), &seed2)], false).is_err());
    let c = comparison([(p1.as_path(), &fifo), (p2.as_path(), &seed2)], true).unwrap();
    let labels: Vec<&str> = c.runs.iter().map(|r| r.config.as_str()).collect();
    assert_eq!(labels, ["fifo s1", "fifo s2"]);

    let e = comparison([(p1.as_path(), &fifo), (p2.as_path(), &fifo)], true).unwrap_err();
    assert!(e.message().contains("are the same run (`fifo`)"), "{e}");
    let e = comparison([], false).unwrap_err();
    assert_eq!(e.message(), "no results files");
}

#[test]
fn a_comparison_says_its_seed_duration_and_shared_overrides() {
    let (p1, p2) = (PathBuf::from("f.json.gz"), PathBuf::from("q.json.gz"));
    let (mut fifo, mut aql) = (results("fifo"), results("airtime_aql"));
    fifo.metadata.overrides = ["ap.aql=true", "seed=1", "duration=1.0", "omit=0.5"]
        .map(String::from)
        .to_vec();
    aql.metadata.overrides = ["ap.aql=true", "seed=1", "omit=0.5"]
        .map(String::from)
        .to_vec();
    (fifo.metadata.omit_s, aql.metadata.omit_s) = (0.5, 0.5);
    let c = comparison([(p1.as_path(), &fifo), (p2.as_path(), &aql)], false).unwrap();
    assert_eq!(
        c.caption,
        "seed 1 · 1.0 s simulated · pings and summaries from 0.5 s (warm-up left out) · \
         --set ap.aql=true"
    );

    // An override one run lacks is left out; differing seeds and durations are said to
    // differ.
    aql.metadata.overrides.clear();
    aql.metadata.seed = 2;
    aql.metadata.duration_s = 1.25;
    aql.metadata.omit_s = 0.0;
    let c = comparison([(p1.as_path(), &fifo), (p2.as_path(), &aql)], true).unwrap();
    assert_eq!(
        c.caption,
        "runs of different seeds · runs of different durations · runs of different warm-ups"
    );
    let c = comparison([(p2.as_path(), &aql)], false).unwrap();
    assert_eq!(c.caption, "seed 2 · 1.25 s simulated");
}

#[test]
fn a_stations_flows_come_from_the_index_in_flow_order() {
    // The index gives what a scan of every flow gives, and never makes two results
    // files differ: a copy starts without it, and equality ignores it.
    let r = results("airtime");
    for s in &r.stations {
        let scanned: Vec<usize> = (0..r.flows.len())
            .filter(|&i| r.flows[i].station == s.name)
            .collect();
        assert_eq!(r.flow_indices(&s.name), scanned.as_slice(), "{}", s.name);
    }
    assert!(r.flow_indices("no such station").is_empty());
    let copy = r.clone();
    assert_eq!(copy, r);
    assert_eq!(
        copy.flow_indices(&r.stations[0].name),
        r.flow_indices(&r.stations[0].name)
    );
}

/// A comparison whose variants changed the stations, and with them a setting derived
/// from the stations, says so; one whose derived settings agree says nothing.
#[test]
fn a_comparison_names_derived_settings_that_differ() {
    let with_memory = |variant: &str, bytes: u64| {
        let mut r = results("airtime");
        r.metadata.variant = variant.into();
        r.metadata.ap_config = serde_json::json!({ "fq_mac": { "memory_limit_bytes": bytes } });
        r
    };
    let (ht, vht) = (with_memory("ht", 4 << 20), with_memory("vht", 16 << 20));
    let table = crate::table::compare_table(&[ht.clone(), vht.clone()]);
    let table = table.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        table.contains("note: FQ-MAC's memory limit differs between the runs")
            && table.contains("ht 4194304, vht 16777216"),
        "{table}"
    );
    let same = crate::table::compare_table(&[ht.clone(), with_memory("other", 4 << 20)]);
    assert!(!same.contains("note:"), "{same}");
    // A variant that sets the limit itself changed what it names.
    let mut asked = vht.clone();
    asked.metadata.variant_set = vec!["ap.fq_mac.memory_limit_bytes=16777216".into()];
    let table = crate::table::compare_table(&[ht.clone(), asked]);
    assert!(!table.contains("note:"), "{table}");
    let mut dsss = ht.clone();
    dsss.metadata.bss_timing = Some("dsss".into());
    let table = crate::table::compare_table(&[ht, dsss]);
    assert!(
        table.contains("note: the BSS timing differs between the runs"),
        "{table}"
    );
}

/// The drops of a simulated saturated flood are the model's, and the tables say so; an
/// emulated run's (iperf3 at a rate) are not.
#[test]
fn tables_of_saturated_floods_say_what_their_drops_count() {
    let mut r = results("airtime");
    let note = "drops: a saturated UDP flood";
    assert!(r.flows.iter().any(|f| f.test == "udp_flood"));
    assert!(crate::table::run_table(&r).contains(note));
    let mut tcp = r.clone();
    for f in tcp
        .flows
        .iter_mut()
        .filter(|f| f.test.starts_with("udp_flood"))
    {
        f.test = "tcp_download".into();
    }
    assert!(!crate::table::run_table(&tcp).contains(note));
    assert!(crate::table::compare_table(&[tcp, r.clone()]).contains(note));
    r.metadata.emulation = Some(Default::default());
    assert!(!crate::table::run_table(&r).contains(note));
}

/// A run with CoDel set per station says what each station had; one without says
/// nothing of it.
#[test]
fn the_run_table_names_each_stations_codel_when_set_per_station() {
    let mut r = results("airtime");
    assert!(!crate::table::run_table(&r).contains("CoDel"));
    let codel = |target_ms, interval_ms, ecn| {
        Some(crate::results::CodelSummary {
            target_ms,
            interval_ms,
            ecn,
        })
    };
    r.stations[0].codel = codel(50.0, 300.0, false);
    r.stations[1].codel = codel(20.0, 100.0, true);
    // Words as the table has them, however it wraps its lines.
    let run = crate::table::run_table(&r);
    let run = run.split_whitespace().collect::<Vec<_>>().join(" ");
    let expect = format!(
        "CoDel per station (slow_station_codel), at the end: {} 50 / 300 ms without ECN; \
         {} 20 / 100 ms with ECN",
        r.stations[0].name, r.stations[1].name
    );
    assert!(run.contains(&expect), "{run}");
}

/// The tables say how much of the measured time the channel was in use (collisions
/// included) beside the shares that divide what was used: a limited group with the
/// rest idle uses half.
#[test]
fn the_tables_say_how_much_of_the_time_the_channel_was_in_use() {
    let mut r = results("airtime");
    r.channel.collision_s = 0.1;
    r.channel.idle_s = 0.2;
    assert!((r.channel.in_use_share().unwrap() - 0.8).abs() < 1e-12);
    let run = crate::table::run_table(&r);
    assert!(
        run.contains("Jain's index of airtime shares 1.000; channel in use 80.0% of the time"),
        "{run}"
    );
    let compare = crate::table::compare_table(&[r.clone(), results("fifo")]);
    let line = compare
        .lines()
        .find(|l| l.starts_with("  channel in use"))
        .unwrap_or_else(|| panic!("{compare}"));
    assert!(line.contains("80.0%") && line.contains("70.0%"), "{line}");
    // Over no time there is no share to give.
    r.channel = ChannelSummary {
        busy_s: 0.0,
        collision_s: 0.0,
        beacon_s: 0.0,
        idle_s: 0.0,
        exchanges: 0,
        collisions: 0,
    };
    assert_eq!(r.channel.in_use_share(), None);
    assert!(!crate::table::run_table(&r).contains("channel in use"));
}
