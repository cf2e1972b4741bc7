//! `airq_sched`: the airtime fairness scheduler of one radio (airq's
//! [`AirtimeScheduler`]; mac80211's `ieee80211_next_txq`, `ieee80211_return_txq`,
//! `ieee80211_txq_may_transmit`, `ieee80211_sta_register_airtime`): deficit round robin
//! over stations in µs of airtime, one list per access category.
//!
//! The calls that decide take an optional `airq_aql` handle as the gate (null: no
//! Airtime Queue Limits), as mac80211 consults AQL inside its scheduler. TXQs are
//! numbered by the scheduler (`TxqId::index`); station ids are the caller's (dense, at
//! most 65535, like association ids). Groups of stations are in [`group`](crate::group).

use crate::aql::{self, AirqAql, AqlState};
use crate::handle::{self, Component, Guard, Handle, Kind};
use crate::status::{
    entry, read_in, write_out, AirqStatus, Error, Result, AIRQ_EMPTY, AIRQ_ERR_DUPLICATE_STATION,
    AIRQ_ERR_FULL, AIRQ_ERR_GROUP_NESTING, AIRQ_ERR_GROUP_NOT_EMPTY, AIRQ_ERR_INVALID_ARGUMENT,
    AIRQ_ERR_UNKNOWN_GROUP, AIRQ_ERR_UNKNOWN_STATION, AIRQ_ERR_UNKNOWN_TXQ, AIRQ_OK,
};
use airq::airtime::{
    AirtimeGate, AirtimeParams, AirtimeScheduler, GroupId, NoAql, SchedError, SchedulingMode, TxqId,
};
use airq::{Ac, Duration, Instant, StationId, Tid};

/// `station` argument of `airq_sched_add_txq` for an interface (multicast) TXQ, which
/// belongs to no station and is never throttled.
pub const AIRQ_NO_STATION: u32 = u32::MAX;

/// Access category: voice (mac80211's numbering, highest priority first).
pub const AIRQ_AC_VO: u8 = 0;
/// Access category: video.
pub const AIRQ_AC_VI: u8 = 1;
/// Access category: best effort.
pub const AIRQ_AC_BE: u8 = 2;
/// Access category: background.
pub const AIRQ_AC_BK: u8 = 3;

/// The airtime scheduler of one radio. Opaque; create with `airq_sched_new`.
pub struct AirqSched {
    _opaque: [u8; 0],
}

/// What lives behind an `airq_sched`.
pub(crate) struct SchedState {
    pub(crate) sched: AirtimeScheduler,
    /// The live TXQ of each scheduler slot, by the caller's TXQ number.
    txqs: Vec<Option<TxqId>>,
    /// The live groups, by their number (`GroupId::index`).
    pub(crate) groups: Vec<Option<GroupId>>,
}

impl Component for SchedState {
    const KIND: Kind = Kind::Sched;
    const NAME: &'static str = "airq_sched";
}

impl SchedState {
    fn txq(&self, txq: u32) -> Result<TxqId> {
        self.txqs
            .get(txq as usize)
            .copied()
            .flatten()
            .ok_or_else(|| unknown_txq(txq))
    }
}

fn unknown_txq(txq: u32) -> Error {
    Error::new(
        AIRQ_ERR_UNKNOWN_TXQ,
        format_args!("TXQ {txq} does not exist"),
    )
}

pub(crate) fn handle(sched: *const AirqSched) -> *const Handle<SchedState> {
    sched.cast()
}

