//! A time-based retry limit: an MPDU that failed is given up once it has been in
//! transmission for longer than a time limit, instead of only at the fixed retry count.
//! From the netdev 2.2 paper's §4.1 (shared/seeds/000, "Reducing the number of
//! retransmissions"): "dynamically setting the number of retransmissions based on the
//! data rate can reduce latency by reducing head of line blocking while the
//! retransmissions are ongoing. This has been shown to work in a fairly simple
//! implementation [Nomoto, Wu, Ohzahata, Kato, ICN 2017]. Using a time based limit and
//! optionally including the queue time as recorded by CoDel could be a way to achieve
//! this." Linux has no such limit (mac80211 and its drivers count tries only), so it is
//! off unless configured.
//!
//! The rule: after a failed transmission, an MPDU with at least `min_tries`
//! transmissions is dropped when its age exceeds `time_limit`. Its age is the time since
//! the start of its first transmission (the exchange that first carried it), or with
//! `include_queue_time` the time since it entered the AP's last CoDel queue (the
//! timestamp CoDel's sojourn is measured from: FQ-MAC's, or the fq_codel qdisc's before
//! a legacy MAC), so CoDel's queue time plus any wait after it in the driver or
//! firmware; with no CoDel queue (pfifo_fast and the legacy MAC), since its arrival at
//! the AP. A limit below the queues' standing delay then gives up every MPDU at its
//! `min_tries`-th failure. A time limit is a retry limit that
//! depends on the data rate: each try of an MPDU takes its PPDU's airtime (and the
//! other stations' turns in between), so a 10 ms limit allows about ten tries of a
//! 1 ms A-MPDU at a high rate but two or three of a 4 ms one at MCS 0 — fewer retries
//! at low rates, as Nomoto et al. set them. `min_tries` keeps a slow station from
//! being cut to one try. The fixed retry limit ([`BssConfig::retry_limit`]) still
//! applies.
//!
//! [`BssConfig::retry_limit`]: super::link::BssConfig::retry_limit

use crate::mac::frame::Mpdu;
use airq::{Duration, Instant};

/// The time-based retry limit's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryTimeParams {
    /// The longest an MPDU stays in transmission (or in the AP with
    /// `include_queue_time`) before a failed try gives it up.
    pub time_limit: Duration,
    /// Transmissions an MPDU always gets, however old it is (at least 1).
    pub min_tries: u8,
    /// Count the MPDU's age from its entry into the MAC queue (CoDel's timestamp)
    /// rather than from its first transmission.
    pub include_queue_time: bool,
}

impl RetryTimeParams {
    /// `min_tries` when not given: the first transmission and one retry.
    pub const DEFAULT_MIN_TRIES: u8 = 2;

    /// Whether `mpdu`, which has just failed for the `mpdu.retries`-th time at `now`
    /// and whose first transmission started at `first_tx`, is given up.
    pub fn expired(&self, mpdu: &Mpdu, first_tx: Instant, now: Instant) -> bool {
        if mpdu.retries < self.min_tries {
            return false;
        }
        let since = if self.include_queue_time {
            mpdu.packet.enqueue_time.min(first_tx)
        } else {
            first_tx
        };
        now.saturating_duration_since(since) > self.time_limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::SimPacket;
    use crate::testbed::udp_packet;

    fn packet_at(enqueue_time: Instant) -> SimPacket {
        SimPacket {
            enqueue_time,
            ..udp_packet(0)
        }
    }

    fn params(include_queue_time: bool) -> RetryTimeParams {
        RetryTimeParams {
            time_limit: Duration::from_millis(10),
            min_tries: 2,
            include_queue_time,
        }
    }

    fn mpdu(retries: u8, enqueued_ms: u64) -> Mpdu {
        let mut m = Mpdu::new(packet_at(Instant::from_millis(enqueued_ms)), 0);
        m.retries = retries;
        m
    }

    #[test]
    fn gives_up_past_the_limit_from_the_first_transmission() {
        let p = params(false);
        let first = Instant::from_millis(100);
        let at = Instant::from_millis;
        assert!(!p.expired(&mpdu(3, 100), first, at(110)), "10 ms is within");
        assert!(p.expired(&mpdu(3, 100), first, at(111)));
    }

    #[test]
    fn always_allows_min_tries() {
        let p = params(false);
        let first = Instant::from_millis(100);
        assert!(!p.expired(&mpdu(1, 100), first, Instant::from_millis(500)));
        assert!(p.expired(&mpdu(2, 100), first, Instant::from_millis(500)));
    }

    #[test]
    fn queue_time_counts_from_the_mac_queue() {
        let p = params(true);
        let first = Instant::from_millis(100);
        // Queued at 95 ms: 11 ms old at 106 ms, but only 6 ms since the first try.
        assert!(p.expired(&mpdu(2, 95), first, Instant::from_millis(106)));
        assert!(!params(false).expired(&mpdu(2, 95), first, Instant::from_millis(106)));
    }
}
