//! Backlog accounting at every level — flow, tin, whole structure — in one place, as
//! Linux's `__fq_adjust_removal` (STYLE.md: one helper does backlog accounting at every
//! level, and asserts it).

use super::fattest::Backlogged;
use super::ids::FlowId;
use crate::codel::CodelQueue;
use crate::packet::Packet;
use alloc::collections::VecDeque;

/// What is queued at one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Backlog {
    pub(super) packets: u32,
    pub(super) bytes: u64,
    /// Memory held, as [`Packet::truesize_bytes`].
    pub(super) truesize_bytes: u64,
}

impl Backlog {
    pub(super) fn of<P: Packet>(packet: &P) -> Self {
        Backlog {
            packets: 1,
            bytes: u64::from(packet.len_bytes()),
            truesize_bytes: u64::from(packet.truesize_bytes()),
        }
    }

    pub(super) fn add(&mut self, amount: Backlog) {
        self.packets += amount.packets;
        self.bytes += amount.bytes;
        self.truesize_bytes += amount.truesize_bytes;
    }

    fn remove(&mut self, amount: Backlog) {
        debug_assert!(
            self.packets >= amount.packets
                && self.bytes >= amount.bytes
                && self.truesize_bytes >= amount.truesize_bytes,
            "backlog underflow: {self:?} - {amount:?}"
        );
        self.packets -= amount.packets;
        self.bytes -= amount.bytes;
        self.truesize_bytes -= amount.truesize_bytes;
    }
}

/// The backlogs a flow's packets count in, borrowed together so that packets enter
/// and leave every level at once.
pub(super) struct Levels<'a> {
    pub(super) flow: FlowId,
    pub(super) flow_bytes: &'a mut u64,
    /// The flow's `fattest_dirty` flag (`fattest.rs`).
    pub(super) flow_dirty: &'a mut bool,
    pub(super) tin: &'a mut Backlog,
    pub(super) total: &'a mut Backlog,
    pub(super) backlogged: &'a mut Backlogged,
}

impl Levels<'_> {
    /// Counts `amount` in; `was_empty` says whether the flow held no packet before.
    #[inline]
    pub(super) fn add(&mut self, amount: Backlog, was_empty: bool) {
        *self.flow_bytes += amount.bytes;
        self.tin.add(amount);
        self.total.add(amount);
        if was_empty {
            self.backlogged.fill(self.flow.index());
        }
        self.backlogged.mark(self.flow.index(), self.flow_dirty);
    }

    /// Counts `amount` out; `now_empty` says whether the flow has no packet left.
    #[inline]
    pub(super) fn remove(&mut self, amount: Backlog, now_empty: bool) {
        debug_assert!(*self.flow_bytes >= amount.bytes);
        *self.flow_bytes -= amount.bytes;
        self.tin.remove(amount);
        self.total.remove(amount);
        if now_empty {
            debug_assert_eq!(*self.flow_bytes, 0, "{} empty with bytes left", self.flow);
            self.backlogged.empty(self.flow.index());
        }
        self.backlogged.mark(self.flow.index(), self.flow_dirty);
    }
}

/// A flow queue as CoDel sees it: dequeuing from it updates every level.
pub(super) struct FlowQueue<'a, P> {
    pub(super) queue: &'a mut VecDeque<P>,
    pub(super) levels: Levels<'a>,
}

impl<P: Packet> CodelQueue<P> for FlowQueue<'_, P> {
    // Always: left to itself the compiler stopped inlining it into CoDel's dequeue once
    // the fattest-flow mark was added (+40 instructions a packet in `benches/fq.rs`).
    #[inline(always)]
    fn dequeue(&mut self) -> Option<P> {
        let packet = self.queue.pop_front()?;
        self.levels
            .remove(Backlog::of(&packet), self.queue.is_empty());
        Some(packet)
    }

    fn backlog_bytes(&self) -> u64 {
        *self.levels.flow_bytes
    }
}