pub(crate) fn sched_error(e: SchedError) -> Error {
    let status = match e {
        SchedError::UnknownStation(_) => AIRQ_ERR_UNKNOWN_STATION,
        SchedError::DuplicateStation(_) => AIRQ_ERR_DUPLICATE_STATION,
        SchedError::UnknownTxq(_) => AIRQ_ERR_UNKNOWN_TXQ,
        SchedError::UnknownGroup(_) => AIRQ_ERR_UNKNOWN_GROUP,
        SchedError::GroupNotEmpty(_) => AIRQ_ERR_GROUP_NOT_EMPTY,
        SchedError::GroupCycle(_) | SchedError::GroupTooDeep(_) => AIRQ_ERR_GROUP_NESTING,
        SchedError::TooManyTxqs | SchedError::TooManyGroups => AIRQ_ERR_FULL,
        _ => AIRQ_ERR_INVALID_ARGUMENT,
    };
    Error::new(status, e)
}

/// The AC of a C argument.
pub(crate) fn ac(ac: u8) -> Result<Ac> {
    Ac::ALL.get(usize::from(ac)).copied().ok_or_else(|| {
        Error::invalid(format_args!(
            "ac must be 0-3 (AIRQ_AC_VO..AIRQ_AC_BK), got {ac}"
        ))
    })
}

/// The TID of a C argument.
pub(crate) fn tid(tid: u8) -> Result<Tid> {
    Tid::new(tid).ok_or_else(|| Error::invalid(format_args!("tid must be 0-15, got {tid}")))
}

/// The AQL gate of an optional `airq_aql` argument, held for the call.
enum Gate<'a> {
    None(NoAql),
    Aql(Guard<'a, AqlState>),
}

impl Gate<'_> {
    fn acquire(aql: *mut AirqAql) -> Result<Self> {
        if aql.is_null() {
            return Ok(Gate::None(NoAql));
        }
        Ok(Gate::Aql(handle::acquire(aql::handle(aql))?))
    }

    fn get(&mut self) -> &mut dyn AirtimeGateMut {
        match self {
            Gate::None(g) => g,
            Gate::Aql(g) => &mut g.aql,
        }
    }
}

/// The gate as a trait object: the scheduler's methods are generic over the gate, so
/// this forwards to the one concrete type behind it.
trait AirtimeGateMut {
    fn schedule_start(&mut self, s: &mut AirtimeScheduler, ac: Ac);
    fn next_txq(&mut self, s: &mut AirtimeScheduler, ac: Ac, now: Instant) -> Option<TxqId>;
    fn schedule_start_any(&mut self, s: &mut AirtimeScheduler);
    fn next_txq_any(&mut self, s: &mut AirtimeScheduler, now: Instant) -> Option<TxqId>;
    fn may_transmit(
        &mut self,
        s: &mut AirtimeScheduler,
        txq: TxqId,
        now: Instant,
    ) -> std::result::Result<bool, SchedError>;
}

impl<G: AirtimeGate> AirtimeGateMut for G {
    fn schedule_start(&mut self, s: &mut AirtimeScheduler, ac: Ac) {
        s.schedule_start(ac, self)
    }
    fn next_txq(&mut self, s: &mut AirtimeScheduler, ac: Ac, now: Instant) -> Option<TxqId> {
        s.next_txq(ac, self, now)
    }
    fn schedule_start_any(&mut self, s: &mut AirtimeScheduler) {
        s.schedule_start_any(self)
    }
    fn next_txq_any(&mut self, s: &mut AirtimeScheduler, now: Instant) -> Option<TxqId> {
        s.next_txq_any(self, now)
    }
    fn may_transmit(
        &mut self,
        s: &mut AirtimeScheduler,
        txq: TxqId,
        now: Instant,
    ) -> std::result::Result<bool, SchedError> {
        s.may_transmit_at(txq, self, now)
    }
}

