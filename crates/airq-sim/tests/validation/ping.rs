//! Ping through the BSS: on an idle channel the RTT is the wired round trip plus two
//! short exchanges; under a saturated download it shows the AP's queueing — hundreds
//! of milliseconds or lost behind a FIFO, tens with FQ-MAC, where the ping has its own
//! queue.

use airq::{Duration, Instant};
use airq_sim::ap::ApConfig;
use airq_sim::metrics::Metrics;
use airq_sim::sim::Sim;
use airq_sim::testbed::three_stations;
use airq_sim::traffic::{Direction, FlowSpec};

fn run(preset: &str, loaded: bool) -> Metrics {
    let mut flows = vec![FlowSpec::ping(0, Duration::from_millis(100))];
    if loaded {
        flows.extend((0..3).map(|s| FlowSpec::saturated(s, Direction::Downlink)));
    }
    let mut sim = Sim::new(three_stations(flows), &ApConfig::preset(preset).unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(5));
    sim.metrics().clone()
}

fn median_rtt_ms(m: &Metrics) -> f64 {
    let mut rtts: Vec<f64> = m.flows[0]
        .rtt
        .iter()
        .map(|s| s.rtt.as_secs_f64() * 1e3)
        .collect();
    rtts.sort_by(f64::total_cmp);
    rtts[rtts.len() / 2]
}

#[test]
fn idle_ping_is_the_wired_round_trip_plus_two_exchanges() {
    let m = run("fifo", false);
    // One request every 100 ms over 5 s; the last may still be in flight.
    let replies = m.flows[0].rtt.len();
    assert!((49..=50).contains(&replies), "{replies} replies");
    for s in &m.flows[0].rtt {
        let ms = s.rtt.as_secs_f64() * 1e3;
        // 2 x 1 ms wired delay, then an MCS15 and an MCS0 exchange of a 84-byte packet
        // with their backoffs: well under half a millisecond of air each way.
        assert!((2.0..3.0).contains(&ms), "RTT {ms} ms");
    }
}

#[test]
fn ping_under_load_shows_the_queueing() {
    // The flood keeps the FIFO full: pings are tail-dropped behind it.
    let fifo = run("fifo", true);
    let answered = fifo.flows[0].rtt.len();
    assert!(answered < 25, "FIFO: {answered} of 50 pings answered");
    // FQ-MAC gives the ping its own sparse flow: every one answered, in a few
    // aggregates' time.
    let fq_mac = run("fq_mac", true);
    assert!(fq_mac.flows[0].rtt.len() >= 49);
    let median = median_rtt_ms(&fq_mac);
    assert!(
        (2.0..50.0).contains(&median),
        "FQ-MAC median RTT {median} ms"
    );
}
