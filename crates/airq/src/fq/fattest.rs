//! Which flow queues hold packets, and which of them holds the most bytes: the flow the
//! global packet and memory limits head-drop from (Linux ≥ 5.12 `fq_find_fattest_flow`,
//! `include/net/fq_impl.h`).
//!
//! Linux scans every flow of `fq->flows_bitmap`, then every backlogged tin's default
//! flow, at each drop round: O(flows with packets). With one tin per station and the
//! limit reached on most enqueues, that scan was 44% of a 1000-station simulation's
//! instructions (README "Many stations"). [`FattestSearch::Tree`] makes the same choice
//! from a tournament tree over the flow indices — each internal node holds the fatter
//! of its two children's winners, the left (lower-indexed) one on a tie — in
//! O(log flows) per flow whose backlog changed since the previous search. Marking a
//! change costs one bit test per packet; the repair is deferred to the next search, so
//! a structure that never reaches its limits never pays for the tree.
//!
//! Both searches return the flow with the largest byte backlog, the lowest index on a
//! tie, counting a flow that holds only zero-length packets (so the limit can always be
//! restored). Linux differs on the last two points: it skips flows of 0 bytes and scans
//! default flows in the order their tins became backlogged; both searches here keep the
//! choice airq has always made (the tests below and
//! `tests/integration/fq_properties.rs` check the tree against the scan on random
//! operation sequences).

use super::bitmap::Bitmap;
use super::params::FattestSearch;
use alloc::vec::Vec;

/// The flows holding packets, and the search for the fattest of them.
#[derive(Clone, Debug)]
pub(super) struct Backlogged {
    /// Flows holding at least one packet (Linux `fq->flows_bitmap`), in index order.
    set: Bitmap,
    /// Number of flows tracked (pool and default flows).
    flows: usize,
    /// `None` under [`FattestSearch::Scan`].
    tree: Option<FattestTree>,
}

impl Backlogged {
    pub(super) fn new(flows: usize, search: FattestSearch) -> Self {
        let mut b = Backlogged {
            set: Bitmap::with_len(flows),
            flows,
            tree: None,
        };
        b.set_search(search);
        b
    }

    /// Switches the search; a new tree is built at its first search.
    pub(super) fn set_search(&mut self, search: FattestSearch) {
        match search {
            FattestSearch::Scan => self.tree = None,
            FattestSearch::Tree => {
                if self.tree.is_none() {
                    self.tree = Some(FattestTree::new(self.flows));
                }
            }
        }
    }

    /// Makes room for `flows` flows; new ones hold nothing.
    pub(super) fn grow(&mut self, flows: usize) {
        debug_assert!(flows >= self.flows);
        self.flows = flows;
        self.set.grow(flows);
        if let Some(tree) = &mut self.tree {
            tree.grow(flows);
        }
    }

    #[inline]
    pub(super) fn contains(&self, flow: usize) -> bool {
        self.set.contains(flow)
    }

    /// Records that `flow`'s backlog changed; `became` is `Some(true)` if it has just
    /// gone from empty to holding packets, `Some(false)` if it has just emptied.
    #[inline]
    pub(super) fn changed(&mut self, flow: usize, became: Option<bool>) {
        match became {
            Some(true) => self.set.set(flow),
            Some(false) => self.set.clear(flow),
            None => {}
        }
        if let Some(tree) = &mut self.tree {
            tree.mark(flow);
        }
    }

    /// The flow with the largest byte backlog, the lowest index on a tie, or `None` if
    /// no flow holds a packet. `bytes_of` gives a flow's backlog bytes.
    pub(super) fn fattest(&mut self, bytes_of: impl Fn(usize) -> u64) -> Option<usize> {
        let Backlogged { set, tree, .. } = self;
        match tree {
            None => scan(set, bytes_of),
            Some(tree) => {
                let found = tree.search(|i| set.contains(i).then(|| bytes_of(i)));
                debug_assert!(found.is_none_or(|i| set.contains(i)));
                found
            }
        }
    }

