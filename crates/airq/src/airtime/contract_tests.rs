//! The scheduler's contract (module documentation, "Contract"), one test per rule:
//! each breaks its rule with every call the rule covers, and checks that the call gets
//! the error value naming what was wrong and changes nothing — statistics, deficits,
//! lists, groups and table sizes as before. Rules a caller may break without an error
//! (a gate that changes its answers within a call, any airtime, any time) end in
//! bounded work and consistent state.

use super::*;
use crate::ids::{Ac, StationId, Tid};
use crate::time::{Duration, Instant};
use alloc::format;
use alloc::vec::Vec;

const T0: Instant = Instant::ZERO;

fn tid(n: u8) -> Tid {
    Tid::new(n).unwrap()
}

/// A scheduler in use: stations 0 to 2 with a BE and a VO TXQ each, all with data; an
/// interface TXQ; group `a` holding station 1 and group `b`, inside `a`, holding
/// station 2. Station 9 and a group have come and gone, so their ids are stale, and
/// their slots hold others now.
struct Fixture {
    s: AirtimeScheduler,
    txqs: Vec<TxqId>,
    a: GroupId,
    b: GroupId,
    stale_txq: TxqId,
    stale_group: GroupId,
}

fn fixture(mode: SchedulingMode) -> Fixture {
    let mut s = AirtimeScheduler::new(AirtimeParams {
        mode,
        ..AirtimeParams::default()
    })
    .unwrap();
    s.add_station(StationId(9)).unwrap();
    let stale_txq = s.add_txq(Some(StationId(9)), tid(0)).unwrap();
    s.remove_station(StationId(9)).unwrap();
    let stale_group = s.add_group(None, 256, GroupMode::Share).unwrap();
    s.remove_group(stale_group).unwrap();
    let a = s.add_group(None, 512, GroupMode::Share).unwrap();
    let b = s.add_group(Some(a), 256, GroupMode::Limit).unwrap();
    let mut txqs = Vec::new();
    for i in 0..3 {
        s.add_station(StationId(i)).unwrap();
        for t in [0, 6] {
            txqs.push(s.add_txq(Some(StationId(i)), tid(t)).unwrap());
        }
    }
    txqs.push(s.add_txq(None, tid(0)).unwrap());
    s.set_station_group(StationId(1), Some(a)).unwrap();
    s.set_station_group(StationId(2), Some(b)).unwrap();
    for &t in &txqs {
        s.return_txq(t, true, T0).unwrap();
    }
    assert_eq!(stale_txq.index(), txqs[0].index(), "the slot was reused");
    assert_eq!(stale_group.index(), a.index(), "the slot was reused");
    Fixture {
        s,
        txqs,
        a,
        b,
        stale_txq,
        stale_group,
    }
}

/// Everything a refused call must leave as it was.
#[derive(Debug, PartialEq)]
struct Snapshot {
    stations: Vec<StationAirtimeStats>,
    groups: Vec<GroupStats>,
    lists: Vec<Vec<TxqId>>,
    tables: [usize; 4],
    next_timeout: Option<Instant>,
}

impl Fixture {
    fn snapshot(&self) -> Snapshot {
        let s = &self.s;
        Snapshot {
            stations: (0..3)
                .map(|i| s.station_stats(StationId(i)).unwrap())
                .collect(),
            groups: [self.a, self.b]
                .iter()
                .map(|&g| s.group_stats(g).unwrap())
                .collect(),
            lists: Ac::ALL
                .iter()
                .map(|&ac| s.active_txqs(ac).collect())
                .collect(),
            tables: [
                s.txq_count(),
                s.txq_slots(),
                s.group_count(),
                s.group_slots(),
            ],
            next_timeout: s.next_timeout(T0),
        }
    }

    /// Runs the refused calls of `calls`, each of which must return `Err`, and checks
    /// that they changed nothing.
    fn refuses(&mut self, calls: impl FnOnce(&mut AirtimeScheduler)) {
        let before = self.snapshot();
        calls(&mut self.s);
        assert_eq!(self.snapshot(), before, "a refused call changed something");
    }
}

