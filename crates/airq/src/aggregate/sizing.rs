//! Dynamic aggregate sizing (seed 000, the netdev 2.2 paper, §4.1 "Dynamic aggregate
//! sizing": "when there are many stations with data outstanding it may be worthwhile to
//! reduce the size of the aggregates (to, say, 1 ms) to trade off lower latency for
//! airtime efficiency"). The paper names the idea and leaves the rule open; ours is a
//! **round budget**: with `n` stations backlogged, each aggregate may last at most
//!
//! ```text
//! cap(n) = clamp(round_airtime / n, min_airtime, max)
//! ```
//!
//! where `max` is what the aggregate could last otherwise (aPPDUMaxTime, the driver's
//! 4 ms cap, a TXOP limit). Why this rule: under the airtime DRR every backlogged station
//! sends about one aggregate per round, so a round lasts about `n · cap(n)`, and that
//! round is what a station's next packet waits behind — the sparse station served first
//! still waits for the aggregates already queued in hardware, each up to `cap(n)` long.
//! Bounding `n · cap` by `round_airtime` keeps the round — and so per-station latency —
//! near a fixed budget as stations join, while few stations (where the round is short
//! anyway) keep full aggregates and their efficiency. `min_airtime` is the floor below
//! which the fixed per-PPDU overhead (preamble, SIFS, BlockAck, contention: about
//! 100-150 µs in HT) would eat too much of the air.
//!
//! Defaults: `round_airtime` 16 ms, so that up to four backlogged stations keep the full
//! 4 ms (the seed's own three- and four-station experiments are unchanged) and the floor
//! is reached at sixteen; `min_airtime` 1 ms, the seed's figure. Both are knobs.

use crate::time::Duration;
use core::fmt;

/// The rule's parameters; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateSizingParams {
    /// The airtime one round of all backlogged stations should take at most: each
    /// aggregate gets `round_airtime / n` of `n` backlogged stations.
    pub round_airtime: Duration,
    /// No aggregate is capped below this (the seed's "say, 1 ms").
    pub min_airtime: Duration,
}

impl AggregateSizingParams {
    /// Longest `round_airtime` accepted: one second is far past any latency goal.
    pub const MAX_ROUND_AIRTIME: Duration = Duration::from_secs(1);

    /// `min_airtime` above zero, `round_airtime` at least `min_airtime` and at most
    /// [`Self::MAX_ROUND_AIRTIME`].
    pub fn validate(&self) -> Result<(), AggregateSizingError> {
        if self.min_airtime.is_zero() {
            return Err(AggregateSizingError::ZeroMinAirtime);
        }
        if self.round_airtime < self.min_airtime || self.round_airtime > Self::MAX_ROUND_AIRTIME {
            return Err(AggregateSizingError::RoundAirtimeOutOfRange {
                round_airtime: self.round_airtime,
                min_airtime: self.min_airtime,
            });
        }
        Ok(())
    }

    /// The airtime cap of an aggregate when `backlogged_stations` stations have data
    /// outstanding (counted as at least one) and the aggregate could otherwise last
    /// `max`: never above `max`, never below `min_airtime` unless `max` is.
    pub fn cap(&self, backlogged_stations: u32, max: Duration) -> Duration {
        let n = u64::from(backlogged_stations.max(1));
        (self.round_airtime / n).max(self.min_airtime).min(max)
    }
}

impl Default for AggregateSizingParams {
    fn default() -> Self {
        AggregateSizingParams {
            round_airtime: Duration::from_millis(16),
            min_airtime: Duration::from_millis(1),
        }
    }
}

/// Why [`AggregateSizingParams`] were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateSizingError {
    ZeroMinAirtime,
    RoundAirtimeOutOfRange {
        round_airtime: Duration,
        min_airtime: Duration,
    },
}