    /// Checks the tree against the flows as they are (O(flows)): every flow not marked
    /// changed has the key it was last repaired with, and every node holds the winner
    /// of its children. For `Fq::assert_invariants`.
    pub(super) fn assert_consistent(&self, bytes_of: impl Fn(usize) -> u64) {
        if let Some(tree) = &self.tree {
            tree.assert_consistent(|i| self.set.contains(i).then(|| bytes_of(i)));
        }
    }
}

/// Linux's search: every backlogged flow in index order, keeping the first of the
/// largest.
fn scan(set: &Bitmap, bytes_of: impl Fn(usize) -> u64) -> Option<usize> {
    let mut best: Option<(usize, u64)> = None;
    for i in set.iter() {
        let bytes = bytes_of(i);
        if best.is_none_or(|(_, most)| bytes > most) {
            best = Some((i, bytes));
        }
    }
    best.map(|(i, _)| i)
}

/// A tournament (winner) tree over flow indices, repaired lazily.
#[derive(Clone, Debug)]
struct FattestTree {
    /// Leaves: a power of two, at least the number of flows (0 until first built).
    leaves: usize,
    flows: usize,
    /// `winner[node]` for nodes 1 to `2 * leaves - 1` (node 1 the root, node `n`'s
    /// children `2n` and `2n + 1`, leaf `leaves + i` flow `i`): the fattest flow below.
    winner: Vec<u32>,
    /// Each leaf's key as last repaired: 0 for no packets, else backlog bytes + 1 (a
    /// flow's bytes are at most `u32::MAX` packets of `i32::MAX` bytes, far below
    /// `u64::MAX`). Padding leaves past `flows` stay 0.
    key: Vec<u64>,
    /// Flows whose backlog changed since the last repair, each once.
    dirty: Vec<u32>,
    is_dirty: Bitmap,
    /// Everything is rebuilt at the next search (new, or grown past `leaves`).
    stale: bool,
}

impl FattestTree {
    fn new(flows: usize) -> Self {
        FattestTree {
            leaves: 0,
            flows,
            winner: Vec::new(),
            key: Vec::new(),
            dirty: Vec::new(),
            is_dirty: Bitmap::with_len(flows),
            stale: true,
        }
    }

    fn grow(&mut self, flows: usize) {
        self.flows = flows;
        self.is_dirty.grow(flows);
        if flows > self.leaves {
            self.stale = true;
        }
        // Within `leaves`: the new flows' padding leaves already hold key 0.
    }

    #[inline]
    fn mark(&mut self, flow: usize) {
        if !self.stale && !self.is_dirty.contains(flow) {
            self.is_dirty.set(flow);
            self.dirty.push(flow as u32);
        }
    }

    /// The fatter of two winners, `a` being the left (lower-indexed) one.
    #[inline]
    fn better(key: &[u64], a: u32, b: u32) -> u32 {
        if key[b as usize] > key[a as usize] {
            b
        } else {
            a
        }
    }

    fn key_of(backlog_of: &impl Fn(usize) -> Option<u64>, flow: usize) -> u64 {
        backlog_of(flow).map_or(0, |bytes| bytes + 1)
    }

    /// Repairs what changed, then reads the root. `backlog_of` gives a flow's backlog
    /// bytes, `None` if it holds no packet.
    fn search(&mut self, backlog_of: impl Fn(usize) -> Option<u64>) -> Option<usize> {
        // Repairing d paths costs d·log2(leaves); a rebuild costs 2·leaves.
        let depth = self.leaves.trailing_zeros() as usize + 1;
        if self.stale || self.dirty.len() * depth > 2 * self.leaves {
            self.rebuild(&backlog_of);
        } else {
            let dirty = core::mem::take(&mut self.dirty);
            for &flow in &dirty {
                self.is_dirty.clear(flow as usize);
                self.key[flow as usize] = Self::key_of(&backlog_of, flow as usize);
                let mut node = (self.leaves + flow as usize) / 2;
                while node >= 1 {
                    self.winner[node] =
                        Self::better(&self.key, self.winner[2 * node], self.winner[2 * node + 1]);
                    node /= 2;
                }
            }
            self.dirty = dirty;
            self.dirty.clear();
        }
        let root = self.winner[1] as usize;
        debug_assert_eq!(self.key[root], Self::key_of(&backlog_of, root));
        (self.key[root] > 0).then_some(root)
    }

