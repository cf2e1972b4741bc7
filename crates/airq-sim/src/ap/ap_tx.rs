//! [`ApTx`]: the AP's transmit path, assembled from the layers its [`ApConfig`] chooses,
//! as the wired side (downlink packets in) and the channel ([`TxPath`]) drive it.

use super::aql_gate::AqlGate;
use super::config::{ApConfig, AqlConfig, DriverConfig, MacConfig, QdiscConfig, SchedulerConfig};
use super::error::{ApConfigError, ApEnqueueError, UnknownStation};
use super::firmware::Firmware;
use super::fq_mac::FqMac;
use super::just_in_time::JitTimer;
use super::ledger::Layer;
use super::legacy_mac::LegacyMac;
use super::mac_layer::MacLayer;
use super::mac_tx::MacTx;
use super::qdisc::Qdisc;
use super::qos_aggregate::QosCombine;
use super::soft_admission::{AdmissionCounters, SoftAdmission};
use super::softmac::Softmac;
use super::station_codel::StationCodel;
use super::stats::{ApBacklog, LayerBacklog, StationTxStats};
use super::txq_key::TxqKey;
use crate::engine::rng::RngStream;
use crate::mac::frame::Ppdu;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::txpath::{DropCause, Dropped, TxOutcome, TxOutput, TxPath};
use crate::net::packet::SimPacket;
use airq::admission::{AdmissionParams, AdmissionStats};
use airq::aggregate::{AggregateSizing, AggregateSizingStats, JustInTimeStats, QosAggregateStats};
use airq::airtime::{AirtimeScheduler, GroupMode, SchedulingMode};
use airq::aql::Aql;
use airq::fq::FqStats;
use airq::{Ac, Duration, Instant, StationId, Tid};

/// The AP's transmit path. See the [module documentation](super).
pub struct ApTx {
    config: ApConfig,
    qdisc: Option<Qdisc>,
    mac_tx: MacTx,
    driver: Driver,
    /// Some airtime group is held to its limit ([`GroupMode::Limit`]): the scheduler
    /// has timeouts of its own.
    limit_groups: bool,
}

/// Sets the configured airtime weights and groups on `sched`; whether they apply. They
/// are the airtime scheduler's: round robin has no airtime accounting for them to divide
/// (config.rs).
fn apply_policies(sched: &mut AirtimeScheduler, config: &ApConfig) -> Result<bool, ApConfigError> {
    if !matches!(config.scheduler, SchedulerConfig::Airtime(_)) {
        return Ok(false);
    }
    for w in &config.airtime_weights {
        sched
            .set_weight(w.station, w.weight_us)
            .map_err(ApConfigError::Scheduler)?;
    }
    let mut groups = Vec::with_capacity(config.airtime_groups.len());
    for g in &config.airtime_groups {
        let parent = g.parent.map(|p| groups[p]);
        let group = sched
            .add_group(parent, g.weight_us, g.mode)
            .map_err(ApConfigError::Scheduler)?;
        groups.push(group);
        for &s in &g.stations {
            sched
                .set_station_group(s, Some(group))
                .map_err(ApConfigError::Scheduler)?;
        }
    }
    Ok(true)
}

enum Driver {
    Softmac(Softmac),
    Firmware(Firmware),
}

