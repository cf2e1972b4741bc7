//! The contract of the header, through the exported functions as C calls them: every
//! packet comes back, errors are codes with messages, bad handles are refused, a call
//! from a drop callback into its own handle is refused, printers behave like snprintf.

use airq_ffi::aql::*;
use airq_ffi::fq::*;
use airq_ffi::packet::*;
use airq_ffi::print::*;
use airq_ffi::rate::*;
use airq_ffi::sched::*;
use airq_ffi::status::*;
use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

fn last_error() -> String {
    unsafe { CStr::from_ptr(airq_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn packet(id: usize, flow_hash: u32, len_bytes: u32) -> AirqPacket {
    AirqPacket {
        cookie: id as *mut c_void,
        len_bytes,
        truesize_bytes: 0,
        flow_hash,
        ecn: AIRQ_ECN_NOT_ECT,
        enqueue_time_ns: 0,
    }
}

/// The drop callback's context: cookies handed back, and what a call back into the
/// queues returned.
#[derive(Default)]
struct Drops {
    cookies: Vec<usize>,
    reasons: Vec<u8>,
    fq: Option<*mut AirqFq>,
    reentry: Vec<AirqStatus>,
}

unsafe extern "C" fn collect(ctx: *mut c_void, dropped: *const AirqDropped) {
    let drops = unsafe { &mut *ctx.cast::<Drops>() };
    let d = unsafe { &*dropped };
    drops.cookies.push(d.packet.cookie as usize);
    drops.reasons.push(d.reason);
    if let Some(fq) = drops.fq {
        let mut has_queue = false;
        drops
            .reentry
            .push(unsafe { airq_fq_has_queue(fq, d.tin, &mut has_queue) });
    }
}

fn ctx(drops: &mut Drops) -> *mut c_void {
    (drops as *mut Drops).cast()
}

fn new_fq(limit_packets: u32) -> *mut AirqFq {
    let mut params = std::mem::MaybeUninit::<AirqFqParams>::uninit();
    assert_eq!(
        unsafe { airq_fq_params_default(params.as_mut_ptr()) },
        AIRQ_OK
    );
    let mut params = unsafe { params.assume_init() };
    params.limit_packets = limit_packets;
    let mut fq = null_mut();
    assert_eq!(unsafe { airq_fq_new(&params, &mut fq) }, AIRQ_OK);
    fq
}

#[test]
fn every_packet_comes_back_dequeued_or_dropped() {
    let fq = new_fq(64);
    let mut drops = Drops::default();
    let mut tins = [0u32; 3];
    for tin in &mut tins {
        assert_eq!(unsafe { airq_fq_add_tin(fq, tin) }, AIRQ_OK);
    }
    let mut dequeued = Vec::new();
    let mut next_id = 1;
    for step in 0..2000u64 {
        let now = step * 100_000;
        let tin = tins[(step % 3) as usize];
        let p = packet(next_id, (step % 7) as u32 * 0x1234_5678, 1500);
        next_id += 1;
        let rc = unsafe { airq_fq_enqueue(fq, tin, &p, now, Some(collect), ctx(&mut drops)) };
        assert_eq!(rc, AIRQ_OK, "{}", last_error());
        if step % 4 == 0 {
            let mut out = packet(0, 0, 0);
            let rc =
                unsafe { airq_fq_dequeue(fq, tin, now, &mut out, Some(collect), ctx(&mut drops)) };
            if rc == AIRQ_OK {
                assert!(out.enqueue_time_ns <= now);
                dequeued.push(out.cookie as usize);
            } else {
                assert_eq!(rc, AIRQ_EMPTY);
            }
        }
    }
    assert!(
        drops.reasons.contains(&AIRQ_DROP_OVERLIMIT),
        "the limit dropped"
    );
    let mut stats = AirqFqStats::default();
    assert_eq!(unsafe { airq_fq_get_stats(fq, &mut stats) }, AIRQ_OK);
    assert!(stats.backlog_packets > 0 && stats.backlog_packets <= 64);
    assert_eq!(
        unsafe { airq_fq_free(fq, Some(collect), ctx(&mut drops)) },
        AIRQ_OK
    );
    let mut all: Vec<usize> = dequeued.into_iter().chain(drops.cookies).collect();
    all.sort_unstable();
    assert_eq!(
        all,
        (1..next_id).collect::<Vec<_>>(),
        "each packet exactly once"
    );
}

#[test]
fn a_drop_callback_calling_into_its_own_handle_is_refused() {
    let fq = new_fq(4);
    let mut tin = 0;
    assert_eq!(unsafe { airq_fq_add_tin(fq, &mut tin) }, AIRQ_OK);
    let mut drops = Drops {
        fq: Some(fq),
        ..Drops::default()
    };
    for i in 0..8 {
        let p = packet(i + 1, 42, 100);
        let rc = unsafe { airq_fq_enqueue(fq, tin, &p, 0, Some(collect), ctx(&mut drops)) };
        assert_eq!(rc, AIRQ_OK);
    }
    assert!(!drops.reentry.is_empty());
    assert!(drops.reentry.iter().all(|&rc| rc == AIRQ_ERR_BUSY));
    assert!(
        last_error().contains("in use by another call"),
        "{}",
        last_error()
    );
    // The handle is whole and usable after the callback returned.
    let mut has_queue = false;
    assert_eq!(
        unsafe { airq_fq_has_queue(fq, tin, &mut has_queue) },
        AIRQ_OK
    );
    assert!(has_queue);
    drops.fq = None;
    assert_eq!(
        unsafe { airq_fq_free(fq, Some(collect), ctx(&mut drops)) },
        AIRQ_OK
    );
    assert_eq!(drops.cookies.len(), 8);
}

#[test]
fn null_freed_and_foreign_handles_are_errors() {
    let mut has_queue = false;
    assert_eq!(
        unsafe { airq_fq_has_queue(null(), 0, &mut has_queue) },
        AIRQ_ERR_NULL
    );
    assert_eq!(last_error(), "airq_fq is null");

    let fq = new_fq(8);
    let mut sched = null_mut();
    assert_eq!(unsafe { airq_sched_new(null(), &mut sched) }, AIRQ_OK);
    // An fq handle passed as an AQL gate, and as a scheduler.
    let rc = unsafe { airq_sched_schedule_start(sched, AIRQ_AC_BE, fq.cast()) };
    assert_eq!(rc, AIRQ_ERR_INVALID_HANDLE);
    assert!(last_error().contains("not a live airq_aql handle"));
    assert_eq!(
        unsafe { airq_sched_add_station(fq.cast(), 1) },
        AIRQ_ERR_INVALID_HANDLE
    );
    // A pointer that never was a handle is not dereferenced.
    let mut junk = [0u64; 4];
    assert_eq!(
        unsafe { airq_fq_has_queue(junk.as_mut_ptr().cast(), 0, &mut has_queue) },
        AIRQ_ERR_INVALID_HANDLE
    );

    // Freed: refused, not used; freeing twice is refused too; free(NULL) is fine.
    assert_eq!(unsafe { airq_fq_free(fq, None, null_mut()) }, AIRQ_OK);
    assert_eq!(
        unsafe { airq_fq_has_queue(fq, 0, &mut has_queue) },
        AIRQ_ERR_INVALID_HANDLE
    );
    assert_eq!(
        unsafe { airq_fq_free(fq, None, null_mut()) },
        AIRQ_ERR_INVALID_HANDLE
    );
    assert_eq!(
        unsafe { airq_fq_free(null_mut(), None, null_mut()) },
        AIRQ_OK
    );
    assert_eq!(unsafe { airq_sched_free(sched) }, AIRQ_OK);
    assert_eq!(unsafe { airq_sched_free(sched) }, AIRQ_ERR_INVALID_HANDLE);
}

#[test]
fn arguments_out_of_range_are_errors_with_messages() {
    let fq = new_fq(8);
    let mut tin = 0;
    assert_eq!(unsafe { airq_fq_add_tin(fq, &mut tin) }, AIRQ_OK);
    let mut drops = Drops::default();
    let mut p = packet(1, 1, 100);
    p.ecn = 4;
    let rc = unsafe { airq_fq_enqueue(fq, tin, &p, 0, Some(collect), ctx(&mut drops)) };
    assert_eq!(rc, AIRQ_ERR_INVALID_ARGUMENT);
    assert!(last_error().contains("ecn must be 0-3"));
    p.ecn = AIRQ_ECN_ECT0;
    let rc = unsafe { airq_fq_enqueue(fq, tin + 1, &p, 0, Some(collect), ctx(&mut drops)) };
    assert_eq!(rc, AIRQ_ERR_UNKNOWN_TIN);
    let rc = unsafe { airq_fq_enqueue(fq, tin, &p, 0, None, null_mut()) };
    assert_eq!(rc, AIRQ_ERR_NULL);
    assert_eq!(last_error(), "on_drop is null");
    // A removed tin is unknown; its number is reused, like a file descriptor.
    assert_eq!(
        unsafe { airq_fq_remove_tin(fq, tin, Some(collect), ctx(&mut drops)) },
        AIRQ_OK
    );
    let mut stats = AirqTinStats::default();
    assert_eq!(
        unsafe { airq_fq_get_tin_stats(fq, tin, &mut stats) },
        AIRQ_ERR_UNKNOWN_TIN
    );
    let mut again = u32::MAX;
    assert_eq!(unsafe { airq_fq_add_tin(fq, &mut again) }, AIRQ_OK);
    assert_eq!(again, tin);
    assert_eq!(unsafe { airq_fq_free(fq, None, null_mut()) }, AIRQ_OK);

    let mut params = std::mem::MaybeUninit::<AirqFqParams>::uninit();
    unsafe { airq_fq_params_default(params.as_mut_ptr()) };
    let mut params = unsafe { params.assume_init() };
    params.flows = 0;
    let mut out = null_mut();
    assert_eq!(
        unsafe { airq_fq_new(&params, &mut out) },
        AIRQ_ERR_INVALID_ARGUMENT
    );
    assert!(out.is_null(), "no handle on an error");
    assert!(last_error().contains("flows"), "{}", last_error());

    let mut sched = null_mut();
    assert_eq!(unsafe { airq_sched_new(null(), &mut sched) }, AIRQ_OK);
    let mut txq = 0;
    assert_eq!(
        unsafe { airq_sched_add_txq(sched, 7, 0, &mut txq) },
        AIRQ_ERR_UNKNOWN_STATION
    );
    assert_eq!(unsafe { airq_sched_add_station(sched, 7) }, AIRQ_OK);
    assert_eq!(
        unsafe { airq_sched_add_station(sched, 7) },
        AIRQ_ERR_DUPLICATE_STATION
    );
    assert_eq!(
        unsafe { airq_sched_add_txq(sched, 7, 16, &mut txq) },
        AIRQ_ERR_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { airq_sched_schedule_start(sched, 4, null_mut()) },
        AIRQ_ERR_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { airq_sched_return_txq(sched, 99, true, 0) },
        AIRQ_ERR_UNKNOWN_TXQ
    );
    assert_eq!(unsafe { airq_sched_free(sched) }, AIRQ_OK);

    let mut aql = null_mut();
    assert_eq!(unsafe { airq_aql_new(null(), &mut aql) }, AIRQ_OK);
    let rate = AirqRate {
        phy: AIRQ_PHY_VHT,
        mcs: 10,
        nss: 1,
        short_gi: false,
        width_mhz: 80,
        he_gi_ns: 0,
        legacy_kbps: 0,
        short_preamble: false,
    };
    let mut us = 0;
    assert_eq!(
        unsafe { airq_aql_estimate_us(aql, &rate, 1500, true, &mut us) },
        AIRQ_ERR_INVALID_ARGUMENT
    );
    assert!(last_error().starts_with("rate: "), "{}", last_error());
    let rate = AirqRate { mcs: 9, ..rate };
    assert_eq!(
        unsafe { airq_aql_estimate_us(aql, &rate, 1500, true, &mut us) },
        AIRQ_OK
    );
    assert!(us > 0 && us % 4 == 0, "the kernel's 4 µs units: {us}");
    assert_eq!(unsafe { airq_aql_free(aql) }, AIRQ_OK);

    let name = |s| {
        unsafe { CStr::from_ptr(airq_status_str(s)) }
            .to_str()
            .unwrap()
    };
    assert_eq!(name(AIRQ_ERR_UNKNOWN_TIN), "unknown tin");
    assert_eq!(name(-1000), "unknown status");
}

#[test]
fn scheduler_with_aql_hands_out_txqs_and_printers_write_like_snprintf() {
    let mut sched = null_mut();
    let mut aql = null_mut();
    assert_eq!(unsafe { airq_sched_new(null(), &mut sched) }, AIRQ_OK);
    assert_eq!(unsafe { airq_aql_new(null(), &mut aql) }, AIRQ_OK);
    let mut txqs = [0u32; 2];
    for (i, txq) in txqs.iter_mut().enumerate() {
        let station = i as u32 + 1;
        assert_eq!(unsafe { airq_sched_add_station(sched, station) }, AIRQ_OK);
        assert_eq!(unsafe { airq_aql_register_station(aql, station) }, AIRQ_OK);
        assert_eq!(
            unsafe { airq_sched_add_txq(sched, station, 0, txq) },
            AIRQ_OK
        );
        assert_eq!(
            unsafe { airq_sched_return_txq(sched, *txq, true, 0) },
            AIRQ_OK
        );
    }
    // Station 1 has 13 ms in flight, over its 12 ms high limit: station 2 goes first.
    assert_eq!(
        unsafe { airq_aql_charge(aql, 1, AIRQ_AC_BE, 13_000) },
        AIRQ_OK
    );
    assert_eq!(
        unsafe { airq_sched_schedule_start(sched, AIRQ_AC_BE, aql) },
        AIRQ_OK
    );
    let mut txq = u32::MAX;
    assert_eq!(
        unsafe { airq_sched_next_txq(sched, AIRQ_AC_BE, aql, 0, &mut txq) },
        AIRQ_OK
    );
    assert_eq!(txq, txqs[1]);
    let (mut station, mut tid) = (0, 0);
    assert_eq!(
        unsafe { airq_sched_txq_owner(sched, txq, &mut station, &mut tid) },
        AIRQ_OK
    );
    assert_eq!((station, tid), (2, 0));
    assert_eq!(
        unsafe { airq_sched_next_txq(sched, AIRQ_AC_BE, aql, 0, &mut txq) },
        AIRQ_EMPTY
    );
    assert_eq!(
        unsafe { airq_sched_register_airtime(sched, 2, 0, 500, 0, 0) },
        AIRQ_OK
    );
    let mut pending = 0;
    assert_eq!(
        unsafe { airq_aql_pending_us(aql, AIRQ_NO_STATION, u8::MAX, &mut pending) },
        AIRQ_OK
    );
    assert_eq!(pending, 13_000);

    // Printers: size query, too small (truncated, NUL-terminated), exact.
    let mut len = 0;
    let rc = unsafe { airq_aql_print_pending(aql, null_mut(), 0, &mut len) };
    assert_eq!(rc, AIRQ_ERR_BUFFER_TOO_SMALL);
    let mut small = [0x55 as std::ffi::c_char; 8];
    let rc = unsafe { airq_aql_print_pending(aql, small.as_mut_ptr(), small.len(), &mut len) };
    assert_eq!(rc, AIRQ_ERR_BUFFER_TOO_SMALL);
    let text = unsafe { CStr::from_ptr(small.as_ptr()) }.to_str().unwrap();
    assert_eq!(text, "AC     ", "7 bytes and the NUL");
    let mut buf = vec![0 as std::ffi::c_char; len + 1];
    let rc = unsafe { airq_aql_print_pending(aql, buf.as_mut_ptr(), buf.len(), &mut len) };
    assert_eq!(rc, AIRQ_OK);
    let text = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert_eq!(text.len(), len);
    assert!(text.contains("BE     13000 us"), "{text}");

    let mut buf = vec![0 as std::ffi::c_char; 512];
    let rc = unsafe {
        airq_sched_print_station_airtime(sched, 2, buf.as_mut_ptr(), buf.len(), null_mut())
    };
    assert_eq!(rc, AIRQ_OK);
    let text = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert!(text.contains("TX: 500 us"), "{text}");

    let fq = new_fq(8);
    let mut tin = 0;
    assert_eq!(unsafe { airq_fq_add_tin(fq, &mut tin) }, AIRQ_OK);
    let tins = [AirqTinTid { tin, tid: 0 }];
    let rc = unsafe {
        airq_print_iw_station(
            sched,
            fq,
            2,
            tins.as_ptr(),
            tins.len(),
            buf.as_mut_ptr(),
            buf.len(),
            null_mut(),
        )
    };
    assert_eq!(rc, AIRQ_OK, "{}", last_error());
    let text = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert!(text.contains("\ttx duration:\t500 us"), "{text}");
    assert_eq!(unsafe { airq_fq_free(fq, None, null_mut()) }, AIRQ_OK);
    assert_eq!(unsafe { airq_sched_free(sched) }, AIRQ_OK);
    assert_eq!(unsafe { airq_aql_free(aql) }, AIRQ_OK);
}