fn modes() -> [SchedulingMode; 2] {
    [SchedulingMode::PerAc, SchedulingMode::StationFirst]
}

/// Rule 1: `new` takes a default weight of 1 to `MAX_WEIGHT_US` µs.
#[test]
fn rule_1_new_needs_a_default_weight_in_range() {
    for w in [0, AirtimeParams::MAX_WEIGHT_US + 1, u32::MAX] {
        let params = AirtimeParams {
            default_weight_us: w,
            ..AirtimeParams::default()
        };
        assert_eq!(params.validate(), Err(SchedError::WeightOutOfRange(w)));
        assert!(matches!(
            AirtimeScheduler::new(params),
            Err(SchedError::WeightOutOfRange(x)) if x == w
        ));
    }
}

/// Rule 2: `add_station` takes an id up to `StationId::MAX`, not registered already.
#[test]
fn rule_2_add_station_needs_a_new_id_in_range() {
    for mode in modes() {
        let mut f = fixture(mode);
        f.refuses(|s| {
            let big = StationId(StationId::MAX + 1);
            assert_eq!(
                s.add_station(big),
                Err(SchedError::StationIdOutOfRange(big))
            );
            let max = StationId(u32::MAX);
            assert_eq!(
                s.add_station(max),
                Err(SchedError::StationIdOutOfRange(max))
            );
            let dup = StationId(1);
            assert_eq!(s.add_station(dup), Err(SchedError::DuplicateStation(dup)));
        });
    }
}

/// Rule 3: every call taking a `StationId` needs a registered station.
#[test]
fn rule_3_calls_taking_a_station_need_a_registered_one() {
    for mode in modes() {
        let mut f = fixture(mode);
        let a = f.a;
        f.refuses(|s| {
            for id in [StationId(9), StationId(50), StationId(u32::MAX)] {
                let e = Err(SchedError::UnknownStation(id));
                assert_eq!(s.remove_station(id), e);
                assert_eq!(s.set_weight(id, 100), e);
                assert_eq!(s.register_airtime(id, tid(0), 100, 100, T0), e);
                assert_eq!(s.station_stats(id), e.map(|()| unreachable!()));
                assert_eq!(s.set_station_group(id, Some(a)), e);
                assert_eq!(s.set_station_group(id, None), e);
                assert_eq!(s.station_group(id), e.map(|()| None));
                assert_eq!(s.add_txq(Some(id), tid(0)), e.map(|()| unreachable!()));
            }
        });
    }
}

/// Rule 4: every call taking a `TxqId` needs one `add_txq` returned and not removed
/// since; a stale id (its slot reused) never reaches the slot's new TXQ.
#[test]
fn rule_4_calls_taking_a_txq_need_a_live_one() {
    for mode in modes() {
        let mut f = fixture(mode);
        let never = TxqId {
            index: 1000,
            generation: 0,
        };
        let (stale, reused) = (f.stale_txq, f.txqs[0]);
        f.refuses(|s| {
            for t in [stale, never] {
                let e = Err(SchedError::UnknownTxq(t.index));
                assert_eq!(s.return_txq(t, true, T0), e);
                assert_eq!(s.return_txq(t, false, T0), e);
                assert_eq!(s.unschedule(t), e);
                assert_eq!(s.may_transmit(t, &mut NoAql), e.map(|()| true));
                assert_eq!(s.may_transmit_at(t, &mut NoAql, T0), e.map(|()| true));
                assert_eq!(s.remove_txq(t), e);
                assert_eq!(s.txq_owner(t), e.map(|()| unreachable!()));
            }
        });
        assert_eq!(f.s.txq_owner(reused), Ok((Some(StationId(0)), tid(0))));
    }
}

