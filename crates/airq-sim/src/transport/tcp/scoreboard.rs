//! The sender's retransmission queue and SACK scoreboard: every segment sent and not yet
//! cumulatively acknowledged, with Linux's three tag bits (`tcp_sacktag_one`): SACKED,
//! LOST, RETRANS (a retransmission of it is in flight). Segments are never re-cut, so a
//! retransmission covers exactly the range of the original.
//!
//! In flight is Linux's `tcp_packets_in_flight` = `packets_out − (sacked_out + lost_out)
//! + retrans_out` (RFC 6675 §4 "pipe", counted in segments).
//!
//! Two indexes beside the sequence-ordered queue: the lost segments waiting for a
//! retransmission (Linux walks the queue; a set is cheaper), and the outstanding
//! segments in transmission order, which RACK walks from the oldest (Linux
//! `tsorted_sent_queue`, RFC 8985 §6.2).

use airq::Instant;
use std::collections::{BTreeSet, VecDeque};

/// One segment of the retransmission queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SentSegment {
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) fin: bool,
    /// When it was last (re)transmitted.
    pub(super) xmit_time: Instant,
    /// Order of its last transmission over the connection (RACK's "sent after").
    pub(super) tx_order: u64,
    pub(super) sacked: bool,
    pub(super) lost: bool,
    pub(super) retrans: bool,
    pub(super) ever_retrans: bool,
}

impl SentSegment {
    /// Payload bytes (the FIN takes one sequence number but no byte).
    pub(super) fn payload(&self) -> u64 {
        self.end - self.start - u64::from(self.fin)
    }

    /// Not SACKed, and either not lost or lost with its retransmission in flight: what
    /// RACK watches.
    fn rack_tracked(&self) -> bool {
        !self.sacked && (!self.lost || self.retrans)
    }
}

/// (transmission order, start) of the RACK-tracked segments, oldest first. Orders only
/// grow, so an insertion is a push at the back and a lookup a binary search; most
/// removals (cumulative ACKs) are at the front.
#[derive(Clone, Debug, Default)]
struct TxOrderIndex(VecDeque<(u64, u64)>);

impl TxOrderIndex {
    fn push(&mut self, tx_order: u64, start: u64) {
        debug_assert!(self.0.back().is_none_or(|&(o, _)| o < tx_order));
        self.0.push_back((tx_order, start));
    }

    fn position(&self, tx_order: u64) -> Option<usize> {
        self.0.binary_search_by_key(&tx_order, |&(o, _)| o).ok()
    }

    fn remove(&mut self, tx_order: u64) {
        if self.0.front().is_some_and(|&(o, _)| o == tx_order) {
            self.0.pop_front(); // the usual case: the oldest is cumulatively acknowledged
        } else if let Some(i) = self.position(tx_order) {
            self.0.remove(i);
        }
    }

    fn start_mut(&mut self, tx_order: u64) -> Option<&mut u64> {
        let i = self.position(tx_order)?;
        Some(&mut self.0[i].1)
    }
}

/// The retransmission queue with its counters and indexes.
#[derive(Clone, Debug, Default)]
pub(super) struct Scoreboard {
    segs: VecDeque<SentSegment>,
    pub(super) sacked_out: u32,
    pub(super) lost_out: u32,
    pub(super) retrans_out: u32,
    /// Starts of lost segments with no retransmission in flight.
    to_retransmit: BTreeSet<u64>,
    /// Outstanding RACK-tracked segments.
    by_tx_order: TxOrderIndex,
    next_tx_order: u64,
}

impl Scoreboard {
    /// Segments outstanding (Linux `packets_out`).
    pub(super) fn packets_out(&self) -> u32 {
        self.segs.len() as u32
    }

    /// Linux `tcp_packets_in_flight`.
    pub(super) fn in_flight(&self) -> u32 {
        self.packets_out() + self.retrans_out - self.sacked_out - self.lost_out
    }

    pub(super) fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    pub(super) fn first(&self) -> Option<&SentSegment> {
        self.segs.front()
    }

    pub(super) fn last(&self) -> Option<&SentSegment> {
        self.segs.back()
    }

    /// The segment starting at `start`.
    pub(super) fn get(&self, start: u64) -> Option<&SentSegment> {
        let i = self.index_of(start)?;
        Some(&self.segs[i])
    }

    fn index_of(&self, start: u64) -> Option<usize> {
        let i = self.segs.partition_point(|s| s.start < start);
        (i < self.segs.len() && self.segs[i].start == start).then_some(i)
    }

    /// Appends a newly sent segment.
    pub(super) fn push(&mut self, start: u64, end: u64, fin: bool, now: Instant) {
        debug_assert!(self.segs.back().is_none_or(|s| s.end == start));
        let tx_order = self.take_tx_order();
        self.segs.push_back(SentSegment {
            start,
            end,
            fin,
            xmit_time: now,
            tx_order,
            sacked: false,
            lost: false,
            retrans: false,
            ever_retrans: false,
        });
        self.by_tx_order.push(tx_order, start);
    }

    fn take_tx_order(&mut self) -> u64 {
        self.next_tx_order += 1;
        self.next_tx_order
    }

    /// The lowest lost segment awaiting retransmission.
    pub(super) fn next_to_retransmit(&self) -> Option<u64> {
        self.to_retransmit.first().copied()
    }

