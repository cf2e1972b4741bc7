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
//! change costs a test of a flag in the flow's own record, which every packet touches
//! anyway; the repair is deferred to the next search, so a structure that never reaches
//! its limits never pays for the tree.
//!
//! Both searches return the flow with the largest byte backlog, the lowest index on a
//! tie, counting a flow that holds only zero-length packets (so the limit can always be
//! restored). Linux differs on the last two points: it skips flows of 0 bytes and scans
//! default flows in the order their tins became backlogged; both searches here keep the
//! choice airq has always made (the tests below and
//! `tests/integration/fq_properties.rs` check the tree against the scan on random
//! operation sequences).

use super::bitmap::Bitmap;
use super::flow::Flow;
use super::params::FattestSearch;
use alloc::vec::Vec;

/// The flows holding packets, and the search for the fattest of them.
#[derive(Clone, Debug)]
pub(super) struct Backlogged {
    /// Flows holding at least one packet (Linux `fq->flows_bitmap`), in index order.
    set: Bitmap,
    /// Number of flows tracked (pool and default flows).
    flows: usize,
    /// Flows whose backlog changed since the last search (their `fattest_dirty` set),
    /// each once: at most one entry per flow.
    dirty: Vec<u32>,
    /// `None` under [`FattestSearch::Scan`].
    tree: Option<FattestTree>,
}

