//! `airq emulate SCENARIO`: the scenario's BSS with real Linux hosts (issue 17). A
//! network namespace for the server and one per station, each with a TUN interface
//! into this process, which runs the scenario's AP configuration and the simulator's
//! MAC/PHY model in real time (`airq_emu`). The scenario's tests run as real tools in
//! the namespaces — `ping` for `ping`, `iperf3` for TCP (the hosts' own TCP with the
//! test's congestion control, `-C`: CUBIC by default, BBR with `cc = "bbr"`, which the
//! simulator refuses) — and their measurements, with the model's count
//! of what it delivered, make a results file like the simulator's, so `airq show` and
//! `airq plot` read it. The loop's lateness (how far behind the clock it ran events)
//! goes in the results file too.

use crate::cli::RunArgs;
use crate::collect::{collect, RunInfo};
use crate::error::CliError;
use crate::outputs;
use crate::results::{self, EmulationSummary, Iperf3Result, UdpReport};
use crate::run_set;
use crate::scenario::{self, ap::check_preset, variant, Variant};
use crate::table;
use airq::{Duration, Instant, StationId};
use airq_emu::air_capture::AirCapture;
use airq_emu::flow_map::{ping_id, tcp_port, FlowMap};
use airq_emu::irtt;
use airq_emu::lateness::{Lateness, TOO_LATE_NS};
use airq_emu::network::{address_of, Network};
use airq_emu::realtime::{run_beside, Clock, LoopReport, Span};
use airq_sim::apps::traffic::{
    App, Direction, FlowSpec, Load, G711_FRAME_BYTES, G711_INTERVAL, RTP_HEADER_BYTES,
    UDP_IP_HEADER_BYTES,
};
use airq_sim::bss::{Host, Simulation};
use airq_sim::metrics::{Metrics, RttSample, VoipSummary};
use airq_sim::transport::tcp::CongestionControl;
use std::path::Path;
use std::process::Stdio;

use super::Verbosity;

/// How long after the measured span the loop keeps serving the tools' last exchanges
/// (iperf3's results) at most.
const GRACE: Duration = Duration::from_secs(5);

/// The options of `airq emulate` besides the scenario's.
pub struct EmulateOptions<'a> {
    /// `--config`: an AP preset.
    pub config: Option<&'a str>,
    /// `--variant`: a variant spec, as for `run`.
    pub variant: Option<&'a str>,
    /// `--hold`: keep the hosts up after the tests, until a signal.
    pub hold: bool,
    /// `--pcap`: the capture of the air.
    pub pcap: Option<&'a Path>,
}

/// One scenario flow's tool.
struct Tool {
    flow: usize,
    spec: FlowSpec,
    /// When it was started, on the loop's clock.
    started: Instant,
    /// The wall-clock time (Unix ns) of the loop's clock's zero, for irtt's times.
    wall_zero_ns: u64,
    /// A call's uplink leg, which this (its downlink leg's) irtt measures too.
    pair: Option<usize>,
    /// Where irtt writes its JSON.
    json: std::path::PathBuf,
}

