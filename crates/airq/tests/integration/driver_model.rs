//! The operation model of a hostile or buggy driver (issue 20: fuzzing as a habit),
//! shared by the random test beside it (`driver_fuzz.rs`, proptest strategies) and the
//! `library_ops` fuzz target (`fuzz/src/library_ops.rs`, which decodes the same
//! operations from bytes and includes this file by path): [`Fq`], the airtime scheduler
//! — flat and with groups, per-AC and station-first — and [`Aql`] driven together as a
//! driver uses them, mixed with calls outside the contract: stale TXQ and tin ids,
//! packets and airtime of any size up to `u32::MAX`, releases of airtime never charged,
//! stations leaving with packets queued and in flight.
//!
//! [`Driver::check`] runs after every step: the FQ accounting at flow, tin and global
//! level and its limits ([`Fq::assert_invariants`]); every packet offered is delivered,
//! dropped, refused with an error, or still queued; AQL's per-AC counters are the sums
//! over stations, its total the sum over ACs; no TXQ is listed twice or listed after it
//! was removed; DRR deficits stay within what the parameters allow; and a round hands
//! out each TXQ at most once, so every `next_txq` loop ends. [`Driver::drain`] serves
//! everything out at the end: nothing is lost.

use airq::airtime::{
    AirtimeParams, AirtimeScheduler, GroupId, GroupMode, SchedError, SchedulingMode, TxqId,
};
use airq::aql::{Aql, AqlError, AqlParams};
use airq::fq::MAX_PACKET_BYTES;
use airq::{
    Ac, Duration, Fq, FqError, FqParams, Instant, Quantum, SimplePacket, StationId, Tid, TinId,
};
use std::collections::BTreeMap;

pub const STATIONS: u32 = 5;
/// The TIDs each station gets a TXQ for: one per AC (BE, BK, VI, VO).
pub const TIDS: [u8; 4] = [0, 1, 4, 6];

#[derive(Clone, Debug)]
pub enum Op {
    AddStation(u32),
    RemoveStation(u32),
    Enqueue {
        station: u32,
        tid: usize,
        flow: u32,
        len: u32,
    },
    /// A driver's scheduling round in one AC (or all, `None`), dequeuing up to `burst`
    /// packets from each TXQ handed out.
    Serve {
        ac: Option<usize>,
        burst: u32,
    },
    /// The hardware completes the oldest `count` packets in flight, and the driver
    /// reports their airtime.
    Complete {
        count: usize,
    },
    /// Out of contract or extreme: AQL charges and releases of any size, airtime of
    /// any size registered.
    Charge {
        station: u32,
        ac: usize,
        us: u32,
    },
    Release {
        station: u32,
        ac: usize,
        us: u32,
    },
    Register {
        station: u32,
        tid: usize,
        tx_us: u32,
        rx_us: u32,
    },
    SetWeight {
        station: u32,
        weight_us: u32,
    },
    SetQuantum {
        station: u32,
        tid: usize,
        quantum: Option<Quantum>,
    },
    /// Groups (when the case has them): puts a station in a group or back at the root.
    SetGroup {
        station: u32,
        group: Option<usize>,
    },
    /// A stale TXQ or tin id, of a station that left: must be an error.
    Stale,
    Advance {
        us: u64,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub mode: SchedulingMode,
    pub fairness: bool,
    pub groups: bool,
    pub limit_packets: u32,
}

/// A station's TXQs and their tins, by position in [`TIDS`].
pub struct Station {
    queues: Vec<(TxqId, TinId)>,
}

pub struct Driver {
    fq: Fq<SimplePacket>,
    sched: AirtimeScheduler,
    aql: Aql,
    stations: BTreeMap<u32, Station>,
    groups: Vec<GroupId>,
    /// Ids of stations that left.
    stale: Vec<(TxqId, TinId)>,
    /// Packets dequeued and not yet completed: station, AC, airtime charged.
    in_flight: Vec<(u32, Ac, u32)>,
    now: Instant,
    next_id: u64,
    offered: u64,
    delivered: u64,
    dropped: u64,
    refused: u64,
}

fn tid(i: usize) -> Tid {
    Tid::new(TIDS[i]).unwrap()
}

impl Driver {
    pub fn new(c: Config) -> Self {
        let fq = Fq::new(FqParams {
            flows: 16,
            limit_packets: c.limit_packets,
            memory_limit_bytes: 6_000_000_000,
            ..FqParams::default()
        })
        .unwrap();
        let mut sched = AirtimeScheduler::new(AirtimeParams {
            mode: c.mode,
            fairness: c.fairness,
            ..AirtimeParams::default()
        })
        .unwrap();
        let mut groups = Vec::new();
        if c.groups {
            let a = sched.add_group(None, 256, GroupMode::Share).unwrap();
            let b = sched.add_group(Some(a), 512, GroupMode::Limit).unwrap();
            let d = sched.add_group(None, 1, GroupMode::Share).unwrap();
            groups = vec![a, b, d];
        }
        Driver {
            fq,
            sched,
            aql: Aql::new(AqlParams::default()).unwrap(),
            stations: BTreeMap::new(),
            groups,
            stale: Vec::new(),
            in_flight: Vec::new(),
            now: Instant::ZERO,
            next_id: 0,
            offered: 0,
            delivered: 0,
            dropped: 0,
            refused: 0,
        }
    }

