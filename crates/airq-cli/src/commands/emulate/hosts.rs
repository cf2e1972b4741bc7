//! The emulated hosts' settings and the commands that reach them (`--hold`).

use crate::error::CliError;
use airq::StationId;
use airq_emu::flow_map::tcp_port;
use airq_emu::network::{address6_of, address_of, Network};
use airq_sim::apps::traffic::{App, FlowSpec};
use airq_sim::bss::Host;
use airq_sim::transport::tcp::CongestionControl;

pub(super) fn print_hold_help(net: &Network, stations: usize, flows: usize) {
    let server = net.namespace(Host::Server);
    println!(
        "emulated hosts, up until Ctrl-C (SIGINT) or SIGTERM; the scenario's tests run          first and are measured as without --hold:"
    );
    let hosts = std::iter::once(Host::Server)
        .chain((0..stations as u32).map(|s| Host::Station(StationId(s))));
    for host in hosts {
        println!(
            "  {:<7} {:<10} ip netns exec {} COMMAND",
            Network::host_name(host),
            address_of(host),
            net.namespace(host)
        );
    }
    println!("for example:");
    let server_address = address_of(Host::Server);
    for s in 0..stations as u32 {
        let ns = net.namespace(Host::Station(StationId(s)));
        println!("  ip netns exec {ns} ping {server_address}");
    }
    // IPv6 as well: each host has the fd00:: address of its IPv4 one.
    let server6 = address6_of(Host::Server);
    for s in 0..stations as u32 {
        let ns = net.namespace(Host::Station(StationId(s)));
        println!("  ip netns exec {ns} ping -6 {server6}");
    }
    // A port above every scenario test's (5201 + flow).
    let port = tcp_port(flows + 100);
    let sta = net.namespace(Host::Station(StationId(0)));
    println!("  ip netns exec {server} iperf3 -s -p {port} &");
    println!("  ip netns exec {sta} iperf3 -c {server_address} -p {port} -R -t 10");
}

/// Linux's name of a congestion control.
pub(super) fn linux_cc(cc: CongestionControl) -> &'static str {
    match cc {
        CongestionControl::Cubic => "cubic",
        CongestionControl::NewReno => "reno",
    }
}

/// Each host's TCP defaults as the scenario's first TCP flow has them, so that tools a
/// user starts under `--hold` get them too (a namespace inherits the machine's, which
/// may be BBR): `net.ipv4.tcp_congestion_control`, and `net.ipv4.tcp_ecn = 1` (request
/// ECN) when the flow negotiates ECN. Only the namespaces' own settings change. The
/// kernel refuses a namespace a default outside the machine's allowed list: then a note,
/// and the scenario's flows still get theirs through iperf3's `-C`.
pub(super) fn set_tcp_defaults(
    net: &Network,
    flows: &[FlowSpec],
    cc: &[&str],
) -> Result<(), CliError> {
    let Some((k, config)) = flows.iter().enumerate().find_map(|(k, f)| match f.app {
        App::Tcp { config } | App::Http { config, .. } => Some((k, config)),
        _ => None,
    }) else {
        return Ok(());
    };
    let mut settings = vec![("net.ipv4.tcp_congestion_control", cc[k])];
    if config.ecn {
        settings.push(("net.ipv4.tcp_ecn", "1"));
    }
    let stations = net.namespaces().len() - 1;
    let hosts = std::iter::once(Host::Server)
        .chain((0..stations as u32).map(|s| Host::Station(StationId(s))));
    let hosts: Vec<Host> = hosts.collect();
    for &(key, value) in &settings {
        let setting = format!("{key}={value}");
        let refused = hosts
            .iter()
            .filter(|&&host| net.set_sysctl(host, key, value).is_err());
        if refused.count() > 0 {
            // A namespace may only default to an algorithm the machine allows
            // (`net.ipv4.tcp_allowed_congestion_control`), which is not ours to change;
            // iperf3's `-C` still sets it on the flows' sockets.
            eprintln!(
                "airq: note: could not set {setting} in the hosts' namespaces: tools \
                 started there other than the scenario's keep the machine's default"
            );
        }
    }
    Ok(())
}

/// Waits until every flow's server listens (`ss -Hl` in the server's namespace, TCP
/// for iperf3, UDP for irtt), for 10 s at most: a client started before would be
/// refused.
pub(super) fn wait_listening(
    net: &Network,
    flows: &[FlowSpec],
    pairs: &[(usize, usize)],
) -> Result<(), CliError> {
    let port = |k: usize| format!(":{}", tcp_port(k));
    let tcp: Vec<String> = (0..flows.len())
        .filter(|&k| {
            matches!(
                flows[k].app,
                App::Tcp { .. } | App::Udp { .. } | App::Http { .. }
            )
        })
        .map(port)
        .collect();
    let udp: Vec<String> = pairs.iter().map(|&(down, _)| port(down)).collect();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let listening = |flag: &str, ports: &[String]| -> Result<bool, CliError> {
            let out = net
                .command(Host::Server, "ss", &[flag])
                .output()
                .map_err(|e| CliError::new(format!("cannot run ss (iproute2): {e}")))?;
            let text = String::from_utf8_lossy(&out.stdout);
            Ok(ports.iter().all(|port| {
                text.lines().any(|l| {
                    l.split_whitespace()
                        .nth(3)
                        .is_some_and(|a| a.ends_with(port.as_str()))
                })
            }))
        };
        if listening("-Hltn", &tcp)? && listening("-Hlun", &udp)? {
            return Ok(());
        }
        if std::time::Instant::now() > deadline || airq_emu::signals::stop_requested() {
            return Err(CliError::new(
                "the iperf3/irtt/web servers did not start listening within 10 s",
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
