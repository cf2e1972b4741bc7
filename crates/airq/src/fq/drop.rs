//! Packets the queues did not deliver, handed back to the caller with the reason
//! (STYLE.md rule 4: never silently freed).

use super::ids::{FlowId, TinId};
use core::fmt;

/// Why a packet left the queues without being dequeued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// CoDel's control law dropped it at dequeue (RFC 8289).
    Codel,
    /// The global packet limit was exceeded; it was head-dropped from the globally
    /// fattest flow (Linux `fq_tin_enqueue` → `fq_flow_drop`).
    Overlimit,
    /// The global memory limit was exceeded; likewise from the fattest flow.
    Overmemory,
    /// Its tin was purged ([`Fq::purge`](super::Fq::purge), e.g. a station left).
    Purged,
    /// A filter the caller ran over its tin matched it ([`Fq::filter`](super::Fq::filter)).
    Filtered,
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DropReason::Codel => "codel",
            DropReason::Overlimit => "overlimit",
            DropReason::Overmemory => "overmemory",
            DropReason::Purged => "purged",
            DropReason::Filtered => "filtered",
        })
    }
}

/// A packet handed back undelivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped<P> {
    pub packet: P,
    pub reason: DropReason,
    /// The tin it was queued in.
    pub tin: TinId,
    /// The flow queue it was queued in.
    pub flow: FlowId,
}
