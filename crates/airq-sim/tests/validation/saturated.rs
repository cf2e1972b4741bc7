//! The experiment Bianchi's and Heusse's papers share: every station saturated with
//! uplink packets of one size, the AP only receiving.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, Load, UDP_IP_HEADER_BYTES};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::{BssConfig, StationLink};

/// Per-station uplink throughput (bit/s of IP packets of `packet_bytes`).
pub fn uplink_throughputs(
    bss: BssConfig,
    stations: Vec<StationLink>,
    packet_bytes: u32,
    seconds: u64,
) -> Vec<f64> {
    let flows = (0..stations.len() as u32)
        .map(|s| {
            FlowSpec::new(
                StationId(s),
                Direction::Uplink,
                App::Udp {
                    load: Load::Saturated { backlog_packets: 4 },
                    payload_bytes: packet_bytes - UDP_IP_HEADER_BYTES,
                },
            )
        })
        .collect();
    let scenario = BssScenario::new(bss, stations, flows);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("fifo").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(seconds));
    let m = sim.metrics();
    m.stations
        .iter()
        .map(|s| s.rx_bytes_up as f64 * 8.0 / m.duration.as_secs_f64())
        .collect()
}
