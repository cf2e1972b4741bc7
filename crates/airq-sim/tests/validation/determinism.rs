//! Same scenario and seed ⇒ identical results; another seed ⇒ different ones.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, Load};
use airq_sim::bss::Simulation;
use airq_sim::metrics::Metrics;
use airq_sim::testbed::three_stations;

fn run(seed: u64) -> Metrics {
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::saturated(StationId(s), Direction::Uplink))
        .collect();
    flows.push(FlowSpec::new(
        StationId(1),
        Direction::Uplink,
        App::Udp {
            load: Load::Cbr {
                rate_bps: 1_000_000,
            },
            payload_bytes: 172,
        },
    ));
    flows.push(FlowSpec::ping(StationId(2), Duration::from_millis(100)));
    let mut scenario = three_stations(flows);
    for link in &mut scenario.stations {
        link.mpdu_error = 0.1;
    }
    scenario.seed = seed;
    let mut sim = Simulation::new(scenario, &ApConfig::preset("fifo").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(5));
    sim.metrics().clone()
}

#[test]
fn same_seed_same_results_other_seed_other_results() {
    let a = run(42);
    assert!(a.stations.iter().all(|s| s.rx_packets_up > 0), "{a:?}");
    assert!(a.channel.collisions > 0);
    assert_eq!(a, run(42));
    assert_ne!(a, run(43));
}
