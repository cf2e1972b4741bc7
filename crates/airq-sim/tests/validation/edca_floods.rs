//! EDCA with every AC saturated both ways on one link (IEEE 802.11-2020 10.23.2, the
//! default parameters of Table 9-155): an HT MCS7 station and the AP each flood VO, VI,
//! BE and BK. The AP and the station have the same parameters, so each AC's two
//! directions share alike; VO and VI (AIFSN 2, CW 3 and 7) leave BE (AIFSN 3, CWmin 15)
//! and BK (AIFSN 7) almost no idle slots to count down in. Each saturated flow is topped
//! up on its own queue: a full BE queue at the station does not stop its VO flood from
//! being refilled.

use airq::phy::Band;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::BssConfig;
use airq_sim::net::dscp::Dscp;
use airq_sim::testbed::ht20;

#[test]
fn every_ac_saturated_both_ways_voice_and_video_split_alike_best_effort_starves() {
    // (down, up) flows per DSCP: BE 0, CS1 8 (BK), CS5 40 (VI), EF 46 (VO).
    let dscps = [0u8, 8, 40, 46];
    let mut flows = Vec::new();
    for d in dscps {
        for direction in [Direction::Downlink, Direction::Uplink] {
            let mut f = FlowSpec::saturated(StationId(0), direction);
            f.dscp = Dscp::new(d).unwrap();
            flows.push(f);
        }
    }
    let scenario = BssScenario::new(BssConfig::ofdm(Band::Ghz5), vec![ht20(7)], flows);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("airtime").unwrap()).unwrap();
    let secs = 6;
    sim.run_until(Instant::ZERO + Duration::from_secs(secs));
    let m = sim.metrics();
    let mbps = |i: usize| m.flows[i].rx_bytes as f64 * 8.0 / secs as f64 / 1e6;
    let text: Vec<String> = dscps
        .iter()
        .enumerate()
        .map(|(k, d)| {
            format!(
                "DSCP {d}: {:.2} down {:.2} up",
                mbps(2 * k),
                mbps(2 * k + 1)
            )
        })
        .collect();
    let text = text.join("; ");
    println!("{text}");
    let (vo, vi, be, bk) = (3, 2, 0, 1);
    for ac in [vo, vi] {
        let (down, up) = (mbps(2 * ac), mbps(2 * ac + 1));
        assert!(down > 3.0 && up > 3.0, "{text}");
        assert!((down - up).abs() < 0.25 * down.max(up), "{text}");
    }
    assert!(mbps(2 * vo) > mbps(2 * vi), "{text}");
    for ac in [be, bk] {
        for i in [2 * ac, 2 * ac + 1] {
            assert!(mbps(i) < 0.02 * mbps(2 * vo), "{text}");
        }
    }
}
