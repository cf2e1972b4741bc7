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

mod checks;
mod hosts;
mod record;
mod tools;

use crate::cli::RunArgs;
use crate::collect::{collect, RunInfo};
use crate::error::CliError;
use crate::outputs;
use crate::results;
use crate::run_set;
use crate::scenario::{self, ap::check_preset, variant, Variant};
use crate::table;
use airq::{Duration, Instant};
use airq_emu::air_capture::AirCapture;
use airq_emu::flow_map::FlowMap;
use airq_emu::network::Network;
use airq_emu::radiotap::Channel;
use airq_emu::realtime::{run_beside, Span};
use airq_sim::apps::traffic::{App, FlowSpec};
use airq_sim::bss::Simulation;
use checks::*;
use hosts::*;
use record::*;
use std::path::Path;
use tools::*;

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
pub(super) struct Tool {
    pub(super) flow: usize,
    pub(super) spec: FlowSpec,
    /// When it was started, on the loop's clock.
    pub(super) started: Instant,
    /// When it was told to stop.
    pub(super) stop: Instant,
    /// The wall-clock time (Unix ns) of the loop's clock's zero, for irtt's times.
    pub(super) wall_zero_ns: u64,
    /// A call's uplink leg, which this (its downlink leg's) irtt measures too.
    pub(super) pair: Option<usize>,
    /// Where irtt writes its JSON.
    pub(super) json: std::path::PathBuf,
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
            App::Tcp { config } | App::Http { config, .. } => linux_cc(config.cc),
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
            AirCapture::create(file, Channel::of(input.bss.bss.band, &input.bss.bss.radio))
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
        |net, clock| {
            let flood_bps = flood_rate_bps(&input.bss);
            run_tools(
                net,
                clock,
                flows,
                end,
                &pairs,
                scratch.path(),
                &flow_cc,
                flood_bps,
            )
        },
    )
    .map_err(|e| CliError::new(format!("the real-time loop failed: {e}")))?;
    let ToolsRun {
        outputs: tools,
        host_queue_drops: host_drops,
    } = tools?;
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
    let iperf3 = record_tools(&tools, &mut measured, flood_rate_bps(&input.bss))?;
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
        sample.flow_tcp.retain(|&(f, _)| (f as usize) < flows.len());
    }
    let mut r = collect(scenario, input, &measured, info);
    crate::collect::record_station_codel(&mut r, &input.ap, report.station_codel.clone());
    r.metadata.emulation = Some(summary(&report, iperf3, pcap_frames, host_drops));
    results::save(&r, &path)?;
    super::write_summaries(
        std::slice::from_ref(&r),
        args,
        verbosity == Verbosity::Verbose,
    )?;
    let mut warnings = lateness_warnings(&report);
    warnings.extend(host_drop_warning(r.metadata.emulation.as_ref()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use airq::StationId;
    use airq_sim::apps::traffic::{Direction, Load};

    /// A ping killed at the grace, replies still queued behind a starved AC, prints no
    /// summary: its requests are those it was told to send, so the unanswered ones
    /// count as lost instead of vanishing (`rrul` emulated: "25 sent, 0% lost").
    #[test]
    fn a_ping_killed_before_its_summary_counts_every_scheduled_request() {
        use airq_sim::metrics::{FlowMetrics, Metrics};
        use std::os::unix::process::ExitStatusExt;
        let interval = Duration::from_millis(200);
        let tool = || Tool {
            flow: 0,
            spec: FlowSpec::ping(StationId(0), interval),
            started: Instant::ZERO,
            stop: Instant::ZERO + Duration::from_secs(2),
            wall_zero_ns: 0,
            pair: None,
            json: Default::default(),
        };
        let replies = "64 bytes from 10.0.1.1: icmp_seq=1 ttl=64 time=2.64 ms\n\
            64 bytes from 10.0.1.1: icmp_seq=2 ttl=64 time=3100 ms\n";
        let run = |status: i32, text: &str| {
            let output = std::process::Output {
                status: std::process::ExitStatus::from_raw(status),
                stdout: text.as_bytes().to_vec(),
                stderr: Vec::new(),
            };
            let mut m = Metrics {
                flows: vec![FlowMetrics::new(StationId(0))],
                duration: Duration::from_secs(2),
                ..Metrics::default()
            };
            record_tools(&[(tool(), output)], &mut m, 0).unwrap();
            (m.flows[0].echo_requests.len(), m.flows[0].rtt.len())
        };
        // SIGKILL (9): ten requests, one every 200 ms over 2 s; two answered.
        assert_eq!(run(9, replies), (10, 2));
        let summary = "\n--- 10.0.1.1 ping statistics ---\n\
            10 packets transmitted, 2 received, 80% packet loss, time 1800ms\n";
        assert_eq!(run(0, &format!("{replies}{summary}")), (10, 2));
        // Exited by itself without a summary: nothing made up.
        assert_eq!(run(0, replies), (0, 2));
    }

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
    fn pings_tcp_udp_and_calls_are_emulated() {
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
        assert!(supported(&FlowSpec::saturated(s, Direction::Downlink)).is_ok());
    }

    #[test]
    fn tc_output_gives_the_qdiscs_drops() {
        let text =
            "qdisc pfifo_fast 0: root refcnt 2 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1\n \
             Sent 1234 bytes 10 pkt (dropped 7, overlimits 0 requeues 0)\n \
             backlog 0b 0p requeues 0\n";
        assert_eq!(qdisc_drops(text), 7);
        assert_eq!(qdisc_drops(""), 0);
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
