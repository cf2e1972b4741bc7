//! Combined QoS aggregates (seed 000, the netdev 2.2 paper, §4.3 "QoS handling",
//! *Improved network efficiency*: "including queued VO packets at the head of aggregates
//! sent at a lower priority level ... Using current queue occupancy as a factor in
//! deciding when to do this is important, but information on the level of media
//! contention is also needed, as the more aggressive media contention parameters of the
//! VO priority is important in high-contention scenarios"). The paper names the two
//! inputs and leaves the rule open ("more experimentation is needed"); ours is:
//!
//! A station's VO frames wait for its next BE or VI A-MPDU (the *carrier*) and ride at
//! its head, sent with the carrier's EDCA parameters, instead of contending for a VO TXOP
//! of their own, when all of these hold:
//!
//! 1. **a carrier is coming**: the station has BE or VI frames queued at the AP;
//! 2. **occupancy**: the station's VO queue holds at most `max_vo_frames` frames. A
//!    sparse voice flow holds one or two; a VO queue longer than that is traffic that
//!    fills TXOPs of its own and gains nothing from riding in a BE aggregate;
//! 3. **contention**: at most `max_contenders` stations were heard transmitting in the
//!    last `contention_window`. VO's EDCA parameters (AIFSN 2, CWmin 3 against BE's 3
//!    and 15, IEEE 802.11-2020 Table 9-155) win the medium sooner the more stations
//!    contend; with few contenders the BE access is nearly as quick and the VO TXOP's
//!    fixed overhead (contention, preamble, BlockAck) is what the combination saves;
//! 4. **wait**: a VO frame held for a carrier waits at most `max_wait`; then its VO TXOP
//!    goes as usual.
//!
//! Defaults: `max_vo_frames` 2 (a 20 ms VoIP call holds one frame, two when a frame
//! arrives while the previous still waits); `max_contenders` 4 (the seed's own
//! experiments had three and four stations); `contention_window` 100 ms (a station's
//! TCP ACKs or voice frames, 20 ms apart, are heard several times within it);
//! `max_wait` 10 ms, half a 20 ms voice packet interval, so that a call's frames never
//! queue behind one another and the added one-way delay stays well inside ITU-T G.114's
//! 150 ms budget.
//!
//! An A-MPDU with MPDUs of more than one TID is an **802.11ax** mechanism: the
//! multi-TID A-MPDU, whose recipient acknowledges each TID's MPDUs in its own BlockAck
//! bitmap of a Multi-STA BlockAck (IEEE 802.11ax-2021 26.6.3, multi-TID A-MPDU
//! operation, between HE stations that both advertise multi-TID aggregation support).
//! Before HE, an HT or VHT A-MPDU under an immediate BlockAck agreement carries QoS Data
//! MPDUs of one TID (IEEE 802.11-2020 9.7.3, A-MPDU contents). The seed's proposal
//! needs the former; the simulator models it as such: per-TID sequence numbers,
//! BlockAck windows, retries and reordering, the whole PPDU sent with the carrier's EDCA
//! parameters. (The clause numbers are those of the standards' tables of contents; the
//! longer Multi-STA BlockAck response is not modelled: the response is timed as a
//! Compressed BlockAck, a few µs short.) This module is the rule only; no clock, no I/O.

use crate::time::Duration;
use core::fmt;

/// The rule's parameters; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QosAggregateParams {
    /// A station's VO frames ride in a carrier only while its VO queue holds at most
    /// this many; also the most VO frames one carrier takes.
    pub max_vo_frames: u16,
    /// Combine only while at most this many stations were heard transmitting within
    /// `contention_window`.
    pub max_contenders: u32,
    /// How far back a station heard counts as contending.
    pub contention_window: Duration,
    /// The longest a VO frame waits for a carrier before it goes in its own VO TXOP.
    pub max_wait: Duration,
}

impl QosAggregateParams {
    /// Longest `max_wait` accepted: a voice frame held longer is past any call's budget.
    pub const MAX_WAIT: Duration = Duration::from_millis(150);
    /// Longest `contention_window` accepted.
    pub const MAX_CONTENTION_WINDOW: Duration = Duration::from_secs(10);
    /// Most VO frames one carrier takes (a BlockAck window's worth).
    pub const MAX_VO_FRAMES: u16 = 64;

