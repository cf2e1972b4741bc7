//! Bad configurations and packets: errors, never panics.

use super::*;

#[test]
fn bad_configurations_are_errors_not_panics() {
    let links = [ht_link(), ht_link()];
    let check = |config: ApConfig, expect: &str| {
        let e = ApTx::new(&config, &bss(), &links).err().expect(expect);
        assert!(e.to_string().contains(expect), "{e} / {expect}");
        // `check` (what `airq check` runs) refuses it alike, without building.
        let checked = ApTx::check(&config, &bss(), &links).expect_err(expect);
        assert_eq!(checked.to_string(), e.to_string());
    };
    let base = preset("airtime_aql");
    check(
        ApConfig {
            qdisc: QdiscConfig::PfifoFast { limit_packets: 0 },
            ..base.clone()
        },
        "qdisc pfifo_fast limit_packets must be above zero",
    );
    check(
        ApConfig {
            mac: MacConfig::Legacy { txq_max_pending: 0 },
            ..base.clone()
        },
        "mac legacy txq_max_pending must be above zero",
    );
    check(
        ApConfig {
            mac: MacConfig::FqMac(FqParams {
                limit_packets: 0,
                ..FqParams::default()
            }),
            ..base.clone()
        },
        "mac fq_mac: fq limit_packets must be above zero",
    );
    check(
        ApConfig {
            qdisc: QdiscConfig::FqCodel(FqParams {
                flows: 0,
                ..fq_codel_defaults()
            }),
            ..base.clone()
        },
        "qdisc fq_codel: fq flows",
    );
    check(
        ApConfig {
            driver: DriverConfig::Firmware {
                max_pending_frames: 0,
                mode: FirmwareMode::Push,
            },
            ..base.clone()
        },
        "driver firmware max_pending_frames must be above zero",
    );
    check(
        ApConfig {
            driver: DriverConfig::Softmac {
                aggr_min_qdepth: 0,
                non_aggr_min_qdepth: 8,
                max_subframes: 32,
            },
            ..base.clone()
        },
        "aggr_min_qdepth must be above zero",
    );
    check(
        ApConfig {
            airtime_weights: vec![StationWeight {
                station: StationId(1),
                weight_us: 0,
            }],
            ..base.clone()
        },
        "airtime weight of station 1 must be between 1 and 65535 us, got 0",
    );
    check(
        ApConfig {
            airtime_weights: vec![StationWeight {
                station: StationId(2),
                weight_us: 100,
            }],
            ..base.clone()
        },
        "airtime weight for station 2, but the BSS has 2 stations",
    );
    let group = |weight_us, stations: Vec<u32>| AirtimeGroup {
        weight_us,
        mode: airq::airtime::GroupMode::Share,
        stations: stations.into_iter().map(StationId).collect(),
        parent: None,
    };
    check(
        ApConfig {
            airtime_groups: vec![group(0, vec![0])],
            ..base.clone()
        },
        "airtime weight of group 0 must be between 1 and 65535 us, got 0",
    );
    check(
        ApConfig {
            airtime_groups: vec![group(256, vec![0]), group(256, vec![2])],
            ..base.clone()
        },
        "airtime group 1 lists station 2, but the BSS has 2 stations",
    );
    check(
        ApConfig {
            airtime_groups: vec![group(256, vec![0]), group(256, vec![1, 0])],
            ..base.clone()
        },
        "station 0 is in two airtime groups",
    );
    // Errors only the scheduler finds, once it builds the groups.
    let nested = |depth: usize| {
        (0..depth)
            .map(|i| AirtimeGroup {
                parent: i.checked_sub(1),
                ..group(256, if i == 0 { vec![0] } else { vec![] })
            })
            .collect::<Vec<_>>()
    };
    let deep = airq::airtime::MAX_GROUP_DEPTH as usize + 1;
    check(
        ApConfig {
            airtime_groups: nested(deep),
            ..base.clone()
        },
        "scheduler: ",
    );
    let fine = ApConfig {
        airtime_groups: nested(deep - 1),
        ..base.clone()
    };
    assert!(ApTx::check(&fine, &bss(), &links).is_ok());
    assert!(ApTx::new(&fine, &bss(), &links).is_ok());
    let mut aql = AqlParams::default();
    aql.limits[Ac::Be.index()].aql_limit_low_us = 0;
    check(
        ApConfig {
            aql: AqlConfig::On(aql),
            ..base.clone()
        },
        "aql: aql_limit_low_us[BE]: must be non-zero",
    );
    check(
        ApConfig {
            scheduler: SchedulerConfig::Airtime(airq::airtime::AirtimeParams {
                default_weight_us: 0,
                ..Default::default()
            }),
            ..base.clone()
        },
        "scheduler: airtime weight must be between",
    );
    let e = ApConfig::preset("fq-codel").unwrap_err();
    assert!(e.to_string().contains("valid presets: fifo, fq_codel"));

    let mut no_retries = bss();
    no_retries.retry_limit = 0;
    let e = ApTx::new(&base, &no_retries, &links).err().unwrap();
    assert!(e.to_string().contains("retry_limit must be at least 1"));
    let checked = ApTx::check(&base, &no_retries, &links).err().unwrap();
    assert_eq!(checked.to_string(), e.to_string());
    let mut no_window = ht_link();
    no_window.ba_window = 0;
    let e = ApTx::new(&base, &bss(), &[ht_link(), no_window.clone()])
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "station 1: ba_window must be at least 1");
    let checked = ApTx::check(&base, &bss(), &[ht_link(), no_window])
        .err()
        .unwrap();
    assert_eq!(checked.to_string(), e.to_string());
}

#[test]
fn unknown_station_packets_are_handed_back() {
    let mut ap = ap(&preset("fifo"), &[ht_link()]);
    let mut src = Source::default();
    let e = ap
        .enqueue(src.packet(StationId(1), 0, 1, 100), Instant::ZERO)
        .unwrap_err();
    assert_eq!(e.packet.id, 1);
    assert_eq!(
        e.to_string(),
        "packet 1 refused: station 1 is not in the BSS (1 stations)"
    );
    assert_eq!(ap.total_stats().enqueued_packets, 0);
}
