//! Unit tests of the FQ-MAC structure, grouped by behaviour: classification and
//! collisions, DRR++ fairness, new-flow priority, global limits, purge and filter,
//! statistics and contract errors.

use super::*;
use crate::codel::CodelParams;
use crate::packet::{Ecn, SimplePacket};
use crate::time::{Duration, Instant};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// A hash that maps to pool flow `idx` of a pool of `flows` (inverse of reciprocal_scale).
fn hash_for(idx: u32, flows: u32) -> u32 {
    (u64::from(idx) << 32).div_ceil(u64::from(flows)) as u32
}

/// An Fq with small, easy numbers and CoDel effectively off (huge target), plus a
/// recorder of drops.
struct Fixture {
    fq: Fq<SimplePacket>,
    drops: Vec<Dropped<SimplePacket>>,
    next_id: u64,
}

fn fixture(params: FqParams) -> Fixture {
    Fixture {
        fq: Fq::new(params).unwrap(),
        drops: Vec::new(),
        next_id: 0,
    }
}

fn no_codel(flows: u32) -> FqParams {
    FqParams {
        flows,
        codel: CodelParams {
            target: Duration::from_secs(10),
            interval: Duration::from_secs(100),
            ..CodelParams::mac80211()
        },
        ..FqParams::default()
    }
}

impl Fixture {
    fn push(&mut self, tin: TinId, flow_idx: u32, len: u32, now: Instant) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let hash = hash_for(flow_idx, self.fq.params().flows);
        let drops = &mut self.drops;
        self.fq
            .enqueue(tin, SimplePacket::new(id, hash, len), now, |d| {
                drops.push(d)
            })
            .unwrap();
        self.fq.assert_invariants();
        id
    }

    fn pop(&mut self, tin: TinId, now: Instant) -> Option<SimplePacket> {
        let drops = &mut self.drops;
        let p = self.fq.dequeue(tin, now, |d| drops.push(d)).unwrap();
        self.fq.assert_invariants();
        p
    }

    /// Flow index of each dequeued packet, in order, until `n` packets or empty.
    fn pop_flows(&mut self, tin: TinId, n: usize) -> Vec<u32> {
        let packets: Vec<SimplePacket> =
            (0..n).map_while(|_| self.pop(tin, Instant::ZERO)).collect();
        packets
            .iter()
            .map(|p| self.fq.flow_for_hash(p.flow_hash).0)
            .collect()
    }
}

#[test]
fn hash_scales_onto_the_pool() {
    let f = fixture(no_codel(4096));
    assert_eq!(f.fq.flow_for_hash(0), FlowId(0));
    assert_eq!(f.fq.flow_for_hash(u32::MAX), FlowId(4095));
    assert_eq!(f.fq.flow_for_hash(1 << 31), FlowId(2048));
    for idx in [0, 1, 17, 4095] {
        assert_eq!(f.fq.flow_for_hash(hash_for(idx, 4096)), FlowId(idx));
    }
}

#[test]
fn collision_goes_to_the_overflow_queue() {
    let mut f = fixture(no_codel(64));
    let a = f.fq.add_tin();
    let b = f.fq.add_tin();
    f.push(a, 5, 100, Instant::ZERO);
    // Same pool queue, other tin: it is bound to `a`, so this goes to b's default flow.
    f.push(b, 5, 100, Instant::ZERO);
    let pool = f.fq.flow_info(FlowId(5)).unwrap();
    assert_eq!(pool.tin, Some(a));
    assert_eq!(pool.backlog_packets, 1);
    let default_b = f.fq.default_flow(b).unwrap();
    assert_eq!(f.fq.flow_info(default_b).unwrap().backlog_packets, 1);
    assert_eq!(f.fq.tin_stats(b).unwrap().collisions, 1);
    assert_eq!(f.fq.tin_stats(a).unwrap().collisions, 0);
    assert_eq!(f.fq.stats().collisions, 1);
    // Once a's flow drains and leaves the lists, the queue is free for b again.
    assert!(f.pop(a, Instant::ZERO).is_some());
    assert!(f.pop(a, Instant::ZERO).is_none());
    assert_eq!(f.fq.flow_info(FlowId(5)).unwrap().tin, None);
    f.push(b, 5, 100, Instant::ZERO);
    assert_eq!(f.fq.flow_info(FlowId(5)).unwrap().tin, Some(b));
    assert_eq!(f.fq.tin_stats(b).unwrap().collisions, 1);
}

