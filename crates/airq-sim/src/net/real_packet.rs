//! A real IPv4 or IPv6 packet carried through the model (`airq emulate`): its bytes, kept to be
//! handed back on delivery, and the fields the queues look at, read from its header as
//! RFC 791 §3.1 lays it out — total length, the DS field (DSCP and the two ECN bits of
//! RFC 3168 §5), protocol, addresses — and the ports of TCP (RFC 9293 §3.1) and UDP
//! (RFC 768), or the ICMP echo identifier, which Linux's flow dissector uses in place
//! of ports. A packet the AP marks CE gets its ECN bits and its header checksum (RFC 1071,
//! updated incrementally as RFC 1624 eq. 3 does) rewritten, as a real AP's CoDel would.

use crate::net::dscp::Dscp;
use crate::net::flow_hash::{FiveTuple, PROTO_ICMP, PROTO_TCP, PROTO_UDP};
use airq::Ecn;

/// Bytes of an IPv4 header without options.
pub const IPV4_HEADER_BYTES: usize = 20;

/// A real packet inside the model: its bytes and the payload length the receiving
/// application sees (what goodput counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealPacket {
    pub bytes: Box<[u8]>,
    /// Transport payload bytes (TCP or UDP data, ICMP data), for the goodput.
    pub payload_bytes: u32,
}

/// What the model needs to know of a real IPv4 packet, or of an IPv6 one with its
/// addresses folded to 32 bits ([`parse_ipv6`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4Fields {
    pub tuple: FiveTuple,
    pub dscp: Dscp,
    pub ecn: Ecn,
    /// The IP total length.
    pub len_bytes: u32,
    /// Transport payload bytes.
    pub payload_bytes: u32,
}

/// Why a frame is not an IPv4 packet the model can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotIpv4 {
    /// Shorter than its headers say.
    Truncated,
    /// IP version other than 4 and 6.
    Version(u8),
}

impl std::fmt::Display for NotIpv4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotIpv4::Truncated => write!(f, "truncated IPv4 packet"),
            NotIpv4::Version(v) => write!(f, "IP version {v}, only IPv4 and IPv6 are carried"),
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The ECN codepoint of the two low bits of a DS field.
fn ecn_of(ds_field: u8) -> Ecn {
    match ds_field & 3 {
        0 => Ecn::NotEct,
        1 => Ecn::Ect1,
        2 => Ecn::Ect0,
        _ => Ecn::Ce,
    }
}

/// Reads the fields of the IPv4 packet `b`.
pub fn parse_ipv4(b: &[u8]) -> Result<Ipv4Fields, NotIpv4> {
    if b.is_empty() {
        return Err(NotIpv4::Truncated);
    }
    let version = b[0] >> 4;
    if version != 4 {
        return Err(NotIpv4::Version(version));
    }
    let ihl = usize::from(b[0] & 0x0f) * 4;
    if ihl < IPV4_HEADER_BYTES || b.len() < ihl {
        return Err(NotIpv4::Truncated);
    }
    let total = usize::from(u16_at(b, 2));
    if total < ihl || b.len() < total {
        return Err(NotIpv4::Truncated);
    }
    let protocol = b[9];
    let l4 = &b[ihl..total];
    // Fragments after the first carry no transport header.
    let first_fragment = u16_at(b, 6) & 0x1fff == 0;
    let (src_port, dst_port, l4_header) = match protocol {
        PROTO_TCP if first_fragment && l4.len() >= 20 => {
            let offset = usize::from(l4[12] >> 4) * 4;
            (u16_at(l4, 0), u16_at(l4, 2), offset.min(l4.len()))
        }
        PROTO_UDP if first_fragment && l4.len() >= 8 => (u16_at(l4, 0), u16_at(l4, 2), 8),
        // Echo request (8) and reply (0): the identifier on both sides, as the flow
        // dissector's `FLOW_DISSECTOR_KEY_ICMP` keys them.
        PROTO_ICMP if first_fragment && l4.len() >= 8 && (l4[0] == 8 || l4[0] == 0) => {
            let id = u16_at(l4, 4);
            (id, id, 8)
        }
        _ => (0, 0, 0),
    };
    Ok(Ipv4Fields {
        tuple: FiveTuple {
            src: u32_at(b, 12),
            dst: u32_at(b, 16),
            src_port,
            dst_port,
            protocol,
        },
        dscp: Dscp::from_ds_field(b[1]),
        ecn: ecn_of(b[1]),
        len_bytes: total as u32,
        payload_bytes: (l4.len() - l4_header) as u32,
    })
}

