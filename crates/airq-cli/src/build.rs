//! Scenario → simulator: the one place where a checked [`Scenario`] becomes the
//! `airq-sim` inputs ([`BssScenario`] and an [`ApConfig`]). Each test maps to the
//! simulator's flows here; a test the simulator cannot run yet is refused with an error
//! naming the test and its line, so adding one is a new arm in [`flows_of`].

use crate::error::CliError;
use crate::scenario::{Scenario, Test, Traffic};
use airq::Instant;
use airq_sim::ap::ApConfig;
use airq_sim::sim::BssScenario;
use airq_sim::traffic::{App, FlowSpec, Load, SATURATED_BACKLOG_PACKETS};

/// What one run of the simulator needs.
#[derive(Clone, Debug)]
pub struct SimInputs {
    /// The BSS, its stations and flows.
    pub bss: BssScenario,
    /// The AP's queueing, one choice per layer.
    pub ap: ApConfig,
}

/// The simulator's inputs for `scenario` with the AP configured as `config`.
pub fn build(scenario: &Scenario, config: &str) -> Result<SimInputs, CliError> {
    let mut flows = Vec::new();
    for t in &scenario.traffic {
        flows.extend(flows_of(t)?);
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
    Ok(SimInputs { bss, ap })
}

/// Whether every test of `scenario` can run today (the error says which cannot).
pub fn check_runnable(scenario: &Scenario) -> Result<(), CliError> {
    scenario
        .traffic
        .iter()
        .try_for_each(|t| flows_of(t).map(drop))
}

/// The simulator's flows for one `[[traffic]]` entry: `flows` per station.
fn flows_of(t: &Traffic) -> Result<Vec<FlowSpec>, CliError> {
    let template = |station: u16| -> Result<FlowSpec, CliError> {
        let mut f = match &t.test {
            Test::UdpFlood {
                direction,
                payload_bytes,
            } => FlowSpec::new(
                station,
                *direction,
                App::Udp {
                    load: Load::Saturated {
                        backlog_packets: SATURATED_BACKLOG_PACKETS,
                    },
                    payload_bytes: *payload_bytes,
                },
            ),
            Test::UdpCbr {
                direction,
                rate_bps,
                payload_bytes,
            } => FlowSpec::new(
                station,
                *direction,
                App::Udp {
                    load: Load::Cbr {
                        rate_bps: *rate_bps,
                    },
                    payload_bytes: *payload_bytes,
                },
            ),
            Test::TcpDownload
            | Test::TcpUpload
            | Test::TcpBidirectional
            | Test::Rrul { .. }
            | Test::Ping { .. }
            | Test::Voip
            | Test::Http { .. } => return Err(not_yet_supported(t)),
        };
        f.dscp = t.dscp;
        f.start = Instant::ZERO + t.start;
        f.stop = t.stop.map(|s| Instant::ZERO + s);
        Ok(f)
    };
    let mut flows = Vec::new();
    for &station in &t.stations {
        let f = template(station)?;
        flows.extend(std::iter::repeat_n(f, t.flows as usize));
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