    /// `max_vo_frames` in 1..=64, `contention_window` in (0, 10 s], `max_wait` in
    /// (0, 150 ms].
    pub fn validate(&self) -> Result<(), QosAggregateError> {
        if self.max_vo_frames == 0 || self.max_vo_frames > Self::MAX_VO_FRAMES {
            return Err(QosAggregateError::MaxVoFrames(self.max_vo_frames));
        }
        if self.contention_window.is_zero() || self.contention_window > Self::MAX_CONTENTION_WINDOW
        {
            return Err(QosAggregateError::ContentionWindow(self.contention_window));
        }
        if self.max_wait.is_zero() || self.max_wait > Self::MAX_WAIT {
            return Err(QosAggregateError::MaxWait(self.max_wait));
        }
        Ok(())
    }

    /// Whether a station's queued VO frames may ride in its next carrier: conditions 2
    /// and 3 of the rule (the caller knows whether a carrier is coming, condition 1).
    pub fn decide(&self, vo_queued: u32, contenders: u32) -> QosDecision {
        if vo_queued > u32::from(self.max_vo_frames) {
            QosDecision::OwnTxop(OwnTxopReason::Occupancy)
        } else if contenders > self.max_contenders {
            QosDecision::OwnTxop(OwnTxopReason::Contention)
        } else {
            QosDecision::Combine
        }
    }
}

impl Default for QosAggregateParams {
    fn default() -> Self {
        QosAggregateParams {
            max_vo_frames: 2,
            max_contenders: 4,
            contention_window: Duration::from_millis(100),
            max_wait: Duration::from_millis(10),
        }
    }
}

/// What the rule says of a station's queued VO frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QosDecision {
    /// They wait for the station's next BE/VI A-MPDU and ride at its head.
    Combine,
    /// They go in a VO TXOP of their own.
    OwnTxop(OwnTxopReason),
}

/// Why VO frames went in their own TXOP although a carrier was coming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnTxopReason {
    /// The VO queue held more than `max_vo_frames`.
    Occupancy,
    /// More than `max_contenders` stations contend.
    Contention,
    /// The head VO frame waited `max_wait` for a carrier.
    Waited,
}

/// Why [`QosAggregateParams`] were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QosAggregateError {
    MaxVoFrames(u16),
    ContentionWindow(Duration),
    MaxWait(Duration),
}

impl fmt::Display for QosAggregateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QosAggregateError::MaxVoFrames(n) => write!(
                f,
                "max_vo_frames must be 1 to {}, got {n}",
                QosAggregateParams::MAX_VO_FRAMES
            ),
            QosAggregateError::ContentionWindow(d) => write!(
                f,
                "contention_window must be above 0 and at most {}, got {d}",
                QosAggregateParams::MAX_CONTENTION_WINDOW
            ),
            QosAggregateError::MaxWait(d) => write!(
                f,
                "max_wait must be above 0 and at most {}, got {d}",
                QosAggregateParams::MAX_WAIT
            ),
        }
    }
}

/// What the rule did. Counters only grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QosAggregateStats {
    /// BE/VI A-MPDUs that carried VO frames at their head.
    pub combined_aggregates: u64,
    /// VO frames sent in those aggregates (retries of failed ones go in VO TXOPs).
    pub vo_frames_combined: u64,
    /// VO TXOPs saved: at least one per combined aggregate (the frames it carried would
    /// have needed at least one PPDU of their own), so equal to `combined_aggregates`.
    pub vo_txops_saved: u64,
    /// Times the rule sent VO frames their own TXOP although a carrier was coming,
    /// because the VO queue was too long.
    pub own_txop_occupancy: u64,
    /// ... because too many stations contended.
    pub own_txop_contention: u64,
    /// ... because the head VO frame had waited `max_wait`.
    pub own_txop_waited: u64,
}

/// The rule with its statistics, one per radio.
#[derive(Clone, Debug)]
pub struct QosAggregate {
    params: QosAggregateParams,
    stats: QosAggregateStats,
}

impl QosAggregate {
    /// The rule with `params` (validate them first: [`QosAggregateParams::validate`]).
    pub fn new(params: QosAggregateParams) -> QosAggregate {
        debug_assert!(params.validate().is_ok(), "{params:?}");
        QosAggregate {
            params,
            stats: QosAggregateStats::default(),
        }
    }

    pub fn params(&self) -> &QosAggregateParams {
        &self.params
    }

    pub fn stats(&self) -> &QosAggregateStats {
        &self.stats
    }

