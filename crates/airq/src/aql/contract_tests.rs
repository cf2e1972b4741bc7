//! [`Aql`]'s contract (module documentation, "Contract"), one test per rule: each
//! breaks its rule with every call the rule covers and checks the error value, and
//! that the refused call changed nothing (the whole state, compared through `Debug`).
//! Rules a caller may break without an error (amounts, time) leave the counters
//! consistent.

use super::*;
use crate::airtime::AirtimeGate;
use crate::ids::Ac;
use crate::time::{Duration, Instant};
use alloc::format;

const T0: Instant = Instant::ZERO;
const A: StationId = StationId(1);
const B: StationId = StationId(2);

fn self_tuning() -> AqlParams {
    AqlParams {
        self_tuning: Some(SelfTuningParams::default()),
        ..AqlParams::default()
    }
}

/// Two stations with airtime in flight; station 9 has come and gone.
fn fixture(params: AqlParams) -> Aql {
    let mut aql = Aql::new(params).unwrap();
    for id in [StationId(9), A, B] {
        aql.register_station(id).unwrap();
    }
    aql.charge(StationId(9), Ac::Be, 100).unwrap();
    aql.unregister_station(StationId(9)).unwrap();
    aql.charge(A, Ac::Be, 3_000).unwrap();
    aql.charge(B, Ac::Vi, 7_000).unwrap();
    aql
}

/// Runs refused calls, each of which must return an error, and checks that they
/// changed nothing.
fn refuses(aql: &mut Aql, calls: impl FnOnce(&mut Aql)) {
    let before = format!("{aql:?}");
    calls(aql);
    assert_eq!(
        format!("{aql:?}"),
        before,
        "a refused call changed something"
    );
}

/// The accounting invariant: per-AC counters are the sums over stations, the total
/// the sum over ACs.
fn assert_sums(aql: &Aql, stations: &[StationId]) {
    let mut total = 0;
    for ac in Ac::ALL {
        let sum: u64 = stations
            .iter()
            .map(|&id| aql.station_pending_us(id, ac).unwrap())
            .sum();
        assert_eq!(aql.ac_pending_us(ac), sum, "{ac}");
        total += sum;
    }
    assert_eq!(aql.total_pending_us(), total);
}

/// Rule 1: `new` takes parameters that validate.
#[test]
fn rule_1_new_needs_parameters_that_validate() {
    let limits = |low, high| AqlLimits {
        aql_limit_low_us: low,
        aql_limit_high_us: high,
    };
    let mut bad = alloc::vec::Vec::new();
    for l in [limits(0, 100), limits(100, 0), limits(200, 100)] {
        let mut p = AqlParams::default();
        p.limits[Ac::Vi.index()] = l;
        bad.push((p, "aql_limit"));
    }
    bad.push((
        AqlParams {
            aql_threshold_us: 0,
            ..AqlParams::default()
        },
        "aql_threshold_us",
    ));
    bad.push((
        AqlParams {
            self_tuning: Some(SelfTuningParams {
                min_limit_us: 100_000,
                ..SelfTuningParams::default()
            }),
            ..AqlParams::default()
        },
        "min_limit_us",
    ));
    for (p, field) in bad {
        let e = Aql::new(p).unwrap_err();
        assert!(format!("{e}").contains(field), "{e} lacks {field}");
    }
}

/// Rule 2: `register_station` takes an id up to `StationId::MAX`, not registered.
#[test]
fn rule_2_register_station_needs_a_new_id_in_range() {
    let mut aql = fixture(AqlParams::default());
    refuses(&mut aql, |aql| {
        for big in [StationId(StationId::MAX + 1), StationId(u32::MAX)] {
            assert_eq!(
                aql.register_station(big),
                Err(AqlError::StationIdTooLarge(big))
            );
        }
        assert_eq!(
            aql.register_station(A),
            Err(AqlError::StationAlreadyRegistered(A))
        );
    });
}

/// Rule 3: every call taking a `StationId` needs a registered station.
#[test]
fn rule_3_calls_taking_a_station_need_a_registered_one() {
    for params in [AqlParams::default(), self_tuning()] {
        let mut aql = fixture(params);
        refuses(&mut aql, |aql| {
            for id in [StationId(9), StationId(50), StationId(u32::MAX)] {
                let e = AqlError::UnknownStation(id);
                assert_eq!(aql.unregister_station(id), Err(e));
                assert_eq!(aql.charge(id, Ac::Be, 10), Err(e));
                assert_eq!(aql.release(id, Ac::Be, 10), Err(e));
                assert_eq!(aql.report_completion(id, Ac::Be, 10, T0, true), Err(e));
                assert_eq!(aql.may_dequeue(id, Ac::Be, T0), Err(e));
                assert_eq!(aql.station_pending_us(id, Ac::Be), Err(e));
                assert_eq!(aql.station_limits(id, Ac::Be), Err(e));
                assert_eq!(
                    aql.set_station_limits(id, Ac::Be, AqlLimits::DEFAULT),
                    Err(e)
                );
                assert!(aql.self_tuning_state(id, Ac::Be).is_err());
                assert!(!aql.is_registered(id));
            }
        });
    }
}

