//! A softmac driver, modelled on ath9k (`drivers/net/wireless/ath/ath9k/xmit.c`): the
//! driver builds each aggregate itself and queues it to the hardware queue of its AC,
//! keeping that queue just deep enough to never idle the radio — at most
//! `ATH_AGGR_MIN_QDEPTH` (2) A-MPDUs, counted from queueing until completion
//! (`txq->axq_ampdu_depth`), or `ATH_NON_AGGR_MIN_QDEPTH` (8) PPDUs for a non-aggregated
//! frame (`txq->axq_depth`) (`ath_tx_sched_aggr`). Everything else waits above, in the
//! MAC layer, where the queue management is.
//!
//! Whenever the hardware queue may have room — after an enqueue and after each
//! completion (`ath_txq_schedule` from `ath_tx_start` and the TX tasklet) — the driver
//! runs one scheduling round of the AC: it asks the scheduler for the next TXQ, builds one
//! aggregate for that station-TID from its retries and then from the MAC layer, hands the
//! TXQ back, and goes on until the hardware queue is full or the round ends
//! (`ieee80211_txq_schedule_start` / `ieee80211_next_txq` / `ieee80211_return_txq`).
//!
//! Retries stay with their TXQ: a station-TID holding MPDUs that failed (or did not fit
//! its last aggregate) is handed back to the scheduler as having data (ath9k's
//! `ieee80211_return_txq(hw, queue, force = !skb_queue_empty(&tid->retry_q))`), and its
//! next aggregate starts with them. With AQL on, that alone could deadlock: a station
//! whose pending airtime is all in retries that the AQL gate keeps the scheduler from
//! serving would never complete them. Hardware with AQL (mt76, ath10k firmware) retries
//! below the gate, so here too a station-TID with retries and nothing in the hardware
//! queue gets a PPDU of its retries alone after each scheduling round, ungated.
//!
//! When the driver acts: an enqueue runs a round at once (`ath9k_wake_tx_queue` calls
//! `ath_txq_schedule` in the caller's context); a completion runs one after the host
//! latency (the TX tasklet). A round can end without serving a TXQ that has data:
//! mac80211's `ieee80211_next_txq` (and the library's) ends it when the TXQ at the head
//! was already served this round — often a station's empty TXQ kept listed to repay its
//! deficit (`ieee80211_txq_keep_active`) — while the stations with data are still being
//! refilled behind it. A real driver gets its next chance at its next interrupt or
//! enqueue; so that an idle radio does not wait for unrelated traffic, a round that
//! leaves the AC's hardware queue empty while frames wait above it asks for another
//! round one host latency later ([`Softmac::poll_at`]).
//!
//! In station-first mode (seed §4.3) the scheduler hands out TXQs of any AC: every
//! round is one over all ACs, and each aggregate goes to the hardware queue of its own
//! AC.
//!
//! With combined QoS aggregates on ([`super::qos_aggregate`], seed §4.3; not ath9k), a
//! round hands a station's VO TXQ back unserved while the rule keeps its frames for the
//! station's next BE/VI A-MPDU, and runs a VO round when such a wait ends.
//!
//! With just-in-time aggregates on ([`super::just_in_time`], seed §4.1; not ath9k), a
//! hardware queue holds a second A-MPDU only from the instant that rule gives — shortly
//! before the one on the air is expected to end — and the driver runs a round then.

use super::deadlines::Deadlines;
use super::just_in_time::JitTimer;
use super::mac_tx::MacTx;
use super::txq_key::TxqKey;
use crate::mac::frame::Ppdu;
use crate::mac::txpath::TxOutput;
use airq::{Ac, Duration, Instant};
use std::collections::VecDeque;

pub(super) struct Softmac {
    aggr_min_qdepth: u32,
    non_aggr_min_qdepth: u32,
    /// Per AC: PPDUs built, not yet taken by the channel.
    hw: [VecDeque<Ppdu>; Ac::COUNT],
    /// Per AC: PPDUs queued or on the air, until completion (`axq_depth`).
    depth: [u32; Ac::COUNT],
    /// Per AC: of which A-MPDUs (`axq_ampdu_depth`).
    ampdu_depth: [u32; Ac::COUNT],
    /// Per AC: station-TIDs with frames waiting in their [`TidTx`](crate::mac::tid_tx::TidTx).
    retry_ready: [VecDeque<TxqKey>; Ac::COUNT],
    /// Per station-TID: on its AC's `retry_ready` list.
    in_retry_ready: Vec<bool>,
    /// Per station-TID: PPDUs queued or on the air.
    in_hw: Vec<u32>,
    /// AQL is on: retries may be stranded (keep `retry_ready`).
    aql: bool,
    /// The scheduler hands out TXQs of any AC (station-first mode).
    any_ac: bool,
    /// Every station-TID aggregates (see [`Softmac::any_room`]).
    all_aggregate: bool,
    /// Per AC: when the driver runs its next round of its own accord.
    rounds: Deadlines,
    /// Just-in-time aggregates, if on.
    pub(super) jit: Option<Box<JitTimer>>,
}

