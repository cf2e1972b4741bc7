//! [`Aql`]: the pending-airtime accounting of one radio and the gates that read it, as
//! Linux mac80211 keeps them (`ieee80211_sta_update_pending_airtime`, sta_info.c;
//! `sta->airtime[ac].aql_tx_pending`, `local->aql_ac_pending_airtime[ac]`,
//! `local->aql_total_pending_airtime`).
//!
//! Airtime is charged when a packet leaves the MAC queues for the hardware and released
//! when the hardware reports it done — transmitted or dropped; a driver that loses a
//! completion leaks pending airtime for good (openwrt/mt76#518). Every charge and release
//! moves three counters together: the station-AC's, the AC's and the interface total.
//!
//! One deliberate difference: the kernel subtracts a release from each counter on its own
//! and clamps each at zero (`atomic_cmpxchg` for the station, `WARN_ONCE` for the PHY),
//! so after an over-release the PHY counters no longer equal the sum of the stations'.
//! Here the amount released is first clamped to the station-AC's pending airtime and that
//! amount leaves all three counters, so the per-AC counter is always the sum over
//! stations and the total the sum over ACs; the clamped excess is counted in
//! [`AqlStats`].
//!
//! Multicast and other non-station traffic is not charged (Linux ≥ 6.0, commit
//! 51d3cfaf992f): there is no station to charge it to, and the caller simply does not
//! call [`Aql::charge`] for it. AQL has no timers: it never needs attention on its own.

use super::limits::{phy_may_schedule, station_may_dequeue};
use super::params::{AqlLimits, AqlParams, AqlParamsError};
use super::self_tuning::{tuned_limits, SelfTuningState, SelfTuningStats};
use super::AqlError;
use crate::ids::{Ac, StationId};
use crate::phy::Rate;
use crate::station_table::{InsertError, StationTable};
use crate::time::Instant;

/// Counters of an [`Aql`]. They only grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AqlStats {
    /// Calls to [`Aql::charge`].
    pub charges: u64,
    /// Calls to [`Aql::release`] (and [`Aql::report_completion`]).
    pub releases: u64,
    /// Releases larger than the station-AC's pending airtime, clamped to it.
    pub underflows: u64,
    /// The excess airtime those releases asked for, µs.
    pub underflow_us: u64,
    /// Times the station gate said no.
    pub station_gate_refusals: u64,
    /// Times the per-AC PHY gate said no.
    pub phy_gate_refusals: u64,
    /// Pending airtime forgotten when stations were unregistered with packets in flight.
    pub unregistered_pending_us: u64,
}

/// One station's accounting in one AC.
#[derive(Clone, Copy, Debug)]
struct StationAc {
    pending_us: u64,
    limits: AqlLimits,
    tuning: SelfTuningState,
}

#[derive(Clone, Debug)]
struct Station {
    acs: [StationAc; Ac::COUNT],
}

/// Airtime Queue Limits for one radio. See the module documentation.
#[derive(Clone, Debug)]
pub struct Aql {
    params: AqlParams,
    stations: StationTable<Station>,
    ac_pending_us: [u64; Ac::COUNT],
    total_pending_us: u64,
    stats: AqlStats,
    tuning_stats: SelfTuningStats,
}

impl Aql {
    /// Contract: parameters that [`validate`](AqlParams::validate) (rule 1).
    pub fn new(params: AqlParams) -> Result<Self, AqlParamsError> {
        params.validate()?;
        Ok(Aql {
            params,
            stations: StationTable::new(),
            ac_pending_us: [0; Ac::COUNT],
            total_pending_us: 0,
            stats: AqlStats::default(),
            tuning_stats: SelfTuningStats::default(),
        })
    }

    pub fn params(&self) -> &AqlParams {
        &self.params
    }

    pub fn stats(&self) -> &AqlStats {
        &self.stats
    }

    pub fn self_tuning_stats(&self) -> &SelfTuningStats {
        &self.tuning_stats
    }

