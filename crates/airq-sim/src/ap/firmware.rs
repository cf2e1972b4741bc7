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
//! - **Pull** (push-pull, ath10k with peer flow control): when the firmware holds no
//!   full PPDU's worth of an AC beside what is on the air, it asks the host for frames
//!   (`HTT_T2H_MSG_TYPE_TX_FETCH_IND`): up to one PPDU's worth — at most
//!   `fetch_frames`, and no more bytes than one aggregate to the station carries at its
//!   rate (the firmware does rate control, so it knows). The host answers one host
//!   latency later with a scheduling round of the airtime scheduler, whose TXQ gets the
//!   frames; so the firmware holds about one PPDU beside the one on the air, like
//!   ath9k's two aggregates, and the host's scheduler decides the airtime. (ath10k asks
//!   for given TXQs and the host answers each with `ieee80211_txq_may_transmit`.
//!   Modelled that way — the firmware asking for each TXQ it held less than a PPDU of —
//!   weights held but airtime groups did not (25% each for one station against a group
//!   of three at equal weights: a TXQ that holds a PPDU is never asked, so never held
//!   back), and a lone station lost a sixth of its throughput to refusals.) The
//!   firmware asks after each PPDU it builds, each completion and each enqueue; a fetch
//!   that got nothing while the host holds frames of the AC is asked again one host
//!   latency later (a round can end before it reaches them).
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
use super::deadlines::Deadlines;
use super::mac_tx::MacTx;
use super::txq_key::TxqKey;
use crate::mac::frame::Ppdu;
use crate::mac::txpath::TxOutput;
use crate::net::packet::SimPacket;
use airq::airtime::TxqId;
use airq::{Ac, Duration, Instant};
use std::collections::VecDeque;

