//! A tin's list of flows (new or old), linked through the flow arena by index — Linux's
//! `list_head flowchain`, without pointers. A flow is on at most one list at a time, so
//! one link per flow suffices.
//!
//! The list is circular and keeps only its tail (the tail links to the head). DRR++ moves
//! the head flow of the old list to its tail each time it refills the flow's deficit —
//! with a 300-byte quantum about five times per 1500-byte packet — and on a circular list
//! that move is one store: the head becomes the tail.

use super::ids::FlowId;

/// No flow: the link of a flow on no list, and the tail of an empty list.
pub(super) const NIL: u32 = u32::MAX;

/// A flow's DRR credit and its link on a tin list. Kept in a dense array beside the
/// flows rather than in them: the rotation reads these 8 bytes of several flows per
/// packet, and a dense array keeps them in the L1 cache even with thousands of flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Drr {
    /// Credit left, in bytes or frames as the tin's quantum says.
    pub(super) deficit: i32,
    /// The next flow on the same list.
    pub(super) next: u32,
}

impl Default for Drr {
    fn default() -> Self {
        Drr {
            deficit: 0,
            next: NIL,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FlowList {
    tail: u32,
}

impl Default for FlowList {
    fn default() -> Self {
        FlowList { tail: NIL }
    }
}

impl FlowList {
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.tail == NIL
    }

    #[inline]
    pub(super) fn front(&self, links: &[Drr]) -> Option<FlowId> {
        (self.tail != NIL).then(|| FlowId(links[self.tail as usize].next))
    }

    #[inline]
    pub(super) fn push_back(&mut self, links: &mut [Drr], id: FlowId) {
        debug_assert_eq!(links[id.index()].next, NIL, "{id} is already on a list");
        if self.tail == NIL {
            links[id.index()].next = id.0;
        } else {
            links[id.index()].next = links[self.tail as usize].next;
            links[self.tail as usize].next = id.0;
        }
        self.tail = id.0;
    }

    #[inline]
    pub(super) fn pop_front(&mut self, links: &mut [Drr]) -> Option<FlowId> {
        let head = self.front(links)?;
        if head.0 == self.tail {
            self.tail = NIL;
        } else {
            links[self.tail as usize].next = links[head.index()].next;
        }
        links[head.index()].next = NIL;
        Some(head)
    }

    /// DRR++ on a list while no new flow is waiting: gives each head flow that has used
    /// its credit another `quantum` and moves it to the tail, until the head has credit;
    /// returns that head (`None` if the list is empty). Equivalent to one rotation per
    /// pass of Linux's `fq_tin_dequeue` loop, without re-reading the new list each time.
    ///
    /// Bounded: after a whole pass without credit, the passes that would only refill are
    /// skipped in one step ([`skip_refill_passes`]), so that a flow deep in debt — 2^31
    /// bytes at a 1-byte quantum — costs two passes, not 2^31 turns.
    #[inline]
    pub(super) fn rotate_to_credit(&mut self, links: &mut [Drr], quantum: i32) -> Option<FlowId> {
        if self.tail == NIL {
            return None;
        }
        let first_tail = self.tail;
        let mut tail = self.tail as usize;
        let mut head = links[tail].next as usize;
        while links[head].deficit <= 0 {
            links[head].deficit += quantum;
            tail = head;
            head = links[head].next as usize;
            if tail as u32 == first_tail {
                skip_refill_passes(links, head, quantum);
            }
        }
        self.tail = tail as u32;
        Some(FlowId(head as u32))
    }

    /// The flow after `id` on this list, or `None` if `id` is the tail.
    pub(super) fn next_after(&self, links: &[Drr], id: FlowId) -> Option<FlowId> {
        (id.0 != self.tail).then(|| FlowId(links[id.index()].next))
    }

    /// The flows in list order, head first.
    pub(super) fn iter<'a>(&self, links: &'a [Drr]) -> impl Iterator<Item = FlowId> + 'a {
        let tail = self.tail;
        let mut cur = self.front(links);
        core::iter::from_fn(move || {
            let id = cur?;
            cur = (id.0 != tail).then(|| FlowId(links[id.index()].next));
            Some(id)
        })
    }
}

