//! The congestion state machine of the sender (Linux `icsk_ca_state`: Open, CWR,
//! Recovery, Loss; Disorder is folded into Open) and how cwnd moves in each:
//! - *Recovery* (RFC 6675 §5 entered on RACK-detected loss, RFC 8985): ssthresh from the
//!   congestion control once per episode, cwnd by Proportional Rate Reduction
//!   (RFC 6937 §3, Linux `tcp_cwnd_reduction`) until everything outstanding at the start
//!   is acknowledged (`high_seq`), then cwnd = ssthresh;
//! - *CWR* (RFC 3168 §6.1.2): the same reduction on ECE, at most once per window, ended
//!   when data sent after it is acknowledged;
//! - *Loss* (RFC 6298 §5.5, RFC 5681 §3.1 eq. 4, Linux `tcp_enter_loss`): after an RTO,
//!   cwnd = 1 and slow start; every segment not SACKed is marked lost (SACK tags kept);
//! - *Open*: cwnd grows by the congestion control on ACKs that advance `snd_una`, if the
//!   sender was cwnd-limited (Linux `tcp_may_raise_cwnd`, `tcp_is_cwnd_limited`).

use super::endpoint::TcpEndpoint;
use super::window::INFINITE_SSTHRESH;
use airq::Instant;

/// Linux `enum tcp_ca_state` without Disorder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum CaState {
    #[default]
    Open,
    Cwr,
    Recovery,
    Loss,
}

/// The reduction episode in progress.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Recovery {
    pub(super) state: CaState,
    /// `snd_nxt` when the episode began (RFC 6675 RecoveryPoint).
    pub(super) high_seq: u64,
    /// cwnd when the episode began (RFC 6937 RecoverFS as Linux takes it).
    prior_cwnd: u32,
    prr_delivered: u32,
    /// Segments sent during the episode (RFC 6937 `prr_out`).
    pub(super) prr_out: u32,
    /// Set CWR on the next new data segment (Linux `TCP_ECN_QUEUE_CWR`).
    pub(super) cwr_pending: bool,
}

impl TcpEndpoint {
    /// Whether cwnd is being reduced by PRR.
    pub(super) fn in_cwnd_reduction(&self) -> bool {
        matches!(self.rec.state, CaState::Cwr | CaState::Recovery)
    }

    /// One ACK's effect on the state and cwnd (Linux `tcp_fastretrans_alert` then
    /// `tcp_cong_control`).
    pub(super) fn update_ca_state(
        &mut self,
        now: Instant,
        una_advanced: bool,
        delivered: u32,
        newly_lost: u32,
        ece: bool,
    ) {
        let una = self.snd.snd_una;
        match self.rec.state {
            // CWR holds until data sent *after* high_seq is acknowledged, so that the CWR
            // flag has reached the receiver (Linux).
            CaState::Cwr if una > self.rec.high_seq => self.end_cwnd_reduction(),
            CaState::Recovery if una >= self.rec.high_seq => self.end_cwnd_reduction(),
            CaState::Loss if una >= self.rec.high_seq => self.rec.state = CaState::Open,
            _ => {}
        }
        if matches!(self.rec.state, CaState::Open | CaState::Cwr) {
            if self.snd.scoreboard.lost_out > 0 {
                self.enter_recovery();
            } else if ece && self.rec.state == CaState::Open {
                self.init_cwnd_reduction();
                self.rec.state = CaState::Cwr;
                self.stats.ecn_reductions += 1;
            }
        }
        if self.in_cwnd_reduction() {
            self.prr(delivered, newly_lost, una_advanced);
        } else if una_advanced && self.is_cwnd_limited() {
            self.cc.cong_avoid(now, &mut self.window, delivered);
        }
    }

    /// RFC 6675 §5 step 4 / Linux `tcp_enter_recovery`: one reduction per episode — if
    /// a CWR reduction is already running, it continues.
    pub(super) fn enter_recovery(&mut self) {
        if !self.in_cwnd_reduction() {
            self.init_cwnd_reduction();
        }
        self.rec.high_seq = self.snd.snd_nxt;
        self.rec.state = CaState::Recovery;
        self.stats.fast_recoveries += 1;
    }

