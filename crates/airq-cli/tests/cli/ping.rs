//! The `ping` test's `to` key: pings from stations to another station, relayed by the
//! AP, reach the summary and the results file as the pinging station's.

use super::{run_json, write, PING};
use airq_cli::results;

#[test]
fn a_ping_to_a_station_is_measured_at_the_stations_pinging_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = PING.replace("interval_ms = 100", "interval_ms = 100\nto = \"slow\"");
    let path = write(dir.path(), "s2s.toml", &text);
    let s = run_json(dir.path(), "s.json", &path, &["--config", "fq_mac"]);
    let stations = &s["runs"][0]["stations"];
    // Every station but `slow` pings it: here only `fast`, whose RTTs these are.
    let p50 = stations[0]["ping_rtt_ms"]["p50"].as_f64().unwrap();
    assert!(p50 > 0.0, "{p50}");
    assert!(stations[1]["ping_rtt_ms"]["p50"].is_null(), "{stations}");
    let file = dir
        .path()
        .join(results::file_name("ping-small", "fq_mac", 3));
    let r = results::load(&file).unwrap();
    let pings: Vec<_> = r.flows.iter().filter(|f| f.test == "ping").collect();
    assert_eq!(pings.len(), 1);
    assert_eq!(
        (pings[0].station.as_str(), pings[0].direction.as_str()),
        ("fast", "up")
    );
    // 20 requests in 2 s, every one answered behind the floods with FQ-MAC.
    assert!(pings[0].rtt_ms.len() >= 19, "{:?}", pings[0].rtt_ms);
}