/// Rule 5: at most `MAX_TXQS` TXQs and `MAX_GROUPS` groups at once.
#[test]
fn rule_5_txqs_and_groups_are_bounded() {
    for mode in modes() {
        let mut f = fixture(mode);
        // The limits themselves (2^30) are beyond a test's memory: lowered to what
        // exists.
        let (txqs, groups) = (f.s.txq_slots() as u32, f.s.group_slots() as u32);
        f.s.test_capacity = Some(txqs);
        f.s.add_station(StationId(20)).unwrap();
        f.refuses(|s| {
            assert_eq!(s.add_txq(None, tid(0)), Err(SchedError::TooManyTxqs));
            assert_eq!(
                s.add_txq(Some(StationId(20)), tid(1)),
                Err(SchedError::TooManyTxqs)
            );
        });
        f.s.test_capacity = Some(groups);
        f.refuses(|s| {
            assert_eq!(
                s.add_group(None, 256, GroupMode::Share),
                Err(SchedError::TooManyGroups)
            );
        });
        // A removed one makes room again.
        f.s.remove_station(StationId(0)).unwrap();
        f.s.test_capacity = Some(txqs);
        assert!(f.s.add_txq(None, tid(0)).is_ok());
    }
}

/// Rule 6: weights — of stations and groups — are 1 to `MAX_WEIGHT_US` µs.
#[test]
fn rule_6_weights_are_in_range() {
    for mode in modes() {
        let mut f = fixture(mode);
        let a = f.a;
        f.refuses(|s| {
            for w in [0, AirtimeParams::MAX_WEIGHT_US + 1, u32::MAX] {
                let e = Err(SchedError::WeightOutOfRange(w));
                assert_eq!(s.set_weight(StationId(0), w), e);
                assert_eq!(s.add_group(None, w, GroupMode::Share), e.map(|()| a));
                assert_eq!(s.add_group(Some(a), w, GroupMode::Limit), e.map(|()| a));
                assert_eq!(s.set_group_weight(a, w), e);
            }
        });
        assert!(f
            .s
            .set_weight(StationId(0), AirtimeParams::MAX_WEIGHT_US)
            .is_ok());
        assert!(f.s.set_group_weight(a, 1).is_ok());
    }
}

/// Rule 7: every call taking a `GroupId` needs a live group; a stale id (its slot
/// reused) never reaches the slot's new group.
#[test]
fn rule_7_calls_taking_a_group_need_a_live_one() {
    for mode in modes() {
        let mut f = fixture(mode);
        let never = GroupId {
            index: 77,
            generation: 0,
        };
        let (a, b) = (f.a, f.b);
        let stale = f.stale_group;
        f.refuses(|s| {
            for g in [stale, never] {
                let e = Err(SchedError::UnknownGroup(g.index));
                assert_eq!(s.add_group(Some(g), 256, GroupMode::Share), e.map(|()| a));
                assert_eq!(s.remove_group(g), e);
                assert_eq!(s.set_group_weight(g, 256), e);
                assert_eq!(s.set_group_mode(g, GroupMode::Limit), e);
                assert_eq!(s.set_group_parent(g, None), e);
                assert_eq!(s.set_group_parent(b, Some(g)), e);
                assert_eq!(s.set_station_group(StationId(0), Some(g)), e);
                assert_eq!(s.group_stats(g), e.map(|()| unreachable!()));
            }
        });
        assert_eq!(f.s.group_stats(a).unwrap().group, a);
    }
}

/// Rule 8: groups nest without cycles.
#[test]
fn rule_8_groups_nest_without_cycles() {
    for mode in modes() {
        let mut f = fixture(mode);
        let (a, b) = (f.a, f.b);
        f.refuses(|s| {
            assert_eq!(
                s.set_group_parent(a, Some(a)),
                Err(SchedError::GroupCycle(a.index))
            );
            assert_eq!(
                s.set_group_parent(a, Some(b)),
                Err(SchedError::GroupCycle(a.index))
            );
            assert_eq!(
                s.set_group_parent(b, Some(b)),
                Err(SchedError::GroupCycle(b.index))
            );
        });
    }
}