impl ApTx {
    /// Whether [`ApTx::new`] would accept these arguments, without building the queues:
    /// `airq check` at 65,535 stations needs this, not the 900 MB the queues take. `new`
    /// begins with it, so the two cannot disagree. The one check left to `new` is what
    /// cannot fail: registering every station and its TXQs with the scheduler (ids below
    /// `StationId::MAX + 1`, checked here; at most 2^20 TXQs, far fewer than
    /// [`AirtimeScheduler::MAX_TXQS`]).
    pub fn check(
        config: &ApConfig,
        bss: &BssConfig,
        links: &[StationLink],
    ) -> Result<(), ApConfigError> {
        const _: () = assert!(
            (StationId::MAX as usize + 1) * Tid::COUNT <= AirtimeScheduler::MAX_TXQS as usize
        );
        let stations = links.len();
        if stations > StationId::MAX as usize + 1 {
            return Err(ApConfigError::TooManyStations(stations));
        }
        if bss.retry_limit == 0 || bss.ampdu_retry_limit == 0 {
            return Err(ApConfigError::Bss(
                "retry_limit must be at least 1 (transmissions, the first included)",
            ));
        }
        for (s, link) in links.iter().enumerate() {
            if link.ba_window == 0 {
                return Err(ApConfigError::Link {
                    station: StationId(s as u32),
                    reason: "ba_window must be at least 1",
                });
            }
        }
        config.validate(stations)?;
        // The scheduler's own checks of weights and groups, on a scheduler holding only
        // the stations they name.
        let mut sched =
            AirtimeScheduler::new(config.scheduler.params()).map_err(ApConfigError::Scheduler)?;
        let mut named: Vec<StationId> = config
            .airtime_weights
            .iter()
            .map(|w| w.station)
            .chain(
                config
                    .airtime_groups
                    .iter()
                    .flat_map(|g| g.stations.iter().copied()),
            )
            .collect();
        named.sort_unstable();
        named.dedup();
        for s in named {
            sched.add_station(s).map_err(ApConfigError::Scheduler)?;
        }
        apply_policies(&mut sched, config).map(drop)
    }

    /// A transmit path for the BSS `bss` whose station `i` (`NodeId::Sta(StationId(i))`)
    /// has link `links[i]`.
    pub fn new(
        config: &ApConfig,
        bss: &BssConfig,
        links: &[StationLink],
    ) -> Result<ApTx, ApConfigError> {
        Self::check(config, bss, links)?;
        let stations = links.len();
        // Parameters are valid from here on: constructors returning `None` cannot.
        let invalid = || ApConfigError::Bss("internal: validated parameters refused");
        let keys = stations * Tid::COUNT;

        let qdisc = match config.qdisc {
            QdiscConfig::None => None,
            QdiscConfig::PfifoFast { limit_packets } => Some(Qdisc::pfifo_fast(limit_packets)),
            QdiscConfig::FqCodel(p) => Some(Qdisc::fq_codel(p).ok_or_else(invalid)?),
        };
        let mac = match config.mac {
            MacConfig::Legacy { txq_max_pending } => {
                MacLayer::Legacy(LegacyMac::new(keys, txq_max_pending))
            }
            MacConfig::FqMac(p) => {
                MacLayer::FqMac(Box::new(FqMac::new(p, keys).ok_or_else(invalid)?))
            }
        };
        let mut sched =
            AirtimeScheduler::new(config.scheduler.params()).map_err(ApConfigError::Scheduler)?;
        let mut txqs = Vec::with_capacity(keys);
        let mut txq_keys = Vec::with_capacity(keys);
        for s in 0..stations as u32 {
            let id = StationId(s);
            sched.add_station(id).map_err(ApConfigError::Scheduler)?;
            for t in 0..Tid::COUNT as u8 {
                let tid = Tid::new(t).expect("below Tid::COUNT");
                let txq = sched
                    .add_txq(Some(id), tid)
                    .map_err(ApConfigError::Scheduler)?;
                debug_assert_eq!(txq.index(), txq_keys.len());
                txqs.push(txq);
                txq_keys.push(TxqKey::new(id, tid));
            }
        }
        let policies = apply_policies(&mut sched, config)?;
        let aql_params = match config.aql {
            AqlConfig::Off => None,
            AqlConfig::On(p) => Some(p),
        };
        let gate = AqlGate::new(aql_params, stations).ok_or_else(invalid)?;
        let mut driver = match config.driver {
            DriverConfig::Softmac {
                aggr_min_qdepth,
                non_aggr_min_qdepth,
                ..
            } => Driver::Softmac(Softmac::new(
                aggr_min_qdepth,
                non_aggr_min_qdepth,
                keys,
                aql_params.is_some(),
                config.scheduler.params().mode == SchedulingMode::StationFirst,
                config.host_latency,
                links.iter().all(|l| l.ampdu && l.rate.supports_ampdu()),
            )),
            DriverConfig::Firmware {
                max_pending_frames,
                mode,
            } => Driver::Firmware(Firmware::new(
                max_pending_frames,
                mode,
                keys,
                config.host_latency,
            )),
        };
        let mut mac_tx = MacTx::new(
            bss.clone(),
            links.to_vec(),
            mac,
            sched,
            txqs,
            txq_keys,
            gate,
            config.driver.max_subframes(),
        );
        mac_tx.sizing = config.aggregation.sizing.map(AggregateSizing::new);
        mac_tx.qos = config.aggregation.qos.map(|p| QosCombine::new(p, stations));
        mac_tx.retry_time = config.retry_time;
        if config.slow_station_codel {
            mac_tx.station_codel = Some(StationCodel::new(stations));
            for s in 0..stations as u32 {
                mac_tx.update_station_codel(StationId(s));
            }
        }
        if let (Driver::Softmac(d), Some(p)) = (&mut driver, config.aggregation.just_in_time) {
            d.jit = Some(Box::new(JitTimer::new(p)));
        }
        if let (Some(p), MacConfig::FqMac(_)) = (config.admission, &config.mac) {
            mac_tx.ledger.admission = Some(SoftAdmission::new(p, stations).ok_or_else(invalid)?);
        }
        Ok(ApTx {
            config: config.clone(),
            qdisc,
            mac_tx,
            driver,
            limit_groups: policies
                && config
                    .airtime_groups
                    .iter()
                    .any(|g| g.mode == GroupMode::Limit),
        })
    }

