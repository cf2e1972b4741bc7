//! Parameters of soft admission control: what counts as a standing queue (CoDel's
//! `target` and `interval` with its one-MTU rule, RFC 8289 §4.3–4.4), how long a
//! demoted flow must go without one before it is promoted back, where it is demoted to,
//! and how many flow buckets the state is kept in.

use crate::ids::{Ac, Tid};
use crate::time::Duration;
use core::fmt;

/// Configuration of [`super::Admission`] for one radio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmissionParams {
    /// A flow's packet leaving the queues after at least this long is "above target"
    /// (if the flow still has more than `mtu_bytes` queued). Default 5 ms: CoDel's
    /// acceptable standing queue (RFC 8289 §4.3), a quarter of the 20 ms CoDel target
    /// mac80211 gives its FQ-MAC queues, so a flow is judged before its own CoDel drops.
    pub target: Duration,
    /// How long every packet of a flow must leave above target before it is demoted.
    /// Default 100 ms: CoDel's interval (RFC 8289 §4.4), the time over which the
    /// minimum sojourn tells a standing queue from a burst.
    pub interval: Duration,
    /// A flow with at most this many bytes still queued after a dequeue is never above
    /// target, whatever its sojourn (Linux `codel_should_drop`'s `backlog <= mtu`, RFC
    /// 8289 §4.4 "at least one MTU"): a sparse flow — one VoIP packet at a time —
    /// delayed by the medium has not built a queue of its own. Default 1514 (Ethernet
    /// `psched_mtu`).
    pub mtu_bytes: u32,
    /// A demoted flow is promoted back once none of its packets has left above target
    /// for this long (checked at its next packet). Default 1 s, ten intervals: our
    /// choice, long enough that a bulk flow whose queue empties after a loss is not
    /// promoted between two of its own backoffs; the seed gives no figure.
    pub promote_after: Duration,
    /// Where a demoted flow's packets go: [`Ac::Be`] (TID 0) or [`Ac::Bk`] (TID 1).
    /// Default BE: seed 000 §4.3, "dynamically demoted to best effort (or even
    /// background)".
    pub demote_to: Ac,
    /// Buckets the flows are hashed into (`reciprocal_scale(hash, flows)`, as Linux's
    /// `fq_flow_idx`); flows that collide share one state. Default 1024, sch_cake's
    /// `CAKE_QUEUES` per tin and fq_codel's flow count.
    pub flows: u32,
}

impl Default for AdmissionParams {
    fn default() -> Self {
        AdmissionParams {
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
            mtu_bytes: 1514,
            promote_after: Duration::from_secs(1),
            demote_to: Ac::Be,
            flows: 1024,
        }
    }
}

impl AdmissionParams {
    /// Most flow buckets: 2^20 (tens of MB of state).
    pub const MAX_FLOWS: u32 = 1 << 20;

    /// Every field in range: `target`, `interval` and `promote_after` above zero,
    /// `demote_to` BE or BK, `flows` 1 to [`Self::MAX_FLOWS`].
    pub fn validate(&self) -> Result<(), AdmissionParamsError> {
        let err = |field, reason| Err(AdmissionParamsError { field, reason });
        if self.target.is_zero() {
            return err("target", "must be above zero");
        }
        if self.interval.is_zero() {
            return err("interval", "must be above zero");
        }
        if self.promote_after.is_zero() {
            return err("promote_after", "must be above zero");
        }
        if !matches!(self.demote_to, Ac::Be | Ac::Bk) {
            return err("demote_to", "must be BE or BK");
        }
        if self.flows == 0 || self.flows > Self::MAX_FLOWS {
            return err("flows", "must be 1 to 2^20");
        }
        Ok(())
    }

    /// The TID a demoted packet is given: the lower TID of `demote_to` (802.1D user
    /// priority 0 for BE, 1 for BK; IEEE 802.11-2020 Table 10-1).
    pub const fn demoted_tid(&self) -> Tid {
        let up = match self.demote_to {
            Ac::Bk => 1,
            _ => 0,
        };
        match Tid::new(up) {
            Some(tid) => tid,
            None => unreachable!(),
        }
    }
}

/// A parameter out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdmissionParamsError {
    pub field: &'static str,
    pub reason: &'static str,
}

impl fmt::Display for AdmissionParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "admission {} {}", self.field, self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_each_bad_field_is_named() {
        let p = AdmissionParams::default();
        assert_eq!(p.validate(), Ok(()));
        assert_eq!(p.demoted_tid(), Tid::new(0).unwrap());
        let bk = AdmissionParams {
            demote_to: Ac::Bk,
            ..p
        };
        assert_eq!(bk.demoted_tid().ac(), Ac::Bk);
        let bad = [
            (
                AdmissionParams {
                    target: Duration::ZERO,
                    ..p
                },
                "target",
            ),
            (
                AdmissionParams {
                    interval: Duration::ZERO,
                    ..p
                },
                "interval",
            ),
            (
                AdmissionParams {
                    promote_after: Duration::ZERO,
                    ..p
                },
                "promote_after",
            ),
            (
                AdmissionParams {
                    demote_to: Ac::Vi,
                    ..p
                },
                "demote_to",
            ),
            (AdmissionParams { flows: 0, ..p }, "flows"),
            (
                AdmissionParams {
                    flows: AdmissionParams::MAX_FLOWS + 1,
                    ..p
                },
                "flows",
            ),
        ];
        for (params, field) in bad {
            assert_eq!(params.validate().unwrap_err().field, field);
        }
    }
}
