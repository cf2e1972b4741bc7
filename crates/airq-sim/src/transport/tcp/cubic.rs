//! CUBIC congestion avoidance (RFC 9438; Linux `net/ipv4/tcp_cubic.c`), in Linux's
//! integer arithmetic.
//!
//! After a reduction at window W_max the window follows
//! `W(t) = C·(t − K)³ + W_max` (RFC 9438 eq. 1) with `K = ∛((W_max − cwnd_epoch)/C)`
//! (eq. 2), C = 0.4 and β = 0.7 (§4.5, §4.6). Linux works in segments and in units of
//! 1/1024 s (`BICTCP_HZ = 10`): C is `bic_scale·10 / 1024 = 410/1024 ≈ 0.4004`, β is
//! `717/1024 ≈ 0.700`. Each ACK sets the per-ACK increment `cnt` so that cwnd reaches the
//! target `W(t + min_rtt)` one RTT ahead (`bictcp_update`). Fast convergence (§4.7)
//! lowers W_max to `cwnd·(1 + β)/2` when a reduction happens below the previous W_max.
//! The Reno-friendly region (§4.3) estimates a Reno window growing by
//! `α = 3(1 − β)/(1 + β)` segments per RTT (Linux `beta_scale`) and takes the faster.
//! Times are integer nanoseconds where Linux has jiffies.

use super::cc::AckSample;
use super::hystart::Hystart;
use super::window::Window;
use airq::{Duration, Instant};

/// β·1024 (Linux `beta = 717`).
const BETA: u64 = 717;
const BETA_SCALE: u64 = 1024;
/// C·1024 = `bic_scale · 10` (Linux `cube_rtt_scale`, `bic_scale = 41`).
const CUBE_RTT_SCALE: u64 = 410;
/// Time unit of the cubic function: 1/2^10 s (Linux `BICTCP_HZ`).
const BICTCP_HZ: u32 = 10;
/// `2^(10 + 3·BICTCP_HZ) / cube_rtt_scale`: turns a window distance into K³ in 1/1024 s
/// units (Linux `cube_factor`).
const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / CUBE_RTT_SCALE;
/// 8·(1 + β)/(3·(1 − β)) in Linux's integers: 15, i.e. the Reno estimate gains one
/// segment per `15/8 · cwnd` ACKed segments, α ≈ 0.53 (RFC 9438 §4.3).
const RENO_BETA_SCALE: u64 = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
/// Linux updates `cnt` at most once per jiffy; one millisecond here.
const UPDATE_GRANULARITY: Duration = Duration::from_millis(1);

/// Linux `struct bictcp`.
#[derive(Clone, Debug)]
pub(super) struct Cubic {
    /// Segments to ACK per one-segment increase.
    cnt: u32,
    /// W_max after fast convergence (segments).
    last_max_cwnd: u32,
    last_cwnd: u32,
    last_time: Option<Instant>,
    /// W_max of the current epoch: the window the curve returns to at K.
    origin_point: u32,
    /// K in 1/1024 s.
    k: u64,
    /// Smallest RTT sample (Linux `delay_min`).
    delay_min: Option<Duration>,
    /// Start of the current congestion-avoidance epoch.
    epoch_start: Option<Instant>,
    /// Segments ACKed in the epoch, for the Reno estimate.
    ack_cnt: u32,
    /// The Reno-friendly window estimate (segments).
    tcp_cwnd: u32,
    hystart: Hystart,
}

impl Cubic {
    pub(super) fn new(hystart: bool) -> Self {
        Cubic {
            cnt: 0,
            last_max_cwnd: 0,
            last_cwnd: 0,
            last_time: None,
            origin_point: 0,
            k: 0,
            delay_min: None,
            epoch_start: None,
            ack_cnt: 0,
            tcp_cwnd: 0,
            hystart: Hystart::new(hystart),
        }
    }

    /// W_max (segments) as the last reduction left it, after fast convergence.
    pub(super) fn w_max(&self) -> u32 {
        self.last_max_cwnd
    }

    /// Linux `bictcp_reset` + `bictcp_hystart_reset` on entering TCP_CA_Loss: everything
    /// learnt about the window, W_max and the minimum delay included, is forgotten.
    pub(super) fn reset(&mut self, now: Instant, snd_nxt: u64) {
        let hystart = self.hystart.enabled();
        *self = Cubic::new(hystart);
        self.hystart.reset_round(now, snd_nxt);
    }

    /// RFC 9438 §4.6–4.7, Linux `cubictcp_recalc_ssthresh`: ends the epoch, remembers
    /// W_max (lowered by fast convergence) and returns `max(β·cwnd, 2)`.
    pub(super) fn recalc_ssthresh(&mut self, cwnd: u32) -> u32 {
        self.epoch_start = None;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd {
            ((u64::from(cwnd) * (BETA_SCALE + BETA)) / (2 * BETA_SCALE)) as u32
        } else {
            cwnd
        };
        (((u64::from(cwnd) * BETA) / BETA_SCALE) as u32).max(2)
    }

    /// Linux `cubictcp_acked`: the minimum delay, and HyStart while in slow start.
    pub(super) fn acked(&mut self, sample: &AckSample, window: &mut Window) {
        let Some(rtt) = sample.rtt else { return };
        // Delay samples right after a reduction are discarded for one second.
        if let Some(epoch) = self.epoch_start {
            if sample.now - epoch < Duration::from_secs(1) {
                return;
            }
        }
        let delay = rtt.max(Duration::from_nanos(1));
        if self.delay_min.is_none_or(|m| delay < m) {
            self.delay_min = Some(delay);
        }
        if window.in_slow_start() {
            let delay_min = self.delay_min.unwrap_or(delay);
            if self.hystart.update(sample, delay, delay_min, window.cwnd) {
                window.ssthresh = window.cwnd;
            }
        }
    }

