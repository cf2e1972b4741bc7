//! Tests of "a scheduler that cannot spin": whatever airtime the caller reports or has
//! pending, `next_txq` and `next_txq_any` end in bounded work and deficits are exact
//! (the spins of the reliability issue, item 1, as regressions); and skipping the
//! passes that would only refill (`pass_skip.rs`) makes every choice mac80211's loop,
//! one quantum per visit, makes — checked against that loop on random operations.

use super::*;
use crate::aql::{Aql, AqlParams};
use crate::ids::{Ac, StationId, Tid};
use crate::time::{Duration, Instant};
use alloc::vec::Vec;
use proptest::prelude::*;

const BE: Tid = match Tid::new(0) {
    Some(t) => t,
    None => unreachable!(),
};
const VI: Tid = match Tid::new(5) {
    Some(t) => t,
    None => unreachable!(),
};

/// The largest charge one `register_airtime` can make: 2 × `u32::MAX` µs.
const MAX_CHARGE_US: i64 = 2 * u32::MAX as i64;

fn sta(i: u32) -> StationId {
    StationId(i)
}

fn station_first() -> AirtimeParams {
    AirtimeParams {
        mode: SchedulingMode::StationFirst,
        ..AirtimeParams::default()
    }
}

/// The reproducer: station-first mode, AQL as the gate, a station with
/// `u32::MAX − 2` µs pending in BE and data in VI. Its deficit must reach the pending
/// airtime before it is served; a 32-bit deficit saturated at `i32::MAX` below it and
/// `next_txq_any` refilled for ever.
#[test]
fn pending_airtime_beyond_i32_max_is_reached_at_once() {
    let mut aql = Aql::new(AqlParams::default()).unwrap();
    let mut s = AirtimeScheduler::new(station_first()).unwrap();
    aql.register_station(sta(0)).unwrap();
    s.add_station(sta(0)).unwrap();
    let vi = s.add_txq(Some(sta(0)), VI).unwrap();
    aql.charge(sta(0), Ac::Be, u32::MAX - 2).unwrap();
    s.return_txq(vi, true, Instant::ZERO).unwrap();
    s.schedule_start_any(&mut aql);
    assert_eq!(s.next_txq_any(&mut aql, Instant::ZERO), Some(vi));
    let st = s.station_stats(sta(0)).unwrap();
    let pending = i64::from(u32::MAX - 2);
    let refills = (pending - 256 + 255) / 256;
    assert_eq!(st.refills[Ac::Be.index()], refills as u64);
    assert_eq!(st.deficit_us[Ac::Be.index()], 256 + refills * 256);
    assert!(st.deficit_us[Ac::Be.index()] >= pending);
}

/// The same in per-AC mode: pending airtime of `u32::MAX` µs at weight 1 is 2^32
/// passes of mac80211's loop.
#[test]
fn pending_airtime_of_u32_max_at_weight_1_is_reached_at_once() {
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    s.add_station(sta(0)).unwrap();
    s.set_weight(sta(0), 1).unwrap();
    let vi = s.add_txq(Some(sta(0)), VI).unwrap();
    s.return_txq(vi, true, Instant::ZERO).unwrap();
    let mut gate = PendingGate(u32::MAX);
    s.schedule_start(Ac::Vi, &mut gate);
    assert_eq!(s.next_txq(Ac::Vi, &mut gate, Instant::ZERO), Some(vi));
    let st = s.station_stats(sta(0)).unwrap();
    assert_eq!(st.deficit_us[Ac::Vi.index()], i64::from(u32::MAX));
    assert_eq!(st.refills[Ac::Vi.index()], u64::from(u32::MAX) - 256);
}

/// Reports the same pending airtime for every station and AC.
struct PendingGate(u32);

impl AirtimeGate for PendingGate {
    fn pending_us(&self, _station: StationId, _ac: Ac) -> u32 {
        self.0
    }
}

