//! Random driver behaviour against the airtime scheduler: every microsecond reported for
//! an active station is charged to its deficit exactly once (deficit = weight ·
//! (1 + refills) − charged), statistics equal what was reported, and the TXQ lists stay
//! consistent — no TXQ listed twice, none handed out twice in one round.
//!
//! The same holds with groups (stations moved between them, groups re-nested and
//! switched between share and limit) for every group above a station, and in
//! station-first mode, where a station's and a group's one deficit is charged by all
//! ACs. And a scheduler that has a group, with no station in it, schedules exactly as
//! one without groups.

use airq::airtime::{
    AirtimeParams, AirtimeScheduler, GroupId, GroupMode, NoAql, SchedError, SchedulingMode, TxqId,
};
use airq::{Ac, Duration, Instant, StationId, Tid};
use proptest::prelude::*;
use std::collections::BTreeSet;

const STATIONS: u32 = 4;
const WEIGHT: i64 = 256;
/// The groups of the group tests: a (root, share), b (in a, limit), c (root, limit).
const GROUPS: [(Option<usize>, i64, GroupMode); 3] = [
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
        vo: bool,
        max: usize,
        /// Hand each TXQ back, with data, as soon as it is handed out (as a driver does
        /// after dequeuing), so that the round ends at a TXQ served twice.
        give_back: bool,
    },
    Register {
        station: u32,
        vo: bool,
        tx: u32,
        rx: u32,
    },
    MayTransmit {
        txq: usize,
    },
    Advance {
        ms: u64,
    },
    SetStationGroup {
        station: u32,
        group: Option<usize>,
    },
    SetGroupMode {
        group: usize,
        limit: bool,
    },
    SetGroupParent {
        group: usize,
        parent: Option<usize>,
    },
    MayTransmitAt {
        txq: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let txqs = 0..(STATIONS as usize * 2 + 1);
    prop_oneof![
        4 => (txqs.clone(), any::<bool>()).prop_map(|(txq, has_queue)| Op::Return { txq, has_queue }),
        3 => (any::<bool>(), 1usize..5, any::<bool>())
            .prop_map(|(vo, max, give_back)| Op::Round { vo, max, give_back }),
        3 => (0..STATIONS, any::<bool>(), 0u32..5000, 0u32..500)
            .prop_map(|(station, vo, tx, rx)| Op::Register { station, vo, tx, rx }),
        1 => txqs.prop_map(|txq| Op::MayTransmit { txq }),
        2 => (0u64..150).prop_map(|ms| Op::Advance { ms }),
    ]
}

fn group_op() -> impl Strategy<Value = Op> {
    let group = 0..GROUPS.len();
    prop_oneof![
        8 => op(),
        2 => (0..STATIONS, prop::option::of(group.clone()))
            .prop_map(|(station, group)| Op::SetStationGroup { station, group }),
        1 => (group.clone(), any::<bool>()).prop_map(|(group, limit)| Op::SetGroupMode { group, limit }),
        1 => (group.clone(), prop::option::of(group))
            .prop_map(|(group, parent)| Op::SetGroupParent { group, parent }),
        1 => (0..(STATIONS as usize * 2 + 1)).prop_map(|txq| Op::MayTransmitAt { txq }),
    ]
}

struct Harness {
    s: AirtimeScheduler,
    /// Per station TXQs for BE (TID 0) and VO (TID 6), then one multicast TXQ.
    txqs: Vec<TxqId>,
    now: Instant,
    /// Model per station and AC: last activity, µs charged, µs reported (tx, rx).
    last_active: Vec<[Option<Instant>; 4]>,
    charged: Vec<[i64; 4]>,
    reported: Vec<[(u64, u64); 4]>,
    /// Model of the groups: identifiers, parents, members, µs charged per AC.
    groups: Vec<GroupId>,
    group_parent: Vec<Option<usize>>,
    station_group: Vec<Option<usize>>,
    group_charged: Vec<[i64; 4]>,
    /// What the scheduler handed out and allowed, in order.
    trace: Vec<(TxqId, bool)>,
}

fn tid(vo: bool) -> Tid {
    Tid::new(if vo { 6 } else { 0 }).unwrap()
}

impl Harness {
    fn new() -> Self {
        Harness::build(SchedulingMode::PerAc, 0)
    }

