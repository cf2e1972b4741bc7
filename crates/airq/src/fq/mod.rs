//! The FQ-MAC queueing structure: FQ-CoDel per tin over one shared pool of flow queues
//! (Høiland-Jørgensen et al., "Ending the Anomaly", USENIX ATC 2017, algorithms 1–2;
//! Linux `include/net/fq.h`, `fq_impl.h` as used by `net/mac80211/tx.c`).
//!
//! One [`Fq`] serves a whole radio. A *tin* is one logical queue — in mac80211 one per
//! station and TID, plus one per interface for multicast. A packet's flow hash picks a
//! flow queue from the pool; the queue is bound to the packet's tin for as long as it is
//! active. If it is already bound to another tin (a hash collision), the packet goes to
//! its own tin's default (overflow) queue instead. Each tin dequeues with DRR++ over its
//! new and old flow lists, CoDel running on each flow queue. A global packet and memory
//! limit is enforced at enqueue by head-dropping from the globally fattest flow queue,
//! whatever tin it belongs to (Linux ≥ 5.12: up to min(32, half its packets), at least 1).
//!
//! Every packet not delivered is handed back as a [`Dropped`] with its [`DropReason`].
//!
//! # Contract
//!
//! What a caller must guarantee, per call; a call that breaks it gets an error value and
//! changes nothing — never a panic, a hang or a corrupted count (`tests.rs`
//! `contract_errors`, and the random driver of the integration tests):
//!
//! - [`Fq::new`], [`Fq::set_params`]: parameters within [`FqParams::validate`]'s ranges
//!   (flows 1 to [`FqParams::MAX_FLOWS`], packet limit 1 to
//!   [`FqParams::MAX_LIMIT_PACKETS`], memory limit above 0, quantum 1 to
//!   [`Quantum::MAX`], consistent CoDel); `set_params` keeps `flows` — else
//!   [`FqParamError`].
//! - Every call taking a [`TinId`] (`enqueue`, `dequeue`, `purge`, `filter`,
//!   `remove_tin`, `set_tin_quantum`, `has_queue`, `tin_stats`, `default_flow`,
//!   `tin_flows`): a tin [`Fq::add_tin`] returned and not removed since — else
//!   [`FqError::UnknownTin`] (ids carry their slot's generation: a removed tin's id never
//!   reaches the tin that reuses its slot).
//! - [`Fq::enqueue`]: a packet of at most [`MAX_PACKET_BYTES`] — else
//!   [`FqError::PacketTooLong`]; refused packets come back in the [`EnqueueError`]. Any
//!   `now`, flow hash and truesize are taken (time going backwards only shortens
//!   sojourns).
//! - [`Fq::set_tin_quantum`]: a quantum 1 to [`Quantum::MAX`] — else [`FqError::Param`].
//! - [`Fq::flow_info`]: a flow of the arena — else [`FqError::UnknownFlow`].
//!
//! Costs are bounded whatever the caller passes: `enqueue` O(1), plus when a limit drops
//! O(log flows) per flow whose backlog changed since the last drop (O(flows with
//! packets) under [`FattestSearch::Scan`]); `dequeue` O(flows of the tin) plus the packets CoDel drops —
//! a flow deep in debt is refilled in one step, not one quantum per turn (`list.rs`).
//! Tables are as long as the most tins alive at once (removed tins' slots are reused).

mod backlog;
mod bitmap;
mod dequeue;
mod drop;
mod enqueue;
mod fattest;
mod flow;
mod ids;
mod list;
mod params;
mod purge;
mod stats;
mod tin;

#[cfg(test)]
mod tests;

pub use drop::{DropReason, Dropped};
pub use flow::FlowInfo;
pub use ids::{FlowId, TinId};
pub use params::{FattestSearch, FqParamError, FqParams, Quantum, MAX_PACKET_BYTES};
pub use stats::{FqStats, TinStats};

use crate::codel::{CodelParams, CodelState, CodelStats};
use crate::packet::Packet;
use alloc::collections::VecDeque;
use alloc::vec::Vec;
use backlog::{Backlog, Levels};
use core::fmt;
use fattest::Backlogged;
use flow::Flow;
use list::Drr;
use tin::Tin;