    pub fn apply(&mut self, op: &Op) {
        let now = self.now;
        match *op {
            Op::AddStation(i) => {
                let id = StationId(i);
                if self.stations.contains_key(&i) {
                    assert_eq!(
                        self.sched.add_station(id),
                        Err(SchedError::DuplicateStation(id))
                    );
                    assert_eq!(
                        self.aql.register_station(id),
                        Err(AqlError::StationAlreadyRegistered(id))
                    );
                    return;
                }
                self.sched.add_station(id).unwrap();
                self.aql.register_station(id).unwrap();
                let queues = (0..TIDS.len())
                    .map(|t| {
                        (
                            self.sched.add_txq(Some(id), tid(t)).unwrap(),
                            self.fq.add_tin(),
                        )
                    })
                    .collect();
                self.stations.insert(i, Station { queues });
            }
            Op::RemoveStation(i) => {
                let id = StationId(i);
                let Some(station) = self.stations.remove(&i) else {
                    assert_eq!(
                        self.sched.remove_station(id),
                        Err(SchedError::UnknownStation(id))
                    );
                    assert_eq!(
                        self.aql.unregister_station(id),
                        Err(AqlError::UnknownStation(id))
                    );
                    return;
                };
                for &(txq, tin) in &station.queues {
                    let dropped = &mut self.dropped;
                    self.fq.remove_tin(tin, |_| *dropped += 1).unwrap();
                    self.stale.push((txq, tin));
                }
                self.sched.remove_station(id).unwrap();
                self.aql.unregister_station(id).unwrap();
                self.in_flight.retain(|&(s, _, _)| s != i);
            }
            Op::Enqueue {
                station,
                tid: t,
                flow,
                len,
            } => {
                self.offered += 1;
                let p = SimplePacket::new(self.next_id, flow.wrapping_mul(0x9E37_79B9), len);
                self.next_id += 1;
                let Some(s) = self.stations.get(&station) else {
                    self.refused += 1;
                    return;
                };
                let (txq, tin) = s.queues[t];
                let dropped = &mut self.dropped;
                match self.fq.enqueue(tin, p, now, |_| *dropped += 1) {
                    Ok(()) => {
                        let has_queue = self.fq.has_queue(tin).unwrap();
                        self.sched.return_txq(txq, has_queue, now).unwrap();
                    }
                    Err(e) => {
                        assert_eq!(e.error, FqError::PacketTooLong(len));
                        assert!(len > MAX_PACKET_BYTES);
                        self.refused += 1;
                    }
                }
            }
            Op::Serve { ac, burst } => self.serve(ac.map(|a| Ac::ALL[a]), burst),
            Op::Complete { count } => {
                let n = count.min(self.in_flight.len());
                for (station, ac, us) in self.in_flight.drain(..n).collect::<Vec<_>>() {
                    let id = StationId(station);
                    // Ok(excess): a hostile release may have taken it already.
                    self.aql.report_completion(id, ac, us, now, false).unwrap();
                    let t = Tid::new(match ac {
                        Ac::Be => 0,
                        Ac::Bk => 1,
                        Ac::Vi => 4,
                        Ac::Vo => 6,
                    })
                    .unwrap();
                    self.sched.register_airtime(id, t, us, 0, now).unwrap();
                }
            }
            Op::Charge { station, ac, us } => {
                let r = self.aql.charge(StationId(station), Ac::ALL[ac], us);
                assert_eq!(r.is_ok(), self.stations.contains_key(&station));
            }
            Op::Release { station, ac, us } => {
                let r = self.aql.release(StationId(station), Ac::ALL[ac], us);
                assert_eq!(r.is_ok(), self.stations.contains_key(&station));
            }
            Op::Register {
                station,
                tid: t,
                tx_us,
                rx_us,
            } => {
                let r = self
                    .sched
                    .register_airtime(StationId(station), tid(t), tx_us, rx_us, now);
                assert_eq!(r.is_ok(), self.stations.contains_key(&station));
            }
            Op::SetWeight { station, weight_us } => {
                let r = self.sched.set_weight(StationId(station), weight_us);
                let valid = (1..=65_535).contains(&weight_us);
                assert_eq!(r.is_ok(), valid && self.stations.contains_key(&station));
            }
            Op::SetQuantum {
                station,
                tid: t,
                quantum,
            } => {
                if let Some(s) = self.stations.get(&station) {
                    let r = self.fq.set_tin_quantum(s.queues[t].1, quantum);
                    let valid = quantum.is_none_or(|q| {
                        let (Quantum::Bytes(n) | Quantum::Frames(n)) = q;
                        (1..=Quantum::MAX).contains(&n)
                    });
                    assert_eq!(r.is_ok(), valid, "{quantum:?}");
                }
            }
            Op::SetGroup { station, group } => {
                if self.groups.is_empty() {
                    return;
                }
                let group = group.map(|g| self.groups[g]);
                let r = self.sched.set_station_group(StationId(station), group);
                assert_eq!(r.is_ok(), self.stations.contains_key(&station));
            }
            Op::Stale => {
                let Some(&(txq, tin)) = self.stale.last() else {
                    return;
                };
                assert_eq!(
                    self.sched.return_txq(txq, true, now),
                    Err(SchedError::UnknownTxq(txq.index() as u32))
                );
                assert_eq!(
                    self.sched.unschedule(txq),
                    Err(SchedError::UnknownTxq(txq.index() as u32))
                );
                assert_eq!(
                    self.fq.dequeue(tin, now, |_| {}),
                    Err(FqError::UnknownTin(tin))
                );
                let e = self
                    .fq
                    .enqueue(tin, SimplePacket::new(0, 0, 1), now, |_| {})
                    .unwrap_err();
                assert_eq!(e.error, FqError::UnknownTin(tin));
            }
            Op::Advance { us } => self.now += Duration::from_micros(us),
        }
    }