#[test]
fn same_tin_flows_sharing_a_queue_are_not_collisions() {
    let mut f = fixture(no_codel(64));
    let a = f.fq.add_tin();
    f.push(a, 9, 100, Instant::ZERO);
    f.push(a, 9, 100, Instant::ZERO);
    assert_eq!(f.fq.tin_stats(a).unwrap().collisions, 0);
    assert_eq!(f.fq.tin_stats(a).unwrap().flows, 1);
}

#[test]
fn drr_gives_byte_fairness_between_packet_sizes() {
    // Flow 1 sends 1500-byte packets, flow 2 300-byte packets, both backlogged: over
    // many rounds each gets the same bytes, within one quantum plus one packet.
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    for _ in 0..200 {
        f.push(t, 1, 1500, Instant::ZERO);
    }
    for _ in 0..1000 {
        f.push(t, 2, 300, Instant::ZERO);
    }
    let mut bytes = BTreeMap::<u32, u64>::new();
    let mut max_gap = 0i64;
    for _ in 0..600 {
        let p = f.pop(t, Instant::ZERO).unwrap();
        *bytes.entry(f.fq.flow_for_hash(p.flow_hash).0).or_default() += u64::from(p.len_bytes);
        let gap =
            bytes.get(&1).copied().unwrap_or(0) as i64 - bytes.get(&2).copied().unwrap_or(0) as i64;
        max_gap = max_gap.max(gap.abs());
    }
    assert!(max_gap <= 300 + 1500, "byte gap {max_gap}");
    let (b1, b2) = (bytes[&1], bytes[&2]);
    assert!(b1.abs_diff(b2) <= 1500, "{b1} vs {b2}");
}

#[test]
fn frame_quantum_counts_frames_not_bytes() {
    // Kan Yan's frame-based quantum: a flow of 1500-byte data packets and a flow of
    // 64-byte ACKs get the same number of frames.
    let mut f = fixture(FqParams {
        quantum: Quantum::Frames(1),
        ..no_codel(64)
    });
    let t = f.fq.add_tin();
    for _ in 0..100 {
        f.push(t, 1, 1500, Instant::ZERO);
        f.push(t, 2, 64, Instant::ZERO);
    }
    let order = f.pop_flows(t, 100);
    let ones = order.iter().filter(|&&x| x == 1).count();
    assert_eq!(ones, 50);
    // Strict alternation with a quantum of one frame.
    assert!(order.windows(2).all(|w| w[0] != w[1]), "{order:?}");
}

#[test]
fn byte_quantum_favours_small_packets_in_frames() {
    // The same traffic with the byte quantum: the ACK flow sends ~23 frames per data frame.
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    for _ in 0..100 {
        f.push(t, 1, 1500, Instant::ZERO);
    }
    for _ in 0..1000 {
        f.push(t, 2, 64, Instant::ZERO);
    }
    let order = f.pop_flows(t, 240);
    let data = order.iter().filter(|&&x| x == 1).count();
    assert!((9..=11).contains(&data), "data frames {data} of 240");
}

#[test]
fn per_tin_quantum_override() {
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    f.fq.set_tin_quantum(t, Some(Quantum::Frames(1))).unwrap();
    for _ in 0..10 {
        f.push(t, 1, 1500, Instant::ZERO);
        f.push(t, 2, 64, Instant::ZERO);
    }
    let order = f.pop_flows(t, 10);
    assert!(order.windows(2).all(|w| w[0] != w[1]), "{order:?}");
    assert!(matches!(
        f.fq.set_tin_quantum(t, Some(Quantum::Bytes(0))),
        Err(FqError::Param(FqParamError::QuantumOutOfRange(_)))
    ));
}