    /// A harness in `mode` with the first `groups` of [`GROUPS`].
    fn build(mode: SchedulingMode, groups: usize) -> Self {
        let params = AirtimeParams {
            mode,
            ..AirtimeParams::default()
        };
        let mut s = AirtimeScheduler::new(params).unwrap();
        let mut ids: Vec<GroupId> = Vec::new();
        for &(parent, weight, mode) in &GROUPS[..groups] {
            let parent = parent.map(|p| ids[p]);
            ids.push(s.add_group(parent, weight as u32, mode).unwrap());
        }
        let mut txqs = Vec::new();
        for i in 0..STATIONS {
            s.add_station(StationId(i)).unwrap();
            txqs.push(s.add_txq(Some(StationId(i)), tid(false)).unwrap());
            txqs.push(s.add_txq(Some(StationId(i)), tid(true)).unwrap());
        }
        txqs.push(s.add_txq(None, tid(false)).unwrap());
        let n = STATIONS as usize;
        Harness {
            s,
            txqs,
            now: Instant::ZERO,
            last_active: vec![[None; 4]; n],
            charged: vec![[0; 4]; n],
            reported: vec![[(0, 0); 4]; n],
            groups: ids,
            group_parent: GROUPS[..groups].iter().map(|g| g.0).collect(),
            station_group: vec![None; n],
            group_charged: vec![[0; 4]; groups],
            trace: Vec::new(),
        }
    }

    fn station_first(&self) -> bool {
        self.s.params().mode == SchedulingMode::StationFirst
    }

    /// Groups from a station's group up to the root, in the model.
    fn chain(&self, mut group: Option<usize>) -> Vec<usize> {
        let mut chain = Vec::new();
        while let Some(g) = group {
            chain.push(g);
            group = self.group_parent[g];
        }
        chain
    }

    fn listed(&self, txq: TxqId) -> bool {
        Ac::ALL
            .iter()
            .any(|&ac| self.s.active_txqs(ac).any(|t| t == txq))
    }