impl fmt::Display for AggregateSizingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AggregateSizingError::ZeroMinAirtime => write!(f, "min_airtime must be above 0"),
            AggregateSizingError::RoundAirtimeOutOfRange {
                round_airtime,
                min_airtime,
            } => write!(
                f,
                "round_airtime must be at least min_airtime ({min_airtime}) and at most {}, \
                 got {round_airtime}",
                AggregateSizingParams::MAX_ROUND_AIRTIME
            ),
        }
    }
}

/// What the rule did. Counters only grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AggregateSizingStats {
    /// Aggregates the rule sized.
    pub aggregates: u64,
    /// Of which capped below what they could otherwise have lasted.
    pub capped: u64,
    /// The sum of the caps given, µs (with `aggregates`, the mean cap).
    pub cap_sum_us: u64,
}

/// The rule with its statistics, one per radio.
#[derive(Clone, Debug)]
pub struct AggregateSizing {
    params: AggregateSizingParams,
    stats: AggregateSizingStats,
}

impl AggregateSizing {
    /// Sizing with `params` (validate them first: see [`AggregateSizingParams::validate`]).
    pub fn new(params: AggregateSizingParams) -> AggregateSizing {
        debug_assert!(params.validate().is_ok(), "{params:?}");
        AggregateSizing {
            params,
            stats: AggregateSizingStats::default(),
        }
    }

    pub fn params(&self) -> &AggregateSizingParams {
        &self.params
    }

    pub fn stats(&self) -> &AggregateSizingStats {
        &self.stats
    }

    /// The airtime bound of the aggregate about to be built ([`AggregateSizingParams::cap`]),
    /// counted in the statistics.
    pub fn aggregate_airtime(&mut self, backlogged_stations: u32, max: Duration) -> Duration {
        let cap = self.params.cap(backlogged_stations, max);
        self.stats.aggregates += 1;
        self.stats.capped += u64::from(cap < max);
        self.stats.cap_sum_us += cap.as_micros();
        cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);
    const MAX: Duration = Duration::from_millis(4);

    #[test]
    fn few_stations_keep_full_aggregates() {
        let p = AggregateSizingParams::default();
        for n in 0..=4 {
            assert_eq!(p.cap(n, MAX), MAX, "{n}");
        }
    }

    #[test]
    fn the_round_budget_is_shared_until_the_floor() {
        let p = AggregateSizingParams::default();
        assert_eq!(p.cap(5, MAX), Duration::from_micros(3200));
        assert_eq!(p.cap(8, MAX), MS * 2);
        assert_eq!(p.cap(16, MAX), MS);
        assert_eq!(p.cap(30, MAX), MS, "the floor");
        // n · cap(n) stays within the budget down to the floor.
        for n in 4..=16u32 {
            assert!(p.cap(n, MAX) * u64::from(n) <= p.round_airtime, "{n}");
        }
    }

    #[test]
    fn a_shorter_limit_wins_over_the_floor() {
        let p = AggregateSizingParams::default();
        let txop = Duration::from_micros(500);
        assert_eq!(p.cap(30, txop), txop);
        assert_eq!(p.cap(1, txop), txop);
    }

    #[test]
    fn statistics_count_sized_and_capped_aggregates() {
        let mut s = AggregateSizing::new(AggregateSizingParams::default());
        s.aggregate_airtime(2, MAX);
        s.aggregate_airtime(8, MAX);
        s.aggregate_airtime(30, MAX);
        let st = s.stats();
        assert_eq!((st.aggregates, st.capped, st.cap_sum_us), (3, 2, 7000));
    }

    #[test]
    fn validation() {
        let ok = AggregateSizingParams::default();
        assert_eq!(ok.validate(), Ok(()));
        let zero = AggregateSizingParams {
            min_airtime: Duration::ZERO,
            ..ok
        };
        assert_eq!(zero.validate(), Err(AggregateSizingError::ZeroMinAirtime));
        let short = AggregateSizingParams {
            round_airtime: Duration::from_micros(500),
            ..ok
        };
        assert!(short.validate().is_err());
        let long = AggregateSizingParams {
            round_airtime: Duration::from_secs(2),
            ..ok
        };
        assert!(long.validate().is_err());
    }
}