    /// Records a retransmission of the segment at `start`; returns it.
    pub(super) fn retransmitted(&mut self, start: u64, now: Instant) -> Option<SentSegment> {
        let i = self.index_of(start)?;
        let tx_order = self.take_tx_order();
        let s = &mut self.segs[i];
        self.by_tx_order.remove(s.tx_order);
        if !s.retrans && !s.sacked {
            s.retrans = true;
            self.retrans_out += 1;
        }
        s.ever_retrans = true;
        s.xmit_time = now;
        s.tx_order = tx_order;
        let s = *s;
        self.to_retransmit.remove(&start);
        if s.rack_tracked() {
            self.by_tx_order.push(tx_order, start);
        }
        Some(s)
    }

    /// Removes every segment ending at or below `ack`, handing each to `on_acked`; a
    /// segment `ack` falls inside is trimmed (not expected: segments are never re-cut).
    pub(super) fn cum_ack(&mut self, ack: u64, mut on_acked: impl FnMut(&SentSegment)) {
        while let Some(front) = self.segs.front() {
            if front.end > ack {
                if front.start < ack {
                    let old_start = front.start;
                    let s = self.segs.front_mut().expect("front exists");
                    s.start = ack;
                    let tx_order = s.tx_order;
                    if let Some(v) = self.by_tx_order.start_mut(tx_order) {
                        *v = ack;
                    }
                    if self.to_retransmit.remove(&old_start) {
                        self.to_retransmit.insert(ack);
                    }
                }
                break;
            }
            let s = self.segs.pop_front().expect("front exists");
            self.forget(&s);
            on_acked(&s);
        }
    }

    /// Drops a leaving segment from the counters and indexes.
    fn forget(&mut self, s: &SentSegment) {
        if s.sacked {
            self.sacked_out -= 1;
        }
        if s.lost {
            self.lost_out -= 1;
        }
        if s.retrans {
            self.retrans_out -= 1;
        }
        if s.lost && !s.retrans {
            self.to_retransmit.remove(&s.start);
        }
        if s.rack_tracked() {
            self.by_tx_order.remove(s.tx_order);
        }
    }

    /// Tags SACKED every segment inside `start..end` not tagged yet, handing each to
    /// `on_sacked`.
    pub(super) fn sack(&mut self, start: u64, end: u64, mut on_sacked: impl FnMut(&SentSegment)) {
        let mut i = self.segs.partition_point(|s| s.start < start);
        while i < self.segs.len() && self.segs[i].end <= end {
            let s = self.segs[i];
            if !s.sacked {
                if s.rack_tracked() {
                    self.by_tx_order.remove(s.tx_order);
                }
                if s.lost && !s.retrans {
                    self.to_retransmit.remove(&s.start);
                }
                if s.lost {
                    self.lost_out -= 1;
                }
                if s.retrans {
                    self.retrans_out -= 1;
                }
                let t = &mut self.segs[i];
                t.sacked = true;
                t.lost = false;
                t.retrans = false;
                self.sacked_out += 1;
                on_sacked(t);
            }
            i += 1;
        }
    }

    /// Tags LOST the segment at `start` (Linux `tcp_mark_skb_lost`): a lost
    /// retransmission loses its RETRANS tag and waits to be sent again. Returns whether
    /// the segment was newly marked.
    pub(super) fn mark_lost(&mut self, start: u64) -> bool {
        let Some(i) = self.index_of(start) else {
            return false;
        };
        let s = &mut self.segs[i];
        if s.sacked || (s.lost && !s.retrans) {
            return false;
        }
        if s.retrans {
            s.retrans = false;
            self.retrans_out -= 1;
        }
        if !s.lost {
            s.lost = true;
            self.lost_out += 1;
        }
        let tx_order = s.tx_order;
        self.by_tx_order.remove(tx_order);
        self.to_retransmit.insert(start);
        true
    }

    /// Tags LOST every segment not SACKed (RTO, Linux `tcp_timeout_mark_lost`; the
    /// SACK tags are kept, as Linux does unless the receiver reneged).
    pub(super) fn mark_all_lost(&mut self) {
        let starts: Vec<u64> = self
            .segs
            .iter()
            .filter(|s| !s.sacked)
            .map(|s| s.start)
            .collect();
        for start in starts {
            self.mark_lost(start);
        }
    }

    /// RACK-tracked segments in transmission order: (tx order, start).
    pub(super) fn in_tx_order(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.by_tx_order.0.iter().copied()
    }

    /// Checks the counters and indexes against the queue (tests).
    pub(super) fn assert_invariants(&self) {
        let count = |f: fn(&SentSegment) -> bool| self.segs.iter().filter(|s| f(s)).count() as u32;
        assert_eq!(self.sacked_out, count(|s| s.sacked));
        assert_eq!(self.lost_out, count(|s| s.lost));
        assert_eq!(self.retrans_out, count(|s| s.retrans));
        assert_eq!(
            self.to_retransmit.len() as u32,
            count(|s| s.lost && !s.retrans)
        );
        assert_eq!(self.by_tx_order.0.len() as u32, count(|s| s.rack_tracked()));
        assert!(
            self.by_tx_order
                .0
                .iter()
                .zip(self.by_tx_order.0.iter().skip(1))
                .all(|(a, b)| a.0 < b.0),
            "the transmission-order index is sorted"
        );
        for w in self.segs.iter().zip(self.segs.iter().skip(1)) {
            assert_eq!(w.0.end, w.1.start, "the queue is contiguous");
        }
    }
}
