//! `airq_aql`: Airtime Queue Limits of one radio (airq's [`Aql`]; Linux mac80211 since
//! v5.5, `ieee80211_txq_airtime_check`, `ieee80211_sta_update_pending_airtime`).
//!
//! The driver charges each packet's estimated airtime when it leaves the queues for the
//! hardware (`airq_aql_charge`) and releases it when the hardware reports it done, sent
//! or dropped (`airq_aql_release`, or `airq_aql_report_completion` with self-tuning).
//! The scheduler reads the pending airtime through the `aql` argument of its calls.

use crate::handle::{self, Component, Handle, Kind};
use crate::rate::AirqRate;
use crate::sched::ac;
use crate::status::{
    entry, read_in, write_out, AirqStatus, Error, AIRQ_ERR_DUPLICATE_STATION,
    AIRQ_ERR_INVALID_ARGUMENT, AIRQ_ERR_UNKNOWN_STATION, AIRQ_OK,
};
use airq::aql::{Aql, AqlError, AqlLimits, AqlParams, SelfTuningParams};
use airq::{Ac, Instant, StationId};

/// Airtime Queue Limits of one radio. Opaque; create with `airq_aql_new`.
pub struct AirqAql {
    _opaque: [u8; 0],
}

/// What lives behind an `airq_aql`.
pub(crate) struct AqlState {
    pub(crate) aql: Aql,
}

impl Component for AqlState {
    const KIND: Kind = Kind::Aql;
    const NAME: &'static str = "airq_aql";
}

pub(crate) fn handle(aql: *const AirqAql) -> *const Handle<AqlState> {
    aql.cast()
}

pub(crate) fn aql_error(e: AqlError) -> Error {
    let status = match e {
        AqlError::UnknownStation(_) => AIRQ_ERR_UNKNOWN_STATION,
        AqlError::StationAlreadyRegistered(_) => AIRQ_ERR_DUPLICATE_STATION,
        _ => AIRQ_ERR_INVALID_ARGUMENT,
    };
    Error::new(status, e)
}

/// Parameters of AQL. `airq_aql_params_default` fills in mac80211's. Arrays are
/// indexed by AC (`AIRQ_AC_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqAqlParams {
    /// Airtime a station may always have pending per AC, µs (5000).
    pub aql_limit_low_us: [u32; 4],
    /// Airtime a station may have pending while the radio's total is below the
    /// threshold, µs (12000).
    pub aql_limit_high_us: [u32; 4],
    /// Radio-wide pending airtime above which stations are held to the low limit, µs
    /// (24000).
    pub aql_threshold_us: u32,
    /// The driver supports AQL (`NL80211_EXT_FEATURE_AQL`); off, both gates allow.
    pub enabled: bool,
    /// The debugfs `aql_enable` switch for the per-station gate.
    pub station_gate_enabled: bool,
    /// Tune each station-AC's limit from completions (airq's self-tuning AQL, with its
    /// default parameters); off gates exactly as the kernel.
    pub self_tuning: bool,
}

impl From<AqlParams> for AirqAqlParams {
    fn from(p: AqlParams) -> Self {
        AirqAqlParams {
            aql_limit_low_us: p.limits.map(|l| l.aql_limit_low_us),
            aql_limit_high_us: p.limits.map(|l| l.aql_limit_high_us),
            aql_threshold_us: p.aql_threshold_us,
            enabled: p.enabled,
            station_gate_enabled: p.station_gate_enabled,
            self_tuning: p.self_tuning.is_some(),
        }
    }
}

impl From<AirqAqlParams> for AqlParams {
    fn from(p: AirqAqlParams) -> Self {
        AqlParams {
            limits: Ac::ALL.map(|ac| AqlLimits {
                aql_limit_low_us: p.aql_limit_low_us[ac.index()],
                aql_limit_high_us: p.aql_limit_high_us[ac.index()],
            }),
            aql_threshold_us: p.aql_threshold_us,
            enabled: p.enabled,
            station_gate_enabled: p.station_gate_enabled,
            self_tuning: p.self_tuning.then(SelfTuningParams::default),
            ..AqlParams::default()
        }
    }
}

