//! Identifiers of tins and flow queues.
//!
//! Flows are indices into one arena (STYLE.md rule 4): the shared pool first, then one
//! default (overflow) flow per tin slot. A [`TinId`] carries the generation of its slot,
//! so an identifier kept after [`Fq::remove_tin`](super::Fq::remove_tin) is refused
//! rather than silently reaching the slot's next tin.

use core::fmt;

/// A tin: one logical queue (in mac80211, one station × TID, or one interface's
/// multicast queue), created by [`Fq::add_tin`](super::Fq::add_tin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TinId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl TinId {
    /// The slot index, dense from 0: usable to index the caller's own per-tin tables.
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Display for TinId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tin {}", self.index)
    }
}

/// A flow queue: an index into the pool (below `flows`) or a tin's default flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlowId(pub(crate) u32);

impl FlowId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for FlowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "flow {}", self.0)
    }
}
