//! Cost of one scheduling decision of the airtime scheduler — `schedule_start`,
//! `next_txq`, charging the aggregate's airtime and `return_txq` — with 8, 128 and 1024
//! always-backlogged stations (issue target: O(1) per call, under 100 ns per decision).
//!
//! Stations send aggregates of 0.2 to 3.7 ms, so deficits go negative and `next_txq`
//! refills and rotates (weight 256 µs) as it does on a loaded AP.
//!
//! `next_return_grouped` does the same with the stations spread over eight groups of
//! weights 256 to 2048 µs, two of which sit inside a ninth: the hierarchical code.

use airq::airtime::{AirtimeParams, AirtimeScheduler, GroupId, GroupMode, NoAql, TxqId};
use airq::{Ac, Instant, StationId, Tid};
use criterion::{
    black_box, criterion_group, criterion_main, Bencher, BenchmarkId, Criterion, Throughput,
};

fn scheduling_decision(c: &mut Criterion) {
    let mut group = c.benchmark_group("scheduler");
    group.throughput(Throughput::Elements(1));
    for (name, grouped) in [("next_return", false), ("next_return_grouped", true)] {
        for stations in [8u32, 128, 1024] {
            group.bench_function(BenchmarkId::new(name, stations), |b| {
                bench_decisions(b, stations, grouped)
            });
        }
    }
    group.finish();
}

fn bench_decisions(b: &mut Bencher<'_>, stations: u32, grouped: bool) {
    let tid = Tid::new(0).unwrap();
    let mut s = AirtimeScheduler::new(AirtimeParams::default()).unwrap();
    let groups: Vec<GroupId> = if grouped {
        let outer = s.add_group(None, 256, GroupMode::Share).unwrap();
        (0..8u32)
            .map(|g| {
                let parent = (g >= 6).then_some(outer);
                s.add_group(parent, 256 << (g % 4), GroupMode::Share)
                    .unwrap()
            })
            .collect()
    } else {
        Vec::new()
    };
    let txqs: Vec<TxqId> = (0..stations)
        .map(|i| {
            s.add_station(StationId(i)).unwrap();
            if grouped {
                let g = groups[i as usize % groups.len()];
                s.set_station_group(StationId(i), Some(g)).unwrap();
            }
            s.add_txq(Some(StationId(i)), tid).unwrap()
        })
        .collect();
    let aggregate_us: Vec<u32> = (0..stations).map(|i| 200 + (i % 8) * 500).collect();
    let now = Instant::ZERO;
    for &t in &txqs {
        s.return_txq(t, true, now).unwrap();
    }
    b.iter(|| {
        s.schedule_start(Ac::Be, &mut NoAql);
        let t = s
            .next_txq(Ac::Be, &mut NoAql, now)
            .expect("always backlogged");
        let i = t.index();
        s.register_airtime(StationId(i as u32), tid, aggregate_us[i], 0, now)
            .unwrap();
        s.return_txq(t, true, now).unwrap();
        black_box(t)
    });
}

criterion_group!(benches, scheduling_decision);
criterion_main!(benches);