/// The second case: one `register_airtime(u32::MAX, u32::MAX)` at weight 1 is
/// a debt of 2^33 µs, 2^33 passes of mac80211's loop (seconds); and deficits do not
/// saturate, however much is charged.
#[test]
fn a_debt_of_2_pow_33_at_weight_1_is_repaid_at_once() {
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    let q: Vec<TxqId> = (0..2)
        .map(|i| {
            s.add_station(sta(i)).unwrap();
            s.add_txq(Some(sta(i)), BE).unwrap()
        })
        .collect();
    s.set_weight(sta(0), 1).unwrap();
    s.return_txq(q[1], true, Instant::ZERO).unwrap();
    s.return_txq(q[0], true, Instant::ZERO).unwrap();
    for _ in 0..3 {
        s.register_airtime(sta(0), BE, u32::MAX, u32::MAX, Instant::ZERO)
            .unwrap();
    }
    let debt = 3 * MAX_CHARGE_US - 256;
    assert_eq!(s.station_stats(sta(0)).unwrap().deficit_us[2], -debt);
    s.register_airtime(sta(1), BE, 1000, 0, Instant::ZERO)
        .unwrap();
    // Station 1 owes 744 µs, three refills: it is served on the fourth pass, and
    // station 0, ahead of it, is refilled on all four.
    s.schedule_start(Ac::Be, &mut NoAql);
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[1]));
    let st0 = s.station_stats(sta(0)).unwrap();
    assert_eq!((st0.deficit_us[2], st0.refills[2]), (-debt + 4, 4));
    // Now alone: served once its debt is repaid, one µs per pass.
    assert_eq!(s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO), Some(q[0]));
    let st0 = s.station_stats(sta(0)).unwrap();
    assert_eq!((st0.deficit_us[2], st0.refills[2]), (0, debt as u64));
}

/// The same in the hierarchy: a group of weight 1 owing 2^33 µs, and a station-first
/// station with as much pending airtime as the gate can report.
#[test]
fn huge_debts_are_repaid_at_once_with_groups_and_station_first() {
    for params in [AirtimeParams::default(), station_first()] {
        let mut s = AirtimeScheduler::new(params).unwrap();
        let g = s.add_group(None, 1, GroupMode::Share).unwrap();
        s.add_station(sta(0)).unwrap();
        s.set_station_group(sta(0), Some(g)).unwrap();
        let q = s.add_txq(Some(sta(0)), BE).unwrap();
        s.return_txq(q, true, Instant::ZERO).unwrap();
        s.register_airtime(sta(0), BE, u32::MAX, u32::MAX, Instant::ZERO)
            .unwrap();
        let mut gate = PendingGate(u32::MAX);
        s.schedule_start_any(&mut gate);
        assert_eq!(s.next_txq_any(&mut gate, Instant::ZERO), Some(q));
        let group = s.group_stats(g).unwrap();
        assert_eq!(group.deficit_us[2], 0);
        assert_eq!(group.refills[2], (MAX_CHARGE_US - 1) as u64);
        let pending = match params.mode {
            SchedulingMode::PerAc => i64::from(u32::MAX),
            SchedulingMode::StationFirst => 4 * i64::from(u32::MAX),
        };
        let st = s.station_stats(sta(0)).unwrap();
        assert!(st.deficit_us[2] >= pending && st.deficit_us[2] < pending + 256);
    }
}

