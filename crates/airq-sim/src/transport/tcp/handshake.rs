//! Opening and closing: the three-way handshake (RFC 9293 §3.5) with SACK-permitted
//! (RFC 2018 §2), ECN setup (RFC 3168 §6.1.1: ECE+CWR on the SYN, ECE alone on the
//! SYN-ACK), the MSS option and timestamps; the FIN state transitions (RFC 9293 §3.6);
//! and the dispatch of an arriving segment by state.

use super::endpoint::{TcpEndpoint, TcpState};
use super::segment::{Outgoing, Segment};
use airq::Instant;

impl TcpEndpoint {
    /// A client sends its SYN (RFC 9293 §3.5) and starts the SYN timer at the initial
    /// RTO (RFC 6298 §2.1). Ignored unless the endpoint is a fresh client.
    pub fn connect(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        if self.state != TcpState::Closed || self.snd.snd_nxt != 0 {
            return;
        }
        self.state = TcpState::SynSent;
        self.snd.snd_nxt = 1;
        self.send_syn(now, out);
        self.rto_at = Some(now + self.rtt.rto());
    }

    /// Sends our SYN (client) or SYN-ACK (server), first time or again.
    pub(super) fn send_syn(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        let mut seg = Segment::new(0, 0);
        seg.flags.syn = true;
        seg.sack_permitted = self.config.sack;
        seg.mss = self.config.mss;
        seg.window = self.config.max_receive_window;
        seg.ts_val = now;
        if self.state == TcpState::SynSent {
            // RFC 3168 §6.1.1: an ECN-setup SYN carries ECE and CWR.
            seg.flags.ece = self.config.ecn;
            seg.flags.cwr = self.config.ecn;
        } else {
            seg.flags.ack = true;
            seg.ack = self.rcv.rcv_nxt;
            seg.ts_ecr = self.rcv.ts_recent;
            // An ECN-setup SYN-ACK carries ECE only.
            seg.flags.ece = self.ecn_ok;
            self.rcv.on_ack_sent();
        }
        self.stats.segments_sent += 1;
        out.push(Outgoing {
            segment: seg,
            ect: false,
        });
    }

    /// A segment arrives; `ce` tells whether its IP header was marked CE. Replies and
    /// any data the windows now allow go to `out`.
    pub fn on_segment(&mut self, now: Instant, seg: &Segment, ce: bool, out: &mut Vec<Outgoing>) {
        match self.state {
            TcpState::Closed => self.stats.ignored_segments += 1,
            TcpState::Listen => self.on_syn(now, seg, out),
            TcpState::SynSent => self.on_syn_ack(now, seg, out),
            _ => self.on_connected_segment(now, seg, ce, out),
        }
    }

    /// Listen: a SYN opens the connection and is answered with a SYN-ACK.
    fn on_syn(&mut self, now: Instant, seg: &Segment, out: &mut Vec<Outgoing>) {
        if !seg.flags.syn || seg.flags.ack {
            self.stats.ignored_segments += 1;
            return;
        }
        self.negotiate(seg, seg.flags.ece && seg.flags.cwr);
        self.rcv.on_syn(seg.seq, seg.ts_val);
        self.state = TcpState::SynReceived;
        self.snd.snd_nxt = 1;
        self.send_syn(now, out);
        self.rto_at = Some(now + self.rtt.rto());
    }

    /// The options both ends agreed on.
    fn negotiate(&mut self, syn: &Segment, peer_ecn: bool) {
        self.sack_ok = self.config.sack && syn.sack_permitted;
        self.ecn_ok = self.config.ecn && peer_ecn;
        if syn.mss > 0 {
            self.mss = self.config.mss.min(syn.mss).max(1);
        }
    }