/// Parameters of the scheduler. `airq_sched_params_default` fills in mac80211's.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqSchedParams {
    /// Airtime fairness on; off is plain round robin over TXQs.
    pub fairness: bool,
    /// Charge TX airtime to deficits (`AIRTIME_USE_TX`, on).
    pub use_tx: bool,
    /// Charge RX airtime to deficits (`AIRTIME_USE_RX`, on).
    pub use_rx: bool,
    /// Weight of a new station, µs per refill (256).
    pub default_weight_us: u32,
    /// How long after its last activity a station keeps its deficit, ns (100 ms).
    pub active_window_ns: u64,
    /// Choose the station first, then its highest-priority TXQ, over one list for all
    /// ACs (airq's station-first QoS), instead of mac80211's list per AC. Then call
    /// the `_any` functions.
    pub station_first: bool,
}

impl From<AirtimeParams> for AirqSchedParams {
    fn from(p: AirtimeParams) -> Self {
        AirqSchedParams {
            fairness: p.fairness,
            use_tx: p.use_tx,
            use_rx: p.use_rx,
            default_weight_us: p.default_weight_us,
            active_window_ns: p.active_window.as_nanos(),
            station_first: p.mode == SchedulingMode::StationFirst,
        }
    }
}

impl From<AirqSchedParams> for AirtimeParams {
    fn from(p: AirqSchedParams) -> Self {
        AirtimeParams {
            fairness: p.fairness,
            use_tx: p.use_tx,
            use_rx: p.use_rx,
            default_weight_us: p.default_weight_us,
            active_window: Duration::from_nanos(p.active_window_ns),
            mode: if p.station_first {
                SchedulingMode::StationFirst
            } else {
                SchedulingMode::PerAc
            },
            ..AirtimeParams::default()
        }
    }
}

/// A station's airtime accounting (`iw station dump`'s airtime lines, debugfs
/// `airtime`). Arrays are indexed by AC (`AIRQ_AC_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AirqStationAirtimeStats {
    pub weight_us: u32,
    pub tx_airtime_us: [u64; 4],
    pub rx_airtime_us: [u64; 4],
    /// The DRR deficit, µs (before subtracting airtime pending in AQL).
    pub deficit_us: [i64; 4],
    /// Refills of the deficit so far.
    pub refills: [u64; 4],
}

/// Fills `*out` with mac80211's parameters.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_params_default(out: *mut AirqSchedParams) -> AirqStatus {
    entry(|| {
        write_out(out, "out", AirtimeParams::default().into())?;
        Ok(AIRQ_OK)
    })
}

/// Creates a scheduler with `params` (null: mac80211's defaults) and stores the handle
/// in `*out`. Free it with `airq_sched_free`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_new(
    params: *const AirqSchedParams,
    out: *mut *mut AirqSched,
) -> AirqStatus {
    entry(|| {
        let params = if params.is_null() {
            AirtimeParams::default()
        } else {
            read_in(params, "params")?.into()
        };
        let sched = AirtimeScheduler::new(params).map_err(sched_error)?;
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let ptr = handle::create(SchedState {
            sched,
            txqs: Vec::new(),
            groups: Vec::new(),
        });
        write_out(out, "out", ptr.cast())?;
        Ok(AIRQ_OK)
    })
}

/// Frees the scheduler. Null does nothing. The handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_free(sched: *mut AirqSched) -> AirqStatus {
    entry(|| {
        handle::destroy(handle(sched).cast_mut())?;
        Ok(AIRQ_OK)
    })
}

