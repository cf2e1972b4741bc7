//! Differential test of the airtime scheduler's two instances of its one DRR walk
//! (`drr.rs`): the flat one (mac80211's loop over lists of TXQs alone), which runs
//! while no group exists, and the one for the hierarchy, which runs once one does.
//! With a group that nobody is in, every station's TXQs sit on the root list and the
//! hierarchy's walk must be exactly mac80211's flat walk.
//!
//! Two schedulers get the same stations, TXQs and weights; one of them also gets an
//! empty group (at the start or part-way through). Both are driven by the same random
//! operations — `return_txq`, rounds of `schedule_start` and `next_txq`,
//! `register_airtime` (now and then of `u32::MAX` µs), `may_transmit(_at)`,
//! `unschedule`, `set_weight` (down to 1 µs), stations leaving and coming back, the
//! group replaced by another (through the flat code and back), time passing the 100 ms
//! active window — each with its own copy of a deterministic AQL stand-in that refuses
//! stations, refuses rounds and reports pending airtime (up to `u32::MAX` µs) as the
//! operations set it. After every operation the answers, every station's statistics
//! (deficits and refills included), the lists, and the sequence of questions each
//! scheduler asked its gate must be equal. Per-AC mode only: station-first mode always
//! runs the tree.

use airq::airtime::{
    AirtimeGate, AirtimeParams, AirtimeScheduler, GroupId, GroupMode, StationAirtimeStats, TxqId,
};
use airq::{Ac, Duration, Instant, StationId, Tid};
use proptest::prelude::*;
use std::cell::RefCell;

const STATIONS: u32 = 4;
/// Per station: two TIDs of BE (so a station can have two TXQs on one list) and VO.
const TIDS: [u8; 3] = [0, 3, 6];
/// Station TXQs, then one interface (multicast) TXQ of BE.
const TXQS: usize = STATIONS as usize * TIDS.len() + 1;

#[derive(Clone, Debug)]
enum Op {
    Return {
        txq: usize,
        has_queue: bool,
    },
    /// `schedule_start` of `ac`, then up to `max` `next_txq`; each TXQ handed out is
    /// given back at once, with data, if `give_back`.
    Round {
        ac: Ac,
        max: usize,
        give_back: bool,
    },
    /// `next_txq` without a new round.
    Next {
        ac: Ac,
    },
    Register {
        station: u32,
        tid: u8,
        tx_us: u32,
        rx_us: u32,
    },
    MayTransmit {
        txq: usize,
    },
    MayTransmitAt {
        txq: usize,
    },
    Unschedule {
        txq: usize,
    },
    SetWeight {
        station: u32,
        weight_us: u32,
    },
    Advance {
        us: u64,
    },
    /// The station gate refuses (or allows) a station in an AC.
    GateRefuse {
        station: u32,
        ac: Ac,
        refuse: bool,
    },
    /// Airtime pending below the MAC for a station in an AC.
    GatePending {
        station: u32,
        ac: Ac,
        pending_us: u32,
    },
    /// The PHY gate refuses (or allows) rounds of an AC.
    PhyRefuse {
        ac: Ac,
        refuse: bool,
    },
    /// The station leaves (its TXQs with it) and comes back with new TXQs.
    Rejoin {
        station: u32,
    },
    /// The scheduler with the group removes it, going back to the flat code, and
    /// creates another.
    RecreateGroup,
}

fn ac() -> impl Strategy<Value = Ac> {
    prop_oneof![Just(Ac::Be), Just(Ac::Vo), Just(Ac::Vi)]
}

fn airtime_us() -> impl Strategy<Value = u32> {
    prop_oneof![
        12 => 0u32..5_000,
        2 => 0u32..50_000,
        1 => Just(u32::MAX),
    ]
}

fn pending_us() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => Just(0u32),
        4 => 0u32..3_000,
        4 => 0u32..30_000,
        1 => Just(u32::MAX),
    ]
}

