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
//! are both modelled by it.
//!
//! Post-backoff (10.23.2.2 b, 10.3.4.3): the counter drawn after a transmission keeps
//! counting down in idle slots while the EDCAF's queue is empty. A frame that then
//! arrives finds it still running (and waits for the rest), or at zero: with the medium
//! idle for AIFS it is sent at the next slot boundary, with the medium busy a new
//! counter is drawn (10.23.2.2 a). So a sparse packet (a ping, a VoIP frame, a TCP ACK)
//! does not pay a backoff on an idle medium, as ns-3's `ChannelAccessManager` also has
//! it.
//!
//! The EDCAFs are keyed per AIFSN by the slot their counters end at (`countdown.rs`, the
//! active ones in a heap), so neither finding the next transmitter, nor a busy period
//! freezing every counter, nor post-backoff walks the stations; the linear scan this replaced is kept as the test oracle (`scan.rs`) the
//! queue is checked against on random operation sequences.

mod countdown;
#[cfg(test)]
mod scan;

use super::timing::MacTiming;
use crate::engine::rng::RngStream;
use crate::mac::edca::EdcaAcParams;
use crate::net::packet::NodeId;
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
    /// Has a frame and contends.
    active: bool,
    /// Its AIFSN's [`Countdown`] in `Medium::countdowns`.
    countdown: u8,
    /// The value of its countdown's clock at which its backoff counter reaches zero if
    /// the medium stays idle: its key in the countdown while active. An inactive EDCAF
    /// keeps it too, so its counter goes on counting down on the same clock
    /// (post-backoff); once the clock has passed it, the counter is zero.
    end: u64,
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
    /// Busy with an exchange; otherwise idle since `idle_since`.
    busy: bool,
    idle_since: Instant,
    after_collision: bool,
    /// One backoff stream per node.
    rngs: Vec<RngStream>,
}

