//! The caller's packets as the queues see them, and how undelivered ones come back.
//!
//! A packet crosses the boundary as an [`AirqPacket`]: an opaque `cookie` (the driver's
//! `sk_buff`, mbuf or descriptor — the library never dereferences or frees it) with
//! what the queues need to know about it (`include/net/fq.h` reads no more): length,
//! memory held, flow hash and the IP ECN field. The queues store the struct by value,
//! stamp its enqueue time and may set its ECN field to CE (RFC 3168) — the driver
//! applies that mark to the real header when it dequeues the packet.
//!
//! Every packet that is not dequeued comes back through the caller's [`AirqDropFn`] as
//! an [`AirqDropped`] with the reason, during the call that dropped it.

use crate::status::{Error, Result};
use airq::{DropReason, Dropped, Instant, Packet};
use std::ffi::c_void;

/// ECN field: Not ECN-Capable Transport (RFC 3168 §5).
pub const AIRQ_ECN_NOT_ECT: u8 = 0;
/// ECN field: ECT(1).
pub const AIRQ_ECN_ECT1: u8 = 1;
/// ECN field: ECT(0).
pub const AIRQ_ECN_ECT0: u8 = 2;
/// ECN field: Congestion Experienced.
pub const AIRQ_ECN_CE: u8 = 3;

/// Drop reason: CoDel dropped it at dequeue (RFC 8289).
pub const AIRQ_DROP_CODEL: u8 = 0;
/// Drop reason: the global packet limit; head-dropped from the fattest flow.
pub const AIRQ_DROP_OVERLIMIT: u8 = 1;
/// Drop reason: the global memory limit; head-dropped from the fattest flow.
pub const AIRQ_DROP_OVERMEMORY: u8 = 2;
/// Drop reason: its tin was purged, removed, or the queues freed.
pub const AIRQ_DROP_PURGED: u8 = 3;

/// A packet of the caller's. Passed in by value; handed back by value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqPacket {
    /// The caller's packet: never dereferenced or freed by the library.
    pub cookie: *mut c_void,
    /// Length in bytes (what byte quanta and backlogs count; Linux `skb->len`).
    pub len_bytes: u32,
    /// Memory the packet holds, counted against the memory limit (`skb->truesize`);
    /// 0 means `len_bytes`.
    pub truesize_bytes: u32,
    /// Hash of the flow's 5-tuple (`skb_get_hash`): packets of one flow share it.
    pub flow_hash: u32,
    /// The IP ECN field, `AIRQ_ECN_*`. The queues may set it to `AIRQ_ECN_CE`.
    pub ecn: u8,
    /// When it was enqueued (set by the queues; ignored on input).
    pub enqueue_time_ns: u64,
}

impl AirqPacket {
    /// Checks the fields a caller can get wrong.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.ecn > AIRQ_ECN_CE {
            return Err(Error::invalid(format_args!(
                "packet ecn must be 0-3 (AIRQ_ECN_*), got {}",
                self.ecn
            )));
        }
        Ok(())
    }
}

impl Packet for AirqPacket {
    fn len_bytes(&self) -> u32 {
        self.len_bytes
    }
    fn truesize_bytes(&self) -> u32 {
        if self.truesize_bytes == 0 {
            self.len_bytes
        } else {
            self.truesize_bytes
        }
    }
    fn flow_hash(&self) -> u32 {
        self.flow_hash
    }
    fn enqueue_time(&self) -> Instant {
        Instant::from_nanos(self.enqueue_time_ns)
    }
    fn set_enqueue_time(&mut self, now: Instant) {
        self.enqueue_time_ns = now.as_nanos();
    }
    fn ecn_capable(&self) -> bool {
        self.ecn != AIRQ_ECN_NOT_ECT
    }
    fn set_ce(&mut self) {
        self.ecn = AIRQ_ECN_CE;
    }
}

/// A packet handed back undelivered.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AirqDropped {
    /// The packet, as it was queued (its cookie is the caller's to free).
    pub packet: AirqPacket,
    /// Why, `AIRQ_DROP_*`.
    pub reason: u8,
    /// The tin it was queued in.
    pub tin: u32,
}

/// Receives each packet the queues drop, during the call that drops it: `ctx` is the
/// pointer given to that call, `dropped` is valid only until the callback returns. It
/// may free the packet; it must not call into the same handle (that call fails with
/// `AIRQ_ERR_BUSY`) and must not unwind or `longjmp` out.
pub type AirqDropFn = Option<unsafe extern "C" fn(ctx: *mut c_void, dropped: *const AirqDropped)>;

/// A drop callback with its context, checked non-null.
#[derive(Clone, Copy)]
pub(crate) struct OnDrop {
    callback: unsafe extern "C" fn(*mut c_void, *const AirqDropped),
    ctx: *mut c_void,
}

impl OnDrop {
    pub(crate) fn new(callback: AirqDropFn, ctx: *mut c_void) -> Result<Self> {
        let callback = callback.ok_or_else(|| Error::null("on_drop"))?;
        Ok(OnDrop { callback, ctx })
    }

    /// Hands one dropped packet to the caller; `tin` is the caller's number of its tin.
    pub(crate) fn call(&self, dropped: Dropped<AirqPacket>, tin: u32) {
        let reason = match dropped.reason {
            DropReason::Codel => AIRQ_DROP_CODEL,
            DropReason::Overlimit => AIRQ_DROP_OVERLIMIT,
            DropReason::Overmemory => AIRQ_DROP_OVERMEMORY,
            // Filtering is not exposed; a filtered packet is gone all the same.
            DropReason::Purged | DropReason::Filtered => AIRQ_DROP_PURGED,
        };
        let out = AirqDropped {
            packet: dropped.packet,
            reason,
            tin,
        };
        // SAFETY: the caller gave a callback of this signature; `out` lives across it.
        unsafe { (self.callback)(self.ctx, &out) };
    }
}