pub(super) struct Firmware {
    max_pending_frames: u32,
    mode: FirmwareMode,
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
    host: Deadlines,
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
            pending_frames: 0,
            ac_frames: [0; Ac::COUNT],
            queues: (0..keys).map(|_| VecDeque::new()).collect(),
            active: Default::default(),
            in_active: vec![false; keys],
            host: Deadlines::new(host_latency),
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
        self.host.poll_at()
    }

    /// Makes a fetch (or push) of every AC holding frames due at `now`.
    pub(super) fn make_due(&mut self, mac_tx: &MacTx, now: Instant) {
        for ac in Ac::ALL {
            if mac_tx.holds_frames(ac) {
                self.host.due_now(ac, now);
            }
        }
    }

    /// Runs the host's work due at `now`.
    pub(super) fn handle_timeout(&mut self, mac_tx: &mut MacTx, now: Instant, out: &mut TxOutput) {
        let due = self.host.take_due(now);
        if !due.contains(&true) {
            return;
        }
        match self.mode {
            FirmwareMode::Pull { fetch_frames } => {
                for ac in Ac::ALL.into_iter().filter(|ac| due[ac.index()]) {
                    self.answer_fetch(mac_tx, ac, fetch_frames, now, out);
                }
            }
            FirmwareMode::Push => self.push_pending(mac_tx, now, out),
        }
    }

    /// Puts the station-TID on its AC's round robin if the firmware holds frames for it.
    pub(super) fn note_pending(&mut self, mac_tx: &MacTx, key: TxqKey) {
        let has = !self.queues[key.index()].is_empty() || mac_tx.tid_pending(key) > 0;
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
        self.host.defer(ac, now);
    }

    /// A downlink packet of `ac` reached the MAC layer at `now`.
    pub(super) fn enqueued(
        &mut self,
        mac_tx: &mut MacTx,
        ac: Ac,
        now: Instant,
        out: &mut TxOutput,
    ) {
        match self.mode {
            // The host reports the TXQ's new data (`ath10k_htt_tx_txq_update`); the
            // firmware asks for it.
            FirmwareMode::Pull { .. } => self.host.defer(ac, now),
            FirmwareMode::Push => self.push_one(mac_tx, ac, now, out),
        }
    }

    /// Takes frames of the station-TID from the MAC layer into the firmware until it
    /// holds `max_frames` or `max_bytes` of it (stopping when it is full or the AQL gate
    /// shuts); false if the firmware became full.
    fn take(
        &mut self,
        mac_tx: &mut MacTx,
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
            let Some(packet) = mac_tx.pull(key, now, out) else {
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

    /// Pull mode: when the firmware holds no full PPDU's worth of `ac`, it asks for
    /// frames and the host answers with a scheduling round: the first TXQ the airtime
    /// scheduler hands out (DRR, weights, groups and their limits, station-first mode,
    /// AQL) that the firmware can take frames for is topped up to a PPDU's worth.
    fn answer_fetch(
        &mut self,
        mac_tx: &mut MacTx,
        ac: Ac,
        fetch_frames: u32,
        now: Instant,
        out: &mut TxOutput,
    ) {
        if self.active[ac.index()]
            .iter()
            .any(|&k| self.holds_ppdu(mac_tx, k, fetch_frames))
        {
            return;
        }
        let mut fetched = false;
        if mac_tx.start_round(ac) {
            while !fetched && !self.full() {
                let Some(txq) = next_txq(mac_tx, ac, now) else {
                    break;
                };
                let key = mac_tx.key_of(txq);
                let (frames, bytes) = mac_tx.ppdu_capacity(key);
                let before = self.pending_frames;
                self.take(mac_tx, key, (frames.min(fetch_frames), bytes), now, out);
                fetched = self.pending_frames > before;
                self.note_pending(mac_tx, key);
                mac_tx.return_txq(key, false, now);
            }
        }
        // A round can end before it reaches a TXQ with frames (see the softmac driver):
        // the firmware asks again one host latency later.
        // (In station-first mode a round serves any AC, so any AC's packets count.)
        let acs: &[Ac] = if mac_tx.station_first() {
            &Ac::ALL
        } else {
            &[ac]
        };
        if !fetched && acs.iter().any(|&a| mac_tx.holds_mac_packets(a)) {
            self.host.defer(ac, now);
        }
    }

    /// Whether the firmware holds a full PPDU's worth of frames for the station-TID: the
    /// most one PPDU to it carries, at most `fetch_frames`.
    fn holds_ppdu(&self, mac_tx: &MacTx, key: TxqKey, fetch_frames: u32) -> bool {
        let (frames, bytes) = mac_tx.ppdu_capacity(key);
        let queue = &self.queues[key.index()];
        let held_bytes: u32 = queue.iter().map(|p| p.len_bytes).sum();
        queue.len() as u32 >= frames.min(fetch_frames) || held_bytes >= bytes
    }

    /// Push mode: drains one TXQ into the firmware; false if the firmware is full.
    fn push_txq(
        &mut self,
        mac_tx: &mut MacTx,
        key: TxqKey,
        now: Instant,
        out: &mut TxOutput,
    ) -> bool {
        let room = self.take(mac_tx, key, (u32::MAX, u32::MAX), now, out);
        self.note_pending(mac_tx, key);
        mac_tx.return_txq(key, false, now);
        room
    }

    /// Push mode, on enqueue: the AC's next TXQ, drained (`ath10k_mac_op_wake_tx_queue`).
    fn push_one(&mut self, mac_tx: &mut MacTx, ac: Ac, now: Instant, out: &mut TxOutput) {
        if self.full() {
            return;
        }
        if mac_tx.start_round(ac) {
            if let Some(txq) = next_txq(mac_tx, ac, now) {
                let key = mac_tx.key_of(txq);
                self.push_txq(mac_tx, key, now, out);
            }
        }
        self.retry_if_idle(mac_tx, now);
    }

    /// Push mode, one host latency after a completion: a round of every AC, VO first
    /// (`ath10k_mac_tx_push_pending`; in station-first mode one round over all ACs).
    fn push_pending(&mut self, mac_tx: &mut MacTx, now: Instant, out: &mut TxOutput) {
        let acs: &[Ac] = if mac_tx.station_first() {
            &[Ac::Vo]
        } else {
            &Ac::ALL
        };
        'acs: for &ac in acs {
            if self.full() {
                break;
            }
            if !mac_tx.start_round(ac) {
                continue;
            }
            while let Some(txq) = next_txq(mac_tx, ac, now) {
                let key = mac_tx.key_of(txq);
                if !self.push_txq(mac_tx, key, now, out) {
                    break 'acs;
                }
            }
        }
        self.retry_if_idle(mac_tx, now);
    }

    /// Push mode: a round can end without serving a TXQ with data (see the softmac
    /// driver); with the firmware empty, the host tries again one host latency later.
    fn retry_if_idle(&mut self, mac_tx: &MacTx, now: Instant) {
        if self.pending_frames == 0 {
            for ac in Ac::ALL {
                if mac_tx.holds_frames(ac) {
                    self.host.defer(ac, now);
                }
            }
        }
    }

    /// The firmware won the medium in `ac` at `now`: the next station-TID of its round
    /// robin builds a PPDU from its retries and queue. In pull mode the firmware then
    /// asks for more of the AC.
    pub(super) fn next_ppdu(&mut self, mac_tx: &mut MacTx, ac: Ac, now: Instant) -> Option<Ppdu> {
        let i = ac.index();
        for _ in 0..self.active[i].len() {
            let key = self.active[i].pop_front()?;
            self.in_active[key.index()] = false;
            let queue = &mut self.queues[key.index()];
            let ppdu = mac_tx.build_with(key, now, || queue.pop_front());
            self.note_pending(mac_tx, key);
            if ppdu.is_some() {
                if matches!(self.mode, FirmwareMode::Pull { .. }) {
                    self.host.defer(ac, now);
                }
                return ppdu;
            }
        }
        None
    }
}

/// The scheduler's next TXQ of `ac` — of any AC in station-first mode.
fn next_txq(mac_tx: &mut MacTx, ac: Ac, now: Instant) -> Option<TxqId> {
    let station_first = mac_tx.station_first();
    let MacTx { sched, gate, .. } = mac_tx;
    if station_first {
        sched.next_txq_any(gate, now)
    } else {
        sched.next_txq(ac, gate, now)
    }
}