#[test]
fn sparse_flow_gets_new_flow_priority() {
    // A bulk flow is backlogged; a ping-like packet of a new flow arrives and is the
    // very next packet out.
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    for _ in 0..50 {
        f.push(t, 1, 1500, Instant::ZERO);
    }
    for _ in 0..3 {
        f.pop(t, Instant::ZERO);
    }
    let ping = f.push(t, 7, 84, Instant::ZERO);
    assert_eq!(f.pop(t, Instant::ZERO).unwrap().id, ping);
    // Its flow, now empty, passes once through the old list before it is released.
    assert!(f.fq.tin_flows(t).unwrap().any(|id| id == FlowId(7)));
    f.pop(t, Instant::ZERO);
    f.pop(t, Instant::ZERO);
    assert!(!f.fq.tin_flows(t).unwrap().any(|id| id == FlowId(7)));
    assert_eq!(f.fq.flow_info(FlowId(7)).unwrap().tin, None);
}

#[test]
fn flow_that_used_its_quantum_is_not_new_again() {
    // A flow that sends more than one quantum in one go becomes old: a flow arriving
    // later is served before its second packet.
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    f.push(t, 1, 1500, Instant::ZERO);
    f.push(t, 1, 1500, Instant::ZERO);
    assert_eq!(f.pop_flows(t, 1), [1]);
    f.push(t, 2, 100, Instant::ZERO);
    assert_eq!(f.pop_flows(t, 2), [2, 1]);
}

#[test]
fn global_limit_drops_from_the_fattest_flow_of_another_tin() {
    let mut f = fixture(FqParams {
        limit_packets: 100,
        ..no_codel(64)
    });
    let fat = f.fq.add_tin();
    let thin = f.fq.add_tin();
    for _ in 0..90 {
        f.push(fat, 3, 1000, Instant::ZERO);
    }
    for _ in 0..10 {
        f.push(thin, 4, 100, Instant::ZERO);
    }
    assert!(f.drops.is_empty());
    // One more packet to the thin tin: the fat flow of the other tin pays, with a
    // batch of min(32, 90/2) = 32 head packets.
    f.push(thin, 4, 100, Instant::ZERO);
    assert_eq!(f.drops.len(), 32);
    assert!(f
        .drops
        .iter()
        .all(|d| d.tin == fat && d.reason == DropReason::Overlimit && d.flow == FlowId(3)));
    let ids: Vec<u64> = f.drops.iter().map(|d| d.packet.id).collect();
    assert_eq!(ids, (0..32).collect::<Vec<_>>(), "head drop, oldest first");
    assert_eq!(f.fq.tin_stats(thin).unwrap().backlog_packets, 11);
    let fat_stats = f.fq.tin_stats(fat).unwrap();
    assert_eq!((fat_stats.overlimit, fat_stats.limit_drops), (1, 32));
    let s = f.fq.stats();
    assert_eq!((s.overlimit, s.overmemory, s.limit_drops), (1, 0, 32));
    assert_eq!(s.backlog_packets, 69);
}

#[test]
fn fattest_is_by_bytes_and_batch_is_half_a_short_queue() {
    let mut f = fixture(FqParams {
        limit_packets: 10,
        ..no_codel(64)
    });
    let t = f.fq.add_tin();
    for _ in 0..6 {
        f.push(t, 1, 100, Instant::ZERO); // 6 packets, 600 bytes
    }
    for _ in 0..4 {
        f.push(t, 2, 1000, Instant::ZERO); // 4 packets, 4000 bytes: the fattest
    }
    f.push(t, 1, 100, Instant::ZERO);
    assert_eq!(f.drops.len(), 2, "min(32, 4/2)");
    assert!(f.drops.iter().all(|d| d.flow == FlowId(2)));
}

#[test]
fn memory_limit_drops_as_overmemory() {
    let mut f = fixture(FqParams {
        memory_limit_bytes: 10_000,
        ..no_codel(64)
    });
    let t = f.fq.add_tin();
    for _ in 0..10 {
        f.push(t, 1, 1000, Instant::ZERO);
    }
    assert!(f.drops.is_empty());
    f.push(t, 2, 1500, Instant::ZERO);
    // 11 500 bytes > 10 000: flow 1 (10 000 bytes) loses min(32, 5) = 5 packets.
    assert_eq!(f.drops.len(), 5);
    assert!(f.drops.iter().all(|d| d.reason == DropReason::Overmemory));
    let s = f.fq.stats();
    assert_eq!((s.overlimit, s.overmemory), (1, 1));
    assert!(s.memory_usage_bytes <= 10_000);
}