/// A group walked into on every pass because nobody in it may send (AQL) has its
/// stations refilled on each: the skip must give them what those walks would have.
#[test]
fn skipped_passes_refill_inside_a_group_walked_into_on_each() {
    let run = |pass_skip: bool| {
        let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
        s.pass_skip = pass_skip;
        let g = s.add_group(None, 256, GroupMode::Share).unwrap();
        let q: Vec<TxqId> = (0..3)
            .map(|i| {
                s.add_station(sta(i)).unwrap();
                s.add_txq(Some(sta(i)), BE).unwrap()
            })
            .collect();
        s.set_weight(sta(1), 7).unwrap();
        for &t in &q {
            s.return_txq(t, true, Instant::ZERO).unwrap();
        }
        // Charged before they join the group, which is therefore not in debt.
        for (i, us) in [(0, 300_000), (1, 20_000), (2, 100_000)] {
            s.register_airtime(sta(i), BE, us, 0, Instant::ZERO)
                .unwrap();
        }
        s.set_station_group(sta(1), Some(g)).unwrap();
        s.set_station_group(sta(2), Some(g)).unwrap();
        let mut gate = RefuseGate([sta(1), sta(2)]);
        s.schedule_start(Ac::Be, &mut gate);
        let got = s.next_txq(Ac::Be, &mut gate, Instant::ZERO);
        let stats: Vec<StationAirtimeStats> =
            (0..3).map(|i| s.station_stats(sta(i)).unwrap()).collect();
        (got.map(TxqId::index), stats, s.group_stats(g).unwrap())
    };
    let (got, stats, group) = run(true);
    assert_eq!(got, Some(0));
    assert!(stats[0].refills[2] > 1000, "{stats:?}");
    assert_eq!((got, stats, group), run(false));
}

/// Refuses some stations in every AC.
struct RefuseGate([StationId; 2]);

impl AirtimeGate for RefuseGate {
    fn station_may_dequeue(&mut self, station: StationId, _ac: Ac, _now: Instant) -> bool {
        !self.0.contains(&station)
    }
}

// Random operations, with and without skipping passes.

const STATIONS: u32 = 4;
const TIDS: [u8; 3] = [0, 3, 6];
const TXQS: usize = STATIONS as usize * TIDS.len() + 1;
/// Groups: a (root, share), b (in a, limit), c (root, limit).
const GROUPS: [(Option<usize>, u32, GroupMode); 3] = [
    (None, 256, GroupMode::Share),
    (Some(0), 512, GroupMode::Limit),
    (None, 128, GroupMode::Limit),
];

#[derive(Clone, Debug)]
enum Op {
    Return {
        txq: usize,
        has_queue: bool,
    },
    Round {
        ac: Ac,
        max: usize,
        give_back: bool,
    },
    Register {
        station: u32,
        tid: u8,
        us: u32,
    },
    MayTransmit {
        txq: usize,
        at: bool,
    },
    SetWeight {
        station: u32,
        weight_us: u32,
    },
    SetStationGroup {
        station: u32,
        group: Option<usize>,
    },
    SetGroupWeight {
        group: usize,
        weight_us: u32,
    },
    Advance {
        us: u64,
    },
    Gate {
        station: u32,
        ac: Ac,
        refuse: bool,
        pending_us: u32,
    },
}

fn ac() -> impl Strategy<Value = Ac> {
    prop_oneof![Just(Ac::Be), Just(Ac::Vo)]
}

fn weight_us() -> impl Strategy<Value = u32> {
    prop_oneof![1 => 1u32..8, 4 => 8u32..1_000, 1 => Just(256u32)]
}

/// Up to 40 ms: a few thousand passes at weight 1, which the loop without skipping
/// can still walk.
fn airtime_us() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..5_000, 0u32..40_000]
}

fn pending_us() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), 0u32..20_000]
}

fn op() -> impl Strategy<Value = Op> {
    let station = 0..STATIONS;
    prop_oneof![
        5 => (0..TXQS, any::<bool>()).prop_map(|(txq, has_queue)| Op::Return { txq, has_queue }),
        4 => (ac(), 1usize..6, any::<bool>())
            .prop_map(|(ac, max, give_back)| Op::Round { ac, max, give_back }),
        4 => (station.clone(), prop::sample::select(TIDS.to_vec()), airtime_us())
            .prop_map(|(station, tid, us)| Op::Register { station, tid, us }),
        1 => (0..TXQS, any::<bool>()).prop_map(|(txq, at)| Op::MayTransmit { txq, at }),
        1 => (station.clone(), weight_us())
            .prop_map(|(station, weight_us)| Op::SetWeight { station, weight_us }),
        1 => (station.clone(), prop::option::of(0..GROUPS.len()))
            .prop_map(|(station, group)| Op::SetStationGroup { station, group }),
        1 => (0..GROUPS.len(), weight_us())
            .prop_map(|(group, weight_us)| Op::SetGroupWeight { group, weight_us }),
        2 => prop_oneof![0u64..3_000, 0u64..150_000].prop_map(|us| Op::Advance { us }),
        2 => (station, ac(), prop::bool::weighted(0.4), pending_us())
            .prop_map(|(station, ac, refuse, pending_us)| {
                Op::Gate { station, ac, refuse, pending_us }
            }),
    ]
}

