//! Timers: the retransmission timeout (RFC 6298 §5), the tail loss probe (RFC 8985 §7,
//! Linux `tcp_schedule_loss_probe`, `tcp_send_loss_probe`), RACK's reorder timer
//! (RFC 8985 §6.3, Linux `tcp_rack_reo_timeout`) and the delayed ACK.
//!
//! The probe timeout (PTO) is Linux's (`tcp_schedule_loss_probe` since the 2017 commit
//! "tcp: adjust tail loss probe timeout"), which is RFC 8985 §7.2's with 200 ms for the
//! worst-case delayed ACK (WCDelAckT): `2·SRTT`, plus `min_rto` (Linux `TCP_RTO_MIN`,
//! 200 ms) when a single segment is outstanding, whose ACK the peer may delay, else plus
//! 2 ms (`TCP_TIMEOUT_MIN`); the initial RTO (`TCP_TIMEOUT_INIT`, 1 s) without an RTT
//! sample; and never later than the RTO's deadline, where the probe goes in the RTO's
//! place. (Earlier Linux used `max(2·SRTT, 10 ms)`, and with one segment out at least
//! `1.5·SRTT + TCP_DELACK_MAX`.) The timer is armed after new data is sent and on every
//! ACK that advances SND.UNA (RFC 8985 §7.2; Linux `tcp_write_xmit`,
//! `tcp_set_xmit_timer`), unless RACK's reorder timer is pending. A probe is scheduled
//! only in Open or CWR with nothing SACKed (Linux excludes Disorder) and with SACK on;
//! whether the sender is application- or cwnd-limited does not matter (earlier Linux
//! required that too). When it expires it sends new data if the receive window allows,
//! cwnd and Nagle aside, else retransmits the last segment (RFC 8985 §7.3, Linux
//! `tcp_send_loss_probe`), then re-arms the RTO from now; but at most one probe per
//! flight (Linux since 2020, "tcp: allow at most one TLP probe per flight"): while a
//! probe is outstanding the timer still runs, and its expiry only re-arms the RTO.
//!
//! A flight that queueing delays beyond `2·SRTT + 2 ms` draws a probe that turns out
//! spurious (its D-SACK settles the episode without a reduction, RFC 8985 §7.4), as in
//! Linux: the busy WiFi of the web page tests does that now and then.

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

    /// The probe timer expired (RFC 8985 §7.3, Linux `tcp_send_loss_probe`): sends a
    /// tail loss probe and re-arms the RTO from now. At most one probe per flight: while
    /// one is outstanding only the RTO is re-armed, and as Linux's `tcp_rearm_rto` does
    /// over a pending probe timer, from the last transmission of the first outstanding
    /// segment (`tcp_rto_delta_us`), not from now.
    fn send_loss_probe(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        let Some(head_sent) = self.snd.scoreboard.first().map(|s| s.xmit_time) else {
            return;
        };
        if self.tlp_high_seq.is_some() {
            self.rto_at = Some((head_sent + self.rtt.rto()).max(now));
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
    /// reorder timer is pending; disarms a pending probe otherwise (RFC 8985 §7.2, Linux
    /// `tcp_schedule_loss_probe`). The RTO is already running: the probe is capped at its
    /// deadline (`tcp_rto_delta_us`, or the full RTO when an ACK restarts it).
    pub(super) fn schedule_tlp(&mut self, now: Instant) {
        if matches!(self.probe, Some((Probe::Reorder, _))) {
            return;
        }
        let eligible = self.sack_ok
            && matches!(self.rec.state, CaState::Open | CaState::Cwr)
            && self.snd.scoreboard.sacked_out == 0
            && !self.snd.scoreboard.is_empty();
        if !eligible {
            self.probe = None;
            return;
        }
        // RFC 8985 §7.2: PTO = 2·SRTT, + WCDelAckT if FlightSize is one segment.
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
