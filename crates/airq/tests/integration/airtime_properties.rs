//! Random driver behaviour against the airtime scheduler: every microsecond reported for
//! an active station is charged to its deficit exactly once (deficit = weight ·
//! (1 + refills) − charged), statistics equal what was reported, and the TXQ lists stay
//! consistent — no TXQ listed twice, none handed out twice in one round.

use airq::airtime::{AirtimeParams, AirtimeScheduler, NoAql, TxqId};
use airq::{Ac, Duration, Instant, StationId, Tid};
use proptest::prelude::*;
use std::collections::BTreeSet;

const STATIONS: u32 = 4;
const WEIGHT: i64 = 256;

#[derive(Clone, Debug)]
enum Op {
    Return {
        txq: usize,
        has_queue: bool,
    },
    Round {
        vo: bool,
        max: usize,
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
}

fn op() -> impl Strategy<Value = Op> {
    let txqs = 0..(STATIONS as usize * 2 + 1);
    prop_oneof![
        4 => (txqs.clone(), any::<bool>()).prop_map(|(txq, has_queue)| Op::Return { txq, has_queue }),
        3 => (any::<bool>(), 1usize..5).prop_map(|(vo, max)| Op::Round { vo, max }),
        3 => (0..STATIONS, any::<bool>(), 0u32..5000, 0u32..500)
            .prop_map(|(station, vo, tx, rx)| Op::Register { station, vo, tx, rx }),
        1 => txqs.prop_map(|txq| Op::MayTransmit { txq }),
        2 => (0u64..150).prop_map(|ms| Op::Advance { ms }),
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
}

fn tid(vo: bool) -> Tid {
    Tid::new(if vo { 6 } else { 0 }).unwrap()
}

impl Harness {
    fn new() -> Self {
        let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
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
        }
    }

    fn listed(&self, txq: TxqId) -> bool {
        Ac::ALL
            .iter()
            .any(|&ac| self.s.active_txqs(ac).any(|t| t == txq))
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Return { txq, has_queue } => {
                let id = self.txqs[txq];
                let (station, t) = self.s.txq_owner(id).unwrap();
                if !self.listed(id) && has_queue {
                    if let Some(st) = station {
                        self.last_active[st.0 as usize][t.ac().index()] = Some(self.now);
                    }
                }
                self.s.return_txq(id, has_queue, self.now).unwrap();
            }
            Op::Round { vo, max } => {
                let ac = tid(vo).ac();
                self.s.schedule_start(ac, &mut NoAql);
                let mut served = BTreeSet::new();
                for _ in 0..max {
                    let listed_before: BTreeSet<TxqId> = self.s.active_txqs(ac).collect();
                    let Some(t) = self.s.next_txq(ac, &mut NoAql, self.now) else {
                        break;
                    };
                    assert!(listed_before.contains(&t), "handed out an unlisted TXQ");
                    assert!(served.insert(t), "{t:?} handed out twice in one round");
                    assert!(!self.listed(t), "a TXQ the driver holds stays unlisted");
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
                    self.charged[i][ac] += i64::from(tx) + i64::from(rx);
                }
                self.reported[i][ac].0 += u64::from(tx);
                self.reported[i][ac].1 += u64::from(rx);
                self.s
                    .register_airtime(StationId(station), tid(vo), tx, rx, self.now)
                    .unwrap();
            }
            Op::MayTransmit { txq } => {
                let id = self.txqs[txq];
                if self.s.may_transmit(id, &mut NoAql).unwrap() {
                    assert!(!self.listed(id), "allowed TXQs are unlisted");
                }
            }
            Op::Advance { ms } => self.now += Duration::from_millis(ms),
        }
    }

    fn check(&self) {
        for i in 0..STATIONS as usize {
            let st = self.s.station_stats(StationId(i as u32)).unwrap();
            for ac in 0..4 {
                assert_eq!(st.tx_airtime_us[ac], self.reported[i][ac].0);
                assert_eq!(st.rx_airtime_us[ac], self.reported[i][ac].1);
                let expected = WEIGHT * (1 + st.refills[ac] as i64) - self.charged[i][ac];
                assert_eq!(
                    i64::from(st.deficit_us[ac]),
                    expected,
                    "station {i} AC {ac}"
                );
            }
        }
        for ac in Ac::ALL {
            let listed: Vec<TxqId> = self.s.active_txqs(ac).collect();
            let unique: BTreeSet<TxqId> = listed.iter().copied().collect();
            assert_eq!(listed.len(), unique.len(), "a TXQ listed twice in {ac}");
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
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn airtime_charged_equals_airtime_reported(ops in prop::collection::vec(op(), 1..200)) {
        let mut h = Harness::new();
        for op in ops {
            h.apply(op);
            h.check();
        }
    }
}
