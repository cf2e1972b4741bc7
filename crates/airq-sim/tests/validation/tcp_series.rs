//! The TCP senders' state in the time series (`Sample::flow_tcp`, what `ss -ti` shows
//! of a socket): a download's window opens in slow start from the initial window (RFC
//! 6928's 10 segments) and never falls below one segment; the smoothed RTT is never below
//! the path's base RTT; flows without TCP have none; and sampling it changes nothing in
//! the run.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::metrics::TcpSenderSample;
use airq_sim::testbed::three_stations;

/// A download to a fast station, an upload from the slow one and a ping to the other
/// fast one, sampled every 10 ms.
fn scenario() -> BssScenario {
    let flows = vec![
        FlowSpec::tcp_bulk(StationId(0), Direction::Downlink),
        FlowSpec::tcp_bulk(StationId(2), Direction::Uplink),
        FlowSpec::ping(StationId(1), Duration::from_millis(100)),
    ];
    let mut s = three_stations(flows);
    s.sample_step = Some(Duration::from_millis(10));
    s
}

fn run(s: BssScenario, preset: &str) -> Simulation {
    let mut sim = Simulation::new(s, &ApConfig::preset(preset).unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(3));
    sim
}

/// Flow `flow`'s TCP sender at every sample.
fn senders(sim: &Simulation, flow: u32) -> Vec<Option<TcpSenderSample>> {
    sim.metrics()
        .series
        .iter()
        .map(|s| s.tcp_sender(flow))
        .collect()
}

#[test]
fn the_download_window_opens_in_slow_start_and_the_rtt_is_above_the_base_rtt() {
    let s = scenario();
    // A data segment crosses the wired link both ways (the ACK back): the base RTT is at
    // least twice its propagation delay, before any airtime.
    let base_rtt = s.wired.delay * 2;
    let sim = run(s, "fifo");
    let download = senders(&sim, 0);
    let cwnds: Vec<u32> = download.iter().flatten().map(|t| t.cwnd_segments).collect();
    // Established within the first samples (a handshake takes a few ms), then never
    // without a sample (a bulk sender never closes).
    let first = download.iter().position(Option::is_some).unwrap();
    assert!(first <= 3, "established at sample {first}");
    assert!(download[first..].iter().all(Option::is_some));
    assert!(
        cwnds[0] >= 10,
        "the initial window is 10 segments: {cwnds:?}"
    );
    // Slow start: the window at least doubles within the first 100 ms (an RTT is a few
    // ms at first); it keeps growing until the first reduction, well past the initial
    // window (more slowly once slow start has ended).
    assert!(cwnds[..10].iter().any(|&c| c >= 2 * cwnds[0]), "{cwnds:?}");
    let reduced = cwnds.windows(2).position(|w| w[1] < w[0]);
    let opening = &cwnds[..=reduced.unwrap_or(cwnds.len() - 1)];
    assert!(opening.windows(2).all(|w| w[1] >= w[0]), "{opening:?}");
    let peak = *opening.last().unwrap();
    assert!(
        peak >= 4 * cwnds[0],
        "slow start peaked at {peak}: {opening:?}"
    );
    for (k, t) in download.iter().flatten().enumerate() {
        assert!(t.cwnd_segments >= 1, "sample {k}: {t:?}");
        let srtt = t.srtt.expect("the handshake gave the server an RTT sample");
        assert!(srtt >= base_rtt, "sample {k}: srtt {srtt:?} < {base_rtt:?}");
    }
    // The upload's sender is the slow station's end.
    let upload: Vec<TcpSenderSample> = senders(&sim, 1).into_iter().flatten().collect();
    assert!(upload.len() > 250, "{} samples", upload.len());
    for t in &upload {
        assert!(t.cwnd_segments >= 1, "{t:?}");
        assert!(t.srtt.is_none_or(|r| r >= base_rtt), "{t:?}");
    }
    // Queueing under fifo: the download's RTT grows far beyond what it started at.
    let srtt_ms = |t: &TcpSenderSample| t.srtt.unwrap().as_secs_f64() * 1e3;
    let rtts: Vec<f64> = download.iter().flatten().map(srtt_ms).collect();
    let most = rtts.iter().copied().fold(0.0, f64::max);
    assert!(
        most > 2.0 * rtts[0],
        "srtt {:.2} ms .. {most:.2} ms",
        rtts[0]
    );
    assert!(
        senders(&sim, 2).iter().all(Option::is_none),
        "a ping has no TCP"
    );
}

#[test]
fn sampling_the_senders_changes_nothing() {
    // Only the time series' step differs: every counter of the run is the same.
    let fine = run(scenario(), "airtime");
    let mut coarse = scenario();
    coarse.sample_step = None;
    let coarse = run(coarse, "airtime");
    let (mut a, mut b) = (fine.metrics().clone(), coarse.metrics().clone());
    assert!(a.series.len() >= 300 && b.series.is_empty());
    a.series.clear();
    // Sample events are events too.
    a.events = 0;
    b.events = 0;
    assert_eq!(a, b);
}

/// A bulk download and upload told to stop at 1 s (a test's `stop`) send nothing new
/// after it: what was in flight arrives within a few round trips, then their bytes stand
/// still; the ping beside them goes on. Without the stop they keep going. (It was
/// ignored: a bulk sender writes once, endlessly.)
#[test]
fn bulk_flows_stop_at_their_stop() {
    let stop = Instant::ZERO + Duration::from_secs(1);
    let mut s = scenario();
    s.flows[0].stop = Some(stop);
    s.flows[1].stop = Some(stop);
    let stopped = run(s, "airtime");
    let going = run(scenario(), "airtime");
    let bytes = |sim: &Simulation, at_ms: u64, flow: usize| {
        let at = Duration::from_millis(at_ms);
        let s = sim.metrics().series.iter().find(|s| s.at >= at).unwrap();
        s.flow_rx_bytes[flow]
    };
    for flow in [0, 1] {
        let (at_stop, after) = (bytes(&stopped, 1000, flow), bytes(&stopped, 1300, flow));
        assert!(at_stop > 0, "flow {flow} ran before its stop");
        assert_eq!(
            after,
            bytes(&stopped, 2990, flow),
            "flow {flow} after its stop"
        );
        assert!(
            bytes(&going, 2990, flow) > 2 * after,
            "flow {flow} without a stop goes on"
        );
    }
    let late_replies = stopped.metrics().flows[2]
        .rtt
        .iter()
        .filter(|r| r.at > Duration::from_millis(1300))
        .count();
    assert!(
        late_replies >= 15,
        "the ping goes on: {late_replies} replies"
    );
}
