//! The library target: bytes decoded into a hostile driver's configuration and
//! operation sequence — the operations of crates/airq/tests/integration/driver_model.rs,
//! which the random test beside it draws with proptest — applied to `Fq`, the airtime
//! scheduler and AQL together with every invariant checked after each step, then
//! everything served out (nothing lost). The decoding gives each operation about the
//! weight the proptest strategies give it, and each extreme value (`u32::MAX` packets
//! and airtime, the largest packet, weights and quanta one past their limits) a byte
//! value of its own, so that libFuzzer reaches them from the seeds.

#[allow(dead_code)] // `Station`'s and the driver's fields the fuzz target does not read.
#[path = "../../crates/airq/tests/integration/driver_model.rs"]
mod driver_model;

use airq::airtime::SchedulingMode;
use airq::fq::MAX_PACKET_BYTES;
use airq::Quantum;
use driver_model::{Config, Driver, Op, STATIONS, TIDS};

/// Operations at most per input: as many as the proptest test's longest sequence, twice.
const MAX_OPS: usize = 240;

/// Runs the operations `data` encodes, checking the invariants after each.
pub fn library_ops(data: &[u8]) {
    let mut bytes = Bytes(data);
    let mut driver = Driver::new(config(&mut bytes));
    let mut ops = 0;
    while !bytes.0.is_empty() && ops < MAX_OPS {
        let op = op(&mut bytes);
        driver.apply(&op);
        driver.check();
        ops += 1;
    }
    driver.drain();
}

/// The input, read from the front; zeros once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// A number below `n` (at most 256).
    fn below(&mut self, n: u32) -> u32 {
        u32::from(self.u8()) % n
    }

    fn station(&mut self) -> u32 {
        self.below(STATIONS)
    }

    fn tid(&mut self) -> usize {
        self.below(TIDS.len() as u32) as usize
    }

    fn ac(&mut self) -> usize {
        self.below(4) as usize
    }

    /// A packet length: mostly an ordinary one, sometimes any `u32` or the largest.
    fn len(&mut self) -> u32 {
        match self.below(10) {
            0 => self.u32(),
            1 => MAX_PACKET_BYTES,
            _ => u32::from(u16::from_le_bytes([self.u8(), self.u8()])) % 3000,
        }
    }

    /// Airtime in µs: mostly up to 20 ms, sometimes any `u32` or `u32::MAX`.
    fn airtime_us(&mut self) -> u32 {
        match self.below(8) {
            0 => self.u32(),
            1 => u32::MAX,
            _ => self.u32() % 20_000,
        }
    }
}

fn config(b: &mut Bytes) -> Config {
    let flags = b.u8();
    Config {
        mode: if flags & 1 != 0 {
            SchedulingMode::StationFirst
        } else {
            SchedulingMode::PerAc
        },
        fairness: flags & 2 != 0,
        groups: flags & 4 != 0,
        limit_packets: if flags & 8 != 0 {
            8192
        } else {
            1 + u32::from(flags >> 4) * 39 / 16
        },
    }
}

/// One operation; the first byte picks which, out of 34 with the proptest weights.
fn op(b: &mut Bytes) -> Op {
    match b.below(34) {
        0..=1 => Op::AddStation(b.station()),
        2 => Op::RemoveStation(b.station()),
        3..=14 => Op::Enqueue {
            station: b.station(),
            tid: b.tid(),
            flow: b.below(6),
            len: b.len(),
        },
        15..=20 => {
            let ac = b.below(5);
            Op::Serve {
                ac: (ac < 4).then_some(ac as usize),
                burst: 1 + b.below(7),
            }
        }
        21..=24 => Op::Complete {
            count: b.below(10) as usize,
        },
        25 => Op::Charge {
            station: b.station(),
            ac: b.ac(),
            us: b.airtime_us(),
        },
        26 => Op::Release {
            station: b.station(),
            ac: b.ac(),
            us: b.airtime_us(),
        },
        27 => Op::Register {
            station: b.station(),
            tid: b.tid(),
            tx_us: b.airtime_us(),
            rx_us: b.airtime_us(),
        },
        28 => Op::SetWeight {
            station: b.station(),
            weight_us: match b.below(4) {
                0 => 1,
                1 => 65_536,
                _ => 1 + b.u32() % 65_535,
            },
        },
        29 => Op::SetQuantum {
            station: b.station(),
            tid: b.tid(),
            quantum: match b.below(3) {
                0 => None,
                1 => Some(Quantum::Bytes(b.u32() % ((1 << 20) + 2))),
                _ => Some(Quantum::Frames(b.below(4))),
            },
        },
        30 => {
            let station = b.station();
            let group = b.below(4);
            Op::SetGroup {
                station,
                group: (group < 3).then_some(group as usize),
            }
        }
        31 => Op::Stale,
        _ => Op::Advance {
            us: if b.u8() & 1 == 0 {
                u64::from(b.u32() % 2_000)
            } else {
                u64::from(b.u32() % 300_000)
            },
        },
    }
}
