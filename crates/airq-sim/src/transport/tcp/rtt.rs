//! Round-trip time estimation and the retransmission timeout (RFC 6298 §2, §5).
//!
//! SRTT and RTTVAR follow RFC 6298 §2.2–2.3 (α = 1/8, β = 1/4). The RTO is
//! `SRTT + max(G, K·RTTVAR)` with K = 4 and, as Linux does (`tcp_rtt_estimator`,
//! `__tcp_set_rto`: `rttvar_us = max(mdev_max_us, tcp_rto_min_us)`), the minimum RTO of
//! 200 ms in the place of the clock granularity G. So a Linux RTO is at least one SRTT
//! plus 200 ms, not `max(200 ms, SRTT + 4·RTTVAR)`. Linux's per-RTT maximum of the mean
//! deviation (`mdev_max_us`) is not modelled. Exponential backoff (§5.5) doubles the RTO
//! up to [`MAX_RTO`]; a new sample ends the backoff (Linux `tcp_ack_update_rtt`).
//!
//! Samples come from the timestamp echo (RFC 7323 §4.1), so a retransmitted segment
//! still yields one, which Karn's algorithm would have to discard.

use super::config::MAX_RTO;
use airq::Duration;

/// SRTT, RTTVAR, the RTO and its backoff, and the minimum RTT.
#[derive(Clone, Debug)]
pub(super) struct RttEstimator {
    srtt: Option<Duration>,
    rttvar: Duration,
    /// The RTO before backoff.
    base_rto: Duration,
    /// Doublings since the last sample (Linux `icsk_backoff`).
    backoff: u32,
    min_rtt: Option<Duration>,
    min_rto: Duration,
}

impl RttEstimator {
    pub(super) fn new(initial_rto: Duration, min_rto: Duration) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: Duration::ZERO,
            base_rto: initial_rto,
            backoff: 0,
            min_rtt: None,
            min_rto,
        }
    }

    /// Folds in one RTT measurement (RFC 6298 §2.2 first, §2.3 later ones).
    pub(super) fn on_sample(&mut self, rtt: Duration) {
        let rtt = rtt.max(Duration::from_nanos(1));
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2;
            }
            Some(srtt) => {
                let err = if srtt > rtt { srtt - rtt } else { rtt - srtt };
                // RTTVAR = 3/4 RTTVAR + 1/4 |SRTT − R'|; SRTT = 7/8 SRTT + 1/8 R'.
                self.rttvar = (self.rttvar * 3 + err) / 4;
                self.srtt = Some((srtt * 7 + rtt) / 8);
            }
        }
        let srtt = self.srtt.unwrap_or(rtt);
        self.base_rto = (srtt + self.min_rto.max(self.rttvar * 4)).min(MAX_RTO);
        self.backoff = 0;
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
    }

    /// The current RTO, with backoff.
    pub(super) fn rto(&self) -> Duration {
        let factor = 1u64 << self.backoff.min(20);
        (self.base_rto * factor).min(MAX_RTO)
    }

    /// Doubles the RTO (RFC 6298 §5.5).
    pub(super) fn back_off(&mut self) {
        if self.rto() < MAX_RTO {
            self.backoff += 1;
        }
    }

    pub(super) fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    pub(super) fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar_rto_has_linux_floor() {
        let mut e = RttEstimator::new(Duration::from_secs(1), ms(200));
        assert_eq!(e.rto(), Duration::from_secs(1), "RFC 6298 2.1");
        e.on_sample(ms(100));
        assert_eq!(e.srtt(), Some(ms(100)));
        // 4·RTTVAR = 200 ms = min_rto: RTO = 100 + 200.
        assert_eq!(e.rto(), ms(300));
        e.on_sample(ms(100));
        // RTTVAR = 3/4·50 = 37.5 ms; 4·RTTVAR = 150 < 200, so the floor applies.
        assert_eq!(e.rto(), ms(300));
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_and_a_sample_ends_it() {
        let mut e = RttEstimator::new(Duration::from_secs(1), ms(200));
        e.on_sample(ms(10));
        let base = e.rto();
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), base * 4);
        for _ in 0..30 {
            e.back_off();
        }
        assert_eq!(e.rto(), MAX_RTO);
        e.on_sample(ms(10));
        assert!(e.rto() < ms(300));
    }
}
