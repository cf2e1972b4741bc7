//! A firmware-offload driver, modelled on ath10k (`drivers/net/wireless/ath/ath10k/`):
//! frames go from the host into the firmware, which queues them per station-TID,
//! schedules station-TIDs itself and builds each aggregate only when the medium is won.
//!
//! The host may have at most `max_pending_frames` frames outstanding in the firmware, all
//! ACs together (`ath10k_htt_tx_inc_pending` returns `-EBUSY` at `max_num_pending_tx`,
//! 1424 for 10.x firmware); a frame stops counting when its completion comes back, so
//! the count covers the firmware's queues, its retries and the PPDU on the air. Without
//! AQL that can be over a second of airtime at a slow rate, unmanaged. Each packet taken
//! from the MAC layer passes the AQL gate and is charged.
//!
//! Who decides what enters the firmware ([`FirmwareMode`]):
//! - **Pull** (push-pull, ath10k with peer flow control): the firmware asks for frames
//!   of the TXQs the host has data for and it holds less than one PPDU of — at most
//!   `fetch_frames`, and no more bytes than one aggregate to the station can carry at
//!   its rate (the firmware does rate control, so it knows)
//!   (`HTT_T2H_MSG_TYPE_TX_FETCH_IND`); the host answers each TXQ through the airtime
//!   scheduler's `may_transmit`, refilling those in deficit and refusing them
//!   (`ath10k_htt_rx_tx_fetch_ind` → `ieee80211_txq_may_transmit`). The firmware asks
//!   whenever its holding for an AC shrinks — a PPDU built, a completion — and when the
//!   host reports new data; the host answers one host latency later. A fetch that got
//!   nothing while the firmware holds nothing of the AC is asked again one host
//!   latency later (so a refusal is not a stall).
//! - **Push** (before peer flow control): the host pushes on enqueue
//!   (`ath10k_mac_op_wake_tx_queue`: the next TXQ of the AC, drained while the firmware
//!   takes frames) and, one host latency after every completion, runs
//!   `ath10k_mac_tx_push_pending`: a scheduling round of every AC, VO first, each TXQ
//!   drained until empty, the firmware full or the AQL gate shut.
//!
//! The firmware's own scheduler, in both modes, is a round robin over its station-TIDs
//! with frames, one PPDU per turn, per AC — a stand-in for the closed firmware's. In
//! push mode it is what decides the airtime; in pull mode the host's answers do.

use super::config::FirmwareMode;
use super::lower::Lower;
use super::txq_key::TxqKey;
use crate::frame::Ppdu;
use crate::packet::SimPacket;
use crate::txpath::TxOutput;
use airq::airtime::TxqId;
use airq::{Ac, Duration, Instant};
use std::collections::VecDeque;

pub(super) struct Firmware {
    max_pending_frames: u32,
    mode: FirmwareMode,
    host_latency: Duration,
    /// Frames pushed and not yet completed (`htt->num_pending_tx`).
    pending_frames: u32,
    /// Per AC: of which frames of the AC.
    ac_frames: [u32; Ac::COUNT],
    /// Per station-TID: frames pushed, not yet put in a PPDU.
    queues: Vec<VecDeque<SimPacket>>,
    /// Per AC: the firmware's round robin of station-TIDs with frames.
    active: [VecDeque<TxqKey>; Ac::COUNT],
    /// Per station-TID: on its AC's `active` list.
    in_active: Vec<bool>,
    /// Per AC: when the host next acts of its own accord — answers a fetch (pull) or
    /// pushes pending frames (push).
    host_at: [Option<Instant>; Ac::COUNT],
    /// Reused for the TXQs a fetch asks for.
    fetch: Vec<TxqId>,
}

impl Firmware {
    pub(super) fn new(
        max_pending_frames: u32,
        mode: FirmwareMode,
        keys: usize,
        host_latency: Duration,
    ) -> Firmware {
        Firmware {
            max_pending_frames,
            mode,
            host_latency,
            pending_frames: 0,
            ac_frames: [0; Ac::COUNT],
            queues: (0..keys).map(|_| VecDeque::new()).collect(),
            active: Default::default(),
            in_active: vec![false; keys],
            host_at: [None; Ac::COUNT],
            fetch: Vec::new(),
        }
    }

    pub(super) fn has_frames(&self, ac: Ac) -> bool {
        !self.active[ac.index()].is_empty()
    }

    pub(super) fn pending_frames(&self) -> u32 {
        self.pending_frames
    }

