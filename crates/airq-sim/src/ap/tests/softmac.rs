//! The softmac driver: its hardware-queue depth, retries and the retry limit.

use super::*;

#[test]
fn softmac_keeps_at_most_two_aggregates_per_ac_queued() {
    let links: Vec<_> = (0..6)
        .map(|i| if i % 2 == 0 { ht_link() } else { fast_link() })
        .collect();
    for name in ["fifo", "fq_codel", "fq_mac", "airtime"] {
        let mut ap = ap(&preset(name), &links);
        let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
        let mut saw_two = false;
        for round in 0..400u32 {
            for s in (0..6).map(StationId) {
                ap.enqueue_into(src.packet(s, 0, round % 3, 1500), now, &mut out)
                    .unwrap();
            }
            assert!(ap.hw_ampdus(Ac::Be) <= 2, "{name}");
            saw_two |= ap.hw_ampdus(Ac::Be) == 2;
            if round % 2 == 0 {
                transmit(&mut ap, Ac::Be, &mut now, &mut out, |i| i % 5 == 1);
                assert!(ap.hw_ampdus(Ac::Be) <= 2, "{name}");
            }
        }
        assert!(saw_two, "{name}: the hardware queue is kept two deep");
        ap.assert_invariants(0);
    }
}

#[test]
fn failed_mpdus_are_retried_first() {
    let mut ap = ap(&preset("fq_mac"), &[ht_link()]);
    let (mut src, mut out, now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    for _ in 0..5 {
        ap.enqueue_into(src.packet(StationId(0), 0, 1, 1500), now, &mut out)
            .unwrap();
    }
    // The first two packets each went into an aggregate as they arrived.
    let mut first = ap.next_ppdu(Ac::Be, now).unwrap();
    assert_eq!(first.mpdus.len(), 1);
    first.mpdus[0].ok = false;
    let d = first.duration;
    ap.tx_done_into(first, d, now + d, &mut out);
    // The TX tasklet refills one host latency later.
    let refill = now + d + ap.config().host_latency;
    wake_due(&mut ap, refill, &mut out);
    // Then the queued second aggregate, then the retry ahead of the new packets.
    let second = ap.next_ppdu(Ac::Be, now).unwrap();
    assert_eq!(second.mpdus[0].seq, 1);
    let third = ap.next_ppdu(Ac::Be, now).unwrap();
    let seqs: Vec<u64> = third.mpdus.iter().map(|m| m.seq).collect();
    assert_eq!(seqs, [0, 2, 3, 4]);
    assert_eq!(third.mpdus[0].retries, 1);
    assert_eq!(ap.station_stats(StationId(0)).unwrap().retries, 1);
    ap.assert_invariants(second.mpdus.len() + third.mpdus.len());
}

#[test]
fn mpdus_are_dropped_at_the_bss_retry_limit() {
    for name in PRESET_NAMES {
        let mut ap = ap(&preset(name), &[ht_link()]);
        let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
        ap.enqueue_into(src.packet(StationId(0), 0, 1, 1500), now, &mut out)
            .unwrap();
        let mut transmissions = 0;
        while transmit(&mut ap, Ac::Be, &mut now, &mut out, |_| true).is_some() {
            transmissions += 1;
        }
        // An HT link aggregates even one MPDU: ath9k's software retry limit applies,
        // 1 + ATH_MAX_SW_RETRIES transmissions.
        let limit = bss().ampdu_retry_limit;
        assert_eq!(limit, 31);
        assert_eq!(transmissions, limit, "{name}");
        let s = ap.station_stats(StationId(0)).unwrap();
        assert_eq!(s.drops.get(DropCause::RetryLimit), 1, "{name}");
        assert_eq!(s.retries, u64::from(limit) - 1, "{name}");
        assert_eq!(s.mpdu_transmissions, u64::from(limit), "{name}");
        assert_eq!(out.dropped.len(), 1);
        assert_eq!(ap.backlog().total().packets(), 0, "{name}");
        if let Some(aql) = ap.aql() {
            assert_eq!(aql.total_pending_us(), 0, "{name}: released at the drop");
        }
    }
}
