//! Combined QoS aggregates in the transmit path ([`super::super::qos_aggregate`], seed
//! 000 §4.3): a station's VO frame waits for its next BE A-MPDU and rides at its head;
//! every frame is delivered once and in order per TID, a rider that fails is retried
//! in VO's own PPDUs, a wait ends at `max_wait`, and a station without BE frames queued
//! sends its VO frames at once.

use super::*;
use crate::mac::frame::Ppdu;
use airq::aggregate::QosAggregateParams;
use std::collections::BTreeMap;

fn with_qos(name: &str) -> ApConfig {
    let mut c = preset(name);
    c.aggregation.qos = Some(QosAggregateParams::default());
    c
}

/// 64 BE packets to one HT MCS7 station, then one VO packet: the BE ones fill the two
/// A-MPDUs of the hardware queue and leave more queued in FQ-MAC (a carrier coming).
fn be_backlog_then_vo(config: &ApConfig) -> (ApTx, Source, TxOutput) {
    let mut ap = ap(config, &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    for _ in 0..64 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), Instant::ZERO, &mut out)
        .unwrap();
    ap.assert_invariants(0);
    (ap, src, out)
}

/// Each TID's acknowledged sequence numbers rise, and no packet is acknowledged twice.
fn delivered_once_in_order(out: &TxOutput) -> BTreeMap<u8, Vec<u64>> {
    let mut per_tid: BTreeMap<u8, Vec<u64>> = BTreeMap::new();
    let mut ids = std::collections::BTreeSet::new();
    for (seq, p) in &out.acked {
        assert!(ids.insert(p.id), "packet {} delivered twice", p.id);
        per_tid.entry(p.tid.get()).or_default().push(*seq);
    }
    for (tid, seqs) in &per_tid {
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "TID {tid}: {seqs:?}");
    }
    per_tid
}

/// Takes the next PPDU of `ac` without completing it.
fn peek(ap: &mut ApTx, ac: Ac, now: Instant) -> Option<Ppdu> {
    if ap.has_frames(ac) {
        ap.next_ppdu(ac, now)
    } else {
        None
    }
}

#[test]
fn a_vo_frame_rides_at_the_head_of_the_next_be_ampdu() {
    for name in ["airtime", "fq_mac", "airtime_aql"] {
        let (mut ap, _, mut out) = be_backlog_then_vo(&with_qos(name));
        assert!(!ap.has_frames(Ac::Vo), "{name}: the VO frame waits");
        let mut now = Instant::ZERO;
        // The two A-MPDUs built before it carry none; the next one does.
        let mut carried_in = None;
        for i in 0..3 {
            let mut ppdu = peek(&mut ap, Ac::Be, now).expect("a BE A-MPDU");
            let vo: Vec<usize> = (ppdu.mpdus.iter().enumerate())
                .filter(|(_, m)| m.packet.tid.ac() == Ac::Vo)
                .map(|(i, _)| i)
                .collect();
            if !vo.is_empty() {
                assert_eq!(vo, [0], "{name}: at the head");
                assert_eq!((ppdu.tid, ppdu.ac), (tid(0), Ac::Be), "{name}");
                assert!(ppdu.aggregate && ppdu.mpdus.len() > 1, "{name}");
                carried_in = Some(i);
            }
            for m in &mut ppdu.mpdus {
                m.ok = true;
            }
            let d = ppdu.duration;
            now += d;
            ap.tx_done_into(ppdu, d, now, &mut out);
            now += ap.config().host_latency;
            ap.handle_timeout_into(now, &mut out);
            assert!(!ap.has_frames(Ac::Vo), "{name}: no VO TXOP");
            ap.assert_invariants(0);
        }
        assert_eq!(carried_in, Some(2), "{name}");
        let s = ap.qos_aggregate_stats().unwrap();
        assert_eq!(
            (
                s.combined_aggregates,
                s.vo_frames_combined,
                s.vo_txops_saved
            ),
            (1, 1, 1),
            "{name}"
        );
        drain(&mut ap, &mut now, &mut out);
        let per_tid = delivered_once_in_order(&out);
        assert_eq!(per_tid[&6], [0], "{name}");
        assert_eq!(per_tid[&0].len(), 64, "{name}");
        conserved(&ap);
        ap.assert_invariants(0);
    }
}

#[test]
fn in_station_first_mode_the_held_vo_txq_lets_the_carrier_be_picked() {
    let mut c = with_qos("airtime");
    if let super::super::config::SchedulerConfig::Airtime(p) = &mut c.scheduler {
        p.mode = airq::airtime::SchedulingMode::StationFirst;
    }
    let (mut ap, _, mut out) = be_backlog_then_vo(&c);
    assert!(!ap.has_frames(Ac::Vo), "the VO frame waits");
    let mut now = Instant::ZERO;
    drain(&mut ap, &mut now, &mut out);
    let s = ap.qos_aggregate_stats().unwrap();
    assert_eq!((s.combined_aggregates, s.own_txop_waited), (1, 0), "{s:?}");
    let per_tid = delivered_once_in_order(&out);
    assert_eq!(per_tid[&6], [0]);
    assert_eq!(per_tid[&0].len(), 64);
    conserved(&ap);
    ap.assert_invariants(0);
}

