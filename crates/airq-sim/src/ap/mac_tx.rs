//! The layers below the qdisc that every driver model shares: the MAC queues, the
//! scheduler over station-TIDs, the AQL gate, each station-TID's BlockAck and retry state
//! ([`TidTx`]) and the ledger. The driver models ([`super::softmac`],
//! [`super::firmware`]) decide *when* to pull from the MAC layer and build PPDUs; this
//! is *how*: dequeue one packet past the AQL gate and charge it, fill an aggregate,
//! take back a finished PPDU.

use super::aggregation::sized_limits;
use super::aql_gate::AqlGate;
use super::ledger::{Layer, Ledger};
use super::mac_layer::MacLayer;
use super::qos_aggregate::{carrier_keys, vo_keys, QosCombine};
use super::station_codel::StationCodel;
use super::txq_key::TxqKey;
use crate::mac::frame::{Mpdu, Ppdu};
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::rate_control::{RateControl, TxRate};
use crate::mac::retry_time::RetryTimeParams;
use crate::mac::tid_tx::{AggregateLimits, Completion, LengthBounds, TidTx};
use crate::mac::txpath::{DropCause, TxOutcome, TxOutput};
use crate::net::packet::{NodeId, SimPacket};
use airq::aggregate::AggregateSizing;
use airq::airtime::{AirtimeScheduler, SchedulingMode, TxqId};
use airq::phy::Rate;
use airq::{Ac, Duration, Instant, StationId, Tid};

pub(super) struct MacTx {
    pub(super) bss: BssConfig,
    pub(super) links: Vec<StationLink>,
    pub(super) mac: MacLayer,
    pub(super) sched: AirtimeScheduler,
    /// The scheduler's TXQ of each station-TID.
    pub(super) txqs: Vec<TxqId>,
    /// The station-TID of each TXQ, by [`TxqId::index`].
    pub(super) txq_keys: Vec<TxqKey>,
    pub(super) gate: AqlGate,
    pub(super) ledger: Ledger,
    /// Per station-TID.
    pub(super) tid_tx: Vec<TidTx>,
    /// Per station-TID: what bounds its PPDUs (links do not change during a run), with
    /// the driver's own subframe cap.
    limits: Vec<AggregateLimits>,
    /// Reused for every completion.
    completion: Completion,
    /// Per station: the rate of each PPDU to it (the link's fixed rate unless the
    /// simulation installs rate control, [`crate::mac::rate_control`]).
    pub(super) rate_control: Vec<RateControl>,
    /// Dynamic aggregate sizing, if on ([`super::aggregation`]).
    pub(super) sizing: Option<AggregateSizing>,
    /// The time-based retry limit, if on ([`crate::mac::retry_time`]).
    pub(super) retry_time: Option<RetryTimeParams>,
    /// Combined QoS aggregates, if on ([`super::qos_aggregate`]).
    pub(super) qos: Option<QosCombine>,
    /// FQ-MAC's CoDel parameters per station, if on ([`super::station_codel`]).
    pub(super) station_codel: Option<StationCodel>,
}

/// What a completion freed, for the driver model.
pub(super) struct Completed {
    pub(super) key: TxqKey,
    /// Frames completed (delivered or dropped), i.e. no longer held below the MAC.
    pub(super) frames: u32,
    /// The legacy MAC's queue for the AC was woken.
    pub(super) woke: bool,
    /// What became of the PPDU's MPDUs.
    pub(super) outcome: TxOutcome,
    /// The station-TIDs of VO frames that rode in the PPDU (combined QoS aggregates).
    pub(super) riders: Vec<TxqKey>,
}