    /// Frames in the firmware's queues, not yet in a PPDU.
    pub(super) fn queued_frames(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum()
    }

    fn full(&self) -> bool {
        self.pending_frames >= self.max_pending_frames
    }

    /// When the host next acts although nothing calls it.
    pub(super) fn poll_at(&self) -> Option<Instant> {
        self.host_at.iter().flatten().min().copied()
    }

    /// Asks the host to act for `ac` one host latency after `now` (or sooner, if it is
    /// due then already).
    fn defer(&mut self, ac: Ac, now: Instant) {
        let at = now + self.host_latency;
        let slot = &mut self.host_at[ac.index()];
        *slot = Some(slot.map_or(at, |t| t.min(at)));
    }

    /// Makes a round (a fetch, a push) of every AC holding frames due at `now`.
    pub(super) fn make_due(&mut self, lower: &Lower, now: Instant) {
        for ac in Ac::ALL {
            if lower.holds_frames(ac) {
                self.host_at[ac.index()] = Some(now);
            }
        }
    }

    /// Runs the host's work due at `now`.
    pub(super) fn handle_timeout(&mut self, lower: &mut Lower, now: Instant, out: &mut TxOutput) {
        let due: Vec<Ac> = Ac::ALL
            .into_iter()
            .filter(|ac| self.host_at[ac.index()].is_some_and(|t| t <= now))
            .collect();
        if due.is_empty() {
            return;
        }
        for &ac in &due {
            self.host_at[ac.index()] = None;
        }
        match self.mode {
            FirmwareMode::Pull { fetch_frames } => {
                for ac in due {
                    self.answer_fetch(lower, ac, fetch_frames, now, out);
                }
            }
            FirmwareMode::Push => self.push_pending(lower, now, out),
        }
    }

    /// Puts the station-TID on its AC's round robin if the firmware holds frames for it.
    pub(super) fn note_pending(&mut self, lower: &Lower, key: TxqKey) {
        let has = !self.queues[key.index()].is_empty() || lower.tid_pending(key) > 0;
        if has && !self.in_active[key.index()] {
            self.in_active[key.index()] = true;
            self.active[key.ac().index()].push_back(key);
        }
    }

    /// `frames` of the firmware's frames of `ac` were completed at `now`.
    pub(super) fn completed(&mut self, ac: Ac, frames: u32, now: Instant) {
        debug_assert!(
            self.ac_frames[ac.index()] >= frames,
            "completion of unpushed frames"
        );
        self.pending_frames = self.pending_frames.saturating_sub(frames);
        self.ac_frames[ac.index()] = self.ac_frames[ac.index()].saturating_sub(frames);
        self.defer(ac, now);
    }

    /// A downlink packet of `ac` reached the MAC layer at `now`.
    pub(super) fn enqueued(&mut self, lower: &mut Lower, ac: Ac, now: Instant, out: &mut TxOutput) {
        match self.mode {
            // The host reports the TXQ's new data (`ath10k_htt_tx_txq_update`); the
            // firmware asks for it.
            FirmwareMode::Pull { .. } => self.defer(ac, now),
            FirmwareMode::Push => self.push_one(lower, ac, now, out),
        }
    }

    /// Takes frames of the station-TID from the MAC layer into the firmware until it
    /// holds `max_frames` or `max_bytes` of it (stopping when it is full or the AQL gate
    /// shuts); false if the firmware became full.
    fn take(
        &mut self,
        lower: &mut Lower,
        key: TxqKey,
        (max_frames, max_bytes): (u32, u32),
        now: Instant,
        out: &mut TxOutput,
    ) -> bool {
        let queue = &self.queues[key.index()];
        let mut frames = queue.len() as u32;
        let mut bytes: u32 = queue.iter().map(|p| p.len_bytes).sum();
        while frames < max_frames && bytes < max_bytes {
            if self.full() {
                return false;
            }
            let Some(packet) = lower.pull(key, now, out) else {
                break;
            };
            frames += 1;
            bytes = bytes.saturating_add(packet.len_bytes);
            self.queues[key.index()].push_back(packet);
            self.pending_frames += 1;
            self.ac_frames[key.ac().index()] += 1;
        }
        !self.full()
    }

