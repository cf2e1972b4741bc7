//! The per-queue CoDel state machine and its dequeue (RFC 8289 §5; Linux
//! `codel_should_drop`, `codel_dequeue` in `codel_impl.h`).

use super::control_law::{control_law, newton_step, REC_INV_SQRT_ONE};
use super::{CodelParams, CodelQueue, CodelStats};
use crate::packet::Packet;
use crate::time::{Duration, Instant};

/// CoDel state of one queue (Linux `struct codel_vars`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodelState {
    /// Drops (or marks) since entering the dropping state.
    count: u32,
    /// `count` when the dropping state was last entered, for the re-entry rule.
    lastcount: u32,
    dropping: bool,
    /// `1/sqrt(count)` in Q0.32.
    rec_inv_sqrt: u32,
    /// When the sojourn time will have been above target for a whole interval; `None`
    /// while it is below (Linux uses 0 for that).
    first_above_time: Option<Instant>,
    /// When the next drop is due in the dropping state.
    drop_next: Instant,
    /// Sojourn time of the last packet dequeued.
    ldelay: Duration,
}

impl Default for CodelState {
    fn default() -> Self {
        CodelState {
            count: 0,
            lastcount: 0,
            dropping: false,
            rec_inv_sqrt: 0,
            first_above_time: None,
            drop_next: Instant::ZERO,
            ldelay: Duration::ZERO,
        }
    }
}

impl CodelState {
    /// Whether the queue is in the dropping state.
    pub fn dropping(&self) -> bool {
        self.dropping
    }
    /// Drops (or marks) counted by the control law since it entered the dropping state.
    pub fn count(&self) -> u32 {
        self.count
    }
    /// When the next drop is due, while dropping.
    pub fn drop_next(&self) -> Option<Instant> {
        self.dropping.then_some(self.drop_next)
    }
    /// Sojourn time of the last packet dequeued.
    pub fn last_sojourn(&self) -> Duration {
        self.ldelay
    }

