//! Bad scenario files and overrides: the error names the file, the line and the key.

use super::{airq, write, SMALL};
use predicates::str::contains;

/// `airq check` of `text` fails with each of `expected` in its message.
fn refused(text: &str, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bad.toml", text);
    let mut assert = airq().arg("check").arg(&path).assert().failure();
    for e in expected {
        assert = assert.stderr(contains(*e));
    }
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn unknown_keys_are_named_with_their_line() {
    let text = SMALL.replace("seed = 3", "seed = 3\n[bss]\nchannel = 36");
    refused(
        &text,
        &["bad.toml:5:1: bss.channel: unknown field `channel`", "band"],
    );
    let text = SMALL.replace("mcs = 0", "mcs = 0\nspeed = 3");
    refused(
        &text,
        &["bad.toml:14:1: station.1.speed: unknown field `speed`"],
    );
}

#[test]
fn wrong_types_are_named_with_their_line() {
    let text = SMALL.replace("mcs = 7", "mcs = \"seven\"");
    refused(
        &text,
        &["bad.toml:8:7: station.0.mcs: invalid type: string \"seven\""],
    );
    refused(
        &SMALL.replace("duration = 1.0", "duration = \"1s\""),
        &["bad.toml:2:12: duration"],
    );
}

#[test]
fn impossible_rates_are_refused() {
    refused(
        &SMALL.replace("mcs = 7", "mcs = 32"),
        &["bad.toml:8:1: station.0.mcs: HT MCS 32 is out of range (0..=31)"],
    );
    refused(
        &SMALL.replace("mcs = 7", "mcs = 12\nstreams = 1"),
        &["station.0.streams: HT MCS 12 is a 2-stream MCS (MCS 8 to 15), but streams = 1"],
    );
    refused(
        &SMALL.replace("standard = \"ht\"\nmcs = 7", "standard = \"vht\"\nmcs = 10"),
        &["bad.toml:8:1: station.0.mcs: VHT MCS 10 is out of range (0..=9)"],
    );
    refused(
        &SMALL.replace("mcs = 7", "mcs = 7\nrate_mbps = 54"),
        &["station.0.rate_mbps: does not apply to HT stations"],
    );
    refused(
        &SMALL.replace(
            "standard = \"ht\"\nmcs = 7",
            "standard = \"dsss\"\nrate_mbps = 11",
        ),
        &["station.0.standard: DSSS stations cannot operate in the 5GHz band of the BSS"],
    );
}

#[test]
fn impossible_scenarios_are_refused() {
    refused(
        &SMALL.replace("duration = 1.0", "duration = -2.0"),
        &["bad.toml:2:1: duration: must be above 0 s and at most 1e7 s (116 days), got -2"],
    );
    refused(
        &SMALL.replace("duration = 1.0", "duration = 1.0\nstep = 2.0"),
        &["bad.toml:3:1: step: the step (2s) is longer than the run (1s)"],
    );
    let no_stations = SMALL.split("[[station]]").next().unwrap().to_string()
        + "[[traffic]]\ntest = \"udp_flood\"\n";
    refused(&no_stations, &["bad.toml: the scenario has no stations"]);
}

#[test]
fn bad_traffic_is_refused() {
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_flood\"\nstations = [\"fast\", \"medium\"]",
        ),
        &["bad.toml:17:1: traffic.0.stations: no station named `medium`; stations: fast, slow"],
    );
    refused(
        &SMALL.replace("udp_flood", "udp_flod"),
        &[
            "bad.toml:16:1: traffic.0.test: unknown test `udp_flod`",
            "tcp_download",
        ],
    );
    refused(
        &SMALL.replace("test = \"udp_flood\"", "test = \"ping\"\nrate_mbps = 2"),
        &["traffic.0.rate_mbps: `rate_mbps` does not apply to test `ping`"],
    );
    // Rates and intervals that would never let a run end, or queue without bound on
    // the wire (the reliability issue's `rate_mbps = 1e13`, `interval_ms = 1e-300`).
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_cbr\"\nrate_mbps = 1e13",
        ),
        &["bad.toml:17:1: traffic.0.rate_mbps: 1 flow(s) at 10000000000000 Mbit/s send"],
    );
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_cbr\"\nrate_mbps = 600\nflows = 2",
        ),
        &["more than the wired link's 1000 Mbit/s"],
    );
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_cbr\"\nrate_mbps = 1e7\ndirection = \"up\"",
        ),
        &["traffic.0.rate_mbps: 10000000 Mbit/s sends a packet every 0.001 us"],
    );
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"ping\"\ninterval_ms = 1e-300",
        ),
        &["bad.toml:17:1: traffic.0.interval_ms: must be 0.001 ms (1 us) to 10000000000 ms"],
    );
}

#[test]
fn a_ping_to_an_unknown_station_or_to_itself_is_refused() {
    let ping_to =
        |keys: &str| SMALL.replace("test = \"udp_flood\"", &format!("test = \"ping\"\n{keys}"));
    refused(
        &ping_to("to = \"medium\""),
        &["bad.toml:17:1: traffic.0.to: no station named `medium`; stations: fast, slow"],
    );
    refused(
        &ping_to("stations = [\"fast\", \"slow\"]\nto = \"slow\""),
        &["bad.toml:18:1: traffic.0.to: `slow` is also in `stations`: a station cannot ping itself"],
    );
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_flood\"\nto = \"slow\"",
        ),
        &["bad.toml:17:1: traffic.0.to: `to` does not apply to test `udp_flood`"],
    );
    let alone = ping_to("to = \"fast\"").replace(
        "[[station]]\nname = \"slow\"\nstandard = \"ht\"\nmcs = 0\n",
        "",
    );
    refused(
        &alone,
        &["traffic.0.to: `fast` is the only station: no other station can ping it"],
    );
}

