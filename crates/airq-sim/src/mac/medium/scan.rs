//! The linear scan the medium used before its backoff queue (issue 19): every call walks
//! every EDCAF. Kept as the test oracle the queue is checked against (`medium::tests`),
//! with post-backoff (IEEE 802.11-2020 10.23.2.2) written the plain way: every EDCAF,
//! contending or not, holds its counter and the slot boundary it counts from, and each
//! access folds the idle slots into every counter.

use super::{priority, Access, EdcafId, EDCAFS_PER_NODE};
use crate::engine::rng::RngStream;
use crate::mac::edca::EdcaAcParams;
use crate::mac::timing::MacTiming;
use crate::net::packet::NodeId;
use airq::{Duration, Instant};

/// One EDCA function's state.
#[derive(Clone, Debug)]
struct Edcaf {
    params: EdcaAcParams,
    cw: u16,
    /// Backoff slots left as of boundary `from` of the current idle period.
    backoff: u64,
    /// The slot boundary after AIFS of the current idle period from which `backoff`
    /// counts down (0: its start).
    from: u64,
    /// Has a frame and contends.
    active: bool,
}

/// The shared medium and every EDCAF contending for it.
pub struct ScanMedium {
    timing: MacTiming,
    /// EIFS − DIFS: the extra deferral after a collision.
    eifs_extra: Duration,
    edcafs: Vec<Edcaf>,
    /// Busy with an exchange; otherwise idle since `idle_since`.
    busy: bool,
    idle_since: Instant,
    after_collision: bool,
    /// One backoff stream per node.
    rngs: Vec<RngStream>,
}

impl ScanMedium {
    /// A medium for the AP and `stations` stations; `params(node, access)` gives each
    /// EDCAF's parameters and `rngs` one backoff stream per node (AP first).
    pub fn new(
        timing: MacTiming,
        eifs: Duration,
        nodes: usize,
        params: impl Fn(NodeId, Access) -> EdcaAcParams,
        mut rngs: Vec<RngStream>,
    ) -> ScanMedium {
        assert_eq!(rngs.len(), nodes, "one backoff stream per node");
        let edcafs = (0..nodes * EDCAFS_PER_NODE)
            .map(|i| {
                let id = EdcafId(i as u32);
                let params = params(id.node(), id.access());
                let backoff = rngs[id.node().index()].uniform_inclusive(u32::from(params.cw_min));
                Edcaf {
                    params,
                    cw: params.cw_min,
                    backoff: u64::from(backoff),
                    from: 0,
                    active: false,
                }
            })
            .collect();
        ScanMedium {
            timing,
            eifs_extra: eifs.saturating_sub(timing.difs()),
            edcafs,
            busy: false,
            idle_since: Instant::ZERO,
            after_collision: false,
            rngs,
        }
    }

    fn defer(&self, e: &Edcaf) -> Duration {
        let aifs = self.timing.aifs(e.params.aifsn);
        if self.after_collision {
            aifs + self.eifs_extra
        } else {
            aifs
        }
    }

    /// Slot boundaries after AIFS passed by `now`: (floor, ceiling).
    fn boundaries(&self, e: &Edcaf, now: Instant) -> (u64, u64) {
        let start = self.idle_since + self.defer(e);
        if now <= start {
            return (0, 0);
        }
        let (t, slot) = ((now - start).as_nanos(), self.timing.slot_time.as_nanos());
        (t / slot, t.div_ceil(slot))
    }

    /// The counter at boundary `k` (saturating at zero once counted down).
    fn counter_at(e: &Edcaf, k: u64) -> u64 {
        if k >= e.from {
            e.backoff.saturating_sub(k - e.from)
        } else {
            e.backoff + (e.from - k)
        }
    }