    /// Decides whether the packet just dequeued may be dropped: its sojourn time has
    /// been at or above target for at least an interval (RFC 8289 §5.4).
    #[inline]
    fn should_drop<P: Packet>(
        &mut self,
        packet: Option<&P>,
        params: &CodelParams,
        stats: &mut CodelStats,
        backlog_bytes: u64,
        now: Instant,
    ) -> bool {
        let Some(packet) = packet else {
            self.first_above_time = None;
            return false;
        };
        self.ldelay = now - packet.enqueue_time();
        stats.max_packet_bytes = stats.max_packet_bytes.max(packet.len_bytes());
        if self.ldelay < params.target || backlog_bytes <= u64::from(params.mtu_bytes) {
            // Went below: stay below for at least an interval before dropping again.
            self.first_above_time = None;
            return false;
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + params.interval);
                false
            }
            Some(first_above) => now > first_above,
        }
    }

    /// Dequeues the next packet of `queue` that CoDel lets through, marking or dropping as
    /// the control law says (RFC 8289 §5.5). Dropped packets go to `on_drop`.
    #[inline]
    pub fn dequeue<P, Q>(
        &mut self,
        params: &CodelParams,
        stats: &mut CodelStats,
        now: Instant,
        queue: &mut Q,
        mut on_drop: impl FnMut(P),
    ) -> Option<P>
    where
        P: Packet,
        Q: CodelQueue<P>,
    {
        let mut packet = queue.dequeue();
        if packet.is_none() {
            self.dropping = false;
            return None;
        }
        let drop = self.should_drop(packet.as_ref(), params, stats, queue.backlog_bytes(), now);
        if self.dropping {
            if !drop {
                // Sojourn time below target: leave the dropping state.
                self.dropping = false;
            } else {
                // A large backlog may make the next drop due at once, hence the loop;
                // each pass drops one packet and looks at the next.
                while self.dropping && now >= self.drop_next {
                    let Some(mut head) = packet.take() else { break };
                    self.count = self.count.wrapping_add(1);
                    self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
                    if params.ecn && head.ecn_capable() {
                        head.set_ce();
                        stats.ecn_mark += 1;
                        self.drop_next =
                            control_law(self.drop_next, params.interval, self.rec_inv_sqrt);
                        packet = Some(head);
                        break;
                    }
                    stats.drop_count += 1;
                    stats.drop_bytes += u64::from(head.len_bytes());
                    on_drop(head);
                    packet = queue.dequeue();
                    if self.should_drop(packet.as_ref(), params, stats, queue.backlog_bytes(), now)
                    {
                        self.drop_next =
                            control_law(self.drop_next, params.interval, self.rec_inv_sqrt);
                    } else {
                        self.dropping = false;
                    }
                }
            }
        } else if drop {
            if let Some(mut head) = packet.take() {
                if params.ecn && head.ecn_capable() {
                    head.set_ce();
                    stats.ecn_mark += 1;
                    packet = Some(head);
                } else {
                    stats.drop_count += 1;
                    stats.drop_bytes += u64::from(head.len_bytes());
                    on_drop(head);
                    packet = queue.dequeue();
                    // Updates ldelay and first_above_time for the new head.
                    self.should_drop(packet.as_ref(), params, stats, queue.backlog_bytes(), now);
                }
            }
            self.dropping = true;
            self.enter_dropping(params, now);
        }
        if let (Some(head), Some(threshold)) = (packet.as_mut(), params.ce_threshold) {
            if self.ldelay > threshold && head.ecn_capable() {
                head.set_ce();
                stats.ce_mark += 1;
            }
        }
        packet
    }

    /// Starts a dropping episode. If the last one ended recently (within 16 intervals of
    /// its next scheduled drop), the drop rate that controlled the queue then is a good
    /// start now: `count` resumes from the drops of that episode (Linux; RFC 8289 §5.5).
    fn enter_dropping(&mut self, params: &CodelParams, now: Instant) {
        let delta = self.count.wrapping_sub(self.lastcount);
        let recent = now
            .checked_duration_since(self.drop_next)
            .is_none_or(|since| since < params.interval * 16);
        if delta > 1 && recent {
            self.count = delta;
            // A rough value is fine: later Newton steps correct it quadratically.
            self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
        } else {
            self.count = 1;
            self.rec_inv_sqrt = REC_INV_SQRT_ONE;
        }
        self.lastcount = self.count;
        self.drop_next = control_law(now, params.interval, self.rec_inv_sqrt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Ecn, SimplePacket};
    use alloc::collections::VecDeque;
    use alloc::vec::Vec;

    /// A plain FIFO for CoDel to run on.
    #[derive(Default)]
    struct Fifo {
        packets: VecDeque<SimplePacket>,
        backlog_bytes: u64,
    }

    impl Fifo {
        fn push(&mut self, mut p: SimplePacket, now: Instant) {
            p.set_enqueue_time(now);
            self.backlog_bytes += u64::from(p.len_bytes);
            self.packets.push_back(p);
        }
    }

    impl CodelQueue<SimplePacket> for Fifo {
        fn dequeue(&mut self) -> Option<SimplePacket> {
            let p = self.packets.pop_front()?;
            self.backlog_bytes -= u64::from(p.len_bytes);
            Some(p)
        }
        fn backlog_bytes(&self) -> u64 {
            self.backlog_bytes
        }
    }

    /// A CoDel queue with generic 5 ms / 100 ms parameters, mtu 0.
    struct Fixture {
        params: CodelParams,
        state: CodelState,
        stats: CodelStats,
        fifo: Fifo,
        dropped: Vec<u64>,
        next_id: u64,
    }

    fn fixture(ecn: bool) -> Fixture {
        Fixture {
            params: CodelParams {
                ecn,
                mtu_bytes: 0,
                ..CodelParams::default()
            },
            state: CodelState::default(),
            stats: CodelStats::default(),
            fifo: Fifo::default(),
            dropped: Vec::new(),
            next_id: 0,
        }
    }

    impl Fixture {
        fn push(&mut self, n: usize, at: Instant, ecn: Ecn) {
            for _ in 0..n {
                let p = SimplePacket::new(self.next_id, 1, 1000).with_ecn(ecn);
                self.next_id += 1;
                self.fifo.push(p, at);
            }
        }
        fn dequeue(&mut self, now: Instant) -> Option<SimplePacket> {
            let dropped = &mut self.dropped;
            self.state
                .dequeue(&self.params, &mut self.stats, now, &mut self.fifo, |p| {
                    dropped.push(p.id)
                })
        }
    }

    fn ms(x: u64) -> Instant {
        Instant::from_millis(x)
    }

    fn assert_near(actual: Option<Instant>, expected_ns: u64) {
        let actual = actual.expect("dropping").as_nanos();
        assert!(
            actual.abs_diff(expected_ns) <= 1_000,
            "drop_next {actual} ns, expected {expected_ns} ns"
        );
    }

    #[test]
    fn enters_and_schedules_drops_by_the_control_law() {
        // Hand-computed schedule, target 5 ms, interval 100 ms, a standing queue:
        // t=10: sojourn 10 ms > target, first_above = 110 ms, no drop.
        // t=111: above for a whole interval: drop 1, count 1, drop_next = 211.
        // t=211: count 2, 1/sqrt ≈ 0.5 (Newton): drop, drop_next = 211 + 50 = 261.
        // t=261: count 3, 0.5625: drop, drop_next = 261 + 56.25 = 317.25.
        // t=318: count 4, 0.48779…: drop, drop_next = 317.25 + 48.779 = 366.029.
        let mut f = fixture(false);
        f.push(500, ms(0), Ecn::NotEct);
        assert!(f.dequeue(ms(10)).is_some());
        assert!(!f.state.dropping() && f.dropped.is_empty());
        assert!(f.dequeue(ms(110)).is_some(), "not yet: 'after' is strict");
        assert!(f.dropped.is_empty());

        assert_eq!(f.dequeue(ms(111)).map(|p| p.id), Some(3));
        assert_eq!(f.dropped, [2]);
        assert!(f.state.dropping());
        assert_eq!(f.state.count(), 1);
        assert_near(f.state.drop_next(), 211_000_000);

        assert!(f.dequeue(ms(150)).is_some());
        assert_eq!(f.dropped.len(), 1, "no drop before drop_next");

        f.dequeue(ms(211));
        assert_eq!(f.dropped.len(), 2);
        assert_near(f.state.drop_next(), 261_000_000);
        f.dequeue(ms(261));
        assert_eq!(f.dropped.len(), 3);
        assert_near(f.state.drop_next(), 317_250_000);
        f.dequeue(ms(318));
        assert_eq!(f.dropped.len(), 4);
        assert_eq!(f.state.count(), 4);
        assert_near(f.state.drop_next(), 366_029_297);
        assert_eq!(f.stats.drop_count, 4);
        assert_eq!(f.stats.drop_bytes, 4000);
    }

    #[test]
    fn leaves_dropping_when_sojourn_falls_below_target() {
        let mut f = fixture(false);
        f.push(3, ms(0), Ecn::NotEct);
        f.dequeue(ms(10));
        f.dequeue(ms(111));
        assert!(f.state.dropping());
        // The queue drained and refilled: the new head waited only 1 ms.
        while f.fifo.dequeue().is_some() {}
        f.push(2, ms(199), Ecn::NotEct);
        assert!(f.dequeue(ms(200)).is_some());
        assert!(!f.state.dropping());
        assert_eq!(f.stats.drop_count, 1);
    }

    #[test]
    fn reenters_with_count_of_last_episode_within_16_intervals() {
        // Episode 1 reaches count 4 (see the schedule above), leaves, and the queue is
        // above target again soon after: count resumes at 4 − 1 = 3, not 1.
        let mut f = fixture(false);
        f.push(500, ms(0), Ecn::NotEct);
        for t in [10, 111, 211, 261, 318] {
            f.dequeue(ms(t));
        }
        assert_eq!(f.state.count(), 4);
        while f.fifo.dequeue().is_some() {}
        f.push(1, ms(399), Ecn::NotEct);
        f.push(100, ms(400), Ecn::NotEct);
        f.dequeue(ms(400));
        assert!(!f.state.dropping());
        // Standing queue again: above target from t=410, drop allowed after t=510.
        f.dequeue(ms(410));
        f.dequeue(ms(511));
        assert!(f.state.dropping());
        assert_eq!(f.state.count(), 3);
        // Long after (more than 16 intervals), the count starts over at 1.
        let mut g = fixture(false);
        g.push(500, ms(0), Ecn::NotEct);
        for t in [10, 111, 211, 261, 318] {
            g.dequeue(ms(t));
        }
        while g.fifo.dequeue().is_some() {}
        g.push(1, ms(3999), Ecn::NotEct);
        g.push(100, ms(4000), Ecn::NotEct);
        g.dequeue(ms(4000));
        g.dequeue(ms(4010));
        g.dequeue(ms(4111));
        assert!(g.state.dropping());
        assert_eq!(g.state.count(), 1);
    }

    #[test]
    fn marks_ecn_capable_packets_instead_of_dropping() {
        let mut f = fixture(true);
        f.push(500, ms(0), Ecn::Ect0);
        let mut marked = 0;
        for t in [10, 111, 150, 211, 261, 318] {
            let p = f.dequeue(ms(t)).expect("a marked packet is delivered");
            marked += u64::from(p.ecn == Ecn::Ce);
        }
        assert!(f.dropped.is_empty());
        assert_eq!(f.stats.drop_count, 0);
        assert_eq!(f.stats.ecn_mark, 4);
        assert_eq!(marked, 4);
        assert_eq!(f.state.count(), 4);
    }

    #[test]
    fn drops_not_ect_packets_even_with_ecn_on() {
        let mut f = fixture(true);
        f.push(10, ms(0), Ecn::NotEct);
        f.dequeue(ms(10));
        f.dequeue(ms(111));
        assert_eq!(f.stats.drop_count, 1);
        assert_eq!(f.stats.ecn_mark, 0);
    }

    #[test]
    fn mtu_rule_spares_a_queue_of_one_packet() {
        let mut f = fixture(false);
        f.params.mtu_bytes = 1514;
        // Two packets: after the first dequeue 1000 bytes remain, at most one MTU.
        f.push(2, ms(0), Ecn::NotEct);
        f.dequeue(ms(10));
        f.dequeue(ms(200));
        assert_eq!(f.stats.drop_count, 0);
        assert!(!f.state.dropping());
    }

    #[test]
    fn ce_threshold_marks_by_sojourn_alone() {
        let mut f = fixture(false);
        f.params.ce_threshold = Some(Duration::from_millis(1));
        f.push(1, ms(0), Ecn::Ect1);
        f.push(1, ms(0), Ecn::NotEct);
        let p = f.dequeue(ms(2)).unwrap();
        assert_eq!(p.ecn, Ecn::Ce);
        let q = f.dequeue(ms(2)).unwrap();
        assert_eq!(q.ecn, Ecn::NotEct);
        assert_eq!(f.stats.ce_mark, 1);
    }

    #[test]
    fn empty_queue_leaves_dropping_state() {
        let mut f = fixture(false);
        f.push(3, ms(0), Ecn::NotEct);
        f.dequeue(ms(10));
        f.dequeue(ms(111));
        assert!(f.state.dropping());
        while f.fifo.dequeue().is_some() {}
        assert!(f.dequeue(ms(300)).is_none());
        assert!(!f.state.dropping());
    }

    #[test]
    fn presets_and_validation() {
        let m = CodelParams::mac80211();
        assert_eq!(m.target, Duration::from_millis(20));
        assert_eq!(m.interval, Duration::from_millis(100));
        assert!(m.ecn);
        assert!(m.validate().is_ok());
        assert!(CodelParams::default().validate().is_ok());
        let bad = CodelParams {
            target: Duration::from_millis(200),
            ..CodelParams::default()
        };
        assert!(bad.validate().is_err());
        let zero = CodelParams {
            interval: Duration::ZERO,
            ..CodelParams::default()
        };
        assert_eq!(
            zero.validate(),
            Err(super::super::CodelParamError::ZeroInterval)
        );
    }
}
