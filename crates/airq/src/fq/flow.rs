//! A flow queue (Linux `struct fq_flow`): a FIFO of packets and the tin it is bound to
//! while it is on one of that tin's lists. Its DRR credit and list link live apart, in
//! [`Drr`](super::list::Drr), and its CoDel state in a parallel array, as mac80211 keeps
//! `local->cvars` apart from the flows: enqueue then touches one small record per packet.

use super::ids::TinId;
use alloc::collections::VecDeque;

/// [`Flow::tin`] of a flow bound to no tin.
const UNBOUND: u32 = u32::MAX;

pub(super) struct Flow<P> {
    pub(super) queue: VecDeque<P>,
    /// 64 bits (Linux's `fq_flow.backlog` is a `u32`): a flow may hold every packet the
    /// limits allow, up to `limit_packets` of up to [`MAX_PACKET_BYTES`] each, which a
    /// `u32` cannot count (three 1.5 GB packets wrapped it, and the fattest-flow drop
    /// then chose the wrong flow).
    ///
    /// [`MAX_PACKET_BYTES`]: super::MAX_PACKET_BYTES
    pub(super) backlog_bytes: u64,
    /// Slot of the tin this flow is bound to, or [`UNBOUND`]. A flow is bound exactly
    /// while it is on the tin's new or old list (Linux: `flow->tin` set at enqueue,
    /// cleared when the flow leaves the lists). A sentinel rather than an `Option` keeps
    /// the record at 48 bytes.
    tin: u32,
    /// Whether the backlog changed since the fattest-flow tree last read it (`fattest.rs`):
    /// kept here, in padding of the record every packet touches, so that marking a change
    /// costs a byte test and no extra cache line.
    pub(super) fattest_dirty: bool,
}

impl<P> Flow<P> {
    pub(super) fn new() -> Self {
        Flow {
            queue: VecDeque::new(),
            backlog_bytes: 0,
            tin: UNBOUND,
            fattest_dirty: false,
        }
    }

    /// Slot of the tin the flow is bound to.
    #[inline]
    pub(super) fn tin(&self) -> Option<usize> {
        (self.tin != UNBOUND).then_some(self.tin as usize)
    }

    #[inline]
    pub(super) fn bind(&mut self, slot: usize) {
        debug_assert!(slot < UNBOUND as usize);
        self.tin = slot as u32;
    }

    #[inline]
    pub(super) fn unbind(&mut self) {
        self.tin = UNBOUND;
    }
}

/// A snapshot of one flow queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowInfo {
    /// The tin the flow is bound to, if any.
    pub tin: Option<TinId>,
    pub backlog_bytes: u64,
    pub backlog_packets: u32,
    /// Current DRR deficit (bytes or frames).
    pub deficit: i32,
    /// Whether CoDel is in its dropping state on this flow.
    pub codel_dropping: bool,
}
