//! `airq_fq`: the FQ-MAC queues of one radio (airq's [`Fq`]; Linux `include/net/fq.h`
//! as mac80211 uses it): FQ-CoDel per tin over one shared pool of flow queues, with
//! global packet and memory limits.
//!
//! A tin is one logical queue — in mac80211 one per station and TID, plus one per
//! interface for multicast. C numbers tins by their slot (`TinId::index`), dense from
//! 0; like a file descriptor, a removed tin's number may be given to a later tin.

use crate::handle::{self, Component, Handle, Kind};
use crate::packet::{AirqDropFn, AirqPacket, OnDrop};
use crate::status::{
    entry, read_in, write_out, AirqStatus, Error, Result, AIRQ_EMPTY, AIRQ_ERR_INVALID_ARGUMENT,
    AIRQ_ERR_UNKNOWN_TIN, AIRQ_OK,
};
use airq::{
    CodelParams, Duration, FattestSearch, Fq, FqError, FqParams, FqStats, Instant, Quantum, TinId,
};
use airq::{CodelStats, TinStats};
use std::ffi::c_void;

/// The FQ-MAC queues of one radio. Opaque; create with `airq_fq_new`.
pub struct AirqFq {
    _opaque: [u8; 0],
}

/// What lives behind an `airq_fq`.
pub(crate) struct FqState {
    pub(crate) fq: Fq<AirqPacket>,
    /// The live tin of each slot, by the caller's tin number.
    tins: Vec<Option<TinId>>,
}

impl Component for FqState {
    const KIND: Kind = Kind::Fq;
    const NAME: &'static str = "airq_fq";
}

impl FqState {
    pub(crate) fn tin(&self, tin: u32) -> Result<TinId> {
        self.tins
            .get(tin as usize)
            .copied()
            .flatten()
            .ok_or_else(|| {
                Error::new(
                    AIRQ_ERR_UNKNOWN_TIN,
                    format_args!("tin {tin} does not exist (never added, or removed)"),
                )
            })
    }
}

pub(crate) fn handle(fq: *const AirqFq) -> *const Handle<FqState> {
    fq.cast()
}

pub(crate) fn fq_error(e: FqError) -> Error {
    let status = match e {
        FqError::UnknownTin(_) => AIRQ_ERR_UNKNOWN_TIN,
        _ => AIRQ_ERR_INVALID_ARGUMENT,
    };
    Error::new(status, e)
}

/// Parameters of the queues. `airq_fq_params_default` fills in mac80211's.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqFqParams {
    /// Flow queues in the pool shared by every tin (mac80211: 4096).
    pub flows: u32,
    /// Global limit on queued packets (`fq->limit`, 8192).
    pub limit_packets: u32,
    /// Global limit on queued memory, as `truesize_bytes` (`fq->memory_limit`, 16 MiB).
    pub memory_limit_bytes: u64,
    /// DRR++ quantum (`fq->quantum`, 300 bytes).
    pub quantum: u32,
    /// Whether `quantum` counts frames instead of bytes (AQL's frame-based quantum).
    pub quantum_in_frames: bool,
    /// CoDel target, ns (mac80211: 20 ms).
    pub codel_target_ns: u64,
    /// CoDel interval, ns (100 ms).
    pub codel_interval_ns: u64,
    /// Mark ECN-capable packets CE instead of dropping them (mac80211: on).
    pub codel_ecn: bool,
    /// CoDel never drops while at most this many bytes stay queued (mac80211: 0).
    pub codel_mtu_bytes: u32,
    /// Mark CE above this sojourn time regardless of the control law, ns; 0 is off.
    pub codel_ce_threshold_ns: u64,
}

impl From<FqParams> for AirqFqParams {
    fn from(p: FqParams) -> Self {
        let (quantum, quantum_in_frames) = match p.quantum {
            Quantum::Bytes(n) => (n, false),
            Quantum::Frames(n) => (n, true),
        };
        AirqFqParams {
            flows: p.flows,
            limit_packets: p.limit_packets,
            memory_limit_bytes: p.memory_limit_bytes,
            quantum,
            quantum_in_frames,
            codel_target_ns: p.codel.target.as_nanos(),
            codel_interval_ns: p.codel.interval.as_nanos(),
            codel_ecn: p.codel.ecn,
            codel_mtu_bytes: p.codel.mtu_bytes,
            codel_ce_threshold_ns: p.codel.ce_threshold.map_or(0, Duration::as_nanos),
        }
    }
}

