//! A real IPv4 packet carried through the model (`airq emulate`): its bytes, kept to be
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

/// What the model needs to know of a real IPv4 packet.
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
    /// IP version other than 4 (IPv6 is not modelled yet).
    Version(u8),
}

impl std::fmt::Display for NotIpv4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotIpv4::Truncated => write!(f, "truncated IPv4 packet"),
            NotIpv4::Version(v) => write!(f, "IP version {v}, only IPv4 is carried"),
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

/// Marks the IPv4 packet `b` Congestion Experienced if it is ECN-capable, updating its
/// header checksum incrementally (RFC 1624 eq. 3: `HC' = ~(~HC + ~m + m')` over the
/// 16-bit word holding the DS field). True if it was marked.
pub fn mark_ce(b: &mut [u8]) -> bool {
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
}