/// An FQ-MAC structure for one radio. `P` is the caller's packet type.
pub struct Fq<P> {
    params: FqParams,
    /// The shared pool (`params.flows` queues), then one default flow per tin slot.
    flows: Vec<Flow<P>>,
    /// CoDel state of each flow, indexed like `flows` (mac80211's `local->cvars`).
    codel: Vec<CodelState>,
    /// DRR credit and list link of each flow, indexed like `flows`.
    drr: Vec<Drr>,
    tins: Vec<Tin>,
    /// Slots of removed tins, reused last-freed first.
    free_slots: Vec<u32>,
    /// Flows holding at least one packet, and the search for the fattest.
    backlogged: Backlogged,
    backlog: Backlog,
    /// Counters; backlog and codel fields are filled in when read.
    stats: FqStats,
    /// CoDel counters of removed tins, so global sums survive station departures.
    retired_codel: CodelStats,
}

/// A call outside the contract of [`Fq`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FqError {
    /// The tin does not exist (never created here, or removed).
    UnknownTin(TinId),
    /// The flow index is outside the arena.
    UnknownFlow(FlowId),
    /// Parameters out of range.
    Param(FqParamError),
    /// A packet longer than [`MAX_PACKET_BYTES`] (its [`Packet::len_bytes`]).
    PacketTooLong(u32),
}

impl fmt::Display for FqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FqError::UnknownTin(t) => write!(
                f,
                "{t} (generation {}) does not exist: never added, or removed",
                t.generation
            ),
            FqError::UnknownFlow(id) => write!(f, "{id} does not exist"),
            FqError::Param(e) => e.fmt(f),
            FqError::PacketTooLong(len) => write!(
                f,
                "a packet of {len} bytes is longer than the largest the queues take, {} bytes",
                MAX_PACKET_BYTES
            ),
        }
    }
}

impl From<FqParamError> for FqError {
    fn from(e: FqParamError) -> Self {
        FqError::Param(e)
    }
}

/// A packet refused by [`Fq::enqueue`], handed back with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnqueueError<P> {
    pub error: FqError,
    pub packet: P,
}

impl<P: Packet> Fq<P> {
    /// An empty structure with no tins.
    pub fn new(params: FqParams) -> Result<Self, FqParamError> {
        params.validate()?;
        let flows = (0..params.flows).map(|_| Flow::new()).collect();
        let drr = alloc::vec![Drr::default(); params.flows as usize];
        let codel = alloc::vec![CodelState::default(); params.flows as usize];
        Ok(Fq {
            params,
            flows,
            codel,
            drr,
            tins: Vec::new(),
            free_slots: Vec::new(),
            backlogged: Backlogged::new(params.flows as usize, params.fattest),
            backlog: Backlog::default(),
            stats: FqStats {
                max_flows: params.flows,
                ..FqStats::default()
            },
            retired_codel: CodelStats::default(),
        })
    }

    pub fn params(&self) -> &FqParams {
        &self.params
    }

    /// Changes limits, quantum and CoDel parameters at run time, as `iw phy … set txq`
    /// does. Lowered limits take effect at the next enqueue. The pool size cannot change.
    pub fn set_params(&mut self, params: FqParams) -> Result<(), FqParamError> {
        params.validate()?;
        if params.flows != self.params.flows {
            return Err(FqParamError::FlowsChanged {
                from: self.params.flows,
                to: params.flows,
            });
        }
        self.backlogged.set_search(params.fattest);
        self.params = params;
        Ok(())
    }

    /// Creates a tin (reusing a removed tin's slot if there is one).
    pub fn add_tin(&mut self) -> TinId {
        if let Some(index) = self.free_slots.pop() {
            let tin = &mut self.tins[index as usize];
            let generation = tin.generation;
            *tin = Tin::new();
            tin.generation = generation;
            return TinId { index, generation };
        }
        let index = self.tins.len() as u32;
        self.tins.push(Tin::new());
        self.flows.push(Flow::new());
        self.drr.push(Drr::default());
        self.codel.push(CodelState::default());
        self.backlogged.grow(self.flows.len());
        TinId {
            index,
            generation: 0,
        }
    }

