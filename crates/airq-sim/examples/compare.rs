//! The seeds' three-station testbed under each AP design: two fast stations (HT MCS15,
//! 20 MHz) and one slow (HT MCS0), a saturated UDP download to each, 5 GHz.
//!
//! `cargo run --release -p airq-sim --example compare [seconds] [seed]`

use airq::{Duration, Instant};
use airq_sim::ap::{ApConfig, PRESET_NAMES};
use airq_sim::metrics::jain;
use airq_sim::sim::Sim;
use airq_sim::testbed::{three_stations, STATION_NAMES};
use airq_sim::traffic::{Direction, FlowSpec};

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().map_or(30, |s| s.parse().expect("seconds"));
    let seed: u64 = args.next().map_or(1, |s| s.parse().expect("seed"));
    println!("{seconds} s, seed {seed}: UDP download to 2 x HT MCS15 and 1 x HT MCS0 (20 MHz)");
    println!(
        "{:<12} {:<6} {:>9} {:>8} {:>11} {:>9} {:>10} {:>8}",
        "config", "sta", "Mbit/s", "airtime", "mean delay", "max delay", "drops", "MPDU/PPDU"
    );
    for preset in PRESET_NAMES {
        let flows = (0..3)
            .map(|s| FlowSpec::saturated(s, Direction::Downlink))
            .collect();
        let mut scenario = three_stations(flows);
        scenario.seed = seed;
        let config = ApConfig::preset(preset).expect("a preset");
        let mut sim = Sim::new(scenario, &config).expect("a valid scenario");
        sim.run_until(Instant::ZERO + Duration::from_secs(seconds));
        let m = sim.metrics();
        let shares = m.airtime_shares();
        for (i, s) in m.stations.iter().enumerate() {
            let packets = (s.rx_packets_down + s.rx_packets_up).max(1);
            let drops: u64 = s.drops.iter().sum();
            println!(
                "{:<12} {:<6} {:>9.2} {:>7.1}% {:>11} {:>9} {:>10} {:>8.1}",
                if i == 0 { preset } else { "" },
                STATION_NAMES[i],
                m.goodput_mbps(i),
                shares[i] * 100.0,
                format!("{}", Duration::from_nanos(s.delay_sum.as_nanos() / packets)),
                format!("{}", s.delay_max),
                drops,
                airq_sim::metrics::StationMetrics::mean_mpdus(&s.ampdu_mpdus_down),
            );
        }
        let total: f64 = (0..3).map(|i| m.goodput_mbps(i)).sum();
        println!(
            "{:<12} {:<6} {:>9.2}   Jain's index of airtime shares {:.3}",
            "",
            "total",
            total,
            jain(&shares)
        );
    }
}