#[test]
fn a_packet_larger_than_the_memory_limit_drops_itself() {
    let mut f = fixture(FqParams {
        memory_limit_bytes: 1000,
        ..no_codel(64)
    });
    let t = f.fq.add_tin();
    let id = f.push(t, 1, 5000, Instant::ZERO);
    assert_eq!(f.drops.len(), 1);
    assert_eq!(f.drops[0].packet.id, id);
    assert_eq!(f.fq.stats().backlog_packets, 0);
}

#[test]
fn codel_drops_are_returned_and_counted_per_tin() {
    // mac80211 CoDel (20 ms / 100 ms), not-ECT packets standing for 300 ms.
    let mut f = fixture(FqParams::default());
    let t = f.fq.add_tin();
    for _ in 0..100 {
        f.push(t, 1, 1500, Instant::ZERO);
    }
    let mut now = Instant::from_millis(30);
    let mut delivered = 0;
    while let Some(_p) = f.pop(t, now) {
        delivered += 1;
        now += Duration::from_millis(5);
    }
    let codel = f.fq.tin_stats(t).unwrap().codel;
    assert!(codel.drop_count > 0);
    assert_eq!(f.drops.len() as u64, codel.drop_count);
    assert!(f
        .drops
        .iter()
        .all(|d| d.reason == DropReason::Codel && d.tin == t));
    assert_eq!(delivered + f.drops.len(), 100);
    assert_eq!(f.fq.stats().codel.drop_count, codel.drop_count);
}

/// A tin with mac80211's lax parameters for slow stations (50 ms / 300 ms, no ECN,
/// `sta_update_codel_params`) beside one with the structure's 20 ms / 100 ms: the same
/// standing queue, sojourns of 30 to 45 ms, is dropped from in the one and not the other.
#[test]
fn a_tins_own_codel_parameters_judge_its_flows() {
    let lax = CodelParams {
        target: Duration::from_millis(50),
        interval: Duration::from_millis(300),
        ecn: false,
        ..CodelParams::mac80211()
    };
    let mut f = fixture(FqParams::default());
    let strict = f.fq.add_tin();
    let slow = f.fq.add_tin();
    f.fq.set_tin_codel(slow, Some(lax)).unwrap();
    assert_eq!(f.fq.tin_codel(slow).unwrap(), lax);
    assert_eq!(f.fq.tin_codel(strict).unwrap(), CodelParams::mac80211());
    let mut now = Instant::ZERO;
    for _ in 0..400 {
        for (tin, flow) in [(strict, 1), (slow, 2)] {
            f.push(tin, flow, 1500, now);
        }
        now += Duration::from_millis(1);
        if now >= Instant::from_millis(40) {
            for tin in [strict, slow] {
                f.pop(tin, now);
            }
        }
    }
    let drops = |tin| f.fq.tin_stats(tin).unwrap().codel.drop_count;
    assert!(drops(strict) > 0, "20 ms target, 40 ms standing queue");
    assert_eq!(drops(slow), 0, "50 ms target");
    // Back to the structure's.
    f.fq.set_tin_codel(slow, None).unwrap();
    assert_eq!(f.fq.tin_codel(slow).unwrap(), CodelParams::mac80211());
    let zero = CodelParams {
        interval: Duration::ZERO,
        ..lax
    };
    assert!(matches!(
        f.fq.set_tin_codel(slow, Some(zero)),
        Err(FqError::Param(_))
    ));
}

#[test]
fn codel_marks_ect_packets_with_mac80211_params() {
    let mut f = fixture(FqParams::default());
    let t = f.fq.add_tin();
    for i in 0..100 {
        let p = SimplePacket::new(i, hash_for(1, 4096), 1500).with_ecn(Ecn::Ect0);
        f.fq.enqueue(t, p, Instant::ZERO, |_| panic!("no limit drop"))
            .unwrap();
    }
    let mut now = Instant::from_millis(30);
    let mut marked = 0;
    while let Some(p) = f.pop(t, now) {
        marked += u32::from(p.ecn == Ecn::Ce);
        now += Duration::from_millis(5);
    }
    assert!(f.drops.is_empty());
    assert!(marked > 0);
    assert_eq!(f.fq.tin_stats(t).unwrap().codel.ecn_mark, u64::from(marked));
}