/// Rule 4: `set_station_limits` takes limits that validate, and with self-tuning a
/// high limit not below its `min_limit_us`.
#[test]
fn rule_4_station_limits_must_validate() {
    for params in [AqlParams::default(), self_tuning()] {
        let tuning = params.self_tuning.is_some();
        let mut aql = fixture(params);
        refuses(&mut aql, |aql| {
            for (low, high) in [(0, 100), (100, 0), (200, 100)] {
                let l = AqlLimits {
                    aql_limit_low_us: low,
                    aql_limit_high_us: high,
                };
                let e = aql.set_station_limits(A, Ac::Be, l).unwrap_err();
                assert!(matches!(e, AqlError::InvalidLimits(_)), "{e}");
            }
            if tuning {
                let below_min = AqlLimits {
                    aql_limit_low_us: 100,
                    aql_limit_high_us: SelfTuningParams::default().min_limit_us - 1,
                };
                let e = aql.set_station_limits(A, Ac::Be, below_min).unwrap_err();
                assert!(format!("{e}").contains("min_limit_us"), "{e}");
            }
        });
    }
}

/// Rule 5: any amount up to `u32::MAX` µs is taken; a release above what is pending is
/// clamped, returned as the excess and counted, and the counters stay the sums of the
/// stations'.
#[test]
fn rule_5_any_amount_is_taken_and_counters_stay_the_sums() {
    let mut aql = fixture(AqlParams::default());
    for _ in 0..1_000 {
        aql.charge(A, Ac::Be, u32::MAX).unwrap();
        aql.charge(B, Ac::Bk, u32::MAX).unwrap();
    }
    assert_sums(&aql, &[A, B]);
    assert_eq!(
        aql.station_pending_us(A, Ac::Be),
        Ok(3_000 + 1_000 * u64::from(u32::MAX))
    );
    // Releases of airtime never charged (a buggy driver, or a station's completions
    // after it left and came back).
    assert_eq!(aql.release(B, Ac::Vo, u32::MAX), Ok(u32::MAX));
    for _ in 0..1_001 {
        aql.release(A, Ac::Be, u32::MAX).unwrap();
    }
    assert_eq!(aql.station_pending_us(A, Ac::Be), Ok(0));
    assert_sums(&aql, &[A, B]);
    let stats = aql.stats();
    assert_eq!(stats.underflows, 2);
    assert_eq!(
        stats.underflow_us,
        u64::from(u32::MAX) + (u64::from(u32::MAX) - 3_000)
    );
    // The gates take any amount pending, and any count of TXQs.
    assert!(!aql.may_dequeue(B, Ac::Bk, T0).unwrap());
    for txqs in [0, 1, u32::MAX] {
        aql.schedule_allowed(Ac::Bk, txqs);
    }
    assert_eq!(
        AirtimeGate::pending_us(&aql, B, Ac::Bk),
        u32::MAX,
        "saturated"
    );
}

/// Rule 6: any `now` is taken — backwards, or at the end of time — by the gate and
/// the self-tuning it samples.
#[test]
fn rule_6_any_time_is_taken() {
    let mut aql = fixture(self_tuning());
    let times = [
        Instant::from_secs(10),
        T0,
        Instant::from_nanos(u64::MAX),
        Instant::from_millis(5),
        Instant::from_nanos(u64::MAX - 1),
    ];
    for (i, &now) in times.iter().enumerate() {
        aql.charge(A, Ac::Be, 4_000).unwrap();
        aql.report_completion(A, Ac::Be, 4_000, now, i % 2 == 0)
            .unwrap();
        aql.may_dequeue(A, Ac::Be, now).unwrap();
        aql.may_dequeue(A, Ac::Be, now + Duration::MAX).unwrap();
    }
    let limits = aql.station_limits(A, Ac::Be).unwrap();
    let tuned = aql.self_tuning_state(A, Ac::Be).unwrap().limit_us();
    let min = SelfTuningParams::default().min_limit_us;
    assert!((min..=limits.aql_limit_high_us).contains(&tuned), "{tuned}");
    assert_sums(&aql, &[A, B]);
}

/// Rule 7: as the scheduler's gate, a station AQL does not track is not limited and
/// has nothing pending — mac80211 does not limit TXQs without a station — rather than
/// an error the scheduler could not handle.
#[test]
fn rule_7_as_a_gate_an_unknown_station_is_not_limited() {
    let mut aql = fixture(AqlParams::default());
    aql.charge(A, Ac::Be, 20_000).unwrap();
    refuses(&mut aql, |aql| {
        for id in [StationId(9), StationId(u32::MAX)] {
            assert_eq!(AirtimeGate::pending_us(aql, id, Ac::Be), 0);
            assert!(AirtimeGate::station_may_dequeue(aql, id, Ac::Be, T0));
        }
    });
    assert!(!AirtimeGate::station_may_dequeue(&mut aql, A, Ac::Be, T0));
}