/// Bytes of the IPv6 fixed header (RFC 8200 §3).
pub const IPV6_HEADER_BYTES: usize = 40;

/// ICMPv6's next-header number (RFC 4443 §1).
pub const PROTO_ICMPV6: u8 = 58;

/// Reads the fields of the IPv4 or IPv6 packet `b` ([`parse_ipv4`], [`parse_ipv6`]).
pub fn parse_ip(b: &[u8]) -> Result<Ipv4Fields, NotIpv4> {
    match b.first().map(|v| v >> 4) {
        Some(6) => parse_ipv6(b),
        _ => parse_ipv4(b),
    }
}

/// Folds an IPv6 address into 32 bits as Linux's `ipv6_addr_hash` does
/// (include/net/ipv6.h: the XOR of its four 32-bit words), which its flow dissector
/// used for an IPv6 flow's addresses before Linux 4.2: the model's flow hash then runs
/// over the IPv6 5-tuple with the address words folded.
pub fn ipv6_addr_hash(a: &[u8]) -> u32 {
    (0..4).fold(0, |h, k| h ^ u32_at(a, 4 * k))
}

/// Reads the fields of the IPv6 packet `b` (RFC 8200 §3: the traffic class holds the
/// DS field and ECN bits, RFC 2474 §3 and RFC 3168 §5): the 5-tuple of its upper-layer
/// header after any hop-by-hop, routing, fragment or destination options headers (§4),
/// TCP and UDP ports, or an ICMPv6 echo's identifier (RFC 4443 §4.1, 4.2) in both
/// ports, as for ICMP; addresses folded by [`ipv6_addr_hash`]. A fragment other than
/// the first has no ports.
pub fn parse_ipv6(b: &[u8]) -> Result<Ipv4Fields, NotIpv4> {
    if b.len() < IPV6_HEADER_BYTES {
        return Err(NotIpv4::Truncated);
    }
    let version = b[0] >> 4;
    if version != 6 {
        return Err(NotIpv4::Version(version));
    }
    let total = IPV6_HEADER_BYTES + usize::from(u16_at(b, 4));
    if b.len() < total {
        return Err(NotIpv4::Truncated);
    }
    let traffic_class = (b[0] << 4) | (b[1] >> 4);
    let (mut next, mut at, mut first_fragment) = (b[6], IPV6_HEADER_BYTES, true);
    // Extension headers: hop-by-hop options (0), routing (43), fragment (44),
    // destination options (60).
    while matches!(next, 0 | 43 | 44 | 60) && at + 8 <= total {
        let len = if next == 44 {
            first_fragment = u16_at(b, at + 2) & 0xfff8 == 0;
            8
        } else {
            (usize::from(b[at + 1]) + 1) * 8
        };
        next = b[at];
        at += len;
    }
    let at = at.min(total);
    let l4 = &b[at..total];
    let (src_port, dst_port, l4_header) = match next {
        PROTO_TCP if first_fragment && l4.len() >= 20 => {
            let offset = usize::from(l4[12] >> 4) * 4;
            (u16_at(l4, 0), u16_at(l4, 2), offset.min(l4.len()))
        }
        PROTO_UDP if first_fragment && l4.len() >= 8 => (u16_at(l4, 0), u16_at(l4, 2), 8),
        // Echo request (128) and reply (129).
        PROTO_ICMPV6 if first_fragment && l4.len() >= 8 && (l4[0] == 128 || l4[0] == 129) => {
            let id = u16_at(l4, 4);
            (id, id, 8)
        }
        _ => (0, 0, 0),
    };
    Ok(Ipv4Fields {
        tuple: FiveTuple {
            src: ipv6_addr_hash(&b[8..24]),
            dst: ipv6_addr_hash(&b[24..40]),
            src_port,
            dst_port,
            protocol: next,
        },
        dscp: Dscp::from_ds_field(traffic_class),
        ecn: ecn_of(traffic_class),
        len_bytes: total as u32,
        payload_bytes: (l4.len() - l4_header) as u32,
    })
}