    /// A downlink packet for station `packet.station` arrives from the wired side at
    /// `now`. Returns the packets dropped on the way (possibly this one).
    pub fn enqueue(&mut self, packet: SimPacket, now: Instant) -> Result<Dropped, ApEnqueueError> {
        let mut out = TxOutput::default();
        self.enqueue_into(packet, now, &mut out)?;
        debug_assert!(out.acked.is_empty() && out.given_up.is_empty());
        Ok(out.dropped)
    }

    pub(super) fn enqueue_into(
        &mut self,
        mut packet: SimPacket,
        now: Instant,
        out: &mut TxOutput,
    ) -> Result<(), ApEnqueueError> {
        let stations = self.mac_tx.links.len();
        if packet.station.index() >= stations {
            return Err(ApEnqueueError {
                error: UnknownStation {
                    station: packet.station,
                    stations,
                },
                packet,
            });
        }
        // Its arrival at the AP, until a CoDel queue stamps its own entry: where the
        // time-based retry limit's `include_queue_time` counts from without one
        // (pfifo_fast and the legacy MAC keep no timestamp). Nothing else reads it there.
        packet.enqueue_time = now;
        // Classified as `ieee80211_select_queue` does, before the qdisc.
        if let Some(a) = &mut self.mac_tx.ledger.admission {
            a.classify(&mut packet, now);
        }
        let ac = packet.tid.ac();
        let ApTx { qdisc, mac_tx, .. } = self;
        mac_tx.ledger.arrived(&packet);
        match qdisc {
            Some(q) => {
                mac_tx.ledger.entered(Layer::Qdisc, &packet);
                q.enqueue(packet, now, |p, c| {
                    mac_tx.ledger.drop(Layer::Qdisc, p, c, out)
                });
                self.run_qdisc(ac, now, out);
            }
            None if mac_tx.mac.has_room(ac) => mac_tx.mac_enqueue(packet, now, out),
            // noqueue on a stopped queue: `__dev_queue_xmit` drops it.
            None => mac_tx
                .ledger
                .drop(Layer::Arrival, packet, DropCause::QueueFull, out),
        }
        match &mut self.driver {
            Driver::Softmac(d) => d.fill(&mut self.mac_tx, ac, now, out),
            Driver::Firmware(d) => d.enqueued(&mut self.mac_tx, ac, now, out),
        }
        Ok(())
    }

    /// When the AP next needs attention although no packet arrives and no exchange
    /// ends: the driver's deferred work (the TX tasklet's refill, a firmware fetch), or
    /// the instant an airtime group held to its limit may send again.
    /// `None`: nothing until the next call.
    pub fn poll_at(&self, now: Instant) -> Option<Instant> {
        let driver = match &self.driver {
            Driver::Softmac(d) => d.poll_at(),
            Driver::Firmware(d) => d.poll_at(),
        };
        let limit = if self.limit_groups {
            self.mac_tx.sched.next_timeout(now)
        } else {
            None
        };
        let qos = self.mac_tx.qos_poll_at();
        [driver, limit, qos].into_iter().flatten().min()
    }