    /// Linux `tcp_init_cwnd_reduction`: the new ssthresh from the congestion control,
    /// PRR counters reset, CWR to be signalled.
    fn init_cwnd_reduction(&mut self) {
        self.rec.high_seq = self.snd.snd_nxt;
        self.rec.prior_cwnd = self.window.cwnd;
        self.rec.prr_delivered = 0;
        self.rec.prr_out = 0;
        self.window.cwnd_cnt = 0;
        self.window.ssthresh = self.cc.ssthresh(&self.window);
        self.rec.cwr_pending = self.ecn_ok;
        self.tlp_high_seq = None;
    }

    /// RFC 6937 §3 as Linux `tcp_cwnd_reduction`: while more than ssthresh is in flight
    /// send in proportion to what is delivered (`prr_delivered · ssthresh /
    /// RecoverFS`); below it, slow-start-like reduction bound (PRR-SSRB) back to
    /// ssthresh. The first ACK of an episode may always send one segment: the fast
    /// retransmit.
    pub(super) fn prr(&mut self, delivered: u32, newly_lost: u32, una_advanced: bool) {
        if delivered == 0 || self.rec.prior_cwnd == 0 {
            return;
        }
        self.rec.prr_delivered += delivered;
        let in_flight = i64::from(self.snd.scoreboard.in_flight());
        let ssthresh = i64::from(self.window.ssthresh);
        let prr_delivered = i64::from(self.rec.prr_delivered);
        let prr_out = i64::from(self.rec.prr_out);
        let delta = ssthresh - in_flight;
        let mut sndcnt = if delta < 0 {
            let prior = i64::from(self.rec.prior_cwnd);
            (ssthresh * prr_delivered + prior - 1) / prior - prr_out
        } else {
            let mut n = (prr_delivered - prr_out).max(i64::from(delivered));
            if una_advanced && newly_lost == 0 {
                n += 1;
            }
            n.min(delta)
        };
        sndcnt = sndcnt.max(if self.rec.prr_out > 0 { 0 } else { 1 });
        self.window.cwnd = (in_flight + sndcnt).clamp(1, i64::from(u32::MAX)) as u32;
    }

    /// Linux `tcp_end_cwnd_reduction`: the episode is over, cwnd = ssthresh.
    fn end_cwnd_reduction(&mut self) {
        if self.window.ssthresh < INFINITE_SSTHRESH {
            self.window.cwnd = self.window.ssthresh.max(1);
        }
        self.rec.state = CaState::Open;
    }

    /// A reduction with nothing to recover (a tail loss probe repaired a loss): Linux
    /// enters CWR and ends it at once.
    pub(super) fn reduce_once(&mut self) {
        if self.rec.state == CaState::Open {
            self.init_cwnd_reduction();
            self.end_cwnd_reduction();
        }
    }

    /// Linux `tcp_enter_loss` on a retransmission timeout.
    pub(super) fn enter_loss(&mut self, now: Instant) {
        self.snd.scoreboard.mark_all_lost();
        // Reduce ssthresh unless this window was already reduced.
        if self.rec.state == CaState::Open || self.snd.snd_una >= self.rec.high_seq {
            self.window.ssthresh = self.cc.ssthresh(&self.window);
        }
        self.window.cwnd = self.snd.scoreboard.in_flight() + 1;
        self.window.cwnd_cnt = 0;
        self.cc.on_timeout(now, self.snd.snd_nxt);
        self.rec.state = CaState::Loss;
        self.rec.high_seq = self.snd.snd_nxt;
        self.rec.cwr_pending = self.ecn_ok;
        self.tlp_high_seq = None;
        self.probe = None;
    }

    /// Linux `tcp_is_cwnd_limited`: in slow start, cwnd may grow to twice what was in
    /// flight; otherwise only if the last window used all of cwnd.
    fn is_cwnd_limited(&self) -> bool {
        if self.snd.is_cwnd_limited {
            return true;
        }
        self.window.in_slow_start() && self.window.cwnd < 2 * self.snd.max_packets_out
    }
}
