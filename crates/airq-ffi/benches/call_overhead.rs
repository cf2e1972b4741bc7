//! What the C API's calls cost over calling airq directly: each exported function runs
//! through `status::entry` (`catch_unwind`, the error slot) and `handle::acquire` (the
//! registry's mutex to look the handle up, the handle's `busy` flag set and cleared).
//!
//! - `txq_owner`: one call that does almost nothing (`airq_sched_txq_owner` against
//!   `AirtimeScheduler::txq_owner`): the overhead of a call by itself.
//! - `decision`: one scheduling decision of the scheduler bench in `crates/airq`
//!   (8 always-backlogged stations, 0.2-3.7 ms aggregates, weight 256 µs):
//!   `schedule_start`, `next_txq`, `register_airtime`, `return_txq` — four calls.
//!
//! `cargo bench -p airq-ffi --bench call_overhead`.

use airq::airtime::{AirtimeParams, AirtimeScheduler, NoAql, TxqId};
use airq::{Ac, Instant, StationId, Tid};
use airq_ffi::sched::*;
use airq_ffi::status::AIRQ_OK;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::ptr::null_mut;

const STATIONS: u32 = 8;

fn aggregate_us(station: u32) -> u32 {
    200 + (station % 8) * 500
}

/// A Rust scheduler with `STATIONS` backlogged stations; TXQ `i` is station `i`'s.
fn rust_scheduler() -> (AirtimeScheduler, Vec<TxqId>) {
    let tid = Tid::new(0).unwrap();
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    let txqs: Vec<TxqId> = (0..STATIONS)
        .map(|i| {
            s.add_station(StationId(i)).unwrap();
            s.add_txq(Some(StationId(i)), tid).unwrap()
        })
        .collect();
    for &t in &txqs {
        s.return_txq(t, true, Instant::ZERO).unwrap();
    }
    (s, txqs)
}

/// The same through the C API.
fn c_scheduler() -> *mut AirqSched {
    let mut s = null_mut();
    unsafe {
        assert_eq!(airq_sched_new(std::ptr::null(), &mut s), AIRQ_OK);
        for i in 0..STATIONS {
            let mut txq = 0;
            assert_eq!(airq_sched_add_station(s, i), AIRQ_OK);
            assert_eq!(airq_sched_add_txq(s, i, 0, &mut txq), AIRQ_OK);
            assert_eq!(txq, i);
            assert_eq!(airq_sched_return_txq(s, txq, true, 0), AIRQ_OK);
        }
    }
    s
}

fn call_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("call_overhead");
    group.throughput(Throughput::Elements(1));

    let (s, txqs) = rust_scheduler();
    group.bench_function("txq_owner/rust", |b| {
        b.iter(|| black_box(s.txq_owner(black_box(txqs[3])).unwrap()))
    });
    let cs = c_scheduler();
    group.bench_function("txq_owner/ffi", |b| {
        let (mut station, mut tid) = (0u32, 0u8);
        b.iter(|| unsafe {
            let rc = airq_sched_txq_owner(cs, black_box(3), &mut station, &mut tid);
            black_box((rc, station, tid))
        })
    });

    let tid = Tid::new(0).unwrap();
    let (mut s, _) = rust_scheduler();
    group.bench_function("decision/rust", |b| {
        b.iter(|| {
            s.schedule_start(Ac::Be, &mut NoAql);
            let t = s.next_txq(Ac::Be, &mut NoAql, Instant::ZERO).unwrap();
            let i = t.index() as u32;
            s.register_airtime(StationId(i), tid, aggregate_us(i), 0, Instant::ZERO)
                .unwrap();
            s.return_txq(t, true, Instant::ZERO).unwrap();
            black_box(t)
        })
    });
    group.bench_function("decision/ffi", |b| {
        b.iter(|| unsafe {
            let mut txq = 0u32;
            airq_sched_schedule_start(cs, AIRQ_AC_BE, null_mut());
            let rc = airq_sched_next_txq(cs, AIRQ_AC_BE, null_mut(), 0, &mut txq);
            debug_assert_eq!(rc, AIRQ_OK);
            airq_sched_register_airtime(cs, txq, 0, aggregate_us(txq), 0, 0);
            airq_sched_return_txq(cs, txq, true, 0);
            black_box(txq)
        })
    });
    group.finish();
    unsafe { airq_sched_free(cs) };
}

criterion_group!(benches, call_overhead);
criterion_main!(benches);