/// A gate whose answers are what the operations set.
#[derive(Clone, Default)]
struct MockGate {
    refused: [[bool; Ac::COUNT]; STATIONS as usize],
    pending_us: [[u32; Ac::COUNT]; STATIONS as usize],
}

impl AirtimeGate for MockGate {
    fn pending_us(&self, station: StationId, ac: Ac) -> u32 {
        self.pending_us[station.0 as usize][ac.index()]
    }
    fn station_may_dequeue(&mut self, station: StationId, ac: Ac, _now: Instant) -> bool {
        !self.refused[station.0 as usize][ac.index()]
    }
}

struct Side {
    s: AirtimeScheduler,
    groups: Vec<GroupId>,
    txqs: Vec<TxqId>,
    gate: MockGate,
    now: Instant,
}

impl Side {
    fn new(params: AirtimeParams, groups: usize, pass_skip: bool) -> Self {
        let mut s = AirtimeScheduler::new(params).unwrap();
        s.pass_skip = pass_skip;
        let mut ids: Vec<GroupId> = Vec::new();
        for &(parent, weight_us, mode) in &GROUPS[..groups] {
            let parent = parent.map(|p| ids[p]);
            ids.push(s.add_group(parent, weight_us, mode).unwrap());
        }
        let mut txqs = Vec::new();
        for i in 0..STATIONS {
            s.add_station(sta(i)).unwrap();
            for tid in TIDS {
                txqs.push(s.add_txq(Some(sta(i)), Tid::new(tid).unwrap()).unwrap());
            }
        }
        txqs.push(s.add_txq(None, BE).unwrap());
        Side {
            s,
            groups: ids,
            txqs,
            gate: MockGate::default(),
            now: Instant::ZERO,
        }
    }

    /// Applies `op`; returns what the scheduler answered.
    fn apply(&mut self, op: &Op) -> Vec<Option<TxqId>> {
        let station_first = self.s.params().mode == SchedulingMode::StationFirst;
        let mut answers = Vec::new();
        match *op {
            Op::Return { txq, has_queue } => {
                self.s
                    .return_txq(self.txqs[txq], has_queue, self.now)
                    .unwrap();
            }
            Op::Round { ac, max, give_back } => {
                if station_first {
                    self.s.schedule_start_any(&mut self.gate);
                } else {
                    self.s.schedule_start(ac, &mut self.gate);
                }
                for _ in 0..max {
                    let next = if station_first {
                        self.s.next_txq_any(&mut self.gate, self.now)
                    } else {
                        self.s.next_txq(ac, &mut self.gate, self.now)
                    };
                    answers.push(next);
                    let Some(t) = next else { break };
                    if give_back {
                        self.s.return_txq(t, true, self.now).unwrap();
                    }
                }
            }
            Op::Register { station, tid, us } => {
                let tid = Tid::new(tid).unwrap();
                self.s
                    .register_airtime(sta(station), tid, us, us / 10, self.now)
                    .unwrap();
            }
            Op::MayTransmit { txq, at } => {
                let t = self.txqs[txq];
                let allowed = if at {
                    self.s.may_transmit_at(t, &mut self.gate, self.now)
                } else {
                    self.s.may_transmit(t, &mut self.gate)
                };
                answers.push(allowed.unwrap().then_some(t));
            }
            Op::SetWeight { station, weight_us } => {
                self.s.set_weight(sta(station), weight_us).unwrap();
            }
            Op::SetStationGroup { station, group } => {
                let group = group.and_then(|g| self.groups.get(g).copied());
                self.s.set_station_group(sta(station), group).unwrap();
            }
            Op::SetGroupWeight { group, weight_us } => {
                if let Some(&g) = self.groups.get(group) {
                    self.s.set_group_weight(g, weight_us).unwrap();
                }
            }
            Op::Advance { us } => self.now += Duration::from_micros(us),
            Op::Gate {
                station,
                ac,
                refuse,
                pending_us,
            } => {
                let (s, a) = (station as usize, ac.index());
                self.gate.refused[s][a] = refuse;
                self.gate.pending_us[s][a] = pending_us;
            }
        }
        answers
    }

