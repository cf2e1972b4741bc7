//! Channel access: the EDCA functions of every node contending for one medium
//! (IEEE 802.11-2020 10.23.2, EDCA; 10.3.4.3, the backoff procedure of the DCF it
//! extends).
//!
//! Each EDCA function (EDCAF: one per node and AC, plus the AP's beacon function) that
//! has a frame holds a backoff counter drawn uniformly from [0, CW]. After the medium
//! has been idle for AIFS\[AC\] = AIFSN·aSlotTime + aSIFSTime, the counter drops by one
//! per idle slot, and the EDCAF transmits in the slot its counter reaches zero
//! (10.23.2.4). The medium is modelled at slot granularity without per-slot events: when
//! it goes idle at `T`, an EDCAF with counter `b` would transmit at
//! `T + AIFS + b·aSlotTime`; the earliest such time wins, and every EDCAF whose time
//! is the same slot transmits too — a collision. The others keep the slots they counted
//! down, and freeze while the medium is busy. Two EDCAFs of one node that reach zero in
//! the same slot are an internal collision: the higher AC transmits, the lower behaves
//! as if it collided (10.23.2.4).
//!
//! After a failed transmission the CW doubles up to CWmax; after a success, or when the
//! frame is dropped at its retry limit, it returns to CWmin; either way a new counter is
//! drawn (10.23.2.2). After a collision every EDCAF defers EIFS − DIFS + AIFS\[AC\]
//! instead of AIFS (10.23.2.4): the transmitters' Ack timeout and the bystanders' EIFS
//! are both modelled by it. Post-backoff of an EDCAF whose queue emptied is kept as a
//! pending counter that resumes when it has a frame again.
//!
//! The active EDCAFs are kept per AIFSN in the order their counters end (`countdown.rs`),
//! so neither finding the next transmitter nor a busy period freezing every counter walks
//! the stations; the linear scan this replaced is kept as the test oracle (`scan.rs`) the
//! queue is checked against on random operation sequences.

mod countdown;
#[cfg(test)]
mod scan;

use crate::engine::rng::RngStream;
use crate::mac::edca::EdcaAcParams;
use crate::net::packet::NodeId;
use airq::phy::MacTiming;
use airq::{Ac, Duration, Instant, StationId};
use countdown::Countdown;

/// EDCAFs per node: the four ACs and the AP's beacon function.
pub const EDCAFS_PER_NODE: usize = Ac::COUNT + 1;
/// Slot of the beacon function within a node.
pub const BEACON: usize = Ac::COUNT;

/// What an EDCAF sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Data(Ac),
    Beacon,
}

/// One EDCA function's state.
#[derive(Clone, Debug)]
struct Edcaf {
    params: EdcaAcParams,
    cw: u16,
    /// Backoff slots left while inactive (post-backoff); `None` when no counter is
    /// drawn. An active EDCAF's counter is `end` − its countdown's `counted` −
    /// `late_slots`.
    backoff: Option<u32>,
    /// Has a frame and contends.
    active: bool,
    /// Its AIFSN's [`Countdown`] in `Medium::countdowns`.
    countdown: u8,
    /// While active: the value of its countdown's clock at which its counter ends if
    /// the medium stays idle (its key in the countdown).
    end: u64,
    /// Activated during the current idle period: the slots of that period before its
    /// countdown started (its counting starts late); 0 otherwise.
    late_slots: u64,
}

/// An EDCAF's index: node × slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EdcafId(pub u32);

impl EdcafId {
    pub fn new(node: NodeId, access: Access) -> EdcafId {
        let slot = match access {
            Access::Data(ac) => ac.index(),
            Access::Beacon => BEACON,
        };
        EdcafId((node.index() * EDCAFS_PER_NODE + slot) as u32)
    }

    pub fn node(self) -> NodeId {
        match self.0 as usize / EDCAFS_PER_NODE {
            0 => NodeId::Ap,
            n => NodeId::Sta(StationId((n - 1) as u32)),
        }
    }

    pub fn access(self) -> Access {
        match self.0 as usize % EDCAFS_PER_NODE {
            BEACON => Access::Beacon,
            ac => Access::Data(Ac::ALL[ac]),
        }
    }
}

