//! Simulator speed: simulated seconds per wall-clock second and events per second for
//! 3, 30 and 300 stations, each with a saturated UDP download, under the `fifo` and
//! `airtime` presets (issue target: ≥ 200 simulated s per wall s with 3 stations, cost
//! growing no faster than linearly with the number of stations).
//!
//! `cargo run --release -p airq-sim --example bench [scale]` — `scale` multiplies the
//! simulated durations (default 1).

use airq::phy::Band;
use airq::{Duration, Instant};
use airq_sim::ap::ApConfig;
use airq_sim::link::BssConfig;
use airq_sim::sim::{BssScenario, Sim};
use airq_sim::testbed::ht20;
use airq_sim::traffic::{Direction, FlowSpec};

fn scenario(stations: u16) -> BssScenario {
    // Two fast stations (HT MCS15) for every slow one (HT MCS0), as the seeds' testbed.
    let links = (0..stations)
        .map(|i| {
            let mcs = if i % 3 == 2 { 0 } else { 15 };
            ht20(mcs)
        })
        .collect();
    let flows = (0..stations)
        .map(|s| FlowSpec::saturated(s, Direction::Downlink))
        .collect();
    BssScenario::new(BssConfig::ofdm(Band::Ghz5), links, flows)
}

fn main() {
    let scale: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("scale is a number"))
        .unwrap_or(1.0);
    println!(
        "{:>8} {:>9} {:>10} {:>12} {:>14} {:>12}",
        "stations", "preset", "sim s", "wall s", "sim s/wall s", "events/s"
    );
    for (stations, seconds) in [(3u16, 60.0), (30, 20.0), (300, 5.0)] {
        for preset in ["fifo", "airtime"] {
            let s = scenario(stations);
            let config = ApConfig::preset(preset).expect("a known preset");
            let mut sim = Sim::new(s, &config).expect("a valid scenario");
            let sim_time = Duration::from_nanos((seconds * scale * 1e9) as u64);
            let wall = std::time::Instant::now();
            sim.run_until(Instant::ZERO + sim_time);
            let wall = wall.elapsed().as_secs_f64();
            let events = sim.metrics().events as f64;
            println!(
                "{stations:>8} {preset:>9} {:>10.1} {wall:>12.3} {:>14.1} {:>12.0}",
                sim_time.as_secs_f64(),
                sim_time.as_secs_f64() / wall,
                events / wall
            );
        }
    }
}
