//! The experiment Bianchi's and Heusse's papers share: every station saturated with
//! uplink packets of one size, the AP only receiving.

use airq::{Duration, Instant, StationId};
use airq_sim::ap::ApConfig;
use airq_sim::apps::traffic::{App, Direction, FlowSpec, Load, UDP_IP_HEADER_BYTES};
use airq_sim::bss::{BssScenario, Simulation};
use airq_sim::mac::link::{BssConfig, StationLink};

/// Per-station uplink throughput (bit/s of IP packets of `packet_bytes`).
pub fn uplink_throughputs(
    bss: BssConfig,
    stations: Vec<StationLink>,
    packet_bytes: u32,
    seconds: u64,
) -> Vec<f64> {
    let flows = (0..stations.len() as u32)
        .map(|s| {
            FlowSpec::new(
                StationId(s),
                Direction::Uplink,
                App::Udp {
                    load: Load::Saturated { backlog_packets: 4 },
                    payload_bytes: packet_bytes - UDP_IP_HEADER_BYTES,
                },
            )
        })
        .collect();
    let scenario = BssScenario::new(bss, stations, flows);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("fifo").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(seconds));
    let m = sim.metrics();
    m.stations
        .iter()
        .map(|s| s.rx_bytes_up as f64 * 8.0 / m.duration.as_secs_f64())
        .collect()
}

/// RX airtime reaches the AP's scheduler only for PPDUs it received: with ten saturated
/// uplink stations colliding, the AP charges the stations the channel's successful busy
/// time (less beacons) and not the collided PPDUs' airtime.
#[test]
fn rx_airtime_is_charged_for_received_ppdus_only() {
    let mut bss = BssConfig::ofdm(airq::phy::Band::Ghz5);
    bss.beacon_interval = None;
    let rate = airq::phy::Rate::ofdm(airq::phy::OfdmRate::Mbps54);
    let stations = vec![StationLink::new(rate); 10];
    let flows = (0..10)
        .map(|s| {
            FlowSpec::new(
                StationId(s),
                Direction::Uplink,
                App::Udp {
                    load: Load::Saturated { backlog_packets: 4 },
                    payload_bytes: 1000,
                },
            )
        })
        .collect();
    let scenario = BssScenario::new(bss, stations, flows);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("airtime").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(5));
    let m = sim.metrics();
    assert!(
        m.channel.collisions > 100,
        "{} collisions",
        m.channel.collisions
    );
    let charged_us: u64 = (0..10)
        .map(|s| sim.ap().station_stats(StationId(s)).unwrap().rx_airtime_us)
        .sum();
    let received_us = m.channel.busy.as_nanos() / 1000;
    let on_air_us: u64 = m
        .stations
        .iter()
        .map(|s| s.airtime_up.as_nanos() / 1000)
        .sum();
    // Each PPDU's airtime is rounded to whole µs when charged: within 1 µs a PPDU.
    let exchanges = m.channel.exchanges - m.channel.collisions;
    assert!(
        charged_us.abs_diff(received_us) <= exchanges,
        "charged {charged_us} us, received {received_us} us, on air {on_air_us} us"
    );
    assert!(
        on_air_us > received_us + 100_000,
        "collided PPDUs cost airtime"
    );
}

/// Uplink throughput of one saturated 54 Mbit/s station alone in a 5 GHz BSS (beacons
/// off) sending 1500-byte packets marked `dscp`, QoS or not.
fn alone(qos: bool, dscp: airq_sim::net::dscp::Dscp) -> f64 {
    let mut bss = BssConfig::ofdm(airq::phy::Band::Ghz5);
    bss.beacon_interval = None;
    let mut link = StationLink::new(airq::phy::Rate::ofdm(airq::phy::OfdmRate::Mbps54));
    link.qos = qos;
    let mut flow = FlowSpec::new(
        StationId(0),
        Direction::Uplink,
        App::Udp {
            load: Load::Saturated { backlog_packets: 4 },
            payload_bytes: 1500 - UDP_IP_HEADER_BYTES,
        },
    );
    flow.dscp = dscp;
    let scenario = BssScenario::new(bss, vec![link], vec![flow]);
    let mut sim = Simulation::new(scenario, &ApConfig::preset("fifo").unwrap()).unwrap();
    sim.run_until(Instant::ZERO + Duration::from_secs(10));
    let m = sim.metrics();
    m.stations[0].rx_bytes_up as f64 * 8.0 / m.duration.as_secs_f64()
}

/// A non-QoS station contends with the DCF (IEEE 802.11-2020 10.3.3): DIFS and the
/// window aCWmin..aCWmax, whatever its packets' DSCP; a QoS station with AIFS[AC] and
/// the AC's window (10.23.2, Table 9-155). Alone on the medium every frame waits its
/// AIFS and a backoff of CW/2 slots on average (no collisions), then the exchange:
/// the throughput is 1500 bytes over that time.
#[test]
fn a_non_qos_station_contends_with_the_dcf() {
    use airq::phy::{Band, OfdmRate, Rate};
    use airq_sim::mac::frame::MPDU_OVERHEAD_BYTES;
    use airq_sim::mac::timing::{ack_duration, MacTiming};
    use airq_sim::net::dscp::{Dscp, EF};
    let t = MacTiming::OFDM;
    let rate = Rate::ofdm(OfdmRate::Mbps54);
    let exchange = rate.ppdu_duration(1500 + MPDU_OVERHEAD_BYTES, Band::Ghz5)
        + t.sifs_time
        + ack_duration(&Rate::ofdm(OfdmRate::Mbps24), Band::Ghz5);
    let expected = |aifsn: u8, cw: u64| {
        let secs = (t.aifs(aifsn) + exchange).as_nanos() as f64 * 1e-9
            + t.slot_time.as_nanos() as f64 * 1e-9 * cw as f64 / 2.0;
        1500.0 * 8.0 / secs
    };
    let be = Dscp::new(0).unwrap();
    let cases = [
        ("QoS, BE", alone(true, be), expected(3, 15)),
        ("QoS, EF (VO)", alone(true, EF), expected(2, 3)),
        ("non-QoS, BE", alone(false, be), expected(2, 15)),
        ("non-QoS, EF", alone(false, EF), expected(2, 15)),
    ];
    let report: Vec<String> = cases
        .iter()
        .map(|(name, sim, model)| {
            format!("{name}: {:.3} Mbit/s, model {:.3}", sim / 1e6, model / 1e6)
        })
        .collect();
    println!("{}", report.join("\n"));
    for (_, sim, model) in &cases {
        assert!(((sim - model) / model).abs() < 0.01, "{report:?}");
    }
}