/// AQL's counters; they only grow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AirqAqlStats {
    pub charges: u64,
    pub releases: u64,
    /// Releases larger than the station-AC's pending airtime (clamped), and their
    /// excess, µs: a driver whose releases do not match its charges.
    pub underflows: u64,
    pub underflow_us: u64,
    /// Times the per-station gate said no.
    pub station_gate_refusals: u64,
    /// Times the per-AC gate said no.
    pub phy_gate_refusals: u64,
    /// Pending airtime forgotten with stations unregistered with packets in flight.
    pub unregistered_pending_us: u64,
}

/// Fills `*out` with mac80211's parameters.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_params_default(out: *mut AirqAqlParams) -> AirqStatus {
    entry(|| {
        write_out(out, "out", AqlParams::default().into())?;
        Ok(AIRQ_OK)
    })
}

/// Creates AQL with `params` (null: mac80211's defaults) and stores the handle in
/// `*out`. Free it with `airq_aql_free`.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_new(
    params: *const AirqAqlParams,
    out: *mut *mut AirqAql,
) -> AirqStatus {
    entry(|| {
        let params = if params.is_null() {
            AqlParams::default()
        } else {
            read_in(params, "params")?.into()
        };
        let aql = Aql::new(params).map_err(Error::invalid)?;
        if out.is_null() {
            return Err(Error::null("out"));
        }
        write_out(out, "out", handle::create(AqlState { aql }).cast())?;
        Ok(AIRQ_OK)
    })
}

/// Frees AQL. Null does nothing. The handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_free(aql: *mut AirqAql) -> AirqStatus {
    entry(|| {
        handle::destroy(handle(aql).cast_mut())?;
        Ok(AIRQ_OK)
    })
}

/// Registers a station with the default limits and nothing pending.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_register_station(aql: *mut AirqAql, station: u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(aql))?;
        s.aql
            .register_station(StationId(station))
            .map_err(aql_error)?;
        Ok(AIRQ_OK)
    })
}

/// Unregisters a station; the airtime it still had pending (µs) is forgotten and
/// stored in `*forgotten_us` (may be null).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_unregister_station(
    aql: *mut AirqAql,
    station: u32,
    forgotten_us: *mut u64,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(aql))?;
        let forgotten = s
            .aql
            .unregister_station(StationId(station))
            .map_err(aql_error)?;
        if !forgotten_us.is_null() {
            write_out(forgotten_us, "forgotten_us", u64::from(forgotten))?;
        }
        Ok(AIRQ_OK)
    })
}

/// Stores in `*airtime_us` the airtime AQL charges for a packet of `len_bytes` sent at
/// `*rate`, in an A-MPDU if `ampdu` (the kernel's estimate, in 4 µs units).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_estimate_us(
    aql: *const AirqAql,
    rate: *const AirqRate,
    len_bytes: u32,
    ampdu: bool,
    airtime_us: *mut u32,
) -> AirqStatus {
    entry(|| {
        let rate = read_in(rate, "rate")?.to_rate()?;
        let s = handle::acquire(handle(aql))?;
        let estimate = s.aql.estimate_us(&rate, len_bytes, ampdu);
        write_out(airtime_us, "airtime_us", estimate)?;
        Ok(AIRQ_OK)
    })
}

/// A packet of `airtime_us` left the queues for the hardware.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_charge(
    aql: *mut AirqAql,
    station: u32,
    ac: u8,
    airtime_us: u32,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        let mut s = handle::acquire(handle(aql))?;
        s.aql
            .charge(StationId(station), ac, airtime_us)
            .map_err(aql_error)?;
        Ok(AIRQ_OK)
    })
}

/// The hardware completed (sent or dropped) packets of `airtime_us` in total. The part
/// above what was pending, clamped away, is stored in `*excess_us` (may be null).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_release(
    aql: *mut AirqAql,
    station: u32,
    ac: u8,
    airtime_us: u32,
    excess_us: *mut u32,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        let mut s = handle::acquire(handle(aql))?;
        let excess = s
            .aql
            .release(StationId(station), ac, airtime_us)
            .map_err(aql_error)?;
        if !excess_us.is_null() {
            write_out(excess_us, "excess_us", excess)?;
        }
        Ok(AIRQ_OK)
    })
}

