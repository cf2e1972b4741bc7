//! The list of scheduled TXQs of one access category (mac80211 `local->active_txqs[ac]`),
//! doubly linked through the TXQ arena by index so that a TXQ can be unlinked from
//! anywhere (`ieee80211_txq_may_transmit`, a station leaving) in O(1).

use super::txq::{Txq, TxqId};

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TxqList {
    head: u32,
    tail: u32,
    len: u32,
}

impl Default for TxqList {
    fn default() -> Self {
        TxqList {
            head: NIL,
            tail: NIL,
            len: 0,
        }
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

    pub(super) fn push_front(&mut self, txqs: &mut [Txq], id: TxqId) {
        debug_assert!(!txqs[id.index()].links.listed, "{id:?} listed twice");
        txqs[id.index()].links = Links {
            prev: NIL,
            next: self.head,
            listed: true,
        };
        match self.head {
            NIL => self.tail = id.0,
            head => txqs[head as usize].links.prev = id.0,
        }
        self.head = id.0;
        self.len += 1;
    }

    pub(super) fn push_back(&mut self, txqs: &mut [Txq], id: TxqId) {
        debug_assert!(!txqs[id.index()].links.listed, "{id:?} listed twice");
        txqs[id.index()].links = Links {
            prev: self.tail,
            next: NIL,
            listed: true,
        };
        match self.tail {
            NIL => self.head = id.0,
            tail => txqs[tail as usize].links.next = id.0,
        }
        self.tail = id.0;
        self.len += 1;
    }

    /// Unlinks a listed TXQ.
    pub(super) fn remove(&mut self, txqs: &mut [Txq], id: TxqId) {
        let Links { prev, next, listed } = txqs[id.index()].links;
        debug_assert!(listed, "{id:?} not listed");
        match prev {
            NIL => self.head = next,
            p => txqs[p as usize].links.next = next,
        }
        match next {
            NIL => self.tail = prev,
            n => txqs[n as usize].links.prev = prev,
        }
        txqs[id.index()].links = Links::default();
        self.len -= 1;
    }

    /// Moves a listed TXQ to the tail (`list_move_tail`).
    #[inline]
    pub(super) fn move_to_tail(&mut self, txqs: &mut [Txq], id: TxqId) {
        if self.tail != id.0 {
            self.remove(txqs, id);
            self.push_back(txqs, id);
        }
    }

    /// The TXQs in list order.
    pub(super) fn iter<'a>(&self, txqs: &'a [Txq]) -> impl Iterator<Item = TxqId> + 'a {
        let mut cur = self.head;
        core::iter::from_fn(move || {
            (cur != NIL).then(|| {
                let id = TxqId(cur);
                cur = txqs[id.index()].links.next;
                id
            })
        })
    }
}