/// Registers a station with the default weight.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_add_station(sched: *mut AirqSched, station: u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        s.sched
            .add_station(StationId(station))
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Removes a station; its TXQs cease to exist.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_remove_station(
    sched: *mut AirqSched,
    station: u32,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        s.sched
            .remove_station(StationId(station))
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Sets a station's airtime weight, 1-65535 µs: its share is proportional to it.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_set_weight(
    sched: *mut AirqSched,
    station: u32,
    weight_us: u32,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        s.sched
            .set_weight(StationId(station), weight_us)
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Creates the TXQ of `station` (`AIRQ_NO_STATION`: the interface's, for multicast)
/// and `tid` (0-15), in the TID's AC, unscheduled; stores its number in `*txq`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_add_txq(
    sched: *mut AirqSched,
    station: u32,
    tid: u8,
    txq: *mut u32,
) -> AirqStatus {
    entry(|| {
        let tid = self::tid(tid)?;
        let mut s = handle::acquire(handle(sched))?;
        if txq.is_null() {
            return Err(Error::null("txq"));
        }
        let station = (station != AIRQ_NO_STATION).then_some(StationId(station));
        let id = s.sched.add_txq(station, tid).map_err(sched_error)?;
        let index = id.index();
        if s.txqs.len() <= index {
            s.txqs.resize(index + 1, None);
        }
        s.txqs[index] = Some(id);
        write_out(txq, "txq", index as u32)?;
        Ok(AIRQ_OK)
    })
}

/// Removes a TXQ (mac80211 frees a station's TXQs as it goes): it leaves the scheduling
/// lists, and its number is unknown afterwards until `airq_sched_add_txq` hands it out
/// again. Its packets are the caller's to purge from its tin first.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_remove_txq(sched: *mut AirqSched, txq: u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        let id = s.txq(txq)?;
        s.sched.remove_txq(id).map_err(sched_error)?;
        s.txqs[txq as usize] = None;
        Ok(AIRQ_OK)
    })
}

/// Starts a scheduling round in `ac` (`ieee80211_txq_schedule_start`); with `aql`,
/// the round hands out nothing if the AC's pending airtime is over its limit.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_schedule_start(
    sched: *mut AirqSched,
    ac: u8,
    aql: *mut AirqAql,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        let mut s = handle::acquire(handle(sched))?;
        let mut gate = Gate::acquire(aql)?;
        gate.get().schedule_start(&mut s.sched, ac);
        Ok(AIRQ_OK)
    })
}

/// Stores in `*txq` the next TXQ to serve in `ac` (`ieee80211_next_txq`), which the
/// caller owns until `airq_sched_return_txq`: `AIRQ_OK`, or `AIRQ_EMPTY` when none is
/// eligible this round. `aql` (may be null) gates stations by their pending airtime.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_next_txq(
    sched: *mut AirqSched,
    ac: u8,
    aql: *mut AirqAql,
    now_ns: u64,
    txq: *mut u32,
) -> AirqStatus {
    entry(|| {
        let ac = self::ac(ac)?;
        if txq.is_null() {
            return Err(Error::null("txq"));
        }
        let mut s = handle::acquire(handle(sched))?;
        let mut gate = Gate::acquire(aql)?;
        match gate
            .get()
            .next_txq(&mut s.sched, ac, Instant::from_nanos(now_ns))
        {
            Some(id) => {
                write_out(txq, "txq", id.index() as u32)?;
                Ok(AIRQ_OK)
            }
            None => Ok(AIRQ_EMPTY),
        }
    })
}

/// Station-first mode's `airq_sched_schedule_start`: one round over all ACs.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_schedule_start_any(
    sched: *mut AirqSched,
    aql: *mut AirqAql,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        let mut gate = Gate::acquire(aql)?;
        gate.get().schedule_start_any(&mut s.sched);
        Ok(AIRQ_OK)
    })
}

/// Station-first mode's `airq_sched_next_txq`: the chosen station's highest-priority
/// TXQ with packets, whatever its AC.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_next_txq_any(
    sched: *mut AirqSched,
    aql: *mut AirqAql,
    now_ns: u64,
    txq: *mut u32,
) -> AirqStatus {
    entry(|| {
        if txq.is_null() {
            return Err(Error::null("txq"));
        }
        let mut s = handle::acquire(handle(sched))?;
        let mut gate = Gate::acquire(aql)?;
        match gate
            .get()
            .next_txq_any(&mut s.sched, Instant::from_nanos(now_ns))
        {
            Some(id) => {
                write_out(txq, "txq", id.index() as u32)?;
                Ok(AIRQ_OK)
            }
            None => Ok(AIRQ_EMPTY),
        }
    })
}

