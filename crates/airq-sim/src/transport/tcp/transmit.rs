//! Sending: retransmissions of lost segments first, then new data, while fewer than
//! cwnd segments are in flight (Linux `tcp_xmit_retransmit_queue`, `tcp_write_xmit`);
//! segments of at most one MSS, never re-cut; Minshall's Nagle (Linux `tcp_nagle_check`:
//! a sub-MSS segment waits only while an earlier sub-MSS segment is unacknowledged); the
//! peer's receive window; restart after idle (RFC 5681 §4.1, Linux `tcp_cwnd_restart`);
//! cwnd validation (Linux `tcp_cwnd_validate`); and every segment's ACK, SACK, ECN and
//! timestamp fields.

use super::endpoint::{TcpEndpoint, TcpState};
use super::segment::{Outgoing, Segment};
use airq::Instant;

impl TcpEndpoint {
    /// Sends what the windows allow.
    pub(super) fn transmit(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        if !matches!(
            self.state,
            TcpState::Established
                | TcpState::FinWait
                | TcpState::CloseWait
                | TcpState::Closing
                | TcpState::LastAck
        ) {
            return;
        }
        while self.snd.scoreboard.in_flight() < self.window.cwnd {
            let Some(start) = self.snd.scoreboard.next_to_retransmit() else {
                break;
            };
            self.retransmit(start, now, out);
        }
        let mut sent = 0;
        let mut cwnd_limited = false;
        while let Some((len, fin)) = self.next_new_segment(false) {
            if self.snd.scoreboard.in_flight() >= self.window.cwnd {
                cwnd_limited = true;
                break;
            }
            self.send_new(now, len, fin, out);
            sent += 1;
        }
        cwnd_limited |= self.snd.scoreboard.in_flight() >= self.window.cwnd;
        if sent > 0 || cwnd_limited {
            self.cwnd_validate(cwnd_limited);
        }
        if sent > 0 {
            self.schedule_tlp(now);
        }
    }

    /// The next new segment (payload bytes, FIN) the receive window and Nagle allow,
    /// cwnd aside. `probe`: a loss probe, which Nagle does not hold back.
    pub(super) fn next_new_segment(&self, probe: bool) -> Option<(u32, bool)> {
        if self.snd.fin_seq.is_some() {
            return None;
        }
        let unsent = self.snd.unsent();
        if unsent == 0 && !self.snd.fin_queued {
            return None;
        }
        let len = unsent.min(u64::from(self.mss)) as u32;
        let fin = self.snd.fin_queued && unsent == u64::from(len);
        let room = (self.snd.snd_una + self.snd.snd_wnd).saturating_sub(self.snd.snd_nxt);
        if u64::from(len) > room && len > 0 {
            return None;
        }
        let partial = len < self.mss && !fin;
        if partial && !probe && self.snd.snd_sml > self.snd.snd_una {
            return None;
        }
        Some((len, fin))
    }

    /// Sends `len` new payload bytes (and the FIN if `fin`).
    pub(super) fn send_new(&mut self, now: Instant, len: u32, fin: bool, out: &mut Vec<Outgoing>) {
        if self.snd.scoreboard.in_flight() == 0 {
            self.restart_after_idle(now);
        }
        let start = self.snd.snd_nxt;
        let end = start + u64::from(len) + u64::from(fin);
        let mut seg = self.build_segment(now, start, len, fin);
        if self.ecn_ok && self.rec.cwr_pending {
            seg.flags.cwr = true;
            self.rec.cwr_pending = false;
        }
        self.snd.scoreboard.push(start, end, fin, now);
        self.snd.snd_nxt = end;
        // RFC 6298 §5.1 (Linux `tcp_event_new_data_sent` → `tcp_rearm_rto` when nothing
        // was out): the RTO starts with the first segment, before the loss probe is
        // scheduled, so that the probe is capped by it (RFC 8985 §7.2).
        if self.rto_at.is_none() {
            self.rto_at = Some(now + self.rtt.rto());
        }
        if fin {
            self.snd.fin_seq = Some(end - 1);
        }
        if len < self.mss {
            self.snd.snd_sml = end;
        }
        self.snd.lsndtime = Some(now);
        if self.in_cwnd_reduction() {
            self.rec.prr_out += 1;
        }
        self.stats.segments_sent += 1;
        out.push(Outgoing {
            segment: seg,
            ect: self.ecn_ok,
        });
    }

