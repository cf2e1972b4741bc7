//! `airq emulate` as a user runs it: real hosts in network namespaces, real ping and
//! iperf3 (CUBIC) through the emulated AP. Needs root, namespaces and iperf3: without
//! them the tests print why and pass, unless `AIRQ_REQUIRE_EMU=1` (CI).

use super::{airq, has_tool, scenarios_dir, tshark_fields};
use airq_cli::results::{self, ResultsFile};
use std::process::Command as Process;

/// Why `airq emulate` cannot run here, if it cannot.
fn unavailable() -> Option<String> {
    if !airq_emu::is_root() {
        return Some("not root".into());
    }
    for (tool, arg) in [("ip", "-V"), ("ping", "-V"), ("iperf3", "-v")] {
        if Process::new(tool).arg(arg).output().is_err() {
            return Some(format!("`{tool}` is not installed"));
        }
    }
    None
}

fn can_emulate(test: &str) -> bool {
    match unavailable() {
        None => true,
        Some(why) if std::env::var("AIRQ_REQUIRE_EMU").as_deref() == Ok("1") => {
            panic!("{test}: cannot emulate ({why}) and AIRQ_REQUIRE_EMU=1")
        }
        Some(why) => {
            eprintln!("{test}: skipped: {why}");
            false
        }
    }
}

fn emulate(config: &str, dir: &std::path::Path) -> ResultsFile {
    let scenario = scenarios_dir().join("ending-the-anomaly.toml");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "--config", config])
        .args([
            "--duration",
            "30",
            "--omit",
            "10",
            "-o",
            dir.to_str().unwrap(),
        ])
        .assert()
        .success();
    let prefix = format!("ending-the-anomaly-{config}-emulated");
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(&prefix)
        })
        .expect("a results file");
    results::load(&file).unwrap()
}

fn ping_p50(r: &ResultsFile, station: usize) -> f64 {
    r.stations[station].ping_rtt_ms.expect("pings answered").p50
}

/// The flagship's direction with the hosts' own TCP: FIFO's ping latency well above the
/// airtime scheduler's at every station, airtime shared more equally under airtime,
/// and a higher total goodput.
#[test]
fn tcp_downloads_through_fifo_and_airtime_go_the_flagships_way() {
    if !can_emulate("tcp_downloads_through_fifo_and_airtime_go_the_flagships_way") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = emulate("fifo", dir.path());
    let airtime = emulate("airtime", dir.path());
    for r in [&fifo, &airtime] {
        let s = &r.stations;
        eprintln!(
            "{}: ping p50 {:?} ms, airtime {:?}, goodput {:?} Mbit/s",
            r.metadata.variant,
            (0..3).map(|i| ping_p50(r, i)).collect::<Vec<_>>(),
            s.iter().map(|s| s.airtime_share).collect::<Vec<_>>(),
            s.iter().map(|s| s.goodput_mbps).collect::<Vec<_>>()
        );
    }
    for s in 0..3 {
        assert!(
            ping_p50(&fifo, s) > 2.0 * ping_p50(&airtime, s),
            "station {s}: fifo {} ms, airtime {} ms",
            ping_p50(&fifo, s),
            ping_p50(&airtime, s)
        );
    }
    let slow_share = |r: &ResultsFile| r.stations[2].airtime_share;
    assert!(slow_share(&fifo) > 0.45, "{}", slow_share(&fifo));
    assert!(
        (slow_share(&airtime) - 1.0 / 3.0).abs() < 0.05,
        "{}",
        slow_share(&airtime)
    );
    let total = |r: &ResultsFile| r.stations.iter().map(|s| s.goodput_mbps).sum::<f64>();
    assert!(total(&airtime) > total(&fifo));
    let e = airtime
        .metadata
        .emulation
        .as_ref()
        .expect("an emulated run says so");
    assert!(e.packets_delivered > 0 && e.events > 0);
}

