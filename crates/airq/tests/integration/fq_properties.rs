//! Random operation sequences against the FQ-MAC structure (STYLE.md rule 6): after
//! every step, every packet ever offered is delivered, dropped with a reason, or still
//! queued — exactly one of these — the backlog counters at flow, tin and global level
//! equal what is queued, and the limits hold once `enqueue` returns.

use airq::{
    CodelParams, DropReason, Dropped, Ecn, FattestSearch, Fq, FqParams, Instant, Quantum,
    SimplePacket, TinId,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

const TINS: usize = 6;

#[derive(Clone, Debug)]
enum Op {
    Enqueue {
        tin: usize,
        flow: u32,
        len: u32,
        ect: bool,
    },
    Dequeue {
        tin: usize,
    },
    Burst {
        tin: usize,
        flow: u32,
        count: u32,
    },
    Drain {
        tin: usize,
    },
    Purge {
        tin: usize,
    },
    Filter {
        tin: usize,
        modulo: u64,
    },
    ReplaceTin {
        tin: usize,
    },
    Advance {
        ms: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let tin = 0..TINS;
    prop_oneof![
        8 => (tin.clone(), any::<u32>(), 0u32..3000, any::<bool>())
            .prop_map(|(tin, flow, len, ect)| Op::Enqueue { tin, flow, len, ect }),
        6 => tin.clone().prop_map(|tin| Op::Dequeue { tin }),
        2 => (tin.clone(), any::<u32>(), 1u32..60).prop_map(|(tin, flow, count)| Op::Burst { tin, flow, count }),
        1 => tin.clone().prop_map(|tin| Op::Drain { tin }),
        1 => tin.clone().prop_map(|tin| Op::Purge { tin }),
        1 => (tin.clone(), 2u64..5).prop_map(|(tin, modulo)| Op::Filter { tin, modulo }),
        1 => tin.prop_map(|tin| Op::ReplaceTin { tin }),
        3 => (0u64..80).prop_map(|ms| Op::Advance { ms }),
    ]
}

fn params() -> impl Strategy<Value = FqParams> {
    (
        1u32..40,
        1u32..120,
        1500u64..60_000,
        prop_oneof![
            (1u32..2000).prop_map(Quantum::Bytes),
            (1u32..4).prop_map(Quantum::Frames)
        ],
        any::<bool>(),
    )
        .prop_map(
            |(flows, limit_packets, memory_limit_bytes, quantum, ecn)| FqParams {
                flows,
                limit_packets,
                memory_limit_bytes,
                quantum,
                codel: CodelParams {
                    ecn,
                    ..CodelParams::mac80211()
                },
                fattest: FattestSearch::Tree,
            },
        )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Queued { tin: usize },
    Delivered,
    Dropped(DropReason),
}

/// The harness: the structure under test and what became of every packet offered.
struct Harness {
    fq: Fq<SimplePacket>,
    tins: Vec<TinId>,
    fates: BTreeMap<u64, Fate>,
    next_id: u64,
    now: Instant,
}

impl Harness {
    fn new(params: FqParams) -> Self {
        let mut fq = Fq::new(params).unwrap();
        let tins = (0..TINS).map(|_| fq.add_tin()).collect();
        Harness {
            fq,
            tins,
            fates: BTreeMap::new(),
            next_id: 0,
            now: Instant::ZERO,
        }
    }

    fn record_drops(&mut self, drops: Vec<Dropped<SimplePacket>>) {
        for d in drops {
            let fate = self
                .fates
                .get_mut(&d.packet.id)
                .expect("dropped a packet never offered");
            assert!(
                matches!(fate, Fate::Queued { .. }),
                "packet {} dropped while {fate:?}",
                d.packet.id
            );
            let Fate::Queued { tin } = *fate else {
                unreachable!()
            };
            assert_eq!(d.tin, self.tins[tin], "drop reports the packet's tin");
            *fate = Fate::Dropped(d.reason);
        }
    }

    fn enqueue(&mut self, tin: usize, flow: u32, len: u32, ect: bool) {
        let id = self.next_id;
        self.next_id += 1;
        let ecn = if ect { Ecn::Ect0 } else { Ecn::NotEct };
        let packet = SimplePacket::new(id, flow, len).with_ecn(ecn);
        self.fates.insert(id, Fate::Queued { tin });
        let mut drops = Vec::new();
        self.fq
            .enqueue(self.tins[tin], packet, self.now, |d| drops.push(d))
            .unwrap();
        assert!(drops
            .iter()
            .all(|d| matches!(d.reason, DropReason::Overlimit | DropReason::Overmemory)));
        self.record_drops(drops);
    }

    fn dequeue(&mut self, tin: usize) -> bool {
        let mut drops = Vec::new();
        let packet = self
            .fq
            .dequeue(self.tins[tin], self.now, |d| drops.push(d))
            .unwrap();
        assert!(drops.iter().all(|d| d.reason == DropReason::Codel));
        self.record_drops(drops);
        let Some(p) = packet else { return false };
        let fate = self
            .fates
            .get_mut(&p.id)
            .expect("delivered a packet never offered");
        assert_eq!(
            *fate,
            Fate::Queued { tin },
            "packet {} delivered from tin {tin}",
            p.id
        );
        *fate = Fate::Delivered;
        true
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Enqueue {
                tin,
                flow,
                len,
                ect,
            } => self.enqueue(tin, flow, len, ect),
            Op::Burst { tin, flow, count } => {
                for _ in 0..count {
                    self.enqueue(tin, flow, 1500, false);
                }
            }
            Op::Dequeue { tin } => {
                self.dequeue(tin);
            }
            Op::Drain { tin } => while self.dequeue(tin) {},
            Op::Purge { tin } => {
                let mut drops = Vec::new();
                self.fq.purge(self.tins[tin], |d| drops.push(d)).unwrap();
                assert!(drops.iter().all(|d| d.reason == DropReason::Purged));
                self.record_drops(drops);
            }
            Op::Filter { tin, modulo } => {
                let mut drops = Vec::new();
                self.fq
                    .filter(self.tins[tin], |p| p.id % modulo == 0, |d| drops.push(d))
                    .unwrap();
                assert!(drops
                    .iter()
                    .all(|d| d.reason == DropReason::Filtered && d.packet.id % modulo == 0));
                self.record_drops(drops);
            }
            Op::ReplaceTin { tin } => {
                let mut drops = Vec::new();
                self.fq
                    .remove_tin(self.tins[tin], |d| drops.push(d))
                    .unwrap();
                self.record_drops(drops);
                self.tins[tin] = self.fq.add_tin();
            }
            Op::Advance { ms } => self.now += airq::Duration::from_millis(ms),
        }
    }

    /// Conservation and accounting, checked after every step.
    fn check(&self) {
        self.fq.assert_invariants();
        let mut queued = [0u32; TINS];
        for fate in self.fates.values() {
            if let Fate::Queued { tin } = fate {
                queued[*tin] += 1;
            }
        }
        for (i, &tin) in self.tins.iter().enumerate() {
            let stats = self.fq.tin_stats(tin).unwrap();
            assert_eq!(
                stats.backlog_packets, queued[i],
                "tin {i} backlog vs packets not yet delivered or dropped"
            );
            assert_eq!(self.fq.has_queue(tin).unwrap(), queued[i] > 0);
        }
        let global = self.fq.stats();
        assert_eq!(global.backlog_packets, queued.iter().sum::<u32>());
        assert!(global.backlog_packets <= self.fq.params().limit_packets);
        assert!(global.memory_usage_bytes <= self.fq.params().memory_limit_bytes);
        let delivered = self
            .fates
            .values()
            .filter(|f| **f == Fate::Delivered)
            .count() as u64;
        assert_eq!(global.tx_packets, delivered);
        let limit_drops = self
            .fates
            .values()
            .filter(|f| {
                matches!(
                    f,
                    Fate::Dropped(DropReason::Overlimit | DropReason::Overmemory)
                )
            })
            .count() as u64;
        assert_eq!(global.limit_drops, limit_drops);
        let codel_drops = self
            .fates
            .values()
            .filter(|f| **f == Fate::Dropped(DropReason::Codel))
            .count() as u64;
        assert_eq!(global.codel.drop_count, codel_drops);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: super::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn every_packet_is_delivered_dropped_or_queued(params in params(), ops in prop::collection::vec(op(), 1..300)) {
        let mut h = Harness::new(params);
        for op in ops {
            h.apply(op);
            h.check();
        }
        // Drain everything: nothing may remain unaccounted.
        for tin in 0..TINS {
            while h.dequeue(tin) {}
        }
        h.check();
        let left = h.fates.values().filter(|f| matches!(f, Fate::Queued { .. })).count();
        prop_assert_eq!(left, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: super::proptest_cases(256), ..ProptestConfig::default() })]

    /// The fattest-flow tree chooses the flow Linux's scan chooses (`fq/fattest.rs`): the
    /// same operations under both searches leave every packet with the same fate and
    /// every counter equal, after every step. The tree's structure is switched to the
    /// scan and back now and then, so it is rebuilt mid-run.
    #[test]
    fn fattest_tree_chooses_as_the_scan(params in params(), ops in prop::collection::vec(op(), 1..300)) {
        let mut tree = Harness::new(FqParams { fattest: FattestSearch::Tree, ..params });
        let mut scan = Harness::new(FqParams { fattest: FattestSearch::Scan, ..params });
        for (i, op) in ops.into_iter().enumerate() {
            if i % 37 == 36 {
                let p = *tree.fq.params();
                tree.fq.set_params(FqParams { fattest: FattestSearch::Scan, ..p }).unwrap();
                tree.apply(op.clone());
                tree.fq.set_params(p).unwrap();
            } else {
                tree.apply(op.clone());
            }
            scan.apply(op);
            tree.check();
            prop_assert_eq!(&tree.fates, &scan.fates);
            prop_assert_eq!(tree.fq.stats(), scan.fq.stats());
        }
    }
}

/// The same operations on the same parameters give the same packets out, in the same
/// order, with the same drops: the structure has no hidden state or entropy.
#[test]
fn identical_runs_give_identical_results() {
    fn run() -> Vec<(u64, &'static str)> {
        let params = FqParams {
            flows: 16,
            limit_packets: 50,
            ..FqParams::default()
        };
        let mut fq = Fq::new(params).unwrap();
        let tins: Vec<TinId> = (0..4).map(|_| fq.add_tin()).collect();
        let mut log = Vec::new();
        let mut now = Instant::ZERO;
        for i in 0..5000u64 {
            let tin = tins[(i * 7 % 4) as usize];
            let p = SimplePacket::new(i, (i * 2_654_435_761) as u32, 100 + (i % 13) as u32 * 100);
            fq.enqueue(tin, p, now, |d| log.push((d.packet.id, "limit")))
                .unwrap();
            if i % 3 == 0 {
                let out = fq
                    .dequeue(tins[(i % 4) as usize], now, |d| {
                        log.push((d.packet.id, "codel"))
                    })
                    .unwrap();
                if let Some(p) = out {
                    log.push((p.id, "tx"));
                }
            }
            now += airq::Duration::from_micros(700);
        }
        log
    }
    assert_eq!(run(), run());
}
