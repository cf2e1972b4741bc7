//! A flow queue (Linux `struct fq_flow`): a FIFO of packets with its CoDel state, and
//! the tin it is bound to while it is on one of that tin's lists. Its DRR credit and list
//! link live apart, in [`Drr`](super::list::Drr).

use super::ids::TinId;
use crate::codel::CodelState;
use alloc::collections::VecDeque;

pub(super) struct Flow<P> {
    pub(super) queue: VecDeque<P>,
    pub(super) backlog_bytes: u32,
    /// Slot of the tin this flow is bound to. A flow is bound exactly while it is on the
    /// tin's new or old list (Linux: `flow->tin` set at enqueue, cleared when the flow
    /// leaves the lists).
    pub(super) tin: Option<u32>,
    pub(super) codel: CodelState,
}

impl<P> Flow<P> {
    pub(super) fn new() -> Self {
        Flow {
            queue: VecDeque::new(),
            backlog_bytes: 0,
            tin: None,
            codel: CodelState::default(),
        }
    }
}

/// A snapshot of one flow queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowInfo {
    /// The tin the flow is bound to, if any.
    pub tin: Option<TinId>,
    pub backlog_bytes: u32,
    pub backlog_packets: u32,
    /// Current DRR deficit (bytes or frames).
    pub deficit: i32,
    /// Whether CoDel is in its dropping state on this flow.
    pub codel_dropping: bool,
}