/// Rule 9: at most `MAX_GROUP_DEPTH` levels of groups, whether a group is created
/// deep or a subtree is moved deeper.
#[test]
fn rule_9_groups_nest_at_most_max_group_depth() {
    for mode in modes() {
        let mut f = fixture(mode);
        // a and b, then six more: eight levels.
        let mut chain = alloc::vec![f.a, f.b];
        while chain.len() < MAX_GROUP_DEPTH as usize {
            let deepest = *chain.last().unwrap();
            chain.push(f.s.add_group(Some(deepest), 256, GroupMode::Share).unwrap());
        }
        let c = f.s.add_group(None, 256, GroupMode::Share).unwrap();
        f.s.add_group(Some(c), 256, GroupMode::Share).unwrap();
        let deepest = chain[7];
        f.refuses(|s| {
            assert_eq!(
                s.add_group(Some(deepest), 256, GroupMode::Share),
                Err(SchedError::GroupTooDeep(deepest.index))
            );
            // c and its subgroup below seven levels would make nine.
            assert_eq!(
                s.set_group_parent(c, Some(chain[6])),
                Err(SchedError::GroupTooDeep(chain[6].index))
            );
        });
        assert!(f.s.set_group_parent(c, Some(chain[5])).is_ok());
    }
}

/// Rule 10: `remove_group` removes an empty group only.
#[test]
fn rule_10_only_empty_groups_are_removed() {
    for mode in modes() {
        let mut f = fixture(mode);
        let (a, b) = (f.a, f.b);
        f.refuses(|s| {
            // a holds station 1 and group b; b holds station 2.
            assert_eq!(s.remove_group(a), Err(SchedError::GroupNotEmpty(a.index)));
            assert_eq!(s.remove_group(b), Err(SchedError::GroupNotEmpty(b.index)));
        });
        f.s.set_station_group(StationId(2), None).unwrap();
        assert!(f.s.remove_group(b).is_ok());
    }
}

/// A gate that breaks rule 11: every answer is a fresh pseudo-random one — refusals,
/// rounds refused, pending airtime up to `u32::MAX` µs. Counts the questions of a
/// call, and fails the test past `limit`, so that a livelock fails rather than hangs.
struct LyingGate {
    state: u64,
    questions: u64,
    limit: u64,
    most: u64,
}

impl LyingGate {
    fn next(&mut self) -> u64 {
        // xorshift64*: a fixed sequence, so the test is reproducible.
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.questions += 1;
        self.most = self.most.max(self.questions);
        assert!(
            self.questions <= self.limit,
            "livelock: {} questions",
            self.questions
        );
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32
    }
}

impl AirtimeGate for LyingGate {
    fn pending_us(&self, station: StationId, ac: Ac) -> u32 {
        // `&self`: a function of the questions asked so far, which change it.
        let x = self.state ^ (u64::from(station.0) << 8) ^ ac.index() as u64;
        [0, 300, 20_000, u32::MAX][(x % 4) as usize]
    }
    fn station_may_dequeue(&mut self, _station: StationId, _ac: Ac, _now: Instant) -> bool {
        self.next() % 3 != 0
    }
    fn phy_may_schedule(&mut self, _ac: Ac, _active_txqs: u32) -> bool {
        self.next() % 5 != 0
    }
}