    /// `return_txq`, and in the model the station's activity.
    fn give_back(&mut self, id: TxqId, has_queue: bool) {
        let (station, t) = self.s.txq_owner(id).unwrap();
        if !self.listed(id) && has_queue {
            if let Some(st) = station {
                self.last_active[st.0 as usize][t.ac().index()] = Some(self.now);
            }
        }
        self.s.return_txq(id, has_queue, self.now).unwrap();
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Return { txq, has_queue } => self.give_back(self.txqs[txq], has_queue),
            Op::Round { vo, max, give_back } => {
                let ac = tid(vo).ac();
                let station_first = self.station_first();
                if station_first {
                    self.s.schedule_start_any(&mut NoAql);
                } else {
                    self.s.schedule_start(ac, &mut NoAql);
                }
                let mut served = BTreeSet::new();
                for _ in 0..max {
                    let listed_before: BTreeSet<TxqId> = Ac::ALL
                        .iter()
                        .flat_map(|&ac| self.s.active_txqs(ac))
                        .collect();
                    let next = if station_first {
                        self.s.next_txq_any(&mut NoAql, self.now)
                    } else {
                        self.s.next_txq(ac, &mut NoAql, self.now)
                    };
                    let Some(t) = next else {
                        break;
                    };
                    assert!(listed_before.contains(&t), "handed out an unlisted TXQ");
                    assert!(served.insert(t), "{t:?} handed out twice in one round");
                    assert!(!self.listed(t), "a TXQ the driver holds stays unlisted");
                    self.trace.push((t, true));
                    if give_back {
                        self.give_back(t, true);
                    }
                }
            }
            Op::Register {
                station,
                vo,
                tx,
                rx,
            } => {
                let ac = tid(vo).ac().index();
                let i = station as usize;
                let active = self.last_active[i][ac]
                    .is_some_and(|t| self.now <= t + Duration::from_millis(100));
                if active {
                    let charge = i64::from(tx) + i64::from(rx);
                    self.charged[i][ac] += charge;
                    for g in self.chain(self.station_group[i]) {
                        self.group_charged[g][ac] += charge;
                    }
                }
                self.reported[i][ac].0 += u64::from(tx);
                self.reported[i][ac].1 += u64::from(rx);
                self.s
                    .register_airtime(StationId(station), tid(vo), tx, rx, self.now)
                    .unwrap();
            }
            Op::MayTransmit { txq } => {
                let id = self.txqs[txq];
                let allowed = self.s.may_transmit(id, &mut NoAql).unwrap();
                if allowed {
                    assert!(!self.listed(id), "allowed TXQs are unlisted");
                }
                self.trace.push((id, allowed));
            }
            Op::Advance { ms } => self.now += Duration::from_millis(ms),
            Op::SetStationGroup { station, group } => {
                let id = group.map(|g| self.groups[g]);
                self.s.set_station_group(StationId(station), id).unwrap();
                self.station_group[station as usize] = group;
            }
            Op::SetGroupMode { group, limit } => {
                let mode = if limit {
                    GroupMode::Limit
                } else {
                    GroupMode::Share
                };
                self.s.set_group_mode(self.groups[group], mode).unwrap();
            }
            Op::SetGroupParent { group, parent } => {
                let result = self
                    .s
                    .set_group_parent(self.groups[group], parent.map(|p| self.groups[p]));
                match parent {
                    Some(p) if self.chain(Some(p)).contains(&group) => {
                        assert_eq!(
                            result,
                            Err(SchedError::GroupCycle(self.groups[group].index() as u32))
                        )
                    }
                    _ => {
                        result.unwrap();
                        self.group_parent[group] = parent;
                    }
                }
            }
            Op::MayTransmitAt { txq } => {
                let id = self.txqs[txq];
                let allowed = self.s.may_transmit_at(id, &mut NoAql, self.now).unwrap();
                if allowed {
                    assert!(!self.listed(id), "allowed TXQs are unlisted");
                }
                self.trace.push((id, allowed));
            }
        }
    }

    /// The expected deficit of each AC entry: per AC, or (station-first) one for all.
    fn expected_deficits(&self, weight: i64, refills: [u64; 4], charged: [i64; 4]) -> [i64; 4] {
        if self.station_first() {
            let one = weight * (1 + refills[0] as i64) - charged.iter().sum::<i64>();
            [one; 4]
        } else {
            std::array::from_fn(|ac| weight * (1 + refills[ac] as i64) - charged[ac])
        }
    }

    fn check(&self) {
        for i in 0..STATIONS as usize {
            let st = self.s.station_stats(StationId(i as u32)).unwrap();
            let expected = self.expected_deficits(WEIGHT, st.refills, self.charged[i]);
            for (ac, &deficit) in expected.iter().enumerate() {
                assert_eq!(st.tx_airtime_us[ac], self.reported[i][ac].0);
                assert_eq!(st.rx_airtime_us[ac], self.reported[i][ac].1);
                assert_eq!(st.deficit_us[ac], deficit, "station {i} AC {ac}");
            }
            let group = self.s.station_group(StationId(i as u32)).unwrap();
            assert_eq!(group, self.station_group[i].map(|g| self.groups[g]));
        }
        for (g, &id) in self.groups.iter().enumerate() {
            let st = self.s.group_stats(id).unwrap();
            let charged = self.group_charged[g];
            assert_eq!(st.airtime_us, charged.map(|c| c as u64), "group {g}");
            let expected = self.expected_deficits(GROUPS[g].1, st.refills, charged);
            assert_eq!(st.deficit_us, expected, "group {g}");
            assert_eq!(st.parent, self.group_parent[g].map(|p| self.groups[p]));
        }
        if let Some(t) = self.s.next_timeout(self.now) {
            assert!(t > self.now, "timeout {t} in the past at {}", self.now);
        }
        let mut all = BTreeSet::new();
        for ac in Ac::ALL {
            let listed: Vec<TxqId> = self.s.active_txqs(ac).collect();
            let unique: BTreeSet<TxqId> = listed.iter().copied().collect();
            assert_eq!(listed.len(), unique.len(), "a TXQ listed twice in {ac}");
            assert!(all.is_disjoint(&unique), "a TXQ listed in two ACs");
            all.extend(unique);
            for t in listed {
                assert_eq!(
                    self.s.txq_owner(t).unwrap().1.ac(),
                    ac,
                    "TXQ on its AC's list"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: super::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn airtime_charged_equals_airtime_reported(ops in prop::collection::vec(op(), 1..200)) {
        let mut h = Harness::new();
        for op in ops {
            h.apply(op);
            h.check();
        }
    }

    #[test]
    fn airtime_charged_equals_airtime_reported_with_groups(
        ops in prop::collection::vec(group_op(), 1..200),
        station_first in any::<bool>(),
    ) {
        let mode = if station_first { SchedulingMode::StationFirst } else { SchedulingMode::PerAc };
        let mut h = Harness::build(mode, GROUPS.len());
        for op in ops {
            h.apply(op);
            h.check();
        }
    }

    #[test]
    fn stations_in_no_group_are_scheduled_as_without_groups(
        ops in prop::collection::vec(op(), 1..200),
    ) {
        // The group makes the scheduler run its hierarchical code; with nobody in the
        // group, every answer must be the flat code's.
        let mut flat = Harness::new();
        let mut tree = Harness::build(SchedulingMode::PerAc, 1);
        for op in ops {
            flat.apply(op.clone());
            tree.apply(op);
            tree.check();
            prop_assert_eq!(&flat.trace, &tree.trace);
            for ac in Ac::ALL {
                let f: Vec<TxqId> = flat.s.active_txqs(ac).collect();
                let t: Vec<TxqId> = tree.s.active_txqs(ac).collect();
                prop_assert_eq!(f, t, "{} list", ac);
            }
            for i in 0..STATIONS {
                let id = StationId(i);
                prop_assert_eq!(flat.s.station_stats(id).unwrap(), tree.s.station_stats(id).unwrap());
            }
        }
    }
}
