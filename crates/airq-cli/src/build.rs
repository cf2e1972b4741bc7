//! Scenario → simulator: the one place where a checked [`Scenario`] becomes the
//! `airq-sim` inputs ([`BssScenario`] and an [`ApConfig`]). Each test maps to the
//! simulator's flows here ([`flows_of`]), as flent's tests define them.

use crate::error::CliError;
use crate::scenario::{Scenario, Test, Traffic};
use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, Load, SATURATED_BACKLOG_PACKETS};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::net::dscp::{Dscp, RRUL_CLASSES};
use airq_sim::station::StationQueue;

/// Most queue-depth samples a run keeps.
const MAX_QUEUE_SAMPLES: u64 = 1_000_000;

/// What one run of the simulator needs.
#[derive(Clone, Debug, PartialEq)]
pub struct SimInputs {
    /// The BSS, its stations and flows.
    pub bss: BssScenario,
    /// The AP's queueing, one choice per layer.
    pub ap: ApConfig,
    /// The test each of `bss.flows` comes from.
    pub flow_tests: Vec<&'static str>,
}

/// The simulator's inputs for `scenario` with the AP configured as `config`.
/// A test with `cc = "bbr"` is refused: the simulator has no BBR model, and a scenario
/// must not mean different things simulated and emulated (`airq emulate` takes it out
/// first, [`without_bbr`]).
pub fn build(scenario: &Scenario, config: &str) -> Result<SimInputs, CliError> {
    if let Some(why) = scenario.traffic.iter().find_map(|t| t.bbr.as_ref()) {
        return Err(CliError::new(why.clone()));
    }
    let mut flows = Vec::new();
    let mut flow_tests = Vec::new();
    for t in &scenario.traffic {
        let made = flows_of(t);
        flow_tests.extend(std::iter::repeat_n(t.name, made.len()));
        flows.extend(made);
    }
    let stations = scenario.stations.iter().map(|s| s.link.clone()).collect();
    let mut bss = BssScenario::new(scenario.bss.clone(), stations, flows);
    // FIFOs unless a station asks for other queues.
    if scenario
        .stations
        .iter()
        .any(|s| s.queue != StationQueue::Fifo)
    {
        bss.station_queues = scenario.stations.iter().map(|s| s.queue.clone()).collect();
    }
    bss.wired = scenario.wired;
    if let Some(p) = scenario.station_queue_packets {
        bss.station_queue_packets = p;
    }
    bss.sample_step = Some(scenario.step);
    // The queue-depth samples (every 10 ms) are thinned on long runs so that there are
    // at most a million; the results file records the step taken.
    if let Some(step) = bss.queue_sample_step {
        let longest = Duration::from_nanos(scenario.duration.as_nanos() / MAX_QUEUE_SAMPLES);
        bss.queue_sample_step = Some(step.max(longest));
    }
    bss.measure_from = scenario.omit;
    bss.seed = scenario.seed;
    let ap = scenario.ap.config(config)?;
    Ok(SimInputs {
        bss,
        ap,
        flow_tests,
    })
}

/// `scenario` with its `cc = "bbr"` tests as CUBIC ones, for `airq emulate`, which
/// runs them with the hosts' BBR; and, per flow [`build`] makes of it, whether the flow
/// runs BBR.
pub fn without_bbr(scenario: &Scenario) -> (Scenario, Vec<bool>) {
    let mut plain = scenario.clone();
    let mut bbr = Vec::new();
    for t in &mut plain.traffic {
        let n = flows_of(t).len();
        bbr.extend(std::iter::repeat_n(t.bbr.take().is_some(), n));
    }
    (plain, bbr)
}

/// Whether the simulator accepts `scenario` under its own AP configuration (it checks
/// the flows and the AP's layers against the stations) — as `Simulation::new` would,
/// without building the simulation (`Simulation::check`: 65,535 stations took 948 MB).
pub fn check_runnable(scenario: &Scenario) -> Result<(), CliError> {
    let input = build(scenario, &scenario.ap.preset)?;
    Simulation::check(&input.bss, &input.ap)
        .map_err(|e| CliError::new(format!("{}: {e}", scenario.path)))
}