impl From<AirqFqParams> for FqParams {
    fn from(p: AirqFqParams) -> Self {
        FqParams {
            flows: p.flows,
            limit_packets: p.limit_packets,
            memory_limit_bytes: p.memory_limit_bytes,
            quantum: if p.quantum_in_frames {
                Quantum::Frames(p.quantum)
            } else {
                Quantum::Bytes(p.quantum)
            },
            codel: CodelParams {
                target: Duration::from_nanos(p.codel_target_ns),
                interval: Duration::from_nanos(p.codel_interval_ns),
                ecn: p.codel_ecn,
                mtu_bytes: p.codel_mtu_bytes,
                ce_threshold: (p.codel_ce_threshold_ns > 0)
                    .then(|| Duration::from_nanos(p.codel_ce_threshold_ns)),
            },
            // A cost, not a behaviour: C callers get the faster search.
            fattest: FattestSearch::default(),
        }
    }
}

/// Counters of one tin (nl80211's per-TXQ statistics). All counters are 64-bit.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AirqTinStats {
    pub backlog_bytes: u64,
    pub backlog_packets: u64,
    /// Flow queues bound to this tin so far.
    pub flows: u64,
    /// Packets that went to the tin's default queue because their flow queue was
    /// bound to another tin.
    pub collisions: u64,
    /// Global-limit drop rounds that hit this tin's flows.
    pub overlimit: u64,
    /// Of which caused by the memory limit.
    pub overmemory: u64,
    /// Packets dropped from this tin by the global limits.
    pub limit_drops: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
    /// CoDel drops and their bytes.
    pub codel_drops: u64,
    pub codel_drop_bytes: u64,
    /// CE marks by the control law, and by the CE threshold.
    pub codel_ecn_marks: u64,
    pub codel_ce_marks: u64,
}

/// Counters of the whole structure (nl80211's per-radio TXQ statistics).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AirqFqStats {
    pub backlog_bytes: u64,
    pub backlog_packets: u64,
    pub memory_usage_bytes: u64,
    pub overlimit: u64,
    pub overmemory: u64,
    pub limit_drops: u64,
    pub collisions: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
    /// CoDel counters summed over all tins, removed ones included.
    pub codel_drops: u64,
    pub codel_drop_bytes: u64,
    pub codel_ecn_marks: u64,
    pub codel_ce_marks: u64,
    /// Tins that exist now.
    pub tins: u64,
    /// Size of the flow pool.
    pub max_flows: u64,
}

/// (drops, drop bytes, ECN marks, CE marks), widened.
fn codel_counters(c: &CodelStats) -> [u64; 4] {
    [
        u64::from(c.drop_count),
        u64::from(c.drop_bytes),
        u64::from(c.ecn_mark),
        u64::from(c.ce_mark),
    ]
}

impl From<TinStats> for AirqTinStats {
    fn from(s: TinStats) -> Self {
        let [codel_drops, codel_drop_bytes, codel_ecn_marks, codel_ce_marks] =
            codel_counters(&s.codel);
        AirqTinStats {
            backlog_bytes: u64::from(s.backlog_bytes),
            backlog_packets: u64::from(s.backlog_packets),
            flows: u64::from(s.flows),
            collisions: u64::from(s.collisions),
            overlimit: u64::from(s.overlimit),
            overmemory: u64::from(s.overmemory),
            limit_drops: u64::from(s.limit_drops),
            tx_bytes: u64::from(s.tx_bytes),
            tx_packets: u64::from(s.tx_packets),
            codel_drops,
            codel_drop_bytes,
            codel_ecn_marks,
            codel_ce_marks,
        }
    }
}