    /// Does what [`poll_at`](Self::poll_at) asked for, at `now`: the driver's deferred
    /// work, and with limited groups a round of every AC holding frames (a group may
    /// have come back under its limit). Returns the packets dropped on the way.
    pub fn handle_timeout(&mut self, now: Instant) -> Dropped {
        let mut out = TxOutput::default();
        self.handle_timeout_into(now, &mut out);
        debug_assert!(out.acked.is_empty() && out.given_up.is_empty());
        out.dropped
    }

    pub(super) fn handle_timeout_into(&mut self, now: Instant, out: &mut TxOutput) {
        match &mut self.driver {
            Driver::Softmac(d) => {
                if self.limit_groups {
                    d.make_due(&self.mac_tx, now);
                }
                d.handle_timeout(&mut self.mac_tx, now, out);
                // Combined QoS aggregates: VO frames that waited long enough for a
                // carrier go in a VO round of their own.
                if self.mac_tx.qos_poll_at().is_some_and(|t| t <= now) {
                    let ended = match &mut self.mac_tx.qos {
                        Some(q) => q.expire(now),
                        None => Vec::new(),
                    };
                    if self.mac_tx.station_first() {
                        for s in ended {
                            self.mac_tx.reschedule_vo(s, now);
                        }
                    }
                    d.fill(&mut self.mac_tx, Ac::Vo, now, out);
                }
            }
            Driver::Firmware(d) => {
                if self.limit_groups {
                    d.make_due(&self.mac_tx, now);
                }
                d.handle_timeout(&mut self.mac_tx, now, out);
            }
        }
    }

    /// Whether `station` is in an airtime group held to its limit that may not send
    /// until later than `now` (a policy, not a stall, keeps its frames waiting).
    pub fn limit_holds_back(&self, station: StationId, now: Instant) -> bool {
        let groups = &self.config.airtime_groups;
        let mut group = groups.iter().position(|g| g.stations.contains(&station));
        let mut limited = false;
        while let Some(g) = group {
            limited |= groups[g].mode == GroupMode::Limit;
            group = groups[g].parent;
        }
        self.limit_groups && limited && self.mac_tx.sched.next_timeout(now).is_some()
    }

    /// Moves packets of `ac` from the qdisc into the MAC layer while it has room.
    fn run_qdisc(&mut self, ac: Ac, now: Instant, out: &mut TxOutput) {
        let ApTx { qdisc, mac_tx, .. } = self;
        let Some(q) = qdisc else {
            return;
        };
        while mac_tx.mac.has_room(ac) {
            let ledger = &mut mac_tx.ledger;
            let Some(packet) = q.dequeue(ac, now, |p, c| ledger.drop(Layer::Qdisc, p, c, out))
            else {
                break;
            };
            mac_tx.ledger.left(Layer::Qdisc, &packet);
            mac_tx.mac_enqueue(packet, now, out);
        }
    }

    /// The AP received a PPDU of `airtime` from `station` on `tid` at `now`: charged to
    /// the station's deficit when the scheduler counts RX airtime (mac80211
    /// `ieee80211_sta_register_airtime` with `rx_airtime`; the deficit is per AC, hence
    /// the TID).
    pub fn register_rx_airtime(
        &mut self,
        station: StationId,
        tid: Tid,
        airtime: Duration,
        now: Instant,
    ) -> Result<(), UnknownStation> {
        let stations = self.mac_tx.links.len();
        if station.index() >= stations {
            return Err(UnknownStation { station, stations });
        }
        self.mac_tx.register_rx_airtime(station, tid, airtime, now);
        Ok(())
    }

    pub fn config(&self) -> &ApConfig {
        &self.config
    }

    pub fn station_count(&self) -> usize {
        self.mac_tx.links.len()
    }

    /// One station's counters.
    pub fn station_stats(&self, station: StationId) -> Option<&StationTxStats> {
        self.mac_tx.ledger.stations.get(station.index())
    }

