//! The backoff countdowns of the EDCAFs that share one AIFSN, kept in the order their
//! counters reach zero (issue 19: the medium found the next transmitter by walking every
//! active EDCAF, 71% of a 1000-station run).
//!
//! Every EDCAF of one AIFSN that contends from the start of an idle period counts down the
//! same idle slots: those after AIFS\[AC\] until the medium turns busy (IEEE 802.11-2020
//! 10.23.2.4). So the group keeps one clock, `counted`, the idle slots such an EDCAF has
//! counted since the simulation began, and each EDCAF is keyed by the value of that clock
//! at which its counter would reach zero, `end` = `counted` + counter. A busy period then
//! advances one clock instead of every counter, and freezing needs no work at all.
//!
//! The keys are in a binary min-heap that knows each EDCAF's position, so a new counter
//! (a redraw, an activation, a deactivation) costs O(log n); equal ends — a collision —
//! are found together by walking the heap's top while it holds the least key.

use super::EdcafId;

/// Position of an EDCAF that is not in the heap.
const ABSENT: u32 = u32::MAX;

/// The active EDCAFs of one AIFSN.
#[derive(Clone, Debug)]
pub(super) struct Countdown {
    pub aifsn: u8,
    /// Idle slots counted down so far by an EDCAF of this AIFSN that has contended
    /// throughout.
    pub counted: u64,
    /// (end, EDCAF): the value of `counted` at which each one's counter reaches zero; a
    /// min-heap.
    heap: Vec<(u64, EdcafId)>,
    /// Each EDCAF's index in `heap`, or `ABSENT`.
    position: Vec<u32>,
}

impl Countdown {
    /// The countdown of `aifsn` among `edcafs` EDCAFs.
    pub fn new(aifsn: u8, edcafs: usize) -> Countdown {
        Countdown {
            aifsn,
            counted: 0,
            heap: Vec::new(),
            position: vec![ABSENT; edcafs],
        }
    }

    pub fn insert(&mut self, end: u64, id: EdcafId) {
        debug_assert_eq!(
            self.position[id.0 as usize], ABSENT,
            "{id:?} is queued once"
        );
        self.heap.push((end, id));
        self.sift_up(self.heap.len() - 1);
    }

    pub fn remove(&mut self, id: EdcafId) {
        let at = std::mem::replace(&mut self.position[id.0 as usize], ABSENT) as usize;
        debug_assert!(at < self.heap.len(), "{id:?} is queued");
        let last = self.heap.pop().expect("a queued EDCAF");
        if at < self.heap.len() {
            self.heap[at] = last;
            self.reposition(at, last.0);
        }
    }

    /// Moves the queued `id` to `end`.
    pub fn update(&mut self, id: EdcafId, end: u64) {
        let at = self.position[id.0 as usize] as usize;
        debug_assert!(at < self.heap.len(), "{id:?} is queued");
        self.heap[at].0 = end;
        self.reposition(at, end);
    }

    /// The earliest end, if any EDCAF contends.
    pub fn first_end(&self) -> Option<u64> {
        self.heap.first().map(|&(end, _)| end)
    }

    /// Appends the EDCAFs with the earliest end to `out` (in no particular order).
    pub fn first(&self, out: &mut Vec<EdcafId>) {
        let Some(end) = self.first_end() else {
            return;
        };
        // The entries equal to the root form a subtree at the root: walk it.
        let from = out.len();
        out.push(self.heap[0].1);
        let mut next = from;
        while next < out.len() {
            let at = self.position[out[next].0 as usize] as usize;
            for child in [2 * at + 1, 2 * at + 2] {
                if let Some(&(e, id)) = self.heap.get(child) {
                    if e == end {
                        out.push(id);
                    }
                }
            }
            next += 1;
        }
    }

    /// Restores the heap order around `at`, whose key changed to `end`.
    fn reposition(&mut self, at: usize, end: u64) {
        if at > 0 && end < self.heap[(at - 1) / 2].0 {
            self.sift_up(at);
        } else {
            self.sift_down(at);
        }
    }

    fn sift_up(&mut self, mut at: usize) {
        let entry = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if self.heap[parent].0 <= entry.0 {
                break;
            }
            self.heap[at] = self.heap[parent];
            self.position[self.heap[at].1 .0 as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = entry;
        self.position[entry.1 .0 as usize] = at as u32;
    }

    fn sift_down(&mut self, mut at: usize) {
        let entry = self.heap[at];
        let len = self.heap.len();
        loop {
            let left = 2 * at + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.heap[right].0 < self.heap[left].0 {
                right
            } else {
                left
            };
            if entry.0 <= self.heap[child].0 {
                break;
            }
            self.heap[at] = self.heap[child];
            self.position[self.heap[at].1 .0 as usize] = at as u32;
            at = child;
        }
        self.heap[at] = entry;
        self.position[entry.1 .0 as usize] = at as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The heap's least ends are those of a plain list under random inserts, updates
        /// and removals.
        #[test]
        fn first_is_the_least_end(ops in prop::collection::vec((0u32..40, 0u64..8, 0u8..3), 1..200)) {
            let mut countdown = Countdown::new(2, 40);
            let mut list: Vec<Option<u64>> = vec![None; 40];
            for (id, end, op) in ops {
                match (op, list[id as usize]) {
                    (0, None) => countdown.insert(end, EdcafId(id)),
                    (0 | 1, Some(_)) => countdown.update(EdcafId(id), end),
                    (2, Some(_)) => countdown.remove(EdcafId(id)),
                    _ => continue,
                }
                list[id as usize] = if op == 2 { None } else { Some(end) };
                let least = list.iter().flatten().min().copied();
                prop_assert_eq!(countdown.first_end(), least);
                let mut first = Vec::new();
                countdown.first(&mut first);
                first.sort_unstable();
                let expected: Vec<EdcafId> = (0..40)
                    .filter(|&i| least.is_some() && list[i as usize] == least)
                    .map(EdcafId)
                    .collect();
                prop_assert_eq!(first, expected);
            }
        }
    }
}
