//! What `airq emulate` can run: the tests it emulates, the tools the host needs, and
//! what the hosts' settings allow (one ECN setting, both legs of a call).

use crate::error::CliError;
use airq_sim::apps::traffic::{App, Direction, FlowSpec};
use std::process::Stdio;

/// Why flow `f` cannot be emulated, if it cannot.
pub(super) fn supported(f: &FlowSpec) -> Result<(), &'static str> {
    match f.app {
        App::Ping { .. }
        | App::Tcp { .. }
        | App::Voip { .. }
        | App::Udp { .. }
        | App::Http { .. } => Ok(()),
    }
}

/// The TCP flows' ECN must agree: the hosts negotiate ECN by one setting per namespace
/// (`net.ipv4.tcp_ecn`), not per flow, and iperf3 has no option for it.
pub(super) fn same_ecn(flows: &[FlowSpec]) -> Result<(), String> {
    let mut ecn = flows.iter().filter_map(|f| match f.app {
        App::Tcp { config } | App::Http { config, .. } => Some(config.ecn),
        _ => None,
    });
    let first = ecn.next();
    match ecn.find(|&e| Some(e) != first) {
        Some(_) => Err(
            "`traffic[].ecn` differs between TCP flows: the emulated hosts' ECN \
             is one setting per namespace (net.ipv4.tcp_ecn), not per flow; give every TCP \
             test the same `ecn`"
                .to_string(),
        ),
        None => Ok(()),
    }
}

/// The two legs of each call, (downlink, uplink) flow indices: one irtt measures both.
/// A leg without its other half cannot be emulated.
pub(super) fn voip_pairs(flows: &[FlowSpec]) -> Result<Vec<(usize, usize)>, String> {
    let is_voip = |k: usize, d: Direction| {
        matches!(flows[k].app, App::Voip { .. }) && flows[k].direction == d
    };
    let mut pairs = Vec::new();
    let mut taken = vec![false; flows.len()];
    for down in (0..flows.len()).filter(|&k| is_voip(k, Direction::Downlink)) {
        let f = &flows[down];
        let up = (0..flows.len()).find(|&k| {
            !taken[k]
                && is_voip(k, Direction::Uplink)
                && flows[k].station == f.station
                && (flows[k].dscp, flows[k].start, flows[k].stop) == (f.dscp, f.start, f.stop)
                && flows[k].app == f.app
        });
        let Some(up) = up else {
            return Err(format!(
                "VoIP flow {down} has no uplink leg like it: irtt measures a call's two legs \
                 together"
            ));
        };
        taken[up] = true;
        taken[down] = true;
        pairs.push((down, up));
    }
    match (0..flows.len()).find(|&k| matches!(flows[k].app, App::Voip { .. }) && !taken[k]) {
        Some(k) => Err(format!(
            "VoIP flow {k} has no downlink leg like it: irtt measures a call's two legs \
             together"
        )),
        None => Ok(pairs),
    }
}

/// Root, the tools the flows need.
pub(super) fn check_environment(flows: &[FlowSpec]) -> Result<(), CliError> {
    if !airq_emu::is_root() {
        return Err(CliError::new(
            "emulation needs root (network namespaces, /dev/net/tun): run as root",
        ));
    }
    let mut needed = vec![("ip", "iproute2")];
    if flows.iter().any(|f| matches!(f.app, App::Ping { .. })) {
        needed.push(("ping", "iputils-ping"));
    }
    if flows
        .iter()
        .any(|f| matches!(f.app, App::Tcp { .. } | App::Udp { .. }))
    {
        needed.push(("iperf3", "iperf3"));
    }
    if flows.iter().any(|f| matches!(f.app, App::Voip { .. })) {
        needed.push(("irtt", "irtt"));
    }
    for (program, package) in needed {
        let found = std::process::Command::new(program)
            .arg("-V")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !found {
            return Err(CliError::new(format!(
                "emulation needs `{program}`: install the `{package}` package"
            )));
        }
    }
    Ok(())
}

/// `--hold`'s help: each host's namespace and address, and commands to paste (a ping
/// from each station to the server, an iperf3 server and a client on a port the
/// scenario's tests do not use). The scenario's tests run first, as without `--hold`;
/// the hosts then stay up until SIGINT or SIGTERM.
/// Every congestion control the flows ask for is one this kernel has (iperf3's `-C`
/// would fail otherwise, once the run has started).
pub(super) fn check_kernel_cc(flow_cc: &[&str]) -> Result<(), CliError> {
    let file = "/proc/sys/net/ipv4/tcp_available_congestion_control";
    let available = std::fs::read_to_string(file).unwrap_or_default();
    for cc in flow_cc.iter().filter(|cc| !cc.is_empty()) {
        if !available.split_whitespace().any(|a| a == *cc) {
            return Err(CliError::new(format!(
                "traffic[].cc = \"{cc}\": this kernel has no `{cc}` ({file}: {}); load it \
                 (`modprobe tcp_{cc}`)",
                available.trim()
            )));
        }
    }
    Ok(())
}