impl Backlogged {
    pub(super) fn new(flows: usize, search: FattestSearch) -> Self {
        let mut b = Backlogged {
            set: Bitmap::with_len(flows),
            flows,
            dirty: Vec::new(),
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

    /// Flow `flow` went from empty to holding packets.
    #[inline]
    pub(super) fn fill(&mut self, flow: usize) {
        self.set.set(flow);
    }

    /// Flow `flow` holds no packet any more.
    #[inline]
    pub(super) fn empty(&mut self, flow: usize) {
        self.set.clear(flow);
    }

    /// Flow `flow`'s backlog changed; `dirty` is its `fattest_dirty` flag.
    #[inline]
    pub(super) fn mark(&mut self, flow: usize, dirty: &mut bool) {
        if !*dirty {
            self.mark_first(flow, dirty);
        }
    }

    /// The first change since the last search: out of line, so that the per-packet
    /// path the callers inline stays a byte test (with the push inlined, CoDel's
    /// dequeue no longer inlined `FlowQueue::dequeue`: +44 instructions a packet).
    #[cold]
    #[inline(never)]
    fn mark_first(&mut self, flow: usize, dirty: &mut bool) {
        *dirty = true;
        self.dirty.push(flow as u32);
    }

    /// The flow with the largest byte backlog, the lowest index on a tie, or `None` if
    /// no flow holds a packet.
    pub(super) fn fattest<P>(&mut self, flows: &mut [Flow<P>]) -> Option<usize> {
        let Backlogged {
            set, dirty, tree, ..
        } = self;
        let found = match tree {
            None => scan(set, |i| flows[i].backlog_bytes),
            Some(tree) => {
                let found = tree.search(dirty, |i| set.contains(i).then(|| flows[i].backlog_bytes));
                debug_assert!(found.is_none_or(|i| set.contains(i)));
                found
            }
        };
        for &flow in dirty.iter() {
            flows[flow as usize].fattest_dirty = false;
        }
        dirty.clear();
        found
    }

    /// Checks the changed-flow list against the flows' flags, and the tree against the
    /// flows as they are (O(flows)): every flow not marked changed has the key it was
    /// last repaired with, and every node holds the winner of its children. For
    /// `Fq::assert_invariants`.
    pub(super) fn assert_consistent<P>(&self, flows: &[Flow<P>]) {
        let flagged = flows.iter().filter(|f| f.fattest_dirty).count();
        assert_eq!(self.dirty.len(), flagged, "changed-flow list");
        for &flow in &self.dirty {
            assert!(
                flows[flow as usize].fattest_dirty,
                "flow {flow} listed, not flagged"
            );
        }
        if let Some(tree) = &self.tree {
            tree.assert_consistent(
                |i| self.set.contains(i).then(|| flows[i].backlog_bytes),
                |i| flows[i].fattest_dirty,
            );
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
    /// `node[n]` for nodes 1 to `2 * leaves - 1` (node 1 the root, node `n`'s children
    /// `2n` and `2n + 1`, leaf `leaves + i` flow `i`): the fattest flow below as one
    /// [`entry`](Self::entry), so that a node is the larger of its children and a repair
    /// reads only the path and its siblings (which share a cache line), not the flows'
    /// keys at random.
    node: Vec<u128>,
    /// Everything is rebuilt at the next search (new, or grown past `leaves`).
    stale: bool,
}

impl FattestTree {
    fn new(flows: usize) -> Self {
        FattestTree {
            leaves: 0,
            flows,
            node: Vec::new(),
            stale: true,
        }
    }

    fn grow(&mut self, flows: usize) {
        self.flows = flows;
        // Within `leaves`, the new flows' padding leaves already hold key 0.
        if flows > self.leaves {
            self.stale = true;
        }
    }

    /// Flow `flow` with `key` as one value ordered as the search wants: the key in the
    /// high bits, `u32::MAX - flow` in the low 32, so the larger of two entries is the
    /// fatter flow, the lower-indexed one on a tie. The key is 0 for no packets, else
    /// backlog bytes + 1 (a flow's bytes are at most `u32::MAX` packets of `i32::MAX`
    /// bytes, far below `u64::MAX`).
    #[inline]
    fn entry(key: u64, flow: usize) -> u128 {
        (u128::from(key) << 32) | u128::from(u32::MAX - flow as u32)
    }

    #[inline]
    fn flow_of(entry: u128) -> usize {
        (u32::MAX - entry as u32) as usize
    }

    #[inline]
    fn key_of_entry(entry: u128) -> u64 {
        (entry >> 32) as u64
    }

    fn key_of(backlog_of: &impl Fn(usize) -> Option<u64>, flow: usize) -> u64 {
        backlog_of(flow).map_or(0, |bytes| bytes + 1)
    }

    /// Repairs the paths of the `changed` flows, then reads the root. `backlog_of`
    /// gives a flow's backlog bytes, `None` if it holds no packet.
    fn search(
        &mut self,
        changed: &[u32],
        backlog_of: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        // Repairing d paths costs d·log2(leaves); a rebuild costs 2·leaves.
        let depth = self.leaves.trailing_zeros() as usize + 1;
        if self.stale || changed.len() * depth > 2 * self.leaves {
            self.rebuild(&backlog_of);
        } else {
            // Each repair goes up only while the nodes change: where a node keeps its
            // value, every node above it still holds the larger of its children (the
            // tree held that before this repair), as it does after the other repairs.
            for &flow in changed {
                let flow = flow as usize;
                let mut n = self.leaves + flow;
                let mut entry = Self::entry(Self::key_of(&backlog_of, flow), flow);
                while self.node[n] != entry {
                    self.node[n] = entry;
                    if n == 1 {
                        break;
                    }
                    n /= 2;
                    entry = self.node[2 * n].max(self.node[2 * n + 1]);
                }
            }
        }
        let root = self.node[1];
        let flow = Self::flow_of(root);
        debug_assert_eq!(Self::key_of_entry(root), Self::key_of(&backlog_of, flow));
        (Self::key_of_entry(root) > 0).then_some(flow)
    }

    fn rebuild(&mut self, backlog_of: &impl Fn(usize) -> Option<u64>) {
        let leaves = self.flows.next_power_of_two();
        debug_assert!(leaves <= u32::MAX as usize);
        self.leaves = leaves;
        self.node.clear();
        self.node.resize(2 * leaves, 0);
        for i in 0..leaves {
            let key = if i < self.flows {
                Self::key_of(backlog_of, i)
            } else {
                0
            };
            self.node[leaves + i] = Self::entry(key, i);
        }
        for n in (1..leaves).rev() {
            self.node[n] = self.node[2 * n].max(self.node[2 * n + 1]);
        }
        self.stale = false;
    }

    fn assert_consistent(
        &self,
        backlog_of: impl Fn(usize) -> Option<u64>,
        changed: impl Fn(usize) -> bool,
    ) {
        if self.stale {
            return;
        }
        assert_eq!(self.node.len(), 2 * self.leaves, "tree size");
        for flow in 0..self.leaves {
            let leaf = self.node[self.leaves + flow];
            assert_eq!(Self::flow_of(leaf), flow, "leaf {flow}");
            if flow >= self.flows {
                assert_eq!(
                    Self::key_of_entry(leaf),
                    0,
                    "fattest-tree padding leaf {flow}"
                );
            } else if !changed(flow) {
                let current = Self::key_of(&backlog_of, flow);
                assert_eq!(
                    Self::key_of_entry(leaf),
                    current,
                    "fattest-tree key of flow {flow}"
                );
            }
        }
        for n in 1..self.leaves {
            let expected = self.node[2 * n].max(self.node[2 * n + 1]);
            assert_eq!(self.node[n], expected, "fattest-tree node {n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets flow `f`'s backlog to `bytes` (`None`: empty), telling `b` as `Levels` does.
    fn set(b: &mut Backlogged, flows: &mut [Flow<()>], f: usize, bytes: Option<u64>) {
        let was = b.contains(f);
        flows[f].backlog_bytes = bytes.unwrap_or(0);
        match (was, bytes.is_some()) {
            (false, true) => b.fill(f),
            (true, false) => b.empty(f),
            _ => {}
        }
        b.mark(f, &mut flows[f].fattest_dirty);
    }

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
        for n in [1usize, 2, 3, 7, 64, 100] {
            let new_flows = |n: usize| (0..n).map(|_| Flow::<()>::new()).collect::<Vec<_>>();
            let (mut tree_flows, mut scan_flows) = (new_flows(n), new_flows(n));
            let mut tree = Backlogged::new(n, FattestSearch::Tree);
            let mut plain = Backlogged::new(n, FattestSearch::Scan);
            for step in 0..2000 {
                if step % 500 == 499 {
                    // A tin added: the structure grows.
                    tree_flows.push(Flow::new());
                    scan_flows.push(Flow::new());
                    tree.grow(tree_flows.len());
                    plain.grow(scan_flows.len());
                }
                let f = next(tree_flows.len() as u64) as usize;
                // Few distinct sizes, so ties are common; zero-length packets too.
                let bytes = match next(4) {
                    0 => None,
                    _ => Some(next(4) * 100),
                };
                set(&mut tree, &mut tree_flows, f, bytes);
                set(&mut plain, &mut scan_flows, f, bytes);
                if next(3) == 0 {
                    tree.assert_consistent(&tree_flows);
                    assert_eq!(
                        tree.fattest(&mut tree_flows),
                        plain.fattest(&mut scan_flows),
                        "flows {n} step {step}"
                    );
                    tree.assert_consistent(&tree_flows);
                }
            }
        }
    }

    #[test]
    fn ties_go_to_the_lowest_index_and_empty_flows_never_win() {
        let mut flows: Vec<Flow<()>> = (0..8).map(|_| Flow::new()).collect();
        let mut b = Backlogged::new(8, FattestSearch::Tree);
        assert_eq!(b.fattest(&mut flows), None);
        for f in [4, 2, 6] {
            set(&mut b, &mut flows, f, Some(300));
        }
        assert_eq!(b.fattest(&mut flows), Some(2));
        // Flow 6 holds only zero-length packets: it wins once it is the only one.
        set(&mut b, &mut flows, 6, Some(0));
        set(&mut b, &mut flows, 2, None);
        set(&mut b, &mut flows, 4, None);
        assert_eq!(b.fattest(&mut flows), Some(6));
        b.assert_consistent(&flows);
    }
}
