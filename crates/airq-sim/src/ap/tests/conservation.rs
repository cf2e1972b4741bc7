//! Conservation under random operation: every configuration, driven by random
//! enqueues, transmissions and completions, accounts for every packet.

use super::*;

/// The presets, and variants with tiny limits so that every drop path runs.
fn configs() -> Vec<(String, ApConfig)> {
    let mut v: Vec<(String, ApConfig)> = ApConfig::presets()
        .map(|(n, c)| (n.to_string(), c))
        .collect();
    let tiny_fq = FqParams {
        limit_packets: 24,
        memory_limit_bytes: 24 * 1500,
        ..FqParams::default()
    };
    let tiny_aql = AqlParams {
        limits: [airq::aql::AqlLimits {
            aql_limit_low_us: 1_000,
            aql_limit_high_us: 3_000,
        }; Ac::COUNT],
        aql_threshold_us: 4_000,
        ..AqlParams::default()
    };
    for (name, c) in ApConfig::presets() {
        let mut t = c.clone();
        t.qdisc = match t.qdisc {
            QdiscConfig::None => QdiscConfig::None,
            QdiscConfig::PfifoFast { .. } => QdiscConfig::PfifoFast { limit_packets: 8 },
            QdiscConfig::FqCodel(p) => QdiscConfig::FqCodel(FqParams {
                limit_packets: 16,
                ..p
            }),
        };
        t.mac = match t.mac {
            MacConfig::Legacy { .. } => MacConfig::Legacy { txq_max_pending: 6 },
            MacConfig::FqMac(_) => MacConfig::FqMac(tiny_fq),
        };
        t.driver = match t.driver {
            d @ DriverConfig::Softmac { .. } => d,
            DriverConfig::Firmware { mode, .. } => DriverConfig::Firmware {
                max_pending_frames: 12,
                mode,
            },
        };
        if let AqlConfig::On(_) = t.aql {
            t.aql = AqlConfig::On(tiny_aql);
        }
        v.push((format!("{name}_tiny"), t));
    }
    let mut self_tuning = preset("airtime_aql");
    self_tuning.aql = AqlConfig::self_tuning();
    v.push(("airtime_aql_self_tuning".into(), self_tuning));
    let mut legacy_fw = preset("fifo");
    legacy_fw.driver = DriverConfig::Firmware {
        max_pending_frames: 20,
        mode: FirmwareMode::Pull { fetch_frames: 3 },
    };
    legacy_fw.mac = MacConfig::Legacy { txq_max_pending: 9 };
    v.push(("fifo_firmware".into(), legacy_fw));
    for (driver_name, driver) in [
        ("softmac", DriverConfig::softmac()),
        ("firmware", DriverConfig::firmware()),
        ("firmware_push", DriverConfig::firmware_push()),
    ] {
        for aql in [AqlConfig::Off, AqlConfig::On(tiny_aql)] {
            let mut c = preset("airtime");
            c.driver = driver;
            c.aql = aql;
            if let SchedulerConfig::Airtime(p) = &mut c.scheduler {
                p.mode = airq::airtime::SchedulingMode::StationFirst;
            }
            let aql_name = if aql == AqlConfig::Off { "" } else { "_aql" };
            v.push((format!("station_first_{driver_name}{aql_name}"), c));
        }
        let mut limited = preset("airtime");
        limited.driver = driver;
        limited.airtime_groups = vec![AirtimeGroup {
            weight_us: 256,
            mode: airq::airtime::GroupMode::Limit,
            stations: vec![StationId(0)],
            parent: None,
        }];
        v.push((format!("limit_group_{driver_name}"), limited));
    }
    let mut noqueue_legacy = preset("fifo");
    noqueue_legacy.qdisc = QdiscConfig::None;
    noqueue_legacy.mac = MacConfig::Legacy { txq_max_pending: 5 };
    v.push(("noqueue_legacy".into(), noqueue_legacy));
    let mut softmac_aql = preset("airtime");
    softmac_aql.aql = AqlConfig::On(tiny_aql);
    v.push(("airtime_softmac_aql".into(), softmac_aql));
    // Combined QoS aggregates (softmac over FQ-MAC), per AC and station-first, with AQL.
    let qos = airq::aggregate::QosAggregateParams {
        max_wait: Duration::from_micros(500),
        ..airq::aggregate::QosAggregateParams::default()
    };
    for (name, aql, station_first) in [
        ("qos_aggregate", AqlConfig::Off, false),
        ("qos_aggregate_aql", AqlConfig::On(tiny_aql), false),
        (
            "qos_aggregate_station_first_aql",
            AqlConfig::On(tiny_aql),
            true,
        ),
    ] {
        let mut c = preset("airtime");
        c.aql = aql;
        c.aggregation.qos = Some(qos);
        if let (SchedulerConfig::Airtime(p), true) = (&mut c.scheduler, station_first) {
            p.mode = airq::airtime::SchedulingMode::StationFirst;
        }
        v.push((name.into(), c));
    }
    v
}

#[derive(Clone, Debug)]
enum Op {
    Enqueue {
        station: StationId,
        tid: u8,
        flow: u32,
        len: u32,
        ect: bool,
    },
    /// Take the next PPDU of an AC onto the air (if none is already there).
    Start(usize),
    /// Finish the AC's PPDU on the air; MPDU `i` fails if bit `i % 64` is set.
    Finish(usize, u64),
    Rx(StationId, u8, u32),
    Advance(u64),
    /// Let time pass to the instant the AP asked to be woken at.
    Wake,
}

