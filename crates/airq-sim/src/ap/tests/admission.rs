//! Soft admission control in the transmit path ([`super::super::soft_admission`]): a VO
//! flow that keeps a standing queue has its next packets queued at its station's BE
//! TXQ; every packet stays accounted, through the qdisc too; it needs FQ-MAC.

use super::*;
use airq::admission::AdmissionParams;

fn with_admission(mut c: ApConfig) -> ApConfig {
    c.admission = Some(AdmissionParams::default());
    c
}

/// 300 VO packets of flow 1 to a 6.5 Mbit/s station at once, then VO only is sent for
/// 300 ms: the flow's queue stands far above 5 ms for more than 100 ms.
fn standing_vo_queue(config: &ApConfig) -> (ApTx, Source, Instant, TxOutput) {
    let mut ap = ap(config, &[slow_link()]);
    let (mut src, mut out, mut now) = (Source::default(), TxOutput::default(), Instant::ZERO);
    for _ in 0..300 {
        let p = src.packet(StationId(0), 6, 1, 1500);
        ap.enqueue_into(p, now, &mut out).unwrap();
    }
    ap.assert_invariants(0);
    while now < Instant::from_millis(300) {
        if transmit(&mut ap, Ac::Vo, &mut now, &mut out, |_| false).is_none() {
            break;
        }
        ap.assert_invariants(0);
    }
    (ap, src, now, out)
}

#[test]
fn a_flow_with_a_standing_vo_queue_goes_to_be_and_a_sparse_one_stays() {
    for name in ["airtime", "fq_mac", "airtime_aql"] {
        let config = with_admission(preset(name));
        let (mut ap, mut src, mut now, mut out) = standing_vo_queue(&config);
        let flow = ap.admission_flow(1).unwrap();
        assert_eq!(flow.demotions, 1, "{name}");
        let at = flow.first_demotion.unwrap();
        assert!(at >= Instant::from_millis(100), "{name}: {at:?}");
        let be_before = ap.backlog().ac[Ac::Be.index()].packets();
        let vo_before = ap.backlog().ac[Ac::Vo.index()].packets();
        for _ in 0..10 {
            ap.enqueue_into(src.packet(StationId(0), 6, 1, 1500), now, &mut out)
                .unwrap();
        }
        // Queued in any layer (the driver may take some at once). Another VO flow, one small packet: not demoted.
        ap.enqueue_into(src.packet(StationId(0), 6, 2, 200), now, &mut out)
            .unwrap();
        let b = ap.backlog();
        assert_eq!(b.ac[Ac::Be.index()].packets(), be_before + 10, "{name}");
        assert_eq!(b.ac[Ac::Vo.index()].packets(), vo_before + 1, "{name}");
        assert_eq!(ap.admission_flow(1).unwrap().demoted_packets, 10);
        assert_eq!(ap.admission_flow(2).unwrap().demoted_packets, 0);
        assert_eq!(ap.admission_station(StationId(0)).unwrap().demotions, 1);
        ap.assert_invariants(0);
        drain(&mut ap, &mut now, &mut out);
        ap.assert_invariants(0);
        conserved(&ap);
        let (stats, _) = ap.admission_stats().unwrap();
        assert_eq!(stats.backlog_packets, 0, "{name}: every packet left");
        assert_eq!(stats.underflows, 0);
    }
}

#[test]
fn the_accounting_holds_through_a_qdisc_and_its_drops() {
    let mut config = with_admission(preset("airtime"));
    config.qdisc = QdiscConfig::PfifoFast { limit_packets: 50 };
    let (mut ap, _, mut now, mut out) = standing_vo_queue(&config);
    assert!(ap.total_stats().drops.total() > 0, "the qdisc dropped");
    ap.assert_invariants(0);
    drain(&mut ap, &mut now, &mut out);
    ap.assert_invariants(0);
    assert_eq!(ap.admission_stats().unwrap().0.backlog_packets, 0);
}

#[test]
fn off_by_default_and_refused_without_fq_mac() {
    let ap = ap(&preset("airtime"), &[slow_link()]);
    assert!(ap.admission_stats().is_none());
    let e = ApTx::new(&with_admission(preset("fifo")), &bss(), &[slow_link()])
        .err()
        .unwrap();
    assert!(e.to_string().contains("admission needs mac fq_mac"), "{e}");
}
