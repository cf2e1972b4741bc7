//! The event queue: a priority queue keyed by (time, insertion sequence), so events at
//! the same instant run in the order they were scheduled and a run is reproducible
//! (STYLE.md; quinn-proto and nexosim do the same).

use airq::Instant;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: Instant,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    /// Reversed, so that the max-heap pops the earliest (then first-scheduled) entry.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// Events of type `E` in time order, ties in scheduling order.
///
/// Beside the heap, `LANES` lanes each hold at most one pending event: a source that
/// never has more than one event outstanding (a wired link's next arrival) and makes
/// most of the events uses a lane, and a pop compares a few entries instead of sifting
/// the heap. Lane events take their sequence number from the same counter, so the order
/// is exactly the one a single heap would give.
pub struct EventQueue<E, const LANES: usize = 0> {
    heap: BinaryHeap<Entry<E>>,
    lanes: [Option<Entry<E>>; LANES],
    seq: u64,
}

impl<E, const LANES: usize> Default for EventQueue<E, LANES> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            lanes: std::array::from_fn(|_| None),
            seq: 0,
        }
    }
}

impl<E, const LANES: usize> EventQueue<E, LANES> {
    fn entry(&mut self, at: Instant, event: E) -> Entry<E> {
        let seq = self.seq;
        self.seq += 1;
        Entry { at, seq, event }
    }

    pub fn schedule(&mut self, at: Instant, event: E) {
        let entry = self.entry(at, event);
        self.heap.push(entry);
    }

    /// Schedules the one pending event of `lane`. Out of contract (a debug assertion)
    /// if the lane already holds one; it would be replaced.
    pub fn schedule_in_lane(&mut self, lane: usize, at: Instant, event: E) {
        debug_assert!(self.lanes[lane].is_none(), "lane {lane} is busy");
        self.lanes[lane] = Some(self.entry(at, event));
    }

    /// The earliest lane entry if it comes before the heap's head.
    fn first_lane(&self) -> Option<usize> {
        let key = |e: &Entry<E>| (e.at, e.seq);
        let (lane, first) = self
            .lanes
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i, key(e))))
            .min_by_key(|&(_, k)| k)?;
        match self.heap.peek() {
            Some(h) if key(h) < first => None,
            _ => Some(lane),
        }
    }

    /// The time of the next event.
    pub fn peek_time(&self) -> Option<Instant> {
        match self.first_lane() {
            Some(lane) => self.lanes[lane].as_ref().map(|e| e.at),
            None => self.heap.peek().map(|e| e.at),
        }
    }

    pub fn pop(&mut self) -> Option<(Instant, E)> {
        let entry = match self.first_lane() {
            Some(lane) => self.lanes[lane].take(),
            None => self.heap.pop(),
        };
        entry.map(|e| (e.at, e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_ties_in_scheduling_order() {
        let mut q: EventQueue<&str> = EventQueue::default();
        let t = |us| Instant::from_micros(us);
        q.schedule(t(5), "c");
        q.schedule(t(1), "a");
        q.schedule(t(5), "d");
        q.schedule(t(1), "b");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
    }

    /// Lane events interleave with heap events exactly as one heap would order them.
    #[test]
    fn lanes_keep_the_single_heap_order() {
        let t = |us| Instant::from_micros(us);
        let mut q: EventQueue<&str, 2> = EventQueue::default();
        q.schedule(t(5), "c");
        q.schedule_in_lane(1, t(1), "a");
        q.schedule_in_lane(0, t(5), "d");
        q.schedule(t(1), "b");
        q.schedule(t(0), "first");
        assert_eq!(q.len(), 5);
        assert_eq!(q.peek_time(), Some(t(0)));
        let mut order = Vec::new();
        while let Some((_, e)) = q.pop() {
            order.push(e);
            if e == "a" {
                q.schedule_in_lane(1, t(5), "e"); // the lane is free again
            }
        }
        assert_eq!(order, ["first", "a", "b", "c", "d", "e"]);
        assert!(q.is_empty());
    }
}
