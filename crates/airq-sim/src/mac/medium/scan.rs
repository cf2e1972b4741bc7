//! The linear scan the medium used before its backoff queue (issue 19): every call walks
//! every active EDCAF. Kept verbatim as the test oracle the queue is checked against
//! (`medium::tests`); only `backoff` was added, to compare counters.

use super::{priority, Access, EdcafId, EDCAFS_PER_NODE};
use crate::engine::rng::RngStream;
use crate::mac::edca::EdcaAcParams;
use crate::net::packet::NodeId;
use airq::phy::MacTiming;
use airq::{Duration, Instant};

/// One EDCA function's state.
#[derive(Clone, Debug)]
struct Edcaf {
    params: EdcaAcParams,
    cw: u16,
    /// Backoff slots left; `None` when no counter is drawn.
    backoff: Option<u32>,
    /// Has a frame and contends.
    active: bool,
    /// Start of the idle period its countdown runs in (slot-aligned).
    reference: Instant,
    /// Position in `Medium::active`.
    active_pos: usize,
}

/// The shared medium and every EDCAF contending for it.
pub struct ScanMedium {
    timing: MacTiming,
    /// EIFS − DIFS: the extra deferral after a collision.
    eifs_extra: Duration,
    edcafs: Vec<Edcaf>,
    active: Vec<EdcafId>,
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
        rngs: Vec<RngStream>,
    ) -> ScanMedium {
        assert_eq!(rngs.len(), nodes, "one backoff stream per node");
        let edcafs = (0..nodes * EDCAFS_PER_NODE)
            .map(|i| {
                let id = EdcafId(i as u32);
                let params = params(id.node(), id.access());
                Edcaf {
                    params,
                    cw: params.cw_min,
                    backoff: None,
                    active: false,
                    reference: Instant::ZERO,
                    active_pos: 0,
                }
            })
            .collect();
        ScanMedium {
            timing,
            eifs_extra: eifs.saturating_sub(timing.difs()),
            edcafs,
            active: Vec::new(),
            busy: false,
            idle_since: Instant::ZERO,
            after_collision: false,
            rngs,
        }
    }

    /// The EDCAF has a frame (again) at `now`.
    pub fn activate(&mut self, id: EdcafId, now: Instant) {
        let slot = self.timing.slot_time;
        let idle_since = self.idle_since;
        let busy = self.busy;
        let e = &mut self.edcafs[id.0 as usize];
        if e.active {
            return;
        }
        e.active = true;
        if e.backoff.is_none() {
            let cw = e.cw;
            e.backoff = Some(self.rngs[id.node().index()].uniform_inclusive(u32::from(cw)));
        }
        // Count from the first slot boundary of the idle period at or after `now`.
        e.reference = if busy || now <= idle_since {
            idle_since
        } else {
            let slots = (now - idle_since).as_nanos().div_ceil(slot.as_nanos());
            idle_since + slot * slots
        };
        e.active_pos = self.active.len();
        self.active.push(id);
    }

    /// The EDCAF has nothing to send; its counter is kept (post-backoff).
    pub fn deactivate(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        if !e.active {
            return;
        }
        e.active = false;
        let pos = e.active_pos;
        self.active.swap_remove(pos);
        if let Some(&moved) = self.active.get(pos) {
            self.edcafs[moved.0 as usize].active_pos = pos;
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

    fn access_time(&self, e: &Edcaf) -> Instant {
        let b = u64::from(e.backoff.unwrap_or(0));
        e.reference + self.defer(e) + self.timing.slot_time * b
    }

    /// When the next transmission starts, if the medium is idle and someone contends.
    pub fn next_access(&self) -> Option<Instant> {
        if self.busy {
            return None;
        }
        self.active
            .iter()
            .map(|id| self.access_time(&self.edcafs[id.0 as usize]))
            .min()
    }

    /// Starts the transmissions due at `now` (= [`next_access`](Self::next_access)):
    /// fills `winners` with the EDCAFs that transmit, in index order, and `internal` with
    /// those that lost an internal collision (already counted as failed). The others'
    /// counters advance by the idle slots they saw, and the medium becomes busy.
    pub fn start(&mut self, now: Instant, winners: &mut Vec<EdcafId>, internal: &mut Vec<EdcafId>) {
        winners.clear();
        internal.clear();
        let slot = self.timing.slot_time.as_nanos();
        for i in 0..self.active.len() {
            let id = self.active[i];
            let e = &self.edcafs[id.0 as usize];
            let start = e.reference + self.defer(e);
            if self.access_time(e) == now {
                winners.push(id);
            } else if now > start {
                let counted = ((now - start).as_nanos() / slot) as u32;
                let e = &mut self.edcafs[id.0 as usize];
                let b = e.backoff.as_mut().expect("an active EDCAF has a counter");
                debug_assert!(*b > counted);
                *b -= counted;
            }
        }
        winners.sort_unstable();
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
        for &id in winners.iter() {
            self.edcafs[id.0 as usize].backoff = Some(0);
        }
        self.busy = true;
    }

    /// The exchange ended at `end`; `collision` if several transmitted at once.
    pub fn end(&mut self, end: Instant, collision: bool) {
        self.busy = false;
        self.idle_since = end;
        self.after_collision = collision;
        for &id in &self.active {
            self.edcafs[id.0 as usize].reference = end;
        }
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
        e.backoff = Some(self.rngs[id.node().index()].uniform_inclusive(u32::from(e.cw)));
    }
}

impl ScanMedium {
    /// The EDCAF's backoff counter as this medium keeps it.
    pub fn backoff(&self, id: EdcafId) -> Option<u32> {
        self.edcafs[id.0 as usize].backoff
    }
}