    /// Removes a tin, handing back everything it held as [`DropReason::Purged`].
    pub fn remove_tin(
        &mut self,
        tin: TinId,
        on_drop: impl FnMut(Dropped<P>),
    ) -> Result<(), FqError> {
        self.purge(tin, on_drop)?;
        let t = &mut self.tins[tin.index()];
        self.retired_codel.accumulate(&t.stats.codel);
        t.live = false;
        t.generation = t.generation.wrapping_add(1);
        self.free_slots.push(tin.index);
        Ok(())
    }

    /// Overrides the quantum of one tin (`None` returns it to the structure's).
    pub fn set_tin_quantum(&mut self, tin: TinId, quantum: Option<Quantum>) -> Result<(), FqError> {
        let slot = self.slot(tin)?;
        if let Some(q) = quantum {
            FqParams {
                quantum: q,
                ..self.params
            }
            .validate()?;
        }
        self.tins[slot].quantum = quantum;
        Ok(())
    }

    /// Overrides the CoDel parameters of one tin's flows (`None` returns it to the
    /// structure's), as mac80211 did per station from 2016 to 2025
    /// (`sta_update_codel_params`; `fq_tin_dequeue_func` ran CoDel with the station's
    /// `cparams`). A flow keeps its CoDel state; the next dequeue judges it by these.
    pub fn set_tin_codel(&mut self, tin: TinId, codel: Option<CodelParams>) -> Result<(), FqError> {
        let slot = self.slot(tin)?;
        if let Some(c) = codel {
            FqParams {
                codel: c,
                ..self.params
            }
            .validate()?;
        }
        self.tins[slot].codel = codel;
        Ok(())
    }

    /// The CoDel parameters the tin's flows are judged by.
    pub fn tin_codel(&self, tin: TinId) -> Result<CodelParams, FqError> {
        Ok(self.tins[self.slot(tin)?]
            .codel
            .unwrap_or(self.params.codel))
    }

    /// Whether the tin holds packets (mac80211 `ieee80211_txq_has_queue`).
    pub fn has_queue(&self, tin: TinId) -> Result<bool, FqError> {
        Ok(self.tins[self.slot(tin)?].backlog.packets > 0)
    }

    /// The tin's statistics.
    pub fn tin_stats(&self, tin: TinId) -> Result<TinStats, FqError> {
        let t = &self.tins[self.slot(tin)?];
        Ok(TinStats {
            backlog_bytes: t.backlog.bytes,
            backlog_packets: t.backlog.packets,
            ..t.stats
        })
    }

    /// Statistics of the whole structure.
    pub fn stats(&self) -> FqStats {
        let mut codel = self.retired_codel;
        for t in self.tins.iter().filter(|t| t.live) {
            codel.accumulate(&t.stats.codel);
        }
        FqStats {
            backlog_bytes: self.backlog.bytes,
            backlog_packets: self.backlog.packets,
            memory_usage_bytes: self.backlog.truesize_bytes,
            codel,
            tins: (self.tins.len() - self.free_slots.len()) as u32,
            ..self.stats
        }
    }

