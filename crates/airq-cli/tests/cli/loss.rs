//! Ping loss, and the flows behind the stations, as a user sees them: a lost ping is
//! counted (table, CSV, JSON), a percentile among the lost pings reads `lost` (`inf` in
//! the CSV) instead of being computed from the replies alone, every flow is listed, and
//! VoIP and web figures reach the table and the summaries.

use super::{airq, json, stdout, write, PING};
use airq_cli::results;
use std::path::Path;

/// [`PING`] (a flood and a ping every 100 ms to each of two stations, 2 s) under `fifo`
/// with a 20-packet qdisc: the floods keep it full, so the pings find no room.
fn lossy() -> String {
    PING.replace(
        "seed = 3\n",
        "seed = 3\n\n[ap]\npreset = \"fifo\"\n\n[ap.pfifo_fast]\nlimit_packets = 20\n",
    )
}

/// `airq run scenario` with `--json` and `--csv` into `dir`: the table, the JSON, the
/// per-station CSV and the per-flow CSV.
fn run(dir: &Path, scenario: &Path, args: &[&str]) -> (String, serde_json::Value, String, String) {
    let assert = airq()
        .arg("run")
        .arg(scenario)
        .args(args)
        .arg("-o")
        .arg(dir)
        .arg("--json")
        .arg(dir.join("s.json"))
        .arg("--csv")
        .arg(dir.join("s.csv"))
        .assert()
        .success();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    (
        stdout(&assert),
        json(&dir.join("s.json")),
        read("s.csv"),
        read("s.flows.csv"),
    )
}

/// The CSV `text` as rows of named cells.
fn csv_rows(text: &str) -> Vec<Vec<(String, String)>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            // Only the rate is quoted, and it holds no comma.
            let cells = l.split(',').map(|c| c.trim_matches('"').to_string());
            header.iter().cloned().zip(cells).collect()
        })
        .collect()
}

fn cell<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter()
        .find(|(h, _)| h == name)
        .unwrap_or_else(|| panic!("{name}"))
        .1
}

#[test]
fn pings_lost_behind_a_full_fifo_are_counted_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "lossy.toml", &lossy());
    let (table, s, csv, flows_csv) = run(dir.path(), &path, &[]);
    // 20 requests in 2 s per station; those of the last second count once answered.
    // The 20-packet FIFO is always full: none is answered.
    for station in s["runs"][0]["stations"].as_array().unwrap() {
        let sent = station["pings_sent"].as_u64().unwrap();
        assert!((11..=20).contains(&sent), "{station}");
        assert_eq!(station["ping_loss"].as_f64(), Some(1.0), "{station}");
        assert_eq!(station["ping_rtt_ms"]["p99"], "lost", "{station}");
        assert_eq!(station["ping_rtt_ms"]["p50"], "lost", "{station}");
    }
    for station in ["fast", "slow"] {
        let line = table.lines().find(|l| l.starts_with(station)).unwrap();
        assert!(line.contains("lost") && line.contains("100.0%"), "{table}");
    }
    assert!(table.contains("ping flows"), "{table}");
    assert!(table.contains("UDP flows"), "{table}");
    assert!(
        table.contains("lost: the percentile falls among"),
        "{table}"
    );
    // The old CSV columns first, in their order; loss appended; a lost percentile is inf.
    assert!(csv.starts_with(
        "scenario,seed,config,station,rate,goodput_mbps,airtime_share,ping_p50_ms,\
         ping_p90_ms,ping_p99_ms,drops,mean_delay_ms,max_delay_ms,mpdus_per_ampdu_down,"
    ));
    for row in csv_rows(&csv) {
        assert_eq!(cell(&row, "ping_p99_ms"), "inf", "{csv}");
        assert_eq!(cell(&row, "ping_loss"), "1.000", "{csv}");
    }
    // The flows: two floods and two pings, one row each.
    let flows = csv_rows(&flows_csv);
    assert_eq!(flows.len(), 4, "{flows_csv}");
    let pings: Vec<_> = flows.iter().filter(|r| cell(r, "test") == "ping").collect();
    assert_eq!(pings.len(), 2);
    for p in pings {
        assert_eq!(cell(p, "pings_sent"), cell(p, "pings_lost"), "{flows_csv}");
        assert_eq!(cell(p, "ping_p50_ms"), "inf");
    }
    let json_flows = s["runs"][0]["flows"].as_array().unwrap();
    assert_eq!(json_flows.len(), 4);
    assert!(json_flows[0]["ping"].is_null(), "a flood is no ping");
    assert!(json_flows[0]["goodput_mbps"].as_f64().unwrap() > 1.0);
}

#[test]
fn without_loss_percentiles_are_those_of_the_replies() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "ping.toml", PING);
    let (table, s, _, _) = run(dir.path(), &path, &["--config", "fq_mac"]);
    let station = &s["runs"][0]["stations"][0];
    assert_eq!(station["ping_loss"].as_f64(), Some(0.0), "{station}");
    let p99 = station["ping_rtt_ms"]["p99"].as_f64().unwrap();
    assert!(p99 > 1.0 && p99 < 200.0, "{p99}");
    assert!(!table.contains("lost:"), "{table}");
    // The results file's percentiles (of the replies) agree when nothing was lost.
    let file = dir
        .path()
        .join(results::file_name("ping-small", "fq_mac", 3));
    let r = results::load(&file).unwrap();
    assert_eq!(r.stations[0].ping_rtt_ms.unwrap().p99, p99);
    assert_eq!(r.stations[0].ping_loss, Some(0.0));
}

