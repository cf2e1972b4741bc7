//! Tests of the AP's transmit path, driven by a tiny fake channel: take the next PPDU of
//! an AC, mark its MPDUs received or not, hand it back with its own duration as airtime.

use super::config::{
    fq_codel_defaults, ATH10K_MAX_PENDING_FRAMES, ATH9K_TXQ_MAX_PENDING, PFIFO_FAST_LIMIT_PACKETS,
};
use super::*;
use crate::mac::frame::Ppdu;
use crate::mac::link::{BssConfig, StationLink};
use crate::mac::txpath::{DropCause, TxOutput, TxPath};
use crate::net::packet::{FlowIndex, RelayTo, SimPacket};
use airq::aql::AqlParams;
use airq::fq::FqParams;
use airq::phy::{Band, ChannelWidth, GuardInterval, Rate};
use airq::{Ac, Duration, Ecn, Instant, StationId, Tid};
use proptest::prelude::*;

mod admission;
mod conservation;
mod errors;
mod firmware;
mod qos_aggregate;
mod queues;
mod retry_time;
mod round_robin;
mod scheduler;
mod softmac;
mod station_codel;

// ---- fixtures -------------------------------------------------------------------------

fn bss() -> BssConfig {
    BssConfig::ofdm(Band::Ghz5)
}

/// HT20 MCS 0, long GI: 6.5 Mbit/s.
fn slow_link() -> StationLink {
    StationLink::new(Rate::ht(0, ChannelWidth::Mhz20, GuardInterval::Long).unwrap())
}

/// HT20 MCS 7, long GI: 65 Mbit/s.
fn ht_link() -> StationLink {
    StationLink::new(Rate::ht(7, ChannelWidth::Mhz20, GuardInterval::Long).unwrap())
}

/// VHT80 MCS 9, one stream, short GI: 433 Mbit/s.
fn fast_link() -> StationLink {
    StationLink::new(Rate::vht(9, 1, ChannelWidth::Mhz80, GuardInterval::Short).unwrap())
}

fn ap(config: &ApConfig, links: &[StationLink]) -> ApTx {
    ApTx::new(config, &bss(), links).unwrap()
}

fn preset(name: &str) -> ApConfig {
    ApConfig::preset(name).unwrap()
}

fn tid(t: u8) -> Tid {
    Tid::new(t).unwrap()
}

/// Makes packets with unique ids.
#[derive(Default)]
struct Source {
    next_id: u32,
}

impl Source {
    fn packet(&mut self, station: StationId, tid: u8, flow: u32, len_bytes: u32) -> SimPacket {
        self.next_id += 1;
        SimPacket {
            id: self.next_id,
            flow: FlowIndex(flow),
            station,
            uplink: false,
            relay_to: RelayTo::NONE,
            len_bytes,
            tid: Tid::new(tid).unwrap(),
            flow_hash: flow.wrapping_mul(0x9E37_79B9) ^ (station.0 << 7),
            ecn: Ecn::NotEct,
            created: Instant::ZERO,
            payload: crate::net::packet::Payload::Udp,
            airtime_est_us: 0,
            enqueue_time: Instant::ZERO,
        }
    }
}

/// Takes the next PPDU of `ac`, marks MPDU `i` received unless `fails(i)`, completes it
/// after its own duration. Returns the PPDU's station and duration, or `None` if the AP
/// had nothing to send.
fn transmit(
    ap: &mut ApTx,
    ac: Ac,
    now: &mut Instant,
    out: &mut TxOutput,
    mut fails: impl FnMut(usize) -> bool,
) -> Option<(StationId, Duration)> {
    if !ap.has_frames(ac) {
        return None;
    }
    let mut ppdu = ap.next_ppdu(ac, *now)?;
    for (i, m) in ppdu.mpdus.iter_mut().enumerate() {
        m.ok = !fails(i);
    }
    let station = match ppdu.dst {
        crate::net::packet::NodeId::Sta(s) => s,
        crate::net::packet::NodeId::Ap => panic!("AP sent to itself"),
    };
    let d = ppdu.duration;
    *now += d;
    ap.tx_done_into(ppdu, d, *now, out);
    // The driver's refill comes one host latency later.
    *now += ap.config().host_latency;
    wake_due(ap, *now, out);
    Some((station, d))
}

/// Runs the AP's deferred work due by `now` (what the simulator's event loop does at
/// the instants `poll_at` names).
fn wake_due(ap: &mut ApTx, now: Instant, out: &mut TxOutput) {
    for _ in 0..100 {
        match ap.poll_at(now) {
            Some(t) if t <= now => ap.handle_timeout_into(now, out),
            _ => return,
        }
    }
    panic!("poll_at stays due after handle_timeout");
}

/// Sends everything with a perfect channel, waking the AP when it asks; panics if the AP
/// stops offering frames while still holding packets.
fn drain(ap: &mut ApTx, now: &mut Instant, out: &mut TxOutput) {
    for _ in 0..1_000_000 {
        let mut sent = false;
        for ac in Ac::ALL {
            sent |= transmit(ap, ac, now, out, |_| false).is_some();
        }
        if sent {
            continue;
        }
        let Some(t) = ap.poll_at(*now) else {
            break;
        };
        *now = t.max(*now);
        wake_due(ap, *now, out);
    }
    let left = ap.backlog().total();
    assert_eq!(left.packets(), 0, "stuck: {left:?}");
}

fn conserved(ap: &ApTx) {
    let t = ap.total_stats();
    let b = ap.backlog().total();
    assert_eq!(
        t.enqueued_packets,
        t.delivered_packets + t.drops.total() + b.packets()
    );
}