/// The shared medium and every EDCAF contending for it.
pub struct Medium {
    timing: MacTiming,
    /// EIFS − DIFS: the extra deferral after a collision.
    eifs_extra: Duration,
    edcafs: Vec<Edcaf>,
    /// The active EDCAFs by AIFSN.
    countdowns: Vec<Countdown>,
    /// EDCAFs activated during the current idle period (`late_slots` > 0), settled when
    /// it ends.
    late: Vec<EdcafId>,
    /// Busy with an exchange; otherwise idle since `idle_since`.
    busy: bool,
    idle_since: Instant,
    after_collision: bool,
    /// One backoff stream per node.
    rngs: Vec<RngStream>,
}

impl Medium {
    /// A medium for the AP and `stations` stations; `params(node, access)` gives each
    /// EDCAF's parameters and `rngs` one backoff stream per node (AP first).
    pub fn new(
        timing: MacTiming,
        eifs: Duration,
        nodes: usize,
        params: impl Fn(NodeId, Access) -> EdcaAcParams,
        rngs: Vec<RngStream>,
    ) -> Medium {
        assert_eq!(rngs.len(), nodes, "one backoff stream per node");
        let mut countdowns: Vec<Countdown> = Vec::new();
        let edcafs = (0..nodes * EDCAFS_PER_NODE)
            .map(|i| {
                let id = EdcafId(i as u32);
                let params = params(id.node(), id.access());
                let countdown = match countdowns.iter().position(|c| c.aifsn == params.aifsn) {
                    Some(c) => c,
                    None => {
                        countdowns.push(Countdown::new(params.aifsn, nodes * EDCAFS_PER_NODE));
                        countdowns.len() - 1
                    }
                };
                Edcaf {
                    params,
                    cw: params.cw_min,
                    backoff: None,
                    active: false,
                    countdown: countdown as u8,
                    end: 0,
                    late_slots: 0,
                }
            })
            .collect();
        Medium {
            timing,
            eifs_extra: eifs.saturating_sub(timing.difs()),
            edcafs,
            countdowns,
            late: Vec::new(),
            busy: false,
            idle_since: Instant::ZERO,
            after_collision: false,
            rngs,
        }
    }

    /// The EDCAF has a frame (again) at `now`.
    // Inlined: the loop calls it for every AC of a node on every change, mostly for
    // EDCAFs that already contend.
    #[inline]
    pub fn activate(&mut self, id: EdcafId, now: Instant) {
        if !self.edcafs[id.0 as usize].active {
            self.join(id, now);
        }
    }

    fn join(&mut self, id: EdcafId, now: Instant) {
        let slot = self.timing.slot_time;
        let e = &mut self.edcafs[id.0 as usize];
        e.active = true;
        let backoff = match e.backoff {
            Some(b) => b,
            None => self.rngs[id.node().index()].uniform_inclusive(u32::from(e.cw)),
        };
        e.backoff = None;
        // Count from the first slot boundary of the idle period at or after `now`.
        e.late_slots = if self.busy || now <= self.idle_since {
            0
        } else {
            (now - self.idle_since).as_nanos().div_ceil(slot.as_nanos())
        };
        let countdown = &mut self.countdowns[usize::from(e.countdown)];
        e.end = countdown.counted + e.late_slots + u64::from(backoff);
        countdown.insert(e.end, id);
        if e.late_slots > 0 {
            self.late.push(id);
        }
    }

    /// The EDCAF has nothing to send; its counter is kept (post-backoff).
    #[inline]
    pub fn deactivate(&mut self, id: EdcafId) {
        if self.edcafs[id.0 as usize].active {
            self.leave(id);
        }
    }

    fn leave(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        let countdown = &mut self.countdowns[usize::from(e.countdown)];
        countdown.remove(id);
        e.backoff = Some(counter(e, countdown));
        e.active = false;
        e.late_slots = 0;
    }

    /// The deferral before counting down: AIFS, or after a collision EIFS − DIFS + AIFS.
    fn defer(&self, aifsn: u8) -> Duration {
        let aifs = self.timing.aifs(aifsn);
        if self.after_collision {
            aifs + self.eifs_extra
        } else {
            aifs
        }
    }