    /// The tins that exist, in slot order.
    pub fn tins(&self) -> impl Iterator<Item = TinId> + '_ {
        self.tins
            .iter()
            .enumerate()
            .filter(|(_, t)| t.live)
            .map(|(i, _)| self.tin_id(i as u32))
    }

    /// The pool flow a hash maps to (Linux `fq_flow_idx`: `reciprocal_scale(hash, flows)`).
    pub fn flow_for_hash(&self, hash: u32) -> FlowId {
        FlowId(((u64::from(hash) * u64::from(self.params.flows)) >> 32) as u32)
    }

    /// The tin's default (overflow) flow.
    pub fn default_flow(&self, tin: TinId) -> Result<FlowId, FqError> {
        Ok(self.default_flow_of(self.slot(tin)?))
    }

    /// A snapshot of one flow queue.
    pub fn flow_info(&self, flow: FlowId) -> Result<FlowInfo, FqError> {
        let f = self
            .flows
            .get(flow.index())
            .ok_or(FqError::UnknownFlow(flow))?;
        Ok(FlowInfo {
            tin: f.tin().map(|slot| self.tin_id(slot as u32)),
            backlog_bytes: f.backlog_bytes,
            backlog_packets: f.queue.len() as u32,
            deficit: self.drr[flow.index()].deficit,
            codel_dropping: self.codel[flow.index()].dropping(),
        })
    }

    /// The flows on the tin's lists, new flows first, in scheduling order.
    pub fn tin_flows(&self, tin: TinId) -> Result<impl Iterator<Item = FlowId> + '_, FqError> {
        let t = &self.tins[self.slot(tin)?];
        Ok(t.new_flows
            .iter(&self.drr)
            .chain(t.old_flows.iter(&self.drr)))
    }

    /// The slot of a live tin, or an error naming it.
    fn slot(&self, tin: TinId) -> Result<usize, FqError> {
        match self.tins.get(tin.index()) {
            Some(t) if t.live && t.generation == tin.generation => Ok(tin.index()),
            _ => Err(FqError::UnknownTin(tin)),
        }
    }

    fn tin_id(&self, slot: u32) -> TinId {
        TinId {
            index: slot,
            generation: self.tins[slot as usize].generation,
        }
    }

    /// The queue of flow `id` of tin `slot`, borrowed together with the backlog levels
    /// its packets count in, and the tin's id: what removing packets needs.
    fn flow_parts(&mut self, id: FlowId, slot: usize) -> (&mut VecDeque<P>, Levels<'_>, TinId) {
        let tin = self.tin_id(slot as u32);
        let flow = &mut self.flows[id.index()];
        let t = &mut self.tins[slot];
        let levels = Levels {
            flow: id,
            flow_bytes: &mut flow.backlog_bytes,
            flow_dirty: &mut flow.fattest_dirty,
            tin: &mut t.backlog,
            total: &mut self.backlog,
            backlogged: &mut self.backlogged,
        };
        (&mut flow.queue, levels, tin)
    }

    /// The quantum DRR++ uses in tin `slot`: its override, or the structure's.
    fn tin_quantum(&self, slot: usize) -> Quantum {
        self.tins[slot].quantum.unwrap_or(self.params.quantum)
    }

    fn default_flow_of(&self, slot: usize) -> FlowId {
        FlowId(self.params.flows + slot as u32)
    }

    /// Checks the accounting at every level against what is actually queued, and the
    /// limits, panicking on the first mismatch. For tests and fuzzing: O(packets).
    pub fn assert_invariants(&self) {
        let mut total = Backlog::default();
        let mut per_tin = alloc::vec![Backlog::default(); self.tins.len()];
        for (i, f) in self.flows.iter().enumerate() {
            let mut b = Backlog::default();
            for p in &f.queue {
                b.add(Backlog::of(p));
            }
            assert_eq!(f.backlog_bytes, b.bytes, "flow {i} bytes");
            assert_eq!(
                !f.queue.is_empty(),
                self.backlogged.contains(i),
                "flow {i} bitmap"
            );
            if b.packets > 0 {
                let slot = f.tin().expect("a flow with packets is bound to a tin");
                per_tin[slot].add(b);
            }
            total.add(b);
        }
        let mut listed = alloc::vec![0u32; self.flows.len()];
        for (slot, t) in self.tins.iter().enumerate() {
            assert_eq!(t.backlog, per_tin[slot], "tin {slot} backlog");
            // Bounded walk: a cycle in the links would otherwise never end.
            let lists = t
                .new_flows
                .iter(&self.drr)
                .chain(t.old_flows.iter(&self.drr));
            for id in lists.take(self.flows.len() + 1) {
                assert_eq!(
                    self.flows[id.index()].tin(),
                    Some(slot),
                    "listed {id} bound"
                );
                listed[id.index()] += 1;
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            let expected = u32::from(f.tin().is_some());
            assert_eq!(
                listed[i], expected,
                "flow {i} bound exactly while on one list"
            );
        }
        assert_eq!(self.backlog, total, "global backlog");
        self.backlogged.assert_consistent(&self.flows);
        assert!(self.backlog.packets <= self.params.limit_packets);
        assert!(self.backlog.truesize_bytes <= self.params.memory_limit_bytes);
    }
}
