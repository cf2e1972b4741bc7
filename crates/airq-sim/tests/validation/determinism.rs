//! Same scenario and seed ⇒ identical results; another seed ⇒ different ones.

use airq::phy::Band;
use airq::phy::{ChannelWidth, GuardInterval, Rate};
use airq::{Duration, Instant};
use airq_sim::ap::ApConfig;
use airq_sim::link::{BssConfig, StationLink};
use airq_sim::metrics::Metrics;
use airq_sim::sim::{BssScenario, Sim};
use airq_sim::traffic::{Direction, FlowSpec, Load};

fn run(seed: u64) -> Metrics {
    let ht = |mcs| {
        let mut link =
            StationLink::new(Rate::ht(mcs, ChannelWidth::Mhz20, GuardInterval::Long).unwrap());
        link.mpdu_error = 0.1;
        link
    };
    let stations = vec![ht(15), ht(15), ht(0)];
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::saturated(s, Direction::Uplink))
        .collect();
    flows.push(FlowSpec {
        load: Load::Cbr {
            rate_bps: 1_000_000,
        },
        payload_bytes: 172,
        ..FlowSpec::saturated(1, Direction::Uplink)
    });
    let mut scenario = BssScenario::new(BssConfig::ofdm(Band::Ghz5), stations, flows);
    scenario.seed = seed;
    let mut sim = Sim::new(scenario, &ApConfig::preset("fifo").unwrap()).unwrap();
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