    /// Sending restarts after `idle`: the epoch moves forward by the idle time so the
    /// curve does not jump (Linux `cubictcp_cwnd_event(CA_EVENT_TX_START)`).
    pub(super) fn shift_epoch(&mut self, now: Instant, idle: Duration) {
        if let Some(epoch) = self.epoch_start {
            self.epoch_start = Some((epoch + idle).min(now));
        }
    }

    /// Linux `bictcp_update`: the segments to ACK per one-segment increase, given the
    /// window `cwnd` and `acked` segments ACKed now.
    pub(super) fn update(&mut self, now: Instant, cwnd: u32, acked: u32) -> u32 {
        self.ack_cnt = self.ack_cnt.saturating_add(acked);
        let since_update = self.last_time.map(|t| now - t);
        if self.last_cwnd == cwnd
            && since_update.is_some_and(|d| d <= Duration::from_micros(31_250))
        {
            return self.cnt;
        }
        let same_tick = since_update.is_some_and(|d| d < UPDATE_GRANULARITY);
        if self.epoch_start.is_none() || !same_tick {
            self.last_cwnd = cwnd;
            self.last_time = Some(now);
            self.cubic_target(now, cwnd, acked);
        }
        self.reno_friendly(cwnd);
        // At most one segment per two ACKed: cwnd grows at most 1.5× per RTT.
        self.cnt = self.cnt.max(2);
        self.cnt
    }

    /// The cubic function (RFC 9438 eq. 1–2) and the per-ACK count reaching it.
    fn cubic_target(&mut self, now: Instant, cwnd: u32, acked: u32) {
        let epoch = *self.epoch_start.get_or_insert_with(|| {
            self.ack_cnt = acked;
            self.tcp_cwnd = cwnd;
            if self.last_max_cwnd <= cwnd {
                self.k = 0;
                self.origin_point = cwnd;
            } else {
                self.k = cube_root(CUBE_FACTOR * u64::from(self.last_max_cwnd - cwnd));
                self.origin_point = self.last_max_cwnd;
            }
            now
        });
        // t + min RTT: where the window should be one RTT from now, in 1/1024 s.
        let elapsed = (now - epoch) + self.delay_min.unwrap_or(Duration::ZERO);
        let t = (u128::from(elapsed.as_nanos()) << BICTCP_HZ) / 1_000_000_000;
        let k = u128::from(self.k);
        let offs = t.abs_diff(k);
        let delta = (u128::from(CUBE_RTT_SCALE) * offs * offs * offs) >> (10 + 3 * BICTCP_HZ);
        let origin = u128::from(self.origin_point);
        let target = if t < k {
            origin.saturating_sub(delta)
        } else {
            origin + delta
        };
        let cwnd_wide = u128::from(cwnd);
        self.cnt = if target > cwnd_wide {
            (cwnd_wide / (target - cwnd_wide)).min(u128::from(u32::MAX)) as u32
        } else {
            // Very small increment.
            cwnd.saturating_mul(100)
        };
        // Before any loss the bandwidth is unknown: at least 5 % per RTT.
        if self.last_max_cwnd == 0 && self.cnt > 20 {
            self.cnt = 20;
        }
    }

    /// RFC 9438 §4.3: the Reno-friendly estimate W_est, and the faster of the two.
    fn reno_friendly(&mut self, cwnd: u32) {
        let per_segment = ((u64::from(cwnd) * RENO_BETA_SCALE) >> 3).max(1);
        while u64::from(self.ack_cnt) > per_segment {
            self.ack_cnt -= per_segment as u32;
            self.tcp_cwnd = self.tcp_cwnd.saturating_add(1);
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            self.cnt = self.cnt.min(max_cnt);
        }
    }
}

/// ⌊∛x⌋, exactly (Linux approximates with a table and one Newton step).
fn cube_root(x: u64) -> u64 {
    let cube = |r: u64| r.checked_mul(r).and_then(|r2| r2.checked_mul(r));
    let mut r = (x as f64).cbrt() as u64;
    while cube(r).is_none_or(|c| c > x) {
        r -= 1;
    }
    while cube(r + 1).is_some_and(|c| c <= x) {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_root_is_exact_floor() {
        for x in [0u64, 1, 7, 8, 26, 27, 1_000_000, u64::MAX] {
            let r = cube_root(x);
            assert!(u128::from(r).pow(3) <= u128::from(x));
            assert!(u128::from(r + 1).pow(3) > u128::from(x));
        }
    }

    #[test]
    fn constants_match_rfc_9438() {
        assert_eq!(RENO_BETA_SCALE, 15);
        // C·1024 = 410: C = 0.4004; β = 0.7002.
        assert!((CUBE_RTT_SCALE as f64 / 1024.0 - 0.4).abs() < 0.001);
        assert!((BETA as f64 / 1024.0 - 0.7).abs() < 0.001);
    }

    #[test]
    fn reduction_is_beta_and_fast_convergence_lowers_w_max() {
        let mut c = Cubic::new(false);
        assert_eq!(c.recalc_ssthresh(100), 70);
        assert_eq!(c.w_max(), 100);
        // A second loss below W_max: W_max = 80·(1 + β)/2 = 68.
        assert_eq!(c.recalc_ssthresh(80), 56);
        assert_eq!(c.w_max(), 68);
    }

    #[test]
    fn k_follows_eq_2() {
        let mut c = Cubic::new(false);
        c.recalc_ssthresh(1000);
        c.update(Instant::from_secs(1), 700, 1);
        // K = ∛(300/0.4) = 9.086 s.
        let k_s = c.k as f64 / 1024.0;
        assert!((k_s - 9.086).abs() < 0.01, "K = {k_s}");
    }
}
