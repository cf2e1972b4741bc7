//! The wall-time cap of a [`Limit`](super::GroupMode::Limit) group: a token bucket of
//! airtime credit.
//!
//! DRR divides the airtime that is used; it cannot keep a group below its share when
//! nobody else wants the channel, because an idle competitor is not on the list. The
//! seeds' guest network ("the guest network gets only half the airtime", netdev 2.2
//! slide 19) needs a cap in time, so a limited group earns `share × elapsed` of credit
//! as wall time passes, is charged the airtime it uses, and may be served only while
//! its credit is not negative. Credit saved while not served is capped at a burst.
//!
//! Integer arithmetic throughout (house rule 2): the share is a Q32 fraction, credit is
//! kept in nanoseconds, and the product `elapsed × share` is taken in `u128`.

use crate::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LimitBucket {
    /// Fraction of wall time the group may use, Q32 (`1 << 32` is all of it).
    pub(super) share_q32: u64,
    /// Airtime credit, ns; at most the burst, negative while over the limit.
    pub(super) credit_ns: i64,
    /// When credit was last earned; `None` until the bucket is first used, so that a
    /// group made limited long before it sends starts with one burst, not a backlog.
    pub(super) updated: Option<Instant>,
}

fn nanos_i64(d: Duration) -> i64 {
    i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
}

impl LimitBucket {
    /// A full bucket.
    pub(super) fn new(share_q32: u64, burst: Duration) -> Self {
        LimitBucket {
            share_q32,
            credit_ns: nanos_i64(burst),
            updated: None,
        }
    }

    /// Earns the credit of the time since the last update, up to `burst`.
    pub(super) fn earn(&mut self, now: Instant, burst: Duration) {
        if let Some(updated) = self.updated {
            if now <= updated {
                return;
            }
            let elapsed_ns = u128::from((now - updated).as_nanos());
            let earned = (elapsed_ns * u128::from(self.share_q32)) >> 32;
            let earned = i64::try_from(earned).unwrap_or(i64::MAX);
            let burst_ns = nanos_i64(burst);
            if self.credit_ns < burst_ns {
                self.credit_ns = self.credit_ns.saturating_add(earned).min(burst_ns);
            }
        }
        self.updated = Some(now);
    }

    /// Whether the group may be served.
    #[inline]
    pub(super) fn is_open(&self) -> bool {
        self.credit_ns >= 0
    }

    /// Charges `airtime_us` of used airtime at `now`.
    pub(super) fn charge(&mut self, airtime_us: u64, now: Instant, burst: Duration) {
        self.earn(now, burst);
        let charge_ns = i64::try_from(airtime_us.saturating_mul(1000)).unwrap_or(i64::MAX);
        self.credit_ns = self.credit_ns.saturating_sub(charge_ns);
    }

    /// When a bucket in debt will have earned its way back to zero, if it is in debt:
    /// the first `t` with `(t − updated) × share ≥ −credit`.
    pub(super) fn reopens_at(&self) -> Option<Instant> {
        if self.is_open() {
            return None;
        }
        let updated = self.updated?;
        let debt = u128::from(self.credit_ns.unsigned_abs()) << 32;
        let share = u128::from(self.share_q32.max(1));
        let wait_ns = debt.div_ceil(share);
        Some(updated + Duration::from_nanos(u64::try_from(wait_ns).unwrap_or(u64::MAX)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: u64 = 1 << 31;
    const BURST: Duration = Duration::from_millis(10);

    #[test]
    fn starts_full_and_earns_its_share_of_wall_time() {
        let mut b = LimitBucket::new(HALF, BURST);
        assert!(b.is_open());
        b.charge(14_000, Instant::ZERO, BURST);
        assert_eq!(b.credit_ns, -4_000_000);
        assert!(!b.is_open());
        // Half of 8 ms pays the 4 ms back.
        assert_eq!(b.reopens_at(), Some(Instant::from_millis(8)));
        b.earn(Instant::from_micros(7_999), BURST);
        assert!(!b.is_open());
        b.earn(Instant::from_millis(8), BURST);
        assert!(b.is_open());
    }

    #[test]
    fn credit_saved_is_capped_at_the_burst() {
        let mut b = LimitBucket::new(HALF, BURST);
        b.earn(Instant::ZERO, BURST);
        b.earn(Instant::from_secs(10), BURST);
        assert_eq!(b.credit_ns, 10_000_000);
        b.charge(1_000, Instant::from_secs(10), BURST);
        assert_eq!(b.credit_ns, 9_000_000);
    }

    #[test]
    fn reopen_time_is_exact_for_odd_shares() {
        // A third: the earned credit at the reopening instant covers the debt.
        let third = (1u64 << 32) / 3;
        let mut b = LimitBucket::new(third, BURST);
        b.charge(12_345, Instant::ZERO, BURST);
        let t = b.reopens_at().unwrap();
        let mut late = b;
        late.earn(t, BURST);
        assert!(late.is_open());
        let mut early = b;
        early.earn(t - Duration::from_nanos(1), BURST);
        assert!(!early.is_open());
    }
}
