//! The event queue: a priority queue keyed by (time, insertion sequence), so events at
//! the same instant run in the order they were scheduled and a run is reproducible
//! (STYLE.md; quinn-proto and nexosim do the same).

use airq::Instant;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// An event's place in the order: its time in the high 64 bits, its sequence number in
/// the low ones, so that one integer comparison orders two events (a tuple of the two
/// took 2.5% more of the instructions at 1000 stations: issue 19).
type Key = u128;

fn key(at: Instant, seq: u64) -> Key {
    u128::from(at.as_nanos()) << 64 | u128::from(seq)
}

fn time_of(key: Key) -> Instant {
    Instant::from_nanos((key >> 64) as u64)
}

struct Entry<E> {
    key: Key,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
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
    heap: BinaryHeap<Reverse<Entry<E>>>,
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
    fn next_key(&mut self, at: Instant) -> Key {
        let seq = self.seq;
        self.seq += 1;
        key(at, seq)
    }

    pub fn schedule(&mut self, at: Instant, event: E) {
        let key = self.next_key(at);
        self.heap.push(Reverse(Entry { key, event }));
    }

    /// Schedules the one pending event of `lane`. Out of contract (a debug assertion)
    /// if the lane already holds one; it would be replaced.
    pub fn schedule_in_lane(&mut self, lane: usize, at: Instant, event: E) {
        debug_assert!(self.lanes[lane].is_none(), "lane {lane} is busy");
        let key = self.next_key(at);
        self.lanes[lane] = Some(Entry { key, event });
    }

    /// The key of the next event, and its lane if it is in one.
    fn first(&self) -> Option<(Option<usize>, Key)> {
        let heap = self.heap.peek().map(|e| (None, e.0.key));
        self.lanes
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (Some(i), e.key)))
            .chain(heap)
            .min_by_key(|&(_, k)| k)
    }

    /// The time of the next event.
    pub fn peek_time(&self) -> Option<Instant> {
        self.first().map(|(_, k)| time_of(k))
    }

    /// The next event if it is due by `until`.
    pub fn pop_until(&mut self, until: Instant) -> Option<(Instant, E)> {
        let (lane, key) = self.first()?;
        let at = time_of(key);
        if at > until {
            return None;
        }
        let event = match lane {
            Some(lane) => self.lanes[lane].take().map(|e| e.event),
            None => self.heap.pop().map(|e| e.0.event),
        };
        event.map(|e| (at, e))
    }

    pub fn pop(&mut self) -> Option<(Instant, E)> {
        self.pop_until(Instant::from_nanos(u64::MAX))
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

    /// An event scheduled after a `pop_until` found nothing due, before the event it
    /// looked at (a caller scheduling between two runs), comes first.
    #[test]
    fn events_scheduled_between_runs_come_first() {
        let t = |us| Instant::from_micros(us);
        let mut q: EventQueue<&str> = EventQueue::default();
        q.schedule(t(10), "later");
        assert!(q.pop_until(t(5)).is_none());
        q.schedule(t(3), "late");
        q.schedule(t(3), "late too");
        assert_eq!(q.peek_time(), Some(t(3)));
        assert_eq!(q.len(), 3);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, ["late", "late too", "later"]);
    }

    proptest::proptest! {
        /// Any mix of schedules, lane events, pops and `pop_until`s gives the order of
        /// one binary heap of (time, scheduling order).
        #[test]
        fn matches_one_binary_heap(
            ops in proptest::collection::vec((0u8..4, 0u64..50_000), 1..300),
        ) {
            let mut q: EventQueue<u64, 1> = EventQueue::default();
            let mut reference = BinaryHeap::new();
            let (mut now, mut seq) = (0u64, 0u64);
            for (op, delta) in ops {
                match op {
                    0 => {
                        q.schedule(Instant::from_nanos(now + delta), seq);
                        reference.push(Reverse((now + delta, seq)));
                        seq += 1;
                    }
                    1 if q.lanes[0].is_none() => {
                        q.schedule_in_lane(0, Instant::from_nanos(now + delta), seq);
                        reference.push(Reverse((now + delta, seq)));
                        seq += 1;
                    }
                    2 => {
                        let until = now + delta / 4;
                        let expected = reference.peek().filter(|r| r.0 .0 <= until).copied();
                        let got = q.pop_until(Instant::from_nanos(until));
                        proptest::prop_assert_eq!(got.map(|(at, e)| (at.as_nanos(), e)), expected.map(|r| r.0));
                        if let Some(Reverse((at, _))) = expected {
                            reference.pop();
                            now = at;
                        }
                    }
                    _ => {
                        proptest::prop_assert_eq!(q.peek_time().map(|t| t.as_nanos()), reference.peek().map(|r| r.0 .0));
                    }
                }
                proptest::prop_assert_eq!(q.len(), reference.len());
            }
            while let Some(Reverse(expected)) = reference.pop() {
                proptest::prop_assert_eq!(q.pop().map(|(at, e)| (at.as_nanos(), e)), Some(expected));
            }
        }
    }
}