fn weight_us() -> impl Strategy<Value = u32> {
    prop_oneof![
        1 => 1u32..16,
        4 => 16u32..2_000,
        2 => Just(256u32),
        1 => Just(AirtimeParams::MAX_WEIGHT_US),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let station = 0..STATIONS;
    let tid = prop::sample::select(TIDS.to_vec());
    prop_oneof![
        6 => (0..TXQS, any::<bool>()).prop_map(|(txq, has_queue)| Op::Return { txq, has_queue }),
        4 => (ac(), 1usize..6, any::<bool>())
            .prop_map(|(ac, max, give_back)| Op::Round { ac, max, give_back }),
        1 => ac().prop_map(|ac| Op::Next { ac }),
        4 => (station.clone(), tid, airtime_us(), airtime_us())
            .prop_map(|(station, tid, tx_us, rx_us)| Op::Register { station, tid, tx_us, rx_us }),
        1 => (0..TXQS).prop_map(|txq| Op::MayTransmit { txq }),
        1 => (0..TXQS).prop_map(|txq| Op::MayTransmitAt { txq }),
        1 => (0..TXQS).prop_map(|txq| Op::Unschedule { txq }),
        1 => (station.clone(), weight_us())
            .prop_map(|(station, weight_us)| Op::SetWeight { station, weight_us }),
        2 => prop_oneof![0u64..5_000, 0u64..150_000].prop_map(|us| Op::Advance { us }),
        1 => (station.clone(), ac(), prop::bool::weighted(0.3))
            .prop_map(|(station, ac, refuse)| Op::GateRefuse { station, ac, refuse }),
        1 => (station, ac(), pending_us())
            .prop_map(|(station, ac, pending_us)| Op::GatePending { station, ac, pending_us }),
        1 => (ac(), prop::bool::weighted(0.3))
            .prop_map(|(ac, refuse)| Op::PhyRefuse { ac, refuse }),
        1 => (0..STATIONS).prop_map(|station| Op::Rejoin { station }),
        1 => Just(Op::RecreateGroup),
    ]
}

fn params() -> impl Strategy<Value = AirtimeParams> {
    (
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.8),
        any::<bool>(),
    )
        .prop_map(|(fairness, use_tx, use_rx)| AirtimeParams {
            fairness,
            use_tx,
            use_rx,
            ..AirtimeParams::default()
        })
}

/// A question a scheduler asked its gate, with the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Question {
    Pending(StationId, Ac, u32),
    MayDequeue(StationId, Ac, Instant, bool),
    PhyMaySchedule(Ac, u32, bool),
}

/// A deterministic AQL stand-in: its answers are what the operations set, and it
/// records every question.
#[derive(Default)]
struct MockGate {
    refused: [[bool; Ac::COUNT]; STATIONS as usize],
    pending_us: [[u32; Ac::COUNT]; STATIONS as usize],
    phy_refused: [bool; Ac::COUNT],
    /// `pending_us` takes `&self`.
    questions: RefCell<Vec<Question>>,
}

impl AirtimeGate for MockGate {
    fn pending_us(&self, station: StationId, ac: Ac) -> u32 {
        let us = self.pending_us[station.0 as usize][ac.index()];
        self.questions
            .borrow_mut()
            .push(Question::Pending(station, ac, us));
        us
    }

    fn station_may_dequeue(&mut self, station: StationId, ac: Ac, now: Instant) -> bool {
        let ok = !self.refused[station.0 as usize][ac.index()];
        self.questions
            .get_mut()
            .push(Question::MayDequeue(station, ac, now, ok));
        ok
    }

    fn phy_may_schedule(&mut self, ac: Ac, active_txqs: u32) -> bool {
        let ok = !self.phy_refused[ac.index()];
        self.questions
            .get_mut()
            .push(Question::PhyMaySchedule(ac, active_txqs, ok));
        ok
    }
}

/// What a scheduler answered to one operation.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    None,
    Handed(Vec<TxqId>),
    Allowed(bool),
}

/// Everything observable of a scheduler after an operation.
#[derive(Debug, PartialEq, Eq)]
struct Observed {
    answer: Answer,
    questions: Vec<Question>,
    stations: Vec<StationAirtimeStats>,
    lists: Vec<Vec<TxqId>>,
    rounds_allowed: Vec<bool>,
}

struct Side {
    s: AirtimeScheduler,
    gate: MockGate,
    txqs: Vec<TxqId>,
    now: Instant,
    /// The empty group, on the side that has one.
    group: Option<GroupId>,
}

impl Side {
    fn new(params: AirtimeParams) -> Self {
        let mut s = AirtimeScheduler::new(params).unwrap();
        let mut txqs = Vec::new();
        for i in 0..STATIONS {
            s.add_station(StationId(i)).unwrap();
            for tid in TIDS {
                txqs.push(
                    s.add_txq(Some(StationId(i)), Tid::new(tid).unwrap())
                        .unwrap(),
                );
            }
        }
        txqs.push(s.add_txq(None, Tid::new(0).unwrap()).unwrap());
        Side {
            s,
            gate: MockGate::default(),
            txqs,
            now: Instant::ZERO,
            group: None,
        }
    }