#[test]
fn a_loss_above_one_percent_makes_the_99th_percentile_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "ping.toml", PING);
    let (_, _, _, _) = run(dir.path(), &path, &["--config", "fq_mac"]);
    let file = dir
        .path()
        .join(results::file_name("ping-small", "fq_mac", 3));
    let mut r = results::load(&file).unwrap();
    // Two of some twenty requests lost (10%): the median is still a reply's, the 90th
    // is at the edge, the 99th among the lost.
    let ping = r
        .flows
        .iter_mut()
        .find(|f| f.station == "fast" && f.test == "ping");
    let ping = ping.unwrap();
    let replies = ping.rtt_ms.len() as u64;
    ping.pings_sent = Some(replies + 2);
    ping.pings_lost = Some(2);
    let edited = dir.path().join("edited.json.gz");
    results::save(&r, &edited).unwrap();
    let table = stdout(&airq().arg("show").arg(&edited).assert().success());
    let fast = table.lines().find(|l| l.starts_with("fast ")).unwrap();
    let cells: Vec<&str> = fast.split_whitespace().collect();
    // fast, rate (6 words), Mbit/s, airtime, p50, p90, p99, lost, drops.
    let (p50, p99, lost) = (cells[9], cells[11], cells[12]);
    assert!(p50.parse::<f64>().is_ok(), "{table}");
    assert_eq!(p99, "lost", "{table}");
    let expected = format!("{:.1}%", 200.0 / (replies + 2) as f64);
    assert_eq!(lost, expected, "{table}");
}

#[test]
fn voip_and_web_figures_reach_the_table_and_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let text = PING.replace(
        "test = \"udp_flood\"\n\n[[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n",
        "test = \"voip\"\n\n[[traffic]]\ntest = \"http\"\n",
    );
    assert!(text.contains("voip"));
    let path = write(dir.path(), "voip.toml", &text);
    let (table, s, _, flows_csv) = run(dir.path(), &path, &["--config", "airtime"]);
    assert!(
        table.contains("VoIP flows") && table.contains("MOS"),
        "{table}"
    );
    assert!(
        table.contains("web flows") && table.contains("load p50 s"),
        "{table}"
    );
    // No ping: no ping columns, no ping table.
    assert!(
        !table.contains("ping p50") && !table.contains("ping flows"),
        "{table}"
    );
    let flows = s["runs"][0]["flows"].as_array().unwrap();
    // A call each way per station, and a web client per station.
    let voip: Vec<_> = flows.iter().filter(|f| !f["voip"].is_null()).collect();
    assert_eq!(voip.len(), 4, "{flows:?}");
    for f in voip {
        let mos = f["voip"]["mos"].as_f64().unwrap();
        // G.711 over an idle-ish WLAN: near the codec's best (4.4), and never above.
        assert!((3.5..=4.5).contains(&mos), "{f}");
        let delay = f["voip"]["mean_delay_ms"].as_f64().unwrap();
        assert!(delay > 0.0 && delay < 100.0, "{f}");
    }
    let web: Vec<_> = flows.iter().filter(|f| !f["web"].is_null()).collect();
    assert_eq!(web.len(), 2);
    let fast = &web[0]["web"];
    assert!(fast["pages"].as_u64().unwrap() >= 1, "{fast}");
    let p50 = fast["load_p50_s"].as_f64().unwrap();
    assert!(p50 > 0.01 && p50 < 2.0, "{fast}");
    let rows = csv_rows(&flows_csv);
    let voip_rows = rows.iter().filter(|r| cell(r, "test") == "voip");
    assert!(voip_rows.clone().count() == 4);
    for r in voip_rows {
        assert!(cell(r, "voip_mos").parse::<f64>().unwrap() > 3.5);
        assert!(cell(r, "pings_sent").is_empty());
    }
}

#[test]
fn a_comparison_lists_every_flow_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "lossy.toml", &lossy());
    let assert = airq()
        .arg("compare")
        .arg(&path)
        .args(["--configs", "fifo,fq_mac", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let table = stdout(&assert);
    assert!(table.contains("pings lost"), "{table}");
    assert!(table.contains("UDP flow goodput, Mbit/s"), "{table}");
    let slow = table
        .lines()
        .skip_while(|l| !l.starts_with("pings lost"))
        .find(|l| l.trim_start().starts_with("slow"))
        .unwrap();
    // Lost behind fifo's full queue, none behind fq_mac's per-flow queues.
    let cells: Vec<&str> = slow.split_whitespace().collect();
    assert_eq!(cells[1..], ["100.0%", "0.0%"], "{table}");
    assert!(table.lines().all(|l| l.len() <= 100), "{table}");
}