    /// Whether a station's VO frames, `vo_queued` of them, the oldest held `waited`
    /// for a carrier so far, keep waiting for one when `contenders` stations contend
    /// and a carrier is coming. A refusal is counted by its reason.
    pub fn hold(&mut self, vo_queued: u32, contenders: u32, waited: Duration) -> bool {
        let decision = match self.params.decide(vo_queued, contenders) {
            QosDecision::Combine if waited >= self.params.max_wait => {
                QosDecision::OwnTxop(OwnTxopReason::Waited)
            }
            d => d,
        };
        match decision {
            QosDecision::Combine => true,
            QosDecision::OwnTxop(why) => {
                let counter = match why {
                    OwnTxopReason::Occupancy => &mut self.stats.own_txop_occupancy,
                    OwnTxopReason::Contention => &mut self.stats.own_txop_contention,
                    OwnTxopReason::Waited => &mut self.stats.own_txop_waited,
                };
                *counter += 1;
                false
            }
        }
    }

    /// A wait for a carrier reached `max_wait` (found by the caller's timer rather than
    /// by [`hold`](Self::hold)): counted as such.
    pub fn waited(&mut self) {
        self.stats.own_txop_waited += 1;
    }

    /// How many of a station's `vo_queued` VO frames its carrier, about to be built,
    /// takes at its head (0: none) when `contenders` stations contend: all of them up
    /// to `max_vo_frames` when the rule allows.
    pub fn to_carry(&self, vo_queued: u32, contenders: u32) -> u32 {
        match self.params.decide(vo_queued, contenders) {
            QosDecision::Combine => vo_queued.min(u32::from(self.params.max_vo_frames)),
            QosDecision::OwnTxop(_) => 0,
        }
    }

    /// A carrier was built with `vo_frames` VO frames at its head.
    pub fn carried(&mut self, vo_frames: u32) {
        if vo_frames == 0 {
            return;
        }
        self.stats.combined_aggregates += 1;
        self.stats.vo_txops_saved += 1;
        self.stats.vo_frames_combined += u64::from(vo_frames);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_sparse_vo_queue_rides_under_low_contention() {
        let p = QosAggregateParams::default();
        assert_eq!(p.decide(1, 0), QosDecision::Combine);
        assert_eq!(p.decide(2, 4), QosDecision::Combine);
    }

    #[test]
    fn a_long_vo_queue_keeps_its_own_txop() {
        let p = QosAggregateParams::default();
        assert_eq!(
            p.decide(3, 1),
            QosDecision::OwnTxop(OwnTxopReason::Occupancy)
        );
    }

    #[test]
    fn high_contention_keeps_vo_access() {
        let p = QosAggregateParams::default();
        assert_eq!(
            p.decide(1, 5),
            QosDecision::OwnTxop(OwnTxopReason::Contention)
        );
        // Occupancy is judged first.
        assert_eq!(
            p.decide(9, 9),
            QosDecision::OwnTxop(OwnTxopReason::Occupancy)
        );
    }

    #[test]
    fn holding_ends_at_max_wait_and_refusals_are_counted() {
        let mut q = QosAggregate::new(QosAggregateParams::default());
        assert!(q.hold(1, 2, Duration::ZERO));
        assert!(q.hold(1, 2, MS * 9));
        assert!(!q.hold(1, 2, MS * 10), "waited max_wait");
        assert!(!q.hold(3, 2, Duration::ZERO));
        assert!(!q.hold(1, 8, Duration::ZERO));
        let s = q.stats();
        assert_eq!(
            (
                s.own_txop_waited,
                s.own_txop_occupancy,
                s.own_txop_contention
            ),
            (1, 1, 1)
        );
    }

    #[test]
    fn a_carrier_takes_at_most_max_vo_frames() {
        let mut q = QosAggregate::new(QosAggregateParams {
            max_vo_frames: 3,
            ..QosAggregateParams::default()
        });
        assert_eq!(q.to_carry(0, 0), 0);
        assert_eq!(q.to_carry(2, 0), 2);
        assert_eq!(q.to_carry(3, 4), 3);
        assert_eq!(q.to_carry(4, 0), 0, "too long a VO queue");
        assert_eq!(q.to_carry(1, 5), 0, "too much contention");
        q.carried(2);
        q.carried(0);
        q.carried(1);
        let s = q.stats();
        assert_eq!(
            (
                s.combined_aggregates,
                s.vo_frames_combined,
                s.vo_txops_saved
            ),
            (2, 3, 2)
        );
    }

    #[test]
    fn validation() {
        let ok = QosAggregateParams::default();
        assert_eq!(ok.validate(), Ok(()));
        for bad in [
            QosAggregateParams {
                max_vo_frames: 0,
                ..ok
            },
            QosAggregateParams {
                max_vo_frames: 65,
                ..ok
            },
            QosAggregateParams {
                contention_window: Duration::ZERO,
                ..ok
            },
            QosAggregateParams {
                max_wait: Duration::ZERO,
                ..ok
            },
            QosAggregateParams {
                max_wait: MS * 151,
                ..ok
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
