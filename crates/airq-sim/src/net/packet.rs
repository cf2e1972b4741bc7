//! The packets the simulator moves: an IP packet with the fields the queues look at
//! (length, flow hash, ECN, TID), where it came from and where it goes (between the
//! server and a station, or between two stations through the AP), and when it was made,
//! so that delay can be measured end to end.

use crate::net::real_packet::RealPacket;
use crate::transport::tcp::Segment;
use airq::{Ecn, Instant, Packet, StationId, Tid};

/// A node of the BSS: the AP or a station (numbered from 0). The wired server is not a
/// node of the radio: it is reached through the AP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeId {
    Ap,
    Sta(StationId),
}

impl NodeId {
    /// Index into a table of nodes: the AP first, then the stations.
    pub fn index(self) -> usize {
        match self {
            NodeId::Ap => 0,
            NodeId::Sta(s) => 1 + s.index(),
        }
    }
}

/// A traffic flow of the scenario (index into its table of flows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FlowIndex(pub u32);

/// What a packet carries, for the application at its destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A UDP datagram.
    Udp,
    /// An ICMP echo request or reply; `sent` is the request's send time, which `ping`
    /// carries in the echo data.
    Echo {
        seq: u32,
        reply: bool,
        sent: Instant,
    },
    /// An RTP packet of a VoIP call leg.
    Voip { seq: u64 },
    /// A segment of TCP connection `conn` of the flow.
    Tcp { conn: u32, segment: Box<Segment> },
    /// A real packet of an emulated host (`airq emulate`), handed back on delivery.
    Real(Box<RealPacket>),
}

/// A station to relay to, or none: an `Option<StationId>` in four bytes instead of
/// eight, which keeps [`SimPacket`] in 64 (station identifiers are at most
/// [`StationId::MAX`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelayTo(u32);

impl RelayTo {
    pub const NONE: RelayTo = RelayTo(u32::MAX);

    pub fn get(self) -> Option<StationId> {
        (self != RelayTo::NONE).then_some(StationId(self.0))
    }

    /// The station, leaving none.
    pub fn take(&mut self) -> Option<StationId> {
        std::mem::replace(self, RelayTo::NONE).get()
    }
}

impl From<Option<StationId>> for RelayTo {
    fn from(s: Option<StationId>) -> RelayTo {
        debug_assert!(s.is_none_or(|s| s.0 <= StationId::MAX), "{s:?}");
        s.map_or(RelayTo::NONE, |s| RelayTo(s.0))
    }
}

/// One IP packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimPacket {
    /// Numbered in creation order, modulo 2^32: two packets made fewer than 2^32
    /// packets apart have different numbers (a 32-bit number keeps the packet in 64
    /// bytes, one cache line). Nothing in the simulation depends on it; tests and error
    /// messages use it to tell packets apart.
    pub id: u32,
    pub flow: FlowIndex,
    /// The station at the wireless end of the packet (source of an uplink packet,
    /// destination of a downlink one).
    pub station: StationId,
    /// Uplink (station → AP → server) or downlink.
    pub uplink: bool,
    /// On the uplink hop of a packet between two stations: the station the AP relays it
    /// to. The AP then sends it down to that station (which becomes `station`) instead
    /// of on to the server.
    pub relay_to: RelayTo,
    /// IP packet length.
    pub len_bytes: u32,
    pub tid: Tid,
    /// Hash of the 5-tuple, for the flow queues.
    pub flow_hash: u32,
    pub ecn: Ecn,
    /// When the application made it.
    pub created: Instant,
    pub payload: Payload,
    /// Set by whichever queue holds it.
    pub enqueue_time: Instant,
    /// The expected airtime the AP charged it when its driver took it from the MAC
    /// layer, µs, released again at its completion (mac80211 keeps it in the skb's
    /// control block, `ieee80211_info_set_tx_time_est`); 0 elsewhere.
    pub airtime_est_us: u32,
}

// Every queue of the simulator holds packets by value: one cache line each.
const _: () = assert!(size_of::<SimPacket>() <= 64);

/// `SKB_DATA_ALIGN(sizeof(struct sk_buff))` on x86_64: 232 bytes rounded up to the
/// 64-byte cache line (include/linux/skbuff.h).
const SK_BUFF_BYTES: u32 = 256;
/// `SKB_DATA_ALIGN(sizeof(struct skb_shared_info))` on x86_64 (17 page fragments).
const SHARED_INFO_BYTES: u32 = 320;
/// The receive buffer a NIC puts a frame of up to the MTU in: half a 4 KiB page, as
/// igb, ixgbe and i40e do (`igb_build_skb` hands `build_skb` 2048 bytes, of which the
/// `skb_shared_info` at the end takes its part).
const RX_BUFFER_BYTES: u32 = 2048;

/// Memory a packet of `len` bytes holds in Linux, `skb->truesize`: what mac80211's and
/// fq_codel's memory limits count. A packet the AP forwards was received by its NIC into
/// a 2 KiB buffer, whatever its length: `__build_skb_around` sets `SKB_TRUESIZE(2048 -
/// shared info)`, 2304 bytes, for a 64-byte ACK as for a 1500-byte segment; a longer
/// packet (no MTU here allows one) counts its length with the overheads
/// (`SKB_TRUESIZE`). Packets a station's stack makes are counted the same way: a TCP
/// segment's `sk_buff` with its payload in page fragments comes to about as much.
pub const fn truesize(len_bytes: u32) -> u32 {
    let data = RX_BUFFER_BYTES - SHARED_INFO_BYTES;
    let data = if len_bytes > data { len_bytes } else { data };
    data.saturating_add(SK_BUFF_BYTES + SHARED_INFO_BYTES)
}

impl Packet for SimPacket {
    fn len_bytes(&self) -> u32 {
        self.len_bytes
    }

    fn truesize_bytes(&self) -> u32 {
        truesize(self.len_bytes)
    }

    fn flow_hash(&self) -> u32 {
        self.flow_hash
    }

    fn enqueue_time(&self) -> Instant {
        self.enqueue_time
    }

    fn set_enqueue_time(&mut self, now: Instant) {
        self.enqueue_time = now;
    }

    fn ecn_capable(&self) -> bool {
        self.ecn.is_capable()
    }

    fn set_ce(&mut self) {
        self.ecn = Ecn::Ce;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `SKB_TRUESIZE(2048 - 320)` = 1728 + 256 + 320 for any frame that fits the buffer:
    /// 4 MiB then holds 1820 packets, where counting lengths let 2796 full-size ones in.
    #[test]
    fn truesize_is_the_receive_buffers() {
        assert_eq!(truesize(64), 2304);
        assert_eq!(truesize(1500), 2304);
        assert_eq!(truesize(1728), 2304);
        assert_eq!(truesize(3000), 3576);
        assert_eq!(truesize(u32::MAX), u32::MAX);
        assert_eq!((4 << 20) / truesize(1500), 1820);
    }

    #[test]
    fn relay_to_holds_a_station_or_none() {
        for s in [None, Some(StationId(0)), Some(StationId(StationId::MAX))] {
            let mut r = RelayTo::from(s);
            assert_eq!(r.get(), s);
            assert_eq!(r.take(), s);
            assert_eq!(r, RelayTo::NONE);
        }
    }
}