    fn stations(&self) -> Vec<StationAirtimeStats> {
        (0..STATIONS)
            .map(|i| self.s.station_stats(sta(i)).unwrap())
            .collect()
    }

    fn groups(&self) -> Vec<GroupStats> {
        let stats = self.groups.iter().map(|&g| self.s.group_stats(g).unwrap());
        stats.collect()
    }

    fn lists(&self) -> Vec<Vec<TxqId>> {
        Ac::ALL
            .iter()
            .map(|&ac| self.s.active_txqs(ac).collect())
            .collect()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn skipping_passes_makes_the_choices_of_mac80211s_loop(
        ops in prop::collection::vec(op(), 1..200),
        station_first in any::<bool>(),
        groups in 0..=GROUPS.len(),
    ) {
        let params = AirtimeParams {
            mode: if station_first { SchedulingMode::StationFirst } else { SchedulingMode::PerAc },
            ..AirtimeParams::default()
        };
        let mut skipping = Side::new(params, groups, true);
        let mut looping = Side::new(params, groups, false);
        for (i, op) in ops.iter().enumerate() {
            let got = skipping.apply(op);
            prop_assert_eq!(got, looping.apply(op), "operation {}: {:?}", i, op);
            prop_assert_eq!(skipping.stations(), looping.stations(), "operation {}", i);
            prop_assert_eq!(skipping.groups(), looping.groups(), "operation {}", i);
            prop_assert_eq!(skipping.lists(), looping.lists(), "operation {}", i);
        }
    }
}

/// Found by the random driver (tests/integration/driver_fuzz.rs): station-first mode,
/// a station in a group with `u32::MAX` µs pending and data in VO, another at the root
/// with a little pending in BK and data in VI.
#[test]
fn a_grouped_station_deep_in_aql_debt_does_not_spin_next_txq_any() {
    let run = |pass_skip: bool| {
        let mut aql = Aql::new(AqlParams::default()).unwrap();
        let mut s = AirtimeScheduler::new(station_first()).unwrap();
        s.pass_skip = pass_skip;
        let a = s.add_group(None, 256, GroupMode::Share).unwrap();
        s.add_group(Some(a), 512, GroupMode::Limit).unwrap();
        s.add_group(None, 1, GroupMode::Share).unwrap();
        let tid = |n| Tid::new(n).unwrap();
        for i in [4, 2] {
            aql.register_station(sta(i)).unwrap();
            s.add_station(sta(i)).unwrap();
        }
        let vo = s.add_txq(Some(sta(4)), tid(6)).unwrap();
        s.return_txq(vo, true, Instant::ZERO).unwrap();
        aql.charge(sta(4), Ac::Vo, u32::MAX).unwrap();
        s.set_station_group(sta(4), Some(a)).unwrap();
        aql.charge(sta(2), Ac::Bk, 8292).unwrap();
        let vi = s.add_txq(Some(sta(2)), tid(4)).unwrap();
        s.return_txq(vi, true, Instant::ZERO).unwrap();
        // VO is refused by the PHY gate: the group's only station is out of the round.
        s.schedule_start_any(&mut aql);
        let got = s.next_txq_any(&mut aql, Instant::ZERO);
        assert_eq!(got, Some(vi));
        let stats = [4, 2].map(|i| s.station_stats(sta(i)).unwrap());
        (got.map(TxqId::index), stats, s.group_stats(a).unwrap())
    };
    assert_eq!(run(true), run(false));
}
