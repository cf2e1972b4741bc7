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
/// A calendar in two tiers (Brown's calendar queue, CACM 31(10), 1988, with a binary
/// heap for the current bucket): the events before `horizon` wait in a small binary
/// heap; the later ones within [`SLOTS`] slots of [`SLOT_NS`] wait unsorted in the
/// wheel's slot of their time, and later still in a binary heap of distant events.
/// Each time the near heap runs dry the horizon moves on by a slot and that slot's
/// events go into the heap. Timers set far ahead (a ping interval, a TCP
/// retransmission timeout) so cost a push into a list and one into a heap of the
/// current millisecond's events, instead of sifts through a heap of every pending
/// timer (2,850 of them at 1000 stations: issue 19). The order is exactly a single
/// heap's: every near event comes before every event in the wheel, and those before
/// every distant one.
///
/// Beside them, `LANES` lanes each hold at most one pending event: a source that
/// never has more than one event outstanding (a wired link's next arrival) and makes
/// most of the events uses a lane, and a pop compares a few entries instead of sifting
/// the heap. Lane events take their sequence number from the same counter, so the order
/// is exactly the one a single heap would give.
pub struct EventQueue<E, const LANES: usize = 0> {
    /// The events before `horizon`.
    near: BinaryHeap<Reverse<Entry<E>>>,
    /// Slot `(t / SLOT_NS) % SLOTS` holds the events at `t` in
    /// `[horizon, horizon + SLOTS × SLOT_NS)`, unordered.
    wheel: Vec<Vec<Entry<E>>>,
    in_wheel: usize,
    /// The events at or after the wheel's end.
    distant: BinaryHeap<Reverse<Entry<E>>>,
    /// A multiple of `SLOT_NS`; wider than a time, so that it can pass the last one.
    horizon: u128,
    lanes: [Option<Entry<E>>; LANES],
    seq: u64,
}

/// The wheel's slot width, ns (about a millisecond).
pub const SLOT_NS: u64 = 1 << 20;
/// The wheel's slots: it spans about 1.07 s.
pub const SLOTS: usize = 1024;
const SPAN_NS: u128 = SLOT_NS as u128 * SLOTS as u128;

impl<E, const LANES: usize> Default for EventQueue<E, LANES> {
    fn default() -> Self {
        EventQueue {
            near: BinaryHeap::new(),
            wheel: (0..SLOTS).map(|_| Vec::new()).collect(),
            in_wheel: 0,
            distant: BinaryHeap::new(),
            horizon: 0,
            lanes: std::array::from_fn(|_| None),
            seq: 0,
        }
    }
}

fn slot_of(at_ns: u128) -> usize {
    (at_ns / u128::from(SLOT_NS)) as usize % SLOTS
}

impl<E, const LANES: usize> EventQueue<E, LANES> {
    fn next_key(&mut self, at: Instant) -> Key {
        let seq = self.seq;
        self.seq += 1;
        key(at, seq)
    }

    pub fn schedule(&mut self, at: Instant, event: E) {
        let key = self.next_key(at);
        self.place(Entry { key, event });
    }

    fn place(&mut self, entry: Entry<E>) {
        let at = entry.key >> 64;
        if at < self.horizon {
            self.near.push(Reverse(entry));
        } else if at - self.horizon < SPAN_NS {
            self.wheel[slot_of(at)].push(entry);
            self.in_wheel += 1;
        } else {
            self.distant.push(Reverse(entry));
        }
    }

    /// Schedules the one pending event of `lane`. Out of contract (a debug assertion)
    /// if the lane already holds one; it would be replaced.
    pub fn schedule_in_lane(&mut self, lane: usize, at: Instant, event: E) {
        debug_assert!(self.lanes[lane].is_none(), "lane {lane} is busy");
        let key = self.next_key(at);
        self.lanes[lane] = Some(Entry { key, event });
    }