/// Hands a TXQ back after serving it, or schedules one that just got packets
/// (`ieee80211_return_txq` / `ieee80211_schedule_txq`): `has_queue` is whether its
/// tin still holds packets (`airq_fq_has_queue`).
#[no_mangle]
pub unsafe extern "C" fn airq_sched_return_txq(
    sched: *mut AirqSched,
    txq: u32,
    has_queue: bool,
    now_ns: u64,
) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        let id = s.txq(txq)?;
        s.sched
            .return_txq(id, has_queue, Instant::from_nanos(now_ns))
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Takes a TXQ off the scheduling lists (e.g. its tin was purged).
#[no_mangle]
pub unsafe extern "C" fn airq_sched_unschedule(sched: *mut AirqSched, txq: u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(sched))?;
        let id = s.txq(txq)?;
        s.sched.unschedule(id).map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// For push-pull drivers whose firmware asks for a given TXQ
/// (`ieee80211_txq_may_transmit`): stores in `*allowed` whether it may send now.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_may_transmit(
    sched: *mut AirqSched,
    txq: u32,
    aql: *mut AirqAql,
    now_ns: u64,
    allowed: *mut bool,
) -> AirqStatus {
    entry(|| {
        if allowed.is_null() {
            return Err(Error::null("allowed"));
        }
        let mut s = handle::acquire(handle(sched))?;
        let id = s.txq(txq)?;
        let mut gate = Gate::acquire(aql)?;
        let ok = gate
            .get()
            .may_transmit(&mut s.sched, id, Instant::from_nanos(now_ns))
            .map_err(sched_error)?;
        write_out(allowed, "allowed", ok)?;
        Ok(AIRQ_OK)
    })
}

/// Charges airtime the hardware reported for `station` on `tid`
/// (`ieee80211_sta_register_airtime`), µs of transmission and of reception.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_register_airtime(
    sched: *mut AirqSched,
    station: u32,
    tid: u8,
    tx_airtime_us: u32,
    rx_airtime_us: u32,
    now_ns: u64,
) -> AirqStatus {
    entry(|| {
        let tid = self::tid(tid)?;
        let mut s = handle::acquire(handle(sched))?;
        s.sched
            .register_airtime(
                StationId(station),
                tid,
                tx_airtime_us,
                rx_airtime_us,
                Instant::from_nanos(now_ns),
            )
            .map_err(sched_error)?;
        Ok(AIRQ_OK)
    })
}

/// Stores the station and TID of a TXQ in `*station` (`AIRQ_NO_STATION` for an
/// interface TXQ) and `*tid`; either may be null if not wanted.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_txq_owner(
    sched: *const AirqSched,
    txq: u32,
    station: *mut u32,
    tid: *mut u8,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(sched))?;
        let (owner, t) = s.sched.txq_owner(s.txq(txq)?).map_err(sched_error)?;
        if !station.is_null() {
            write_out(station, "station", owner.map_or(AIRQ_NO_STATION, |id| id.0))?;
        }
        if !tid.is_null() {
            write_out(tid, "tid", t.get())?;
        }
        Ok(AIRQ_OK)
    })
}

/// Stores a station's airtime accounting in `*stats`.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_get_station_stats(
    sched: *const AirqSched,
    station: u32,
    stats: *mut AirqStationAirtimeStats,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(sched))?;
        let a = s
            .sched
            .station_stats(StationId(station))
            .map_err(sched_error)?;
        let out = AirqStationAirtimeStats {
            weight_us: a.weight_us,
            tx_airtime_us: a.tx_airtime_us.map(u64::from),
            rx_airtime_us: a.rx_airtime_us.map(u64::from),
            deficit_us: a.deficit_us.map(i64::from),
            refills: a.refills.map(u64::from),
        };
        write_out(stats, "stats", out)?;
        Ok(AIRQ_OK)
    })
}