/// `airq emulate`.
pub fn emulate(
    args: &RunArgs,
    options: &EmulateOptions,
    verbosity: Verbosity,
) -> Result<(), CliError> {
    if args.seeds.is_some_and(|n| n > 1) {
        return Err(CliError::new(
            "--seeds: an emulated run is one real run; run it again for repetitions",
        ));
    }
    super::check_summary_targets(args)?;
    let scenario = scenario::load(&args.scenario, &args.overrides())?;
    let variant = match (options.config, options.variant) {
        (_, Some(spec)) => variant::from_command_line(spec, &scenario.variants)?,
        (Some(preset), None) => {
            check_preset(preset).map_err(|why| CliError::new(format!("--config: {why}")))?;
            Variant::preset(preset)
        }
        (None, None) => Variant::preset(&scenario.ap.preset),
    };
    let spec = run_set::resolve_emulated(&scenario, &[variant])?.remove(0);
    let (scenario, input) = (&spec.scenario, &spec.input);
    let flows = &input.bss.flows;
    // Per flow, whether its test asks for BBR (`cc = "bbr"`, built as CUBIC).
    let (_, bbr) = crate::build::without_bbr(scenario);
    debug_assert_eq!(bbr.len(), flows.len(), "one flag per flow build made");
    let linux_cc = |k: usize| -> &'static str {
        match flows[k].app {
            App::Tcp { .. } if bbr.get(k) == Some(&true) => "bbr",
            App::Tcp { config } => linux_cc(config.cc),
            _ => "",
        }
    };
    let flow_cc: Vec<&'static str> = (0..flows.len()).map(linux_cc).collect();
    for (k, (f, test)) in flows.iter().zip(&input.flow_tests).enumerate() {
        supported(f).map_err(|why| {
            CliError::new(format!(
                "{}: traffic `{test}` (flow {k}) cannot be emulated yet: {why}",
                scenario.path
            ))
        })?;
    }
    same_ecn(flows).map_err(|why| CliError::new(format!("{}: {why}", scenario.path)))?;
    if scenario.seeds > 1 && args.seeds.is_none() {
        eprintln!(
            "airq: note: {}: `seeds = {}` is not repeated under emulation: one real run, the \
             model's random streams from seed {}",
            scenario.path, scenario.seeds, scenario.seed
        );
    }
    let pairs = voip_pairs(flows)
        .map_err(|why| CliError::new(format!("{}: cannot be emulated: {why}", scenario.path)))?;
    check_environment(flows)?;
    check_kernel_cc(&flow_cc)?;
    outputs::check_folder(&args.output)?;
    let label = format!("{}-emulated", spec.label);
    let file_label = results::file_label(&label, &scenario.overrides);
    let path = args.output.join(results::file_name(
        &scenario.name,
        &file_label,
        scenario.seed,
    ));

    // Checked before the run, which takes real time.
    outputs::check_replace(
        &path,
        &crate::results::RunKey {
            scenario: scenario.name.clone(),
            scenario_text: spec.base_text.clone(),
            variant: label.clone(),
            variant_set: spec.variant.set.clone(),
            config: spec.preset.clone(),
            seed: scenario.seed,
            duration_s: scenario.duration_s(),
        },
        args.force,
    )?;
    let stations = scenario.stations.len();
    let (map, all_flows) = FlowMap::new(flows, stations);
    let mut bss = input.bss.clone();
    bss.flows = all_flows;
    let mut sim = Simulation::external(bss, &input.ap)
        .map_err(|e| CliError::new(format!("{}: as {}: {e}", scenario.path, spec.label)))?;
    let mut capture = match options.pcap {
        Some(file) => Some(
            AirCapture::create(file)
                .map_err(|e| CliError::new(format!("--pcap: cannot create {e}")))?,
        ),
        None => None,
    };
    // irtt's output files; removed with it.
    let scratch = tempfile::Builder::new()
        .prefix("airq-emulate-")
        .tempdir()
        .map_err(|e| CliError::new(format!("cannot make a scratch folder: {e}")))?;
    airq_emu::signals::install();
    let mut net = Network::create(stations)
        .map_err(|e| CliError::new(format!("cannot set up the emulated hosts: {e}")))?;
    let end = Instant::ZERO + scenario.duration;
    let span = Span {
        measure_until: end,
        until: if options.hold {
            Instant::from_nanos(u64::MAX)
        } else {
            end + GRACE
        },
    };
    if options.hold && verbosity != Verbosity::Quiet {
        print_hold_help(&net, stations, flows.len());
    }
    let started_utc = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let wall = std::time::Instant::now();
    let (report, tools) = run_beside(
        &mut sim,
        &mut net,
        &map,
        span,
        options.hold,
        capture.as_mut(),
        |net, clock| run_tools(net, clock, flows, end, &pairs, scratch.path(), &flow_cc),
    )
    .map_err(|e| CliError::new(format!("the real-time loop failed: {e}")))?;
    let tools = tools?;
    drop(net);
    let pcap_frames = match capture {
        Some(c) => Some(
            c.finish()
                .map_err(|e| CliError::new(format!("--pcap: cannot write the capture: {e}")))?,
        ),
        None => None,
    };
    if airq_emu::signals::stop_requested() && report.measured.is_none() {
        return Err(CliError::new(
            "interrupted before the end of the run: nothing written (the namespaces are removed)",
        ));
    }
    let mut measured = report.measured.clone().ok_or_else(|| {
        CliError::new("the run ended before its measured span did: nothing written")
    })?;
    let iperf3 = record_tools(&tools, &mut measured)?;
    let info = RunInfo {
        config: spec.preset.clone(),
        variant: label,
        variant_set: spec.variant.set.clone(),
        scenario_text: spec.base_text.clone(),
        command_line: std::env::args().collect(),
        started_utc,
        wall_s: wall.elapsed().as_secs_f64(),
    };
    // The model's TCP counters are of its own TCP, which did not run.
    for f in &mut measured.flows {
        f.tcp = None;
    }
    // The results cover the scenario's flows; the extra flow per station (traffic of
    // no test) stays out of them, as of the stations' goodput.
    measured.flows.truncate(flows.len());
    for sample in &mut measured.series {
        sample.flow_rx_bytes.truncate(flows.len());
        sample.flow_tcp.truncate(flows.len());
    }
    let mut r = collect(scenario, input, &measured, info);
    r.metadata.emulation = Some(summary(&report, iperf3, pcap_frames));
    results::save(&r, &path)?;
    super::write_summaries(
        std::slice::from_ref(&r),
        args,
        verbosity == Verbosity::Verbose,
    )?;
    let warnings = lateness_warnings(&report);
    for w in super::warnings(&r).into_iter().chain(warnings) {
        eprintln!("{w}");
    }
    if verbosity != Verbosity::Quiet {
        print!("{}", table::run_table(&r));
        println!("{}", lateness_line(&report));
        println!("results: {}", path.display());
    }
    Ok(())
}

