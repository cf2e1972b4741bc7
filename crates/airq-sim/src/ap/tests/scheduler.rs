//! Scheduling between stations: airtime DRR, round robin, weights, groups, RX airtime.

use super::*;

/// Two stations, slow (HT20 MCS 0) and fast (VHT80 MCS 9), both always backlogged; a
/// fake channel charging each PPDU its duration. Returns each station's share of the
/// TX airtime.
fn airtime_shares(config: &ApConfig) -> [f64; 2] {
    let links = [slow_link(), fast_link()];
    let mut ap = ap(config, &links);
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    for _ in 0..3000 {
        for s in (0..2).map(StationId) {
            while ap.station_backlog(s).unwrap().mac_packets < 80 {
                ap.enqueue_into(src.packet(s, 0, 1, 1500), now, &mut out)
                    .unwrap();
            }
        }
        if transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false).is_none() {
            // The firmware's fetch is answered one host latency after it asks.
            now = ap
                .poll_at(now)
                .expect("frames wait: the AP asks to be woken");
            wake_due(&mut ap, now, &mut out);
        }
        out.clear();
    }
    let a = ap.stations_stats();
    let total = (a[0].tx_airtime_us + a[1].tx_airtime_us) as f64;
    [
        a[0].tx_airtime_us as f64 / total,
        a[1].tx_airtime_us as f64 / total,
    ]
}

#[test]
fn airtime_scheduler_equalises_tx_airtime() {
    let [slow, fast] = airtime_shares(&preset("airtime"));
    assert!((slow - fast).abs() < 0.04, "slow {slow:.3} fast {fast:.3}");
}

#[test]
fn round_robin_lets_the_slow_station_take_most_of_the_airtime() {
    let [slow, fast] = airtime_shares(&preset("fq_mac"));
    assert!(slow > 0.6, "slow {slow:.3} fast {fast:.3}");
}

/// Push mode: the firmware sends from its own queues in its own round robin, one PPDU
/// per station-TID per turn: the host's scheduler only decides what enters them. With
/// round robin and no AQL the 1424-frame queue fills with the slow station's frames and
/// it takes nearly all the airtime. The airtime DRR with AQL makes the host share the
/// firmware queue between the stations, and the firmware then alternates between them —
/// per PPDU, not per unit of airtime, so the slow station still takes two thirds.
#[test]
fn with_the_push_firmware_the_firmware_round_robin_decides_airtime() {
    let rr = preset("fq_mac").with_driver(DriverConfig::firmware_push());
    let [slow, _] = airtime_shares(&rr);
    assert!(slow > 0.9, "round robin, no AQL: slow {slow:.3}");
    let aql = preset("airtime_aql").with_driver(DriverConfig::firmware_push());
    let [slow, _] = airtime_shares(&aql);
    assert!((0.55..0.75).contains(&slow), "airtime_aql: slow {slow:.3}");
}

/// Pull mode: the firmware asks for frames and the host answers with a round of its
/// scheduler, so the airtime is shared as the scheduler decides, by weight too, with
/// and without AQL.
#[test]
fn with_the_pull_firmware_the_host_scheduler_decides_airtime() {
    let pull = |name: &str| preset(name).with_driver(DriverConfig::firmware());
    for name in ["airtime", "airtime_aql"] {
        let [slow, fast] = airtime_shares(&pull(name));
        assert!(
            (slow - 0.5).abs() < 0.02,
            "{name}: slow {slow:.3} fast {fast:.3}"
        );
        let mut weighted = pull(name);
        weighted.airtime_weights = vec![StationWeight {
            station: StationId(1),
            weight_us: 512,
        }];
        let [slow, fast] = airtime_shares(&weighted);
        assert!(
            (slow - 1.0 / 3.0).abs() < 0.02,
            "{name}, weight 2: slow {slow:.3} fast {fast:.3}"
        );
    }
}

#[test]
fn airtime_weights_divide_the_airtime() {
    let mut config = preset("airtime");
    config.airtime_weights = vec![StationWeight {
        station: StationId(1),
        weight_us: 512,
    }];
    let [slow, fast] = airtime_shares(&config);
    assert!(
        (fast / slow - 2.0).abs() < 0.15,
        "slow {slow:.3} fast {fast:.3}"
    );
}

/// A group's weight stands for all its stations: station 1 alone in a group of weight
/// 512 gets twice the airtime of station 0 at the root with the default 256.
#[test]
fn airtime_groups_divide_the_airtime_by_group_weight() {
    let mut config = preset("airtime");
    config.airtime_groups = vec![AirtimeGroup {
        weight_us: 512,
        mode: airq::airtime::GroupMode::Share,
        stations: vec![StationId(1)],
        parent: None,
    }];
    let [slow, fast] = airtime_shares(&config);
    assert!(
        (fast / slow - 2.0).abs() < 0.15,
        "slow {slow:.3} fast {fast:.3}"
    );
}

#[test]
fn rx_airtime_is_charged_to_the_station() {
    let mut ap = ap(&preset("airtime"), &[ht_link(), ht_link()]);
    ap.register_rx_airtime(
        StationId(1),
        tid(0),
        Duration::from_micros(700),
        Instant::ZERO,
    )
    .unwrap();
    assert_eq!(ap.station_stats(StationId(1)).unwrap().rx_airtime_us, 700);
    let sched = ap.scheduler().station_stats(StationId(1)).unwrap();
    assert_eq!(sched.rx_airtime_us[Ac::Be.index()], 700);
    assert_eq!(
        ap.register_rx_airtime(StationId(2), tid(0), Duration::ZERO, Instant::ZERO),
        Err(UnknownStation {
            station: StationId(2),
            stations: 2
        })
    );
}
