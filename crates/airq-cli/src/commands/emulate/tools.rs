//! The scenario's tests as real tools in the namespaces: their command lines, started
//! when their flow starts, their output collected.

use crate::error::CliError;
use airq::{Duration, Instant};
use airq_emu::flow_map::{ping_id, tcp_port};
use airq_emu::irtt;
use airq_emu::network::{address_of, Network, INTERFACE};
use airq_emu::realtime::Clock;
use airq_sim::apps::traffic::{
    App, Direction, FlowSpec, Load, G711_FRAME_BYTES, G711_INTERVAL, RTP_HEADER_BYTES,
    UDP_IP_HEADER_BYTES,
};
use airq_sim::bss::{BssScenario, Host};
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

/// The rate of IP packets (bit/s) iperf3 offers for each saturated UDP flow
/// (`udp_flood`): the PHY rate of the BSS's fastest station, more than any station's
/// MAC can carry (A-MPDUs, BlockAcks and contention take a share of the air), so the
/// queue in front of the air stays full as the simulator's saturated sender keeps it.
/// Every flood gets the same rate, so that under a shared FIFO each takes an equal share
/// of the arrivals, as the simulator's floods (topped up one for one as they leave) do.
/// Capped so that the floods together fit the wired link: the model's wired link, not
/// the server's own interface, is then what a downlink flood crosses first, and the
/// hosts' queues (whose drops are counted, `host_queue_drops`) stay out of the way.
pub(super) fn flood_rate_bps(bss: &BssScenario) -> u64 {
    let fastest = bss
        .stations
        .iter()
        .map(|s| (s.rate.data_rate_mbps() * 1e6) as u64)
        .max()
        .unwrap_or(0);
    let floods = bss
        .flows
        .iter()
        .filter(|f| {
            matches!(
                f.app,
                App::Udp {
                    load: Load::Saturated { .. },
                    ..
                }
            )
        })
        .count()
        .max(1) as u64;
    fastest.min(bss.wired.rate_bps * 9 / 10 / floods).max(1)
}

/// The echo requests `ping -c` is told to send, one per `interval` from `started` to
/// `stop`.
pub(super) fn ping_count(started: Instant, stop: Instant, interval: Duration) -> u32 {
    let count = stop.saturating_duration_since(started).as_nanos() / interval.as_nanos().max(1);
    count.clamp(1, u64::from(u32::MAX)) as u32
}

/// The command of flow `k`'s tool (the client side), started at `started` and
/// running until `stop`; `irtt_json` is where irtt writes its output, `flood_bps` the
/// rate a saturated UDP flow offers ([`flood_rate_bps`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn tool_command(
    net: &Network,
    k: usize,
    f: &FlowSpec,
    cc: &str,
    started: Instant,
    stop: Instant,
    irtt_json: &Path,
    flood_bps: u64,
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
            let count = ping_count(started, stop, interval).to_string();
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
            load,
            payload_bytes,
        } => {
            let rate_bps = match load {
                Load::Cbr { rate_bps } => rate_bps,
                Load::Saturated { .. } => flood_bps,
            };
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
        App::Http { ref page, .. } => {
            let args = airq_emu::http::client_args(
                http_server(k),
                &http_options(f, cc),
                &web_page(page),
                seconds_to(started, stop).max(1),
            );
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let mut all = vec!["emulate-http"];
            all.extend(args);
            net.command(station, &airq_exe(), &all)
        }
    }
}

/// This `airq` binary, which runs the `http` test's server and client inside the
/// namespaces (`airq emulate-http`).
pub(super) fn airq_exe() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "airq".to_string())
}

/// Where flow `k`'s web server listens.
pub(super) fn http_server(k: usize) -> std::net::SocketAddr {
    std::net::SocketAddr::from(([10, 0, 0, 1], tcp_port(k)))
}

/// The socket options of an `http` flow's connections: its DS field and congestion
/// control.
pub(super) fn http_options(f: &FlowSpec, cc: &str) -> airq_emu::http::SocketOptions {
    airq_emu::http::SocketOptions {
        tos: f.dscp.to_ds_field(0),
        cc: cc.to_string(),
    }
}