    /// Every station's counters, by station index.
    pub fn stations_stats(&self) -> &[StationTxStats] {
        &self.mac_tx.ledger.stations
    }

    /// All stations' counters summed.
    pub fn total_stats(&self) -> StationTxStats {
        let mut t = StationTxStats::default();
        for s in &self.mac_tx.ledger.stations {
            t.accumulate(s);
        }
        t
    }

    /// What each layer holds for one station now.
    pub fn station_backlog(&self, station: StationId) -> Option<LayerBacklog> {
        self.mac_tx
            .ledger
            .station_backlog
            .get(station.index())
            .copied()
    }

    /// Whether the AP holds packets for another station in an AC of higher priority
    /// than every AC it holds `station`'s in (`false` if it holds none of them).
    pub fn behind_higher_ac(&self, station: StationId) -> bool {
        let ledger = &self.mac_tx.ledger;
        let Some(held) = ledger.station_ac_held.get(station.index()) else {
            return false;
        };
        let top = |holds: &dyn Fn(Ac) -> bool| Ac::ALL.into_iter().find(|&ac| holds(ac));
        let station_top = top(&|ac| held[ac.index()] > 0);
        let others_top =
            top(&|ac| ledger.ac_backlog[ac.index()].packets() > u64::from(held[ac.index()]));
        matches!((others_top, station_top), (Some(o), Some(s)) if o < s)
    }

    /// Expected airtime held below the MAC for a station in one AC, as AQL counts it
    /// (0 with AQL off; see [`Self::station_backlog`] for the estimate over all ACs).
    pub fn aql_station_pending_us(&self, station: StationId, ac: Ac) -> u64 {
        self.mac_tx.gate.station_pending_us(station, ac)
    }

    /// What each layer holds now, per AC.
    pub fn backlog(&self) -> ApBacklog {
        let mut b = ApBacklog {
            ac: self.mac_tx.ledger.ac_backlog,
            aql_total_pending_us: self.mac_tx.gate.total_pending_us(),
            ..ApBacklog::default()
        };
        for ac in Ac::ALL {
            b.aql_pending_us[ac.index()] = self.mac_tx.gate.ac_pending_us(ac);
            if let Driver::Softmac(d) = &self.driver {
                b.hw_ppdus[ac.index()] = d.depth(ac);
            }
        }
        if let Driver::Firmware(d) = &self.driver {
            b.firmware_frames = u64::from(d.pending_frames());
        }
        b
    }

    /// A-MPDUs queued to or on the hardware in `ac` (softmac; 0 for the firmware driver).
    pub fn hw_ampdus(&self, ac: Ac) -> u32 {
        match &self.driver {
            Driver::Softmac(d) => d.ampdu_depth(ac),
            Driver::Firmware(_) => 0,
        }
    }

    /// The scheduler, for its per-station airtime statistics and deficits.
    pub fn scheduler(&self) -> &AirtimeScheduler {
        &self.mac_tx.sched
    }

    /// AQL, when it is on.
    pub fn aql(&self) -> Option<&Aql> {
        self.mac_tx.gate.aql()
    }

    /// The FQ-MAC structure's statistics, with the FQ-MAC layer.
    pub fn fq_mac_stats(&self) -> Option<FqStats> {
        match &self.mac_tx.mac {
            MacLayer::FqMac(m) => Some(m.stats()),
            MacLayer::Legacy(_) => None,
        }
    }

    /// Soft admission control's counters and parameters, when it is on.
    pub fn admission_stats(&self) -> Option<(AdmissionStats, AdmissionParams)> {
        let a = self.mac_tx.ledger.admission.as_ref()?;
        Some((a.stats(), *a.params()))
    }

    /// What soft admission control did to a station's packets (whole run), when on.
    pub fn admission_station(&self, station: StationId) -> Option<AdmissionCounters> {
        Some(self.mac_tx.ledger.admission.as_ref()?.station(station))
    }

    /// What soft admission control did to scenario flow `flow`'s packets (whole run),
    /// when on.
    pub fn admission_flow(&self, flow: u32) -> Option<AdmissionCounters> {
        Some(self.mac_tx.ledger.admission.as_ref()?.flow(flow))
    }

