//! VoIP through the BSS: a G.711 call to the slow station, rated with the E-model. Idle,
//! it is toll quality; beside a saturated download behind a FIFO it survives only when
//! marked EF, which Linux maps to the voice AC with its own queue and EDCA priority.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::Simulation;
use airq_sim::metrics::VoipSummary;
use airq_sim::net::dscp::BE;
use airq_sim::testbed::three_stations;

/// The call's two legs (down, up) to the slow station, `ef` or best effort, with or
/// without saturated downloads to every station.
fn call(preset: &str, ef: bool, loaded: bool) -> [VoipSummary; 2] {
    let mut flows = Vec::new();
    for direction in [Direction::Downlink, Direction::Uplink] {
        let mut leg = FlowSpec::voip(StationId(2), direction);
        if !ef {
            leg.dscp = BE;
        }
        flows.push(leg);
    }
    if loaded {
        flows.extend((0..3).map(|s| FlowSpec::saturated(StationId(s), Direction::Downlink)));
    }
    let mut sim =
        Simulation::new(three_stations(flows), &ApConfig::preset(preset).unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(5));
    let m = sim.metrics();
    [m.flows[0].voip.unwrap(), m.flows[1].voip.unwrap()]
}

#[test]
fn an_idle_call_is_toll_quality() {
    for leg in call("fifo", true, false) {
        // A packet every 20 ms from 0 to 5 s inclusive; the last is still in flight at
        // the end, so neither received nor lost: nothing is lost on an idle network.
        assert!(
            leg.sent == 250 && leg.received == 250 && leg.loss_fraction == 0.0,
            "{leg:?}"
        );
        assert!(leg.mean_delay_ms < 3.0, "{leg:?}");
        // G.711 with PLC, ~20 ms mouth to ear: R near the default 93.2.
        assert!(leg.mos > 4.3, "{leg:?}");
    }
}

#[test]
fn behind_a_fifo_only_the_ef_marked_call_survives() {
    let [down, up] = call("fifo", true, true);
    assert!(down.mos > 4.0 && up.mos > 4.0, "EF: {down:?} {up:?}");
    let [down, _] = call("fifo", false, true);
    assert!(down.loss_fraction > 0.5 && down.mos < 2.0, "BE: {down:?}");
}
