//! The `ping` test's `to` key: pings from stations to another station, relayed by the
//! AP, are the pinging station's flows, named for the station they go to; the
//! station's own ping figures stay its round trips to the server.

use super::{run_json, write, PING};
use airq_cli::results;

#[test]
fn a_ping_to_a_station_is_measured_at_the_stations_pinging_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = PING.replace("interval_ms = 100", "interval_ms = 100\nto = \"slow\"");
    let path = write(dir.path(), "s2s.toml", &text);
    let s = run_json(dir.path(), "s.json", &path, &["--config", "fq_mac"]);
    let run = &s["runs"][0];
    // Every station but `slow` pings it: here only `fast`, as its flow "to slow".
    let flow = &run["flows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["test"] == "ping")
        .unwrap();
    assert_eq!(
        (&flow["station"], &flow["to"]),
        (&"fast".into(), &"slow".into())
    );
    assert!(
        flow["ping"]["rtt_ms"]["p50"].as_f64().unwrap() > 0.0,
        "{flow}"
    );
    // No station pinged the server: no station has ping figures of its own.
    for st in run["stations"].as_array().unwrap() {
        assert!(st["ping_rtt_ms"]["p50"].is_null(), "{st}");
    }
    let file = dir
        .path()
        .join(results::file_name("ping-small", "fq_mac", 3));
    let r = results::load(&file).unwrap();
    let pings: Vec<_> = r.flows.iter().filter(|f| f.test == "ping").collect();
    assert_eq!(pings.len(), 1);
    assert_eq!(
        (
            pings[0].station.as_str(),
            pings[0].direction.as_str(),
            pings[0].to.as_deref()
        ),
        ("fast", "up", Some("slow"))
    );
    // 20 requests in 2 s, every one answered behind the floods with FQ-MAC.
    assert!(pings[0].rtt_ms.len() >= 19, "{:?}", pings[0].rtt_ms);
    assert!(r.station_ping("fast").is_none());
}

/// A station that pings the server and another station: its ping figures are the
/// server's round trips alone, and the table names the other ping by where it goes.
#[test]
fn a_stations_ping_figures_leave_its_pings_to_other_stations_out() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{PING}\n[[traffic]]\ntest = \"ping\"\nstations = [\"fast\"]\nto = \"slow\"\n\
         interval_ms = 100\n"
    );
    let path = write(dir.path(), "both.toml", &text);
    let a = super::airq()
        .arg("run")
        .arg(&path)
        .args(["--config", "airtime", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let out = super::stdout(&a);
    let r = results::load(
        &dir.path()
            .join(results::file_name("ping-small", "airtime", 3)),
    )
    .unwrap();
    let server = r
        .flows
        .iter()
        .find(|f| f.station == "fast" && f.test == "ping" && f.to.is_none())
        .unwrap();
    let mine = r.station_ping("fast").unwrap();
    assert_eq!(
        (mine.sent, mine.received),
        (server.pings_sent, server.rtt_ms.len() as u64)
    );
    assert!(out.contains("fast ping to slow BE"), "{out}");
}

/// `direction = "up"`: each station pings the server, as `ping` run on the station (and
/// as flent runs it). Idle, its RTT is the downlink ping's: the same two exchanges and
/// wired round trip, the other way round. With `to`, `down` is refused at its line.
#[test]
fn a_ping_up_is_sent_by_the_station_to_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let idle = "name = \"up\"\nduration = 3.0\nseed = 1\n\
                [[station]]\nname = \"sta\"\nstandard = \"ht\"\nmcs = 7\n\
                [[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n\
                [[traffic]]\ntest = \"ping\"\ninterval_ms = 100\ndirection = \"up\"\n";
    let path = write(dir.path(), "up.toml", idle);
    run_json(dir.path(), "s.json", &path, &["--config", "airtime"]);
    let r = results::load(&dir.path().join(results::file_name("up", "airtime", 1))).unwrap();
    let p50 = |direction: &str| {
        let f = r
            .flows
            .iter()
            .find(|f| f.test == "ping" && f.direction == direction)
            .unwrap_or_else(|| panic!("a ping {direction}: {:?}", r.flows));
        assert!(
            f.rtt_ms.len() >= 29,
            "{direction}: {} replies",
            f.rtt_ms.len()
        );
        let mut rtt: Vec<f64> = f.rtt_ms.iter().map(|s| s[1]).collect();
        rtt.sort_by(f64::total_cmp);
        rtt[rtt.len() / 2]
    };
    let (down, up) = (p50("down"), p50("up"));
    assert!((up - down).abs() < 0.5 * down, "up {up} ms, down {down} ms");

    let refused = idle
        .replace(
            "[[traffic]]\ntest = \"ping\"\ninterval_ms = 100\n[[traffic]]",
            "[[station]]\nname = \"other\"\nstandard = \"ht\"\nmcs = 7\n[[traffic]]",
        )
        .replace("direction = \"up\"", "direction = \"down\"\nto = \"sta\"");
    let path = write(dir.path(), "bad.toml", &refused);
    super::airq()
        .arg("check")
        .arg(&path)
        .assert()
        .failure()
        .stderr(predicates::str::contains("bad.toml:"))
        .stderr(predicates::str::contains("direction"));
}