/// Rule 11: the gate answers the same within one call. A gate that does not gets
/// answers that may differ from mac80211's loop, but every call still ends after
/// bounded work, with each TXQ listed at most once and the listed count right.
#[test]
fn rule_11_a_gate_that_changes_its_answers_costs_bounded_work() {
    for mode in modes() {
        let mut f = fixture(mode);
        let entries = (f.txqs.len() + 2 + 3) as u64;
        // A pass asks at most a few questions per entry, and a call walks at most one
        // pass per entry and a few more.
        let mut gate = LyingGate {
            state: 0x9e37_79b9_7f4a_7c15,
            questions: 0,
            limit: 16 * entries * entries,
            most: 0,
        };
        let mut now = T0;
        for step in 0..3_000u32 {
            now += Duration::from_micros(500);
            gate.questions = 0;
            let handed = if mode == SchedulingMode::StationFirst {
                f.s.schedule_start_any(&mut gate);
                f.s.next_txq_any(&mut gate, now)
            } else {
                let ac = Ac::ALL[step as usize % 4];
                f.s.schedule_start(ac, &mut gate);
                f.s.next_txq(ac, &mut gate, now)
            };
            if let Some(t) = handed {
                let (station, tid) = f.s.txq_owner(t).unwrap();
                if let Some(id) = station {
                    f.s.register_airtime(id, tid, (step % 7) * 1_000, 0, now)
                        .unwrap();
                }
                f.s.return_txq(t, true, now).unwrap();
            }
            if step % 97 == 0 {
                let t = f.txqs[step as usize % f.txqs.len()];
                f.s.may_transmit_at(t, &mut gate, now).unwrap();
            }
            let mut listed: Vec<TxqId> =
                Ac::ALL.iter().flat_map(|&ac| f.s.active_txqs(ac)).collect();
            let count = listed.len();
            listed.sort();
            listed.dedup();
            assert_eq!(listed.len(), count, "a TXQ listed twice");
            let counted: u32 = Ac::ALL.iter().map(|&ac| f.s.active_txq_count(ac)).sum();
            assert_eq!(counted as usize, count);
        }
        std::eprintln!("{mode:?}: at most {} questions in a call", gate.most);
        assert!(gate.most > 4, "the gate was asked");
    }
}

/// Rule 12: any airtime (up to `u32::MAX` µs per call, TX and RX), any pending airtime
/// and any `now` — backwards, or at the end of time — is taken: no panic, deficits
/// within their bounds, and the scheduler still serves everyone.
#[test]
fn rule_12_any_airtime_and_any_time_are_taken() {
    for mode in modes() {
        let mut f = fixture(mode);
        let ends = [T0, Instant::from_secs(5), Instant::from_nanos(u64::MAX), T0];
        for (k, &now) in ends.iter().enumerate() {
            for i in 0..3 {
                for _ in 0..64 {
                    f.s.register_airtime(StationId(i), tid(0), u32::MAX, u32::MAX, now)
                        .unwrap();
                }
            }
            for &t in &f.txqs {
                f.s.return_txq(t, true, now).unwrap();
            }
            let mut served = Vec::new();
            for _ in 0..f.txqs.len() {
                f.s.schedule_start_any(&mut NoAql);
                if let Some(t) = f.s.next_txq_any(&mut NoAql, now) {
                    served.push(t);
                    f.s.return_txq(t, true, now).unwrap();
                }
            }
            assert!(!served.is_empty(), "nothing served at {now:?} ({k})");
            f.s.next_timeout(now);
        }
        for i in 0..3 {
            let stats = f.s.station_stats(StationId(i)).unwrap();
            for d in stats.deficit_us {
                assert!(d > i64::MIN / 2 && d < 1 << 35, "{d}");
            }
        }
    }
}

/// Errors are register-sized, and their messages name what is wrong.
#[test]
fn errors_are_register_sized_and_name_what_is_wrong() {
    assert!(core::mem::size_of::<SchedError>() <= 8);
    for (e, needle) in [
        (
            SchedError::WeightOutOfRange(0),
            "between 1 and 65535 us, got 0",
        ),
        (
            SchedError::UnknownStation(StationId(4)),
            "station 4 is not registered",
        ),
        (SchedError::UnknownTxq(3), "TXQ 3 does not exist"),
        (
            SchedError::UnknownGroup(9),
            "group 9 does not exist (never created, or removed since)",
        ),
        (
            SchedError::GroupCycle(0),
            "group 0 cannot be nested in itself or in a group inside it",
        ),
        (
            SchedError::GroupTooDeep(1),
            "nesting in group 1 would make groups more than 8 deep",
        ),
        (
            SchedError::GroupNotEmpty(8),
            "group 8 still has stations or groups",
        ),
        (SchedError::TooManyGroups, "groups exist already"),
    ] {
        let text = format!("{e}");
        assert!(text.contains(needle), "{text:?} lacks {needle:?}");
    }
}
