//! A firmware-offload driver, modelled on ath10k with 10.x firmware
//! (`drivers/net/wireless/ath/ath10k/`): the host pushes frames to the firmware, which
//! queues them per station-TID, schedules station-TIDs itself and builds each aggregate
//! only when the medium is won.
//!
//! The host may have at most `max_pending_frames` frames outstanding in the firmware, all
//! ACs together (`ath10k_htt_tx_inc_pending` returns `-EBUSY` at `max_num_pending_tx`,
//! 1424 for 10.x firmware); a frame stops counting when its completion comes back, so
//! the count covers the firmware's queues, its retries and the PPDU on the air. Without
//! AQL that is the whole queue: over a second of airtime at a slow rate, unmanaged.
//!
//! The host pushes on enqueue (`ath10k_mac_op_wake_tx_queue`: the next TXQ of the AC,
//! drained while the firmware takes frames) and after every completion
//! (`ath10k_mac_tx_push_pending`: a scheduling round of every AC, VO first, each TXQ
//! drained until empty, the firmware full or the AQL gate shut). Each packet pulled from
//! the MAC layer passes the AQL gate and is charged; with AQL the firmware queue of each
//! station stays within its AQL limit.
//!
//! The firmware's own scheduler is a round robin over its station-TIDs with frames, one
//! PPDU per turn, per AC — a stand-in for the closed firmware's.

use super::lower::{Lower, IDLE_ROUNDS_MAX};
use super::txq_key::TxqKey;
use crate::frame::Ppdu;
use crate::packet::SimPacket;
use crate::txpath::TxOutput;
use airq::{Ac, Instant};
use std::collections::VecDeque;

pub(super) struct Firmware {
    max_pending_frames: u32,
    /// Frames pushed and not yet completed (`htt->num_pending_tx`).
    pending_frames: u32,
    /// Per station-TID: frames pushed, not yet put in a PPDU.
    queues: Vec<VecDeque<SimPacket>>,
    /// Per AC: the firmware's round robin of station-TIDs with frames.
    active: [VecDeque<TxqKey>; Ac::COUNT],
    /// Per station-TID: on its AC's `active` list.
    in_active: Vec<bool>,
}

impl Firmware {
    pub(super) fn new(max_pending_frames: u32, keys: usize) -> Firmware {
        Firmware {
            max_pending_frames,
            pending_frames: 0,
            queues: (0..keys).map(|_| VecDeque::new()).collect(),
            active: Default::default(),
            in_active: vec![false; keys],
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

    /// Puts the station-TID on its AC's round robin if the firmware holds frames for it.
    pub(super) fn note_pending(&mut self, lower: &Lower, key: TxqKey) {
        let has = !self.queues[key.index()].is_empty() || lower.tid_pending(key) > 0;
        if has && !self.in_active[key.index()] {
            self.in_active[key.index()] = true;
            self.active[key.ac().index()].push_back(key);
        }
    }

    /// `frames` of the firmware's frames were completed.
    pub(super) fn completed(&mut self, frames: u32) {
        debug_assert!(
            self.pending_frames >= frames,
            "completion of unpushed frames"
        );
        self.pending_frames = self.pending_frames.saturating_sub(frames);
    }

    /// Drains one TXQ into the firmware; false if the firmware is full.
    fn push_txq(
        &mut self,
        lower: &mut Lower,
        key: TxqKey,
        now: Instant,
        out: &mut TxOutput,
    ) -> bool {
        let mut room = true;
        loop {
            if self.full() {
                room = false;
                break;
            }
            let Some(packet) = lower.pull(key, now, out) else {
                break;
            };
            self.queues[key.index()].push_back(packet);
            self.pending_frames += 1;
        }
        self.note_pending(lower, key);
        lower.return_txq(key, false, now);
        room
    }

    /// On enqueue: the AC's next TXQ, drained (`ath10k_mac_op_wake_tx_queue`).
    pub(super) fn push_one(&mut self, lower: &mut Lower, ac: Ac, now: Instant, out: &mut TxOutput) {
        if self.full() {
            return;
        }
        if lower.start_round(ac) {
            let Lower { sched, gate, .. } = lower;
            if let Some(txq) = sched.next_txq(ac, gate, now) {
                let key = lower.key_of(txq);
                self.push_txq(lower, key, now, out);
            }
        }
        if self.pending_frames == 0 {
            self.push_pending(lower, now, out);
        }
    }

    /// After a completion: a round of every AC, VO first (`ath10k_mac_tx_push_pending`);
    /// more while the firmware is still empty but frames wait in the MAC layer (see
    /// [`super::lower::IDLE_ROUNDS_MAX`]).
    pub(super) fn push_pending(&mut self, lower: &mut Lower, now: Instant, out: &mut TxOutput) {
        for _ in 0..IDLE_ROUNDS_MAX {
            self.push_round(lower, now, out);
            if self.pending_frames > 0 || !Ac::ALL.iter().any(|&ac| lower.holds_frames(ac)) {
                return;
            }
        }
    }

    fn push_round(&mut self, lower: &mut Lower, now: Instant, out: &mut TxOutput) {
        for ac in Ac::ALL {
            if self.full() {
                return;
            }
            if !lower.start_round(ac) {
                continue;
            }
            loop {
                let Lower { sched, gate, .. } = lower;
                let Some(txq) = sched.next_txq(ac, gate, now) else {
                    break;
                };
                let key = lower.key_of(txq);
                if !self.push_txq(lower, key, now, out) {
                    return;
                }
            }
        }
    }

    /// The firmware won the medium in `ac`: the next station-TID of its round robin
    /// builds a PPDU from its retries and queue.
    pub(super) fn next_ppdu(&mut self, lower: &mut Lower, ac: Ac) -> Option<Ppdu> {
        let i = ac.index();
        for _ in 0..self.active[i].len() {
            let key = self.active[i].pop_front()?;
            self.in_active[key.index()] = false;
            let queue = &mut self.queues[key.index()];
            let ppdu = lower.build_with(key, || queue.pop_front());
            self.note_pending(lower, key);
            if ppdu.is_some() {
                return ppdu;
            }
        }
        None
    }
}