#[test]
fn unknown_groups_are_refused() {
    refused(
        &SMALL.replace("mcs = 7", "mcs = 7\ngroup = \"guests\""),
        &["bad.toml:9:1: station.0.group: no [[ap.group]] is named `guests`"],
    );
}

#[test]
fn bad_overrides_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", SMALL);
    let check = |set: &str, expected: &str| {
        airq()
            .arg("check")
            .arg(&path)
            .args(["--set", set])
            .assert()
            .failure()
            .stderr(contains(expected));
    };
    check(
        "station.2.mcs=7",
        "--set station.2.mcs=7: `station` has 2 entries (indices 0 to 1)",
    );
    check(
        "duration.x=1",
        "--set duration.x=1: `duration` is float, not a table",
    );
    check(
        "station.1.mcs=40",
        "small.toml:13:1: station.1.mcs: HT MCS 40 is out of range",
    );
    check("station.1.mcs=40", "(set by --set station.1.mcs=40)");
    check("ap.speed=1", "ap.speed: unknown field `speed`");
    check("nokey", "--set nokey: expected key.path=value");
}

#[test]
fn bad_configs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "small.toml", SMALL);
    airq()
        .arg("run")
        .arg(&path)
        .args(["--config", "codel"])
        .assert()
        .failure()
        .stderr(contains(
            "--config: unknown AP configuration `codel`; presets: fifo",
        ));
    airq()
        .arg("compare")
        .arg(&path)
        .args(["--configs", "fifo,fifo"])
        .assert()
        .failure()
        .stderr(contains("variant `fifo` is asked for twice"));
}

/// A station count is bounded before any station is made: a billion is refused at once
/// (it used to hang `check`), naming the line.
#[test]
fn station_counts_are_bounded_before_anything_is_made() {
    let text = SMALL.replace("name = \"fast\"", "name = \"fast\"\ncount = 1000000000");
    refused(
        &text,
        &[
            "bad.toml:7:1:",
            "station.0.count: 1000000000 more stations after 0 make more than the 65535",
        ],
    );
}

/// Flows and time-series samples are bounded before anything is made (flows = 10^7
/// aborted allocating; step = 1e-9 aborted), naming the key.
#[test]
fn flows_and_samples_are_bounded_before_anything_is_made() {
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"udp_flood\"\nflows = 10000000",
        ),
        &["traffic.0.flows: the traffic makes more than 1000000 flows in all"],
    );
    refused(
        &SMALL.replace("duration = 1.0", "duration = 1.0\nstep = 1e-9"),
        &[
            "step: 1000000000 steps of the time series",
            "take a longer step",
        ],
    );
}

/// A scenario name starts every file name: one that cannot be a file name is refused
/// when checked, not after the run (300 characters simulated fully, then failed).
#[test]
fn scenario_names_fit_in_file_names() {
    refused(
        &SMALL.replace(
            "name = \"small\"",
            &format!("name = \"{}\"", "a".repeat(65)),
        ),
        &["name: names the results files: 1 to 64 letters"],
    );
}

/// The wired link's rate and delays are bounded (1e308 ms of delay saturated to 584
/// years; a fuzz found 1e308 Mbit/s and ms accepted).
#[test]
fn the_wired_link_is_physically_bounded() {
    for (key, value, why) in [
        ("rate_mbps", "1e308", "and at most 1000000 Mbit/s"),
        ("rate_mbps", "1e-9", "(1 bit/s at least)"),
        ("delay_ms", "1e308", "must be 0 to 10000 ms"),
        ("extra_delay_ms", "-1", "must be 0 to 10000 ms"),
    ] {
        refused(
            &format!("{SMALL}\n[wired]\n{key} = {value}\n"),
            &[&format!("wired.{key}: "), why],
        );
    }
}

/// A ping interval no run can hold is refused (the fuzz found 1e308 ms accepted).
#[test]
fn intervals_are_bounded_by_the_longest_run() {
    refused(
        &SMALL.replace(
            "test = \"udp_flood\"",
            "test = \"ping\"\ninterval_ms = 1e308",
        ),
        &["traffic.0.interval_ms: must be 0.001 ms (1 us) to 10000000000 ms"],
    );
}

/// `cc = "bbr"` (for `airq emulate`: the hosts' BBR) is refused by the simulator, which
/// has no BBR model, naming the file, line and key, in `run` and `compare`; `check`
/// says the file is valid but does not run; an unknown algorithm is refused everywhere.
#[test]
fn bbr_is_refused_by_the_simulator_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let text = SMALL.replace("udp_flood\"", "tcp_download\"\ncc = \"bbr\"");
    let path = write(dir.path(), "bbr.toml", &text);
    let why = "bbr.toml:17:1: traffic.0.cc: `bbr`: the simulator has no BBR model";
    for command in ["run", "compare"] {
        airq()
            .arg(command)
            .arg(&path)
            .arg("-o")
            .arg(dir.path())
            .assert()
            .failure()
            .stderr(contains(why));
    }
    airq()
        .arg("check")
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("does not run yet"))
        .stdout(contains(why));
    refused(
        &text.replace("\"bbr\"", "\"vegas\""),
        &["bad.toml:17:1: traffic.0.cc: `vegas`: expected `cubic`, `newreno` or `bbr`"],
    );
}