#[test]
fn purge_returns_everything_and_frees_flows() {
    let mut f = fixture(no_codel(64));
    let a = f.fq.add_tin();
    let b = f.fq.add_tin();
    for i in 0..5 {
        f.push(a, i, 100, Instant::ZERO);
        f.push(b, 10 + i, 100, Instant::ZERO);
    }
    f.push(b, 0, 100, Instant::ZERO); // collision into b's default flow
    let drops = &mut f.drops;
    f.fq.purge(a, |d| drops.push(d)).unwrap();
    f.fq.assert_invariants();
    assert_eq!(f.drops.len(), 5);
    assert!(f
        .drops
        .iter()
        .all(|d| d.reason == DropReason::Purged && d.tin == a));
    assert!(!f.fq.has_queue(a).unwrap());
    assert!(f.fq.has_queue(b).unwrap());
    assert_eq!(f.fq.flow_info(FlowId(0)).unwrap().tin, None);
    assert_eq!(f.fq.tin_flows(a).unwrap().count(), 0);
    assert_eq!(f.fq.stats().backlog_packets, 6);
}

#[test]
fn filter_removes_matching_packets_and_keeps_order() {
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    for _ in 0..6 {
        f.push(t, 1, 100, Instant::ZERO);
    }
    let drops = &mut f.drops;
    f.fq.filter(t, |p| p.id % 2 == 0, |d| drops.push(d))
        .unwrap();
    f.fq.assert_invariants();
    assert_eq!(
        f.drops.iter().map(|d| d.packet.id).collect::<Vec<_>>(),
        [0, 2, 4]
    );
    assert!(f.drops.iter().all(|d| d.reason == DropReason::Filtered));
    let rest: Vec<u64> = (0..3)
        .map(|_| f.pop(t, Instant::ZERO).unwrap().id)
        .collect();
    assert_eq!(rest, [1, 3, 5]);
}

#[test]
fn removed_tin_ids_are_refused_and_slots_reused() {
    let mut f = fixture(no_codel(64));
    let a = f.fq.add_tin();
    f.push(a, 1, 100, Instant::ZERO);
    let drops = &mut f.drops;
    f.fq.remove_tin(a, |d| drops.push(d)).unwrap();
    assert_eq!(f.drops.len(), 1);
    let err =
        f.fq.enqueue(a, SimplePacket::new(99, 0, 10), Instant::ZERO, |_| {})
            .unwrap_err();
    assert_eq!(err.error, FqError::UnknownTin(a));
    assert_eq!(err.packet.id, 99, "the packet comes back");
    assert_eq!(
        f.fq.dequeue(a, Instant::ZERO, |_| {}),
        Err(FqError::UnknownTin(a))
    );
    let b = f.fq.add_tin();
    assert_eq!(b.index(), a.index());
    assert_ne!(b, a);
    assert!(f.fq.tin_stats(b).is_ok());
    assert_eq!(f.fq.tins().collect::<Vec<_>>(), [b]);
    assert_eq!(f.fq.stats().tins, 1);
}

#[test]
fn stats_count_tx_and_flows() {
    let mut f = fixture(no_codel(64));
    let t = f.fq.add_tin();
    f.push(t, 1, 100, Instant::ZERO);
    f.push(t, 2, 200, Instant::ZERO);
    let s = f.fq.tin_stats(t).unwrap();
    assert_eq!((s.backlog_packets, s.backlog_bytes, s.flows), (2, 300, 2));
    f.pop(t, Instant::ZERO);
    f.pop(t, Instant::ZERO);
    let s = f.fq.tin_stats(t).unwrap();
    assert_eq!((s.tx_packets, s.tx_bytes, s.backlog_packets), (2, 300, 0));
    let g = f.fq.stats();
    assert_eq!((g.tx_packets, g.tx_bytes, g.max_flows), (2, 300, 64));
}