    /// SYN-SENT: the SYN-ACK establishes the connection.
    fn on_syn_ack(&mut self, now: Instant, seg: &Segment, out: &mut Vec<Outgoing>) {
        if !(seg.flags.syn && seg.flags.ack && seg.ack == 1) {
            self.stats.ignored_segments += 1;
            return;
        }
        // RFC 3168 §6.1.1: ECN is on if the SYN-ACK has ECE and not CWR.
        self.negotiate(seg, seg.flags.ece && !seg.flags.cwr);
        self.rcv.on_syn(seg.seq, seg.ts_val);
        self.establish(now, seg);
        self.snd.snd_wnd = seg.window;
        self.transmit(now, out);
        if self.rcv.ack_pending() {
            self.send_ack(now, out);
        }
        self.after_send(now);
    }

    /// The handshake is complete: the SYN is acknowledged by `seg`.
    fn establish(&mut self, now: Instant, seg: &Segment) {
        self.snd.snd_una = 1;
        self.rto_at = None;
        self.rtt.on_sample(now - seg.ts_ecr);
        // RFC 5681 §3.1 / Linux `tcp_init_transfer`: one segment if the SYN was lost
        // more than once.
        self.window.cwnd = if self.syn_retransmits > 1 {
            1
        } else {
            self.config.initial_window
        };
        self.state = if self.snd.fin_queued {
            TcpState::FinWait
        } else {
            TcpState::Established
        };
        self.update_rtt_stats();
    }

    /// Any state after the handshake began.
    fn on_connected_segment(
        &mut self,
        now: Instant,
        seg: &Segment,
        ce: bool,
        out: &mut Vec<Outgoing>,
    ) {
        if seg.flags.syn && !seg.flags.ack {
            // A retransmitted SYN: our SYN-ACK was lost.
            if self.state == TcpState::SynReceived {
                self.stats.retransmits += 1;
                self.send_syn(now, out);
            } else {
                self.stats.ignored_segments += 1;
            }
            return;
        }
        if !seg.flags.ack {
            self.stats.ignored_segments += 1;
            return;
        }
        if self.state == TcpState::SynReceived {
            if seg.ack < 1 {
                self.stats.ignored_segments += 1;
                return;
            }
            self.establish(now, seg);
        }
        if seg.flags.syn {
            // A retransmitted SYN-ACK: our ACK of it was lost.
            self.rcv.force_ack();
        }
        self.rcv.update_ts_recent(seg);
        self.on_ack(now, seg);
        self.on_peer_data(now, seg, ce);
        self.update_close_state();
        self.transmit(now, out);
        if self.rcv.ack_due_now(self.mss, self.config.delayed_ack) {
            self.send_ack(now, out);
        } else {
            self.rcv.arm_delack(now);
        }
        self.after_send(now);
    }

    /// The receiving half takes the segment's data, FIN and ECN marks.
    fn on_peer_data(&mut self, now: Instant, seg: &Segment, ce: bool) {
        if seg.seq_len() == 0 {
            return;
        }
        if ce {
            self.stats.ce_received += 1;
        }
        if self.ecn_ok {
            self.rcv.on_ecn(seg.flags.cwr, ce);
        }
        let outcome = self.rcv.on_data(seg, now, self.rtt.rto());
        self.stats.bytes_delivered += outcome.new_bytes;
        self.stats.duplicate_bytes_received += outcome.duplicate_bytes;
    }

    /// FIN transitions (RFC 9293 §3.6, figure 5): the peer's FIN in order, our FIN
    /// acknowledged.
    pub(super) fn update_close_state(&mut self) {
        let peer_fin = self.rcv.fin_received();
        let our_fin_acked = self.snd.fin_acked();
        self.state = match self.state {
            TcpState::Established if peer_fin => TcpState::CloseWait,
            TcpState::FinWait if peer_fin && our_fin_acked => TcpState::TimeWait,
            TcpState::FinWait if peer_fin => TcpState::Closing,
            TcpState::Closing if our_fin_acked => TcpState::TimeWait,
            TcpState::LastAck if our_fin_acked => TcpState::Closed,
            s => s,
        };
        if matches!(self.state, TcpState::Closed | TcpState::TimeWait) {
            self.rto_at = None;
            self.probe = None;
        }
    }
}
