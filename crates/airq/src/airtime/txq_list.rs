//! The list of scheduled TXQs of one access category (mac80211 `local->active_txqs[ac]`),
//! linked through the TXQ arena by index.
//!
//! Doubly linked, so that a TXQ can be unlinked from anywhere (`may_transmit`, a station
//! leaving) in O(1); and circular with a head index, so that the move `next_txq` makes
//! most often — the head, refilled, to the tail (several times per decision with a
//! 256 µs weight against millisecond aggregates) — is one store.
//!
//! With groups or station-first scheduling the same list links other nodes too (groups,
//! stations; [`Node`](super::node::Node)), through whichever arena holds their links:
//! the list is generic over [`LinkArena`]. A TXQ's entry is its index, so a list of TXQs
//! alone is the same in both uses.

use super::txq::{Txq, TxqId};

pub(super) const NIL: u32 = u32::MAX;

/// Where the links of a list's entries live: the TXQ arena, or (in a hierarchy) the TXQ,
/// station and group arenas together.
pub(super) trait LinkArena {
    fn links(&self, entry: u32) -> Links;
}

/// An arena whose links a list may change.
pub(super) trait LinkArenaMut: LinkArena {
    fn links_mut(&mut self, entry: u32) -> &mut Links;
}

impl LinkArena for [Txq] {
    #[inline]
    fn links(&self, entry: u32) -> Links {
        self[entry as usize].links
    }
}

impl LinkArenaMut for [Txq] {
    #[inline]
    fn links_mut(&mut self, entry: u32) -> &mut Links {
        &mut self[entry as usize].links
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TxqList {
    head: u32,
    len: u32,
}

impl Default for TxqList {
    fn default() -> Self {
        TxqList { head: NIL, len: 0 }
    }
}

/// A TXQ's links; `listed` is false while the driver holds it or it is idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Links {
    prev: u32,
    next: u32,
    pub(super) listed: bool,
}

impl Default for Links {
    fn default() -> Self {
        Links {
            prev: NIL,
            next: NIL,
            listed: false,
        }
    }
}

impl TxqList {
    /// Entries on the list (for a list of TXQs, mac80211's `num_txq` for the per-AC AQL
    /// cap).
    pub(super) fn len(&self) -> u32 {
        self.len
    }

    #[inline]
    pub(super) fn head_entry(&self) -> Option<u32> {
        (self.head != NIL).then_some(self.head)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.head == NIL
    }

    /// Inserts before the head, i.e. at the tail of the circle.
    #[inline]
    fn insert_before_head<A: LinkArenaMut + ?Sized>(&mut self, arena: &mut A, entry: u32) {
        debug_assert!(!arena.links(entry).listed, "entry {entry:#x} listed twice");
        if self.head == NIL {
            *arena.links_mut(entry) = Links {
                prev: entry,
                next: entry,
                listed: true,
            };
            self.head = entry;
        } else {
            let head = self.head;
            let tail = arena.links(head).prev;
            *arena.links_mut(entry) = Links {
                prev: tail,
                next: head,
                listed: true,
            };
            arena.links_mut(tail).next = entry;
            arena.links_mut(head).prev = entry;
        }
        self.len += 1;
    }

    #[inline]
    pub(super) fn push_back(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.push_back_entry(txqs, id.index);
    }

    #[inline]
    pub(super) fn push_front(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.push_front_entry(txqs, id.index);
    }

    /// Unlinks a listed TXQ.
    #[inline]
    pub(super) fn remove(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.remove_entry(txqs, id.index);
    }

    /// Moves a listed TXQ to the tail (`list_move_tail`); for the head, one store.
    #[inline]
    pub(super) fn move_to_tail(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.move_entry_to_tail(txqs, id.index);
    }

