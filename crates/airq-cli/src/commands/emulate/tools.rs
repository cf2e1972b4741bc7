//! The scenario's tests as real tools in the namespaces: their command lines, started
//! when their flow starts, their output collected.

use crate::error::CliError;
use airq::{Duration, Instant};
use airq_emu::flow_map::{ping_id, tcp_port};
use airq_emu::irtt;
use airq_emu::network::{address_of, Network};
use airq_emu::realtime::Clock;
use airq_sim::apps::traffic::{
    App, Direction, FlowSpec, Load, G711_FRAME_BYTES, G711_INTERVAL, RTP_HEADER_BYTES,
    UDP_IP_HEADER_BYTES,
};
use airq_sim::bss::Host;
use std::path::Path;
use std::process::Stdio;

use super::*;

/// Seconds, rounded up, that a tool started at `at` runs to reach `end`.
pub(super) fn seconds_to(at: Instant, end: Instant) -> u64 {
    end.saturating_duration_since(at)
        .as_nanos()
        .div_ceil(1_000_000_000)
}

/// The IPv4 TOS byte of `f`'s DSCP (ECN bits clear), as `ping -Q` and `iperf3 -S`
/// take it.
pub(super) fn tos(f: &FlowSpec) -> String {
    f.dscp.to_ds_field(0).to_string()
}

/// The command of flow `k`'s tool (the client side), started at `started` and
/// running until `stop`; `irtt_json` is where irtt writes its output.
pub(super) fn tool_command(
    net: &Network,
    k: usize,
    f: &FlowSpec,
    cc: &str,
    started: Instant,
    stop: Instant,
    irtt_json: &Path,
) -> std::process::Command {
    let seconds = seconds_to(started, stop).max(1).to_string();
    let station = Host::Station(f.station);
    let port = tcp_port(k).to_string();
    match f.app {
        App::Ping {
            payload_bytes,
            peer,
            ..
        } => {
            let interval = f.interval().expect("a ping has an interval");
            let interval_s = format!("{:.3}", interval.as_nanos() as f64 / 1e9);
            let count = (stop.saturating_duration_since(started).as_nanos()
                / interval.as_nanos().max(1))
            .max(1)
            .to_string();
            // The server pings a station (downlink); a station pings the server
            // (uplink) or another station (`to`).
            let (from, to) = match (f.direction, peer) {
                (_, Some(peer)) => (station, Host::Station(peer)),
                (Direction::Uplink, None) => (station, Host::Server),
                (Direction::Downlink, None) => (Host::Server, station),
            };
            let (id, size, tos) = (ping_id(k).to_string(), payload_bytes.to_string(), tos(f));
            let mut args = vec!["-n", "-i", &interval_s, "-c", &count, "-W", "2"];
            args.extend(["-e", &id, "-s", &size]);
            if f.dscp.get() != 0 {
                args.extend(["-Q", &tos]);
            }
            let to = address_of(to);
            args.push(&to);
            net.command(from, "ping", &args)
        }
        App::Tcp { .. } => {
            let tos = tos(f);
            let mut args = vec!["-c", "10.0.0.1", "-p", &port, "-t", &seconds, "-J"];
            // The sender's congestion control, set on both ends' sockets.
            args.extend(["-C", cc]);
            if f.dscp.get() != 0 {
                args.extend(["-S", &tos]);
            }
            if f.direction == Direction::Downlink {
                args.push("-R");
            }
            net.command(station, "iperf3", &args)
        }
        App::Udp {
            load: Load::Cbr { rate_bps },
            payload_bytes,
        } => {
            // iperf3's -b counts UDP payload bits; the scenario's rate counts IP bits.
            let ip_bytes = u64::from(payload_bytes + UDP_IP_HEADER_BYTES);
            let payload_bps = rate_bps * u64::from(payload_bytes) / ip_bytes;
            let (rate, size, tos) = (payload_bps.to_string(), payload_bytes.to_string(), tos(f));
            let mut args = vec!["-c", "10.0.0.1", "-p", &port, "-t", &seconds, "-J", "-u"];
            args.extend(["-b", &rate, "-l", &size]);
            if f.dscp.get() != 0 {
                args.extend(["-S", &tos]);
            }
            if f.direction == Direction::Downlink {
                args.push("-R");
            }
            net.command(station, "iperf3", &args)
        }
        App::Voip { .. } => {
            // G.711 in 20 ms packets: 160 bytes of speech and a 12-byte RTP header
            // in each UDP datagram, as the simulator sends them.
            let interval = irtt::duration_arg(G711_INTERVAL);
            let length = (G711_FRAME_BYTES + RTP_HEADER_BYTES).to_string();
            let duration = irtt::duration_arg(stop.saturating_duration_since(started));
            // irtt's --dscp takes the whole DS field (IP_TOS), despite its help's
            // examples: `--dscp=46` marks DSCP 11, as a capture shows.
            let dscp = format!("--dscp={}", tos(f));
            let output = irtt_json.to_string_lossy().to_string();
            let server = format!("10.0.0.1:{port}");
            let args = [
                "client",
                "-i",
                &interval,
                "-l",
                &length,
                "-d",
                &duration,
                &dscp,
                "-Q",
                "--wait=1s",
                "-o",
                &output,
                &server,
            ];
            net.command(station, "irtt", &args)
        }
        App::Udp { .. } | App::Http { .. } => unreachable!("checked by `supported`"),
    }
}

