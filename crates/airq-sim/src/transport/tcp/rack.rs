//! RACK loss detection (RFC 8985 §6; Linux `net/ipv4/tcp_recovery.c`), which Linux uses
//! instead of counting duplicate ACKs when SACK is on (`tcp_recovery = 1`).
//!
//! RACK remembers the most recently *sent* segment that has been delivered (cumulatively
//! ACKed or SACKed) and the RTT it measured. A segment sent before it and still
//! undelivered is lost once `xmit_time + rack.rtt + reo_wnd ≤ now`; until then a reorder
//! timer waits for the latest such deadline (RFC 8985 §6.2 step 5, Linux
//! `tcp_rack_detect_loss`).
//!
//! The reordering window is Linux's `tcp_rack_reo_wnd` for a path on which no
//! reordering has been seen (D-SACK-driven adaptation, RFC 8985 §6.2 step 4, is not
//! modelled): zero during recovery or once 3 segments are SACKed (the classic DupThresh),
//! otherwise `min(min_rtt/4, srtt)`.

use super::scoreboard::{Scoreboard, SentSegment};
use airq::{Duration, Instant};

/// DupThresh (RFC 6675 §2; Linux `tcp_reordering = 3`).
const DUP_THRESH: u32 = 3;

/// Linux `struct tcp_rack`.
#[derive(Clone, Debug, Default)]
pub(super) struct Rack {
    /// Transmission order of the most recently sent delivered segment (0: none yet).
    tx_order: u64,
    /// RTT measured on the last delivered segment.
    rtt: Duration,
}

impl Rack {
    /// RFC 8985 §6.2 step 2 (Linux `tcp_rack_advance`): `seg` was delivered at `now`.
    /// A retransmitted segment whose RTT is below the minimum RTT was probably delivered
    /// by its original transmission, so it does not count.
    pub(super) fn on_delivered(
        &mut self,
        seg: &SentSegment,
        now: Instant,
        min_rtt: Option<Duration>,
    ) {
        let rtt = now - seg.xmit_time;
        if seg.ever_retrans && min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        self.rtt = rtt;
        self.tx_order = self.tx_order.max(seg.tx_order);
    }

    /// The reordering window (Linux `tcp_rack_reo_wnd`, no reordering seen).
    pub(super) fn reo_wnd(
        in_recovery: bool,
        sacked_out: u32,
        min_rtt: Option<Duration>,
        srtt: Option<Duration>,
    ) -> Duration {
        if in_recovery || sacked_out >= DUP_THRESH {
            return Duration::ZERO;
        }
        let quarter = min_rtt.map_or(Duration::ZERO, |m| m / 4);
        srtt.map_or(quarter, |s| quarter.min(s))
    }

    /// RFC 8985 §6.2 step 5: the segments now deemed lost (their starts), and when to
    /// look again for those not yet due.
    pub(super) fn detect_loss(
        &self,
        scoreboard: &Scoreboard,
        now: Instant,
        reo_wnd: Duration,
    ) -> (Vec<u64>, Option<Instant>) {
        let mut lost = Vec::new();
        let mut timeout: Option<Instant> = None;
        for (tx_order, start) in scoreboard.in_tx_order() {
            if tx_order >= self.tx_order {
                break;
            }
            let Some(seg) = scoreboard.get(start) else {
                continue;
            };
            let deadline = seg.xmit_time + self.rtt + reo_wnd;
            if deadline <= now {
                lost.push(start);
            } else {
                timeout = Some(timeout.map_or(deadline, |t| t.max(deadline)));
            }
        }
        (lost, timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: u64) -> Instant {
        Instant::from_millis(ms)
    }

    #[test]
    fn a_segment_sent_before_a_delivered_one_is_lost_after_rtt_plus_reo_wnd() {
        let mut sb = Scoreboard::default();
        sb.push(1, 101, false, t(0));
        sb.push(101, 201, false, t(1));
        sb.push(201, 301, false, t(2));
        let mut rack = Rack::default();
        // The third segment is SACKed at 52 ms: RACK RTT 50 ms.
        let mut delivered = Vec::new();
        sb.sack(201, 301, |s| delivered.push(*s));
        rack.on_delivered(&delivered[0], t(52), None);
        let reo = Duration::from_millis(5);
        let (lost, timeout) = rack.detect_loss(&sb, t(52), reo);
        assert!(lost.is_empty());
        // Deadlines 0+50+5 and 1+50+5: wait for the later one.
        assert_eq!(timeout, Some(t(56)));
        let (lost, timeout) = rack.detect_loss(&sb, t(56), reo);
        assert_eq!(lost, vec![1, 101]);
        assert_eq!(timeout, None);
    }

    #[test]
    fn reo_wnd_is_zero_in_recovery_or_after_dupthresh_sacks() {
        let m = Some(Duration::from_millis(40));
        assert_eq!(Rack::reo_wnd(true, 0, m, m), Duration::ZERO);
        assert_eq!(Rack::reo_wnd(false, 3, m, m), Duration::ZERO);
        assert_eq!(Rack::reo_wnd(false, 1, m, m), Duration::from_millis(10));
    }
}
