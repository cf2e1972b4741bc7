//! EDCA with every AC saturated both ways on one link (IEEE 802.11-2020 10.23.2, the
//! default parameters of Table 9-155): an HT MCS7 station and the AP each flood VO, VI,
//! BE and BK. With the AP on the stations' parameters (`ap_edca` = station), each AC's
//! two directions share alike; VO and VI (AIFSN 2, CW 3 and 7) leave BE (AIFSN 3, CWmin
//! 15) and BK (AIFSN 7) almost no idle slots to count down in. Each saturated flow is
//! topped up on its own queue: a full BE queue at the station does not stop its VO flood
//! from being refilled. With the AP's own set (dot11QAPEDCATable, as hostapd sets it) the
//! AP's VO and VI contend with AIFSN 1: one slot ahead of the station's, they take the
//! larger share of their AC.

use airq::phy::Band;
use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::edca::{EdcaParams, TxopColumn};
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
    let mut bss = BssConfig::ofdm(Band::Ghz5);
    bss.ap_edca = None;
    let scenario = BssScenario::new(bss, vec![ht20(7)], flows);
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

/// Seconds of airtime the AP's VO downlink and the station's VO uplink took, both
/// saturated on one HT MCS7 link, with the AP on `ap_edca`.
fn voice_airtime_both_ways(ap_edca: Option<EdcaParams>) -> (f64, f64) {
    let flows = [Direction::Downlink, Direction::Uplink]
        .into_iter()
        .map(|direction| {
            let mut f = FlowSpec::saturated(StationId(0), direction);
            f.dscp = Dscp::new(46).unwrap();
            f
        })
        .collect();
    let mut bss = BssConfig::ofdm(Band::Ghz5);
    bss.ap_edca = ap_edca;
    let scenario = BssScenario::new(bss, vec![ht20(7)], flows);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("airtime").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(4));
    let s = &sim.metrics().stations[0];
    (s.airtime_down.as_secs_f64(), s.airtime_up.as_secs_f64())
}

/// The AP's own VO parameters (AIFSN 1, dot11QAPEDCATable) against its station's (AIFSN
/// 2, Table 9-155), both with CW 3 to 7: the AP's counter ends a slot earlier for the
/// same draw, so it wins the ties and most near-ties. With the stations' set the two
/// directions split alike.
#[test]
fn the_aps_own_voice_parameters_give_it_the_larger_share() {
    let share = |(down, up): (f64, f64)| down / (down + up);
    let alike = share(voice_airtime_both_ways(None));
    let own = share(voice_airtime_both_ways(Some(EdcaParams::standard_ap(
        15,
        TxopColumn::Ofdm,
    ))));
    println!("AP's share of VO airtime: {alike:.3} with the stations' set, {own:.3} with its own");
    assert!((alike - 0.5).abs() < 0.05, "{alike}");
    assert!(own > alike + 0.15, "{own} vs {alike}");
}

/// Aggregates are sized by the stations' TXOP limits for the AP too, so an AP set with
/// other limits is refused, not run with the wrong ones.
#[test]
fn an_ap_set_with_other_txop_limits_is_refused() {
    let mut bss = BssConfig::ofdm(Band::Ghz5);
    let mut ap = EdcaParams::standard_ap(15, TxopColumn::Ofdm);
    ap.ac[airq::Ac::Vo.index()].txop_limit = Duration::ZERO;
    bss.ap_edca = Some(ap);
    let flows = vec![FlowSpec::saturated(StationId(0), Direction::Downlink)];
    let scenario = BssScenario::new(bss, vec![ht20(7)], flows);
    assert!(matches!(
        Simulation::new(scenario, &ApConfig::preset("airtime").unwrap()),
        Err(airq_sim::bss::SimError::ApTxopLimit)
    ));
}