    /// Seeds the host's scheduling jitter of just-in-time aggregates (a no-op when they
    /// are off): the simulation passes its `host-jitter` stream.
    pub fn set_host_jitter(&mut self, rng: RngStream) {
        if let Driver::Softmac(Softmac { jit: Some(j), .. }) = &mut self.driver {
            j.set_rng(rng);
        }
    }

    /// Combined QoS aggregates' counters (seed §4.3), when they are on.
    pub fn qos_aggregate_stats(&self) -> Option<QosAggregateStats> {
        self.mac_tx.qos.as_ref().map(|q| *q.rule.stats())
    }

    /// The counters of the aggregation options that are on (seed §4.1).
    pub fn aggregation_stats(&self) -> (Option<AggregateSizingStats>, Option<JustInTimeStats>) {
        let jit = match &self.driver {
            Driver::Softmac(Softmac { jit: Some(j), .. }) => Some(*j.stats()),
            _ => None,
        };
        (self.mac_tx.sizing.as_ref().map(|s| *s.stats()), jit)
    }

    /// Checks the ledger against the queues themselves and the FQ structures' own
    /// accounting, panicking on the first mismatch. For tests: O(stations × TIDs) and
    /// more. `in_flight_mpdus` is the number of MPDUs in PPDUs the caller took with
    /// `next_ppdu` and has not yet returned with `tx_done`.
    pub fn assert_invariants(&self, in_flight_mpdus: usize) {
        let ledger = &self.mac_tx.ledger;
        let mut total = LayerBacklog::default();
        for ac in Ac::ALL {
            let l = ledger.ac_backlog[ac.index()];
            total.accumulate(&l);
            let qdisc = self.qdisc.as_ref().map_or(0, |q| q.len(ac));
            assert_eq!(l.qdisc_packets, u64::from(qdisc), "{ac} qdisc packets");
            if let MacLayer::Legacy(m) = &self.mac_tx.mac {
                assert_eq!(
                    l.mac_packets,
                    m.queued(ac) as u64,
                    "{ac} legacy FIFO packets"
                );
                assert_eq!(
                    u64::from(m.pending_frames(ac)),
                    l.mac_packets + l.driver_frames,
                    "{ac} ath9k pending_frames"
                );
            }
        }
        let mut stations = LayerBacklog::default();
        for (i, (s, b)) in ledger
            .stations
            .iter()
            .zip(&ledger.station_backlog)
            .enumerate()
        {
            stations.accumulate(b);
            let by_ac: u64 = ledger.station_ac_held[i]
                .iter()
                .map(|&n| u64::from(n))
                .sum();
            assert_eq!(by_ac, b.packets(), "station {i}: held per AC = held");
            let gone = s.delivered_packets + s.drops.total();
            assert_eq!(
                s.enqueued_packets,
                gone + b.packets(),
                "station {i}: enqueued = delivered + dropped + queued"
            );
        }
        assert_eq!(stations, total, "per-station and per-AC backlogs agree");
        if let MacLayer::FqMac(m) = &self.mac_tx.mac {
            m.assert_invariants();
            assert_eq!(
                u64::from(m.stats().backlog_packets),
                total.mac_packets,
                "FQ-MAC packets"
            );
        }
        if let Some(q) = &self.qdisc {
            q.assert_invariants();
        }
        if let Some(a) = &self.mac_tx.ledger.admission {
            a.assert_invariants();
            assert_eq!(
                a.stats().backlog_packets,
                total.qdisc_packets + total.mac_packets,
                "admission backlog = packets above the driver"
            );
        }
        let retries: usize = self.mac_tx.tid_tx.iter().map(|t| t.pending_len()).sum();
        let below = match &self.driver {
            Driver::Softmac(d) => d.queued_mpdus() + retries + in_flight_mpdus,
            Driver::Firmware(d) => {
                let held = d.queued_frames() + retries + in_flight_mpdus;
                assert_eq!(held, d.pending_frames() as usize, "firmware pending frames");
                held
            }
        };
        assert_eq!(total.driver_frames, below as u64, "frames below the MAC");
        if let Some(aql) = self.mac_tx.gate.aql() {
            assert_eq!(
                aql.total_pending_us(),
                total.driver_airtime_us,
                "AQL pending = expected airtime below the MAC"
            );
        }
    }
}