    /// Pull mode: the host answers a fetch indication for `ac`: every TXQ with data
    /// that the firmware holds fewer than `fetch_frames` of, in the scheduler's order,
    /// through `may_transmit`.
    fn answer_fetch(
        &mut self,
        lower: &mut Lower,
        ac: Ac,
        fetch_frames: u32,
        now: Instant,
        out: &mut TxOutput,
    ) {
        let mut fetch = std::mem::take(&mut self.fetch);
        fetch.clear();
        fetch.extend(lower.sched.active_txqs(ac));
        let mut fetched = false;
        for &txq in &fetch {
            if self.full() {
                break;
            }
            let key = lower.key_of(txq);
            if !lower.mac.has_queue(key) {
                continue;
            }
            let (frames, bytes) = lower.ppdu_capacity(key);
            let want = (frames.min(fetch_frames), bytes);
            let Lower { sched, gate, .. } = lower;
            let allowed = sched.may_transmit_at(txq, gate, now);
            debug_assert!(allowed.is_ok(), "{allowed:?}");
            if allowed != Ok(true) {
                continue;
            }
            let before = self.ac_frames[ac.index()];
            self.take(lower, key, want, now, out);
            fetched |= self.ac_frames[ac.index()] > before;
            self.note_pending(lower, key);
            lower.return_txq(key, false, now);
        }
        self.fetch = fetch;
        if !fetched && self.ac_frames[ac.index()] == 0 && lower.holds_frames(ac) {
            self.defer(ac, now);
        }
    }

    /// Push mode: drains one TXQ into the firmware; false if the firmware is full.
    fn push_txq(
        &mut self,
        lower: &mut Lower,
        key: TxqKey,
        now: Instant,
        out: &mut TxOutput,
    ) -> bool {
        let room = self.take(lower, key, (u32::MAX, u32::MAX), now, out);
        self.note_pending(lower, key);
        lower.return_txq(key, false, now);
        room
    }

    /// Push mode, on enqueue: the AC's next TXQ, drained (`ath10k_mac_op_wake_tx_queue`).
    fn push_one(&mut self, lower: &mut Lower, ac: Ac, now: Instant, out: &mut TxOutput) {
        if self.full() {
            return;
        }
        if lower.start_round(ac) {
            if let Some(txq) = next_txq(lower, ac, now) {
                let key = lower.key_of(txq);
                self.push_txq(lower, key, now, out);
            }
        }
        self.retry_if_idle(lower, now);
    }

    /// Push mode, one host latency after a completion: a round of every AC, VO first
    /// (`ath10k_mac_tx_push_pending`; in station-first mode one round over all ACs).
    fn push_pending(&mut self, lower: &mut Lower, now: Instant, out: &mut TxOutput) {
        let acs: &[Ac] = if lower.station_first() {
            &[Ac::Vo]
        } else {
            &Ac::ALL
        };
        'acs: for &ac in acs {
            if self.full() {
                break;
            }
            if !lower.start_round(ac) {
                continue;
            }
            while let Some(txq) = next_txq(lower, ac, now) {
                let key = lower.key_of(txq);
                if !self.push_txq(lower, key, now, out) {
                    break 'acs;
                }
            }
        }
        self.retry_if_idle(lower, now);
    }

    /// Push mode: a round can end without serving a TXQ with data (see the softmac
    /// driver); with the firmware empty, the host tries again one host latency later.
    fn retry_if_idle(&mut self, lower: &Lower, now: Instant) {
        if self.pending_frames == 0 {
            for ac in Ac::ALL {
                if lower.holds_frames(ac) {
                    self.defer(ac, now);
                }
            }
        }
    }

    /// The firmware won the medium in `ac` at `now`: the next station-TID of its round
    /// robin builds a PPDU from its retries and queue. In pull mode the firmware then
    /// asks for more of the AC.
    pub(super) fn next_ppdu(&mut self, lower: &mut Lower, ac: Ac, now: Instant) -> Option<Ppdu> {
        let i = ac.index();
        for _ in 0..self.active[i].len() {
            let key = self.active[i].pop_front()?;
            self.in_active[key.index()] = false;
            let queue = &mut self.queues[key.index()];
            let ppdu = lower.build_with(key, || queue.pop_front());
            self.note_pending(lower, key);
            if ppdu.is_some() {
                if matches!(self.mode, FirmwareMode::Pull { .. }) {
                    self.defer(ac, now);
                }
                return ppdu;
            }
        }
        None
    }
}

/// The scheduler's next TXQ of `ac` — of any AC in station-first mode.
fn next_txq(lower: &mut Lower, ac: Ac, now: Instant) -> Option<TxqId> {
    let station_first = lower.station_first();
    let Lower { sched, gate, .. } = lower;
    if station_first {
        sched.next_txq_any(gate, now)
    } else {
        sched.next_txq(ac, gate, now)
    }
}