impl From<FqStats> for AirqFqStats {
    fn from(s: FqStats) -> Self {
        let [codel_drops, codel_drop_bytes, codel_ecn_marks, codel_ce_marks] =
            codel_counters(&s.codel);
        AirqFqStats {
            backlog_bytes: u64::from(s.backlog_bytes),
            backlog_packets: u64::from(s.backlog_packets),
            memory_usage_bytes: u64::from(s.memory_usage_bytes),
            overlimit: u64::from(s.overlimit),
            overmemory: u64::from(s.overmemory),
            limit_drops: u64::from(s.limit_drops),
            collisions: u64::from(s.collisions),
            tx_bytes: u64::from(s.tx_bytes),
            tx_packets: u64::from(s.tx_packets),
            codel_drops,
            codel_drop_bytes,
            codel_ecn_marks,
            codel_ce_marks,
            tins: u64::from(s.tins),
            max_flows: u64::from(s.max_flows),
        }
    }
}

/// Fills `*out` with mac80211's parameters (`ieee80211_txq_setup_flows`).
#[no_mangle]
pub unsafe extern "C" fn airq_fq_params_default(out: *mut AirqFqParams) -> AirqStatus {
    entry(|| {
        write_out(out, "out", FqParams::default().into())?;
        Ok(AIRQ_OK)
    })
}

/// Creates the queues with `params` (null: mac80211's defaults) and stores the handle
/// in `*out`. Free it with `airq_fq_free`.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_new(
    params: *const AirqFqParams,
    out: *mut *mut AirqFq,
) -> AirqStatus {
    entry(|| {
        let params = if params.is_null() {
            FqParams::default()
        } else {
            read_in(params, "params")?.into()
        };
        let fq = Fq::new(params).map_err(Error::invalid)?;
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let ptr = handle::create(FqState {
            fq,
            tins: Vec::new(),
        });
        write_out(out, "out", ptr.cast())?;
        Ok(AIRQ_OK)
    })
}

/// Frees the queues. Every packet still queued is first handed to `on_drop` (reason
/// `AIRQ_DROP_PURGED`); `on_drop` may be null only if none is queued. Null `fq` does
/// nothing. The handle is invalid afterwards.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_free(
    fq: *mut AirqFq,
    on_drop: AirqDropFn,
    ctx: *mut c_void,
) -> AirqStatus {
    entry(|| {
        if fq.is_null() {
            return Ok(AIRQ_OK);
        }
        {
            let mut s = handle::acquire(handle(fq))?;
            if on_drop.is_none() && s.fq.stats().backlog_packets > 0 {
                return Err(Error::null(
                    "on_drop (packets are still queued: they must be handed back)",
                ));
            }
            if let Some(cb) = on_drop {
                let on_drop = OnDrop::new(Some(cb), ctx)?;
                let tins: Vec<TinId> = s.fq.tins().collect();
                for tin in tins {
                    s.fq.purge(tin, |d| on_drop.call(d, tin.index() as u32))
                        .map_err(fq_error)?;
                }
            }
        }
        handle::destroy(handle(fq).cast_mut())?;
        Ok(AIRQ_OK)
    })
}

/// Adds a tin and stores its number in `*tin`.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_add_tin(fq: *mut AirqFq, tin: *mut u32) -> AirqStatus {
    entry(|| {
        let mut s = handle::acquire(handle(fq))?;
        if tin.is_null() {
            return Err(Error::null("tin"));
        }
        let id = s.fq.add_tin();
        let index = id.index();
        if s.tins.len() <= index {
            s.tins.resize(index + 1, None);
        }
        s.tins[index] = Some(id);
        write_out(tin, "tin", index as u32)?;
        Ok(AIRQ_OK)
    })
}

/// Removes a tin, handing every packet it held to `on_drop` (`AIRQ_DROP_PURGED`).
#[no_mangle]
pub unsafe extern "C" fn airq_fq_remove_tin(
    fq: *mut AirqFq,
    tin: u32,
    on_drop: AirqDropFn,
    ctx: *mut c_void,
) -> AirqStatus {
    entry(|| {
        let on_drop = OnDrop::new(on_drop, ctx)?;
        let mut s = handle::acquire(handle(fq))?;
        let id = s.tin(tin)?;
        s.fq.remove_tin(id, |d| on_drop.call(d, tin))
            .map_err(fq_error)?;
        s.tins[tin as usize] = None;
        Ok(AIRQ_OK)
    })
}