#[test]
fn invalid_params_are_refused_with_the_field_named() {
    let bad = FqParams {
        flows: 0,
        ..FqParams::default()
    };
    let err = Fq::<SimplePacket>::new(bad).err().unwrap();
    assert!(alloc::format!("{err}").contains("flows"));
    let mut fq = Fq::<SimplePacket>::new(FqParams::default()).unwrap();
    let err = fq
        .set_params(FqParams {
            flows: 1024,
            ..FqParams::default()
        })
        .unwrap_err();
    assert_eq!(
        err,
        FqParamError::FlowsChanged {
            from: 4096,
            to: 1024
        }
    );
    assert!(fq
        .set_params(FqParams {
            limit_packets: 100,
            ..FqParams::default()
        })
        .is_ok());
    assert_eq!(
        fq.flow_info(FlowId(1 << 30)),
        Err(FqError::UnknownFlow(FlowId(1 << 30)))
    );
}

#[test]
fn mac80211_defaults() {
    let p = FqParams::default();
    assert_eq!(
        (p.flows, p.limit_packets, p.memory_limit_bytes),
        (4096, 8192, 16 << 20)
    );
    assert_eq!(p.quantum, Quantum::Bytes(300));
    assert_eq!(p.codel, CodelParams::mac80211());
    assert_eq!(FqParams::mac80211_non_vht().memory_limit_bytes, 4 << 20);
}

// Sizes at the edge of the counters (issue 20, items 3 and 8).

/// Parameters that let gigabyte packets in, with CoDel off.
fn huge(memory_limit_bytes: u64, quantum: Quantum) -> FqParams {
    FqParams {
        memory_limit_bytes,
        quantum,
        ..no_codel(64)
    }
}

#[test]
fn flows_beyond_4_gib_are_counted_and_the_fattest_is_dropped_from() {
    // 4.6 GB is a memory limit `validate` accepts. Flow 1 holds 4.5 GB, which a 32-bit
    // flow counter wrapped to 205 MB: flow 2's 1 GB looked the fattest.
    let mut f = fixture(huge(4_600_000_000, Quantum::default()));
    let t = f.fq.add_tin();
    for _ in 0..3 {
        f.push(t, 1, 1_500_000_000, Instant::ZERO);
    }
    assert_eq!(
        f.fq.flow_info(FlowId(1)).unwrap().backlog_bytes,
        4_500_000_000
    );
    f.push(t, 2, 1_000_000_000, Instant::ZERO);
    assert_eq!(f.drops.len(), 1);
    assert_eq!(f.drops[0].flow, FlowId(1), "the fattest flow");
    assert_eq!(f.drops[0].reason, DropReason::Overmemory);
    assert_eq!(
        f.fq.flow_info(FlowId(1)).unwrap().backlog_bytes,
        3_000_000_000
    );
    assert_eq!(f.fq.stats().backlog_bytes, 4_000_000_000);
}

#[test]
fn a_packet_longer_than_the_largest_is_handed_back() {
    let mut f = fixture(huge(u64::MAX, Quantum::default()));
    let t = f.fq.add_tin();
    let long = SimplePacket::new(7, 0, MAX_PACKET_BYTES + 1);
    let err = f.fq.enqueue(t, long, Instant::ZERO, |_| {}).unwrap_err();
    assert_eq!(err.error, FqError::PacketTooLong(MAX_PACKET_BYTES + 1));
    assert_eq!(err.packet.id, 7, "the packet comes back");
    assert!(alloc::format!("{}", err.error).contains("2147483647 bytes"));
    assert_eq!(f.fq.stats().backlog_packets, 0);
    f.push(t, 1, MAX_PACKET_BYTES, Instant::ZERO);
    assert_eq!(f.fq.stats().backlog_bytes, u64::from(MAX_PACKET_BYTES));
}

#[test]
fn a_packet_limit_the_counters_cannot_exceed_by_one_is_refused() {
    let p = FqParams {
        limit_packets: u32::MAX,
        ..FqParams::default()
    };
    assert_eq!(p.validate(), Err(FqParamError::LimitTooLarge(u32::MAX)));
    let p = FqParams {
        limit_packets: FqParams::MAX_LIMIT_PACKETS,
        ..FqParams::default()
    };
    assert_eq!(p.validate(), Ok(()));
}

