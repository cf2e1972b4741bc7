//! Simulator speed: simulated seconds per wall-clock second and events per second for
//! 3, 30 and 300 stations, each with a saturated UDP download, under the `fifo` and
//! `airtime` presets (issue target: ≥ 200 simulated s per wall s with 3 stations, cost
//! growing no faster than linearly with the number of stations), and the 3-station TCP
//! scenario of issue 5 under every preset (target: the same 200), and that scenario
//! again with the channel model and Minstrel-HT (issue 13; fast stations 70 dB from the
//! AP, the slow one 90 dB; label `3 TCP minstrel`, target the same 200).
//!
//! `cargo run --release -p airq-sim --example bench [scale] [filter]` — `scale`
//! multiplies the simulated durations (default 1); `filter` keeps only the rows whose
//! "label preset" contains it (e.g. `TCP`, `fq_mac`, `TCP airtime`), or ends with it if
//! it ends with `$` (`TCP airtime$`).

use airq::phy::Band;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::{ApConfig, PRESET_NAMES};
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::BssConfig;
use airq_sim::mac::rate_control::minstrel_ht::MinstrelHtParams;
use airq_sim::mac::rate_control::RateControlConfig;
use airq_sim::phy::channel::StationChannel;
use airq_sim::testbed::{ht20, three_stations};

fn scenario(stations: u32) -> BssScenario {
    // Two fast stations (HT MCS15) for every slow one (HT MCS0), as the seeds' testbed.
    let links = (0..stations)
        .map(|i| {
            let mcs = if i % 3 == 2 { 0 } else { 15 };
            ht20(mcs)
        })
        .collect();
    let flows = (0..stations)
        .map(|s| FlowSpec::saturated(StationId(s), Direction::Downlink))
        .collect();
    BssScenario::new(BssConfig::ofdm(Band::Ghz5), links, flows)
}

fn main() {
    let scale: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("scale is a number"))
        .unwrap_or(1.0);
    let filter = std::env::args().nth(2).unwrap_or_default();
    let wanted = |label: &str, preset: &str| {
        let row = format!("{label} {preset}");
        match filter.strip_suffix('$') {
            Some(end) => row.ends_with(end),
            None => row.contains(&filter),
        }
    };
    println!(
        "{:>14} {:>11} {:>10} {:>12} {:>14} {:>12}",
        "stations", "preset", "sim s", "wall s", "sim s/wall s", "events/s"
    );
    for (stations, seconds) in [(3u32, 60.0), (30, 20.0), (300, 5.0)] {
        for preset in ["fifo", "airtime"] {
            if !wanted(&stations.to_string(), preset) {
                continue;
            }
            measure(
                &stations.to_string(),
                preset,
                scenario(stations),
                seconds * scale,
            );
        }
    }
    // Issue 5's target: the 3-station TCP scenario (a download and a ping to each).
    for preset in PRESET_NAMES.into_iter().filter(|p| wanted("3 TCP", p)) {
        measure("3 TCP", preset, tcp_scenario(), 60.0 * scale);
    }
    for preset in PRESET_NAMES
        .into_iter()
        .filter(|p| wanted("3 TCP minstrel", p))
    {
        measure("3 TCP minstrel", preset, minstrel_scenario(), 60.0 * scale);
    }
}

/// The TCP scenario with a channel per station (attenuation, SNR-based errors) and
/// Minstrel-HT choosing every rate.
fn minstrel_scenario() -> BssScenario {
    let mut s = tcp_scenario();
    for (link, db) in s.stations.iter_mut().zip([70.0, 70.0, 90.0]) {
        link.channel = Some(StationChannel::attenuated(db));
        link.rate_control = RateControlConfig::MinstrelHt(MinstrelHtParams::default());
    }
    s
}

fn tcp_scenario() -> BssScenario {
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink))
        .collect();
    flows.extend((0..3).map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(200))));
    three_stations(flows)
}

fn measure(label: &str, preset: &str, s: BssScenario, seconds: f64) {
    let config = ApConfig::preset(preset).expect("a known preset");
    let mut sim = Simulation::new(s, &config).expect("a valid scenario");
    let sim_time = Duration::from_nanos((seconds * 1e9) as u64);
    let wall = std::time::Instant::now();
    sim.run_until(Instant::ZERO + sim_time);
    let wall = wall.elapsed().as_secs_f64();
    let events = sim.metrics().events as f64;
    println!(
        "{label:>14} {preset:>11} {:>10.1} {wall:>12.3} {:>14.1} {:>12.0}",
        sim_time.as_secs_f64(),
        sim_time.as_secs_f64() / wall,
        events / wall
    );
}
