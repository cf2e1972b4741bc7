//! The congestion window and slow-start threshold in segments, and the two ways they
//! grow (Linux `tcp_slow_start`, `tcp_cong_avoid_ai` in `net/ipv4/tcp_cong.c`;
//! RFC 5681 §3.1).

/// `ssthresh` before the first reduction: "arbitrarily high" (RFC 5681 §3.1; Linux
/// `TCP_INFINITE_SSTHRESH`).
pub(super) const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// Linux's `snd_cwnd`, `snd_ssthresh` and `snd_cwnd_cnt`, in segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) cwnd: u32,
    pub(super) ssthresh: u32,
    /// ACKed segments not yet turned into a congestion-avoidance increment.
    pub(super) cwnd_cnt: u32,
}

impl Window {
    pub(super) fn new(initial_window: u32) -> Self {
        Window {
            cwnd: initial_window,
            ssthresh: INFINITE_SSTHRESH,
            cwnd_cnt: 0,
        }
    }

    /// RFC 5681 §3.1: slow start while cwnd < ssthresh.
    pub(super) fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// Slow start (RFC 5681 §3.1, with RFC 3465 byte counting at L = ∞ as Linux does):
    /// cwnd grows by the segments `acked`, but not past ssthresh. Returns the ACKed
    /// segments left over for congestion avoidance.
    pub(super) fn slow_start(&mut self, acked: u32) -> u32 {
        let cwnd = self.cwnd.saturating_add(acked).min(self.ssthresh);
        let used = cwnd - self.cwnd;
        self.cwnd = cwnd;
        acked - used
    }

    /// Additive increase: one segment per `w` segments ACKed (RFC 5681 §3.1 with w =
    /// cwnd; CUBIC passes its own `cnt`).
    pub(super) fn cong_avoid_ai(&mut self, w: u32, acked: u32) {
        let w = w.max(1);
        // Credits accumulated at a larger w are applied gently now (Linux comment).
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd = self.cwnd.saturating_add(1);
        }
        self.cwnd_cnt = self.cwnd_cnt.saturating_add(acked);
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd = self.cwnd.saturating_add(delta);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_stops_at_ssthresh_and_returns_the_rest() {
        let mut w = Window::new(10);
        w.ssthresh = 14;
        assert_eq!(w.slow_start(6), 2);
        assert_eq!(w.cwnd, 14);
        assert!(!w.in_slow_start());
    }

    #[test]
    fn additive_increase_is_one_segment_per_window() {
        let mut w = Window::new(10);
        for _ in 0..10 {
            w.cong_avoid_ai(10, 1);
        }
        assert_eq!(w.cwnd, 11);
        assert_eq!(w.cwnd_cnt, 0);
    }
}