    fn rebuild(&mut self, backlog_of: &impl Fn(usize) -> Option<u64>) {
        self.leaves = self.flows.next_power_of_two();
        let leaves = self.leaves;
        debug_assert!(leaves <= u32::MAX as usize);
        self.key.clear();
        self.key.extend((0..leaves).map(|i| {
            if i < self.flows {
                Self::key_of(backlog_of, i)
            } else {
                0
            }
        }));
        self.winner.clear();
        self.winner.resize(2 * leaves, 0);
        for i in 0..leaves {
            self.winner[leaves + i] = i as u32;
        }
        for node in (1..leaves).rev() {
            self.winner[node] =
                Self::better(&self.key, self.winner[2 * node], self.winner[2 * node + 1]);
        }
        for &flow in &self.dirty {
            self.is_dirty.clear(flow as usize);
        }
        self.dirty.clear();
        self.stale = false;
    }

    fn assert_consistent(&self, backlog_of: impl Fn(usize) -> Option<u64>) {
        if self.stale {
            return;
        }
        assert_eq!(self.winner.len(), 2 * self.leaves, "tree size");
        for flow in 0..self.leaves {
            let current = if flow < self.flows {
                Self::key_of(&backlog_of, flow)
            } else {
                0
            };
            if flow >= self.flows || !self.is_dirty.contains(flow) {
                assert_eq!(self.key[flow], current, "fattest-tree key of flow {flow}");
            }
            assert_eq!(
                self.winner[self.leaves + flow] as usize,
                flow,
                "leaf {flow}"
            );
        }
        for node in 1..self.leaves {
            let expected =
                Self::better(&self.key, self.winner[2 * node], self.winner[2 * node + 1]);
            assert_eq!(self.winner[node], expected, "fattest-tree node {node}");
        }
        assert_eq!(
            self.dirty.len(),
            (0..self.flows)
                .filter(|&f| self.is_dirty.contains(f))
                .count(),
            "fattest-tree dirty list"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree and a scan over the same backlogs, driven by a tiny seeded generator.
    #[test]
    fn tree_agrees_with_scan_on_random_backlogs() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for flows in [1usize, 2, 3, 7, 64, 100] {
            let mut bytes = alloc::vec![None::<u64>; flows];
            let mut tree = Backlogged::new(flows, FattestSearch::Tree);
            let mut plain = Backlogged::new(flows, FattestSearch::Scan);
            for step in 0..2000 {
                if step % 500 == 499 {
                    // A tin added: the structure grows.
                    bytes.push(None);
                    tree.grow(bytes.len());
                    plain.grow(bytes.len());
                }
                let f = next(bytes.len() as u64) as usize;
                let before = bytes[f].is_some();
                // Few distinct sizes, so ties are common; zero-length packets too.
                bytes[f] = match next(4) {
                    0 => None,
                    _ => Some(next(4) * 100),
                };
                let after = bytes[f].is_some();
                let became = (before != after).then_some(after);
                tree.changed(f, became);
                plain.changed(f, became);
                if next(3) == 0 {
                    let of = |i: usize| bytes[i].unwrap_or(0);
                    tree.assert_consistent(of);
                    assert_eq!(
                        tree.fattest(of),
                        plain.fattest(of),
                        "flows {flows} step {step}"
                    );
                    tree.assert_consistent(of);
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_lowest_index_and_empty_flows_never_win() {
        let mut b = Backlogged::new(8, FattestSearch::Tree);
        let bytes = [0u64, 0, 300, 0, 300, 0, 0, 0];
        assert_eq!(b.fattest(|i| bytes[i]), None);
        for f in [4, 2, 6] {
            b.changed(f, Some(true));
        }
        assert_eq!(b.fattest(|i| bytes[i]), Some(2));
        // Flow 6 holds only zero-length packets: it wins once it is the only one.
        b.changed(2, Some(false));
        b.changed(4, Some(false));
        assert_eq!(b.fattest(|_| 0), Some(6));
    }
}
