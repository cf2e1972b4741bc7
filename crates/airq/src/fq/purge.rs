//! Removing packets the caller no longer wants sent: a whole tin (a station leaving;
//! Linux `fq_tin_reset`) or those matching a predicate (Linux `fq_tin_filter`, used when
//! an AP_VLAN goes away).

use super::backlog::Backlog;
use super::drop::{DropReason, Dropped};
use super::ids::{FlowId, TinId};
use super::{Fq, FqError};
use crate::packet::Packet;

impl<P: Packet> Fq<P> {
    /// Removes every packet of `tin`, handing each back as [`DropReason::Purged`], and
    /// releases its flow queues. The tin stays usable.
    pub fn purge(
        &mut self,
        tin: TinId,
        mut on_drop: impl FnMut(Dropped<P>),
    ) -> Result<(), FqError> {
        let slot = self.slot(tin)?;
        loop {
            let t = &mut self.tins[slot];
            let drr = &mut self.drr;
            let Some(id) = t
                .new_flows
                .pop_front(drr)
                .or_else(|| t.old_flows.pop_front(drr))
            else {
                break;
            };
            self.remove_matching(slot, id, DropReason::Purged, |_| true, &mut on_drop);
            self.flows[id.index()].unbind();
        }
        debug_assert_eq!(self.tins[slot].backlog, Backlog::default());
        Ok(())
    }

    /// Removes the packets of `tin` for which `matches` is true, handing them back as
    /// [`DropReason::Filtered`]; the order of the others is kept.
    pub fn filter(
        &mut self,
        tin: TinId,
        mut matches: impl FnMut(&P) -> bool,
        mut on_drop: impl FnMut(Dropped<P>),
    ) -> Result<(), FqError> {
        let slot = self.slot(tin)?;
        // Filtering leaves the lists as they are (an emptied flow is released by the
        // next dequeue), so each list is walked by its links as it goes.
        for old in [false, true] {
            let list = |fq: &Self| {
                let t = &fq.tins[slot];
                if old {
                    t.old_flows
                } else {
                    t.new_flows
                }
            };
            let mut cur = list(self).front(&self.drr);
            while let Some(id) = cur {
                self.remove_matching(slot, id, DropReason::Filtered, &mut matches, &mut on_drop);
                cur = list(self).next_after(&self.drr, id);
            }
        }
        Ok(())
    }

    /// Takes the packets of one flow of `slot` that match out of the queue, in order.
    fn remove_matching(
        &mut self,
        slot: usize,
        id: FlowId,
        reason: DropReason,
        mut matches: impl FnMut(&P) -> bool,
        on_drop: &mut impl FnMut(Dropped<P>),
    ) {
        let (queue, mut levels, tin) = self.flow_parts(id, slot);
        // Rotate the queue once: keep what does not match, in order.
        for _ in 0..queue.len() {
            let packet = queue.pop_front().expect("rotating within the length");
            if matches(&packet) {
                levels.remove(Backlog::of(&packet), false);
                on_drop(Dropped {
                    packet,
                    reason,
                    tin,
                    flow: id,
                });
            } else {
                queue.push_back(packet);
            }
        }
        if queue.is_empty() {
            levels.remove(Backlog::default(), true);
        }
    }
}