    /// Sends the segment at `start` again, Not-ECT (RFC 3168 §6.1.5).
    pub(super) fn retransmit(&mut self, start: u64, now: Instant, out: &mut Vec<Outgoing>) {
        let Some(s) = self.snd.scoreboard.retransmitted(start, now) else {
            return;
        };
        let seg = self.build_segment(now, s.start, s.payload() as u32, s.fin);
        self.snd.lsndtime = Some(now);
        if self.in_cwnd_reduction() {
            self.rec.prr_out += 1;
        }
        self.stats.retransmits += 1;
        self.stats.segments_sent += 1;
        out.push(Outgoing {
            segment: seg,
            ect: false,
        });
    }

    /// Sends a pure ACK.
    pub(super) fn send_ack(&mut self, now: Instant, out: &mut Vec<Outgoing>) {
        let seg = self.build_segment(now, self.snd.snd_nxt, 0, false);
        self.stats.segments_sent += 1;
        self.stats.pure_acks_sent += 1;
        out.push(Outgoing {
            segment: seg,
            ect: false,
        });
    }

    /// A segment with our current ACK, SACK blocks, ECE, window and timestamps; the
    /// receiving half is told an ACK went out.
    fn build_segment(&mut self, now: Instant, seq: u64, len: u32, fin: bool) -> Segment {
        let mut seg = Segment::new(seq, self.rcv.rcv_nxt);
        seg.len = len;
        seg.flags.ack = true;
        seg.flags.fin = fin;
        seg.flags.ece = self.ecn_ok && self.rcv.ece;
        if self.sack_ok {
            (seg.sack, seg.sack_len) = self.rcv.sack_blocks();
        }
        seg.window = self.config.max_receive_window;
        seg.ts_val = now;
        seg.ts_ecr = self.rcv.ts_recent;
        self.rcv.on_ack_sent();
        seg
    }

    /// Sending resumes with nothing in flight: CUBIC shifts its epoch, and after more
    /// than an RTO of silence cwnd is halved per RTO idle, down to the initial window
    /// (RFC 5681 §4.1, Linux `tcp_cwnd_restart`, `tcp_slow_start_after_idle = 1`).
    fn restart_after_idle(&mut self, now: Instant) {
        let Some(last) = self.snd.lsndtime else {
            return;
        };
        let idle = now - last;
        self.cc.on_tx_start(now, idle);
        let rto = self.rtt.rto();
        if idle <= rto {
            return;
        }
        if !self.in_cwnd_reduction() {
            let cwnd = self.window.cwnd;
            self.window.ssthresh = self.window.ssthresh.max((cwnd >> 1) + (cwnd >> 2));
        }
        let restart = self.config.initial_window.min(self.window.cwnd);
        let mut cwnd = self.window.cwnd;
        let mut left = idle;
        while left > rto && cwnd > restart {
            left -= rto;
            cwnd >>= 1;
        }
        self.window.cwnd = cwnd.max(restart);
    }

    /// Linux `tcp_cwnd_validate`: remember whether the window was used up, over the
    /// current window of data.
    fn cwnd_validate(&mut self, cwnd_limited: bool) {
        let packets_out = self.snd.scoreboard.packets_out();
        if self.snd.snd_una >= self.snd.cwnd_usage_seq
            || cwnd_limited
            || (!self.snd.is_cwnd_limited && packets_out > self.snd.max_packets_out)
        {
            self.snd.is_cwnd_limited = cwnd_limited;
            self.snd.max_packets_out = packets_out;
            self.snd.cwnd_usage_seq = self.snd.snd_nxt;
        }
    }
}
