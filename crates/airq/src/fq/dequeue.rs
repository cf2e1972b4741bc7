//! Dequeue from one tin: DRR++ over its new and old flow lists with CoDel on each flow
//! queue (seed algorithm 2; Linux `fq_tin_dequeue` with mac80211's
//! `fq_tin_dequeue_func` running `codel_dequeue`).

use super::backlog::{FlowQueue, Levels};
use super::drop::{DropReason, Dropped};
use super::ids::TinId;
use super::{Fq, FqError};
use crate::packet::Packet;
use crate::time::Instant;

impl<P: Packet> Fq<P> {
    /// Dequeues the next packet of `tin` at time `now`, or `None` if the tin is empty.
    /// Packets CoDel drops on the way go to `on_drop`.
    ///
    /// New flows are served before old ones, so a sparse flow's packet leaves at once. A
    /// flow that has used its quantum gets another and moves to the tail of the old
    /// list. A new flow found empty passes once through the old list before it is
    /// released, so that a flow cannot starve the others by going idle and coming back
    /// new every round ("force a pass through old_flows to prevent starvation").
    pub fn dequeue(
        &mut self,
        tin: TinId,
        now: Instant,
        mut on_drop: impl FnMut(Dropped<P>),
    ) -> Result<Option<P>, FqError> {
        let slot = self.slot(tin)?;
        let quantum = self.tin_quantum(slot);
        let Fq {
            params,
            flows,
            codel,
            drr,
            tins,
            backlog,
            backlogged,
            stats,
            ..
        } = self;
        let t = &mut tins[slot];
        let cparams = t.codel.as_ref().unwrap_or(&params.codel);
        loop {
            let (id, from_new) = if let Some(id) = t.new_flows.front(drr) {
                if drr[id.index()].deficit <= 0 {
                    drr[id.index()].deficit += quantum.credit();
                    t.new_flows.pop_front(drr);
                    t.old_flows.push_back(drr, id);
                    continue;
                }
                (id, true)
            } else if let Some(id) = t.old_flows.rotate_to_credit(drr, quantum.credit()) {
                (id, false)
            } else {
                return Ok(None);
            };
            let flow = &mut flows[id.index()];
            let mut queue = FlowQueue {
                queue: &mut flow.queue,
                levels: Levels {
                    flow: id,
                    flow_bytes: &mut flow.backlog_bytes,
                    flow_dirty: &mut flow.fattest_dirty,
                    tin: &mut t.backlog,
                    total: &mut *backlog,
                    backlogged: &mut *backlogged,
                },
            };
            let packet =
                codel[id.index()].dequeue(cparams, &mut t.stats.codel, now, &mut queue, |packet| {
                    on_drop(Dropped {
                        packet,
                        reason: DropReason::Codel,
                        tin,
                        flow: id,
                    })
                });
            let Some(packet) = packet else {
                let list = if from_new {
                    &mut t.new_flows
                } else {
                    &mut t.old_flows
                };
                list.pop_front(drr);
                if from_new && !t.old_flows.is_empty() {
                    t.old_flows.push_back(drr, id);
                } else {
                    flow.unbind();
                }
                continue;
            };
            drr[id.index()].deficit -= quantum.cost(&packet);
            let len = u64::from(packet.len_bytes());
            t.stats.tx_bytes += len;
            t.stats.tx_packets += 1;
            stats.tx_bytes += len;
            stats.tx_packets += 1;
            return Ok(Some(packet));
        }
    }
}
