//! A hostile or buggy driver against the whole library (issue 20: fuzzing as a habit):
//! random operation sequences on [`Fq`], the airtime scheduler — flat and with groups,
//! per-AC and station-first — and [`Aql`] together, as a driver uses them, mixed with
//! calls outside the contract: stale TXQ and tin ids, packets and airtime of any size up
//! to `u32::MAX`, releases of airtime never charged, stations leaving with packets
//! queued and in flight.
//!
//! After every step: the FQ accounting at flow, tin and global level and its limits
//! ([`Fq::assert_invariants`]); every packet offered is delivered, dropped, refused with
//! an error, or still queued; AQL's per-AC counters are the sums over stations, its
//! total the sum over ACs; no TXQ is listed twice or listed after it was removed; DRR
//! deficits stay within what the parameters allow; and a round hands out each TXQ at
//! most once, so every `next_txq` loop ends (a livelock fails the step bound).
//!
//! The operations, the driver and its checks are `driver_model.rs`, which the
//! `library_ops` fuzz target (fuzz/) shares; here are proptest's strategies for them.
//! Runs `cases` (64) sequences in `cargo test`; `AIRQ_PROPTEST_CASES=100000 cargo test
//! --release -p airq --test integration driver_fuzz` runs as many as that says.

use super::driver_model::{Config, Driver, Op, STATIONS, TIDS};
use airq::airtime::SchedulingMode;
use airq::fq::MAX_PACKET_BYTES;
use airq::Quantum;
use proptest::prelude::*;

fn len() -> impl Strategy<Value = u32> {
    prop_oneof![
        8 => 0u32..3000,
        1 => 0u32..=u32::MAX,
        1 => Just(MAX_PACKET_BYTES),
    ]
}

fn airtime_us() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..20_000, 1 => 0u32..=u32::MAX, 1 => Just(u32::MAX)]
}

fn op() -> impl Strategy<Value = Op> {
    let sta = 0..STATIONS;
    let tid = 0..TIDS.len();
    prop_oneof![
        2 => sta.clone().prop_map(Op::AddStation),
        1 => sta.clone().prop_map(Op::RemoveStation),
        12 => (sta.clone(), tid.clone(), 0u32..6, len())
            .prop_map(|(station, tid, flow, len)| Op::Enqueue { station, tid, flow, len }),
        6 => (prop::option::of(0..4usize), 1u32..8).prop_map(|(ac, burst)| Op::Serve { ac, burst }),
        4 => (0usize..10).prop_map(|count| Op::Complete { count }),
        1 => (sta.clone(), 0..4usize, airtime_us()).prop_map(|(station, ac, us)| Op::Charge { station, ac, us }),
        1 => (sta.clone(), 0..4usize, airtime_us()).prop_map(|(station, ac, us)| Op::Release { station, ac, us }),
        1 => (sta.clone(), tid.clone(), airtime_us(), airtime_us())
            .prop_map(|(station, tid, tx_us, rx_us)| Op::Register { station, tid, tx_us, rx_us }),
        1 => (sta.clone(), prop_oneof![Just(1u32), 1u32..=65_535, Just(65_536)])
            .prop_map(|(station, weight_us)| Op::SetWeight { station, weight_us }),
        1 => (sta.clone(), tid, prop::option::of(prop_oneof![
                (0u32..=(1 << 20) + 1).prop_map(Quantum::Bytes),
                (0u32..4).prop_map(Quantum::Frames),
            ]))
            .prop_map(|(station, tid, quantum)| Op::SetQuantum { station, tid, quantum }),
        1 => (sta, prop::option::of(0usize..3)).prop_map(|(station, group)| Op::SetGroup { station, group }),
        1 => Just(Op::Stale),
        2 => prop_oneof![0u64..2_000, 0u64..300_000].prop_map(|us| Op::Advance { us }),
    ]
}

fn config() -> impl Strategy<Value = Config> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(8192u32), 1u32..40],
    )
        .prop_map(|(station_first, fairness, groups, limit_packets)| Config {
            mode: if station_first {
                SchedulingMode::StationFirst
            } else {
                SchedulingMode::PerAc
            },
            fairness,
            groups,
            limit_packets,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: super::proptest_cases(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_hostile_driver_cannot_break_the_invariants(
        c in config(),
        ops in prop::collection::vec(op(), 1..120),
    ) {
        if let Ok(path) = std::env::var("AIRQ_FUZZ_LOG") {
            // The case about to run, for a hang (which proptest cannot shrink).
            std::fs::write(path, format!("{c:?}\n{ops:?}\n")).unwrap();
        }
        let mut d = Driver::new(c);
        for op in &ops {
            d.apply(op);
            d.check();
        }
        // Serve everything out: the library ends with nothing lost.
        d.drain();
    }
}