impl Softmac {
    pub(super) fn new(
        aggr_min_qdepth: u32,
        non_aggr_min_qdepth: u32,
        keys: usize,
        aql: bool,
        any_ac: bool,
        host_latency: Duration,
        all_aggregate: bool,
    ) -> Softmac {
        Softmac {
            aggr_min_qdepth,
            non_aggr_min_qdepth,
            hw: Default::default(),
            depth: [0; Ac::COUNT],
            ampdu_depth: [0; Ac::COUNT],
            retry_ready: Default::default(),
            in_retry_ready: vec![false; keys],
            in_hw: vec![0; keys],
            aql,
            any_ac,
            all_aggregate,
            rounds: Deadlines::new(host_latency),
            jit: None,
        }
    }

    /// When the driver next needs to run a round although nothing calls it.
    pub(super) fn poll_at(&self) -> Option<Instant> {
        let jit = self.jit.as_ref().and_then(|j| j.poll_at());
        match (self.rounds.poll_at(), jit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Makes a round of every AC holding frames due at `now`.
    pub(super) fn make_due(&mut self, mac_tx: &MacTx, now: Instant) {
        for ac in Ac::ALL {
            if mac_tx.holds_frames(ac) {
                self.rounds.due_now(ac, now);
            }
        }
    }

    /// Runs the rounds due at `now`.
    pub(super) fn handle_timeout(&mut self, mac_tx: &mut MacTx, now: Instant, out: &mut TxOutput) {
        let mut due = self.rounds.take_due(now);
        if let Some(jit) = &mut self.jit {
            let built = jit.take_due(now);
            for ac in Ac::ALL {
                due[ac.index()] |= built[ac.index()];
            }
        }
        for ac in Ac::ALL {
            if due[ac.index()] {
                self.fill(mac_tx, ac, now, out);
            }
        }
    }

    pub(super) fn has_frames(&self, ac: Ac) -> bool {
        !self.hw[ac.index()].is_empty()
    }

    /// The head of the AC's hardware queue, going on the air at `now`; it stays counted
    /// in the depth until done.
    pub(super) fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu> {
        let ppdu = self.hw[ac.index()].pop_front()?;
        if let (Some(jit), true) = (&mut self.jit, ppdu.aggregate) {
            jit.on_air(ac, ppdu.duration, now);
        }
        Some(ppdu)
    }

    /// PPDUs queued or on the air in `ac`.
    pub(super) fn depth(&self, ac: Ac) -> u32 {
        self.depth[ac.index()]
    }

    /// A-MPDUs queued or on the air in `ac`.
    pub(super) fn ampdu_depth(&self, ac: Ac) -> u32 {
        self.ampdu_depth[ac.index()]
    }

    /// MPDUs in PPDUs built and not yet taken by the channel, over all ACs.
    pub(super) fn queued_mpdus(&self) -> usize {
        self.hw.iter().flatten().map(|p| p.mpdus.len()).sum()
    }

    /// A PPDU of `ac` to the station-TID completed at `now`: the TX tasklet refills the
    /// hardware queue one host latency later.
    pub(super) fn completed(&mut self, key: TxqKey, ac: Ac, aggregate: bool, now: Instant) {
        self.rounds.defer(ac, now);
        let i = ac.index();
        self.in_hw[key.index()] = self.in_hw[key.index()].saturating_sub(1);
        debug_assert!(self.depth[i] > 0, "completion without a queued PPDU");
        self.depth[i] = self.depth[i].saturating_sub(1);
        if aggregate {
            self.ampdu_depth[i] = self.ampdu_depth[i].saturating_sub(1);
        }
    }

    /// With just-in-time aggregates: an A-MPDU of `ac` completed; late if no PPDU
    /// follows it in the hardware queue while packets of the AC wait in the MAC layer.
    pub(super) fn jit_completed(&mut self, mac_tx: &MacTx, ac: Ac, aggregate: bool) {
        let dry = self.hw[ac.index()].is_empty() && mac_tx.holds_mac_packets(ac);
        if let (Some(jit), true) = (&mut self.jit, aggregate) {
            jit.completed(ac, dry);
        }
    }

    /// Puts the station-TID on its AC's retry list if its
    /// [`TidTx`](crate::mac::tid_tx::TidTx) holds frames (AQL on).
    pub(super) fn note_pending(&mut self, mac_tx: &MacTx, key: TxqKey) {
        if self.aql && mac_tx.tid_pending(key) > 0 && !self.in_retry_ready[key.index()] {
            self.in_retry_ready[key.index()] = true;
            self.retry_ready[key.ac().index()].push_back(key);
        }
    }

    /// Whether a PPDU of this kind may be queued in `ac` at `now`. With just-in-time
    /// aggregates, an A-MPDU beside another only from the instant the rule gives.
    fn room(&self, ac: Ac, aggregate: bool, now: Instant) -> bool {
        let i = ac.index();
        if aggregate {
            let ahead = match &self.jit {
                Some(jit) => self.ampdu_depth[i] == 0 || jit.may_build(ac, now),
                None => true,
            };
            ahead && self.ampdu_depth[i] < self.aggr_min_qdepth
        } else {
            self.depth[i] < self.non_aggr_min_qdepth
        }
    }

    /// Whether a PPDU of some station-TID may be queued in `ac` now. Where every
    /// station-TID aggregates, the room for non-aggregated frames does not count: a
    /// round would find each TXQ without room and hand it back in the order it was, as
    /// ath9k's `ath_txq_schedule` does (`ath_tx_sched_aggr` returns `-EBUSY` for each).
    fn any_room(&self, ac: Ac, now: Instant) -> bool {
        self.room(ac, true, now) || (!self.all_aggregate && self.room(ac, false, now))
    }

    fn push(&mut self, key: TxqKey, ppdu: Ppdu) {
        self.in_hw[key.index()] += 1;
        let i = ppdu.ac.index();
        self.depth[i] += 1;
        if ppdu.aggregate {
            self.ampdu_depth[i] += 1;
        }
        self.hw[i].push_back(ppdu);
    }

    /// Fills the AC's hardware queue (every AC's in station-first mode): one scheduling
    /// round, then (AQL on) retries that the gate would otherwise strand. If an AC's
    /// hardware queue is still empty while frames wait above it, another round follows
    /// one host latency later.
    pub(super) fn fill(&mut self, mac_tx: &mut MacTx, ac: Ac, now: Instant, out: &mut TxOutput) {
        let acs: &[Ac] = if self.any_ac { &Ac::ALL } else { &[ac] };
        if acs.iter().any(|&a| self.any_room(a, now)) {
            self.round(mac_tx, ac, now, out);
        }
        for &a in acs {
            if self.aql {
                self.send_stranded_retries(mac_tx, a, now);
            }
            if self.depth[a.index()] == 0 && mac_tx.holds_frames(a) {
                // Frames held for a carrier need no round until their wait ends
                // ([`MacTx::qos_poll_at`]).
                if a == Ac::Vo && mac_tx.vo_only_held() {
                    continue;
                }
                self.rounds.defer(a, now);
            } else if self.jit_wants_more(a, now) && mac_tx.holds_mac_packets(a) {
                // The just-in-time round built nothing to follow the aggregate on the
                // air (the scheduler ended its round early): try again, as a driver
                // polling until the hardware queue is filled would.
                self.rounds.defer(a, now);
            }
        }
    }

    /// With just-in-time aggregates: the build time of `ac` has come and no A-MPDU
    /// follows the one on the air yet.
    fn jit_wants_more(&self, ac: Ac, now: Instant) -> bool {
        let i = ac.index();
        self.jit.as_ref().is_some_and(|j| j.may_build(ac, now))
            && self.hw[i].is_empty()
            && self.ampdu_depth[i] < self.aggr_min_qdepth
    }

    fn round(&mut self, mac_tx: &mut MacTx, ac: Ac, now: Instant, out: &mut TxOutput) {
        if !mac_tx.start_round(ac) {
            return;
        }
        loop {
            if !self.any_ac && self.head_busy(mac_tx, ac, now) {
                break;
            }
            let MacTx { sched, gate, .. } = mac_tx;
            let txq = if self.any_ac {
                sched.next_txq_any(gate, now)
            } else if self.any_room(ac, now) {
                sched.next_txq(ac, gate, now)
            } else {
                None
            };
            let Some(txq) = txq else {
                break;
            };
            let key = mac_tx.key_of(txq);
            if mac_tx.vo_waits_for_carrier(key, now) {
                // Combined QoS aggregates: its frames wait for the station's next
                // BE/VI A-MPDU; the round goes on as for a TXQ without room. In
                // station-first mode the TXQ goes back as empty, so that the station's
                // carrier is picked.
                if self.any_ac {
                    mac_tx.unschedule_held(key, now);
                } else {
                    self.return_txq(mac_tx, key, now);
                }
                continue;
            }
            if !self.room(key.ac(), mac_tx.aggregates(key), now) {
                // `ath_tx_sched_aggr` returns `-EBUSY`: no room for this PPDU; the
                // round goes on to the next TXQ.
                self.return_txq(mac_tx, key, now);
                continue;
            }
            if let Some(ppdu) = mac_tx.build_from_mac(key, now, out) {
                self.push(key, ppdu);
            }
            self.note_pending(mac_tx, key);
            self.return_txq(mac_tx, key, now);
        }
    }

    /// Round robin (airtime fairness off): the TXQ at the head of the AC's list holds
    /// frames of a kind the hardware queue has no room for, so the round ends there and
    /// that TXQ stays first, as in ath9k's round robin of Linux 4.11–4.20, the FQ-MAC
    /// the seed measured (`ath_txq_schedule` in `drivers/net/wireless/ath/ath9k/xmit.c`:
    /// without `AIRTIME_ACTIVE`, a TID served is moved to the tail of `acq_old`, and when
    /// `ath_tx_sched_aggr` finds `axq_ampdu_depth`/`axq_depth` at its limit the round
    /// returns, leaving the TID at the head).
    ///
    /// Walking on instead — handing each such TXQ out, finding no room (`-EBUSY`) and
    /// handing it back to the tail, as ath9k on mac80211's `ieee80211_next_txq` does
    /// since 5.0 — brings a list in which every TXQ has data back to the order it had
    /// before the round whenever the walk passes them all: the TXQ at the head takes
    /// every aggregate slot that frees up for as long as it has data, and the others
    /// starve (with `airtime_flags = 0`, which no longer charges deficits, Linux would do
    /// this too). The walk passes them all whenever some PPDU still fits, e.g. a
    /// non-aggregated frame of an 802.11b station below `ATH_NON_AGGR_MIN_QDEPTH`.
    ///
    /// The legacy MAC stands for the ath9k before mac80211's TXQs (Linux <= 4.10), whose
    /// round also ended at the first TID without room (`*stop = true` in
    /// `ath_tx_sched_aggr`), and here it too leaves that TID first. ath9k's code had taken
    /// the TID off the list and put it back at the tail (`ath_tx_queue_tid`); modelled
    /// so, a near client's TID found no room each time right after the far client's
    /// took the free slot and went behind it again, and the near client of
    /// `scenarios/near-far.toml` got no ping answered after 6 s under `fq_codel`, where
    /// the seed measured 18 ms. What kept the real driver from that is not known.
    fn head_busy(&self, mac_tx: &MacTx, ac: Ac, now: Instant) -> bool {
        if mac_tx.sched.params().fairness {
            return false;
        }
        let Some(txq) = mac_tx.sched.head_txq(ac) else {
            return false;
        };
        let key = mac_tx.key_of(txq);
        let has_frames = mac_tx.tid_pending(key) > 0 || mac_tx.mac.has_queue(key);
        has_frames && !self.room(ac, mac_tx.aggregates(key), now)
    }

    /// Combined QoS aggregates: VO frames of the station-TID `key` rode in a PPDU of
    /// another AC; those that failed wait in its [`TidTx`](crate::mac::tid_tx::TidTx)
    /// and go in VO's own PPDUs, from a round one host latency later.
    pub(super) fn riders_completed(&mut self, mac_tx: &mut MacTx, key: TxqKey, now: Instant) {
        self.note_pending(mac_tx, key);
        if mac_tx.tid_pending(key) > 0 {
            mac_tx.return_txq(key, true, now);
            self.rounds.defer(key.ac(), now);
        }
    }

    /// Hands the TXQ back, forced to stay scheduled while it holds retries.
    fn return_txq(&self, mac_tx: &mut MacTx, key: TxqKey, now: Instant) {
        let force = mac_tx.tid_pending(key) > 0;
        mac_tx.return_txq(key, force, now);
    }

    /// A PPDU of its retries alone for each station-TID that has some and nothing in the
    /// hardware queue.
    fn send_stranded_retries(&mut self, mac_tx: &mut MacTx, ac: Ac, now: Instant) {
        let i = ac.index();
        for _ in 0..self.retry_ready[i].len() {
            let Some(&key) = self.retry_ready[i].front() else {
                break;
            };
            if !self.room(ac, mac_tx.aggregates(key), now) {
                break;
            }
            self.retry_ready[i].pop_front();
            self.in_retry_ready[key.index()] = false;
            if self.in_hw[key.index()] == 0 {
                if let Some(ppdu) = mac_tx.build_with(key, now, || None) {
                    self.push(key, ppdu);
                }
            }
            self.note_pending(mac_tx, key);
        }
    }
}
