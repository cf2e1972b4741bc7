//! One flow bucket's admission state and its transitions: the flow's backlog, whether
//! its packets leave above target (CoDel's `first_above_time`, RFC 8289 §4.4, with
//! Linux `codel_should_drop`'s one-MTU rule), whether it is demoted, and since when it
//! has behaved. Pure functions of the bucket, the parameters and `now`; the counters
//! of the whole radio are the caller's ([`super::Admission`]).

use super::params::AdmissionParams;
use crate::time::{Duration, Instant};

/// What a call did to a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdmissionEvent {
    /// Its packets at VO/VI had left above target for a whole interval: from now on
    /// they go to the demotion class.
    Demoted,
    /// It went `promote_after` without a packet leaving above target: its packets keep
    /// their own class again.
    Promoted,
}

/// The state of one flow bucket (a `cake_flow`'s worth of bookkeeping for this purpose).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdmissionFlow {
    /// Packets admitted and not yet dequeued or dropped, whatever class they went to.
    pub backlog_packets: u32,
    pub backlog_bytes: u64,
    /// When its packets started leaving above target without a break (CoDel's
    /// `first_above_time`); `None` after one left below.
    pub first_above: Option<Instant>,
    /// When a packet of it last left above target.
    pub last_above: Option<Instant>,
    /// Its VO/VI packets go to the demotion class.
    pub demoted: bool,
    /// The last packet admitted was marked VO or VI: only such a flow is demoted (a
    /// bulk flow marked BE builds queues by right).
    pub priority: bool,
    /// Times it was demoted and promoted back; its packets moved to the demotion class.
    pub demotions: u64,
    pub promotions: u64,
    pub demoted_packets: u64,
}

impl AdmissionFlow {
    /// A packet of `len_bytes` joins the flow's backlog.
    pub(super) fn admit(&mut self, len_bytes: u32) {
        self.backlog_packets += 1;
        self.backlog_bytes += u64::from(len_bytes);
    }

    /// A packet of `len_bytes` left the backlog; false if the backlog held less (then
    /// it is emptied: the caller broke the contract).
    pub(super) fn leave(&mut self, len_bytes: u32) -> bool {
        let bytes = u64::from(len_bytes);
        if self.backlog_packets == 0 || self.backlog_bytes < bytes {
            self.backlog_packets = 0;
            self.backlog_bytes = 0;
            return false;
        }
        self.backlog_packets -= 1;
        self.backlog_bytes -= bytes;
        true
    }

    /// A packet of the flow left the queues after `sojourn` (its backlog already
    /// reduced): CoDel's test of a standing queue, then demotion or promotion.
    pub(super) fn judge(
        &mut self,
        sojourn: Duration,
        now: Instant,
        p: &AdmissionParams,
    ) -> Option<AdmissionEvent> {
        let above = sojourn >= p.target && self.backlog_bytes > u64::from(p.mtu_bytes);
        if !above {
            self.first_above = None;
            return self.try_promote(now, p);
        }
        self.last_above = Some(now);
        let since = *self.first_above.get_or_insert(now);
        if !self.demoted && self.priority && now.saturating_duration_since(since) >= p.interval {
            self.demoted = true;
            self.demotions += 1;
            return Some(AdmissionEvent::Demoted);
        }
        None
    }

    /// Promotes a demoted flow none of whose packets has left above target for
    /// `promote_after` (or ever, since the clock was reset).
    pub(super) fn try_promote(
        &mut self,
        now: Instant,
        p: &AdmissionParams,
    ) -> Option<AdmissionEvent> {
        if !self.demoted {
            return None;
        }
        let behaved = self
            .last_above
            .is_none_or(|t| now.saturating_duration_since(t) >= p.promote_after);
        if !behaved {
            return None;
        }
        self.demoted = false;
        self.promotions += 1;
        self.first_above = None;
        Some(AdmissionEvent::Promoted)
    }
}
