//! Printers: the handles' statistics as text in the formats Linux tools print them
//! (airq's [`airq::report`]: mac80211 debugfs `aqm`, `airtime`, `aql`, `aql_pending`
//! and `iw station dump`), so people who know those read a C driver's numbers without
//! a legend.
//!
//! Every printer writes like `snprintf`: at most `buf_len` bytes including the closing
//! NUL into `buf` (which may be null when `buf_len` is 0), and the length of the whole
//! text, without the NUL, into `*len` (may be null). If the text did not fit, it
//! returns `AIRQ_ERR_BUFFER_TOO_SMALL` and `buf` holds its beginning: call again with
//! `*len + 1` bytes.

use crate::aql::{self, AirqAql};
use crate::fq::{self, AirqFq};
use crate::handle;
use crate::sched::{self, sched_error, AirqSched};
use crate::status::{
    entry, write_out, AirqStatus, Error, Result, AIRQ_ERR_BUFFER_TOO_SMALL, AIRQ_OK,
};
use airq::report::{IwStation, PhyAqlPending, PhyAqm, StationAirtime, StationAql, StationAqm};
use airq::{StationId, Tid, TinStats};
use std::ffi::c_char;

/// One TXQ of a station for the per-station printers: the caller's tin holding its
/// packets, and its TID.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqTinTid {
    pub tin: u32,
    pub tid: u8,
}

/// Copies `text` into the caller's buffer as the module documentation says.
fn write_text(text: &str, buf: *mut c_char, buf_len: usize, len: *mut usize) -> Result<AirqStatus> {
    if !len.is_null() {
        write_out(len, "len", text.len())?;
    }
    if buf_len == 0 {
        return if text.is_empty() && buf.is_null() {
            Ok(AIRQ_OK)
        } else {
            Err(too_small(text.len()))
        };
    }
    if buf.is_null() {
        return Err(Error::null("buf (with buf_len > 0)"));
    }
    let n = text.len().min(buf_len - 1);
    // SAFETY: the caller promises `buf` has `buf_len` writable bytes; we write `n + 1`
    // ≤ `buf_len` of them, from a string that does not overlap the caller's buffer.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
    if n < text.len() {
        return Err(too_small(text.len()));
    }
    Ok(AIRQ_OK)
}

fn too_small(len: usize) -> Error {
    Error::new(
        AIRQ_ERR_BUFFER_TOO_SMALL,
        format_args!("the text needs a buffer of {} bytes", len + 1),
    )
}

/// The caller's array of `n` tin-TID pairs, with each tin's statistics.
fn tin_stats(fq: &fq::FqState, tins: *const AirqTinTid, n: usize) -> Result<Vec<(Tid, TinStats)>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if tins.is_null() {
        return Err(Error::null("tins"));
    }
    if !tins.is_aligned() || n > isize::MAX as usize / size_of::<AirqTinTid>() {
        return Err(Error::invalid("tins is misaligned or n is too large"));
    }
    // SAFETY: non-null, aligned, not too long; the caller promises `n` elements.
    let pairs = unsafe { std::slice::from_raw_parts(tins, n) };
    pairs
        .iter()
        .map(|p| {
            let tid = sched::tid(p.tid)?;
            let stats = fq.fq.tin_stats(fq.tin(p.tin)?).map_err(fq::fq_error)?;
            Ok((tid, stats))
        })
        .collect()
}

/// The radio's debugfs `aqm`: the queues' counters and limits.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_print_aqm(
    fq: *const AirqFq,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(fq::handle(fq))?;
        let text = PhyAqm {
            stats: &s.fq.stats(),
            params: s.fq.params(),
        }
        .to_string();
        write_text(&text, buf, buf_len, len)
    })
}

/// A station's debugfs `aqm`: one line per TXQ, for the `n` tins of `tins`.
#[no_mangle]
pub unsafe extern "C" fn airq_fq_print_station_aqm(
    fq: *const AirqFq,
    tins: *const AirqTinTid,
    n: usize,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(fq::handle(fq))?;
        let tids = tin_stats(&s, tins, n)?;
        let text = StationAqm { tids: &tids }.to_string();
        write_text(&text, buf, buf_len, len)
    })
}

/// A station's debugfs `airtime`: airtime used, weight, deficits.
#[no_mangle]
pub unsafe extern "C" fn airq_sched_print_station_airtime(
    sched: *const AirqSched,
    station: u32,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(sched::handle(sched))?;
        let stats = s
            .sched
            .station_stats(StationId(station))
            .map_err(sched_error)?;
        let text = StationAirtime(&stats).to_string();
        write_text(&text, buf, buf_len, len)
    })
}

/// The airtime and TXQ lines of `iw dev … station dump -v` for a station whose TXQs'
/// packets are in the `n` tins of `tins`.
#[no_mangle]
pub unsafe extern "C" fn airq_print_iw_station(
    sched: *const AirqSched,
    fq: *const AirqFq,
    station: u32,
    tins: *const AirqTinTid,
    n: usize,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(sched::handle(sched))?;
        let f = handle::acquire(fq::handle(fq))?;
        let airtime = s
            .sched
            .station_stats(StationId(station))
            .map_err(sched_error)?;
        let tids = tin_stats(&f, tins, n)?;
        let text = IwStation {
            airtime: &airtime,
            tids: &tids,
        }
        .to_string();
        write_text(&text, buf, buf_len, len)
    })
}

/// The radio's debugfs `aql_pending`: airtime pending in the hardware per AC.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_print_pending(
    aql: *const AirqAql,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(aql::handle(aql))?;
        let text = PhyAqlPending(&s.aql).to_string();
        write_text(&text, buf, buf_len, len)
    })
}

/// A station's debugfs `aql`: its pending airtime and limits per AC.
#[no_mangle]
pub unsafe extern "C" fn airq_aql_print_station(
    aql: *const AirqAql,
    station: u32,
    buf: *mut c_char,
    buf_len: usize,
    len: *mut usize,
) -> AirqStatus {
    entry(|| {
        let s = handle::acquire(aql::handle(aql))?;
        let view = StationAql::new(&s.aql, StationId(station)).map_err(aql::aql_error)?;
        let text = view.to_string();
        write_text(&text, buf, buf_len, len)
    })
}