/// `airq_aql_release` plus what self-tuning learns from a completion: at `now_ns` the
/// hardware finished an aggregate of `airtime_us`, and the station still had packets
/// queued in this AC if `backlogged`. Report once per completion event.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_report_completion(
    aql: *mut AirqAql,
    station: u32,
    ac: u8,
    airtime_us: u32,
    now_ns: u64,
    backlogged: bool,
    excess_us: *mut u32,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        let mut s = handle::acquire(handle(aql))?;
        let excess = s
            .aql
            .report_completion(
                StationId(station),
                ac,
                airtime_us,
                Instant::from_nanos(now_ns),
                backlogged,
            )
            .map_err(aql_error)?;
        if !excess_us.is_null() {
            write_out(excess_us, "excess_us", excess)?;
        }
        Ok(AIRQ_OK)
    })
}

/// Stores in `*allowed` whether the station may dequeue more in `ac` at `now_ns`
/// (`ieee80211_txq_airtime_check`), for drivers that do not go through
/// `airq_sched_next_txq` (which asks this itself).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_may_dequeue(
    aql: *mut AirqAql,
    station: u32,
    ac: u8,
    now_ns: u64,
    allowed: *mut bool,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        if allowed.is_null() {
            return Err(Error::null("allowed"));
        }
        let mut s = handle::acquire(handle(aql))?;
        let ok = s
            .aql
            .may_dequeue(StationId(station), ac, Instant::from_nanos(now_ns))
            .map_err(aql_error)?;
        write_out(allowed, "allowed", ok)?;
        Ok(AIRQ_OK)
    })
}

/// Stores the airtime pending in the hardware, µs: of `station` in `ac` (station
/// `AIRQ_NO_STATION`: of the whole AC; `ac` 255 with it: of the whole radio).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_pending_us(
    aql: *const AirqAql,
    station: u32,
    ac: u8,
    pending_us: *mut u64,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(aql))?;
        let pending = match (station, ac) {
            (crate::sched::AIRQ_NO_STATION, u8::MAX) => s.aql.total_pending_us(),
            (crate::sched::AIRQ_NO_STATION, ac) => s.aql.ac_pending_us(self::ac(ac)?),
            (station, ac) => s
                .aql
                .station_pending_us(StationId(station), self::ac(ac)?)
                .map_err(aql_error)?,
        };
        write_out(pending_us, "pending_us", u64::from(pending))?;
        Ok(AIRQ_OK)
    })
}

/// Overrides one station-AC's limits (debugfs `aql`: `limit <ac> <low> <high>`).
#[no_mangle]
pub unsafe extern "C" fn airq_aql_set_station_limits(
    aql: *mut AirqAql,
    station: u32,
    ac: u8,
    aql_limit_low_us: u32,
    aql_limit_high_us: u32,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        let mut s = handle::acquire(handle(aql))?;
        let limits = AqlLimits {
            aql_limit_low_us,
            aql_limit_high_us,
        };
        s.aql
            .set_station_limits(StationId(station), ac, limits)
            .map_err(aql_error)?;
        Ok(AIRQ_OK)
    })
}

/// Stores AQL's counters in `*stats`.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_get_stats(
    aql: *const AirqAql,
    stats: *mut AirqAqlStats,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(aql))?;
        let a = s.aql.stats();
        let out = AirqAqlStats {
            charges: u64::from(a.charges),
            releases: u64::from(a.releases),
            underflows: u64::from(a.underflows),
            underflow_us: u64::from(a.underflow_us),
            station_gate_refusals: u64::from(a.station_gate_refusals),
            phy_gate_refusals: u64::from(a.phy_gate_refusals),
            unregistered_pending_us: u64::from(a.unregistered_pending_us),
        };
        write_out(stats, "stats", out)?;
        Ok(AIRQ_OK)
    })
}
