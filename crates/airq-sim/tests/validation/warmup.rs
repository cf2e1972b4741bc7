//! Measurements after a warm-up (`BssScenario::measure_from`, iperf3's `--omit`): every
//! counter of the window is the whole run's less its value when the window opened, as
//! the time series (which cover the whole run) show it; without a warm-up nothing
//! changes.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::testbed::three_stations;

/// A TCP download, a ping and a VoIP call for each station of the 3-station testbed.
fn scenario(measure_from_ms: u64) -> BssScenario {
    let mut flows: Vec<FlowSpec> = (0..3)
        .map(|s| FlowSpec::tcp_bulk(StationId(s), Direction::Downlink))
        .collect();
    flows.extend((0..3).map(|s| FlowSpec::ping(StationId(s), Duration::from_millis(100))));
    flows.push(FlowSpec::voip(StationId(2), Direction::Downlink));
    let mut s = three_stations(flows);
    s.sample_step = Some(Duration::from_millis(500));
    s.measure_from = Duration::from_millis(measure_from_ms);
    s
}

fn run(s: BssScenario) -> Simulation {
    let mut sim = Simulation::new(s, &ApConfig::preset("airtime").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(4));
    sim
}

#[test]
fn the_window_is_the_run_less_the_warm_up() {
    let whole = run(scenario(0));
    let windowed = run(scenario(1000));
    // The warm-up changes nothing in the run itself.
    assert_eq!(whole.metrics().series, windowed.metrics().series);
    assert_eq!(
        whole.measured(),
        *whole.metrics(),
        "no warm-up: the whole run"
    );
    let m = windowed.measured();
    assert_eq!(
        (m.start, m.duration),
        (Duration::from_secs(1), Duration::from_secs(3))
    );
    // Bytes received from 1 s to 4 s, as the cumulative series saw them.
    let series = &whole.metrics().series;
    let at = |t_ms: u64| {
        series
            .iter()
            .find(|s| s.at == Duration::from_millis(t_ms))
            .unwrap()
    };
    for i in 0..3 {
        let st = &m.stations[i];
        assert_eq!(
            st.rx_bytes_down + st.rx_bytes_up,
            at(4000).rx_bytes[i] - at(1000).rx_bytes[i],
            "station {i}"
        );
        assert_eq!(st.airtime(), at(4000).airtime[i] - at(1000).airtime[i]);
    }
    // TCP's slow start is left out: the window's goodput is above the whole run's.
    let total = |m: &airq_sim::metrics::Metrics| -> f64 {
        (0..3).map(|s| m.goodput_mbps(StationId(s))).sum()
    };
    assert!(
        total(&m) > total(whole.metrics()),
        "{} vs {}",
        total(&m),
        total(whole.metrics())
    );
    // Pings: only requests sent in the window, and their replies.
    for f in &m.flows[3..6] {
        assert!(f.echo_requests.iter().all(|&t| t >= Duration::from_secs(1)));
        assert!(f.rtt.iter().all(|s| s.at - s.rtt >= Duration::from_secs(1)));
        assert!(
            (29..=31).contains(&f.echo_requests.len()),
            "{}",
            f.echo_requests.len()
        );
    }
    // VoIP: the window's packets only (50 per second).
    let voip = m.flows[6].voip.unwrap();
    let all = whole.metrics().flows[6].voip.unwrap();
    assert!(
        voip.sent < all.sent && voip.sent >= 145,
        "{} of {}",
        voip.sent,
        all.sent
    );
}

/// Consuming the simulation gives the same window, series included, with or without a
/// warm-up (the CLI moves the series instead of copying them).
#[test]
fn into_measured_is_measured() {
    for from_ms in [0, 1000] {
        let sim = run(scenario(from_ms));
        let copied = sim.measured();
        assert!(!copied.series.is_empty() && !copied.ap_queue.is_empty());
        assert_eq!(sim.into_measured(), copied, "warm-up {from_ms} ms");
    }
}
