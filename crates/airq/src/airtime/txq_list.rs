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

use super::txq::Txq;

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
}

impl Default for TxqList {
    fn default() -> Self {
        TxqList { head: NIL }
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

    fn order(l: &TxqList, txqs: &[Txq]) -> Vec<u32> {
        l.entries(txqs).collect()
    }

    #[test]
    fn circular_list_operations() {
        let mut txqs = arena(5);
        let mut l = TxqList::default();
        assert_eq!(l.head_entry(), None);
        l.push_back_entry(&mut txqs[..], 0);
        l.push_back_entry(&mut txqs[..], 1);
        l.push_front_entry(&mut txqs[..], 2);
        assert_eq!(order(&l, &txqs), [2, 0, 1]);
        l.move_entry_to_tail(&mut txqs[..], 2); // the head: rotation
        assert_eq!(order(&l, &txqs), [0, 1, 2]);
        l.move_entry_to_tail(&mut txqs[..], 1); // the middle
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.move_entry_to_tail(&mut txqs[..], 1); // already the tail
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.remove_entry(&mut txqs[..], 0);
        assert_eq!(order(&l, &txqs), [2, 1]);
        l.remove_entry(&mut txqs[..], 1);
        l.remove_entry(&mut txqs[..], 2);
        assert_eq!(l.head_entry(), None);
        assert!(txqs.iter().all(|t| !t.links.listed));
        l.push_front_entry(&mut txqs[..], 4);
        assert_eq!(order(&l, &txqs), [4]);
        l.move_entry_to_tail(&mut txqs[..], 4);
        assert_eq!(order(&l, &txqs), [4]);
    }
}