/// At the end of a pass over the circular list at `head` in which no flow had credit:
/// gives every flow the quanta of the passes that would follow and only refill, at once.
///
/// A pass refills every flow without credit by one quantum, so after `k` more passes a
/// flow that needs `r` quanta to have credit (`deficit + r × quantum > 0`) has it if
/// `r ≤ k`. The loop picks, in the pass after the first flow gets there, the first flow
/// in list order that has it. So the `k = min r` passes are skipped: each flow gets `k`
/// quanta (none of them had credit before its `k`-th), and the order — whole passes
/// leave it as it was — stays. The next pass is walked as before: the same flow is
/// picked, with the same deficits, as after `k` turns of the loop per flow.
#[cold]
#[inline(never)]
fn skip_refill_passes(links: &mut [Drr], head: usize, quantum: i32) {
    let quantum = i64::from(quantum);
    let needs = |deficit: i32| {
        let deficit = i64::from(deficit);
        if deficit > 0 {
            0
        } else {
            -deficit / quantum + 1
        }
    };
    let mut passes = i64::MAX;
    let mut cur = head;
    loop {
        passes = passes.min(needs(links[cur].deficit));
        cur = links[cur].next as usize;
        if cur == head {
            break;
        }
    }
    if passes == 0 {
        return;
    }
    loop {
        // At most the quanta this flow needs: it ends at or below 0 + one quantum.
        links[cur].deficit = (i64::from(links[cur].deficit) + passes * quantum) as i32;
        cur = links[cur].next as usize;
        if cur == head {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn ids(list: &FlowList, flows: &[Drr]) -> Vec<u32> {
        list.iter(flows).map(|id| id.0).collect()
    }

    #[test]
    fn fifo_order_refill_rotation_and_moves_between_lists() {
        let mut flows = alloc::vec![Drr::default(); 5];
        let (mut a, mut b) = (FlowList::default(), FlowList::default());
        assert!(a.is_empty() && a.front(&flows).is_none());
        assert_eq!(a.rotate_to_credit(&mut flows, 300), None);
        for i in [3, 1, 4] {
            a.push_back(&mut flows, FlowId(i));
        }
        assert_eq!(ids(&a, &flows), [3, 1, 4]);
        // Flow 3 has no credit: refilled and moved behind 4; flow 1 has credit.
        flows[1].deficit = 10;
        assert_eq!(a.rotate_to_credit(&mut flows, 300), Some(FlowId(1)));
        assert_eq!(ids(&a, &flows), [1, 4, 3]);
        assert_eq!(flows[3].deficit, 300);
        let head = a.pop_front(&mut flows).unwrap();
        assert_eq!(head, FlowId(1));
        b.push_back(&mut flows, head);
        assert_eq!(ids(&a, &flows), [4, 3]);
        assert_eq!(ids(&b, &flows), [1]);
        // One flow far in debt: refilled round after round until it has credit.
        flows[1].deficit = -1200;
        assert_eq!(b.rotate_to_credit(&mut flows, 300), Some(FlowId(1)));
        assert_eq!(flows[1].deficit, 300);
        assert_eq!(ids(&b, &flows), [1]);
        assert_eq!(a.pop_front(&mut flows), Some(FlowId(4)));
        assert_eq!(a.pop_front(&mut flows), Some(FlowId(3)));
        assert!(a.is_empty() && a.pop_front(&mut flows).is_none());
        assert!(flows
            .iter()
            .enumerate()
            .all(|(i, f)| i == 1 || f.next == NIL));
        a.push_back(&mut flows, FlowId(0));
        assert_eq!(ids(&a, &flows), [0]);
    }

    /// Linux's loop, one quantum per turn: what `rotate_to_credit` must equal.
    fn rotate_by_turns(list: &mut FlowList, links: &mut [Drr], quantum: i32) -> Option<FlowId> {
        loop {
            let head = list.front(links)?;
            if links[head.index()].deficit > 0 {
                return Some(head);
            }
            links[head.index()].deficit += quantum;
            list.pop_front(links);
            list.push_back(links, head);
        }
    }

    #[test]
    fn a_flow_2_pow_31_in_debt_is_refilled_in_one_step() {
        let mut flows = alloc::vec![Drr::default(); 2];
        let mut list = FlowList::default();
        list.push_back(&mut flows, FlowId(0));
        list.push_back(&mut flows, FlowId(1));
        flows[0].deficit = i32::MIN + 2;
        flows[1].deficit = i32::MIN + 1;
        assert_eq!(list.rotate_to_credit(&mut flows, 1), Some(FlowId(0)));
        assert_eq!((flows[0].deficit, flows[1].deficit), (1, 0));
        assert_eq!(ids(&list, &flows), [0, 1]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: crate::proptest_cases(256),
            ..Default::default()
        })]

        /// Skipping refill passes makes the loop's choice, deficits and order.
        #[test]
        fn skipping_refill_passes_is_the_loop(
            quantum in 1..=1i32 << 20,
            debts in proptest::collection::vec((0..200i64, 0..=1i64 << 20), 1..8),
            order in proptest::collection::vec(0..8usize, 8),
        ) {
            let n = debts.len();
            let mut flows = alloc::vec![Drr::default(); n];
            for (f, &(quanta, extra)) in flows.iter_mut().zip(&debts) {
                // From a little credit to 200 quanta in debt.
                let d = -quanta * i64::from(quantum) + extra % (i64::from(quantum) + 1);
                f.deficit = d.max(i64::from(i32::MIN) + 1) as i32;
            }
            let mut list = FlowList::default();
            let mut seen = alloc::vec![false; n];
            for i in order.iter().map(|i| i % n).chain(0..n) {
                if !core::mem::replace(&mut seen[i], true) {
                    list.push_back(&mut flows, FlowId(i as u32));
                }
            }
            let (mut list2, mut flows2) = (list, flows.clone());
            let got = list.rotate_to_credit(&mut flows, quantum);
            let want = rotate_by_turns(&mut list2, &mut flows2, quantum);
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert_eq!(&flows, &flows2);
            proptest::prop_assert_eq!(ids(&list, &flows), ids(&list2, &flows2));
        }
    }
}