/// Why flow `f` cannot be emulated, if it cannot.
fn supported(f: &FlowSpec) -> Result<(), &'static str> {
    match f.app {
        App::Ping { .. } | App::Tcp { .. } | App::Voip { .. } => Ok(()),
        App::Udp {
            load: Load::Cbr { .. },
            ..
        } => Ok(()),
        App::Udp {
            load: Load::Saturated { .. },
            ..
        } => Err(
            "a saturated UDP flow (udp_flood) has no rate to give iperf3: use \
             `udp_cbr` with `rate_mbps`",
        ),
        App::Http { .. } => Err("web page loads (http) are not emulated yet"),
    }
}

/// The TCP flows' ECN must agree: the hosts negotiate ECN by one setting per namespace
/// (`net.ipv4.tcp_ecn`), not per flow, and iperf3 has no option for it.
fn same_ecn(flows: &[FlowSpec]) -> Result<(), String> {
    let mut ecn = flows.iter().filter_map(|f| match f.app {
        App::Tcp { config } => Some(config.ecn),
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
fn voip_pairs(flows: &[FlowSpec]) -> Result<Vec<(usize, usize)>, String> {
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
fn check_environment(flows: &[FlowSpec]) -> Result<(), CliError> {
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
fn check_kernel_cc(flow_cc: &[&str]) -> Result<(), CliError> {
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

fn print_hold_help(net: &Network, stations: usize, flows: usize) {
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
    // A port above every scenario test's (5201 + flow).
    let port = tcp_port(flows + 100);
    let sta = net.namespace(Host::Station(StationId(0)));
    println!("  ip netns exec {server} iperf3 -s -p {port} &");
    println!("  ip netns exec {sta} iperf3 -c {server_address} -p {port} -R -t 10");
}

/// Linux's name of a congestion control.
fn linux_cc(cc: CongestionControl) -> &'static str {
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
fn set_tcp_defaults(net: &Network, flows: &[FlowSpec], cc: &[&str]) -> Result<(), CliError> {
    let Some((k, config)) = flows.iter().enumerate().find_map(|(k, f)| match f.app {
        App::Tcp { config } => Some((k, config)),
        _ => None,
    }) else {
        return Ok(());
    };
    let mut settings = vec![format!("net.ipv4.tcp_congestion_control={}", cc[k])];
    if config.ecn {
        settings.push("net.ipv4.tcp_ecn=1".to_string());
    }
    let stations = net.namespaces().len() - 1;
    let hosts = std::iter::once(Host::Server)
        .chain((0..stations as u32).map(|s| Host::Station(StationId(s))));
    let hosts: Vec<Host> = hosts.collect();
    for setting in &settings {
        let refused = hosts.iter().filter(|&&host| {
            let status = net
                .command(host, "sysctl", &["-qw", setting])
                .stderr(Stdio::null())
                .status();
            !status.is_ok_and(|s| s.success())
        });
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
fn wait_listening(
    net: &Network,
    flows: &[FlowSpec],
    pairs: &[(usize, usize)],
) -> Result<(), CliError> {
    let port = |k: usize| format!(":{}", tcp_port(k));
    let tcp: Vec<String> = (0..flows.len())
        .filter(|&k| matches!(flows[k].app, App::Tcp { .. } | App::Udp { .. }))
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
                "the iperf3/irtt servers did not start listening within 10 s",
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Seconds, rounded up, that a tool started at `at` runs to reach `end`.
fn seconds_to(at: Instant, end: Instant) -> u64 {
    end.saturating_duration_since(at)
        .as_nanos()
        .div_ceil(1_000_000_000)
}

/// The IPv4 TOS byte of `f`'s DSCP (ECN bits clear), as `ping -Q` and `iperf3 -S`
/// take it.
fn tos(f: &FlowSpec) -> String {
    f.dscp.to_ds_field(0).to_string()
}

/// The command of flow `k`'s tool (the client side), started at `started` and
/// running until `stop`; `irtt_json` is where irtt writes its output.
fn tool_command(
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
fn irtt_json(dir: &Path, k: usize) -> std::path::PathBuf {
    dir.join(format!("irtt-flow{k}.json"))
}

/// Starts each flow's tool at its start time, waits for them all (killing them if a
/// signal comes, or if they outlive the run by [`GRACE`]). A call's uplink leg has no
/// tool of its own: its downlink leg's irtt measures both.
fn run_tools(
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
fn wall_now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A thread that reads `pipe` to its end.
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut v);
        }
        v
    })
}

/// The tools' measurements into the model's: each ping's replies as the flow's RTT
/// samples and its requests, within the measured span; each call's legs as irtt
/// measured them, rated as the simulator rates its own. Returns what iperf3 reported
/// of each TCP and UDP flow.
fn record_tools(
    tools: &[(Tool, std::process::Output)],
    m: &mut Metrics,
) -> Result<Vec<Iperf3Result>, CliError> {
    let (from, to) = (m.start, m.end());
    let mut iperf3 = Vec::new();
    for (tool, output) in tools {
        let text = String::from_utf8_lossy(&output.stdout);
        let failed = |what: &str| {
            CliError::new(format!(
                "flow {}: {what}: {}",
                tool.flow,
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        };
        match tool.spec.app {
            App::Ping { .. } => {
                let interval = tool.spec.interval().expect("a ping has an interval");
                let fm = &mut m.flows[tool.flow];
                let (sent, replies) = parse_ping(&text);
                let start = tool.started - Instant::ZERO;
                for seq in 0..sent {
                    let at = start + interval * u64::from(seq);
                    if at >= from && at <= to {
                        fm.echo_requests.push(at);
                    }
                }
                for (seq, rtt) in replies {
                    let sent_at = start + interval * u64::from(seq);
                    if sent_at >= from && sent_at <= to {
                        fm.rtt.push(RttSample {
                            at: sent_at + rtt,
                            rtt,
                        });
                    }
                }
                fm.rtt.sort_by_key(|s| s.at);
            }
            App::Tcp { .. } => {
                let (goodput_mbps, retransmits, congestion) =
                    parse_iperf3(&text).ok_or_else(|| failed("iperf3 gave no result"))?;
                iperf3.push(Iperf3Result {
                    flow: tool.flow,
                    goodput_mbps,
                    retransmits,
                    congestion,
                    udp: None,
                });
            }
            App::Udp { .. } => {
                let (goodput_mbps, udp) =
                    parse_iperf3_udp(&text).ok_or_else(|| failed("iperf3 gave no result"))?;
                iperf3.push(Iperf3Result {
                    flow: tool.flow,
                    goodput_mbps,
                    retransmits: 0,
                    congestion: None,
                    udp: Some(udp),
                });
            }
            App::Voip { config } => {
                let json = std::fs::read_to_string(&tool.json)
                    .map_err(|e| failed(&format!("irtt wrote no output ({e})")))?;
                let trips = irtt::parse(&json).map_err(|e| failed(&e))?;
                let origin = Instant::ZERO;
                let legs = irtt::legs(
                    &trips,
                    tool.wall_zero_ns,
                    origin + from,
                    origin + to,
                    config,
                );
                m.flows[tool.flow].voip = VoipSummary::of(&legs.down);
                if let Some(up) = tool.pair {
                    m.flows[up].voip = VoipSummary::of(&legs.up);
                }
            }
            App::Http { .. } => {}
        }
    }
    Ok(iperf3)
}

/// Requests sent and the replies (sequence number from 0, RTT) of `ping -n` output.
fn parse_ping(text: &str) -> (u32, Vec<(u32, Duration)>) {
    let mut replies = Vec::new();
    let mut sent = 0;
    for line in text.lines() {
        if let (Some(seq), Some(time)) =
            (line.split("icmp_seq=").nth(1), line.split("time=").nth(1))
        {
            let seq: Option<u32> = seq.split_whitespace().next().and_then(|s| s.parse().ok());
            let ms: Option<f64> = time.trim_end_matches(" ms").trim().parse().ok();
            if let (Some(seq), Some(ms)) = (seq, ms) {
                let rtt = Duration::from_nanos((ms * 1e6).round() as u64);
                replies.push((seq.saturating_sub(1), rtt));
            }
        } else if let Some((n, _)) = line.split_once(" packets transmitted") {
            sent = n.trim().parse().unwrap_or(0);
        }
    }
    (sent, replies)
}

/// The receiver's goodput (Mbit/s) and loss and jitter of iperf3's UDP JSON: its
/// `end.sum_received` where it has one, else `end.sum` (the receiver's report).
fn parse_iperf3_udp(text: &str) -> Option<(f64, UdpReport)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let end = &v["end"];
    let sum = if end["sum_received"].is_object() {
        &end["sum_received"]
    } else {
        &end["sum"]
    };
    let mbps = sum["bits_per_second"].as_f64()? / 1e6;
    let packets = sum["packets"].as_u64()?;
    let lost_packets = sum["lost_packets"].as_u64()?;
    let report = UdpReport {
        packets,
        lost_packets,
        jitter_ms: sum["jitter_ms"].as_f64().unwrap_or(0.0),
    };
    Some((mbps, report))
}

/// The receiver's goodput (`end.sum_received`, Mbit/s), the sender's retransmits
/// (`end.sum_sent.retransmits`) and congestion control (`end.sender_tcp_congestion`)
/// of iperf3's JSON.
fn parse_iperf3(text: &str) -> Option<(f64, u64, Option<String>)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let mbps = v["end"]["sum_received"]["bits_per_second"].as_f64()? / 1e6;
    let retransmits = v["end"]["sum_sent"]["retransmits"].as_u64().unwrap_or(0);
    let cc = v["end"]["sender_tcp_congestion"]
        .as_str()
        .map(str::to_string);
    Some((mbps, retransmits, cc))
}

fn summary(
    report: &LoopReport,
    iperf3: Vec<Iperf3Result>,
    pcap_frames: Option<u64>,
) -> EmulationSummary {
    let l = &report.lateness;
    EmulationSummary {
        lateness_p50_us: l.percentile_us(50.0),
        lateness_p99_us: l.percentile_us(99.0),
        lateness_max_us: l.max_us(),
        events: l.count(),
        events_over_1ms: l.too_late(),
        delivery_lateness_p99_us: report.delivery_lateness.percentile_us(99.0),
        packets_read: report.read_packets,
        packets_delivered: report.delivered_packets,
        packets_not_carried: report.not_carried,
        realtime_priority: report.realtime_priority,
        pcap_frames,
        iperf3,
    }
}

fn lateness_line(report: &LoopReport) -> String {
    let l: &Lateness = &report.lateness;
    format!(
        "real time: {} events, lateness p50 {:.0} us, p99 {:.0} us, max {:.0} us (at {:.2} s); \
         {} packets read from the hosts, {} delivered",
        l.count(),
        l.percentile_us(50.0),
        l.percentile_us(99.0),
        l.max_us(),
        l.max_at_s(),
        report.read_packets,
        report.delivered_packets
    )
}

/// Loud warnings when the loop fell behind the clock: the model's timing was not kept.
fn lateness_warnings(report: &LoopReport) -> Vec<String> {
    let l = &report.lateness;
    let mut out = Vec::new();
    if l.percentile_us(99.0) * 1000.0 > TOO_LATE_NS as f64 {
        out.push(format!(
            "airq: WARNING: the emulator fell behind real time: event lateness p99 {:.0} us \
             (above {} us); {} of {} events ran more than 1 ms late. The frames' timing is \
             not the model's: do not use these figures. Run on an idle machine, or lower the \
             load.",
            l.percentile_us(99.0),
            TOO_LATE_NS / 1000,
            l.too_late(),
            l.count()
        ));
    } else if l.too_late() > 0 {
        out.push(format!(
            "airq: note: {} of {} events ran more than 1 ms late (max {:.1} ms at {:.2} s)",
            l.too_late(),
            l.count(),
            l.max_us() / 1000.0,
            l.max_at_s()
        ));
    }
    if !report.realtime_priority {
        out.push(
            "airq: note: the loop could not get a real-time priority (SCHED_FIFO); other \
             processes may delay it"
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ping_output_gives_requests_and_replies() {
        let text = "PING 10.0.1.1 (10.0.1.1) 56(84) bytes of data.\n\
            64 bytes from 10.0.1.1: icmp_seq=1 ttl=64 time=2.64 ms\n\
            64 bytes from 10.0.1.1: icmp_seq=3 ttl=64 time=312 ms\n\
            \n--- 10.0.1.1 ping statistics ---\n\
            3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms\n";
        let (sent, replies) = parse_ping(text);
        assert_eq!(sent, 3);
        assert_eq!(
            replies,
            vec![
                (0, Duration::from_micros(2640)),
                (2, Duration::from_millis(312))
            ]
        );
    }

    #[test]
    fn iperf3_json_gives_the_receivers_goodput() {
        let text = r#"{"end": {"sum_received": {"bits_per_second": 12500000.0},
            "sum_sent": {"retransmits": 3}, "sender_tcp_congestion": "bbr"}}"#;
        assert_eq!(parse_iperf3(text), Some((12.5, 3, Some("bbr".to_string()))));
        assert_eq!(parse_iperf3("iperf3: error"), None);
    }

    #[test]
    fn pings_tcp_udp_at_a_rate_and_calls_are_emulated_floods_and_web_are_not() {
        let s = StationId(0);
        assert!(supported(&FlowSpec::ping(s, Duration::from_millis(100))).is_ok());
        let peer = FlowSpec::station_ping(s, StationId(1), Duration::from_millis(100));
        assert!(supported(&peer).is_ok());
        assert!(supported(&FlowSpec::voip(s, Direction::Uplink)).is_ok());
        let cbr = FlowSpec::new(
            s,
            Direction::Uplink,
            App::Udp {
                load: Load::Cbr {
                    rate_bps: 1_000_000,
                },
                payload_bytes: 1000,
            },
        );
        assert!(supported(&cbr).is_ok());
        let flood = supported(&FlowSpec::saturated(s, Direction::Downlink)).unwrap_err();
        assert!(flood.contains("udp_flood"), "{flood}");
    }

    #[test]
    fn tcp_flows_with_different_ecn_are_refused() {
        let tcp = |ecn: bool| {
            let config = airq_sim::transport::tcp::TcpConfig {
                ecn,
                ..Default::default()
            };
            FlowSpec::new(StationId(0), Direction::Downlink, App::Tcp { config })
        };
        assert!(same_ecn(&[tcp(true), tcp(true)]).is_ok());
        let why = same_ecn(&[tcp(true), tcp(false)]).unwrap_err();
        assert!(why.contains("traffic[].ecn"), "{why}");
    }

    #[test]
    fn a_calls_two_legs_pair_and_a_lone_leg_is_refused() {
        let (s0, s1) = (StationId(0), StationId(1));
        let flows = vec![
            FlowSpec::voip(s0, Direction::Downlink),
            FlowSpec::voip(s1, Direction::Uplink),
            FlowSpec::voip(s0, Direction::Uplink),
            FlowSpec::voip(s1, Direction::Downlink),
        ];
        assert_eq!(voip_pairs(&flows), Ok(vec![(0, 2), (3, 1)]));
        let lone = voip_pairs(&flows[..2]).unwrap_err();
        assert!(lone.contains("VoIP flow 0"), "{lone}");
    }

    #[test]
    fn iperf3_udp_json_gives_the_receivers_goodput_and_loss() {
        let text = r#"{"end": {"sum": {"bits_per_second": 4000000.0, "packets": 500,
            "lost_packets": 5, "jitter_ms": 0.25}}}"#;
        let (mbps, udp) = parse_iperf3_udp(text).unwrap();
        assert_eq!(mbps, 4.0);
        assert_eq!(
            (udp.packets, udp.lost_packets, udp.jitter_ms),
            (500, 5, 0.25)
        );
    }
}
