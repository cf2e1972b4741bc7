//! End to end through real namespaces: these need root, network namespaces and
//! /dev/net/tun. Without them each test prints why and passes, unless
//! `AIRQ_REQUIRE_EMU=1` (CI) makes that a failure. They run one at a time (a lock): they
//! share this process's namespace names.

use airq::phy::{Band, ChannelWidth, GuardInterval, Rate};
use airq::{Duration, Instant, StationId};
use airq_emu::flow_map::FlowMap;
use airq_emu::netns;
use airq_emu::network::{address_of, Network};
use airq_emu::realtime::{run_beside, Span};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::FlowSpec;
use airq_sim::bss::{BssScenario, Host, Simulation};
use airq_sim::mac::link::{BssConfig, StationLink};
use airq_sim::net::packet::FlowIndex;
use airq_sim::net::real_packet::parse_ipv4;
use std::process::Command;
use std::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Why emulation cannot run here, if it cannot.
fn unavailable() -> Option<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root".into());
    }
    if !std::path::Path::new("/dev/net/tun").exists() {
        return Some("no /dev/net/tun".into());
    }
    match Command::new("ip").args(["netns", "list"]).output() {
        Ok(o) if o.status.success() => None,
        _ => Some("`ip netns` does not work (iproute2 missing?)".into()),
    }
}

/// True if the test may go on; prints why not, or fails under `AIRQ_REQUIRE_EMU=1`.
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

fn ours(pid: u32) -> Vec<String> {
    netns::list()
        .unwrap()
        .into_iter()
        .filter(|n| netns::owner(n) == Some(pid))
        .collect()
}

/// Interfaces of ours in this namespace (the TUN devices before they move).
fn root_interfaces(pid: u32) -> Vec<String> {
    let out = Command::new("ip").args(["-o", "link"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains(&format!("aq{pid}h")))
        .map(str::to_string)
        .collect()
}

#[test]
fn setup_and_teardown_leave_nothing_behind() {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_emulate("setup_and_teardown_leave_nothing_behind") {
        return;
    }
    let pid = std::process::id();
    let net = Network::create(3).unwrap();
    let names = ours(pid);
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names.contains(&format!("airq-{pid}-server")));
    assert!(names.contains(&format!("airq-{pid}-sta3")));
    let out = net
        .command(
            Host::Station(StationId(2)),
            "ip",
            &["-o", "addr", "show", "wlan0"],
        )
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("10.0.1.3/16"));
    drop(net);
    assert!(ours(pid).is_empty());
    assert!(root_interfaces(pid).is_empty());
}

/// Runs `ip ARGS` and returns what it printed.
fn ip(args: &[&str]) -> String {
    let out = Command::new("ip").args(args).output().unwrap();
    assert!(out.status.success(), "ip {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What `ip netns add`, `ip link set ... up` and `ip addr add` made before, checked
/// with iproute2 itself as users see it: `ip netns list`, `ip netns exec`, `ip -n`.
#[test]
fn namespaces_are_iproutes_and_configured_as_ip_configured_them() {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_emulate("namespaces_are_iproutes_and_configured_as_ip_configured_them") {
        return;
    }
    let pid = std::process::id();
    let net = Network::create(2).unwrap();
    let ns = format!("airq-{pid}-sta2");
    assert!(ip(&["netns", "list"]).lines().any(|l| l.starts_with(&ns)));
    let addrs = ip(&["-n", &ns, "-o", "addr", "show", "dev", "wlan0"]);
    assert!(
        addrs.contains("inet 10.0.1.2/16 scope global wlan0"),
        "{addrs}"
    );
    assert!(
        addrs.contains("inet6 fd00::a00:102/64 scope global nodad"),
        "{addrs}"
    );
    let link = ip(&["-n", &ns, "-o", "link", "show", "dev", "wlan0"]);
    assert!(link.contains(",UP,") || link.contains(",UP>"), "{link}");
    let lo = ip(&["-n", &ns, "-o", "link", "show", "dev", "lo"]);
    assert!(lo.contains(",UP,") || lo.contains(",UP>"), "{lo}");
    // The kernel's prefix route, as after `ip addr add` on a link that is up.
    let routes = ip(&["-n", &ns, "route", "show", "dev", "wlan0"]);
    assert!(routes.contains("10.0.0.0/16"), "{routes}");
    // A user's `ip netns exec` reaches the same interface as our commands.
    let theirs = ip(&[
        "netns", "exec", &ns, "ip", "-o", "-4", "addr", "show", "wlan0",
    ]);
    assert!(theirs.contains("10.0.1.2/16"), "{theirs}");
    // A namespace's sysctl is its own: the machine's stays as it was.
    let key = "/proc/sys/net/ipv4/tcp_ecn";
    let machine = std::fs::read_to_string(key).unwrap();
    let other = if machine.trim() == "1" { "2" } else { "1" };
    let sta1 = Host::Station(StationId(0));
    net.set_sysctl(sta1, "net.ipv4.tcp_ecn", other).unwrap();
    let inside = net.command(sta1, "cat", &[key]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&inside.stdout).trim(), other);
    assert_eq!(std::fs::read_to_string(key).unwrap(), machine);
    assert!(net.set_sysctl(sta1, "kernel.hostname", "x").is_err());
    // The device's counters, as /sys/class/net/wlan0/statistics shows them inside:
    // nothing reads sta2's TUN device here, so of 1,000 datagrams sent through it all
    // but what its ring holds (txqueuelen 500) are dropped.
    let sta2 = Host::Station(StationId(1));
    net.run_in(sta2, || {
        let socket = std::net::UdpSocket::bind("0.0.0.0:0")?;
        for _ in 0..1000 {
            socket.send_to(&[0; 100], "10.0.0.1:9")?;
        }
        Ok(())
    })
    .unwrap();
    let sysfs = ip(&[
        "netns",
        "exec",
        &ns,
        "cat",
        "/sys/class/net/wlan0/statistics/tx_dropped",
    ]);
    let dropped = net.tx_dropped(sta2).unwrap();
    assert_eq!(dropped, sysfs.trim().parse::<u64>().unwrap());
    assert!((400..=600).contains(&dropped), "{dropped} dropped");
    drop(net);
    assert!(ours(pid).is_empty());
    assert!(!std::path::Path::new(&format!("/run/netns/{ns}")).exists());
}

/// A child that makes a network and waits to be killed.
#[test]
#[ignore = "the child of the SIGKILL test"]
fn child_holds_a_network() {
    if std::env::var("AIRQ_EMU_CHILD").is_err() {
        return;
    }
    let _net = Network::create(2).unwrap();
    println!("ready");
    std::thread::sleep(std::time::Duration::from_secs(60));
}

#[test]
fn a_new_start_removes_what_a_killed_run_left() {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_emulate("a_new_start_removes_what_a_killed_run_left") {
        return;
    }
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_holds_a_network",
            "--ignored",
            "--nocapture",
        ])
        .env("AIRQ_EMU_CHILD", "1")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while ours(pid).len() < 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "the child made no network"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(ours(pid).len(), 3, "a killed run leaves its namespaces");
    // A new start cleans up after it, and its own network is whole.
    let net = Network::create(1).unwrap();
    assert!(ours(pid).is_empty());
    assert_eq!(ours(std::process::id()).len(), 2);
    drop(net);
}