    /// Moves the horizon on until the near heap holds the earliest of the events
    /// outside the lanes (or there are none).
    fn fill_near(&mut self) {
        while self.near.is_empty() && (self.in_wheel > 0 || !self.distant.is_empty()) {
            if self.in_wheel == 0 {
                // Nothing within the wheel: jump to the slot of the earliest distant
                // event.
                let at = self.distant.peek().map_or(0, |e| e.0.key >> 64);
                self.horizon = at - at % u128::from(SLOT_NS);
            }
            let slot = slot_of(self.horizon);
            self.horizon += u128::from(SLOT_NS);
            let mut entries = std::mem::take(&mut self.wheel[slot]);
            self.in_wheel -= entries.len();
            self.near.extend(entries.drain(..).map(Reverse));
            // The emptied slot keeps its capacity for when the wheel comes round.
            self.wheel[slot] = entries;
            // Distant events now within the wheel's span join it (or the near heap).
            let end = self.horizon + SPAN_NS;
            while self.distant.peek().is_some_and(|e| e.0.key >> 64 < end) {
                let Reverse(e) = self.distant.pop().expect("peeked");
                self.place(e);
            }
        }
    }

    /// The key of the next event outside the lanes, without moving the horizon.
    fn peek_queued(&self) -> Option<Key> {
        if let Some(e) = self.near.peek() {
            return Some(e.0.key);
        }
        let first = slot_of(self.horizon);
        let in_wheel = (0..SLOTS)
            .map(|i| &self.wheel[(first + i) % SLOTS])
            .find(|slot| !slot.is_empty())
            .and_then(|slot| slot.iter().map(|e| e.key).min());
        in_wheel.or_else(|| self.distant.peek().map(|e| e.0.key))
    }

    /// The key of the next event, and its lane if it is in one, given the next key
    /// outside the lanes.
    fn first(&self, queued: Option<Key>) -> Option<(Option<usize>, Key)> {
        self.lanes
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (Some(i), e.key)))
            .chain(queued.map(|k| (None, k)))
            .min_by_key(|&(_, k)| k)
    }

    /// The time of the next event.
    pub fn peek_time(&self) -> Option<Instant> {
        self.first(self.peek_queued()).map(|(_, k)| time_of(k))
    }

    /// The next event if it is due by `until`.
    pub fn pop_until(&mut self, until: Instant) -> Option<(Instant, E)> {
        self.fill_near();
        let (lane, key) = self.first(self.near.peek().map(|e| e.0.key))?;
        let at = time_of(key);
        if at > until {
            return None;
        }
        let event = match lane {
            Some(lane) => self.lanes[lane].take().map(|e| e.event),
            None => self.near.pop().map(|e| e.0.event),
        };
        event.map(|e| (at, e))
    }

    pub fn pop(&mut self) -> Option<(Instant, E)> {
        self.pop_until(Instant::from_nanos(u64::MAX))
    }

    pub fn len(&self) -> usize {
        self.near.len() + self.in_wheel + self.distant.len() + self.lanes.iter().flatten().count()
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

    use proptest::prelude::prop_oneof;

    /// Events at the end of time (an external simulation's flows that never start)
    /// and ones far apart keep their order.
    #[test]
    fn events_far_apart_and_at_the_end_of_time() {
        let mut q: EventQueue<&str> = EventQueue::default();
        let end = Instant::from_nanos(u64::MAX);
        q.schedule(end, "never");
        q.schedule(Instant::from_nanos(5 * SPAN_NS as u64 + 3), "distant");
        q.schedule(Instant::from_nanos(SLOT_NS * 7), "in the wheel");
        q.schedule(end, "never either");
        q.schedule(Instant::from_nanos(10), "near");
        assert_eq!(q.peek_time(), Some(Instant::from_nanos(10)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(
            order,
            ["near", "in the wheel", "distant", "never", "never either"]
        );
        assert!(q.is_empty());
        q.schedule(Instant::from_nanos(1), "after the end");
        assert_eq!(q.pop().map(|(_, e)| e), Some("after the end"));
    }

    proptest::proptest! {
        /// Any mix of schedules, lane events, pops and `pop_until`s gives the order of
        /// one binary heap of (time, scheduling order).
        #[test]
        fn matches_one_binary_heap(
            ops in proptest::collection::vec((0u8..4, prop_oneof![0u64..50_000, 0u64..3 * SPAN_NS as u64]), 1..300),
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
