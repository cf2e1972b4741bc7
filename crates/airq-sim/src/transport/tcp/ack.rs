//! The sending half takes an ACK: SACK blocks (RFC 2018) and D-SACK (RFC 2883) tag the
//! scoreboard, the cumulative ACK removes what it covers, the timestamp echo gives an
//! RTT sample (RFC 7323 §4.1), RACK looks for losses (RFC 8985 §6.2), the tail loss
//! probe episode is settled (RFC 8985 §7.4, Linux `tcp_process_tlp_ack`), then the
//! congestion state moves (`recovery.rs`). Linux `tcp_ack` in that order.

use super::cc::AckSample;
use super::endpoint::TcpEndpoint;
use super::rack::Rack;
use super::recovery::CaState;
use super::scoreboard::SentSegment;
use super::segment::Segment;
use super::timers::Probe;
use airq::{Duration, Instant};

/// What one ACK delivered.
#[derive(Clone, Copy, Debug, Default)]
struct Delivery {
    /// Segments newly ACKed or SACKed (Linux `acked_sacked`).
    segments: u32,
    /// Transmission order and RTT of the most recently sent never-retransmitted segment
    /// delivered (Linux `ca_rtt_us`).
    latest: Option<(u64, Duration)>,
}

impl Delivery {
    fn count(&mut self, seg: &SentSegment, now: Instant) {
        self.segments += 1;
        if !seg.ever_retrans && self.latest.is_none_or(|(o, _)| seg.tx_order > o) {
            self.latest = Some((seg.tx_order, now - seg.xmit_time));
        }
    }
}

impl TcpEndpoint {
    /// The ACK half of an arriving segment.
    pub(super) fn on_ack(&mut self, now: Instant, seg: &Segment) {
        let ack = seg.ack;
        if ack > self.snd.snd_nxt || self.snd.snd_una == 0 {
            self.stats.ignored_segments += 1;
            return;
        }
        self.snd.snd_wnd = seg.window;
        let mut delivery = Delivery::default();
        let dsack_tlp = self.process_sack(now, seg, &mut delivery);
        let una_advanced = ack > self.snd.snd_una;
        if una_advanced {
            let min_rtt = self.rtt.min_rtt();
            let rack = &mut self.rack;
            let mut bytes = 0;
            self.snd.scoreboard.cum_ack(ack, |s| {
                bytes += s.payload();
                if !s.sacked {
                    delivery.count(s, now);
                    rack.on_delivered(s, now, min_rtt);
                }
            });
            self.snd.snd_una = ack;
            self.stats.bytes_acked += bytes;
            // RFC 7323 §4.1: the echoed timestamp times the data this ACK covers.
            if seg.ts_ecr <= now {
                self.rtt.on_sample(now - seg.ts_ecr);
            }
        }
        if delivery.segments > 0 {
            let sample = AckSample {
                now,
                rtt: delivery.latest.map(|(_, rtt)| rtt),
                snd_una: self.snd.snd_una,
                snd_nxt: self.snd.snd_nxt,
            };
            self.cc.on_ack_sample(&sample, &mut self.window);
        }
        let pure_dup = !una_advanced && delivery.segments == 0 && seg.seq_len() == 0;
        self.process_tlp_ack(ack, dsack_tlp, pure_dup);
        let newly_lost = if delivery.segments > 0 {
            self.rack_detect_loss(now)
        } else {
            0
        };
        let ece = self.ecn_ok && seg.flags.ece;
        self.update_ca_state(now, una_advanced, delivery.segments, newly_lost, ece);
        if una_advanced {
            self.rearm_after_ack(now);
        }
        self.update_rtt_stats();
    }

    /// Tags the scoreboard with the SACK blocks; returns whether a D-SACK reported the
    /// tail loss probe as a duplicate (Linux `FLAG_DSACK_TLP`).
    fn process_sack(&mut self, now: Instant, seg: &Segment, delivery: &mut Delivery) -> bool {
        let blocks = seg.sack_blocks();
        if !self.sack_ok || blocks.is_empty() {
            return false;
        }
        // RFC 2883 §4: the first block is a D-SACK if it lies below the cumulative ACK
        // or inside the second block.
        let first = blocks[0];
        let is_dsack = first.start < seg.ack
            || blocks
                .get(1)
                .is_some_and(|b| first.start >= b.start && first.end <= b.end);
        let mut dsack_tlp = false;
        if is_dsack {
            self.stats.dsacks_received += 1;
            dsack_tlp = self.tlp_high_seq == Some(first.end)
                && first.end - first.start <= u64::from(self.mss) + 1;
        }
        let (una, nxt) = (self.snd.snd_una, self.snd.snd_nxt);
        let min_rtt = self.rtt.min_rtt();
        for b in &blocks[usize::from(is_dsack)..] {
            let (start, end) = (b.start.max(una), b.end.min(nxt));
            if start >= end {
                continue;
            }
            let rack = &mut self.rack;
            self.snd.scoreboard.sack(start, end, |s| {
                delivery.count(s, now);
                rack.on_delivered(s, now, min_rtt);
            });
        }
        dsack_tlp
    }

    /// RACK loss detection; returns the segments newly marked lost and arms (or clears)
    /// the reorder timer.
    pub(super) fn rack_detect_loss(&mut self, now: Instant) -> u32 {
        let in_recovery = matches!(self.rec.state, CaState::Recovery | CaState::Loss);
        let reo_wnd = Rack::reo_wnd(
            in_recovery,
            self.snd.scoreboard.sacked_out,
            self.rtt.min_rtt(),
            self.rtt.srtt(),
        );
        let (lost, timeout) = self.rack.detect_loss(&self.snd.scoreboard, now, reo_wnd);
        let mut newly_lost = 0;
        for start in lost {
            if self.snd.scoreboard.mark_lost(start) {
                newly_lost += 1;
            }
        }
        match timeout {
            Some(at) => self.probe = Some((Probe::Reorder, at)),
            None if matches!(self.probe, Some((Probe::Reorder, _))) => self.probe = None,
            None => {}
        }
        newly_lost
    }

    /// Settles a tail loss probe episode (Linux `tcp_process_tlp_ack`): a probe of new
    /// data needs nothing; a retransmitted probe that was not reported as a duplicate
    /// repaired a loss, which costs one window reduction.
    fn process_tlp_ack(&mut self, ack: u64, dsack_tlp: bool, pure_dup: bool) {
        let Some(high) = self.tlp_high_seq else {
            return;
        };
        if ack < high {
            return;
        }
        if !self.tlp_retrans || dsack_tlp {
            self.tlp_high_seq = None;
        } else if ack > high {
            self.tlp_high_seq = None;
            self.reduce_once();
        } else if pure_dup {
            // Original and probe both arrived: no loss.
            self.tlp_high_seq = None;
        }
    }

    /// Copies the RTT estimates into the stats.
    pub(super) fn update_rtt_stats(&mut self) {
        self.stats.srtt = self.rtt.srtt();
        self.stats.min_rtt = self.rtt.min_rtt();
    }
}
