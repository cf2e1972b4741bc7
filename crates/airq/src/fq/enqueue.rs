//! Enqueue: classify to a flow queue, bind it to the tin, account, and enforce the
//! global limits by dropping from the fattest flow (seed algorithm 1; Linux
//! `fq_flow_classify`, `fq_tin_enqueue`, `fq_find_fattest_flow`, `fq_flow_drop`).

use super::backlog::{Backlog, Levels};
use super::drop::{DropReason, Dropped};
use super::ids::{FlowId, TinId};
use super::{EnqueueError, Fq, FqError, MAX_PACKET_BYTES};
use crate::packet::Packet;
use crate::time::Instant;

/// Most packets one drop round takes from the fattest flow (Linux `fq_flow_drop`).
const DROP_BATCH_MAX: usize = 32;

impl<P: Packet> Fq<P> {
    /// Queues `packet` in `tin` at time `now`. If that takes the structure over its
    /// packet or memory limit, packets are head-dropped from the globally fattest flow —
    /// possibly of another tin, possibly including this packet's own flow — and handed to
    /// `on_drop`. An unknown tin hands the packet back in the error.
    pub fn enqueue(
        &mut self,
        tin: TinId,
        mut packet: P,
        now: Instant,
        mut on_drop: impl FnMut(Dropped<P>),
    ) -> Result<(), EnqueueError<P>> {
        let slot = match self.slot(tin) {
            Ok(slot) => slot,
            Err(error) => return Err(EnqueueError { error, packet }),
        };
        let len_bytes = packet.len_bytes();
        if len_bytes > MAX_PACKET_BYTES {
            let error = FqError::PacketTooLong(len_bytes);
            return Err(EnqueueError { error, packet });
        }
        let id = self.classify(slot, packet.flow_hash());
        packet.set_enqueue_time(now);
        let quantum = self.tin_quantum(slot);

        let Fq {
            flows,
            drr,
            tins,
            backlog,
            backlogged,
            ..
        } = self;
        let t = &mut tins[slot];
        let flow = &mut flows[id.index()];
        if flow.tin().is_none() {
            // Not on a list: bind it and start it as a new flow with a fresh quantum.
            flow.bind(slot);
            t.new_flows.push_back(drr, id);
            drr[id.index()].deficit = quantum.credit();
        }
        let mut levels = Levels {
            flow: id,
            flow_bytes: &mut flow.backlog_bytes,
            flow_dirty: &mut flow.fattest_dirty,
            tin: &mut t.backlog,
            total: backlog,
            backlogged,
        };
        levels.add(Backlog::of(&packet), flow.queue.is_empty());
        flow.queue.push_back(packet);

        self.enforce_limits(&mut on_drop);
        Ok(())
    }

    /// Picks the flow queue for a packet of `slot` with `hash`: its pool queue, unless
    /// that is bound to another tin, then the tin's default queue (a collision).
    fn classify(&mut self, slot: usize, hash: u32) -> FlowId {
        let pool = self.flow_for_hash(hash);
        let mut id = pool;
        if matches!(self.flows[pool.index()].tin(), Some(owner) if owner != slot) {
            id = self.default_flow_of(slot);
            self.tins[slot].stats.collisions += 1;
            self.stats.collisions += 1;
        }
        if self.flows[id.index()].tin().is_none() {
            self.tins[slot].stats.flows += 1;
        }
        id
    }

    /// Drops from the fattest flow until both limits hold (Linux ≥ 5.12).
    fn enforce_limits(&mut self, on_drop: &mut impl FnMut(Dropped<P>)) {
        let over_memory = |fq: &Self| fq.backlog.truesize_bytes > fq.params.memory_limit_bytes;
        let mut oom = over_memory(self);
        while self.backlog.packets > self.params.limit_packets || oom {
            let Some(id) = self.fattest_flow() else {
                return;
            };
            let reason = if oom {
                DropReason::Overmemory
            } else {
                DropReason::Overlimit
            };
            let dropped = self.drop_head_batch(id, reason, on_drop);
            if dropped == 0 {
                return;
            }
            let slot = self.flows[id.index()]
                .tin()
                .expect("a backlogged flow is bound");
            let tin_stats = &mut self.tins[slot].stats;
            tin_stats.overlimit += 1;
            tin_stats.limit_drops += dropped as u64;
            self.stats.overlimit += 1;
            self.stats.limit_drops += dropped as u64;
            if oom {
                tin_stats.overmemory += 1;
                self.stats.overmemory += 1;
                oom = over_memory(self);
            }
        }
    }

    /// The flow with the largest byte backlog over all tins; on a tie the lowest index
    /// (pool flows before default flows, as Linux scans them). A flow holding only
    /// zero-length packets still counts, so the limit can always be restored. Found as
    /// [`FqParams::fattest`](super::FqParams::fattest) says (`fattest.rs`).
    fn fattest_flow(&mut self) -> Option<FlowId> {
        self.backlogged
            .fattest(&mut self.flows)
            .map(|i| FlowId(i as u32))
    }

    /// Head-drops min(32, half its packets), at least 1, from a flow (Linux `fq_flow_drop`).
    fn drop_head_batch(
        &mut self,
        id: FlowId,
        reason: DropReason,
        on_drop: &mut impl FnMut(Dropped<P>),
    ) -> usize {
        let Some(slot) = self.flows[id.index()].tin() else {
            return 0;
        };
        let (queue, mut levels, tin) = self.flow_parts(id, slot);
        let batch = (queue.len() / 2).clamp(1, DROP_BATCH_MAX).min(queue.len());
        for _ in 0..batch {
            let packet = queue.pop_front().expect("batch is within the queue");
            levels.remove(Backlog::of(&packet), queue.is_empty());
            on_drop(Dropped {
                packet,
                reason,
                tin,
                flow: id,
            });
        }
        batch
    }
}
