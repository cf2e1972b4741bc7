//! Ping figures with loss counted.

use airq_sim::metrics::distribution::{Distribution, LossyPercentile};

/// How long after an echo request its reply is due, s: an unanswered request counts as
/// lost once that long has passed, so a ping sent in the last second of a run is not
/// lost (see [`FlowSummary::pings_sent`]). One second is `ping`'s default interval and
/// far above any RTT of a working network; a reply later than that still counts as
/// received, with its RTT.
pub const PING_REPLY_DUE_S: u64 = 1;

/// A percentile in ms, infinity when it lies among the lost pings.
pub fn ms_or_infinity(p: LossyPercentile) -> f64 {
    match p {
        LossyPercentile::Value(v) => v,
        LossyPercentile::Lost => f64::INFINITY,
    }
}

/// A ping flow's (or a station's ping flows') figures with loss counted: an unanswered
/// request is a sample larger than any RTT, not a missing one (flent's convention, see
/// [`Distribution::percentile_with_loss`]). Percentiles are
/// [`LossyPercentile::Lost`] when more than `1 - p` of the requests went unanswered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PingStats {
    /// Requests whose reply was due; `None` when the file did not count them (then the
    /// loss is unknown and the percentiles are of the replies alone).
    pub sent: Option<u64>,
    /// Replies received.
    pub received: u64,
    /// Median RTT, ms.
    pub p50: LossyPercentile,
    /// 90th percentile, ms.
    pub p90: LossyPercentile,
    /// 99th percentile, ms.
    pub p99: LossyPercentile,
}

impl PingStats {
    /// The figures of `rtts_ms` replies to `sent` requests; `None` when nothing is known:
    /// no reply, and no request due (or not counted).
    pub fn of(rtts_ms: Vec<f64>, sent: Option<u64>) -> Option<PingStats> {
        let received = rtts_ms.len() as u64;
        let total = sent.unwrap_or(received).max(received);
        if total == 0 {
            return None;
        }
        let d = Distribution::new(rtts_ms).ok()?;
        let at = |q| d.percentile_with_loss(q, total as usize);
        Some(PingStats {
            sent,
            received,
            p50: at(50.0)?,
            p90: at(90.0)?,
            p99: at(99.0)?,
        })
    }

    /// Requests never answered; `None` when not counted.
    pub fn lost(&self) -> Option<u64> {
        self.sent.map(|s| s.saturating_sub(self.received))
    }

    /// Fraction of the requests never answered; `None` when not counted.
    pub fn loss(&self) -> Option<f64> {
        let sent = self.sent.filter(|&s| s > 0)?;
        Some(self.lost()? as f64 / sent as f64)
    }
}