    fn add_group(&mut self) {
        self.group = Some(self.s.add_group(None, 512, GroupMode::Share).unwrap());
    }

    fn apply(&mut self, op: &Op) -> Observed {
        let answer = match *op {
            Op::Return { txq, has_queue } => {
                self.s
                    .return_txq(self.txqs[txq], has_queue, self.now)
                    .unwrap();
                Answer::None
            }
            Op::Round { ac, max, give_back } => {
                self.s.schedule_start(ac, &mut self.gate);
                let mut handed = Vec::new();
                for _ in 0..max {
                    let Some(t) = self.s.next_txq(ac, &mut self.gate, self.now) else {
                        break;
                    };
                    handed.push(t);
                    if give_back {
                        self.s.return_txq(t, true, self.now).unwrap();
                    }
                }
                Answer::Handed(handed)
            }
            Op::Next { ac } => {
                let t = self.s.next_txq(ac, &mut self.gate, self.now);
                Answer::Handed(t.into_iter().collect())
            }
            Op::Register {
                station,
                tid,
                tx_us,
                rx_us,
            } => {
                let tid = Tid::new(tid).unwrap();
                self.s
                    .register_airtime(StationId(station), tid, tx_us, rx_us, self.now)
                    .unwrap();
                Answer::None
            }
            Op::MayTransmit { txq } => {
                Answer::Allowed(self.s.may_transmit(self.txqs[txq], &mut self.gate).unwrap())
            }
            Op::MayTransmitAt { txq } => Answer::Allowed(
                self.s
                    .may_transmit_at(self.txqs[txq], &mut self.gate, self.now)
                    .unwrap(),
            ),
            Op::Unschedule { txq } => {
                self.s.unschedule(self.txqs[txq]).unwrap();
                Answer::None
            }
            Op::SetWeight { station, weight_us } => {
                self.s.set_weight(StationId(station), weight_us).unwrap();
                Answer::None
            }
            Op::Advance { us } => {
                self.now += Duration::from_micros(us);
                Answer::None
            }
            Op::GateRefuse {
                station,
                ac,
                refuse,
            } => {
                self.gate.refused[station as usize][ac.index()] = refuse;
                Answer::None
            }
            Op::GatePending {
                station,
                ac,
                pending_us,
            } => {
                self.gate.pending_us[station as usize][ac.index()] = pending_us;
                Answer::None
            }
            Op::PhyRefuse { ac, refuse } => {
                self.gate.phy_refused[ac.index()] = refuse;
                Answer::None
            }
            Op::Rejoin { station } => {
                let id = StationId(station);
                self.s.remove_station(id).unwrap();
                self.s.add_station(id).unwrap();
                for (k, tid) in TIDS.into_iter().enumerate() {
                    let txq = self.s.add_txq(Some(id), Tid::new(tid).unwrap()).unwrap();
                    self.txqs[station as usize * TIDS.len() + k] = txq;
                }
                Answer::None
            }
            Op::RecreateGroup => {
                if let Some(g) = self.group.take() {
                    self.s.remove_group(g).unwrap();
                    self.add_group();
                }
                Answer::None
            }
        };
        Observed {
            answer,
            questions: self.gate.questions.take(),
            stations: (0..STATIONS)
                .map(|i| self.s.station_stats(StationId(i)).unwrap())
                .collect(),
            lists: Ac::ALL
                .iter()
                .map(|&ac| self.s.active_txqs(ac).collect())
                .collect(),
            rounds_allowed: Ac::ALL.iter().map(|&ac| self.s.round_allowed(ac)).collect(),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: super::proptest_cases(512), ..ProptestConfig::default() })]

    #[test]
    fn an_empty_group_changes_no_choice_of_the_flat_scheduler(
        params in params(),
        ops in prop::collection::vec(op(), 1..300),
        group_at in prop_oneof![Just(0usize), 0usize..300],
    ) {
        let mut flat = Side::new(params);
        let mut tree = Side::new(params);
        for (i, op) in ops.iter().enumerate() {
            if i == group_at.min(ops.len() - 1) {
                tree.add_group();
            }
            let f = flat.apply(op);
            let t = tree.apply(op);
            prop_assert_eq!(f, t, "after operation {}: {:?}", i, op);
        }
    }
}