/// Where flow `k`'s irtt writes its JSON.
pub(super) fn irtt_json(dir: &Path, k: usize) -> std::path::PathBuf {
    dir.join(format!("irtt-flow{k}.json"))
}

/// Starts each flow's tool at its start time, waits for them all (killing them if a
/// signal comes, or if they outlive the run by [`GRACE`]). A call's uplink leg has no
/// tool of its own: its downlink leg's irtt measures both.
pub(super) fn run_tools(
    net: &mut Network,
    clock: Clock,
    flows: &[FlowSpec],
    end: Instant,
    pairs: &[(usize, usize)],
    scratch: &Path,
    cc: &[&str],
) -> Result<Vec<(Tool, std::process::Output)>, CliError> {
    set_tcp_defaults(net, flows, cc)?;
    // The servers, in the server's namespace, one per flow, first: iperf3 for TCP
    // and UDP, irtt for a call.
    for (k, f) in flows.iter().enumerate() {
        let port = tcp_port(k).to_string();
        if matches!(f.app, App::Tcp { .. } | App::Udp { .. }) {
            net.spawn(Host::Server, "iperf3", &["-s", "-1", "-p", &port])
                .map_err(|e| CliError::new(e.to_string()))?;
        }
        if pairs.iter().any(|&(down, _)| down == k) {
            let bind = format!("10.0.0.1:{port}");
            net.spawn(Host::Server, "irtt", &["server", "-b", &bind])
                .map_err(|e| CliError::new(e.to_string()))?;
        }
    }
    wait_listening(net, flows, pairs)?;
    let mut order: Vec<usize> = (0..flows.len())
        .filter(|&k| !pairs.iter().any(|&(_, up)| up == k))
        .collect();
    order.sort_by_key(|&k| flows[k].start);
    let mut tools = Vec::new();
    for k in order {
        let f = &flows[k];
        while clock.now() < f.start {
            if airq_emu::signals::stop_requested() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let started = clock.now();
        let wall_zero_ns = wall_now_ns().saturating_sub(started.as_nanos());
        let stop = f.stop.unwrap_or(end).min(end);
        let child = tool_command(net, k, f, cc[k], started, stop, &irtt_json(scratch, k))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| CliError::new(format!("cannot start flow {k}'s tool: {e}")))?;
        let tool = Tool {
            flow: k,
            spec: f.clone(),
            started,
            wall_zero_ns,
            pair: pairs.iter().find(|p| p.0 == k).map(|p| p.1),
            json: irtt_json(scratch, k),
        };
        tools.push((tool, child));
    }
    let deadline = end + GRACE;
    let mut done = Vec::new();
    for (tool, mut child) in tools {
        // Read while it runs: iperf3's JSON can exceed a pipe's buffer.
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let status = loop {
            if airq_emu::signals::stop_requested() || clock.now() >= deadline {
                let _ = child.kill();
            }
            if let Some(status) = child.try_wait().map_err(|e| CliError::new(e.to_string()))? {
                break status;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let output = std::process::Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        };
        done.push((tool, output));
    }
    // Tools that end early (a ping's last reply comes before the end) must not end
    // the loop before the measured span does: it measures at `end`, within a sleep
    // of it (20 ms at most).
    while clock.now() < end + Duration::from_millis(100) && !airq_emu::signals::stop_requested() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Ok(done)
}

/// The wall clock, Unix nanoseconds.
pub(super) fn wall_now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A thread that reads `pipe` to its end.
pub(super) fn drain<R: std::io::Read + Send + 'static>(
    pipe: Option<R>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut v);
        }
        v
    })
}
