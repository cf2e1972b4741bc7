//! The receiving half of an endpoint: in-order delivery, the out-of-order queue and the
//! SACK blocks describing it, D-SACK, the timestamp to echo, the ECN echo, and when to
//! ACK (delayed ACKs and quick ACKs as Linux `tcp_input.c` decides them).
//!
//! When to ACK (Linux `__tcp_ack_snd_check`): at once if more than one full-sized segment
//! is unacknowledged (so every second segment, RFC 5681 §4.2), in quick-ACK mode, while
//! out-of-order data is held, when a hole is filled (RFC 5681 §4.2), on duplicate data
//! and on a CWR-flagged segment; otherwise after the delayed-ACK timer, 40 ms
//! (`TCP_DELACK_MIN`; Linux's adaptive `ato`, up to 200 ms, is not modelled). Quick-ACK
//! mode acknowledges the first 16 segments at once at the start of the connection and
//! after an idle period longer than the RTO (`tcp_incr_quickack`, `TCP_MAX_QUICKACKS`),
//! and the next 2 after a CE mark (`tcp_ecn_check_ce`). Linux's interactive ("pingpong")
//! mode is not modelled; ACKs piggyback on data whenever data is sent.

use super::segment::{SackBlock, Segment, MAX_SACK_BLOCKS};
use airq::{Duration, Instant};
use std::collections::BTreeMap;

/// Linux `TCP_DELACK_MIN`.
pub(super) const DELAYED_ACK: Duration = Duration::from_millis(40);
/// Linux `TCP_MAX_QUICKACKS`.
const MAX_QUICKACKS: u32 = 16;
/// SACK blocks remembered (Linux `selective_acks[4]`).
const SACK_MEMORY: usize = 4;

/// Receive state.
#[derive(Clone, Debug, Default)]
pub(super) struct Receiver {
    /// Next sequence number expected (RFC 9293 RCV.NXT).
    pub(super) rcv_nxt: u64,
    /// `rcv_nxt` when the last ACK was sent (Linux `rcv_wup`).
    rcv_wup: u64,
    /// Out-of-order data held: start → end, disjoint, not adjacent.
    ooo: BTreeMap<u64, u64>,
    /// SACK blocks, the most recently changed first (RFC 2018 §4).
    recent: Vec<SackBlock>,
    /// A duplicate to report in a D-SACK block (RFC 2883 §4).
    dsack: Option<SackBlock>,
    /// Sequence number of the peer's FIN, once seen.
    fin_seq: Option<u64>,
    /// The peer's timestamp to echo (RFC 7323 §4.3 TS.Recent).
    pub(super) ts_recent: Instant,
    /// CE seen and not yet answered by a CWR: set ECE on every ACK (RFC 3168 §6.1.3).
    pub(super) ece: bool,
    /// Data received and not yet acknowledged.
    ack_pending: bool,
    /// The next ACK must not wait.
    ack_now: bool,
    /// Quick ACKs left.
    quick: u32,
    pub(super) delack_at: Option<Instant>,
    last_data_at: Option<Instant>,
    /// In-order payload bytes received.
    pub(super) delivered: u64,
}

/// What one segment changed.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DataOutcome {
    pub(super) new_bytes: u64,
    pub(super) duplicate_bytes: u64,
    /// The peer's FIN is now in order.
    pub(super) fin: bool,
}

impl Receiver {
    /// The peer's SYN arrived: data starts after `isn`.
    pub(super) fn on_syn(&mut self, isn: u64, ts_val: Instant) {
        self.rcv_nxt = isn + 1;
        self.rcv_wup = self.rcv_nxt;
        self.ts_recent = ts_val;
        self.force_ack();
    }

    /// The next segment must carry an ACK, at once (a SYN, or a duplicate SYN-ACK whose
    /// ACK was lost).
    pub(super) fn force_ack(&mut self) {
        self.ack_pending = true;
        self.ack_now = true;
    }

    /// RFC 7323 §4.3 (Linux `tcp_replace_ts_recent`): remember the timestamp of a
    /// segment that starts at or before the last ACK we sent, so the echo measures the
    /// RTT of the data an ACK acknowledges, delayed-ACK wait included.
    pub(super) fn update_ts_recent(&mut self, seg: &Segment) {
        if seg.seq <= self.rcv_wup && seg.ts_val >= self.ts_recent {
            self.ts_recent = seg.ts_val;
        }
    }

    pub(super) fn fin_received(&self) -> bool {
        self.fin_seq.is_some_and(|f| self.rcv_nxt > f)
    }

    /// ECN on a segment with data or FIN (RFC 3168 §6.1.3; Linux `tcp_ecn_accept_cwr`,
    /// `tcp_ecn_check_ce`): CWR ends the echo, CE (re)starts it.
    pub(super) fn on_ecn(&mut self, cwr: bool, ce: bool) {
        if cwr {
            self.ece = false;
            self.ack_now = true;
        }
        if ce && !self.ece {
            self.ece = true;
            self.quick = self.quick.max(2);
        }
    }

