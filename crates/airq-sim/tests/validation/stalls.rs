//! The stall detector: every preset on every driver and in every scheduling mode runs
//! without a stall, and a host too slow to answer the firmware is caught.

use airq::airtime::SchedulingMode;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::{ApConfig, DriverConfig, SchedulerConfig};
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::metrics::Metrics;
use airq_sim::testbed::three_stations;

fn run(scenario: BssScenario, config: &ApConfig, secs: u64) -> Metrics {
    let mut sim = Simulation::new(scenario, config).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(secs));
    sim.metrics().clone()
}

/// A TCP download and a ping to each station of the 3-station testbed.
fn loaded() -> BssScenario {
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink))
        .collect();
    flows.extend((0..3).map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(200))));
    three_stations(flows)
}

#[test]
fn every_preset_driver_and_mode_runs_without_a_stall() {
    for (name, preset) in ApConfig::presets() {
        for driver in [
            DriverConfig::softmac(),
            DriverConfig::firmware(),
            DriverConfig::firmware_push(),
        ] {
            let mut configs = vec![preset.clone().with_driver(driver)];
            if let SchedulerConfig::Airtime(mut p) = preset.scheduler {
                p.mode = SchedulingMode::StationFirst;
                let mut c = configs[0].clone();
                c.scheduler = SchedulerConfig::Airtime(p);
                configs.push(c);
            }
            for config in configs {
                let m = run(loaded(), &config, 2);
                let label = format!("{name} {:?} {:?}", config.driver, config.scheduler);
                assert_eq!(m.stalls, [], "{label}");
                for s in (0..3).map(StationId) {
                    assert!(m.goodput_mbps(s) > 0.1, "{label}: {s} gets nothing");
                }
            }
        }
    }
}

/// A host that takes 100 ms to answer the firmware's fetch leaves a ping waiting on an
/// idle medium: with a 20 ms threshold the detector records it; with the default host
/// latency nothing is recorded.
#[test]
fn a_host_too_slow_for_the_firmware_is_a_stall() {
    let scenario = || {
        let mut s = three_stations(vec![FlowSpec::ping(
            StationId(0),
            Duration::from_millis(1000),
        )]);
        s.stall_after = Some(Duration::from_millis(20));
        s
    };
    let pull = ApConfig::preset("airtime")
        .unwrap()
        .with_driver(DriverConfig::firmware());
    assert_eq!(run(scenario(), &pull, 3).stalls, []);
    let slow = ApConfig {
        host_latency: Duration::from_millis(100),
        ..pull
    };
    let stalls = run(scenario(), &slow, 3).stalls;
    assert!(!stalls.is_empty());
    for s in &stalls {
        assert_eq!(s.station, StationId(0));
        assert!(s.detected_at >= s.idle_since + Duration::from_millis(20));
    }
}