impl MacTx {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        bss: BssConfig,
        links: Vec<StationLink>,
        mac: MacLayer,
        sched: AirtimeScheduler,
        txqs: Vec<TxqId>,
        txq_keys: Vec<TxqKey>,
        gate: AqlGate,
        max_subframes: Option<u16>,
    ) -> MacTx {
        let keys = txqs.len();
        let rate_control = links.iter().map(|l| RateControl::Fixed(l.rate)).collect();
        let stations = links.len();
        let mut bounds = LengthBounds::default();
        let limits = TxqKey::all(stations)
            .map(|k| {
                let link = &links[k.station().index()];
                let mut l = AggregateLimits::new_with(&bss, link, k.tid(), &mut bounds);
                if let Some(cap) = max_subframes {
                    l.max_subframes = (l.ba_window / 2).max(1).min(cap);
                }
                l
            })
            .collect();
        MacTx {
            bss,
            links,
            mac,
            sched,
            txqs,
            txq_keys,
            gate,
            ledger: Ledger::new(stations),
            tid_tx: (0..keys).map(|_| TidTx::default()).collect(),
            limits,
            completion: Completion::default(),
            rate_control,
            sizing: None,
            retry_time: None,
            qos: None,
            station_codel: None,
        }
    }

    /// Whether PPDUs to this station-TID are A-MPDUs.
    pub(super) fn aggregates(&self, key: TxqKey) -> bool {
        self.limits(key).ampdu
    }

    /// What one PPDU to this station-TID can carry at most: (frames, bytes).
    pub(super) fn ppdu_capacity(&self, key: TxqKey) -> (u32, u32) {
        let l = self.limits(key);
        if l.ampdu {
            (u32::from(l.max_subframes), l.max_psdu_bytes)
        } else {
            (1, u32::MAX)
        }
    }

    fn limits(&self, key: TxqKey) -> &AggregateLimits {
        &self.limits[key.index()]
    }

    /// Starts a scheduling round of `ac` (`ieee80211_txq_schedule_start`), or of every
    /// AC in station-first mode; false if AQL's PHY gate refused it, and then no TXQ may
    /// be served this round.
    pub(super) fn start_round(&mut self, ac: Ac) -> bool {
        if self.station_first() {
            self.sched.schedule_start_any(&mut self.gate);
        } else {
            self.sched.schedule_start(ac, &mut self.gate);
        }
        self.sched.round_allowed(ac)
    }

    /// The scheduler hands out TXQs of any AC ([`SchedulingMode::StationFirst`]).
    pub(super) fn station_first(&self) -> bool {
        self.sched.params().mode == SchedulingMode::StationFirst
    }

    /// Whether frames of `ac` wait in the MAC layer or in a [`TidTx`] (retries).
    pub(super) fn holds_frames(&self, ac: Ac) -> bool {
        let b = &self.ledger.ac_backlog[ac.index()];
        b.mac_packets > 0 || b.driver_frames > 0
    }

    /// Whether packets of `ac` wait in the MAC layer (above the driver).
    pub(super) fn holds_mac_packets(&self, ac: Ac) -> bool {
        self.ledger.ac_backlog[ac.index()].mac_packets > 0
    }

    pub(super) fn key_of(&self, txq: TxqId) -> TxqKey {
        self.txq_keys[txq.index()]
    }

    /// Queues a packet (already out of the qdisc, or without one) in the MAC layer and
    /// schedules its TXQ (mac80211 `schedule_and_wake_txq`).
    pub(super) fn mac_enqueue(&mut self, packet: SimPacket, now: Instant, out: &mut TxOutput) {
        let key = TxqKey::new(packet.station, packet.tid);
        self.ledger.entered(Layer::Mac, &packet);
        let MacTx { mac, ledger, .. } = self;
        mac.enqueue(key, packet, now, |p, c| ledger.drop(Layer::Mac, p, c, out));
        let r = self.sched.return_txq(self.txqs[key.index()], true, now);
        debug_assert!(r.is_ok(), "{r:?}");
    }

    /// Hands a TXQ back to the scheduler after serving it; it stays scheduled if the MAC
    /// layer still holds packets for it, or if `force`.
    pub(super) fn return_txq(&mut self, key: TxqKey, force: bool, now: Instant) {
        let has_queue = force || self.mac.has_queue(key);
        let r = self
            .sched
            .return_txq(self.txqs[key.index()], has_queue, now);
        debug_assert!(r.is_ok(), "{r:?}");
    }

    /// Takes one packet of the station-TID from the MAC layer into the driver, if the AQL
    /// gate allows, charging its expected airtime.
    pub(super) fn pull(
        &mut self,
        key: TxqKey,
        now: Instant,
        out: &mut TxOutput,
    ) -> Option<SimPacket> {
        let rate = self.rate_control[key.station().index()].last_rate();
        let MacTx {
            mac, gate, ledger, ..
        } = self;
        pull_from_mac(mac, gate, ledger, out, key, &rate, now)
    }

    /// Builds the station-TID's next PPDU: retries first, then packets pulled from the
    /// MAC layer through the AQL gate (ath9k's `ath_tx_form_aggr` from `retry_q`, then
    /// `buf_q` / `ieee80211_tx_dequeue`).
    pub(super) fn build_from_mac(
        &mut self,
        key: TxqKey,
        now: Instant,
        out: &mut TxOutput,
    ) -> Option<Ppdu> {
        let s = key.station();
        let limits = self.next_limits(key);
        let (tx, limits) = self.rate_for(key, &limits, now);
        let riders = match self.qos.is_some() && matches!(key.ac(), Ac::Be | Ac::Vi) {
            true if limits.ampdu && limits.max_subframes > 1 => self.take_riders(s, now, out),
            _ => Vec::new(),
        };
        let MacTx {
            bss,
            mac,
            gate,
            ledger,
            tid_tx,
            rate_control,
            ..
        } = self;
        // AQL's estimate takes the last rate used, as mac80211's does.
        let rate = rate_control[s.index()].last_rate();
        let ppdu = tid_tx[key.index()].build_ppdu_carrying(
            (NodeId::Ap, NodeId::Sta(s), key.tid()),
            bss,
            tx,
            &limits,
            riders,
            || pull_from_mac(mac, gate, ledger, out, key, &rate, now),
        );
        if key.ac() == Ac::Vo {
            if let Some(q) = &mut self.qos {
                if !vo_keys(s).any(|k| self.mac.has_queue(k)) {
                    q.released(s);
                }
            }
        }
        ppdu
    }

    /// Combined QoS aggregates: the VO frames of station `s` that ride at the head of
    /// the BE/VI A-MPDU being built (none unless the rule allows), pulled through the
    /// AQL gate (charged to VO) and numbered in their own TID's BlockAck state.
    fn take_riders(&mut self, s: StationId, now: Instant, out: &mut TxOutput) -> Vec<Mpdu> {
        let MacTx {
            mac,
            gate,
            ledger,
            tid_tx,
            limits,
            rate_control,
            qos,
            ..
        } = self;
        let Some(q) = qos else {
            return Vec::new();
        };
        // Retries of VO frames go in VO's own PPDUs: a TID with some waiting carries none.
        let ready = |k: &TxqKey| mac.has_queue(*k) && tid_tx[k.index()].pending_len() == 0;
        let queued: u32 = vo_keys(s)
            .filter(ready)
            .map(|k| mac.backlog_packets(k))
            .sum();
        if queued == 0 {
            return Vec::new();
        }
        let mut budget = q.rule.to_carry(queued, q.contenders(now));
        let rate = rate_control[s.index()].last_rate();
        let mut riders = Vec::new();
        for k in vo_keys(s) {
            let window = limits[k.index()].ba_window;
            while budget > 0 && limits[k.index()].ampdu && tid_tx[k.index()].may_number(window) {
                let Some(p) = pull_from_mac(mac, gate, ledger, out, k, &rate, now) else {
                    break;
                };
                riders.push(tid_tx[k.index()].number(p));
                budget -= 1;
            }
        }
        q.rule.carried(riders.len() as u32);
        if !vo_keys(s).any(|k| mac.has_queue(k)) {
            q.released(s);
        } else if self.sched.params().mode == SchedulingMode::StationFirst {
            // Frames left (the AQL gate, the BlockAck window): their TXQ, handed back
            // as empty while held, has data for the scheduler again.
            self.reschedule_vo(s, now);
        }
        riders
    }

    /// Combined QoS aggregates in station-first mode: a held VO TXQ is handed back as
    /// empty, so that the scheduler picks its station's carrier ([`super::qos_aggregate`]).
    pub(super) fn unschedule_held(&mut self, key: TxqKey, now: Instant) {
        let r = self.sched.return_txq(self.txqs[key.index()], false, now);
        debug_assert!(r.is_ok(), "{r:?}");
    }

    /// Combined QoS aggregates in station-first mode: station `s`'s VO TXQs with frames
    /// have data for the scheduler again (a wait ended, or frames left after a carrier).
    pub(super) fn reschedule_vo(&mut self, s: StationId, now: Instant) {
        for k in vo_keys(s) {
            if self.mac.has_queue(k) {
                let r = self.sched.return_txq(self.txqs[k.index()], true, now);
                debug_assert!(r.is_ok(), "{r:?}");
            }
        }
    }

    /// Combined QoS aggregates: whether the station's VO TXQ `key`, handed out by the
    /// scheduler, is handed back unserved, its frames waiting for the station's next
    /// BE/VI A-MPDU ([`super::qos_aggregate`]). False when off and for other ACs.
    pub(super) fn vo_waits_for_carrier(&mut self, key: TxqKey, now: Instant) -> bool {
        let MacTx {
            mac,
            tid_tx,
            limits,
            qos,
            ..
        } = self;
        let Some(q) = qos else {
            return false;
        };
        if key.ac() != Ac::Vo {
            return false;
        }
        let s = key.station();
        let retries = vo_keys(s).any(|k| tid_tx[k.index()].pending_len() > 0);
        let carrier = carrier_keys(s).any(|k| {
            limits[k.index()].ampdu && (mac.has_queue(k) || tid_tx[k.index()].pending_len() > 0)
        });
        let queued: u32 = vo_keys(s).map(|k| mac.backlog_packets(k)).sum();
        if retries || !carrier || queued == 0 {
            q.released(s);
            return false;
        }
        q.hold(s, queued, now)
    }

    /// Combined QoS aggregates: when the first wait of VO frames for a carrier ends.
    pub(super) fn qos_poll_at(&self) -> Option<Instant> {
        self.qos.as_ref().and_then(QosCombine::poll_at)
    }

    /// Combined QoS aggregates: every VO frame in the MAC layer waits for a carrier and
    /// no VO retry waits, so a VO round has nothing to send until a wait ends.
    pub(super) fn vo_only_held(&self) -> bool {
        let Some(q) = &self.qos else {
            return false;
        };
        (0..self.links.len() as u32).map(StationId).all(|s| {
            vo_keys(s).all(|k| self.tid_tx[k.index()].pending_len() == 0)
                && (q.is_held(s) || !vo_keys(s).any(|k| self.mac.has_queue(k)))
        })
    }

    /// Builds the station-TID's next PPDU from frames the caller already holds below the
    /// MAC (the firmware's queue).
    pub(super) fn build_with(
        &mut self,
        key: TxqKey,
        now: Instant,
        pull: impl FnMut() -> Option<SimPacket>,
    ) -> Option<Ppdu> {
        let s = key.station();
        let limits = self.next_limits(key);
        let (tx, limits) = self.rate_for(key, &limits, now);
        self.tid_tx[key.index()].build_ppdu_at(
            (NodeId::Ap, NodeId::Sta(s), key.tid()),
            &self.bss,
            tx,
            &limits,
            pull,
        )
    }

    /// The limits of the station-TID's next PPDU: its own, with dynamic aggregate
    /// sizing's cap when that is on.
    fn next_limits(&mut self, key: TxqKey) -> AggregateLimits {
        let limits = &self.limits[key.index()];
        match &mut self.sizing {
            None => *limits,
            Some(sizing) => sized_limits(
                sizing,
                &self.ledger.station_backlog,
                &self.bss,
                &self.links[key.station().index()],
                limits,
            ),
        }
    }

    /// The rate of the station-TID's next PPDU (its first MPDU's stage of the retry
    /// chain, or a probe) and `limits` at that rate.
    fn rate_for(
        &mut self,
        key: TxqKey,
        limits: &AggregateLimits,
        now: Instant,
    ) -> (TxRate, AggregateLimits) {
        let s = key.station().index();
        let (unanswered, probed) = self.tid_tx[key.index()].chain_position();
        let tx = self.rate_control[s].tx_rate(unanswered, probed, now);
        (
            tx,
            limits.at_rate(&self.bss, &self.links[s], tx.rate, tx.alone),
        )
    }

    /// Frames of the station-TID held in its [`TidTx`] (retries, held-over MPDUs).
    pub(super) fn tid_pending(&self, key: TxqKey) -> usize {
        self.tid_tx[key.index()].pending_len()
    }

    /// Takes back a finished PPDU: charges its airtime to the station, delivers and drops
    /// (at the retry limit) its MPDUs, releases their AQL airtime and, for the legacy
    /// MAC, their `pending_frames`. `None` if the PPDU is not one of ours (its packets are
    /// then handed back as dropped, untouched by the ledger).
    pub(super) fn complete(
        &mut self,
        ppdu: Ppdu,
        airtime: Duration,
        now: Instant,
        out: &mut TxOutput,
    ) -> Option<Completed> {
        let station = match ppdu.dst {
            NodeId::Sta(s) if s.index() < self.links.len() && ppdu.src == NodeId::Ap => s,
            _ => {
                let dropped = ppdu.mpdus.into_iter().map(|m| m.packet);
                out.dropped
                    .extend(dropped.map(|p| (p, DropCause::RetryLimit)));
                return None;
            }
        };
        let key = TxqKey::new(station, ppdu.tid);
        let (rate, mpdus) = (ppdu.rate, ppdu.mpdus.len() as u32);
        let ac = key.ac();
        let airtime_us = round_to_micros(airtime);
        // A multi-TID A-MPDU (combined QoS aggregates): the VO MPDUs at its head are
        // split off, charged their share of the airtime by length and completed in
        // their own TID's BlockAck state.
        let mut ppdu = ppdu;
        let riders = match &self.qos {
            Some(_) if ppdu.mpdus.iter().any(|m| m.packet.tid != ppdu.tid) => {
                split_riders(&mut ppdu)
            }
            _ => Vec::new(),
        };
        let own_us = charge_riders(&riders, &ppdu, airtime_us, |tid, us| {
            let r = self.sched.register_airtime(station, tid, us, 0, now);
            debug_assert!(r.is_ok(), "{r:?}");
        });
        let r = self
            .sched
            .register_airtime(station, key.tid(), own_us, 0, now);
        debug_assert!(r.is_ok(), "{r:?}");
        let stats = &mut self.ledger.stations[station.index()];
        stats.ppdus += 1;
        stats.mpdu_transmissions += ppdu.mpdus.len() as u64;
        stats.tx_airtime_us += u64::from(airtime_us);

        let MacTx {
            bss,
            mac,
            gate,
            ledger,
            tid_tx,
            completion,
            rate_control,
            retry_time,
            ..
        } = self;
        let timed = retry_time.as_ref().map(|p| (p, now - airtime, now));
        // The riders were subframes of the carrier's A-MPDU: its retry limit is theirs.
        let retry_limit = bss.retry_limit_for(&ppdu);
        let mut rider_keys = Vec::new();
        for rider in riders {
            let k = TxqKey::new(station, rider.tid);
            rider_keys.push(k);
            tid_tx[k.index()].complete_timed(rider, retry_limit, timed, completion);
        }
        tid_tx[key.index()].complete_timed(ppdu, retry_limit, timed, completion);
        let outcome = completion.outcome();
        rate_control[station.index()].tx_status(&rate, mpdus, outcome.acked, now);
        ledger.stations[station.index()].retries += u64::from(completion.retried);
        completion.retried = 0;
        completion.copies = 0;
        let (mut released_us, mut frames, mut woke) = ([0u32; Ac::COUNT], 0u32, false);
        let multi_tid = !rider_keys.is_empty();
        // The TID (and so AC) each frame was sent on: the PPDU's, but for riders.
        let tid_of = |p: &SimPacket| if multi_tid { p.tid } else { key.tid() };
        // Each acknowledged or dropped frame leaves the driver: the airtime it was charged.
        let mut release = |p: &SimPacket| {
            let us = p.airtime_est_us;
            let a = tid_of(p).ac().index();
            released_us[a] = released_us[a].saturating_add(us);
            frames += 1;
            woke |= mac.frame_done(tid_of(p).ac());
            us
        };
        for (seq, p) in completion.delivered.drain(..) {
            ledger.deliver(release(&p), &p);
            out.acked.push((seq, p));
        }
        for (seq, p) in completion.dropped.drain(..) {
            let us = release(&p);
            out.given_up.push((tid_of(&p), seq));
            ledger.drop(Layer::Driver(us), p, DropCause::RetryLimit, out);
        }
        for (seq, p) in completion.expired.drain(..) {
            let us = release(&p);
            out.given_up.push((tid_of(&p), seq));
            ledger.drop(Layer::Driver(us), p, DropCause::RetryTimeLimit, out);
        }
        for &k in &rider_keys {
            let a = k.ac().index();
            if released_us[a] > 0 {
                let backlogged = vo_keys(station).any(|k| mac.has_queue(k));
                gate.complete(station, k.ac(), released_us[a], now, backlogged);
                released_us[a] = 0;
            }
        }
        gate.complete(
            station,
            ac,
            released_us[ac.index()],
            now,
            mac.has_queue(key),
        );
        let completed = Completed {
            key,
            frames,
            woke,
            outcome,
            riders: rider_keys,
        };
        // Minstrel-HT may have updated its rates (mac80211 then passes the expected
        // throughput on to the station's CoDel parameters).
        if self.rate_control[station.index()].is_adaptive() {
            self.update_station_codel(station);
        }
        Some(completed)
    }

    /// `sta_update_codel_params` for `station`, if FQ-MAC's CoDel parameters are set per
    /// station ([`super::station_codel`]).
    pub(super) fn update_station_codel(&mut self, station: StationId) {
        if self.station_codel.is_none() {
            return;
        }
        let ampdu = self.aggregates(TxqKey::new(station, Tid::new(0).expect("TID 0")));
        if let (Some(sc), MacLayer::FqMac(fq)) = (&mut self.station_codel, &mut self.mac) {
            sc.update(fq, station, &self.rate_control[station.index()], ampdu);
        }
    }

    /// Charges RX airtime of a PPDU received from `station` on `tid`.
    pub(super) fn register_rx_airtime(
        &mut self,
        station: StationId,
        tid: airq::Tid,
        airtime: Duration,
        now: Instant,
    ) {
        if let Some(q) = &mut self.qos {
            q.heard(station, now);
        }
        let us = round_to_micros(airtime);
        self.ledger.stations[station.index()].rx_airtime_us += u64::from(us);
        let r = self.sched.register_airtime(station, tid, 0, us, now);
        debug_assert!(r.is_ok(), "{r:?}");
    }
}

