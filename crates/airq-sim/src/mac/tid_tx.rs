//! The transmit state of one receiver-TID below the queues, shared by the AP's drivers
//! and the stations: sequence numbers, the BlockAck window (10.24.7: an originator may
//! not send an MPDU whose sequence number is a window or more past the oldest one not
//! yet acknowledged), and the retry queue of MPDUs that failed and go first in the next
//! PPDU (ath9k's `tid->retry_q`). Aggregates are filled here up to the limits of
//! [`AggregateLimits`].

use crate::mac::frame::{Mpdu, Ppdu, PsduLength};
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::rate_control::TxRate;
use crate::mac::retry_time::RetryTimeParams;
use crate::mac::txpath::TxOutcome;
use crate::net::packet::{NodeId, SimPacket};
use airq::phy::{Band, Rate};
use airq::{Duration, Instant, Tid};
use std::collections::VecDeque;

/// What bounds one PPDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AggregateLimits {
    /// Aggregate at all.
    pub ampdu: bool,
    /// The BlockAck window: no MPDU a window or more past the oldest unacknowledged one.
    pub ba_window: u16,
    /// MPDUs per A-MPDU: the window, or less where a driver caps it.
    pub max_subframes: u16,
    pub max_ampdu_bytes: u32,
    /// The least of aPPDUMaxTime, the aggregate airtime cap and a non-zero TXOP limit.
    pub max_duration: Duration,
    /// The longest A-MPDU (PSDU bytes, padding included) within both `max_ampdu_bytes`
    /// and `max_duration` at the link's rate: TXTIME only grows with the length, so the
    /// duration bound is a length bound, found once here rather than per MPDU.
    pub max_psdu_bytes: u32,
}

impl AggregateLimits {
    /// Limits of a PPDU on `link` for `tid` in `bss`.
    pub fn new(bss: &BssConfig, link: &StationLink, tid: Tid) -> AggregateLimits {
        Self::new_with(bss, link, tid, &mut LengthBounds::default())
    }

    /// [`AggregateLimits::new`], the length bound taken from `bounds` when a TID or
    /// station before had the same one (issue 19: at 1000 stations the searches for it
    /// were 7% of a 10 s run).
    pub fn new_with(
        bss: &BssConfig,
        link: &StationLink,
        tid: Tid,
        bounds: &mut LengthBounds,
    ) -> AggregateLimits {
        let mut max_duration = link.max_ppdu_duration().min(bss.max_aggregate_airtime);
        let txop = bss.edca.get(tid.ac()).txop_limit;
        if txop > Duration::ZERO {
            max_duration = max_duration.min(txop);
        }
        AggregateLimits {
            ampdu: link.ampdu && link.rate.supports_ampdu(),
            ba_window: link.ba_window,
            max_subframes: link.ba_window,
            max_ampdu_bytes: link.max_ampdu_bytes,
            max_duration,
            max_psdu_bytes: bounds.longest(link.rate, bss.band, link.max_ampdu_bytes, max_duration),
        }
    }

    /// These limits with the duration bound lowered to `max_duration` (dynamic
    /// aggregate sizing, [`airq::aggregate::sizing`]); unchanged unless it is lower.
    pub fn capped(
        &self,
        bss: &BssConfig,
        link: &StationLink,
        max_duration: Duration,
    ) -> AggregateLimits {
        if max_duration >= self.max_duration {
            return *self;
        }
        let fits = |bytes: u32| link.rate.ppdu_duration(bytes, bss.band) <= max_duration;
        AggregateLimits {
            max_duration,
            max_psdu_bytes: longest_within(self.max_psdu_bytes, fits),
            ..*self
        }
    }
}

impl AggregateLimits {
    /// These limits for a PPDU at `rate` instead of the link's (rate control), or of
    /// one MPDU `alone` (a probe, [`TxRate::alone`]): the same duration and byte bounds,
    /// the length bound found again at `rate`.
    pub fn at_rate(&self, bss: &BssConfig, link: &StationLink, rate: Rate, alone: bool) -> Self {
        let mut l = *self;
        if alone {
            l.max_subframes = 1;
        }
        if rate != link.rate {
            let fits = |bytes: u32| rate.ppdu_duration(bytes, bss.band) <= l.max_duration;
            l.max_psdu_bytes = longest_within(l.max_ampdu_bytes, fits);
        }
        l
    }
}