fn ht_mcs7_bss(stations: usize, flows: Vec<FlowSpec>) -> BssScenario {
    let rate = Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap();
    let links = (0..stations).map(|_| StationLink::new(rate)).collect();
    BssScenario::new(BssConfig::ofdm(Band::Ghz5), links, flows)
}

/// The RTT the model gives an echo of `len` bytes from the server to station 0 of an
/// idle BSS sent at `at`, the reply sent as the request arrives.
fn model_rtt(scenario: &BssScenario, ap: &ApConfig, at: Instant) -> Duration {
    let mut sim = Simulation::external(scenario.clone(), ap).unwrap();
    // 84 bytes: ping's default 56 data bytes, ICMP and IP headers.
    let mut b = vec![0u8; 84];
    b[0] = 0x45;
    b[2..4].copy_from_slice(&84u16.to_be_bytes());
    b[9] = 1;
    b[12..16].copy_from_slice(&[10, 0, 0, 1]);
    b[16..20].copy_from_slice(&[10, 0, 1, 1]);
    b[20] = 8;
    let f = parse_ipv4(&b).unwrap();
    let s0 = Host::Station(StationId(0));
    sim.inject(at, Host::Server, s0, FlowIndex(0), &f, b.clone().into())
        .unwrap();
    let mut out = Vec::new();
    let next = |sim: &mut Simulation, out: &mut Vec<_>| loop {
        assert!(sim.step(at + Duration::from_secs(1)));
        sim.take_delivered(out);
        if let Some(d) = out.pop() {
            return d;
        }
    };
    let down: airq_sim::bss::Delivered = next(&mut sim, &mut out);
    sim.inject(down.at, s0, Host::Server, FlowIndex(0), &f, b.into())
        .unwrap();
    let up = next(&mut sim, &mut out);
    up.at - at
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn a_ping_through_an_idle_bss_takes_the_models_rtt() {
    let _lock = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !can_emulate("a_ping_through_an_idle_bss_takes_the_models_rtt") {
        return;
    }
    let ping = FlowSpec::ping(StationId(0), Duration::from_millis(100));
    let (map, flows) = FlowMap::new(&[ping], 1);
    let scenario = ht_mcs7_bss(1, flows);
    let ap = ApConfig::preset("airtime").unwrap();
    let mut model: Vec<f64> = (0..20)
        .map(|i| {
            let at = Instant::ZERO + Duration::from_millis(500 + 100 * i);
            model_rtt(&scenario, &ap, at).as_nanos() as f64 / 1e6
        })
        .collect();
    let mut sim = Simulation::external(scenario.clone(), &ap).unwrap();
    let mut net = Network::create(1).unwrap();
    let until = Instant::ZERO + Duration::from_secs(10);
    let span = Span {
        measure_until: until,
        until,
    };
    let (report, out) = run_beside(&mut sim, &mut net, &map, span, false, None, |net, _| {
        let to = address_of(Host::Station(StationId(0)));
        net.command(Host::Server, "ping", &["-n", "-c", "20", "-i", "0.1", &to])
            .output()
            .unwrap()
    })
    .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rtts: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split("time=").nth(1))
        .filter_map(|t| t.trim_end_matches(" ms").parse().ok())
        .collect();
    assert_eq!(rtts.len(), 20, "{text}");
    let (measured, predicted) = (median(&mut rtts), median(&mut model));
    eprintln!(
        "ping median {measured:.3} ms, model {predicted:.3} ms; real-time priority {}; lateness p50 {} p99 {} \
         max {} us at {} s over {} events",
        report.realtime_priority,
        report.lateness.percentile_us(50.0),
        report.lateness.percentile_us(99.0),
        report.lateness.max_us(),
        report.lateness.max_at_s(),
        report.lateness.count()
    );
    assert!(
        (measured - predicted).abs() < 0.5,
        "ping {measured} ms, model {predicted} ms"
    );
    assert_eq!(sim.metrics().flows[0].rx_packets, 40);
}