    /// One scheduling round, as mac80211's `ieee80211_handle_wake_tx_queue` drives it.
    pub fn serve(&mut self, ac: Option<Ac>, burst: u32) {
        let now = self.now;
        match ac {
            Some(ac) => self.sched.schedule_start(ac, &mut self.aql),
            None => self.sched.schedule_start_any(&mut self.aql),
        }
        let txqs = self.sched.txq_count();
        // Each TXQ is handed out at most once per round: the loop ends.
        for step in 0.. {
            assert!(step <= txqs, "a round handed out more than every TXQ once");
            let got = match ac {
                Some(ac) => self.sched.next_txq(ac, &mut self.aql, now),
                None => self.sched.next_txq_any(&mut self.aql, now),
            };
            let Some(txq) = got else { break };
            let (owner, t) = self.sched.txq_owner(txq).unwrap();
            let station = owner.expect("only station TXQs here").0;
            let tin =
                self.stations[&station].queues[TIDS.iter().position(|&x| x == t.get()).unwrap()].1;
            for _ in 0..burst {
                if !self
                    .aql
                    .may_dequeue(StationId(station), t.ac(), now)
                    .unwrap()
                {
                    break;
                }
                let dropped = &mut self.dropped;
                let Some(p) = self.fq.dequeue(tin, now, |_| *dropped += 1).unwrap() else {
                    break;
                };
                self.delivered += 1;
                // An estimate as the kernel's: about 1 µs per 100 bytes, at most 4092.
                let us = (p.len_bytes / 100).clamp(1, 4092);
                self.aql.charge(StationId(station), t.ac(), us).unwrap();
                self.in_flight.push((station, t.ac(), us));
            }
            let has_queue = self.fq.has_queue(tin).unwrap();
            self.sched.return_txq(txq, has_queue, now).unwrap();
        }
    }

    pub fn check(&self) {
        self.fq.assert_invariants();
        let queued = u64::from(self.fq.stats().backlog_packets);
        assert_eq!(
            self.offered,
            self.delivered + self.dropped + self.refused + queued,
            "a packet was lost"
        );
        for ac in Ac::ALL {
            let sum: u64 = self
                .stations
                .keys()
                .map(|&s| self.aql.station_pending_us(StationId(s), ac).unwrap())
                .sum();
            assert_eq!(sum, self.aql.ac_pending_us(ac), "AQL {ac:?}");
        }
        let total: u64 = Ac::ALL.iter().map(|&ac| self.aql.ac_pending_us(ac)).sum();
        assert_eq!(total, self.aql.total_pending_us());
        let mut listed = std::collections::BTreeSet::new();
        for ac in Ac::ALL {
            for txq in self.sched.active_txqs(ac) {
                assert!(listed.insert(txq), "{txq} listed twice");
                self.sched.txq_owner(txq).expect("a removed TXQ is listed");
            }
        }
        for &i in self.stations.keys() {
            let st = self.sched.station_stats(StationId(i)).unwrap();
            for d in st.deficit_us {
                // Refilled only while below the pending airtime (all ACs at most in
                // station-first mode), by at most a weight.
                assert!(d <= 4 * i64::from(u32::MAX) + 65_535, "deficit {d}");
            }
            for &(_, tin) in &self.stations[&i].queues {
                for flow in self.fq.tin_flows(tin).unwrap() {
                    let d = self.fq.flow_info(flow).unwrap().deficit;
                    assert!(
                        d <= Quantum::MAX as i32 && d > -(MAX_PACKET_BYTES as i32),
                        "{d}"
                    );
                }
            }
        }
    }

    /// Serves everything out (up to 200 rounds of completing all in flight, 200 ms
    /// passing and a round in every AC; no more once nothing is queued or in flight),
    /// checking after each: the library ends with nothing lost.
    pub fn drain(&mut self) {
        for _ in 0..200 {
            self.apply(&Op::Complete { count: usize::MAX });
            self.apply(&Op::Advance { us: 200_000 });
            self.serve(None, 64);
            self.check();
            if self.in_flight.is_empty() && self.fq.stats().backlog_packets == 0 {
                break;
            }
        }
    }
}
