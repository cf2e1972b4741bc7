//! Timers: the retransmission timeout (RFC 6298 §5), the tail loss probe (RFC 8985 §7,
//! Linux `tcp_schedule_loss_probe`, `tcp_send_loss_probe`), RACK's reorder timer
//! (RFC 8985 §6.3, Linux `tcp_rack_reo_timeout`) and the delayed ACK.
//!
//! The probe timeout is Linux's: `2·SRTT`, plus 200 ms (`TCP_RTO_MIN`) when a single
//! segment is outstanding to cover the peer's delayed ACK, else plus 2 ms
//! (`TCP_TIMEOUT_MIN`); never later than the RTO. A probe is scheduled only in Open or
//! CWR with nothing SACKed (Linux excludes Disorder), with SACK on, and one probe at a
//! time. It sends new data if the receive window allows, else retransmits the last
//! segment.

use super::endpoint::{TcpEndpoint, TcpState};
use super::recovery::CaState;
use super::segment::Outgoing;
use airq::{Duration, Instant};

/// Which of the two loss-detection timers is armed (Linux shares one `icsk_pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Probe {
    /// Tail loss probe.
    Tlp,
    /// RACK reorder timer.
    Reorder,
}

/// Linux `TCP_TIMEOUT_MIN`.
const TIMEOUT_MIN: Duration = Duration::from_millis(2);

impl TcpEndpoint {
    /// Runs every timer due at `now`; call it when `now >= next_timer()`.
    pub fn on_timer(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        if self.rcv.delack_at.is_some_and(|at| at <= now) {
            self.rcv.delack_at = None;
            if self.rcv.ack_pending() && self.state != TcpState::Closed {
                self.send_ack(now, out);
            }
        }
        if let Some((kind, at)) = self.probe {
            if at <= now {
                self.probe = None;
                match kind {
                    Probe::Reorder => self.on_reorder_timeout(now, out),
                    Probe::Tlp => self.send_loss_probe(now, out),
                }
            }
        }
        if self.rto_at.is_some_and(|at| at <= now) {
            self.on_rto(now, out);
        }
        self.after_send(now);
    }

    /// RFC 6298 §5.4–5.6 (Linux `tcp_retransmit_timer`): SYN again, or go to Loss,
    /// retransmit the first unacknowledged segment whatever cwnd says, back off.
    fn on_rto(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        self.rto_at = None;
        match self.state {
            TcpState::SynSent | TcpState::SynReceived => {
                self.stats.rto_timeouts += 1;
                self.stats.retransmits += 1;
                self.syn_retransmits += 1;
                self.rtt.back_off();
                self.send_syn(now, out);
                self.rto_at = Some(now + self.rtt.rto());
                return;
            }
            TcpState::Closed | TcpState::Listen | TcpState::TimeWait => return,
            _ => {}
        }
        let Some(head) = self.snd.scoreboard.first().map(|s| s.start) else {
            return;
        };
        self.stats.rto_timeouts += 1;
        self.enter_loss(now);
        self.retransmit(head, now, out);
        self.rtt.back_off();
        self.rto_at = Some(now + self.rtt.rto());
    }

    /// RACK's reorder timer: look for losses again, enter recovery if any.
    fn on_reorder_timeout(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        if self.rack_detect_loss(now) == 0 {
            return;
        }
        if !matches!(self.rec.state, CaState::Recovery | CaState::Loss) {
            self.enter_recovery();
            self.prr(1, 0, false);
        }
        self.transmit(now, out);
    }

    /// Sends a tail loss probe (RFC 8985 §7.3) and re-arms the RTO from now.
    fn send_loss_probe(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        if self.tlp_high_seq.is_some() || self.snd.scoreboard.is_empty() {
            return;
        }
        if let Some((len, fin)) = self.next_new_segment(true) {
            self.send_new(now, len, fin, out);
            self.tlp_retrans = false;
        } else if let Some(last) = self.snd.scoreboard.last().map(|s| s.start) {
            self.retransmit(last, now, out);
            self.tlp_retrans = true;
        }
        self.stats.tlp_probes += 1;
        self.tlp_high_seq = Some(self.snd.snd_nxt);
        self.rto_at = Some(now + self.rtt.rto());
    }

    /// Arms the probe timer if a probe is allowed (see the module comment) and no
    /// reorder timer is pending; disarms a pending probe otherwise.
    pub(super) fn schedule_tlp(&mut self, now: Instant) {
        if matches!(self.probe, Some((Probe::Reorder, _))) {
            return;
        }
        let eligible = self.sack_ok
            && matches!(self.rec.state, CaState::Open | CaState::Cwr)
            && self.snd.scoreboard.sacked_out == 0
            && self.tlp_high_seq.is_none()
            && !self.snd.scoreboard.is_empty();
        if !eligible {
            self.probe = None;
            return;
        }
        let pto = match self.rtt.srtt() {
            Some(srtt) if self.snd.scoreboard.packets_out() == 1 => srtt * 2 + self.config.min_rto,
            Some(srtt) => srtt * 2 + TIMEOUT_MIN,
            None => self.config.initial_rto,
        };
        let at = self.rto_at.map_or(now + pto, |rto| rto.min(now + pto));
        self.probe = Some((Probe::Tlp, at));
    }

    /// An ACK advanced `snd_una`: restart the RTO (RFC 6298 §5.3) or stop it when
    /// nothing is outstanding (§5.2), and re-arm the probe.
    pub(super) fn rearm_after_ack(&mut self, now: Instant) {
        if self.snd.scoreboard.is_empty() {
            self.rto_at = None;
            self.probe = None;
            return;
        }
        self.rto_at = Some(now + self.rtt.rto());
        self.schedule_tlp(now);
    }

    /// After anything was sent: the RTO runs while data is outstanding (RFC 6298 §5.1).
    pub(super) fn after_send(&mut self, now: Instant) {
        if matches!(self.state, TcpState::SynSent | TcpState::SynReceived) {
            return;
        }
        if self.snd.scoreboard.is_empty() {
            self.rto_at = None;
            self.probe = None;
        } else if self.rto_at.is_none() {
            self.rto_at = Some(now + self.rtt.rto());
        }
    }
}