#[test]
fn a_rider_that_fails_is_retried_in_its_own_tid() {
    let (mut ap, _, mut out) = be_backlog_then_vo(&with_qos("airtime"));
    let mut now = Instant::ZERO;
    for _ in 0..2 {
        transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| false).unwrap();
    }
    // The third A-MPDU carries the VO frame at index 0: it fails, the rest arrive.
    transmit(&mut ap, Ac::Be, &mut now, &mut out, |i| i == 0).unwrap();
    assert_eq!(ap.qos_aggregate_stats().unwrap().combined_aggregates, 1);
    let mut retried = peek(&mut ap, Ac::Vo, now).expect("a VO PPDU of its retry");
    assert_eq!(retried.tid, tid(6));
    assert_eq!(retried.mpdus.len(), 1);
    assert_eq!((retried.mpdus[0].seq, retried.mpdus[0].retries), (0, 1));
    retried.mpdus[0].ok = true;
    let d = retried.duration;
    now += d;
    ap.tx_done_into(retried, d, now, &mut out);
    drain(&mut ap, &mut now, &mut out);
    let per_tid = delivered_once_in_order(&out);
    assert_eq!(per_tid[&6], [0]);
    assert_eq!(per_tid[&0].len(), 64);
    conserved(&ap);
    ap.assert_invariants(0);
}

#[test]
fn a_wait_ends_at_max_wait() {
    let (mut ap, _, mut out) = be_backlog_then_vo(&with_qos("airtime"));
    // Nothing goes on the air: the carrier never comes.
    let max_wait = QosAggregateParams::default().max_wait;
    let due = ap.poll_at(Instant::ZERO).expect("the wait's end");
    assert_eq!(due, Instant::ZERO + max_wait);
    ap.handle_timeout_into(due, &mut out);
    let ppdu = peek(&mut ap, Ac::Vo, due).expect("its own VO TXOP");
    assert_eq!(ppdu.tid, tid(6));
    let s = ap.qos_aggregate_stats().unwrap();
    assert_eq!((s.own_txop_waited, s.combined_aggregates), (1, 0));
    assert_eq!(
        ap.poll_at(due).filter(|&t| t <= due),
        None,
        "nothing due again"
    );
}

#[test]
fn without_a_carrier_or_with_it_off_vo_goes_at_once() {
    let mut ap = ap(&with_qos("airtime"), &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), Instant::ZERO, &mut out)
        .unwrap();
    assert!(ap.has_frames(Ac::Vo), "no BE frames queued: no carrier");
    let (mut off, _, mut out) = be_backlog_then_vo(&preset("airtime"));
    assert!(off.has_frames(Ac::Vo));
    assert!(off.qos_aggregate_stats().is_none());
    let mut now = Instant::ZERO;
    drain(&mut off, &mut now, &mut out);
    assert!(out
        .acked
        .iter()
        .all(|(_, p)| p.tid != tid(6) || p.len_bytes == 200));
}

#[test]
fn too_many_vo_frames_or_contenders_keep_vo_txops() {
    // Three VO frames (more than max_vo_frames 2): their own TXOP.
    let mut ap = ap(&with_qos("airtime"), &[ht_link()]);
    let (mut src, mut out) = (Source::default(), TxOutput::default());
    for _ in 0..64 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    // The first two wait for the carrier; with the third the VO queue is too long.
    for _ in 0..3 {
        ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), Instant::ZERO, &mut out)
            .unwrap();
    }
    assert!(ap.has_frames(Ac::Vo));
    assert_eq!(ap.qos_aggregate_stats().unwrap().own_txop_occupancy, 1);
    // Five stations heard transmitting (more than max_contenders 4).
    let links = vec![ht_link(); 5];
    let mut ap = ap_with(&with_qos("airtime"), &links);
    let mut out = TxOutput::default();
    for s in 0..5 {
        ap.register_rx_airtime(
            StationId(s),
            tid(0),
            Duration::from_micros(100),
            Instant::ZERO,
        )
        .unwrap();
    }
    for _ in 0..64 {
        ap.enqueue_into(
            src.packet(StationId(0), 0, 1, 1500),
            Instant::ZERO,
            &mut out,
        )
        .unwrap();
    }
    ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), Instant::ZERO, &mut out)
        .unwrap();
    assert!(ap.has_frames(Ac::Vo));
    assert_eq!(ap.qos_aggregate_stats().unwrap().own_txop_contention, 1);
}

fn ap_with(config: &ApConfig, links: &[StationLink]) -> ApTx {
    ApTx::new(config, &bss(), links).unwrap()
}

#[test]
fn refused_without_softmac_or_fq_mac() {
    let mut legacy = preset("fifo");
    legacy.aggregation.qos = Some(QosAggregateParams::default());
    let why = ApTx::new(&legacy, &bss(), &[ht_link()]).err().unwrap();
    assert!(why.to_string().contains("fq_mac"), "{why}");
    let mut firmware = with_qos("airtime");
    firmware = firmware.with_driver(super::super::config::DriverConfig::firmware_push());
    let why = ApTx::new(&firmware, &bss(), &[ht_link()]).err().unwrap();
    assert!(why.to_string().contains("softmac"), "{why}");
}