    /// Adds a station with the interface's per-AC limits (as `sta_info_alloc` copies
    /// `local->aql_txq_limit_low/high`) and nothing pending.
    ///
    /// Contract: an id at most [`StationId::MAX`], not registered (rule 2).
    pub fn register_station(&mut self, id: StationId) -> Result<(), AqlError> {
        let limits = self.params.limits;
        let acs = Ac::ALL.map(|ac| {
            let limits = limits[ac.index()];
            StationAc {
                pending_us: 0,
                limits,
                tuning: SelfTuningState::new(limits.aql_limit_high_us),
            }
        });
        match self.stations.insert(id, Station { acs }) {
            Ok(_) => Ok(()),
            Err(InsertError::IdTooLarge) => Err(AqlError::StationIdTooLarge(id)),
            Err(InsertError::Duplicate) => Err(AqlError::StationAlreadyRegistered(id)),
        }
    }

    /// Removes a station. Airtime it still had pending is taken off the AC and total
    /// counters and returned (µs); completions arriving later for it are errors the
    /// caller can ignore.
    ///
    /// Contract: a registered station (rule 3).
    pub fn unregister_station(&mut self, id: StationId) -> Result<u64, AqlError> {
        let station = self
            .stations
            .remove(id)
            .ok_or(AqlError::UnknownStation(id))?;
        let mut forgotten = 0;
        for ac in Ac::ALL {
            let pending = station.acs[ac.index()].pending_us;
            self.ac_pending_us[ac.index()] -= pending;
            self.total_pending_us -= pending;
            forgotten += pending;
        }
        self.stats.unregistered_pending_us += forgotten;
        Ok(forgotten)
    }

    pub fn is_registered(&self, id: StationId) -> bool {
        self.stations.get(id).is_some()
    }

    /// Number of registered stations.
    pub fn station_count(&self) -> usize {
        self.stations.len()
    }

    /// The airtime estimate of [`AqlParams::estimator`] for a packet (µs).
    pub fn estimate_us(&self, rate: &Rate, len_bytes: u32, ampdu: bool) -> u32 {
        self.params.estimator.estimate_us(rate, len_bytes, ampdu)
    }

    /// A packet of `airtime_us` left the MAC queues for the hardware.
    ///
    /// Contract: a registered station (rule 3); any amount (rule 5).
    pub fn charge(&mut self, id: StationId, ac: Ac, airtime_us: u32) -> Result<(), AqlError> {
        let sac = self.station_ac_mut(id, ac)?;
        sac.pending_us += airtime_us as u64;
        sac.tuning.on_charge(airtime_us);
        self.ac_pending_us[ac.index()] += airtime_us as u64;
        self.total_pending_us += airtime_us as u64;
        self.stats.charges += 1;
        self.debug_check(id, ac);
        Ok(())
    }

    /// Packets of `airtime_us` in total were completed by the hardware (sent or
    /// dropped). Returns the part of `airtime_us` above the station-AC's pending airtime,
    /// which was clamped away (0 when the accounting is consistent).
    ///
    /// Contract: a registered station (rule 3); any amount (rule 5).
    pub fn release(&mut self, id: StationId, ac: Ac, airtime_us: u32) -> Result<u32, AqlError> {
        let sac = self.station_ac_mut(id, ac)?;
        let released = (airtime_us as u64).min(sac.pending_us);
        let excess = airtime_us - released as u32;
        sac.pending_us -= released;
        self.ac_pending_us[ac.index()] -= released;
        self.total_pending_us -= released;
        self.stats.releases += 1;
        if excess > 0 {
            self.stats.underflows += 1;
            self.stats.underflow_us += excess as u64;
        }
        self.debug_check(id, ac);
        Ok(excess)
    }

    /// [`Aql::release`] plus the self-tuning's view of the completion: at `now` the
    /// hardware finished an aggregate of `airtime_us`, and the station still had packets
    /// waiting in the MAC queues for this AC if `backlogged`. Without self-tuning this
    /// is `release`.
    ///
    /// Report once per hardware completion event (an aggregate and its BlockAck): the
    /// tuner reads what is left pending as the hardware's remaining work. A driver that
    /// completes packet by packet can [`Aql::release`] each and end the event with
    /// `report_completion(id, ac, 0, now, backlogged)`.
    ///
    /// Contract: a registered station (rule 3); any amount and `now` (rules 5, 6).
    pub fn report_completion(
        &mut self,
        id: StationId,
        ac: Ac,
        airtime_us: u32,
        now: Instant,
        backlogged: bool,
    ) -> Result<u32, AqlError> {
        let excess = self.release(id, ac, airtime_us)?;
        if self.params.self_tuning.is_some() {
            let sac = self.station_ac_mut(id, ac)?;
            sac.tuning.on_completion(now, sac.pending_us, backlogged);
        }
        Ok(excess)
    }