/// The simulator's flows for one `[[traffic]]` entry: `flows` times the test's flows
/// per station.
fn flows_of(t: &Traffic) -> Vec<FlowSpec> {
    let tcp = |station: StationId, direction: Direction, dscp: Dscp| FlowSpec {
        dscp,
        ..FlowSpec::new(station, direction, App::Tcp { config: t.tcp })
    };
    // rrul marks its own flows; every other test marks its flows with the entry's DSCP.
    let dscp = (!matches!(t.test, Test::Rrul { .. })).then_some(t.dscp);
    let template = |station: StationId| -> Vec<FlowSpec> {
        let mut made = match &t.test {
            Test::UdpFlood {
                direction,
                payload_bytes,
            } => vec![FlowSpec::new(
                station,
                *direction,
                App::Udp {
                    load: Load::Saturated {
                        backlog_packets: SATURATED_BACKLOG_PACKETS,
                    },
                    payload_bytes: *payload_bytes,
                },
            )],
            Test::UdpCbr {
                direction,
                rate_bps,
                payload_bytes,
            } => vec![FlowSpec::new(
                station,
                *direction,
                App::Udp {
                    load: Load::Cbr {
                        rate_bps: *rate_bps,
                    },
                    payload_bytes: *payload_bytes,
                },
            )],
            Test::Ping {
                interval,
                to,
                direction,
            } => vec![match (*to, *direction) {
                (Some(peer), _) => FlowSpec::station_ping(station, peer, *interval),
                (None, Direction::Downlink) => FlowSpec::ping(station, *interval),
                (None, Direction::Uplink) => FlowSpec::ping_up(station, *interval),
            }],
            Test::Voip => [Direction::Downlink, Direction::Uplink]
                .map(|d| FlowSpec::voip(station, d))
                .to_vec(),
            Test::TcpDownload => vec![tcp(station, Direction::Downlink, t.dscp)],
            Test::TcpUpload => vec![tcp(station, Direction::Uplink, t.dscp)],
            Test::TcpBidirectional => [Direction::Downlink, Direction::Uplink]
                .map(|d| tcp(station, d, t.dscp))
                .to_vec(),
            Test::Rrul { ping_interval } => {
                // flent's rrul: a download and an upload in each of its four DSCP
                // classes, and a ping.
                let mut flows = Vec::new();
                for class in RRUL_CLASSES {
                    for d in [Direction::Downlink, Direction::Uplink] {
                        flows.push(tcp(station, d, class.dscp));
                    }
                }
                flows.push(FlowSpec::ping(station, *ping_interval));
                flows
            }
            Test::Http { page } => vec![FlowSpec::new(
                station,
                Direction::Downlink,
                App::Http {
                    config: t.tcp,
                    page: page.clone(),
                },
            )],
        };
        for f in &mut made {
            if let Some(dscp) = dscp {
                f.dscp = dscp;
            }
            f.start = Instant::ZERO + t.start;
            f.stop = t.stop.map(|s| Instant::ZERO + s);
        }
        made
    };
    let mut flows = Vec::new();
    for &station in &t.stations {
        let made = template(station);
        for _ in 0..t.flows {
            flows.extend(made.iter().cloned());
        }
    }
    flows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;
    use airq_sim::net::dscp::{CS1, EF};

    fn dscps(traffic: &str) -> Vec<u8> {
        let text = format!(
            "name = \"t\"\nduration = 1.0\n[[station]]\nname = \"a\"\nstandard = \"ht\"\n\
             mcs = 7\n[[traffic]]\n{traffic}"
        );
        let scenario = parse("t.toml", &text, &[]).unwrap();
        let input = build(&scenario, "fifo").unwrap();
        input.bss.flows.iter().map(|f| f.dscp.get()).collect()
    }

    #[test]
    fn a_ping_with_to_goes_from_every_other_station_to_it() {
        let text = "name = \"t\"\nduration = 1.0\n[[station]]\nname = \"a\"\ncount = 3\n\
                    standard = \"ht\"\nmcs = 7\n[[traffic]]\ntest = \"ping\"\nto = \"a2\"\n";
        let scenario = parse("t.toml", text, &[]).unwrap();
        let flows = build(&scenario, "fifo").unwrap().bss.flows;
        let interval = airq::Duration::from_millis(200);
        assert_eq!(
            flows,
            [
                FlowSpec::station_ping(StationId(0), StationId(1), interval),
                FlowSpec::station_ping(StationId(2), StationId(1), interval)
            ]
        );
    }

    #[test]
    fn every_test_marks_its_flows_with_the_entrys_dscp_but_rrul() {
        for test in ["udp_flood", "ping", "tcp_download", "http"] {
            assert_eq!(
                dscps(&format!("test = \"{test}\"\ndscp = 8")),
                [CS1.get()],
                "{test}"
            );
        }
        assert_eq!(dscps("test = \"voip\""), [EF.get(); 2]);
        let rrul = dscps("test = \"rrul\"");
        assert_eq!(rrul.len(), 9, "4 classes x 2 directions + ping");
        assert!(rrul.contains(&EF.get()) && rrul.contains(&CS1.get()));
    }
}