/// One of the three stations of [`run_ops`].
fn station() -> impl Strategy<Value = StationId> {
    (0..3u32).prop_map(StationId)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (station(), 0..8u8, 0..4u32, 40..1500u32, any::<bool>()).prop_map(
            |(station, tid, flow, len, ect)| Op::Enqueue { station, tid, flow, len, ect }
        ),
        3 => (0..4usize).prop_map(Op::Start),
        3 => (0..4usize, prop_oneof![Just(0u64), any::<u64>(), Just(u64::MAX)])
            .prop_map(|(ac, mask)| Op::Finish(ac, mask)),
        1 => (station(), 0..8u8, 1..3000u32).prop_map(|(s, t, us)| Op::Rx(s, t, us)),
        2 => (0..30u64).prop_map(Op::Advance),
        2 => Just(Op::Wake),
    ]
}

fn run_ops(config: &ApConfig, ops: &[Op]) {
    let links = [slow_link(), ht_link(), fast_link()];
    let mut ap = ap(config, &links);
    let mut src = Source::default();
    let mut out = TxOutput::default();
    let mut now = Instant::ZERO;
    let mut air: [Option<Ppdu>; Ac::COUNT] = Default::default();
    let (mut delivered, mut dropped) = (0u64, 0u64);
    let mut seen = std::collections::HashSet::new();
    for op in ops {
        match *op {
            Op::Enqueue {
                station,
                tid,
                flow,
                len,
                ect,
            } => {
                let mut p = src.packet(station, tid, flow, len);
                if ect {
                    p.ecn = Ecn::Ect0;
                }
                ap.enqueue_into(p, now, &mut out).unwrap();
            }
            Op::Start(ac) => {
                if air[ac].is_none() && ap.has_frames(Ac::ALL[ac]) {
                    air[ac] = ap.next_ppdu(Ac::ALL[ac], now);
                }
            }
            Op::Finish(ac, mask) => {
                if let Some(mut ppdu) = air[ac].take() {
                    for (i, m) in ppdu.mpdus.iter_mut().enumerate() {
                        m.ok = mask & (1 << (i % 64)) == 0;
                    }
                    now += ppdu.duration;
                    let d = ppdu.duration;
                    ap.tx_done_into(ppdu, d, now, &mut out);
                }
            }
            Op::Rx(s, t, us) => ap
                .register_rx_airtime(s, tid(t), Duration::from_micros(u64::from(us)), now)
                .unwrap(),
            Op::Advance(ms) => now += Duration::from_millis(ms),
            Op::Wake => {
                if let Some(t) = ap.poll_at(now) {
                    now = now.max(t);
                }
            }
        }
        wake_due(&mut ap, now, &mut out);
        out.given_up.clear();
        for (_, p) in out.acked.drain(..) {
            assert!(seen.insert(p.id), "packet {} left twice", p.id);
            delivered += 1;
        }
        for (p, _) in out.dropped.drain(..) {
            assert!(seen.insert(p.id), "packet {} left twice", p.id);
            dropped += 1;
        }
        let in_flight = air.iter().flatten().map(|p| p.mpdus.len()).sum();
        ap.assert_invariants(in_flight);
        let t = ap.total_stats();
        assert_eq!(
            (t.delivered_packets, t.drops.total()),
            (delivered, dropped),
            "acknowledged and dropped as the AP counts them"
        );
        if let Some(aql) = ap.aql() {
            assert_eq!(aql.stats().underflows, 0, "AQL released more than charged");
        }
    }
    // Land what is on the air, then everything must drain.
    for slot in &mut air {
        if let Some(mut ppdu) = slot.take() {
            for m in &mut ppdu.mpdus {
                m.ok = true;
            }
            let d = ppdu.duration;
            ap.tx_done_into(ppdu, d, now, &mut out);
        }
    }
    drain(&mut ap, &mut now, &mut out);
    ap.assert_invariants(0);
    conserved(&ap);
    assert_eq!(ap.total_stats().enqueued_packets, u64::from(src.next_id));
    if let Some(aql) = ap.aql() {
        assert_eq!(aql.total_pending_us(), 0, "AQL airtime leaked");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_config_conserves_packets(
        which in 0..configs().len(),
        ops in proptest::collection::vec(op(), 1..250),
    ) {
        let (_, config) = &configs()[which];
        run_ops(config, &ops);
    }
}

#[test]
fn every_preset_builds_and_drains() {
    for (name, config) in configs() {
        let links = [slow_link(), fast_link()];
        let mut ap = ap(&config, &links);
        let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
        for i in 0..300u32 {
            let p = src.packet(
                StationId(i % 2),
                [0, 6, 1, 4][(i % 4) as usize],
                i % 3,
                1500,
            );
            ap.enqueue_into(p, now, &mut out).unwrap();
        }
        drain(&mut ap, &mut now, &mut out);
        ap.assert_invariants(0);
        let t = ap.total_stats();
        assert_eq!(t.enqueued_packets, 300, "{name}");
        assert_eq!(
            t.delivered_packets + t.drops.total(),
            300,
            "{name}: {:?}",
            t.drops
        );
        assert!(t.delivered_packets > 0, "{name}");
    }
}