    /// The station gate (`ieee80211_txq_airtime_check`): may the driver dequeue another
    /// packet for this station-AC? Always true when AQL or the station gate is
    /// disabled. With self-tuning, the check is also the tuner's sample of the driver's
    /// response time, and the tuned limit replaces the high limit
    /// ([`super::self_tuning`]).
    ///
    /// Contract: a registered station (rule 3); any `now` (rule 6).
    pub fn may_dequeue(&mut self, id: StationId, ac: Ac, now: Instant) -> Result<bool, AqlError> {
        let station = self
            .stations
            .get_mut(id)
            .ok_or(AqlError::UnknownStation(id))?;
        if !self.params.enabled || !self.params.station_gate_enabled {
            return Ok(true);
        }
        let threshold = self.params.aql_threshold_us;
        let total = self.total_pending_us;
        let sac = &mut station.acs[ac.index()];
        let limits = match &self.params.self_tuning {
            Some(tuning) => {
                let max = sac.limits.aql_limit_high_us;
                sac.tuning
                    .on_gate_check(tuning, now, max, &mut self.tuning_stats);
                tuned_limits(sac.limits, sac.tuning.limit_us())
            }
            None => sac.limits,
        };
        let allowed = station_may_dequeue(
            sac.pending_us,
            total,
            limits.aql_limit_low_us,
            limits.aql_limit_high_us,
            threshold,
        );
        if !allowed {
            self.stats.station_gate_refusals += 1;
            sac.tuning.on_refusal(sac.pending_us);
        }
        Ok(allowed)
    }

    /// The per-AC PHY gate (`ieee80211_txq_schedule_airtime_check`) with the
    /// interface's limits for `ac` and `active_txqs` active TXQs in it (0 counts as 1).
    /// Always true when AQL is disabled; not affected by `station_gate_enabled`.
    ///
    /// Contract: none; any count of TXQs.
    pub fn schedule_allowed(&mut self, ac: Ac, active_txqs: u32) -> bool {
        if !self.params.enabled {
            return true;
        }
        let limits = self.params.limits[ac.index()];
        let allowed = phy_may_schedule(
            self.ac_pending_us[ac.index()],
            limits.aql_limit_low_us,
            limits.aql_limit_high_us,
            active_txqs,
        );
        if !allowed {
            self.stats.phy_gate_refusals += 1;
        }
        allowed
    }

    /// Pending airtime of one station-AC, µs (debugfs `aql` "Q depth").
    ///
    /// Contract: a registered station (rule 3).
    pub fn station_pending_us(&self, id: StationId, ac: Ac) -> Result<u64, AqlError> {
        Ok(self.station_ac(id, ac)?.pending_us)
    }

    /// Pending airtime of one AC over all stations, µs (debugfs `aql_pending`).
    pub fn ac_pending_us(&self, ac: Ac) -> u64 {
        self.ac_pending_us[ac.index()]
    }

    /// Pending airtime of the interface, µs.
    pub fn total_pending_us(&self) -> u64 {
        self.total_pending_us
    }

    /// The limits of one station-AC (debugfs `aql` "Q limit[low/high]").
    ///
    /// Contract: a registered station (rule 3).
    pub fn station_limits(&self, id: StationId, ac: Ac) -> Result<AqlLimits, AqlError> {
        Ok(self.station_ac(id, ac)?.limits)
    }

    /// Overrides one station-AC's limits (debugfs `aql`: `limit <ac> <low> <high>`).
    /// A tuned limit above the new high limit is lowered to it.
    ///
    /// Contract: a registered station (rule 3); limits that validate (rule 4).
    pub fn set_station_limits(
        &mut self,
        id: StationId,
        ac: Ac,
        limits: AqlLimits,
    ) -> Result<(), AqlError> {
        limits.validate(ac).map_err(AqlError::InvalidLimits)?;
        let tuning = self.params.self_tuning;
        let sac = self.station_ac_mut(id, ac)?;
        if let Some(tuning) = tuning {
            if tuning.min_limit_us > limits.aql_limit_high_us {
                return Err(AqlError::InvalidLimits(AqlParamsError::new(
                    "aql_limit_high_us",
                    Some(ac),
                    "must not be below self_tuning.min_limit_us",
                )));
            }
            sac.tuning.clamp(&tuning, limits.aql_limit_high_us);
        }
        sac.limits = limits;
        Ok(())
    }

