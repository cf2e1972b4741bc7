//! The qdisc layer and ath9k's legacy MAC queues: their limits and drop paths.

use super::*;

#[test]
fn pfifo_fast_tail_drops_at_1000_packets() {
    let mut ap = ap(&preset("fifo"), &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    for _ in 0..2000 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    let b = ap.backlog().ac[Ac::Be.index()];
    assert_eq!(b.qdisc_packets, u64::from(PFIFO_FAST_LIMIT_PACKETS));
    // ath9k accepts frames until `++pending_frames > txq_max_pending`.
    let below = u64::from(ATH9K_TXQ_MAX_PENDING) + 1;
    assert_eq!(b.mac_packets + b.driver_frames, below);
    let drops = ap.station_stats(StationId(0)).unwrap().drops;
    assert_eq!(drops.get(DropCause::QdiscOverlimit), 2000 - 1000 - below);
    assert_eq!(drops.total(), drops.get(DropCause::QdiscOverlimit));
    // The dropped packets are the newest: tail drop.
    let first_dropped = out.dropped.iter().map(|(p, _)| p.id).min().unwrap();
    assert_eq!(u64::from(first_dropped), 1000 + below + 1);
    ap.assert_invariants(0);
}

#[test]
fn legacy_driver_stops_pulling_at_its_per_ac_limit() {
    let mut ap = ap(&preset("fifo"), &[ht_link()]);
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    for _ in 0..400 {
        ap.enqueue_into(src.packet(StationId(0), 0, 1, 1500), now, &mut out)
            .unwrap();
    }
    let limit = u64::from(ATH9K_TXQ_MAX_PENDING) + 1;
    let be = |ap: &ApTx| ap.backlog().ac[Ac::Be.index()];
    assert_eq!(be(&ap).mac_packets + be(&ap).driver_frames, limit);
    assert_eq!(be(&ap).qdisc_packets, 400 - limit);
    // The two aggregates built as the first packets arrived took one packet each.
    assert_eq!(ap.hw_ampdus(Ac::Be), 2);
    // Another AC is not held back by BE's stopped queue.
    ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), now, &mut out)
        .unwrap();
    assert_eq!(ap.backlog().ac[Ac::Vo.index()].qdisc_packets, 0);
    assert!(ap.has_frames(Ac::Vo));
    // One completed frame: 123 pending is not below the limit, the queue stays stopped.
    transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false).unwrap();
    assert_eq!(be(&ap).mac_packets + be(&ap).driver_frames, limit - 1);
    assert_eq!(be(&ap).qdisc_packets, 400 - limit);
    // A second: the queue wakes and the qdisc refills the MAC layer to the limit.
    transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false).unwrap();
    assert_eq!(be(&ap).mac_packets + be(&ap).driver_frames, limit);
    assert_eq!(be(&ap).qdisc_packets, 400 - limit - 2);
    ap.assert_invariants(0);
}

#[test]
fn noqueue_in_front_of_a_stopped_legacy_queue_drops() {
    let mut config = preset("fifo");
    config.qdisc = QdiscConfig::None;
    let mut ap = ap(&config, &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    for _ in 0..200 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    let drops = ap.station_stats(StationId(0)).unwrap().drops;
    assert_eq!(
        drops.get(DropCause::QueueFull),
        200 - u64::from(ATH9K_TXQ_MAX_PENDING) - 1
    );
    conserved(&ap);
}

#[test]
fn fq_codel_qdisc_drops_from_the_fattest_flow() {
    let mut config = preset("fq_codel");
    config.qdisc = QdiscConfig::FqCodel(FqParams {
        limit_packets: 200,
        ..fq_codel_defaults()
    });
    let mut ap = ap(&config, &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    // Fill the legacy MAC layer first, so that the qdisc holds the rest.
    // Without service the thin flows would grow fat in time: stop well before.
    for i in 0..600u32 {
        // Flow 1 sends ten times as much as flows 2 and 3.
        let flow = if i % 12 == 0 {
            2
        } else if i % 12 == 6 {
            3
        } else {
            1
        };
        ap.enqueue_into(
            src.packet(StationId(0), 0, flow, 1000),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    // A drop round takes up to 32 packets (min(32, half the flow)) from the fattest flow.
    let held = ap.backlog().ac[Ac::Be.index()].qdisc_packets;
    assert!((200 - 32..=200).contains(&held), "{held}");
    assert!(!out.dropped.is_empty());
    for (p, cause) in &out.dropped {
        assert_eq!(*cause, DropCause::QdiscOverlimit);
        assert_eq!(p.flow, FlowIndex(1), "only the fattest flow loses packets");
    }
    ap.assert_invariants(0);
}

#[test]
fn fq_codel_qdisc_codel_drops_a_standing_queue() {
    let mut ap = ap(&preset("fq_codel"), &[slow_link()]);
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    // 6.5 Mbit/s sends two 1500-byte packets per 4 ms aggregate; three arrive for each:
    // once the legacy MAC layer is full the qdisc's sojourn time grows far above 5 ms.
    for _ in 0..3000 {
        for _ in 0..3 {
            ap.enqueue_into(src.packet(StationId(0), 0, 1, 1500), now, &mut out)
                .unwrap();
        }
        transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false);
    }
    let drops = ap.station_stats(StationId(0)).unwrap().drops;
    assert!(drops.get(DropCause::QdiscCodel) > 0, "{drops:?}");
    conserved(&ap);
}
