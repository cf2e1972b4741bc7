//! Scenario → simulator: the one place where a checked [`Scenario`] becomes the
//! `airq-sim` inputs ([`BssScenario`] and an [`ApConfig`]). Each test maps to the
//! simulator's flows here; a test the simulator cannot run yet is refused with an error
//! naming the test and its line, so adding one is a new arm in [`flows_of`].

use crate::error::CliError;
use crate::scenario::{Scenario, Test, Traffic};
use airq::Instant;
use airq_sim::ap::ApConfig;
use airq_sim::sim::BssScenario;
use airq_sim::traffic::{App, Direction, FlowSpec, Load, SATURATED_BACKLOG_PACKETS};

/// What one run of the simulator needs.
#[derive(Clone, Debug)]
pub struct SimInputs {
    /// The BSS, its stations and flows.
    pub bss: BssScenario,
    /// The AP's queueing, one choice per layer.
    pub ap: ApConfig,
    /// The test each of `bss.flows` comes from.
    pub flow_tests: Vec<&'static str>,
}

/// The simulator's inputs for `scenario` with the AP configured as `config`.
pub fn build(scenario: &Scenario, config: &str) -> Result<SimInputs, CliError> {
    let mut flows = Vec::new();
    let mut flow_tests = Vec::new();
    for t in &scenario.traffic {
        let made = flows_of(t)?;
        flow_tests.extend(std::iter::repeat_n(t.name, made.len()));
        flows.extend(made);
    }
    let stations = scenario.stations.iter().map(|s| s.link.clone()).collect();
    let mut bss = BssScenario::new(scenario.bss.clone(), stations, flows);
    bss.wired = scenario.wired;
    if let Some(p) = scenario.station_queue_packets {
        bss.station_queue_packets = p;
    }
    bss.sample_step = Some(scenario.step);
    bss.seed = scenario.seed;
    let ap = scenario.ap.config(config)?;
    Ok(SimInputs {
        bss,
        ap,
        flow_tests,
    })
}

/// Whether every test of `scenario` can run today (the error says which cannot).
pub fn check_runnable(scenario: &Scenario) -> Result<(), CliError> {
    scenario
        .traffic
        .iter()
        .try_for_each(|t| flows_of(t).map(drop))
}

/// The simulator's flows for one `[[traffic]]` entry: `flows` times the test's flows
/// per station.
fn flows_of(t: &Traffic) -> Result<Vec<FlowSpec>, CliError> {
    let template = |station: u16| -> Result<Vec<FlowSpec>, CliError> {
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
            Test::Ping { interval } => vec![FlowSpec::ping(station, *interval)],
            Test::Voip => [Direction::Downlink, Direction::Uplink]
                .map(|d| FlowSpec::voip(station, d))
                .to_vec(),
            Test::TcpDownload
            | Test::TcpUpload
            | Test::TcpBidirectional
            | Test::Rrul { .. }
            | Test::Http { .. } => return Err(not_yet_supported(t)),
        };
        for f in &mut made {
            f.dscp = t.dscp;
            f.start = Instant::ZERO + t.start;
            f.stop = t.stop.map(|s| Instant::ZERO + s);
        }
        Ok(made)
    };
    let mut flows = Vec::new();
    for &station in &t.stations {
        let made = template(station)?;
        for _ in 0..t.flows {
            flows.extend(made.iter().cloned());
        }
    }
    Ok(flows)
}

fn not_yet_supported(t: &Traffic) -> CliError {
    CliError::new(format!(
        "{}: test `{}` is not yet supported by the simulator (it runs udp_flood, \
         udp_flood_up and udp_cbr today)",
        t.origin, t.name
    ))
}
