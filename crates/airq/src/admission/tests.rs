//! Each transition of soft admission control, and a random driver holding its
//! accounting to the buckets.

use super::*;
use proptest::prelude::*;
use std::string::ToString;
use std::vec::Vec;

const VO: u8 = 6;
const BE: u8 = 0;
const MS: u64 = 1_000_000;

fn tid(t: u8) -> Tid {
    Tid::new(t).unwrap()
}

fn at(ms: u64) -> Instant {
    Instant::from_nanos(ms * MS)
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn admission() -> Admission {
    Admission::new(AdmissionParams::default()).unwrap()
}

/// A bulk flow marked `mark` keeping `depth` packets of 1500 bytes queued, each leaving
/// after `sojourn_ms`, one per millisecond from `from_ms` to `to_ms`; the events.
fn bulk(
    a: &mut Admission,
    hash: u32,
    mark: u8,
    depth: u32,
    sojourn_ms: u64,
    from_ms: u64,
    to_ms: u64,
) -> Vec<(u64, AdmissionEvent)> {
    let mut events = Vec::new();
    while a.flow(hash).backlog_packets < depth {
        a.admit(hash, 1500, tid(mark), at(from_ms));
    }
    for t in from_ms..to_ms {
        if let Some(e) = a.admit(hash, 1500, tid(mark), at(t)).event {
            events.push((t, e));
        }
        if let Some(e) = a.dequeued(hash, 1500, ms(sojourn_ms), at(t)) {
            events.push((t, e));
        }
        a.assert_invariants();
    }
    events
}

mod admitted {
    use super::*;

    #[test]
    fn a_new_flow_keeps_its_mark() {
        let mut a = admission();
        for mark in 0..8 {
            let r = a.admit(mark.into(), 100, tid(mark), at(0));
            assert_eq!((r.tid, r.demoted, r.event), (tid(mark), false, None));
        }
        assert_eq!(a.stats().priority_packets, 4, "TIDs 4-7 are VI and VO");
        a.assert_invariants();
    }

    #[test]
    fn a_standing_queue_for_one_interval_demotes_the_flow() {
        let mut a = admission();
        let events = bulk(&mut a, 7, VO, 10, 6, 0, 300);
        // Above target from t = 0: demoted at the dequeue of t = 100 ms.
        assert_eq!(events, [(100, AdmissionEvent::Demoted)]);
        let r = a.admit(7, 1500, tid(VO), at(300));
        assert_eq!((r.tid, r.demoted), (tid(BE), true));
        let s = a.stats();
        assert_eq!((s.demotions, s.flows_demoted), (1, 1));
        assert_eq!(a.flow(7).demotions, 1);
        assert!(s.demoted_packets >= 200);
    }

    #[test]
    fn one_packet_below_target_restarts_the_interval() {
        let mut a = admission();
        bulk(&mut a, 7, VO, 10, 6, 0, 90);
        a.admit(7, 1500, tid(VO), at(90));
        assert_eq!(a.dequeued(7, 1500, ms(4), at(90)), None);
        assert_eq!(a.flow(7).first_above, None);
        let events = bulk(&mut a, 7, VO, 10, 6, 91, 300);
        assert_eq!(events, [(191, AdmissionEvent::Demoted)]);
    }

    #[test]
    fn a_sparse_flow_is_never_above_target_however_long_it_waits() {
        // One 200-byte VoIP packet at a time, each held 50 ms by the medium.
        let mut a = admission();
        for t in (0..5000).step_by(20) {
            let r = a.admit(9, 200, tid(VO), at(t));
            assert_eq!(r.tid, tid(VO));
            assert_eq!(a.dequeued(9, 200, ms(50), at(t + 19)), None);
        }
        assert_eq!(a.stats().demotions, 0);
    }

    #[test]
    fn a_flow_marked_be_is_never_demoted() {
        let mut a = admission();
        let events = bulk(&mut a, 3, BE, 50, 30, 0, 1000);
        assert!(events.is_empty());
        assert_eq!(a.stats().demotions, 0);
    }
}

mod demoted {
    use super::*;

    #[test]
    fn it_stays_demoted_while_it_builds_a_queue_in_the_demotion_class() {
        let mut a = admission();
        let events = bulk(&mut a, 7, VO, 10, 6, 0, 5000);
        assert_eq!(events, [(100, AdmissionEvent::Demoted)]);
    }

    #[test]
    fn it_is_promoted_after_promote_after_without_a_standing_queue() {
        let mut a = admission();
        bulk(&mut a, 7, VO, 10, 6, 0, 200);
        // Its queue drains at 1 ms sojourn; the last packet above target left at 199.
        let events = bulk(&mut a, 7, VO, 10, 1, 200, 1500);
        assert_eq!(events, [(1199, AdmissionEvent::Promoted)]);
        let s = a.stats();
        assert_eq!((s.demotions, s.promotions, s.flows_demoted), (1, 1, 0));
        assert_eq!(a.admit(7, 1500, tid(VO), at(1500)).tid, tid(VO));
    }

    #[test]
    fn an_idle_flow_is_promoted_at_its_next_packet() {
        let mut a = admission();
        bulk(&mut a, 7, VO, 1, 6, 0, 0);
        bulk(&mut a, 7, VO, 10, 6, 0, 200);
        while a.flow(7).backlog_packets > 0 {
            a.dequeued(7, 1500, ms(6), at(200));
        }
        assert!(a.flow(7).demoted);
        let early = a.admit(7, 1500, tid(VO), at(1100));
        assert_eq!((early.tid, early.event), (tid(BE), None));
        let r = a.admit(7, 1500, tid(VO), at(1300));
        assert_eq!(
            (r.tid, r.demoted, r.event),
            (tid(VO), false, Some(AdmissionEvent::Promoted))
        );
        a.assert_invariants();
    }

    #[test]
    fn its_be_marked_packets_are_not_counted_as_demoted() {
        let mut a = admission();
        bulk(&mut a, 7, VO, 10, 6, 0, 200);
        let before = a.stats().demoted_packets;
        let r = a.admit(7, 1500, tid(BE), at(200));
        assert_eq!((r.tid, r.demoted), (tid(BE), false));
        assert_eq!(a.stats().demoted_packets, before);
    }

    #[test]
    fn demotion_to_bk_uses_tid_1() {
        let mut a = Admission::new(AdmissionParams {
            demote_to: Ac::Bk,
            ..AdmissionParams::default()
        })
        .unwrap();
        bulk(&mut a, 7, 5, 10, 6, 0, 200);
        assert_eq!(a.admit(7, 1500, tid(5), at(200)).tid, tid(1));
    }
}

mod contract {
    use super::*;

    #[test]
    fn a_dequeue_without_backlog_is_counted_and_changes_nothing_else() {
        let mut a = admission();
        assert_eq!(a.dequeued(1, 100, ms(50), at(0)), None);
        a.admit(1, 100, tid(VO), at(0));
        a.dropped(1, 5000);
        let s = a.stats();
        assert_eq!((s.underflows, s.backlog_packets), (2, 0));
        assert_eq!(a.flow(1).backlog_bytes, 0);
        a.assert_invariants();
    }

    #[test]
    fn bad_parameters_are_refused() {
        let e = Admission::new(AdmissionParams {
            flows: 0,
            ..AdmissionParams::default()
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "admission flows must be 1 to 2^20");
    }
}

#[derive(Clone, Debug)]
enum Op {
    Admit { flow: u8, tid: u8, len: u16 },
    Dequeue { flow: u8, sojourn_ms: u8 },
    Drop { flow: u8 },
    Wait { ms: u16 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..6u8, 0..8u8, 1..3000u16).prop_map(|(flow, tid, len)| Op::Admit { flow, tid, len }),
        3 => (0..6u8, 0..20u8).prop_map(|(flow, sojourn_ms)| Op::Dequeue { flow, sojourn_ms }),
        1 => (0..6u8).prop_map(|flow| Op::Drop { flow }),
        1 => (0..1500u16).prop_map(|ms| Op::Wait { ms }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::proptest_cases(256), ..ProptestConfig::default() })]

    /// Every packet admitted is dequeued, dropped or still in its bucket's backlog; the
    /// counters are the buckets' sums; only VO/VI packets are ever moved, and only to
    /// the demotion TID.
    #[test]
    fn accounting_stays_consistent(ops in proptest::collection::vec(op(), 1..400)) {
        // 4 buckets for 6 flows: collisions are exercised too.
        let mut a = Admission::new(AdmissionParams { flows: 4, ..AdmissionParams::default() }).unwrap();
        let hash = |f: u8| u32::from(f) * 0x2aaa_aaab;
        // Model: the lengths each flow has queued, oldest first.
        let mut queued: [std::collections::VecDeque<u32>; 6] = Default::default();
        let (mut now, mut admitted, mut left) = (0u64, 0u64, 0u64);
        for op in ops {
            match op {
                Op::Admit { flow, tid: t, len } => {
                    let r = a.admit(hash(flow), len.into(), tid(t), at(now));
                    if r.demoted {
                        prop_assert!(matches!(tid(t).ac(), Ac::Vo | Ac::Vi));
                        prop_assert_eq!(r.tid, a.params().demoted_tid());
                    } else {
                        prop_assert_eq!(r.tid, tid(t));
                    }
                    queued[usize::from(flow)].push_back(len.into());
                    admitted += 1;
                }
                Op::Dequeue { flow, sojourn_ms } => {
                    if let Some(len) = queued[usize::from(flow)].pop_front() {
                        a.dequeued(hash(flow), len, ms(sojourn_ms.into()), at(now));
                        left += 1;
                    }
                }
                Op::Drop { flow } => {
                    if let Some(len) = queued[usize::from(flow)].pop_back() {
                        a.dropped(hash(flow), len);
                        left += 1;
                    }
                }
                Op::Wait { ms } => now += u64::from(ms),
            }
            a.assert_invariants();
            let s = a.stats();
            prop_assert_eq!(s.underflows, 0);
            prop_assert_eq!(s.backlog_packets, admitted - left);
            prop_assert_eq!(s.admitted_packets, admitted);
        }
    }
}