impl TxPath for ApTx {
    fn has_frames(&self, ac: Ac) -> bool {
        match &self.driver {
            Driver::Softmac(d) => d.has_frames(ac),
            Driver::Firmware(d) => d.has_frames(ac),
        }
    }

    fn next_ppdu(&mut self, ac: Ac, now: Instant) -> Option<Ppdu> {
        match &mut self.driver {
            Driver::Softmac(d) => d.next_ppdu(ac, now),
            Driver::Firmware(d) => d.next_ppdu(&mut self.mac_tx, ac, now),
        }
    }

    fn tx_done(&mut self, ppdu: Ppdu, airtime: Duration, now: Instant) -> (TxOutcome, TxOutput) {
        let mut out = TxOutput {
            acked: Vec::with_capacity(ppdu.mpdus.len()),
            ..TxOutput::default()
        };
        let outcome = self.tx_done_into(ppdu, airtime, now, &mut out);
        (outcome, out)
    }
}

impl ApTx {
    pub(super) fn tx_done_into(
        &mut self,
        ppdu: Ppdu,
        airtime: Duration,
        now: Instant,
        out: &mut TxOutput,
    ) -> TxOutcome {
        let (ac, aggregate, mpdus) = (ppdu.ac, ppdu.aggregate, ppdu.mpdus.len() as u32);
        let Some(done) = self.mac_tx.complete(ppdu, airtime, now, out) else {
            // Not ours: handed back as dropped.
            return TxOutcome {
                dropped: mpdus,
                ..TxOutcome::default()
            };
        };
        let key_ac = done.key.ac();
        match &mut self.driver {
            Driver::Softmac(d) => {
                d.completed(done.key, ac, aggregate, now);
                d.jit_completed(&self.mac_tx, ac, aggregate);
                d.note_pending(&self.mac_tx, done.key);
                // Failed MPDUs wait in the driver: keep their TXQ scheduled (ath9k's
                // `ath_tx_queue_tid` → `ieee80211_schedule_txq` on completion).
                if self.mac_tx.tid_pending(done.key) > 0 {
                    self.mac_tx.return_txq(done.key, true, now);
                }
                for &rider in &done.riders {
                    d.riders_completed(&mut self.mac_tx, rider, now);
                }
            }
            Driver::Firmware(d) => {
                d.completed(key_ac, done.frames, now);
                d.note_pending(&self.mac_tx, done.key);
            }
        }
        // The legacy MAC's queue woke: the stack hands it the qdisc's packets at once
        // (`netif_wake_subqueue` → `__netif_schedule`); the driver's refill follows one
        // host latency later.
        if done.woke {
            self.run_qdisc(key_ac, now, out);
        }
        done.outcome
    }
}

/// Rate control of the AP's PPDUs ([`crate::mac::rate_control`]).
use crate::mac::rate_control::RateControl;

impl ApTx {
    /// Chooses the rates of the PPDUs to `station` with `rate_control` (built for its
    /// link); false if there is no such station.
    pub fn set_rate_control(&mut self, station: StationId, rate_control: RateControl) -> bool {
        match self.mac_tx.rate_control.get_mut(station.index()) {
            Some(rc) => {
                *rc = rate_control;
                self.mac_tx.update_station_codel(station);
                true
            }
            None => false,
        }
    }

    /// The CoDel parameters FQ-MAC judges `station`'s TXQs by now (they change with
    /// its expected throughput when [`ApConfig::slow_station_codel`] is on); `None`
    /// without FQ-MAC or for no such station.
    pub fn station_codel(&self, station: StationId) -> Option<airq::codel::CodelParams> {
        match &self.mac_tx.mac {
            MacLayer::FqMac(fq) => fq.station_codel(station),
            MacLayer::Legacy(_) => None,
        }
    }

    /// The rate control of the PPDUs to `station`.
    pub fn rate_control(&self, station: StationId) -> Option<&RateControl> {
        self.mac_tx.rate_control.get(station.index())
    }
}
