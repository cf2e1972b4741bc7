//! When a driver next acts of its own accord, per AC: the instants its deferred work is
//! due (the TX tasklet's refill, a firmware fetch, a retried round). The AP reports the
//! earliest as its `poll_at`; the event loop wakes it then.

use airq::{Ac, Duration, Instant};

pub(super) struct Deadlines {
    host_latency: Duration,
    at: [Option<Instant>; Ac::COUNT],
}

impl Deadlines {
    pub(super) fn new(host_latency: Duration) -> Deadlines {
        Deadlines {
            host_latency,
            at: [None; Ac::COUNT],
        }
    }

    /// The earliest instant anything is due.
    pub(super) fn poll_at(&self) -> Option<Instant> {
        self.at.iter().flatten().min().copied()
    }

    /// Work for `ac` one host latency after `now` (or sooner, if some is due then).
    pub(super) fn defer(&mut self, ac: Ac, now: Instant) {
        let at = now + self.host_latency;
        let slot = &mut self.at[ac.index()];
        *slot = Some(slot.map_or(at, |t| t.min(at)));
    }

    /// Work for `ac` due at `now`.
    pub(super) fn due_now(&mut self, ac: Ac, now: Instant) {
        self.at[ac.index()] = Some(now);
    }

    /// The ACs whose work is due at `now`, no longer pending.
    pub(super) fn take_due(&mut self, now: Instant) -> [bool; Ac::COUNT] {
        Ac::ALL.map(|ac| {
            let due = self.at[ac.index()].is_some_and(|t| t <= now);
            if due {
                self.at[ac.index()] = None;
            }
            due
        })
    }
}