    /// The EDCAF has a frame (again) at `now`.
    pub fn activate(&mut self, id: EdcafId, now: Instant) {
        let e = &self.edcafs[id.0 as usize];
        if e.active {
            return;
        }
        if self.busy {
            if e.backoff == 0 {
                let cw = u32::from(e.cw);
                let b = self.rngs[id.node().index()].uniform_inclusive(cw);
                self.edcafs[id.0 as usize].backoff = u64::from(b);
            }
        } else {
            let (floor, ceil) = self.boundaries(e, now);
            if Self::counter_at(e, floor) == 0 {
                let e = &mut self.edcafs[id.0 as usize];
                e.backoff = 0;
                e.from = ceil;
            }
        }
        self.edcafs[id.0 as usize].active = true;
    }

    /// The EDCAF has nothing to send; its counter keeps counting (post-backoff).
    pub fn deactivate(&mut self, id: EdcafId) {
        self.edcafs[id.0 as usize].active = false;
    }

    fn access_time(&self, e: &Edcaf) -> Instant {
        self.idle_since + self.defer(e) + self.timing.slot_time * (e.from + e.backoff)
    }

    /// When the next transmission starts, if the medium is idle and someone contends.
    pub fn next_access(&self) -> Option<Instant> {
        if self.busy {
            return None;
        }
        self.edcafs
            .iter()
            .filter(|e| e.active)
            .map(|e| self.access_time(e))
            .min()
    }

    /// Starts the transmissions due at `now` (= [`next_access`](Self::next_access)):
    /// fills `winners` with the EDCAFs that transmit, in index order, and `internal` with
    /// those that lost an internal collision (already counted as failed). Every
    /// counter advances by the idle slots it saw, and the medium becomes busy.
    pub fn start(&mut self, now: Instant, winners: &mut Vec<EdcafId>, internal: &mut Vec<EdcafId>) {
        winners.clear();
        internal.clear();
        for i in 0..self.edcafs.len() {
            let e = &self.edcafs[i];
            if e.active && self.access_time(e) == now {
                winners.push(EdcafId(i as u32));
            }
            let (floor, _) = self.boundaries(e, now);
            let backoff = Self::counter_at(e, floor);
            let e = &mut self.edcafs[i];
            e.backoff = backoff;
            e.from = 0;
        }
        self.busy = true;
        // Internal collisions: per node, the highest priority (Vo first, then the
        // beacon function above all) keeps the medium.
        let mut kept = 0;
        for i in 0..winners.len() {
            let id = winners[i];
            if kept > 0 && winners[kept - 1].node() == id.node() {
                let prev = winners[kept - 1];
                let (win, lose) = if priority(id) > priority(prev) {
                    (id, prev)
                } else {
                    (prev, id)
                };
                winners[kept - 1] = win;
                internal.push(lose);
            } else {
                winners[kept] = id;
                kept += 1;
            }
        }
        winners.truncate(kept);
        for &id in internal.iter() {
            self.failed(id);
        }
    }

    /// The exchange ended at `end`; `collision` if several transmitted at once.
    pub fn end(&mut self, end: Instant, collision: bool) {
        self.busy = false;
        self.idle_since = end;
        self.after_collision = collision;
    }

    /// The transmitted frame (or aggregate) was acknowledged, or dropped at its retry
    /// limit: CW back to CWmin, a new counter.
    pub fn succeeded(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        e.cw = e.params.cw_min;
        self.redraw(id);
    }

    /// The transmission failed: CW doubles (up to CWmax), a new counter.
    pub fn failed(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        e.cw = e.params.next_cw(e.cw);
        self.redraw(id);
    }

    fn redraw(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        e.backoff = u64::from(self.rngs[id.node().index()].uniform_inclusive(u32::from(e.cw)));
        e.from = 0;
    }

    /// The EDCAF's counter as the queue reports it: slots from the current idle period's
    /// first boundary to its end.
    pub fn backoff(&self, id: EdcafId) -> u64 {
        let e = &self.edcafs[id.0 as usize];
        e.from + e.backoff
    }
}