/// Two HT MCS7 stations: the server pings each, `a` pings `b` through the AP, and
/// (`extra`) more traffic.
fn small_scenario(dir: &std::path::Path, extra: &str) -> std::path::PathBuf {
    let text = format!(
        r#"name = "emu-small"
duration = 6.0
omit = 1.0
seed = 1
[bss]
band = "5GHz"
[ap]
preset = "airtime"
[[station]]
name = "a"
standard = "ht"
mcs = 7
width = 20
[[station]]
name = "b"
standard = "ht"
mcs = 7
width = 20
[[traffic]]
test = "ping"
interval_ms = 100
[[traffic]]
test = "ping"
stations = ["a"]
to = "b"
interval_ms = 100
{extra}"#
    );
    let path = dir.join("emu-small.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The one results file in `dir`.
fn results_in(dir: &std::path::Path) -> ResultsFile {
    results::load(&results_path(dir)).unwrap()
}

/// The results file in `dir`.
fn results_path(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_str().unwrap().ends_with(".json.gz"))
        .expect("a results file")
}

/// `scenario` emulated (results in `dir`/emulated) and simulated (`dir`/simulated):
/// the two results.
fn emulated_and_simulated(
    dir: &std::path::Path,
    scenario: &std::path::Path,
) -> (ResultsFile, ResultsFile) {
    let (emulated, simulated) = (dir.join("emulated"), dir.join("simulated"));
    for (command, out) in [("emulate", &emulated), ("run", &simulated)] {
        airq()
            .args([command, scenario.to_str().unwrap(), "-o"])
            .arg(out)
            .assert()
            .success();
    }
    (results_in(&emulated), results_in(&simulated))
}

/// One ICMP echo on the air, as tshark reads it from the capture.
#[derive(Debug)]
struct Echo {
    t_s: f64,
    src: String,
    dst: String,
    /// 8 request, 0 reply.
    kind: u8,
    ident: u16,
    seq: u16,
}

/// Every frame of the capture, and the ICMP echoes among them.
fn tshark_echoes(pcap: &std::path::Path) -> (usize, Vec<Echo>) {
    let text = tshark_fields(
        pcap,
        &[
            "frame.time_epoch",
            "ip.src",
            "ip.dst",
            "icmp.type",
            "icmp.ident",
            "icmp.seq",
        ],
    );
    let mut frames = 0;
    let mut echoes = Vec::new();
    for line in text.lines() {
        frames += 1;
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() == 6 && !f[3].is_empty() {
            // tshark prints the identifier and sequence as big- then little-endian.
            let first = |s: &str| s.split(',').next().unwrap().parse::<u16>().unwrap();
            echoes.push(Echo {
                t_s: f[0].parse().unwrap(),
                src: f[1].into(),
                dst: f[2].into(),
                kind: f[3].parse().unwrap(),
                ident: first(f[4]),
                seq: first(f[5]),
            });
        }
    }
    (frames, echoes)
}

/// `--pcap` writes every frame that crossed the emulated air, in time order, as tshark
/// reads it: as many as the results file counts; each ping's requests before their
/// replies, a station-to-station echo twice (up to the AP, down to its peer); and
/// the pings' RTTs in the results at least the time between the request's and the
/// reply's hops in the capture.
#[test]
fn the_pcap_has_every_frame_of_the_air_in_order() {
    let test = "the_pcap_has_every_frame_of_the_air_in_order";
    if !can_emulate(test) || !has_tool(test, "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = small_scenario(dir.path(), "");
    let pcap = dir.path().join("air.pcap");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .success();
    let r = results_in(dir.path());
    let e = r.metadata.emulation.as_ref().unwrap();
    let (frames, echoes) = tshark_echoes(&pcap);
    assert_eq!(Some(frames as u64), e.pcap_frames);
    assert!(echoes.windows(2).all(|w| w[0].t_s <= w[1].t_s));
    // The scenario's three pings (flows 0, 1: the server to a and b; 2: a to b) over
    // 6 s every 100 ms: each request and reply is on the air once, twice between
    // stations.
    let hops = |ident: u16, kind: u8| {
        echoes
            .iter()
            .filter(|x| x.ident == ident && x.kind == kind)
            .count()
    };
    let id = |k: u16| 0x4000 + k;
    for k in 0..2 {
        assert!(hops(id(k), 8) >= 55, "flow {k}: {}", hops(id(k), 8));
        assert!(hops(id(k), 0) >= 55, "flow {k}: {}", hops(id(k), 0));
    }
    assert!(hops(id(2), 8) >= 110 && hops(id(2), 8) % 2 == 0);
    for x in echoes.iter().filter(|x| x.ident == id(2)) {
        let (a, b) = ("10.0.1.1", "10.0.1.2");
        let expected = if x.kind == 8 { (a, b) } else { (b, a) };
        assert_eq!((x.src.as_str(), x.dst.as_str()), expected, "{x:?}");
    }
    // Each echo's request hops come before its reply hops.
    for k in 0..3 {
        for seq in 1..50 {
            let at = |kind: u8| {
                echoes
                    .iter()
                    .filter(|x| x.ident == id(k) && x.seq == seq && x.kind == kind)
                    .map(|x| x.t_s)
                    .collect::<Vec<f64>>()
            };
            let (req, rep) = (at(8), at(0));
            if let (Some(last_req), Some(first_rep)) = (req.last(), rep.first()) {
                assert!(last_req <= first_rep, "flow {k} seq {seq}");
            }
        }
    }
    // The results' pings: answered, each RTT at least the air's share of it.
    let mut air_ms: Vec<f64> = Vec::new();
    for seq in 10..55 {
        let at = |kind: u8| {
            echoes
                .iter()
                .find(|x| x.ident == id(0) && x.seq == seq && x.kind == kind)
                .map(|x| x.t_s)
        };
        if let (Some(req), Some(rep)) = (at(8), at(0)) {
            air_ms.push((rep - req) * 1e3);
        }
    }
    air_ms.sort_by(f64::total_cmp);
    let rtt = r.flows[0].rtt_ms.iter().map(|s| s[1]).collect::<Vec<_>>();
    assert!(rtt.len() >= 45, "{}", rtt.len());
    let mut sorted = rtt.clone();
    sorted.sort_by(f64::total_cmp);
    let (ping_p50, air_p50) = (sorted[sorted.len() / 2], air_ms[air_ms.len() / 2]);
    eprintln!("ping p50 {ping_p50:.3} ms, its hops on the air {air_p50:.3} ms apart");
    assert!(ping_p50 >= air_p50 && ping_p50 < air_p50 + 5.0);
}

/// Pings between stations are measured like the server's, in the results file (the
/// simulator's format, so `airq show` reads them), and take what the simulator's take
/// within 1 ms: the air twice each way, no wired link.
#[test]
fn a_station_pings_another_through_the_ap() {
    if !can_emulate("a_station_pings_another_through_the_ap") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = small_scenario(dir.path(), "");
    let (r, sim) = emulated_and_simulated(dir.path(), &scenario);
    let p50 = |r: &ResultsFile, k: usize| {
        let mut v: Vec<f64> = r.flows[k].rtt_ms.iter().map(|s| s[1]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    assert_eq!(r.flows[2].test, "ping");
    assert_eq!(r.flows[2].to.as_deref(), Some("b"));
    assert!(r.flows[2].rtt_ms.len() >= 45);
    assert_eq!(r.flows[2].pings_lost, Some(0));
    for k in 0..3 {
        eprintln!(
            "flow {k}: ping p50 emulated {} ms, simulated {} ms",
            p50(&r, k),
            p50(&sim, k)
        );
        assert!((p50(&r, k) - p50(&sim, k)).abs() < 1.0);
    }
    let path = results_path(&dir.path().join("emulated"));
    airq().arg("show").arg(&path).assert().success();
}

/// A saturated UDP download (`udp_flood`) under emulation: iperf3 offers the fastest
/// station's PHY rate (65 Mbit/s at HT MCS7), the hosts' own queues drop nothing, and
/// the flood's goodput is the simulator's within 10% for the same scenario.
#[test]
fn a_udp_flood_fills_the_air_as_the_simulators() {
    let test = "a_udp_flood_fills_the_air_as_the_simulators";
    if !can_emulate(test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"udp_flood\"\nstations = [\"b\"]\n";
    let scenario = small_scenario(dir.path(), extra);
    let (r, sim) = emulated_and_simulated(dir.path(), &scenario);
    let flood = r.flows.iter().position(|f| f.test == "udp_flood").unwrap();
    let (g, g_sim) = (r.flows[flood].goodput_mbps, sim.flows[flood].goodput_mbps);
    eprintln!("udp_flood to b: emulated {g:.2} Mbit/s, simulated {g_sim:.2}");
    assert!((g - g_sim).abs() < 0.1 * g_sim, "{g} against {g_sim}");
    let e = r.metadata.emulation.as_ref().unwrap();
    assert_eq!(
        e.host_queue_drops,
        vec![0, 0, 0],
        "the hosts' queues dropped"
    );
    let report = e.iperf3.iter().find(|i| i.flow == flood).unwrap();
    assert_eq!(report.offered_mbps, Some(65.0));
    let u = report.udp.expect("iperf3's UDP report");
    assert!(
        u.lost_packets > 0,
        "a flood loses what the air cannot carry: {u:?}"
    );
}

/// Web page loads (`http`) under emulation: `airq emulate-http` serves the page in the
/// server's namespace and loads it from station a over six connections; each load is in
/// the results as the simulator records its own, and the median is the simulator's
/// within 25% for the same scenario.
#[test]
fn web_pages_load_through_the_emulated_ap_as_in_the_simulator() {
    let test = "web_pages_load_through_the_emulated_ap_as_in_the_simulator";
    if !can_emulate(test) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"http\"\nstations = [\"a\"]\nthink_ms = 200\n";
    let scenario = small_scenario(dir.path(), extra);
    let (r, sim) = emulated_and_simulated(dir.path(), &scenario);
    let web = r.flows.iter().position(|f| f.test == "http").unwrap();
    let p50 = |r: &ResultsFile| {
        let mut v = r.flows[web].page_load_s.clone();
        v.sort_by(f64::total_cmp);
        (v.len(), v[v.len() / 2])
    };
    let ((n, t), (n_sim, t_sim)) = (p50(&r), p50(&sim));
    eprintln!("page loads: emulated {n}, p50 {t:.3} s; simulated {n_sim}, p50 {t_sim:.3} s");
    assert!(n >= 10, "{n} pages in 5 s");
    assert!((t - t_sim).abs() < 0.25 * t_sim, "{t} against {t_sim}");
    assert!(r.flows[web].goodput_mbps > 0.0);
}

/// UDP at a rate (iperf3 -u) and a call (irtt) under emulation: the UDP goodput near
/// the scenario's rate with iperf3's loss in the results, and both of the call's legs
/// rated by the simulator's E-model.
#[test]
fn udp_at_a_rate_and_a_call_are_measured() {
    let test = "udp_at_a_rate_and_a_call_are_measured";
    if !can_emulate(test) {
        return;
    }
    if !has_tool(test, "irtt", "version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"udp_cbr\"\nstations = [\"b\"]\nrate_mbps = 5.0\n\
                 [[traffic]]\ntest = \"voip\"\nstations = [\"a\"]\n";
    let scenario = small_scenario(dir.path(), extra);
    let elsewhere = tempfile::tempdir().unwrap();
    let summary = elsewhere.path().join("summary.json");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "-o"])
        .arg(dir.path())
        .arg("--json")
        .arg(&summary)
        .arg("--flent")
        .assert()
        .success();
    let r = results_in(dir.path());
    let udp = r.flows.iter().position(|f| f.test == "udp_cbr").unwrap();
    let g = r.flows[udp].goodput_mbps;
    // --json and --flent write what they write for a simulated run, from the same file.
    let s = super::json(&summary);
    let stations = s["runs"][0]["stations"].as_array().unwrap();
    for (st, mine) in stations.iter().zip(&r.stations) {
        assert_eq!(st["name"], mine.name.as_str());
        assert!((st["goodput_mbps"].as_f64().unwrap() - mine.goodput_mbps).abs() < 1e-9);
    }
    let flent = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            let p = e.as_ref().unwrap().path();
            p.to_string_lossy().ends_with(".flent.gz")
        })
        .count();
    assert_eq!(flent, 1, "one flent file beside the results file");
    // 5 Mbit/s of IP packets of 1,472 payload bytes: 4.91 Mbit/s of payload.
    assert!((g - 4.91).abs() < 0.3, "{g}");
    let e = r.metadata.emulation.as_ref().unwrap();
    let report = e.iperf3.iter().find(|i| i.flow == udp).unwrap();
    let u = report.udp.expect("iperf3's UDP report");
    assert!(
        u.packets > 1500 && u.lost_packets * 100 < u.packets,
        "{u:?}"
    );
    let legs: Vec<_> = r.flows.iter().filter(|f| f.test == "voip").collect();
    assert_eq!(legs.len(), 2);
    for leg in legs {
        let v = leg.voip.expect("a rated leg");
        eprintln!("voip {}: {v:?}", leg.direction);
        assert!(v.sent >= 240 && v.received + 3 >= v.sent, "{v:?}");
        assert!(v.mos > 4.0, "{v:?}");
    }
}

/// `--hold`: the hosts stay up after the scenario's tests with the commands to reach
/// them printed; a ping run with the printed command crosses the emulated AP, in IPv4
/// and in IPv6 (both on the capture of the air); SIGINT then ends the run, the results
/// are written and no namespace of the run is left.
#[test]
fn hold_keeps_the_hosts_up_until_sigint_and_leaves_nothing() {
    use std::io::BufRead;
    if !can_emulate("hold_keeps_the_hosts_up_until_sigint_and_leaves_nothing") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = small_scenario(dir.path(), "");
    let pcap = dir.path().join("air.pcapng");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("airq"))
        .args(["emulate", scenario.to_str().unwrap(), "--duration", "2"])
        .args(["--omit", "0.5", "--hold", "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut printed = Vec::new();
    // The help, up to its last example line.
    for line in lines.by_ref() {
        let line = line.unwrap();
        printed.push(line.clone());
        if line.contains("iperf3 -c") {
            break;
        }
    }
    let text = printed.join("\n");
    let ns = format!("airq-{pid}-sta1");
    assert!(
        text.contains(&format!("sta1    10.0.1.1   ip netns exec {ns} COMMAND")),
        "{text}"
    );
    assert!(text.contains("server  10.0.0.1"), "{text}");
    let ping = printed
        .iter()
        .find(|l| l.contains(&format!("ip netns exec {ns} ping 10.0.0.1")))
        .unwrap_or_else(|| panic!("no ping command in {text}"));
    // After the scenario's 2 s: the hosts are still up and carry the user's ping.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let mut words: Vec<&str> = ping.split_whitespace().collect();
    words.extend(["-c", "3", "-i", "0.2", "-W", "2"]);
    let out = Process::new(words[0]).args(&words[1..]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("3 received"), "{said}");
    // IPv6: the printed `ping -6` to the server's fd00::a00:1 crosses the AP too.
    let ping6 = printed
        .iter()
        .find(|l| l.contains(&format!("ip netns exec {ns} ping -6 fd00::a00:1")))
        .unwrap_or_else(|| panic!("no ping -6 command in {text}"));
    let mut words: Vec<&str> = ping6.split_whitespace().collect();
    words.extend(["-c", "3", "-i", "0.2", "-W", "2"]);
    let out = Process::new(words[0]).args(&words[1..]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("3 received"), "{said}");
    assert!(Process::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap()
        .success());
    let status = child.wait().unwrap();
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    assert!(status.success(), "{status}: {}", rest.join("\n"));
    let left: Vec<String> = airq_emu::netns::list()
        .unwrap()
        .into_iter()
        .filter(|n| airq_emu::netns::owner(n) == Some(pid))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    let r = results_in(dir.path());
    assert!(r.metadata.emulation.is_some());
    // The IPv6 echoes on the air, between sta1's and the server's MACs, in LLC/SNAP
    // with EtherType 0x86DD.
    if has_tool(
        "hold_keeps_the_hosts_up_until_sigint_and_leaves_nothing",
        "tshark",
        "-v",
    ) {
        let text = tshark_fields(&pcap, &["icmpv6.type", "wlan.sa", "llc.type"]);
        let echoes = |kind: &str, sa: &str| {
            text.lines()
                .filter(|l| *l == format!("{kind}\t{sa}\t0x86dd"))
                .count()
        };
        assert_eq!(echoes("128", "02:00:0a:00:01:01"), 3, "{text}");
        assert_eq!(echoes("129", "02:00:0a:00:00:01"), 3, "{text}");
    }
}

/// `cc = "bbr"` runs that test's iperf3 with the hosts' BBR (iperf3 reports the
/// sender's algorithm), beside a CUBIC test of the same scenario.
#[test]
fn a_test_with_cc_bbr_runs_the_hosts_bbr() {
    let test = "a_test_with_cc_bbr_runs_the_hosts_bbr";
    if !can_emulate(test) {
        return;
    }
    let available = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default();
    if !available.split_whitespace().any(|a| a == "bbr") {
        // `airq emulate` refuses it with the same reason; say so rather than fail.
        eprintln!("{test}: skipped: the kernel has no BBR ({available})");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"tcp_download\"\nstations = [\"a\"]\ncc = \"bbr\"\n\
                 [[traffic]]\ntest = \"tcp_download\"\nstations = [\"b\"]\n";
    let scenario = small_scenario(dir.path(), extra);
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "--duration", "3"])
        .args(["--omit", "1", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let r = results_in(dir.path());
    let iperf3 = &r.metadata.emulation.as_ref().unwrap().iperf3;
    let cc: Vec<(usize, Option<&str>)> = iperf3
        .iter()
        .map(|i| (i.flow, i.congestion.as_deref()))
        .collect();
    // Flows 0-2 are the pings; 3 is a's download (BBR), 4 b's (CUBIC).
    assert_eq!(cc, vec![(3, Some("bbr")), (4, Some("cubic"))]);
}

/// `--pcap` is pcapng with radiotap and 802.11 QoS Data headers, as tshark reads it:
/// every frame at the stations' HT MCS 7, the TCP download's and pings' TID 0, and as
/// many frames down to the downloading station in the run as the results count
/// delivered; each A-MPDU reference is one exchange (one time, one direction, one
/// station), and the frames per A-MPDU are the results' MPDUs per A-MPDU (less the
/// MPDUs that failed, which are not on the capture).
#[test]
fn the_pcap_has_radiotap_rates_tids_and_ampdus() {
    let test = "the_pcap_has_radiotap_rates_tids_and_ampdus";
    if !can_emulate(test) || !has_tool(test, "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"tcp_download\"\nstations = [\"b\"]\n";
    let scenario = small_scenario(dir.path(), extra);
    let pcap = dir.path().join("air.pcapng");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "--duration", "4"])
        .args(["--omit", "0", "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .success();
    let r = results_in(dir.path());
    let text = tshark_fields(
        &pcap,
        &[
            "frame.time_epoch",
            "radiotap.mcs.index",
            "wlan.qos.tid",
            "radiotap.ampdu.reference",
            "wlan.fc.ds",
            "wlan.ra",
            "ip.dst",
            "radiotap.channel.freq",
            "radiotap.channel.flags.5ghz",
        ],
    );
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        Some(rows.len() as u64),
        r.metadata.emulation.as_ref().unwrap().pcap_frames
    );
    assert!(rows.iter().all(|f| f[1] == "7" && f[2] == "0"), "{text}");
    // The 5 GHz band's default channel, 36.
    assert!(rows.iter().all(|f| f[7] == "5180" && f[8] == "1"), "{text}");
    // Down to b (FromDS: wlan.fc.ds 2) within the run.
    let b_down: Vec<&Vec<&str>> = rows
        .iter()
        .filter(|f| f[4] == "0x02" && f[6] == "10.0.1.2")
        .filter(|f| f[0].parse::<f64>().unwrap() <= 4.0)
        .collect();
    assert!(b_down.iter().all(|f| f[5] == "02:00:0a:00:01:02"));
    let b = &r.stations[1];
    let frames = b_down.len() as u64;
    eprintln!("b down: {frames} frames, {} delivered", b.rx_packets_down);
    assert!(frames.abs_diff(b.rx_packets_down) <= b.rx_packets_down / 100 + 2);
    let mut ampdus: std::collections::BTreeMap<&str, Vec<&Vec<&str>>> = Default::default();
    for f in &rows {
        assert!(!f[3].is_empty(), "an HT frame outside an A-MPDU: {f:?}");
        ampdus.entry(f[3]).or_default().push(f);
    }
    for group in ampdus.values() {
        let first = group[0];
        assert!(
            group
                .iter()
                .all(|f| (f[0], f[4], f[5]) == (first[0], first[4], first[5])),
            "{group:?}"
        );
    }
    let refs = b_down
        .iter()
        .map(|f| f[3])
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let per_ampdu = frames as f64 / refs as f64;
    eprintln!(
        "b down: {per_ampdu:.2} frames per A-MPDU, results {:.2} MPDUs ({} failed)",
        b.mpdus_per_ampdu_down, b.mpdu_failures_down
    );
    assert!(per_ampdu <= b.mpdus_per_ampdu_down * 1.01 + 0.05);
    assert!(per_ampdu >= b.mpdus_per_ampdu_down * 0.9);
}

/// A marked TCP test carries its DSCP both ways, as the simulator sends it and as
/// flent's netperf marks both ends (`-Y local,remote`): the server's segments too (a
/// download's data, an upload's ACKs). iperf3 applies the client's `-S` on the server
/// only when it listens on IPv4 (esnet/iperf#638: on its default dual-stack socket an
/// IPv4 stream went out unmarked, all best effort), hence its `-4`.
#[test]
fn both_ends_of_a_marked_tcp_test_carry_its_dscp() {
    let test = "both_ends_of_a_marked_tcp_test_carry_its_dscp";
    if !can_emulate(test) || !has_tool(test, "tshark", "-v") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let extra = "[[traffic]]\ntest = \"tcp_download\"\nstations = [\"a\"]\ndscp = 46\n\
                 [[traffic]]\ntest = \"tcp_upload\"\nstations = [\"b\"]\ndscp = 40\n";
    let scenario = small_scenario(dir.path(), extra);
    let pcap = dir.path().join("air.pcapng");
    airq()
        .args(["emulate", scenario.to_str().unwrap(), "--duration", "3"])
        .args(["--omit", "0", "-o"])
        .arg(dir.path())
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .success();
    let text = tshark_fields(
        &pcap,
        &[
            "ip.src",
            "ip.dst",
            "tcp.srcport",
            "tcp.dstport",
            "ip.dsfield.dscp",
            "wlan.qos.tid",
        ],
    );
    // Each direction of each TCP connection (source, destination, ports): its
    // packets' DSCP and TID.
    type Direction = (String, String, String, String);
    let mut conns: std::collections::BTreeMap<Direction, Vec<(u8, u8)>> = Default::default();
    for f in text.lines().map(|l| l.split('\t').collect::<Vec<_>>()) {
        if f[2].is_empty() {
            continue;
        }
        let key = (f[0].into(), f[1].into(), f[2].into(), f[3].into());
        let marks = (f[4].parse().unwrap(), f[5].parse().unwrap());
        conns.entry(key).or_default().push(marks);
    }
    // The data connection of each test is its busiest, both ways (iperf3's control
    // connection, a few packets, is not marked).
    for (station, dscp, tid) in [("10.0.1.1", 46, 6), ("10.0.1.2", 40, 5)] {
        for (src, dst) in [("10.0.0.1", station), (station, "10.0.0.1")] {
            let (key, marks) = conns
                .iter()
                .filter(|(k, _)| k.0 == src && k.1 == dst)
                .max_by_key(|(_, v)| v.len())
                .expect("a TCP connection");
            eprintln!("{key:?}: {} packets", marks.len());
            assert!(marks.len() > 100, "{key:?}: {} packets", marks.len());
            // iperf3 marks a stream's socket after its handshake (esnet/iperf#2047): a
            // few packets each way go out unmarked, at most 3 here (usually the first
            // ones; once the first and one later of 16,925, cause not looked into).
            let unmarked: Vec<usize> = (0..marks.len())
                .filter(|&i| marks[i] != (dscp, tid))
                .collect();
            assert!(
                unmarked.len() <= 3,
                "{key:?}: {} of {} packets not DSCP {dscp} in TID {tid}, at {:?}: {:?}",
                unmarked.len(),
                marks.len(),
                &unmarked[..unmarked.len().min(10)],
                &marks[..marks.len().min(10)]
            );
        }
    }
}
