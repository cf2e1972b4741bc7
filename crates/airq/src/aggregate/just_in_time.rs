//! Just-in-time aggregates for softmac drivers (seed 000, the netdev 2.2 paper, §4.1
//! "Minimising hardware queue length": "Drivers that do aggregation in software have
//! enough information available that another approach may be viable: Deferring
//! scheduling of the next aggregate until right before the expected completion time of
//! the previous one. CPU scheduling granularity may be a limiting factor in this, and
//! getting the timing right in general can be tricky. [...] getting an interrupt from
//! the hardware when transmission **starts** would be helpful").
//!
//! ath9k keeps two aggregates per hardware queue (`ATH_AGGR_MIN_QDEPTH`): one on the air
//! and one built ahead, whose packets left the FQ-CoDel queues a whole aggregate early.
//! With this rule the driver keeps one, and builds the next when the current one is
//! `lead_time` from its expected end:
//!
//! ```text
//! build_at = start + airtime − lead_time + jitter        (never before start)
//! ```
//!
//! `start` is when the aggregate went on the air — the transmission-start interrupt the
//! seed asks for, which the model assumes — and `airtime` its PPDU's TXTIME. `jitter` is
//! the host's scheduling lateness (a timer or tasklet runs late, never early), drawn by
//! the caller in `0..=max_jitter` from its own seeded stream: the library takes no
//! entropy. A build later than the expected end leaves the radio without a next
//! aggregate: the caller reports it ([`JustInTime::record_late`]), and that is the
//! throughput this rule risks for its latency.
//!
//! Defaults, our choice (no published figure fits): `lead_time` 500 µs, ten times the
//! simulator's host latency, so that a build is normally done well before the end;
//! `max_jitter` 200 µs, a loaded router CPU's timer and softirq lateness.

use crate::time::{Duration, Instant};
use core::fmt;

/// The rule's parameters; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JustInTimeParams {
    /// How long before the on-air aggregate's expected end the next one is built.
    pub lead_time: Duration,
    /// The host's scheduling lateness is uniform in `0..=max_jitter`.
    pub max_jitter: Duration,
}

impl JustInTimeParams {
    /// Longest `lead_time` and `max_jitter` accepted: 100 ms, far past any aggregate.
    pub const MAX: Duration = Duration::from_millis(100);

    pub fn validate(&self) -> Result<(), JustInTimeError> {
        if self.lead_time > Self::MAX {
            return Err(JustInTimeError::LeadTimeTooLong(self.lead_time));
        }
        if self.max_jitter > Self::MAX {
            return Err(JustInTimeError::JitterTooLong(self.max_jitter));
        }
        Ok(())
    }

    /// When to build the next aggregate; see the module documentation.
    pub fn build_at(&self, start: Instant, airtime: Duration, jitter: Duration) -> Instant {
        let end = start + airtime;
        let at = end - self.lead_time + jitter.min(self.max_jitter);
        at.max(start)
    }
}

impl Default for JustInTimeParams {
    fn default() -> Self {
        JustInTimeParams {
            lead_time: Duration::from_micros(500),
            max_jitter: Duration::from_micros(200),
        }
    }
}

/// Why [`JustInTimeParams`] were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JustInTimeError {
    LeadTimeTooLong(Duration),
    JitterTooLong(Duration),
}

impl fmt::Display for JustInTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, d) = match self {
            JustInTimeError::LeadTimeTooLong(d) => ("lead_time", d),
            JustInTimeError::JitterTooLong(d) => ("max_jitter", d),
        };
        write!(
            f,
            "{what} must be at most {}, got {d}",
            JustInTimeParams::MAX
        )
    }
}

/// What the rule did. Counters only grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JustInTimeStats {
    /// Builds scheduled (one per aggregate that went on the air).
    pub scheduled: u64,
    /// Aggregates that completed with no next one built while frames waited: the
    /// radio's queue ran dry because the build came late.
    pub late: u64,
}

/// The rule with its statistics, one per radio.
#[derive(Clone, Debug)]
pub struct JustInTime {
    params: JustInTimeParams,
    stats: JustInTimeStats,
}

impl JustInTime {
    /// The rule with `params` (validate them first).
    pub fn new(params: JustInTimeParams) -> JustInTime {
        debug_assert!(params.validate().is_ok(), "{params:?}");
        JustInTime {
            params,
            stats: JustInTimeStats::default(),
        }
    }

    pub fn params(&self) -> &JustInTimeParams {
        &self.params
    }

    pub fn stats(&self) -> &JustInTimeStats {
        &self.stats
    }

    /// An aggregate went on the air at `start` for `airtime`: when to build the next
    /// ([`JustInTimeParams::build_at`]), counted.
    pub fn schedule(&mut self, start: Instant, airtime: Duration, jitter: Duration) -> Instant {
        self.stats.scheduled += 1;
        self.params.build_at(start, airtime, jitter)
    }

    /// An aggregate completed and no next one was ready while frames waited.
    pub fn record_late(&mut self) {
        self.stats.late += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: Duration = Duration::from_micros(1);

    #[test]
    fn the_build_is_lead_time_before_the_end_plus_jitter() {
        let p = JustInTimeParams::default();
        let start = Instant::from_millis(10);
        let airtime = Duration::from_millis(4);
        assert_eq!(
            p.build_at(start, airtime, Duration::ZERO),
            start + US * 3500
        );
        assert_eq!(p.build_at(start, airtime, US * 150), start + US * 3650);
        // Jitter beyond the model's bound is clipped to it.
        assert_eq!(p.build_at(start, airtime, US * 900), start + US * 3700);
    }

    #[test]
    fn a_short_aggregate_builds_at_once() {
        let p = JustInTimeParams::default();
        let start = Instant::from_millis(1);
        assert_eq!(p.build_at(start, US * 300, Duration::ZERO), start);
    }

    #[test]
    fn statistics_and_validation() {
        let mut j = JustInTime::new(JustInTimeParams::default());
        j.schedule(Instant::ZERO, US * 1000, Duration::ZERO);
        j.record_late();
        assert_eq!(
            *j.stats(),
            JustInTimeStats {
                scheduled: 1,
                late: 1
            }
        );
        let long = JustInTimeParams {
            lead_time: Duration::from_secs(1),
            ..JustInTimeParams::default()
        };
        let why = alloc::format!("{}", long.validate().unwrap_err());
        assert!(why.contains("lead_time"), "{why}");
        assert_eq!(JustInTimeParams::default().validate(), Ok(()));
    }
}