    /// The self-tuning state of one station-AC (its limit is meaningful only with
    /// [`AqlParams::self_tuning`] set).
    ///
    /// Contract: a registered station (rule 3).
    pub fn self_tuning_state(&self, id: StationId, ac: Ac) -> Result<&SelfTuningState, AqlError> {
        Ok(&self.station_ac(id, ac)?.tuning)
    }

    fn station_ac(&self, id: StationId, ac: Ac) -> Result<&StationAc, AqlError> {
        let station = self.stations.get(id).ok_or(AqlError::UnknownStation(id))?;
        Ok(&station.acs[ac.index()])
    }

    fn station_ac_mut(&mut self, id: StationId, ac: Ac) -> Result<&mut StationAc, AqlError> {
        let station = self
            .stations
            .get_mut(id)
            .ok_or(AqlError::UnknownStation(id))?;
        Ok(&mut station.acs[ac.index()])
    }

    /// The O(1) part of the accounting invariant, at the counters just changed.
    fn debug_check(&self, id: StationId, ac: Ac) {
        if cfg!(debug_assertions) {
            let station = self.station_ac(id, ac).map_or(0, |s| s.pending_us);
            let ac_pending = self.ac_pending_us[ac.index()];
            debug_assert!(station <= ac_pending && ac_pending <= self.total_pending_us);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;
    use proptest::prelude::*;

    const A: StationId = StationId(1);
    const B: StationId = StationId(7);
    const T0: Instant = Instant::ZERO;

    fn aql_with(stations: &[StationId]) -> Aql {
        let mut aql = Aql::new(AqlParams::default()).unwrap();
        for &s in stations {
            aql.register_station(s).unwrap();
        }
        aql
    }

    #[test]
    fn charge_and_release_move_all_three_counters() {
        let mut aql = aql_with(&[A, B]);
        aql.charge(A, Ac::Be, 300).unwrap();
        aql.charge(B, Ac::Be, 200).unwrap();
        aql.charge(A, Ac::Vi, 50).unwrap();
        assert_eq!(aql.station_pending_us(A, Ac::Be), Ok(300));
        assert_eq!(aql.ac_pending_us(Ac::Be), 500);
        assert_eq!(aql.ac_pending_us(Ac::Vi), 50);
        assert_eq!(aql.total_pending_us(), 550);
        assert_eq!(aql.release(A, Ac::Be, 100), Ok(0));
        assert_eq!(aql.station_pending_us(A, Ac::Be), Ok(200));
        assert_eq!(aql.ac_pending_us(Ac::Be), 400);
        assert_eq!(aql.total_pending_us(), 450);
        assert_eq!((aql.stats().charges, aql.stats().releases), (3, 1));
    }

    #[test]
    fn over_release_is_clamped_and_counted() {
        let mut aql = aql_with(&[A, B]);
        aql.charge(A, Ac::Be, 100).unwrap();
        aql.charge(B, Ac::Be, 1_000).unwrap();
        // The kernel would take 400 off the AC counter too; we take only A's 100.
        assert_eq!(aql.release(A, Ac::Be, 400), Ok(300));
        assert_eq!(aql.station_pending_us(A, Ac::Be), Ok(0));
        assert_eq!(aql.ac_pending_us(Ac::Be), 1_000);
        assert_eq!(aql.total_pending_us(), 1_000);
        assert_eq!((aql.stats().underflows, aql.stats().underflow_us), (1, 300));
        assert_eq!(aql.release(A, Ac::Be, u32::MAX), Ok(u32::MAX));
        assert_eq!(aql.stats().underflows, 2);
    }

    #[test]
    fn unregister_forgets_pending_and_keeps_the_others() {
        let mut aql = aql_with(&[A, B, StationId(3)]);
        aql.charge(A, Ac::Be, 100).unwrap();
        aql.charge(B, Ac::Bk, 40).unwrap();
        aql.charge(StationId(3), Ac::Be, 7).unwrap();
        assert_eq!(aql.unregister_station(A), Ok(100));
        assert!(!aql.is_registered(A));
        // The other stations are still found, with their pending airtime.
        assert_eq!(aql.station_pending_us(StationId(3), Ac::Be), Ok(7));
        assert_eq!(aql.station_pending_us(B, Ac::Bk), Ok(40));
        assert_eq!(aql.ac_pending_us(Ac::Be), 7);
        assert_eq!(aql.total_pending_us(), 47);
        assert_eq!(
            aql.release(A, Ac::Be, 100),
            Err(AqlError::UnknownStation(A))
        );
        aql.register_station(A).unwrap();
        assert_eq!(aql.station_pending_us(A, Ac::Be), Ok(0));
        assert_eq!(aql.station_count(), 3);
    }

    #[test]
    fn station_gate_with_defaults() {
        let mut aql = aql_with(&[A, B]);
        aql.charge(A, Ac::Be, 4_999).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true));
        aql.charge(A, Ac::Be, 1).unwrap();
        // 5000: above low, total 5000 < 24000, below high.
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true));
        // Push the total to 24000 through another station and AC.
        aql.charge(B, Ac::Vi, 19_000).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(false));
        aql.release(B, Ac::Vi, 1).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true));
        aql.release(B, Ac::Vi, 18_999).unwrap();
        aql.charge(A, Ac::Be, 6_999).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true), "11999 < high");
        aql.charge(A, Ac::Be, 1).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(false), "12000 = high");
        assert_eq!(aql.stats().station_gate_refusals, 2);
        // Other ACs of the same station are gated separately.
        assert_eq!(aql.may_dequeue(A, Ac::Vo, T0), Ok(true));
    }

    #[test]
    fn disabled_gates() {
        let mut aql = Aql::new(AqlParams {
            station_gate_enabled: false,
            ..AqlParams::default()
        })
        .unwrap();
        aql.register_station(A).unwrap();
        aql.charge(A, Ac::Be, 50_000).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true));
        // aql_enable=0 leaves the PHY cap in place, as in the kernel.
        assert!(!aql.schedule_allowed(Ac::Be, 1));
        aql.params.enabled = false;
        assert!(aql.schedule_allowed(Ac::Be, 1));
        assert_eq!(aql.stats().phy_gate_refusals, 1);
    }

    #[test]
    fn phy_gate_uses_the_ac_counter() {
        let mut aql = aql_with(&[A, B]);
        aql.charge(A, Ac::Be, 10_000).unwrap();
        aql.charge(B, Ac::Be, 9_499).unwrap();
        aql.charge(A, Ac::Vi, 50_000).unwrap();
        assert!(aql.schedule_allowed(Ac::Be, 4));
        aql.charge(B, Ac::Be, 1).unwrap();
        assert!(!aql.schedule_allowed(Ac::Be, 4));
        assert!(aql.schedule_allowed(Ac::Be, 5));
        assert!(!aql.schedule_allowed(Ac::Be, 0));
        assert_eq!(aql.stats().phy_gate_refusals, 2);
    }

    #[test]
    fn per_station_limit_override() {
        let mut aql = aql_with(&[A, B]);
        let tight = AqlLimits {
            aql_limit_low_us: 1_000,
            aql_limit_high_us: 2_000,
        };
        aql.set_station_limits(A, Ac::Be, tight).unwrap();
        assert_eq!(aql.station_limits(A, Ac::Be), Ok(tight));
        assert_eq!(aql.station_limits(B, Ac::Be), Ok(AqlLimits::DEFAULT));
        aql.charge(A, Ac::Be, 2_000).unwrap();
        aql.charge(B, Ac::Be, 2_000).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(false));
        assert_eq!(aql.may_dequeue(B, Ac::Be, T0), Ok(true));
        let bad = AqlLimits {
            aql_limit_low_us: 3_000,
            aql_limit_high_us: 2_000,
        };
        let err = aql.set_station_limits(A, Ac::Be, bad).unwrap_err();
        assert!(matches!(err, AqlError::InvalidLimits(e) if e.field == "aql_limit_low_us"));
    }

    #[test]
    fn self_tuned_gate_tightens_the_kernel_gate() {
        let params = AqlParams {
            self_tuning: Some(Default::default()),
            ..AqlParams::default()
        };
        let mut aql = Aql::new(params).unwrap();
        aql.register_station(A).unwrap();
        assert_eq!(aql.self_tuning_state(A, Ac::Be).unwrap().limit_us(), 12_000);
        // Lowering the high limit drags the tuned limit down with it.
        let limits = AqlLimits {
            aql_limit_low_us: 2_000,
            aql_limit_high_us: 3_000,
        };
        aql.set_station_limits(A, Ac::Be, limits).unwrap();
        assert_eq!(aql.self_tuning_state(A, Ac::Be).unwrap().limit_us(), 3_000);
        aql.charge(A, Ac::Be, 2_999).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(true));
        aql.charge(A, Ac::Be, 1).unwrap();
        assert_eq!(aql.may_dequeue(A, Ac::Be, T0), Ok(false));
        // A completion leaving nothing, answered 400 µs late while limited: growth.
        aql.report_completion(A, Ac::Be, 3_000, Instant::from_millis(1), true)
            .unwrap();
        let later = Instant::from_millis(1) + Duration::from_micros(400);
        assert_eq!(aql.may_dequeue(A, Ac::Be, later), Ok(true));
        assert_eq!(aql.self_tuning_stats().growths, 1);
        assert_eq!(
            aql.self_tuning_state(A, Ac::Be).unwrap().limit_us(),
            3_000,
            "capped at high"
        );
        let too_low = AqlLimits {
            aql_limit_low_us: 500,
            aql_limit_high_us: 900,
        };
        assert!(aql.set_station_limits(A, Ac::Be, too_low).is_err());
    }

    #[derive(Clone, Debug)]
    enum Op {
        Charge(usize, usize, u32),
        /// Release this per-mille of the station-AC's pending airtime.
        Release(usize, usize, u32),
        /// Release pending + extra.
        OverRelease(usize, usize, u32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            5 => (0..3usize, 0..4usize, 0..5_000u32).prop_map(|(s, a, x)| Op::Charge(s, a, x)),
            4 => (0..3usize, 0..4usize, 0..=1_000u32).prop_map(|(s, a, x)| Op::Release(s, a, x)),
            1 => (0..3usize, 0..4usize, 1..500u32).prop_map(|(s, a, x)| Op::OverRelease(s, a, x)),
        ]
    }

    proptest! {
        #[test]
        fn accounting_stays_consistent(ops in proptest::collection::vec(op(), 1..200)) {
            let ids = [StationId(0), StationId(5), StationId(2)];
            let mut aql = aql_with(&ids);
            // Model: charged and effectively released per station-AC.
            let mut charged = [[0u64; 4]; 3];
            let mut released = [[0u64; 4]; 3];
            let mut clamped = 0u64;
            for op in ops {
                match op {
                    Op::Charge(s, a, x) => {
                        aql.charge(ids[s], Ac::ALL[a], x).unwrap();
                        charged[s][a] += x as u64;
                    }
                    Op::Release(s, a, permille) | Op::OverRelease(s, a, permille) => {
                        let pending = aql.station_pending_us(ids[s], Ac::ALL[a]).unwrap();
                        let amount = match op {
                            Op::Release(..) => pending * permille as u64 / 1_000,
                            _ => pending + permille as u64,
                        } as u32;
                        let excess = aql.release(ids[s], Ac::ALL[a], amount).unwrap();
                        prop_assert_eq!(excess as u64, (amount as u64).saturating_sub(pending));
                        released[s][a] += amount as u64 - excess as u64;
                        clamped += excess as u64;
                    }
                }
                let mut total = 0;
                for ac in Ac::ALL {
                    let mut sum = 0;
                    for (s, &id) in ids.iter().enumerate() {
                        let pending = aql.station_pending_us(id, ac).unwrap();
                        prop_assert_eq!(pending, charged[s][ac.index()] - released[s][ac.index()]);
                        sum += pending;
                    }
                    prop_assert_eq!(aql.ac_pending_us(ac), sum);
                    total += sum;
                }
                prop_assert_eq!(aql.total_pending_us(), total);
                prop_assert_eq!(aql.stats().underflow_us, clamped);
            }
        }
    }
}
