//! A synthetic driver for the policy tests, in the style of `tests.rs`'s
//! `run_synthetic`: a backlogged TXQ always has data; each time the scheduler hands it
//! out it sends one aggregate of its own fixed airtime, which the clock advances by and
//! which is reported at once. When a round hands out nothing, the channel stays idle
//! until the scheduler's [`next_timeout`](AirtimeScheduler::next_timeout).

use super::*;
use crate::ids::{StationId, Tid};
use crate::time::{Duration, Instant};
use alloc::vec::Vec;

pub(super) const BE: Tid = match Tid::new(0) {
    Some(t) => t,
    None => unreachable!(),
};
pub(super) const VO: Tid = match Tid::new(6) {
    Some(t) => t,
    None => unreachable!(),
};

pub(super) struct Synthetic {
    pub(super) s: AirtimeScheduler,
    /// Per TXQ: the airtime of one of its aggregates, µs.
    aggregate_us: Vec<u32>,
    /// Per TXQ: whether it is always backlogged (else it is drained when served).
    backlogged: Vec<bool>,
    pub(super) now: Instant,
    /// Per station: airtime it got, µs.
    pub(super) airtime_us: Vec<u64>,
    /// The TXQs handed out, in order.
    pub(super) served: Vec<TxqId>,
}

/// Which scheduling calls the driver makes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Calls {
    /// `schedule_start` and `next_txq` of one AC.
    Ac(Ac),
    /// `schedule_start_any` and `next_txq_any`.
    Any,
}

impl Synthetic {
    pub(super) fn new(params: AirtimeParams) -> Self {
        Synthetic {
            s: AirtimeScheduler::new(params).unwrap(),
            aggregate_us: Vec::new(),
            backlogged: Vec::new(),
            now: Instant::ZERO,
            airtime_us: Vec::new(),
            served: Vec::new(),
        }
    }

    /// Registers the next station (identifiers from 0).
    pub(super) fn station(&mut self) -> StationId {
        let id = StationId(self.airtime_us.len() as u32);
        self.s.add_station(id).unwrap();
        self.airtime_us.push(0);
        id
    }

    /// A TXQ of `station` and `tid` whose aggregates take `aggregate_us`; backlogged
    /// from the start, or not.
    pub(super) fn txq(
        &mut self,
        station: StationId,
        tid: Tid,
        aggregate_us: u32,
        backlogged: bool,
    ) -> TxqId {
        let t = self.s.add_txq(Some(station), tid).unwrap();
        self.aggregate_us.push(aggregate_us);
        self.backlogged.push(backlogged);
        if backlogged {
            self.s.return_txq(t, true, self.now).unwrap();
        }
        t
    }

    /// A station with one always-backlogged BE TXQ.
    pub(super) fn be_station(&mut self, aggregate_us: u32, group: Option<GroupId>) -> StationId {
        let id = self.station();
        self.s.set_station_group(id, group).unwrap();
        self.txq(id, BE, aggregate_us, true);
        id
    }

    /// Runs `rounds` scheduling rounds.
    pub(super) fn run(&mut self, rounds: usize, calls: Calls) {
        for _ in 0..rounds {
            match calls {
                Calls::Ac(ac) => self.s.schedule_start(ac, &mut NoAql),
                Calls::Any => self.s.schedule_start_any(&mut NoAql),
            }
            let mut served_any = false;
            loop {
                let next = match calls {
                    Calls::Ac(ac) => self.s.next_txq(ac, &mut NoAql, self.now),
                    Calls::Any => self.s.next_txq_any(&mut NoAql, self.now),
                };
                let Some(t) = next else { break };
                served_any = true;
                self.send(t);
            }
            if !served_any {
                if let Some(t) = self.s.next_timeout(self.now) {
                    assert!(t > self.now, "a timeout in the past: {t} at {}", self.now);
                    self.now = t;
                }
            }
        }
    }

    /// Serves `t`: one aggregate, reported at once; handed back with data if it is
    /// backlogged.
    pub(super) fn send(&mut self, t: TxqId) {
        let (station, tid) = self.s.txq_owner(t).unwrap();
        let station = station.unwrap();
        let airtime_us = self.aggregate_us[t.index()];
        self.served.push(t);
        self.airtime_us[station.0 as usize] += u64::from(airtime_us);
        self.now += Duration::from_micros(u64::from(airtime_us));
        self.s
            .register_airtime(station, tid, airtime_us, 0, self.now)
            .unwrap();
        self.s
            .return_txq(t, self.backlogged[t.index()], self.now)
            .unwrap();
    }

    /// Airtime of a set of stations over all airtime used.
    pub(super) fn share_of_airtime(&self, stations: &[StationId]) -> f64 {
        let total: u64 = self.airtime_us.iter().sum();
        self.airtime_of(stations) as f64 / total as f64
    }

    /// Airtime of a set of stations over the wall time elapsed.
    pub(super) fn share_of_time(&self, stations: &[StationId]) -> f64 {
        self.airtime_of(stations) as f64 / self.now.as_nanos() as f64 * 1000.0
    }

    fn airtime_of(&self, stations: &[StationId]) -> u64 {
        stations.iter().map(|s| self.airtime_us[s.0 as usize]).sum()
    }
}

/// `got` within `tolerance` (relative) of `expected`.
pub(super) fn assert_near(what: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() / expected <= tolerance,
        "{what}: {got:.4}, expected {expected:.4} ± {:.0}%",
        tolerance * 100.0
    );
}
