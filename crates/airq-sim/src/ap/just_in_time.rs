//! Just-in-time aggregates in the softmac driver ([`airq::aggregate::just_in_time`],
//! seed §4.1): per AC, when the driver may build the aggregate after the one on the air.
//! ath9k builds it as soon as the hardware queue has room for a second; with this
//! option the driver waits until the instant the rule gives — `lead_time` before the
//! on-air aggregate's expected end, made late by the host's scheduling jitter, drawn from
//! the run's `host-jitter` stream — and says so through its `poll_at`.
//!
//! The model knows when each aggregate starts (the transmission-start interrupt the
//! seed wishes for; ath9k has none) and expects it to end one PPDU TXTIME later; it does
//! not add SIFS and the BlockAck, so the lead time is counted from the end of the PPDU.

use crate::engine::rng::RngStream;
use airq::aggregate::{JustInTime, JustInTimeParams, JustInTimeStats};
use airq::{Ac, Duration, Instant};

pub(super) struct JitTimer {
    rule: JustInTime,
    /// The host's scheduling lateness; `None` (a transmit path built without a
    /// simulation's streams, as in unit tests): no jitter.
    rng: Option<RngStream>,
    /// Per AC: when the next aggregate may be built (an aggregate is on the air).
    build_at: [Option<Instant>; Ac::COUNT],
    /// Per AC: the driver still has to act at `build_at`.
    armed: [bool; Ac::COUNT],
}

impl JitTimer {
    pub(super) fn new(params: JustInTimeParams) -> JitTimer {
        JitTimer {
            rule: JustInTime::new(params),
            rng: None,
            build_at: [None; Ac::COUNT],
            armed: [false; Ac::COUNT],
        }
    }

    pub(super) fn set_rng(&mut self, rng: RngStream) {
        self.rng = Some(rng);
    }

    pub(super) fn stats(&self) -> &JustInTimeStats {
        self.rule.stats()
    }

    /// An aggregate of `ac` went on the air at `now` for `airtime`.
    pub(super) fn on_air(&mut self, ac: Ac, airtime: Duration, now: Instant) {
        let max_ns = self.rule.params().max_jitter.as_nanos();
        let jitter_ns = match &mut self.rng {
            Some(rng) => rng.uniform_inclusive(u32::try_from(max_ns).unwrap_or(u32::MAX)),
            None => 0,
        };
        let at = self
            .rule
            .schedule(now, airtime, Duration::from_nanos(u64::from(jitter_ns)));
        self.build_at[ac.index()] = Some(at);
        self.armed[ac.index()] = true;
    }

    /// Whether the next aggregate of `ac` may be built at `now`.
    pub(super) fn may_build(&self, ac: Ac, now: Instant) -> bool {
        self.build_at[ac.index()].is_some_and(|t| t <= now)
    }

    /// The aggregate of `ac` on the air completed; `dry` if nothing was built to follow
    /// it while frames wait (counted late).
    pub(super) fn completed(&mut self, ac: Ac, dry: bool) {
        self.build_at[ac.index()] = None;
        self.armed[ac.index()] = false;
        if dry {
            self.rule.record_late();
        }
    }

    /// The earliest instant the driver must act.
    pub(super) fn poll_at(&self) -> Option<Instant> {
        Ac::ALL
            .iter()
            .filter(|ac| self.armed[ac.index()])
            .filter_map(|ac| self.build_at[ac.index()])
            .min()
    }

    /// The ACs whose build is due at `now`, disarmed.
    pub(super) fn take_due(&mut self, now: Instant) -> [bool; Ac::COUNT] {
        Ac::ALL.map(|ac| {
            let i = ac.index();
            let due = self.armed[i] && self.build_at[i].is_some_and(|t| t <= now);
            if due {
                self.armed[i] = false;
            }
            due
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::RngRoot;

    #[test]
    fn the_build_waits_for_the_lead_time_and_fires_once() {
        let mut j = JitTimer::new(JustInTimeParams::default());
        let t0 = Instant::from_millis(1);
        j.on_air(Ac::Be, Duration::from_millis(4), t0);
        let at = t0 + Duration::from_micros(3500);
        assert_eq!(j.poll_at(), Some(at));
        assert!(!j.may_build(Ac::Be, at - Duration::from_nanos(1)));
        assert!(j.may_build(Ac::Be, at));
        assert_eq!(j.take_due(at), [false, false, true, false]);
        assert_eq!(j.poll_at(), None, "fired once");
        assert!(j.may_build(Ac::Be, at), "and stays open until completion");
        j.completed(Ac::Be, true);
        assert!(!j.may_build(Ac::Be, at));
        assert_eq!(j.stats().late, 1);
    }

    #[test]
    fn jitter_comes_from_the_stream_within_its_bound() {
        let mut j = JitTimer::new(JustInTimeParams::default());
        j.set_rng(RngRoot::new(1).stream("host-jitter", 0));
        let t0 = Instant::from_millis(1);
        let base = t0 + Duration::from_micros(3500);
        let mut seen = Vec::new();
        for _ in 0..50 {
            j.on_air(Ac::Vi, Duration::from_millis(4), t0);
            let at = j.poll_at().unwrap();
            assert!(
                at >= base && at <= base + Duration::from_micros(200),
                "{at}"
            );
            seen.push(at);
        }
        seen.dedup();
        assert!(seen.len() > 10, "jitter varies");
    }
}