    /// The TXQs in list order.
    pub(super) fn iter<'a>(&self, txqs: &'a [Txq]) -> impl Iterator<Item = TxqId> + 'a {
        self.entries(txqs).map(|index| TxqId {
            index,
            generation: txqs[index as usize].generation,
        })
    }

    #[inline]
    pub(super) fn push_back_entry<A: LinkArenaMut + ?Sized>(&mut self, arena: &mut A, entry: u32) {
        self.insert_before_head(arena, entry);
    }

    #[inline]
    pub(super) fn push_front_entry<A: LinkArenaMut + ?Sized>(&mut self, arena: &mut A, entry: u32) {
        self.insert_before_head(arena, entry);
        self.head = entry;
    }

    /// Unlinks a listed entry.
    #[inline]
    pub(super) fn remove_entry<A: LinkArenaMut + ?Sized>(&mut self, arena: &mut A, entry: u32) {
        let Links { prev, next, listed } = arena.links(entry);
        debug_assert!(listed, "entry {entry:#x} not listed");
        if next == entry {
            self.head = NIL;
        } else {
            arena.links_mut(prev).next = next;
            arena.links_mut(next).prev = prev;
            if self.head == entry {
                self.head = next;
            }
        }
        *arena.links_mut(entry) = Links::default();
        self.len -= 1;
    }

    /// Moves a listed entry to the tail; for the head, one store.
    #[inline]
    pub(super) fn move_entry_to_tail<A: LinkArenaMut + ?Sized>(
        &mut self,
        arena: &mut A,
        entry: u32,
    ) {
        if self.head == entry {
            self.head = arena.links(entry).next;
        } else if arena.links(self.head).prev != entry {
            self.remove_entry(arena, entry);
            self.push_back_entry(arena, entry);
        }
    }

    /// The entry after `entry` in list order; `None` after the tail.
    #[inline]
    pub(super) fn next_of<A: LinkArena + ?Sized>(&self, arena: &A, entry: u32) -> Option<u32> {
        let next = arena.links(entry).next;
        (next != self.head).then_some(next)
    }

    /// The entries in list order.
    pub(super) fn entries<'a, A: LinkArena + ?Sized>(
        &self,
        arena: &'a A,
    ) -> impl Iterator<Item = u32> + 'a {
        let head = self.head;
        let mut cur = head;
        let mut started = false;
        core::iter::from_fn(move || {
            if cur == NIL || (started && cur == head) {
                return None;
            }
            started = true;
            let entry = cur;
            cur = arena.links(entry).next;
            Some(entry)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Tid;
    use alloc::vec::Vec;

    fn arena(n: usize) -> Vec<Txq> {
        let tid = Tid::new(0).unwrap();
        (0..n)
            .map(|_| Txq {
                station: None,
                tid,
                ac: tid.ac(),
                schedule_round: 0,
                links: Links::default(),
                live: true,
                generation: 0,
                eligible: false,
            })
            .collect()
    }

    fn id(index: u32) -> TxqId {
        TxqId {
            index,
            generation: 0,
        }
    }

    fn order(l: &TxqList, txqs: &[Txq]) -> Vec<u32> {
        l.iter(txqs).map(|t| t.index).collect()
    }

    #[test]
    fn circular_list_operations() {
        let mut txqs = arena(5);
        let mut l = TxqList::default();
        assert_eq!(l.head_entry(), None);
        l.push_back(&mut txqs, id(0));
        l.push_back(&mut txqs, id(1));
        l.push_front(&mut txqs, id(2));
        assert_eq!(order(&l, &txqs), [2, 0, 1]);
        l.move_to_tail(&mut txqs, id(2)); // the head: rotation
        assert_eq!(order(&l, &txqs), [0, 1, 2]);
        l.move_to_tail(&mut txqs, id(1)); // the middle
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.move_to_tail(&mut txqs, id(1)); // already the tail
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.remove(&mut txqs, id(0));
        assert_eq!(order(&l, &txqs), [2, 1]);
        assert_eq!(l.len(), 2);
        l.remove(&mut txqs, id(1));
        l.remove(&mut txqs, id(2));
        assert_eq!(l.head_entry(), None);
        assert!(txqs.iter().all(|t| !t.links.listed));
        l.push_front(&mut txqs, id(4));
        assert_eq!(order(&l, &txqs), [4]);
        l.move_to_tail(&mut txqs, id(4));
        assert_eq!(order(&l, &txqs), [4]);
    }
}