/// Marks the IPv4 or IPv6 packet `b` Congestion Experienced if it is ECN-capable, updating
/// an IPv4 header's checksum incrementally (RFC 1624 eq. 3: `HC' = ~(~HC + ~m + m')` over the
/// 16-bit word holding the DS field). True if it was marked.
pub fn mark_ce(b: &mut [u8]) -> bool {
    if b.first().is_some_and(|v| v >> 4 == 6) {
        // The ECN bits are bits 4-5 of the second byte; IPv6 has no header checksum.
        let ecn = (b[1] >> 4) & 3;
        if b.len() < IPV6_HEADER_BYTES || ecn == 0 || ecn == 3 {
            return false;
        }
        b[1] |= 0x30;
        return true;
    }
    if b.len() < IPV4_HEADER_BYTES || b[1] & 3 == 0 || b[1] & 3 == 3 {
        return false;
    }
    let old = u16_at(b, 0);
    b[1] |= 3;
    let new = u16_at(b, 0);
    let mut sum = u32::from(!u16_at(b, 10)) + u32::from(!old) + u32::from(new);
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    b[10..12].copy_from_slice(&(!(sum as u16)).to_be_bytes());
    true
}

/// The RFC 1071 checksum of an IPv4 header as it should read (zero over a header whose
/// checksum is right).
pub fn header_checksum(header: &[u8]) -> u16 {
    let mut sum: u32 = header.chunks(2).map(|c| u32::from(u16_at(c, 0))).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An IPv4 packet of `protocol` from 10.0.0.1 to 10.0.1.1 with `payload` bytes
    /// after a minimal transport header, DS field `ds`, a correct header checksum.
    pub(crate) fn ipv4(protocol: u8, ds: u8, payload: usize) -> Vec<u8> {
        let l4 = match protocol {
            PROTO_TCP => 20,
            _ => 8,
        };
        let total = IPV4_HEADER_BYTES + l4 + payload;
        let mut b = vec![0u8; total];
        b[0] = 0x45;
        b[1] = ds;
        b[2..4].copy_from_slice(&(total as u16).to_be_bytes());
        b[8] = 64;
        b[9] = protocol;
        b[12..16].copy_from_slice(&[10, 0, 0, 1]);
        b[16..20].copy_from_slice(&[10, 0, 1, 1]);
        match protocol {
            PROTO_TCP => {
                b[20..22].copy_from_slice(&5201u16.to_be_bytes());
                b[22..24].copy_from_slice(&40000u16.to_be_bytes());
                b[32] = 5 << 4;
            }
            PROTO_ICMP => {
                b[20] = 8;
                b[24..26].copy_from_slice(&77u16.to_be_bytes());
            }
            _ => {
                b[20..22].copy_from_slice(&5004u16.to_be_bytes());
                b[22..24].copy_from_slice(&40000u16.to_be_bytes());
            }
        }
        let c = header_checksum(&b[..20]);
        b[10..12].copy_from_slice(&c.to_be_bytes());
        b
    }

    #[test]
    fn a_tcp_packet_gives_its_tuple_dscp_and_payload() {
        let f = parse_ipv4(&ipv4(PROTO_TCP, 46 << 2 | 2, 1448)).unwrap();
        assert_eq!(
            f.tuple,
            FiveTuple {
                src: 0x0a00_0001,
                dst: 0x0a00_0101,
                src_port: 5201,
                dst_port: 40000,
                protocol: PROTO_TCP
            }
        );
        assert_eq!((f.dscp.get(), f.ecn), (46, Ecn::Ect0));
        assert_eq!((f.len_bytes, f.payload_bytes), (1488, 1448));
    }

    #[test]
    fn an_echo_request_is_keyed_by_its_identifier() {
        let f = parse_ipv4(&ipv4(PROTO_ICMP, 0, 56)).unwrap();
        assert_eq!((f.tuple.src_port, f.tuple.dst_port), (77, 77));
        assert_eq!((f.len_bytes, f.payload_bytes), (84, 56));
    }

    #[test]
    fn what_is_not_a_whole_ipv4_packet_is_refused() {
        let mut v6 = ipv4(PROTO_UDP, 0, 10);
        v6[0] = 0x60;
        assert_eq!(parse_ipv4(&v6), Err(NotIpv4::Version(6)));
        let whole = ipv4(PROTO_UDP, 0, 10);
        assert_eq!(parse_ipv4(&whole[..30]), Err(NotIpv4::Truncated));
        assert_eq!(parse_ipv4(&[]), Err(NotIpv4::Truncated));
    }

    /// Marking CE keeps the header checksum right (RFC 1624), and leaves a Not-ECT
    /// packet alone.
    #[test]
    fn marking_ce_rewrites_the_ecn_bits_and_keeps_the_checksum_right() {
        for ds in [1u8, 2, 0xb8 | 2, 0xfe] {
            let mut b = ipv4(PROTO_TCP, ds, 100);
            assert!(mark_ce(&mut b));
            assert_eq!(b[1] & 3, 3);
            assert_eq!(header_checksum(&b[..20]), 0, "ds {ds:#x}");
        }
        let mut not_ect = ipv4(PROTO_TCP, 0, 100);
        assert!(!mark_ce(&mut not_ect));
        assert_eq!(not_ect, ipv4(PROTO_TCP, 0, 100));
    }

    /// An IPv6 packet from fd00::a00:1 to fd00::a00:101 with a hop-by-hop options
    /// header, then `next` with `payload` bytes after a minimal transport header,
    /// traffic class `tc`.
    fn ipv6(next: u8, tc: u8, payload: usize) -> Vec<u8> {
        let l4 = if next == PROTO_TCP { 20 } else { 8 };
        let mut b = vec![0u8; IPV6_HEADER_BYTES + 8 + l4 + payload];
        b[0] = 0x60 | (tc >> 4);
        b[1] = tc << 4;
        b[4..6].copy_from_slice(&((8 + l4 + payload) as u16).to_be_bytes());
        b[6] = 0; // hop-by-hop options
        b[7] = 64;
        b[8..10].copy_from_slice(&[0xfd, 0]);
        b[20..24].copy_from_slice(&[10, 0, 0, 1]);
        b[24..26].copy_from_slice(&[0xfd, 0]);
        b[36..40].copy_from_slice(&[10, 0, 1, 1]);
        b[40] = next;
        let t = &mut b[48..];
        match next {
            PROTO_ICMPV6 => {
                t[0] = 128;
                t[4..6].copy_from_slice(&77u16.to_be_bytes());
            }
            _ => {
                t[0..2].copy_from_slice(&5201u16.to_be_bytes());
                t[2..4].copy_from_slice(&40000u16.to_be_bytes());
                t[12] = 5 << 4;
            }
        }
        b
    }

    /// IPv6 past an extension header: ports, the DS field of the traffic class,
    /// the lengths, the addresses folded as `ipv6_addr_hash`; an echo by its
    /// identifier; CE marked in the traffic class.
    #[test]
    fn an_ipv6_packet_gives_its_tuple_dscp_and_payload() {
        let f = parse_ip(&ipv6(PROTO_TCP, 46 << 2 | 2, 1000)).unwrap();
        let t = f.tuple;
        assert_eq!(
            (t.src_port, t.dst_port, t.protocol),
            (5201, 40000, PROTO_TCP)
        );
        assert_eq!(
            (t.src, t.dst),
            (0xfd00_0000 ^ 0x0a00_0001, 0xfd00_0000 ^ 0x0a00_0101)
        );
        assert_eq!((f.dscp.get(), f.ecn), (46, Ecn::Ect0));
        assert_eq!((f.len_bytes, f.payload_bytes), (40 + 8 + 20 + 1000, 1000));
        let echo = parse_ip(&ipv6(PROTO_ICMPV6, 0, 56)).unwrap();
        assert_eq!((echo.tuple.src_port, echo.tuple.dst_port), (77, 77));
        assert_eq!(echo.tuple.protocol, PROTO_ICMPV6);
        let mut b = ipv6(PROTO_UDP, 2, 10);
        assert!(mark_ce(&mut b));
        assert_eq!(parse_ip(&b).unwrap().ecn, Ecn::Ce);
        assert_eq!(parse_ip(&b).unwrap().dscp.get(), 0);
        assert_eq!(parse_ip(&b[..30]), Err(NotIpv4::Truncated));
        assert_eq!(parse_ip(&[0x50; 40]), Err(NotIpv4::Version(5)));
    }
}