/// Queues `*packet` (copied) in `tin` at `now_ns`. If that exceeds a global limit,
/// packets are head-dropped from the fattest flow — maybe of another tin, maybe this
/// one — and handed to `on_drop` before this returns. On an error the packet was not
/// queued and stays the caller's.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_enqueue(
    fq: *mut AirqFq,
    tin: u32,
    packet: *const AirqPacket,
    now_ns: u64,
    on_drop: AirqDropFn,
    ctx: *mut c_void,
) -> AirqStatus {
    entry(|| {
        let on_drop = OnDrop::new(on_drop, ctx)?;
        let packet = read_in(packet, "packet")?;
        packet.validate()?;
        let mut s = handle::acquire(handle(fq))?;
        let id = s.tin(tin)?;
        s.fq.enqueue(id, packet, Instant::from_nanos(now_ns), |d| {
            let tin = d.tin.index() as u32;
            on_drop.call(d, tin)
        })
        .map_err(|e| fq_error(e.error))?;
        Ok(AIRQ_OK)
    })
}

/// Dequeues the next packet of `tin` at `now_ns` into `*packet`: `AIRQ_OK`, or
/// `AIRQ_EMPTY` when the tin has none. Packets CoDel drops on the way go to `on_drop`.
/// A dequeued packet's `ecn` may now be `AIRQ_ECN_CE`: mark its IP header so.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_dequeue(
    fq: *mut AirqFq,
    tin: u32,
    now_ns: u64,
    packet: *mut AirqPacket,
    on_drop: AirqDropFn,
    ctx: *mut c_void,
) -> AirqStatus {
    entry(|| {
        let on_drop = OnDrop::new(on_drop, ctx)?;
        if packet.is_null() {
            return Err(Error::null("packet"));
        }
        let mut s = handle::acquire(handle(fq))?;
        let id = s.tin(tin)?;
        let out =
            s.fq.dequeue(id, Instant::from_nanos(now_ns), |d| on_drop.call(d, tin))
                .map_err(fq_error)?;
        match out {
            Some(p) => {
                write_out(packet, "packet", p)?;
                Ok(AIRQ_OK)
            }
            None => Ok(AIRQ_EMPTY),
        }
    })
}

/// Hands every packet of `tin` to `on_drop` (`AIRQ_DROP_PURGED`); the tin stays.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_purge(
    fq: *mut AirqFq,
    tin: u32,
    on_drop: AirqDropFn,
    ctx: *mut c_void,
) -> AirqStatus {
    entry(|| {
        let on_drop = OnDrop::new(on_drop, ctx)?;
        let mut s = handle::acquire(handle(fq))?;
        let id = s.tin(tin)?;
        s.fq.purge(id, |d| on_drop.call(d, tin)).map_err(fq_error)?;
        Ok(AIRQ_OK)
    })
}

/// Stores in `*has_queue` whether `tin` holds packets (`ieee80211_txq_has_queue`): what
/// the driver tells the scheduler when it returns the TXQ.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_has_queue(
    fq: *const AirqFq,
    tin: u32,
    has_queue: *mut bool,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(fq))?;
        let queued = s.fq.has_queue(s.tin(tin)?).map_err(fq_error)?;
        write_out(has_queue, "has_queue", queued)?;
        Ok(AIRQ_OK)
    })
}

/// Stores the counters of `tin` in `*stats`.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_get_tin_stats(
    fq: *const AirqFq,
    tin: u32,
    stats: *mut AirqTinStats,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(fq))?;
        let t = s.fq.tin_stats(s.tin(tin)?).map_err(fq_error)?;
        write_out(stats, "stats", t.into())?;
        Ok(AIRQ_OK)
    })
}

/// Stores the counters of the whole structure in `*stats`.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_get_stats(
    fq: *const AirqFq,
    stats: *mut AirqFqStats,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(handle(fq))?;
        write_out(stats, "stats", s.fq.stats().into())?;
        Ok(AIRQ_OK)
    })
}