#[test]
fn a_2_gib_packet_at_a_1_byte_quantum_is_repaid_at_once() {
    // DRR refills a flow one quantum per turn: 2^31 turns, 2.6 s in release, before
    // refills were computed in one step.
    let mut f = fixture(huge(u64::MAX, Quantum::Bytes(1)));
    let t = f.fq.add_tin();
    for _ in 0..2 {
        f.push(t, 1, MAX_PACKET_BYTES, Instant::ZERO);
    }
    f.push(t, 2, 100, Instant::ZERO);
    let flows = f.pop_flows(t, 2);
    // Flow 1 (new) sends its first packet, then flow 2 (new) its only one.
    assert_eq!(flows, [1, 2]);
    let debt = 1 - i64::from(MAX_PACKET_BYTES);
    // One quantum when it left the new list.
    assert_eq!(
        i64::from(f.fq.flow_info(FlowId(1)).unwrap().deficit),
        debt + 1
    );
    assert_eq!(f.pop_flows(t, 1), [1]);
    // Refilled to 1 byte of credit, then charged the packet again.
    assert_eq!(i64::from(f.fq.flow_info(FlowId(1)).unwrap().deficit), debt);
    assert_eq!(f.pop(t, Instant::ZERO), None);
}

/// Every rule of the contract (module documentation) broken once: each is an error
/// value naming what was wrong, and changes nothing.
#[test]
fn contract_errors() {
    let mut f = fixture(no_codel(64));
    let live = f.fq.add_tin();
    let gone = f.fq.add_tin();
    f.fq.remove_tin(gone, |_| {}).unwrap();
    f.push(live, 1, 100, Instant::ZERO);
    let before = f.fq.stats();
    let unknown = Err(FqError::UnknownTin(gone));
    // A tin that was removed (or never added here): every call that takes one.
    let e =
        f.fq.enqueue(gone, SimplePacket::new(1, 0, 1), Instant::ZERO, |_| {});
    assert_eq!(e.unwrap_err().error, FqError::UnknownTin(gone));
    assert_eq!(
        f.fq.dequeue(gone, Instant::ZERO, |_| {}),
        unknown.map(|()| None)
    );
    assert_eq!(f.fq.purge(gone, |_| {}), unknown);
    assert_eq!(f.fq.filter(gone, |_| true, |_| {}), unknown);
    assert_eq!(f.fq.remove_tin(gone, |_| {}), unknown);
    assert_eq!(f.fq.set_tin_quantum(gone, None), unknown);
    assert_eq!(f.fq.set_tin_codel(gone, None), unknown);
    assert!(f.fq.tin_codel(gone).is_err());
    assert_eq!(f.fq.has_queue(gone), unknown.map(|()| false));
    assert!(f.fq.tin_stats(gone).is_err());
    assert!(f.fq.default_flow(gone).is_err());
    assert!(f.fq.tin_flows(gone).is_err());
    // A packet longer than the counters take.
    let long = SimplePacket::new(2, 0, u32::MAX);
    let e = f.fq.enqueue(live, long, Instant::ZERO, |_| {}).unwrap_err();
    assert_eq!(e.error, FqError::PacketTooLong(u32::MAX));
    // A flow outside the arena.
    let flow = FlowId(u32::MAX);
    assert_eq!(f.fq.flow_info(flow), Err(FqError::UnknownFlow(flow)));
    // Parameters out of range, at creation and at run time; a tin quantum likewise.
    for bad in [
        FqParams {
            flows: FqParams::MAX_FLOWS + 1,
            ..no_codel(64)
        },
        FqParams {
            limit_packets: 0,
            ..no_codel(64)
        },
        FqParams {
            limit_packets: u32::MAX,
            ..no_codel(64)
        },
        FqParams {
            memory_limit_bytes: 0,
            ..no_codel(64)
        },
        FqParams {
            quantum: Quantum::Bytes(0),
            ..no_codel(64)
        },
        FqParams {
            quantum: Quantum::Frames(Quantum::MAX + 1),
            ..no_codel(64)
        },
    ] {
        assert!(Fq::<SimplePacket>::new(bad).is_err(), "{bad:?}");
        assert!(f.fq.set_params(bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        f.fq.set_tin_quantum(live, Some(Quantum::Bytes(0))),
        Err(FqError::Param(FqParamError::QuantumOutOfRange(
            Quantum::Bytes(0)
        )))
    );
    assert_eq!(f.fq.stats(), before, "refused calls change nothing");
    assert_eq!(f.fq.params(), &no_codel(64));
    f.fq.assert_invariants();
}
