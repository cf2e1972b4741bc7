//! Ping through the BSS: on an idle channel the RTT is the wired round trip plus two
//! short exchanges; under a saturated download it shows the AP's queueing — hundreds
//! of milliseconds or lost behind a FIFO, tens with FQ-MAC, where the ping has its own
//! queue. A ping from one station to another has no wired hop but twice the wireless
//! ones, each request and reply relayed through the AP's queues.

use airq::{Ac, Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{Direction, FlowSpec};
use airq_sim::bss::{BssScenario, SimError, Simulation};
use airq_sim::mac::frame::MPDU_OVERHEAD_BYTES;
use airq_sim::mac::timing::ack_duration;
use airq_sim::metrics::Metrics;
use airq_sim::testbed::three_stations;

fn run(preset: &str, loaded: bool) -> Metrics {
    let mut flows = vec![FlowSpec::ping(StationId(0), Duration::from_millis(100))];
    if loaded {
        flows.extend((0..3).map(|s| FlowSpec::saturated(StationId(s), Direction::Downlink)));
    }
    run_flows(preset, three_stations(flows))
}

fn run_flows(preset: &str, scenario: BssScenario) -> Metrics {
    let mut sim = Simulation::new(scenario, &ApConfig::preset(preset).unwrap()).unwrap();
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

const INTERVAL: Duration = Duration::from_millis(100);

/// The first fast station pings the second (both HT MCS15) every 100 ms for 5 s, with
/// `load` beside it.
fn station_ping(preset: &str, load: Vec<FlowSpec>) -> Metrics {
    let mut flows = vec![FlowSpec::station_ping(StationId(0), StationId(1), INTERVAL)];
    flows.extend(load);
    run_flows(preset, three_stations(flows))
}

#[test]
fn idle_station_to_station_ping_is_four_exchanges_without_the_wire() {
    let s2s = station_ping("fifo", Vec::new());
    let server = run("fifo", false);
    assert_eq!(
        s2s.flows[0].station,
        StationId(0),
        "the RTT is the source's"
    );
    // Requests at 0, 100, ..., 4900 ms, each answered in about a millisecond.
    assert_eq!(s2s.flows[0].rtt.len(), 50);
    // Each way: up to the AP, then down to the other station, every hop AIFS, the PPDU
    // of the 84-byte packet at MCS15, SIFS and an Ack (a BlockAck is longer) — but the
    // request, which finds the medium idle for long and its post-backoff over, goes at
    // the next slot boundary without waiting AIFS (IEEE 802.11-2020 10.23.2.2). The
    // three hops after it find the medium just idle (the relayed packet and the reply
    // arrive with the Ack before them) and wait AIFS.
    let scenario = three_stations(Vec::new());
    let bss = &scenario.bss;
    let rate = scenario.stations[0].rate;
    let aifs = bss.timing.aifs(bss.edca.get(Ac::Be).aifsn);
    let exchange = aifs
        + rate.ppdu_duration(84 + MPDU_OVERHEAD_BYTES, bss.band)
        + bss.timing.sifs_time
        + ack_duration(&bss.control_rate(&rate), bss.band);
    let floor = exchange * 4 - aifs;
    let wired_rtt = (scenario.wired.delay + scenario.wired.serialization(84)) * 2;
    for s in &s2s.flows[0].rtt {
        assert!(
            (floor..wired_rtt).contains(&s.rtt),
            "RTT {:?} outside {floor:?} (4 exchanges) .. {wired_rtt:?} (the wire alone)",
            s.rtt
        );
    }
    // The server's ping crosses the air twice, the stations' four times. Each ping's
    // request goes at once (an idle medium); every other hop waits AIFS and a backoff
    // of CWmin / 2 slots on average (IEEE 802.11-2020 10.23.2), the AP's with its own
    // EDCA set: with `x` a hop's exchange (PPDU, SIFS, Ack) and `w` a wait, the
    // stations' RTT is 4x + 2 w_ap + w_sta and the server's over the air 2x + w_sta —
    // a ratio of 2.38 here (measured 2.34), not 2.
    let exchange_only = exchange - aifs;
    let wait = |p: &airq_sim::mac::edca::EdcaAcParams| {
        bss.timing.aifs(p.aifsn) + bss.timing.slot_time * u64::from(p.cw_min) / 2
    };
    let (w_ap, w_sta) = (
        wait(bss.ap_edca_params().get(Ac::Be)),
        wait(bss.edca.get(Ac::Be)),
    );
    let predicted = (exchange_only * 4 + w_ap * 2 + w_sta).as_secs_f64()
        / (exchange_only * 2 + w_sta).as_secs_f64();
    let s2s_ms = median_rtt_ms(&s2s);
    let two_hops_ms = median_rtt_ms(&server) - wired_rtt.as_secs_f64() * 1e3;
    let ratio = s2s_ms / two_hops_ms;
    assert!(
        (ratio / predicted - 1.0).abs() < 0.08,
        "station-to-station {s2s_ms} ms, server ping over the air {two_hops_ms} ms: \
         ratio {ratio}, predicted {predicted}"
    );
}

#[test]
fn a_relayed_packet_counts_once_for_each_hop() {
    let m = station_ping("fifo", Vec::new());
    // Requests go up from station 0 and down to station 1, replies the other way:
    // each fast station sent and received 50 packets of 84 bytes over the same rate.
    for s in &m.stations[..2] {
        assert_eq!((s.rx_packets_up, s.rx_packets_down), (50, 50), "{s:?}");
        assert_eq!(
            (s.rx_bytes_up, s.rx_bytes_down),
            (50 * 84, 50 * 84),
            "{s:?}"
        );
        assert!(s.airtime_up > Duration::ZERO && s.airtime_up == s.airtime_down);
        assert_eq!(s.drops.iter().sum::<u64>(), 0);
    }
    assert_eq!(m.stations[0].airtime(), m.stations[1].airtime());
    assert_eq!(
        m.stations[2],
        Default::default(),
        "the slow station is idle"
    );
    assert_eq!(m.flows[0].rx_packets, 50, "replies back at the source");
}

#[test]
fn station_to_station_ping_under_a_download_to_the_peer_shows_the_aps_queueing() {
    let load = || vec![FlowSpec::tcp_bulk(StationId(1), Direction::Downlink)];
    // Behind a FIFO both relayed hops wait in the qdisc the download fills.
    let fifo = station_ping("fifo", load());
    let fifo_ms = median_rtt_ms(&fifo);
    // FQ-MAC gives the ping flow its own queue at each hop: it waits only for the
    // aggregates already handed to the driver.
    let fq_mac = station_ping("fq_mac", load());
    let fq_mac_ms = median_rtt_ms(&fq_mac);
    assert!(fq_mac.flows[0].rtt.len() >= 49);
    assert!(fifo_ms > 100.0, "FIFO median RTT {fifo_ms} ms");
    assert!(fq_mac_ms < 50.0, "FQ-MAC median RTT {fq_mac_ms} ms");
    assert!(
        fifo_ms > 4.0 * fq_mac_ms,
        "FIFO {fifo_ms} ms against FQ-MAC {fq_mac_ms} ms"
    );
}

#[test]
fn station_to_station_ping_is_deterministic() {
    let rtts = |seed: u64| {
        let mut scenario = three_stations(vec![
            FlowSpec::station_ping(StationId(0), StationId(1), INTERVAL),
            FlowSpec::tcp_bulk(StationId(1), Direction::Downlink),
        ]);
        for link in &mut scenario.stations {
            link.mpdu_error = 0.1;
        }
        scenario.seed = seed;
        run_flows("airtime", scenario).flows[0].rtt.clone()
    };
    let a = rtts(5);
    assert!(a.len() >= 45, "{} replies", a.len());
    assert_eq!(a, rtts(5));
    assert_ne!(a, rtts(6));
}

#[test]
fn a_ping_to_itself_or_to_no_station_is_refused() {
    let refused = |spec: FlowSpec| {
        let scenario = three_stations(vec![spec]);
        let ap = ApConfig::preset("fifo").unwrap();
        // What `airq check` runs refuses it alike, without building the simulation.
        let checked = Simulation::check(&scenario, &ap).err();
        let e = Simulation::new(scenario, &ap).err();
        assert_eq!(checked, e);
        e
    };
    assert_eq!(
        refused(FlowSpec::station_ping(StationId(1), StationId(1), INTERVAL)),
        Some(SimError::PeerIsItself {
            flow: 0,
            station: StationId(1)
        })
    );
    assert_eq!(
        refused(FlowSpec::station_ping(StationId(0), StationId(3), INTERVAL)),
        Some(SimError::UnknownPeer {
            flow: 0,
            peer: StationId(3),
            stations: 3
        })
    );
    let downlink = FlowSpec {
        direction: Direction::Downlink,
        ..FlowSpec::station_ping(StationId(0), StationId(1), INTERVAL)
    };
    assert_eq!(
        refused(downlink),
        Some(SimError::PeerPingNotUplink { flow: 0 })
    );
}