    /// Takes in the sequence range of a segment with data or FIN.
    pub(super) fn on_data(&mut self, seg: &Segment, now: Instant, rto: Duration) -> DataOutcome {
        let (start, end) = (seg.seq + u64::from(seg.flags.syn), seg.end_seq());
        let mut outcome = DataOutcome::default();
        if start >= end {
            return outcome;
        }
        match self.last_data_at {
            None => self.quick = MAX_QUICKACKS,
            Some(t) if now - t > rto => self.quick = MAX_QUICKACKS,
            Some(_) => {}
        }
        self.last_data_at = Some(now);
        if seg.flags.fin {
            self.fin_seq = Some(end - 1);
        }
        self.ack_pending = true;
        let fin_before = self.fin_received();
        if end <= self.rcv_nxt {
            outcome.duplicate_bytes = end - start;
            self.dsack = Some(SackBlock { start, end });
            self.ack_now = true;
        } else if start <= self.rcv_nxt {
            if start < self.rcv_nxt {
                outcome.duplicate_bytes = self.rcv_nxt - start;
                self.dsack = Some(SackBlock {
                    start,
                    end: self.rcv_nxt,
                });
            }
            let before = self.rcv_nxt;
            self.rcv_nxt = end;
            let had_ooo = !self.ooo.is_empty();
            while let Some((&s, &e)) = self.ooo.first_key_value() {
                if s > self.rcv_nxt {
                    break;
                }
                self.ooo.remove(&s);
                self.rcv_nxt = self.rcv_nxt.max(e);
            }
            if had_ooo && self.ooo.is_empty() {
                self.ack_now = true;
            }
            let rcv_nxt = self.rcv_nxt;
            self.recent.retain(|b| b.end > rcv_nxt);
            outcome.new_bytes = self.rcv_nxt - before;
        } else {
            outcome.duplicate_bytes = self.insert_ooo(start, end);
            self.ack_now = true;
        }
        outcome.fin = self.fin_received() && !fin_before;
        if outcome.fin {
            outcome.new_bytes -= 1;
            self.ack_now = true;
        }
        outcome.duplicate_bytes = outcome.duplicate_bytes.min(u64::from(seg.len));
        self.delivered += outcome.new_bytes;
        outcome
    }

    /// Holds `start..end` out of order, merged with what it touches; the merged block
    /// becomes the first SACK block. Returns the bytes already held.
    fn insert_ooo(&mut self, start: u64, end: u64) -> u64 {
        let mut merged = SackBlock { start, end };
        let mut duplicate = 0;
        let touching: Vec<(u64, u64)> = self
            .ooo
            .range(..=end)
            .rev()
            .take_while(|(_, &e)| e >= start)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in touching {
            duplicate += e.min(end).saturating_sub(s.max(start));
            merged.start = merged.start.min(s);
            merged.end = merged.end.max(e);
            self.ooo.remove(&s);
        }
        self.ooo.insert(merged.start, merged.end);
        if duplicate > 0 {
            self.dsack = Some(SackBlock {
                start: start.max(merged.start),
                end: start + duplicate,
            });
        }
        self.recent
            .retain(|b| b.end < merged.start || b.start > merged.end);
        self.recent.insert(0, merged);
        self.recent.truncate(SACK_MEMORY);
        duplicate
    }

    /// Whether an ACK must go out now rather than wait for the delayed-ACK timer.
    pub(super) fn ack_due_now(&self, mss: u32, delayed_ack: bool) -> bool {
        self.ack_pending
            && (!delayed_ack
                || self.ack_now
                || self.quick > 0
                || !self.ooo.is_empty()
                || self.rcv_nxt - self.rcv_wup > u64::from(mss))
    }

    /// Whether data waits for an ACK (delayed).
    pub(super) fn ack_pending(&self) -> bool {
        self.ack_pending
    }

    /// Arms the delayed-ACK timer if an ACK is owed and the timer is not running.
    pub(super) fn arm_delack(&mut self, now: Instant) {
        if self.ack_pending && self.delack_at.is_none() {
            self.delack_at = Some(now + DELAYED_ACK);
        }
    }

    /// The SACK blocks for the next segment: the D-SACK block first, then the most
    /// recent blocks (RFC 2018 §4, RFC 2883 §4).
    pub(super) fn sack_blocks(&self) -> ([SackBlock; MAX_SACK_BLOCKS], u8) {
        let mut blocks = [SackBlock::default(); MAX_SACK_BLOCKS];
        let mut n = 0;
        for b in self
            .dsack
            .iter()
            .chain(self.recent.iter())
            .take(MAX_SACK_BLOCKS)
        {
            blocks[n] = *b;
            n += 1;
        }
        (blocks, n as u8)
    }

    /// A segment carrying our ACK went out (Linux `tcp_event_ack_sent`).
    pub(super) fn on_ack_sent(&mut self) {
        self.rcv_wup = self.rcv_nxt;
        self.ack_pending = false;
        self.ack_now = false;
        self.dsack = None;
        self.delack_at = None;
        self.quick = self.quick.saturating_sub(1);
    }

    /// Checks the out-of-order queue (tests).
    pub(super) fn assert_invariants(&self) {
        let mut prev_end = self.rcv_nxt;
        for (&s, &e) in &self.ooo {
            assert!(
                s > prev_end && e > s,
                "out-of-order ranges disjoint and above rcv_nxt"
            );
            prev_end = e;
        }
    }
}