/// The simulator's web page as the emulated client loads it.
pub(super) fn web_page(p: &airq_sim::apps::traffic::WebPage) -> airq_emu::http::Page {
    airq_emu::http::Page {
        objects: p.objects.clone(),
        connections: p.connections,
        keep_alive: p.keep_alive,
        think_time: std::time::Duration::from_nanos(p.think_time.as_nanos()),
        request_bytes: p.request_bytes,
        pages: p.pages,
    }
}

/// Where flow `k`'s irtt writes its JSON.
pub(super) fn irtt_json(dir: &Path, k: usize) -> std::path::PathBuf {
    dir.join(format!("irtt-flow{k}.json"))
}

/// Starts each flow's tool at its start time, waits for them all (killing them if a
/// signal comes, or if they outlive the run by [`GRACE`]). A call's uplink leg has no
/// tool of its own: its downlink leg's irtt measures both.
/// What the tools did: each one's output, and the hosts' own queue drops.
pub(super) struct ToolsRun {
    pub(super) outputs: Vec<(Tool, std::process::Output)>,
    /// [`host_queue_drops`] at the end.
    pub(super) host_queue_drops: Vec<u64>,
}

/// Returns each tool's output and the hosts' own queue drops ([`host_queue_drops`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_tools(
    net: &mut Network,
    clock: Clock,
    flows: &[FlowSpec],
    end: Instant,
    pairs: &[(usize, usize)],
    scratch: &Path,
    cc: &[&str],
    flood_bps: u64,
) -> Result<ToolsRun, CliError> {
    set_tcp_defaults(net, flows, cc)?;
    // The servers, in the server's namespace, one per flow, first: iperf3 for TCP
    // and UDP, irtt for a call, `airq emulate-http server` for web page loads.
    for (k, f) in flows.iter().enumerate() {
        let port = tcp_port(k).to_string();
        if matches!(f.app, App::Tcp { .. } | App::Udp { .. }) {
            // `-4`: the server applies the client's `-S` to its own packets (a
            // download's data, an upload's ACKs) only on an IPv4 socket; on its
            // default dual-stack one they go out unmarked (esnet/iperf#638).
            net.spawn(Host::Server, "iperf3", &["-s", "-1", "-4", "-p", &port])
                .map_err(|e| CliError::new(e.to_string()))?;
        }
        if matches!(f.app, App::Http { .. }) {
            let args = airq_emu::http::server_args(http_server(k), &http_options(f, cc[k]));
            let mut all = vec!["emulate-http"];
            all.extend(args.iter().map(String::as_str));
            net.spawn(Host::Server, &airq_exe(), &all)
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
        let child = tool_command(
            net,
            k,
            f,
            cc[k],
            started,
            stop,
            &irtt_json(scratch, k),
            flood_bps,
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| CliError::new(format!("cannot start flow {k}'s tool: {e}")))?;
        let tool = Tool {
            flow: k,
            spec: f.clone(),
            started,
            stop,
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
    Ok(ToolsRun {
        outputs: done,
        host_queue_drops: host_queue_drops(net),
    })
}

/// Packets each host's own interface dropped before this process read them, the
/// server's then each station's: its qdisc's drops (`tc -s qdisc show dev wlan0`,
/// pfifo_fast by default) and the TUN device's `tx_dropped` (its ring full). A sender
/// faster than the emulated AP reads loses packets there, unseen by the model.
pub(super) fn host_queue_drops(net: &Network) -> Vec<u64> {
    let stations = net.namespaces().len() - 1;
    let hosts = std::iter::once(Host::Server)
        .chain((0..stations as u32).map(|s| Host::Station(airq::StationId(s))));
    hosts
        .map(|host| {
            let run = |program: &str, args: &[&str]| -> String {
                net.command(host, program, args)
                    .stderr(Stdio::null())
                    .output()
                    .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                    .unwrap_or_default()
            };
            let qdisc = run("tc", &["-s", "qdisc", "show", "dev", INTERFACE]);
            // The counter of /sys/class/net/wlan0/statistics/tx_dropped, read through
            // rtnetlink: the commands keep this process's /sys, which shows the
            // machine's interfaces, not the namespace's.
            let device = net.tx_dropped(host).unwrap_or(0);
            qdisc_drops(&qdisc) + device
        })
        .collect()
}

/// The sum of the `dropped N` counts of `tc -s qdisc show` output.
pub(super) fn qdisc_drops(text: &str) -> u64 {
    text.split("dropped ")
        .skip(1)
        .filter_map(|rest| {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            n.parse::<u64>().ok()
        })
        .sum()
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