    /// The idle slots an EDCAF of `aifsn` that started contending `late_slots` into the
    /// current idle period has counted down by `now`.
    fn counted_slots(&self, aifsn: u8, late_slots: u64, now: Instant) -> u64 {
        let start = self.idle_since + self.timing.slot_time * late_slots + self.defer(aifsn);
        if now > start {
            (now - start).as_nanos() / self.timing.slot_time.as_nanos()
        } else {
            0
        }
    }

    /// When the first counter of `countdown` ends, if it has one.
    fn countdown_access(&self, countdown: &Countdown) -> Option<Instant> {
        let first = countdown.first_end()?;
        let slots = first - countdown.counted;
        Some(self.idle_since + self.defer(countdown.aifsn) + self.timing.slot_time * slots)
    }

    /// When the next transmission starts, if the medium is idle and someone contends.
    pub fn next_access(&self) -> Option<Instant> {
        if self.busy {
            return None;
        }
        self.countdowns
            .iter()
            .filter_map(|c| self.countdown_access(c))
            .min()
    }

    /// Starts the transmissions due at `now` (= [`next_access`](Self::next_access)):
    /// fills `winners` with the EDCAFs that transmit, in index order, and `internal` with
    /// those that lost an internal collision (already counted as failed). The others'
    /// counters advance by the idle slots they saw, and the medium becomes busy.
    pub fn start(&mut self, now: Instant, winners: &mut Vec<EdcafId>, internal: &mut Vec<EdcafId>) {
        winners.clear();
        internal.clear();
        debug_assert!(
            self.next_access().is_none_or(|t| t >= now),
            "no counter ends before {now:?}"
        );
        for c in 0..self.countdowns.len() {
            let countdown = &self.countdowns[c];
            if self.countdown_access(countdown) == Some(now) {
                countdown.first(winners);
            }
        }
        winners.sort_unstable();
        // The winners' counters are at zero (their keys follow the clocks below).
        for &id in winners.iter() {
            self.edcafs[id.0 as usize].late_slots = 0;
        }
        // Everyone counted the idle slots after its AIFS: one clock per AIFSN, but those
        // activated during this idle period counted from their own start.
        for i in 0..self.late.len() {
            let id = self.late[i];
            let e = &self.edcafs[id.0 as usize];
            if !e.active || e.late_slots == 0 {
                continue;
            }
            let aifsn = self.countdowns[usize::from(e.countdown)].aifsn;
            let counted = self.counted_slots(aifsn, e.late_slots, now);
            debug_assert!(
                counted == 0
                    || u64::from(counter(e, &self.countdowns[usize::from(e.countdown)])) > counted
            );
            // The counter left, on the clock as it will be.
            let end = e.end - e.late_slots - counted + self.counted_slots(aifsn, 0, now);
            let countdown = &mut self.countdowns[usize::from(e.countdown)];
            countdown.update(id, end);
            let e = &mut self.edcafs[id.0 as usize];
            e.end = end;
            e.late_slots = 0;
        }
        self.late.clear();
        for c in 0..self.countdowns.len() {
            let counted = self.counted_slots(self.countdowns[c].aifsn, 0, now);
            self.countdowns[c].counted += counted;
        }
        for &id in winners.iter() {
            let e = &mut self.edcafs[id.0 as usize];
            let countdown = &mut self.countdowns[usize::from(e.countdown)];
            e.end = countdown.counted;
            countdown.update(id, e.end);
        }
        resolve_internal(winners, internal);
        for &id in internal.iter() {
            self.failed(id);
        }
        self.busy = true;
    }

    /// The exchange ended at `end`; `collision` if several transmitted at once.
    pub fn end(&mut self, end: Instant, collision: bool) {
        // Only an idle medium has late EDCAFs; they count from `end` as everyone else.
        for i in 0..self.late.len() {
            let id = self.late[i];
            let e = &mut self.edcafs[id.0 as usize];
            if e.active && e.late_slots > 0 {
                let countdown = &mut self.countdowns[usize::from(e.countdown)];
                e.end -= e.late_slots;
                e.late_slots = 0;
                countdown.update(id, e.end);
            }
        }
        self.late.clear();
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
        let backoff = self.rngs[id.node().index()].uniform_inclusive(u32::from(e.cw));
        if e.active {
            let countdown = &mut self.countdowns[usize::from(e.countdown)];
            e.end = countdown.counted + e.late_slots + u64::from(backoff);
            countdown.update(id, e.end);
        } else {
            e.backoff = Some(backoff);
        }
    }

