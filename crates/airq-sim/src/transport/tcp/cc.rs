//! The congestion control of the sending side, as the hooks of Linux's
//! `struct tcp_congestion_ops` that CUBIC and Reno use: `ssthresh` on a reduction,
//! `cong_avoid` on an ACK, `pkts_acked` for RTT samples, `set_state(TCP_CA_Loss)` on a
//! timeout, `cwnd_event(CA_EVENT_TX_START)` when sending resumes after idle.
//! One enum, no trait objects (STYLE.md rule 4; smoltcp's `AnyController`).

use super::config::{CongestionControl, TcpConfig};
use super::cubic::Cubic;
use super::window::Window;
use airq::{Duration, Instant};

/// What a controller learns from one ACK.
#[derive(Clone, Copy, Debug)]
pub(super) struct AckSample {
    pub(super) now: Instant,
    /// RTT of the most recently sent segment this ACK delivered, if it was never
    /// retransmitted (Linux `ca_rtt_us`).
    pub(super) rtt: Option<Duration>,
    pub(super) snd_una: u64,
    pub(super) snd_nxt: u64,
}

/// The configured algorithm and its state.
#[derive(Clone, Debug)]
pub(super) enum Controller {
    Cubic(Box<Cubic>),
    NewReno,
}

impl Controller {
    pub(super) fn new(config: &TcpConfig) -> Self {
        match config.cc {
            CongestionControl::Cubic => Controller::Cubic(Box::new(Cubic::new(config.hystart))),
            CongestionControl::NewReno => Controller::NewReno,
        }
    }

    /// The slow-start threshold after a congestion event (Linux `.ssthresh`).
    /// NewReno: half the window (RFC 5681 §3.1 eq. 4, in segments as Linux does).
    pub(super) fn ssthresh(&mut self, window: &Window) -> u32 {
        match self {
            Controller::Cubic(c) => c.recalc_ssthresh(window.cwnd),
            Controller::NewReno => (window.cwnd / 2).max(2),
        }
    }

    /// An ACK delivered segments (Linux `.pkts_acked`): delay samples for HyStart.
    pub(super) fn on_ack_sample(&mut self, sample: &AckSample, window: &mut Window) {
        if let Controller::Cubic(c) = self {
            c.acked(sample, window);
        }
    }

    /// Window growth on an ACK that delivered `acked` segments while the sender was
    /// limited by cwnd (Linux `.cong_avoid`; the caller checks `tcp_is_cwnd_limited`).
    pub(super) fn cong_avoid(&mut self, now: Instant, window: &mut Window, acked: u32) {
        let mut acked = acked;
        if window.in_slow_start() {
            acked = window.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        match self {
            Controller::Cubic(c) => {
                let cnt = c.update(now, window.cwnd, acked);
                window.cong_avoid_ai(cnt, acked);
            }
            Controller::NewReno => {
                let cwnd = window.cwnd;
                window.cong_avoid_ai(cwnd, acked);
            }
        }
    }

    /// CUBIC's W_max in segments (after fast convergence); `None` for NewReno.
    pub(super) fn w_max(&self) -> Option<u32> {
        match self {
            Controller::Cubic(c) => Some(c.w_max()),
            Controller::NewReno => None,
        }
    }

    /// A retransmission timeout (Linux `.set_state(TCP_CA_Loss)`).
    pub(super) fn on_timeout(&mut self, now: Instant, snd_nxt: u64) {
        if let Controller::Cubic(c) = self {
            c.reset(now, snd_nxt);
        }
    }

    /// Sending starts again with nothing in flight after `idle` (Linux
    /// `CA_EVENT_TX_START`).
    pub(super) fn on_tx_start(&mut self, now: Instant, idle: Duration) {
        if let Controller::Cubic(c) = self {
            c.shift_epoch(now, idle);
        }
    }
}