/// The longest PSDUs found lately: (rate, band, byte bound, duration bound) → the longest
/// length within both. A BSS's stations share a few links, so a short list searched in
/// order beats hashing the key; it starts over when full, which bounds each search.
#[derive(Debug, Default)]
pub struct LengthBounds(Vec<((Rate, Band, u32, Duration), u32)>);

impl LengthBounds {
    const CAPACITY: usize = 32;

    /// The longest PSDU of at most `max_bytes` whose PPDU at `rate` lasts at most
    /// `max_duration`.
    fn longest(&mut self, rate: Rate, band: Band, max_bytes: u32, max_duration: Duration) -> u32 {
        let key = (rate, band, max_bytes, max_duration);
        if let Some(&(_, bound)) = self.0.iter().find(|(k, _)| *k == key) {
            return bound;
        }
        let bound = longest_within(max_bytes, |b| rate.ppdu_duration(b, band) <= max_duration);
        if self.0.len() == Self::CAPACITY {
            self.0.clear();
        }
        self.0.push((key, bound));
        bound
    }
}

/// The largest `n ≤ max` with `fits(n)` (0 if none), for a `fits` that holds up to some
/// length and not beyond.
fn longest_within(max: u32, fits: impl Fn(u32) -> bool) -> u32 {
    if fits(max) {
        return max;
    }
    let (mut lo, mut hi) = (0u32, max); // fits(hi) is false; the answer is below hi
    if !fits(lo) {
        return 0;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// What became of the MPDUs of a finished PPDU, with their sequence numbers.
#[derive(Debug, Default)]
pub struct Completion {
    /// Acknowledged: the caller accounts them, then hands them to the recipient
    /// ([`ReorderBuffer::receive`](super::reorder::ReorderBuffer::receive)).
    pub delivered: Vec<(u64, SimPacket)>,
    /// Dropped at the retry limit, or before an MPDU dropped at it (the originator
    /// then sends a BlockAckReq past them,
    /// [`ReorderBuffer::block_ack_req`](super::reorder::ReorderBuffer::block_ack_req)).
    pub dropped: Vec<(u64, SimPacket)>,
    /// Dropped by the time-based retry limit ([`RetryTimeParams`]), followed by a
    /// BlockAckReq as `dropped` are.
    pub expired: Vec<(u64, SimPacket)>,
    /// MPDUs that failed and wait for another try (the caller resets it).
    pub retried: u32,
    /// Of `delivered`, those not acknowledged: given up, but the recipient had them
    /// already ([`Mpdu::received`]; the caller resets it).
    pub copies: u32,
    /// Scratch for [`TidTx::complete_timed`]: the failed MPDUs on their way back to the
    /// pending queue, kept for its capacity (a completion with failures allocated one).
    failed: Vec<Mpdu>,
}

impl Completion {
    /// The MAC's report of the completed PPDU.
    pub fn outcome(&self) -> TxOutcome {
        TxOutcome {
            acked: self.delivered.len() as u32 - self.copies,
            retried: self.retried,
            dropped: (self.dropped.len() + self.expired.len()) as u32,
        }
    }
}

/// The originator's state of one receiver-TID: sequence numbers, the BlockAck
/// transmit window and the MPDUs waiting for a retry (the recipient's reordering buffer
/// is its own, [`super::reorder`]).
#[derive(Debug, Default)]
pub struct TidTx {
    next_seq: u64,
    /// MPDUs already numbered, not yet acknowledged nor in flight: retries (in sequence
    /// order) and MPDUs taken from the queue that did not fit the last PPDU.
    pending: VecDeque<Mpdu>,
    /// Sequence numbers in flight (sent, outcome not known yet), oldest first.
    in_flight: VecDeque<u64>,
    /// The MPDU list of the last completed PPDU, emptied, reused by the next one.
    spare: Vec<Mpdu>,
    /// PPDUs in a row of which no MPDU was acknowledged (no Ack or BlockAck came back):
    /// how far the hardware has walked its retry chain ([`TidTx::chain_position`]).
    unanswered: u8,
}

impl TidTx {
    /// Frames waiting here (retries, held-over MPDUs).
    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// Where the next PPDU stands in the retry chain: the tries in a row that went
    /// unanswered (the hardware walks its rate series while no Ack or BlockAck comes
    /// back; once one does, the failed MPDUs go again in the next aggregate, which the
    /// driver starts with fresh rates), and whether the MPDU it starts with was a probe.
    pub fn chain_position(&self) -> (u8, bool) {
        let probed = self.pending.front().is_some_and(|m| m.probed);
        (self.unanswered, probed)
    }

    /// Whether anything is waiting here that the BlockAck window lets go now.
    pub fn has_sendable(&self, window: u16) -> bool {
        self.pending
            .front()
            .is_some_and(|m| m.seq < self.window_start() + u64::from(window))
    }

    /// The oldest sequence number not yet acknowledged or dropped.
    fn window_start(&self) -> u64 {
        let pending = self.pending.front().map(|m| m.seq);
        let flying = self.in_flight.front().copied();
        match (pending, flying) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => self.next_seq,
        }
    }

    /// Fills a PPDU from `src` to `dst`: retries and held-over MPDUs first, then packets
    /// from `pull` while the limits and the BlockAck window allow. A pulled packet that
    /// does not fit is kept for the next PPDU. `None` if nothing could be sent.
    pub fn build_ppdu(
        &mut self,
        ends: (NodeId, NodeId, Tid),
        bss: &BssConfig,
        link: &StationLink,
        limits: &AggregateLimits,
        pull: impl FnMut() -> Option<SimPacket>,
    ) -> Option<Ppdu> {
        self.build_ppdu_at(ends, bss, TxRate::fixed(link.rate), limits, pull)
    }

    /// [`build_ppdu`](Self::build_ppdu) at rate control's choice `tx` (its rate, and
    /// whether RTS/CTS goes first), within `limits` for that rate
    /// ([`AggregateLimits::at_rate`]).
    pub fn build_ppdu_at(
        &mut self,
        ends: (NodeId, NodeId, Tid),
        bss: &BssConfig,
        tx: TxRate,
        limits: &AggregateLimits,
        pull: impl FnMut() -> Option<SimPacket>,
    ) -> Option<Ppdu> {
        self.build_ppdu_carrying(ends, bss, tx, limits, Vec::new(), pull)
    }

    /// [`build_ppdu_at`](Self::build_ppdu_at) with `riders` at the head of the A-MPDU:
    /// MPDUs of other TIDs, numbered in their own [`TidTx`] ([`TidTx::number`]), which
    /// count towards the length and subframe bounds (a multi-TID A-MPDU, IEEE
    /// 802.11ax-2021 26.6.3; combined QoS aggregates, [`airq::aggregate::qos_aggregate`]).
    pub fn build_ppdu_carrying(
        &mut self,
        (src, dst, tid): (NodeId, NodeId, Tid),
        bss: &BssConfig,
        tx: TxRate,
        limits: &AggregateLimits,
        riders: Vec<Mpdu>,
        mut pull: impl FnMut() -> Option<SimPacket>,
    ) -> Option<Ppdu> {
        let rate = tx.rate;
        let window = if limits.ampdu { limits.ba_window } else { 1 };
        let start = self.window_start();
        let mut psdu = PsduLength::new(limits.ampdu);
        let mut mpdus = std::mem::take(&mut self.spare);
        debug_assert!(riders.is_empty() || limits.ampdu, "riders need an A-MPDU");
        for rider in riders {
            psdu.push(rider.mpdu_bytes());
            mpdus.push(rider);
        }
        let fits = |psdu: &PsduLength, mpdu: &Mpdu| {
            if psdu.count() == 0 {
                return true; // one MPDU always goes, whatever its length
            }
            if !limits.ampdu || psdu.count() >= u32::from(limits.max_subframes) {
                return false;
            }
            psdu.with(mpdu.mpdu_bytes()).bytes(&rate) <= limits.max_psdu_bytes
        };
        loop {
            let mpdu = match self.pending.front() {
                Some(m) if m.seq < start + u64::from(window) => {
                    if !fits(&psdu, m) {
                        break;
                    }
                    self.pending.pop_front().expect("front exists")
                }
                Some(_) => break,
                None => {
                    if self.next_seq >= start + u64::from(window) {
                        break;
                    }
                    let Some(packet) = pull() else { break };
                    let mpdu = Mpdu::new(packet, self.next_seq);
                    self.next_seq += 1;
                    if !fits(&psdu, &mpdu) {
                        self.pending.push_back(mpdu);
                        break;
                    }
                    mpdu
                }
            };
            psdu.push(mpdu.mpdu_bytes());
            self.in_flight.push_back(mpdu.seq);
            let mut mpdu = mpdu;
            mpdu.probed |= tx.probe;
            mpdus.push(mpdu);
        }
        if mpdus.is_empty() {
            self.spare = mpdus;
            return None;
        }
        let mut ppdu = Ppdu::new(src, dst, tid, rate, bss.band, limits.ampdu, mpdus);
        ppdu.rts = tx.rts;
        Some(ppdu)
    }

    /// Whether a new MPDU may be numbered for a PPDU of another TID
    /// ([`build_ppdu_carrying`](Self::build_ppdu_carrying)): nothing waits here (retries
    /// go first, in this TID's own PPDUs) and the BlockAck `window` has room.
    pub fn may_number(&self, window: u16) -> bool {
        self.pending.is_empty() && self.next_seq < self.window_start() + u64::from(window)
    }

    /// Numbers `packet` as this TID's next MPDU, in flight from now on (check
    /// [`may_number`](Self::may_number) first).
    pub fn number(&mut self, packet: SimPacket) -> Mpdu {
        let mpdu = Mpdu::new(packet, self.next_seq);
        self.next_seq += 1;
        self.in_flight.push_back(mpdu.seq);
        mpdu
    }

    /// An MPDU the originator stops sending that the recipient has already (its Ack or
    /// BlockAck was lost): delivered, not acknowledged ([`Completion::copies`]).
    fn left_with_recipient(mpdu: Mpdu, out: &mut Completion) {
        out.copies += 1;
        out.delivered.push((mpdu.seq, mpdu.packet));
    }

    /// Drops an MPDU a BlockAckReq moves the window past, unless the recipient has it.
    fn flush(mpdu: Mpdu, out: &mut Completion) {
        if mpdu.received {
            Self::left_with_recipient(mpdu, out);
        } else {
            out.dropped.push((mpdu.seq, mpdu.packet));
        }
    }

    /// Takes back a finished PPDU of this TID: received MPDUs are acknowledged, failed
    /// ones count a retry and wait for the next PPDU, or are dropped at `retry_limit`.
    pub fn complete(&mut self, ppdu: Ppdu, retry_limit: u8, out: &mut Completion) {
        self.complete_timed(ppdu, retry_limit, None, out);
    }

    /// [`complete`](Self::complete) with a time-based retry limit as well: `timed` is
    /// its parameters, when the exchange started and when it ended (now).
    pub fn complete_timed(
        &mut self,
        ppdu: Ppdu,
        retry_limit: u8,
        timed: Option<(&RetryTimeParams, Instant, Instant)>,
        out: &mut Completion,
    ) {
        let mut failed = std::mem::take(&mut out.failed);
        let block_ack = ppdu.aggregate;
        let mut mpdus = ppdu.mpdus;
        self.unanswered = match mpdus.iter().any(|m| m.ok) {
            true => 0,
            false => self.unanswered.saturating_add(1),
        };
        // The highest sequence number given up: the BlockAckReq's SSN will be the next.
        let mut given_up = None;
        for mut mpdu in mpdus.drain(..) {
            if self.in_flight.front() == Some(&mpdu.seq) {
                self.in_flight.pop_front(); // the usual case: completions come in order
            } else if let Some(i) = self.in_flight.iter().position(|&s| s == mpdu.seq) {
                self.in_flight.remove(i);
            }
            if mpdu.ok {
                out.delivered.push((mpdu.seq, mpdu.packet));
                continue;
            }
            mpdu.retries += 1;
            let expired = timed.is_some_and(|(params, started, now)| {
                let first_tx = *mpdu.first_tx_at.get_or_insert(started);
                params.expired(&mpdu, first_tx, now)
            });
            if mpdu.retries < retry_limit && !expired {
                out.retried += 1;
                failed.push(mpdu);
            } else if mpdu.received {
                // The recipient has it (only its Ack or BlockAck was lost).
                Self::left_with_recipient(mpdu, out);
            } else {
                given_up = given_up.max(Some(mpdu.seq));
                if mpdu.retries >= retry_limit {
                    out.dropped.push((mpdu.seq, mpdu.packet));
                } else {
                    out.expired.push((mpdu.seq, mpdu.packet));
                }
            }
        }
        self.spare = mpdus;
        // Under a BlockAck agreement the BlockAckReq will move the recipient's window
        // past the MPDUs given up, so those before them that wait for a retry would be
        // discarded there: they are dropped now, as ath9k completes as failed every
        // subframe before `bar_index` (`ath_tx_get_tid_subframe`,
        // drivers/net/wireless/ath/ath9k/xmit.c).
        if let Some(last) = given_up.filter(|_| block_ack) {
            for mpdu in std::mem::take(&mut failed) {
                if mpdu.seq < last {
                    out.retried -= 1;
                    Self::flush(mpdu, out);
                } else {
                    failed.push(mpdu);
                }
            }
            while self.pending.front().is_some_and(|m| m.seq < last) {
                let mpdu = self.pending.pop_front().expect("checked");
                Self::flush(mpdu, out);
            }
        }
        // Retries go first, in sequence order, ahead of anything held over.
        for mpdu in failed.drain(..) {
            let at = self
                .pending
                .iter()
                .position(|m| m.seq > mpdu.seq)
                .unwrap_or(self.pending.len());
            self.pending.insert(at, mpdu);
        }
        out.failed = failed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testbed::{ht20, udp_packet};
    use airq::phy::{Band, ChannelWidth, GuardInterval, Rate};

    /// The length bound is exactly where the duration bound and the byte bound meet.
    #[test]
    fn the_length_bound_is_the_duration_bound() {
        let bss = BssConfig::ofdm(Band::Ghz5);
        let vht = Rate::vht(9, 2, ChannelWidth::Mhz80, GuardInterval::Short).unwrap();
        for link in [ht20(0), ht20(7), ht20(15), StationLink::new(vht)] {
            let l = AggregateLimits::new(&bss, &link, Tid::new(0).unwrap());
            let within = |b: u32| {
                b <= l.max_ampdu_bytes && link.rate.ppdu_duration(b, bss.band) <= l.max_duration
            };
            assert!(within(l.max_psdu_bytes), "{link:?}");
            assert!(!within(l.max_psdu_bytes + 1), "{link:?}");
        }
    }

    /// A failed MPDU is given up by the time limit once past it and `min_tries`,
    /// its age counted from the start of its first exchange; the retry count still
    /// applies.
    #[test]
    fn the_time_limit_gives_up_old_failed_mpdus() {
        use crate::mac::retry_time::RetryTimeParams;
        use airq::{Instant, StationId};
        let bss = BssConfig::ofdm(Band::Ghz5);
        let link = ht20(0);
        let tid = Tid::new(0).unwrap();
        let limits = AggregateLimits::new(&bss, &link, tid);
        let params = RetryTimeParams {
            time_limit: Duration::from_millis(10),
            min_tries: 2,
            include_queue_time: false,
        };
        let packet = udp_packet(0);
        let mut tx = TidTx::default();
        let mut queue = vec![packet];
        let ends = (NodeId::Ap, NodeId::Sta(StationId(0)), tid);
        let ms = Instant::from_millis;
        let mut out = Completion::default();
        // Exchanges (start, end): the first at 0-2 ms, then 5-7 (7 ms after the first
        // start: within), 9-11 (11 ms: given up).
        for (i, (start, end)) in [(0, 2), (5, 7), (9, 11)].into_iter().enumerate() {
            let ppdu = tx
                .build_ppdu(ends, &bss, &link, &limits, || queue.pop())
                .expect("the MPDU goes again");
            tx.complete_timed(ppdu, 10, Some((&params, ms(start), ms(end))), &mut out);
            let given_up = i == 2;
            assert_eq!(out.expired.len(), usize::from(given_up), "try {}", i + 1);
            assert_eq!(tx.pending_len(), usize::from(!given_up));
        }
        assert_eq!(out.outcome().dropped, 1);
        assert!(out.dropped.is_empty(), "not by the retry count");
    }

    /// The AP's TID 0 towards station 0 at HT MCS 7 in 5 GHz, with packets queued.
    struct Ht7 {
        bss: BssConfig,
        link: StationLink,
        limits: AggregateLimits,
        ends: (NodeId, NodeId, Tid),
        /// Popped from the end: packet 0 first.
        queue: Vec<SimPacket>,
    }

    impl Ht7 {
        fn with_packets(n: u32) -> Ht7 {
            let bss = BssConfig::ofdm(Band::Ghz5);
            let link = ht20(7);
            let tid = Tid::new(0).unwrap();
            Ht7 {
                limits: AggregateLimits::new(&bss, &link, tid),
                ends: (NodeId::Ap, NodeId::Sta(airq::StationId(0)), tid),
                queue: (0..n).rev().map(udp_packet).collect(),
                bss,
                link,
            }
        }
    }

    /// The chain position counts the PPDUs in a row that got no Ack or BlockAck (the
    /// hardware's walk down its rate series); one with any MPDU acknowledged ends it,
    /// and its failed MPDUs go again from the first stage (ath9k's fresh rates for each
    /// aggregate).
    #[test]
    fn the_chain_position_counts_unanswered_tries() {
        let Ht7 {
            bss,
            link,
            limits,
            ends,
            mut queue,
        } = Ht7::with_packets(4);
        let mut tx = TidTx::default();
        let mut out = Completion::default();
        assert_eq!(tx.chain_position(), (0, false));
        for tries in 1..=2 {
            let ppdu = tx
                .build_ppdu(ends, &bss, &link, &limits, || queue.pop())
                .unwrap();
            tx.complete(ppdu, 10, &mut out);
            assert_eq!(tx.chain_position(), (tries, false));
        }
        // A BlockAck for one of the four: the three others go again, from the start.
        let mut ppdu = tx.build_ppdu(ends, &bss, &link, &limits, || None).unwrap();
        assert_eq!(ppdu.mpdus.len(), 4);
        ppdu.mpdus[1].ok = true;
        tx.complete(ppdu, 10, &mut out);
        assert_eq!((tx.chain_position(), tx.pending_len()), ((0, false), 3));
    }

    #[test]
    fn longest_within_finds_the_edge() {
        assert_eq!(longest_within(100, |n| n <= 37), 37);
        assert_eq!(longest_within(100, |_| true), 100);
        assert_eq!(longest_within(100, |_| false), 0);
        assert_eq!(longest_within(0, |_| true), 0);
    }

    /// Three MPDUs sent, all lost: 0 and 1 are retried. Sent again with 2 new ones, 1
    /// reaches the retry limit while 0 (lost again) and 2 would wait for a retry: the
    /// BlockAckReq past 1 would make the recipient discard 0, so it is dropped with 1
    /// (ath9k's `bar_index`); 2 stays. An MPDU the recipient has (its BlockAck was
    /// lost) is delivered, not dropped, when its retries run out.
    #[test]
    fn giving_up_an_mpdu_drops_the_earlier_ones_waiting_for_a_retry() {
        let Ht7 {
            bss,
            link,
            limits,
            ends,
            mut queue,
        } = Ht7::with_packets(3);
        let mut tx = TidTx::default();
        let mut out = Completion::default();
        let mut ppdu = tx
            .build_ppdu(ends, &bss, &link, &limits, || queue.pop())
            .unwrap();
        assert_eq!(ppdu.mpdus.len(), 3);
        // 1 has used up all but one try; 2's recipient got it but the BlockAck was lost.
        ppdu.mpdus[1].retries = 8;
        ppdu.mpdus[2].received = true;
        tx.complete(ppdu, 10, &mut out);
        assert_eq!((out.retried, tx.pending_len()), (3, 3));
        out.retried = 0;
        let ppdu = tx.build_ppdu(ends, &bss, &link, &limits, || None).unwrap();
        let seqs: Vec<u64> = ppdu.mpdus.iter().map(|m| m.seq).collect();
        assert_eq!(seqs, [0, 1, 2]);
        tx.complete(ppdu, 10, &mut out);
        // 1 given up at the limit, 0 before it; 2 retried.
        let dropped: Vec<u64> = out.dropped.iter().map(|(s, _)| *s).collect();
        assert_eq!(dropped, [1, 0]);
        assert_eq!((out.retried, tx.pending_len()), (1, 1));
        assert_eq!(
            out.outcome(),
            TxOutcome {
                acked: 0,
                retried: 1,
                dropped: 2
            }
        );
        // 2 runs out of tries: the recipient has it, so it leaves as delivered, not
        // acknowledged.
        out = Completion::default();
        for _ in 0..8 {
            let ppdu = tx.build_ppdu(ends, &bss, &link, &limits, || None).unwrap();
            tx.complete(ppdu, 10, &mut out);
        }
        assert_eq!(tx.pending_len(), 0);
        assert_eq!(out.delivered.len(), 1);
        assert!(out.dropped.is_empty());
        assert_eq!((out.copies, out.outcome().acked), (1, 0));
    }
}