    /// The EDCAF's backoff counter: slots left as of the start of the current idle
    /// period (or its activation in it), as the linear scan kept it.
    #[cfg(test)]
    fn backoff(&self, id: EdcafId) -> Option<u32> {
        let e = &self.edcafs[id.0 as usize];
        if e.active {
            Some(counter(e, &self.countdowns[usize::from(e.countdown)]))
        } else {
            e.backoff
        }
    }
}

/// An active EDCAF's counter.
fn counter(e: &Edcaf, countdown: &Countdown) -> u32 {
    (e.end - countdown.counted - e.late_slots) as u32
}

/// Internal collisions (10.23.2.4): of the `winners` (in index order) of one node, the
/// highest priority (Vo first, then the beacon function above all) keeps the medium; the
/// others move to `internal`.
fn resolve_internal(winners: &mut Vec<EdcafId>, internal: &mut Vec<EdcafId>) {
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
}

/// Internal-collision priority: beacon, then VO, VI, BE, BK.
fn priority(id: EdcafId) -> u8 {
    match id.access() {
        Access::Beacon => 5,
        Access::Data(Ac::Vo) => 4,
        Access::Data(Ac::Vi) => 3,
        Access::Data(Ac::Be) => 2,
        Access::Data(Ac::Bk) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::scan::ScanMedium;
    use super::*;
    use crate::engine::rng::RngRoot;
    use crate::mac::edca::{EdcaParams, TxopColumn};
    use airq::phy::Band;
    use proptest::prelude::*;

    /// What the caller does next.
    #[derive(Clone, Debug)]
    enum Op {
        /// Activate EDCAF `id` (modulo their number) after `wait` of the time left before
        /// the next access (in 1/256ths), or any time while busy.
        Activate {
            id: u32,
            wait: u8,
        },
        Deactivate {
            id: u32,
        },
        Succeeded {
            id: u32,
        },
        Failed {
            id: u32,
        },
        /// The next access happens; the exchange lasts `busy_us`, every winner's fate in
        /// `outcome`'s bits (deactivated, succeeded or failed), a collision if several.
        Contend {
            busy_us: u16,
            outcome: u16,
        },
    }

    fn op(edcafs: u32) -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0..edcafs, any::<u8>()).prop_map(|(id, wait)| Op::Activate { id, wait }),
            2 => (0..edcafs).prop_map(|id| Op::Deactivate { id }),
            1 => (0..edcafs).prop_map(|id| Op::Succeeded { id }),
            1 => (0..edcafs).prop_map(|id| Op::Failed { id }),
            4 => (0..2000u16, any::<u16>())
                .prop_map(|(busy_us, outcome)| Op::Contend { busy_us, outcome }),
        ]
    }

    /// A queue medium and the scan oracle over the same nodes and backoff streams, with
    /// the standard EDCA set (AIFSN 2, 3, 7) and the beacon function (AIFSN 1, CW 0).
    fn pair(nodes: usize, seed: u64, dcf: bool) -> (Medium, ScanMedium) {
        let timing = MacTiming::for_band(Band::Ghz5, true);
        let eifs = timing.eifs(Duration::from_micros(44));
        let edca = if dcf {
            EdcaParams::dcf(3, 15)
        } else {
            EdcaParams::standard(15, TxopColumn::Ofdm)
        };
        let params = move |_: NodeId, access| match access {
            Access::Data(ac) => *edca.get(ac),
            Access::Beacon => EdcaAcParams {
                aifsn: 1,
                cw_min: 0,
                cw_max: 0,
                txop_limit: Duration::ZERO,
            },
        };
        let root = RngRoot::new(seed);
        let rngs = || {
            (0..nodes as u64)
                .map(|i| root.stream("backoff", i))
                .collect()
        };
        (
            Medium::new(timing, eifs, nodes, params, rngs()),
            ScanMedium::new(timing, eifs, nodes, params, rngs()),
        )
    }

    fn assert_same_counters(queue: &Medium, scan: &ScanMedium, edcafs: u32) {
        for id in (0..edcafs).map(EdcafId) {
            assert_eq!(queue.backoff(id), scan.backoff(id), "{id:?}'s counter");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The backoff queue picks the same transmitters at the same instants as the
        /// linear scan, and keeps the same counters, on random operation sequences.
        #[test]
        fn queue_contends_as_the_scan(
            nodes in 1usize..6,
            seed in any::<u64>(),
            dcf in any::<bool>(),
            ops in prop::collection::vec(op(6 * EDCAFS_PER_NODE as u32), 1..300),
        ) {
            let (mut queue, mut scan) = pair(nodes, seed, dcf);
            let edcafs = (nodes * EDCAFS_PER_NODE) as u32;
            let mut now = Instant::ZERO;
            let mut busy_until: Option<Instant> = None;
            let (mut winners, mut internal) = (Vec::new(), Vec::new());
            let (mut scan_winners, mut scan_internal) = (Vec::new(), Vec::new());
            for op in ops {
                match op {
                    Op::Activate { id, wait } => {
                        let id = EdcafId(id % edcafs);
                        match (busy_until, queue.next_access()) {
                            (None, Some(next)) => {
                                now = now + (next - now) * u64::from(wait) / 256;
                            }
                            (None, None) => now += Duration::from_micros(u64::from(wait)),
                            (Some(_), _) => {}
                        }
                        queue.activate(id, now);
                        scan.activate(id, now);
                    }
                    Op::Deactivate { id } => {
                        queue.deactivate(EdcafId(id % edcafs));
                        scan.deactivate(EdcafId(id % edcafs));
                    }
                    Op::Succeeded { id } => {
                        queue.succeeded(EdcafId(id % edcafs));
                        scan.succeeded(EdcafId(id % edcafs));
                    }
                    Op::Failed { id } => {
                        queue.failed(EdcafId(id % edcafs));
                        scan.failed(EdcafId(id % edcafs));
                    }
                    Op::Contend { busy_us, outcome } => {
                        if let Some(end) = busy_until.take() {
                            // The exchange under way ends first.
                            now = end;
                            queue.end(now, busy_us % 3 == 0);
                            scan.end(now, busy_us % 3 == 0);
                        } else if let Some(next) = queue.next_access() {
                            now = next;
                            queue.start(now, &mut winners, &mut internal);
                            scan.start(now, &mut scan_winners, &mut scan_internal);
                            prop_assert_eq!(&winners, &scan_winners);
                            prop_assert_eq!(&internal, &scan_internal);
                            prop_assert!(!winners.is_empty());
                            for (i, &id) in winners.iter().enumerate() {
                                match (outcome >> (2 * (i % 8))) & 3 {
                                    0 => {
                                        queue.deactivate(id);
                                        scan.deactivate(id);
                                    }
                                    1 => {}
                                    2 => {
                                        queue.succeeded(id);
                                        scan.succeeded(id);
                                    }
                                    _ => {
                                        queue.failed(id);
                                        scan.failed(id);
                                    }
                                }
                            }
                            busy_until = Some(now + Duration::from_micros(u64::from(busy_us)));
                        }
                    }
                }
                prop_assert_eq!(queue.next_access(), scan.next_access());
                assert_same_counters(&queue, &scan, edcafs);
            }
        }
    }

    #[test]
    fn a_late_activation_counts_from_its_own_slot_boundary() {
        let (mut queue, mut scan) = pair(3, 1, true);
        let a = EdcafId::new(NodeId::Sta(StationId(0)), Access::Data(Ac::Be));
        let b = EdcafId::new(NodeId::Sta(StationId(1)), Access::Data(Ac::Be));
        queue.activate(a, Instant::ZERO);
        scan.activate(a, Instant::ZERO);
        let late = Instant::ZERO + Duration::from_nanos(10_500);
        queue.activate(b, late);
        scan.activate(b, late);
        assert_eq!(queue.next_access(), scan.next_access());
        let next = queue.next_access().unwrap();
        let (mut w, mut i, mut sw, mut si) = (vec![], vec![], vec![], vec![]);
        queue.start(next, &mut w, &mut i);
        scan.start(next, &mut sw, &mut si);
        assert_eq!((&w, &i), (&sw, &si));
        assert_same_counters(&queue, &scan, 15);
    }
}
