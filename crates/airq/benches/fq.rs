//! Enqueue + dequeue cost per packet of the FQ-MAC structure with 1, 64 and 1024 active
//! flows spread over 32 tins (issue target: under 100 ns per packet at 1024 flows).
//!
//! Steady state: every flow holds a few packets; each iteration enqueues one packet to
//! the next flow and dequeues one from that flow's tin, so the backlog stays constant.
//! Time advances 1 µs per iteration, keeping sojourn times under CoDel's target so the
//! measured path is DRR++ with CoDel's fast path, as on an uncongested AP.

use airq::{Duration, Fq, FqParams, Instant, SimplePacket, TinId};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const TINS: usize = 32;
const PACKETS_PER_FLOW: usize = 4;

/// A hash that lands on pool flow `idx` (inverse of `reciprocal_scale`).
fn hash_for(idx: u32, flows: u32) -> u32 {
    (u64::from(idx) << 32).div_ceil(u64::from(flows)) as u32
}

struct Setup {
    fq: Fq<SimplePacket>,
    tins: Vec<TinId>,
    hashes: Vec<u32>,
    now: Instant,
    next: usize,
}

fn setup(active_flows: usize) -> Setup {
    let params = FqParams::default();
    let mut fq = Fq::new(params).unwrap();
    let tins: Vec<TinId> = (0..TINS).map(|_| fq.add_tin()).collect();
    let hashes: Vec<u32> = (0..active_flows as u32)
        .map(|i| hash_for(i, params.flows))
        .collect();
    for _ in 0..PACKETS_PER_FLOW {
        for (i, &h) in hashes.iter().enumerate() {
            fq.enqueue(
                tins[i % TINS],
                SimplePacket::new(0, h, 1500),
                Instant::ZERO,
                |_| {},
            )
            .unwrap();
        }
    }
    Setup {
        fq,
        tins,
        hashes,
        now: Instant::ZERO,
        next: 0,
    }
}

fn enqueue_dequeue(c: &mut Criterion) {
    let mut group = c.benchmark_group("fq");
    group.throughput(Throughput::Elements(1));
    for active_flows in [1usize, 64, 1024] {
        group.bench_function(BenchmarkId::new("enqueue_dequeue", active_flows), |b| {
            let mut s = setup(active_flows);
            b.iter(|| {
                // A wrapping counter rather than `%` (a division) so that the harness
                // adds as little as it can to what is measured.
                let flow = s.next;
                s.next = if flow + 1 == s.hashes.len() {
                    0
                } else {
                    flow + 1
                };
                s.now += Duration::from_micros(1);
                let tin = s.tins[flow % TINS];
                let packet = SimplePacket::new(s.now.as_nanos(), s.hashes[flow], 1500);
                s.fq.enqueue(tin, packet, s.now, |d| {
                    black_box(d);
                })
                .unwrap();
                let out = s.fq.dequeue(tin, s.now, |d| {
                    black_box(d);
                });
                black_box(out.unwrap())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, enqueue_dequeue);
criterion_main!(benches);