impl Medium {
    /// A medium for the AP and `stations` stations; `params(node, access)` gives each
    /// EDCAF's parameters and `rngs` one backoff stream per node (AP first). Every EDCAF
    /// starts with a counter drawn from [0, CWmin], as ns-3's `Txop::DoInitialize` does,
    /// so that nodes whose first frames arrive together do not all collide.
    pub fn new(
        timing: MacTiming,
        eifs: Duration,
        nodes: usize,
        params: impl Fn(NodeId, Access) -> EdcaAcParams,
        mut rngs: Vec<RngStream>,
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
                let backoff = rngs[id.node().index()].uniform_inclusive(u32::from(params.cw_min));
                Edcaf {
                    params,
                    cw: params.cw_min,
                    active: false,
                    countdown: countdown as u8,
                    end: u64::from(backoff),
                }
            })
            .collect();
        Medium {
            timing,
            eifs_extra: eifs.saturating_sub(timing.difs()),
            edcafs,
            countdowns,
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

    /// A frame reaches an EDCAF with an empty queue (10.23.2.2, 10.23.2.4). Its counter
    /// kept counting down while it had nothing to send (post-backoff). If it is still
    /// running, it goes on. If it is zero: with the medium busy, the EDCAF invokes the
    /// backoff procedure (10.23.2.2 a); with the medium idle, it transmits at the first
    /// slot boundary at or after `now` once the medium has been idle for AIFS — at once
    /// if it already has.
    fn join(&mut self, id: EdcafId, now: Instant) {
        let e = &self.edcafs[id.0 as usize];
        let c = usize::from(e.countdown);
        let counted = self.countdowns[c].counted;
        let end = if self.busy {
            if e.end <= counted {
                let cw = u32::from(e.cw);
                counted + u64::from(self.rngs[id.node().index()].uniform_inclusive(cw))
            } else {
                e.end
            }
        } else {
            let aifsn = self.countdowns[c].aifsn;
            e.end.max(counted + self.boundary_slots(aifsn, now))
        };
        let e = &mut self.edcafs[id.0 as usize];
        e.active = true;
        e.end = end;
        self.countdowns[c].insert(end, id);
    }

    /// The EDCAF has nothing to send; its counter keeps counting down (post-backoff).
    #[inline]
    pub fn deactivate(&mut self, id: EdcafId) {
        let e = &mut self.edcafs[id.0 as usize];
        if e.active {
            e.active = false;
            self.countdowns[usize::from(e.countdown)].remove(id);
        }
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

    /// The idle slots an EDCAF of `aifsn` has counted down by `now` in the current idle
    /// period (slot boundaries after AIFS passed).
    fn counted_slots(&self, aifsn: u8, now: Instant) -> u64 {
        let start = self.idle_since + self.defer(aifsn);
        if now > start {
            (now - start).as_nanos() / self.timing.slot_time.as_nanos()
        } else {
            0
        }
    }

    /// The first slot boundary of the current idle period at or after `now`, counted in
    /// slots after AIFS\[`aifsn`\] (0 while AIFS has not passed).
    fn boundary_slots(&self, aifsn: u8, now: Instant) -> u64 {
        let start = self.idle_since + self.defer(aifsn);
        if now > start {
            (now - start)
                .as_nanos()
                .div_ceil(self.timing.slot_time.as_nanos())
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
        // Everyone — contending or in post-backoff — counted the idle slots after its
        // AIFS: one clock per AIFSN. The winners' counters are at zero: their keys are
        // the clock.
        for c in 0..self.countdowns.len() {
            let counted = self.counted_slots(self.countdowns[c].aifsn, now);
            self.countdowns[c].counted += counted;
        }
        self.busy = true;
        resolve_internal(winners, internal);
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
    /// limit: CW back to CWmin, a new counter (the post-backoff of 10.23.2.2 b if the
    /// queue is now empty).
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

    /// A new counter, drawn while the medium is busy with the exchange it follows: it
    /// counts from the end of the next AIFS.
    fn redraw(&mut self, id: EdcafId) {
        debug_assert!(
            self.busy,
            "a transmission's outcome arrives while it is on air"
        );
        let e = &mut self.edcafs[id.0 as usize];
        let backoff = self.rngs[id.node().index()].uniform_inclusive(u32::from(e.cw));
        let countdown = &mut self.countdowns[usize::from(e.countdown)];
        e.end = countdown.counted + u64::from(backoff);
        if e.active {
            countdown.update(id, e.end);
        }
    }

    /// The EDCAF's backoff counter as of the start of the current idle period (zero once
    /// a post-backoff has ended), or for one that joined during it with a zero counter,
    /// the slots to the boundary it transmits at.
    #[cfg(test)]
    fn backoff(&self, id: EdcafId) -> u64 {
        let e = &self.edcafs[id.0 as usize];
        e.end
            .saturating_sub(self.countdowns[usize::from(e.countdown)].counted)
    }
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
    /// the standard EDCA set (AIFSN 2, 3, 7) for the stations, the AP's own
    /// (dot11QAPEDCATable: AIFSN 1 for VI and VO, beside the beacon function's AIFSN 1,
    /// CW 0, in one countdown), or with `dcf` the DCF for everyone.
    fn pair(nodes: usize, seed: u64, dcf: bool) -> (Medium, ScanMedium) {
        let timing = MacTiming::for_band(Band::Ghz5, true);
        let eifs = timing.eifs(Duration::from_micros(44));
        let (edca, ap_edca) = if dcf {
            (EdcaParams::dcf(3, 15), EdcaParams::dcf(3, 15))
        } else {
            (
                EdcaParams::standard(15, TxopColumn::Ofdm),
                EdcaParams::standard_ap(15, TxopColumn::Ofdm),
            )
        };
        let params = move |node: NodeId, access| match (access, node) {
            (Access::Data(ac), NodeId::Ap) => *ap_edca.get(ac),
            (Access::Data(ac), NodeId::Sta(_)) => *edca.get(ac),
            (Access::Beacon, _) => EdcaAcParams {
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
                    // Outcomes arrive while the exchange is on air.
                    Op::Succeeded { id } if busy_until.is_some() => {
                        queue.succeeded(EdcafId(id % edcafs));
                        scan.succeeded(EdcafId(id % edcafs));
                    }
                    Op::Failed { id } if busy_until.is_some() => {
                        queue.failed(EdcafId(id % edcafs));
                        scan.failed(EdcafId(id % edcafs));
                    }
                    Op::Succeeded { .. } | Op::Failed { .. } => {}
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

    /// The medium of one station (BE, AIFSN 3, CW 15): its BE EDCAF and the clock.
    fn one_station() -> (Medium, EdcafId, MacTiming) {
        let (queue, _) = pair(2, 7, false);
        let timing = MacTiming::for_band(Band::Ghz5, true);
        (
            queue,
            EdcafId::new(NodeId::Sta(StationId(0)), Access::Data(Ac::Be)),
            timing,
        )
    }

    /// Sends one frame of `id` alone from an idle medium and ends the exchange after
    /// `busy`; returns the end.
    fn send_one(m: &mut Medium, id: EdcafId, at: Instant, busy: Duration) -> Instant {
        m.activate(id, at);
        let t = m.next_access().expect("it contends");
        let (mut w, mut i) = (vec![], vec![]);
        m.start(t, &mut w, &mut i);
        assert_eq!(w, [id]);
        m.deactivate(id);
        m.succeeded(id);
        m.end(t + busy, false);
        t + busy
    }

    /// 10.23.2.2 b: after a transmission the new counter counts down in idle slots with
    /// the queue empty, so a frame arriving once it has reached zero, on a medium idle
    /// for more than AIFS, is sent at the next slot boundary without a backoff.
    #[test]
    fn post_backoff_ends_while_the_queue_is_empty() {
        let (mut m, id, timing) = one_station();
        let end = send_one(&mut m, id, Instant::ZERO, Duration::from_micros(100));
        let counter = m.backoff(id);
        assert!(counter <= 15);
        let aifs = timing.aifs(3);
        let arrival = end + aifs + timing.slot_time * (counter + 20) + Duration::from_nanos(3_500);
        m.activate(id, arrival);
        let access = m.next_access().unwrap();
        assert!(
            access >= arrival && access - arrival < timing.slot_time,
            "{access:?}"
        );
        assert_eq!(
            (access - end - aifs).as_nanos() % timing.slot_time.as_nanos(),
            0
        );
    }

    /// A frame that arrives while the post-backoff still runs waits only for the slots
    /// left of it.
    #[test]
    fn a_frame_during_post_backoff_waits_for_the_rest() {
        for seed in 0..40 {
            let (mut m, _) = pair(2, seed, false);
            let id = EdcafId::new(NodeId::Sta(StationId(0)), Access::Data(Ac::Be));
            let timing = MacTiming::for_band(Band::Ghz5, true);
            let end = send_one(&mut m, id, Instant::ZERO, Duration::from_micros(100));
            let counter = m.backoff(id);
            if counter < 2 {
                continue;
            }
            let aifs = timing.aifs(3);
            let arrival = end + aifs + timing.slot_time + Duration::from_nanos(500);
            m.activate(id, arrival);
            assert_eq!(
                m.next_access(),
                Some(end + aifs + timing.slot_time * counter)
            );
            return;
        }
        panic!("no seed drew a counter of 2 or more");
    }

    /// 10.23.2.2 a: a frame that finds the medium busy with a zero counter draws one
    /// from [0, CW].
    #[test]
    fn a_frame_that_finds_the_medium_busy_draws_a_counter() {
        let id = EdcafId::new(NodeId::Sta(StationId(0)), Access::Data(Ac::Be));
        let ap = EdcafId::new(NodeId::Ap, Access::Data(Ac::Be));
        let mut draws = Vec::new();
        for seed in 0..30 {
            let (mut m, _) = pair(2, seed, false);
            let end = send_one(&mut m, id, Instant::ZERO, Duration::from_micros(100));
            // Long after its post-backoff ended, the AP takes the medium, and the
            // station's frame arrives during the AP's exchange.
            m.activate(ap, end + Duration::from_millis(5));
            let at = m.next_access().unwrap();
            let (mut w, mut i) = (vec![], vec![]);
            m.start(at, &mut w, &mut i);
            assert_eq!(w, [ap]);
            assert_eq!(m.backoff(id), 0);
            m.activate(id, at + Duration::from_micros(10));
            draws.push(m.backoff(id));
        }
        assert!(
            draws.iter().any(|&b| b > 0),
            "a counter is drawn: {draws:?}"
        );
        assert!(draws.iter().all(|&b| b <= 15));
    }

    /// The AP's VI and VO wait AIFS = PIFS (AIFSN 1, dot11QAPEDCATable), a slot less than
    /// a station's (AIFSN 2) and in the beacon function's countdown; its BE waits AIFSN 3
    /// like a station's.
    #[test]
    fn the_aps_voice_and_video_wait_pifs() {
        let timing = MacTiming::for_band(Band::Ghz5, true);
        let sta = NodeId::Sta(StationId(0));
        for (node, ac, aifs) in [
            (NodeId::Ap, Ac::Vo, timing.pifs()),
            (NodeId::Ap, Ac::Vi, timing.pifs()),
            (NodeId::Ap, Ac::Be, timing.aifs(3)),
            (sta, Ac::Vo, timing.difs()),
            (sta, Ac::Vi, timing.difs()),
        ] {
            let (mut m, _) = pair(2, 7, false);
            let id = EdcafId::new(node, Access::Data(ac));
            let end = send_one(&mut m, id, Instant::ZERO, Duration::from_micros(100));
            let counter = m.backoff(id);
            m.activate(id, end);
            assert_eq!(
                m.next_access(),
                Some(end + aifs + timing.slot_time * counter),
                "{node:?} {ac:?}"
            );
        }
        let beacon = EdcafId::new(NodeId::Ap, Access::Beacon);
        let (m, _) = pair(2, 7, false);
        let countdown = |id: EdcafId| m.edcafs[id.0 as usize].countdown;
        let ap_vo = EdcafId::new(NodeId::Ap, Access::Data(Ac::Vo));
        assert_eq!(countdown(ap_vo), countdown(beacon));
    }

    /// The AP's BE window stops at 63 (dot11QAPEDCATable's 4·(aCWmin+1)−1), a station's
    /// at aCWmax.
    #[test]
    fn the_aps_best_effort_window_stops_at_63() {
        for (node, cw_max) in [(NodeId::Ap, 63), (NodeId::Sta(StationId(0)), 1023)] {
            let (mut m, _) = pair(2, 3, false);
            let id = EdcafId::new(node, Access::Data(Ac::Be));
            m.activate(id, Instant::ZERO);
            let t = m.next_access().unwrap();
            let (mut w, mut i) = (vec![], vec![]);
            m.start(t, &mut w, &mut i);
            let mut windows = Vec::new();
            for _ in 0..7 {
                m.failed(id);
                windows.push(m.edcafs[id.0 as usize].cw);
            }
            assert_eq!(*windows.last().unwrap(), cw_max, "{node:?}: {windows:?}");
            assert!(windows.iter().all(|&cw| cw <= cw_max));
        }
    }
}