/// One packet from the MAC layer to the driver: the AQL gate, the dequeue (CoDel's drops
/// to `out`), the AQL charge and the ledger.
fn pull_from_mac(
    mac: &mut MacLayer,
    gate: &mut AqlGate,
    ledger: &mut Ledger,
    out: &mut TxOutput,
    key: TxqKey,
    rate: &Rate,
    now: Instant,
) -> Option<SimPacket> {
    let (station, ac) = (key.station(), key.ac());
    if !gate.may_dequeue(station, ac, now) {
        return None;
    }
    let mut packet = mac.dequeue(key, now, |p, c| ledger.drop(Layer::Mac, p, c, out))?;
    ledger.left(Layer::Mac, &packet);
    if let Some(a) = &mut ledger.admission {
        a.dequeued(&packet, now);
    }
    let us = gate.estimate_us(rate, packet.len_bytes, ac);
    packet.airtime_est_us = us;
    gate.charge(station, ac, us);
    ledger.entered(Layer::Driver(us), &packet);
    Some(packet)
}

/// Takes the MPDUs of other TIDs than the PPDU's out of a multi-TID A-MPDU, one PPDU of
/// them per TID (in the order they first appear), for their own TIDs' completion.
fn split_riders(ppdu: &mut Ppdu) -> Vec<Ppdu> {
    let own = ppdu.tid;
    let mut riders: Vec<Ppdu> = Vec::new();
    let mut mine = Vec::with_capacity(ppdu.mpdus.len());
    for m in ppdu.mpdus.drain(..) {
        let tid = m.packet.tid;
        if tid == own {
            mine.push(m);
            continue;
        }
        match riders.iter_mut().find(|r| r.tid == tid) {
            Some(r) => r.mpdus.push(m),
            None => riders.push(Ppdu {
                src: ppdu.src,
                dst: ppdu.dst,
                tid,
                ac: ppdu.ac,
                rate: ppdu.rate,
                band: ppdu.band,
                aggregate: ppdu.aggregate,
                mpdus: vec![m],
                duration: ppdu.duration,
                rts: ppdu.rts,
            }),
        }
    }
    ppdu.mpdus = mine;
    riders
}

/// Charges each rider TID its share of the PPDU's `airtime_us` (by MPDU length, rounded
/// down) through `charge`; returns what is left for the PPDU's own TID (all of it
/// without riders).
fn charge_riders(
    riders: &[Ppdu],
    own: &Ppdu,
    airtime_us: u32,
    mut charge: impl FnMut(airq::Tid, u32),
) -> u32 {
    if riders.is_empty() {
        return airtime_us;
    }
    let bytes = |p: &Ppdu| {
        p.mpdus
            .iter()
            .map(|m| u64::from(m.mpdu_bytes()))
            .sum::<u64>()
    };
    let total = riders.iter().map(bytes).sum::<u64>() + bytes(own);
    let mut left = airtime_us;
    for r in riders {
        let share = (u64::from(airtime_us) * bytes(r) / total.max(1)) as u32;
        charge(r.tid, share);
        left -= share.min(left);
    }
    left
}

/// Airtime in whole microseconds, rounded to nearest, saturating at `u32::MAX`.
fn round_to_micros(d: Duration) -> u32 {
    u32::try_from(d.as_nanos().saturating_add(500) / 1000).unwrap_or(u32::MAX)
}
