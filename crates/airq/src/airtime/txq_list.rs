//! The list of scheduled TXQs of one access category (mac80211 `local->active_txqs[ac]`),
//! linked through the TXQ arena by index.
//!
//! Doubly linked, so that a TXQ can be unlinked from anywhere (`may_transmit`, a station
//! leaving) in O(1); and circular with a head index, so that the move `next_txq` makes
//! most often — the head, refilled, to the tail (several times per decision with a
//! 256 µs weight against millisecond aggregates) — is one store.

use super::txq::{Txq, TxqId};

const NIL: u32 = u32::MAX;

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
    /// TXQs on the list (mac80211's `num_txq` for the per-AC AQL cap).
    pub(super) fn len(&self) -> u32 {
        self.len
    }

    #[inline]
    pub(super) fn front(&self) -> Option<TxqId> {
        (self.head != NIL).then_some(TxqId(self.head))
    }

    /// Inserts before the head, i.e. at the tail of the circle.
    fn insert_before_head(&mut self, txqs: &mut [Txq], id: TxqId) {
        debug_assert!(!txqs[id.index()].links.listed, "{id:?} listed twice");
        if self.head == NIL {
            txqs[id.index()].links = Links {
                prev: id.0,
                next: id.0,
                listed: true,
            };
            self.head = id.0;
        } else {
            let head = self.head;
            let tail = txqs[head as usize].links.prev;
            txqs[id.index()].links = Links {
                prev: tail,
                next: head,
                listed: true,
            };
            txqs[tail as usize].links.next = id.0;
            txqs[head as usize].links.prev = id.0;
        }
        self.len += 1;
    }

    pub(super) fn push_back(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.insert_before_head(txqs, id);
    }

    pub(super) fn push_front(&mut self, txqs: &mut [Txq], id: TxqId) {
        self.insert_before_head(txqs, id);
        self.head = id.0;
    }

    /// Unlinks a listed TXQ.
    pub(super) fn remove(&mut self, txqs: &mut [Txq], id: TxqId) {
        let Links { prev, next, listed } = txqs[id.index()].links;
        debug_assert!(listed, "{id:?} not listed");
        if next == id.0 {
            self.head = NIL;
        } else {
            txqs[prev as usize].links.next = next;
            txqs[next as usize].links.prev = prev;
            if self.head == id.0 {
                self.head = next;
            }
        }
        txqs[id.index()].links = Links::default();
        self.len -= 1;
    }

    /// Moves a listed TXQ to the tail (`list_move_tail`); for the head, one store.
    #[inline]
    pub(super) fn move_to_tail(&mut self, txqs: &mut [Txq], id: TxqId) {
        if self.head == id.0 {
            self.head = txqs[id.index()].links.next;
        } else if txqs[self.head as usize].links.prev != id.0 {
            self.remove(txqs, id);
            self.push_back(txqs, id);
        }
    }

    /// The TXQs in list order.
    pub(super) fn iter<'a>(&self, txqs: &'a [Txq]) -> impl Iterator<Item = TxqId> + 'a {
        let head = self.head;
        let mut cur = head;
        let mut started = false;
        core::iter::from_fn(move || {
            if cur == NIL || (started && cur == head) {
                return None;
            }
            started = true;
            let id = TxqId(cur);
            cur = txqs[id.index()].links.next;
            Some(id)
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
            })
            .collect()
    }

    fn order(l: &TxqList, txqs: &[Txq]) -> Vec<u32> {
        l.iter(txqs).map(|t| t.0).collect()
    }

    #[test]
    fn circular_list_operations() {
        let mut txqs = arena(5);
        let mut l = TxqList::default();
        assert_eq!(l.front(), None);
        l.push_back(&mut txqs, TxqId(0));
        l.push_back(&mut txqs, TxqId(1));
        l.push_front(&mut txqs, TxqId(2));
        assert_eq!(order(&l, &txqs), [2, 0, 1]);
        l.move_to_tail(&mut txqs, TxqId(2)); // the head: rotation
        assert_eq!(order(&l, &txqs), [0, 1, 2]);
        l.move_to_tail(&mut txqs, TxqId(1)); // the middle
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.move_to_tail(&mut txqs, TxqId(1)); // already the tail
        assert_eq!(order(&l, &txqs), [0, 2, 1]);
        l.remove(&mut txqs, TxqId(0));
        assert_eq!(order(&l, &txqs), [2, 1]);
        assert_eq!(l.len(), 2);
        l.remove(&mut txqs, TxqId(1));
        l.remove(&mut txqs, TxqId(2));
        assert_eq!(l.front(), None);
        assert!(txqs.iter().all(|t| !t.links.listed));
        l.push_front(&mut txqs, TxqId(4));
        assert_eq!(order(&l, &txqs), [4]);
        l.move_to_tail(&mut txqs, TxqId(4));
        assert_eq!(order(&l, &txqs), [4]);
    }
}
