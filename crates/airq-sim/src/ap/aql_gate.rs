//! The AQL layer: the library's [`Aql`] when it is on, and in any case the airtime
//! estimate of each frame handed below the MAC, which the statistics report as the
//! driver's queue depth in airtime.
//!
//! A frame is charged when it leaves the MAC layer for the driver (mac80211 charges in
//! `ieee80211_tx_dequeue`) and released when it is completed, delivered or dropped at
//! the retry limit. As mac80211 keeps each frame's estimate in `tx_time_est` to release
//! the same amount, the packet carries it ([`SimPacket::airtime_est_us`]).
//!
//! [`SimPacket::airtime_est_us`]: crate::net::packet::SimPacket::airtime_est_us

use airq::airtime::AirtimeGate;
use airq::aql::{kernel_assumes_ampdu, AirtimeEstimator, Aql, AqlParams};
use airq::phy::Rate;
use airq::{Ac, Instant, StationId};

pub(super) struct AqlGate {
    aql: Option<Aql>,
    estimator: AirtimeEstimator,
    /// The last estimate, by its inputs: an aggregate's packets mostly share them.
    last: Option<(Rate, u32, Ac, u32)>,
}

impl AqlGate {
    /// Validated parameters only (the caller checks them).
    pub(super) fn new(params: Option<AqlParams>, stations: usize) -> Option<AqlGate> {
        let estimator = params.map_or_else(AirtimeEstimator::default, |p| p.estimator);
        let aql = match params {
            Some(p) => {
                let mut aql = Aql::new(p).ok()?;
                for s in 0..stations as u32 {
                    aql.register_station(StationId(s)).ok()?;
                }
                Some(aql)
            }
            None => None,
        };
        Some(AqlGate {
            aql,
            estimator,
            last: None,
        })
    }

    pub(super) fn aql(&self) -> Option<&Aql> {
        self.aql.as_ref()
    }

    /// The airtime a packet of `len_bytes` at `rate` in `ac` is charged, µs (mac80211
    /// assumes an A-MPDU in every AC but VO).
    pub(super) fn estimate_us(&mut self, rate: &Rate, len_bytes: u32, ac: Ac) -> u32 {
        match self.last {
            Some((r, len, a, us)) if (r, len, a) == (*rate, len_bytes, ac) => us,
            _ => {
                let us = self
                    .estimator
                    .estimate_us(rate, len_bytes, kernel_assumes_ampdu(ac));
                self.last = Some((*rate, len_bytes, ac, us));
                us
            }
        }
    }

    /// The per-packet station gate (`ieee80211_txq_airtime_check` at the start of
    /// `ieee80211_tx_dequeue`); always true with AQL off.
    pub(super) fn may_dequeue(&mut self, station: StationId, ac: Ac, now: Instant) -> bool {
        match &mut self.aql {
            Some(aql) => aql.may_dequeue(station, ac, now).unwrap_or(true),
            None => true,
        }
    }

    pub(super) fn charge(&mut self, station: StationId, ac: Ac, airtime_us: u32) {
        if let Some(aql) = &mut self.aql {
            let r = aql.charge(station, ac, airtime_us);
            debug_assert!(r.is_ok(), "{r:?}");
        }
    }

    /// One hardware completion of `station`'s frames in `ac`, `released_us` in total;
    /// `backlogged` if the station-TID still has packets in the MAC layer.
    pub(super) fn complete(
        &mut self,
        station: StationId,
        ac: Ac,
        released_us: u32,
        now: Instant,
        backlogged: bool,
    ) {
        if let Some(aql) = &mut self.aql {
            let r = aql.report_completion(station, ac, released_us, now, backlogged);
            debug_assert!(r == Ok(0), "AQL release mismatch: {r:?}");
        }
    }

    pub(super) fn station_pending_us(&self, station: StationId, ac: Ac) -> u64 {
        self.aql
            .as_ref()
            .map_or(0, |a| a.station_pending_us(station, ac).unwrap_or(0))
    }

    pub(super) fn ac_pending_us(&self, ac: Ac) -> u64 {
        self.aql.as_ref().map_or(0, |a| a.ac_pending_us(ac))
    }

    pub(super) fn total_pending_us(&self) -> u64 {
        self.aql.as_ref().map_or(0, Aql::total_pending_us)
    }
}

/// The scheduler's view: AQL's gates and pending airtime, or no limits when it is off.
impl AirtimeGate for AqlGate {
    fn pending_us(&self, station: StationId, ac: Ac) -> u32 {
        self.aql.as_ref().map_or(0, |a| a.pending_us(station, ac))
    }

    fn station_may_dequeue(&mut self, station: StationId, ac: Ac, now: Instant) -> bool {
        self.aql
            .as_mut()
            .is_none_or(|a| a.station_may_dequeue(station, ac, now))
    }

    /// AQL's per-AC PHY gate (`ieee80211_txq_schedule_airtime_check`), with the
    /// scheduler's count of active TXQs.
    fn phy_may_schedule(&mut self, ac: Ac, active_txqs: u32) -> bool {
        self.aql
            .as_mut()
            .is_none_or(|a| a.schedule_allowed(ac, active_txqs))
    }
}
